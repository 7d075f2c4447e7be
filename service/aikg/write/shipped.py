"""The ontology, shapes and seeds a new version of aikg ships, loaded into a store that has older ones.

A service loads its files into an empty store only; one upgraded in place and restarted on its store
kept answering from the files it was first started with, and said nothing. Each graph loaded from files
has a record of what it was loaded from (:func:`aikg.knowledge.load.records`): at start, a graph whose
files changed is brought to them, a new file's graph added, and a graph whose files are gone dropped, in
one commit through the gate (the writer lock and the write log, as every write). The commit is the
difference, not the graphs rewritten: the gate keeps the generated graphs with it as with any write
(a changed ontology or shapes file rebuilds them whole), so a one-word fix does not cost a 10M store a
full rebuild. A store loaded before the records existed has none: its file graphs are compared by
content (blank nodes up to renaming) and, when they are the files, only recorded. Graphs a client or
an import wrote have no such record and are never touched here.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import pyoxigraph as ox
from rdflib import Graph
from rdflib.compare import isomorphic

from aikg.knowledge.load import content, digest, grouped, record_quads, records
from aikg.resources import data_files
from aikg.store import Store
from aikg.store.terms import rdflib_triple
from aikg.write.gate import Change, Gate


@dataclass
class Refresh:
    """What a start found between the files shipped and the store's graphs loaded from files."""

    changed: list[str] = field(default_factory=list)
    """Graphs whose content differs from their files now."""
    added: list[str] = field(default_factory=list)
    """Graphs of files the store never loaded."""
    gone: list[str] = field(default_factory=list)
    """Graphs loaded from files no longer shipped."""
    recorded: list[str] = field(default_factory=list)
    """Graphs that are their files already and had no record of it (a store loaded before the records)."""

    def __bool__(self) -> bool:
        return bool(self.changed or self.added or self.gone)

    def describe(self) -> str:
        """One line for the log."""
        parts = [f"{len(v)} {k} ({', '.join(v)})" for k, v in vars(self).items() if v]
        return "; ".join(parts) or "nothing changed"


def _blank(quads: set[ox.Quad]) -> bool:
    return any(isinstance(t, ox.BlankNode) for q in quads for t in (q.subject, q.object))


def _same(old: set[ox.Quad], new: set[ox.Quad]) -> bool:
    """Whether two versions of a graph state the same (blank nodes are named anew at each load)."""
    if not (_blank(old) or _blank(new)):
        return old == new
    if len(old) != len(new):
        return False
    graphs = []
    for quads in (old, new):
        g = Graph()
        for q in quads:
            g.add(rdflib_triple(q))
        graphs.append(g)
    return isomorphic(graphs[0], graphs[1])


def _as_stored(data: bytes, graph: str) -> set[ox.Quad]:
    """The file's statements as the engine keeps them (a decimal "1.50" is kept as 1.5), to compare
    with what the store holds."""
    scratch = ox.Store()
    target = ox.NamedNode(graph)
    scratch.load(data, format=ox.RdfFormat.TURTLE, to_graph=target)
    return set(scratch.quads_for_pattern(None, None, None, target))


def plan(store: Store) -> tuple[Refresh, Change]:
    """What to change so the store's file graphs are the files shipped, and their records with them."""
    shipped = grouped(data_files())
    kept = records(store)
    present = set(store.graphs())
    found = Refresh()
    change = Change("shipped files")
    digests: dict[str, str] = {}
    for graph, paths in shipped.items():
        data = content(paths)
        digests[graph] = digest(data)
        if kept.get(graph) == digests[graph] and graph in present:
            continue
        new = _as_stored(data, graph)
        old = set(store.quads(graph=graph)) if graph in present else set()
        if _same(old, new):
            found.recorded.append(graph)
        elif _blank(old) or _blank(new):  # a removal cannot name a stored blank node: the graph anew
            found.changed.append(graph)
            change.drop.add(graph)
            change.remove |= old
            change.add |= new
        else:
            (found.changed if graph in present else found.added).append(graph)
            change.remove |= old - new
            change.add |= new - old
    for graph in sorted(g for g in kept if g not in shipped):
        found.gone.append(graph)
        if graph in present:
            change.drop.add(graph)
            change.remove |= set(store.quads(graph=graph))
    touched = {*found.changed, *found.added, *found.gone, *found.recorded}
    change.remove |= set(record_quads({g: d for g, d in kept.items() if g in touched}))
    change.add |= set(record_quads({g: digests[g] for g in touched if g in digests}))
    return found, change


def refresh(gate: Gate) -> Refresh:
    """Bring the store's file graphs up to the files shipped, in one commit (nothing when they are)."""
    found, change = plan(gate.store)
    if change.add or change.remove or change.drop:
        gate.commit(change)
    return found
