// The SPARQL editor: YASGUI pointed at aikg's own /sparql, prefilled with aikg's prefixes and example
// queries. Remote look-ups YASGUI would make (prefix.cc, LOV) are switched off or served locally.
import { el, param, slugOf } from "./common.js";

const config = JSON.parse(document.getElementById("editor-config").textContent);
const endpoint = `${location.origin}/sparql`;
const prologue = Object.entries(config.prefixes).map(([p, iri]) => `PREFIX ${p}: <${iri}>`).join("\n");
const withPrologue = (q) => `${prologue}\n\n${q.trim()}\n`;
const FIRST_VISIT = "aikg-editor-examples";

const Y = window.Yasgui;
Y.Yasqe.defaults.autocompleters = ["variables", "prefixes"];
Y.Yasqe.defaults.prefixCcApi = `${location.origin}/editor/prefixes.json`;
Y.Yasqe.defaults.value = withPrologue(config.examples[0][1]);
Y.Yasr.defaults.prefixes = config.prefixes;
Y.Yasr.defaults.errorRenderers = [(error) => readableError(error, yasgui.getTab()?.getYasqe()?.getValue() || "")];

/** aikg's error envelope as a person reads it: the message, where (line and column) and the lines
 * around that place with a caret under the column, wrapped; undefined for anything else (YASR's own). */
export function readableError(error, query) {
  let body = null;
  try { body = JSON.parse(error?.text || ""); } catch { return undefined; }
  if (!body || typeof body !== "object" || !body.message) return undefined;
  const where = (body.errors || []).find((e) => Number.isInteger(e.line) && Number.isInteger(e.column));
  const parts = [el("p", { class: "error-title" }, `${body.error || "error"} (${body.status || error.status || "?"})`),
    el("p", { class: "error-message" }, body.message)];
  if (where) {
    const lines = query.split("\n");
    const first = Math.max(1, where.line - 2);
    const shown = [];
    for (let n = first; n <= Math.min(lines.length, where.line + 1); n++) {
      const gutter = String(n).padStart(4) + " | ";
      shown.push(gutter + lines[n - 1]);
      if (n === where.line) shown.push(" ".repeat(gutter.length + Math.max(0, where.column - 1)) + "^");
    }
    parts.push(el("p", { class: "error-where" }, `line ${where.line}, column ${where.column}`),
      el("pre", { class: "error-context" }, shown.join("\n")));
  }
  return el("div", { class: "aikg-error", role: "alert" }, parts);
}

const yasgui = new Y(document.getElementById("yasgui"), {
  requestConfig: { endpoint, method: "POST" },
  copyEndpointOnNewTab: true,
  endpointCatalogueOptions: { getData: () => [{ endpoint }], keys: [] },
  persistenceId: "aikg-editor",
  autofocus: false,
  yasqe: { resizeable: true, editorHeight: "320px" },
});
window.aikgEditor = yasgui;

function tabs() {
  return Object.values(yasgui._tabs);
}

if (!localStorage.getItem(FIRST_VISIT)) {
  const [first, ...rest] = config.examples;
  const tab = yasgui.getTab();
  tab.setName(first[0]);
  tab.setQuery(withPrologue(first[1]));
  for (const [name, q] of rest) yasgui.addTab(false, { name, yasqe: { value: withPrologue(q) } });
  localStorage.setItem(FIRST_VISIT, "1");
}
for (const tab of tabs()) if (tab.getEndpoint() !== endpoint) tab.setEndpoint(endpoint);

// A named query (?named=, its text written in by the server) or any text (?query=) opens in a new tab.
const given = config.given?.query || param("query");
if (given) {
  const query = /^\s*PREFIX/i.test(given) ? given : withPrologue(given);
  const tab = yasgui.addTab(true, { name: config.given?.name || "From a question", yasqe: { value: query } });
  tab.getYasqe().query();
}

// Show each query rather than the prologue: fold the PREFIX lines, and run the open tab once.
for (const tab of tabs()) tab.getYasqe()?.collapsePrefixes(true);
yasgui.on("tabSelect", (_, id) => setTimeout(() => yasgui.getTab(id)?.getYasqe()?.collapsePrefixes(true), 0));
const current = yasgui.getTab();
if (!given && current && !current.getYasr()?.results) current.getYasqe().query();

/** What YASGUI leaves out for assistive technology, put in after each render (axe-core's critical
 * findings): names for the query text, the endpoint box and the page-size list; a tab list holding
 * only tabs (the "add a tab" button moved after it); tabs controlling panels that exist. */
const NAMES = [[".CodeMirror textarea", "SPARQL query"], ["input.autocomplete", "SPARQL endpoint"],
  ["select.tableSizer", "Rows per page"], [".tabsList .tab input[type=text]", "Tab name"]];
function accessible(root) {
  for (const [selector, name] of NAMES) {
    for (const node of root.querySelectorAll(selector)) if (!node.getAttribute("aria-label")) node.setAttribute("aria-label", name);
  }
  // YASGUI inserts new tabs before its "add" button when it holds one, else appends them.
  const tabList = yasgui.tabElements;
  if (tabList?.addTabEl?.parentElement?.getAttribute("role") === "tablist") {
    tabList.addTabEl.parentElement.after(tabList.addTabEl);
    tabList.addTabEl.classList.add("add-tab-outside");
    tabList.addTabEl = null;
  }
  for (const tab of root.querySelectorAll("[role=tab][aria-controls]")) {
    if (!document.getElementById(tab.getAttribute("aria-controls"))) tab.removeAttribute("aria-controls");
  }
}

// Entity IRIs in results open the entity's page here rather than going out to w3id.org.
const ID_BASE = config.prefixes.id;
const box = document.getElementById("yasgui");
new MutationObserver(() => {
  for (const a of document.querySelectorAll(`#yasgui a[href^="${ID_BASE}"]`)) {
    a.setAttribute("href", `/id/${slugOf(a.getAttribute("href"))}`);
    a.removeAttribute("target");
  }
  accessible(box);
}).observe(box, { childList: true, subtree: true, attributes: true, attributeFilter: ["aria-controls"] });
accessible(box);
