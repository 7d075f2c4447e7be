"""The property graph every visual export draws: labelled, typed nodes and labelled, sourced edges.

Built from a :class:`~aikg.export.select.Selection` in one pass over its quads:

- a NODE is each subject of the selection, with its English label, its most specific asserted class
  (and that class's label), and its literal values as attributes (one attribute per property, named
  by the property's local name); links to vocabulary terms (``aikg:status aikg:Announced``) become
  attributes holding the term's label;
- an EDGE is each link between two selected nodes, labelled with the property's label and carrying
  the named graph(s) that state it and their source documents' titles;
- catalogue internals are not drawn: source documents, the catalogue itself, derivation rules and
  nodes only the catalogue describes are dropped, and a derived value (``aikg:Derivation``) becomes an
  attribute of the node it is derived for.

Folding (``fold=True``, see :mod:`aikg.export.fold`) then turns n-ary nodes into labelled edges.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation
from typing import TYPE_CHECKING, Any

import pyoxigraph as ox
from rdflib.namespace import DCAT, RDF, RDFS, SKOS, XSD

from aikg.export.budget import bounded
from aikg.export.select import Selection
from aikg.lookup.vocabulary import Vocabulary, local_name
from aikg.namespaces import AIKG, CATALOG_GRAPH, ID, curie
from aikg.rdf.datatypes import XSD_INTEGERS
from aikg.store.terms import graph_iri, rdf11_subject

if TYPE_CHECKING:
    from aikg.services import Services

Value = str | int | float | bool
"""An attribute value every export format can carry."""

INTERNAL_CLASSES = (AIKG.SourceDocument, AIKG.Rule, DCAT.Catalog, AIKG.Evidence)
"""Catalogue internals and evidence records (a quotation or rationale: what a fact rests on, not a thing
of the industry): never drawn (the catalogue titles the edges instead), nor is any node that only the
catalogue graph describes (a publisher named by a document and nowhere else)."""

RESERVED = frozenset(
    {
        "id",
        "label",
        "type",
        "type_label",
        "types",
        "kind",
        "source",
        "target",
        "relation",
        "graph",
        "document",
        "weight",
        "start",
        "end",
        "viz",
        "pid",
        "parents",
        "slices",
        "spells",
        "via",
        "via_label",
        "source_role",
        "target_role",
        "networkx_key",
    }
)
"""Keys the exports use themselves, or that GraphML/GEXF/Cytoscape treat specially."""

_INTEGERS = XSD_INTEGERS
_FLOATS = {str(XSD.decimal), str(XSD.double), str(XSD.float)}
_KEY_TYPES = (
    _INTEGERS | _FLOATS | {str(XSD[t]) for t in ("boolean", "date", "dateTime", "gYear", "gYearMonth")}
)
_BOOLEAN = str(XSD.boolean)
_STRING = str(XSD.string)
_TYPE, _LABEL, _ALT_LABEL = str(RDF.type), str(RDFS.label), str(SKOS.altLabel)
_NOT_HOPS = frozenset({_TYPE, str(AIKG.evidenceFor), str(AIKG.drawsOn)})
"""Links a neighbourhood walk does not follow (as :mod:`aikg.export.select`): a class, and what a
quotation or rationale supports."""
_AIKG, _ID, _CATALOGUE = str(AIKG), str(ID), str(CATALOG_GRAPH)
_DERIVATION, _DERIVED_FOR = str(AIKG.Derivation), str(AIKG.derivedFor)
_DERIVED_PROPERTY, _VALUE = str(AIKG.derivedProperty), str(AIKG.value)
_SHORT = 24
"""Untagged strings up to this length (versions, currencies, shapes) count as key values."""


@dataclass
class Node:
    """One drawn node."""

    id: str
    label: str
    types: list[str]
    nary: bool = False
    attrs: dict[str, list[Value]] = field(default_factory=dict)
    key_values: list[tuple[str, str]] = field(default_factory=list)
    terms: dict[str, list[str]] = field(default_factory=dict)
    """Vocabulary terms the node links to, by property IRI (kept as IRIs for folding)."""

    @property
    def type(self) -> str | None:
        """The class shown for the node: the first most specific one."""
        return self.types[0] if self.types else None


@dataclass
class Edge:
    """One drawn edge; ``relation`` is the property IRI, or the class of a folded n-ary node."""

    id: str
    source: str
    target: str
    relation: str
    label: str
    graphs: set[str] = field(default_factory=set)
    attrs: dict[str, list[Value]] = field(default_factory=dict)
    summary: str = ""
    """Key values of a folded n-ary node, also the tail of ``label``; DOT puts them on a second line."""


@dataclass
class GraphModel:
    """Nodes and edges of one export, plus the lookups needed to describe them."""

    nodes: dict[str, Node]
    edges: dict[tuple[str, ...], Edge]
    vocab: Vocabulary
    titles: dict[str, str]

    def sorted_nodes(self) -> list[Node]:
        """Nodes in a stable order, so the same data always exports to the same bytes."""
        return [self.nodes[k] for k in sorted(self.nodes)]

    def sorted_edges(self) -> list[Edge]:
        """Edges in a stable order."""
        return sorted(self.edges.values(), key=lambda e: e.id)

    def node_data(self, node: Node) -> dict[str, Value | list[Value]]:
        """The node as a flat record: id, label, type, type label, kind, then its attributes."""
        data: dict[str, Value | list[Value]] = {
            "id": node.id,
            "label": node.label,
            "type": curie(node.type) if node.type else "",
            "type_label": self.vocab.label(node.type) if node.type else "",
            "types": " ".join(curie(t) for t in node.types),
            "kind": "n-ary" if node.nary else "entity",
        }
        data.update(_flat(node.attrs))
        return data

    def edge_data(self, edge: Edge) -> dict[str, Value | list[Value]]:
        """The edge as a flat record: id, source, target, label, relation, graph and document."""
        data: dict[str, Value | list[Value]] = {
            "id": edge.id,
            "source": edge.source,
            "target": edge.target,
            "label": edge.label,
            "relation": curie(edge.relation),
            "graph": " ".join(sorted(edge.graphs)),
            "document": "; ".join(sorted({self.titles[g] for g in edge.graphs if g in self.titles})),
        }
        data.update(_flat(edge.attrs))
        return data


def attribute_key(prop: str) -> str:
    """Attribute name of a property: its local name (aikg) or CURIE, kept off the reserved names."""
    key = local_name(prop) if prop.startswith(_AIKG) else curie(prop)
    return f"aikg_{key}" if key in RESERVED else key


def python_value(lit: ox.Literal) -> Value:
    """A literal as a typed value: numbers and booleans typed, everything else its lexical form."""
    dt, text = lit.datatype.value, lit.value
    try:
        if dt in _INTEGERS:
            return int(text)
        if dt in _FLOATS:
            return float(text)
    except ValueError:
        return text
    if dt == _BOOLEAN:
        return text.strip() in {"true", "1"}
    return text


def display(lit: ox.Literal) -> str:
    """A literal as shown in a label: decimals rounded to three places, everything else as written."""
    text = lit.value
    if lit.datatype.value not in _FLOATS:
        return text
    try:
        number = Decimal(text)
    except InvalidOperation:
        return text
    exponent = number.as_tuple().exponent
    if not isinstance(exponent, int):  # NaN and the infinities (xsd:double's "NaN", "INF"): as written
        return text
    if exponent < -3:
        number = number.quantize(Decimal("0.001"))
    plain = format(number, "f")
    return plain.rstrip("0").rstrip(".") if "." in plain else plain


def is_key_value(lit: ox.Literal) -> bool:
    """Figures, dates, flags and short codes: the values worth showing in a folded edge's label."""
    if lit.language:
        return False
    if lit.datatype.value == _STRING:
        return len(lit.value) <= _SHORT
    return lit.datatype.value in _KEY_TYPES


def add_value(attrs: dict[str, list[Value]], key: str, value: Value) -> None:
    """Append a value to an attribute, once."""
    values = attrs.setdefault(key, [])
    if value not in values:
        values.append(value)


Fact = tuple[str, Any, str]
"""(property IRI, object as a pyoxigraph term, named graph IRI)."""


def term_id(term: ox.NamedNode | ox.BlankNode) -> str:
    """The id of a node: its IRI, or ``_:label`` for a blank node."""
    return term.value if isinstance(term, ox.NamedNode) else f"_:{term.value}"


@dataclass
class Facts:
    """What a selection's quads say, by subject, before anything is drawn: the shared first step of a
    whole model (:func:`build_model`) and of a capped one (:func:`build_capped`)."""

    vocab: Vocabulary
    titles: dict[str, str]
    facts: dict[str, list[Fact]]
    kinds: dict[str, frozenset[str]]
    drawn: set[str]
    parts: NodeParts | None = field(default=None, repr=False, compare=False)
    """Each node's drawn part, built once (the kept facts' and their subsets'; None: built per use)."""
    _into: dict[str, set[ox.NamedNode]] | None = field(default=None, init=False, repr=False, compare=False)

    def neighbours(self, nodes: Iterable[ox.NamedNode]) -> set[ox.NamedNode]:
        """A hop of a neighbourhood walk in memory (:class:`aikg.export.select.Links`), from the whole
        graph's facts: the IRIs the nodes link to that the facts describe, and the IRIs linking to them,
        ``rdf:type`` and evidence links aside — what the walk's two SPARQL queries per hop find."""
        into = self._incoming()
        found: set[ox.NamedNode] = set()
        for node in nodes:
            for p, o, _ in self.facts.get(node.value, ()):
                if p not in _NOT_HOPS and isinstance(o, ox.NamedNode) and o.value in self.facts:
                    found.add(o)
            found |= into.get(node.value, set())
        return found

    def typed(self, nodes: Iterable[ox.NamedNode], classes: set[str]) -> set[ox.NamedNode]:
        """The nodes the facts give one of ``classes``."""
        return {n for n in nodes if self.kinds.get(n.value, frozenset()) & classes}

    def _incoming(self) -> dict[str, set[ox.NamedNode]]:
        """IRI -> the IRIs linking to it (``rdf:type`` and evidence links aside); built at the first
        walk (~30 ms on the default store), kept with these facts."""
        if self._into is None:
            into: dict[str, set[ox.NamedNode]] = defaultdict(set)
            for s, facts in self.facts.items():
                if s.startswith("_:"):
                    continue
                subject = ox.NamedNode(s)
                for p, o, _ in facts:
                    if p not in _NOT_HOPS and isinstance(o, ox.NamedNode):
                        into[o.value].add(subject)
            self._into = dict(into)
        return self._into

    def links(self) -> Iterator[tuple[str, str, str]]:
        """Every edge of the whole model, once, as (source, property, target)."""
        seen: set[tuple[str, str, str]] = set()
        drawn = self.drawn
        for s in bounded(drawn, "ranking nodes"):
            for p, o, _ in self.facts[s]:
                if p == _TYPE or isinstance(o, ox.Literal):
                    continue
                key = (s, p, term_id(o))
                if key[2] in drawn and key not in seen:
                    seen.add(key)
                    yield key

    def types(self, s: str) -> list[str]:
        """The classes a drawn node shows, most specific first (as :attr:`Node.types`)."""
        return sorted(self.vocab.most_specific(self.kinds[s]), key=lambda t: (not t.startswith(_AIKG), t))


def read_facts(services: Services, selection: Selection, *, most: int | None = None) -> Facts:
    """One pass over the selection's quads: facts by subject, their classes, and which are drawn.

    The whole graph's are kept between requests (:mod:`aikg.export.kept`); this reads them afresh
    (TooManyFacts past ``most`` quads)."""
    vocab = services.vocabulary()
    facts = facts_by_subject(selection, most=most)
    kinds, drawn = classify(vocab, facts)
    return Facts(vocab, titles(services), facts, kinds, drawn)


def titles(services: Services) -> dict[str, str]:
    """Named graph -> the title of its source document, for edges' sources."""
    return {g: doc.title for g, doc in services.catalog().items() if doc.title}


class TooManyFacts(Exception):
    """A selection holds more quads than its reader was willing to read."""


def facts_by_subject(selection: Selection, *, most: int | None = None) -> dict[str, list[Fact]]:
    """The selection's statements as (property, object, graph) by subject id; TooManyFacts past ``most``
    quads."""
    facts: dict[str, list[Fact]] = defaultdict(list)
    read = 0
    if selection.nodes is None:
        # Graph by graph: the graph's name is known, not read from every quad (a tenth of the pass).
        for g in selection.graphs:
            for q in bounded(selection.store.quads(graph=g), "reading the selected facts", every=4 * 1024):
                facts[term_id(rdf11_subject(q))].append((q.predicate.value, q.object, g))
                read += 1
                if most is not None and read > most:
                    raise TooManyFacts(f"over {most} quads")
        return dict(facts)
    for q in bounded(selection.quads(), "reading the selected facts", every=4 * 1024):
        facts[term_id(rdf11_subject(q))].append((q.predicate.value, q.object, graph_iri(q)))
    return dict(facts)


def classify(vocab: Vocabulary, facts: dict[str, list[Fact]]) -> tuple[dict[str, frozenset[str]], set[str]]:
    """The classes of each subject of ``facts``, and which subjects are drawn: not catalogue internals,
    not derivation records, and described somewhere besides the catalogue."""
    internal = {c for root in INTERNAL_CLASSES for c in vocab.descendants(str(root))}
    kinds = {s: frozenset(o.value for p, o, _ in fs if p == _TYPE) for s, fs in facts.items()}
    drawn = {
        s
        for s, types in kinds.items()
        if not types & internal and _DERIVATION not in types and any(g != _CATALOGUE for _, _, g in facts[s])
    }
    return kinds, drawn


def build_model(services: Services, selection: Selection) -> GraphModel:
    """Nodes, edges and attributes of a selection (no folding), in one pass over its quads."""
    facts = selected_facts(services, selection)
    return assemble(facts, facts.drawn)


def selected_facts(services: Services, selection: Selection) -> Facts:
    """The facts of a selection: from the whole graph's kept by the services (:mod:`aikg.export.kept`),
    else read now."""
    from aikg.export.kept import subset  # kept builds on this module

    kept = services.whole.current(services)
    if kept is None:
        return read_facts(services, selection)
    return kept if selection.nodes is None else subset(kept, selection.nodes)


class NodeParts:
    """Each node's drawn part at one store version, built at its first use and copied for each model.

    Building a node (its facts sorted, attribute keys, typed and displayed values) was ~60 % of a hub's
    depth-1 neighbourhood (NVIDIA's 186 nodes: ~25 of ~40 ms), the same work for every request at one
    version; the kept facts (:mod:`aikg.export.kept`) are replaced at each new version, and these parts
    with them. A part is built against the whole graph's ``drawn`` nodes; a selection that leaves out a
    drawn node outside the data's namespace (an Epoch finding), which it would draw as an attribute, builds
    that node afresh."""

    def __init__(self, drawn: set[str]) -> None:
        self.drawn = drawn
        self._parts: dict[str, _Part] = {}

    def node(self, facts: Facts, s: str, shown: set[str], model: GraphModel) -> Node:
        """Node ``s`` of ``facts`` (whose drawn nodes are some of :attr:`drawn`), its edges to the
        ``shown`` nodes added to ``model``."""
        part = self._parts.get(s)
        if part is None:
            part = self._parts[s] = _part(s, facts.facts[s], facts.kinds[s], facts.vocab, self.drawn)
        if facts.drawn is not self.drawn and not all(t in facts.drawn for t in part.outside):
            return _node(s, facts.facts[s], facts.kinds[s], facts.vocab, facts.drawn, shown, model)
        for p, target, g in part.links:
            if target in shown:
                _link(model, s, p, target, g, facts.vocab)
        return _copy(part.node)

    def __len__(self) -> int:
        return len(self._parts)


@dataclass(frozen=True)
class _Part:
    node: Node
    """Before derived values and folding; never handed out (copied)."""
    links: tuple[tuple[str, str, str], ...]
    """(property, target, graph) of its links to drawn nodes, in the order :func:`_node` links them."""
    outside: tuple[str, ...]
    """Drawn targets outside the data's namespace: a selection without them draws them as attributes."""


def _part(s: str, facts: list[Fact], types: frozenset[str], vocab: Vocabulary, drawn: set[str]) -> _Part:
    node = _node(s, facts, types, vocab, drawn, set(), GraphModel({}, {}, vocab, {}))
    links = tuple(
        (p, term_id(o), g)
        for p, o, g in sorted(facts, key=lambda f: (f[0], str(f[1])))
        if p != _TYPE and not isinstance(o, ox.Literal) and term_id(o) in drawn
    )
    outside = tuple(t for _, t, _ in links if not t.startswith(_ID))
    return _Part(node, links, outside)


def _copy(node: Node) -> Node:
    """A node another model may change (folding and derived values add to its attributes)."""
    return Node(
        node.id,
        node.label,
        list(node.types),
        node.nary,
        {k: list(v) for k, v in node.attrs.items()},
        list(node.key_values),
        {k: list(v) for k, v in node.terms.items()},
    )


def assemble(facts: Facts, shown: set[str]) -> GraphModel:
    """The model of the ``shown`` nodes of ``facts`` (all of them drawn) and the edges between them;
    a node's attributes are the same whichever other nodes are shown."""
    model = GraphModel({}, {}, facts.vocab, facts.titles)
    parts = facts.parts
    # In id order: the edges' order (which folding reads) must not depend on how the facts were read.
    for s in bounded(sorted(shown), "building the drawn graph"):
        if parts is not None:
            model.nodes[s] = parts.node(facts, s, shown, model)
        else:
            model.nodes[s] = _node(s, facts.facts[s], facts.kinds[s], facts.vocab, facts.drawn, shown, model)
    for s in sorted(s for s, types in facts.kinds.items() if _DERIVATION in types):
        _derived_value(facts.facts[s], model)
    return model


def _node(
    s: str,
    facts: list[Fact],
    types: frozenset[str],
    vocab: Vocabulary,
    drawn: set[str],
    shown: set[str],
    model: GraphModel,
) -> Node:
    labels: dict[str, str] = {}
    node = Node(
        s,
        "",
        sorted(vocab.most_specific(types), key=lambda t: (not t.startswith(_AIKG), t)),
        nary=bool(types & vocab.nary),
    )
    for p, o, g in sorted(facts, key=lambda f: (f[0], str(f[1]))):
        if p == _TYPE:
            continue
        if isinstance(o, ox.Literal):
            if p == _LABEL:
                labels.setdefault(o.language or "", o.value)
                continue
            add_value(node.attrs, attribute_key(p), python_value(o))
            if p != _ALT_LABEL and is_key_value(o):
                node.key_values.append((vocab.label(p), display(o)))
            continue
        target = term_id(o)
        if target in drawn:
            if target in shown:
                _link(model, s, p, target, g, vocab)
        elif not target.startswith(_ID):
            # A vocabulary term (status, certainty, qualifier) or an outside IRI (a web address).
            node.terms.setdefault(p, []).append(target)
            add_value(node.attrs, attribute_key(p), vocab.label(target) if target in vocab.labels else target)
    node.label = labels.get("en") or labels.get("") or next(iter(labels.values()), "") or _name(s)
    for lang, text in sorted(labels.items()):
        if lang not in {"en", ""}:
            node.attrs[f"label_{lang}"] = [text]
    return node


def _link(model: GraphModel, s: str, p: str, o: str, graph: str, vocab: Vocabulary) -> None:
    key = (s, p, o)
    edge = model.edges.get(key)
    if edge is None:
        edge = model.edges[key] = Edge(f"{curie(s)} {curie(p)} {curie(o)}", s, o, p, vocab.label(p))
    edge.graphs.add(graph)


def _derived_value(facts: list[Fact], model: GraphModel) -> None:
    target = prop = None
    values: list[ox.Literal] = []
    for p, o, _ in facts:
        if p == _DERIVED_FOR:
            target = o.value
        elif p == _DERIVED_PROPERTY:
            prop = o.value
        elif p == _VALUE and isinstance(o, ox.Literal):
            values.append(o)
    node = model.nodes.get(target or "")
    if node is None or prop is None:
        return
    for v in sorted(values, key=str):  # the same order however the facts were read
        add_value(node.attrs, attribute_key(prop), python_value(v))
        node.key_values.append((model.vocab.label(prop), display(v)))


def _name(node_id: str) -> str:
    return local_name(node_id) or node_id


def _flat(attrs: dict[str, list[Value]]) -> dict[str, Value | list[Value]]:
    return {k: (v[0] if len(v) == 1 else list(v)) for k, v in sorted(attrs.items()) if v}
