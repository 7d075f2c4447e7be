"""Limits: a runaway query is really stopped at the time limit; rows are capped; bodies; concurrency.

Queries run in worker processes on a snapshot of an on-disk store, so these tests use one.
"""

from __future__ import annotations

import contextlib
import csv
import io
import os
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from aikg.errors import QueryTimeout
from aikg.knowledge.load import load_seeds
from aikg.services import build_services
from aikg.settings import load_settings
from aikg.store import OxigraphStore
from aikg.web import create_app, get_services
from helpers import proc_stat, running

EXPLOSIVE = "SELECT (COUNT(*) AS ?n) WHERE { ?a ?b ?c . ?d ?e ?f . ?g ?h ?i . ?j ?k ?l }"
"""A cartesian product of all triples under an aggregate: no row comes out until the very end."""
LIGHT = (
    "SELECT ?label WHERE { <https://w3id.org/aikg/ontology#Neocloud> "
    "<http://www.w3.org/2000/01/rdf-schema#label> ?label }"
)
JSON = {"Accept": "application/sparql-results+json"}


def wait_for_busy_worker(services, thread: threading.Thread) -> int:
    """Block until a query runs in a worker process; return that process id."""
    while not services.runner.pool.pids(busy=True):
        assert thread.is_alive(), "the background query ended before it was seen running"
        time.sleep(0.01)
    (pid,) = services.runner.pool.pids(busy=True)
    return pid


def runaway_in_background(client) -> tuple[threading.Thread, list[int]]:
    """A thread (not started) that asks the explosive query; the statuses it got."""
    results: list[int] = []
    thread = threading.Thread(
        target=lambda: results.append(
            client.get("/sparql", query_string={"query": EXPLOSIVE}, headers=JSON).status_code
        )
    )
    return thread, results


@contextlib.contextmanager
def runaway_running(client, services) -> Iterator[int]:
    """The explosive query running in a worker (its process id) for the block; afterwards it has ended
    in 503 at the time limit, and the app's workers are stopped."""
    thread, results = runaway_in_background(client)
    try:
        thread.start()
        yield wait_for_busy_worker(services, thread)
        thread.join()
        assert results == [503]
    finally:
        services.runner.close()


def wait_until(condition: Callable[[], bool], seconds: float, step: float = 0.05) -> None:
    """Poll ``condition`` until it holds or ``seconds`` pass (the caller asserts it)."""
    end = time.monotonic() + seconds
    while not condition() and time.monotonic() < end:
        time.sleep(step)


def test_a_cheap_query_whose_worker_starts_slowly_is_answered_not_timed_out(disk_store):
    """Waiting for a worker is not running. Regression (CI, hostile traffic on a busy machine): a spare's
    start took the whole 3 s limit and a one-pattern update was answered 503 "query timeout" as if it had
    run away. Here every process start takes longer than the whole 1 s limit."""
    services = build_services(load_settings({"store": "memory", "query_timeout": 1}), store=disk_store)
    pool = services.runner.pool
    real_start = pool._start

    def slow_start():
        time.sleep(1.5)  # longer than the query's whole limit, as on a loaded machine
        return real_start()

    pool._start = slow_start  # type: ignore[method-assign]
    try:
        rows = services.runner.query(LIGHT).rows
        assert '"neocloud"@en' in {str(r[0]) for r in rows}
        with pytest.raises(QueryTimeout):  # and a runaway is still stopped at its limit
            services.runner.query(EXPLOSIVE)
    finally:
        services.runner.close()


@pytest.fixture(scope="module")
def disk_store(tmp_path_factory):
    """A seeded on-disk store: queries on it run in killable worker processes."""
    store = OxigraphStore(tmp_path_factory.mktemp("limits") / "store")
    load_seeds(store)
    yield store
    store.close()


def _app(store, **settings):
    config = {"store": "memory", "load_seeds": False, **settings}
    return create_app(config, store=store)


RUNAWAY_LIMIT = 6
"""query_timeout of the apps a runaway query runs in: long enough for a cheap query beside it to be
answered on a busy machine (a test asserts that outcome, not how long it took)."""


@pytest.fixture()
def limited(disk_store):
    """An app whose row and body limits are small enough to hit in a test; its time limit is one a busy
    machine does not trip (at 2 s, a first query that waited for its worker's start answered 503 at load
    average 13)."""
    app = _app(disk_store, query_timeout=60, max_rows=5, max_body=2000, max_heavy_queries=2)
    yield app
    get_services_of(app).runner.close()


def get_services_of(app):
    with app.app_context():
        return get_services()


def test_explosive_query_is_stopped_while_a_light_one_is_answered(disk_store):
    app = _app(disk_store, query_timeout=RUNAWAY_LIMIT, max_heavy_queries=2)
    client, services = app.test_client(), get_services_of(app)
    heavy: dict = {}
    done = threading.Event()

    def run_heavy() -> None:
        r = client.get("/sparql", query_string={"query": EXPLOSIVE}, headers=JSON)
        heavy["status"], heavy["body"] = r.status_code, r.get_json()
        done.set()

    thread = threading.Thread(target=run_heavy)
    thread.start()
    heavy_pid = wait_for_busy_worker(services, thread)
    # The pool keeps a started spare beside a busy worker; on a loaded machine its start can outlast
    # the light query's 2 s, which would then measure a process start, not the isolation.
    end = time.monotonic() + 20
    while not services.runner.pool.pids(busy=False) and time.monotonic() < end:
        time.sleep(0.01)
    r = client.get("/sparql", query_string={"query": LIGHT}, headers=JSON)
    light_done_first = not done.is_set()
    thread.join()
    assert r.status_code == 200
    assert {b["label"]["value"] for b in r.get_json()["results"]["bindings"]} == {"neocloud", "新兴 GPU 云"}
    assert light_done_first
    assert heavy["status"] == 503
    assert heavy["body"]["error"] == "query timeout"
    assert f"{RUNAWAY_LIMIT} s" in heavy["body"]["message"] and "query_timeout" in heavy["body"]["message"]
    assert heavy["body"]["errors"] == [{"limit": "query_timeout", "seconds": float(RUNAWAY_LIMIT)}]
    # The runaway process is killed as its answer goes out and gone soon after (reaped in the
    # background, so the answer does not wait for a loaded machine to schedule its exit): its CPU is free.
    end = time.monotonic() + 15
    while running(heavy_pid) and time.monotonic() < end:
        time.sleep(0.05)
    assert not running(heavy_pid)
    services.runner.close()


def test_the_runner_stops_at_the_limit_for_every_caller(disk_store):
    services = build_services(load_settings({"store": "memory", "query_timeout": 1}), store=disk_store)
    try:
        start = time.monotonic()
        with pytest.raises(QueryTimeout):
            services.runner.query(EXPLOSIVE)
        assert time.monotonic() - start < 30  # stopped at the limit: the query itself never ends
    finally:
        services.runner.close()


def test_rows_are_capped_and_flagged(limited):
    client = limited.test_client()
    r = client.get("/sparql", query_string={"query": "SELECT * WHERE { ?s ?p ?o }"}, headers=JSON)
    assert r.status_code == 200
    assert len(r.get_json()["results"]["bindings"]) == 5
    assert r.get_json()["truncated"] is True and r.headers["X-AIKG-Truncated"] == "true"
    r = client.get("/sparql", query_string={"query": "SELECT * WHERE { ?s ?p ?o } LIMIT 3"}, headers=JSON)
    assert len(r.get_json()["results"]["bindings"]) == 3
    assert "truncated" not in r.get_json() and r.headers["X-AIKG-Truncated"] == "false"
    r = client.get(
        "/sparql", query_string={"query": "SELECT * WHERE { ?s ?p ?o }"}, headers={"Accept": "text/csv"}
    )
    assert len(r.get_data(as_text=True).strip().splitlines()) == 6  # header + 5 rows
    assert r.headers["X-AIKG-Truncated"] == "true"


def test_a_named_querys_rows_are_flagged_in_every_format(limited):
    """A named query cut at max_rows says so in its CSV too (the header), as in its JSON."""
    client = limited.test_client()
    r = client.get("/api/queries/derived-values", headers={"Accept": "text/csv"})
    assert r.status_code == 200
    assert len(list(csv.reader(io.StringIO(r.get_data(as_text=True))))) == 6  # header + 5 rows
    assert r.headers["X-AIKG-Truncated"] == "true"
    again = client.get("/api/queries/derived-values", headers={"Accept": "text/csv"})
    assert again.headers["X-AIKG-Truncated"] == "true"  # replayed from the response cache
    r = client.get("/api/queries/derived-values")
    assert r.get_json()["truncated"] is True and r.headers["X-AIKG-Truncated"] == "true"
    r = client.get("/api/queries/topology-hop-counts", headers={"Accept": "text/csv"})
    assert r.headers["X-AIKG-Truncated"] == "false"


@pytest.mark.parametrize("where", ["disk", "memory"])
def test_the_runner_sets_truncated(where, disk_store, seeded_store):
    store = disk_store if where == "disk" else seeded_store
    services = build_services(load_settings({"store": "memory", "max_rows": 7}), store=store)
    try:
        assert services.runner.query("SELECT * WHERE { ?s ?p ?o }").truncated is True
        small = services.runner.query("SELECT * WHERE { ?s ?p ?o } LIMIT 7")
        assert small.truncated is False and len(small.rows) == 7
        graph = services.runner.query("CONSTRUCT WHERE { ?s ?p ?o }")
        assert graph.truncated is True and len(graph.triples) == 7
    finally:
        services.runner.close()


def test_a_body_over_the_limit_is_413_in_the_envelope(limited):
    client = limited.test_client()
    big = "SELECT * WHERE { ?s ?p ?o } #" + "x" * 3000
    r = client.post("/sparql", data=big.encode(), headers={"Content-Type": "application/sparql-query"})
    assert r.status_code == 413
    assert r.get_json()["ok"] is False and r.get_json()["status"] == 413
    r = client.post(
        "/update",
        data=big.encode(),
        headers={"Content-Type": "application/sparql-update", "Authorization": "Bearer x"},
    )
    assert r.status_code in (401, 403, 413)


def test_write_body_over_the_limit_is_413(store):
    client = _app(store, token="t", max_body=100).test_client()
    r = client.put(
        "/data?graph=https://w3id.org/aikg/graph/sources/big",
        data=b"#" * 500,
        headers={"Content-Type": "text/turtle", "Authorization": "Bearer t"},
    )
    assert r.status_code == 413
    assert "max_body" in r.get_json()["message"]


def test_too_many_heavy_queries_get_429_with_retry_after(disk_store):
    app = _app(disk_store, query_timeout=RUNAWAY_LIMIT, max_heavy_queries=1)
    client, services = app.test_client(), get_services_of(app)
    thread, results = runaway_in_background(client)
    thread.start()
    wait_for_busy_worker(services, thread)
    r = client.get("/sparql", query_string={"query": LIGHT}, headers=JSON)
    thread.join()
    services.runner.close()
    assert r.status_code == 429
    assert r.headers["Retry-After"] == str(RUNAWAY_LIMIT)
    assert r.get_json()["errors"] == [{"limit": "max_heavy_queries", "value": 1}]
    assert results == [503]


def test_workers_are_reused_and_never_read_stale_data(tmp_path):
    store = OxigraphStore(tmp_path / "store")
    load_seeds(store)
    # One slot: no spare worker is started beside the one in use, so the pool's processes are exactly
    # the ones that answered.
    services = build_services(load_settings({"store": "memory", "max_heavy_queries": 1}), store=store)
    try:
        ask = "ASK { <https://w3id.org/aikg/id/limits-probe> ?p ?o }"
        assert services.runner.query(ask).boolean is False
        first = services.runner.pool.pids()
        assert len(first) == 1
        assert services.runner.query(ask).boolean is False
        assert services.runner.pool.pids() == first  # the same process answered again
        store.update(
            "INSERT DATA { GRAPH <https://w3id.org/aikg/graph/sources/test-limits> { "
            "<https://w3id.org/aikg/id/limits-probe> <http://www.w3.org/2000/01/rdf-schema#label> "
            '"probe"@en } }'
        )
        assert services.runner.query(ask).boolean is True  # the worker reads the new snapshot
    finally:
        services.close()


def socket_inodes(pid: int) -> set[str]:
    """Inodes of the sockets a process holds open."""
    out = set()
    for fd in Path(f"/proc/{pid}/fd").iterdir():
        try:
            target = os.readlink(fd)
        except OSError:
            continue
        if target.startswith("socket:["):
            out.add(target[8:-1])
    return out


def test_query_workers_hold_no_socket_of_the_serving_process(disk_store):
    """Regression: forked workers kept the clients' keep-alive sockets open (pooled clients hung)."""
    import socket

    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen()
    client = socket.create_connection(listener.getsockname())
    served, _ = listener.accept()
    services = build_services(load_settings({"store": "memory"}), store=disk_store)
    try:
        assert services.runner.query(LIGHT).rows
        pids = services.runner.pool.pids()  # the one that answered, and the spares started since
        assert pids
        mine = socket_inodes(os.getpid())
        ours = {str(os.fstat(s.fileno()).st_ino) for s in (listener, client, served)}
        for pid in pids:
            theirs = socket_inodes(pid)
            assert not ours & theirs
            assert len(theirs & mine) <= 1  # at most the worker's own pipe to this process
    finally:
        services.runner.close()
        for s in (listener, client, served):
            s.close()


class FakeWorker:
    """A query worker that is started and answers, with no process behind it: for the pool's rules."""

    def __init__(self, n: int, memory_mb: int = 0, job: Callable[..., Any] | None = None) -> None:
        from types import SimpleNamespace

        self.process = SimpleNamespace(pid=n)
        self.memory_mb = memory_mb
        self.jobs: tuple[str, ...] = ()
        self.job = job
        """What :meth:`call` does (a job's run), given the hook the pool passes it."""

    def call(self, snapshot, fn, kwargs, deadline, on_long=None) -> tuple[Any, ...]:
        return (True, self.job(on_long) if self.job is not None else None)

    def alive(self) -> bool:
        return True

    def restored(self) -> bool:
        return True

    def wait_ready(self, seconds: float) -> bool:
        return True

    def close(self) -> None:
        pass


def test_a_query_right_after_a_killed_runaway_finds_a_started_worker():
    """Regression: the pool kept one spare, so when a runaway's worker was killed and the next runaway
    took the spare, a cheap ASK waited for a process to start (1.4 s on a loaded machine, 74× its idle
    p99 under 4 hostile clients)."""
    import threading
    import time

    from aikg.query.workers import WorkerPool

    may_start = threading.Event()
    may_start.set()
    started: list[int] = []

    def start() -> FakeWorker:
        may_start.wait(10)
        started.append(1)
        return FakeWorker(len(started))

    pool = WorkerPool(4)
    pool._start = start  # type: ignore[method-assign]

    def spares_started() -> int:
        end = time.monotonic() + 10
        while len(pool.pids(busy=False)) < WorkerPool.SPARES and time.monotonic() < end:
            time.sleep(0.01)
        return len(pool.pids(busy=False))

    pool.warm_up()
    assert spares_started() == WorkerPool.SPARES
    runaway = pool._take()  # runs for its whole time limit: the pool starts a spare meanwhile
    pool._topped_up(runaway)  # what its worker calls once it has run LONG_JOB
    assert spares_started() == WorkerPool.SPARES
    may_start.clear()  # from here on a process start takes "forever": only started workers answer
    pool._drop(runaway)  # killed at its deadline
    pool._take()  # the next runaway, at once
    before = len(started)
    cheap = pool._take()
    assert len(started) == before and cheap.process.pid <= before  # a worker started earlier
    may_start.set()
    pool.close()


def test_a_query_while_a_spare_is_starting_takes_that_spare_instead_of_starting_another():
    """Regression: right after a restart the first query found the boot spare still starting and
    started a process of its own, which competed with the spare for the cores; it answered when the
    spare would have been ready (the first answer at 1M quads came 0.3 s later)."""
    import threading
    import time

    from aikg.query.workers import WorkerPool
    from aikg.store import Deadline

    may_start = threading.Event()
    starters: list[str] = []

    def start() -> FakeWorker:
        starters.append(threading.current_thread().name)
        may_start.wait(10)
        return FakeWorker(len(starters))

    pool = WorkerPool(4)
    pool._start = start  # type: ignore[method-assign]
    pool.warm_up(WorkerPool.BOOT_SPARES)
    taken: list[FakeWorker] = []
    query = threading.Thread(target=lambda: taken.append(pool._take(Deadline.after(5))), name="query")
    query.start()
    time.sleep(0.3)  # the query waits for the spare
    may_start.set()
    query.join(10)
    assert [w.process.pid for w in taken] == [1]  # the boot spare
    assert "query" not in starters  # no process was started on the query's own thread
    pool.close()


def test_a_query_with_no_spare_on_the_way_starts_a_worker_of_its_own():
    """Waiting is only for a spare that is starting: with none, the query starts one at once."""

    from aikg.query.workers import WorkerPool
    from aikg.store import Deadline

    pool = WorkerPool(1)
    started: list[int] = []

    def start() -> FakeWorker:
        started.append(1)
        return FakeWorker(len(started))

    pool._start = start  # type: ignore[method-assign]
    worker = pool._take(Deadline.after(5))  # the pool's one place: no spare can be started beside it
    assert worker.process.pid == 1 and started == [1]
    pool.close()


def niceness(pid: int) -> set[int]:
    """The CPU priorities of a process's threads (Linux keeps one per thread)."""
    out = set()
    for task in Path(f"/proc/{pid}/task").iterdir():
        with contextlib.suppress(OSError):
            out.add(int(proc_stat(task / "stat")[16]))
    return out


def test_a_long_query_is_heavy_work_and_new_ones_run_at_the_workers_own_priority(disk_store):
    """A query past DEMOTE_AFTER is heavy work (aikg.placement.Share): on the heavy cores, below cheap
    work while it has had its share of a core, never at the lowest priority (where other load on the
    host starved it); the next queries run at the workers' own priority on every core."""
    from aikg.placement import LONG_NICENESS, YIELDING_NICENESS, all_cores, heavy_cores
    from aikg.query.workers import NICENESS

    base = os.getpriority(os.PRIO_PROCESS, 0) + NICENESS
    app = _app(disk_store, query_timeout=8, max_heavy_queries=3)
    client, services = app.test_client(), get_services_of(app)
    with runaway_running(client, services) as runaway:
        # heavy DEMOTE_AFTER after its job reached it at the latest (it may still boot)
        wait_until(lambda: cores(runaway) == {frozenset(heavy_cores())}, 7, 0.1)
        assert cores(runaway) == {frozenset(heavy_cores())}
        assert niceness(runaway) <= {base, YIELDING_NICENESS} and LONG_NICENESS not in niceness(runaway)
        r = client.get("/sparql", query_string={"query": LIGHT}, headers=JSON)
        assert r.status_code == 200
        for pid in services.runner.pool.pids(busy=False):  # the one that answered, and the spares
            assert niceness(pid) == {base} and cores(pid) == {frozenset(all_cores())}


def cores(pid: int) -> set[frozenset[int]]:
    """The cores each thread of a process may run on."""
    out = set()
    for task in Path(f"/proc/{pid}/task").iterdir():
        with contextlib.suppress(OSError):
            out.add(frozenset(os.sched_getaffinity(int(task.name))))
    return out


def test_a_started_interpreter_runs_where_it_is_placed_from_its_first_instruction(monkeypatch):
    """A query worker's start is ~0.25 s of CPU: placed only once it existed, its first milliseconds ran
    at the server's priority on every core, beside the cheap requests. It is started from a thread
    placed there, and inherits that (here the placing afterwards is switched off); the caller keeps
    its own priority and cores."""
    from aikg import interpreters
    from aikg.placement import heavy_cores

    monkeypatch.setattr(interpreters, "place", lambda *_: True)
    ours, our_cores = os.getpriority(os.PRIO_PROCESS, 0), os.sched_getaffinity(0)
    wanted = min(ours + 3, 19)
    process, conn = interpreters.start("aikg.query.workers", "0", niceness=wanted, cores=heavy_cores())
    try:
        assert niceness(process.pid) == {wanted}
        assert cores(process.pid) == {frozenset(heavy_cores())}
    finally:
        interpreters.stop(process, conn)
    assert os.getpriority(os.PRIO_PROCESS, 0) == ours and os.sched_getaffinity(0) == our_cores


def test_a_query_is_heavy_by_its_cpu_time_and_runs_on_the_heavy_cores(disk_store, monkeypatch):
    """Heavy once it has used DEMOTE_CPU of CPU, long before DEMOTE_AFTER: a whole-store CONSTRUCT
    (~140 ms of a core) ran at the workers' priority beside cheap ASKs. Heavy work also keeps off one
    core (with both cores flat out the test machine stopped whole for ~100 ms every few seconds); cheap
    queries are never heavy."""
    from aikg.placement import all_cores, heavy_cores
    from aikg.query import workers

    monkeypatch.setattr(workers, "DEMOTE_AFTER", 60.0)  # only its CPU time can make it heavy now
    shares: list[int | None] = []

    class Recorded(workers.Share):
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            shares.append(self.pid)

    monkeypatch.setattr(workers, "Share", Recorded)
    app = _app(disk_store, query_timeout=8, max_heavy_queries=3)
    client, services = app.test_client(), get_services_of(app)
    for _ in range(20):
        assert client.get("/sparql", query_string={"query": LIGHT}, headers=JSON).status_code == 200
    assert not shares  # a cheap query stays at the workers' priority, on every core
    with runaway_running(client, services) as runaway:
        wait_until(lambda: cores(runaway) == {frozenset(heavy_cores())}, 5)
        assert cores(runaway) == {frozenset(heavy_cores())} and shares == [runaway]
        r = client.get("/sparql", query_string={"query": LIGHT}, headers=JSON)
        assert r.status_code == 200
        for pid in services.runner.pool.pids(busy=False):
            assert cores(pid) == {frozenset(all_cores())}


def test_the_asking_thread_looks_at_a_job_only_once_it_could_have_become_heavy():
    """A job's CPU time grows no faster than the clock, so it cannot be heavy before it has had its CPU
    allowance's time: the asking thread waits that long before a look (it looked every 2 ms, waking 2-10
    times for a small answer on a loaded machine), at least LOOK_EVERY, never past the time a job is
    heavy or long whatever its CPU, and every SHARE_LOOK once it is heavy."""
    from aikg.placement import SHARE_LOOK
    from aikg.query import workers

    look = workers._Worker._next_look
    now = time.monotonic()
    assert 0.4 < look(now, 0.5, None, None) <= 0.5  # 0.5 s of CPU left: no look before 0.5 s
    assert look(now, 0.0001, None, None) == workers.LOOK_EVERY
    assert look(now - (workers.DEMOTE_AFTER - 0.3), 60.0, None, None) <= 0.3  # heavy by its time then
    assert look(now - (workers.LONG_JOB - 0.3), 60.0, lambda: None, None) <= 0.3  # spares started then
    assert look(now, 60.0, None, object()) == SHARE_LOOK


def test_without_the_right_to_raise_it_again_a_heavy_query_only_moves_to_the_heavy_cores(
    disk_store, monkeypatch
):
    """A user that is not root cannot raise a lowered priority again (RLIMIT_NICE 0), so heavy work
    lowered while it had its share could never get its normal priority back when starved: it keeps its
    priority and moves to the heavy cores, which is undone without privileges, and the worker takes the
    next job."""
    from aikg import placement
    from aikg.placement import all_cores, heavy_cores
    from aikg.query import workers

    base = os.getpriority(os.PRIO_PROCESS, 0) + workers.NICENESS
    monkeypatch.setattr(workers, "DEMOTE_AFTER", 60.0)
    monkeypatch.setattr(placement, "may_raise_to", lambda niceness: False)
    app = _app(disk_store, query_timeout=8, max_heavy_queries=3)
    client, services = app.test_client(), get_services_of(app)
    with runaway_running(client, services) as runaway:
        wait_until(lambda: cores(runaway) == {frozenset(heavy_cores())}, 5)
        assert cores(runaway) == {frozenset(heavy_cores())}
        time.sleep(2 * placement.SHARE_LOOK)  # looked at again: still never lowered
        assert niceness(runaway) == {base}
        (worker,) = services.runner.pool._busy
        assert worker.demoted
        assert worker.restored()  # the same priority on every core again: nothing to raise
        assert cores(runaway) == {frozenset(all_cores())} and niceness(runaway) == {base}


def test_may_raise_to_follows_rlimit_nice(monkeypatch):
    """Root may raise a priority back; another user only to 20 - RLIMIT_NICE (default 0: not at all)."""
    import resource

    from aikg import placement

    monkeypatch.setattr(os, "geteuid", lambda: 1000)
    monkeypatch.setattr(resource, "getrlimit", lambda which: (0, 0))
    assert not placement.may_raise_to(5)
    monkeypatch.setattr(resource, "getrlimit", lambda which: (15, 15))
    assert placement.may_raise_to(5) and not placement.may_raise_to(4)
    monkeypatch.setattr(os, "geteuid", lambda: 0)
    assert placement.may_raise_to(-20)


def test_a_worker_whose_long_job_ended_takes_the_next_at_its_own_priority():
    """Raised back where the kernel allows it (CAP_SYS_NICE), else replaced by a fresh worker."""
    from aikg.placement import LONG_NICENESS, heavy_cores, place
    from aikg.query.workers import NICENESS, WorkerPool

    base = os.getpriority(os.PRIO_PROCESS, 0) + NICENESS
    pool = WorkerPool(3)
    try:
        worker = pool._take()
        assert worker.wait_ready(20)
        assert place(worker.process.pid, LONG_NICENESS, heavy_cores())  # as far down as work goes
        worker.demoted = True
        assert niceness(worker.process.pid) == {LONG_NICENESS}
        pool._give_back(worker)
        if worker.process.pid in pool.pids(busy=False):
            assert niceness(worker.process.pid) == {base}
        else:
            assert worker.process.wait(10) is not None  # replaced: a fresh one takes the next job
    finally:
        pool.close()


def test_a_spare_worker_takes_jobs_only_once_it_has_started():
    """Regression: a spare counted as started as soon as its process was spawned, so a cheap query sent
    to it waited for the interpreter to boot (p95 of an ASK under load ~450 ms, idle ~10 ms)."""
    from aikg.query.workers import NICENESS, WorkerPool

    base = os.getpriority(os.PRIO_PROCESS, 0) + NICENESS
    pool = WorkerPool(3)
    try:
        pool.warm_up()
        end = time.monotonic() + 30
        while len(pool.pids(busy=False)) < WorkerPool.SPARES and time.monotonic() < end:
            time.sleep(0.01)
        idle = pool.pids(busy=False)
        assert len(idle) == WorkerPool.SPARES
        for pid in idle:  # each has lowered its priority: it ran its start-up before it was offered
            assert niceness(pid) == {base}
    finally:
        pool.close()


def test_a_worker_the_kernel_will_not_raise_again_is_replaced_and_frees_its_place(monkeypatch):
    """Without CAP_SYS_NICE a demoted worker cannot be raised back: it is closed, and the pool no longer
    counts it as busy (it kept its place, so the pool shrank by one with every long query)."""
    from aikg.placement import YIELDING_NICENESS, heavy_cores, place
    from aikg.query.workers import NICENESS, WorkerPool

    base = os.getpriority(os.PRIO_PROCESS, 0) + NICENESS
    pool = WorkerPool(2)  # its place is free again only if the pool stops counting it
    try:
        worker = pool._take()
        assert worker.wait_ready(20)
        assert place(worker.process.pid, YIELDING_NICENESS, heavy_cores())
        worker.demoted = True
        # the spare _take started is placed when ready: not while setpriority fails for every caller
        wait_until(lambda: pool._starting == 0, 20)
        assert pool._starting == 0

        def unprivileged(which: int, who: int, niceness: int) -> None:
            raise PermissionError("raising a priority needs CAP_SYS_NICE")

        monkeypatch.setattr(os, "setpriority", unprivileged)
        pool._give_back(worker)
        assert worker.process.wait(10) is not None
        monkeypatch.undo()
        end = time.monotonic() + 20
        while len(pool.pids(busy=False)) < 2 and time.monotonic() < end:
            time.sleep(0.05)
        assert len(pool.pids(busy=False)) == 2  # both places taken by started workers again
        assert {n for pid in pool.pids(busy=False) for n in niceness(pid)} == {base}
    finally:
        pool.close()


def test_a_spare_has_the_current_snapshot_open_before_it_is_offered(disk_store):
    """Regression: a spare opened the store's snapshot with its first job, so a cheap ASK sent to the
    spare that had just replaced a runaway query's worker paid for the opening (traced under the
    fair-share suite's hostile clients: 30-60 ms, of an answer that takes 5)."""
    from aikg.query.runner import QueryRunner

    runner = QueryRunner(disk_store, load_settings({"store": "memory", "load_seeds": False}, environ={}))
    try:
        runner.pool.warm_up(1)
        end = time.monotonic() + 30
        while not runner.pool.pids(busy=False) and time.monotonic() < end:
            time.sleep(0.01)
        (pid,) = runner.pool.pids(busy=False)
        snapshot = disk_store.snapshot()
        assert snapshot is not None
        held = set()
        for fd in Path(f"/proc/{pid}/fd").iterdir():
            with contextlib.suppress(OSError):
                held.add(os.readlink(fd))
        assert any(f.startswith(str(snapshot.path) + "/") and f.endswith(".sst") for f in held), held
    finally:
        runner.close()


def _counting_pool(job: Callable[..., Any] | None = None, memory_mb: int = 0):
    """A pool of fake workers (each runs ``job``), and the list of the workers it has started."""
    from aikg.query.workers import WorkerPool

    started: list[FakeWorker] = []

    def start() -> FakeWorker:
        started.append(FakeWorker(len(started) + 1, memory_mb, job))
        return started[-1]

    pool = WorkerPool(4, memory_mb=memory_mb)
    pool._start = start  # type: ignore[method-assign]
    return pool, started


def _until(cond: Callable[[], bool]) -> bool:
    end = time.monotonic() + 10
    while not cond() and time.monotonic() < end:
        time.sleep(0.01)
    return cond()


def test_a_short_job_runs_beside_no_spare_start_and_the_pool_is_topped_up_after_its_answer():
    """Regression: taking a worker started the spares at once; right after a restart the first named
    query (heavy work after 5 ms of CPU) shared its core with the two spares it had started and
    answered in 1.8 s at load 10 (0.6-0.85 s without them)."""
    from aikg.query.workers import WorkerPool
    from aikg.store import Deadline

    during: list[int] = []
    pool, started = _counting_pool(lambda on_long: during.append(len(started)) or "rows")
    pool.warm_up(WorkerPool.BOOT_SPARES)
    assert _until(lambda: len(pool.pids(busy=False)) == 1)
    deadline = Deadline.after(5)
    assert pool.run(None, len, {}, deadline=deadline, seconds=5) == "rows"
    assert during == [1]  # the boot spare answered, and nothing was started while it ran
    assert _until(lambda: len(pool.pids(busy=False)) == WorkerPool.SPARES)  # then the pool is topped up
    assert len(started) == WorkerPool.SPARES
    pool.close()


def test_a_job_that_runs_long_gets_spares_started_beside_it():
    """A job that has run LONG_JOB may hold its worker for its whole limit: the spares the next
    queries need are started then, not when it ends."""
    from aikg.query.workers import WorkerPool
    from aikg.store import Deadline

    def long_job(on_long: Callable[[], None]) -> int:
        on_long()  # the worker's call says the job has run LONG_JOB
        _until(lambda: len(pool.pids(busy=False)) == WorkerPool.SPARES)
        return len(pool.pids(busy=False))

    pool, started = _counting_pool(long_job)
    pool.warm_up(WorkerPool.BOOT_SPARES)
    assert _until(lambda: len(pool.pids(busy=False)) == 1)
    spares_while_running = pool.run(None, len, {}, deadline=Deadline.after(5), seconds=5)
    assert spares_while_running == WorkerPool.SPARES
    pool.close()


def test_an_http_worker_starts_its_first_query_worker_before_it_loads_its_app(tmp_path, monkeypatch):
    """Regression: the first query worker started once the app had loaded, when health already
    answered: the first named query after a restart waited for its start (0.9-1.2 s at the default
    store, load 6). It starts as the HTTP worker begins to load, and the pool takes it as its first."""
    from aikg.query import workers
    from aikg.serving import app as serving

    class Loading(Exception):
        """Raised where the app would be built."""

    settings = load_settings({"store": str(tmp_path / "store"), "query_memory": 1234})
    early: list[list[int]] = []
    monkeypatch.setattr(workers, "_Worker", lambda memory_mb: FakeWorker(99, memory_mb))
    monkeypatch.setattr(workers, "_early", [])

    def reader_app(*_: Any, **__: Any) -> None:
        early.append([w.process.pid for w in workers._early])
        raise Loading

    monkeypatch.setattr(serving, "reader_app", reader_app)
    with pytest.raises(Loading):
        serving.Server(settings).load()
    assert early == [[99]]  # started before the app loads
    pool = workers.WorkerPool(4, memory_mb=1234)  # the pool the app makes
    pool.warm_up(workers.WorkerPool.BOOT_SPARES)
    assert _until(lambda: pool.pids(busy=False) == {99}) and not workers._early
    pool.close()


def test_a_query_worker_imports_only_the_store_layer_before_it_is_ready():
    """Regression: a worker's start imported rdflib, settings and tqdm (via the runner and the
    namespaces), ~0.2 s of its ~0.4 s of imports, on the path of the first query after a restart."""
    import subprocess
    import sys

    code = (
        "import sys, aikg.query.workers as w; w._prepared(); "
        "print(sorted(m for m in ('rdflib', 'aikg.settings', 'tqdm', 'flask', 'aikg.query.runner') "
        "if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_the_writers_query_workers_import_the_staging_of_updates_before_they_are_ready(monkeypatch):
    """Regression (hostile-traffic test, load 14): the writer's first update staged in a new worker
    imported aikg.write.gate inside its 3 s limit (0.55 s idle) and answered 503 "query timeout"."""
    import subprocess
    import sys

    from aikg.serving import writer

    built: list[tuple[str, ...]] = []
    monkeypatch.setattr(writer, "build_services", lambda settings, jobs=(): built.append(jobs))
    writer._open(load_settings({"store": "memory"}))
    assert built == [("aikg.write.gate",)]
    code = (
        "import sys, aikg.query.workers as w; w._prepared(sys.argv[1:]); "
        "print('aikg.write.gate' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code, *built[0]], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "True"
