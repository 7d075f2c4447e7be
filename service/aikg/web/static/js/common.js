// Shared helpers of the explorer pages: fetching the JSON API, type families and colours,
// links to entities, certainty badges and figures with their units.

const TYPE_INFO = JSON.parse(document.getElementById("aikg-types")?.textContent || "{}");
export const PREFIXES = TYPE_INFO.prefixes || {};
export const FAMILIES = TYPE_INFO.families || [];
/** Colour of each type family, from the server (aikg.export.palette: the exports use the same). */
export const FAMILY_COLORS = Object.fromEntries(FAMILIES.map((f) => [f.key, f.color]));
const CLASSES = TYPE_INFO.classes || {};
const ID_BASE = PREFIXES.id || "https://w3id.org/aikg/id/";

/** Build an element: el("a", {href: "/x", class: "y"}, "text", child). Text is never parsed as HTML. */
export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k === "class") node.className = v;
    else if (k === "style" && typeof v === "object") {
      for (const [name, value] of Object.entries(v)) {
        if (name.startsWith("--")) node.style.setProperty(name, value);
        else node.style[name] = value;
      }
    }
    else if (k.startsWith("on") && typeof v === "function") node.addEventListener(k.slice(2), v);
    else node.setAttribute(k, v === true ? "" : String(v));
  }
  for (const c of children.flat(Infinity)) {
    if (c === undefined || c === null || c === false) continue;
    node.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return node;
}

/** Fetch JSON from aikg; on an error envelope throw an Error carrying its message. */
export async function api(url, options = {}) {
  const resp = await fetch(url, { headers: { Accept: "application/json" }, ...options });
  let body = null;
  try { body = await resp.json(); } catch { body = null; }
  if (!resp.ok) {
    const msg = body && (body.message || body.error) ? (body.message || body.error) : `${resp.status} ${resp.statusText}`;
    const err = new Error(msg);
    err.status = resp.status;
    err.body = body;
    throw err;
  }
  return body;
}

/** Expand a CURIE (aikg:Deal) to a full IRI; full IRIs pass through. */
export function expand(term) {
  if (!term || typeof term !== "string") return term;
  const m = term.match(/^([A-Za-z][\w-]*):(.*)$/);
  if (m && PREFIXES[m[1]] && !term.startsWith("http")) return PREFIXES[m[1]] + m[2];
  return term;
}

/** Shorten an IRI with aikg's prefixes. */
export function curie(iri) {
  if (!iri || typeof iri !== "string") return iri;
  let best = null;
  for (const [p, ns] of Object.entries(PREFIXES)) {
    if (iri.startsWith(ns) && (!best || ns.length > best[1].length)) best = [p, ns];
  }
  return best ? `${best[0]}:${iri.slice(best[1].length)}` : iri;
}

/** The slug of an aikg entity IRI (or slug, or id:slug), else null. */
export function slugOf(ref) {
  if (!ref) return null;
  if (typeof ref === "object") return slugOf(ref.slug || ref.id || ref.iri);
  if (ref.startsWith(ID_BASE)) return ref.slice(ID_BASE.length);
  if (ref.startsWith("id:")) return ref.slice(3);
  if (/^[a-z0-9][a-z0-9-]*$/.test(ref)) return ref;
  return null;
}

export function entityHref(ref) {
  const slug = slugOf(ref);
  return slug ? `/id/${slug}` : null;
}

function typeIri(t) {
  if (!t) return "";
  if (typeof t === "object") return expand(t.iri || t.id || t.type || "");
  return expand(t);
}

/** The colour family of an entity from its list of types (IRIs, CURIEs or {iri, label} objects). */
export function familyOf(types) {
  let best = null;
  let bestRank = Infinity;
  const order = FAMILIES.map((f) => f.key);
  for (const t of types || []) {
    const info = CLASSES[typeIri(t)];
    if (!info) continue;
    const rank = order.indexOf(info.family);
    if (rank >= 0 && rank < bestRank) { best = info.family; bestRank = rank; }
  }
  return best || "other";
}

export function familyLabel(key) {
  return (FAMILIES.find((f) => f.key === key) || { label: "Other" }).label;
}

/** A readable name of a class. */
export function typeLabel(t) {
  if (t && typeof t === "object" && t.label) return t.label;
  const iri = typeIri(t);
  return CLASSES[iri]?.label || curie(iri).replace(/^aikg:/, "");
}

/** The most specific aikg types of a list, as readable names. */
export function typeLabels(types) {
  const names = [];
  for (const t of types || []) {
    const iri = typeIri(t);
    if (!CLASSES[iri]) continue;
    const name = typeLabel(t);
    if (!names.includes(name)) names.push(name);
  }
  return names;
}

export function colorOf(family) {
  return FAMILY_COLORS[family] || FAMILY_COLORS.other || "#5f6b7a";
}

/** A small coloured dot for a family. */
export function dot(family) {
  return el("span", { class: "dot", style: { background: colorOf(family) }, "aria-hidden": "true" });
}

/** A link to an entity page, coloured by its family; plain text when it is not an aikg entity. */
export function entityLink(ref, label, types) {
  const href = entityHref(ref);
  const text = label || (typeof ref === "object" ? ref.label : null) || slugOf(ref) || curie(String(ref));
  if (!href) return el("span", { class: "term" }, text);
  const fam = types ? familyOf(types) : null;
  return el("a", { class: "entity-link", href }, fam ? dot(fam) : null, text);
}

const CERTAINTY_STYLES = {
  FirstHand: ["first-hand", "cert-firsthand", "Said by the party who did or measured it."],
  Reported: ["reported", "cert-reported", "Stated by a publication reporting what others did."],
  Relayed: ["relayed second-hand", "cert-relayed", "Passed on by someone who is not the original source."],
  Rumoured: ["rumoured", "cert-rumoured", "The source calls it a rumour or leak."],
  Estimated: ["estimated", "cert-estimated", "Computed or approximated by the source."],
  Derived: ["derived by aikg", "cert-derived", "Computed by an aikg rule from other facts."],
  Curated: ["curated by aikg", "cert-derived", "A connecting fact aikg's curators add; no source document states it."],
};

/** The local name of a certainty (FirstHand, Relayed…) from an IRI, CURIE, object or label. */
export function certaintyKey(c) {
  if (!c) return null;
  if (typeof c === "object") return certaintyKey(c.iri || c.id || c.key || c.label);
  const local = String(c).split(/[#:/]/).pop();
  for (const [key, [label]] of Object.entries(CERTAINTY_STYLES)) {
    if (local.toLowerCase() === key.toLowerCase() || String(c).toLowerCase() === label) return key;
  }
  if (/first/i.test(local)) return "FirstHand";
  return local;
}

/** A badge that makes certainty visible: relayed and rumoured claims look different from facts. */
export function certaintyBadge(c) {
  const key = certaintyKey(c);
  if (!key) return null;
  const [label, cls, title] = CERTAINTY_STYLES[key] || [key, "cert-other", ""];
  const icon = { Relayed: "↪ ", Rumoured: "? ", Estimated: "≈ ", Derived: "ƒ ", FirstHand: "✓ " }[key] || "";
  return el("span", { class: `badge ${cls}`, title }, icon + label);
}

const UNIT_NAMES = {
  MIN: "minutes", MegaW: "MW", GigaW: "GW", GigaBYTE: "GB", HR: "hours", DAY: "days", YR: "years", NUM: "", UNITLESS: "×",
  NanoM: "nm", FLOPS: "FLOP/s", W: "W", "GigaBYTE-PER-SEC": "GB/s", "GigaBIT-PER-SEC": "Gbit/s",
};
/** Display names of QUDT units, by local name: what a reader expects to see after a figure. */

const SPELLED_UNITS = new Set(["minutes", "hours", "days", "years"]);

/** A readable unit name from the API's unit ({iri, symbol, label}), a QUDT IRI or CURIE: "minutes", "MW", "". */
export function unitName(unit) {
  if (!unit) return "";
  if (typeof unit === "object") {
    if (SPELLED_UNITS.has(unit.label)) return unit.label;
    if (unit.label === "ratio") return "×";
    const local = String(unit.iri || "").split(/[#/:]/).pop();
    if (local in UNIT_NAMES) return UNIT_NAMES[local];
    if ("symbol" in unit) return unit.symbol || "";
    return unit.label || unitName(unit.iri || unit.id);
  }
  const local = String(unit).split(/[#/:]/).pop();
  return local in UNIT_NAMES ? UNIT_NAMES[local] : local;
}

/** Format a number the way people read figures: thousands separators, every digit of the integer part,
 * and decimals only where they count (51,743,294 H100e, not 51,743,294.2463; 275.8; 2.02; 0.0123); the
 * exact value is for hover (see renderCell, figure). */
export function formatNumber(value) {
  const n = Number(value);
  if (!Number.isFinite(n) || String(value).trim() === "") return String(value);
  const abs = Math.abs(n);
  if (abs > 0 && abs < 1e-4) return n.toExponential(2);
  const digits = abs >= 1000 || abs === 0 ? 0 : abs >= 100 ? 1 : abs >= 1 ? 2 : 2 - Math.floor(Math.log10(abs));
  return n.toLocaleString("en-US", { maximumFractionDigits: digits });
}

const NUMERIC = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

/** A value with its unit: "8,192", "2.02 minutes", "150 MW". */
export function formatValue(value, unit) {
  const raw = value && typeof value === "object" ? (value.value ?? value.label ?? value.iri) : value;
  const text = NUMERIC.test(String(raw)) ? formatNumber(raw) : String(raw);
  const u = unitName(unit);
  if (!u) return text;
  return u === "×" ? `${text}×` : `${text} ${u}`;
}

// ---------------------------------------------------------------------------------------------------
// Figures: large values scaled with SI prefixes (15 PFLOP/s, 8 TB/s, 1.4 kW, 295 MW), counts and money
// in words (671 billion, USD 8 billion); the exact value as written by the source on hover.
// ---------------------------------------------------------------------------------------------------

const SI = [[1e30, "Q"], [1e27, "R"], [1e24, "Y"], [1e21, "Z"], [1e18, "E"], [1e15, "P"], [1e12, "T"], [1e9, "G"],
  [1e6, "M"], [1e3, "k"]];
const WORDS = [[1e12, "trillion"], [1e9, "billion"], [1e6, "million"]];

/** How a QUDT unit (or a property known to count FLOP) is scaled: [base symbol, factor to base]. */
const SCALED_UNITS = {
  FLOPS: ["FLOP/s", 1], "GigaBYTE": ["B", 1e9], "GigaBYTE-PER-SEC": ["B/s", 1e9], "GigaBIT-PER-SEC": ["bit/s", 1e9],
  BYTE: ["B", 1], W: ["W", 1], KiloW: ["W", 1e3], MegaW: ["W", 1e6], GigaW: ["W", 1e9],
};
const FLOP_PROPERTIES = new Set(["trainingCompute"]);
export const MONEY_PROPERTIES = new Set(["amount", "price", "cost", "pricePerGpuHour", "debtAmount", "postMoneyValuation",
  "capitalCost"]);

/** A number to three significant digits, no float noise: 15, 1.3, 2.02, 254,674. */
function significant(n) {
  const abs = Math.abs(n);
  const digits = abs >= 100 ? 0 : abs >= 10 ? 1 : 2;
  return n.toLocaleString("en-US", { maximumFractionDigits: digits });
}

/** The exact lexical value with thousands separators, every digit kept: "15,000,000,000,000,000". */
export function exactNumber(raw) {
  const text = String(raw).trim();
  const m = text.match(/^([+-]?)(\d+)(\.\d+)?$/);
  if (!m) return text;
  return m[1] + m[2].replace(/\B(?=(\d{3})+(?!\d))/g, ",") + (m[3] && !/^\.0+$/.test(m[3]) ? m[3] : "");
}

function localOf(unit) {
  const iri = unit && typeof unit === "object" ? unit.iri || "" : String(unit || "");
  return iri.split(/[#/:]/).pop();
}

/** {text, exact} for a numeric figure: text scaled for reading, exact as the source wrote it (with its
 * unit), or null when the figure needs no scaling (then formatValue's plain form is used). */
export function scaleFigure(raw, unit, propName, currency) {
  const n = Number(raw);
  if (!Number.isFinite(n)) return null;
  const local = localOf(unit);
  const scaled = FLOP_PROPERTIES.has(propName) ? ["FLOP", 1] : SCALED_UNITS[local];
  if (scaled) {
    const [symbol, factor] = scaled;
    const base = n * factor;
    const exactText = factor === 1 ? `${exactNumber(raw)} ${symbol}` : `${exactNumber(raw)} ${unitName(unit)}`;
    const [div, prefix] = SI.find(([d]) => Math.abs(base) >= d) || [1, ""];
    return { text: `${significant(base / div)} ${prefix}${symbol}`, exact: exactText };
  }
  if (currency || MONEY_PROPERTIES.has(propName)) {
    const [div, word] = WORDS.find(([d]) => Math.abs(n) >= d) || [1, ""];
    const amount = word ? `${significant(n / div)} ${word}` : formatNumber(raw);
    return { text: currency ? `${currency} ${amount}` : amount, exact: `${exactNumber(raw)}${currency ? " " + currency : ""}` };
  }
  if (Math.abs(n) >= 1e6 && (!unit || !unitName(unit))) {
    const [div, word] = WORDS.find(([d]) => Math.abs(n) >= d);
    return { text: `${significant(n / div)} ${word}`, exact: exactNumber(raw) };
  }
  if (Math.abs(n) >= 1000 && !Number.isInteger(n)) { // 254674.07781707932 → 254,674
    return { text: formatValue(Math.round(n), unit), exact: formatValue(exactNumber(raw), unit) };
  }
  return null;
}

/** Unitless figures that are not ratios: "orders of magnitude ≈4" (four powers of ten), not "≈4×" (four times). */
const COUNTS_NOT_TIMES = new Set(["ordersOfMagnitude"]);

/** A figure as page content: <data value=…> with the scaled text and the exact value on hover. */
export function figure(raw, unit, propName, currency = null) {
  if (COUNTS_NOT_TIMES.has(propName)) unit = null;
  const scaled = scaleFigure(raw, unit, propName, currency);
  if (!scaled) return el("data", { class: "figure", value: String(raw) }, formatValue(raw, unit));
  return el("data", { class: "figure", value: String(raw), title: `exactly ${scaled.exact}` }, scaled.text);
}

/** An outside web address as a link that says where it goes: "web.archive.org/…/coreweave-is-…". */
export function externalLink(url, label = null) {
  let text = label;
  if (!text) {
    try {
      const u = new URL(url);
      const tail = u.pathname.split("/").filter(Boolean).pop() || "";
      text = u.host.replace(/^www\./, "") + (tail ? `/…/${tail}` : "");
    } catch { text = url; }
  }
  return el("a", { class: "external", href: url, rel: "noreferrer noopener", target: "_blank", title: url }, text, " ↗");
}

const URL_IN_TEXT = /https?:\/\/[^\s<>"'）)，。]+[^\s<>"'）)，。.,;:!?]/g;

/** Text with the web addresses in it made links. */
export function linkify(text) {
  const out = [];
  let last = 0;
  for (const m of String(text).matchAll(URL_IN_TEXT)) {
    out.push(text.slice(last, m.index), externalLink(m[0]));
    last = m.index + m[0].length;
  }
  out.push(text.slice(last));
  return out;
}

/** Show an error in a container, politely. */
export function showError(container, err, what) {
  container.replaceChildren(el("p", { class: "error" }, `${what || "Could not load"}: ${err.message || err}`));
}

/** Read a query-string parameter. */
export function param(name, fallback = null) {
  return new URLSearchParams(location.search).get(name) ?? fallback;
}

/** One result cell (a SPARQL JSON term or a cell of aikg's named-query JSON): {value, kind, datatype, lang, label}. */
export function normalizeCell(cell) {
  if (!cell) return null;
  const kind = cell.type === "uri" ? "iri" : cell.type === "typed-literal" ? "literal" : cell.type;
  return { value: cell.value, kind, datatype: cell.datatype, lang: cell["xml:lang"] || cell.lang, label: cell.label };
}

/** A results table from SPARQL JSON results or aikg's named-query JSON: {vars, rows: [[cell]], truncated}. */
export function normalizeTable(body) {
  if (body.head && body.results) {
    const vars = body.head.vars;
    return { vars, rows: body.results.bindings.map((b) => vars.map((v) => normalizeCell(b[v]))), truncated: false };
  }
  const vars = body.columns;
  return { vars, rows: body.rows.map((r) => vars.map((v) => normalizeCell(r[v]))), truncated: Boolean(body.truncated) };
}

/** A named query's answer with its following pages (`next`) up to `most` rows: a chart or the timeline
 * draws a whole answer, while a page asked without `limit` is the first query_page rows. */
export async function allPages(url, most = 10000) {
  const first = await api(url);
  let body = first;
  let rows = first.rows;
  while (body.next && rows.length < most) {
    body = await api(body.next);
    rows = rows.concat(body.rows);
  }
  return { ...first, rows, truncated: Boolean(body.next), next: body.next };
}

/** English labels of aikg entities, looked up in one SPARQL query against aikg's own endpoint. */
export async function labelsFor(iris) {
  const base = PREFIXES.id || ID_BASE;
  const wanted = [...new Set(iris.filter((i) => typeof i === "string" && i.startsWith(base)))];
  const labels = new Map();
  if (!wanted.length) return labels;
  for (let i = 0; i < wanted.length; i += 200) {
    const values = wanted.slice(i, i + 200).map((iri) => `<${iri}>`).join(" ");
    const query = `SELECT ?e ?label WHERE { VALUES ?e { ${values} } ?e <http://www.w3.org/2000/01/rdf-schema#label> ?label . FILTER(LANGMATCHES(LANG(?label), "en") || LANG(?label) = "") }`;
    const body = await api("/sparql", {
      method: "POST",
      headers: { Accept: "application/sparql-results+json", "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ query }),
    });
    for (const b of body?.results?.bindings || []) labels.set(b.e.value, b.label.value);
  }
  return labels;
}

/** A cell as page content: entity links with labels, readable numbers and dates. */
export function renderCell(cell, labels) {
  if (!cell) return "";
  if (cell.kind === "iri") {
    if (slugOf(cell.value) && cell.value.startsWith(ID_BASE)) return entityLink(cell.value, cell.label || labels?.get(cell.value));
    if (CLASSES[cell.value]) return el("span", { class: "term", title: cell.value }, CLASSES[cell.value].label);
    if (/^https?:/.test(cell.value) && !cell.value.startsWith(PREFIXES.aikg || "~")) {
      return el("span", { class: "term", title: cell.value }, curie(cell.value));
    }
    return el("span", { class: "term", title: cell.value }, curie(cell.value).replace(/^aikg:/, ""));
  }
  const dt = cell.datatype || "";
  if (/#(decimal|integer|double|float|int|long|positiveInteger|nonNegativeInteger)$/.test(dt)) {
    const text = formatNumber(cell.value);
    const exact = exactNumber(cell.value);
    return el("data", { value: String(cell.value), title: text === exact ? null : `exactly ${exact}` }, text);
  }
  if (/#boolean$/.test(dt)) return cell.value === "true" ? "yes" : "no";
  return cell.value;
}

/** Turn a variable name into a column heading: orgLabel -> "org label", accelerator_count -> "accelerator count". */
export function humanize(name) {
  return String(name).replace(/_/g, " ").replace(/([a-z0-9])([A-Z])/g, "$1 $2").toLowerCase();
}

/** Fold ?xLabel columns into the cells of ?x; drop the columns in `hide` (echoed parameters) and empty ones. */
export function foldLabels(table, hide = []) {
  const keep = [];
  const labelOf = new Map();
  table.vars.forEach((v, i) => {
    const m = v.match(/^(.+?)_?[Ll]abel$/);
    const base = m ? table.vars.indexOf(m[1]) : -1;
    const empty = table.rows.every((r) => !r[i] || r[i].value === "");
    if (base >= 0) labelOf.set(base, i);
    else if (!hide.includes(v) && !empty) keep.push(i);
  });
  const rows = table.rows.map((r) => keep.map((i) => {
    const c = r[i];
    const li = labelOf.get(i);
    return c && li !== undefined && r[li] ? { ...c, label: r[li].value } : c;
  }));
  return { vars: keep.map((i) => table.vars[i]), rows, truncated: table.truncated };
}

/** Columns that come in numbered pairs (value1 / value2, source1 / source2 …): [[stem, i1, i2]], in the
 * order of the first of each pair; empty unless there are at least two pairs (a comparison). */
export function pairedColumns(vars) {
  const pairs = [];
  vars.forEach((v, i) => {
    const m = v.match(/^(.+?)1$/);
    const j = m ? vars.indexOf(`${m[1]}2`) : -1;
    if (j >= 0) pairs.push([m[1], i, j]);
  });
  return pairs.length >= 2 ? pairs : [];
}

/** A results table element (with entity links) from a normalized table. An answer that compares two
 * sides (columns in numbered pairs, like source-disagreements' 16) shows each row as two lines, side 1
 * above side 2 in the same columns, the columns they share spanning both: the second value sits under
 * the first instead of off-screen to the right. */
export async function resultsTable(table) {
  const iris = table.rows.flat().filter((c) => c && c.kind === "iri" && !c.label).map((c) => c.value);
  let labels = new Map();
  try { labels = await labelsFor(iris); } catch { labels = new Map(); }
  const numeric = table.vars.map((_, i) => table.rows.some((r) => r[i]) &&
    table.rows.every((r) => !r[i] || /#(decimal|integer|double|float|int|long|positiveInteger)$/.test(r[i].datatype || "")));
  const td = (r, i, attrs = {}) => el("td", { class: numeric[i] ? "num" : null, ...attrs }, renderCell(r[i], labels));
  const pairs = pairedColumns(table.vars);
  if (!pairs.length) {
    return el("div", { class: "table-wrap" }, el("table", { class: "results" },
      el("thead", {}, el("tr", {}, table.vars.map((v) => el("th", {}, humanize(v))))),
      el("tbody", {}, table.rows.map((r) => el("tr", {}, r.map((_, i) => td(r, i)))))));
  }
  // the columns both sides share first (entity, figure, difference), then one column per pair
  const paired = new Set(pairs.flatMap(([, i, j]) => [i, j]));
  const shared = table.vars.map((_, i) => i).filter((i) => !paired.has(i));
  const heads = [...shared.map((i) => humanize(table.vars[i])), "", ...pairs.map(([stem]) => humanize(stem))];
  return el("div", { class: "table-wrap" }, el("table", { class: "results paired" },
    el("thead", {}, el("tr", {}, heads.map((h) => el("th", {}, h)))),
    el("tbody", {}, table.rows.flatMap((r) => [
      el("tr", { class: "side-1" }, shared.map((i) => td(r, i, { rowspan: "2" })), el("td", { class: "side" }, "1"),
        pairs.map(([, i]) => td(r, i))),
      el("tr", { class: "side-2" }, el("td", { class: "side" }, "2"), pairs.map(([, , j]) => td(r, j))),
    ]))));
}
