"""RDF exports of a selection, written by Oxigraph's serializers in a canonical (sorted) order.

Turtle holds the union of the selected triples; N-Quads and JSON-LD keep each triple's named graph,
so the source documents behind every fact survive the export.
"""

from __future__ import annotations

from collections.abc import Iterator

import pyoxigraph as ox

from ..namespaces import PREFIXES
from ..store.terms import to_ox
from .select import Selection

_CHUNK = 20000
"""Quads per serialized chunk of an N-Quads stream."""


def _ox_quads(selection: Selection) -> list[ox.Quad]:
    quads = {ox.Quad(to_ox(s), to_ox(p), to_ox(o), ox.NamedNode(str(g)))
             for s, p, o, g in selection.quads()}
    return sorted(quads, key=lambda q: (q.graph_name.value, str(q.subject), str(q.predicate),
                                        str(q.object)))


def turtle(selection: Selection) -> Iterator[bytes]:
    """The union of the selected triples as prefixed Turtle, grouped by subject."""
    triples = sorted({q.triple for q in _ox_quads(selection)},
                     key=lambda t: (str(t.subject), str(t.predicate), str(t.object)))
    yield ox.serialize(triples, format=ox.RdfFormat.TURTLE, prefixes=PREFIXES)


def nquads(selection: Selection) -> Iterator[bytes]:
    """The selected quads as N-Quads, in chunks (the format is line-based, so chunks concatenate)."""
    quads = _ox_quads(selection)
    for start in range(0, len(quads), _CHUNK):
        yield ox.serialize(quads[start:start + _CHUNK], format=ox.RdfFormat.N_QUADS)


def jsonld(selection: Selection) -> Iterator[bytes]:
    """The selected quads as JSON-LD (expanded form, one ``@graph`` per named graph)."""
    yield ox.serialize(_ox_quads(selection), format=ox.RdfFormat.JSON_LD)
