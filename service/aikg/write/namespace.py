"""Which graphs a client may write: every graph but the ones aikg maintains.

A client (``/update``, ``/data``, ``aikg load FILE --graph``) names its graphs with any IRI it chooses, as
the SPARQL standards assume (the W3C tests write ``<http://example/…>``): a graph's name is only a name,
and aikg never fetches anything from it. What a client may not write are the graphs aikg maintains
itself, by name: the ontology and shapes (from files), the catalogue and background graphs and every seed
source (from ``seeds/``), the Epoch AI graphs (imported), the derived and inferred graphs (computed), the
import's resolution links and records, and the remote backend's ``graph/system``. A client's write there
would be overwritten at the next load, or would make the computed graphs lie. The bearer token guards
every write whatever the graph.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable

import pyoxigraph as ox

from aikg.errors import BadRequest, Forbidden
from aikg.namespaces import (
    GRAPH,
    graphs_with,
)
from aikg.resources import data_files

MAINTAINED_GRAPHS = graphs_with("maintained")
"""Graphs aikg writes itself (besides the seed sources and the Epoch graphs): the Epoch import's
entity-resolution links and its import records among them."""

MAINTAINED_PREFIXES = (str(GRAPH["epoch/"]),)
"""Graph IRI prefixes aikg writes itself: the Epoch AI import."""


@functools.cache
def _loaded_graphs() -> frozenset[str]:
    """The graphs the shipped files are loaded into (they do not change while aikg runs)."""
    return frozenset(f.graph for f in data_files())


def maintained(iri: str) -> bool:
    """True for a graph aikg maintains itself (not writable by clients)."""
    return iri in MAINTAINED_GRAPHS or iri.startswith(MAINTAINED_PREFIXES) or iri in _loaded_graphs()


def client_graphs(graphs: Iterable[str]) -> list[str]:
    """The graphs among ``graphs`` that clients write (every one aikg does not maintain), sorted."""
    return sorted(g for g in graphs if not maintained(g))


def check_writable(iri: str, operation: str = "write") -> str:
    """``iri`` if a client may write that graph; 400 for a malformed or relative IRI, 403 for a graph
    aikg maintains."""
    try:
        value = ox.NamedNode(iri).value
    except ValueError:
        raise BadRequest(f"the graph IRI is not valid: {iri[:200]}") from None
    if ":" not in value:
        raise BadRequest(f"the graph IRI must be absolute: {iri[:200]}")
    if maintained(value):
        raise Forbidden(
            f"{operation}: the graph <{value}> is maintained by aikg itself and cannot be written by clients",
            errors=[{"graph": value, "operation": operation}],
        )
    return value
