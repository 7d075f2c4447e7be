"""The catalogue entry of each imported file: what it is, who publishes it, when, under which licence.

It is written into the dataset's own graph, so it is replaced with the data on every re-import, and
provenance resolution finds it through ``aikg:namedGraph`` like any other source document.
"""

from __future__ import annotations

from rdflib import Literal, URIRef
from rdflib.namespace import DCTERMS, RDF, RDFS, XSD

from aikg.epoch.mapping import SCHEMA_URL, Dataset
from aikg.namespaces import AIKG, GRAPH, ID

PUBLISHER = URIRef(ID["epoch-ai"])
LICENSE = URIRef("https://creativecommons.org/licenses/by/4.0/")
SNAPSHOT_DATE = "2026-03-06"
"""Date of the public snapshot kept in seeds/epoch/ (see its README)."""


def graph_of(dataset: Dataset) -> str:
    """The named graph holding a dataset's facts: ``graph/epoch/<file stem>``."""
    return str(GRAPH["epoch/" + dataset.stem])


def document_of(dataset: Dataset) -> URIRef:
    """The catalogue node of a dataset: ``id:epoch-<file stem>``."""
    return URIRef(ID["epoch-" + dataset.stem])


def catalog_triples(dataset: Dataset, *, snapshot: str = SNAPSHOT_DATE) -> list[tuple]:
    """The dataset's description: title, publisher, snapshot date, URL, licence, graph, certainty."""
    doc = document_of(dataset)
    return [
        (doc, RDF.type, AIKG.Dataset),
        (doc, RDFS.label, Literal(dataset.title, lang="en")),
        (doc, DCTERMS.title, Literal(dataset.title, lang="en")),
        (doc, DCTERMS.publisher, PUBLISHER),
        (doc, DCTERMS.issued, Literal(snapshot, datatype=XSD.date)),
        (doc, DCTERMS.language, Literal("en")),
        (doc, DCTERMS.license, LICENSE),
        (doc, DCTERMS.source, Literal(dataset.path)),
        (doc, SCHEMA_URL, URIRef(dataset.url)),
        (doc, AIKG.namedGraph, URIRef(graph_of(dataset))),
        (doc, AIKG.defaultCertainty, AIKG.Reported),
        (doc, DCTERMS.bibliographicCitation,
         Literal(f"Epoch AI, '{dataset.title.removeprefix('Epoch AI: ')}'. Published online at epoch.ai. "
                 f"Retrieved from '{dataset.url}'. Licensed under CC BY 4.0.")),
        (PUBLISHER, RDF.type, AIKG.Organization),
        (PUBLISHER, RDFS.label, Literal("Epoch AI", lang="en")),
        (PUBLISHER, SCHEMA_URL, URIRef("https://epoch.ai/")),
    ]
