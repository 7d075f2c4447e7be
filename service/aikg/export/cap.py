"""A drawn graph cut to a size a person can read: the closest and best-connected nodes first.

A hub's neighbourhood is too large to draw whole (NVIDIA's two hops reach about 1,200 nodes on the
default store: at that size a force layout is a hairball and pans at a few frames a second). The graph
view asks for at most ``limit`` nodes and is told what was left out, so it can say so and let the
reader add a node's neighbours by clicking it.

Which nodes stay: the focus, then by hops from it (one hop before two), then by how many edges of the
whole selection they have (hubs before leaves), then by id so that the same request gives the same
drawing. Value qualifications (the ≈ of a figure) rank last: the view does not draw them.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Set
from dataclasses import dataclass

from aikg.export.budget import bounded, check
from aikg.export.model import Facts, GraphModel, assemble
from aikg.namespaces import AIKG

MAX_NODES = 2000
"""Largest ``limit`` a request may ask for."""

DEFAULT_NODES = 250
"""Nodes a view gets unless it asks for another number: room for a hub's one-hop neighbours and the
best connected of their own."""

_QUALIFICATION = str(AIKG.ValueQualification)


@dataclass(frozen=True)
class Capped:
    """The cut model, and how many nodes the whole selection had."""

    model: GraphModel
    total: int

    @property
    def truncated(self) -> bool:
        """True when nodes were left out."""
        return len(self.model.nodes) < self.total


def cap(
    model: GraphModel, limit: int, *, hops: Mapping[str, int] | None = None, focus: str | None = None
) -> Capped:
    """The model with at most ``limit`` nodes (see the module's docstring for which), and only the
    edges between nodes kept."""
    total = len(model.nodes)
    if total <= limit:
        return Capped(model, total)
    degree: Counter[str] = Counter()
    for e in bounded(model.edges.values(), "ranking nodes", every=4 * 1024):
        degree[e.source] += 1
        degree[e.target] += 1
    qualifications = {k for k, n in model.nodes.items() if _QUALIFICATION in n.types}
    keep = kept(model.nodes, limit, degree, qualifications, hops=hops, focus=focus)
    nodes = {k: n for k, n in model.nodes.items() if k in keep}
    edges = {k: e for k, e in model.edges.items() if e.source in keep and e.target in keep}
    return Capped(GraphModel(nodes, edges, model.vocab, model.titles), total)


def capped_model(
    facts: Facts, limit: int, *, hops: Mapping[str, int] | None = None, focus: str | None = None
) -> Capped:
    """What :func:`cap` of the whole unfolded model gives, with only the kept nodes built: the ranking
    needs each node's classes and edges, not its attributes, and building a node is most of the cost
    (the whole graph's 600 best connected of 5,470: 1.0 s -> 0.5 s)."""
    total = len(facts.drawn)
    if total <= limit:
        return Capped(assemble(facts, facts.drawn), total)
    degree: Counter[str] = Counter()
    for s, _, t in facts.links():
        degree[s] += 1
        degree[t] += 1
    qualifications = {s for s in facts.drawn if _QUALIFICATION in facts.types(s)}
    keep = kept(facts.drawn, limit, degree, qualifications, hops=hops, focus=focus)
    return Capped(assemble(facts, keep), total)


def kept(
    ids: Iterable[str],
    limit: int,
    degree: Mapping[str, int],
    qualifications: Set[str],
    *,
    hops: Mapping[str, int] | None = None,
    focus: str | None = None,
) -> set[str]:
    """The ``limit`` first of ``ids`` in the module docstring's order."""
    far = max(hops.values(), default=0) + 1 if hops else 0

    def rank(node_id: str) -> tuple[int, int, int, int, str]:
        return (
            node_id != focus,
            node_id in qualifications,
            hops.get(node_id, far) if hops else 0,
            -degree.get(node_id, 0),
            node_id,
        )

    keep = set(sorted(ids, key=rank)[:limit])
    check("ranking nodes")
    return keep
