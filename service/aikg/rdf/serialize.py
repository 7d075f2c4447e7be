"""Query results and graphs to bytes, in the formats of :mod:`aikg.rdf.formats`.

SELECT/ASK results are written here (SPARQL 1.1 Query Results JSON, XML, CSV, TSV) because a
:class:`~aikg.store.QueryResult` is already materialized and may carry ``truncated``: SPARQL JSON gets a
top-level ``"truncated": true`` member when rows were cut off (standard clients ignore unknown members);
every format also gets the :data:`TRUNCATED_HEADER` response header from the web layer. Graphs are written
by Oxigraph's serializers, which are correct and fast.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Iterable, Mapping
from xml.sax.saxutils import escape, quoteattr

import pyoxigraph as ox
from rdflib import BNode, Literal, URIRef
from rdflib.term import Identifier

from aikg.namespaces import PREFIXES
from aikg.rdf.formats import Format
from aikg.store import QueryResult, ResultKind
from aikg.store.terms import to_ox

TRUNCATED_HEADER = "X-AIKG-Truncated"
"""Response header saying whether a result was cut off at the row limit (``true`` / ``false``)."""

_XSD_STRING = "http://www.w3.org/2001/XMLSchema#string"
_RDF_LANGSTRING = "http://www.w3.org/1999/02/22-rdf-syntax-ns#langString"
_SRX_NS = "http://www.w3.org/2005/sparql-results#"

_PREFIXED = {ox.RdfFormat.TURTLE, ox.RdfFormat.RDF_XML, ox.RdfFormat.TRIG}

Triple = tuple[Identifier, Identifier, Identifier]


def serialize_result(result: QueryResult, fmt: Format) -> bytes:
    """A SELECT/ASK result in a results format, or a graph result in an RDF format."""
    if result.kind is ResultKind.GRAPH:
        return serialize_graph(result.triples, fmt)
    writer = _RESULT_WRITERS.get(fmt.mime)
    if writer is None:
        raise ValueError(f"{fmt.mime} is not a SPARQL results format")
    return writer(result)


def serialize_graph(triples: Iterable[Triple], fmt: Format, *,
                    prefixes: Mapping[str, str] | None = None) -> bytes:
    """Triples in an RDF format; Turtle and RDF/XML declare the known prefixes they use."""
    target = fmt.ox
    if not isinstance(target, ox.RdfFormat):
        raise ValueError(f"{fmt.mime} is not an RDF format")
    ox_triples = [ox.Triple(to_ox(s), to_ox(p), to_ox(o)) for s, p, o in triples]
    if target in _PREFIXED:
        # Oxigraph groups only consecutive triples of a subject: sort so each subject is written once.
        ox_triples.sort(key=_subject_order)
        used = _used_prefixes(ox_triples, PREFIXES if prefixes is None else prefixes)
        return ox.serialize(ox_triples, format=target, prefixes=used)
    return ox.serialize(ox_triples, format=target)


def _subject_order(t: ox.Triple) -> tuple[bool, str, str, str]:
    """IRIs before blank nodes, then by subject, predicate and object text."""
    return (isinstance(t.subject, ox.BlankNode), str(t.subject), str(t.predicate), str(t.object))


def _used_prefixes(triples: list[ox.Triple], prefixes: Mapping[str, str]) -> dict[str, str]:
    """Only the prefixes some IRI in ``triples`` starts with, so documents stay short."""
    iris = {t.value for tr in triples for t in (tr.subject, tr.predicate, tr.object)
            if isinstance(t, ox.NamedNode)}
    iris |= {tr.object.datatype.value for tr in triples if isinstance(tr.object, ox.Literal)}
    return {p: ns for p, ns in prefixes.items() if any(i.startswith(ns) for i in iris)}


def _json_term(term: Identifier) -> dict[str, str]:
    if isinstance(term, URIRef):
        return {"type": "uri", "value": str(term)}
    if isinstance(term, BNode):
        return {"type": "bnode", "value": str(term)}
    if isinstance(term, Literal):
        out = {"type": "literal", "value": str(term)}
        if term.language:
            out["xml:lang"] = term.language
        elif term.datatype is not None and str(term.datatype) not in (_XSD_STRING, _RDF_LANGSTRING):
            out["datatype"] = str(term.datatype)
        return out
    raise TypeError(f"unsupported term {term!r}")


def to_json(result: QueryResult) -> bytes:
    """SPARQL 1.1 Query Results JSON, plus ``"truncated": true`` when rows were cut off."""
    body: dict = {"head": {"vars": list(result.variables)} if result.kind is ResultKind.SELECT else {}}
    if result.kind is ResultKind.ASK:
        body["boolean"] = bool(result.boolean)
    else:
        body["results"] = {"bindings": [
            {v: _json_term(t) for v, t in zip(result.variables, row, strict=True) if t is not None}
            for row in result.rows]}
    if result.truncated:
        body["truncated"] = True
    return json.dumps(body, ensure_ascii=False, separators=(",", ":")).encode("utf-8")


def _xml_term(term: Identifier) -> str:
    if isinstance(term, URIRef):
        return f"<uri>{escape(str(term))}</uri>"
    if isinstance(term, BNode):
        return f"<bnode>{escape(str(term))}</bnode>"
    if isinstance(term, Literal):
        attr = ""
        if term.language:
            attr = f" xml:lang={quoteattr(term.language)}"
        elif term.datatype is not None and str(term.datatype) not in (_XSD_STRING, _RDF_LANGSTRING):
            attr = f" datatype={quoteattr(str(term.datatype))}"
        return f"<literal{attr}>{escape(str(term))}</literal>"
    raise TypeError(f"unsupported term {term!r}")


def to_xml(result: QueryResult) -> bytes:
    """SPARQL Query Results XML."""
    out = io.StringIO()
    out.write(f'<?xml version="1.0" encoding="UTF-8"?>\n<sparql xmlns="{_SRX_NS}">\n<head>')
    for v in result.variables if result.kind is ResultKind.SELECT else ():
        out.write(f"<variable name={quoteattr(v)}/>")
    out.write("</head>\n")
    if result.kind is ResultKind.ASK:
        out.write(f"<boolean>{'true' if result.boolean else 'false'}</boolean>\n")
    else:
        out.write("<results>\n")
        for row in result.rows:
            out.write("<result>")
            for v, t in zip(result.variables, row, strict=True):
                if t is not None:
                    out.write(f"<binding name={quoteattr(v)}>{_xml_term(t)}</binding>")
            out.write("</result>\n")
        out.write("</results>\n")
    out.write("</sparql>\n")
    return out.getvalue().encode("utf-8")


def _rows_or_boolean(result: QueryResult) -> tuple[list[str], list[tuple[Identifier | None, ...]]]:
    """ASK has no table in CSV/TSV: it becomes one column ``boolean`` holding true or false."""
    if result.kind is ResultKind.ASK:
        return ["boolean"], [(Literal(bool(result.boolean)),)]
    return list(result.variables), list(result.rows)


def to_csv(result: QueryResult) -> bytes:
    """SPARQL 1.1 Query Results CSV: plain values (IRIs, lexical forms), CRLF line ends."""
    variables, rows = _rows_or_boolean(result)
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(variables)
    for row in rows:
        writer.writerow(["" if t is None else (f"_:{t}" if isinstance(t, BNode) else str(t)) for t in row])
    return out.getvalue().encode("utf-8")


def to_tsv(result: QueryResult) -> bytes:
    """SPARQL 1.1 Query Results TSV: terms in Turtle/N-Triples syntax, tabs and newlines escaped."""
    variables, rows = _rows_or_boolean(result)
    lines = ["\t".join("?" + v for v in variables)]
    lines += ["\t".join("" if t is None else str(to_ox(t)) for t in row) for row in rows]
    return ("\n".join(lines) + "\n").encode("utf-8")


_RESULT_WRITERS = {
    "application/sparql-results+json": to_json,
    "application/sparql-results+xml": to_xml,
    "text/csv": to_csv,
    "text/tab-separated-values": to_tsv,
}
