"""The catalogue entry of each imported file: what it is, who publishes it, when, under which licence.

It is written into the dataset's own graph, so it is replaced with the data on every re-import, and
provenance resolution finds it through ``aikg:namedGraph`` like any other source document. Every other
snapshot of the dataset gets a graph and an entry of its own (its own snapshot date; the values that
snapshot stated first, see :mod:`aikg.epoch.merge`), marked ``aikg:partialUpdateOf`` the dataset.
"""

from __future__ import annotations

from rdflib import Literal, URIRef
from rdflib.namespace import DCTERMS, RDF, RDFS, XSD
from rdflib.term import Identifier

from aikg.epoch.citations import column_triples
from aikg.epoch.context import SCHEMA_URL
from aikg.epoch.datasets import Dataset
from aikg.namespaces import AIKG, GRAPH, ID

PUBLISHER = URIRef(ID["epoch-ai"])
LICENSE = URIRef("https://creativecommons.org/licenses/by/4.0/")


def graph_of(dataset: Dataset) -> str:
    """The named graph holding a dataset's facts: ``graph/epoch/<file stem>``."""
    return str(GRAPH["epoch/" + dataset.stem])


def update_graph(dataset: Dataset, snapshot: str) -> str:
    """The graph of a partial file of the dataset taken on ``snapshot``."""
    return f"{graph_of(dataset)}/{snapshot}"


def document_of(dataset: Dataset, snapshot: str | None = None) -> URIRef:
    """The catalogue node of a dataset (``id:epoch-<stem>``) or of a partial update of it."""
    return URIRef(ID["epoch-" + dataset.stem + (f"-update-{snapshot}" if snapshot else "")])


def catalog_triples(
    dataset: Dataset, *, snapshot: str, partial: bool = False, rows: int = 0
) -> list[tuple[URIRef, URIRef, Identifier]]:
    """The dataset's description: title, publisher, snapshot date, URL, licence, graph, certainty, and
    the columns read (:mod:`aikg.epoch.citations`)."""
    doc = document_of(dataset, snapshot if partial else None)
    title = dataset.title + (f" (snapshot of {snapshot}: {rows} rows)" if partial else "")
    triples = [
        (doc, RDF.type, AIKG.Dataset),
        (doc, RDFS.label, Literal(title, lang="en")),
        (doc, DCTERMS.title, Literal(title, lang="en")),
        (doc, DCTERMS.publisher, PUBLISHER),
        (doc, DCTERMS.issued, Literal(snapshot, datatype=XSD.date)),
        (doc, DCTERMS.language, Literal("en")),
        (doc, DCTERMS.license, LICENSE),
        (doc, DCTERMS.source, Literal(dataset.path)),
        (doc, SCHEMA_URL, URIRef(dataset.url)),
        (doc, AIKG.namedGraph, URIRef(update_graph(dataset, snapshot) if partial else graph_of(dataset))),
        (doc, AIKG.defaultCertainty, AIKG.Reported),
        (
            doc,
            DCTERMS.bibliographicCitation,
            Literal(
                f"Epoch AI, '{dataset.title.removeprefix('Epoch AI: ')}'. Published online at epoch.ai. "
                f"Retrieved from '{dataset.url}'. Licensed under CC BY 4.0."
            ),
        ),
        (PUBLISHER, RDF.type, AIKG.Organization),
        (PUBLISHER, RDFS.label, Literal("Epoch AI", lang="en")),
        (PUBLISHER, SCHEMA_URL, URIRef("https://epoch.ai/")),
    ]
    if partial:
        triples.append((doc, AIKG.partialUpdateOf, document_of(dataset)))
    # The columns the file is read from and the properties each gives: a fact's cell is cited by them.
    triples += column_triples(dataset, doc)
    return triples
