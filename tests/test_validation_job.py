"""``GET /api/validate`` as a job: the whole-store report is computed once per store version, one
computation at a time whatever the requests; until it is ready the answer is 202 with Retry-After and
the last complete report of an older version, marked as such; a write makes the next report the new
version's. In process (the Flask test client, both backends), on an on-disk store (a query worker
process), and under ``aikg serve`` with two HTTP workers over the writer process."""

from __future__ import annotations

import threading
import time
from concurrent.futures import ThreadPoolExecutor

import pytest
import requests
from rdflib import Graph, Literal, URIRef
from rdflib.namespace import RDF, RDFS, SH

from aikg.errors import StoreError
from aikg.knowledge import validation_job
from aikg.web import SERVICES_KEY, create_app
from conftest import LiveServer
from helpers import services_for, validation_report

G = "https://w3id.org/aikg/graph/sources/test-validation"
AUTH = {"Authorization": "Bearer test-token"}
ID = "https://w3id.org/aikg/id/"
UNLABELLED = (
    b"@prefix aikg: <https://w3id.org/aikg/ontology#> . <https://w3id.org/aikg/id/unlabelled-test-cloud> "
    b"a aikg:Neocloud ."
)
"""A Neocloud without a label: one violation of the shapes (every entity needs an rdfs:label)."""
ACME = (
    "@prefix aikg: <https://w3id.org/aikg/ontology#> . "
    "@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> . "
    '<https://w3id.org/aikg/id/acme-test-cloud> a aikg:Neocloud ; rdfs:label "Acme Test Cloud"@en .'
)
PENDING_KEYS = {"ok", "state", "version", "started", "retry_after", "message", "previous"}


class Held:
    """``compute_report`` counted, and held until the test releases it (the thread path: in memory and
    on the remote engine the computation runs in this process)."""

    def __init__(self) -> None:
        self.calls = 0
        self.entered = threading.Event()
        self.release = threading.Event()


@pytest.fixture()
def held(monkeypatch, backend_store):
    held = Held()
    real = validation_job.compute_report

    def compute(store):
        if store is not backend_store:  # another test's job, still settling after its writes
            return real(store)
        held.calls += 1
        held.entered.set()
        assert held.release.wait(60)
        return real(store)

    monkeypatch.setattr(validation_job, "compute_report", compute)
    yield held
    held.release.set()


def job_of(client):
    return client.application.extensions[SERVICES_KEY].validation


def test_requests_during_a_computation_start_no_other(client, backend_store, held):
    first = client.get("/api/validate")
    assert first.status_code == 202
    assert held.entered.wait(30)
    app = client.application

    def ask(i: int):
        headers = {"Accept": "text/turtle"} if i % 3 == 0 else {}
        return app.test_client().get(f"/api/validate?nocache={i}", headers=headers)

    with ThreadPoolExecutor(8) as pool:
        during = list(pool.map(ask, range(16)))
    assert {r.status_code for r in during} == {202}
    assert {r.get_json()["state"] for r in during} == {"running"}
    assert {r.get_json()["started"] for r in during} == {first.get_json()["started"]}
    assert held.calls == 1 and job_of(client).computations == 1
    held.release.set()
    done = validation_report(client)
    assert done.status_code == 200
    body = done.get_json()
    assert body["version"] == backend_store.version and body["started"] == first.get_json()["started"]
    assert client.get("/api/validate?again=2").get_json() == body
    assert client.get("/api/validate", headers={"Accept": "text/turtle"}).status_code == 200
    assert held.calls == 1  # the report is kept for its version, whatever the query string


def test_202_says_it_runs_with_retry_after_and_the_older_report_marked(client, backend_store, held):
    r = client.get("/api/validate")
    assert r.status_code == 202 and r.mimetype == "application/json"
    assert r.headers["Cache-Control"] == "no-store"
    body = r.get_json()
    assert set(body) == PENDING_KEYS
    assert body["ok"] is True and body["state"] == "running"
    assert body["version"] == backend_store.version
    assert int(r.headers["Retry-After"]) == body["retry_after"] >= 1
    assert body["previous"] is None  # no report yet of any version
    held.release.set()
    older = validation_report(client).get_json()
    assert older["conforms"] is True
    held.release.clear()
    backend_store.load(UNLABELLED, mime="text/turtle", graph=G)  # past the gate, as a hand-edited store
    r = client.get("/api/validate")
    assert r.status_code == 202
    body = r.get_json()
    assert body["state"] == "running" and body["version"] == backend_store.version != older["version"]
    # the older report whole, under its own version, never in the place of the current one
    assert body["previous"] == {k: v for k, v in older.items() if k != "ok"}
    assert "conforms" not in body and f"version {older['version']}" in body["message"]
    held.release.set()
    current = validation_report(client).get_json()
    assert current["version"] == backend_store.version and current["conforms"] is False
    assert held.calls == 2


def test_the_report_names_each_violation_by_value(client, backend_store):
    backend_store.load(UNLABELLED, mime="text/turtle", graph=G)
    r = validation_report(client)
    assert r.status_code == 200
    body = r.get_json()
    assert body["ok"] is True and body["conforms"] is False and body["count"] == 1
    assert body["version"] == backend_store.version
    (v,) = body["violations"]
    assert v["focus_node"] == ID + "unlabelled-test-cloud"
    assert v["path"] == str(RDFS.label) and v["severity"] == "Violation" and v["value"] is None
    r = client.get("/api/validate", headers={"Accept": "text/turtle"})
    assert r.status_code == 200 and r.mimetype == "text/turtle"
    report = Graph().parse(data=r.get_data(as_text=True), format="turtle")
    (node,) = report.subjects(RDF.type, SH.ValidationReport)
    assert report.value(node, SH.conforms) == Literal(False)
    assert set(report.objects(None, SH.focusNode)) == {URIRef(ID + "unlabelled-test-cloud")}
    assert set(report.objects(None, SH.resultPath)) == {RDFS.label}


def test_a_write_makes_the_next_report_of_the_new_version(client, backend_store):
    before = validation_report(client).get_json()
    r = client.put(
        "/data",
        query_string={"graph": G},
        data=ACME.encode(),
        headers={**AUTH, "Content-Type": "text/turtle"},
    )
    assert r.status_code == 201, r.get_json()
    assert backend_store.version != before["version"]
    after = validation_report(client).get_json()
    assert after["version"] == backend_store.version and after["started"] > before["started"]
    assert after["conforms"] is True
    assert job_of(client).computations == 2


def test_a_failed_computation_is_503_and_requests_do_not_start_it_again(client, backend_store, monkeypatch):
    calls = []
    job = job_of(client)

    def fail(*_):
        # This client's job only: another test's job over the same (shared remote) store may still be
        # settling after its writes and compute a report of the same version.
        calls.append(backend_store.version)
        raise StoreError("the store went away")

    monkeypatch.setattr(job, "_run", fail)
    r = validation_report(client)
    assert r.status_code == 503
    body = r.get_json()
    assert body["ok"] is False and body["status"] == 503
    assert "did not finish: the store went away" in body["message"]
    assert body["errors"][0]["version"] == backend_store.version
    assert int(r.headers["Retry-After"]) >= 1
    assert [client.get(f"/api/validate?retry={i}").status_code for i in range(3)] == [503] * 3
    assert len(calls) == 1
    r = client.put(
        "/data",
        query_string={"graph": G},
        data=ACME.encode(),
        headers={**AUTH, "Content-Type": "text/turtle"},
    )
    assert r.status_code == 201
    assert validation_report(client).status_code == 503
    # tried again for the new version (a remote engine's version may move twice in one write) ...
    tried = len(calls)
    assert tried >= 2 and calls[-1] == backend_store.version != calls[0]
    # ... and again not by requests
    assert [client.get(f"/api/validate?retry={i}").status_code for i in range(3)] == [503] * 3
    assert len(calls) == tried


def test_once_asked_a_write_is_followed_by_a_new_report_unasked(store):
    services = services_for(store, token="t")
    job = services.validation
    job.settle = 0.05
    try:
        job.state()
        assert job.wait(60) and job.computations == 1
        first = job.board.report
        services.gate.put(G, list(_quads(ACME)), replace=True)
        for _ in range(1200):  # hang guard: the settle timer starts it, no request does
            if job.computations == 2 and job.wait(60):
                break
            time.sleep(0.05)
        assert job.computations == 2
        assert job.board.report.version == store.version != first.version
    finally:
        services.close()


def test_never_asked_writes_compute_nothing(store):
    services = services_for(store, token="t")
    job = services.validation
    job.settle = 0.01
    try:
        services.gate.put(G, list(_quads(ACME)), replace=True)
        time.sleep(0.3)
        assert job.computations == 0 and job.board.running is None
    finally:
        services.close()


def _quads(turtle: str):
    import pyoxigraph as ox

    graph = ox.NamedNode(G)
    return [
        ox.Quad(t.subject, t.predicate, t.object, graph) for t in ox.parse(turtle, format=ox.RdfFormat.TURTLE)
    ]


def test_on_an_on_disk_store_it_runs_in_a_worker_process_stopped_at_its_limit(tmp_path):
    app = create_app({"store": str(tmp_path / "store"), "token": "t", "import_epoch": False})
    client = app.test_client()
    try:
        r = validation_report(client)
        assert r.status_code == 200 and r.get_json()["conforms"] is True
        job = job_of(client)
        assert job.computations == 1 and job._pool is None  # its worker process is gone
    finally:
        app.extensions[SERVICES_KEY].close()
    app = create_app(
        {"store": str(tmp_path / "store"), "token": "t", "import_epoch": False, "write_timeout": 0.05}
    )
    client = app.test_client()
    try:
        r = validation_report(client)
        assert r.status_code == 503
        assert "time limit of 0.05 s (setting write_timeout)" in r.get_json()["message"]
    finally:
        app.extensions[SERVICES_KEY].close()


# --- aikg serve: two HTTP workers over the writer ----------------------------------------------------


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    live = LiveServer(
        str(tmp_path_factory.mktemp("validation") / "store"),
        env={"AIKG_TOKEN": "validation-token"},
        args=["--workers", "2"],
    )
    yield live
    live.stop()


def _until_ready(url: str) -> requests.Response:
    for _ in range(1200):  # hang guard
        r = requests.get(url + "/api/validate", timeout=30)
        if r.status_code != 202:
            return r
        assert int(r.headers["Retry-After"]) >= 1 and set(r.json()) == PENDING_KEYS
        time.sleep(0.1)
    raise AssertionError("no report")


def test_every_http_worker_answers_from_the_writers_one_computation(server):
    def ask(i: int) -> requests.Response:  # a new connection each: the kernel spreads them over workers
        return requests.get(server.url + f"/api/validate?n={i}", timeout=30)

    with ThreadPoolExecutor(12) as pool:
        first = list(pool.map(ask, range(24)))
    assert {r.status_code for r in first} <= {200, 202}
    done = _until_ready(server.url)
    assert done.status_code == 200, done.text
    report = done.json()
    assert report["conforms"] is True and report["count"] == 0
    running = {r.json()["started"] for r in first if r.status_code == 202 and r.json()["state"] == "running"}
    assert running <= {report["started"]}  # whoever answered, one computation
    with ThreadPoolExecutor(12) as pool:
        again = list(pool.map(ask, range(24, 48)))
    assert {r.status_code for r in again} == {200}
    assert {r.json()["started"] for r in again} == {report["started"]}

    r = requests.put(
        server.url + "/data",
        params={"graph": G},
        data=ACME,
        headers={"Authorization": "Bearer validation-token", "Content-Type": "text/turtle"},
        timeout=60,
    )
    assert r.status_code == 201, r.text
    after = _until_ready(server.url)
    assert after.status_code == 200, after.text
    assert after.json()["version"] != report["version"] and after.json()["started"] > report["started"]
    turtle = requests.get(server.url + "/api/validate", headers={"Accept": "text/turtle"}, timeout=30)
    assert turtle.status_code == 200 and "sh:ValidationReport" in turtle.text
