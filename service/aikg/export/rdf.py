"""RDF exports of a selection, in a canonical order (sorted N-Triples lines), written by Oxigraph.

Turtle holds the union of the selected triples; N-Quads keeps each triple's named graph, so the source
documents behind every fact survive the export. JSON-LD holds both: the union as its default graph (what
a plain JSON-LD parser, reading a document as one graph, returns: JSON-LD 1.1 §4.9, a top-level array
of node objects is the default graph) and each named graph as a graph object beside it, as the service's
own SPARQL default graph is the union of the named ones. A whole-graph export reads each data
graph with the store's own dump (no per-term conversion), so it stays fast on large stores.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterator

import pyoxigraph as ox

from aikg.export.budget import bounded, check
from aikg.export.select import Selection
from aikg.namespaces import PREFIXES
from aikg.store.terms import graph_iri

_CHUNK = 20000
"""Lines per chunk of an N-Quads stream."""

_NT = "application/n-triples"


def graph_lines(selection: Selection) -> dict[str, list[str]]:
    """Named graph -> its selected triples as sorted, distinct N-Triples lines (without the final dot)."""
    by_graph: dict[str, set[str]] = defaultdict(set)
    if selection.nodes is None:
        for g in bounded(selection.graphs, "reading the data graphs", every=1):
            text = selection.store.dump(mime=_NT, graph=g).decode("utf-8")
            by_graph[g].update(line[:-2] for line in text.splitlines() if line.endswith(" ."))
    else:
        for q in bounded(selection.quads(), "reading the selected facts", every=4 * 1024):
            by_graph[graph_iri(q)].add(f"{q.subject} {q.predicate} {q.object}")
    check("sorting the selected facts")
    return {g: sorted(lines) for g, lines in sorted(by_graph.items()) if lines}


def _nquads_lines(selection: Selection) -> Iterator[str]:
    by_graph = graph_lines(selection)
    check("writing N-Quads")
    for g, lines in by_graph.items():
        name = ox.NamedNode(g)
        for line in lines:
            yield f"{line} {name} .\n"


def turtle(selection: Selection) -> Iterator[bytes]:
    """The union of the selected triples as prefixed Turtle, grouped by subject."""
    union = sorted({line for lines in graph_lines(selection).values() for line in lines})
    data = "".join(f"{line} .\n" for line in union).encode("utf-8")
    check("writing Turtle")
    triples = ox.parse(data, format=ox.RdfFormat.N_TRIPLES)
    yield ox.serialize(triples, format=ox.RdfFormat.TURTLE, prefixes=PREFIXES) or b""


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
    """The selected triples as JSON-LD (expanded form): their union as the default graph, and one
    ``@graph`` per named graph they come from."""
    by_graph = graph_lines(selection)
    union = sorted({line for lines in by_graph.values() for line in lines})
    text = "".join(f"{line} .\n" for line in union)
    text += "".join(f"{line} {ox.NamedNode(g)} .\n" for g, lines in by_graph.items() for line in lines)
    check("writing JSON-LD")
    quads = ox.parse(text.encode("utf-8"), format=ox.RdfFormat.N_QUADS)
    yield ox.serialize(quads, format=ox.RdfFormat.JSON_LD) or b""
