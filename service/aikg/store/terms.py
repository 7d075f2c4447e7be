"""Conversion between pyoxigraph terms (the store interface's currency) and rdflib terms (used at the edges:
SHACL validation, rdflib serializers, tests)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import pyoxigraph as ox
from rdflib import BNode, Literal, URIRef
from rdflib.term import Identifier, Node

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


def to_ox(term: Node) -> ox.NamedNode | ox.BlankNode | ox.Literal:
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


def to_ox_quad(s: Node, p: Node, o: Node, graph: ox.NamedNode) -> ox.Quad:
    """An rdflib triple as a pyoxigraph quad in ``graph``."""
    subject, predicate = _subject_predicate(s, p)
    return ox.Quad(subject, predicate, to_ox(o), graph)


def graph_to_ox(graph: Iterable[tuple[Node, Node, Node]]) -> list[ox.Triple]:
    """An rdflib graph's triples as pyoxigraph triples (graphs aikg builds with rdflib, at the edges)."""
    return [ox.Triple(*_subject_predicate(s, p), to_ox(o)) for s, p, o in graph]


def _subject_predicate(s: Node, p: Node) -> tuple[ox.NamedNode | ox.BlankNode, ox.NamedNode]:
    """A triple's subject and predicate; a literal subject or a predicate that is no IRI is the TypeError
    pyoxigraph would raise for it."""
    subject, predicate = to_ox(s), to_ox(p)
    if isinstance(subject, ox.Literal) or not isinstance(predicate, ox.NamedNode):
        raise TypeError(f"not an RDF triple: {s!r} {p!r}")
    return subject, predicate


def rdflib_triple(q: ox.Quad | ox.Triple) -> tuple[Identifier, Identifier, Identifier]:
    """A stored statement as an rdflib triple (for SHACL validation)."""
    s, p, o = to_rdflib(q.subject), to_rdflib(q.predicate), to_rdflib(q.object)
    if s is None or p is None or o is None:  # only the default graph maps to None, never a triple's term
        raise TypeError(f"not an RDF triple: {q!r}")
    return s, p, o


def graph_iri(q: ox.Quad) -> str:
    """The name of a stored quad's graph: aikg keeps every statement in a named graph (the default graph
    that queries read is their union), so a quad of the default graph is a TypeError."""
    if isinstance(q.graph_name, ox.DefaultGraph):
        raise TypeError(f"a quad of the default graph: {q!r}")
    return q.graph_name.value


def quad_of_row(row: Sequence[object]) -> ox.Quad:
    """A ``SELECT ?s ?p ?o ?g`` row (``GRAPH ?g { ?s ?p ?o }``) as the quad it binds."""
    s, p, o, g = row
    if not (
        isinstance(s, ox.NamedNode | ox.BlankNode)
        and isinstance(p, ox.NamedNode)
        and isinstance(o, ox.NamedNode | ox.BlankNode | ox.Literal)
        and isinstance(g, ox.NamedNode)
    ):
        raise TypeError(f"not a quad: {row!r}")
    return ox.Quad(s, p, o, g)


def rdf11_subject(q: ox.Quad | ox.Triple) -> ox.NamedNode | ox.BlankNode:
    """A stored statement's subject: aikg stores RDF 1.1 triples only (the writers refuse triple terms)."""
    if isinstance(q.subject, ox.Triple):
        raise TypeError(f"a triple term as subject: {q!r}")
    return q.subject


def rdf11_object(q: ox.Quad | ox.Triple) -> ox.NamedNode | ox.BlankNode | ox.Literal:
    """A stored statement's object (RDF 1.1: no triple term)."""
    if isinstance(q.object, ox.Triple):
        raise TypeError(f"a triple term as object: {q!r}")
    return q.object
