"""The W3C SPARQL 1.1 Protocol (34 tests) and Graph Store Protocol (13 tests) test suites, their manifests
unmodified (tests/data/w3c/, checked against the W3C originals' checksums), performed by tests/w3c.py on
both backends: the embedded store over HTTP against a live ``aikg serve`` (gunicorn, the writer process,
query workers), the remote engine (Virtuoso) in process, test by test."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
import requests

import w3c  # tests/ is on sys.path (rootdir conftest)
from aikg.web import create_app

TOKEN = "test-token"
PROTOCOL = w3c.protocol_tests()
GRAPH_STORE = w3c.graph_store_tests()


def test_the_manifests_are_the_w3c_originals():
    assert w3c.unmodified() == []
    assert len(PROTOCOL) == 34 and len(GRAPH_STORE) == 13


@pytest.fixture(scope="module")
def send(seeded_remote) -> Iterator[w3c.Send]:
    """Requests to an app over the session's seeded Virtuoso (restored afterwards)."""
    seeded_remote.restore()
    store = seeded_remote.store
    client = create_app(
        {"store": "memory", "load_seeds": False, "token": TOKEN, "query_timeout": 30}, store=store
    ).test_client()

    def flask_send(method: str, path: str, headers: dict[str, str], body: bytes | None) -> w3c.Answer:
        resp = client.open(path, method=method, headers=headers, data=body)
        return w3c.Answer(resp.status_code, {k.lower(): v for k, v in resp.headers.items()}, resp.get_data())

    yield flask_send
    seeded_remote.restore()


@pytest.mark.parametrize("test", PROTOCOL, ids=lambda t: t.id)
def test_sparql_protocol(send, test):
    assert w3c.run(test, send, TOKEN) == []


@pytest.mark.parametrize("test", GRAPH_STORE, ids=lambda t: t.id)
def test_graph_store_protocol(send, test):
    assert w3c.run(test, send, TOKEN) == []


def _http(server) -> w3c.Send:
    session = requests.Session()

    def http_send(method: str, path: str, headers: dict[str, str], body: bytes | None) -> w3c.Answer:
        resp = session.request(method, server.url + path, headers=headers, data=body, timeout=60)
        return w3c.Answer(resp.status_code, {k.lower(): v for k, v in resp.headers.items()}, resp.content)

    return http_send


def test_both_suites_over_http(live_server):
    """Every test of both suites against a real ``aikg serve`` (gunicorn, the writer process, a query
    worker), one connection reused as a client would."""
    send = _http(live_server)
    failed = {t.id: problems for t in PROTOCOL + GRAPH_STORE if (problems := w3c.run(t, send, TOKEN))}
    assert failed == {}
