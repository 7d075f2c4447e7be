"""Limits: a runaway query is really stopped at the time limit; rows are capped; bodies; concurrency."""

from __future__ import annotations

import os
import threading
import time
from pathlib import Path

import pytest

from aikg.errors import QueryTimeout
from aikg.query import workers
from aikg.query.runner import run_query
from aikg.settings import load_settings
from aikg.web import create_app

EXPLOSIVE = "SELECT (COUNT(*) AS ?n) WHERE { ?a ?b ?c . ?d ?e ?f . ?g ?h ?i . ?j ?k ?l }"
"""A cartesian product of all triples under an aggregate: no row comes out until the very end."""
LIGHT = ("SELECT ?label WHERE { <https://w3id.org/aikg/ontology#Neocloud> "
         "<http://www.w3.org/2000/01/rdf-schema#label> ?label }")
JSON = {"Accept": "application/sparql-results+json"}


def children() -> set[int]:
    """Process ids of this process's live children (the query processes)."""
    pids: set[int] = set()
    for task in Path("/proc/self/task").iterdir():
        text = (task / "children").read_text()
        pids.update(int(p) for p in text.split())
    return pids


def wait_for_query_process(before: set[int], thread: threading.Thread) -> int:
    """Block until the background query runs in its own (new) process; return that process id."""
    while not children() - before:
        assert thread.is_alive(), "the background query ended before it was seen running"
        time.sleep(0.01)
    (pid,) = children() - before
    return pid


def alive(pid: int) -> bool:
    """True while the process exists (a reaped process is gone)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


@pytest.fixture(autouse=True)
def no_idle_workers(seeded_store):
    """Start each test without idle query workers, so a new query process is the test's own."""
    for size in (1, 2):
        workers.pool(seeded_store, size).close()


@pytest.fixture()
def limited(seeded_store):
    """A client whose limits are small enough to hit in a test."""
    return create_app({"store": "memory", "load_seeds": False, "query_timeout": 2, "max_rows": 5,
                       "max_body": 2000, "max_heavy_queries": 2}, store=seeded_store).test_client()


def test_explosive_query_is_stopped_while_a_light_one_is_answered(limited):
    before = children()
    heavy: dict = {}
    done = threading.Event()

    def run_heavy() -> None:
        r = limited.get("/sparql", query_string={"query": EXPLOSIVE}, headers=JSON)
        heavy["status"], heavy["body"] = r.status_code, r.get_json()
        done.set()

    thread = threading.Thread(target=run_heavy)
    thread.start()
    heavy_pid = wait_for_query_process(before, thread)
    r = limited.get("/sparql", query_string={"query": LIGHT}, headers=JSON)
    light_done_first = not done.is_set()
    thread.join()
    assert r.status_code == 200
    assert {b["label"]["value"] for b in r.get_json()["results"]["bindings"]} == {"neocloud", "新兴 GPU 云"}
    assert light_done_first
    assert heavy["status"] == 503
    assert heavy["body"]["error"] == "query timeout"
    assert "2 s" in heavy["body"]["message"] and "query_timeout" in heavy["body"]["message"]
    assert heavy["body"]["errors"] == [{"limit": "query_timeout", "seconds": 2.0}]
    assert not alive(heavy_pid)  # the runaway process is gone: its CPU is free


def test_run_query_stops_at_the_limit_for_every_caller(seeded_store):
    settings = load_settings({"store": "memory", "query_timeout": 1})
    with pytest.raises(QueryTimeout):
        run_query(seeded_store, EXPLOSIVE, settings)


def test_rows_are_capped_and_flagged(limited):
    r = limited.get("/sparql", query_string={"query": "SELECT * WHERE { ?s ?p ?o }"}, headers=JSON)
    assert r.status_code == 200
    assert len(r.get_json()["results"]["bindings"]) == 5
    assert r.get_json()["truncated"] is True and r.headers["X-AIKG-Truncated"] == "true"
    r = limited.get("/sparql", query_string={"query": "SELECT * WHERE { ?s ?p ?o } LIMIT 3"}, headers=JSON)
    assert len(r.get_json()["results"]["bindings"]) == 3
    assert "truncated" not in r.get_json() and r.headers["X-AIKG-Truncated"] == "false"
    r = limited.get("/sparql", query_string={"query": "SELECT * WHERE { ?s ?p ?o }"},
                    headers={"Accept": "text/csv"})
    assert len(r.get_data(as_text=True).strip().splitlines()) == 6  # header + 5 rows
    assert r.headers["X-AIKG-Truncated"] == "true"


def test_run_query_sets_truncated(seeded_store):
    settings = load_settings({"store": "memory", "max_rows": 7})
    assert run_query(seeded_store, "SELECT * WHERE { ?s ?p ?o }", settings).truncated is True
    small = run_query(seeded_store, "SELECT * WHERE { ?s ?p ?o } LIMIT 7", settings)
    assert small.truncated is False and len(small.rows) == 7
    graph = run_query(seeded_store, "CONSTRUCT WHERE { ?s ?p ?o }", settings)
    assert graph.truncated is True and len(graph.triples) == 7


def test_a_body_over_the_limit_is_413_in_the_envelope(limited):
    big = "SELECT * WHERE { ?s ?p ?o } #" + "x" * 3000
    r = limited.post("/sparql", data=big.encode(), headers={"Content-Type": "application/sparql-query"})
    assert r.status_code == 413
    assert r.get_json()["ok"] is False and r.get_json()["status"] == 413
    r = limited.post("/update", data=big.encode(), headers={"Content-Type": "application/sparql-update",
                                                             "Authorization": "Bearer x"})
    assert r.status_code in (401, 403, 413)


def test_write_body_over_the_limit_is_413(store):
    client = create_app({"store": "memory", "load_seeds": False, "token": "t", "max_body": 100},
                        store=store).test_client()
    r = client.put("/data?graph=https://w3id.org/aikg/graph/sources/big", data=b"#" * 500,
                   headers={"Content-Type": "text/turtle", "Authorization": "Bearer t"})
    assert r.status_code == 413
    assert "max_body" in r.get_json()["message"]


def test_too_many_heavy_queries_get_429_with_retry_after(seeded_store):
    client = create_app({"store": "memory", "load_seeds": False, "query_timeout": 2,
                         "max_heavy_queries": 1}, store=seeded_store).test_client()
    before = children()
    results: list[int] = []
    thread = threading.Thread(target=lambda: results.append(
        client.get("/sparql", query_string={"query": EXPLOSIVE}, headers=JSON).status_code))
    thread.start()
    wait_for_query_process(before, thread)
    r = client.get("/sparql", query_string={"query": LIGHT}, headers=JSON)
    thread.join()
    assert r.status_code == 429
    assert r.headers["Retry-After"] == "2"
    assert r.get_json()["errors"] == [{"limit": "max_heavy_queries", "value": 1}]
    assert results == [503]
    assert client.get("/sparql", query_string={"query": LIGHT}, headers=JSON).status_code == 200


def test_workers_are_reused_and_never_read_stale_data(store):
    settings = load_settings({"store": "memory", "max_heavy_queries": 2})
    ask = "ASK { <https://w3id.org/aikg/id/limits-probe> ?p ?o }"
    before = children()
    assert run_query(store, ask, settings).boolean is False
    workers = children() - before
    assert len(workers) == 1
    assert run_query(store, ask, settings).boolean is False
    assert children() - before == workers  # the same process answered again
    store.update("INSERT DATA { GRAPH <https://w3id.org/aikg/graph/sources/test-limits> { "
                 "<https://w3id.org/aikg/id/limits-probe> <http://www.w3.org/2000/01/rdf-schema#label> "
                 "\"probe\"@en } }")
    assert run_query(store, ask, settings).boolean is True  # a fresh worker sees the write
    assert not any(alive(pid) for pid in workers)  # the stale one was retired
