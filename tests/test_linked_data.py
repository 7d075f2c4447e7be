"""Linked data at /id/<slug>: the entity's description by content negotiation, HTML for browsers."""

from __future__ import annotations

import pyoxigraph as ox
import pytest
import rdflib.namespace
from rdflib import Graph, Literal
from rdflib.compare import isomorphic
from rdflib.namespace import RDF, RDFS

from aikg.namespaces import AIKG, ID

RESULT = ID["result-mlperf-training-v6-0-coreweave-deepseek-v3"]
BROWSER = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"
FORMATS = [
    ("text/turtle", "turtle"),
    ("application/n-triples", "nt"),
    ("application/ld+json", "json-ld"),
    ("application/rdf+xml", "xml"),
]


def description(client, slug: str, mime: str = "text/turtle", fmt: str = "turtle") -> Graph:
    resp = client.get(f"/id/{slug}", headers={"Accept": mime})
    assert resp.status_code == 200
    assert resp.mimetype == mime
    return Graph().parse(data=resp.data, format=fmt)


def test_turtle_description_of_coreweave(ro_client):
    g = description(ro_client, "coreweave")
    # 1. its own triples
    assert (ID.coreweave, RDF.type, AIKG.Neocloud) in g
    assert (ID.coreweave, RDFS.label, Literal("CoreWeave", lang="en")) in g
    # 2. links pointing at it, and 3. the n-ary node behind them, one level deep
    assert (RESULT, AIKG.submitter, ID.coreweave) in g
    assert (RESULT, AIKG.acceleratorCount, Literal(8192, datatype=rdflib.namespace.XSD.integer)) in g
    assert (RESULT, AIKG.timeToTrain, Literal("2.02", datatype=rdflib.namespace.XSD.decimal)) in g


def test_linked_nodes_bring_only_their_labels(ro_client):
    g = description(ro_client, "coreweave")
    round_ = g.value(RESULT, AIKG.round)
    assert round_ is not None
    assert {p for p in g.predicates(round_, None)} == {RDFS.label}  # no second level
    assert g.value(round_, RDFS.label) is not None


@pytest.mark.parametrize("mime, fmt", FORMATS)
def test_every_rdf_format_carries_the_same_description(ro_client, mime, fmt):
    assert isomorphic(description(ro_client, "coreweave", mime, fmt), description(ro_client, "coreweave"))


def test_no_accept_and_any_type_get_turtle(ro_client):
    assert ro_client.get("/id/coreweave").mimetype == "text/turtle"
    assert ro_client.get("/id/coreweave", headers={"Accept": "*/*"}).mimetype == "text/turtle"


def test_plain_json_means_json_ld(ro_client):
    resp = ro_client.get("/id/coreweave", headers={"Accept": "application/json"})
    assert resp.mimetype == "application/ld+json"


def test_format_parameter(ro_client):
    resp = ro_client.get("/id/coreweave?format=ntriples", headers={"Accept": "text/turtle"})
    assert resp.mimetype == "application/n-triples"
    g = Graph().parse(data=resp.data, format="nt")
    assert (ID.coreweave, RDFS.label, Literal("CoreWeave", lang="en")) in g


def test_browsers_get_the_html_page(ro_client):
    resp = ro_client.get("/id/coreweave", headers={"Accept": BROWSER})
    assert resp.status_code == 200
    assert resp.mimetype == "text/html"
    assert "CoreWeave" in resp.data.decode()
    assert "Accept" in resp.headers["Vary"]


def test_headers_name_the_canonical_iri_and_the_alternates(ro_client):
    resp = ro_client.get("/id/coreweave")
    assert "Accept" in resp.headers["Vary"]
    link = resp.headers["Link"]
    assert f'<{ID.coreweave}>; rel="canonical"' in link
    assert '</id/coreweave?format=jsonld>; rel="alternate"; type="application/ld+json"' in link
    assert resp.headers["Access-Control-Allow-Origin"] == "*"


@pytest.mark.parametrize("slug", ["no-such-entity", "Not_A_Slug"])
def test_unknown_entity_is_a_404_envelope(ro_client, slug):
    resp = ro_client.get(f"/id/{slug}", headers={"Accept": "text/turtle"})
    assert resp.status_code == 404
    body = resp.get_json()
    assert body == {
        "ok": False,
        "status": 404,
        "error": "not found",
        "message": body["message"],
        "errors": [],
    }
    assert slug in body["message"]


def test_unacceptable_type_is_a_406_naming_the_offers(ro_client):
    resp = ro_client.get("/id/coreweave", headers={"Accept": "image/png"})
    assert resp.status_code == 406
    message = resp.get_json()["message"]
    for mime in ("text/turtle", "application/ld+json", "application/n-triples", "text/html"):
        assert mime in message


def test_post_is_a_405(ro_client):
    resp = ro_client.post("/id/coreweave")
    assert resp.status_code == 405
    assert resp.get_json()["status"] == 405


def test_an_iri_only_linked_to_is_not_an_entity(client, backend_store):
    """Like the HTML page and the API, /id/ answers for IRIs the data says something about."""
    graph = ox.NamedNode("https://w3id.org/aikg/graph/test")
    backend_store.apply(
        add=[
            ox.Quad(
                ox.NamedNode(str(ID["example-deal"])),
                ox.NamedNode(str(AIKG.customer)),
                ox.NamedNode(str(ID["example-buyer"])),
                graph,
            )
        ]
    )
    assert client.get("/id/example-buyer").status_code == 404
    g = description(client, "example-deal")
    assert set(g) == {(ID["example-deal"], AIKG.customer, ID["example-buyer"])}
