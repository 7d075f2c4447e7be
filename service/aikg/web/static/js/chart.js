// Charts from answers: any table of results (a named query's, a SPARQL SELECT's) drawn with Observable
// Plot (served from the local npm install, no CDN). A named query's header may declare its charts
// (`# chart: scatter x=date y=trainingCompute log=y color=developer`, listed by /api/queries as
// `charts`); otherwise the type is chosen from the columns' types: a date and a number make a scatter
// over time, a name and a number make bars of the largest. Every mark links to its entity and tells its
// source and certainty on hover; planned, speculative and rumoured rows are drawn hollow (and dashed).
// Each chart downloads as PNG and SVG, with its data as CSV.
import { el, humanize, slugOf } from "./common.js";

const XSD = "http://www.w3.org/2001/XMLSchema#";
const NUMERIC = /#(decimal|integer|double|float|int|long|short|positiveInteger|nonNegativeInteger|negativeInteger|nonPositiveInteger|unsignedInt|unsignedLong)$/;
const DATE_TYPES = new Set(["date", "dateTime", "gYear", "gYearMonth", "dateTimeStamp"].map((t) => XSD + t));
const DATE_TEXT = /^-?\d{4}(-\d{2}(-\d{2}([T ].*)?)?)?$/;
/** Words of a status or certainty that mark a row as not (yet) real: drawn apart. */
export const TENTATIVE = /(planned|speculative|rumou?red|unverified|unconfirmed|unlikely|proposed)/i;
const STATUS_NAMES = ["status", "statusLabel", "confidence", "datasetConfidence", "sourceConfidence", "certainty", "certaintyLabel"];
const SOURCE_NAMES = ["sourceTitle", "source", "document", "documentTitle"];
const OTHER = "other";
const PALETTE = ["#2e6fd8", "#d1495b", "#3f9d5b", "#e09f3e", "#7b5ea7", "#00798c", "#d35fb7", "#9c6644", "#1fa9b8", "#5f6b7a"];

/** The kind of each column: "date", "number", "iri" or "text" (from the datatypes, else the values). */
export function columnKinds(table) {
  return table.vars.map((_, i) => {
    const cells = table.rows.map((r) => r[i]).filter((c) => c && c.value !== "");
    if (!cells.length) return "empty";
    if (cells.every((c) => c.kind === "iri")) return "iri";
    if (cells.every((c) => NUMERIC.test(c.datatype || ""))) return "number";
    if (cells.every((c) => DATE_TYPES.has(c.datatype || "") || (!c.datatype && DATE_TEXT.test(c.value)))) return "date";
    return "text";
  });
}

/** A date as written (2024, 2024-05, 2024-05-01) as a Date at its start, or null. */
export function parseDate(text) {
  const m = String(text || "").match(/^(-?\d{4})(?:-(\d{2})(?:-(\d{2}))?)?/);
  if (!m) return null;
  const d = new Date(Date.UTC(Number(m[1]), m[2] ? Number(m[2]) - 1 : 0, m[3] ? Number(m[3]) : 1));
  return Number.isNaN(d.getTime()) ? null : d;
}

function find(vars, names) {
  for (const n of names) {
    const i = vars.indexOf(n);
    if (i >= 0) return i;
  }
  return -1;
}

/** The chart to draw: the declared one with its columns found in the answer (a name missing from the
 * answer is dropped and the columns' types decide instead), or one chosen from the types; null when
 * there is nothing to draw (no numbers). Indexes are columns of `table`. */
export function chartSpec(table, declared = {}) {
  const vars = table.vars;
  const kinds = columnKinds(table);
  const col = (name) => (name && vars.includes(name) ? vars.indexOf(name) : -1);
  const labelOf = (i) => (i >= 0 ? vars.indexOf(`${vars[i]}Label`) : -1);
  const numbers = kinds.flatMap((k, i) => (k === "number" ? [i] : []));
  const dates = kinds.flatMap((k, i) => (k === "date" ? [i] : []));
  const entities = kinds.flatMap((k, i) => (k === "iri" && table.rows.some((r) => r[i] && slugOf(r[i].value)) ? [i] : []));
  const texts = kinds.flatMap((k, i) => (k === "text" ? [i] : []));
  let type = ["scatter", "line", "bar"].includes(declared.type) ? declared.type : null;
  let x = col(declared.x);
  let y = col(declared.y);
  if (!type) type = dates.length && numbers.length ? "scatter" : numbers.length ? "bar" : null;
  if (!type) return null;
  if (type === "bar") {
    // bars: a name (y) against a number (x); a declared x/y pair is read the way round it makes sense
    if (x >= 0 && kinds[x] !== "number" && y >= 0 && kinds[y] === "number") [x, y] = [y, x];
    if (x < 0 || kinds[x] !== "number") x = numbers[0] ?? -1;
    if (y < 0) y = entities[0] ?? texts[0] ?? -1;
    if (x < 0 || y < 0) return null;
  } else {
    if (x < 0 || !["date", "number"].includes(kinds[x])) x = dates[0] ?? -1;
    if (y < 0 || kinds[y] !== "number") y = numbers.find((i) => i !== x) ?? -1;
    if (x < 0 || y < 0) return null;
  }
  let link = col(declared.link);
  if (link < 0) link = type === "bar" && kinds[y] === "iri" ? y : entities[0] ?? -1;
  let label = col(declared.label);
  if (label < 0) label = labelOf(link) >= 0 ? labelOf(link) : link;
  let color = col(declared.color);
  if (color >= 0 && labelOf(color) >= 0) color = labelOf(color);
  const status = declared.status === "none" ? [] : declared.status ? [col(declared.status)].filter((i) => i >= 0)
    : STATUS_NAMES.map((n) => vars.indexOf(n)).filter((i) => i >= 0);
  const source = col(declared.source) >= 0 ? col(declared.source) : find(vars, SOURCE_NAMES);
  const values = table.rows.map((r) => Number(r[type === "bar" ? x : y]?.value)).filter((n) => Number.isFinite(n) && n > 0);
  const spread = values.length ? Math.max(...values) / Math.min(...values) : 1;
  // bars start at zero: always a linear axis
  const log = type === "bar" ? "" : declared.log ?? (spread >= 1000 ? "y" : "");
  return {
    type, x, y, link, label, color, status, source, log: String(log),
    top: Number(declared.top) || (type === "bar" ? 20 : 8),
    title: declared.title || "",
  };
}

function text(cell) {
  if (!cell || cell.value === undefined || cell.value === null) return "";
  return cell.label || (cell.kind === "iri" ? slugOf(cell.value) || cell.value.split(/[#/]/).pop() : String(cell.value));
}

/** One record per row the chart can draw (both coordinates present), with what its mark shows. */
export function chartRows(table, spec) {
  const out = [];
  const valueOf = (cell, kind) => (kind === "date" ? parseDate(cell?.value) : cell && Number(cell.value));
  const kinds = columnKinds(table);
  for (const r of table.rows) {
    const x = valueOf(r[spec.x], kinds[spec.x]);
    const y = spec.type === "bar" ? text(r[spec.y]) : valueOf(r[spec.y], kinds[spec.y]);
    if (x === null || x === undefined || (typeof x === "number" && !Number.isFinite(x)) || y === "" || y === undefined
        || (typeof y === "number" && !Number.isFinite(y))) continue;
    if (spec.log.includes("x") && typeof x === "number" && x <= 0) continue;
    if (spec.log.includes("y") && typeof y === "number" && y <= 0) continue;
    const statuses = spec.status.map((i) => r[i]).filter(Boolean).map(text);
    const linkCell = spec.link >= 0 ? r[spec.link] : null;
    const slug = linkCell ? slugOf(linkCell.value) : null;
    out.push({
      x, y,
      label: (spec.label >= 0 ? text(r[spec.label]) : "") || (typeof y === "string" ? y : ""),
      color: spec.color >= 0 ? text(r[spec.color]) || "unknown" : "",
      href: slug ? `/id/${slug}` : null,
      tentative: statuses.some((s) => TENTATIVE.test(s)),
      statuses,
      source: spec.source >= 0 ? text(r[spec.source]) : "",
      raw: r,
    });
  }
  return out;
}

const SUPERSCRIPT = { "-": "⁻", 0: "⁰", 1: "¹", 2: "²", 3: "³", 4: "⁴", 5: "⁵", 6: "⁶", 7: "⁷", 8: "⁸", 9: "⁹" };

/** A log axis's tick: a power of ten as 10²⁵, other ticks left unlabelled. */
export function powerOfTen(d) {
  const e = Math.log10(d);
  if (Math.abs(e - Math.round(e)) > 1e-9) return "";
  return `10${String(Math.round(e)).split("").map((c) => SUPERSCRIPT[c]).join("")}`;
}

function short(n) {
  if (typeof n !== "number") return String(n);
  const abs = Math.abs(n);
  if (abs >= 1e15 || (abs > 0 && abs < 1e-3)) return n.toExponential(2).replace("e+", "e");
  return n.toLocaleString("en-US", { maximumFractionDigits: abs >= 100 ? 0 : 2 });
}

function when(d) {
  return d instanceof Date ? d.toISOString().slice(0, 10).replace(/-01-01$/, "").replace(/-01$/, "") : short(d);
}

/** What a mark says on hover: its name, its values, status and certainty, and its source. */
function hover(d, spec, vars) {
  const lines = [d.label || "(no name)"];
  if (spec.type === "bar") lines.push(`${humanize(vars[spec.x])}: ${short(d.x)}`);
  else lines.push(`${humanize(vars[spec.x])}: ${when(d.x)}`, `${humanize(vars[spec.y])}: ${short(d.y)}`);
  if (d.color) lines.push(`${humanize(vars[spec.color]).replace(/ label$/, "")}: ${d.color}`);
  if (d.statuses.length) lines.push(`status and certainty: ${d.statuses.join(", ")}`);
  if (d.source) lines.push(`source: ${d.source}`);
  return lines.join("\n");
}

/** The colour categories: the `top` most frequent values, the rest as "other". */
function categories(rows, top) {
  const counts = new Map();
  for (const d of rows) if (d.color && d.color !== "unknown") counts.set(d.color, (counts.get(d.color) || 0) + 1);
  const kept = [...counts.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).slice(0, top).map(([k]) => k);
  return kept;
}

/** Draw `table` as the chart `spec` into `box`, with its legend and downloads. Returns the record of
 * what was drawn ({marks, tentative}), also written on the box's data attributes for tests. */
export function drawChart(box, table, spec, { name = "chart", title = "", height = null } = {}) {
  const Plot = window.Plot;
  const rows = chartRows(table, spec);
  let shown = rows;
  if (spec.type === "bar") shown = [...rows].sort((a, b) => b.x - a.x).slice(0, spec.top);
  const kept = categories(shown, spec.type === "bar" ? PALETTE.length - 1 : spec.top);
  for (const d of shown) d.series = !d.color ? "" : kept.includes(d.color) ? d.color : OTHER;
  const domain = [...kept, ...(shown.some((d) => d.series === OTHER) ? [OTHER] : [])];
  const vars = table.vars;
  const caption = title || spec.title || `${humanize(vars[spec.y])} by ${humanize(vars[spec.x])}`;
  const figure = el("figure", { class: "chart", "data-type": spec.type, "data-log": spec.log, "data-marks": String(shown.length),
    "data-tentative": String(shown.filter((d) => d.tentative).length), "data-name": name });
  const plotBox = el("div", { class: "chart-plot" });
  const legend = el("div", { class: "chart-legend" });
  const tools = el("div", { class: "chart-tools" });
  const note = el("figcaption", {},
    el("strong", {}, caption),
    el("span", { class: "muted" }, ` · ${shown.length} mark${shown.length === 1 ? "" : "s"}`,
      spec.type === "bar" && rows.length > shown.length ? ` (the ${shown.length} largest of ${rows.length})` : "",
      rows.length < table.rows.length ? ` · ${table.rows.length - rows.length} row${table.rows.length - rows.length === 1 ? "" : "s"} without ${spec.type === "bar" ? "a value" : "both values"} left out` : "",
      shown.some((d) => d.tentative) ? " · hollow: planned, speculative or rumoured" : ""));
  figure.append(note, plotBox, legend, tools);
  box.replaceChildren(figure);

  const colorOf = (s) => (s === OTHER ? "#a7afba" : PALETTE[domain.indexOf(s) % PALETTE.length] || PALETTE[0]);
  const render = () => {
    const width = Math.max(280, Math.floor(plotBox.clientWidth || box.clientWidth || 640));
    const narrow = width < 520;
    const tickFormat = (axis) => (spec.log.includes(axis) ? powerOfTen : undefined);
    const stroke = (d) => (d.series ? colorOf(d.series) : "#2e6fd8");
    const common = { href: (d) => d.href, title: (d) => hover(d, spec, vars), target: "_self" };
    let marks;
    let options;
    if (spec.type === "bar") {
      const h = height || Math.max(160, 24 * shown.length + 50);
      marks = [
        Plot.barX(shown, { ...common, x: "x", y: "label", fill: (d) => (d.tentative ? "#fff" : stroke(d)), stroke: stroke,
          strokeDasharray: (d) => (d.tentative ? "4,3" : null), className: "marks", sort: { y: "-x" } }),
        Plot.ruleX([spec.log.includes("x") ? shown.reduce((m, d) => Math.min(m, d.x), Infinity) : 0], { ariaHidden: true }),
      ];
      options = {
        height: h, marginLeft: Math.min(narrow ? 120 : 220, 12 + 7 * Math.max(...shown.map((d) => d.label.length), 4)),
        x: { type: spec.log.includes("x") ? "log" : "linear", label: humanize(vars[spec.x]), grid: true, tickFormat: tickFormat("x") },
        y: { label: null, tickFormat: (t) => (t.length > (narrow ? 16 : 30) ? `${t.slice(0, narrow ? 15 : 29)}…` : t) },
      };
    } else {
      const sorted = [...shown].sort((a, b) => a.x - b.x);
      marks = [];
      if (spec.type === "line") {
        marks.push(Plot.line(sorted, { x: "x", y: "y", z: "series", stroke: stroke, strokeOpacity: 0.7, curve: "linear", ariaHidden: true }));
      }
      marks.push(Plot.dot(sorted, { ...common, x: "x", y: "y", r: narrow ? 3 : 3.5, stroke: stroke,
        fill: (d) => (d.tentative ? "#fff" : stroke(d)), fillOpacity: (d) => (d.tentative ? 1 : 0.75),
        strokeDasharray: (d) => (d.tentative ? "2,1.5" : null), strokeWidth: (d) => (d.tentative ? 1.5 : 1), className: "marks" }));
      options = {
        height: height || (narrow ? 300 : 420), marginLeft: 56,
        x: { type: shown.length && shown[0].x instanceof Date ? "utc" : spec.log.includes("x") ? "log" : "linear",
          label: humanize(vars[spec.x]), grid: true, tickFormat: tickFormat("x") },
        y: { type: spec.log.includes("y") ? "log" : "linear", label: humanize(vars[spec.y]) + (spec.log.includes("y") ? " (log scale)" : ""),
          grid: true, tickFormat: tickFormat("y") },
      };
    }
    const svg = Plot.plot({ ...options, width, marks, style: { fontSize: narrow ? "11px" : "12px", background: "#fff" },
      ariaLabel: caption, ariaDescription: `${shown.length} marks; each links to its entity` });
    // a group, not an image: its marks are links a keyboard reaches (an image's content is not read)
    svg.setAttribute("role", "group");
    svg.setAttribute("aria-label", `${caption}: ${shown.length} marks`);
    plotBox.replaceChildren(svg);
  };
  render();
  legend.replaceChildren(...domain.map((s) => el("span", { class: "chart-key" },
    el("span", { class: "swatch", style: { background: colorOf(s) }, "aria-hidden": "true" }), s)),
  ...(shown.some((d) => d.tentative) ? [el("span", { class: "chart-key" }, el("span", { class: "swatch hollow", "aria-hidden": "true" }),
    "planned, speculative or rumoured")] : []));
  const stem = name.replace(/[^A-Za-z0-9._-]+/g, "-");
  tools.append(
    el("button", { type: "button", class: "btn", "data-download": "png", onclick: () => downloadPng(plotBox, stem) }, "↓ PNG"),
    el("button", { type: "button", class: "btn", "data-download": "svg", onclick: () => save(svgBlob(plotBox), `${stem}.svg`) }, "↓ SVG"),
    el("button", { type: "button", class: "btn", "data-download": "csv", onclick: () => save(csvBlob(table), `${stem}.csv`) }, "↓ CSV (data)"));
  let lastWidth = plotBox.clientWidth;
  new ResizeObserver(() => {
    if (Math.abs(plotBox.clientWidth - lastWidth) < 8) return;
    lastWidth = plotBox.clientWidth;
    render();
  }).observe(plotBox);
  return { marks: shown.length, tentative: shown.filter((d) => d.tentative).length };
}

function svgText(plotBox) {
  const svg = plotBox.querySelector("svg");
  const copy = svg.cloneNode(true);
  copy.setAttribute("xmlns", "http://www.w3.org/2000/svg");
  copy.setAttribute("xmlns:xlink", "http://www.w3.org/1999/xlink");
  // links as absolute addresses: the file is read away from this site
  for (const a of copy.querySelectorAll("a[href]")) a.setAttribute("href", new URL(a.getAttribute("href"), location.href).href);
  return new XMLSerializer().serializeToString(copy);
}

function svgBlob(plotBox) {
  return new Blob([svgText(plotBox)], { type: "image/svg+xml" });
}

/** The table as CSV (RFC 4180): every column of the answer, IRIs and values as given. */
export function csvText(table) {
  const quote = (v) => (/[",\n\r]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v);
  const lines = [table.vars.map(quote).join(",")];
  for (const r of table.rows) lines.push(r.map((c) => quote(c ? String(c.value) : "")).join(","));
  return lines.join("\r\n") + "\r\n";
}

function csvBlob(table) {
  return new Blob([csvText(table)], { type: "text/csv" });
}

function save(blob, filename) {
  const url = URL.createObjectURL(blob);
  const a = el("a", { href: url, download: filename, hidden: true });
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** The chart drawn on a canvas at twice its size, as a PNG. */
function downloadPng(plotBox, stem) {
  const svg = plotBox.querySelector("svg");
  const { width, height } = svg.getBoundingClientRect();
  const img = new Image();
  const url = URL.createObjectURL(svgBlob(plotBox));
  img.onload = () => {
    const canvas = document.createElement("canvas");
    canvas.width = Math.ceil(width * 2);
    canvas.height = Math.ceil(height * 2);
    const ctx = canvas.getContext("2d");
    ctx.fillStyle = "#fff";
    ctx.fillRect(0, 0, canvas.width, canvas.height);
    ctx.drawImage(img, 0, 0, canvas.width, canvas.height);
    URL.revokeObjectURL(url);
    canvas.toBlob((blob) => save(blob, `${stem}.png`), "image/png");
  };
  img.src = url;
}

const SVG = "http://www.w3.org/2000/svg";

function svgEl(tag, attrs = {}, ...children) {
  const node = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) if (v !== null && v !== undefined) node.setAttribute(k, String(v));
  node.append(...children);
  return node;
}

/** A sparkline: a series' values over time in a line 160 px wide, for an entity page (revenue, funding,
 * staff, capacity …). `points` are {date, value, text, tentative}; the dates as written (2024, 2024-05,
 * 2024-05-01). An image with one sentence for screen readers (first and last value and when), each point
 * its own value and date on hover; planned or rumoured points hollow. Null under three dated points. */
export function sparkline(points, { label = "", width = 160, height = 34 } = {}) {
  const dated = points.map((p) => ({ ...p, at: parseDate(p.date) }))
    .filter((p) => p.at && Number.isFinite(p.value)).sort((a, b) => a.at - b.at);
  if (new Set(dated.map((p) => p.at.getTime())).size < 3) return null;
  const x0 = dated[0].at.getTime();
  const x1 = dated[dated.length - 1].at.getTime();
  const values = dated.map((p) => p.value);
  const lo = Math.min(0, ...values);
  const hi = Math.max(...values);
  const pad = 3;
  const px = (p) => pad + ((p.at.getTime() - x0) / (x1 - x0 || 1)) * (width - 2 * pad);
  const py = (p) => height - pad - ((p.value - lo) / (hi - lo || 1)) * (height - 2 * pad);
  const first = dated[0];
  const last = dated[dated.length - 1];
  const said = `${label}: ${dated.length} values from ${first.date} (${first.text}) to ${last.date} (${last.text})`;
  const svg = svgEl("svg", { class: "sparkline", width, height, viewBox: `0 0 ${width} ${height}`, role: "img", "aria-label": said },
    svgEl("title", {}, said),
    svgEl("polyline", { points: dated.map((p) => `${px(p).toFixed(1)},${py(p).toFixed(1)}`).join(" "), fill: "none",
      stroke: "currentColor", "stroke-width": 1.4, "stroke-linejoin": "round" }),
    ...dated.map((p) => svgEl("circle", { cx: px(p).toFixed(1), cy: py(p).toFixed(1), r: 2.2, "stroke-width": 1,
      stroke: "currentColor", fill: p.tentative ? "#fff" : "currentColor", class: p.tentative ? "tentative" : null },
    svgEl("title", {}, `${p.date}: ${p.text}${p.tentative ? " (planned, rumoured or unconfirmed)" : ""}`))));
  return svg;
}
