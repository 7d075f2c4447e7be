"""The maintained answers: kept rows of the named queries declared ``# maintained:`` (issue 49).

Built whole with the other generated graphs (:func:`rebuild`: each query's own text over the store) and
kept up to date by each gated write, in the same transaction (:func:`plan`, called by
:func:`aikg.knowledge.incremental.plan`). A row belongs to one *root* (the value of the declared root
variable) and reads statements of nodes at most ``reach`` steps from it, a step being any of the query's
own predicates either way. So a changed statement of node ``s`` can change only the rows of roots within
``reach`` of ``s`` (before or after the change), and those rows are recomputed by the same query text on
a scratch store of the statements within ``reach`` of them, as the change leaves them: one definition of
each answer, and a small write stays small. A document is joined to its facts by the graph it names, not
by a predicate: a changed statement of a document reaches every node of that graph. The reading side is
:mod:`aikg.query.maintained`.

A row is a node named by a digest of its values, so rows a write leaves as they were are neither removed
nor added; its values are a line of a band, consecutive lines in the query's order
(:mod:`aikg.knowledge.bands`), so a page is read from the bands it falls in. A change to a class (a
node something is typed with) that a query reads, or a change reaching more than :data:`MAX_ROOTS`
roots, is not followed here: the caller rebuilds the generated graphs whole.
"""

from __future__ import annotations

import contextvars
import os
from collections.abc import Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor

import pyoxigraph as ox

from aikg.knowledge import bands
from aikg.namespaces import ANSWERS_GRAPH, RDF_NODES, node
from aikg.query import maintained
from aikg.query.named import NamedQuery, load_queries
from aikg.rdf.results import QueryResult, StoredTerm
from aikg.store import Store

MAX_ROOTS = 20_000
"""Past this many roots for one write (a hub's own label changed) the whole rebuild is the simpler way."""

_GRAPH = node(ANSWERS_GRAPH)
_TYPE = RDF_NODES.type
_NAMED_GRAPH = node("https://w3id.org/aikg/ontology#namedGraph")


def declared() -> list[NamedQuery]:
    """The named queries whose rows are kept, by name."""
    return sorted((q for q in load_queries().values() if q.maintained), key=lambda q: q.name)


def _mark(q: NamedQuery) -> ox.Triple:
    return ox.Triple(maintained.query_node(q.name), maintained.DIGEST, ox.Literal(maintained.digest(q)))


def rebuild(store: Store, *, threads: int | None = None) -> int:
    """Compute every maintained answer over the whole store into the answers graph; its size."""
    return store.replace_graph(str(ANSWERS_GRAPH), _computed(store, declared(), threads))


def stale(store: Store) -> list[NamedQuery]:
    """The declared queries whose rows ``store`` does not keep for their current text: declared after its
    generated graphs were built, or whose text (or the rows' layout) changed since."""
    return [q for q in declared() if not maintained.is_kept(store, q)]


def refreshed(
    store: Store, queries: Sequence[NamedQuery], *, threads: int | None = None
) -> tuple[set[ox.Quad], set[ox.Quad]]:
    """The answers graph's difference that keeps ``queries``' rows for their current text, computed over
    the whole store (their rows and marks of before out, their rows as the store answers now in; other
    queries' rows untouched): quads to remove and to add."""
    fresh = _in_graph(_computed(store, queries, threads))
    graph = str(ANSWERS_GRAPH)
    nodes = [maintained.query_node(q.name) for q in queries]
    rows = {r.subject for n in nodes for r in store.quads(None, maintained.OF, n, graph)}
    old = set(store.outgoing(rows, graph=graph)) if rows else set()
    old.update(m for n in nodes for m in store.quads(n, maintained.DIGEST, None, graph))
    return old - fresh, fresh - old


def _computed(store: Store, queries: Sequence[NamedQuery], threads: int | None) -> set[ox.Triple]:
    """The answers graph's triples of ``queries`` (their rows and marks), over the whole store.

    The queries run side by side, one thread each up to ``threads`` (by default the cores this process
    may use): each reads a whole kind of node, the engine evaluates without Python's lock, and one after
    another they were most of a load's last phase (at 1M under load 13: 29 s of queries on one core)."""
    threads = max(1, min(len(queries), threads or len(os.sched_getaffinity(0))))
    with ThreadPoolExecutor(max_workers=threads, thread_name_prefix="aikg-answers") as pool:
        # each in the caller's context: a deadline bounding the caller's reads bounds these too
        answered = [pool.submit(contextvars.copy_context().run, _answer, store, q) for q in queries]
        results = [a.result() for a in answered]
    triples: set[ox.Triple] = set()
    for q, result in zip(queries, results, strict=True):
        triples |= bands.built(bands.Rows(q, result.variables, result.rows))
        triples.add(_mark(q))
    return triples


def _answer(store: Store, q: NamedQuery) -> QueryResult:
    return store.query(q.text)


class _View:
    """The store as it will be once ``removed`` and ``added`` are committed (the answers graph aside).

    What it reads of the store is kept for the queries after the first: a small write's nodes are read
    once, not once per kept query (a 5-triple write with ten kept queries: 29 reads of the same node)."""

    def __init__(
        self, store: Store, removed: set[ox.Quad], added: set[ox.Quad], links: frozenset[ox.NamedNode]
    ) -> None:
        """``links``: every predicate a step may take, of any of the queries (incoming reads are of these)."""
        self.store, self.removed, self.links = store, removed, links
        self.added_out: dict[StoredTerm, list[ox.Quad]] = {}
        self.added_in: dict[StoredTerm, list[ox.Quad]] = {}
        for q in added:
            if q.graph_name != _GRAPH:
                self.added_out.setdefault(q.subject, []).append(q)
                self.added_in.setdefault(q.object, []).append(q)
        self._outs: dict[StoredTerm, list[ox.Quad]] = {}
        self._ins: dict[StoredTerm, list[ox.Quad]] = {}
        self._described: dict[ox.NamedNode, set[StoredTerm]] = {}

    def _kept(self, quads: Iterable[ox.Quad]) -> list[ox.Quad]:
        return [q for q in quads if q.graph_name != _GRAPH and q not in self.removed]

    def _stored_out(self, nodes: set[StoredTerm]) -> list[ox.Quad]:
        """The store's statements of ``nodes`` (every predicate), as before the change."""
        missing = nodes - self._outs.keys()
        if missing:
            for n in missing:
                self._outs[n] = []
            for q in self.store.outgoing(missing):
                self._outs[q.subject].append(q)
        return [q for n in nodes for q in self._outs[n]]

    def _stored_in(self, nodes: set[StoredTerm]) -> list[ox.Quad]:
        """The store's statements naming ``nodes`` by one of :attr:`links`, as before the change."""
        missing = nodes - self._ins.keys()
        if missing:
            for n in missing:
                self._ins[n] = []
            for q in self.store.incoming(missing, predicates=self.links):
                self._ins[q.object].append(q)
        return [q for n in nodes for q in self._ins[n]]

    def graphs_named(self, docs: set[StoredTerm]) -> set[ox.NamedNode]:
        """The graphs ``docs`` name (``aikg:namedGraph``), before or after the change."""
        said = [q for q in self._stored_out(docs) if q.predicate == _NAMED_GRAPH]
        said += [q for n in docs for q in self.added_out.get(n, ()) if q.predicate == _NAMED_GRAPH]
        return {q.object for q in said if isinstance(q.object, ox.NamedNode)}

    def described_in(self, graphs: set[ox.NamedNode]) -> set[StoredTerm]:
        """The subjects of ``graphs``' statements, before or after the change."""
        found: set[StoredTerm] = set()
        for g in graphs:
            if g not in self._described:
                self._described[g] = {q.subject for q in self.store.quads(graph=g.value)}
            found |= self._described[g]
        found |= {s for s, quads in self.added_out.items() if any(q.graph_name in graphs for q in quads)}
        return found

    def outgoing(self, nodes: set[StoredTerm]) -> list[ox.Quad]:
        extra = [q for n in nodes for q in self.added_out.get(n, ())]
        return self._kept(self._stored_out(nodes)) + extra

    def incoming(self, nodes: set[StoredTerm], predicates: Iterable[ox.NamedNode]) -> list[ox.Quad]:
        """Statements naming ``nodes`` as their object by one of ``predicates`` (of :attr:`links`), after
        the change."""
        wanted = set(predicates)
        extra = [q for n in nodes for q in self.added_in.get(n, ()) if q.predicate in wanted]
        return self._kept(q for q in self._stored_in(nodes) if q.predicate in wanted) + extra

    def neighbours(
        self,
        nodes: set[StoredTerm],
        links: frozenset[ox.NamedNode],
        *,
        after: bool,
        ways: tuple[str, ...] = ("out", "in"),
    ) -> set[StoredTerm]:
        """Nodes one link step from ``nodes`` (``out``: objects of their links, ``in``: subjects linking to
        them), before or after the change."""
        out = [q for q in self._stored_out(nodes) if q.predicate in links] if "out" in ways else []
        into = [q for q in self._stored_in(nodes) if q.predicate in links] if "in" in ways else []
        if after:
            out = self._kept(out) + [
                q for n in nodes for q in self.added_out.get(n, ()) if q.predicate in links and "out" in ways
            ]
            into = self._kept(into) + [
                q for n in nodes for q in self.added_in.get(n, ()) if q.predicate in links and "in" in ways
            ]
        else:
            out = [q for q in out if q.graph_name != _GRAPH]
            into = [q for q in into if q.graph_name != _GRAPH]
        found = {q.object for q in out} | {q.subject for q in into}
        return {n for n in found if isinstance(n, ox.NamedNode | ox.BlankNode)}


def _region(
    view: _View, roots: set[StoredTerm], links: frozenset[ox.NamedNode], reach: int, *, after: bool
) -> set[StoredTerm]:
    """The nodes whose statements the rows of ``roots`` may read: one link step either way (a quotation
    naming a claim, a derivation for a run), then outward only (a run's model, the model's developer)."""
    seen = set(roots) | view.neighbours(set(roots), links, after=after)
    frontier = set(seen)
    for _ in range(reach - 1):
        frontier = view.neighbours(frontier, links, after=after, ways=("out",)) - seen
        if not frontier:
            break
        seen |= frontier
    return seen


def _reaching(
    view: _View, subjects: set[StoredTerm], links: frozenset[ox.NamedNode], reach: int, *, after: bool
) -> set[StoredTerm]:
    """The nodes whose :func:`_region` holds one of ``subjects``: back along outward links (nodes linking
    to them) ``reach - 1`` times, then one step either way. Not both ways at every step: at reach 2 that
    made a new run on a hub chip a neighbour of every other run on it."""
    seen, frontier = set(subjects), set(subjects)
    for _ in range(reach - 1):
        frontier = view.neighbours(frontier, links, after=after, ways=("in",)) - seen
        if not frontier:
            break
        seen |= frontier
    return seen | view.neighbours(seen, links, after=after)


def plan(
    store: Store, removed: set[ox.Quad], added: set[ox.Quad]
) -> tuple[set[ox.Quad], set[ox.Quad]] | None:
    """The answers graph's difference that follows a change (data and generated graphs, not committed
    yet): quads to remove and to add, committed in the same write; None when it cannot be followed here
    and the generated graphs must be rebuilt whole."""
    queries = [q for q in declared() if maintained.is_kept(store, q)]
    if not queries:
        return set(), set()
    links = frozenset().union(*(_shape(q).predicates for q in queries)) - {_TYPE}
    view = _View(store, removed, added, links)
    changed = [q for q in (*removed, *added) if q.graph_name != _GRAPH]
    old: set[ox.Quad] = set()
    new: set[ox.Quad] = set()
    for q in queries:
        diff = _plan_one(store, view, q, changed)
        if diff is None:
            return None
        old |= diff[0]
        new |= diff[1]
    return old - new, new - old


def _shape(q: NamedQuery) -> maintained.Shape:
    assert q.maintained is not None
    return maintained.shape(q.text, q.maintained.root)


def _plan_one(
    store: Store, view: _View, q: NamedQuery, changed: list[ox.Quad]
) -> tuple[set[ox.Quad], set[ox.Quad]] | None:
    assert q.maintained is not None
    shape = maintained.shape(q.text, q.maintained.root)
    relevant = [c for c in changed if c.predicate in shape.predicates]
    if not relevant:
        return set(), set()
    subjects: set[StoredTerm] = {c.subject for c in relevant}
    if _NAMED_GRAPH in shape.predicates:
        # A document is read through the graph it names (?doc aikg:namedGraph ?g . GRAPH ?g { ... }),
        # which no link joins to the nodes that graph describes: a change to a document (its title, its
        # default certainty, the graph it names) reaches the rows of every node of that graph.
        subjects |= view.described_in(view.graphs_named(subjects))
        if len(subjects) > MAX_ROOTS:
            return None
    # A class's own statements (its label, its superclasses) reach every instance: rebuild instead.
    if any(
        next(store.quads(None, _TYPE, s), None) is not None for s in subjects if isinstance(s, ox.NamedNode)
    ):
        return None
    links = shape.predicates - {_TYPE}
    reach = q.maintained.reach
    near = _reaching(view, subjects, links, reach, after=False) | _reaching(
        view, subjects, links, reach, after=True
    )
    root = maintained.column(q.maintained.root)
    named: set[StoredTerm] = {maintained.kept_value(n) for n in near}
    # This query's rows only: a column's predicate is shared by every query with a variable of that name
    # (models-trained-on's upkeep of a run took largest-training-runs' rows of that run with its own).
    prefix = maintained.row_prefix(q.name)
    kept_rows = {
        r.subject
        for r in store.incoming(named, predicates=[root], graph=str(ANSWERS_GRAPH))
        if isinstance(r.subject, ox.NamedNode) and r.subject.value.startswith(prefix)
    }
    had = {
        n
        for r in store.outgoing(kept_rows, predicates=[root], graph=str(ANSWERS_GRAPH))
        if (n := maintained.kept_node(r.object)) is not None
    }
    roots = had | _roots(view, near - had, shape)
    if len(roots) > MAX_ROOTS:
        return None
    fresh = _rows(view, q, shape, roots, links, reach) if roots else bands.Rows(q, (), ())
    gone, new = bands.followed(store, {r for r in kept_rows if isinstance(r, ox.NamedNode)}, fresh)
    return _in_graph(gone), _in_graph(new)


def _roots(view: _View, candidates: set[StoredTerm], shape: maintained.Shape) -> set[StoredTerm]:
    """The candidates that have, after the change, every statement each root has (and one of the
    classes a root has one of, when the query says)."""
    have: dict[StoredTerm, set[tuple[ox.NamedNode, StoredTerm | None]]] = {}
    for s in view.outgoing(candidates):
        have.setdefault(s.subject, set()).update({(s.predicate, None), (s.predicate, s.object)})
    if shape.incoming:  # (predicate, None) for a statement naming the candidate: an owner's cluster
        named: dict[StoredTerm, set[ox.NamedNode]] = {}
        for s in view.incoming(candidates, shape.incoming):
            named.setdefault(s.object, set()).add(s.predicate)
        have = {c: facts for c, facts in have.items() if shape.incoming <= named.get(c, set())} | {
            c: set() for c in named if c not in have and shape.incoming <= named[c] and not shape.required
        }
    return {
        c
        for c, facts in have.items()
        if all((p, o) in facts for p, o in shape.required)
        and (not shape.classes or any((_TYPE, k) in facts for k in shape.classes))
    }


def _rows(
    view: _View,
    q: NamedQuery,
    shape: maintained.Shape,
    roots: set[StoredTerm],
    links: frozenset[ox.NamedNode],
    reach: int,
) -> bands.Rows:
    """``q``'s rows of ``roots``, by its own text on a scratch store of what they read after the change."""
    region = _region(view, roots, links, reach, after=True)
    facts = [s for s in view.outgoing(region) if s.predicate in shape.predicates]
    # Classes typing the region (their labels, the hierarchy above them) and the documents naming the
    # region's graphs: read by some queries, and not linked by a query's own predicates.
    classes = {s.object for s in facts if s.predicate == _TYPE}
    facts += [s for s in view.outgoing(classes) if s.predicate in shape.predicates]
    if _NAMED_GRAPH in shape.predicates:
        graphs: set[StoredTerm] = {s.graph_name for s in facts if isinstance(s.graph_name, ox.NamedNode)}
        # as the change leaves them: an import's new graph comes with its new document in the same write
        docs: set[StoredTerm] = {s.subject for s in view.incoming(graphs, [_NAMED_GRAPH])}
        said = [s for s in view.outgoing(docs) if s.predicate in shape.predicates]
        # and what the documents name (a default certainty's rank: aikg:Likely aikg:confidenceRank 1)
        named: set[StoredTerm] = {
            s.object for s in said if isinstance(s.object, ox.NamedNode) and s.predicate != _TYPE
        }
        facts += said + [s for s in view.outgoing(named) if s.predicate in shape.predicates]
    scratch = ox.Store()
    scratch.extend(facts)
    scratch.extend({ox.Quad(s.subject, s.predicate, s.object, ox.DefaultGraph()) for s in facts})
    answer = scratch.query(q.text)
    assert isinstance(answer, ox.QuerySolutions)
    variables = [v.value for v in answer.variables]
    at = variables.index(q.maintained.root if q.maintained else "")
    rows = [tuple(row[i] for i in range(len(variables))) for row in answer]
    return bands.Rows(q, variables, (r for r in rows if r[at] in roots))


def _in_graph(triples: Iterable[ox.Triple]) -> set[ox.Quad]:
    return {ox.Quad(t.subject, t.predicate, t.object, _GRAPH) for t in triples}
