"""Outside SPARQL clients, used unmodified, against a real ``aikg serve`` on an on-disk store."""

from __future__ import annotations

import csv
import io
import json
import subprocess
from pathlib import Path

import requests
from rdflib import Graph, Literal, URIRef
from rdflib.namespace import RDF, RDFS
from rdflib.plugins.stores.sparqlstore import SPARQLStore
from SPARQLWrapper import CSV, JSON, POST, RDFXML, TURTLE, XML, SPARQLWrapper

from aikg.namespaces import AIKG, ID

PROLOGUE = (
    "PREFIX aikg: <https://w3id.org/aikg/ontology#>\n"
    "PREFIX id: <https://w3id.org/aikg/id/>\n"
    "PREFIX rdfs: <http://www.w3.org/2000/01/rdf-schema#>\n"
)
MLPERF = (
    PROLOGUE
    + """SELECT ?submitter ?count ?minutes WHERE {
  id:result-mlperf-training-v6-0-coreweave-deepseek-v3 aikg:submitter ?submitter ;
      aikg:acceleratorCount ?count ; aikg:timeToTrain ?minutes }"""
)
RESULT = ID["result-mlperf-training-v6-0-coreweave-deepseek-v3"]
ROOT = Path(__file__).resolve().parents[1]


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
    resp = requests.get(
        live_server.url + "/id/coreweave", headers={"Accept": "application/ld+json"}, timeout=10
    )
    assert resp.headers["Content-Type"] == "application/ld+json"
    g = Graph().parse(data=resp.text, format="json-ld")
    assert g.value(RESULT, AIKG.submitter) == URIRef(ID.coreweave)


def test_service_description_over_http(live_server):
    resp = requests.get(live_server.url + "/sparql", timeout=10)
    g = Graph().parse(data=resp.text, format="turtle")
    endpoint = URIRef(live_server.url + "/sparql")
    assert endpoint in set(
        g.objects(None, URIRef("http://www.w3.org/ns/sparql-service-description#endpoint"))
    )


# --- writes and the other protocols, by outside clients ---------------------------------------------------

TOKEN = {"Authorization": "Bearer test-token"}
CLIENT_GRAPH = "https://w3id.org/aikg/graph/sources/test-clients"
CLOUD = """PREFIX aikg: <https://w3id.org/aikg/ontology#>
PREFIX id: <https://w3id.org/aikg/id/>
PREFIX rdfs: <http://www.w3.org/2000/01/rdf-schema#>
INSERT DATA { GRAPH <%s> { id:%s a aikg:Neocloud ; rdfs:label "%s"@en } }"""


def _drop(live_server, graph: str) -> None:
    requests.post(
        live_server.url + "/update",
        data={"update": f"DROP SILENT GRAPH <{graph}>"},
        headers=TOKEN,
        timeout=30,
    ).raise_for_status()


def test_sparqlwrapper_update_and_read_back(live_server):
    graph = CLIENT_GRAPH + "-sparqlwrapper"
    client = SPARQLWrapper(live_server.url + "/sparql", updateEndpoint=live_server.url + "/update")
    client.addCustomHttpHeader("Authorization", "Bearer test-token")
    client.setMethod(POST)
    client.setQuery(CLOUD % (graph, "sparqlwrapper-cloud", "SPARQLWrapper Cloud"))
    assert client.query().response.status == 200
    reader = wrapper(live_server, JSON, PROLOGUE + f"SELECT ?l FROM <{graph}> WHERE {{ ?s rdfs:label ?l }}")
    (row,) = reader.queryAndConvert()["results"]["bindings"]
    assert row["l"] == {"type": "literal", "value": "SPARQLWrapper Cloud", "xml:lang": "en"}
    _drop(live_server, graph)


def test_rdflib_sparqlupdatestore_adds_queries_and_removes(live_server):
    """rdflib's SPARQLUpdateStore writes a named graph (INSERT DATA / DELETE DATA), reads it back through
    the protocol's default-graph-uri, and updates with using-graph-uri."""
    from rdflib.plugins.stores.sparqlstore import SPARQLUpdateStore

    graph = URIRef(CLIENT_GRAPH + "-rdflib")
    store = SPARQLUpdateStore(
        live_server.url + "/sparql",
        live_server.url + "/update",
        headers=TOKEN,
        returnFormat="json",
        method="POST",
        autocommit=False,
    )
    g = Graph(store=store, identifier=graph)
    node = ID["rdflib-cloud"]
    g.add((node, RDF.type, AIKG.Neocloud))  # one request for both: a neocloud needs its label (SHACL)
    g.add((node, RDFS.label, Literal("rdflib Cloud", lang="en")))
    store.commit()
    assert set(g.objects(node, RDFS.label)) == {Literal("rdflib Cloud", lang="en")}
    assert len(g) == 2
    g.update(PROLOGUE + "INSERT { ?s rdfs:comment ?l } WHERE { ?s rdfs:label ?l }")  # using-graph-uri=graph
    assert Literal("rdflib Cloud", lang="en") in set(g.objects(node, RDFS.comment))
    g.remove((node, RDFS.comment, None))
    store.commit()
    assert not list(g.objects(node, RDFS.comment))
    _drop(live_server, str(graph))


def test_graph_store_protocol_by_plain_http(live_server):
    """The Graph Store Protocol as a plain HTTP client uses it: POST to the store creates a graph (201 and
    Location), GET it back, PUT replaces, DELETE removes."""
    body = (
        "<https://w3id.org/aikg/id/gsp-cloud> a <https://w3id.org/aikg/ontology#Neocloud> ; "
        '<http://www.w3.org/2000/01/rdf-schema#label> "GSP Cloud"@en .'
    )
    resp = requests.post(
        live_server.url + "/data",
        data=body.encode(),
        headers={**TOKEN, "Content-Type": "text/turtle"},
        timeout=30,
    )
    assert resp.status_code == 201
    location = resp.headers["Location"]
    got = requests.get(location, headers={"Accept": "application/n-triples"}, timeout=30)
    assert got.status_code == 200 and '"GSP Cloud"@en' in got.text
    assert requests.head(location, timeout=30).status_code == 200
    assert requests.delete(location, headers=TOKEN, timeout=30).status_code == 200
    assert requests.get(location, timeout=30).status_code == 404


COMUNICA = ROOT / "tests" / "clients" / "comunica.mjs"
NODE_MODULES = ROOT / "service" / "aikg" / "web" / "node_modules"


def comunica(live_server, kind: str, text: str) -> object:
    """Run Comunica (installed from npm with ``npm ci --prefix service/aikg/web``) against the server."""
    cmd = [
        "node",
        str(COMUNICA),
        str(NODE_MODULES),
        live_server.url + "/sparql",
        kind,
        text,
        live_server.url + "/update",
        "test-token",
    ]
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr[-2000:]
    return json.loads(done.stdout)


def test_comunica_select_ask_and_construct(live_server):
    (row,) = comunica(live_server, "select", MLPERF)
    assert row["submitter"] == {"termType": "NamedNode", "value": str(ID.coreweave)}
    assert row["count"]["value"] == "8192"
    labels = comunica(live_server, "select", PROLOGUE + "SELECT ?l WHERE { aikg:Neocloud rdfs:label ?l }")
    assert {(r["l"]["value"], r["l"].get("language")) for r in labels} == {
        ("neocloud", "en"),
        ("新兴 GPU 云", "zh"),
    }
    ask = PROLOGUE + "ASK { aikg:Neocloud rdfs:subClassOf aikg:CloudOperator }"
    assert comunica(live_server, "ask", ask) is True
    quads = comunica(live_server, "construct", PROLOGUE + "CONSTRUCT WHERE { aikg:Neocloud rdfs:label ?l }")
    assert {q[2]["value"] for q in quads} == {"neocloud", "新兴 GPU 云"}


def test_comunica_update(live_server):
    graph = CLIENT_GRAPH + "-comunica"
    done = comunica(live_server, "update", CLOUD % (graph, "comunica-cloud", "Comunica Cloud"))
    assert done == {"ok": True}
    query = PROLOGUE + f"SELECT ?l WHERE {{ GRAPH <{graph}> {{ ?s rdfs:label ?l }} }}"
    rows = comunica(live_server, "select", query)
    assert [r["l"]["value"] for r in rows] == ["Comunica Cloud"]
    _drop(live_server, graph)
