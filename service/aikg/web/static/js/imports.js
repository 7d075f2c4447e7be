// The imports page: every recorded import with its per-file figures, and the findings of one import
// (merges, links, ambiguities, rejected rows, values read leniently or not at all, flags, columns).
import { api, el, entityLink, showError } from "./common.js";

const LIST = document.getElementById("imports-list");
const FINDINGS = document.getElementById("import-findings");
const KIND = document.getElementById("finding-kind");
const FILE = document.getElementById("finding-file");
let current = null;

const COLUMNS = [["file", "File"], ["mode", "Update"], ["snapshot", "Snapshot"], ["rows", "Rows"],
  ["imported", "Imported"], ["rejected", "Rejected"], ["rows_matched", "Matched"], ["rows_new", "New"],
  ["kept", "Rows not in the file, kept"], ["values_added", "Values added"], ["values_changed", "Changed"],
  ["values_kept", "Kept, not restated"], ["values_older", "Older, kept as history"], ["created", "Created"],
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

const shown = (v) => v.iri ? ref(v.iri) : v.value;
const values = (list) => list.flatMap((v, i) => [i ? ", " : "", shown(v)]);

/** The import's diff: per entity and property, what it did, with the values before and after. */
function changesTable(changes) {
  if (!changes.length) return [];
  return [el("h3", {}, `Changes: ${changes.length}`), el("div", { class: "table-scroll" },
    el("table", { class: "imports-table findings", id: "import-changes" },
      el("thead", {}, el("tr", {}, ["Entity", "Property", "Change", "Before", "After", "File"].map((t) => el("th", {}, t)))),
      el("tbody", {}, changes.slice(0, 2000).map((c) => el("tr", { "data-kind": c.kind },
        el("td", {}, c.label ? entityLink(c.entity, c.label) : ref(c.entity)), el("td", {}, c.property.split("#").pop()),
        el("td", {}, c.kind, c.difference ? ` (${c.difference})` : ""),
        el("td", {}, values(c.before), c.before_snapshot ? ` (${c.before_snapshot})` : ""),
        el("td", {}, values(c.after), ` (${c.after_snapshot})`), el("td", { class: "muted" }, c.file || ""))))))];
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
      ...findingsTable(body.findings), ...changesTable(body.changes || []));
  } catch (err) {
    showError(FINDINGS, err, "the findings");
  }
}

KIND.addEventListener("change", () => current && load(current));
FILE.addEventListener("change", () => current && load(current));

api("/api/imports").then((body) => renderList(body.imports)).catch((err) => showError(LIST, err, "the imports"));
