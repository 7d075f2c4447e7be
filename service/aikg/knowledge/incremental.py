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
statements, so there is one definition of every rule. The result is written as a difference. When the
affected region is large (a hub), the change rewrites the hierarchy (``rdfs:subClassOf``), or blank nodes
are involved, the caller falls back to the full rebuild.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import pyoxigraph as ox
from rdflib import URIRef, Variable
from rdflib.namespace import RDF, RDFS
from rdflib.plugins.sparql.algebra import translateQuery
from rdflib.plugins.sparql.parser import parseQuery
from rdflib.plugins.sparql.parserutils import CompValue

from ..namespaces import AIKG, DERIVED_GRAPH, INFERRED_GRAPH
from ..store import Store
from ..store.terms import to_ox, to_rdflib
from .derive import GENERATED_GRAPHS, inference_files, rule_files, rule_iri

MAX_REGION = 5_000
"""Past this many affected nodes (a write next to a hub) a full rebuild is cheaper than the region."""

_GENERATED = frozenset(ox.NamedNode(g) for g in GENERATED_GRAPHS)
_DERIVED = ox.NamedNode(str(DERIVED_GRAPH))
_INFERRED = ox.NamedNode(str(INFERRED_GRAPH))
_HIERARCHY = (ox.NamedNode(str(RDFS.subClassOf)), ox.NamedNode(str(RDFS.subPropertyOf)))
_DERIVED_FOR = ox.NamedNode(str(AIKG.derivedFor))
_RULE = ox.NamedNode(str(AIKG.rule))


class NeedsRebuild(Exception):
    """The change cannot be followed locally; the caller rebuilds the generated graphs whole."""


@dataclass(frozen=True)
class RuleShape:
    """What a derivation rule reads, as far as incremental upkeep needs to know."""

    path: Path
    text: str
    iri: ox.NamedNode
    links: frozenset[ox.NamedNode]
    reach: int


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
            links.add(ox.NamedNode(str(p)))
            edges[s].add(o)
            edges[o].add(s)
    reach = _distances(edges, anchors[0])
    if not nodes <= reach.keys() | {anchors[0]}:
        raise NeedsRebuild(f"{path.name}: some node the rule reads is not linked to its anchor")
    return RuleShape(path, text, ox.NamedNode(str(rule_iri(path))), frozenset(links),
                     max(reach.values(), default=0))


def rule_shape(path: Path) -> RuleShape:
    """The link properties and reach of a derivation rule (cached per file version)."""
    return _shape(path, path.stat().st_mtime)


def _triple_patterns(node: object) -> Iterator[tuple]:
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


def _quads(store: Store, s: ox.Term | None = None, p: ox.NamedNode | None = None,
           o: ox.Term | None = None, g: ox.NamedNode | None = None) -> Iterator[ox.Quad]:
    """Quads matching a pattern as pyoxigraph quads, on either backend, skipping the default graph."""
    raw = getattr(store, "raw", None)  # the embedded store, also behind the gate's fork-safe proxy
    if isinstance(raw, ox.Store):
        for q in raw.quads_for_pattern(s, p, o, g):
            if not isinstance(q.graph_name, ox.DefaultGraph):
                yield q
        return
    for qs, qp, qo, qg in store.quads(to_rdflib(s), to_rdflib(p), to_rdflib(o),
                                      g.value if g is not None else None):
        yield ox.Quad(to_ox(qs), to_ox(qp), to_ox(qo), ox.NamedNode(str(qg)))


def _is_node(term: ox.Term) -> bool:
    return isinstance(term, ox.NamedNode | ox.BlankNode)


def _statements(store: Store, nodes: Iterable[ox.Term], skip: frozenset[ox.NamedNode]) -> list[ox.Quad]:
    return [q for n in nodes for q in _quads(store, s=n) if q.graph_name not in skip]


def _run(rule_text: str, quads: Iterable[ox.Quad], rule: ox.NamedNode | None = None) -> set[ox.Triple]:
    scratch = ox.Store()
    scratch.extend(quads)
    subs = {ox.Variable("rule"): rule} if rule is not None else None
    return set(scratch.query(rule_text, use_default_graph_as_union=True, substitutions=subs))


def _hierarchy(store: Store) -> list[ox.Quad]:
    return [q for p in _HIERARCHY for q in _quads(store, p=p) if q.graph_name not in _GENERATED]


def _write_difference(store: Store, graph: ox.NamedNode, old: set[ox.Triple], new: set[ox.Triple]) -> int:
    remove, add = old - new, new - old
    parts = []
    for verb, triples in (("DELETE", remove), ("INSERT", add)):
        if triples:
            body = "\n".join(f"{t.subject} {t.predicate} {t.object} ." for t in triples)
            parts.append(f"{verb} DATA {{ GRAPH {graph} {{\n{body}\n}} }}")
    if parts:
        store.update(" ;\n".join(parts))
    return len(remove) + len(add)


def _refresh_inferred(store: Store, subjects: set[ox.Term], hierarchy: list[ox.Quad]) -> int:
    """Recompute the closure of ``subjects``' statements (the inferred graph's triples about them)."""
    if not subjects:
        return 0
    facts = hierarchy + _statements(store, subjects, frozenset({_INFERRED}))
    new: set[ox.Triple] = set()
    for path in inference_files():
        new |= {t for t in _run(path.read_text(encoding="utf-8"), facts) if t.subject in subjects}
    old = {q.triple for s in subjects for q in _quads(store, s=s, g=_INFERRED)}
    return _write_difference(store, _INFERRED, old, new)


def _expand(store: Store, start: set[ox.Term], links: frozenset[ox.NamedNode], steps: int) -> set[ox.Term]:
    seen, frontier = set(start), set(start)
    for _ in range(steps):
        found: set[ox.Term] = set()
        for node in frontier:
            for p in links:
                found.update(q.object for q in _quads(store, s=node, p=p) if q.graph_name != _DERIVED)
                found.update(q.subject for q in _quads(store, p=p, o=node) if q.graph_name != _DERIVED)
        frontier = {n for n in found if _is_node(n)} - seen
        seen |= frontier
        if len(seen) > MAX_REGION:
            raise NeedsRebuild(f"the change reaches more than {MAX_REGION} nodes")
    return seen


def _refresh_rule(store: Store, shape: RuleShape, touched: set[ox.Term]) -> set[ox.Term]:
    """Recompute one rule's derivations anchored within its reach of ``touched``; the nodes changed."""
    anchors = _expand(store, touched, shape.links, shape.reach)
    region = _expand(store, anchors, shape.links, shape.reach)
    fresh = _run(shape.text, _statements(store, region, frozenset({_DERIVED})), shape.iri)
    keep = {t.subject for t in fresh if t.predicate == _DERIVED_FOR and t.object in anchors}
    new = {t for t in fresh if t.subject in keep}
    stale = {q.subject for a in anchors for q in _quads(store, p=_DERIVED_FOR, o=a, g=_DERIVED)}
    stale = {d for d in stale if any(True for _ in _quads(store, s=d, p=_RULE, o=shape.iri, g=_DERIVED))}
    old = {q.triple for d in stale for q in _quads(store, s=d, g=_DERIVED)}
    _write_difference(store, _DERIVED, old, new)
    return {t.subject for t in old ^ new}


def refresh(store: Store, removed: Iterable[ox.Quad], added: Iterable[ox.Quad]) -> int:
    """Update the inferred and derived graphs after ``removed``/``added`` were committed.

    Returns the number of generated triples written or removed. Raises :class:`NeedsRebuild` when the
    change has to be followed by a full rebuild instead.
    """
    changed = [q for q in (*removed, *added) if q.graph_name not in _GENERATED]
    if any(q.predicate in _HIERARCHY for q in changed):
        raise NeedsRebuild("the class or property hierarchy changed")
    if any(isinstance(t, ox.BlankNode) for q in changed for t in (q.subject, q.object)):
        raise NeedsRebuild("blank nodes cannot be named in a difference")
    subjects = {q.subject for q in changed}
    touched = subjects | {q.object for q in changed if _is_node(q.object)}
    hierarchy = _hierarchy(store)
    written = _refresh_inferred(store, subjects, hierarchy)
    derivations: set[ox.Term] = set()
    for path in rule_files():
        derivations |= _refresh_rule(store, rule_shape(path), touched)
    return written + len(derivations) + _refresh_inferred(store, derivations, hierarchy)
