"""Helpers shared by the conformance modules (one per W3C recommendation)."""

from __future__ import annotations

import pyoxigraph as ox
from rdflib import Graph

AUTH = {"Authorization": "Bearer test-token"}
MINE = "https://w3id.org/aikg/graph/sources/test-conformance"
"""A graph in the writable namespace that no seed uses."""
DEFAULT = "https://w3id.org/aikg/graph/default"
"""Where aikg writes "the default graph"."""
CATALOG = "https://w3id.org/aikg/graph/catalog"
ONTOLOGY = "https://w3id.org/aikg/graph/ontology"
MLPERF = "https://w3id.org/aikg/graph/sources/frontier-insights-coreweave-mlperf-2026-08-18"
PREFIXES = (
    "PREFIX aikg: <https://w3id.org/aikg/ontology#>\nPREFIX id: <https://w3id.org/aikg/id/>\n"
    "PREFIX rdfs: <http://www.w3.org/2000/01/rdf-schema#>\n"
)
CLOUD = """@prefix aikg: <https://w3id.org/aikg/ontology#> . @prefix id: <https://w3id.org/aikg/id/> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
id:conformance-cloud a aikg:Neocloud ; rdfs:label "Conformance Cloud"@en .
"""
CLOUD_NT = (
    "<https://w3id.org/aikg/id/conformance-cloud> <http://www.w3.org/1999/02/22-rdf-syntax-ns#type> "
    "<https://w3id.org/aikg/ontology#Neocloud> .\n<https://w3id.org/aikg/id/conformance-cloud> "
    '<http://www.w3.org/2000/01/rdf-schema#label> "Conformance Cloud"@en .\n'
)


def assert_error(resp, status: int) -> dict:
    """The response is the one JSON error envelope with this status."""
    assert resp.status_code == status, (resp.status_code, resp.get_data(as_text=True)[:500])
    assert resp.mimetype == "application/json"
    body = resp.get_json()
    assert set(body) == {"ok", "status", "error", "message", "errors"}
    assert body["ok"] is False and body["status"] == status and body["message"]
    return body


def update(client, text: str, *, headers: dict | None = None, **kwargs):
    """POST an update directly (application/sparql-update), with the test token."""
    return client.post(
        "/update",
        data=text.encode(),
        headers={**AUTH, **(headers or {}), "Content-Type": "application/sparql-update"},
        **kwargs,
    )


def select(client, query: str, **params) -> list[dict]:
    """The bindings of a SELECT, by GET."""
    resp = client.get("/sparql", query_string={"query": query, **params})
    assert resp.status_code == 200, resp.get_data(as_text=True)[:500]
    return resp.get_json()["results"]["bindings"]


def labels(store, graph: str) -> set[str]:
    """The rdfs:label values stored in one graph."""
    label = ox.NamedNode("http://www.w3.org/2000/01/rdf-schema#label")
    return {q.object.value for q in store.quads(None, label, None, graph)}


def turtle(resp) -> Graph:
    """A response body parsed as Turtle."""
    return Graph().parse(data=resp.get_data(), format="turtle")
