// The timeline: dated events from the named query events-between, grouped by year, coloured by type.
// It opens on now — this year and the last, newest first — with the later (planned) events one click
// away and a bar per year above it to move elsewhere; events are listed a page at a time.
import { allPages, api, colorOf, dot, el, entityLink, familyLabel, familyOf, foldLabels, labelsFor, normalizeTable, param, renderCell,
  showError, typeLabel } from "./common.js";

const QUERY = "events-between";
const PAGE = 200;
const YEARS_QUERY = `PREFIX aikg: <https://w3id.org/aikg/ontology#>
SELECT ?year (COUNT(DISTINCT ?event) AS ?n) WHERE { ?event aikg:date ?date . BIND (SUBSTR(STR(?date), 1, 4) AS ?year) }
GROUP BY ?year ORDER BY ?year`;
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

/** The window the timeline opens on: the last two years up to now (or up to the latest event, when
 * the data stop before now), and the years after it that hold events (planned ones), if any. */
export function openingWindow(counts, nowYear) {
  const years = [...counts.keys()].filter((y) => /^\d{4}$/.test(y)).map(Number).sort((a, b) => a - b);
  if (!years.length) return null;
  const past = years.filter((y) => y <= nowYear);
  const to = past.length ? past[past.length - 1] : years[0];
  const later = years.filter((y) => y > to);
  return { from: to - 1, to, later: later.reduce((n, y) => n + counts.get(String(y)), 0),
    lastYear: years[years.length - 1] };
}

let yearCounts = new Map();

async function loadYears() {
  const body = await api("/sparql", {
    method: "POST",
    headers: { Accept: "application/sparql-results+json", "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ query: YEARS_QUERY }),
  });
  yearCounts = new Map(body.results.bindings.map((b) => [b.year.value, Number(b.n.value)]));
}

/** A bar per year (height: its events), the shown range highlighted; a click shows that year. */
function renderYears() {
  const box = document.getElementById("tl-years");
  const years = [...yearCounts.keys()].filter((y) => /^\d{4}$/.test(y)).map(Number).sort((a, b) => a - b);
  if (!years.length) { box.replaceChildren(); return; }
  const max = Math.max(...yearCounts.values());
  const from = Number((fromInput.value || "").slice(0, 4)) || years[0];
  const to = Number((toInput.value || "").slice(0, 4)) || years[years.length - 1];
  const bars = [];
  for (let y = years[0]; y <= years[years.length - 1]; y++) {
    const n = yearCounts.get(String(y)) || 0;
    const bar = el("button", { type: "button", class: `tl-bar${y >= from && y <= to ? " in" : ""}`, "data-year": String(y),
      title: `${y}: ${n} event${n === 1 ? "" : "s"}`, "aria-label": `${y}, ${n} events`, disabled: n === 0 || null },
    el("span", { style: { height: `${n ? Math.max(8, Math.round((100 * Math.sqrt(n)) / Math.sqrt(max))) : 0}%` } }));
    bar.addEventListener("click", () => { fromInput.value = `${y}-01-01`; toInput.value = `${y}-12-31`; load(); });
    bars.push(bar);
  }
  box.replaceChildren(el("div", { class: "tl-bars" }, bars),
    el("div", { class: "tl-axis" }, el("span", {}, String(years[0])), el("span", {}, String(years[years.length - 1]))));
}

let limit = PAGE;
let opening = null;

function newestFirst() {
  return document.getElementById("tl-order").value !== "oldest";
}

function render(labels) {
  const visible = events.filter((e) => !hidden.has(e.family));
  if (newestFirst()) visible.reverse();
  const shown = visible.slice(0, limit);
  stats.textContent = `${visible.length} of ${events.length} events from ${fromInput.value || "the first"} to ${toInput.value || "the last"}`
    + (shown.length < visible.length ? ` · the first ${shown.length} listed` : "");
  list.dataset.events = String(visible.length);
  list.dataset.listed = String(shown.length);
  const items = [];
  let year = null;
  for (const e of shown) {
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
  if (shown.length < visible.length) {
    const more = el("button", { type: "button", class: "btn more", id: "tl-more" }, `Show ${Math.min(PAGE, visible.length - shown.length)} more · ${visible.length - shown.length} not listed`);
    more.addEventListener("click", () => { limit += PAGE; render(currentLabels); });
    items.push(more);
  }
  const later = laterNote();
  list.replaceChildren(...(later ? [later] : []),
    ...(items.length ? items : [el("p", { class: "muted" }, "No dated events in this range.")]));
}

/** "15 later events (2027–2032) →": the planned events after the window, one click away. */
function laterNote() {
  const to = Number((toInput.value || "").slice(0, 4));
  if (!opening || !to || to >= opening.lastYear) return null;
  let n = 0;
  for (const [y, count] of yearCounts) if (Number(y) > to) n += count;
  if (!n) return null;
  const more = el("button", { type: "button", class: "btn tl-later", id: "tl-later" },
    `${n} later event${n === 1 ? "" : "s"} (${to + 1}–${opening.lastYear}) →`);
  more.addEventListener("click", () => { toInput.value = `${opening.lastYear}-12-31`; load(); });
  return more;
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
      limit = PAGE;
      render(currentLabels);
    });
    return chip;
  }));
}

let currentLabels = new Map();

async function load() {
  const params = new URLSearchParams({ from: fromInput.value || "1000-01-01", to: toInput.value || "2999-12-31" });
  stats.textContent = "Loading…";
  list.dataset.events = "";
  limit = PAGE;
  renderYears();
  try {
    const table = normalizeTable(await allPages(`/api/queries/${QUERY}?${params}`));
    events = eventsOf(table);
    for (const e of events) {
      const fam = familyOf([...e.types.keys()]);
      e.family = fam === "other" ? "event" : fam;
    }
    // the query labels its events; only other entities in the rows need looking up
    const iris = events.flatMap((e) => [e.label ? null : e.iri,
      ...[...e.extra.values()].flatMap((m) => [...m.values()].filter((c) => !c.label).map((c) => c.value))]).filter(Boolean);
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
  if (!newestFirst()) q.set("order", "oldest");
  history.replaceState(null, "", `${location.pathname}${q.toString() ? "?" + q : ""}`);
}

async function start() {
  fromInput.value = param("from", "");
  toInput.value = param("to", "");
  try { await loadYears(); } catch { yearCounts = new Map(); }
  opening = openingWindow(yearCounts, new Date().getFullYear());
  if (!fromInput.value && !toInput.value && opening) {
    fromInput.value = `${opening.from}-01-01`;
    toInput.value = `${opening.to}-12-31`;
  }
  document.getElementById("tl-order").value = param("order", "newest") === "oldest" ? "oldest" : "newest";
  load();
}

form.addEventListener("submit", (ev) => { ev.preventDefault(); load(); });
document.getElementById("tl-order").addEventListener("change", () => { limit = PAGE; render(currentLabels); });
document.getElementById("tl-all").addEventListener("click", () => { fromInput.value = ""; toInput.value = ""; load(); });
start();
