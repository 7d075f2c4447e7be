"""A cached answer is replayed before Flask (aikg.web.replay): the same status, headers and body as the
app's own answer from the response cache, without running Flask; never across a write, another
representation, credentials, a conditional request or a cleared cache."""

from __future__ import annotations

from typing import Any

import pytest
from flask import Flask

from aikg.store import Store
from aikg.web import SERVICES_KEY, create_app

ENTITY = "/api/entities/lambda"
QUERY = "/api/queries/deals-of-organization?org=coreweave"
JSON = {"Accept": "application/json"}


@pytest.fixture()
def app(store: Store) -> Flask:
    app = create_app({"store": "memory", "load_seeds": False, "query_timeout": 60}, store=store)
    app.aikg_flask_runs = 0  # type: ignore[attr-defined]

    @app.before_request
    def _count() -> None:
        app.aikg_flask_runs += 1  # type: ignore[attr-defined]

    return app


def _runs(app: Flask) -> int:
    return app.aikg_flask_runs  # type: ignore[attr-defined, no-any-return]


def _answer(r: Any) -> tuple[int, list[tuple[str, str]], bytes]:
    return r.status_code, sorted(r.headers.items()), r.get_data()


@pytest.mark.parametrize("path", [ENTITY, QUERY])
def test_a_repeat_is_the_apps_own_answer_without_flask(app: Flask, path: str):
    client = app.test_client()
    client.get(path, headers=JSON)  # computed and kept
    hit = client.get(path, headers=JSON)  # the response cache's answer, through Flask: kept to replay
    runs = _runs(app)
    replayed = [client.get(path, headers=JSON) for _ in range(3)]
    assert _runs(app) == runs  # Flask did not run
    assert all(_answer(r) == _answer(hit) for r in replayed)
    assert hit.status_code == 200 and hit.headers["ETag"]


def test_gzip_and_accept_each_get_their_own(app: Flask):
    client = app.test_client()
    for _ in range(3):
        plain = client.get(QUERY, headers=JSON)
        gz = client.get(QUERY, headers={**JSON, "Accept-Encoding": "gzip"})
        csv = client.get(QUERY, headers={"Accept": "text/csv"})
    assert "Content-Encoding" not in plain.headers and plain.get_json()["rows"] is not None
    assert gz.headers["Content-Encoding"] == "gzip" or len(plain.get_data()) < 1024
    assert csv.headers["Content-Type"].startswith("text/csv")
    assert plain.headers["ETag"] != csv.headers["ETag"]


def test_a_write_ends_the_replay(app: Flask, store: Store):
    client = app.test_client()
    for _ in range(3):
        before = client.get(ENTITY, headers=JSON)
    store.update(
        "INSERT DATA { GRAPH <https://w3id.org/aikg/graph/test> { <https://w3id.org/aikg/id/lambda> "
        '<http://www.w3.org/2000/01/rdf-schema#label> "Lambda Replayed"@fr } }'
    )
    runs = _runs(app)
    after = client.get(ENTITY, headers=JSON)
    assert _runs(app) == runs + 1  # answered by the app again
    assert after.headers["ETag"] != before.headers["ETag"]
    assert "Lambda Replayed" in after.get_data(as_text=True)


@pytest.mark.parametrize(
    "extra",
    [
        {"Authorization": "Bearer nope"},
        {"Range": "bytes=0-10"},
        {},  # with a cookie (below)
    ],
)
def test_requests_with_more_to_them_go_to_the_app(app: Flask, extra: dict[str, str]):
    client = app.test_client()
    if not extra:
        client.set_cookie("a", "b")
    for _ in range(3):
        client.get(ENTITY, headers={**JSON, **extra})
    runs = _runs(app)
    client.get(ENTITY, headers={**JSON, **extra})
    assert _runs(app) == runs + 1


def test_a_revalidation_still_gets_its_304(app: Flask):
    client = app.test_client()
    for _ in range(3):
        first = client.get(ENTITY, headers=JSON)
    again = client.get(ENTITY, headers={**JSON, "If-None-Match": first.headers["ETag"]})
    assert again.status_code == 304


def test_a_cleared_cache_is_not_replayed(app: Flask):
    client = app.test_client()
    for _ in range(3):
        client.get(ENTITY, headers=JSON)
    app.extensions[SERVICES_KEY].responses.clear()
    runs = _runs(app)
    client.get(ENTITY, headers=JSON)
    assert _runs(app) == runs + 1


def test_errors_are_not_replayed(app: Flask):
    client = app.test_client()
    for _ in range(3):
        r = client.get("/api/entities/no-such-entity-anywhere", headers=JSON)
    runs = _runs(app)
    r = client.get("/api/entities/no-such-entity-anywhere", headers=JSON)
    assert r.status_code == 404 and _runs(app) == runs + 1
