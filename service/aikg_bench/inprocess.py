"""The engine floor: the same SPARQL run in-process on pyoxigraph, with no HTTP and no service around it."""

from __future__ import annotations

import random
import statistics
import time
from typing import Any

import pyoxigraph as ox

from aikg_bench.mix import Op, fresh


def _run(store: ox.Store, text: str, write: bool) -> None:
    if write:
        store.update(text)
        return
    res = store.query(text)  # the default graph: the merge of the named graphs, as aikg keeps it
    if not isinstance(res, ox.QueryBoolean):
        for _ in res:
            pass


def measure(
    store: ox.Store, op: Op, *, seconds: float, max_runs: int = 2000, seed: int = 42
) -> dict[str, Any]:
    """Run the operation's variants one after another for about ``seconds``: p50, p99, runs per second."""
    rng = random.Random(seed)
    times: list[float] = []
    end = time.perf_counter() + seconds
    n = 0
    while (not times or time.perf_counter() < end) and n < max_runs:
        text = rng.choice(op.sparql)
        if op.is_write:
            text = fresh(text, f"i{n}")
        start = time.perf_counter()
        _run(store, text, op.is_write)
        times.append(time.perf_counter() - start)
        n += 1
    times.sort()
    return {
        "p50_ms": statistics.median(times) * 1000,
        "p99_ms": times[min(len(times) - 1, int(len(times) * 0.99))] * 1000,
        "rps": len(times) / sum(times) if sum(times) else 0.0,
        "requests": len(times),
        "errors": 0,
        "cold_ms": times[0] * 1000,
    }
