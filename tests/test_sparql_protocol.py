"""The SPARQL 1.1 Protocol endpoint at /sparql, through the Flask test client."""

from __future__ import annotations

import csv
import io
import json
import xml.etree.ElementTree as ET

import pytest
import rdflib.namespace
from rdflib import Graph, Literal, Namespace, URIRef
from rdflib.compare import isomorphic
from rdflib.namespace import RDF, RDFS
from rdflib.plugins.sparql.results.jsonresults import JSONResultParser

from aikg.namespaces import AIKG, GRAPH, ID
from aikg.web import create_app

SD = Namespace("http://www.w3.org/ns/sparql-service-description#")
SRX = "{http://www.w3.org/2005/sparql-results#}"
PROLOGUE = (
    "PREFIX aikg: <https://w3id.org/aikg/ontology#>\nPREFIX rdfs: <http://www.w3.org/2000/01/rdf-schema#>\n"
)
LABEL_QUERY = PROLOGUE + "SELECT ?label WHERE { aikg:Neocloud rdfs:label ?label } ORDER BY ?label"
RESULT_QUERY = (
    PROLOGUE
    + """SELECT ?count ?minutes WHERE {
  <https://w3id.org/aikg/id/result-mlperf-training-v6-0-coreweave-deepseek-v3>
      aikg:acceleratorCount ?count ; aikg:timeToTrain ?minutes }"""
)
CONSTRUCT_QUERY = PROLOGUE + "CONSTRUCT WHERE { aikg:Neocloud rdfs:subClassOf ?super ; rdfs:label ?l }"
ONTOLOGY = str(GRAPH["ontology"])
MLPERF_SOURCE = str(GRAPH["sources/frontier-insights-coreweave-mlperf-2026-08-18"])


def assert_error(resp, status: int) -> dict:
    """The response is the one JSON error envelope with this status."""
    assert resp.status_code == status
    assert resp.mimetype == "application/json"
    body = resp.get_json()
    assert set(body) == {"ok", "status", "error", "message", "errors"}
    assert body["ok"] is False and body["status"] == status
    assert body["message"]
    return body


def labels_of(resp) -> list[tuple[str, str | None]]:
    """(value, language) of each ?label binding in a SPARQL JSON response."""
    return [(b["label"]["value"], b["label"].get("xml:lang")) for b in resp.get_json()["results"]["bindings"]]


# --- the three ways to send a query ---------------------------------------------------------------


def test_get_query_returns_sparql_json(ro_client):
    resp = ro_client.get("/sparql", query_string={"query": LABEL_QUERY})
    assert resp.status_code == 200
    assert resp.mimetype == "application/sparql-results+json"
    assert resp.headers["X-AIKG-Truncated"] == "false"
    assert "Accept" in resp.headers["Vary"]
    body = resp.get_json()
    assert body["head"] == {"vars": ["label"]}
    assert "truncated" not in body
    assert labels_of(resp) == [("neocloud", "en"), ("新兴 GPU 云", "zh")]


def test_post_form_encoded(ro_client):
    resp = ro_client.post("/sparql", data={"query": LABEL_QUERY})
    assert resp.status_code == 200
    assert labels_of(resp) == [("neocloud", "en"), ("新兴 GPU 云", "zh")]


def test_post_sparql_query_body(ro_client):
    resp = ro_client.post(
        "/sparql", data=LABEL_QUERY.encode(), content_type="application/sparql-query; charset=utf-8"
    )
    assert resp.status_code == 200
    assert labels_of(resp) == [("neocloud", "en"), ("新兴 GPU 云", "zh")]


def test_seed_values_keep_their_datatypes(ro_client):
    resp = ro_client.get("/sparql", query_string={"query": RESULT_QUERY})
    (row,) = resp.get_json()["results"]["bindings"]
    xsd = rdflib.namespace.XSD
    assert row["count"] == {"type": "literal", "value": "8192", "datatype": str(xsd.integer)}
    assert row["minutes"] == {"type": "literal", "value": "2.02", "datatype": str(xsd.decimal)}


# --- result formats --------------------------------------------------------------------------------


def test_select_as_xml(ro_client):
    resp = ro_client.get(
        "/sparql", query_string={"query": LABEL_QUERY}, headers={"Accept": "application/sparql-results+xml"}
    )
    assert resp.mimetype == "application/sparql-results+xml"
    root = ET.fromstring(resp.data)
    assert [v.get("name") for v in root.iter(SRX + "variable")] == ["label"]
    literals = [
        (lit.text, lit.get("{http://www.w3.org/XML/1998/namespace}lang"))
        for lit in root.iter(SRX + "literal")
    ]
    assert literals == [("neocloud", "en"), ("新兴 GPU 云", "zh")]


def test_select_as_csv(ro_client):
    resp = ro_client.get("/sparql", query_string={"query": RESULT_QUERY}, headers={"Accept": "text/csv"})
    assert resp.mimetype == "text/csv"
    assert resp.data.endswith(b"\r\n")
    rows = list(csv.reader(io.StringIO(resp.data.decode())))
    assert rows == [["count", "minutes"], ["8192", "2.02"]]


def test_select_as_tsv_keeps_term_syntax(ro_client):
    resp = ro_client.get(
        "/sparql", query_string={"query": LABEL_QUERY}, headers={"Accept": "text/tab-separated-values"}
    )
    assert resp.mimetype == "text/tab-separated-values"
    assert resp.data.decode().splitlines() == ["?label", '"neocloud"@en', '"新兴 GPU 云"@zh']


def test_format_parameter_overrides_accept(ro_client):
    resp = ro_client.get(
        "/sparql",
        query_string={"query": RESULT_QUERY, "format": "csv"},
        headers={"Accept": "application/sparql-results+json"},
    )
    assert resp.mimetype == "text/csv"


def test_plain_json_accept_means_sparql_json(ro_client):
    resp = ro_client.get(
        "/sparql", query_string={"query": RESULT_QUERY}, headers={"Accept": "application/json"}
    )
    assert resp.mimetype == "application/sparql-results+json"


def test_ask_in_json_and_xml(ro_client):
    query = PROLOGUE + "ASK { aikg:Neocloud rdfs:subClassOf aikg:CloudOperator }"
    assert ro_client.get("/sparql", query_string={"query": query}).get_json() == {"head": {}, "boolean": True}
    resp = ro_client.get("/sparql", query_string={"query": query, "format": "xml"})
    assert ET.fromstring(resp.data).find(SRX + "boolean").text == "true"


@pytest.mark.parametrize(
    "mime, rdflib_format",
    [
        ("text/turtle", "turtle"),
        ("application/n-triples", "nt"),
        ("application/ld+json", "json-ld"),
        ("application/rdf+xml", "xml"),
    ],
)
def test_construct_in_every_graph_format(ro_client, mime, rdflib_format):
    resp = ro_client.get("/sparql", query_string={"query": CONSTRUCT_QUERY}, headers={"Accept": mime})
    assert resp.status_code == 200
    assert resp.mimetype == mime
    got = Graph().parse(data=resp.data, format=rdflib_format)
    expected = Graph()
    expected.add((AIKG.Neocloud, RDFS.subClassOf, AIKG.CloudOperator))
    expected.add((AIKG.Neocloud, RDFS.label, Literal("neocloud", lang="en")))
    expected.add((AIKG.Neocloud, RDFS.label, Literal("新兴 GPU 云", lang="zh")))
    assert isomorphic(got, expected)


def test_construct_defaults_to_turtle(ro_client):
    resp = ro_client.get("/sparql", query_string={"query": CONSTRUCT_QUERY})
    assert resp.mimetype == "text/turtle"
    assert resp.headers["X-AIKG-Truncated"] == "false"


def test_describe_returns_a_graph(ro_client):
    resp = ro_client.get(
        "/sparql",
        query_string={"query": "DESCRIBE <https://w3id.org/aikg/id/coreweave>"},
        headers={"Accept": "application/n-triples"},
    )
    g = Graph().parse(data=resp.data, format="nt")
    assert (ID.coreweave, RDFS.label, Literal("CoreWeave", lang="en")) in g
    assert (ID.coreweave, RDF.type, AIKG.Neocloud) in g


# --- the dataset: default-graph-uri, named-graph-uri, FROM ------------------------------------------


def test_default_graph_uri_restricts_the_default_graph(ro_client):
    inside = ro_client.get("/sparql", query_string={"query": LABEL_QUERY, "default-graph-uri": ONTOLOGY})
    assert labels_of(inside) == [("neocloud", "en"), ("新兴 GPU 云", "zh")]
    outside = ro_client.get(
        "/sparql", query_string={"query": LABEL_QUERY, "default-graph-uri": MLPERF_SOURCE}
    )
    assert labels_of(outside) == []


def test_default_graph_uri_is_repeatable(ro_client):
    query = PROLOGUE + (
        "SELECT ?label WHERE { { aikg:Neocloud rdfs:label ?label } UNION "
        "{ <https://w3id.org/aikg/id/coreweave> rdfs:label ?label } } ORDER BY ?label"
    )
    resp = ro_client.get(
        "/sparql",
        query_string=[
            ("query", query),
            ("default-graph-uri", ONTOLOGY),
            ("default-graph-uri", MLPERF_SOURCE),
        ],
    )
    assert labels_of(resp) == [("CoreWeave", "en"), ("neocloud", "en"), ("新兴 GPU 云", "zh")]


def test_named_graph_uri_alone_leaves_the_default_graph_empty(ro_client):
    query = (
        PROLOGUE + "SELECT ?g ?in_default WHERE { GRAPH ?g { aikg:Neocloud a ?c } "
        "BIND(EXISTS { aikg:Neocloud a ?c } AS ?in_default) }"
    )
    resp = ro_client.post("/sparql", data={"query": query, "named-graph-uri": ONTOLOGY})
    rows = resp.get_json()["results"]["bindings"]
    assert {r["g"]["value"] for r in rows} == {ONTOLOGY}
    # By value: Virtuoso 7 writes booleans as the integers 0 and 1.
    assert {r["in_default"]["value"] for r in rows} <= {"false", "0"} and rows


def test_from_clause_is_honoured(ro_client):
    query = LABEL_QUERY.replace("SELECT ?label", f"SELECT ?label FROM <{MLPERF_SOURCE}>")
    assert labels_of(ro_client.get("/sparql", query_string={"query": query})) == []


def test_invalid_graph_iri_is_a_400(ro_client):
    resp = ro_client.get("/sparql", query_string={"query": LABEL_QUERY, "default-graph-uri": "not an iri"})
    assert resp.status_code in (400, 403)
    assert_error(resp, resp.status_code)


# --- errors -----------------------------------------------------------------------------------------


def test_syntax_error_says_where(ro_client):
    body = assert_error(ro_client.get("/sparql", query_string={"query": "SELECT * WHERE {\n  ?s ?p }"}), 400)
    assert body["error"] == "query syntax error"
    assert "2:" in body["message"]
    (where,) = body["errors"]
    assert where["line"] == 2 and where["column"] >= 8  # Oxigraph points at or just past the brace


@pytest.mark.parametrize(
    "send",
    [
        lambda c: c.get("/sparql", query_string={"query": "INSERT DATA { <urn:a> <urn:b> <urn:c> }"}),
        lambda c: c.post("/sparql", data={"update": "CLEAR ALL"}),
        lambda c: c.post("/sparql", data="CLEAR ALL", content_type="application/sparql-update"),
        lambda c: c.post(
            "/sparql",
            data="PREFIX x: <urn:x#>\n# drop it\nDROP GRAPH <urn:g>",
            content_type="application/sparql-query",
        ),
    ],
)
def test_update_is_refused_with_a_pointer_to_update(ro_client, send):
    assert "/update" in assert_error(send(ro_client), 400)["message"]


def test_post_without_query_is_a_400(ro_client):
    assert (
        "query"
        in assert_error(ro_client.post("/sparql", data={"default-graph-uri": ONTOLOGY}), 400)["message"]
    )
    assert_error(ro_client.post("/sparql", data=b"  ", content_type="application/sparql-query"), 400)


def test_two_queries_are_a_400(ro_client):
    assert_error(ro_client.get("/sparql", query_string=[("query", "ASK {}"), ("query", "ASK {}")]), 400)


def test_unsupported_body_type_is_a_415(ro_client):
    body = assert_error(ro_client.post("/sparql", data="ASK {}", content_type="text/plain"), 415)
    assert "application/sparql-query" in body["message"]


@pytest.mark.parametrize("method", ["put", "delete", "patch"])
def test_wrong_method_is_a_405(ro_client, method):
    resp = getattr(ro_client, method)("/sparql")
    assert_error(resp, 405)
    assert {"GET", "POST"} <= {m.strip() for m in resp.headers["Allow"].split(",")}


def test_unacceptable_accept_is_a_406_naming_the_types(ro_client):
    body = assert_error(
        ro_client.get("/sparql", query_string={"query": LABEL_QUERY}, headers={"Accept": "image/png"}), 406
    )
    for mime in ("application/sparql-results+json", "text/csv", "text/turtle", "application/ld+json"):
        assert mime in body["message"]


def test_results_format_for_a_graph_is_a_406_naming_graph_types(ro_client):
    body = assert_error(
        ro_client.get("/sparql", query_string={"query": CONSTRUCT_QUERY}, headers={"Accept": "text/csv"}), 406
    )
    assert "text/turtle" in body["message"] and "application/rdf+xml" in body["message"]


def test_format_parameter_as_sparqlwrapper_sends_it(ro_client):
    # For CONSTRUCT it sends format=xml (meaning RDF/XML) and repeats format with a media type.
    resp = ro_client.get("/sparql", query_string={"query": CONSTRUCT_QUERY, "format": "xml"})
    assert resp.mimetype == "application/rdf+xml"
    resp = ro_client.get(
        "/sparql",
        query_string=[("query", CONSTRUCT_QUERY), ("format", "rdf+xml"), ("format", "application/rdf+xml")],
    )
    assert resp.mimetype == "application/rdf+xml"


def test_unknown_format_parameter_is_a_406(ro_client):
    body = assert_error(ro_client.get("/sparql", query_string={"query": LABEL_QUERY, "format": "yaml"}), 406)
    assert "yaml" in body["message"] and "text/csv" in body["message"]


# --- truncation -------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def capped_client(seeded_store):
    """A client of an app that returns at most two rows."""
    return create_app(
        {"store": "memory", "load_seeds": False, "max_rows": 2}, store=seeded_store
    ).test_client()


def test_truncated_result_is_flagged_and_still_parses(capped_client):
    query = "SELECT ?c WHERE { ?c a <http://www.w3.org/2002/07/owl#Class> }"
    resp = capped_client.get("/sparql", query_string={"query": query})
    assert resp.headers["X-AIKG-Truncated"] == "true"
    body = resp.get_json()
    assert body["truncated"] is True
    assert len(body["results"]["bindings"]) == 2
    parsed = JSONResultParser().parse(io.StringIO(resp.data.decode()))  # a standard client still reads it
    assert len(list(parsed)) == 2
    csv_resp = capped_client.get("/sparql", query_string={"query": query, "format": "csv"})
    assert csv_resp.headers["X-AIKG-Truncated"] == "true"
    assert len(csv_resp.data.decode().splitlines()) == 3


def test_repeated_truncated_answer_keeps_its_flag(capped_client):
    query = "SELECT ?c WHERE { ?c a <http://www.w3.org/2002/07/owl#Class> }"
    first = capped_client.get("/sparql", query_string={"query": query})
    again = capped_client.get("/sparql", query_string={"query": query})  # answered from the cache
    assert again.headers["X-AIKG-Truncated"] == "true" and again.data == first.data


# --- caching --------------------------------------------------------------------------------------------

COUNT_TEST_NODES = "SELECT (COUNT(?x) AS ?n) WHERE { ?x a <https://w3id.org/aikg/ontology#CacheProbe> }"


def _count(resp) -> int:
    return int(resp.get_json()["results"]["bindings"][0]["n"]["value"])


def test_repeated_query_is_304_with_its_etag(ro_client):
    first = ro_client.get("/sparql", query_string={"query": COUNT_TEST_NODES})
    assert first.status_code == 200 and first.headers["ETag"]
    again = ro_client.get(
        "/sparql", query_string={"query": COUNT_TEST_NODES}, headers={"If-None-Match": first.headers["ETag"]}
    )
    assert again.status_code == 304
    other_format = ro_client.get(
        "/sparql",
        query_string={"query": COUNT_TEST_NODES, "format": "csv"},
        headers={"If-None-Match": first.headers["ETag"]},
    )
    assert other_format.status_code == 200 and other_format.data.decode().splitlines() == ["n", "0"]


def test_post_bodies_are_cached_apart(ro_client):
    def post(query: str):
        return ro_client.post(
            "/sparql",
            data=query.encode(),
            content_type="application/sparql-query",
            headers={"Accept": "application/sparql-results+json"},
        )

    ask_yes = "ASK { ?s a <https://w3id.org/aikg/ontology#Neocloud> }"
    ask_no = "ASK { ?s a <https://w3id.org/aikg/ontology#CacheProbe> }"
    assert post(ask_yes).get_json()["boolean"] is True
    assert post(ask_no).get_json()["boolean"] is False
    assert post(ask_yes).get_json()["boolean"] is True
    assert post(ask_yes).headers["ETag"] != post(ask_no).headers["ETag"]


def test_a_write_changes_the_cached_answer(client):
    before = client.get("/sparql", query_string={"query": COUNT_TEST_NODES})
    assert _count(before) == 0
    store = client.application.extensions["aikg.services"].store
    store.load(
        b"<https://w3id.org/aikg/id/cache-probe> a <https://w3id.org/aikg/ontology#CacheProbe> .",
        mime="text/turtle",
        graph="https://w3id.org/aikg/graph/test-cache",
    )
    after = client.get(
        "/sparql", query_string={"query": COUNT_TEST_NODES}, headers={"If-None-Match": before.headers["ETag"]}
    )
    assert after.status_code == 200 and _count(after) == 1
    assert after.headers["ETag"] != before.headers["ETag"]


def test_writes_do_not_fill_the_response_cache_with_answers_no_request_can_reach(client):
    """Regression: every write left the older version's answers in the cache until its byte bound
    pushed them out (a soak of writes and lookups grew a worker by ~200 KB a write, to +64 MB)."""
    services = client.application.extensions["aikg.services"]
    for i in range(3):
        assert client.get("/api/entities/coreweave").status_code == 200
        assert client.get("/sparql", query_string={"query": COUNT_TEST_NODES}).status_code == 200
        assert len(services.responses) == 2  # this version's two answers, none of an older one
        services.store.load(
            f"<urn:x:probe-{i}> a <https://w3id.org/aikg/ontology#CacheProbe> .".encode(),
            mime="text/turtle",
            graph="https://w3id.org/aikg/graph/test-cache",
        )
    assert _count(client.get("/sparql", query_string={"query": COUNT_TEST_NODES})) == 3
    assert len(services.responses) == 1


# --- service description and CORS ---------------------------------------------------------------------


def test_service_description(ro_client):
    resp = ro_client.get("/sparql")
    assert resp.status_code == 200
    assert resp.mimetype == "text/turtle"
    g = Graph().parse(data=resp.data, format="turtle")
    (service,) = g.subjects(SD.endpoint, URIRef("http://localhost/sparql"))
    assert (service, SD.supportedLanguage, SD.SPARQL11Query) in g
    assert (service, SD.feature, SD.UnionDefaultGraph) in g
    assert len(set(g.objects(service, SD.resultFormat))) == 8
    dataset = g.value(service, SD.defaultDataset)
    names = {g.value(n, SD.name) for n in g.objects(dataset, SD.namedGraph)}
    assert {URIRef(ONTOLOGY), URIRef(MLPERF_SOURCE)} <= names


def test_browsers_asking_for_the_endpoint_go_to_the_editor(ro_client):
    resp = ro_client.get("/sparql", headers={"Accept": "text/html,application/xml;q=0.9,*/*;q=0.8"})
    assert resp.status_code == 303
    assert resp.headers["Location"].endswith("/editor")


def test_cors_preflight_and_responses(ro_client):
    pre = ro_client.options(
        "/sparql",
        headers={
            "Origin": "https://yasgui.example",
            "Access-Control-Request-Method": "POST",
            "Access-Control-Request-Headers": "content-type",
        },
    )
    assert pre.status_code == 200
    assert pre.headers["Access-Control-Allow-Origin"] == "*"
    assert "POST" in pre.headers["Access-Control-Allow-Methods"]
    assert pre.headers["Access-Control-Allow-Headers"] == "content-type"
    resp = ro_client.get(
        "/sparql", query_string={"query": LABEL_QUERY}, headers={"Origin": "https://x.example"}
    )
    assert resp.headers["Access-Control-Allow-Origin"] == "*"
    assert "X-AIKG-Truncated" in resp.headers["Access-Control-Expose-Headers"]
    err = ro_client.get("/sparql", query_string={"query": "SELECT"}, headers={"Origin": "https://x.example"})
    assert err.headers["Access-Control-Allow-Origin"] == "*"
    assert json.loads(err.data)["status"] == 400


# --- negotiation as outside clients send it (issue 45) --------------------------------------------------


def test_sparqlwrapper_json_ld_request_gets_json_ld(ro_client):
    """Regression: SPARQLWrapper's JSON-LD request (format=json-ld, repeated with its Accept types) was
    a 406: aikg knew only ``jsonld``, and let the unknown format= override a satisfiable Accept."""
    resp = ro_client.get(
        "/sparql",
        query_string=[
            ("query", CONSTRUCT_QUERY),
            ("format", "json-ld"),
            ("format", "application/ld+json,application/x-json+ld"),
            ("output", "json-ld"),
        ],
        headers={"Accept": "application/ld+json,application/x-json+ld"},
    )
    assert resp.status_code == 200 and resp.mimetype == "application/ld+json"
    g = Graph().parse(data=resp.data, format="json-ld")
    assert (AIKG.Neocloud, RDFS.subClassOf, AIKG.CloudOperator) in g


@pytest.mark.parametrize(
    ("fmt", "accept", "mime"),
    [
        ("n3", "application/turtle,text/turtle,text/rdf+n3,application/n-triples", "text/turtle"),
        ("csv", "application/rdf+xml", "application/rdf+xml"),  # a results format asked of a graph
        ("turtle", "application/rdf+xml", "text/turtle"),  # format= names an offer: it wins
    ],
)
def test_format_naming_no_offer_leaves_a_satisfiable_accept_to_decide(ro_client, fmt, accept, mime):
    resp = ro_client.get(
        "/sparql", query_string={"query": CONSTRUCT_QUERY, "format": fmt}, headers={"Accept": accept}
    )
    assert resp.status_code == 200 and resp.mimetype == mime


def test_format_naming_no_offer_without_a_preference_is_still_a_406(ro_client):
    """With ``Accept: */*`` (curl) the unknown format= is the only thing asked for: refused, named."""
    body = assert_error(
        ro_client.get(
            "/sparql", query_string={"query": LABEL_QUERY, "format": "yaml"}, headers={"Accept": "*/*"}
        ),
        406,
    )
    assert "yaml" in body["message"]


def test_text_wildcard_on_a_select_is_csv(ro_client):
    """Regression: ``Accept: text/*`` got SPARQL XML (through its alias text/xml): a wildcard matches a
    format's own media type, and the first text format offered for results is CSV."""
    resp = ro_client.get("/sparql", query_string={"query": LABEL_QUERY}, headers={"Accept": "text/*"})
    assert resp.mimetype == "text/csv"
    assert resp.data.decode().splitlines()[0] == "label"


# --- the response cache and the protocol's checks (issue 45) -------------------------------------------


def test_a_cached_answer_never_answers_a_body_in_another_charset(ro_client):
    """Regression: a query POSTed as UTF-8 left an answer that the same bytes declared ISO-8859-1 then
    got (200) from the worker that held it, and 415 from the others: the cache keys on the whole
    Content-Type, so the view refuses it every time."""
    body = "ASK { ?s <http://www.w3.org/2000/01/rdf-schema#label> 'caf\u00e9-cache-probe' }".encode()
    utf8 = ro_client.post("/sparql", data=body, content_type="application/sparql-query; charset=utf-8")
    assert utf8.status_code == 200
    for _ in range(2):
        latin = ro_client.post(
            "/sparql", data=body, content_type="application/sparql-query; charset=ISO-8859-1"
        )
        assert_error(latin, 415)


def test_the_cache_keys_on_the_negotiated_representation(ro_client):
    """No Accept, ``*/*``, and two spellings of "SPARQL JSON for solutions, Turtle for a graph" negotiate
    the same representation: one entry, one ETag (regression: an entry and a tag per header)."""
    query = {"query": LABEL_QUERY + " # representation probe"}
    services = ro_client.application.extensions["aikg.services"]
    before = len(services.responses)
    tags = {
        ro_client.get("/sparql", query_string=query, headers=headers).headers["ETag"]
        for headers in (
            {},
            {"Accept": "*/*"},
            {"Accept": "application/sparql-results+json, text/turtle"},
            {"Accept": "text/turtle, application/json"},
        )
    }
    assert len(tags) == 1 and len(services.responses) == before + 1
    csv_tag = ro_client.get("/sparql", query_string=query, headers={"Accept": "text/csv"}).headers["ETag"]
    assert csv_tag not in tags


def test_the_default_graphs_size_is_its_triples(ro_client):
    """Regression: the service description gave the default graph the number of quads (a triple two
    sources state counted twice): it is the RDF merge of the named graphs."""
    g = Graph().parse(data=ro_client.get("/sparql").data, format="turtle")
    (dataset,) = set(g.objects(None, SD.defaultDataset))
    stated = int(g.value(g.value(dataset, SD.defaultGraph), URIRef("http://rdfs.org/ns/void#triples")))
    count = "SELECT (COUNT(*) AS ?n) WHERE { SELECT DISTINCT ?s ?p ?o WHERE { GRAPH ?g { ?s ?p ?o } } }"
    triples = int(
        ro_client.get("/sparql", query_string={"query": count}).get_json()["results"]["bindings"][0]["n"][
            "value"
        ]
    )
    quads = "SELECT (COUNT(*) AS ?n) WHERE { GRAPH ?g { ?s ?p ?o } }"
    assert stated == triples
    assert triples < int(
        ro_client.get("/sparql", query_string={"query": quads}).get_json()["results"]["bindings"][0]["n"][
            "value"
        ]
    )


# --- CORS on every protocol endpoint (issue 45) -----------------------------------------------------------


@pytest.fixture(scope="module")
def token_client(seeded_store):
    """A client of an app that takes writes with a token (the tests using it send none that succeed)."""
    return create_app(
        {"store": "memory", "load_seeds": False, "token": "secret"}, store=seeded_store
    ).test_client()


@pytest.mark.parametrize(
    ("method", "path"),
    [
        ("POST", "/update"),
        ("PUT", "/data?graph=http://example/g"),
        ("DELETE", "/graph/sources/x"),
        ("POST", "/data"),
    ],
)
def test_cors_on_the_write_endpoints_and_their_refusals(token_client, method, path):
    """A page on another origin (YASGUI elsewhere) may update: the preflight allows the method and the
    Authorization header, and the 401 it gets without a token is readable, with why."""
    pre = token_client.options(
        path,
        headers={
            "Origin": "https://yasgui.example",
            "Access-Control-Request-Method": method,
            "Access-Control-Request-Headers": "authorization, content-type",
        },
    )
    assert pre.status_code == 200 and pre.headers["Access-Control-Allow-Origin"] == "*"
    assert method in pre.headers["Access-Control-Allow-Methods"]
    assert pre.headers["Access-Control-Allow-Headers"] == "authorization, content-type"
    refused = token_client.open(
        path,
        method=method,
        data=b"",
        headers={"Origin": "https://yasgui.example", "Authorization": "Bearer x"},
    )
    assert_error(refused, 401)
    assert refused.headers["Access-Control-Allow-Origin"] == "*"
    exposed = refused.headers["Access-Control-Expose-Headers"]
    assert "WWW-Authenticate" in exposed and "Location" in exposed


def test_no_accept_and_accept_anything_share_one_cached_answer(store):
    """The response cache is keyed on the representation negotiation chooses, not the raw header (#49):
    curl's ``Accept: */*`` and a client sending none get the same answer, so they share one entry; a
    request that negotiates another representation gets its own. Both kinds of key: a view that
    negotiates (``/sparql``) and one keyed on the ``Accept`` header read as RFC 9110 does."""
    client = create_app({"store": "memory", "load_seeds": False}, store=store).test_client()
    services = client.application.extensions["aikg.services"]
    asks = [
        ("/sparql", {"query": "SELECT (COUNT(*) AS ?n) WHERE { ?s ?p ?o }"}, "text/csv"),
        ("/api/search", {"q": "coreweave"}, "application/json;q=0.5, */*;q=0.1"),
    ]
    for n, (path, args, other) in enumerate(asks):
        first = client.get(path, query_string=args)
        assert first.status_code == 200 and len(services.responses) == 2 * n + 1
        for accept in ("*/*", "*/*;q=1.0", None):
            resp = client.get(path, query_string=args, headers={"Accept": accept} if accept else {})
            assert resp.status_code == 200 and resp.data == first.data
            assert len(services.responses) == 2 * n + 1, (path, accept)
        assert client.get(path, query_string=args, headers={"Accept": other}).status_code == 200
        assert len(services.responses) == 2 * n + 2, path
