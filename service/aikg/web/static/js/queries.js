// Named queries: the list, a form for each query's parameters, results as a table with entity links,
// downloadable as CSV and JSON.
import { api, el, foldLabels, normalizeTable, resultsTable, showError } from "./common.js";
import { attachSearch } from "./search.js";

const listEl = document.getElementById("query-list");
const panel = document.getElementById("query-panel");
const TEXTS = JSON.parse(document.getElementById("query-texts").textContent);
let queries = [];

function selectedName() {
  const m = location.pathname.match(/^\/queries\/([^/]+)$/);
  if (m) return decodeURIComponent(m[1]);
  return location.hash ? decodeURIComponent(location.hash.slice(1)) : null;
}

function renderList(active) {
  listEl.replaceChildren(...queries.map((q) => el("li", {},
    el("a", { href: `/queries/${encodeURIComponent(q.name)}`, class: q.name === active ? "active" : null, "data-query": q.name },
      q.title || q.name, el("small", {}, q.name)))));
}

function paramInput(p, initial) {
  const id = `p-${p.name}`;
  const input = el("input", { id, name: p.name, type: "text", autocomplete: "off", required: p.required || null,
    placeholder: { entity: "name or slug, e.g. nvidia", date: "YYYY-MM-DD", integer: "a whole number",
      decimal: "a number", iri: "https://…" }[p.type] || "" });
  input.value = initial ?? p.default ?? "";
  const wrap = el("div", { class: p.type === "entity" ? "picker" : null }, input);
  if (p.type === "entity") {
    attachSearch(wrap, { onPick: (hit) => { input.dataset.slug = hit.slug; input.dataset.label = hit.label; } });
  }
  return el("div", {},
    el("label", { for: id }, p.name, p.required ? " *" : ""),
    wrap,
    el("div", { class: "hint" }, [p.description, p.type !== "string" ? ` (${p.type})` : ""].join("")));
}

function withFormat(url, format) {
  return `${url}${url.includes("?") ? "&" : "?"}format=${format}`;
}

function readParams(form, q) {
  const params = new URLSearchParams();
  for (const p of q.parameters || []) {
    const input = form.elements[p.name];
    let v = input.value.trim();
    if (p.type === "entity" && input.dataset.slug && v === input.dataset.label) v = input.dataset.slug;
    if (v) params.set(p.name, v);
  }
  return params;
}

async function run(q, params, out) {
  const url = `/api/queries/${encodeURIComponent(q.name)}${params.toString() ? "?" + params : ""}`;
  out.replaceChildren(el("p", { class: "muted" }, "Running…"));
  out.dataset.state = "running";
  let body;
  try {
    body = await api(url);
  } catch (err) {
    showError(out, err, "The query failed");
    out.dataset.state = "error";
    return;
  }
  const table = normalizeTable(body);
  const stem = q.name + (params.toString() ? "-" + [...params.values()].join("-") : "");
  const toolbar = el("div", { class: "toolbar" },
    el("strong", { id: "row-count" }, `${table.rows.length} row${table.rows.length === 1 ? "" : "s"}`),
    table.truncated ? el("span", { class: "warn" }, "cut off at the row limit") : null,
    el("span", { style: { flex: 1 } }),
    el("a", { class: "btn", id: "dl-csv", href: withFormat(url, "csv"), download: `${stem}.csv` }, "↓ CSV"),
    el("a", { class: "btn", id: "dl-json", href: url, download: `${stem}.json` }, "↓ JSON"));
  const shown = foldLabels(table, (q.parameters || []).map((p) => p.name));
  const content = table.rows.length ? await resultsTable(shown)
    : el("p", { class: "muted" }, "No rows: nothing in the graph answers this question with these parameters.");
  out.replaceChildren(toolbar, content);
  out.dataset.state = "done";
}

function renderQuery(q, initialParams) {
  const form = el("form", { class: "form", id: "query-form" }, (q.parameters || []).map((p) => paramInput(p, initialParams.get(p.name))));
  const out = el("div", { id: "query-results" });
  const sparql = TEXTS[q.name] || "";
  const editorHref = `/editor?named=${encodeURIComponent(q.name)}`;  // by name: some texts outgrow a URL
  form.append(el("div", { style: { alignSelf: "end" } }, el("button", { class: "btn primary", type: "submit", id: "run" }, "Run")));
  form.addEventListener("submit", (ev) => {
    ev.preventDefault();
    const params = readParams(form, q);
    history.replaceState(null, "", `/queries/${encodeURIComponent(q.name)}${params.toString() ? "?" + params : ""}`);
    run(q, params, out);
  });
  // Example questions (from the query's header): asked in plain words, each opens the ask page.
  const examples = (q.examples || []).length ? el("div", { class: "examples", id: "query-examples" },
    el("span", { class: "muted" }, "Ask it in plain words: "),
    q.examples.map((text) => el("a", { class: "chip example", href: `/ask?q=${encodeURIComponent(text)}` }, text))) : null;
  panel.replaceChildren(
    el("h1", {}, q.title || q.name),
    el("p", {}, q.description || ""),
    examples,
    form,
    ...(sparql ? [el("details", { class: "sparql" }, el("summary", {}, "SPARQL of this question"), el("pre", {}, sparql),
      el("a", { href: editorHref }, "Open in the SPARQL editor"))] : []),
    out);
  const ready = (q.parameters || []).every((p) => !p.required || initialParams.get(p.name) || p.default);
  if (ready) form.requestSubmit();
}

async function main() {
  try {
    const body = await api("/api/queries");
    queries = body.queries;
  } catch (err) {
    showError(listEl, err, "Could not list the queries");
    return;
  }
  const name = selectedName();
  renderList(name);
  const q = queries.find((x) => x.name === name);
  if (q) {
    document.title = `${q.title || q.name} · aikg`;
    renderQuery(q, new URLSearchParams(location.search));
  } else if (name) {
    panel.replaceChildren(el("p", { class: "error" }, `There is no question named “${name}”.`));
  }
}
main();
