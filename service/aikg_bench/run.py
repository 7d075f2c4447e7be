"""One benchmark run: per size, generate, load (aikg vs pyoxigraph), then one mix on every server."""

from __future__ import annotations

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

from aikg_bench import inprocess, load, peers, report
from aikg_bench.generate import build_template, generate, parse_size
from aikg_bench.mix import Op, build_mix
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
    }


def request_for(server: str, op: Op, sparql_path: str = "/sparql") -> Request:
    """How ``server`` is asked for ``op``: aikg's own API, SPARQL for engines, "/" for the ceiling."""
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
        return Request(["/"], "POST" if op.is_write else "GET", body="hello" if op.is_write else None)
    if op.is_write:
        body = urlencode({"update": op.sparql[0]}).replace("%40N%40", "@N@")
        return Request([sparql_path], "POST", {"Content-Type": "application/x-www-form-urlencoded"}, body)
    accept = "text/turtle" if op.group == "export" else _SELECT
    return Request(
        [sparql_path + "?" + urlencode({"query": q}) for q in op.sparql], headers={"Accept": accept}
    )


def _mix_on(server: peers.Server, ops: list[Op], opts: Options) -> dict[str, Any]:
    results: dict[str, Any] = {}
    for op in ops:
        req = request_for(server.name, op, server.sparql_path)
        try:
            one = server.name == "rdflib-endpoint" or op.is_write  # the slowest: one cold answer is enough
            cold, status, text = probe(
                server.base,
                req,
                1 if one else len(req.paths),
                budget_s=max(10.0, 3 * opts.seconds),
                slow_ms=opts.slow * 1000,
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
            conns = 1 if op.is_write else opts.connections
            r = run_wrk(server.base, req, seconds=opts.seconds, connections=conns)
        except (RuntimeError, requests.RequestException) as exc:
            results[op.name] = {"error": str(exc)[:300]}
            opts.log(f"    {op.name:<40} failed: {exc}")
            continue
        r["cold_ms"] = statistics.median(cold)
        results[op.name] = r
        opts.log(
            f"    {op.name:<40} p50 {r['p50_ms']:9.2f} ms  p99 {r['p99_ms']:9.2f} ms  "
            f"{r['rps']:9.1f} req/s  cold {r['cold_ms']:8.1f} ms  errors {r['errors']}"
        )
    return results


def _search_build(base: str) -> float:
    """Seconds for the first search after start: the search index being built."""
    start = time.perf_counter()
    requests.get(base + "/api/search", params={"q": "zzz-index-build"}, timeout=300)
    return time.perf_counter() - start


def run_size(label: str, opts: Options, work: Path) -> dict[str, Any]:
    """Everything for one size; servers are stopped before it returns."""
    size = parse_size(label)
    out: dict[str, Any] = {"size": label, "target_quads": size}
    data = work / f"{label}.nq"
    t0 = time.perf_counter()
    gen = generate(data, size, seed=opts.seed)
    out["generate"] = {
        "seconds": time.perf_counter() - t0,
        "quads": gen.quads,
        "replicas": gen.replicas,
        "batches": gen.batches,
        "bytes": data.stat().st_size,
    }
    opts.log(
        f"[{label}] generated {gen.quads} quads ({gen.replicas} replicas, {gen.batches} batches) "
        f"in {out['generate']['seconds']:.1f} s"
    )
    ox_dir, aikg_dir, full = work / f"{label}-ox", work / f"{label}-aikg", work / f"{label}-full.nq"
    out["load"] = {
        "pyoxigraph": load.measure("pyoxigraph", data, ox_dir),
        "aikg": load.measure("aikg", data, aikg_dir, full),
    }
    la, lo = out["load"]["aikg"], out["load"]["pyoxigraph"]
    out["load"]["ratio"] = la["seconds"] / lo["seconds"]
    opts.log(
        f"[{label}] load: pyoxigraph bulk_load {lo['seconds']:.1f} s ({lo['peak_rss_mb']:.0f} MB), "
        f"aikg {la['seconds']:.1f} s (bulk {la['load_seconds']:.1f} + derive "
        f"{la['derive_seconds']:.1f}; "
        f"{la['peak_rss_mb']:.0f} MB)"
    )
    shutil.rmtree(ox_dir, ignore_errors=True)
    ops = build_mix(build_template(), gen.replicas, seed=opts.seed)
    if opts.ops is not None:
        ops = [op for op in ops if op.group in opts.ops]
    out["operations"] = [{"name": op.name, "group": op.group, "variants": len(op.paths)} for op in ops]
    out["peers"] = {}
    for name in opts.peers:
        opts.log(f"[{label}] {name}")
        try:
            out["peers"][name] = _peer(name, opts, ops, aikg_dir, full, size, work)
        except peers.Skipped as exc:
            out["peers"][name] = {"skipped": str(exc)}
            opts.log(f"    skipped: {exc}")
        except (RuntimeError, OSError, subprocess.SubprocessError, requests.RequestException) as exc:
            out["peers"][name] = {"failed": f"{type(exc).__name__}: {exc}"[:300]}
            opts.log(f"    failed: {exc}")
    shutil.rmtree(aikg_dir, ignore_errors=True)
    return out


def _peer(
    name: str, opts: Options, ops: list[Op], aikg_dir: Path, full: Path, size: int, work: Path
) -> dict[str, Any]:
    if name == "pyoxigraph":
        d = work / "floor"
        shutil.rmtree(d, ignore_errors=True)
        store = ox.Store(str(d))
        store.bulk_load(path=str(full), format=ox.RdfFormat.N_QUADS)
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
        if name == "aikg":
            server = peers.Aikg(aikg_dir)
        elif name == "flask-hello":
            server = peers.Hello()
        elif name == "flask-hello-threads":
            server = peers.HelloThreads()
        elif name == "rdflib-endpoint":
            server = peers.RdflibEndpoint(full)
        elif name == "virtuoso":
            server = peers.Virtuoso(full)
        else:
            raise peers.Skipped(f"unknown peer {name!r}")
        extra: dict[str, Any] = {}
        if server.load_seconds is not None:
            extra["load_seconds"] = server.load_seconds
        if name == "aikg":
            extra["search_index_build_seconds"] = _search_build(server.base)
        result = {"ops": _mix_on(server, ops, opts), **extra}
        result["peak_rss_mb"] = server.rss_mb()
        return result
    finally:
        if server is not None:
            server.stop()


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
    }
    result: dict[str, Any] = {"machine": machine(), "options": options, "sizes": []}
    try:
        for label in opts.sizes:
            result["sizes"].append(run_size(label, opts, work))
            report.write(result, opts.out)  # a long run keeps what it has measured so far
    finally:
        if opts.work is None:
            shutil.rmtree(work, ignore_errors=True)
    return result
