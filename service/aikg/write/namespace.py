"""Which graphs a client may write: the writable namespace.

A client (``/update``, ``/data``, ``aikg load FILE --graph``) writes named graphs whose IRI starts with
``https://w3id.org/aikg/graph/`` and that aikg does not maintain itself. aikg maintains the ontology and
shapes (from files), the catalogue and background graphs and every seed source (from ``seeds/``), the
Epoch AI graphs (imported), the derived and inferred graphs (computed) and the remote backend's
``graph/system``: a client's write there would be overwritten, or would make the computed graphs lie.
Any other IRI — ``file:///etc/passwd``, a listener's URL, another site's graph — is not aikg's to hold.
"""

from __future__ import annotations

import pyoxigraph as ox

from aikg.errors import BadRequest, Forbidden
from aikg.namespaces import (
    BACKGROUND_GRAPH,
    CATALOG_GRAPH,
    DERIVED_GRAPH,
    GRAPH,
    INFERRED_GRAPH,
    ONTOLOGY_GRAPH,
    SHAPES_GRAPH,
)
from aikg.resources import data_files

WRITABLE_PREFIX = str(GRAPH)
"""Every client-written graph lives under this IRI."""

MAINTAINED_GRAPHS = frozenset(
    str(g)
    for g in (
        ONTOLOGY_GRAPH,
        SHAPES_GRAPH,
        CATALOG_GRAPH,
        BACKGROUND_GRAPH,
        DERIVED_GRAPH,
        INFERRED_GRAPH,
        GRAPH["system"],
        GRAPH["resolution"],
        GRAPH["imports"],
    )
)
"""Graphs aikg writes itself (besides the seed sources and the Epoch graphs): the Epoch import's
entity-resolution links and its import records among them."""

MAINTAINED_PREFIXES = (str(GRAPH["epoch/"]),)
"""Graph IRI prefixes aikg writes itself: the Epoch AI import."""


def maintained(iri: str) -> bool:
    """True for a graph aikg maintains itself (not writable by clients)."""
    return (
        iri in MAINTAINED_GRAPHS
        or iri.startswith(MAINTAINED_PREFIXES)
        or any(f.graph == iri for f in data_files())
    )


def writable(iri: str) -> bool:
    """True for a graph IRI a client may write."""
    return iri.startswith(WRITABLE_PREFIX) and len(iri) > len(WRITABLE_PREFIX) and not maintained(iri)


def check_writable(iri: str, operation: str = "write") -> str:
    """``iri`` if a client may write that graph; 400 for a malformed IRI, 403 outside the namespace."""
    try:
        value = ox.NamedNode(iri).value
    except ValueError:
        raise BadRequest(f"the graph IRI is not valid: {iri[:200]}") from None
    if maintained(value):
        raise Forbidden(
            f"{operation}: the graph <{value}> is maintained by aikg itself and cannot be written by clients",
            errors=[{"graph": value, "operation": operation}],
        )
    if not writable(value):
        raise Forbidden(
            f"{operation}: the graph <{value[:200]}> is outside the writable namespace; clients "
            f"write graphs under <{WRITABLE_PREFIX}> (for example {WRITABLE_PREFIX}sources/my-note)",
            errors=[{"graph": value, "operation": operation, "writable": WRITABLE_PREFIX}],
        )
    return value
