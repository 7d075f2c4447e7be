"""Keep the inferred and derived graphs up to date around the nodes a write touched.

A full rebuild (:func:`aikg.knowledge.derive.rebuild_derived`) re-runs every rule over the whole store:
fine for a load, but it made a 100-triple write cost minutes on a million triples. After a write, only
the rule answers that can read a changed quad can change, and the rules themselves say which those are:

- the closure rules (``rules/inference``) read one subject's own statements, so the inferred triples of
  every subject whose statements changed are recomputed, and nothing else;
- a derivation rule reads its anchor (the node bound to ``aikg:derivedFor`` in its template) and nodes
  linked to it through the rule's *link properties* (triple patterns joining two node variables, e.g.
  ``aikg:usesAccelerator`` or ``aikg:workload``), at most the rule's *reach* steps away (the longest
  shortest path between its node variables). A derivation can change only when its anchor is within
  reach of a touched node; its inputs are within reach of the anchor.

Both are computed by running the same rule files on a small scratch store holding the affected nodes'
statements, so there is one definition of every rule. The reads see the store as it will be after the
change (the change is laid over them), so the result — a difference to the generated graphs — is
committed in the same update as the change. When the affected region is large (a hub), the change
rewrites the hierarchy (``rdfs:subClassOf``), or blank nodes other than new ones are involved, the
caller falls back to the full rebuild after committing the change.
"""

from __future__ import annotations

import weakref
from collections import defaultdict
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

import pyoxigraph as ox
from rdflib import URIRef, Variable
from rdflib.namespace import RDF
from rdflib.plugins.sparql.algebra import translateQuery
from rdflib.plugins.sparql.parser import parseQuery
from rdflib.plugins.sparql.parserutils import CompValue

from aikg.knowledge import answers
from aikg.knowledge.derive import GENERATED_GRAPHS, inference_files, rule_descriptions, rule_files, rule_iri
from aikg.namespaces import AIKG, AIKG_NODES, DERIVED_GRAPH, INFERRED_GRAPH, RDF_NODES, RDFS_NODES, node
from aikg.rdf.results import StoredTerm
from aikg.rdf.substitute import substitute
from aikg.store import Store

MAX_REGION = 50_000
"""Past this many affected nodes a full rebuild is the simpler way. At 1M triples on disk a region of
8,000 new entities took 5 s to follow and a full rebuild ~3 minutes, so the bound only catches
pathological regions (a hub reached through a link property)."""

_GENERATED = frozenset(ox.NamedNode(g) for g in GENERATED_GRAPHS)
_DERIVED = node(DERIVED_GRAPH)
_INFERRED = node(INFERRED_GRAPH)
_HIERARCHY = (RDFS_NODES.subClassOf, RDFS_NODES.subPropertyOf)
_DERIVED_FOR = AIKG_NODES.derivedFor
_RULE = AIKG_NODES.rule
_RULE_CLASS = AIKG_NODES.Rule
_RDF_TYPE = RDF_NODES.type


@dataclass(frozen=True)
class Generated:
    """The inferred and derived graphs' difference that follows a change (committed with it)."""

    remove: list[ox.Quad]
    add: list[ox.Quad]


class NeedsRebuild(Exception):
    """The change cannot be followed locally; the caller rebuilds the generated graphs whole."""


@dataclass(frozen=True)
class RuleShape:
    """What a derivation rule reads, as far as incremental upkeep needs to know."""

    path: Path
    text: str
    """The rule with ``?rule`` bound to its IRI (written in once: it cost ~0.3 ms a rule a write)."""
    iri: ox.NamedNode
    links: frozenset[ox.NamedNode]
    reach: int
    required: frozenset[tuple[ox.NamedNode, ox.NamedNode | None]]
    """Statements every answer of the rule reads: (predicate, None) for a predicate, (rdf:type, class)
    for a type. Where the region's statements lack one, the rule has no answer there, and it is not run
    (:func:`_derive`): a new neocloud's five triples ran all seven rules, ~6 ms of a small write."""


@lru_cache(maxsize=64)
def _shape(path: Path, mtime: float) -> RuleShape:
    text = path.read_text(encoding="utf-8")
    algebra = translateQuery(parseQuery(text)).algebra
    subjects = {t[0] for t in algebra.template}
    anchors = [t[2] for t in algebra.template if t[1] == AIKG.derivedFor]
    if len(subjects) != 1 or len(anchors) != 1 or not isinstance(anchors[0], Variable):
        raise NeedsRebuild(f"{path.name}: the template must describe one derivation node for one anchor")
    patterns = list(_triple_patterns(algebra))
    nodes = {t[0] for t in patterns if isinstance(t[0], Variable)}
    edges: dict[Variable, set[Variable]] = defaultdict(set)
    links = set()
    for s, p, o in patterns:
        joins = isinstance(o, Variable) and (o in nodes or sum(o in t for t in patterns) > 1)
        if isinstance(s, Variable) and joins and isinstance(p, URIRef) and p != RDF.type:
            links.add(node(p))
            edges[s].add(o)
            edges[o].add(s)
    reach = _distances(edges, anchors[0])
    if not nodes <= reach.keys() | {anchors[0]}:
        raise NeedsRebuild(f"{path.name}: some node the rule reads is not linked to its anchor")
    iri = node(rule_iri(path))
    return RuleShape(
        path,
        substitute(text, {"rule": iri}),
        iri,
        frozenset(links),
        max(reach.values(), default=0),
        frozenset(_required(algebra.p)),
    )


def _required(pattern: object) -> set[tuple[ox.NamedNode, ox.NamedNode | None]]:
    """The statements every solution of ``pattern`` matches (see :attr:`RuleShape.required`): those of
    its basic graph patterns that no OPTIONAL, MINUS, UNION branch, aggregate or other construct makes
    optional. Anything not known here requires nothing, so a rule is skipped only when it surely has no
    answer."""
    if not isinstance(pattern, CompValue):
        return set()
    name = pattern.name
    if name == "BGP":
        found: set[tuple[ox.NamedNode, ox.NamedNode | None]] = set()
        for _, p, o in pattern.triples:
            if isinstance(p, URIRef):
                found.add((node(p), None))
                if p == RDF.type and isinstance(o, URIRef):
                    found.add((node(p), node(o)))
        return found
    if name == "Join":
        return _required(pattern.p1) | _required(pattern.p2)
    if name in ("LeftJoin", "Minus"):
        return _required(pattern.p1)
    if name == "Union":
        return _required(pattern.p1) & _required(pattern.p2)
    if name in ("Filter", "Extend", "Project", "Distinct", "Reduced", "ToMultiSet", "OrderBy"):
        return _required(pattern.p)
    return set()  # an aggregate (one group even of nothing), VALUES, a graph pattern, a path…


def rule_shape(path: Path) -> RuleShape:
    """The link properties and reach of a derivation rule (cached per file version)."""
    return _shape(path, path.stat().st_mtime)


def _triple_patterns(node: object) -> Iterator[tuple[Any, Any, Any]]:
    if isinstance(node, CompValue):
        if node.name == "BGP":
            yield from node.triples
        for value in node.values():
            yield from _triple_patterns(value)
    elif isinstance(node, list | tuple):
        for value in node:
            yield from _triple_patterns(value)


def _distances(edges: dict[Variable, set[Variable]], start: Variable) -> dict[Variable, int]:
    """Steps from ``start`` to every variable linked to it."""
    found, frontier, depth = {start: 0}, {start}, 0
    while frontier:
        depth += 1
        frontier = {n for f in frontier for n in edges[f]} - found.keys()
        found.update(dict.fromkeys(frontier, depth))
    return found


class _After:
    """The store as it will be once a change and the generated triples planned so far are committed.

    Reads go to the store (before the change) and the change is laid over them, so the whole write —
    data and generated graphs — can be committed as one update, and no reader ever sees data without
    the values derived from it.
    """

    def __init__(self, store: Store, removed: set[ox.Quad], added: set[ox.Quad]) -> None:
        self.read = store
        self.removed, self.added = set(removed), set(added)
        self._cache: dict[frozenset[StoredTerm], list[ox.Quad]] = {}

    def stage(self, graph: ox.NamedNode, old: set[ox.Triple], new: set[ox.Triple]) -> None:
        """Plan replacing ``old`` by ``new`` in a generated graph (later reads see the new triples)."""
        self.removed |= {ox.Quad(t.subject, t.predicate, t.object, graph) for t in old - new}
        self.added |= {ox.Quad(t.subject, t.predicate, t.object, graph) for t in new - old}
        self._cache.clear()

    def _over(self, quads: Iterable[ox.Quad], extra: Iterable[ox.Quad]) -> list[ox.Quad]:
        kept = {q for q in quads if q not in self.removed}
        return [*kept, *(q for q in extra if q not in kept)]

    def statements(self, nodes: Iterable[StoredTerm]) -> list[ox.Quad]:
        """Every quad about ``nodes``, after the change."""
        key = frozenset(nodes)
        if key not in self._cache:
            added = [q for q in self.added if q.subject in key]
            self._cache[key] = self._over(self.read.outgoing(key), added)
        return self._cache[key]

    def linked(self, nodes: set[StoredTerm], links: frozenset[ox.NamedNode]) -> set[StoredTerm]:
        """Nodes one link-property step from ``nodes``, either way, outside the derived graph."""
        added = [q for q in self.added if q.predicate in links and (q.subject in nodes or q.object in nodes)]
        found: set[StoredTerm] = set()
        if not links:
            return set()
        near = self.read.outgoing(nodes, predicates=links) + self.read.incoming(nodes, predicates=links)
        for q in self._over(near, added):
            if q.graph_name == _DERIVED:
                continue
            if q.subject in nodes:
                found.add(q.object)
            if q.object in nodes:
                found.add(q.subject)
        return found

    def derivations(self, anchors: set[StoredTerm], rule: ox.NamedNode) -> set[StoredTerm]:
        """The rule's derivation nodes about ``anchors`` now (the change never writes the derived graph)."""
        if not anchors:
            return set()
        about = {
            q.subject for q in self.read.incoming(anchors, predicates=[_DERIVED_FOR], graph=_DERIVED.value)
        }
        return {
            q.subject
            for q in self.read.outgoing(about, predicates=[_RULE], graph=_DERIVED.value)
            if q.object == rule
        }

    def generated(self) -> Generated:
        """The generated graphs' part of the change."""
        return Generated(
            remove=[q for q in self.removed if q.graph_name in _GENERATED],
            add=[q for q in self.added if q.graph_name in _GENERATED],
        )


def _is_node(term: StoredTerm) -> bool:
    return isinstance(term, ox.NamedNode | ox.BlankNode)


def _run(texts: Iterable[str], quads: Iterable[ox.Quad]) -> set[ox.Triple]:
    """The triples the CONSTRUCT ``texts`` make from ``quads`` (one scratch store for all of them)."""
    scratch = ox.Store()
    scratch.extend(quads)
    found: set[ox.Triple] = set()
    for text in texts:
        answer = scratch.query(text, use_default_graph_as_union=True)
        assert isinstance(answer, ox.QueryTriples)
        found.update(answer)
    return found


@lru_cache(maxsize=1)
def _inference_texts() -> tuple[str, ...]:
    return tuple(path.read_text(encoding="utf-8") for path in inference_files())


def _close(after: _After, subjects: set[StoredTerm], hierarchy: list[ox.Quad]) -> None:
    """Plan the closure of ``subjects``' statements (the inferred graph's triples about them)."""
    if not subjects:
        return
    about = after.statements(subjects)
    facts = hierarchy + [q for q in about if q.graph_name != _INFERRED]
    new = {t for t in _run(_inference_texts(), facts) if t.subject in subjects}
    after.stage(_INFERRED, {q.triple for q in about if q.graph_name == _INFERRED}, new)


def _expand(
    after: _After, start: set[StoredTerm], links: frozenset[ox.NamedNode], steps: int
) -> set[StoredTerm]:
    seen, frontier = set(start), set(start)
    for _ in range(steps):
        if not frontier:
            break
        frontier = {n for n in after.linked(frontier, links) if _is_node(n)} - seen
        if any(isinstance(n, ox.BlankNode) for n in frontier):
            raise NeedsRebuild("blank nodes cannot be named in a difference")
        seen |= frontier
        if len(seen) > MAX_REGION:
            raise NeedsRebuild(f"the change reaches more than {MAX_REGION} nodes")
    return seen


def _derive(after: _After, shape: RuleShape, touched: set[StoredTerm]) -> set[StoredTerm]:
    """Plan one rule's derivations anchored within its reach of ``touched``; the derivation nodes changed."""
    anchors = _expand(after, touched, shape.links, shape.reach)
    region = _expand(after, anchors, shape.links, shape.reach)
    facts = [q for q in after.statements(region) if q.graph_name != _DERIVED]
    present: set[tuple[ox.NamedNode, object]] = {(q.predicate, None) for q in facts}
    present |= {(q.predicate, q.object) for q in facts if q.predicate == _RDF_TYPE}
    fresh = _run([shape.text], facts) if shape.required <= present else set()
    keep = {t.subject for t in fresh if t.predicate == _DERIVED_FOR and t.object in anchors}
    new = {t for t in fresh if t.subject in keep}
    stale = after.derivations(anchors, shape.iri)
    old = {q.triple for q in after.statements(stale) if q.graph_name == _DERIVED} if stale else set()
    after.stage(_DERIVED, old, new)
    return {t.subject for t in old ^ new}


def plan(
    store: Store, removed: Iterable[ox.Quad], added: Iterable[ox.Quad], *, kept_answers: bool = True
) -> Generated:
    """What brings the inferred and derived graphs up to date with a change not yet committed.

    Commit it in the same write as the change itself. Raises :class:`NeedsRebuild` when the
    change has to be followed by a full rebuild instead. Without ``kept_answers`` the maintained answers
    are left out: for a caller that only checks the derived values and commits nothing (an import's
    check before its commit, which plans them again).
    """
    changed = [q for q in (*removed, *added) if q.graph_name not in _GENERATED]
    if any(q.predicate in _HIERARCHY for q in changed):
        raise NeedsRebuild("the class or property hierarchy changed")
    _new_blank_nodes_only(store, removed, changed)
    subjects: set[StoredTerm] = {q.subject for q in changed}
    touched = subjects | {q.object for q in changed if _is_node(q.object)}
    after = _After(store, set(removed), set(added))
    hierarchy = _hierarchy(store)
    _close(after, subjects, hierarchy)
    derivations: set[StoredTerm] = set()
    for path in rule_files():
        derivations |= _derive(after, rule_shape(path), touched)
    _close(after, derivations | _describe_rules(after), hierarchy)
    if kept_answers:
        kept = answers.plan(store, after.removed, after.added)  # the maintained answers, after the above
        if kept is None:
            raise NeedsRebuild("the maintained answers cannot follow this change locally")
        after.removed |= kept[0]
        after.added |= kept[1]
    generated = after.generated()
    if any(isinstance(t, ox.BlankNode) for q in generated.remove for t in (q.subject, q.object)):
        raise NeedsRebuild("blank nodes cannot be named in a removal")
    return generated


def _new_blank_nodes_only(store: Store, removed: Iterable[ox.Quad], changed: list[ox.Quad]) -> None:
    """Raise :class:`NeedsRebuild` unless every blank node the change touches is new to the store.

    A new blank node (``[ ... ]`` or ``_:b`` in INSERT DATA, a fresh one per solution of an INSERT) has
    no statements and nothing generated about it yet, so its closure is only added and the embedded
    store keeps its identifier. That made such writes follow the change like any other instead of a
    full rebuild (40-76 s at the default store). An existing blank node cannot be named in a removal,
    and a remote engine's cannot be looked up one by one: those still rebuild.
    """
    blanks = {t for q in changed for t in (q.subject, q.object) if isinstance(t, ox.BlankNode)}
    if not blanks:
        return
    if store.kind == "remote" or any(
        isinstance(t, ox.BlankNode) for q in removed for t in (q.subject, q.object)
    ):
        raise NeedsRebuild("blank nodes cannot be named in a difference")
    for b in blanks:
        if next(store.quads(b), None) is not None or next(store.quads(None, None, b), None) is not None:
            raise NeedsRebuild("an existing blank node cannot be named in a difference")


def _describe_rules(after: _After) -> set[StoredTerm]:
    """The rules' descriptions go with the derivations: in the derived graph while it holds one
    (:func:`aikg.knowledge.derive.described`). Returns the rule nodes described or no longer described
    (their closure follows them)."""
    described = next(after.read.quads(None, _RDF_TYPE, _RULE_CLASS, _DERIVED.value), None) is not None
    added = any(q.graph_name == _DERIVED and q.predicate == _RULE for q in after.added)
    descriptions = set(rule_descriptions())
    if added and not described:
        after.stage(_DERIVED, set(), descriptions)
    elif described and not added and any(q.predicate == _RULE for q in after.removed):
        kept = (q for q in after.read.quads(None, _RULE, None, _DERIVED.value) if q not in after.removed)
        if next(kept, None) is not None:
            return set()
        after.stage(_DERIVED, descriptions, set())
    else:
        return set()
    return {t.subject for t in descriptions}


_KEPT_HIERARCHY: weakref.WeakKeyDictionary[Store, tuple[int, list[ox.Quad]]] = weakref.WeakKeyDictionary()
"""Each store's class and property hierarchy (outside the generated graphs), at the version it was read:
read for every write it was ~2 ms of a small one; a planned change never alters it (:func:`plan`
refuses one that does), so it is carried to the version the change's commit makes (:func:`committed`)."""


def _hierarchy(store: Store) -> list[ox.Quad]:
    version = store.version
    kept = _KEPT_HIERARCHY.get(store)
    if kept is not None and kept[0] == version:
        return kept[1]
    found = [q for q in store.with_predicates(_HIERARCHY) if q.graph_name not in _GENERATED]
    _KEPT_HIERARCHY[store] = (version, found)
    return found


def committed(store: Store, before: int) -> None:
    """A change :func:`plan` planned, with its generated part, was committed as one write: version
    ``before`` became ``before + 1``, with the same hierarchy. Any other write in between (the version
    moved further) leaves the hierarchy to be read again."""
    kept = _KEPT_HIERARCHY.get(store)
    if kept is not None and kept[0] == before and store.version == before + 1:
        _KEPT_HIERARCHY[store] = (before + 1, kept[1])
