"""One entity as JSON: its names, types, facts with units and qualifiers, relations both ways, n-ary
nodes expanded one level, and for every fact the source document(s) and certainty behind it.

A few queries (the entity's own triples without its links; per direction the links counted per
property and the first page of each property, :mod:`aikg.lookup.relations`; the triples of its n-ary
neighbours on those pages); everything else (labels and types of the other ends, the ontology, the
catalogue) comes from lookups cached per store version.

Certainty of a fact (s p o) in graph g: the ``aikg:certainty`` of s asserted in g, else the
``aikg:defaultCertainty`` of the document whose ``aikg:namedGraph`` is g. A dataset's own confidence in
its row (``aikg:datasetConfidence`` of s in g) is a second axis, given beside it as ``confidence``.
Everything a graph says about a figure (its qualification, its currency) is read with that graph.

What a fact rests on (``evidence`` of each source): the quotations of that graph's document naming the
fact's subject and property (``aikg:evidenceFor``, ``aikg:supportsProperty``), word for word, or for a
fact of aikg's curated background the curators' rationale (:class:`Evidence`).

When sources give a figure differently, ``comparisons`` sets the values side by side, each with its
sources, and says whether they differ by rounding or disagree (:mod:`aikg.knowledge.figures`); a
system's memory per chip is compared with its chips' and the other way round.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any, NamedTuple, TypedDict
from urllib.parse import quote, urlencode

import pyoxigraph as ox

from aikg.errors import NotFound
from aikg.knowledge.figures import DISAGREEMENT, EQUAL, FIGURES, ROUNDING, compare
from aikg.lookup.relations import DIRECTIONS, Direction, Page, Relations
from aikg.lookup.search import EntityInfo, LiveIndex, search, type_json
from aikg.lookup.vocabulary import QUALIFIER_SYMBOLS, SourceDocument, Vocabulary, local_name
from aikg.namespaces import (
    AIKG,
    ID,
    PREFIXES,
    RDF,
    RDFS,
    SKOS,
    curie,
    graphs_with,
)
from aikg.store import Store, Term

if TYPE_CHECKING:
    from aikg.services import Services


RELATION_PAGE = 50
"""Links listed per relation group (direction and property) unless the caller asks for another page
size; a hub's groups have thousands (nvidia at 1M quads: 11,998 manufacturer links)."""
MAX_RELATION_PAGE = 1000
"""Largest page of one relation group a caller may ask for."""
MAX_OFFSET = 10**9
"""Largest ``offset`` of a page (of a relation group or a named query's answer)."""
MAX_EXPANDED = 100
"""Most n-ary neighbours expanded."""

SKIPPED_GRAPHS = graphs_with("not facts")
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

# The entity's own triples without its links to other nodes (those are counted and paged by
# aikg.lookup.relations): a hub's thousands of links are never read here.
_OUT_QUERY = """
PREFIX aikg: <https://w3id.org/aikg/ontology#>
PREFIX rdf: <http://www.w3.org/1999/02/22-rdf-syntax-ns#>
SELECT ?s ?n ?p ?o ?g WHERE {
  { GRAPH ?g { ?s ?p ?o }
    FILTER (isLiteral(?o) || ?p IN (rdf:type, aikg:certainty, aikg:datasetConfidence, aikg:qualifiedBy))
    BIND(?s AS ?n) }
  UNION { ?s aikg:qualifiedBy ?n . GRAPH ?g { ?n ?p ?o } }
}"""

_EXPAND_QUERY = """
PREFIX aikg: <https://w3id.org/aikg/ontology#>
SELECT ?n ?p ?o ?g WHERE {
  VALUES ?x { %s }
  { GRAPH ?g { ?x ?p ?o } BIND(?x AS ?n) }
  UNION { ?x aikg:qualifiedBy ?n . GRAPH ?g { ?n ?p ?o } }
}"""


# The evidence of some nodes' statements, per graph: quotations (their text) and rationales, and the row
# of the file each node was read from (a dataset's graph).
_EVIDENCE_QUERY = """
PREFIX aikg: <https://w3id.org/aikg/ontology#>
SELECT ?n ?p ?g ?e ?text ?why ?row WHERE {
  VALUES ?n { %s }
  {
    GRAPH ?g { ?e aikg:evidenceFor ?n ; aikg:supportsProperty ?p }
    OPTIONAL { GRAPH ?g { ?e aikg:quotedText ?text } }
    OPTIONAL { GRAPH ?g { ?e aikg:rationale ?why } }
  } UNION {
    GRAPH ?g { ?n aikg:sourceRow ?row }
  }
}"""
_COLUMNS_QUERY = """
PREFIX aikg: <https://w3id.org/aikg/ontology#>
PREFIX dcterms: <http://purl.org/dc/terms/>
SELECT ?g ?file ?p ?column WHERE {
  ?doc aikg:namedGraph ?g ; dcterms:source ?file .
  GRAPH ?g { ?c aikg:columnOf ?doc ; aikg:readInto ?p ; aikg:columnName ?column }
}"""
EVIDENCE_CHUNK = 200
"""Nodes whose evidence one query reads."""


class DatasetColumns(NamedTuple):
    """What the catalogue says of one dataset's file: its path and property -> the columns it is read from."""

    file: str
    columns: dict[str, tuple[str, ...]]


def dataset_columns(store: Store) -> dict[str, DatasetColumns]:
    """Graph -> the file and column map of the dataset whose facts it holds (aikg.epoch.citations)."""
    found: dict[str, tuple[str, dict[str, list[str]]]] = {}
    for g, file, p, column in store.query(_COLUMNS_QUERY).rows:
        if g is None or file is None or p is None or column is None:
            continue
        _, columns = found.setdefault(g.value, (file.value, {}))
        names = columns.setdefault(p.value, [])
        if column.value not in names:
            names.append(column.value)
    return {
        g: DatasetColumns(file, {p: tuple(sorted(c)) for p, c in columns.items()})
        for g, (file, columns) in found.items()
    }


class Evidence:
    """What the statements of some nodes rest on, read once per node: (node, property) -> graph -> the
    quotations and rationales of that graph naming them, and the cell of a dataset's file they were read
    from (file, the node's row, the property's columns), as JSON."""

    def __init__(self, store: Store, columns: dict[str, DatasetColumns] | None = None) -> None:
        self.store = store
        self.columns = columns or {}
        self.loaded: set[str] = set()
        self.items: dict[tuple[str, str], dict[str, list[dict[str, Any]]]] = defaultdict(dict)
        self.rows: dict[tuple[str, str], int] = {}

    def load(self, nodes: Iterable[str]) -> None:
        """Read the evidence of the nodes not read yet (IRIs only; a blank node has none)."""
        todo = sorted({n for n in nodes if n not in self.loaded and not n.startswith("_:")})
        self.loaded.update(todo)
        for start in range(0, len(todo), EVIDENCE_CHUNK):
            chunk = todo[start : start + EVIDENCE_CHUNK]
            values = " ".join(str(ox.NamedNode(n)) for n in chunk)
            for n, p, g, e, text, why, row in self.store.query(_EVIDENCE_QUERY % values).rows:
                if n is None or g is None:
                    continue
                if isinstance(row, ox.Literal):
                    number = _number(row.value)
                    if isinstance(number, int):
                        self.rows[(n.value, g.value)] = number
                    continue
                said = text if isinstance(text, ox.Literal) else why if isinstance(why, ox.Literal) else None
                if p is None or e is None or said is None:
                    continue
                item = {
                    "kind": "quotation" if isinstance(text, ox.Literal) else "rationale",
                    "iri": e.value,
                    "text": said.value,
                    "lang": said.language,
                }
                bucket = self.items[(n.value, p.value)].setdefault(g.value, [])
                if item not in bucket:
                    bucket.append(item)
                    bucket.sort(key=lambda i: (i["kind"], i["iri"]))

    def of(self, node: str, prop: str) -> dict[str, list[dict[str, Any]]]:
        """Graph -> the evidence of the statements (node, prop, *) in it."""
        self.load([node])
        out = dict(self.items.get((node, prop), {}))
        for g, dataset in self.columns.items():
            columns = dataset.columns.get(prop)
            if columns is None:
                continue
            cell: dict[str, Any] = {"kind": "cell", "file": dataset.file, "columns": list(columns)}
            row = self.rows.get((node, g))
            if row is not None:
                cell["row"] = row
            out[g] = [*out.get(g, []), cell]
        return out


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


def property_iri(raw: str) -> str | None:
    """The IRI a prefixed name (``aikg:investor``, with aikg's prefixes) or a full IRI names, else None
    (the inverse of :func:`curie`)."""
    value = raw.strip()
    prefix, colon, rest = value.partition(":")
    if colon and prefix in PREFIXES and not rest.startswith("//"):
        value = str(PREFIXES[prefix]) + rest
    return value if _IRI.match(value) else None


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
        self.evidence = Evidence(
            self.store, services.cached("dataset-columns", lambda s: dataset_columns(s.store))
        )

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
        self,
        graphs: Iterable[str],
        certainty: dict[str, str],
        confidence: dict[str, str] | None = None,
        evidence: dict[str, list[dict[str, Any]]] | None = None,
    ) -> list[dict[str, Any]]:
        """Where a fact comes from: per graph, its document (details in ``documents``), certainty,
        for a dataset's row the dataset's own confidence in it, and what the fact rests on in that
        graph (``evidence``: quotations of the document, or aikg's rationale)."""
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
            source["evidence"] = (evidence or {}).get(g, [])
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
                "sources": self.sources(gs, certainty, confidence, self.evidence.of(iri, p)),
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
                self._fact(iri, p, o, gs, certainty, confidence, qualifiers)
                for (p, o), gs in sorted(facts.items(), key=_fact_order)
            ],
            "links": [
                {
                    "property": self.term(p),
                    "node": self.node(o),
                    "sources": self.sources(gs, certainty, confidence, self.evidence.of(iri, p)),
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
        iri: str,
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
        fact["sources"] = self.sources(
            graphs,
            {**certainty, **(qualified or {})},
            confidence,
            _named_column(o.value, self.evidence.of(iri, p)),
        )
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
                    "sources": self.sources(graphs, {}, None, self.evidence.of(other_iri, _MEMORY)),
                }
            )
        return out

    # -- the whole entity --------------------------------------------------------------------

    def build(self, iri: str, *, limit: int = RELATION_PAGE) -> dict[str, Any]:
        """The entity's JSON with the first ``limit`` links of each relation group; NotFound when the
        store holds no triple about it."""
        subject = _named(iri)
        own, quals = _split(self.store.query(_OUT_QUERY, bindings={"s": subject}).rows, 1, iri)
        rel = Relations(self.store, iri, SKIPPED_GRAPHS)
        counts = {d: rel.counts(d) for d in DIRECTIONS}
        if not own and not any(counts.values()) and not rel.exists():
            raise NotFound(f"no entity {iri}")
        body = self.describe(iri, own, quals)
        body.pop("links")  # the entity's own triples come without its links: they are paged below
        own_marks = _marks(own)
        first = {d: {q: (n, 0, limit) for q, n in counts[d].items()} for d in DIRECTIONS}
        pages = [page for d in DIRECTIONS for page in rel.pages(d, first[d])]
        lists = {
            d: self._relations(iri, [p for p in pages if p.direction == d], own_marks) for d in DIRECTIONS
        }
        expanded = self._expand([r["node"]["iri"] for d in DIRECTIONS for r in lists[d]], exclude=iri)
        _attach(lists, expanded)
        body["relations"] = {
            "outgoing": lists["outgoing"],
            "incoming": lists["incoming"],
            "groups": [self._group(iri, p) for p in pages],
        }
        body["comparisons"] = self.comparisons(iri, body["facts"])
        body["documents"] = self.documents()
        body["truncated"] = any(p.more for p in pages) or len(expanded) >= MAX_EXPANDED
        body["links"] = {
            "self": f"/api/entities/{body['id'] or iri}",
            "page": f"/id/{body['id']}" if body["id"] else None,
        }
        return body

    def relation_page(
        self, iri: str, direction: Direction, prop: str, *, offset: int, limit: int
    ) -> dict[str, Any]:
        """One page of one relation group of an entity (``offset``, ``limit``), with its total."""
        subject = _named(iri)
        try:
            prop = ox.NamedNode(prop).value
        except ValueError:
            raise NotFound(f"no property {prop[:200]!r}: not a valid IRI") from None
        rel = Relations(self.store, iri, SKIPPED_GRAPHS)
        total = rel.counts(direction).get(prop, 0)
        if total == 0 and not rel.exists() and next(self.store.quads(subject), None) is None:
            raise NotFound(f"no entity {iri}")
        own_marks: tuple[dict[str, str], dict[str, str]] = ({}, {})
        if direction == "outgoing":  # the entity's own certainty per graph qualifies its links
            own, _ = _split(self.store.query(_OUT_QUERY, bindings={"s": subject}).rows, 1, iri)
            own_marks = _marks(own)
        (page,) = rel.pages(direction, {prop: (total, offset, limit)})
        lists = {direction: self._relations(iri, [page], own_marks)}
        expanded = self._expand([r["node"]["iri"] for r in lists[direction]], exclude=iri)
        _attach(lists, expanded)
        info = self.index.entities.get(iri)
        return {
            "entity": {
                "id": iri[len(str(ID)) :] if iri.startswith(str(ID)) else None,
                "iri": iri,
                "label": info.label if info else local_name(iri),
            },
            **self._group(iri, page),
            "relations": lists[direction],
            "documents": self.documents(),
            "truncated": page.more or len(expanded) >= MAX_EXPANDED,
        }

    def _relations(
        self, iri: str, pages: list[Page], own_marks: tuple[dict[str, str], dict[str, str]]
    ) -> list[dict[str, Any]]:
        """The links of some pages as JSON, sorted as the unpaged answer was: outgoing by (property,
        other end), incoming by (other end, property)."""
        self.evidence.load([end for page in pages if page.direction == "incoming" for end in page.graphs])
        items = []
        for page in pages:
            for end, graphs in page.graphs.items():
                if page.direction == "incoming":
                    marks, confidence = page.certainty.get(end, {}), None
                    key = (end, page.prop)
                    subject = end
                else:
                    marks, confidence = own_marks
                    key = (page.prop, end)
                    subject = iri
                rel = {
                    "property": self.term(page.prop),
                    "node": self.node(end),
                    "sources": self.sources(graphs, marks, confidence, self.evidence.of(subject, page.prop)),
                }
                items.append((key, rel))
        return [rel for _, rel in sorted(items, key=lambda kv: kv[0])]

    def _group(self, iri: str, page: Page) -> dict[str, Any]:
        """What a page is of: its direction and property, the group's total and the link to the next page."""
        shown = len(page.graphs)
        nxt = None
        if page.more:
            nxt = relations_url(iri, page.direction, page.prop, page.offset + shown, page.limit)
        return {
            "direction": page.direction,
            "property": self.term(page.prop),
            "total": page.total,
            "offset": page.offset,
            "limit": page.limit,
            "count": shown,
            "next": nxt,
        }

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
        self.evidence.load(nary)
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


def _named_column(text: str, evidence: dict[str, list[dict[str, Any]]]) -> dict[str, list[dict[str, Any]]]:
    """The evidence of a text fact with each cell narrowed to the column the text names ("Training time
    notes: …" was read from that column of the several a note may come from)."""
    out: dict[str, list[dict[str, Any]]] = {}
    for g, items in evidence.items():
        narrowed = []
        for item in items:
            named = sorted((c for c in item.get("columns", ()) if text.startswith(c + ":")), key=len)
            narrowed.append({**item, "columns": named[-1:]} if item["kind"] == "cell" and named else item)
        out[g] = narrowed
    return out


def _named(iri: str) -> ox.NamedNode:
    try:
        return ox.NamedNode(iri)
    except ValueError:
        raise NotFound(f"no entity {iri[:200]!r}: not a valid IRI") from None


def _marks(own: list[tuple[str, Term, str]]) -> tuple[dict[str, str], dict[str, str]]:
    """The entity's own certainty and dataset confidence per graph, from its triples."""
    certainty = {g: o.value for p, o, g in own if p == _CERTAINTY and isinstance(o, ox.NamedNode)}
    confidence = {g: o.value for p, o, g in own if p == _CONFIDENCE and isinstance(o, ox.NamedNode)}
    return certainty, confidence


def _attach(lists: dict[Direction, list[dict[str, Any]]], expanded: dict[str, dict[str, Any]]) -> None:
    for rels in lists.values():
        for rel in rels:
            detail = expanded.get(rel["node"]["iri"])
            if detail is not None:
                rel["node"]["expanded"] = detail


def relations_url(iri: str, direction: str, prop: str, offset: int, limit: int) -> str:
    """The API address of one page of one relation group."""
    slug = iri[len(str(ID)) :] if iri.startswith(str(ID)) and _SLUG.match(iri[len(str(ID)) :]) else None
    query = urlencode({"direction": direction, "property": curie(prop), "offset": offset, "limit": limit})
    return f"/api/entities/{slug or quote(iri, safe='')}/relations?{query}"


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


def entity_json(services: Services, raw_id: str, *, limit: int = RELATION_PAGE) -> dict[str, Any]:
    """The JSON of the entity a slug or IRI names, ``limit`` links per relation group; NotFound when
    there is none (naming the entity the id would find as a search, if any)."""
    try:
        return EntityBuilder(services).build(resolve_id(raw_id), limit=limit)
    except NotFound as exc:
        raise with_suggestion(services, raw_id, exc) from None


def with_suggestion(services: Services, raw_id: str, exc: NotFound) -> NotFound:
    """``exc`` naming the entity :func:`suggest` finds for ``raw_id``, when it finds one."""
    found = suggest(services, raw_id)
    if found is None:
        return exc
    slug, label = found.slug, found.label
    return NotFound(
        f"{exc.message}; did you mean {slug!r} ({label})?",
        errors=[{"suggestion": {"id": slug, "label": label, "api": f"/api/entities/{slug}"}}],
    )


def suggest(services: Services, raw_id: str) -> EntityInfo | None:
    """The entity a search for an id that names none opens first ("NVIDIA", "英伟达", "nvdia" →
    nvidia): a client that typed a name where a slug is wanted is told which slug, not only that there
    is none. Nothing is guessed from a full IRI or a text too long to be a name."""
    text = raw_id.strip()
    if not text or _IRI.match(text) or len(text) > MAX_SUGGESTED:
        return None
    hits = search(services.store, services.index(), text.replace("-", " "), limit=1)
    if not hits or hits[0].entity.slug == text:
        return None
    return hits[0].entity


MAX_SUGGESTED = 200
"""Longest id a search is run for to suggest an entity (a longer one is no name)."""


def relations_json(
    services: Services, raw_id: str, direction: Direction, prop: str, *, offset: int, limit: int
) -> dict[str, Any]:
    """One page of one relation group of the entity a slug or IRI names."""
    try:
        return EntityBuilder(services).relation_page(
            resolve_id(raw_id), direction, prop, offset=offset, limit=limit
        )
    except NotFound as exc:
        if str(exc.message).startswith("no property"):
            raise
        raise with_suggestion(services, raw_id, exc) from None
