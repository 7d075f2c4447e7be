"""The SHACL gate: every write is one transaction, validated on its neighbourhood, committed whole or not.

A write is first turned into its exact delta (quads removed, quads added) without touching the store.
The nodes the delta touches, and the nodes pointing at them, are validated over a small data graph made
of their neighbourhood in the would-be state (plus the ontology, mixed in by the validator). If any
shape is violated the write is refused with the report and the store is untouched; otherwise the delta
is committed as ONE SPARQL update (one Oxigraph transaction), together with the difference it makes to
the inferred and derived graphs, computed around the nodes it touches (:mod:`aikg.knowledge.incremental`).
"""

from __future__ import annotations

import threading
import weakref
from collections import defaultdict
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

import pyoxigraph as ox
from rdflib import Graph, Literal, URIRef
from rdflib.namespace import RDF, RDFS

from . import guard, limits, writelog
from .errors import BadRequest, Conflict, Forbidden, QuerySyntaxError, ValidationFailed
from .execution import allowed_services
from .knowledge import incremental, validate
from .knowledge.derive import rebuild_derived, rule_files
from .namespaces import AIKG, DERIVED_GRAPH, GRAPH, ID, INFERRED_GRAPH, ONTOLOGY_GRAPH, PREFIXES, SHAPES_GRAPH
from .store import OxigraphStore, Store
from .store.around import around
from .store.terms import to_ox, to_rdflib

PROTECTED_GRAPHS = frozenset(str(g) for g in (ONTOLOGY_GRAPH, SHAPES_GRAPH, DERIVED_GRAPH, INFERRED_GRAPH,
                                              GRAPH["resolution"], GRAPH["imports"]))
"""Graphs only aikg itself writes: the ontology and shapes (from files), the computed graphs, and the
import's entity-resolution links and import records."""

_VOCABULARY = tuple(ns for p, ns in PREFIXES.items() if p not in ("id", "graph"))
_RDF_TYPE = ox.NamedNode(str(PREFIXES["rdf"]) + "type")
_NOT_DATA = frozenset(ox.NamedNode(str(g)) for g in (SHAPES_GRAPH, DERIVED_GRAPH, INFERRED_GRAPH))
"""Graphs left out of the data validated: the shapes, and the computed graphs (stale until rebuilt)."""

Node = ox.NamedNode | ox.BlankNode


@dataclass
class Change:
    """A write as its exact delta; ``kind`` names the operation for the response."""

    kind: str
    remove: set[ox.Quad] = field(default_factory=set)
    add: set[ox.Quad] = field(default_factory=set)
    drop: set[str] = field(default_factory=set)
    """Graphs removed entirely (their quads are in ``remove`` too, for validation)."""

    def graphs(self) -> list[str]:
        """The named graphs this change touches."""
        return sorted({_graph_iri(q) for q in self.remove | self.add} | self.drop)


@dataclass
class Outcome:
    """What a committed write did."""

    kind: str
    added: int
    removed: int
    graphs: list[str]
    validated: list[str]

    def to_json(self) -> dict[str, Any]:
        """The success body of a write."""
        return {"ok": True, "operation": self.kind, "added": self.added, "removed": self.removed,
                "graphs": self.graphs, "validated_nodes": len(self.validated)}


def check_graph_iri(graph: str | None) -> str:
    """A client-named target graph: an absolute IRI, not the default graph, not a protected graph."""
    if not graph:
        raise BadRequest("every write names the named graph it belongs to (?graph=<iri>); the default "
                         "graph holds nothing of its own in aikg and is not writable")
    try:
        node = ox.NamedNode(graph)
    except ValueError:
        raise BadRequest(f"the graph IRI is not valid: {graph[:200]}") from None
    if ":" not in graph:
        raise BadRequest("the graph IRI must be absolute")
    if node.value in PROTECTED_GRAPHS:
        raise Forbidden(f"the graph {graph} is maintained by aikg itself and cannot be written by clients",
                        errors=[{"graph": graph}])
    return node.value


# --- building changes --------------------------------------------------------------------------------

def _pattern(store: Store, s: Node | None = None, o: ox.Term | None = None,
             graph: str | None = None) -> Iterator[ox.Quad]:
    """Quads matching a pattern, as pyoxigraph quads, skipping the (unused) default graph."""
    if isinstance(store, OxigraphStore):
        for q in store.raw.quads_for_pattern(s, None, o, ox.NamedNode(graph) if graph else None):
            if not isinstance(q.graph_name, ox.DefaultGraph):
                yield q
        return
    for qs, qp, qo, qg in store.quads(to_rdflib(s) if s is not None else None, None,
                                      to_rdflib(o) if o is not None else None, graph):
        yield ox.Quad(to_ox(qs), to_ox(qp), to_ox(qo), ox.NamedNode(str(qg)))


def graph_change(store: Store, graph: str, quads: Iterable[ox.Quad], *, replace: bool) -> Change:
    """The delta of a Graph Store Protocol write: PUT (``replace``) or POST of ``quads`` into ``graph``."""
    new = set(quads)
    if replace:
        old = set(_pattern(store, graph=graph))
        return Change("replace", remove=old - new, add=new - old)
    existing = around(store).outgoing({q.subject for q in new}, graph=ox.NamedNode(graph))
    return Change("add", add=new - set(existing))


def drop_change(store: Store, graph: str) -> Change:
    """The delta of deleting a whole graph."""
    return Change("delete", remove=set(_pattern(store, graph=graph)), drop={graph})


def update_change(store: Store, text: str, settings: Mapping[str, Any]) -> Change:
    """The delta of a SPARQL Update, computed on a staging copy of the graphs it can reach.

    The staging store holds every existing graph the update names (all of them when it uses
    ``GRAPH ?var``, ``ALL`` or ``NAMED``); the update runs there, in a query worker process under the
    query time limit, and the difference before/after is the change.
    """
    known = frozenset(store.graphs())
    guard.check_sparql(text, known_graphs=lambda: known, allow_service=allowed_services(settings),
                       update=True)
    named, open_ended = guard.graph_references(text)
    graphs = sorted(known if open_ended else named & known)
    job = {"text": text, "graphs": graphs}
    seconds = float(settings["query_timeout"])
    if isinstance(store, OxigraphStore):
        pool = limits.pool(store, int(settings["max_heavy_queries"]))
        removed, added = pool.run(_stage, job, timeout=seconds)
    else:
        removed, added = limits.run_isolated(lambda: _stage(store, **job), timeout=seconds)
    return Change("update", remove=removed, add=added)


def _stage(store: Store, *, text: str, graphs: list[str]) -> tuple[set[ox.Quad], set[ox.Quad]]:
    """Run the update on a scratch copy of ``graphs``; return the quads it removed and added."""
    staging = ox.Store()
    for g in graphs:
        staging.extend(_pattern(store, graph=g))
    before = set(staging)
    try:
        staging.update(text)
    except SyntaxError as exc:
        raise QuerySyntaxError(f"the update does not parse: {_first_line(exc)}") from None
    except (OSError, ValueError) as exc:
        raise BadRequest(f"the update failed: {_first_line(exc)}") from None
    after = set(staging)
    if any(isinstance(q.graph_name, ox.DefaultGraph) for q in after):
        raise BadRequest("the update writes into the default graph; every write names the named graph "
                         "it belongs to (GRAPH <iri> { ... } or WITH <iri>)")
    return before - after, after - before


def _first_line(exc: Exception) -> str:
    return (str(exc).splitlines() or ["error"])[0][:300]


def _graph_iri(q: ox.Quad) -> str:
    return q.graph_name.value  # type: ignore[union-attr]


# --- incremental validation ----------------------------------------------------------------------------

def _is_instance_node(term: ox.Term) -> bool:
    """True for nodes that hold data (entities, n-ary nodes); False for vocabulary terms and literals."""
    if isinstance(term, ox.BlankNode):
        return True
    return isinstance(term, ox.NamedNode) and not term.value.startswith(_VOCABULARY)


class _PostState:
    """The store as it would be after a change, read only around given nodes."""

    def __init__(self, store: Store, change: Change) -> None:
        self.read, self.change = around(store), change
        self.out: dict[ox.Term, list[ox.Quad]] = defaultdict(list)
        self.inc: dict[ox.Term, list[ox.Quad]] = defaultdict(list)
        for q in change.add:
            self.out[q.subject].append(q)
            self.inc[q.object].append(q)

    def _keep(self, q: ox.Quad) -> bool:
        return q.graph_name not in _NOT_DATA and q not in self.change.remove

    def outgoing(self, nodes: set[ox.Term]) -> list[ox.Quad]:
        """Quads with one of ``nodes`` as subject, after the change."""
        return ([q for q in self.read.outgoing(nodes) if self._keep(q)]
                + [q for n in nodes for q in self.out.get(n, [])])

    def incoming(self, nodes: set[ox.Term]) -> list[ox.Quad]:
        """Quads with one of ``nodes`` as object, after the change."""
        return ([q for q in self.read.incoming(nodes) if self._keep(q)]
                + [q for n in nodes for q in self.inc.get(n, [])])


def focus_nodes(store: Store, change: Change) -> tuple[list[Node], Graph]:
    """The nodes to validate (touched ones and what points at them) and their neighbourhood graph."""
    post = _PostState(store, change)
    touched: set[ox.Term] = set()
    for q in change.remove | change.add:
        touched.add(q.subject)
        if q.predicate != _RDF_TYPE:
            touched.add(q.object)
    touched = {t for t in touched if _is_instance_node(t)}
    nodes = set(touched)
    nodes.update(q.subject for q in post.incoming(touched) if _is_instance_node(q.subject))
    data = Graph()
    neighbours: set[ox.Term] = set()
    for q in post.outgoing(nodes):
        data.add((to_rdflib(q.subject), to_rdflib(q.predicate), to_rdflib(q.object)))
        if _is_instance_node(q.object) and q.object not in nodes:
            neighbours.add(q.object)
    for q in post.outgoing(neighbours):
        data.add((to_rdflib(q.subject), to_rdflib(q.predicate), to_rdflib(q.object)))
    return sorted((n for n in nodes if isinstance(n, ox.NamedNode)), key=lambda n: n.value), data


def validate_change(store: Store, change: Change) -> tuple[validate.ValidationResult, list[str]]:
    """Validate only what the change can affect, over its neighbourhood."""
    nodes, data = focus_nodes(store, change)
    focus = [URIRef(n.value) for n in nodes]
    return validate.validate_graph(data, focus_nodes=focus), [str(f) for f in focus]


# --- committing ----------------------------------------------------------------------------------------

def _fresh_blank(store: Store, q: ox.Quad) -> bool:
    return all(not isinstance(t, ox.BlankNode) or next(_pattern(store, s=t), None) is None
               and next(_pattern(store, o=t), None) is None for t in (q.subject, q.object))


def commit_text(store: Store, change: Change) -> str:
    """The change as one SPARQL update: DROP, DELETE DATA, then INSERT DATA.

    INSERT DATA mints new blank nodes and DELETE DATA cannot name them, so a graph whose change touches
    an existing blank node is rewritten whole (DROP, then INSERT DATA of its new content).
    """
    rewrite = {_graph_iri(q) for q in change.remove
               if isinstance(q.subject, ox.BlankNode) or isinstance(q.object, ox.BlankNode)}
    rewrite |= {_graph_iri(q) for q in change.add if not _fresh_blank(store, q)}
    rewrite -= change.drop
    remove = [q for q in change.remove if _graph_iri(q) not in rewrite | change.drop]
    add = [q for q in change.add if _graph_iri(q) not in rewrite]
    parts = [f"DROP SILENT GRAPH <{g}>" for g in sorted(change.drop)]
    for g in sorted(rewrite):
        content = {q for q in _pattern(store, graph=g) if q not in change.remove}
        content |= {q for q in change.add if _graph_iri(q) == g}
        parts.append(f"DROP SILENT GRAPH <{g}>")
        add.extend(content)
    if remove:
        parts.append("DELETE DATA {\n" + _block(remove) + "\n}")
    if add:
        parts.append("INSERT DATA {\n" + _block(add) + "\n}")
    return " ;\n".join(parts)


def _block(quads: Iterable[ox.Quad]) -> str:
    return "\n".join(f"GRAPH {q.graph_name} {{ {q.subject} {q.predicate} {q.object} }}" for q in quads)


class _ForkSafe:
    """The store, with each write call made under :func:`limits.writing` (reads stay unlocked).

    The derived graphs are rebuilt by many reads and a few writes; query processes may be forked during
    the reads, never during a write.
    """

    _WRITES = frozenset({"update", "load", "drop_graph", "apply"})

    def __init__(self, store: Store) -> None:
        self._store = store

    def __getattr__(self, name: str) -> Any:
        attr = getattr(self._store, name)
        if name not in self._WRITES:
            return attr

        def locked(*args: Any, **kwargs: Any) -> Any:
            with limits.writing():
                return attr(*args, **kwargs)
        return locked


_LOCKS: weakref.WeakKeyDictionary[Store, threading.Lock] = weakref.WeakKeyDictionary()
_LOCKS_LOCK = threading.Lock()


def _writer_lock(store: Store) -> threading.Lock:
    """One writer at a time per store: a change is computed and committed against the same state."""
    with _LOCKS_LOCK:
        return _LOCKS.setdefault(store, threading.Lock())


def warm_up() -> None:
    """Do once what the first write would otherwise pay for (~0.7 s): parse the rules' algebra, load the
    shapes and the ontology, and run the validator once on a one-node graph."""
    for path in rule_files():
        incremental.rule_shape(path)
    node = ID["warm-up"]
    sample = Graph()
    sample.add((node, RDF.type, AIKG.Neocloud))
    sample.add((node, RDFS.label, Literal("warm-up", lang="en")))
    validate.validate_graph(sample, focus_nodes=[node])


def write(store: Store, make_change: Callable[[], Change]) -> Outcome:
    """Compute a change, validate it on its neighbourhood, and commit it whole, or refuse it whole."""
    with _writer_lock(store):
        change = make_change()
        for g in change.graphs():
            if g in PROTECTED_GRAPHS:
                raise Forbidden(f"the write changes {g}, which is maintained by aikg itself",
                                errors=[{"graph": g}])
        result, validated = validate_change(store, change)
        if not result.conforms:
            raise ValidationFailed(
                f"the write was refused: {len(result.violations)} violation(s) of the shapes; "
                "nothing was changed", report=result,
                errors=[v.to_dict() for v in result.violations])
        _commit(store, change)
        return Outcome(change.kind, len(change.add), len(change.remove), change.graphs(), validated)


def commit_prepared(store: Store, make_change: Callable[[], Change], *, expect_version: int | None = None,
                    rebuild: bool = False) -> Outcome:
    """Commit a change its maker has validated itself, by the same path as every write: under the
    writer lock, with the write log, the generated graphs updated in the same transaction (or rebuilt).

    For aikg's own bulk writers (the Epoch import validates its whole data set in one pass and leaves
    out the rows that break a shape, which the per-write gate cannot do). ``make_change`` runs under
    the lock, so the delta is taken against the state it is committed to; with ``expect_version`` the
    commit is refused (:class:`Conflict`) when another write came in since the maker validated.
    ``rebuild`` skips following the change around its nodes: for a change that touches most of the
    store, rebuilding the generated graphs after it is the faster way.
    """
    with _writer_lock(store):
        if expect_version is not None and store.version != expect_version:
            raise Conflict("the store changed while the change was prepared; prepare it again")
        change = make_change()
        _commit(store, change, rebuild=rebuild)
        return Outcome(change.kind, len(change.add), len(change.remove), change.graphs(), [])


def _commit(store: Store, change: Change, *, rebuild: bool = False) -> None:
    """Commit a validated change as one update with the generated graphs' difference (writer lock held)."""
    text = commit_text(store, change)
    if not text.strip():
        return
    generated: str | None = None
    if not rebuild:
        try:
            # The inferred and derived graphs' difference goes into the same update as the data,
            # so no reader sees the data without what follows from it.
            generated = incremental.plan(store, change.remove, change.add)
        except incremental.NeedsRebuild:
            generated = None
    written = writelog.begin(store)
    with limits.writing():
        store.update(" ;\n".join(t for t in (text, generated) if t))
    if generated is None:
        rebuild_derived(_ForkSafe(store))
    writelog.record(store, written, change, generated)

