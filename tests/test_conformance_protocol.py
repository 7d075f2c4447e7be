"""SPARQL 1.1 Protocol (W3C Recommendation 21 March 2013), requirement by requirement, on both backends.

Each test names the section and quotes (in short) the MUST or SHOULD it checks.
"""

from __future__ import annotations

import pytest
from werkzeug.datastructures import MultiDict

from conformance import AUTH, MINE, MLPERF, ONTOLOGY, PREFIXES, assert_error, select, update

LABELS = PREFIXES + "SELECT ?l WHERE { aikg:Neocloud rdfs:label ?l } ORDER BY ?l"
IN_MLPERF = PREFIXES + "SELECT ?l WHERE { id:coreweave rdfs:label ?l } ORDER BY ?l"
RESULT_TYPES = {
    "application/sparql-results+json",
    "application/sparql-results+xml",
    "text/csv",
    "text/tab-separated-values",
}
GRAPH_TYPES = {"text/turtle", "application/n-triples", "application/ld+json", "application/rdf+xml"}


def values(bindings: list[dict], var: str = "l") -> list[str]:
    return [b[var]["value"] for b in bindings]


# --- §2 operations are HTTP ---------------------------------------------------------------------------


def test_2_head_is_get_without_a_body(ro_client):
    """§2: "All HTTP requirements for requests and responses must be followed" — HEAD (RFC 9110 §9.3.2)
    answers as GET would, without content."""
    get = ro_client.get("/sparql", query_string={"query": LABELS})
    head = ro_client.head("/sparql", query_string={"query": LABELS})
    assert head.status_code == 200 and head.data == b""
    assert head.headers["Content-Type"] == get.headers["Content-Type"]
    assert ro_client.head("/sparql").status_code == 200  # the service description


@pytest.mark.parametrize("method", ["put", "delete", "patch"])
def test_2_1_query_is_get_or_post_only(ro_client, method):
    """§2.1: the query operation "MUST be invoked with either the HTTP GET or HTTP POST method"; other
    methods are 405 with Allow (RFC 9110 §15.5.6)."""
    resp = getattr(ro_client, method)("/sparql", query_string={"query": LABELS})
    assert_error(resp, 405)
    assert {"GET", "POST"} <= set(resp.headers["Allow"].replace(" ", "").split(","))


# --- §2.1 exactly one query ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "send",
    [
        lambda c: c.get("/sparql", query_string=[("query", "ASK {}"), ("query", "ASK {}")]),
        lambda c: c.post("/sparql", data=MultiDict([("query", "ASK {}"), ("query", "ASK {}")])),
        lambda c: c.post("/sparql?query=ASK%7B%7D", data={"query": "ASK {}"}),
        lambda c: c.post("/sparql?query=ASK%7B%7D", data=b"ASK {}", content_type="application/sparql-query"),
    ],
)
def test_2_1_a_request_carries_exactly_one_query(ro_client, send):
    """§2.1: requests "must include exactly one SPARQL query string" — two are refused, not one dropped."""
    assert "query" in assert_error(send(ro_client), 400)["message"]


# --- §2.1.1–2.1.3 the three ways ----------------------------------------------------------------------


def test_2_1_1_get_with_percent_encoded_parameters_in_any_order(ro_client):
    """§2.1.1: parameters percent-encoded in the query string, "in any order"."""
    resp = ro_client.get("/sparql", query_string=[("default-graph-uri", ONTOLOGY), ("query", LABELS)])
    assert values(resp.get_json()["results"]["bindings"]) == ["neocloud", "新兴 GPU 云"]


def test_2_1_2_form_post(ro_client):
    """§2.1.2: POST ``application/x-www-form-urlencoded`` with the parameters in the body."""
    resp = ro_client.post("/sparql", data=MultiDict([("default-graph-uri", ONTOLOGY), ("query", LABELS)]))
    assert values(resp.get_json()["results"]["bindings"]) == ["neocloud", "新兴 GPU 云"]


def test_2_1_2_form_post_honours_the_dataset_given_in_the_url(ro_client):
    """§2.1.2 with the dataset in the URL (regression: it was ignored, and the query ran over the whole
    store): aikg reads ``default-graph-uri`` / ``named-graph-uri`` from the URL of a form POST too."""
    resp = ro_client.post(f"/sparql?default-graph-uri={ONTOLOGY}", data={"query": IN_MLPERF})
    assert values(resp.get_json()["results"]["bindings"]) == []
    resp = ro_client.post(f"/sparql?default-graph-uri={MLPERF}", data={"query": IN_MLPERF})
    assert values(resp.get_json()["results"]["bindings"]) == ["CoreWeave"]


def test_2_1_3_direct_post_with_the_dataset_in_the_url(ro_client):
    """§2.1.3: the unencoded query as the body (``application/sparql-query``); ``default-graph-uri`` and
    ``named-graph-uri`` "as HTTP query string parameters"."""
    resp = ro_client.post(
        f"/sparql?default-graph-uri={ONTOLOGY}", data=LABELS.encode(), content_type="application/sparql-query"
    )
    assert values(resp.get_json()["results"]["bindings"]) == ["neocloud", "新兴 GPU 云"]


def test_2_1_3_utf8_is_the_only_charset(ro_client):
    """§2.1.3: "UTF-8 is the only valid charset here" — a UTF-16 body is refused (regression: it was
    answered 200), as is a body that is not UTF-8 at all."""
    body = LABELS.encode("utf-16")
    assert_error(
        ro_client.post("/sparql", data=body, content_type="application/sparql-query; charset=utf-16"), 415
    )
    assert_error(ro_client.post("/sparql", data=body, content_type="application/sparql-query"), 400)
    ok = ro_client.post(
        "/sparql", data=LABELS.encode(), content_type="application/sparql-query; charset=UTF-8"
    )
    assert ok.status_code == 200


def test_2_1_parameters_that_are_not_utf8_are_refused(ro_client):
    """§2.1.1/§2.1.2: percent-encoded parameters are UTF-8; a byte sequence that is not is a 400, never a
    query silently changed into U+FFFD."""
    assert_error(ro_client.get("/sparql?query=ASK%20%7B%FF%7D"), 400)
    assert_error(
        ro_client.post(
            "/sparql", data=b"query=ASK%20%7B%FF%7D", content_type="application/x-www-form-urlencoded"
        ),
        400,
    )


def test_2_1_2_the_form_content_type_is_required(ro_client):
    """§2.1.2/§2.1.3: the request's Content-Type "must be set" to the form type or
    ``application/sparql-query``; anything else is 415 naming both."""
    body = assert_error(ro_client.post("/sparql", data="ASK {}", content_type="text/plain"), 415)
    assert "application/sparql-query" in body["message"]


# --- §2.1.4 dataset -----------------------------------------------------------------------------------


def test_2_1_4_the_protocol_dataset_wins_over_from(ro_client):
    """§2.1.4: "If different RDF Datasets are specified in both the protocol request and the SPARQL query
    string, then the SPARQL service must execute the query using the RDF Dataset given in the protocol
    request"."""
    query = IN_MLPERF.replace("SELECT ?l", f"SELECT ?l FROM <{MLPERF}>")
    assert values(select(ro_client, query)) == ["CoreWeave"]
    assert values(select(ro_client, query, **{"default-graph-uri": ONTOLOGY})) == []


def test_2_1_4_named_graphs_alone_leave_the_default_graph_empty(ro_client):
    """§2.1.4 / Query §13.2: a dataset with named graphs only has an empty default graph."""
    bindings = select(ro_client, IN_MLPERF, **{"named-graph-uri": MLPERF})
    assert bindings == []


def test_2_1_4_without_a_dataset_the_default_graph_is_the_union(ro_client):
    """§2.1.4: without a dataset the service "may execute the query against an implementation-defined
    default RDF dataset": aikg's is the union of all named graphs (sd:UnionDefaultGraph)."""
    query = PREFIXES + "ASK { aikg:Neocloud rdfs:label ?l . id:coreweave rdfs:label ?m }"
    resp = ro_client.get("/sparql", query_string={"query": query})
    assert resp.get_json()["boolean"] is True  # two graphs (ontology, a source) joined in one pattern


# --- §2.1.5 / §2.1.6 responses ------------------------------------------------------------------------


@pytest.mark.parametrize("mime", sorted(RESULT_TYPES))
def test_2_1_6_a_select_answers_in_each_results_format_with_its_media_type(ro_client, mime):
    """§2.1.5: content negotiation; §2.1.6: "The content type of the response to a successful query
    operation must be the media type defined for the format of the response body"."""
    resp = ro_client.get("/sparql", query_string={"query": LABELS}, headers={"Accept": mime})
    assert resp.status_code == 200 and resp.mimetype == mime
    assert "neocloud" in resp.get_data(as_text=True)


@pytest.mark.parametrize("mime", sorted(GRAPH_TYPES))
def test_2_1_6_a_construct_answers_in_each_rdf_format_with_its_media_type(ro_client, mime):
    """§2.1.6: CONSTRUCT and DESCRIBE answer an RDF graph, in the negotiated serialization."""
    query = PREFIXES + "CONSTRUCT WHERE { aikg:Neocloud rdfs:label ?l }"
    resp = ro_client.get("/sparql", query_string={"query": query}, headers={"Accept": mime})
    assert resp.status_code == 200 and resp.mimetype == mime


@pytest.mark.parametrize(
    ("accept", "expected"),
    [
        ("text/turtle; charset=utf-8", "text/turtle"),
        ("text/turtle;charset=UTF-8;q=0.9", "text/turtle"),
        ("application/rdf+xml;q=0.5, application/n-triples;q=0.8", "application/n-triples"),
        ("text/*", "text/turtle"),
        ("*/*;q=0.1, application/ld+json", "application/ld+json"),
        ('application/ld+json; profile="http://www.w3.org/ns/json-ld#expanded"', "application/ld+json"),
        ("application/x-turtle", "text/turtle"),
    ],
)
def test_2_1_5_accept_is_read_as_rfc_9110_defines_it(ro_client, accept, expected):
    """§2.1.5 refers to HTTP content negotiation: parameters, weights and wildcards (RFC 9110 §12.5.1) —
    regression: a parameter such as ``charset=utf-8`` used to get 406."""
    query = PREFIXES + "CONSTRUCT WHERE { aikg:Neocloud rdfs:label ?l }"
    resp = ro_client.get("/sparql", query_string={"query": query}, headers={"Accept": accept})
    assert resp.status_code == 200 and resp.mimetype == expected


def test_2_1_5_weights_choose_among_results_formats(ro_client):
    """§2.1.5: the highest weight wins; ``q=0`` excludes a type; a weighted type alone is accepted
    (regression: ``application/sparql-results+json;q=0.9`` got 406)."""
    resp = ro_client.get(
        "/sparql", query_string={"query": LABELS}, headers={"Accept": "application/sparql-results+json;q=0.9"}
    )
    assert resp.status_code == 200 and resp.mimetype == "application/sparql-results+json"
    accept = "application/sparql-results+json;q=0.2, text/csv;q=0.9, application/sparql-results+xml;q=0"
    resp = ro_client.get("/sparql", query_string={"query": LABELS}, headers={"Accept": accept})
    assert resp.mimetype == "text/csv"
    resp = ro_client.get(
        "/sparql",
        query_string={"query": LABELS},
        headers={"Accept": "application/sparql-results+json;q=0, */*;q=0"},
    )
    assert_error(resp, 406)


def test_2_1_6_success_is_2xx(ro_client):
    """§2.1.6: "a protocol service should use a 2XX HTTP response code for a successful query"."""
    assert ro_client.post("/sparql", data={"query": LABELS}).status_code == 200


# --- §2.1.7 failures ----------------------------------------------------------------------------------


def test_2_1_7_a_query_that_does_not_parse_is_400(ro_client):
    """§2.1.7: "400 if the SPARQL query supplied in the request is not a legal sequence of characters"."""
    body = assert_error(ro_client.get("/sparql", query_string={"query": "SELECT * WHERE {\n ?s ?p }"}), 400)
    assert body["errors"][0]["line"] == 2


# --- §2.2 update operation ----------------------------------------------------------------------------


def test_2_2_update_is_post_only(client):
    """§2.2: the update operation "must be invoked using the HTTP POST method" — GET with ``update`` is
    405 (a GET without parameters is the service description)."""
    resp = client.get("/update", query_string={"update": f"CLEAR GRAPH <{MINE}>"}, headers=AUTH)
    assert_error(resp, 405)
    assert resp.headers["Allow"] == "POST"


def test_2_2_a_request_carries_exactly_one_update(client, backend_store):
    """§2.2: requests "must include exactly one SPARQL update request string" — regression: a second
    ``update`` field was dropped silently."""
    first = (
        f"INSERT DATA {{ GRAPH <{MINE}> {{ <https://w3id.org/aikg/id/conformance-a> "
        f'<http://www.w3.org/2000/01/rdf-schema#label> "A"@en }} }}'
    )
    resp = client.post(
        "/update", data=MultiDict([("update", first), ("update", f"DROP GRAPH <{MINE}>")]), headers=AUTH
    )
    assert "update" in assert_error(resp, 400)["message"]
    assert MINE not in backend_store.graphs()


def test_2_2_1_form_post_and_2_2_2_direct_post(client, backend_store):
    """§2.2.1 (form field ``update``) and §2.2.2 (``application/sparql-update`` body) both update."""
    text = (
        PREFIXES + f"INSERT DATA {{ GRAPH <{MINE}> {{ id:conformance-cloud a aikg:Neocloud ; "
        f'rdfs:label "Conformance Cloud"@en }} }}'
    )
    assert client.post("/update", data={"update": text}, headers=AUTH).status_code == 200
    assert update(client, f"DROP GRAPH <{MINE}>").status_code == 200
    assert update(client, text).status_code == 200
    assert MINE in backend_store.graphs()


def test_2_2_2_update_bodies_are_utf8(client):
    """Update Appendix B: ``application/sparql-update`` "encoding is always UTF-8"."""
    body = f"CLEAR GRAPH <{MINE}>".encode("utf-16")
    resp = client.post("/update", data=body, headers={**AUTH, "Content-Type": "application/sparql-update"})
    assert_error(resp, 400)
    resp = client.post(
        "/update", data=body, headers={**AUTH, "Content-Type": "application/sparql-update; charset=utf-16"}
    )
    assert_error(resp, 415)


SOURCE_LABELS = (
    PREFIXES + f"INSERT {{ GRAPH <{MINE}> {{ ?s rdfs:comment ?l }} }} WHERE {{ ?s rdfs:label ?l }}"
)


def test_2_2_3_using_graph_uri_is_a_using_clause(client, backend_store):
    """§2.2.3: "treat each occurrence of the using-graph-uri=g parameter ... as if a USING <g> clause were
    included for every operation" (regression: refused with 400)."""
    resp = client.post("/update", data={"update": SOURCE_LABELS, "using-graph-uri": MLPERF}, headers=AUTH)
    assert resp.status_code == 200, resp.get_json()
    comments = {q.object.value for q in backend_store.quads(graph=MINE)}
    assert "CoreWeave" in comments and "neocloud" not in comments  # only the named graph was read


def test_2_2_3_using_named_graph_uri_is_a_using_named_clause(client, backend_store):
    """§2.2.3: ``using-named-graph-uri=g`` is ``USING NAMED <g>``: GRAPH ?g reaches only g, and the
    default graph is empty."""
    text = (
        PREFIXES
        + f"INSERT {{ GRAPH <{MINE}> {{ ?s rdfs:comment ?l }} }} WHERE {{ GRAPH ?g {{ ?s rdfs:label ?l }} }}"
    )
    resp = update(client, text, query_string={"using-named-graph-uri": MLPERF})
    assert resp.status_code == 200, resp.get_json()
    comments = {q.object.value for q in backend_store.quads(graph=MINE)}
    assert "CoreWeave" in comments and "neocloud" not in comments


def test_2_2_3_protocol_dataset_with_using_or_with_is_an_error(client):
    """§2.2.3: "It is an error to supply the using-graph-uri or using-named-graph-uri parameters when ...
    an operation ... uses the USING, USING NAMED, or WITH clause"."""
    text = SOURCE_LABELS.replace(" WHERE", f" USING <{ONTOLOGY}> WHERE")
    assert_error(update(client, text, query_string={"using-graph-uri": MLPERF}), 400)
    text = PREFIXES + f"WITH <{MINE}> INSERT {{ ?s rdfs:comment ?l }} WHERE {{ ?s rdfs:label ?l }}"
    assert_error(update(client, text, query_string={"using-named-graph-uri": MLPERF}), 400)


def test_a_protocol_graph_that_is_no_iri_is_a_400_even_for_the_empty_update(client):
    """Regression (schemathesis, negative data): ``update=&using-named-graph-uri=%7F`` answered 200, as the
    empty update returned before the parameters were read; a bad parameter is a bad request whatever
    the text is."""
    for text in ("", "CLEAR SILENT ALL"):
        for name in ("using-graph-uri", "using-named-graph-uri"):
            body = assert_error(update(client, text, query_string={name: "\x7f"}), 400)
            assert name in body["message"]


def test_2_2_4_success_is_2xx_and_2_2_5_syntax_errors_are_400(client):
    """§2.2.4: "should use a 2XX HTTP response code for an update request that is successfully processed";
    §2.2.5: "400 if the SPARQL update request string is not a legal sequence of characters"."""
    assert update(client, f"CLEAR SILENT GRAPH <{MINE}>").status_code == 200
    body = assert_error(update(client, "INSERT DATA { GRAPH <x> {\n oops"), 400)
    assert body["errors"] and body["errors"][0]["line"] == 2


# --- §2.3 base IRI ------------------------------------------------------------------------------------


def test_2_3_the_service_defines_its_base_iri_for_queries(ro_client):
    """§2.3: "SPARQL Protocol services must define their own base URI": aikg's is https://w3id.org/aikg/,
    so ``<id/coreweave>`` is the CoreWeave entity (regression: relative IRIs failed to parse, with a
    misleading message)."""
    bindings = select(
        ro_client, "SELECT ?l WHERE { <id/coreweave> <http://www.w3.org/2000/01/rdf-schema#label> ?l }"
    )
    assert values(bindings) == ["CoreWeave"]
    bindings = select(
        ro_client,
        "BASE <https://w3id.org/aikg/id/> SELECT ?l WHERE { <coreweave> "
        "<http://www.w3.org/2000/01/rdf-schema#label> ?l }",
    )
    assert values(bindings) == ["CoreWeave"]  # the query's own BASE still wins


def test_2_3_the_service_defines_its_base_iri_for_updates(client, backend_store):
    """§2.3 for updates: relative IRIs resolve against https://w3id.org/aikg/."""
    resp = update(
        client,
        "INSERT DATA { GRAPH <graph/sources/test-conformance> { <id/conformance-rel> "
        'a <ontology#Neocloud> ; <http://www.w3.org/2000/01/rdf-schema#label> "Rel"@en } }',
    )
    assert resp.status_code == 200, resp.get_json()
    assert resp.get_json()["graphs"] == [MINE]
    assert "Rel" in {q.object.value for q in backend_store.quads(graph=MINE)}


# --- §4 policy ----------------------------------------------------------------------------------------


def test_4_1_queries_that_would_fetch_are_refused(ro_client):
    """§4.1: a service "may place restrictions on the resources that it retrieves" and "may refuse to
    process such query requests": aikg fetches nothing on a client's behalf (SERVICE is refused; a FROM
    naming a graph it does not hold — also when the IRI is written with codepoint escapes — reads an
    empty graph, tests/test_ssrf.py)."""
    assert_error(
        ro_client.get(
            "/sparql",
            query_string={"query": "SELECT * WHERE { SERVICE <http://127.0.0.1:9/sparql> { ?s ?p ?o } }"},
        ),
        403,
    )
    resp = ro_client.get(
        "/sparql", query_string={"query": r"SELECT * FROM <\u0068ttp://127.0.0.1:9/x> WHERE { ?s ?p ?o }"}
    )
    assert resp.status_code == 200 and resp.get_json()["results"]["bindings"] == []


def test_4_1_an_update_disguised_as_a_query_does_nothing(client, backend_store):
    """Update Appendix A: "a string of unicode escapes ... could be used to hide an Update Operation";
    /sparql runs the query parser only, so no spelling of an update changes anything there."""
    before = backend_store.graphs()
    for text in (
        r"\u0044ROP GRAPH <" + MLPERF + ">",
        f"DROP GRAPH <{MLPERF}>",
        r"PREFIX x: <urn:\u003E> CLEAR ALL",
    ):
        resp = client.post(
            "/sparql", data=text.encode(), content_type="application/sparql-query", headers=AUTH
        )
        assert resp.status_code == 400
    assert backend_store.graphs() == before
