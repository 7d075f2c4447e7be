"""The benchmark's own fairness: what each goal compares is what it says it compares.

The pyoxigraph baseline runs the text aikg runs, every HTTP worker's cache is warmed before a load run
of cached answers, and a bench ended by a signal leaves no server behind.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from types import SimpleNamespace

import pytest

from aikg.query.named import bind_parameters, load_queries, paged
from aikg.rdf.substitute import substitute
from aikg_bench import rowtax
from aikg_bench.peers import free_port
from aikg_bench.warm import Workers, warm


def test_the_baseline_runs_the_text_aikg_runs_with_the_values_written_in() -> None:
    """Regression: the baseline passed the parameters as pyoxigraph's ``substitutions=``, which Oxigraph
    applies after planning the query as if they were free (sources-of-entity: 6 s at 1M, against 17 ms
    for the text aikg runs); it now runs the text with the values written in, as aikg's store does."""
    given: list[tuple[str, dict]] = []

    class Engine:
        def run(self, text: str, subs: dict, union: bool) -> tuple[int, float]:
            given.append((text, dict(subs)))
            return 1, 0.001

    queries = load_queries()
    services = SimpleNamespace(
        named=SimpleNamespace(all=lambda: queries), runner=SimpleNamespace(max_rows=10_000)
    )
    session = rowtax.Session(services, None, Engine())  # type: ignore[arg-type]
    raw = {"entity": "nvidia"}
    line = session.query("sources-of-entity", raw, 1, ways=("pyoxigraph",))
    q = queries["sources-of-entity"]
    (text, subs), *_ = given
    # the text aikg runs for a page of the row cap, the one the app side is asked for
    assert subs == {} and text == substitute(paged(q, 10_000, 0), bind_parameters(q, raw))
    assert text.rstrip().endswith("LIMIT 10000") and line["url"].endswith("limit=10000")
    assert "<https://w3id.org/aikg/id/nvidia>" in text and "?entity" not in text.split("WHERE", 1)[1]
    assert line["rows"] == {"pyoxigraph": 1} and "pyoxigraph_ms" in line


APP = """
import os
from pathlib import Path
from flask import Flask

app = Flask(__name__)

@app.route("/<name>")
def answer(name):
    with open(Path(__file__).with_name(f"answered-{os.getpid()}.txt"), "a") as f:
        f.write(name + "\\n")
    return name
"""


def test_the_warm_up_reaches_every_http_worker_with_every_variant(tmp_path: Path) -> None:
    """Regression: at 1M, changes-since-last-import was under wrk at 8 req/s with misses of 0.67 s: the
    warm-up sent each variant a fixed number of times, or none when the first pass had used its time, so
    a variant was in one HTTP worker's cache only. Now each variant is asked until every worker (each on
    its own socket, ``reuse_port``, as aikg's) has answered it: here each worker's log holds every path."""
    (tmp_path / "counting.py").write_text(APP)
    port = free_port()
    server = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "gunicorn",
            "-w",
            "3",
            "-k",
            "gthread",
            "--threads",
            "2",
            "--reuse-port",
            "--chdir",
            str(tmp_path),
            "-b",
            f"127.0.0.1:{port}",
            "counting:app",
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        workers = Workers(server.pid, port)
        until = time.monotonic() + 60
        while len(workers.listening()) < 3 and time.monotonic() < until:
            time.sleep(0.1)
        assert len(workers.listening()) == 3
        paths = [f"/v{i}" for i in range(5)]
        done, sent = warm(f"http://127.0.0.1:{port}", paths, workers)
        assert done == 5 and sent.get("200", 0) >= 15, sent
        logs = sorted(tmp_path.glob("answered-*.txt"))
        assert len(logs) == 3  # every worker answered
        for log in logs:
            assert set(log.read_text().split()) == {p.strip("/") for p in paths}, log
    finally:
        server.terminate()
        server.wait(60)


SERVER_RUNNER = """
import sys, time
from aikg_bench import peers

server = peers.Hello()
print(server.proc.pid, flush=True)
time.sleep(600)
"""


def _alive(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except (OSError, IndexError):
        return False


@pytest.mark.parametrize("how", ["SIGTERM", "SIGKILL"])
def test_a_bench_ended_by_a_signal_leaves_no_server(how: str) -> None:
    """Regression: the servers ``aikg bench`` starts (aikg, the bare apps, the engines) were stopped only
    in a ``finally``, which SIGTERM's default action and SIGKILL skip: a killed bench left them running.
    The kernel now ends each with the bench (its parent-death signal)."""
    from helpers import descendants

    runner = subprocess.Popen([sys.executable, "-c", SERVER_RUNNER], stdout=subprocess.PIPE, text=True)
    served: list[int] = []
    try:
        assert runner.stdout is not None
        master = int(runner.stdout.readline())
        served = [master, *descendants(master)]
        assert len(served) == 3, served  # gunicorn's master and its two workers
        runner.send_signal(getattr(signal, how))
        assert runner.wait(60) == -getattr(signal, how)
        until = time.monotonic() + 60  # gunicorn's graceful stop
        while any(_alive(p) for p in served) and time.monotonic() < until:
            time.sleep(0.1)
        left = [p for p in served if _alive(p)]
    finally:
        runner.kill()
        runner.wait()
        for pid in served:
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)
    assert left == []


def test_a_server_that_cannot_start_says_why_and_who_holds_its_store(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Regression: the busy phase's ``aikg serve`` at 1M exited with code 2 as it started, and the bench
    kept nothing of its standard error (the port taken, or the store held by another process?). Each
    server's standard error is now kept in the run's folder, and a refused start says why and which
    process holds the store."""
    from aikg.store.oxigraph import OxigraphStore
    from aikg_bench import peers

    monkeypatch.setattr(peers.Aikg, "START_TRIES", 1)
    store_dir, log = tmp_path / "store", tmp_path / "servers" / "aikg.log"
    held = OxigraphStore(store_dir)  # this process holds the store, as a session left open would
    try:
        with pytest.raises(peers.Exited) as refused:
            peers.Aikg(store_dir, log=log)
    finally:
        held.close()
    assert refused.value.code == 2
    message = str(refused.value)
    assert "is open in another process" in message
    assert f"held by pid {os.getpid()} (this bench)" in message
    assert "is open in another process" in log.read_text()


def test_the_busy_phase_asks_a_first_answer_again_after_a_503() -> None:
    """Regression: beside busy loops, aikg just started answered its first entity lookup at 1M with 503
    (past the time limit), and the phase measured none of the cached lookups it is for. A first answer
    answered 503 is now asked again in the busy phase (only there: elsewhere a 503 is the result)."""
    import threading

    from werkzeug.serving import make_server

    from aikg_bench.wrk import Request, probe

    asked: list[str] = []

    def app(environ: dict, start_response):  # type: ignore[no-untyped-def]
        asked.append(environ["PATH_INFO"])
        refused = len(asked) <= 2  # the first answer of each probe below
        status = "503 Service Unavailable" if refused else "200 OK"
        start_response(status, [("Content-Type", "text/plain"), ("Retry-After", "0")])
        return [b"past the limit" if refused else b"answered"]

    server = make_server("127.0.0.1", free_port(), app)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{server.server_port}"
    try:
        _, status, text, _, _ = probe(base, Request(["/a"]), 1)
        assert (status, text) == (503, "past the limit")
        _, status, text, _, _ = probe(base, Request(["/a"]), 1, retry=(429, 503))
        assert (status, text) == (200, "answered") and asked == ["/a", "/a", "/a"]
    finally:
        server.shutdown()


@pytest.fixture(scope="module")
def seeds_on_disk(tmp_path_factory) -> str:
    """An on-disk store of the seeds and their derived graphs, closed so the baseline may open it."""
    from aikg.knowledge.load import load_seeds
    from aikg.store.oxigraph import OxigraphStore

    path = tmp_path_factory.mktemp("rowtax") / "store"
    store = OxigraphStore(str(path))
    load_seeds(store)
    store.close()
    return str(path)


def test_every_way_of_a_miss_answers_the_same_rows_as_the_baseline(seeds_on_disk, monkeypatch) -> None:
    """Regression: since 6129661 the app answers a named query asked without ``limit`` with its first
    page (query_page), and the bench timed that page against pyoxigraph's whole answer. With a page of 3
    rows here, each way (pyoxigraph, aikg's runner, the app) still gives the whole answer's rows."""
    monkeypatch.setenv("AIKG_QUERY_PAGE", "3")
    with rowtax.session(seeds_on_disk) as s:
        line = s.query("accelerators-by-vendor", {}, 1)
    assert "error" not in line, line
    rows = line["rows"]
    assert set(rows) == {"pyoxigraph", "runner", "http"} and len(set(rows.values())) == 1, rows
    assert rows["http"] > 3 and line["ratio"] > 0


def test_the_mix_asks_aikg_for_the_rows_the_peers_text_answers() -> None:
    """The mix's cached named queries: aikg is asked for the row cap (not its first page) and the peers'
    SPARQL carries that LIMIT, so every server answers the same rows."""
    from aikg.settings import Settings
    from aikg_bench.generate import build_template
    from aikg_bench.mix import build_mix

    cap = Settings().max_rows
    named = [op for op in build_mix(build_template(), 0) if op.group == "named"]
    assert named and all(p.endswith(f"limit={cap}") for op in named for p in op.paths)
    assert all(t.rstrip().endswith(f"LIMIT {cap}") for op in named for t in op.sparql)


def test_a_run_stopped_in_a_later_phase_keeps_the_phases_that_ended(tmp_path, monkeypatch) -> None:
    """Regression: results were written once a whole size ended, and a run stopped in its 10M mix lost
    every 10M figure (its 28-minute load, its misses). Each phase is now written as it ends: a run stopped
    in the bare app's mix keeps the load, the misses (naming the bound query that failed in the log) and
    aikg's mix, says the size is not finished, and the goals without figures say not run."""
    import json

    import aikg_bench.run as bench_run

    def generate(path, size, seed):
        path.write_text("")
        return SimpleNamespace(quads=size, replicas=10, batches=1)

    def measure(which, data, store_dir, full=None):
        if which == "pyoxigraph":
            return {"seconds": 10.0, "peak_rss_mb": 100.0}
        return {"seconds": 12.0, "peak_rss_mb": 140.0, "load_seconds": 8.0, "derive_seconds": 4.0}

    misses = {
        "rowtax": [
            {
                "query": "q1",
                "rows": {"pyoxigraph": 2, "http": 2},
                "pyoxigraph_ms": 10.0,
                "http_ms": 12.0,
                "ratio": 1.2,
            }
        ],
        "hubs": {},
    }

    def peer(name, opts, *args):
        if name == "aikg":
            return {"ops": {"entity lookup": {"rps": 100.0, "p50_ms": 1.0, "p99_ms": 2.0, "cold_ms": 3.0}}}
        raise KeyboardInterrupt  # the run stopped here, as by a signal

    monkeypatch.setattr(bench_run, "generate", generate)
    monkeypatch.setattr(bench_run.load, "measure", measure)
    monkeypatch.setattr(bench_run, "in_process", lambda *a, **k: misses)
    monkeypatch.setattr(bench_run, "_peer", peer)
    opts = bench_run.Options(
        sizes=["1M", "10M"],
        out=tmp_path / "out",
        peers=("aikg", "flask-hello"),
        work=tmp_path / "work",
        log=lambda _: None,
        busy=4,
    )
    with pytest.raises(KeyboardInterrupt):
        bench_run.run(opts)
    saved = json.loads((tmp_path / "out" / "results.json").read_text())
    (size,) = saved["sizes"]
    assert size["ended"] == ["load", "misses", "mix: aikg"] and size["complete"] is False
    assert size["load"]["ratio"] == 1.2 and size["rowtax"] == misses["rowtax"]
    assert size["peers"]["aikg"]["ops"]["entity lookup"]["rps"] == 100.0
    rows = {(r["goal"], r["size"]): r for r in saved["goals"]}
    load_time = rows["load time vs pyoxigraph bulk_load", "1M"]
    assert (load_time["ratio"], load_time["met"]) == (1.2, True)
    tax = rows["named query missing the cache vs pyoxigraph in process, hub parameters included", "1M"]
    assert (tax["ratio"], tax["met"]) == (1.2, True)
    quiet = rows["cached answers and lookups vs bare Flask, quiet", "1M"]
    assert quiet["met"] is None and quiet["measured"] == "not run"
    busy = rows["cached answers and lookups vs bare Flask, both cores busy", "1M"]
    assert busy["measured"] == "not run: the run stopped before this size's busy phase ended"
    assert rows["load time vs pyoxigraph bulk_load", "10M"]["measured"] == "not run"
    text = (tmp_path / "out" / "results.md").read_text()
    assert "**Not finished**" in text and "(load, misses, mix: aikg)" in text


def test_the_log_names_the_bound_query_that_failed(monkeypatch) -> None:
    """Regression: at 10M the log said only "slowest bound query inf ms" when a bound query failed."""
    import aikg_bench.run as bench_run
    from aikg_bench.generate import build_template

    class Session:
        services = SimpleNamespace(named=SimpleNamespace(all=lambda: load_queries()))

        def bindings(self, q, params):
            return {}

        def query(self, name, raw, reps, ways=(), untimed_first=True):
            if name == "deals-of-organization":
                return {"query": name, "rows": {}, "error": "http: HTTP 503: query timeout"}
            return {"query": name, "rows": {"http": 1}, "http_ms": 5.0, "pyoxigraph_ms": 4.0, "ratio": 1.25}

        def lookup(self, node, reps):
            return {"http_ms": 1.0}

    @contextlib.contextmanager
    def session(path, baseline_seconds=None):
        yield Session()

    monkeypatch.setattr(bench_run.rowtax, "session", session)
    said: list[str] = []
    opts = bench_run.Options(sizes=["1M"], out=Path("."), log=said.append, reps=1)
    bench_run.in_process(Path("."), build_template(), 1, opts)
    hub = next(line for line in said if " hub " in line)
    assert "deals-of-organization (http: HTTP 503: query timeout)" in hub, hub
    assert "slowest bound query" in hub and "inf" not in hub


def test_skip_names_only_phases_the_bench_can_leave_out() -> None:
    from click.testing import CliRunner

    from aikg.cli.bench import bench

    result = CliRunner().invoke(bench, ["--skip", "misses,nope"])
    assert result.exit_code == 2 and "unknown phase(s) to skip: nope" in result.output


def test_new_connections_are_measured_side_by_side_in_alternating_rounds(tmp_path, monkeypatch) -> None:
    """Regression: the new-connection goal set aikg's p50, measured right after its own mix (1.82 ms at
    load 29), against the bare app's of another minute (0.41 ms): 4.47×, where side by side the two were
    0.99×. Now the bare apps are started beside aikg after its mix and all are asked in turn, a round at
    a time, and the goal takes the medians of those rounds."""
    import aikg_bench.run as bench_run
    from aikg_bench import goals
    from aikg_bench.generate import build_template

    asked: list[str] = []
    stopped: list[str] = []

    class Server:
        def __init__(self, name: str) -> None:
            self.name, self.base = name, f"http://{name}"

        def stop(self) -> None:
            stopped.append(self.name)

    def measure(base, path, headers=None, n=200):
        asked.append(base.removeprefix("http://"))
        p50 = {"aikg": 0.5, "flask-hello": 0.4, "flask-hello-threads": 0.45}[asked[-1]]
        return {
            "path": path,
            "requests": n,
            "p50_ms": p50 + 0.01 * len(asked),
            "p99_ms": 2.0,
            "body_bytes": 900,
        }

    monkeypatch.setattr(bench_run, "_server", lambda name, aikg_dir, full, log=None: Server(name))
    monkeypatch.setattr(bench_run.newconn, "measure", measure)
    opts = bench_run.Options(sizes=["4k"], out=tmp_path, log=lambda _: None)
    ceilings = ["flask-hello", "flask-hello-threads"]
    out = bench_run.new_connections("4k", Server("aikg"), (build_template(), 1), ceilings, opts)
    rounds = bench_run.NEW_CONNECTION_ROUNDS
    assert asked == ["aikg"] + ["aikg", "flask-hello", "flask-hello-threads"] * rounds  # its size first
    assert sorted(stopped) == sorted(ceilings)  # aikg, after its mix, is its own run's to stop
    assert out["aikg"]["path"] == "/api/entities/lambda-1" and out["flask-hello"]["path"] == "/bytes/900"
    assert out["aikg"]["requests"] == rounds * bench_run.NEW_CONNECTION_ROUND
    # the median round: the third of five (its p50 grew by 0.01 ms a request asked before it)
    assert out["aikg"]["p50_ms"] == round(0.5 + 0.01 * 8, 3) and out["flask-hello"]["p50_ms"] == 0.49
    result = {"options": {}, "sizes": [{"size": "4k", "peers": {"aikg": {"new_connections": out}}}]}
    (row,) = [r for r in goals.table(result) if r["goal"].startswith("a cached answer on a new connection")]
    assert row["ratio"] == pytest.approx(0.58 / 0.49) and row["baseline"].startswith(
        "flask-hello, side by side"
    )
