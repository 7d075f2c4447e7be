"""RDF exports of a selection, in a canonical order (sorted N-Triples lines), written by Oxigraph.

Turtle holds the union of the selected triples; N-Quads and JSON-LD keep each triple's named graph,
so the source documents behind every fact survive the export. A whole-graph export reads each data
graph with the store's own dump (no per-term conversion), so it stays fast on large stores.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterator

import pyoxigraph as ox

from aikg.export.select import Selection
from aikg.namespaces import PREFIXES

_CHUNK = 20000
"""Lines per chunk of an N-Quads stream."""

_NT = "application/n-triples"


def graph_lines(selection: Selection) -> dict[str, list[str]]:
    """Named graph -> its selected triples as sorted, distinct N-Triples lines (without the final dot)."""
    by_graph: dict[str, set[str]] = defaultdict(set)
    if selection.nodes is None:
        for g in selection.graphs:
            text = selection.store.dump(mime=_NT, graph=g).decode("utf-8")
            by_graph[g].update(line[:-2] for line in text.splitlines() if line.endswith(" ."))
    else:
        for q in selection.quads():
            by_graph[q.graph_name.value].add(f"{q.subject} {q.predicate} {q.object}")
    return {g: sorted(lines) for g, lines in sorted(by_graph.items()) if lines}


def _nquads_lines(selection: Selection) -> Iterator[str]:
    for g, lines in graph_lines(selection).items():
        name = ox.NamedNode(g)
        for line in lines:
            yield f"{line} {name} .\n"


def turtle(selection: Selection) -> Iterator[bytes]:
    """The union of the selected triples as prefixed Turtle, grouped by subject."""
    union = sorted({line for lines in graph_lines(selection).values() for line in lines})
    data = "".join(f"{line} .\n" for line in union).encode("utf-8")
    triples = ox.parse(data, format=ox.RdfFormat.N_TRIPLES)
    yield ox.serialize(triples, format=ox.RdfFormat.TURTLE, prefixes=PREFIXES)


def nquads(selection: Selection) -> Iterator[bytes]:
    """The selected quads as N-Quads, graph by graph, in chunks (the format is line-based)."""
    chunk: list[str] = []
    for line in _nquads_lines(selection):
        chunk.append(line)
        if len(chunk) >= _CHUNK:
            yield "".join(chunk).encode("utf-8")
            chunk = []
    if chunk:
        yield "".join(chunk).encode("utf-8")


def jsonld(selection: Selection) -> Iterator[bytes]:
    """The selected quads as JSON-LD (expanded form, one ``@graph`` per named graph)."""
    data = "".join(_nquads_lines(selection)).encode("utf-8")
    yield ox.serialize(ox.parse(data, format=ox.RdfFormat.N_QUADS), format=ox.RdfFormat.JSON_LD)
