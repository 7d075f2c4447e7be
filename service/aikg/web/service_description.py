"""The SPARQL 1.1 Service Description of aikg's endpoints: what a client may ask, where, and which data
it will find.

Returned by a GET without parameters on ``/sparql`` and on ``/update`` (Service Description §2). It
describes two services over one dataset: the query endpoint (``sd:SPARQL11Query``, every result format
from the one format table) and the update endpoint (``sd:SPARQL11Update``); both name the Graph Store
Protocol endpoint ``/data`` with ``aikg:graphStore`` (SPARQL 1.1 has no term for it; the term is
described in the document itself). The default graph is the union of the named graphs
(``sd:UnionDefaultGraph``, its size counting each triple once); the dataset lists each named graph with
its size. A client's dataset may name any graph (one the store does not hold is empty, and nothing is
fetched), so no ``sd:availableGraphs`` limits it and ``sd:DereferencesURIs`` is not claimed.
"""

from __future__ import annotations

import pyoxigraph as ox
from flask import request
from rdflib import BNode, Graph, Literal, Namespace, URIRef
from rdflib.namespace import DCTERMS, RDF, RDFS, VOID, XSD

from aikg.namespaces import AIKG, BASE, DEFAULT_GRAPH
from aikg.query.runner import allowed_services
from aikg.rdf.formats import GRAPH_FORMATS, RESULT_FORMATS
from aikg.settings import Settings
from aikg.store import Store

SD = Namespace("http://www.w3.org/ns/sparql-service-description#")
ENTAILMENT_SIMPLE = URIRef("http://www.w3.org/ns/entailment/Simple")
GRAPH_STORE = AIKG["graphStore"]
"""Relates a service to its SPARQL 1.1 Graph Store HTTP Protocol endpoint (no standard term exists)."""


def service_root() -> str:
    """The service's public URL without a trailing slash: setting ``base_url``, else the request's."""
    from aikg.web import current_settings

    return current_settings().base_url.rstrip("/") or request.url_root.rstrip("/")


def service_description(store: Store, root: str, settings: Settings) -> Graph:
    """The description of the endpoints under ``root`` over the data now in ``store``."""
    g = Graph()
    for prefix, ns in (("sd", SD), ("void", VOID), ("dcterms", DCTERMS), ("aikg", AIKG), ("rdfs", RDFS)):
        g.bind(prefix, ns)
    query, update, data = URIRef(root + "/sparql"), URIRef(root + "/update"), URIRef(root + "/data")
    dataset = _dataset(g, store)
    for service, endpoint, language in (
        (URIRef(root + "/sparql#service"), query, SD.SPARQL11Query),
        (URIRef(root + "/update#service"), update, SD.SPARQL11Update),
    ):
        g.add((service, RDF.type, SD.Service))
        g.add((service, SD.endpoint, endpoint))
        g.add((service, SD.supportedLanguage, language))
        g.add((service, SD.feature, SD.UnionDefaultGraph))
        g.add((service, SD.defaultEntailmentRegime, ENTAILMENT_SIMPLE))
        g.add((service, SD.defaultDataset, dataset))
        g.add((service, GRAPH_STORE, data))
    query_service = URIRef(root + "/sparql#service")
    for f in (*RESULT_FORMATS, *GRAPH_FORMATS):
        g.add((query_service, SD.resultFormat, URIRef(str(f.iri))))
    if allowed_services(settings):
        g.add((query_service, SD.feature, SD.BasicFederatedQuery))
    g.add((data, RDFS.label, Literal("SPARQL 1.1 Graph Store HTTP Protocol endpoint", lang="en")))
    g.add((data, DCTERMS.conformsTo, URIRef("http://www.w3.org/TR/sparql11-http-rdf-update/")))
    g.add(
        (
            data,
            RDFS.comment,
            Literal(
                f"?graph=<iri> names a graph (clients write under {BASE}graph/); ?default names "
                f"<{DEFAULT_GRAPH}>; <{root}/graph/...> identifies <{BASE}graph/...> directly.",
                lang="en",
            ),
        )
    )
    g.add((GRAPH_STORE, RDF.type, RDF.Property))
    g.add((GRAPH_STORE, RDFS.domain, SD.Service))
    g.add((GRAPH_STORE, RDFS.label, Literal("graph store", lang="en")))
    g.add(
        (
            GRAPH_STORE,
            RDFS.comment,
            Literal(
                "The SPARQL 1.1 Graph Store HTTP Protocol endpoint that manages the graphs of the "
                "service's dataset.",
                lang="en",
            ),
        )
    )
    return g


_MERGED_COUNT = "SELECT (COUNT(*) AS ?n) WHERE { ?s ?p ?o }"
_DISTINCT_COUNT = "SELECT (COUNT(*) AS ?n) WHERE { SELECT DISTINCT ?s ?p ?o WHERE { GRAPH ?g { ?s ?p ?o } } }"


def default_graph_size(store: Store) -> int:
    """The triples of the default graph: the RDF merge of the named graphs, so a triple two graphs state
    counts once (regression: the quads were counted, 78,244 stated for 72,645 triples). The embedded
    store keeps that merge as its default graph; elsewhere the named graphs' triples are counted once."""
    found = store.query(_MERGED_COUNT if store.kind == "oxigraph" else _DISTINCT_COUNT)
    cell = found.rows[0][0] if found.rows else None
    return int(cell.value) if isinstance(cell, ox.Literal) else 0


def _dataset(g: Graph, store: Store) -> BNode:
    dataset, default = BNode("dataset"), BNode("default")
    g.add((dataset, RDF.type, SD.Dataset))
    g.add((dataset, SD.defaultGraph, default))
    g.add((default, RDF.type, SD.Graph))
    g.add(
        (
            default,
            DCTERMS.description,
            Literal("The union of all named graphs (every triple lives in a named graph).", lang="en"),
        )
    )
    g.add((default, VOID.triples, Literal(default_graph_size(store), datatype=XSD.integer)))
    for i, name in enumerate(store.graphs()):
        named, graph = BNode(f"named{i}"), BNode(f"graph{i}")  # stable labels: stable documents
        g.add((dataset, SD.namedGraph, named))
        g.add((named, RDF.type, SD.NamedGraph))
        g.add((named, SD.name, URIRef(name)))
        g.add((named, SD.graph, graph))
        g.add((graph, RDF.type, SD.Graph))
        g.add((graph, VOID.triples, Literal(store.count(name), datatype=XSD.integer)))
    return dataset
