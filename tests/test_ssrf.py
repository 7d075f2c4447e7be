"""No fetching on a client's behalf: SERVICE, LOAD, FROM, remote JSON-LD contexts, XML entities.

Oxigraph really fetches SERVICE and LOAD IRIs, so each case points at a listener the test starts and then
checks that nothing ever connected to it. A dataset (FROM, USING, default-graph-uri…) or a write may name
any IRI: it names a graph of the store (empty when the store holds none), and nothing is fetched from it.
"""

from __future__ import annotations

import json
import socket
import threading
from collections.abc import Iterator

import pytest

from aikg.errors import Forbidden
from aikg.rdf import guard
from aikg.web import create_app

AUTH = {"Authorization": "Bearer test-token"}
JSON = {"Accept": "application/sparql-results+json"}
G = "https://w3id.org/aikg/graph/sources/test-ssrf"


@pytest.fixture()
def db(backend_store):
    """The store behind ``client``, whichever backend it is."""
    return backend_store


class Listener:
    """A TCP listener on 127.0.0.1 that records every connection made to it."""

    def __init__(self) -> None:
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(16)
        self.url = f"http://127.0.0.1:{self.sock.getsockname()[1]}"
        self.connections: list[bytes] = []
        self.thread = threading.Thread(target=self._accept, daemon=True)
        self.thread.start()

    def _accept(self) -> None:
        while True:
            try:
                conn, _ = self.sock.accept()
            except OSError:
                return
            with conn:
                conn.settimeout(1)
                try:
                    self.connections.append(conn.recv(4096))
                except OSError:
                    self.connections.append(b"")

    def close(self) -> None:
        """Stop listening."""
        self.sock.close()


@pytest.fixture()
def listener() -> Iterator[Listener]:
    server = Listener()
    yield server
    server.close()
    assert server.connections == []  # whatever the test sent, nothing reached the listener


def sparql(client, query: str, **params):
    return client.get("/sparql", query_string={"query": query, **params}, headers=JSON)


def update(client, text: str):
    return client.post(
        "/update", data=text.encode(), headers={**AUTH, "Content-Type": "application/sparql-update"}
    )


@pytest.mark.parametrize(
    "template",
    [
        "SELECT * WHERE {{ SERVICE <{url}/sparql> {{ ?s ?p ?o }} }}",
        "SELECT * WHERE {{ SERVICE SILENT <{url}/sparql> {{ ?s ?p ?o }} }}",
        "select * where {{ service <{url}/sparql> {{ ?s ?p ?o }} }}",
        "PREFIX ep: <{url}/> SELECT * WHERE {{ SERVICE ep:sparql {{ ?s ?p ?o }} }}",
        "BASE <{url}/> SELECT * WHERE {{ SERVICE <sparql> {{ ?s ?p ?o }} }}",
        "SELECT * WHERE {{ BIND(<{url}/sparql> AS ?ep) SERVICE ?ep {{ ?s ?p ?o }} }}",
        "SELECT * WHERE {{ {{ ?s ?p ?o }}SERVICE<{url}/sparql>{{ ?s ?p ?o }} }}",
    ],
)
def test_service_is_refused_before_anything_runs(ro_client, listener, template):
    r = sparql(ro_client, template.format(url=listener.url))
    assert r.status_code == 403
    assert r.get_json()["error"] == "forbidden" and "SERVICE" in r.get_json()["message"]


def test_service_in_strings_and_comments_is_not_a_service_call(ro_client, listener):
    r = sparql(ro_client, f'SELECT ?x WHERE {{ BIND("SERVICE <{listener.url}>" AS ?x) }} # SERVICE <x>')
    assert r.status_code == 200
    assert r.get_json()["results"]["bindings"] == [
        {"x": {"type": "literal", "value": f"SERVICE <{listener.url}>"}}
    ]


def test_allow_list_admits_a_named_endpoint_only():
    query = "SELECT * WHERE { SERVICE <https://query.example/sparql> { ?s ?p ?o } }"
    guard.check_sparql(query, allow_service={"https://query.example/sparql"})
    with pytest.raises(Forbidden):
        guard.check_sparql(query, allow_service={"https://other.example/sparql"})


@pytest.mark.parametrize(
    "template",
    [
        "LOAD <file:///etc/passwd>",
        "LOAD <file:///etc/passwd> INTO GRAPH <" + G + ">",
        "LOAD <{url}/data.ttl> INTO GRAPH <" + G + ">",
        "INSERT DATA {{ GRAPH <"
        + G
        + "> {{ <https://w3id.org/aikg/id/x> <http://p> 1 }} }} ; load <{url}/x>",
    ],
)
def test_load_is_refused(client, db, listener, template):
    before = db.dump(mime="application/n-quads")
    r = update(client, template.format(url=listener.url))
    assert r.status_code == 403 and "LOAD" in r.get_json()["message"]
    assert db.dump(mime="application/n-quads") == before


def test_load_silent_succeeds_and_fetches_nothing(client, db, listener):
    """Update §3.1.4: a LOAD SILENT that fails succeeds; aikg never runs it, and says it skipped it."""
    before = db.dump(mime="application/n-quads")
    r = update(client, f"LOAD SILENT <{listener.url}/data.ttl> INTO GRAPH <{G}>")
    assert r.status_code == 200, r.get_json()
    assert r.get_json()["added"] == 0 and "never fetches" in r.get_json()["notes"][0]
    assert db.dump(mime="application/n-quads") == before


@pytest.mark.parametrize(
    "template",
    [
        "SELECT * FROM <{url}/g> WHERE {{ ?s ?p ?o }}",
        "SELECT * FROM NAMED <{url}/g> WHERE {{ GRAPH ?g {{ ?s ?p ?o }} }}",
        "PREFIX r: <{url}/> SELECT * FROM r:g WHERE {{ ?s ?p ?o }}",
        "SELECT * FROM <file:///etc/passwd> WHERE {{ ?s ?p ?o }}",
    ],
)
def test_from_a_graph_the_store_does_not_hold_is_empty_and_fetched_from_nowhere(
    ro_client, listener, template
):
    r = sparql(ro_client, template.format(url=listener.url))
    assert r.status_code == 200 and r.get_json()["results"]["bindings"] == []


def _escaped(url: str) -> str:
    """Every character of ``url`` as a codepoint escape (``\\u0068ttp…``)."""
    return "".join(f"\\u{ord(c):04X}" for c in url)


@pytest.mark.parametrize(
    "template",
    [
        "SELECT * WHERE {{ SERVICE <{esc}/sparql> {{ ?s ?p ?o }} }}",
        'SELECT * WHERE {{ ?s ?p "\\u0022 }} SERVICE <{url}/sparql> {{ ?s ?p ?o }} # \\u0022" }}',
    ],
)
def test_codepoint_escaped_iris_are_refused(ro_client, listener, template):
    """Regression: ``SERVICE <\\u0068ttp://…>`` must not pass the guard: it decides on the decoded IRI,
    and on the SPARQL 1.1 reading where escapes are replaced before parsing."""
    r = sparql(ro_client, template.format(esc=_escaped(listener.url), url=listener.url))
    assert r.status_code == 403


def test_a_protocol_dataset_the_store_does_not_hold_is_empty(ro_client, listener):
    r = sparql(ro_client, "SELECT * WHERE { ?s ?p ?o }", **{"default-graph-uri": listener.url + "/g"})
    assert r.status_code == 200 and r.get_json()["results"]["bindings"] == []
    r = sparql(ro_client, "SELECT * WHERE { GRAPH ?g { ?s ?p ?o } }", **{"named-graph-uri": listener.url})
    assert r.status_code == 200 and r.get_json()["results"]["bindings"] == []


def test_from_a_graph_in_the_store_is_allowed(ro_client):
    r = sparql(
        ro_client,
        "SELECT ?label FROM <https://w3id.org/aikg/graph/ontology> WHERE { "
        "<https://w3id.org/aikg/ontology#Neocloud> <http://www.w3.org/2000/01/rdf-schema#label> "
        "?label FILTER(LANG(?label) = 'en') }",
    )
    assert r.status_code == 200
    assert r.get_json()["results"]["bindings"] == [
        {"label": {"type": "literal", "value": "neocloud", "xml:lang": "en"}}
    ]


def test_using_a_graph_the_store_does_not_hold_reads_nothing(client, db, listener):
    before = db.dump(mime="application/n-quads")
    r = update(
        client, f"INSERT {{ GRAPH <{G}> {{ ?s ?p ?o }} }} USING <{listener.url}/g> WHERE {{ ?s ?p ?o }}"
    )
    assert r.status_code == 200 and r.get_json()["added"] == 0
    r = client.post(
        "/update",
        data=f"INSERT {{ GRAPH <{G}> {{ ?s ?p ?o }} }} WHERE {{ ?s ?p ?o }}".encode(),
        query_string={"using-graph-uri": listener.url + "/g"},
        headers={**AUTH, "Content-Type": "application/sparql-update"},
    )
    assert r.status_code == 200 and r.get_json()["added"] == 0
    assert db.dump(mime="application/n-quads") == before


@pytest.mark.parametrize("graph", ["file:///etc/passwd", "{url}/graph"])
def test_a_graph_named_by_any_iri_is_only_a_name(client, db, listener, graph):
    """A client may name its graph with any IRI (the standards assume it): the data written is stored
    under that name and read back from the store; nothing is read from the file or the listener."""
    graph = graph.format(url=listener.url)
    r = update(client, f"INSERT DATA {{ GRAPH <{graph}> {{ <urn:x:a> <urn:x:b> 'x' }} }}")
    assert r.status_code == 200 and r.get_json()["graphs"] == [graph]
    r = client.put(
        "/data",
        query_string={"graph": graph},
        data=b"<urn:a> <urn:b> <urn:c> .",
        headers={**AUTH, "Content-Type": "text/turtle"},
    )
    assert r.status_code == 200
    r = client.get("/data", query_string={"graph": graph}, headers={"Accept": "application/n-triples"})
    assert r.get_data(as_text=True) == "<urn:a> <urn:b> <urn:c> .\n"
    assert [q.object.value for q in db.quads(graph=graph)] == ["urn:c"]


def put(client, body: bytes, mime: str):
    return client.put("/data", query_string={"graph": G}, data=body, headers={**AUTH, "Content-Type": mime})


def test_jsonld_remote_context_is_refused(client, db, listener):
    before = db.dump(mime="application/n-quads")
    remote = listener.url + "/context.jsonld"
    for context in (remote, [remote, {"x": "http://x/"}], {"@import": remote}):
        body = json.dumps({"@context": context, "@id": "https://w3id.org/aikg/id/x", "name": "x"}).encode()
        r = put(client, body, "application/ld+json")
        assert r.status_code == 403 and "@context" in r.get_json()["message"]
    nested = json.dumps(
        {
            "@context": {"rdfs": "http://www.w3.org/2000/01/rdf-schema#"},
            "@graph": [{"@context": remote, "@id": "https://w3id.org/aikg/id/x"}],
        }
    ).encode()
    assert put(client, nested, "application/ld+json").status_code == 403
    assert db.dump(mime="application/n-quads") == before


RDFXML = (
    '<?xml version="1.0"?>\n<!DOCTYPE rdf:RDF [{dtd}]>\n'
    '<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" '
    'xmlns:rdfs="http://www.w3.org/2000/01/rdf-schema#">'
    '<rdf:Description rdf:about="https://w3id.org/aikg/id/x"><rdfs:label xml:lang="en">{text}'
    "</rdfs:label></rdf:Description></rdf:RDF>"
)


@pytest.mark.parametrize("target", ["file:///etc/passwd", "{url}/secret"])
def test_rdfxml_external_entity_is_refused(client, db, listener, target):
    before = db.dump(mime="application/n-quads")
    body = RDFXML.format(dtd=f'<!ENTITY ext SYSTEM "{target.format(url=listener.url)}">', text="&ext;")
    r = put(client, body.encode(), "application/rdf+xml")
    assert r.status_code == 403 and "external XML entity" in r.get_json()["message"]
    assert db.dump(mime="application/n-quads") == before


def test_rdfxml_billion_laughs_is_refused(client, db):
    before = db.dump(mime="application/n-quads")
    dtd = '<!ENTITY lol "lol">' + "".join(
        f'<!ENTITY lol{i} "{("&lol" + ("" if i == 1 else str(i - 1)) + ";") * 10}">' for i in range(1, 10)
    )
    r = put(client, RDFXML.format(dtd=dtd, text="&lol9;").encode(), "application/rdf+xml")
    assert r.status_code == 400 and "entity expansion" in r.get_json()["message"]
    wide = '<!ENTITY big "' + "x" * 1000 + '">'
    r = put(client, RDFXML.format(dtd=wide, text="&big;" * 20000).encode(), "application/rdf+xml")
    assert r.status_code == 400 and "expansion" in r.get_json()["message"]
    assert db.dump(mime="application/n-quads") == before


def test_plain_internal_entity_is_still_read(store):
    client = create_app(
        {"store": "memory", "load_seeds": False, "token": "test-token"}, store=store
    ).test_client()
    body = RDFXML.format(dtd='<!ENTITY name "Entity Test">', text="&name;").replace(
        '<rdf:Description rdf:about="https://w3id.org/aikg/id/x">',
        '<rdf:Description rdf:about="https://w3id.org/aikg/id/x"><rdf:type '
        'rdf:resource="https://w3id.org/aikg/ontology#Neocloud"/>',
    )
    r = put(client, body.encode(), "application/rdf+xml")
    assert r.status_code == 201, r.get_json()
    assert {
        q.object.value for q in store.quads(None, None, None, G) if q.object.__class__.__name__ == "Literal"
    } == {"Entity Test"}
