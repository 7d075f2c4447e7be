// The timeline: dated events from the named query events-between, grouped by year, coloured by type.
import { api, colorOf, dot, el, entityLink, familyLabel, familyOf, foldLabels, labelsFor, normalizeTable, param, renderCell,
  showError, typeLabel } from "./common.js";

const QUERY = "events-between";
const WIDE = { from: "1900-01-01", to: "2100-12-31" };
const list = document.getElementById("timeline");
const stats = document.getElementById("tl-stats");
const form = document.getElementById("tl-form");
const fromInput = document.getElementById("tl-from");
const toInput = document.getElementById("tl-to");
const hidden = new Set();
let events = [];

const DATE = /^-?\d{4}(-\d{2}(-\d{2})?)?/;
const pick = (vars, ...names) => vars.findIndex((v) => names.includes(v.toLowerCase()));
const ECHOED = ["from", "to"];

/** Fold the query's rows into one record per event: its date, label, types and linked entities. */
export function eventsOf(raw) {
  const table = foldLabels(raw, ECHOED);
  const vars = table.vars;
  let iEvent = pick(vars, "event", "e", "node", "item");
  let iDate = pick(vars, "date", "when", "start", "startdate", "day");
  const iLabel = pick(vars, "label", "eventlabel", "title", "name");
  const iType = pick(vars, "type", "class", "kind", "eventtype");
  const iEnd = pick(vars, "end", "enddate");
  if (iEvent < 0) iEvent = vars.findIndex((_, i) => table.rows.some((r) => r[i]?.kind === "iri"));
  if (iDate < 0) iDate = vars.findIndex((_, i) => table.rows.some((r) => r[i]?.kind === "literal" && DATE.test(r[i].value)));
  const byEvent = new Map();
  for (const row of table.rows) {
    const ev = row[iEvent];
    const date = row[iDate];
    if (!ev || !date) continue;
    let rec = byEvent.get(ev.value);
    if (!rec) {
      rec = { iri: ev.value, date: date.value, end: iEnd >= 0 ? row[iEnd]?.value : null, label: ev.label || null, types: new Map(), extra: new Map() };
      byEvent.set(ev.value, rec);
    }
    if (iLabel >= 0 && row[iLabel]) rec.label = row[iLabel].value;
    if (iType >= 0 && row[iType]) rec.types.set(row[iType].value, row[iType].label || typeLabel(row[iType].value));
    row.forEach((cell, i) => {
      if (!cell || [iEvent, iDate, iLabel, iType, iEnd].includes(i)) return;
      if (!rec.extra.has(vars[i])) rec.extra.set(vars[i], new Map());
      rec.extra.get(vars[i]).set(cell.value, cell);
    });
  }
  return [...byEvent.values()].sort((a, b) => a.date.localeCompare(b.date));
}

function render(labels) {
  const visible = events.filter((e) => !hidden.has(e.family));
  stats.textContent = `${visible.length} of ${events.length} events`;
  list.dataset.events = String(visible.length);
  const items = [];
  let year = null;
  for (const e of visible) {
    const y = e.date.slice(0, 4);
    if (y !== year) { year = y; items.push(el("div", { class: "tl-year" }, y)); }
    const kinds = [...e.types.values()].filter(Boolean);
    const details = [...e.extra.entries()].map(([v, cells]) => el("div", { class: "src" }, `${v}: `,
      [...cells.values()].map((c, i) => [i ? ", " : "", renderCell(c, labels)])));
    items.push(el("div", { class: "tl-item", style: { "--fam": colorOf(e.family) } },
      el("div", { class: "node-card", style: { "--fam": colorOf(e.family) } },
        el("header", {},
          el("span", { class: "tl-date" }, e.end ? `${e.date} → ${e.end}` : e.date),
          entityLink(e.iri, e.label || labels.get(e.iri)),
          el("span", { class: "role" }, kinds.join(", "))),
        details)));
  }
  list.replaceChildren(...(items.length ? items : [el("p", { class: "muted" }, "No dated events in this range.")]));
}

function renderKinds() {
  const counts = new Map();
  for (const e of events) counts.set(e.family, (counts.get(e.family) || 0) + 1);
  document.getElementById("tl-kinds").replaceChildren(...[...counts.entries()].map(([fam, n]) => {
    const chip = el("button", { class: "chip", type: "button", style: { borderColor: colorOf(fam), opacity: hidden.has(fam) ? 0.45 : 1 } },
      dot(fam), familyLabel(fam), el("span", { class: "count" }, String(n)));
    chip.addEventListener("click", () => {
      if (hidden.has(fam)) hidden.delete(fam); else hidden.add(fam);
      chip.style.opacity = hidden.has(fam) ? 0.45 : 1;
      render(currentLabels);
    });
    return chip;
  }));
}

let currentLabels = new Map();

async function load() {
  const params = new URLSearchParams({ from: fromInput.value || WIDE.from, to: toInput.value || WIDE.to });
  stats.textContent = "Loading…";
  list.dataset.events = "";
  try {
    const table = normalizeTable(await api(`/api/queries/${QUERY}?${params}`));
    events = eventsOf(table);
    for (const e of events) {
      const fam = familyOf([...e.types.keys()]);
      e.family = fam === "other" ? "event" : fam;
    }
    const iris = events.flatMap((e) => [e.iri, ...[...e.extra.values()].flatMap((m) => [...m.keys()])]);
    try { currentLabels = await labelsFor(iris); } catch { currentLabels = new Map(); }
  } catch (err) {
    showError(list, err, "Could not load the events");
    stats.textContent = "";
    return;
  }
  renderKinds();
  render(currentLabels);
  const q = new URLSearchParams();
  if (fromInput.value) q.set("from", fromInput.value);
  if (toInput.value) q.set("to", toInput.value);
  history.replaceState(null, "", `${location.pathname}${q.toString() ? "?" + q : ""}`);
}

fromInput.value = param("from", "");
toInput.value = param("to", "");
form.addEventListener("submit", (ev) => { ev.preventDefault(); load(); });
load();
