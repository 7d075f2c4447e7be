"""SPARQL 1.1 Graph Store HTTP Protocol (W3C Recommendation 21 March 2013), requirement by requirement,
on both backends. The graph store is ``/data``; ``/graph/<path>`` identifies
``https://w3id.org/aikg/graph/<path>`` directly; ``?default`` is graph/default for writes and reads."""

from __future__ import annotations

import pytest
from rdflib import Graph, Literal, URIRef
from rdflib.compare import isomorphic
from rdflib.namespace import RDF, RDFS

from conformance import AUTH, CATALOG, CLOUD, CLOUD_NT, DEFAULT, MINE, MLPERF, assert_error, labels, turtle

CLOUD_IRI = URIRef("https://w3id.org/aikg/id/conformance-cloud")
NEOCLOUD = URIRef("https://w3id.org/aikg/ontology#Neocloud")
DIRECT = "/graph/sources/test-conformance"
"""The direct URL of :data:`MINE`."""
RDFXML = (
    '<?xml version="1.0"?><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" '
    'xmlns:rdfs="http://www.w3.org/2000/01/rdf-schema#"><rdf:Description '
    'rdf:about="https://w3id.org/aikg/id/conformance-cloud"><rdf:type '
    'rdf:resource="https://w3id.org/aikg/ontology#Neocloud"/><rdfs:label xml:lang="en">Conformance '
    "Cloud</rdfs:label></rdf:Description></rdf:RDF>"
)


def expected() -> Graph:
    g = Graph()
    g.add((CLOUD_IRI, RDF.type, NEOCLOUD))
    g.add((CLOUD_IRI, RDFS.label, Literal("Conformance Cloud", lang="en")))
    return g


def put(client, url: str = "/data", body: str = CLOUD, mime: str | None = "text/turtle", **kwargs):
    headers = {**AUTH, **({"Content-Type": mime} if mime else {})}
    return client.put(url, data=body.encode(), headers=headers, **kwargs)


def at_mine(**extra) -> dict:
    return {"query_string": {"graph": MINE, **extra}}


# --- §4 graph identification --------------------------------------------------------------------------


def test_4_1_direct_graph_identification(client, backend_store):
    """§4.1: the request URI identifies the graph: ``/graph/<path>`` is <https://w3id.org/aikg/graph/<path>>
    for every method (regression: 404)."""
    assert put(client, DIRECT).status_code == 201
    assert labels(backend_store, MINE) == {"Conformance Cloud"}
    assert isomorphic(turtle(client.get(DIRECT)), expected())
    assert isomorphic(turtle(client.get("/data", **at_mine())), expected())  # the same graph, indirectly
    assert client.delete(DIRECT, headers=AUTH).status_code == 200
    assert client.get(DIRECT).status_code == 404


def test_4_2_indirect_graph_identification(client, backend_store):
    """§4.2: the server "MUST perform the indicated operation on the RDF graph content identified by the
    IRI embedded in the query component ... the result of percent-decoding"."""
    resp = client.put(
        "/data?graph=https%3A%2F%2Fw3id.org%2Faikg%2Fgraph%2Fsources%2Ftest-conformance",
        data=CLOUD.encode(),
        headers={**AUTH, "Content-Type": "text/turtle"},
    )
    assert resp.status_code == 201
    assert labels(backend_store, MINE) == {"Conformance Cloud"}


@pytest.mark.parametrize("graph", ["sources/test", "graph", "/graph/sources/x", "urn", "not an iri"])
def test_4_2_the_graph_iri_must_be_absolute(client, graph):
    """§4.2: "The query string IRI MUST be an absolute IRI and the server MUST respond with a 400 Bad
    Request if it is not"."""
    assert_error(client.get("/data", query_string={"graph": graph}), 400)
    assert_error(put(client, query_string={"graph": graph}), 400)


def test_4_2_default_names_the_default_graph(client, backend_store):
    """§4.2: "a query component comprised of the string default ... indirectly identifies the default graph"
    — graph/default, for writes and reads alike (regression: 400)."""
    assert put(client, "/data?default").status_code == 201
    assert labels(backend_store, DEFAULT) == {"Conformance Cloud"}
    assert isomorphic(turtle(client.get("/data?default")), expected())
    assert client.delete("/data?default", headers=AUTH).status_code == 200
    resp = client.get("/data?default")  # the default graph always exists (Update §3.2), now empty
    assert resp.status_code == 200 and len(turtle(resp)) == 0


def test_4_2_graph_and_default_together_are_a_400(client):
    """§4.2: one graph per request: ``?graph=`` or ``?default``."""
    assert_error(client.get("/data", query_string={"graph": MINE, "default": ""}), 400)


# --- §5 graph management operations ---------------------------------------------------------------------


def test_5_get_without_accept_is_turtle_rdfxml_or_ntriples(client):
    """§5: "If the Accept header is not provided with a GET request, the server MUST return one of RDF XML,
    Turtle, or N-Triples"."""
    put(client, **at_mine())
    resp = client.get("/data", **at_mine())
    assert resp.mimetype in ("application/rdf+xml", "text/turtle", "application/n-triples")


@pytest.mark.parametrize(
    ("mime", "body"),
    [
        ("text/turtle", CLOUD),
        ("application/n-triples", CLOUD_NT),
        ("application/rdf+xml", RDFXML),
        ("application/n-quads", CLOUD_NT.replace(" .\n", f" <{MINE}> .\n")),
        ("application/trig", f"<{MINE}> {{ {CLOUD_NT} }}"),
        ("application/x-turtle", CLOUD),
    ],
)
def test_5_the_payload_is_parsed_as_its_content_type(client, backend_store, mime, body):
    """§5: "the server MUST parse the RDF payload according to media type specified in the Content-Type
    header"."""
    assert put(client, body=body, mime=mime, **at_mine()).status_code == 201
    assert isomorphic(turtle(client.get("/data", **at_mine())), expected())


def test_5_without_content_type_the_payload_is_rdfxml(client, backend_store):
    """§5: "if this header is not provided, the server SHOULD attempt to parse the RDF payload as RDF/XML"."""
    assert put(client, body=RDFXML, mime=None, **at_mine()).status_code == 201
    assert labels(backend_store, MINE) == {"Conformance Cloud"}


def test_5_multipart_form_data_merges_every_file(client, backend_store):
    """§5 / §5.5: "multipart/form-data ... MUST be understood as a request that the origin server perform
    an RDF merge of the graphs ... submitted with the multipart form"; the type may come from the file's
    extension (regression: 415)."""
    from io import BytesIO

    data = {
        "a": (BytesIO(CLOUD.encode()), "cloud.ttl", "text/turtle"),
        "b": (
            BytesIO(
                CLOUD.replace("conformance-cloud", "conformance-two")
                .replace("Conformance Cloud", "Conformance Two")
                .encode()
            ),
            "two.ttl",
        ),
    }
    resp = client.post(
        "/data", query_string={"graph": MINE}, data=data, content_type="multipart/form-data", headers=AUTH
    )
    assert resp.status_code == 201, resp.get_json()
    assert labels(backend_store, MINE) == {"Conformance Cloud", "Conformance Two"}


def test_5_conditional_get(client):
    """§5: "conditional requests ... should be handled appropriately" — If-None-Match gets 304 while the
    graph is unchanged, 200 once it changed."""
    put(client, **at_mine())
    first = client.get("/data", **at_mine())
    again = client.get("/data", headers={"If-None-Match": first.headers["ETag"]}, **at_mine())
    assert again.status_code == 304
    client.post(
        "/data",
        data=CLOUD.replace("conformance-cloud", "conformance-two")
        .replace("Conformance Cloud", "Conformance Two")
        .encode(),
        headers={**AUTH, "Content-Type": "text/turtle"},
        **at_mine(),
    )
    changed = client.get("/data", headers={"If-None-Match": first.headers["ETag"]}, **at_mine())
    assert changed.status_code == 200


# --- §5.1 status codes ----------------------------------------------------------------------------------


def test_5_1_a_payload_that_does_not_parse_is_400(client, backend_store):
    """§5.1: "if the attempt to parse the RDF payload according to the provided Content-Type fails then
    the server MUST respond with a 400 Bad Request"."""
    assert_error(put(client, body="<broken", **at_mine()), 400)
    assert MINE not in backend_store.graphs()


@pytest.mark.parametrize("method", ["patch"])
def test_5_1_an_unsupported_method_is_405(client, method):
    """§5.1: "A request using an unsupported HTTP verb ... MUST receive a response with a 405"."""
    resp = getattr(client, method)("/data", query_string={"graph": MINE}, headers=AUTH)
    assert_error(resp, 405)
    assert "PUT" in resp.headers["Allow"]


def test_5_1_a_missing_graph_is_404(client):
    """§5.1: "If the RDF graph content identified in the request does not exist in the server, and the
    operation requires that it does, a 404 Not Found response code MUST be provided"."""
    assert_error(client.get("/data", **at_mine()), 404)
    assert_error(client.delete("/data", headers=AUTH, **at_mine()), 404)


def test_5_1_a_content_type_not_understood_is_415(client):
    """§5.1: "If a clients issues a POST or PUT with a content type that is not understood by the graph
    store, the implementation MUST respond with 415 Unsupported Media Type"."""
    assert_error(put(client, mime="text/csv", **at_mine()), 415)
    assert_error(
        client.post("/data", data=b"x", headers={**AUTH, "Content-Type": "image/png"}, **at_mine()), 415
    )


# --- §5.2 GET -------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("accept", "mime", "fmt"),
    [
        ("text/turtle", "text/turtle", "turtle"),
        ("application/n-triples", "application/n-triples", "nt"),
        ("application/ld+json", "application/ld+json", "json-ld"),
        ("application/rdf+xml", "application/rdf+xml", "xml"),
        ("text/turtle; charset=utf-8", "text/turtle", "turtle"),
        ("application/x-turtle", "text/turtle", "turtle"),
        ("application/rdf+xml;q=0.2, application/n-triples", "application/n-triples", "nt"),
    ],
)
def test_5_2_get_serializes_the_graph_in_a_preferred_format(client, accept, mime, fmt):
    """§5.2: GET "MUST retrieve an RDF payload that is a serialization of the named graph", "in any of the
    preferred representation formats specified in the Accept request-header field" (regression: a
    parameter, or ``application/x-turtle``, got 406 on /data)."""
    put(client, **at_mine())
    resp = client.get("/data", headers={"Accept": accept}, **at_mine())
    assert resp.status_code == 200 and resp.mimetype == mime
    assert isomorphic(Graph().parse(data=resp.data, format=fmt), expected())


@pytest.mark.parametrize(
    ("value", "mime"),
    [
        ("ntriples", "application/n-triples"),
        ("jsonld", "application/ld+json"),
        ("application/rdf+xml", "application/rdf+xml"),
    ],
)
def test_5_2_the_format_parameter_works_on_the_graph_store(client, value, mime):
    """README: ``format=`` overrides Accept wherever content is negotiated (regression: /data ignored
    ``?format=ntriples``)."""
    put(client, **at_mine())
    resp = client.get(
        "/data", query_string={"graph": MINE, "format": value}, headers={"Accept": "text/turtle"}
    )
    assert resp.mimetype == mime


def test_5_2_an_unsupported_format_is_406(client):
    """§5.2: "In the event that the specified representation format is not supported, a 406 Not
    Acceptable response code SHOULD be returned"."""
    put(client, **at_mine())
    body = assert_error(client.get("/data", headers={"Accept": "text/csv"}, **at_mine()), 406)
    assert "text/turtle" in body["message"]


def test_5_2_get_reads_any_graph_even_one_clients_may_not_write(client):
    """§5.2: reads are open: the catalogue (maintained by aikg, not writable) is served."""
    resp = client.get("/data", query_string={"graph": CATALOG})
    assert resp.status_code == 200 and len(turtle(resp)) > 0


# --- §5.3 PUT -------------------------------------------------------------------------------------------


def test_5_3_put_creates_with_201_and_replaces_with_200(client, backend_store):
    """§5.3: "If new RDF graph content is created, the origin server MUST inform the user agent via the
    201 Created response. If existing RDF graph content is modified, either the 200 OK or 204 No Content
    response codes MUST be sent"; PUT is "DROP SILENT GRAPH; INSERT DATA"."""
    assert put(client, **at_mine()).status_code == 201
    two = CLOUD.replace("conformance-cloud", "conformance-two").replace(
        "Conformance Cloud", "Conformance Two"
    )
    assert put(client, body=two, **at_mine()).status_code in (200, 204)
    assert labels(backend_store, MINE) == {"Conformance Two"}


def test_5_3_put_never_writes_another_graph(client, backend_store):
    """§5.3: "The server MUST NOT attempt to apply the request to some other resource" — a quad body
    naming another graph is refused whole."""
    body = CLOUD_NT.replace(" .\n", f" <{MINE}-other> .\n")
    assert_error(put(client, body=body, mime="application/n-quads", **at_mine()), 400)
    assert MINE not in backend_store.graphs() and MINE + "-other" not in backend_store.graphs()


def test_5_3_an_empty_put_of_a_new_graph_is_400(client, backend_store):
    """§5.3: aikg keeps no empty graphs, so an empty body creating one "a 400 Bad Request SHOULD be
    returned"; an empty body on an existing graph replaces it with nothing."""
    assert_error(put(client, body="", **at_mine()), 400)
    put(client, **at_mine())
    assert put(client, body="", **at_mine()).status_code == 200
    assert MINE not in backend_store.graphs()


@pytest.mark.parametrize("graph", [CATALOG, MLPERF])
def test_5_3_a_graph_that_may_not_be_written_is_403(client, backend_store, graph):
    """§5.3: "If the resource could not be created or modified with the request IRI (perhaps due to
    security considerations), an appropriate error response SHOULD be given" — the graphs aikg
    maintains: 403, nothing changed."""
    before = set(backend_store.quads())
    assert_error(put(client, query_string={"graph": graph}), 403)
    assert_error(client.delete("/data", query_string={"graph": graph}, headers=AUTH), 403)
    assert set(backend_store.quads()) == before


# --- §5.4 DELETE ----------------------------------------------------------------------------------------


def test_5_4_delete_removes_the_graph(client, backend_store):
    """§5.4: DELETE "SHOULD delete the RDF graph content"; "A response code of 200 OK or 204 No Content
    MUST be given in the response if the operation succeeded"; a missing graph "MUST" be 404."""
    put(client, **at_mine())
    assert client.delete("/data", headers=AUTH, **at_mine()).status_code in (200, 204)
    assert MINE not in backend_store.graphs()
    assert_error(client.delete("/data", headers=AUTH, **at_mine()), 404)


# --- §5.5 POST ------------------------------------------------------------------------------------------


def test_5_5_post_merges_into_the_graph(client, backend_store):
    """§5.5: POST "MUST be understood as a request that the origin server perform an RDF merge"."""
    put(client, **at_mine())
    two = CLOUD.replace("conformance-cloud", "conformance-two").replace(
        "Conformance Cloud", "Conformance Two"
    )
    resp = client.post(
        "/data", data=two.encode(), headers={**AUTH, "Content-Type": "text/turtle"}, **at_mine()
    )
    assert resp.status_code == 200
    assert labels(backend_store, MINE) == {"Conformance Cloud", "Conformance Two"}


def test_5_5_post_to_the_graph_store_creates_a_new_graph(client, backend_store):
    """§5.5: "If the request IRI identifies the underlying Graph Store, the origin server MUST create a new
    RDF graph comprised of the statements in the RDF payload and return a designated graph IRI ... in the
    Location HTTP header along with a 201 Created code and be different from the request IRI"
    (regression: not supported)."""
    resp = client.post("/data", data=CLOUD.encode(), headers={**AUTH, "Content-Type": "text/turtle"})
    assert resp.status_code == 201
    (graph,) = resp.get_json()["graphs"]
    assert graph.startswith("https://w3id.org/aikg/graph/uploads/")
    assert resp.headers["Location"] == graph  # the new graph's IRI (regression: the /graph/… URL)
    assert labels(backend_store, graph) == {"Conformance Cloud"}
    assert isomorphic(turtle(client.get("/data", query_string={"graph": graph})), expected())
    path = graph.removeprefix("https://w3id.org/aikg")
    assert isomorphic(turtle(client.get(path)), expected())  # direct identification: /graph/uploads/…


def test_5_5_an_empty_post_is_204(client, backend_store):
    """§5.5: "In either case, if the request body is empty, the implementation SHOULD respond with 204"."""
    before = set(backend_store.quads())
    resp = client.post("/data", data=b"", headers={**AUTH, "Content-Type": "text/turtle"}, **at_mine())
    assert resp.status_code == 204 and resp.data == b""
    assert set(backend_store.quads()) == before


# --- §5.6 HEAD ------------------------------------------------------------------------------------------


def test_5_6_head_is_get_without_a_body(client):
    """§5.6: HEAD "is identical to GET except that the server MUST NOT return a message-body"; a change of
    the graph changes the ETag, so a cache sees the entry is stale."""
    put(client, **at_mine())
    get = client.get("/data", **at_mine())
    head = client.head("/data", **at_mine())
    assert head.status_code == 200 and head.data == b""
    assert head.headers["Content-Type"] == get.headers["Content-Type"]
    assert head.headers["ETag"] == get.headers["ETag"]
    client.post(
        "/data",
        data=CLOUD.replace("Conformance Cloud", "Conformance Cloud")
        .replace("conformance-cloud", "conformance-two")
        .encode(),
        headers={**AUTH, "Content-Type": "text/turtle"},
        **at_mine(),
    )
    assert client.head("/data", **at_mine()).headers["ETag"] != get.headers["ETag"]
    assert client.head("/data", query_string={"graph": MINE + "-missing"}).status_code == 404


# --- §6 security ----------------------------------------------------------------------------------------


def test_6_unauthenticated_writes_are_401(client, backend_store):
    """§6: "when faced with an unauthenticated request to replace system critical RDF statements ...
    applications may consider responding with the 401 status code"."""
    resp = client.put("/data", data=CLOUD.encode(), headers={"Content-Type": "text/turtle"}, **at_mine())
    assert_error(resp, 401)
    assert resp.headers["WWW-Authenticate"].startswith("Bearer")
    assert MINE not in backend_store.graphs()
