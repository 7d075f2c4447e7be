// The entity page: what it is, its key figures with units, its relations grouped by kind, and for every
// fact the source document(s) and certainty — a relayed claim or a rumour looks different from a fact.
import { api, certaintyBadge, certaintyKey, colorOf, curie, dot, el, entityHref, entityLink, familyLabel,
  familyOf, FAMILIES, formatNumber, formatValue, showError, slugOf, typeLabels } from "./common.js";

const root = document.getElementById("entity");
const SLUG = root.dataset.slug;
const MONEY = ["amount", "price", "cost", "pricePerGpuHour"];
const UNCERTAIN = new Set(["Relayed", "Rumoured", "Estimated"]);
const HIDDEN_PROPS = new Set(["label", "altLabel", "comment", "type", "prefLabel", "qualifiedBy", "currencyStated"]);

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
  return { graph: s.graph || "", doc, certainty: s.certainty || null, confidence: s.confidence || null };
}

const sourcesOf = (x) => (x.sources || []).map(source);

function fact(f) {
  return {
    prop: prop(f.property), value: f.value, datatype: f.datatype, lang: f.lang, unit: f.unit,
    qualifier: f.qualifier, sources: sourcesOf(f), difference: f.difference || null,
  };
}

function node(n) {
  const x = n.expanded || null;
  return {
    iri: n.iri, slug: n.id || slugOf(n.iri), label: n.label, types: n.types || [], nary: Boolean(x),
    facts: x ? x.facts.map(fact) : [],
    descriptions: x ? (x.descriptions || []).map(fact) : [],
    rels: x ? x.relations.map((r) => rel(r, "out")) : [],
  };
}

function rel(r, dir) {
  return { prop: prop(r.property), dir, other: node(r.node), sources: sourcesOf(r) };
}

/** The entity response of /api/entities/<id> in the page's shape. */
export function readEntity(body) {
  DOCUMENTS = new Map((body.documents || []).map((d) => [d.graph, d]));
  const out = (body.relations?.outgoing || []).map((r) => rel(r, "out"));
  const seen = new Set(out.map((r) => `${r.prop.iri} ${r.other.iri}`));
  const inc = (body.relations?.incoming || []).map((r) => rel(r, "in"))
    .filter((r) => !seen.has(`${r.prop.iri} ${r.other.iri}`));
  const zh = body.labels?.zh || null;
  return {
    iri: body.iri, slug: body.id || SLUG, label: body.label, zh,
    alt: (body.altLabels || []).map((a) => a.value),
    comment: body.description || "",
    types: body.types || [],
    facts: (body.facts || []).map(fact),
    descriptions: (body.descriptions || []).map(fact),
    rels: [...out, ...inc],
    documents: body.documents || [],
    comparisons: (body.comparisons || []).map((c) => ({ ...c, values: c.values.map((v) => ({ ...v, sources: sourcesOf(v) })) })),
    truncated: Boolean(body.truncated),
  };
}

// ---------------------------------------------------------------------------------------------------
// Rendering
// ---------------------------------------------------------------------------------------------------

const CITES = new Map();

/** The number under which a source document is listed in the Sources panel ([1], [2]…). */
function citeNumber(s) {
  const key = s.doc?.iri || s.graph;
  if (!CITES.has(key)) CITES.set(key, { n: CITES.size + 1, s, count: 0, certainties: new Set() });
  const c = CITES.get(key);
  c.count += 1;
  const k = certaintyKey(s.certainty);
  if (k) c.certainties.add(k);
  return c.n;
}

function cite(s) {
  const n = citeNumber(s);
  const title = s.doc?.title || curie(s.graph);
  return el("a", { class: "cite", href: `#src-${n}`, title: `Source: ${title}` }, `[${n}]`);
}

/** Certainty badge and citation of each source of a fact. */
function sourcesCell(sources) {
  if (!sources.length) return el("span", { class: "src" }, "no source recorded");
  return el("span", { class: "sources-cell" }, sources.map((s) => el("span", { class: "src" }, certaintyBadge(s.certainty),
    s.confidence ? [" ", confidenceBadge(s.confidence)] : null, " ", cite(s))));
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
function sourceLines(sources) {
  const seen = new Set();
  const unique = sources.filter((s) => { const k = s.doc?.iri || s.graph; if (seen.has(k)) return false; seen.add(k); return true; });
  return el("div", { class: "card-sources" }, unique.map((s) => el("div", { class: "src" }, "Source ", cite(s), " ",
    s.doc && entityHref(s.doc.slug) ? el("a", { href: entityHref(s.doc.slug) }, s.doc.title || s.doc.slug) : (s.doc?.title || curie(s.graph)),
    s.doc?.date ? ` · ${s.doc.date}` : "", " ", certaintyBadge(s.certainty))));
}

function isUncertain(sources) {
  return sources.length > 0 && sources.every((s) => UNCERTAIN.has(certaintyKey(s.certainty)));
}

function qualifierText(q) {
  if (!q) return null;
  return el("span", { class: "qual", title: q.label || "" }, q.symbol || q.label);
}

const NUMERIC_TYPES = /#(decimal|integer|double|float|int|long|short|positiveInteger|nonNegativeInteger)$/;

/** The currency stated on the same node, added to its money figures. */
function currencyOf(facts) {
  const c = facts.find((f) => f.prop.name === "currency");
  return c ? String(c.value) : null;
}

function moneyText(f, facts) {
  const currency = MONEY.includes(f.prop.name) ? currencyOf(facts) : null;
  return [valueText(f), currency ? ` ${currency}` : null];
}

function valueText(f) {
  if (/#boolean$/.test(f.datatype || "")) return String(f.value) === "true" ? "yes" : "no";
  if (!NUMERIC_TYPES.test(f.datatype || "")) return f.unit ? `${f.value} ${f.unit.symbol || ""}`.trim() : String(f.value);
  const text = formatValue(f.value, f.unit);
  const n = Number(f.value);
  if (Math.abs(n) >= 1e6 && !f.unit?.symbol) {
    const [div, word] = Math.abs(n) >= 1e12 ? [1e12, "trillion"] : Math.abs(n) >= 1e9 ? [1e9, "billion"] : [1e6, "million"];
    return [text, el("span", { class: "muted short" }, ` (${formatNumber(n / div)} ${word})`)];
  }
  return text;
}

/** Money figures say when the source gave no currency. */
function currencyWarning(facts) {
  const names = new Set(facts.map((f) => f.prop.name));
  if (!MONEY.some((m) => names.has(m)) || names.has("currency")) return null;
  return el("span", { class: "warn", title: "The source gives this figure without a currency; aikg assumes none." },
    "⚠ no currency in source");
}

function shownFacts(facts) {
  return facts.filter((f) => !HIDDEN_PROPS.has(f.prop.name));
}

function factRow(f, warn, facts) {
  const uncertain = isUncertain(f.sources);
  return el("tr", { "data-prop": f.prop.name, class: uncertain ? "uncertain" : null },
    el("td", { class: "prop" }, f.prop.label),
    el("td", { class: "value" }, qualifierText(f.qualifier), moneyText(f, facts),
      warn && MONEY.includes(f.prop.name) ? [" ", warn] : null, f.difference ? [" ", differenceBadge(f.difference)] : null),
    el("td", {}, sourcesCell(f.sources)));
}

function renderFigures(e) {
  const target = document.getElementById("figures");
  const facts = shownFacts(e.facts);
  const warn = currencyWarning(e.facts);
  const parts = [];
  if (facts.length) {
    parts.push(el("table", { class: "facts" },
      el("thead", {}, el("tr", {}, el("th", {}, "Property"), el("th", {}, "Value"), el("th", {}, "Source"))),
      el("tbody", {}, facts.map((f) => factRow(f, warn, e.facts)))));
  }
  if (e.comparisons.length) {
    parts.push(el("h3", { style: { marginTop: "14px" } }, "Where sources differ"),
      el("ul", { class: "comparisons" }, e.comparisons.map((c) => el("li", { "data-prop": c.property.name },
        `${prop(c.property).label}: `, differenceBadge(c.difference), " ",
        c.values.flatMap((v, i) => [i ? " · " : "", el("strong", {}, formatValue(v.value, c.unit)),
          v.node ? ` (on ${v.node.label})` : "", " ", sourcesCell(v.sources)])))));
  }
  if (e.descriptions.length) {
    parts.push(el("h3", { style: { marginTop: "14px" } }, "What the sources say"),
      el("ul", { class: "quotes" }, e.descriptions.map((d) => el("li", {}, el("q", { lang: d.lang || null }, d.value), " ", sourcesCell(d.sources)))));
  }
  target.replaceChildren(...(parts.length ? parts : [el("p", { class: "muted" }, "No figures of its own; see its relations.")]));
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
        doc?.url ? el("a", { href: doc.url, rel: "noreferrer" }, "original ↗") : null,
        el("span", { class: "muted", title: "the named graph holding these facts" }, curie(s.graph)),
        `${count} fact${count === 1 ? "" : "s"} here`,
      ].filter(Boolean).flatMap((part, i) => (i ? [" · ", part] : [part])), " ", [...certainties].map((c) => certaintyBadge(c))));
  })));
}

function relationGroups(rels) {
  const groups = new Map();
  for (const r of rels) {
    const fam = familyOf(r.other.types);
    if (!groups.has(fam)) groups.set(fam, []);
    groups.get(fam).push(r);
  }
  const order = [...FAMILIES.map((f) => f.key), "other"];
  return [...groups.entries()].sort((a, b) => order.indexOf(a[0]) - order.indexOf(b[0]));
}

/** Outgoing: "customer"; incoming (the other node points here): "← customer". */
function relLabel(r) {
  return r.dir === "in" ? `← ${r.prop.label}` : r.prop.label;
}

/** A deal, result, phase or other n-ary node: its figures with units and the other parties, with sources. */
function naryCard(r, selfIri) {
  const n = r.other;
  const fam = familyOf(n.types);
  const facts = shownFacts(n.facts);
  const all = [...r.sources, ...n.facts.flatMap((f) => f.sources), ...n.rels.flatMap((x) => x.sources)];
  const certs = [...new Set(all.map((s) => certaintyKey(s.certainty)).filter(Boolean))];
  const warn = currencyWarning(n.facts);
  const parties = n.rels.filter((x) => x.other.iri !== selfIri);
  const role = r.dir === "in" ? `${r.prop.label}: ${document.getElementById("entity-label").textContent}` : r.prop.label;
  return el("div", { class: `node-card${isUncertain(all) ? " uncertain" : ""}`, style: { "--fam": colorOf(fam) }, "data-node": n.slug },
    el("header", {}, el("a", { href: entityHref(n.slug || n.iri), class: "hit-label" }, n.label),
      el("span", { class: "role" }, `${typeLabels(n.types).join(", ")} · ${role}`),
      el("span", { style: { flex: 1 } }), certs.map((c) => certaintyBadge(c)), warn),
    facts.length || parties.length ? el("dl", {},
      facts.flatMap((f) => [
        el("dt", {}, f.prop.label),
        el("dd", { "data-prop": f.prop.name }, el("span", { class: "big" }, qualifierText(f.qualifier), moneyText(f, n.facts)), " ", sourcesCell(f.sources))]),
      parties.flatMap((x) => [
        el("dt", {}, relLabel(x)),
        el("dd", {}, entityLink(x.other.iri, x.other.label, x.other.types))])) : null,
    n.descriptions.length ? el("p", { class: "card-note" }, n.descriptions.map((d) => el("q", { lang: d.lang || null }, d.value))) : null,
    sourceLines(all));
}

function renderRelations(e) {
  const target = document.getElementById("relations");
  const groups = relationGroups(e.rels);
  if (!groups.length) { target.replaceChildren(el("p", { class: "muted" }, "No relations recorded.")); return; }
  target.replaceChildren(...groups.map(([fam, rels]) => {
    const nary = rels.filter((r) => r.other.nary);
    const plain = rels.filter((r) => !r.other.nary);
    return el("section", { class: "relgroup", "data-family": fam },
      el("h3", {}, dot(fam), familyLabel(fam), el("span", { class: "count" }, String(rels.length))),
      nary.map((r) => naryCard(r, e.iri)),
      plain.length ? el("ul", { class: "edge-list" }, plain.map((r) => el("li", { class: isUncertain(r.sources) ? "uncertain" : null },
        el("span", { class: "prop", title: r.dir === "in" ? `${r.other.label} → ${r.prop.label} → this entity` : null }, relLabel(r)),
        entityLink(r.other.iri, r.other.label, r.other.types),
        el("span", { class: "hit-type" }, typeLabels(r.other.types).join(", ")),
        el("span", { style: { flex: 1 } }),
        sourcesCell(r.sources)))) : null);
  }));
  if (e.truncated) target.append(el("p", { class: "warn" }, "This entity has more relations than the page lists."));
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
    el("span", {}, "· relayed, rumoured and estimated facts are drawn dashed and striped · [n] names the source document"));
}

async function main() {
  renderLegend();
  let body;
  try {
    body = await api(`/api/entities/${encodeURIComponent(SLUG)}`);
  } catch (err) {
    for (const id of ["figures", "sources", "relations"]) showError(document.getElementById(id), err, "Could not load the entity");
    return;
  }
  const e = readEntity(body);
  renderHead(e);
  renderFigures(e);
  renderRelations(e);
  renderSources();
  root.dataset.loaded = "true";
}
main();
