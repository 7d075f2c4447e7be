// Named queries: the list, a form for each query's parameters, results as a table with entity links,
// downloadable as CSV and JSON.
import { chartSpec, drawChart } from "./chart.js";
import { allPages, api, el, foldLabels, normalizeTable, resultsTable, showError } from "./common.js";
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

/** The editor opening this question with these values written in (the server fills in defaults). */
function editorHref(q, params) {
  const all = new URLSearchParams({ named: q.name });
  for (const [k, v] of params) all.set(k, v);
  return `/editor?${all}`;
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
  await show(q, params, url, body, out);
}

/** The rows read so far (the first page, and the next ones asked for) as a table, a count saying how many
 * of the answer's rows they are, a button for the next page while one follows, and the charts. */
async function show(q, params, url, body, out) {
  const table = normalizeTable(body);
  const stem = q.name + (params.toString() ? "-" + [...params.values()].join("-") : "");
  const n = table.rows.length;
  const total = body.total ?? null;
  const counted = total !== null && total > n ? `${n} of ${total} rows` : `${n} row${n === 1 ? "" : "s"}`;
  let more = null;
  if (body.next) {
    more = el("button", { type: "button", class: "btn", id: "next-page" }, "More rows");
    more.addEventListener("click", async () => {
      more.disabled = true;
      try {
        const page = await api(body.next);
        show(q, params, url, { ...page, rows: body.rows.concat(page.rows) }, out);
      } catch (err) {
        showError(out, err, "The next page failed");
      }
    });
  }
  const toolbar = el("div", { class: "toolbar" },
    el("strong", { id: "row-count" }, counted),
    table.truncated && !body.next ? el("span", { class: "warn" }, "cut off at the row limit") : null,
    more,
    el("span", { style: { flex: 1 } }),
    el("a", { class: "btn", id: "dl-csv", href: withFormat(url, "csv"), download: `${stem}.csv` }, "↓ CSV"),
    el("a", { class: "btn", id: "dl-json", href: url, download: `${stem}.json` }, "↓ JSON"));
  const shown = foldLabels(table, (q.parameters || []).map((p) => p.name));
  const content = table.rows.length ? await resultsTable(shown)
    : el("p", { class: "muted" }, "No rows: nothing in the graph answers this question with these parameters.");
  const charts = el("div", { id: "query-charts" });
  out.replaceChildren(toolbar, charts, content);
  if (table.rows.length) chartsOf(q, table, charts, toolbar, stem);
  out.dataset.state = "done";
}

/** The query's declared charts, drawn above its table; else a button drawing the one its columns suggest. */
function chartsOf(q, table, box, toolbar, stem) {
  const declared = (q.charts || []).map((c) => chartSpec(table, c)).filter(Boolean);
  declared.forEach((spec, i) => {
    const one = el("div", { class: "chart-box" });
    box.append(one);
    drawChart(one, table, spec, { name: `${stem}${i ? "-" + (i + 1) : ""}`, title: q.charts[i].title });
  });
  if (declared.length) return;
  const auto = chartSpec(table);
  if (!auto) return;
  const button = el("button", { type: "button", class: "btn", id: "draw-chart" }, "Draw as a chart");
  button.addEventListener("click", () => {
    button.remove();
    const one = el("div", { class: "chart-box" });
    box.append(one);
    drawChart(one, table, auto, { name: stem });
  });
  toolbar.insertBefore(button, toolbar.querySelector("#dl-csv"));
}

/** The charts an analyst expects first, on the Questions page before a question is chosen. */
const FEATURED = ["training-compute-over-time", "largest-clusters-over-time", "largest-clusters-by-owner", "funding-by-company"];

async function renderGallery() {
  const featured = FEATURED.map((n) => queries.find((q) => q.name === n)).filter((q) => q && (q.charts || []).length);
  if (!featured.length) return;
  const grid = el("div", { class: "chart-gallery", id: "chart-gallery" });
  panel.replaceChildren(el("h1", {}, "Charts"),
    el("p", { class: "muted" }, "Drawn from the questions' answers. Every mark opens its entity; hover for its source and certainty. Choose a question on the left for its table."),
    grid);
  await Promise.all(featured.map(async (q) => {
    const box = el("section", { class: "chart-box", "data-query": q.name },
      el("h2", {}, el("a", { href: `/queries/${encodeURIComponent(q.name)}` }, q.title)),
      el("p", { class: "muted" }, "Loading…"));
    grid.append(box);
    try {
      const table = normalizeTable(await allPages(`/api/queries/${encodeURIComponent(q.name)}`));
      const spec = chartSpec(table, q.charts[0]);
      const plot = el("div", {});
      box.replaceChild(plot, box.lastChild);
      if (spec) drawChart(plot, table, spec, { name: q.name, title: q.charts[0].title });
      else plot.replaceChildren(el("p", { class: "muted" }, "Nothing to draw."));
    } catch (err) {
      showError(box.lastChild, err, "Could not draw it");
    }
  }));
  grid.dataset.ready = "true";
}

function renderQuery(q, initialParams) {
  const form = el("form", { class: "form", id: "query-form" }, (q.parameters || []).map((p) => paramInput(p, initialParams.get(p.name))));
  const out = el("div", { id: "query-results" });
  const sparql = TEXTS[q.name] || "";
  // By name, with the values of the form (some texts outgrow a URL); kept in step with each run.
  const editorLink = el("a", { href: editorHref(q, readParams(form, q)), id: "open-editor" }, "Open in the SPARQL editor");
  form.append(el("div", { style: { alignSelf: "end" } }, el("button", { class: "btn primary", type: "submit", id: "run" }, "Run")));
  form.addEventListener("submit", (ev) => {
    ev.preventDefault();
    const params = readParams(form, q);
    history.replaceState(null, "", `/queries/${encodeURIComponent(q.name)}${params.toString() ? "?" + params : ""}`);
    editorLink.href = editorHref(q, params);
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
      editorLink)] : []),
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
  } else {
    renderGallery();
  }
}
main();
