"""The query worker writes ``/sparql``'s answer in the client's format: byte for byte what the HTTP
worker wrote before, for every kind of answer and every format, cut answers included, while the HTTP
worker (whose GIL cheap requests share) does none of that work."""

from __future__ import annotations

import pytest
from rdflib import Graph, Literal, URIRef

from aikg.knowledge.load import load_seeds
from aikg.namespaces import BASE
from aikg.rdf.formats import GRAPH_FORMATS, RESULT_FORMATS
from aikg.rdf.serialize import TRUNCATED_HEADER, serialize_result
from aikg.store import OxigraphStore
from aikg.web import create_app, get_services
from aikg.web import sparql as sparql_route

MAX_ROWS = 7
ID = "https://w3id.org/aikg/id/"

PREFIXES = (
    "PREFIX rdfs: <http://www.w3.org/2000/01/rdf-schema#> "
    "PREFIX aikg: <https://w3id.org/aikg/ontology#> PREFIX id: <https://w3id.org/aikg/id/> "
)
QUERIES = {
    "select": "SELECT ?s ?l WHERE { ?s a aikg:Neocloud ; rdfs:label ?l } ORDER BY ?s ?l",
    "select, cut": "SELECT ?s ?p ?o WHERE { ?s ?p ?o } ORDER BY ?s ?p ?o",
    "ask": "ASK { id:coreweave ?p ?o }",
    "construct": "CONSTRUCT { ?s rdfs:label ?l } "
    "WHERE { VALUES ?s { id:coreweave id:nvidia } ?s rdfs:label ?l }",
    "describe, cut": "DESCRIBE id:groq",
}
CUT = {"select, cut", "describe, cut"}
"""Answers longer than the row cap: cut, and flagged as cut, in every format."""


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    """An app over an on-disk store, so queries run in worker processes, with a small row cap."""
    store = OxigraphStore(tmp_path_factory.mktemp("rendered") / "store")
    load_seeds(store)
    # a generous time limit: these are byte comparisons, and query workers run at a lower priority
    settings = {"store": "memory", "load_seeds": False, "max_rows": MAX_ROWS, "query_timeout": 60}
    app = create_app(settings, store=store)
    yield app, store
    with app.app_context():
        get_services().runner.close()
    store.close()


def _cases():
    for name in QUERIES:
        table = GRAPH_FORMATS if name.startswith(("construct", "describe")) else RESULT_FORMATS
        for fmt in table:
            yield pytest.param(name, fmt, id=f"{name}-{fmt.name}")


@pytest.mark.parametrize(("name", "fmt"), list(_cases()))
def test_the_worker_writes_what_the_http_worker_wrote(served, name, fmt):
    app, store = served
    text = PREFIXES + QUERIES[name]
    r = app.test_client().get("/sparql", query_string={"query": text}, headers={"Accept": fmt.mime})
    assert r.status_code == 200, r.get_data(as_text=True)
    expected = store.query(text, max_rows=MAX_ROWS, base_iri=BASE)
    assert r.headers[TRUNCATED_HEADER] == ("true" if expected.truncated else "false")
    assert r.data == serialize_result(expected, fmt)
    assert expected.truncated == (name in CUT)


def test_the_http_worker_writes_no_answer_the_query_worker_has_written(served, monkeypatch):
    app, _ = served

    def refuse(*_):
        raise AssertionError("the HTTP worker serialized an answer the query worker had written")

    monkeypatch.setattr(sparql_route, "serialize_result", refuse)
    client = app.test_client()
    for name, accept in (("construct", "text/turtle"), ("select", "application/sparql-results+json")):
        text = PREFIXES + QUERIES[name] + "\n# not answered before (the response cache would replay it)"
        r = client.get("/sparql", query_string={"query": text}, headers={"Accept": accept})
        assert r.status_code == 200 and r.mimetype == accept


def test_a_graph_rdf_xml_cannot_write_is_refused_not_sent_as_broken_xml(served):
    """A predicate whose IRI ends in no XML name has no RDF/XML element: 406 in the envelope, naming the
    predicate (Oxigraph wrote an element ``oxprefix:``, unreadable XML, with a 200); other formats answer."""
    app, _ = served
    client = app.test_client()
    text = 'CONSTRUCT { <https://w3id.org/aikg/id/x> <urn:x:1> "v" } WHERE {}'
    r = client.get("/sparql", query_string={"query": text}, headers={"Accept": "application/rdf+xml"})
    assert r.status_code == 406
    assert r.get_json()["status"] == 406 and "urn:x:1" in r.get_json()["message"]
    r = client.get("/sparql", query_string={"query": text}, headers={"Accept": "text/turtle"})
    assert r.status_code == 200 and b"<urn:x:1>" in r.data
    text = 'CONSTRUCT { <https://w3id.org/aikg/id/x> <https://example.org/p1> "v" } WHERE {}'
    r = client.get("/sparql", query_string={"query": text}, headers={"Accept": "application/rdf+xml"})
    assert r.status_code == 200
    parsed = Graph().parse(data=r.data, format="xml")
    assert set(parsed) == {(URIRef(ID + "x"), URIRef("https://example.org/p1"), Literal("v"))}


@pytest.fixture(scope="module")
def served_uncut(tmp_path_factory):
    """An app over an on-disk store (queries in worker processes) with the default row cap."""
    store = OxigraphStore(tmp_path_factory.mktemp("rendered-uncut") / "store")
    load_seeds(store)
    app = create_app({"store": "memory", "load_seeds": False, "query_timeout": 60}, store=store)
    yield app
    with app.app_context():
        get_services().runner.close()
    store.close()


def test_a_large_answer_for_a_gzip_client_arrives_compressed_from_the_query_worker(served_uncut, monkeypatch):
    """Megabytes of answer copied into the HTTP worker held up the cheap requests on its core (issue 13's
    fair share): for a client that takes gzip, a large answer is compressed by the query worker, passed
    on and kept as it came — the HTTP worker compresses nothing — and a client without gzip gets the
    same answer decompressed."""
    from aikg import compression

    big = "SELECT ?s ?p ?o ?k WHERE { ?s ?p ?o VALUES ?k { 1 2 3 4 5 6 7 8 9 10 } }"
    json_results = {"Accept": "application/sparql-results+json"}

    def refuse(_body):
        raise AssertionError("the HTTP worker compressed an answer the query worker should have")

    client = served_uncut.test_client()
    monkeypatch.setattr(compression, "gzip", refuse)
    packed = client.get(
        "/sparql", query_string={"query": big}, headers={**json_results, "Accept-Encoding": "gzip"}
    )
    assert packed.status_code == 200 and packed.headers["Content-Encoding"] == "gzip"
    replayed = client.get("/sparql", query_string={"query": big}, headers=json_results)  # from the cache
    monkeypatch.undo()
    fresh = client.get("/sparql", query_string={"query": big + " # another key"}, headers=json_results)
    plain = compression.gunzip(packed.data)
    assert len(plain) >= compression.FROM_PRODUCER and len(packed.data) * 4 < len(plain)
    assert plain == fresh.data == replayed.data and "Content-Encoding" not in replayed.headers
    assert len(fresh.get_json()["results"]["bindings"]) == 10000
