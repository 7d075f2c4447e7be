"""The SPARQL 1.1 Service Description of ``/sparql``: what a client may ask and which data it will find.

It describes the endpoint, the query language, every result format, that the default graph is the union
of the named graphs (``sd:UnionDefaultGraph``), and each named graph with its size.
"""

from __future__ import annotations

from rdflib import BNode, Graph, Literal, Namespace, URIRef
from rdflib.namespace import DCTERMS, RDF, VOID, XSD

from aikg.rdf.formats import GRAPH_FORMATS, RESULT_FORMATS
from aikg.store import Store

SD = Namespace("http://www.w3.org/ns/sparql-service-description#")
W3_FORMATS = Namespace("http://www.w3.org/ns/formats/")

FORMAT_IRIS: dict[str, URIRef] = {
    "application/sparql-results+json": W3_FORMATS["SPARQL_Results_JSON"],
    "application/sparql-results+xml": W3_FORMATS["SPARQL_Results_XML"],
    "text/csv": W3_FORMATS["SPARQL_Results_CSV"],
    "text/tab-separated-values": W3_FORMATS["SPARQL_Results_TSV"],
    "text/turtle": W3_FORMATS["Turtle"],
    "application/n-triples": W3_FORMATS["N-Triples"],
    "application/ld+json": W3_FORMATS["JSON-LD"],
    "application/rdf+xml": W3_FORMATS["RDF_XML"],
}
"""The W3C's IRIs for the formats the endpoint produces (http://www.w3.org/ns/formats/)."""


def service_description(store: Store, endpoint: str) -> Graph:
    """The description of the endpoint at ``endpoint`` over the data now in ``store``."""
    g = Graph()
    g.bind("sd", SD)
    g.bind("void", VOID)
    g.bind("dcterms", DCTERMS)
    service = URIRef(endpoint + "#service")
    g.add((service, RDF.type, SD.Service))
    g.add((service, SD.endpoint, URIRef(endpoint)))
    g.add((service, SD.supportedLanguage, SD.SPARQL11Query))
    g.add((service, SD.feature, SD.UnionDefaultGraph))
    g.add((service, SD.defaultEntailmentRegime, URIRef("http://www.w3.org/ns/entailment/Simple")))
    for f in (*RESULT_FORMATS, *GRAPH_FORMATS):
        g.add((service, SD.resultFormat, FORMAT_IRIS[f.mime]))

    dataset, default = BNode("dataset"), BNode("default")
    g.add((service, SD.defaultDataset, dataset))
    g.add((dataset, RDF.type, SD.Dataset))
    g.add((dataset, SD.defaultGraph, default))
    g.add((default, RDF.type, SD.Graph))
    g.add((default, DCTERMS.description,
           Literal("The union of all named graphs (every triple lives in a named graph).", lang="en")))
    g.add((default, VOID.triples, Literal(store.count(), datatype=XSD.integer)))
    for i, name in enumerate(store.graphs()):
        named, graph = BNode(f"named{i}"), BNode(f"graph{i}")  # stable labels: stable documents
        g.add((dataset, SD.namedGraph, named))
        g.add((named, RDF.type, SD.NamedGraph))
        g.add((named, SD.name, URIRef(name)))
        g.add((named, SD.graph, graph))
        g.add((graph, RDF.type, SD.Graph))
        g.add((graph, VOID.triples, Literal(store.count(name), datatype=XSD.integer)))
    return g
