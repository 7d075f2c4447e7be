"""The one table of formats aikg reads and writes, derived from pyoxigraph's ``RdfFormat`` and
``QueryResultsFormat`` (media type, file extension, W3C format IRI).

Every surface reads it: content negotiation (``web/negotiation.py``), the serializers, the store backends'
parsers, the Graph Store Protocol's body parser, the CLI's ``--format`` and file extensions, and the
service description's ``sd:resultFormat``. A format is named in one place.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from enum import StrEnum

import pyoxigraph as ox

from aikg.errors import RdfSyntaxError


class Kind(StrEnum):
    """What a format serializes."""

    RESULTS = "results"
    """SELECT / ASK results (SPARQL 1.1 Query Results JSON, XML, CSV, TSV)."""
    GRAPH = "graph"
    """One RDF graph (CONSTRUCT / DESCRIBE results, a graph of the store, an entity's description)."""
    DATASET = "dataset"
    """Several named graphs (a dump of the store)."""
    DOCUMENT = "document"
    """Not RDF: the lookup API's JSON, the explorer's HTML."""


@dataclass(frozen=True)
class Format:
    """A serialization: short name, media type, file extension, W3C format IRI, and its parser/writer."""

    name: str
    mime: str
    extension: str
    kind: Kind
    iri: str | None = None
    ox: ox.RdfFormat | ox.QueryResultsFormat | None = field(default=None, compare=False)
    aliases: tuple[str, ...] = ()
    """Other media types that name this format (``application/x-turtle``, plain ``application/json``)."""
    words: tuple[str, ...] = ()
    """Other names ``format=`` may use for it (``json-ld``, as SPARQLWrapper sends)."""

    @property
    def names(self) -> frozenset[str]:
        """Every word ``format=`` may use for it: short name, extension, media type, its subtype, aliases."""
        subtype = self.mime.split("/", 1)[1]
        return frozenset(
            {
                self.name,
                self.extension,
                self.mime,
                subtype,
                *self.aliases,
                *(a.split("/", 1)[1] for a in self.aliases if "/" in a),
                *self.words,
            }
        )

    @property
    def content_type(self) -> str:
        """The Content-Type to send: text formats say they are UTF-8 (every format aikg writes is)."""
        return self.mime + ("; charset=utf-8" if self.mime.startswith("text/") else "")


_IRI_FIXES = {"application/ld+json": "http://www.w3.org/ns/formats/JSON-LD"}
"""pyoxigraph 0.5 names JSON-LD https://www.w3.org/ns/formats/data/JSON-LD; the W3C registry of format
IRIs (http://www.w3.org/ns/formats/) lists it as http://www.w3.org/ns/formats/JSON-LD."""

_ALIASES: dict[str, tuple[str, ...]] = {
    "application/sparql-results+json": ("application/json",),
    "application/sparql-results+xml": ("application/xml", "text/xml"),
    "text/turtle": ("application/x-turtle", "application/turtle", "text/n3", "text/rdf+n3"),
    "application/n-triples": ("text/plain",),
    "application/ld+json": ("application/json",),
    "application/rdf+xml": ("application/xml", "text/xml"),
    "application/trig": ("application/x-trig",),
}
"""Media types clients use for a format besides its registered one. Plain JSON and XML mean SPARQL
results where results are offered and JSON-LD / RDF/XML where a graph is; N3 asks get Turtle (a subset
of N3). An alias answers a request naming it, never a wildcard (``text/*`` is not a request for XML)."""

_WORDS: dict[str, tuple[str, ...]] = {"application/ld+json": ("json-ld",)}
"""Other names clients give a format in ``format=`` (SPARQLWrapper sends ``format=json-ld``)."""


def _mime(raw: str) -> str:
    return raw.split(";", 1)[0].strip().lower()


def _from_ox(fmt: ox.RdfFormat | ox.QueryResultsFormat, kind: Kind) -> Format:
    mime = _mime(fmt.media_type)
    if isinstance(fmt, ox.QueryResultsFormat):
        name = fmt.name.split()[-1].lower()  # "SPARQL Results in JSON" -> json
    else:
        name = re.sub(r"[^a-z0-9]", "", fmt.name.lower())  # "N-Triples" -> ntriples
    return Format(
        name,
        mime,
        fmt.file_extension,
        kind,
        _IRI_FIXES.get(mime, fmt.iri),
        fmt,
        _ALIASES.get(mime, ()),
        _WORDS.get(mime, ()),
    )


RESULT_FORMATS: tuple[Format, ...] = tuple(
    _from_ox(f, Kind.RESULTS)
    for f in (
        ox.QueryResultsFormat.JSON,
        ox.QueryResultsFormat.XML,
        ox.QueryResultsFormat.CSV,
        ox.QueryResultsFormat.TSV,
    )
)
"""Formats for SELECT and ASK results; the first is the default."""

GRAPH_FORMATS: tuple[Format, ...] = tuple(
    _from_ox(f, Kind.GRAPH)
    for f in (ox.RdfFormat.TURTLE, ox.RdfFormat.N_TRIPLES, ox.RdfFormat.JSON_LD, ox.RdfFormat.RDF_XML)
)
"""Formats for CONSTRUCT and DESCRIBE results and for RDF documents of one graph; Turtle is the default."""

DATASET_FORMATS: tuple[Format, ...] = tuple(
    _from_ox(f, Kind.DATASET) for f in (ox.RdfFormat.N_QUADS, ox.RdfFormat.TRIG)
)
"""Formats that keep named graphs (dumps of the whole store)."""

RDF_FORMATS: tuple[Format, ...] = GRAPH_FORMATS + DATASET_FORMATS
"""Every RDF serialization aikg reads and writes: a client may send any of them as a graph's body."""

HTML = Format("html", "text/html", "html", Kind.DOCUMENT, aliases=("application/xhtml+xml",))
"""The explorer's page (for a browser asking for an entity IRI or the endpoint)."""

JSON = Format("json", "application/json", "json", Kind.DOCUMENT)
"""The lookup API's JSON documents."""


def by_name(name: str, table: tuple[Format, ...]) -> Format | None:
    """The format of ``table`` a name, extension or media type denotes (case-insensitive)."""
    key = _mime(name) if "/" in name else name.strip().lower()
    return next((f for f in table if key in f.names), None)


def by_media_type(mime: str, table: tuple[Format, ...]) -> Format | None:
    """The format of ``table`` a Content-Type denotes (parameters ignored), by its media type or alias."""
    key = _mime(mime)
    return next((f for f in table if key == f.mime), None) or next(
        (f for f in table if key in f.aliases), None
    )


def by_extension(filename: str, table: tuple[Format, ...] = RDF_FORMATS) -> Format | None:
    """The format a file name's extension names (``.ttl``, ``.nq``, ``.jsonld``, ``.rdf`` / ``.owl``)."""
    ext = filename.rsplit(".", 1)[-1].lower() if "." in filename else ""
    ext = {"owl": "rdf", "xml": "rdf", "json": "jsonld"}.get(ext, ext)
    return next((f for f in table if ext == f.extension), None)


def rdf_format(mime: str) -> ox.RdfFormat | None:
    """Oxigraph's parser/serializer for an RDF media type (or an alias of one), None if it has none."""
    fmt = by_media_type(mime, RDF_FORMATS)
    return fmt.ox if fmt is not None and isinstance(fmt.ox, ox.RdfFormat) else None


def rdf_format_of(mime: str) -> ox.RdfFormat:
    """Oxigraph's parser/serializer for an RDF media type a store reads or writes; a type it has none for
    is the client's error (RdfSyntaxError, a 400)."""
    fmt = rdf_format(mime)
    if fmt is None:
        raise RdfSyntaxError(f"unsupported RDF media type {mime!r}")
    return fmt
