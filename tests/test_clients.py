"""Outside SPARQL clients, used unmodified, against a real ``aikg serve`` on an on-disk store."""

from __future__ import annotations

import csv
import io
import json
import subprocess
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
import requests
from rdflib import Graph, Literal, URIRef
from rdflib.namespace import RDF, RDFS
from rdflib.plugins.stores.sparqlstore import SPARQLStore
from SPARQLWrapper import (
    CSV,
    GET,
    JSON,
    JSONLD,
    N3,
    POST,
    POSTDIRECTLY,
    RDFXML,
    TSV,
    TURTLE,
    URLENCODED,
    XML,
    SPARQLWrapper,
)

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
SRX = "{http://www.w3.org/2005/sparql-results#}"


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
    its IRI as Location), GET it back by that IRI, HEAD, DELETE removes."""
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
    graph = {"graph": resp.headers["Location"]}
    assert resp.json()["graphs"] == [graph["graph"]]
    url = live_server.url + "/data"
    got = requests.get(url, params=graph, headers={"Accept": "application/n-triples"}, timeout=30)
    assert got.status_code == 200 and '"GSP Cloud"@en' in got.text
    assert requests.head(url, params=graph, timeout=30).status_code == 200
    assert requests.delete(url, params=graph, headers=TOKEN, timeout=30).status_code == 200
    assert requests.get(url, params=graph, timeout=30).status_code == 404


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


# --- every result format and request form, every query form (issue 45) --------------------------------

SELECT_TEXT = PROLOGUE + "SELECT ?l WHERE { aikg:Neocloud rdfs:label ?l }"
ASK_TEXT = PROLOGUE + "ASK { id:coreweave a aikg:Neocloud }"
CONSTRUCT_TEXT = PROLOGUE + "CONSTRUCT WHERE { aikg:Neocloud rdfs:label ?l }"
DESCRIBE_TEXT = PROLOGUE + "DESCRIBE aikg:Neocloud"
LABELS = {"neocloud", "新兴 GPU 云"}


def _labels_of(fmt: str, converted: object) -> set[str]:
    """The labels in a SPARQLWrapper answer, whatever it converted the body into."""
    if fmt == JSON:
        return {b["l"]["value"] for b in converted["results"]["bindings"]}  # type: ignore[index]
    if fmt == XML:
        return {n.firstChild.data for n in converted.getElementsByTagName("literal")}  # type: ignore[attr-defined]
    text = converted.decode()  # type: ignore[attr-defined]
    rows = list(csv.reader(io.StringIO(text), delimiter="\t" if fmt == TSV else ","))
    return {r[0].rsplit("@", 1)[0].strip('"') for r in rows[1:]}


def _graph_of(fmt: str, converted: object) -> Graph:
    if isinstance(converted, Graph):
        return converted
    return Graph().parse(data=converted, format={TURTLE: "turtle", N3: "turtle", JSONLD: "json-ld"}[fmt])


def test_sparqlwrapper_every_format_by_get_and_both_posts(live_server):
    """SPARQLWrapper, unmodified: every result format it offers for each query form, sent by GET, by an
    URL-encoded POST and by a direct POST, answered in that format (regression: JSON-LD was a 406)."""
    forms = [(GET, URLENCODED), (POST, URLENCODED), (POST, POSTDIRECTLY)]
    failures = []
    for method, request in forms:
        for fmt in (JSON, XML, CSV, TSV):
            client = wrapper(live_server, fmt, SELECT_TEXT)
            client.setMethod(method)
            client.setRequestMethod(request)
            if _labels_of(fmt, client.queryAndConvert()) != LABELS:
                failures.append(("select", fmt, method, request))
        for fmt in (JSON, XML):
            client = wrapper(live_server, fmt, ASK_TEXT)
            client.setMethod(method)
            client.setRequestMethod(request)
            answer = client.queryAndConvert()
            value = (
                answer["boolean"]
                if fmt == JSON
                else answer.getElementsByTagName("boolean")[0].firstChild.data
            )
            if value not in (True, "true"):
                failures.append(("ask", fmt, method, request))
        for text in (CONSTRUCT_TEXT, DESCRIBE_TEXT):
            for fmt in (TURTLE, N3, RDFXML, XML, JSONLD):
                client = wrapper(live_server, fmt, text)
                client.setMethod(method)
                client.setRequestMethod(request)
                g = _graph_of(fmt, client.queryAndConvert())
                if {str(o) for o in g.objects(AIKG.Neocloud, RDFS.label)} != LABELS:
                    failures.append((text.split()[-4], fmt, method, request))
    assert failures == []


def test_rdflib_sparqlstore_every_query_form(live_server):
    graph = Graph(store=SPARQLStore(live_server.url + "/sparql"))
    assert {str(r.l) for r in graph.query(SELECT_TEXT)} == LABELS
    assert graph.query(ASK_TEXT).askAnswer is True
    for text in (CONSTRUCT_TEXT, DESCRIBE_TEXT):
        g = graph.query(text).graph
        assert {str(o) for o in g.objects(AIKG.Neocloud, RDFS.label)} == LABELS


def test_rdflib_graph_over_a_graph_with_no_triples(live_server):
    """rdflib's ``Graph(identifier=…)`` over a graph the store does not hold, or that was emptied, is an
    empty graph (regression: naming it as the dataset was a 403, and rdflib raised)."""
    from rdflib.plugins.stores.sparqlstore import SPARQLUpdateStore

    store = SPARQLUpdateStore(
        live_server.url + "/sparql", live_server.url + "/update", headers=TOKEN, returnFormat="json"
    )
    g = Graph(store=store, identifier=URIRef("http://example.org/clients/empty-then-not"))
    assert len(g) == 0 and list(g.query("SELECT * WHERE { ?s ?p ?o }")) == []
    g.add((URIRef("urn:x:s"), URIRef("urn:x:p"), Literal("o")))
    assert len(g) == 1
    g.remove((None, None, None))
    assert len(g) == 0 and not g.query("ASK { ?s ?p ?o }").askAnswer


def _api_rows(live_server, name: str, raw: dict) -> list[tuple]:
    body = requests.get(f"{live_server.url}/api/queries/{name}", params=raw, timeout=60).json()
    return sorted(tuple((row[c] or {}).get("value", "") for c in body["columns"]) for row in body["rows"])


def test_every_named_query_bound_by_rdflib_init_bindings_gives_the_apis_rows(live_server):
    """A named query's file run by rdflib's SPARQLStore with ``initBindings`` (sent as a VALUES block
    after the WHERE clause) gives the rows the API gives (regression: unconfirmed-claims gave none).
    events-between compares its dates by range, which a VALUES block after the WHERE clause cannot
    reach (Query §18.2.4.3): bound by one at the end of the WHERE clause instead."""
    from aikg.query.named import bind_parameters, load_queries
    from aikg.store.terms import to_rdflib
    from test_named_query_bindings import EXAMPLES, RANGE_FILTERED, inner_values

    graph = Graph(store=SPARQLStore(live_server.url + "/sparql", returnFormat="json", method="POST"))
    checked = 0
    for query in load_queries().values():
        raw = {p.name: EXAMPLES[p.name][0] for p in query.parameters}
        bound = bind_parameters(query, raw)
        if query.name in RANGE_FILTERED:
            result = graph.query(inner_values(query.text, bound, at_end=True))
        else:
            result = graph.query(query.text, initBindings={k: to_rdflib(v) for k, v in bound.items()})
        columns = [str(v) for v in result.vars]
        theirs = sorted(tuple("" if row[c] is None else str(row[c]) for c in columns) for row in result)
        assert theirs == _api_rows(live_server, query.name, raw), query.name
        checked += 1
    assert checked == len(load_queries())


# --- Comunica, queries and updates (issue 45) ------------------------------------------------------------


def test_comunica_updates_and_queries_ten_of_ten(live_server):
    """Ten updates, each read back, by one Comunica (Node's fetch, which keeps connections), with pauses
    past the server's keep-alive timeout between some of them (regression: 2 of 3 updates failed when
    fetch reused a connection the server had closed without saying it would)."""
    assert comunica(live_server, "rounds", "10") == ["ok"] * 10
    _drop(live_server, "http://example.org/clients/comunica-loop")


def test_the_server_says_how_long_it_keeps_a_connection(live_server):
    resp = requests.get(live_server.url + "/sparql", params={"query": ASK_TEXT}, timeout=30)
    assert resp.headers["Connection"] == "keep-alive"
    assert resp.headers["Keep-Alive"] == "timeout=2"  # gunicorn's keepalive


def test_a_query_too_long_for_get_is_told_to_use_post(live_server):
    """roqet sends every query by GET: a query over the request-line limit gets 414 saying POST takes it."""
    long = SELECT_TEXT + " #" + "x" * 9000
    resp = requests.get(live_server.url + "/sparql", params={"query": long}, timeout=30)
    assert resp.status_code == 414 and "/sparql by POST" in resp.json()["message"]
    # the same advice reaches a long question too: it names where POST is taken, never /api/ask (GET only)
    resp = requests.get(live_server.url + "/api/ask", params={"q": "x" * 9000}, timeout=30)
    assert resp.status_code == 414 and "/sparql by POST" in resp.json()["message"]
    resp = requests.post(live_server.url + "/sparql", data={"query": long}, timeout=30)
    assert {b["l"]["value"] for b in resp.json()["results"]["bindings"]} == LABELS


@pytest.mark.needs("roqet")
def test_roqet(live_server):
    """roqet (rasqal-utils, from Debian) sends every query by GET, accepting SPARQL XML results only: a
    SELECT is answered; a CONSTRUCT or DESCRIBE, whose answer is a graph (Protocol §2.1.6), is refused
    with 406 naming the graph formats rather than answered in a format it did not ask for."""

    def roqet(text: str, *extra: str) -> subprocess.CompletedProcess:
        cmd = ["roqet", "-i", "sparql11-query", "-p", live_server.url + "/sparql", "-e", text, *extra]
        return subprocess.run(cmd, capture_output=True, text=True, timeout=60, check=False)

    for fmt, parse in (
        ("csv", lambda out: {r[0] for r in list(csv.reader(io.StringIO(out)))[1:]}),
        ("xml", lambda out: {e.text for e in ET.fromstring(out).iter(f"{SRX}literal")}),
    ):
        done = roqet(SELECT_TEXT, "-r", fmt)
        assert done.returncode == 0 and "Error" not in done.stderr, done.stderr
        assert parse(done.stdout) == LABELS
    for text in (CONSTRUCT_TEXT, DESCRIBE_TEXT):
        done = roqet(text)
        assert "HTTP status 406" in done.stderr
