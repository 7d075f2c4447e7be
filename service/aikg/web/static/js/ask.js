// The ask page: a question in plain words goes to /api/ask; the answer is a table whose every row names
// its sources, with what was done in words and the query it ran (one click opens it in the SPARQL editor),
// and the alternatives. The question asked before on the page goes along as `after`, for a follow-up.
import { api, certaintyBadge, el, entityLink, foldLabels, formatValue, humanize, param, renderCell, showError, normalizeCell } from "./common.js";

const form = document.getElementById("ask-form");
const input = document.getElementById("ask-input");
const result = document.getElementById("ask-result");
const understoodEl = document.getElementById("ask-understood");
const answerEl = document.getElementById("ask-answer");
const alternativesEl = document.getElementById("ask-alternatives");

function sourcesList(sources) {
  if (!sources || !sources.length) return el("span", { class: "muted" }, "—");
  return el("ul", {}, sources.map((s) => el("li", {},
    s.document ? entityLink(s.document.iri, s.document.title) : el("span", { class: "term" }, s.graph),
    " ", certaintyBadge(s.certainty))));
}

function percent(x) {
  return `${Math.round(100 * (x || 0))} %`;
}

function renderUnderstood(body) {
  const u = body.understood;
  const a = body.answer;
  const parts = [];
  if (a.kind === "timeout") {
    parts.push(el("div", { class: "abstain", id: "ask-timeout" }, a.message, " ",
      el("a", { id: "ask-editor", href: a.links.editor || a.links.page }, "Run it yourself")));
  } else if (a.kind === "unsure") {
    // read with words it did not understand: what it understood, those words, no answer shown as one
    const run = a.links.editor || a.links.page;
    parts.push(el("div", { class: "abstain unsure", id: "ask-unsure", role: "status" },
      el("strong", {}, "Not sure. "), "aikg did not understand every word of the question, and the answer may depend on the words it did not.",
      el("p", {}, el("span", { class: "muted" }, "Understood as: "), el("strong", { id: "ask-description" }, a.description)),
      el("p", {}, el("span", { class: "muted" }, "Not understood: "),
        ...a.unknown.map((w) => el("mark", { class: "unknown-word" }, w)).flatMap((m, i) => (i ? [" ", m] : [m]))),
      run ? el("a", { class: "btn", id: "ask-editor", href: run }, "Run it anyway") : null));
    if (u.sparql) {
      parts.push(el("details", { class: "note" }, el("summary", {}, "The SPARQL it would run"),
        el("pre", { id: "ask-sparql" }, u.sparql)));
    }
  } else if (body.abstained) {
    parts.push(el("div", { class: "abstain", id: "ask-abstained" }, a.message));
  } else if (u.description && a.kind === "rows") {
    parts.push(el("div", { class: "understood" },
      el("span", { class: "muted" }, "Understood as"),
      el("strong", { id: "ask-description" }, u.description),
      el("span", { class: "muted confidence" }, `confidence ${percent(u.confidence)}`),
      el("span", { style: { flex: 1 } }),
      el("a", { class: "btn", id: "ask-editor", href: a.query.links.editor }, "Open in the SPARQL editor")));
    if (a.summary) parts.push(el("p", { id: "ask-summary" }, el("span", { class: "muted" }, "Answer: "), el("strong", {}, a.summary)));
    parts.push(el("details", { class: "note" }, el("summary", {}, "The SPARQL it ran"),
      el("pre", { id: "ask-sparql" }, u.sparql)));
  } else if (u.query) {
    const params = Object.entries(u.parameters).map(([k, v]) => `${k} = ${v}`).join(", ");
    parts.push(el("div", { class: "understood" },
      el("span", { class: "muted" }, "Understood as"),
      el("a", { href: a.query.links.page, id: "ask-query", "data-query": u.query }, a.query.title),
      params ? el("code", {}, params) : null,
      el("span", { class: "muted confidence" }, `confidence ${percent(u.confidence)}`),
      el("span", { style: { flex: 1 } }),
      el("a", { class: "btn", id: "ask-editor", href: a.query.links.editor }, "Open in the SPARQL editor")));
  } else if (a.kind === "facts") {
    parts.push(el("div", { class: "understood" },
      el("span", { class: "muted" }, "Understood as"),
      el("strong", {}, a.property ? a.property.label : "what aikg knows"), el("span", { class: "muted" }, "of"),
      entityLink(a.entity.id, a.entity.label, a.entity.types),
      el("span", { class: "muted confidence" }, `confidence ${percent(u.confidence)}`)));
  }
  if (!body.abstained && u.unknown && u.unknown.length) {
    // words the reading did not use because they ask nothing it could use ("who *wins*"): said, not hidden
    parts.push(el("p", { class: "muted", id: "ask-unused" }, "Did not use: ",
      ...u.unknown.map((w) => el("mark", { class: "unknown-word" }, w)).flatMap((m, i) => (i ? [" ", m] : [m]))));
  }
  understoodEl.replaceChildren(...parts);
}

// Column names of composed answers, in words
const COMPOSED = { x: "", entity: "of", node: "stated on", value: "value", document: "source document", org0: "organization", trainedModel: "model" };

function header(v, understood) {
  if (understood.form && v in COMPOSED) {
    if (v === "value" && understood.form.property) return humanize(understood.form.property);
    if (v === "x") return humanize(understood.form.class || "item");
    return COMPOSED[v];
  }
  return humanize(v);
}

function rowsTable(a, understood) {
  const table = { vars: a.columns, rows: a.rows.map((r) => a.columns.map((c) => normalizeCell(r.cells[c]))), truncated: a.truncated };
  const shown = foldLabels(table, Object.keys(understood.parameters || {})); // the parameters are said above
  const head = el("tr", {}, shown.vars.map((v) => el("th", {}, header(v, understood))), el("th", {}, "sources"));
  const body = shown.rows.map((cells, i) => el("tr", {},
    cells.map((c) => el("td", {}, renderCell(c))),
    el("td", { class: "row-sources" }, sourcesList(a.rows[i].sources))));
  const count = a.total > a.rows.length ? `${a.rows.length} of ${a.total} rows` : `${a.rows.length} row${a.rows.length === 1 ? "" : "s"}`;
  return [
    el("div", { class: "toolbar" }, el("strong", { id: "ask-row-count" }, count),
      a.truncated ? el("a", { class: "warn", href: a.query.links.page || a.query.links.editor }, "more on the question's page") : null),
    a.rows.length ? el("div", { class: "table-wrap" }, el("table", { class: "results", id: "ask-table" }, el("thead", {}, head), el("tbody", {}, body)))
      : el("p", { class: "muted" }, "No rows: nothing in the graph answers this question."),
  ];
}

function factValue(f) {
  if (f.node) return entityLink(f.node.id || f.value, f.node.label);
  const q = f.qualifier && f.qualifier.symbol ? `${f.qualifier.symbol} ` : "";
  return q + formatValue(f.value, f.unit);
}

function factsTable(a) {
  const head = el("tr", {}, el("th", {}, "of"), el("th", {}, "fact"), el("th", {}, "value"), el("th", {}, "sources"));
  const body = a.facts.map((f) => el("tr", {},
    el("td", {}, entityLink(f.subject.id, f.subject.label)),
    el("td", {}, f.property.label),
    el("td", { class: "fact-value" }, factValue(f)),
    el("td", { class: "row-sources" }, sourcesList(f.sources))));
  return [
    a.note ? el("p", { class: "note muted", id: "ask-note" }, a.note) : null,
    el("div", { class: "table-wrap" }, el("table", { class: "results", id: "ask-table" }, el("thead", {}, head), el("tbody", {}, body))),
  ];
}

function renderAlternatives(body) {
  const alts = body.alternatives || [];
  if (!alts.length) { alternativesEl.replaceChildren(); return; }
  const heading = body.abstained ? "Questions aikg can answer that come closest" : "Or did you mean";
  alternativesEl.replaceChildren(el("h3", {}, heading), el("ul", { class: "alternatives", id: "ask-alternative-list" }, alts.map((alt) => {
    const params = Object.entries(alt.parameters || {}).map(([k, v]) => `${k} = ${v}`).join(", ");
    const href = alt.links ? alt.links.page : `/queries/${encodeURIComponent(alt.query)}`;
    return el("li", {}, el("a", { href, "data-query": alt.query }, alt.title), params ? [" ", el("code", {}, params)] : null,
      alt.missing ? el("span", { class: "muted" }, ` (give the ${alt.missing.join(", ")})`) : null,
      el("span", { class: "muted" }, ` — e.g. “${alt.example}”`));
  })));
}

let previous = param("after") || "";

async function ask(q, after) {
  if (!q) { result.hidden = true; return; }
  result.hidden = false;
  result.dataset.state = "asking";
  understoodEl.replaceChildren(el("p", { class: "muted" }, "Thinking…"));
  answerEl.replaceChildren();
  alternativesEl.replaceChildren();
  let body;
  try {
    body = await api(`/api/ask?${new URLSearchParams(after ? { q, after } : { q })}`);
  } catch (err) {
    showError(understoodEl, err, "Could not ask");
    result.dataset.state = "error";
    return;
  }
  renderUnderstood(body);
  const a = body.answer;
  answerEl.replaceChildren(...(a.kind === "rows" ? rowsTable(a, body.understood) : a.kind === "facts" ? factsTable(a) : []));
  renderAlternatives(body);
  result.dataset.state = a.kind === "timeout" ? "timeout" : a.kind === "unsure" ? "unsure" : body.abstained ? "abstained" : "answered";
  if (!body.abstained) previous = q;
}

form.addEventListener("submit", (ev) => {
  ev.preventDefault();
  const q = input.value.trim();
  const after = previous && previous !== q ? previous : "";
  history.replaceState(null, "", q ? `/ask?${new URLSearchParams(after ? { q, after } : { q })}` : "/ask");
  ask(q, after);
});

const initial = param("q");
if (initial) { input.value = initial; ask(initial.trim(), previous); }
