"""Query results and graphs to bytes, in the formats of :mod:`aikg.rdf.formats`.

Everything is written by Oxigraph's serializers, which are correct and fast: a SELECT result is handed to
them as SPARQL TSV (the transport form query workers already send, or one ``str()`` per term) and
re-read by Oxigraph, so no per-row Python work is done for the formats clients ask for. SPARQL JSON
gets a top-level ``"truncated": true`` member when rows were cut off (standard clients ignore unknown
members); every format also gets the :data:`TRUNCATED_HEADER` response header from the web layer.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping

import pyoxigraph as ox

from aikg.errors import NotAcceptable
from aikg.rdf.formats import Format
from aikg.rdf.results import QueryResult, ResultKind

TRUNCATED_HEADER = "X-AIKG-Truncated"
"""Response header saying whether a result was cut off at the row limit (``true`` / ``false``)."""
TOTAL_HEADER = "X-AIKG-Total"
"""Response header giving the rows of a named query's whole answer, when known (a page says it)."""

_PREFIXED = {ox.RdfFormat.TURTLE, ox.RdfFormat.RDF_XML, ox.RdfFormat.TRIG}


def serialize_result(result: QueryResult, fmt: Format) -> bytes:
    """A SELECT/ASK result in a results format, or a graph result in an RDF format."""
    if result.kind is ResultKind.GRAPH:
        return serialize_graph(result.triples, fmt)
    target = fmt.ox
    if not isinstance(target, ox.QueryResultsFormat):
        raise ValueError(f"{fmt.mime} is not a SPARQL results format")
    if result.kind is ResultKind.ASK:
        return _boolean(bool(result.boolean), target)
    parsed = ox.parse_query_results(tsv_of(result), format=ox.QueryResultsFormat.TSV)
    out = parsed.serialize(format=target) or b""
    if result.truncated and target == ox.QueryResultsFormat.JSON:
        out = out.rstrip()[:-1] + b',"truncated":true}'
    return out


def tsv_of(result: QueryResult) -> bytes:
    """A SELECT result as SPARQL TSV (its transport form, kept when it came from a worker)."""
    if result.tsv is not None:
        return result.tsv
    lines = ["\t".join("?" + v for v in result.variables)]
    lines += ["\t".join("" if t is None else str(t) for t in row) for row in result.rows]
    return ("\n".join(lines) + "\n").encode("utf-8")


_EMPTY = ox.Store()
"""Always empty: it answers ``ASK`` so that Oxigraph writes booleans too."""


def _boolean(value: bool, target: ox.QueryResultsFormat) -> bytes:
    """An ASK answer; CSV and TSV have no boolean form, so they get one column ``boolean``."""
    if target in (ox.QueryResultsFormat.JSON, ox.QueryResultsFormat.XML):
        answer = _EMPTY.query("ASK {}" if value else "ASK { FILTER(false) }")
        assert isinstance(answer, ox.QueryBoolean)
        return answer.serialize(format=target) or b""
    word = "true" if value else "false"
    if target == ox.QueryResultsFormat.CSV:
        return f"boolean\r\n{word}\r\n".encode()
    return f'?boolean\n"{word}"^^<http://www.w3.org/2001/XMLSchema#boolean>\n'.encode()


def serialize_graph(
    triples: Iterable[ox.Triple], fmt: Format, *, prefixes: Mapping[str, str] | None = None
) -> bytes:
    """Triples in an RDF format; Turtle and RDF/XML declare the known prefixes they use."""
    target = fmt.ox
    if not isinstance(target, ox.RdfFormat):
        raise ValueError(f"{fmt.mime} is not an RDF format")
    ox_triples = list(triples)
    if target == ox.RdfFormat.RDF_XML:
        _refuse_unwritable_predicates(ox_triples)
    if target in _PREFIXED:
        # Oxigraph groups only consecutive triples of a subject: sort so each subject is written once.
        ox_triples.sort(key=_subject_order)
        # imported only here: a query worker writing solutions needs no rdflib (~0.1 s of its first job)
        from aikg.namespaces import PREFIXES

        used = _used_prefixes(ox_triples, PREFIXES if prefixes is None else prefixes)
        return ox.serialize(ox_triples, format=target, prefixes=used) or b""
    return ox.serialize(ox_triples, format=target) or b""


_XML_NAME_END = re.compile(r"[^\W\d][\w.\-]*$")
"""An XML name (NCName) at the end of an IRI: RDF/XML writes a predicate as namespace + that name."""


def _refuse_unwritable_predicates(triples: list[ox.Triple]) -> None:
    """RDF/XML cannot write a predicate whose IRI does not end in an XML name (``…/1``, ``…#``, ``urn:x:1``);
    Oxigraph then wrote an element named ``oxprefix:``, which no XML parser reads. Refused instead (406),
    naming the formats that can carry it."""
    for predicate in {t.predicate for t in triples}:
        if not _XML_NAME_END.search(predicate.value):
            raise NotAcceptable(
                f"RDF/XML cannot write the predicate <{predicate.value}> (its IRI does not end in an "
                "XML name): ask for Turtle, N-Triples or JSON-LD"
            )


def _subject_order(t: ox.Triple) -> tuple[bool, str, str, str]:
    """IRIs before blank nodes, then by subject, predicate and object text."""
    return (isinstance(t.subject, ox.BlankNode), str(t.subject), str(t.predicate), str(t.object))


def _used_prefixes(triples: list[ox.Triple], prefixes: Mapping[str, str]) -> dict[str, str]:
    """Only the prefixes some IRI in ``triples`` starts with, so documents stay short."""
    iris = {
        t.value
        for tr in triples
        for t in (tr.subject, tr.predicate, tr.object)
        if isinstance(t, ox.NamedNode)
    }
    iris |= {tr.object.datatype.value for tr in triples if isinstance(tr.object, ox.Literal)}
    return {p: ns for p, ns in prefixes.items() if any(i.startswith(ns) for i in iris)}
