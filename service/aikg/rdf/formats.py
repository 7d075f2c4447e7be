"""Content-negotiation tables, as constants: one for SELECT/ASK results, one for graphs.

The HTTP layer and the CLI's ``--format`` both read these, so a format is named in one place.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Format:
    """A serialization: short name, media type, file extension, and the rdflib plugin name if any."""

    name: str
    mime: str
    extension: str
    rdflib: str | None = None


RESULT_FORMATS: tuple[Format, ...] = (
    Format("json", "application/sparql-results+json", "srj", "json"),
    Format("xml", "application/sparql-results+xml", "srx", "xml"),
    Format("csv", "text/csv", "csv", "csv"),
    Format("tsv", "text/tab-separated-values", "tsv", "tsv"),
)
"""Formats for SELECT and ASK results (SPARQL 1.1 Query Results JSON, XML, CSV, TSV)."""

GRAPH_FORMATS: tuple[Format, ...] = (
    Format("turtle", "text/turtle", "ttl", "turtle"),
    Format("ntriples", "application/n-triples", "nt", "nt"),
    Format("jsonld", "application/ld+json", "jsonld", "json-ld"),
    Format("rdfxml", "application/rdf+xml", "rdf", "xml"),
)
"""Formats for CONSTRUCT and DESCRIBE results and for RDF documents of one graph."""

DATASET_FORMATS: tuple[Format, ...] = (
    Format("nquads", "application/n-quads", "nq", "nquads"),
    Format("trig", "application/trig", "trig", "trig"),
)
"""Formats that keep named graphs (dumps of the whole store)."""

RDF_FORMATS: tuple[Format, ...] = GRAPH_FORMATS + DATASET_FORMATS

MIME_ALIASES: dict[str, str] = {
    "application/json": "application/sparql-results+json",
    "application/xml": "application/sparql-results+xml",
    "text/xml": "application/sparql-results+xml",
    "text/plain": "application/n-triples",
    "application/x-turtle": "text/turtle",
    "application/turtle": "text/turtle",
    "text/n3": "text/turtle",
    "application/json-ld": "application/ld+json",
    "application/x-trig": "application/trig",
}


def by_name(name: str, table: tuple[Format, ...]) -> Format | None:
    """Find a format by short name, extension or media type in one table."""
    key = name.strip().lower()
    key = MIME_ALIASES.get(key, key)
    for f in table:
        if key in {f.name, f.extension, f.mime}:
            return f
    return None
