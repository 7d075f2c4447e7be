"""Answers compressed with gzip for clients that take it, and large answers kept compressed.

At 1M quads a hub's named queries write 7–13 MB of JSON: over a tenth of the response cache, so they
were never kept and every repeat recomputed them for seconds. Kept compressed they fit; a client that
takes gzip gets the compressed body as it is, one that does not gets it decompressed.
"""

from __future__ import annotations

import gzip

import pytest

from aikg.web import SERVICES_KEY, create_app

ALL_STATEMENTS = "SELECT ?s ?p ?o WHERE { ?s ?p ?o } ORDER BY ?s ?p ?o LIMIT 400"
JSON = {"Accept": "application/sparql-results+json"}


def ask(client, query: str = ALL_STATEMENTS, **headers: str):
    """``query`` by GET for SPARQL JSON results, with ``headers`` (``Accept_Encoding="gzip"``)."""
    return client.get(
        "/sparql",
        query_string={"query": query},
        headers={**JSON, **{k.replace("_", "-"): v for k, v in headers.items()}},
    )


@pytest.fixture()
def counted(store, monkeypatch):
    """A factory of apps over the seeded store whose SPARQL queries are counted as they reach the store."""

    def make(**settings):
        app = create_app({"store": "memory", "load_seeds": False, **settings}, store=store)
        services = app.extensions[SERVICES_KEY]
        calls: list[str] = []
        real = services.runner.query

        def query(*args, **kwargs):
            calls.append("query")
            return real(*args, **kwargs)

        monkeypatch.setattr(services.runner, "query", query)
        return app.test_client(), services, calls

    return make


def test_a_client_taking_gzip_gets_the_same_answer_compressed_with_its_own_tag(counted):
    client, _, calls = counted()
    plain = ask(client)
    packed = ask(client, Accept_Encoding="gzip, br")
    assert plain.status_code == packed.status_code == 200
    assert "Content-Encoding" not in plain.headers
    assert packed.headers["Content-Encoding"] == "gzip"
    assert gzip.decompress(packed.data) == plain.data
    assert len(packed.data) * 4 < len(plain.data)
    assert packed.content_type == plain.content_type
    assert packed.headers["ETag"] != plain.headers["ETag"]  # two representations, two tags
    assert "Accept-Encoding" in plain.headers["Vary"] and "Accept-Encoding" in packed.headers["Vary"]
    assert calls == ["query"]  # the compressed one was made from the kept answer

    again = ask(client, Accept_Encoding="gzip", If_None_Match=packed.headers["ETag"])
    assert again.status_code == 304 and again.headers["ETag"] == packed.headers["ETag"]
    crossed = ask(client, If_None_Match=packed.headers["ETag"])
    assert crossed.status_code == 200 and crossed.data == plain.data  # the gzip tag is not the plain body's


@pytest.mark.parametrize("accept_encoding", ["gzip;q=0", "identity", "br"])
def test_a_client_refusing_gzip_gets_the_plain_body(counted, accept_encoding):
    client, _, _ = counted()
    r = ask(client, Accept_Encoding=accept_encoding)
    assert r.status_code == 200 and "Content-Encoding" not in r.headers
    assert len(r.get_json()["results"]["bindings"]) == 400


def test_a_short_answer_is_not_compressed(counted):
    client, _, _ = counted()
    r = ask(client, "ASK { ?s ?p ?o }", Accept_Encoding="gzip")
    assert r.status_code == 200 and "Content-Encoding" not in r.headers and r.get_json()["boolean"] is True


def test_an_answer_too_large_for_the_cache_as_it_is_is_kept_compressed(counted):
    client, services, calls = counted(cache_bytes=200_000)  # one entry may hold 20,000 bytes
    first = ask(client)
    assert first.status_code == 200 and len(first.data) > services.responses.entry_bytes
    assert len(services.responses) == 1 and services.responses.bytes <= services.responses.entry_bytes
    again = ask(client)
    packed = ask(client, Accept_Encoding="gzip")
    assert calls == ["query"]  # both repeats were answered from the cache
    assert again.data == first.data and again.headers["ETag"] == first.headers["ETag"]
    assert "Content-Encoding" not in again.headers
    assert gzip.decompress(packed.data) == first.data


def test_an_answer_too_large_even_compressed_is_answered_whole_and_not_kept(counted):
    client, services, calls = counted(cache_bytes=20_000)  # one entry may hold 2,000 bytes
    plain = ask(client)
    packed = ask(client, Accept_Encoding="gzip")
    assert len(services.responses) == 0 and calls == ["query", "query"]
    assert len(plain.get_json()["results"]["bindings"]) == 400
    assert gzip.decompress(packed.data) == plain.data


def test_with_the_cache_off_a_client_taking_gzip_still_gets_it(counted):
    client, services, _ = counted(cache_size=0)
    plain = ask(client)
    packed = ask(client, Accept_Encoding="gzip")
    assert len(services.responses) == 0 and packed.headers["Content-Encoding"] == "gzip"
    assert gzip.decompress(packed.data) == plain.data


def test_the_lookup_api_compresses_as_sparql_does(counted):
    client, _, _ = counted()
    plain = client.get("/api/entities/nvidia")
    packed = client.get("/api/entities/nvidia", headers={"Accept-Encoding": "gzip"})
    assert plain.status_code == 200 and len(plain.data) >= 1024
    assert packed.headers["Content-Encoding"] == "gzip" and gzip.decompress(packed.data) == plain.data


def test_the_served_app_sends_gzip_through_the_http_server(live_server):
    """Through gunicorn and the query workers, as a browser asks: the body arrives compressed, its
    length the compressed one, and decodes to what a client without gzip gets."""
    import requests

    url = live_server.url + "/sparql"
    params = {"query": ALL_STATEMENTS}
    plain = requests.get(url, params=params, headers={**JSON, "Accept-Encoding": "identity"}, timeout=30)
    gzip_ok = {**JSON, "Accept-Encoding": "gzip"}
    packed = requests.get(url, params=params, headers=gzip_ok, timeout=30, stream=True)
    raw = packed.raw.read(decode_content=False)
    assert packed.status_code == 200 and packed.headers["Content-Encoding"] == "gzip"
    assert int(packed.headers["Content-Length"]) == len(raw) < len(plain.content) / 4
    assert gzip.decompress(raw) == plain.content
    head = requests.head(url, params=params, headers=gzip_ok, timeout=30)
    assert head.status_code == 200 and head.headers["ETag"] == packed.headers["ETag"] and not head.content


def test_a_large_body_is_compressed_as_heavy_work_and_a_small_one_in_place(counted, monkeypatch):
    """Compressing a whole-store CONSTRUCT (11 MB, ~45 ms of zlib) several times a second took the core
    the cheap requests need: a body of HEAVY_FROM bytes or more is compressed on a thread of its own
    as heavy work, on the heavy cores (aikg.placement); the client gets the same bytes either way."""
    from aikg import compression

    threads: list[int] = []
    real = compression.run_below

    def recorded(fn):
        threads.append(1)
        return real(fn)

    monkeypatch.setattr(compression, "run_below", recorded)
    client, _, _ = counted()
    small = ask(client, "SELECT ?s WHERE { ?s ?p ?o } LIMIT 40", Accept_Encoding="gzip")
    assert small.headers["Content-Encoding"] == "gzip" and not threads
    plain = ask(client)
    monkeypatch.setattr(compression, "HEAVY_FROM", len(plain.data) // 2)
    packed = ask(client, Accept_Encoding="gzip")
    assert threads == [1]
    assert gzip.decompress(packed.data) == plain.data
