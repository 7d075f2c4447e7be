"""One benchmark run: per size, generate, load (aikg vs pyoxigraph), then one mix on every server."""

from __future__ import annotations

import dataclasses
import datetime as dt
import os
import platform
import shutil
import statistics
import subprocess
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import pyoxigraph as ox
import requests

from aikg.serving import publication
from aikg.settings import Settings
from aikg_bench import (
    answers,
    busy,
    default,
    inprocess,
    load,
    newconn,
    peers,
    report,
    rowtax,
    small_writes,
    soak,
    warm,
)
from aikg_bench.generate import Template, build_template, generate, parse_size
from aikg_bench.mix import PARAMS, Op, build_mix, node_params, numbered
from aikg_bench.wrk import Request, probe, run_wrk

PEERS = ("aikg", "flask-hello", "flask-hello-threads", "rdflib-endpoint", "virtuoso", "pyoxigraph")
_SELECT = "application/sparql-results+json"


@dataclass
class Options:
    """What to run: sizes, peers, seconds per operation, connections, where to keep data and results."""

    sizes: list[str]
    out: Path
    peers: tuple[str, ...] = PEERS
    seconds: float = 3.0
    connections: int = 8
    seed: int = 42
    rdflib_max: int = 10_000
    """rdflib-endpoint takes seconds per query from 10k triples: larger sizes are skipped, and say so."""
    slow: float = 5.0
    """Seconds: an operation whose first answer took longer is not repeated under load (``slow``)."""
    work: Path | None = None
    log: Callable[[str], None] = print
    ops: set[str] | None = None
    """Only these operation groups (lookup, search, named, join, aggregate, export, write); None: all."""
    reps: int = 5
    """Repetitions of each in-process timing (named queries missing the cache, hub and small node)."""
    goals: bool = True
    """Measure what the goals table needs beyond the mix: row tax, hubs, cold start."""
    busy: int = 0
    """Busy loops per core in a busy phase after each size's quiet one (:func:`busy_phase`); 0: none."""
    answers: str = "heldout"
    """Answer evaluation files measured on the default store (:data:`aikg_bench.answers.CHOICES`)."""
    fair: float = 40.0
    """Seconds of the fair share probed idle, and as many under four clients loading hub neighbourhoods,
    in two rounds (:func:`aikg_bench.soak.fair_share`); 0: not run."""
    writes: int = 20
    """Small gated writes timed on aikg after the mix (:func:`aikg_bench.small_writes.committed`)."""
    skip: frozenset[str] = frozenset()
    """Goal phases left out (:data:`SKIPPABLE`): to measure one goal again without the others' hours."""
    warm: float = 60.0
    """Seconds, per operation, for putting aikg's answers in every HTTP worker's cache before its load
    run (:mod:`aikg_bench.warm`); the variants not warmed by then are left out of the load run."""


def machine() -> dict[str, Any]:
    """Date, cores, memory and CPU model, for the report."""
    cpu = next(
        (
            line.split(":", 1)[1].strip()
            for line in Path("/proc/cpuinfo").read_text().splitlines()
            if line.startswith("model name")
        ),
        platform.processor(),
    )
    try:
        free = subprocess.run(["free", "-h"], capture_output=True, text=True).stdout.strip()
    except OSError:
        free = ""
    return {
        "date": dt.datetime.now(dt.UTC).isoformat(timespec="seconds"),
        "nproc": os.cpu_count(),
        "cpu": cpu,
        "free": free,
        "python": platform.python_version(),
        "pyoxigraph": ox.__version__,
        "load_average": busy.load_average(),
    }


def request_for(
    server: str, op: Op, sparql_path: str = "/sparql", body_bytes: list[int] | None = None
) -> Request:
    """How ``server`` is asked for ``op``: aikg's own API, SPARQL for engines; the ceiling answers a
    body as large as aikg's answer to each variant (``body_bytes``) or, not given, "hello"."""
    if server == "aikg":
        if op.is_write:
            return Request(
                op.paths,
                "POST",
                {"Authorization": f"Bearer {peers.TOKEN}", "Content-Type": "text/turtle"},
                op.body,
            )
        accept = _SELECT if op.paths[0].startswith("/sparql") else "application/json"
        return Request(op.paths, headers={"Accept": accept})
    if server.startswith("flask-hello"):
        if op.is_write or body_bytes is None:
            return Request(["/"], "POST" if op.is_write else "GET", body="hello" if op.is_write else None)
        return Request([f"/bytes/{n}" for n in body_bytes])
    if op.is_write:
        body = urlencode({"update": op.sparql[0]}).replace("%40N%40", "@N@")
        return Request([sparql_path], "POST", {"Content-Type": "application/x-www-form-urlencoded"}, body)
    accept = "text/turtle" if op.group == "export" else _SELECT
    return Request(
        [sparql_path + "?" + urlencode({"query": q}) for q in op.sparql], headers={"Accept": accept}
    )


def _warmer(
    base: str, workers: warm.Workers, req: Request, opts: Options, sent: dict[str, int]
) -> Callable[[list[str]], int]:
    """What puts ``req``'s variants in every HTTP worker's cache (:func:`aikg_bench.warm.warm`), counting
    the requests it sent into ``sent``."""

    def warming(paths: list[str]) -> int:
        done, tally = warm.warm(base, paths, workers, headers=req.headers, budget_s=opts.warm)
        sent.update(tally)
        return done

    return warming


BUSY_PATIENCE_S = 120.0
"""Seconds the busy phase asks a first answer again while it is a 429 or a 503 (past the time limit)."""


def _mix_on(
    server: peers.Server,
    ops: list[Op],
    opts: Options,
    bodies: dict[str, list[int]],
    *,
    busy: bool = False,
) -> dict[str, Any]:
    """Every operation on one server: its first answers, then wrk. ``bodies``: the size of aikg's answer
    to each variant of each operation (measured first), which the bare-Flask ceiling answers with: the
    same mix of sizes, not one size for all. ``busy``: beside busy loops, where a first answer past the
    time limit (503) is asked again until answered (:data:`BUSY_PATIENCE_S`): the phase measures cached
    answers, which a cold 503 would leave unmeasured."""
    results: dict[str, Any] = {}
    for op in ops:
        req = request_for(server.name, op, server.sparql_path, bodies.get(op.name))
        try:
            one = server.name == "rdflib-endpoint" or op.is_write  # the slowest: one cold answer is enough
            # aikg serves from several processes, each with its own response cache: every variant is
            # asked until each worker has answered it (aikg_bench.warm), not a number of times that
            # reaches both by chance, or not at all when the first pass used up the time
            sent: dict[str, int] = {}
            warming = None
            if server.name == "aikg" and not op.is_write and server.proc is not None:
                warming = _warmer(server.base, warm.Workers(server.proc.pid, server.port), req, opts, sent)
            cold, status, text, warmed, sizes = probe(
                server.base,
                req,
                1 if one else len(req.paths),
                budget_s=BUSY_PATIENCE_S if busy else max(10.0, 3 * opts.seconds),
                slow_ms=opts.slow * 1000,
                warm=warming,
                retry=(429, 503) if busy else (429,),
            )
            if status >= 400:
                results[op.name] = {"error": f"HTTP {status}: {text[:200]}"}
                opts.log(f"    {op.name:<40} HTTP {status}")
                continue
            if cold[0] > opts.slow * 1000:
                # Minutes of wrk for a handful of answers would measure nothing more than this one did.
                ms = statistics.median(cold)
                results[op.name] = {
                    "p50_ms": ms,
                    "p99_ms": max(cold),
                    "rps": 1000 / ms,
                    "requests": len(cold),
                    "errors": 0,
                    "cold_ms": ms,
                    "slow": True,
                }
                opts.log(f"    {op.name:<40} slow: {ms:.0f} ms for the first answer, not repeated")
                continue
            if warming is not None and not warmed:
                results[op.name] = {"error": f"no variant in every worker's cache within the warm-up: {sent}"}
                opts.log(f"    {op.name:<40} not warmed: {sent}")
                continue
            conns = 1 if op.is_write else opts.connections
            # A cache's load run asks what was warmed; a peer without one every variant.
            loaded = dataclasses.replace(req, paths=req.paths[:warmed]) if warming is not None else req
            r = run_wrk(server.base, loaded, seconds=opts.seconds, connections=conns)
            r["variants"] = len(loaded.paths)
        except (RuntimeError, requests.RequestException) as exc:
            results[op.name] = {"error": str(exc)[:300]}
            opts.log(f"    {op.name:<40} failed: {exc}")
            continue
        r["cold_ms"] = statistics.median(cold)
        if sent:
            r["warm"] = sent  # the warm-up's requests by answer: "200", "429", "unseen" (a closed connection)
        r["body_bytes"] = int(statistics.median(sizes[: r["variants"]]))
        r["variant_bytes"] = sizes[: r["variants"]]  # of the variants the load run asked
        results[op.name] = r
        opts.log(
            f"    {op.name:<40} p50 {r['p50_ms']:9.2f} ms  p99 {r['p99_ms']:9.2f} ms  "
            f"{r['rps']:9.1f} req/s  cold {r['cold_ms']:8.1f} ms  errors {r['errors']}"
        )
    return results


def _search_build(base: str, limit: float = 600) -> float:
    """Seconds until the first search after start is answered: the search index being built.

    A search that finds the index still building answers 503 with Retry-After within its deadline; the
    mix starts only once the index answers (at 1M its first build outlasts a request's deadline)."""
    start = time.perf_counter()
    while True:
        r = requests.get(base + "/api/search", params={"q": "zzz-index-build"}, timeout=300)
        if r.status_code != 503 or time.perf_counter() - start > limit:
            return time.perf_counter() - start
        time.sleep(0.2)


SKIPPABLE = ("misses", "restart")
"""Goal phases ``--skip`` leaves out: the named queries missing the cache in process (quiet and busy),
and the first answers after a restart."""
PHASES = ("load", "misses", "answers", "mix", "fair share", "busy phase")
"""A size's phases in the order they run; each one's results are written as it ends (``keep``)."""


def run_size(
    label: str,
    opts: Options,
    work: Path,
    out: dict[str, Any] | None = None,
    keep: Callable[[str], None] | None = None,
) -> dict[str, Any]:
    """Everything for one size, into ``out``; servers are stopped before it returns. ``keep(phase)`` is
    called as each phase ends (:data:`PHASES`; each peer's mix as ``mix: PEER``), so a run stopped later
    keeps what it measured (at 10M a size's phases take hours)."""
    out = {} if out is None else out
    ended = keep if keep is not None else (lambda phase: None)
    data = work / f"{label}.nq"
    t0 = time.perf_counter()
    if label == default.LABEL:
        quads = default.build(data, work)
        size, replicas, batches = quads, 0, 0
    else:
        size = parse_size(label)
        gen = generate(data, size, seed=opts.seed)
        quads, replicas, batches = gen.quads, gen.replicas, gen.batches
    out.update({"size": label, "target_quads": size})
    out["generate"] = {
        "seconds": time.perf_counter() - t0,
        "quads": quads,
        "replicas": replicas,
        "batches": batches,
        "bytes": data.stat().st_size,
    }
    opts.log(
        f"[{label}] {'built' if label == default.LABEL else 'generated'} {quads} quads "
        f"({replicas} replicas, {batches} batches) in {out['generate']['seconds']:.1f} s"
    )
    ox_dir, aikg_dir, full = work / f"{label}-ox", work / f"{label}-aikg", work / f"{label}-full.nq"
    out["load"] = {
        "pyoxigraph": load.measure("pyoxigraph", data, ox_dir),
        "aikg": load.measure("aikg", data, aikg_dir, full),
    }
    la, lo = out["load"]["aikg"], out["load"]["pyoxigraph"]
    out["load"]["ratio"] = la["seconds"] / lo["seconds"]
    out["load"]["memory_ratio"] = la["peak_rss_mb"] / lo["peak_rss_mb"]
    opts.log(
        f"[{label}] load: pyoxigraph bulk_load {lo['seconds']:.1f} s ({lo['peak_rss_mb']:.0f} MB), "
        f"aikg {la['seconds']:.1f} s (bulk {la['load_seconds']:.1f} + derive "
        f"{la['derive_seconds']:.1f}; "
        f"{la['peak_rss_mb']:.0f} MB)"
    )
    shutil.rmtree(ox_dir, ignore_errors=True)
    ended("load")
    template = build_template()
    if opts.goals and "misses" not in opts.skip:
        out.update(in_process(aikg_dir, template, replicas, opts))
        ended("misses")
    if label == default.LABEL:
        # Before the servers open the store: the evaluation opens it in a child process, then closes it.
        evaluation = answers.files(opts.answers, answers.DATA)
        if evaluation:
            out["answers"] = answers.measure(aikg_dir, evaluation, opts.log)
            ended("answers")
    ops = build_mix(template, replicas, seed=opts.seed)
    if opts.ops is not None:
        ops = [op for op in ops if op.group in opts.ops]
    out["operations"] = [{"name": op.name, "group": op.group, "variants": len(op.paths)} for op in ops]
    out["peers"] = {}
    for name in opts.peers:
        opts.log(f"[{label}] {name}")
        try:
            aikg = out["peers"].get("aikg", {})
            mine = aikg.get("ops") or {}
            bodies = {op: r["variant_bytes"] for op, r in mine.items() if "variant_bytes" in r}
            if "new_connection" in aikg:
                bodies[NEW_CONNECTION] = [aikg["new_connection"]["body_bytes"]]
            out["peers"][name] = _peer(
                name, opts, ops, aikg_dir, full, size, work, (template, replicas), bodies, label
            )
        except peers.Skipped as exc:
            out["peers"][name] = {"skipped": str(exc)}
            opts.log(f"    skipped: {exc}")
        except (RuntimeError, OSError, subprocess.SubprocessError, requests.RequestException) as exc:
            out["peers"][name] = {"failed": f"{type(exc).__name__}: {exc}"[:300]}
            opts.log(f"    failed: {exc}")
        ended(f"mix: {name}")
    if opts.goals and opts.fair > 0 and "aikg" in opts.peers:
        out["fair_share"] = fair_share(aikg_dir, opts)
        ended("fair share")
    if opts.busy > 0:
        out["busy"] = busy_phase(label, aikg_dir, ops, template, replicas, out["peers"], opts)
        ended("busy phase")
    shutil.rmtree(aikg_dir, ignore_errors=True)
    shutil.rmtree(publication.folder_for(aikg_dir), ignore_errors=True)  # snapshots and the kept index
    return out


def fair_share(aikg_dir: Path, opts: Options) -> dict[str, Any]:
    """The hub's depth-1 neighbourhood and a bad parameter's 400, idle and under four clients loading
    the hub's deep neighbourhoods and GraphML exports, on a served copy of the store as it was loaded
    (no seeds, no import); the server log and the store path are left out of the results."""
    opts.log(f"    fair share: {opts.fair:g} s idle and {opts.fair:g} s under four hub clients")
    try:
        result = soak.fair_share(
            aikg_dir,
            kinds=["deep neighbourhood"],
            idle_seconds=opts.fair,
            load_seconds=opts.fair,
            rounds=2,
            epoch=False,
            log=lambda line: opts.log(f"    {line}"),
            server_env={"AIKG_LOAD_SEEDS": "false", "AIKG_IMPORT_EPOCH": "false"},
        )
    except (RuntimeError, OSError, requests.RequestException) as exc:
        opts.log(f"    fair share failed: {exc}")
        return {"failed": f"{type(exc).__name__}: {exc}"[:300]}
    keep = ("hostile", "rounds", "load_average", "idle", "under_load", "p99_ratio", "p99_ratio_interval_90")
    return {k: result[k] for k in keep if k in result}


def in_process(
    aikg_dir: Path, template: Template, replicas: int, opts: Options, *, busy: bool = False
) -> dict[str, Any]:
    """In one process over aikg's store, every answer missing the response cache: each named query
    against pyoxigraph on the same text (``rowtax``), and the hub against a small node (``hubs``).

    ``busy`` (beside busy loops, for the goal of no 503 where pyoxigraph answers within the limit): once
    each, through the app and pyoxigraph, with the benchmark's parameters and bound to the hub; pyoxigraph
    is stopped at twice the limit (what it answers past the limit counts for nothing there)."""
    params = {k: numbered(v, 1, template, replicas) for k, v in PARAMS.items()}
    out: dict[str, Any] = {"hubs": {}}
    ways = ("pyoxigraph", "http") if busy else rowtax.WAYS
    reps, first = (1, False) if busy else (opts.reps, True)
    bounded = 2 * Settings().query_timeout if busy else None
    with rowtax.session(str(aikg_dir), baseline_seconds=bounded) as s:
        named = sorted(s.services.named.all().items())
        out["rowtax"] = [
            s.query(name, s.bindings(q, params), reps, ways=ways, untimed_first=first) for name, q in named
        ]
        worst = max(out["rowtax"], key=lambda line: line.get("ratio", 0))
        opts.log(f"    row tax: worst {worst['query']} {worst.get('ratio')}×{_failures(out['rowtax'])}")
        bound = [(name, q) for name, q in named if any(p.type == "entity" for p in q.parameters)]
        for which in ("hub",) if busy else ("hub", "small"):
            nodes = node_params(template, replicas, hub=which == "hub")
            node = nodes["org"]
            queries = [
                s.query(name, s.bindings(q, nodes), reps, ways=("pyoxigraph", "http"), untimed_first=first)
                for name, q in bound
            ]
            out["hubs"][which] = {"node": node, "queries": queries, "lookup": s.lookup(node, opts.reps)}
            timed = [line for line in queries if "http_ms" in line]
            slowest = max(timed, key=lambda line: line["http_ms"], default=None)
            opts.log(
                f"    {which} {node}: slowest bound query "
                + (f"{slowest['query']} {slowest['http_ms']:.1f} ms" if slowest else "none answered")
                + _failures(queries)
            )
    return out


def _failures(lines: list[dict[str, Any]]) -> str:
    """The queries that failed a way, each with its first error, for the log: at 10M the log said a
    bound query had failed ("slowest bound query inf ms") and not which, nor how."""
    failed = [f"{line['query']} ({line['error'][:120]})" for line in lines if "error" in line]
    return f"; failed: {'; '.join(failed)}" if failed else ""


def server_log(opts: Options, label: str, name: str) -> Path:
    """Where the standard error of the server ``name`` started for size ``label`` is kept: beside the
    run's results, one file per server and phase (restarts append to it)."""
    return opts.out / "servers" / f"{label}-{name}.log"


def cold_start(aikg_dir: Path, template: Template, replicas: int, log: Path | None = None) -> dict[str, Any]:
    """The first answers after a restart of ``aikg serve`` on the same store: a named query bound to a
    node (then an entity lookup) after one restart, a search after another."""
    small = node_params(template, replicas, hub=False)["org"]
    term = template.entities[0][1][:4].lower()
    out: dict[str, Any] = {"node": small, "search_term": term}
    for first in ("named query", "search"):
        start = time.perf_counter()
        server = peers.Aikg(aikg_dir, log=log)
        try:
            out.setdefault("startup_seconds", []).append(time.perf_counter() - start)
            paths = (
                {
                    "named query": f"/api/queries/deals-of-organization?org={small}",
                    "lookup": f"/api/entities/{small}",
                }
                if first == "named query"
                else {"search": "/api/search?" + urlencode({"q": term})}
            )
            for what, path in paths.items():
                t = time.perf_counter()
                r = requests.get(server.base + path, headers={"Accept": "application/json"}, timeout=300)
                out[f"{what}_ms"] = (time.perf_counter() - t) * 1000
                out[f"{what}_status"] = r.status_code
        finally:
            server.stop()
    return out


NEW_CONNECTION = "new connection"
"""The key under which the run passes aikg's new-connection answer size on to the bare Flask app."""


NEW_CONNECTION_ROUNDS = 5
"""Rounds of the new-connection phase: each server asked in turn, a round at a time."""
NEW_CONNECTION_ROUND = 60
"""Requests on new connections per server and round."""


def new_connections(
    label: str, aikg: peers.Server, data: tuple[Template, int], ceilings: list[str], opts: Options
) -> dict[str, Any]:
    """A cached answer on new connections, aikg (running, after its mix) and the bare apps started
    beside it asked in alternating rounds (:data:`NEW_CONNECTION_ROUNDS`): each server's figure is taken
    at the same moments as the others'. Measured one server after the other, minutes apart, at load 29
    aikg's p50 (1.82 ms, after its own mix) was set against the bare app's of a quieter minute (0.41 ms):
    4.47× where side by side the two were 0.99×. An aikg started for it would be measured in its boot's
    background work (the views processes, the kept answers: 3.1 ms in its first round, 0.49 ms in its
    fifth). Per server: the median of its rounds' p50 and p99."""
    opts.log(f"    new connections: aikg and {', '.join(ceilings)} side by side")
    servers: dict[str, peers.Server] = {"aikg": aikg}
    headers = {"Accept": "application/json"}
    try:
        for name in ceilings:
            servers[name] = _server(name, Path(), Path(), server_log(opts, label, f"{name}-newconn"))
        mine = f"/api/entities/{node_params(*data, hub=False)['org']}"
        size = newconn.measure(servers["aikg"].base, mine, headers, n=1)["body_bytes"]
        rounds: dict[str, list[dict[str, Any]]] = {name: [] for name in servers}
        for _ in range(NEW_CONNECTION_ROUNDS):
            for name, server in servers.items():
                path = mine if name == "aikg" else f"/bytes/{size}"
                rounds[name].append(newconn.measure(server.base, path, headers, n=NEW_CONNECTION_ROUND))
    except (RuntimeError, OSError, requests.RequestException) as exc:
        opts.log(f"    new connections failed: {exc}")
        return {"failed": f"{type(exc).__name__}: {exc}"[:300]}
    finally:
        for name, server in servers.items():
            if name != "aikg":  # aikg's own run stops it
                server.stop()
    out: dict[str, Any] = {}
    for name, measured in rounds.items():
        out[name] = {
            "path": measured[0]["path"],
            "body_bytes": measured[0]["body_bytes"],
            "requests": sum(m["requests"] for m in measured),
            "p50_ms": round(statistics.median(m["p50_ms"] for m in measured), 3),
            "p99_ms": round(statistics.median(m["p99_ms"] for m in measured), 3),
            "round_p50_ms": [m["p50_ms"] for m in measured],
        }
        opts.log(f"    {name}: {out[name]['path']} p50 {out[name]['p50_ms']:.2f} ms")
    return out


def _after_mix(
    server: peers.Server, data: tuple[Template, int], bodies: dict[str, list[int]], opts: Options
) -> dict[str, Any]:
    """What the goals need of a server beside the mix: a cached answer on new connections (aikg: a small
    node's entity; the bare Flask app: a body as large), and on aikg small gated writes."""
    out: dict[str, Any] = {}
    path, headers = None, {"Accept": "application/json"}
    if server.name == "aikg":
        path = f"/api/entities/{node_params(*data, hub=False)['org']}"
    elif server.name.startswith("flask-hello") and bodies.get(NEW_CONNECTION):
        path = f"/bytes/{bodies[NEW_CONNECTION][0]}"
    try:
        if path is not None:
            out["new_connection"] = c = newconn.measure(server.base, path, headers)
            opts.log(f"    new connection: {path} p50 {c['p50_ms']:.2f} ms, p99 {c['p99_ms']:.2f} ms")
        if server.name == "aikg" and opts.writes > 0:
            out["small_writes"] = w = small_writes.committed(server.base, peers.TOKEN, opts.writes)
            opts.log(f"    small gated writes: p50 {w['p50_ms']:.1f} ms over {w['writes']}")
    except (RuntimeError, OSError, requests.RequestException) as exc:
        out["after_mix_failed"] = f"{type(exc).__name__}: {exc}"[:300]
        opts.log(f"    failed after the mix: {exc}")
    return out


def _server(name: str, aikg_dir: Path, full: Path, log: Path | None = None) -> peers.Server:
    """The server ``name``, started (over ``aikg_dir`` for aikg, the data ``full`` for the engines),
    its standard error kept in ``log``."""
    if name == "aikg":
        return peers.Aikg(aikg_dir, log=log)
    if name == "flask-hello":
        return peers.Hello(log)
    if name == "flask-hello-threads":
        return peers.HelloThreads(log)
    if name == "rdflib-endpoint":
        return peers.RdflibEndpoint(full, log)
    if name == "virtuoso":
        return peers.Virtuoso(full, log)
    raise peers.Skipped(f"unknown peer {name!r}")


BUSY_GROUPS = ("lookup", "named")
"""The operations the busy phase loads with wrk: entity lookups and cached named queries."""
BUSY_PEERS = ("aikg", "flask-hello", "flask-hello-threads")
"""aikg and the two bare-Flask ceilings it is compared with beside the busy loops."""


def busy_phase(
    label: str,
    aikg_dir: Path,
    ops: list[Op],
    template: Template,
    replicas: int,
    quiet: dict[str, Any],
    opts: Options,
) -> dict[str, Any]:
    """The goals of a busy host, in the same run as the quiet figures: ``opts.busy`` busy loops per core
    (:func:`aikg_bench.busy.busy_loops`, in the bench's own session, as the service's) started, then the
    named queries missing the cache through aikg's app beside pyoxigraph (for the goal that none answers
    503 that pyoxigraph answers within the limit), then entity lookups and cached named queries under wrk
    on aikg and on the two bare-Flask apps answering bodies as large. Every server is started beside the
    loops, so its workers, its query workers and the baseline share the cores with them."""
    wanted = [op for op in ops if op.group in BUSY_GROUPS]
    opts.log(f"[{label}] busy phase: {opts.busy} busy loops per core")
    out: dict[str, Any] = {"per_core": opts.busy, "peers": {}}
    with busy.busy_loops(opts.busy) as loops:
        out["loops"] = len(loops)
        out["load_average_began"] = busy.load_average()
        if opts.goals and "misses" not in opts.skip:
            out.update(in_process(aikg_dir, template, replicas, opts, busy=True))
        for name in (p for p in BUSY_PEERS if p in opts.peers):
            opts.log(f"[{label}] {name}, busy")
            mine = (out["peers"].get("aikg") or quiet.get("aikg") or {}).get("ops") or {}
            bodies = {op: r["variant_bytes"] for op, r in mine.items() if "variant_bytes" in r}
            server: peers.Server | None = None
            try:
                server = _server(name, aikg_dir, aikg_dir, server_log(opts, label, f"{name}-busy"))
                if name == "aikg":
                    _search_build(server.base)
                out["peers"][name] = {"ops": _mix_on(server, wanted, opts, bodies, busy=True)}
            except (RuntimeError, OSError, requests.RequestException) as exc:
                out["peers"][name] = {"failed": f"{type(exc).__name__}: {exc}"[:300]}
                opts.log(f"    failed: {exc}")
            finally:
                if server is not None:
                    server.stop()
        out["load_average"] = busy.load_average()
    return out


def _peer(
    name: str,
    opts: Options,
    ops: list[Op],
    aikg_dir: Path,
    full: Path,
    size: int,
    work: Path,
    data: tuple[Template, int],
    bodies: dict[str, list[int]],
    label: str,
) -> dict[str, Any]:
    if name == "pyoxigraph":
        d = work / "floor"
        shutil.rmtree(d, ignore_errors=True)
        store = ox.Store(str(d))
        store.bulk_load(path=str(full), format=ox.RdfFormat.N_QUADS)
        # The same dataset as aikg's store: the named graphs and their merge in the default graph.
        store.bulk_extend(
            ox.Quad(q.subject, q.predicate, q.object)
            for q in ox.parse(path=str(full), format=ox.RdfFormat.N_QUADS)
        )
        try:
            ops_out = {}
            for op in ops:
                r = inprocess.measure(store, op, seconds=min(opts.seconds, 3.0))
                ops_out[op.name] = r
                opts.log(
                    f"    {op.name:<40} p50 {r['p50_ms']:9.2f} ms  p99 {r['p99_ms']:9.2f} ms  "
                    f"{r['rps']:9.1f} runs/s (one thread)"
                )
            return {"ops": ops_out}
        finally:
            del store
            shutil.rmtree(d, ignore_errors=True)
    if name == "rdflib-endpoint" and size > opts.rdflib_max:
        raise peers.Skipped(
            f"left out above {opts.rdflib_max} triples (--rdflib-max): it loads into "
            "rdflib's memory store at ~20k triples/s"
        )
    server: peers.Server | None = None
    try:
        server = _server(name, aikg_dir, full, server_log(opts, label, name))
        extra: dict[str, Any] = {}
        if server.load_seconds is not None:
            extra["load_seconds"] = server.load_seconds
        if name == "aikg":
            extra["search_index_build_seconds"] = _search_build(server.base)
        result = {"ops": _mix_on(server, ops, opts, bodies), **extra}
        if opts.goals:
            result.update(_after_mix(server, data, bodies, opts))
            ceilings = [p for p in BUSY_PEERS[1:] if p in opts.peers]
            if name == "aikg" and ceilings:
                result["new_connections"] = new_connections(label, server, data, ceilings, opts)
        result["peak_rss_mb"] = server.rss_mb()
        if name == "aikg" and opts.goals and "restart" not in opts.skip:
            server.stop()
            result["cold_start"] = cold_start(aikg_dir, *data, server_log(opts, label, "aikg-restart"))
            c = result["cold_start"]
            opts.log(
                f"    after a restart: named query {c.get('named query_ms', 0):.0f} ms, "
                f"search {c.get('search_ms', 0):.0f} ms"
            )
        return result
    finally:
        if server is not None:
            server.stop()


def _save(result: dict[str, Any], opts: Options) -> None:
    """``results.json`` and ``results.md`` as measured so far, with the load average now."""
    result["load_average"] = busy.load_average()
    report.write(result, opts.out)


def run(opts: Options) -> dict[str, Any]:
    """The whole run: every size, every peer; the results as one dict (see ``report``)."""
    work = opts.work or Path(tempfile.mkdtemp(prefix="aikg-bench-"))
    work.mkdir(parents=True, exist_ok=True)
    options = {
        "sizes": opts.sizes,
        "peers": list(opts.peers),
        "seconds": opts.seconds,
        "connections": opts.connections,
        "seed": opts.seed,
        "reps": opts.reps,
        "busy": opts.busy,
        "answers": opts.answers,
        "fair": opts.fair,
        "writes": opts.writes,
        "skip": sorted(opts.skip),
    }
    result: dict[str, Any] = {"machine": machine(), "options": options, "sizes": []}
    try:
        # Each size measures the quiet machine, then (--busy) the busy one beside its loops.
        for label in opts.sizes:
            size: dict[str, Any] = {"size": label, "ended": [], "complete": False}
            result["sizes"].append(size)

            def keep(phase: str, size: dict[str, Any] = size) -> None:
                # A long run keeps each phase as it ends: a run stopped in its 10M mix had lost every
                # 10M figure, its load and misses included, when results were written per size.
                size["ended"].append(phase)
                _save(result, opts)

            run_size(label, opts, work, size, keep)
            size["complete"] = True
            _save(result, opts)
    finally:
        if opts.work is None:
            shutil.rmtree(work, ignore_errors=True)
    return result
