"""Load time and peak memory of one loader, measured in a fresh process so peaks do not mix.

``python -m aikg_bench.load aikg|pyoxigraph DATA STORE_DIR [DUMP]`` prints one JSON line. The aikg path
is the one ``aikg load --bulk`` and the service use: the bulk loader, then the inferred and derived
graphs; with DUMP it also writes the whole store (derived graphs included) as N-Quads, the data every
peer then loads.

``python -m aikg_bench.load compare SIZE WORK [ROUNDS]`` measures the load goal alone (issue 49: time
and peak memory within 1.5x of ``bulk_load``), without the rest of ``aikg bench``: SIZE is ``default``
(the default store's dump), a size such as ``1M`` (generated as the benchmark generates it) or an
N-Quads file; each round loads it with pyoxigraph, then with aikg, each in a fresh process, and prints
one JSON line with both and their ratios (compare ratios within a round: the host is shared).
"""

from __future__ import annotations

import json
import os
import resource
import shutil
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any


def _peak_mb() -> float:
    """This process's own peak resident memory. Not ``getrusage``: Linux keeps its maximum across
    ``exec``, so a child would report the benchmark process's peak whenever that was higher."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def _cpu_s() -> float:
    """CPU seconds this process has used (every thread's, user and system): on a shared host the wall
    time of a load follows the other work, its CPU much less."""
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def _rss_mb() -> float:
    """This process's resident memory now. Not ``aikg_bench.served.rss_mb``: that module imports
    ``requests``, whose memory the loader's peak would then count."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


class _Sampler(threading.Thread):
    """This process's resident memory every 0.2 s, to tell which part of a load holds the peak."""

    def __init__(self) -> None:
        super().__init__(daemon=True)
        self.samples: list[tuple[float, float]] = []
        self.stop = threading.Event()

    def run(self) -> None:
        while not self.stop.wait(0.2):
            self.samples.append((time.perf_counter(), _rss_mb()))

    def peak_between(self, begin: float, end: float) -> float:
        return round(max((mb for t, mb in self.samples if begin <= t <= end), default=0.0), 1)


def _aikg(data: Path, store_dir: Path, dump: Path | None) -> dict[str, Any]:
    from aikg.knowledge.load import bulk_load
    from aikg.store import OxigraphStore

    sampler = _Sampler()
    sampler.start()
    start = time.perf_counter()
    store = OxigraphStore(store_dir)
    timings = bulk_load(store, data, progress=sys.stderr.isatty())
    bulk_end = start + timings["load_seconds"]
    sampler.stop.set()
    timings["load_peak_mb"] = sampler.peak_between(start, bulk_end)
    timings["derive_peak_mb"] = sampler.peak_between(bulk_end, time.perf_counter())
    quads = store.count()
    store.close()  # flushes to disk
    total = time.perf_counter() - start
    # The peak is read before the dump: the dump is the benchmark's (the data every peer then loads),
    # not the load's, and at 10M holding the whole store's N-Quads would add gigabytes to the figure.
    peak, cpu = _peak_mb(), _cpu_s()
    if dump is not None:
        reopened = OxigraphStore(store_dir)
        dump.write_bytes(reopened.dump(mime="application/n-quads"))
        reopened.close()
    return {"seconds": total, "cpu_seconds": cpu, **timings, "quads": quads, "peak_rss_mb": peak}


def _pyoxigraph(data: Path, store_dir: Path) -> dict[str, Any]:
    import pyoxigraph as ox

    start = time.perf_counter()
    store = ox.Store(str(store_dir))
    store.bulk_load(path=str(data), format=ox.RdfFormat.N_QUADS)
    store.flush()
    seconds = time.perf_counter() - start
    return {"seconds": seconds, "cpu_seconds": _cpu_s(), "quads": len(store), "peak_rss_mb": _peak_mb()}


def measure(engine: str, data: Path, store_dir: Path, dump: Path | None = None) -> dict[str, Any]:
    """Run one loader in a child process; its time, quads and peak RSS (MB)."""
    cmd = [sys.executable, "-m", "aikg_bench.load", engine, str(data), str(store_dir)]
    if dump is not None:
        cmd.append(str(dump))
    out = subprocess.run(cmd, check=True, stdout=subprocess.PIPE, text=True).stdout
    measured: dict[str, Any] = json.loads(out.strip().splitlines()[-1])  # the child's last line
    return measured


def compare(size: str, work: Path, rounds: int = 1) -> list[dict[str, Any]]:
    """``rounds`` rounds of pyoxigraph's ``bulk_load`` then aikg's load of the same data, each printed."""
    from aikg_bench import default  # here, not above: the measured children import this module
    from aikg_bench.generate import generate, parse_size

    work.mkdir(parents=True, exist_ok=True)
    data = Path(size)
    if not data.is_file():
        data = work / f"{size}.nq"
        if size == default.LABEL and not data.is_file():
            default.build(data, work)
        elif not data.is_file():
            generate(data, parse_size(size))
    out = []
    for n in range(1, rounds + 1):
        line: dict[str, Any] = {"round": n, "data": str(data), "load_average": os.getloadavg()[0]}
        for engine in ("pyoxigraph", "aikg"):
            store_dir = work / f"load-{engine}"
            line[engine] = measure(engine, data, store_dir)
            shutil.rmtree(store_dir, ignore_errors=True)
            shutil.rmtree(store_dir.with_name(store_dir.name + ".snapshots"), ignore_errors=True)
        line["ratio"] = round(line["aikg"]["seconds"] / line["pyoxigraph"]["seconds"], 2)
        line["cpu_ratio"] = round(line["aikg"]["cpu_seconds"] / line["pyoxigraph"]["cpu_seconds"], 2)
        line["memory_ratio"] = round(line["aikg"]["peak_rss_mb"] / line["pyoxigraph"]["peak_rss_mb"], 2)
        print(json.dumps(line), flush=True)
        out.append(line)
    return out


def main(argv: list[str]) -> None:
    if argv[0] == "compare":
        compare(argv[1], Path(argv[2]), int(argv[3]) if len(argv) > 3 else 1)
        return
    engine, data, store_dir = argv[0], Path(argv[1]), Path(argv[2])
    dump = Path(argv[3]) if len(argv) > 3 else None
    result = _aikg(data, store_dir, dump) if engine == "aikg" else _pyoxigraph(data, store_dir)
    print(json.dumps(result))


if __name__ == "__main__":
    main(sys.argv[1:])
