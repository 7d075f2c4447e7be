"""Writes that would poison the data are refused whole: blank nodes are validated like IRIs, and no
data graph may change aikg's vocabulary (issue #42)."""

from __future__ import annotations

import pytest

from aikg.store import OxigraphStore
from aikg.web import create_app

G = "https://w3id.org/aikg/graph/client/poison"
PREFIXES = (
    "PREFIX aikg: <https://w3id.org/aikg/ontology#> "
    "PREFIX rdfs: <http://www.w3.org/2000/01/rdf-schema#> "
    "PREFIX owl: <http://www.w3.org/2002/07/owl#> "
)
HEADERS = {"Authorization": "Bearer t", "Content-Type": "application/sparql-update"}


@pytest.fixture(scope="module")
def service(seeded_store):
    """A writable app over a copy of the seeded store (the session's store stays untouched)."""
    store = OxigraphStore(None)
    store.apply(add=list(seeded_store.quads()))
    return store, create_app(
        {"store": "memory", "load_seeds": False, "token": "t"}, store=store
    ).test_client()


def _post(client, triples: str):
    return client.post(
        "/update", data=PREFIXES + f"INSERT DATA {{ GRAPH <{G}> {{ {triples} }} }}", headers=HEADERS
    )


@pytest.mark.parametrize(
    ("triples", "path"),
    [
        ('_:b a aikg:DataCenter ; rdfs:label "B"@en ; aikg:powerCapacity -5', "powerCapacity"),
        ('_:i a aikg:Investment ; rdfs:label "I"@en ; aikg:amount "lots"', "amount"),
    ],
)
def test_an_invalid_blank_node_is_refused_like_an_iri(service, triples, path):
    store, client = service
    before = set(store.quads())
    resp = _post(client, triples)
    assert resp.status_code == 422, resp.get_json()
    errors = resp.get_json()["errors"]
    assert any(e["focus_node"].startswith("_:") and (e["path"] or "").endswith(path) for e in errors), errors
    assert set(store.quads()) == before


def test_a_valid_blank_node_is_still_written(service):
    store, client = service
    resp = _post(client, '_:c rdfs:comment "a note"')
    assert resp.status_code == 200, resp.get_json()
    assert [q.object.value for q in store.quads(graph=G)] == ["a note"]


@pytest.mark.parametrize(
    "triples",
    [
        "aikg:Organization rdfs:subClassOf aikg:Person",
        "aikg:operatedBy rdfs:subPropertyOf aikg:party",
        "aikg:operatedBy rdfs:domain aikg:Person",
        "aikg:operatedBy rdfs:range aikg:Person",
        "aikg:operatedBy a owl:TransitiveProperty",
        "<http://example.org/Thing> owl:equivalentClass aikg:Organization",
    ],
)
def test_a_statement_changing_the_vocabulary_is_refused(service, triples):
    store, client = service
    before = set(store.quads())
    resp = _post(client, triples)
    assert resp.status_code == 403, resp.get_json()
    assert "vocabulary" in resp.get_json()["message"]
    assert set(store.quads()) == before
    persons = "ASK { <https://w3id.org/aikg/id/nvidia> a aikg:Person }"
    assert client.get("/sparql", query_string={"query": PREFIXES + persons}).get_json()["boolean"] is False


@pytest.mark.parametrize(
    "path", ["/api/graph", "/api/entities/nvidia/neighbors", "/api/search?q=nvidia&", "/api/entities/nvidia"]
)
@pytest.mark.parametrize("value", ["9" * 5000, "-" + "9" * 5000, "0" * 5000 + "1x"])
def test_an_integer_parameter_of_5000_digits_is_a_400(service, path, value):
    _, client = service
    sep = "" if path.endswith("&") else "?"
    resp = client.get(f"{path}{sep}limit={value}")
    assert resp.status_code == 400, resp.get_data(as_text=True)[:300]
    body = resp.get_json()
    assert "limit" in body["message"] and body["errors"][0]["parameter"] == "limit"


def test_a_leading_zero_limit_is_still_read(service):
    _, client = service
    resp = client.get("/api/search?q=nvidia&limit=" + "0" * 300 + "2")
    assert resp.status_code == 200 and resp.get_json()["limit"] == 2
