// The imports page: every recorded import with its per-file figures, and the findings of one import
// (merges, links, ambiguities, rejected rows, values read leniently or not at all, flags, columns).
import { api, el, entityLink, showError } from "./common.js";

const LIST = document.getElementById("imports-list");
const FINDINGS = document.getElementById("import-findings");
const KIND = document.getElementById("finding-kind");
const FILE = document.getElementById("finding-file");
let current = null;

const COLUMNS = [["file", "File"], ["mode", "Update"], ["snapshot", "Snapshot"], ["rows", "Rows"],
  ["imported", "Imported"], ["rejected", "Rejected"], ["kept", "Earlier rows kept"], ["created", "Created"],
  ["rounding", "Rounding differences"], ["disagreements", "Disagreements"]];

function fileTable(record) {
  return el("div", { class: "table-scroll", tabindex: "0", role: "region", "aria-label": "Files of this import" }, el("table", { class: "imports-table imports-files" },
    el("thead", {}, el("tr", {}, COLUMNS.map(([, title]) => el("th", {}, title)))),
    el("tbody", {}, record.files.map((f) => el("tr", { "data-file": f.file },
      COLUMNS.map(([key]) => el("td", {}, f[key] ?? "")),
      f.warnings?.length ? el("td", { class: "warn" }, f.warnings.join(" · ")) : null)))));
}

const PAGE = 200;
/** Findings in pages of 200: the table grows on "more", so a long list stays quick to draw. */
function findingsTable(findings) {
  const body = el("tbody", {});
  const more = el("button", { type: "button" });
  let shown = 0;
  const grow = () => {
    body.append(...findings.slice(shown, shown + PAGE).map(findingRow));
    shown = Math.min(findings.length, shown + PAGE);
    more.hidden = shown >= findings.length;
    more.textContent = `show ${Math.min(PAGE, findings.length - shown)} more of ${findings.length - shown}`;
  };
  more.addEventListener("click", grow);
  grow();
  return [el("div", { class: "table-scroll", tabindex: "0", role: "region", "aria-label": "Findings" }, el("table", { class: "imports-table findings" },
    el("thead", {}, el("tr", {}, el("th", {}, "Kind"), el("th", {}, "Where"), el("th", {}, "What"), el("th", {}, "Why / value"))),
    body)), more];
}

function renderList(records) {
  if (!records.length) { LIST.replaceChildren(el("p", { class: "muted" }, "No import has been recorded yet.")); return; }
  LIST.replaceChildren(...records.map((r, i) => el("details", { open: i === 0 ? "" : null, "data-import": r.id },
    el("summary", {}, `${r.started} · ${r.directory || ""} · ${r.totals.imported ?? 0} of ${r.totals.rows ?? 0} rows imported`,
      r.totals.rejected ? `, ${r.totals.rejected} rejected` : "", ` · ${r.seconds?.toFixed?.(1) ?? "?"} s`),
    // beside the summary, not in it: a control inside a summary is not reachable as itself
    el("button", { type: "button", class: "findings-button", onclick: () => load(r) }, "findings"),
    fileTable(r))));
  if (records.length) load(records[0]);
}

function ref(iri) {
  return iri ? entityLink(iri) : "";
}

function findingRow(f) {
  const what = f.kind === "link" && f.link
    ? [ref(f.node), " ", f.link.property.split("#").pop(), " ", ref(f.link.target)]
    : f.kind === "merge" || f.kind === "ambiguity"
      ? [`${f.entity_kind || ""} “${f.name}” → `, ref(f.node),
        f.candidates?.length ? [" · candidates: ", f.candidates.flatMap((c, i) => [i ? ", " : "", ref(c)])] : ""]
      : f.message;
  return el("tr", { "data-kind": f.kind },
    el("td", {}, f.kind), el("td", {}, f.file ? `${f.file}${f.row ? `:${f.row}` : ""}` : ""),
    el("td", {}, what), el("td", { class: "muted" }, f.kind === "merge" || f.kind === "ambiguity" || f.kind === "link" ? (f.rule || "") : (f.value || "")));
}

async function load(record) {
  current = record;
  const params = new URLSearchParams();
  if (KIND.value) params.set("kind", KIND.value);
  if (FILE.value) params.set("file", FILE.value);
  FILE.replaceChildren(el("option", { value: "" }, "all"),
    ...record.files.map((f) => el("option", { value: f.file, selected: FILE.value === f.file ? "" : null }, f.file)));
  document.getElementById("import-title").textContent = `Findings of the import of ${record.started}`;
  try {
    const body = await api(`${record.links.self}?${params}`);
    const counts = Object.entries(body.counts).filter(([, n]) => n).map(([k, n]) => `${n} ${k}`).join(" · ");
    FINDINGS.replaceChildren(el("p", { class: "muted" }, counts || "No findings."),
      ...findingsTable(body.findings));
  } catch (err) {
    showError(FINDINGS, err, "the findings");
  }
}

KIND.addEventListener("change", () => current && load(current));
FILE.addEventListener("change", () => current && load(current));

api("/api/imports").then((body) => renderList(body.imports)).catch((err) => showError(LIST, err, "the imports"));
