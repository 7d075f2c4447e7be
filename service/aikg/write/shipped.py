"""The ontology, shapes and seeds a new version of aikg ships, loaded into a store that has older ones.

A service loads its files into an empty store only; one upgraded in place and restarted on its store
kept answering from the files it was first started with, and said nothing. Each graph loaded from files
has a record of what it was loaded from (:func:`aikg.knowledge.load.records`): at start, a graph whose
files changed is replaced, a new file's graph added, and a graph whose files are gone dropped, in one
commit through the gate (the writer lock and the write log, as every write), the generated graphs
rebuilt after it. A store loaded before the records existed has none, so each of its file graphs is
replaced once by its current files (the same content, when nothing changed). Graphs a client or an
import wrote have no such record and are never touched here.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import pyoxigraph as ox

from aikg.knowledge.load import content, digest, grouped, record_quads, records
from aikg.resources import data_files
from aikg.store import Store
from aikg.write.gate import Change, Gate


@dataclass
class Refresh:
    """What a start found between the files shipped and the store's graphs loaded from files."""

    changed: list[str] = field(default_factory=list)
    """Graphs whose files differ from those they were loaded from (or that have no record yet)."""
    added: list[str] = field(default_factory=list)
    """Graphs of files the store never loaded."""
    gone: list[str] = field(default_factory=list)
    """Graphs loaded from files no longer shipped."""

    def __bool__(self) -> bool:
        return bool(self.changed or self.added or self.gone)

    def describe(self) -> str:
        """One line for the log."""
        parts = [f"{len(v)} {k} ({', '.join(v)})" for k, v in vars(self).items() if v]
        return "; ".join(parts) or "nothing changed"


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
        (found.changed if graph in present else found.added).append(graph)
        change.drop.add(graph)
        change.add |= {
            q
            if not isinstance(q.graph_name, ox.DefaultGraph)
            else ox.Quad(q.subject, q.predicate, q.object, ox.NamedNode(graph))
            for q in ox.parse(data, format=ox.RdfFormat.TURTLE)
        }
    found.gone = sorted(g for g in kept if g not in shipped)
    change.drop |= {g for g in found.gone if g in present}
    touched = set(found.changed) | set(found.added) | set(found.gone)
    change.remove |= set(record_quads({g: d for g, d in kept.items() if g in touched}))
    change.add |= set(record_quads({g: digests[g] for g in touched if g in digests}))
    return found, change


def refresh(gate: Gate) -> Refresh:
    """Bring the store's file graphs up to the files shipped, in one commit (nothing when they are)."""
    found, change = plan(gate.store)
    if found:
        gate.commit(change, rebuild=True)
    return found
