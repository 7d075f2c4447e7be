"""Which quads an export holds: the whole data graph, a neighbourhood of one entity, or some types.

The DATA graphs are every named graph except the vocabulary (``graph/ontology``), the constraints
(``graph/shapes``) and the entailments anyone can recompute from them (``graph/inferred``). A selection
is a set of nodes (subjects of the data graphs); its quads are everything the data graphs say ABOUT
those nodes (every quad whose subject is selected), in the graphs that say it.

A neighbourhood walks links in both directions, two SPARQL queries per hop over the frontier (out and
in), so the cost follows the size of the neighbourhood, never the size of the store.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

import pyoxigraph as ox

from aikg.errors import BadRequest, NotFound
from aikg.namespaces import AIKG, ID, graphs_with
from aikg.store import Quad, Store, Term
from aikg.store.terms import quad_of_row

if TYPE_CHECKING:
    from aikg.lookup.vocabulary import Vocabulary
    from aikg.services import Services


MAX_DEPTH = 4
"""Deepest neighbourhood served: at depth 4 a hub already reaches most of a small graph."""

NON_DATA_GRAPHS = graphs_with("not exported")
"""Graphs an export leaves out: vocabulary, constraints and recomputable entailments."""

_BATCH = 500
"""IRIs per VALUES block: keeps each query text small while a hop stays a handful of queries."""

_NOT_HOPS = ", ".join(
    f"<{p}>" for p in ("http://www.w3.org/1999/02/22-rdf-syntax-ns#type", AIKG.evidenceFor, AIKG.drawsOn)
)
"""Links a neighbourhood does not follow: a node's class, and the quotations and rationales naming a
node (what its facts rest on, not things of the industry; an export of the whole graph keeps them)."""

_LINKED_FROM = """SELECT DISTINCT ?n WHERE {
  VALUES ?f { %s }
  GRAPH ?g { ?f ?p ?n }
  FILTER (isIRI(?n) && ?p NOT IN (%s) && ?g IN (%s))
  FILTER EXISTS { GRAPH ?h { ?n ?q ?v } FILTER (?h IN (%s)) }
}"""
"""Half a hop, outwards: IRIs the frontier links to that are themselves described in the data graphs
(which leaves out vocabulary terms such as aikg:Reported and plain IRIs such as web addresses).

Every query here reads quads (``GRAPH ?g``) of the data graphs named in an ``IN`` filter rather than
a dataset of those graphs: Oxigraph evaluates a dataset of N graphs as N scans per pattern, one index
scan with a filter is 4-6 times faster (a hub's four hops: 3.0 s -> 0.6 s on the default store), and
the answers are the same."""

_LINKING_TO = """SELECT DISTINCT ?n WHERE {
  VALUES ?f { %s }
  GRAPH ?g { ?n ?p ?f }
  FILTER (isIRI(?n) && ?p NOT IN (%s) && ?g IN (%s))
}"""
"""Half a hop, inwards: subjects linking to the frontier (described by definition). Kept apart from the
outward half because a UNION with the EXISTS test defeats some engines' planners (Virtuoso times out)."""

_ABOUT = "SELECT ?s ?p ?o ?g WHERE { VALUES ?s { %s } GRAPH ?g { ?s ?p ?o } FILTER (?g IN (%s)) }"

_OF_TYPES = "SELECT DISTINCT ?s WHERE { VALUES ?t { %s } GRAPH ?g { ?s a ?t } FILTER (?g IN (%s)) }"

_TYPED = (
    "SELECT DISTINCT ?n WHERE { VALUES ?n { %s } GRAPH ?g { ?n a ?t } FILTER (?t IN (%s) && ?g IN (%s)) }"
)
"""The classes in a filter too: with a second VALUES block Oxigraph joins every instance of them."""


def _in(graphs: Sequence[str]) -> str:
    """The graphs as the list of an ``IN`` filter."""
    return ", ".join(f"<{g}>" for g in graphs)


def data_graphs(store: Store) -> list[str]:
    """The named graphs exports draw from, sorted."""
    return [g for g in store.graphs() if g not in NON_DATA_GRAPHS]


@dataclass(frozen=True)
class Selection:
    """What to export: ``nodes`` None means every node of the data graphs. A neighbourhood also knows
    each node's hops from the focus (``hops``)."""

    store: Store
    graphs: tuple[str, ...]
    nodes: frozenset[Term] | None
    focus: ox.NamedNode | None = None
    depth: int = 1
    types: tuple[str, ...] = ()
    hops: Mapping[str, int] | None = None

    def quads(self) -> Iterator[Quad]:
        """The selected quads, graph by graph (whole graph) or in batches of subjects."""
        if self.nodes is None:
            for g in self.graphs:
                yield from self.store.quads(graph=g)
            return
        if not self.graphs:
            return
        for batch in _batches(sorted(self.nodes, key=str)):
            rows = self.store.query(_ABOUT % (_values(batch), _in(self.graphs))).rows
            yield from (quad_of_row(row) for row in rows)


def resolve_focus(store: Store, focus: str, graphs: Sequence[str]) -> ox.NamedNode:
    """The entity a ``focus`` names (a slug or a full IRI); NotFound unless the data describes it."""
    text = focus.strip()
    if not text:
        raise BadRequest("focus must name an entity: a slug such as 'coreweave' or a full IRI")
    iri = text if text.startswith(("http://", "https://")) else str(ID) + text
    if (
        not _valid_iri(iri)
        or not graphs
        or not store.query(
            "ASK { ?s ?p ?o }", bindings={"s": ox.NamedNode(iri)}, default_graphs=list(graphs)
        ).boolean
    ):
        raise NotFound(
            f"no entity {text[:200]!r} in the data graphs",
            errors=[{"parameter": "focus", "value": text[:200]}],
        )
    return ox.NamedNode(iri)


def expand_types(vocab: Vocabulary, types: Iterable[str]) -> tuple[list[str], set[str]]:
    """The classes named (IRI, ``aikg:X`` or ``X``) and every subclass of them; BadRequest if unknown."""
    named: list[str] = []
    expanded: set[str] = set()
    for raw in types:
        name = raw.strip()
        if name.startswith("aikg:"):
            name = name[len("aikg:") :]
        cls = vocab.resolve_class(name)
        if cls is None:
            raise BadRequest(
                f"unknown type {raw!r}: give an aikg class such as 'Organization', "
                f"'aikg:Deal' or a full class IRI",
                errors=[{"parameter": "type", "value": raw}],
            )
        named.append(cls)
        expanded |= vocab.descendants(cls)
    return named, expanded


class Links(Protocol):
    """The data graphs' links known in memory (the whole graph's kept facts, :mod:`aikg.export.kept`):
    a walk over them reads nothing from the store."""

    def neighbours(self, nodes: Iterable[ox.NamedNode]) -> set[ox.NamedNode]:
        """What one hop from ``nodes`` reaches, as :func:`_hop` finds it."""
        ...

    def typed(self, nodes: Iterable[ox.NamedNode], classes: set[str]) -> set[ox.NamedNode]:
        """The ``nodes`` of one of ``classes``, as :func:`_of_classes` finds them."""
        ...


def distances(
    store: Store,
    focus: ox.NamedNode,
    depth: int,
    graphs: Sequence[str],
    *,
    through: set[str] | None = None,
    links: Links | None = None,
) -> dict[ox.NamedNode, int]:
    """Nodes within ``depth`` links of ``focus`` (either direction), each with its number of hops from
    ``focus`` (0 for the focus), which a capped view uses to keep the closest nodes: two queries per hop
    and batch, walked over ``links`` when given, else in the store. Nodes of the ``through`` classes cost
    no hop: they and everything they link are reached together, which is what a folded view needs (a
    deal is an edge there, so its parties are one hop away)."""

    def hop(frontier: Sequence[ox.NamedNode]) -> set[ox.NamedNode]:
        return links.neighbours(frontier) if links is not None else _hop(store, frontier, graphs)

    def of_classes(nodes: set[ox.NamedNode]) -> set[ox.NamedNode]:
        if not through:
            return set()
        if links is not None:
            return links.typed(nodes, through)
        return _of_classes(store, nodes, through, graphs)

    seen: dict[ox.NamedNode, int] = {focus: 0}
    frontier = [focus]
    for hop_count in range(1, depth + 1):
        new = hop(frontier) - seen.keys()
        seen.update(dict.fromkeys(new, hop_count))
        inner = of_classes(new)
        while inner:
            more = hop(sorted(inner, key=str)) - seen.keys()
            seen.update(dict.fromkeys(more, hop_count))
            new |= more
            inner = of_classes(more)
        frontier = sorted(new, key=str)
        if not frontier:
            break
    return seen


def _hop(store: Store, frontier: Sequence[ox.NamedNode], graphs: Sequence[str]) -> set[ox.NamedNode]:
    found: set[ox.NamedNode] = set()
    if not graphs:
        return found
    within = _in(graphs)
    for batch in _batches(frontier):
        values = _values(batch)
        for text in (
            _LINKED_FROM % (values, _NOT_HOPS, within, within),
            _LINKING_TO % (values, _NOT_HOPS, within),
        ):
            found.update(row[0] for row in store.query(text).rows if isinstance(row[0], ox.NamedNode))
    return found


def _of_classes(
    store: Store, nodes: Iterable[Term], classes: set[str] | None, graphs: Sequence[str]
) -> set[ox.NamedNode]:
    if not nodes or not classes or not graphs:
        return set()
    types = ", ".join(f"<{c}>" for c in sorted(classes))
    found: set[ox.NamedNode] = set()
    for batch in _batches(sorted(nodes, key=str)):
        rows = store.query(_TYPED % (_values(batch), types, _in(graphs))).rows
        found.update(row[0] for row in rows if isinstance(row[0], ox.NamedNode))
    return found


def instances_of(store: Store, classes: set[str], graphs: Sequence[str]) -> set[Term]:
    """Nodes the data graphs assert to be of one of ``classes`` (already closed over subclasses)."""
    if not classes or not graphs:
        return set()
    values = " ".join(f"<{c}>" for c in sorted(classes))
    rows = store.query(_OF_TYPES % (values, _in(graphs))).rows
    return {row[0] for row in rows if isinstance(row[0], ox.NamedNode)}


def select(
    services: Services,
    *,
    focus: str | None = None,
    depth: int = 1,
    types: Sequence[str] | None = None,
    through_nary: bool = False,
) -> Selection:
    """Resolve an export's selection; NotFound for an unknown focus, BadRequest for a bad depth/type.

    With ``through_nary`` a neighbourhood walks through n-ary nodes without counting them as a hop.
    """
    check_depth(depth)
    store = services.store
    graphs = tuple(data_graphs(store))
    names, classes = expand_types(services.vocabulary(), types or ())
    nodes: set[Term] | None = None
    focus_iri = None
    hops = None
    if focus is not None:
        focus_iri = resolve_focus(store, focus, graphs)
        through = set(services.vocabulary().nary) if through_nary else None
        links = services.whole.current(services)  # the kept facts, when there are
        found = distances(store, focus_iri, depth, graphs, through=through, links=links)
        hops = {n.value: d for n, d in found.items()}
        nodes = set(found)
    if names:
        nodes = (
            instances_of(store, classes, graphs)
            if nodes is None
            else set(_of_classes(store, nodes, classes, graphs))
        )
    return Selection(
        store, graphs, None if nodes is None else frozenset(nodes), focus_iri, depth, tuple(names), hops
    )


MAX_LISTED = 5000
"""Most nodes a listed selection (the graph page's "download this view") may name."""


def listed(services: Services, nodes: Sequence[str], *, through_nary: bool = False) -> Selection:
    """The nodes a client names (slugs or IRIs): the graph page's drawing, downloaded as drawn. With
    ``through_nary`` the n-ary nodes linked to them come along, so a folded drawing's edges can be folded
    again (the caller keeps only the named nodes after folding). BadRequest for a malformed name or too
    many; a name the data does not describe selects nothing."""
    if len(nodes) > MAX_LISTED:
        raise BadRequest(
            f"nodes names at most {MAX_LISTED} nodes ({len(nodes)} given)",
            errors=[{"parameter": "nodes", "count": len(nodes)}],
        )
    store = services.store
    graphs = tuple(data_graphs(store))
    chosen: set[Term] = set()
    for raw in nodes:
        text = raw.strip()
        iri = text if text.startswith(("http://", "https://")) else str(ID) + text
        if not text or not _valid_iri(iri):
            raise BadRequest(
                f"nodes: {text[:200]!r} is not a slug or an IRI",
                errors=[{"parameter": "nodes", "value": text[:200]}],
            )
        chosen.add(ox.NamedNode(iri))
    if through_nary and chosen:
        nary = set(services.vocabulary().nary)
        links = services.whole.current(services)
        named = sorted((n for n in chosen if isinstance(n, ox.NamedNode)), key=str)
        around = links.neighbours(named) if links is not None else _hop(store, named, graphs)
        found = links.typed(around, nary) if links is not None else _of_classes(store, around, nary, graphs)
        chosen |= found
    return Selection(store, graphs, frozenset(chosen))


def check_depth(depth: int) -> None:
    """BadRequest naming ``depth`` unless it is an integer from 0 to :data:`MAX_DEPTH`."""
    if isinstance(depth, bool) or not isinstance(depth, int) or not 0 <= depth <= MAX_DEPTH:
        raise BadRequest(
            f"depth must be an integer from 0 to {MAX_DEPTH}",
            errors=[{"parameter": "depth", "value": str(depth)}],
        )


def _valid_iri(iri: str) -> bool:
    if any(c in iri for c in ' <>"{}|^`\\') or any(ord(c) < 0x21 for c in iri):
        return False
    try:
        ox.NamedNode(iri)
    except ValueError:
        return False
    return True


def _values(terms: Sequence[Term]) -> str:
    return " ".join(str(t) for t in terms)


def _batches(items: Sequence[Term]) -> Iterator[Sequence[Term]]:
    for start in range(0, len(items), _BATCH):
        yield items[start : start + _BATCH]
