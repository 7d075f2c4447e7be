"""Outside SPARQL clients, used unmodified, against a real ``aikg serve`` on an on-disk store."""

from __future__ import annotations

import csv
import io

import requests
from rdflib import Graph, Literal, URIRef
from rdflib.namespace import RDF, RDFS
from rdflib.plugins.stores.sparqlstore import SPARQLStore
from SPARQLWrapper import CSV, JSON, POST, RDFXML, TURTLE, XML, SPARQLWrapper

from aikg.namespaces import AIKG, ID

PROLOGUE = ("PREFIX aikg: <https://w3id.org/aikg/ontology#>\n"
            "PREFIX id: <https://w3id.org/aikg/id/>\n"
            "PREFIX rdfs: <http://www.w3.org/2000/01/rdf-schema#>\n")
MLPERF = PROLOGUE + """SELECT ?submitter ?count ?minutes WHERE {
  id:result-mlperf-training-v6-0-coreweave-deepseek-v3 aikg:submitter ?submitter ;
      aikg:acceleratorCount ?count ; aikg:timeToTrain ?minutes }"""
RESULT = ID["result-mlperf-training-v6-0-coreweave-deepseek-v3"]


def wrapper(live_server, fmt: str, query: str) -> SPARQLWrapper:
    client = SPARQLWrapper(live_server.url + "/sparql")
    client.setReturnFormat(fmt)
    client.setQuery(query)
    return client


def test_sparqlwrapper_json(live_server):
    result = wrapper(live_server, JSON, MLPERF).queryAndConvert()
    (row,) = result["results"]["bindings"]
    assert row["submitter"]["value"] == str(ID.coreweave)
    assert int(row["count"]["value"]) == 8192
    assert row["minutes"]["value"] == "2.02"


def test_sparqlwrapper_json_by_post(live_server):
    client = wrapper(live_server, JSON, PROLOGUE + "ASK { id:coreweave a aikg:Neocloud }")
    client.setMethod(POST)
    assert client.queryAndConvert()["boolean"] is True


def test_sparqlwrapper_xml(live_server):
    doc = wrapper(live_server, XML, MLPERF).queryAndConvert()  # an xml.dom.minidom document
    bindings = doc.getElementsByTagName("binding")
    values = {b.getAttribute("name"): b.firstChild.firstChild.data for b in bindings}
    assert values == {"submitter": str(ID.coreweave), "count": "8192", "minutes": "2.02"}


def test_sparqlwrapper_csv(live_server):
    data = wrapper(live_server, CSV, MLPERF).queryAndConvert()
    rows = list(csv.reader(io.StringIO(data.decode())))
    assert rows == [["submitter", "count", "minutes"], [str(ID.coreweave), "8192", "2.02"]]


def test_sparqlwrapper_construct(live_server):
    query = PROLOGUE + "CONSTRUCT WHERE { id:result-mlperf-training-v6-0-coreweave-deepseek-v3 ?p ?o }"
    for fmt in (RDFXML, TURTLE):
        converted = wrapper(live_server, fmt, query).queryAndConvert()
        g = converted if isinstance(converted, Graph) else Graph().parse(data=converted, format="turtle")
        assert (RESULT, AIKG.submitter, ID.coreweave) in g
        assert int(g.value(RESULT, AIKG.acceleratorCount)) == 8192


def test_rdflib_sparqlstore_select_and_ask(live_server):
    graph = Graph(store=SPARQLStore(live_server.url + "/sparql"))
    rows = list(graph.query(MLPERF))
    assert [(r.submitter, int(r["count"]), str(r.minutes)) for r in rows] == [(ID.coreweave, 8192, "2.02")]
    assert graph.query(PROLOGUE + "ASK { aikg:Neocloud rdfs:subClassOf aikg:CloudOperator }").askAnswer
    assert not graph.query(PROLOGUE + "ASK { aikg:Neocloud rdfs:subClassOf aikg:Model }").askAnswer


def test_rdflib_sparqlstore_graph_api(live_server):
    graph = Graph(store=SPARQLStore(live_server.url + "/sparql"))
    assert (ID.coreweave, RDF.type, AIKG.Neocloud) in graph
    assert Literal("neocloud", lang="en") in set(graph.objects(AIKG.Neocloud, RDFS.label))


def test_linked_data_over_http(live_server):
    resp = requests.get(live_server.url + "/id/coreweave", headers={"Accept": "application/ld+json"},
                        timeout=10)
    assert resp.headers["Content-Type"] == "application/ld+json"
    g = Graph().parse(data=resp.text, format="json-ld")
    assert g.value(RESULT, AIKG.submitter) == URIRef(ID.coreweave)


def test_service_description_over_http(live_server):
    resp = requests.get(live_server.url + "/sparql", timeout=10)
    g = Graph().parse(data=resp.text, format="turtle")
    endpoint = URIRef(live_server.url + "/sparql")
    assert endpoint in set(g.objects(None, URIRef("http://www.w3.org/ns/sparql-service-description#endpoint")))
