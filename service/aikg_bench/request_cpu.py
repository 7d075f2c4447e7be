"""CPU per cached request: aikg's HTTP workers against the bare Flask ceiling, read from /proc.

On a machine shared with other work, requests per second under wrk measure the machine as much as the
server (at load 15-20 the bare app's sync workers got fewer requests per second than aikg in some runs).
The CPU a server's processes spend per request answered does not depend on how much of the cores they
got, so this measure compares the request path itself: for each path, wrk runs against ``aikg serve``
(after a few requests so the answer is cached) and against ``aikg_bench.hello`` answering a body of the
same size, and each server's CPU time (user + system, from ``/proc/<pid>/stat``) over the run is divided
by the requests wrk counted. For aikg only its HTTP workers count (gunicorn's workers that have a query
worker child), not the writer, the query workers or the views processes starting beside them.

    python -m aikg_bench.request_cpu STORE_DIR [ROUNDS] [SECONDS] [PATH ...]

The store is served as a copy. To compare two versions of the code, run it with ``PYTHONPATH`` at a
checkout of each (``PYTHONPATH=OLD/service python -m aikg_bench.request_cpu ...``), in turn.
"""

from __future__ import annotations

import os
import shutil
import statistics
import sys
import tempfile
from pathlib import Path

import requests

from aikg_bench import peers
from aikg_bench.wrk import Request, run_wrk

PATHS = (
    "/api/entities/lambda",
    "/api/queries/holdings-of-organization?org=coreweave",
    "/api/queries/models-trained-on?accelerator=h100",
)
"""An entity lookup and two cached named queries (the worst of the last bench run, and a large one)."""

JSON = {"Accept": "application/json"}


def children(pid: int) -> list[int]:
    """The process ids whose parent is ``pid``."""
    out = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
                out.append(int(entry.name))
    return out


def cpu_ms(pids: list[int]) -> float:
    """User + system CPU milliseconds the processes have used so far (ended ones count 0)."""
    total = 0
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += int(fields[11]) + int(fields[12])
    return total * 1000 / os.sysconf("SC_CLK_TCK")


def http_workers(master: int) -> list[int]:
    """aikg's HTTP workers: the children of gunicorn's master that have a query worker of their own."""

    def is_query_worker(pid: int) -> bool:
        try:
            return b"aikg.query.workers" in Path(f"/proc/{pid}/cmdline").read_bytes()
        except OSError:
            return False

    return [pid for pid in children(master) if any(is_query_worker(k) for k in children(pid))]


def per_request(base: str, path: str, pids: list[int], seconds: float) -> tuple[float, float]:
    """Microseconds of CPU per request and requests per second, wrk with 8 connections on ``path``."""
    before = cpu_ms(pids)
    r = run_wrk(base, Request([path], headers=JSON), seconds=seconds, connections=8)
    used = cpu_ms(pids) - before
    return used * 1000 / max(r["requests"], 1), r["rps"]


def main(argv: list[str]) -> None:
    store = Path(argv[0])
    rounds = int(argv[1]) if len(argv) > 1 else 2
    seconds = float(argv[2]) if len(argv) > 2 else 5.0
    paths = argv[3:] or list(PATHS)
    with tempfile.TemporaryDirectory(prefix="aikg-request-cpu-") as work:
        copy = Path(work) / "store"
        shutil.copytree(store, copy)
        aikg, hello = peers.Aikg(copy), peers.Hello()
        try:
            assert aikg.proc is not None and hello.proc is not None
            workers, bare = http_workers(aikg.proc.pid), [hello.proc.pid, *children(hello.proc.pid)]
            sizes = {}
            for path in paths:
                for _ in range(7):  # each HTTP worker has a response cache of its own
                    r = requests.get(aikg.base + path, headers=JSON, timeout=60)
                sizes[path] = len(r.content)
            lines: dict[str, list[tuple[float, float]]] = {p: [] for p in paths}
            for _ in range(rounds):
                for path in paths:
                    mine, _rps = per_request(aikg.base, path, workers, seconds)
                    theirs, _ = per_request(hello.base, f"/bytes/{sizes[path]}", bare, seconds)
                    lines[path].append((mine, theirs))
        finally:
            aikg.stop()
            hello.stop()
    print(f"load average {os.getloadavg()[0]:.1f}; CPU us per request, aikg / bare Flask (same body size)")
    for path, pairs in lines.items():
        ratio = statistics.median(b / a for a, b in pairs)
        shown = ", ".join(f"{a:.0f} / {b:.0f}" for a, b in pairs)
        print(f"{path:56} {sizes[path]:8d} B  {shown}  bare/aikg {ratio:.2f}")


if __name__ == "__main__":
    main(sys.argv[1:])
