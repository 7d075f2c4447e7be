// The entity page, laid out like a reference work: what it is, its key figures (one row per property;
// where sources disagree, each value with its own source and certainty), and its relations grouped by
// kind and by property with counts — each node once, long groups paged — and for every fact the source
// document(s) and certainty behind it: a relayed claim or a rumour looks different from a fact.
import { api, certaintyBadge, certaintyKey, colorOf, curie, dot, el, entityHref, entityLink, externalLink,
  familyLabel, familyOf, FAMILIES, figure, formatValue, linkify, MONEY_PROPERTIES, scaleFigure, showError, slugOf, typeLabels } from "./common.js";
import { sparkline } from "./chart.js";

const root = document.getElementById("entity");
const SLUG = root.dataset.slug;
const UNCERTAIN = new Set(["Relayed", "Rumoured", "Estimated"]);
const HIDDEN_PROPS = new Set(["label", "altLabel", "comment", "type", "prefLabel", "qualifiedBy", "currencyStated"]);
const NOTE_PROPS = new Set(["note"]);
const BOOKKEEPING_PROPS = new Set(["sourceRow", "sourceConfidence", "flag"]);
const FIRST_PAGE = 5; // of a group's plain links
const FIRST_CARDS = 3; // of a group's deals, results, deployments … (cards are taller)
const PAGE = 20;
const SERVER_PAGE = 500; // links per relation group asked of the API; a hub's longer groups load on demand

// ---------------------------------------------------------------------------------------------------
// The API's entity JSON, read into one fixed shape
// ---------------------------------------------------------------------------------------------------

const iriOf = (x) => (x && typeof x === "object" ? x.iri || x.value : x) || "";
const localName = (iri) => String(iri).split(/[#/:]/).pop();
let DOCUMENTS = new Map();

const humanize = (name) => name.replace(/([a-z0-9])([A-Z])/g, "$1 $2").toLowerCase();

function prop(p) {
  const iri = iriOf(p);
  const name = localName(iri);
  const label = p && p.label && p.label !== name ? p.label : humanize(name);
  return { iri, name, label };
}

/** One source of a fact: its graph, its document (with the catalogue's details) and certainty. */
function source(s) {
  const brief = s.document || null;
  const full = DOCUMENTS.get(s.graph) || {};
  const iri = iriOf(brief) || full.iri || "";
  const doc = iri || full.title ? {
    iri, slug: full.id || slugOf(iri), title: (brief && brief.title) || full.title || "",
    publisher: full.publisher ? full.publisher.label : null, date: full.date || "", url: full.url || "",
  } : null;
  return { graph: s.graph || "", doc, certainty: s.certainty || null, confidence: s.confidence || null,
    evidence: s.evidence || [] };
}

const sourcesOf = (x) => (x.sources || []).map(source);

/** A fact; one whose JSON lists several values (each with its sources) gives one fact per value. */
function facts(f) {
  const base = { prop: prop(f.property), datatype: f.datatype, lang: f.lang, unit: f.unit, qualifier: f.qualifier };
  if (Array.isArray(f.values) && f.values.length) {
    return f.values.map((v) => ({ ...base, value: v.value ?? f.value, datatype: v.datatype ?? f.datatype,
      qualifier: v.qualifier ?? f.qualifier, sources: sourcesOf(v), difference: v.difference || f.difference || null }));
  }
  return [{ ...base, value: f.value, sources: sourcesOf(f), difference: f.difference || null }];
}

function node(n) {
  const x = n.expanded || null;
  // A web address (a row's source URL), not an entity or a vocabulary term (aikg:Announced).
  const web = !n.id && /^https?:\/\//.test(n.iri || "") && curie(n.iri) === n.iri;
  return {
    iri: n.iri, slug: n.id || slugOf(n.iri), label: n.label, types: n.types || [], nary: Boolean(x), web,
    facts: x ? x.facts.flatMap(facts) : [],
    descriptions: x ? (x.descriptions || []).flatMap(facts) : [],
    rels: x ? x.relations.map((r) => rel(r, "out")) : [],
  };
}

function rel(r, dir) {
  return { prop: prop(r.property), dir, other: node(r.node), sources: sourcesOf(r) };
}

/** The relations of the entity, one entry per other node: every property linking the two (either
 * way) on that one entry, so a deployment NVIDIA both operates and uses is listed once. */
function linked(rels) {
  const byNode = new Map();
  for (const r of rels) {
    const key = r.other.iri;
    if (!byNode.has(key)) byNode.set(key, { other: r.other, links: [] });
    const entry = byNode.get(key);
    if (r.other.nary && !entry.other.nary) entry.other = r.other;
    if (!entry.links.some((l) => l.prop.iri === r.prop.iri && l.dir === r.dir)) entry.links.push(r);
  }
  return [...byNode.values()];
}

/** The entity response of /api/entities/<id> in the page's shape. */
export function readEntity(body) {
  DOCUMENTS = new Map((body.documents || []).map((d) => [d.graph, d]));
  const out = (body.relations?.outgoing || []).map((r) => rel(r, "out"));
  const inc = (body.relations?.incoming || []).map((r) => rel(r, "in"));
  const all = linked([...out, ...inc]);
  return {
    iri: body.iri, slug: body.id || SLUG, label: body.label, zh: body.labels?.zh || null,
    alt: (body.altLabels || []).map((a) => a.value),
    comment: body.description || "",
    types: body.types || [],
    facts: (body.facts || []).flatMap(facts),
    descriptions: (body.descriptions || []).flatMap(facts),
    web: all.filter((x) => x.other.web),
    linked: all.filter((x) => !x.other.web),
    documents: body.documents || [],
    comparisons: (body.comparisons || []).map((c) => ({ ...c, values: c.values.map((v) => ({ ...v, sources: sourcesOf(v) })) })),
    truncated: Boolean(body.truncated),
    // Relation groups (direction, property) with links the first answer left out, each with its next page.
    more: (body.relations?.groups || []).filter((g) => g.next),
  };
}

// ---------------------------------------------------------------------------------------------------
// Citations: every source on the page numbered once, before anything is drawn, so that numbers stay
// the same whichever page of a long group is shown and the Sources panel lists them all.
// ---------------------------------------------------------------------------------------------------

const CITES = new Map();

function register(s) {
  const key = s.doc?.iri || s.graph;
  if (!CITES.has(key)) CITES.set(key, { n: CITES.size + 1, s, count: 0, certainties: new Set() });
  const c = CITES.get(key);
  c.count += 1;
  const k = certaintyKey(s.certainty);
  if (k) c.certainties.add(k);
}

function registerAll(e, groups) {
  const walkNode = (n) => {
    n.facts.forEach((f) => f.sources.forEach(register));
    n.descriptions.forEach((d) => d.sources.forEach(register));
    n.rels.forEach((r) => r.sources.forEach(register));
  };
  e.facts.forEach((f) => f.sources.forEach(register));
  e.descriptions.forEach((d) => d.sources.forEach(register));
  e.web.forEach((x) => x.links.forEach((l) => l.sources.forEach(register)));
  e.comparisons.forEach((c) => c.values.forEach((v) => v.sources.forEach(register)));
  for (const [, subgroups] of groups) {
    for (const g of subgroups) {
      for (const x of g.items) {
        x.links.forEach((l) => l.sources.forEach(register));
        walkNode(x.other);
      }
    }
  }
}

function cite(s) {
  const c = CITES.get(s.doc?.iri || s.graph);
  const n = c ? c.n : "?";
  const title = s.doc?.title || curie(s.graph);
  return el("a", { class: "cite", href: `#src-${n}`, title: `Source: ${title}` }, `[${n}]`);
}

/** Certainty badge, citation and evidence (the document's sentence, or aikg's reason) of each source. */
function sourcesCell(sources) {
  if (!sources.length) return el("span", { class: "src" }, "no source recorded");
  return el("span", { class: "sources-cell" }, sources.map((s) => el("span", { class: "src" }, certaintyBadge(s.certainty),
    s.confidence ? [" ", confidenceBadge(s.confidence)] : null, " ", cite(s), evidenceNote(s))));
}

/** What a fact rests on, folded: the quoted sentences of its document, the cell of a dataset's file
 * it was read from, or the curators' reason for a background fact. */
function evidenceNote(s) {
  if (!s.evidence.length) return null;
  const kinds = new Set(s.evidence.map((x) => x.kind));
  const [summary, title] = kinds.has("quotation") ? ["❝ quote", "The sentence(s) of the document that state this"]
    : kinds.has("cell") ? ["cell", "The file, row and column this was read from"]
      : ["why", "Why aikg's curators state this"];
  return el("details", { class: "evidence" }, el("summary", { title }, summary), s.evidence.map(evidenceItem));
}

function evidenceItem(x) {
  if (x.kind === "quotation") return el("blockquote", { lang: x.lang || null }, x.text);
  if (x.kind === "cell") {
    const columns = (x.columns || []).map((c) => `“${c}”`).join(" or ");
    return el("p", {}, x.file, x.row ? `, row ${x.row}` : "", columns ? `, column ${columns}` : "");
  }
  return el("p", { lang: x.lang || null }, x.text);
}

/** The dataset's own confidence in its row: a second axis, shown apart from the document's certainty. */
function confidenceBadge(c) {
  return el("span", { class: "badge cert-other", title: "The dataset's own confidence in this row" }, `dataset: ${c.label || curie(c.iri)}`);
}

/** Rounding or a real disagreement between sources, beside the value. */
function differenceBadge(kind) {
  if (!kind) return null;
  return kind === "disagreement"
    ? el("span", { class: "badge cert-rumoured", title: "Another source gives a value that differs by more than rounding" }, "≠ sources disagree")
    : el("span", { class: "badge cert-estimated", title: "Another source gives this figure rounded differently" }, "≈ rounding");
}

/** The sources written out: certainty and document title, for the foot of a card. */
function sourceLines(sources, webs = []) {
  const seen = new Set();
  const unique = sources.filter((s) => { const k = s.doc?.iri || s.graph; if (seen.has(k)) return false; seen.add(k); return true; });
  return el("div", { class: "card-sources" }, unique.map((s) => el("div", { class: "src" }, "Source ", cite(s), " ",
    s.doc && entityHref(s.doc.slug) ? el("a", { href: entityHref(s.doc.slug) }, s.doc.title || s.doc.slug) : (s.doc?.title || curie(s.graph)),
    s.doc?.date ? ` · ${s.doc.date}` : "", " ", certaintyBadge(s.certainty))),
  webs.length ? el("div", { class: "src refs" }, "Reference ", webs.map((w, i) => [i ? " · " : "", externalLink(w.iri)])) : null);
}

function isUncertain(sources) {
  return sources.length > 0 && sources.every((s) => UNCERTAIN.has(certaintyKey(s.certainty)));
}

function qualifierText(q) {
  if (!q) return null;
  return el("span", { class: "qual", title: q.label || "" }, q.symbol || q.label);
}

const NUMERIC_TYPES = /#(decimal|integer|double|float|int|long|short|positiveInteger|nonNegativeInteger)$/;

/** The currency stated on the same node, for its money figures. */
function currencyOf(list) {
  const c = list.find((f) => f.prop.name === "currency");
  return c ? String(c.value) : null;
}

/** A value as shown: figures scaled with their unit and exact on hover, flags as yes/no, web
 * addresses as links. */
function valueContent(f, siblings) {
  if (/#boolean$/.test(f.datatype || "")) return String(f.value) === "true" ? "yes" : "no";
  if (NUMERIC_TYPES.test(f.datatype || "")) {
    const currency = MONEY_PROPERTIES.has(f.prop.name) ? currencyOf(siblings) : null;
    return figure(f.value, f.unit, f.prop.name, currency);
  }
  const text = f.unit?.symbol ? `${f.value} ${f.unit.symbol}` : String(f.value);
  return linkify(text);
}

/** Money figures say when the source gave no currency. */
function currencyWarning(list) {
  const names = new Set(list.map((f) => f.prop.name));
  if (![...MONEY_PROPERTIES].some((m) => names.has(m)) || names.has("currency")) return null;
  return el("span", { class: "warn", title: "The source gives this figure without a currency; aikg assumes none." },
    "⚠ no currency in source");
}

/** Facts grouped by property, in the API's order, each property once with all its values. */
function byProperty(list) {
  const groups = new Map();
  for (const f of list) {
    if (HIDDEN_PROPS.has(f.prop.name)) continue;
    if (!groups.has(f.prop.iri)) groups.set(f.prop.iri, { prop: f.prop, values: [] });
    const g = groups.get(f.prop.iri);
    if (!g.values.some((v) => v.value === f.value && v.lang === f.lang)) g.values.push(f);
  }
  return [...groups.values()];
}

function valueLine(f, siblings, warn) {
  return el("div", { class: `value-line${isUncertain(f.sources) ? " uncertain" : ""}` },
    el("span", { class: "value" }, qualifierText(f.qualifier), valueContent(f, siblings),
      warn && MONEY_PROPERTIES.has(f.prop.name) ? [" ", warn] : null, f.difference ? [" ", differenceBadge(f.difference)] : null),
    sourcesCell(f.sources));
}

function renderFigures(e) {
  const target = document.getElementById("figures");
  const groups = byProperty(e.facts);
  const main = groups.filter((g) => !NOTE_PROPS.has(g.prop.name) && !BOOKKEEPING_PROPS.has(g.prop.name));
  const notes = groups.filter((g) => NOTE_PROPS.has(g.prop.name));
  const bookkeeping = groups.filter((g) => BOOKKEEPING_PROPS.has(g.prop.name));
  const warn = currencyWarning(e.facts);
  const row = (g) => el("div", { class: "fact", "data-prop": g.prop.name, "data-values": String(g.values.length) },
    el("div", { class: "prop" }, g.prop.label,
      g.values.length > 1 ? el("span", { class: "differ", title: "The sources give different values; each is shown with its source." },
        `${g.values.length} values`) : null),
    el("div", { class: "values" }, g.values.map((f) => valueLine(f, e.facts, warn))));
  const parts = [];
  if (main.length) parts.push(el("div", { class: "facts" }, main.map(row)));
  const quotes = [...e.descriptions, ...notes.flatMap((g) => g.values)];
  if (quotes.length) {
    parts.push(el("h3", { class: "quotes-head" }, "What the sources say"),
      el("ul", { class: "quotes" }, quotes.map((d) => el("li", {}, el("q", { lang: d.lang || null }, linkify(d.value)), " ", sourcesCell(d.sources)))));
  }
  if (e.comparisons.length) {
    parts.push(el("h3", { class: "quotes-head" }, "Where sources differ"),
      el("ul", { class: "comparisons" }, e.comparisons.map((c) => el("li", { "data-prop": c.property.name },
        `${prop(c.property).label}: `, differenceBadge(c.difference), " ",
        c.values.flatMap((v, i) => [i ? " · " : "", el("strong", {}, formatValue(v.value, c.unit)),
          v.node ? ` (on ${v.node.label})` : "", " ", sourcesCell(v.sources)])))));
  }
  if (bookkeeping.length) parts.push(el("div", { class: "facts bookkeeping" }, bookkeeping.map(row)));
  if (e.web.length) {
    parts.push(el("div", { class: "refs" }, el("span", { class: "muted" }, "On the web: "),
      e.web.map((x, i) => [i ? " · " : "", externalLink(x.other.iri), " ", sourcesCell(x.links.flatMap((l) => l.sources))])));
  }
  target.replaceChildren(...parts);
  document.getElementById("figures-panel").hidden = !parts.length;
}

/** Every source document cited on the page, numbered, with title, publisher, date and certainty. */
function renderSources() {
  const target = document.getElementById("sources");
  if (!CITES.size) { target.replaceChildren(el("p", { class: "muted" }, "No source recorded.")); return; }
  target.replaceChildren(el("ol", { class: "source-list" }, [...CITES.values()].map(({ n, s, count, certainties }) => {
    const doc = s.doc;
    const title = doc?.title || curie(s.graph);
    const href = doc ? entityHref(doc.slug) : null;
    return el("li", { id: `src-${n}` },
      el("div", { class: "source-title" }, el("span", { class: "cite-n" }, `[${n}]`), " ", href ? el("a", { href }, title) : title),
      el("div", { class: "src" }, [
        doc?.publisher, doc?.date,
        doc?.url ? externalLink(doc.url, "original") : null,
        el("span", { class: "muted graph-name", title: "the named graph holding these facts" }, curie(s.graph)),
        `${count} fact${count === 1 ? "" : "s"} here`,
      ].filter(Boolean).flatMap((part, i) => (i ? [" · ", part] : [part])), " ", [...certainties].map((c) => certaintyBadge(c))));
  })));
}

// ---------------------------------------------------------------------------------------------------
// Relations: by kind of the other node (deals, results, facilities …), then by the properties linking
// it here, each group with its count and paged.
// ---------------------------------------------------------------------------------------------------

const VERB_PHRASE = /^(uses|runs|has|is|was|competes|supports|succeeds|evolved|designed|based|cited|derived|triggered|concerns|involves|compared|part)\b|\b(of|with|for|by|to|in|on|from|at|into)$/;

/** How a link reads from this entity's page: "maker" for a link from here; for a link to here, "as
 * maker" (the other node names this entity its maker), or "runs only hardware of NVIDIA" for a verb. */
function linkLabel(l, selfLabel) {
  if (l.dir !== "in") return l.prop.label;
  return VERB_PHRASE.test(l.prop.label) ? `${l.prop.label} ${selfLabel}` : `as ${l.prop.label}`;
}

/** The links of one node, a property given both ways (competes with) once. */
function distinctLinks(x) {
  const out = x.links.filter((l) => l.dir === "out");
  return [...out, ...x.links.filter((l) => l.dir === "in" && !out.some((o) => o.prop.iri === l.prop.iri))];
}

function subgroupKey(x) {
  return distinctLinks(x).map((l) => `${l.dir} ${l.prop.iri}`).sort().join("|");
}

function dateOf(n) {
  const d = n.facts.find((f) => /date|announcedOn/i.test(f.prop.name) && /^\d{4}/.test(String(f.value)));
  return d ? String(d.value) : "";
}

export function relationGroups(entries, selfLabel) {
  const families = new Map();
  for (const x of entries) {
    const fam = familyOf(x.other.types);
    if (!families.has(fam)) families.set(fam, new Map());
    const subs = families.get(fam);
    const key = subgroupKey(x);
    if (!subs.has(key)) {
      subs.set(key, { key, label: distinctLinks(x).map((l) => linkLabel(l, selfLabel)).sort().join(" and "), items: [] });
    }
    subs.get(key).items.push(x);
  }
  const order = [...FAMILIES.map((f) => f.key), "other"];
  return [...families.entries()]
    .sort((a, b) => order.indexOf(a[0]) - order.indexOf(b[0]))
    .map(([fam, subs]) => [fam, [...subs.values()]
      .map((g) => ({ ...g, items: g.items.sort((a, b) => dateOf(b.other).localeCompare(dateOf(a.other)) || a.other.label.localeCompare(b.other.label)) }))
      .sort((a, b) => b.items.length - a.items.length || a.label.localeCompare(b.label))]);
}

/** A deal, result, phase or other n-ary node: its figures with units and the other parties, with sources. */
function naryCard(x, selfIri, role) {
  const n = x.other;
  const fam = familyOf(n.types);
  const groups = byProperty(n.facts).filter((g) => !BOOKKEEPING_PROPS.has(g.prop.name) && !NOTE_PROPS.has(g.prop.name));
  const own = x.links.flatMap((l) => l.sources);
  const all = [...own, ...n.facts.flatMap((f) => f.sources), ...n.rels.flatMap((r) => r.sources)];
  const certs = [...new Set(all.map((s) => certaintyKey(s.certainty)).filter(Boolean))];
  const warn = currencyWarning(n.facts);
  const webs = n.rels.filter((r) => r.other.web).map((r) => r.other);
  const parties = n.rels.filter((r) => r.other.iri !== selfIri && !r.other.web);
  const notes = n.facts.filter((f) => NOTE_PROPS.has(f.prop.name));
  return el("div", { class: `node-card${isUncertain(all) ? " uncertain" : ""}`, style: { "--fam": colorOf(fam) }, "data-node": n.slug },
    el("header", {}, el("a", { href: entityHref(n.slug || n.iri), class: "hit-label" }, n.label),
      el("span", { class: "role" }, `${typeLabels(n.types).join(", ")} · ${role}`),
      el("span", { class: "grow" }), certs.map((c) => certaintyBadge(c)), warn),
    groups.length || parties.length ? el("dl", {},
      groups.map((g) => el("div", { class: "pair" },
        el("dt", {}, g.prop.label),
        el("dd", { "data-prop": g.prop.name }, g.values.map((f) => el("span", { class: "dd-value" },
          el("span", { class: "big" }, qualifierText(f.qualifier), valueContent(f, n.facts)), " ", sourcesCell(f.sources)))))),
      parties.map((r) => el("div", { class: "pair" },
        el("dt", {}, r.prop.label),
        el("dd", {}, entityLink(r.other.iri, r.other.label, r.other.types))))) : null,
    n.descriptions.length || notes.length ? noteBlock([...n.descriptions, ...notes]) : null,
    sourceLines(all, webs));
}

/** Notes and quotes of a card, cut to two lines until clicked (some Epoch notes run to paragraphs). */
function noteBlock(list) {
  const p = el("p", { class: "card-note clamped", tabindex: "0", title: "Click to read it all" },
    list.map((d, i) => [i ? " " : "", el("q", { lang: d.lang || null }, linkify(d.value))]));
  const toggle = (ev) => {
    if (ev.target.closest("a")) return;
    p.classList.toggle("clamped");
  };
  p.addEventListener("click", toggle);
  p.addEventListener("keydown", (ev) => { if (ev.key === "Enter" || ev.key === " ") { ev.preventDefault(); toggle(ev); } });
  return p;
}

function plainItem(x) {
  const sources = x.links.flatMap((l) => l.sources);
  return el("li", { class: isUncertain(sources) ? "uncertain" : null, "data-node": x.other.slug },
    entityLink(x.other.iri, x.other.label, x.other.types),
    el("span", { class: "hit-type" }, typeLabels(x.other.types).join(", ")),
    el("span", { class: "grow" }),
    sourcesCell(sources));
}

const SPARKS = 3; // series drawn per group, the longest first

/** The series a group's dated nodes hold (revenue, funding, staff, capacity … over time): one per
 * numeric property that at least three dated nodes give, each point with its value as the page writes it. */
function seriesOf(items) {
  const byProp = new Map();
  for (const x of items) {
    const n = x.other;
    const date = n.nary ? dateOf(n) : "";
    if (!date) continue;
    const seen = new Set();
    for (const f of n.facts) {
      if (!NUMERIC_TYPES.test(f.datatype || "") || BOOKKEEPING_PROPS.has(f.prop.name) || seen.has(f.prop.name)) continue;
      seen.add(f.prop.name);
      const currency = MONEY_PROPERTIES.has(f.prop.name) ? currencyOf(n.facts) : null;
      const scaled = scaleFigure(f.value, f.unit, f.prop.name, currency);
      if (!byProp.has(f.prop.name)) byProp.set(f.prop.name, { prop: f.prop, points: [] });
      byProp.get(f.prop.name).points.push({ date, value: Number(f.value), text: scaled ? scaled.text : formatValue(f.value, f.unit),
        tentative: isUncertain([...f.sources, ...x.links.flatMap((l) => l.sources)]) });
    }
  }
  return [...byProp.values()].filter((s) => new Set(s.points.map((p) => p.date)).size >= 3)
    .sort((a, b) => b.points.length - a.points.length || a.prop.label.localeCompare(b.prop.label)).slice(0, SPARKS);
}

/** Sparklines of a group's series, each with what it shows in words. */
function sparks(g) {
  const drawn = seriesOf(g.items).map((s) => {
    const svg = sparkline(s.points, { label: `${s.prop.label} over time` });
    if (!svg) return null;
    const sorted = [...s.points].sort((a, b) => a.date.localeCompare(b.date));
    const last = sorted[sorted.length - 1];
    return el("figure", { class: "spark", "data-prop": s.prop.name, "data-points": String(s.points.length) }, svg,
      el("figcaption", {}, el("strong", {}, s.prop.label), ` · ${s.points.length} values, ${sorted[0].date.slice(0, 4)}–${last.date.slice(0, 4)}`,
        ` · latest ${last.text} (${last.date})`));
  }).filter(Boolean);
  return drawn.length ? el("div", { class: "sparks" }, drawn) : null;
}

/** One property group: its first items, and a button that shows the next page of them. */
function subgroup(g, e) {
  const list = el("div", { class: "items" });
  const plain = el("ul", { class: "edge-list" });
  const head = el("h4", { class: "subgroup-head" }, g.label, el("span", { class: "count" }, String(g.items.length)));
  const more = el("button", { type: "button", class: "btn more" });
  const section = el("section", { class: "subgroup", "data-group": g.label, "data-count": String(g.items.length) }, head, sparks(g), list, more);
  let shown = 0;
  const role = g.label;
  function showUpTo(limit) {
    const next = g.items.slice(shown, limit);
    for (const x of next) {
      if (x.other.nary) list.append(naryCard(x, e.iri, role));
      else {
        if (!plain.isConnected) list.append(plain);
        plain.append(plainItem(x));
      }
    }
    shown += next.length;
    section.dataset.shown = String(shown);
    const left = g.items.length - shown;
    more.hidden = left <= 0;
    more.textContent = left > 0 ? `Show ${Math.min(PAGE, left)} more · ${left} not shown` : "";
  }
  more.addEventListener("click", () => showUpTo(shown + PAGE));
  showUpTo(g.items.some((x) => x.other.nary) ? FIRST_CARDS : FIRST_PAGE);
  return section;
}

function renderRelations(e, groups) {
  const target = document.getElementById("relations");
  if (!groups.length) { target.replaceChildren(el("p", { class: "muted" }, "No relations recorded.")); return; }
  const total = groups.reduce((n, [, subs]) => n + subs.reduce((m, g) => m + g.items.length, 0), 0);
  const toc = el("nav", { class: "chips rel-toc", "aria-label": "Relations by kind" }, groups.map(([fam, subs]) =>
    el("a", { class: "chip", href: `#rel-${fam}`, style: { borderLeftColor: colorOf(fam) } }, dot(fam), familyLabel(fam),
      el("span", { class: "count" }, String(subs.reduce((m, g) => m + g.items.length, 0))))));
  document.getElementById("relations-count").textContent = String(total);
  target.replaceChildren(toc, ...groups.map(([fam, subs]) =>
    el("section", { class: "relgroup", id: `rel-${fam}`, "data-family": fam },
      el("h3", {}, dot(fam), familyLabel(fam), el("span", { class: "count" }, String(subs.reduce((m, g) => m + g.items.length, 0)))),
      subs.map((g) => subgroup(g, e)))));
  if (e.more.length) target.append(serverMore(e));
  else if (e.truncated) target.append(el("p", { class: "warn" }, "This entity has more relations than the page lists."));
}

/** The relation groups longer than one answer of the API: how many links each has, and a button that
 * fetches its next page (/api/entities/<id>/relations) and lists it, until every link is shown. */
function serverMore(e) {
  return el("section", { class: "relgroup", id: "rel-more", "data-family": "more" },
    el("h3", {}, "More links"),
    el("p", { class: "muted" }, "These groups have more links than the first answer lists; load them page by page."),
    e.more.map((g) => {
      const dir = g.direction === "incoming" ? "in" : "out";
      const label = linkLabel({ dir, prop: prop(g.property) }, e.label);
      const list = el("ul", { class: "edge-list" });
      const cards = el("div", { class: "items" }, list);
      const status = el("span", { class: "count" });
      const button = el("button", { type: "button", class: "btn more-server" });
      const section = el("section", { class: "subgroup", "data-server-group": `${g.direction} ${g.property.iri}` },
        el("h4", { class: "subgroup-head" }, label, status), cards, button);
      let shown = g.count;
      let next = g.next;
      const update = () => {
        status.textContent = `${shown} of ${g.total}`;
        section.dataset.shown = String(shown);
        button.hidden = !next;
        button.textContent = next ? `Load ${Math.min(g.limit, g.total - shown)} more · ${g.total - shown} not shown` : "";
      };
      button.addEventListener("click", async () => {
        button.disabled = true;
        try {
          const page = await api(next);
          for (const d of page.documents || []) DOCUMENTS.set(d.graph, d);
          for (const r of page.relations || []) {
            const x = { other: node(r.node), links: [rel(r, dir)] };
            x.links.forEach((l) => l.sources.forEach(register));
            if (x.other.nary) cards.append(naryCard(x, e.iri, label));
            else list.append(plainItem(x));
          }
          shown += page.count;
          next = page.next;
          renderSources();
        } catch (err) {
          showError(cards, err, "Could not load more links");
        } finally {
          button.disabled = false;
          update();
        }
      });
      update();
      return section;
    }));
}

function renderHead(e) {
  const fam = familyOf(e.types);
  document.getElementById("kinds").replaceChildren(...typeLabels(e.types).map((t) =>
    el("span", { class: "kind", style: { background: colorOf(fam) } }, t)));
  const names = [];
  if (e.zh) names.push(el("span", { class: "zh", lang: "zh" }, e.zh));
  const others = e.alt.filter((a) => a && a !== e.zh && a !== e.label);
  if (others.length) names.push(el("span", {}, `also called ${others.join(" · ")}`));
  document.getElementById("names").replaceChildren(...names);
}

function renderLegend() {
  document.getElementById("legend").replaceChildren(el("span", {}, "How certain:"),
    ...["FirstHand", "Reported", "Relayed", "Rumoured", "Estimated", "Derived"].map((k) => certaintyBadge(k)),
    el("span", { class: "legend-note" }, "· relayed, rumoured and estimated facts are drawn dashed and striped · [n] names the source document"));
}

async function main() {
  renderLegend();
  let body;
  try {
    body = await api(`/api/entities/${encodeURIComponent(SLUG)}?limit=${SERVER_PAGE}`);
  } catch (err) {
    for (const id of ["figures", "sources", "relations"]) showError(document.getElementById(id), err, "Could not load the entity");
    return;
  }
  const e = readEntity(body);
  const groups = relationGroups(e.linked, e.label);
  registerAll(e, groups);
  renderHead(e);
  renderFigures(e);
  renderRelations(e, groups);
  renderSources();
  root.dataset.loaded = "true";
}
main();
