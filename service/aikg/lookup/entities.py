"""One entity as JSON: its names, types, facts with units and qualifiers, relations both ways, n-ary
nodes expanded one level, and for every fact the source document(s) and certainty behind it.

Three queries at most (the entity's own triples, the triples pointing at it, the triples of its n-ary
neighbours); everything else (labels and types of the other ends, the ontology, the catalogue) comes
from lookups cached per store version.

Certainty of a fact (s p o) in graph g: the ``aikg:certainty`` of s asserted in g, else the
``aikg:defaultCertainty`` of the document whose ``aikg:namedGraph`` is g. A dataset's own confidence in
its row (``aikg:datasetConfidence`` of s in g) is a second axis, given beside it as ``confidence``.
Everything a graph says about a figure (its qualification, its currency) is read with that graph.

When sources give a figure differently, ``comparisons`` sets the values side by side, each with its
sources, and says whether they differ by rounding or disagree (:mod:`aikg.knowledge.figures`); a
system's memory per chip is compared with its chips' and the other way round.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any, TypedDict

import pyoxigraph as ox

from aikg.errors import NotFound
from aikg.knowledge.figures import DISAGREEMENT, EQUAL, FIGURES, ROUNDING, compare
from aikg.lookup.search import LiveIndex, type_json
from aikg.lookup.vocabulary import QUALIFIER_SYMBOLS, SourceDocument, Vocabulary, local_name
from aikg.namespaces import (
    AIKG,
    GRAPH,
    ID,
    INFERRED_GRAPH,
    ONTOLOGY_GRAPH,
    PREFIXES,
    RDF,
    RDFS,
    SHAPES_GRAPH,
    SKOS,
)
from aikg.store import Term

if TYPE_CHECKING:
    from aikg.services import Services


MAX_INCOMING = 500
"""Most incoming relations listed (a hub can have thousands); ``truncated`` says when cut."""
MAX_EXPANDED = 100
"""Most n-ary neighbours expanded."""

SKIPPED_GRAPHS = frozenset(
    {str(ONTOLOGY_GRAPH), str(SHAPES_GRAPH), str(INFERRED_GRAPH), str(GRAPH["imports"])}
)
"""Graphs whose triples are not facts about entities: vocabulary, shapes, materialized superclasses,
and the import records (which name the entities an import resolved; /api/imports shows them)."""

_COMPARED = frozenset(FIGURES)
_SLUG = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")
_IRI = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:[^\s<>\"{}|\\^`]+$")
_NUMERIC = {
    str(PREFIXES["xsd"]) + t
    for t in ("decimal", "integer", "double", "float", "int", "long", "positiveInteger", "nonNegativeInteger")
}
_NAME_PROPS = {str(RDFS.label), str(SKOS.altLabel)}
_DESCRIPTION_PROPS = {str(RDFS.comment), str(AIKG.description)}
_TYPE, _CERTAINTY, _QUALIFIED = str(RDF.type), str(AIKG.certainty), str(AIKG.qualifiedBy)
_LABEL, _ON_PROPERTY, _QUALIFIER = str(RDFS.label), str(AIKG.onProperty), str(AIKG.qualifier)
_XSD_STRING = str(PREFIXES["xsd"]) + "string"
_CONFIDENCE = str(AIKG.datasetConfidence)
_MEMORY = str(AIKG.memoryPerChip)

_RELATED_MEMORY_QUERY = """
PREFIX aikg: <https://w3id.org/aikg/ontology#>
SELECT ?s ?other ?value ?g WHERE {
  { ?s aikg:usesAccelerator ?other } UNION { ?other aikg:usesAccelerator ?s }
  GRAPH ?g { ?other aikg:memoryPerChip ?value }
}"""

_OUT_QUERY = """
PREFIX aikg: <https://w3id.org/aikg/ontology#>
SELECT ?s ?n ?p ?o ?g WHERE {
  { GRAPH ?g { ?s ?p ?o } BIND(?s AS ?n) }
  UNION { ?s aikg:qualifiedBy ?n . GRAPH ?g { ?n ?p ?o } }
}"""

_IN_QUERY = """
PREFIX aikg: <https://w3id.org/aikg/ontology#>
SELECT ?o ?s ?p ?g ?c WHERE {
  GRAPH ?g { ?s ?p ?o }
  OPTIONAL { GRAPH ?g { ?s aikg:certainty ?c } }
}"""

_EXPAND_QUERY = """
PREFIX aikg: <https://w3id.org/aikg/ontology#>
SELECT ?n ?p ?o ?g WHERE {
  VALUES ?x { %s }
  { GRAPH ?g { ?x ?p ?o } BIND(?x AS ?n) }
  UNION { ?x aikg:qualifiedBy ?n . GRAPH ?g { ?n ?p ?o } }
}"""


def resolve_id(raw: str) -> str:
    """The IRI an API id names: a slug (``coreweave``) or a full IRI; NotFound when it is neither."""
    value = raw.strip()
    if _SLUG.match(value):
        return str(ID[value])
    if _IRI.match(value):
        return value
    raise NotFound(f"no entity {raw!r}: give a slug such as 'nvidia' or a full IRI")


def _number(lexical: str) -> int | float | None:
    """A numeric literal's value: an integer lexical form read exactly, any other (1.02E24, 0.5) as a
    double and never turned into an int (``int(1.02e24)`` invents digits: 1020000000000000041943040)."""
    text = lexical.strip()
    try:
        return int(text) if text.lstrip("+-").isdigit() else float(text)
    except ValueError:
        return None


def curie(iri: str) -> str:
    """A prefixed name for an IRI when one of aikg's prefixes covers it, else the IRI."""
    for prefix, ns in PREFIXES.items():
        if iri.startswith(ns) and len(iri) > len(ns):
            return f"{prefix}:{iri[len(ns) :]}"
    return iri


class _Described(TypedDict):
    """One description of a node (rdfs:comment and the like), with where it comes from."""

    property: dict[str, str]
    value: str
    lang: str | None
    sources: list[dict[str, Any]]


class EntityBuilder:
    """Turns the triples around one entity into its JSON, with the cached lookups at hand."""

    def __init__(self, services: Services) -> None:
        """Take the lookups for the store's current version."""
        self.store = services.store
        self.vocab: Vocabulary = services.vocabulary()
        self.catalog: dict[str, SourceDocument] = services.catalog()
        self.index: LiveIndex = services.index()
        self.used_graphs: set[str] = set()

    # -- small JSON pieces -------------------------------------------------------------------

    def term(self, iri: str) -> dict[str, str]:
        """A vocabulary term (property, class, controlled value) as JSON."""
        return {"iri": iri, "name": curie(iri), "label": self.vocab.label(iri)}

    def node(self, iri: str) -> dict[str, Any]:
        """The other end of a relation: id, IRI, label and most specific types."""
        info = self.index.entities.get(iri)
        if info is None:
            slug = iri[len(str(ID)) :] if iri.startswith(str(ID)) else None
            return {
                "id": slug,
                "iri": iri,
                "label": self.vocab.label(iri) if slug is None else slug,
                "types": [],
            }
        return {
            "id": info.slug,
            "iri": iri,
            "label": info.label,
            "types": [type_json(self.vocab, t) for t in info.types],
        }

    def document(self, graph: str) -> dict[str, Any] | None:
        """The catalogue entry of a graph's source document, as JSON."""
        doc = self.catalog.get(graph)
        if doc is None:
            return None
        publisher = None
        if doc.publisher:
            info = self.index.entities.get(doc.publisher)
            publisher = {
                "id": info.slug if info else None,
                "iri": doc.publisher,
                "label": info.label if info else local_name(doc.publisher),
            }
        slug = doc.iri[len(str(ID)) :] if doc.iri.startswith(str(ID)) else None
        return {
            "id": slug,
            "iri": doc.iri,
            "title": doc.title,
            "publisher": publisher,
            "date": doc.issued,
            "url": doc.url,
            "language": doc.language,
        }

    def sources(
        self, graphs: Iterable[str], certainty: dict[str, str], confidence: dict[str, str] | None = None
    ) -> list[dict[str, Any]]:
        """Where a fact comes from: per graph, its document (details in ``documents``), certainty and,
        for a dataset's row, the dataset's own confidence in it."""
        out = []
        for g in sorted(set(graphs)):
            doc = self.catalog.get(g)
            level = certainty.get(g) or (doc.default_certainty if doc else None)
            self.used_graphs.add(g)
            brief = None if doc is None else {"iri": doc.iri, "title": doc.title}
            source: dict[str, Any] = {
                "graph": g,
                "document": brief,
                "certainty": self.term(level) if level else None,
            }
            if confidence and confidence.get(g):
                source["confidence"] = self.term(confidence[g])
            out.append(source)
        return out

    def documents(self) -> list[dict[str, Any]]:
        """Every source document the facts above cite, with title, publisher, date and URL."""
        return [{"graph": g, **(self.document(g) or {})} for g in sorted(self.used_graphs)]

    # -- one node ----------------------------------------------------------------------------

    def describe(
        self, iri: str, triples: list[tuple[str, Term, str]], quals: dict[str, list[tuple[str, Term, str]]]
    ) -> dict[str, Any]:
        """Names, types, descriptions, facts and outgoing links of one node from its triples."""
        types: set[str] = set()
        labels: dict[str, str] = {}
        alt: list[dict[str, str | None]] = []
        descriptions: dict[tuple[str, str, str | None], set[str]] = defaultdict(set)
        certainty: dict[str, str] = {}
        confidence: dict[str, str] = {}
        qualifiers: dict[tuple[str, str], dict[str, Any]] = {}
        facts: dict[tuple[str, ox.Literal], set[str]] = defaultdict(set)
        links: dict[tuple[str, str], set[str]] = defaultdict(set)
        for p, o, g in triples:
            if p == _TYPE and isinstance(o, ox.NamedNode):
                types.add(o.value)
            elif g in SKIPPED_GRAPHS:
                continue
            elif p in _NAME_PROPS and isinstance(o, ox.Literal):
                if p == _LABEL:
                    labels.setdefault(o.language or "", o.value)
                elif {"value": o.value, "lang": o.language} not in alt:
                    alt.append({"value": o.value, "lang": o.language})
            elif p in _DESCRIPTION_PROPS and isinstance(o, ox.Literal):
                descriptions[(p, o.value, o.language)].add(g)
            elif p == _CERTAINTY and isinstance(o, ox.NamedNode):
                certainty[g] = o.value
            elif p == _CONFIDENCE and isinstance(o, ox.NamedNode):
                confidence[g] = o.value
            elif p == _QUALIFIED and isinstance(o, ox.NamedNode):
                # A qualification qualifies the figure of the graph that attaches it.
                found = self._qualification(quals.get(o.value, []))
                qualifiers.update({(on, g): q for on, q in found.items()})
            elif isinstance(o, ox.Literal):
                facts[(p, o)].add(g)
            elif isinstance(o, ox.NamedNode):
                links[(p, o.value)].add(g)
        info = self.index.entities.get(iri)
        label = labels.get("en") or labels.get("") or next(iter(labels.values()), None)
        if label is None:
            label = info.label if info else local_name(iri)
        described: list[_Described] = [
            {
                "property": self.term(p),
                "value": v,
                "lang": lang,
                "sources": self.sources(gs, certainty, confidence),
            }
            for (p, v, lang), gs in sorted(descriptions.items(), key=lambda kv: kv[0])
        ]
        return {
            "id": iri[len(str(ID)) :] if iri.startswith(str(ID)) else None,
            "iri": iri,
            "label": label,
            "labels": labels,
            "altLabels": alt,
            "types": [type_json(self.vocab, t) for t in self.vocab.most_specific(frozenset(types))],
            "description": _pick_description(described),
            "descriptions": described,
            "certainty": [{"graph": g, "certainty": self.term(c)} for g, c in sorted(certainty.items())],
            "confidence": [{"graph": g, "confidence": self.term(c)} for g, c in sorted(confidence.items())],
            "facts": [
                self._fact(p, o, gs, certainty, confidence, qualifiers)
                for (p, o), gs in sorted(facts.items(), key=_fact_order)
            ],
            "links": [
                {
                    "property": self.term(p),
                    "node": self.node(o),
                    "sources": self.sources(gs, certainty, confidence),
                }
                for (p, o), gs in sorted(links.items())
            ],
        }

    def _qualification(self, triples: list[tuple[str, Term, str]]) -> dict[str, dict[str, Any]]:
        on = next((o.value for p, o, _ in triples if p == _ON_PROPERTY), None)
        how = next((o.value for p, o, _ in triples if p == _QUALIFIER), None)
        if on is None or how is None:
            return {}
        out: dict[str, Any] = {**self.term(how), "symbol": QUALIFIER_SYMBOLS.get(how, "")}
        # A qualification may say how certain its figure is (e.g. the source's own estimate).
        level = {g: o.value for p, o, g in triples if p == _CERTAINTY}
        if level:
            out["certainty"] = level
        return {on: out}

    def _fact(
        self,
        p: str,
        o: ox.Literal,
        graphs: set[str],
        certainty: dict[str, str],
        confidence: dict[str, str],
        qualifiers: dict[tuple[str, str], dict[str, Any]],
    ) -> dict[str, Any]:
        datatype = None if o.language else o.datatype.value
        if datatype == _XSD_STRING:
            datatype = None
        fact: dict[str, Any] = {
            "property": self.term(p),
            "value": o.value,
            "datatype": datatype,
            "lang": o.language,
            "unit": self.vocab.unit(p),
        }
        found = next((qualifiers[(p, g)] for g in sorted(graphs) if (p, g) in qualifiers), None)
        qualifier = dict(found) if found else None
        qualified = qualifier.pop("certainty", None) if qualifier else None
        fact["qualifier"] = qualifier
        if datatype in _NUMERIC:
            number = _number(o.value)
            if number is not None:
                fact["number"] = number
        fact["sources"] = self.sources(graphs, {**certainty, **(qualified or {})}, confidence)
        return fact

    def comparisons(self, iri: str, facts: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """Figures sources give differently, values side by side, each pair told rounding or disagreement.

        Marks each such fact with ``difference`` (``disagreement`` when it disagrees with another
        source's value, else ``rounding``)."""
        by_property: dict[str, list[dict[str, Any]]] = defaultdict(list)
        for fact in facts:
            if "number" in fact and fact["property"]["iri"] in _COMPARED:
                by_property[fact["property"]["iri"]].append(fact)
        related = self._related_memory(iri) if any(f["property"]["iri"] == _MEMORY for f in facts) else []
        out = []
        for prop in sorted(set(by_property) | ({_MEMORY} if related else set())):
            values = [
                {"value": f["value"], "number": f["number"], "node": None, "sources": f["sources"]}
                for f in by_property.get(prop, [])
            ]
            if prop == _MEMORY:
                values += related
            if len({v["value"] for v in values}) < 2 or not by_property.get(prop):
                continue
            pairs = []
            for i, a in enumerate(values):
                for b in values[i + 1 :]:
                    kind = compare(a["value"], b["value"])
                    if kind != EQUAL:
                        pairs.append({"values": [a["value"], b["value"]], "difference": kind})
            kinds = {pair["difference"] for pair in pairs}
            for fact in by_property.get(prop, []):
                own = {pair["difference"] for pair in pairs if fact["value"] in pair["values"]}
                fact["difference"] = DISAGREEMENT if DISAGREEMENT in own else ROUNDING
            out.append(
                {
                    "property": self.term(prop),
                    "unit": self.vocab.unit(prop),
                    "difference": DISAGREEMENT if DISAGREEMENT in kinds else ROUNDING,
                    "values": values,
                    "pairs": pairs,
                }
            )
        return out

    def _related_memory(self, iri: str) -> list[dict[str, Any]]:
        """Memory per chip of the systems built from this chip, or of the chips this system is built
        from: the same figure, stated on the other node."""
        rows = self.store.query(_RELATED_MEMORY_QUERY, bindings={"s": ox.NamedNode(iri)}).rows
        grouped: dict[tuple[str, str], set[str]] = defaultdict(set)
        for _, other, value, g in rows:
            if (
                isinstance(value, ox.Literal)
                and other is not None
                and g is not None
                and g.value not in SKIPPED_GRAPHS
            ):
                grouped[(other.value, value.value)].add(g.value)
        out = []
        for (other_iri, text), graphs in sorted(grouped.items()):
            number = _number(text)
            if number is None:
                continue
            out.append(
                {
                    "value": text,
                    "number": number,
                    "node": self.node(other_iri),
                    "sources": self.sources(graphs, {}),
                }
            )
        return out

    # -- the whole entity --------------------------------------------------------------------

    def build(self, iri: str) -> dict[str, Any]:
        """The entity's JSON; NotFound when the store holds no triple about it."""
        try:
            subject = ox.NamedNode(iri)
        except ValueError:
            raise NotFound(f"no entity {iri[:200]!r}: not a valid IRI") from None
        own, quals = _split(self.store.query(_OUT_QUERY, bindings={"s": subject}).rows, 1, iri)
        incoming_rows = self.store.query(_IN_QUERY, bindings={"o": subject}).rows
        if not own and not incoming_rows:
            raise NotFound(f"no entity {iri}")
        body = self.describe(iri, own, quals)
        incoming: dict[tuple[str, str], set[str]] = defaultdict(set)
        their_certainty: dict[str, dict[str, str]] = defaultdict(dict)
        for _, s, p, g, c in incoming_rows:
            if g is None or p is None or g.value in SKIPPED_GRAPHS or not isinstance(s, ox.NamedNode):
                continue
            incoming[(s.value, p.value)].add(g.value)
            if isinstance(c, ox.NamedNode):
                their_certainty[s.value][g.value] = c.value
        truncated = len(incoming) > MAX_INCOMING
        in_items = sorted(incoming.items())[:MAX_INCOMING]
        in_rel = [
            {"property": self.term(p), "node": self.node(s), "sources": self.sources(gs, their_certainty[s])}
            for (s, p), gs in in_items
        ]
        out_rel = body.pop("links")
        expanded = self._expand(
            [r["node"]["iri"] for r in out_rel] + [s for (s, _), _ in in_items], exclude=iri
        )
        for rel in out_rel + in_rel:
            detail = expanded.get(rel["node"]["iri"])
            if detail is not None:
                rel["node"]["expanded"] = detail
        body["relations"] = {"outgoing": out_rel, "incoming": in_rel}
        body["comparisons"] = self.comparisons(iri, body["facts"])
        body["documents"] = self.documents()
        body["truncated"] = truncated or len(expanded) >= MAX_EXPANDED
        body["links"] = {
            "self": f"/api/entities/{body['id'] or iri}",
            "page": f"/id/{body['id']}" if body["id"] else None,
        }
        return body

    def _expand(self, neighbours: list[str], *, exclude: str) -> dict[str, dict[str, Any]]:
        """Facts and links of the n-ary nodes among the neighbours, one query for all of them."""
        nary = []
        for n in dict.fromkeys(neighbours):
            info = self.index.entities.get(n)
            if n != exclude and info is not None and any(t in self.vocab.nary for t in info.types):
                nary.append(n)
        nary = nary[:MAX_EXPANDED]
        if not nary:
            return {}
        values = " ".join(str(ox.NamedNode(n)) for n in nary)
        rows = self.store.query(_EXPAND_QUERY % values).rows
        per_node: dict[str, list[tuple[str, Term, str]]] = defaultdict(list)
        for node, p, o, g in rows:
            if node is not None and p is not None and o is not None and g is not None:
                per_node[node.value].append((p.value, o, g.value))
        out = {}
        for n in nary:
            quals = {o.value: per_node.get(o.value, []) for p, o, _ in per_node.get(n, []) if p == _QUALIFIED}
            d = self.describe(n, per_node.get(n, []), quals)
            out[n] = {
                "facts": d["facts"],
                "relations": d["links"],
                "descriptions": d["descriptions"],
                "certainty": d["certainty"],
                "confidence": d["confidence"],
            }
        return out


def _split(
    rows: list[tuple[Term | None, ...]], offset: int, iri: str
) -> tuple[list[tuple[str, Term, str]], dict[str, list[tuple[str, Term, str]]]]:
    """Separate the entity's own triples from those of its value-qualification nodes."""
    own: list[tuple[str, Term, str]] = []
    quals: dict[str, list[tuple[str, Term, str]]] = defaultdict(list)
    for row in rows:
        n, p, o, g = row[offset : offset + 4]
        if n is None or p is None or o is None or g is None:
            continue
        target = own if n.value == iri else quals[n.value]
        target.append((p.value, o, g.value))
    return own, quals


def _fact_order(item: tuple[tuple[str, ox.Literal], set[str]]) -> tuple[str, str]:
    (p, o), _ = item
    return (p, o.value)


def _pick_description(described: list[_Described]) -> str | None:
    if not described:
        return None
    english = [d for d in described if d["lang"] == "en"]
    return (english or described)[0]["value"]


def entity_json(services: Services, raw_id: str) -> dict[str, Any]:
    """The JSON of the entity a slug or IRI names; NotFound when there is none."""
    return EntityBuilder(services).build(resolve_id(raw_id))
