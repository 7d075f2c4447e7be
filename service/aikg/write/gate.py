"""The SHACL gate: every write is one transaction, validated on its neighbourhood, committed whole or not.

A write is first turned into its exact delta (quads removed, quads added) without touching the store.
The nodes the delta touches, and the nodes pointing at them, are validated over a small data graph made
of their neighbourhood in the would-be state (plus the ontology, mixed in by the validator). If any
shape is violated the write is refused with the report and the store is untouched; otherwise the delta
is committed as ONE SPARQL update (one Oxigraph transaction), together with the difference it makes to
the inferred and derived graphs, computed around the nodes it touches (:mod:`aikg.knowledge.incremental`).
"""

from __future__ import annotations

import contextlib
import logging
import re
import threading
import time
from collections import defaultdict
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any, Protocol

import pyoxigraph as ox
from rdflib import BNode, Graph, Literal, URIRef
from rdflib.namespace import RDF, RDFS

from aikg.errors import (
    BadRequest,
    Conflict,
    Forbidden,
    QuerySyntaxError,
    TooManyRequests,
    ValidationFailed,
    WriteTimeout,
)
from aikg.knowledge import answers, incremental, validate
from aikg.knowledge.derive import rebuild_derived, rule_files
from aikg.namespaces import (
    AIKG,
    ANSWERS_GRAPH,
    BASE,
    DEFAULT_GRAPH,
    DERIVED_GRAPH,
    ID,
    INFERRED_GRAPH,
    PREFIXES,
    RDF_NODES,
    SHAPES_GRAPH,
    graphs_with,
    node,
)
from aikg.query import maintained
from aikg.query.runner import QueryRunner
from aikg.rdf import operations, tokens
from aikg.rdf.results import StoredTerm
from aikg.store import Deadline, Store, Term
from aikg.store.base import deadline_scope
from aikg.store.terms import graph_iri, rdflib_triple
from aikg.write import budget, matched, namespace, staging, terms
from aikg.write.writelog import WriteLog

log = logging.getLogger(__name__)

_VOCABULARY = tuple(ns for p, ns in PREFIXES.items() if p not in ("id", "graph"))
_RDF_TYPE = RDF_NODES.type
_NOT_DATA = frozenset(node(g) for g in (SHAPES_GRAPH, DERIVED_GRAPH, INFERRED_GRAPH, ANSWERS_GRAPH))
"""Graphs left out of the data validated: the shapes, and the computed graphs (stale until rebuilt)."""

Node = ox.NamedNode | ox.BlankNode

_RDFS, _OWL = str(PREFIXES["rdfs"]), str(PREFIXES["owl"])
_SCHEMA_PREDICATES = frozenset(
    ox.NamedNode(_RDFS + name) for name in ("subClassOf", "subPropertyOf", "domain", "range")
)
"""What says how a term relates to others: stated about aikg's terms, it changes every reader's answers."""


def vocabulary_statements(quads: Iterable[ox.Quad]) -> list[ox.Quad]:
    """The quads that would change a vocabulary aikg reads (its own terms, RDF's, RDFS's, OWL's…): a
    hierarchy, domain or range statement or any OWL statement about such a term, a term typed with an
    OWL class, or an OWL statement that links another term to one. One accepted write of
    ``aikg:Organization rdfs:subClassOf aikg:Person`` made every organization a person for every client;
    the vocabulary is the ontology's (``ontology/*.ttl``), which no write changes."""

    def ours(term: object) -> bool:
        return isinstance(term, ox.NamedNode) and term.value.startswith(_VOCABULARY)

    def owl(term: object) -> bool:
        return isinstance(term, ox.NamedNode) and term.value.startswith(_OWL)

    return [
        q
        for q in quads
        if (ours(q.subject) and (q.predicate in _SCHEMA_PREDICATES or owl(q.predicate) or owl(q.object)))
        or (owl(q.predicate) and ours(q.object))
    ]


def _refuse_vocabulary(change: Change) -> None:
    found = sorted(vocabulary_statements(change.add), key=str)
    if found:
        shown = "; ".join(f"{q.subject} {q.predicate} {q.object}" for q in found[:3])
        raise Forbidden(
            f"the write states {len(found)} statement(s) about the vocabulary ({shown}): aikg's classes "
            "and properties are defined by its ontology, and a data graph may not change them "
            "(rdfs:subClassOf, rdfs:subPropertyOf, rdfs:domain, rdfs:range or OWL about their terms); "
            "nothing was changed",
            errors=[{"subject": str(q.subject), "predicate": q.predicate.value} for q in found[:20]],
        )


def _refuse_unreadable(change: Change) -> None:
    """Statements no reader would find: a term the ontology lacks, a literal its datatype cannot read
    (:mod:`aikg.write.terms`)."""
    found = terms.violations(change.add)
    if found:
        raise ValidationFailed(
            f"the write was refused: {len(found)} statement(s) name a term aikg's ontology does not define "
            "or hold a literal its datatype cannot read; nothing was changed",
            errors=found[:100],
        )


@dataclass
class Change:
    """A write as its exact delta; ``kind`` names the operation for the response."""

    kind: str
    remove: set[ox.Quad] = field(default_factory=set)
    add: set[ox.Quad] = field(default_factory=set)
    drop: set[str] = field(default_factory=set)
    """Graphs removed entirely (their quads are in ``remove`` too, for validation)."""
    notes: list[str] = field(default_factory=list)
    """What the write did beyond its quads: a ``CLEAR ALL``'s reach, a silent operation skipped."""

    def graphs(self) -> list[str]:
        """The named graphs this change touches."""
        return sorted({graph_iri(q) for q in self.remove | self.add} | self.drop)


@dataclass
class Outcome:
    """What a committed write did."""

    kind: str
    added: int
    removed: int
    graphs: list[str]
    validated: list[str]
    created: bool = False
    """True when the write made a graph that did not exist before (a 201 on the Graph Store)."""
    notes: list[str] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        """The success body of a write (``notes`` only when there are some)."""
        body: dict[str, Any] = {
            "ok": True,
            "operation": self.kind,
            "added": self.added,
            "removed": self.removed,
            "graphs": self.graphs,
            "validated_nodes": len(self.validated),
        }
        if self.notes:
            body["notes"] = self.notes
        return body

    @classmethod
    def from_json(cls, body: dict[str, Any], *, created: bool = False) -> Outcome:
        """An outcome read back from :meth:`to_json` (a write done by another process)."""
        return cls(
            body["operation"],
            body["added"],
            body["removed"],
            body["graphs"],
            [""] * int(body["validated_nodes"]),
            created,
            list(body.get("notes", [])),
        )


PROTECTED_GRAPHS = graphs_with("protected")
"""Graphs no write through the gate may change: the ontology and shapes (from files), the computed
graphs, and the Epoch import's resolution links and import records and history (its own commit writes them).
What a *client* may write is narrower: :mod:`aikg.write.namespace`, checked where a client's write is
read (:func:`check_graph_iri`, :func:`update_change`)."""


def check_graph_iri(graph: str | None) -> str:
    """A client-named target graph: an absolute IRI of no graph aikg maintains (``write/namespace.py``)."""
    if not graph:
        raise BadRequest(
            "every write names the named graph it belongs to (?graph=<iri>, or ?default for "
            f"<{DEFAULT_GRAPH}>)"
        )
    if ":" not in graph:
        raise BadRequest("the graph IRI must be absolute")
    return namespace.check_writable(graph)


# --- building changes --------------------------------------------------------------------------------


def _pattern(
    store: Store, s: Node | None = None, o: Term | None = None, graph: str | None = None
) -> Iterator[ox.Quad]:
    """Quads matching a pattern (never in the unused default graph)."""
    return store.quads(s, None, o, graph)


def graph_change(store: Store, graph: str, quads: Iterable[ox.Quad], *, replace: bool) -> Change:
    """The delta of a Graph Store Protocol write: PUT (``replace``) or POST of ``quads`` into ``graph``."""
    new = set(quads)
    if replace:
        old = set(_pattern(store, graph=graph))
        return Change("replace", remove=old - new, add=new - old)
    existing = store.outgoing({q.subject for q in new}, graph=graph)
    return Change("add", add=new - set(existing))


def drop_change(store: Store, graph: str) -> Change:
    """The delta of deleting a whole graph."""
    return Change("delete", remove=set(_pattern(store, graph=graph)), drop={graph})


def update_change(
    store: Store,
    runner: QueryRunner,
    text: str,
    *,
    using: list[str] | None = None,
    using_named: list[str] | None = None,
) -> Change:
    """The delta of a SPARQL Update: a lone DELETE/INSERT … WHERE matched on the store itself
    (:mod:`aikg.write.matched`), anything else run operation by operation on a staging copy of the
    graphs it can reach (:mod:`aikg.write.staging`).

    What the text decides is decided first, at once (:mod:`aikg.rdf.operations`): an operation that is
    not SILENT and would change a graph aikg maintains. The staging store then holds every existing
    graph the update names (all of them when it reads the default graph — the union — or uses ``GRAPH
    ?var``; every client graph for ``CLEAR``/``DROP`` ``ALL``/``NAMED``); the update runs there, under the
    query time limit (in a worker process where the store has snapshots), and the difference
    before/after is the change. ``using`` / ``using_named`` are the protocol's ``using-graph-uri`` /
    ``using-named-graph-uri``: graphs of the store, empty when it holds none (nothing is fetched).
    """
    using, using_named = list(using or ()), list(using_named or ())
    for name, graphs in (("using-graph-uri", using), ("using-named-graph-uri", using_named)):
        for g in graphs:
            _absolute(g, name)  # before all else: a bad parameter is a 400 even with nothing to do
    if not text.strip():  # an empty request is a valid one (Update §3: zero operations), changing nothing
        return Change("update")
    runner.check(text, update=True)
    plan = _read(text)
    if (using or using_named) and plan.dataset_clause_used():
        raise BadRequest(
            "using-graph-uri / using-named-graph-uri cannot be combined with an update that "
            "has USING, USING NAMED or WITH (SPARQL 1.1 Protocol §2.2.3)"
        )
    plan.refusals(namespace.check_writable)
    known = frozenset(store.graphs())
    graphs = plan.graphs_to_stage(known, [*using, *using_named], namespace.client_graphs)
    steps = plan.steps(using=using, using_named=using_named)
    job: dict[str, Any] = {"matching": None, "steps": steps, "graphs": graphs, "default": plan.default}
    if plan.matches_patterns():  # a pattern can run away: where it can be stopped, under a query slot
        # A lone DELETE/INSERT … WHERE is matched on the store itself (aikg.write.matched), not on a
        # copy; the remote engine's blank nodes cannot be looked up one by one, so it stages.
        if store.kind != "remote":
            job["matching"] = plan.matching(known, using=using, using_named=using_named)
        removed, added, notes = runner.isolated(update_delta, job)
    else:  # INSERT/DELETE DATA and graph management: bounded work, no worker start, no slot taken
        with deadline_scope(runner.deadline()):
            removed, added, notes = staging.stage_update(
                store, steps=steps, graphs=graphs, default=plan.default
            )
    change = Change("update", remove=removed, add=added, notes=notes)
    for g in change.graphs():  # what GRAPH ?var reached is known only now
        namespace.check_writable(g, "update")
    return change


def _absolute(iri: str, parameter: str) -> None:
    """A protocol parameter naming a graph must be an absolute IRI (400 otherwise)."""
    try:
        ok = ":" in ox.NamedNode(iri).value
    except ValueError:
        ok = False
    if not ok:
        raise BadRequest(
            f"{parameter} must be an absolute IRI: {iri[:200]}", errors=[{"parameter": parameter}]
        )


def _read(text: str) -> operations.UpdatePlan:
    """The request's operations; a text that does not parse is a 400 that says where."""
    if tokens.first_keyword(text) in tokens.QUERY_FORMS:
        raise BadRequest("this is a query, not an update: send it to /sparql")
    try:
        return operations.read_update(text, base=BASE, default=str(DEFAULT_GRAPH))
    except QuerySyntaxError:
        try:
            ox.Store().update(text, base_iri=BASE)  # an empty scratch store: only to name the error
        except SyntaxError as exc:
            raise QuerySyntaxError(
                f"the update does not parse: {_first_line(exc)}", errors=_position(exc)
            ) from None
        except (OSError, RuntimeError, ValueError):
            pass
        raise


def update_delta(
    store: Store,
    *,
    matching: operations.Matching | None,
    steps: list[operations.Step],
    graphs: list[str],
    default: str,
) -> tuple[set[ox.Quad], set[ox.Quad], list[str]]:
    """The quads an update removes and adds, and notes on what it did: matched on ``store`` when it is
    one DELETE/INSERT … WHERE, else (or when the rewrite does not run) by running ``steps`` on a copy of
    ``graphs``.

    Module level, so a query worker can run it on a snapshot.
    """
    if matching is not None:
        try:
            removed, added = matched.matched_change(store, matching=matching)
            return removed, added, []
        except matched.Unmatched:
            pass
    return staging.stage_update(store, steps=steps, graphs=graphs, default=default)


def _position(exc: SyntaxError) -> list[dict[str, int]]:
    """Line and column of a parse error, from Oxigraph's ``error at L:C: ...`` message."""
    m = re.search(r"\b(\d+):(\d+)\b", str(exc))
    return [{"line": int(m.group(1)), "column": int(m.group(2))}] if m else []


def _first_line(exc: Exception) -> str:
    return (str(exc).splitlines() or ["error"])[0][:300]


# --- incremental validation ----------------------------------------------------------------------------


def _is_instance_node(term: StoredTerm) -> bool:
    """True for nodes that hold data (entities, n-ary nodes); False for vocabulary terms and literals."""
    if isinstance(term, ox.BlankNode):
        return True
    return isinstance(term, ox.NamedNode) and not term.value.startswith(_VOCABULARY)


class _PostState:
    """The store as it would be after a change, read only around given nodes."""

    def __init__(self, store: Store, change: Change) -> None:
        self.read, self.change = store, change
        self.out: dict[StoredTerm, list[ox.Quad]] = defaultdict(list)
        self.inc: dict[StoredTerm, list[ox.Quad]] = defaultdict(list)
        for q in change.add:
            self.out[q.subject].append(q)
            self.inc[q.object].append(q)

    def _keep(self, q: ox.Quad) -> bool:
        return q.graph_name not in _NOT_DATA and q not in self.change.remove

    def outgoing(self, nodes: set[StoredTerm]) -> list[ox.Quad]:
        """Quads with one of ``nodes`` as subject, after the change."""
        return [q for q in self.read.outgoing(nodes) if self._keep(q)] + [
            q for n in nodes for q in self.out.get(n, [])
        ]

    def incoming(
        self, nodes: set[StoredTerm], predicates: Iterable[ox.NamedNode] | None = None
    ) -> list[ox.Quad]:
        """Quads with one of ``nodes`` as object (only ``predicates`` when given), after the change."""
        only = None if predicates is None else set(predicates)
        return [q for q in self.read.incoming(nodes, predicates=only) if self._keep(q)] + [
            q for n in nodes for q in self.inc.get(n, []) if only is None or q.predicate in only
        ]


def focus_nodes(store: Store, change: Change) -> tuple[list[Node], Graph]:
    """The nodes to validate and their neighbourhood graph: every node the change touches, and what
    points at a node whose own statements it changes.

    A shape of a node reads the node's own statements, its incoming ones along inverse paths, and the
    types and statements of the nodes it points at (``sh:class``, SPARQL constraints such as a site's
    deal's date); only an inverse step past a path's first reads what else points at a node it points
    at (:func:`aikg.knowledge.validate.far_inverse_predicates`). So a changed statement's subject is
    validated with every node pointing at it, its object alone (its incoming statements changed) unless
    its predicate is one of those. A link to a hub (a new neocloud that competes with CoreWeave)
    validated every node pointing at the hub too: a 3-triple write took 1.5-2 s on the default store,
    most of it in SHACL over CoreWeave's neighbours."""
    post = _PostState(store, change)
    far = validate.far_inverse_predicates()
    subjects: set[StoredTerm] = set()
    objects: set[StoredTerm] = set()
    for q in change.remove | change.add:
        subjects.add(q.subject)
        if q.predicate.value in far:
            subjects.add(q.object)  # what points at it is read through it: validated with it
        elif q.predicate != _RDF_TYPE:
            objects.add(q.object)
    subjects = {t for t in subjects if _is_instance_node(t)}
    objects = {t for t in objects if _is_instance_node(t)}
    nodes = subjects | objects
    nodes.update(q.subject for q in post.incoming(subjects) if _is_instance_node(q.subject))
    data = Graph()
    neighbours: set[StoredTerm] = set()
    for q in post.outgoing(nodes):
        data.add(rdflib_triple(q))
        if _is_instance_node(q.object) and q.object not in nodes:
            neighbours.add(q.object)
    for q in post.outgoing(neighbours):
        data.add(rdflib_triple(q))
    # What the shapes read backwards (an import's aikg:finding, a price's aikg:hasPrice): without it a
    # focus node reached through its links (an import finding about the entity written) looks orphaned.
    inverse = [ox.NamedNode(p) for p in sorted(validate.inverse_path_predicates())]
    for q in post.incoming(nodes | neighbours, inverse):
        data.add(rdflib_triple(q))
    named = sorted((n for n in nodes if isinstance(n, ox.NamedNode)), key=lambda n: n.value)
    blank = sorted((n for n in nodes if isinstance(n, ox.BlankNode)), key=lambda n: n.value)
    return [*named, *blank], data


def validate_change(store: Store, change: Change) -> tuple[validate.ValidationResult, list[str]]:
    """Validate only what the change can affect, over its neighbourhood: every node it touches and
    every node pointing at them, blank nodes included."""
    nodes, data = focus_nodes(store, change)
    focus = [URIRef(n.value) if isinstance(n, ox.NamedNode) else BNode(n.value) for n in nodes]
    if any(isinstance(n, BNode) for n in focus):  # pyshacl validates given IRIs only: see validate_about
        return validate.validate_about(data, focus), [n.n3() for n in focus]
    iris = [n for n in focus if isinstance(n, URIRef)]
    return validate.validate_graph(data, focus_nodes=iris), [str(f) for f in iris]


# --- committing ----------------------------------------------------------------------------------------


def _fresh_blank(store: Store, q: ox.Quad) -> bool:
    return all(
        not isinstance(t, ox.BlankNode)
        or next(_pattern(store, s=t), None) is None
        and next(_pattern(store, o=t), None) is None
        for t in (q.subject, q.object)
    )


def commit_parts(store: Store, change: Change) -> tuple[set[str], list[ox.Quad], list[ox.Quad]]:
    """The change as the store commits it: graphs to drop, quads to remove, quads to add.

    Blank nodes added through an update are new nodes and a removal cannot name them, so a graph whose
    change touches an existing blank node is rewritten whole (dropped, then its new content added).
    """
    rewrite = {
        graph_iri(q)
        for q in change.remove
        if isinstance(q.subject, ox.BlankNode) or isinstance(q.object, ox.BlankNode)
    }
    rewrite |= {graph_iri(q) for q in change.add if not _fresh_blank(store, q)}
    rewrite -= change.drop
    remove = [q for q in change.remove if graph_iri(q) not in rewrite | change.drop]
    add = [q for q in change.add if graph_iri(q) not in rewrite]
    for g in sorted(rewrite):
        content = {q for q in _pattern(store, graph=g) if q not in change.remove}
        content |= {q for q in change.add if graph_iri(q) == g}
        add.extend(content)
    return set(change.drop) | rewrite, remove, add


def write_change(store: Store, change: Change, generated: incremental.Generated | None = None) -> None:
    """Commit ``change`` and ``generated`` (the generated graphs' difference) in one atomic write."""
    drop, remove, add = commit_parts(store, change)
    if generated is not None:
        remove += generated.remove
        add += generated.add
    store.apply(drop=drop, remove=remove, add=add)


def warm_up() -> None:
    """Do once what the first write would otherwise pay for (~0.7 s): parse the rules' algebra, load the
    shapes and the ontology, and run the validator once on a one-node graph."""
    for path in rule_files():
        incremental.rule_shape(path)
    for q in answers.declared():  # what each maintained answer reads (~0.5 s of parsing a query)
        assert q.maintained is not None
        maintained.shape(q.text, q.maintained.root)
    node = ID["warm-up"]
    sample = Graph()
    sample.add((node, RDF.type, AIKG.Neocloud))
    sample.add((node, RDFS.label, Literal("warm-up", lang="en")))
    validate.validate_graph(sample, focus_nodes=[node])


class Writes(Protocol):
    """The write operations every surface uses: done here by :class:`Gate`, or forwarded to the process
    that owns the store (:class:`aikg.serving.forward.ForwardingGate`)."""

    def update(
        self,
        text: str,
        *,
        deadline: Deadline | None = None,
        using: list[str] | None = None,
        using_named: list[str] | None = None,
    ) -> Outcome:
        """A SPARQL 1.1 Update, as one gated transaction (``using`` / ``using_named``: the protocol's
        ``using-graph-uri`` / ``using-named-graph-uri``)."""

    def put(
        self, graph: str, quads: Iterable[ox.Quad], *, replace: bool, deadline: Deadline | None = None
    ) -> Outcome:
        """Graph Store Protocol PUT (``replace``) or POST of ``quads`` into ``graph``."""

    def drop(self, graph: str, *, deadline: Deadline | None = None) -> Outcome:
        """Graph Store Protocol DELETE: the whole graph."""

    def state(self) -> str:
        """``ready`` when a write would be taken now, ``starting`` while the process that commits writes
        is starting (``/api/health`` reports it)."""


def _in_time(deadline: Deadline | None, change: Change) -> None:
    """Refuse to go on with a write past its deadline. Computing and validating a change cannot be
    interrupted, but nothing is committed past the deadline: the client has been (or is being) told
    the write did not happen."""
    if deadline is not None and deadline.expired():
        raise WriteTimeout(
            "the write could not be validated within its time limit (setting write_timeout) "
            "and was not committed; send it in smaller parts",
            errors=[{"limit": "write_timeout", "quads": len(change.add) + len(change.remove)}],
        )


SLOW = 1.0
"""Seconds past which a write logs where its time went (a client waiting that long wants to know)."""


class Phases:
    """The wall time of a write's phases, logged when the write was slow (past :data:`SLOW`)."""

    def __init__(self) -> None:
        self.began = self.last = time.monotonic()
        self.spent: list[tuple[str, float]] = []

    def mark(self, phase: str) -> None:
        """``phase`` ended now."""
        now = time.monotonic()
        self.spent.append((phase, now - self.last))
        self.last = now

    def report(self, what: str) -> None:
        """Log the phases of ``what`` if it took longer than :data:`SLOW` in all."""
        took = time.monotonic() - self.began
        if took > SLOW:
            parts = ", ".join(f"{phase} {seconds:.2f} s" for phase, seconds in self.spent)
            log.warning("%s took %.1f s: %s", what, took, parts or "nothing done")


class Gate:
    """The one commit path of a store: every write is computed, validated and committed here, one at
    a time (the writer lock), and recorded in the write log."""

    LOCK_WAIT = 30.0
    """Most seconds a write waits for the one before it to finish, when it has no deadline of its own."""
    RETRY_AFTER = 2
    """Seconds a write refused because others held the store is told to wait before it retries."""

    def __init__(self, store: Store, runner: QueryRunner, writelog: WriteLog) -> None:
        self.store, self.runner, self.writelog = store, runner, writelog
        self._lock = threading.Lock()
        self.costs = budget.Costs()
        """What recent writes cost: a write that cannot finish in time is refused before it starts."""
        self.committed: list[Callable[[], None]] = []
        """Called after every commit (the serving writer publishes a new snapshot then)."""
        self.whole = threading.Lock()
        """Held while a commit spans several transactions (the data, then the generated graphs rebuilt
        whole): a snapshot taken meanwhile would hold the data without what follows from it."""

    def state(self) -> str:
        """Always ``ready``: this gate commits in the process that holds the store."""
        return "ready"

    # -- the operations clients ask for ------------------------------------------------------------

    def update(
        self,
        text: str,
        *,
        deadline: Deadline | None = None,
        using: list[str] | None = None,
        using_named: list[str] | None = None,
    ) -> Outcome:
        """A SPARQL 1.1 Update, as one gated transaction."""
        return self.write(
            lambda: update_change(self.store, self.runner, text, using=using, using_named=using_named),
            deadline=deadline,
        )

    def put(
        self, graph: str, quads: Iterable[ox.Quad], *, replace: bool, deadline: Deadline | None = None
    ) -> Outcome:
        """Graph Store Protocol PUT (``replace``) or POST of ``quads`` into ``graph``."""
        created = not self.store.has_graph(graph)
        rows = list(quads)
        outcome = self.write(
            lambda: graph_change(self.store, graph, rows, replace=replace), deadline=deadline
        )
        outcome.created = created
        return outcome

    def drop(self, graph: str, *, deadline: Deadline | None = None) -> Outcome:
        """Graph Store Protocol DELETE: the whole graph."""
        return self.write(lambda: drop_change(self.store, graph), deadline=deadline)

    def write(self, make_change: Callable[[], Change], *, deadline: Deadline | None = None) -> Outcome:
        """Compute a change, validate it on its neighbourhood, and commit it whole, or refuse it whole."""
        wait = self.LOCK_WAIT if deadline is None else max(0.0, deadline.left())
        phases = Phases()
        if not self._lock.acquire(timeout=wait):
            # The store is busy with other clients' writes, not failing: the client should come back.
            raise TooManyRequests(
                f"other writes held the store for the {wait:.0f} s this one could wait "
                "(setting write_timeout); nothing was changed: retry later",
                errors=[{"limit": "write_timeout", "seconds": round(wait, 1)}],
                headers={"Retry-After": str(self.RETRY_AFTER)},
            )
        phases.mark("waiting for the writes before it")
        try:
            change = make_change()
            phases.mark("computing the change")
            _in_time(deadline, change)
            began, added, removed = time.monotonic(), len(change.add), len(change.remove)
            for g in change.graphs():
                if g in PROTECTED_GRAPHS:
                    raise Forbidden(
                        f"the write changes {g}, which is maintained by aikg itself", errors=[{"graph": g}]
                    )
            _refuse_vocabulary(change)
            _refuse_unreadable(change)
            self.costs.check(added, deadline, removed=removed)
            result, validated = validate_change(self.store, change)
            phases.mark("validating it")
            if not result.conforms:
                raise ValidationFailed(
                    f"the write was refused: {len(result.violations)} violation(s) of the shapes; "
                    "nothing was changed",
                    report=result,
                    errors=[v.to_dict() for v in result.violations],
                )
            _in_time(deadline, change)
            self._commit(change, deadline=deadline)
            phases.mark("committing it")
            self.costs.observe(added, time.monotonic() - began, removed=removed)
            return Outcome(
                change.kind,
                len(change.add),
                len(change.remove),
                change.graphs(),
                validated,
                notes=change.notes,
            )
        finally:
            self._lock.release()
            phases.report("a gated write")

    def commit(self, change: Change, *, expect_version: int | None = None, rebuild: bool = False) -> None:
        """Commit a change that was already validated (a dataset import), through the same path.

        With ``expect_version`` the commit is refused (:class:`Conflict`) when another write came in
        since the change was computed and validated against that version. ``rebuild`` skips following
        the change around its nodes: for a change touching most of the store, rebuilding the generated
        graphs after it is the faster way.
        """
        with self._lock:
            if expect_version is not None and self.store.version != expect_version:
                raise Conflict("the store changed while the change was prepared; prepare it again")
            self._commit(change, rebuild=rebuild)

    UPKEEP_TRIES = 3
    """Times :meth:`keep_answers` computes the kept answers again when writes came in meanwhile."""

    def keep_answers(self) -> int:
        """Compute the kept answers the store lacks or keeps for an earlier text (a store opened after a
        named query was declared maintained, or after its text changed) and commit them between clients'
        writes; the number of queries brought up to date. Computed outside the writer lock (seconds at
        1M, a minute at 10M), committed only if no write came in meanwhile (else computed again), in one
        transaction recorded as a write that touched no subject: no data changed, so readers' indexes
        follow it instead of rebuilding whole. Until then those queries answer with their own text."""
        for _ in range(self.UPKEEP_TRIES):
            queries = answers.stale(self.store)
            if not queries:
                return 0
            version = self.store.version
            remove, add = answers.refreshed(self.store, queries)
            with self._lock:
                if self.store.version != version:
                    continue  # a write came in: its upkeep did not follow these queries' rows
                before = self.writelog.begin()
                try:
                    self.store.apply(remove=remove, add=add)
                except BaseException:
                    self.writelog.abandon()
                    raise
                incremental.committed(self.store, version)
                self.writelog.record(before, Change("kept answers"), incremental.Generated([], []))
            for hook in self.committed:
                hook()
            return len(queries)
        return 0

    def _commit(self, change: Change, *, rebuild: bool = False, deadline: Deadline | None = None) -> None:
        """Commit ``change`` with what follows from it; with a ``deadline``, nothing is committed past
        it, nor a write whose full rebuild of the generated graphs would end past it."""
        store = self.store
        if not (change.drop or change.remove or change.add):
            return
        generated: incremental.Generated | None = None
        if not rebuild:
            try:
                # The inferred and derived graphs' difference goes into the same write as the data,
                # so no reader sees the data without what follows from it.
                generated = incremental.plan(store, change.remove, change.add)
            except incremental.NeedsRebuild:
                generated = None
        size = 0
        if generated is None and deadline is not None:
            size = store.count()
            self.costs.check_rebuild(size, deadline)
        _in_time(deadline, change)  # the last point where the write can be abandoned whole
        before = self.writelog.begin()
        try:
            with self.whole if generated is None else contextlib.nullcontext():
                version = store.version
                write_change(store, change, generated)
                if generated is not None:
                    incremental.committed(store, version)
                if generated is None:
                    started = time.monotonic()
                    rebuild_derived(store)
                    self.costs.observe_rebuild(size or store.count(), time.monotonic() - started)
        except BaseException:
            self.writelog.abandon()
            raise
        self.writelog.record(before, change, generated)
        for hook in self.committed:
            hook()
