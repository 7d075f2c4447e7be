"""Reading the statements around a set of nodes, batched the way each backend likes it.

The write path (the SHACL gate, the incremental upkeep of generated graphs) reads the neighbourhood of
the nodes a write touches. In-process, an index lookup per node costs microseconds; on a remote engine
each lookup is an HTTP round trip of milliseconds, so the same reads go as a few queries with a
``VALUES`` block of nodes instead. Results are pyoxigraph quads either way; the default graph (unused
by aikg) is skipped.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

import pyoxigraph as ox

from aikg.store.base import Store
from aikg.store.terms import to_ox

Nodes = Iterable[ox.NamedNode | ox.BlankNode | ox.Literal]
Predicates = Iterable[ox.NamedNode] | None


class Embedded:
    """Index lookups on the embedded store, node by node."""

    def __init__(self, raw: ox.Store) -> None:
        self.raw = raw

    def _quads(self, s: ox.Term | None = None, p: ox.NamedNode | None = None, o: ox.Term | None = None,
               g: ox.NamedNode | None = None) -> Iterator[ox.Quad]:
        quads = self.raw.quads_for_pattern(s, p, o, g)
        return (q for q in quads if not isinstance(q.graph_name, ox.DefaultGraph))

    def outgoing(self, nodes: Nodes, *, predicates: Predicates = None,
                 graph: ox.NamedNode | None = None) -> list[ox.Quad]:
        """Quads with one of ``nodes`` as subject (only ``predicates`` / ``graph`` when given)."""
        preds = list(predicates) if predicates is not None else [None]
        return [q for n in set(nodes) if not isinstance(n, ox.Literal) for p in preds
                for q in self._quads(s=n, p=p, g=graph)]

    def incoming(self, nodes: Nodes, *, predicates: Predicates = None,
                 graph: ox.NamedNode | None = None) -> list[ox.Quad]:
        """Quads with one of ``nodes`` as object (only ``predicates`` / ``graph`` when given)."""
        preds = list(predicates) if predicates is not None else [None]
        return [q for n in set(nodes) for p in preds for q in self._quads(p=p, o=n, g=graph)]

    def with_predicates(self, predicates: Iterable[ox.NamedNode]) -> list[ox.Quad]:
        """Every quad of the given predicates."""
        return [q for p in predicates for q in self._quads(p=p)]


class Remote:
    """The same reads as batched SPARQL queries (``VALUES`` blocks of a few hundred nodes)."""

    CHUNK = 400

    def __init__(self, store: Store) -> None:
        self.store = store

    def _select(self, pattern: str, first: str, values: dict[str, Iterable[ox.Term]]) -> list[ox.Quad]:
        """``SELECT ?s ?p ?o ?g`` over ``pattern``, with the ``first`` variable's values sent in chunks."""
        items = sorted(_named(values[first]))
        blocks = " ".join(_block(name, _named(terms)) for name, terms in values.items() if name != first)
        out = []
        for i in range(0, len(items), self.CHUNK):
            text = (f"SELECT ?s ?p ?o ?g WHERE {{ {_block(first, items[i:i + self.CHUNK])} {blocks} "
                    f"{pattern} }}")
            out += [ox.Quad(*(to_ox(t) for t in row)) for row in self.store.query(text).rows]
        return out

    def _around(self, end: str, nodes: Nodes, predicates: Predicates, graph: ox.NamedNode | None) -> list:
        values: dict[str, Iterable[ox.Term]] = {end: nodes}
        if predicates is not None:
            values["p"] = list(predicates)
        if graph is not None:
            values["g"] = [graph]
        return self._select("GRAPH ?g { ?s ?p ?o }", end, values)

    def outgoing(self, nodes: Nodes, *, predicates: Predicates = None,
                 graph: ox.NamedNode | None = None) -> list[ox.Quad]:
        return self._around("s", [n for n in nodes if not isinstance(n, ox.Literal)], predicates, graph)

    def incoming(self, nodes: Nodes, *, predicates: Predicates = None,
                 graph: ox.NamedNode | None = None) -> list[ox.Quad]:
        return self._around("o", nodes, predicates, graph)

    def with_predicates(self, predicates: Iterable[ox.NamedNode]) -> list[ox.Quad]:
        return self._select("GRAPH ?g { ?s ?p ?o }", "p", {"p": predicates})


def _named(terms: Iterable[ox.Term]) -> set[str]:
    # A blank node cannot be named in a query (its label would be a fresh variable): the engine has
    # nothing it could match for one, so it is left out.
    return {str(t) for t in terms if not isinstance(t, ox.BlankNode)}


def _block(name: str, terms: Iterable[str]) -> str:
    return f"VALUES ?{name} {{ {' '.join(sorted(terms))} }}"


def around(store: Store) -> Embedded | Remote:
    """The reader suited to ``store``'s backend (the embedded store also behind a wrapper)."""
    raw = getattr(store, "raw", None)
    return Embedded(raw) if isinstance(raw, ox.Store) else Remote(store)
