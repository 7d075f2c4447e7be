"""Conversion between pyoxigraph terms (the store interface's currency) and rdflib terms (used at the edges:
SHACL validation, rdflib serializers, tests)."""

from __future__ import annotations

from collections.abc import Iterable

import pyoxigraph as ox
from rdflib import BNode, Literal, URIRef
from rdflib.term import Identifier

_XSD_STRING = "http://www.w3.org/2001/XMLSchema#string"
_RDF_LANGSTRING = "http://www.w3.org/1999/02/22-rdf-syntax-ns#langString"


def to_rdflib(term: object) -> Identifier | None:
    """Turn a pyoxigraph term into the equivalent rdflib term."""
    if term is None:
        return None
    if isinstance(term, ox.NamedNode):
        return URIRef(term.value)
    if isinstance(term, ox.Literal):
        if term.language:
            return Literal(term.value, lang=term.language)
        dt = term.datatype.value
        if dt == _XSD_STRING:
            return Literal(term.value)
        return Literal(term.value, datatype=URIRef(dt))
    if isinstance(term, ox.BlankNode):
        return BNode(term.value)
    if isinstance(term, ox.DefaultGraph):
        return None
    raise TypeError(f"unsupported term {term!r}")


def to_ox(term: Identifier) -> ox.NamedNode | ox.BlankNode | ox.Literal:
    """Turn an rdflib term into the equivalent pyoxigraph term."""
    if isinstance(term, URIRef):
        return ox.NamedNode(str(term))
    if isinstance(term, BNode):
        return ox.BlankNode(str(term))
    if isinstance(term, Literal):
        if term.language:
            return ox.Literal(str(term), language=term.language)
        if term.datatype is not None and str(term.datatype) != _RDF_LANGSTRING:
            return ox.Literal(str(term), datatype=ox.NamedNode(str(term.datatype)))
        return ox.Literal(str(term))
    raise TypeError(f"unsupported term {term!r}")


def graph_to_ox(graph: Iterable[tuple[Identifier, Identifier, Identifier]]) -> list[ox.Triple]:
    """An rdflib graph's triples as pyoxigraph triples (graphs aikg builds with rdflib, at the edges)."""
    return [ox.Triple(to_ox(s), to_ox(p), to_ox(o)) for s, p, o in graph]  # type: ignore[arg-type]
