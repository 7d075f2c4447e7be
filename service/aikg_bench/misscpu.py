"""CPU a named query's miss costs each process, beside its wall time: what a loaded machine does not blur.

On a shared machine the wall time of a millisecond answer is mostly waiting for a core (each hand-off
between the HTTP side and the query worker is a wake-up), and it varies several-fold from one minute to
the next; the CPU each side spends does not. For each named query, ``GET /api/queries/<name>`` through the
app with its response cache cleared (as ``aikg_bench.rowtax`` asks it), timed with the CPU clock of the
asking thread (the HTTP side: Flask, the view, the runner) and the CPU clocks of the query worker
processes, beside pyoxigraph in its own process on the same store and the text aikg runs (self-timed),
both asked for the row cap's rows (:func:`aikg_bench.rowtax.app_path`). Medians.

    python -m aikg_bench.misscpu STORE_DIR [REQUESTS] [NAME,NAME,...]
"""

from __future__ import annotations

import statistics
import sys
import time
from typing import Any

from aikg.placement import process_cpu_seconds
from aikg_bench.mix import PARAMS
from aikg_bench.rowtax import Session, app_path, engine_text, session

SMALL = (
    "epoch-as-of",
    "topology-hop-counts",
    "prices-without-currency",
    "speedup-claims",
    "deals-of-organization",
    "investments-by-investor",
)
"""The default store's millisecond answers: where a fixed cost shows."""


def measure(s: Session, name: str, requests: int) -> dict[str, Any]:
    """Median wall ms, HTTP-side CPU ms, worker CPU ms and pyoxigraph ms of ``requests`` misses."""
    query = s.services.named.all()[name]
    raw = s.bindings(query, PARAMS)
    cap = s.services.runner.max_rows  # both sides answer the same rows (aikg_bench.rowtax.app_path)
    text = engine_text(query, raw, cap)  # the text aikg runs, as the bench's row gives it to pyoxigraph
    path = app_path(name, raw, cap)
    pool = s.services.runner.pool

    def http() -> None:
        s.services.responses.clear()
        r = s.client.get(path, headers={"Accept": "application/json"})
        if r.status_code != 200:
            raise RuntimeError(f"{name}: HTTP {r.status_code}")

    for _ in range(5):  # the worker's snapshot opened, the text's plan kept: not what is measured
        http()
        s.engine.run(text, {}, s.union)
    rows: list[tuple[float, float, float, float]] = []
    for _ in range(requests):
        pids = pool.pids()
        worker = sum(process_cpu_seconds(p) for p in pids)
        cpu, start = time.thread_time(), time.perf_counter()
        http()
        wall, cpu = time.perf_counter() - start, time.thread_time() - cpu
        worker = sum(process_cpu_seconds(p) for p in pids) - worker
        engine = s.engine.run(text, {}, s.union)[1]
        rows.append((wall, cpu, worker, engine))
    medians = [round(statistics.median(c) * 1000, 3) for c in zip(*rows, strict=True)]
    wall_ms, http_ms, worker_ms, engine_ms = medians
    return {
        "query": name,
        "wall_ms": wall_ms,
        "http_cpu_ms": http_ms,
        "worker_cpu_ms": worker_ms,
        "pyoxigraph_ms": engine_ms,
        "cpu_ratio": round((http_ms + worker_ms) / engine_ms, 2) if engine_ms else None,
    }


def main(argv: list[str]) -> None:
    requests = int(argv[1]) if len(argv) > 1 else 60
    names = argv[2].split(",") if len(argv) > 2 else list(SMALL)
    print(f"{'query':28} {'wall':>7} {'http cpu':>9} {'worker cpu':>11} {'pyoxigraph':>11} {'cpu ratio':>10}")
    with session(argv[0]) as s:
        for name in names:
            m = measure(s, name, requests)
            print(
                f"{name:28} {m['wall_ms']:7.2f} {m['http_cpu_ms']:9.2f} {m['worker_cpu_ms']:11.2f} "
                f"{m['pyoxigraph_ms']:11.2f} {m['cpu_ratio']:10.2f}",
                flush=True,
            )


if __name__ == "__main__":
    main(sys.argv[1:])
