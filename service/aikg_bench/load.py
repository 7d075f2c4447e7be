"""Load time and peak memory of one loader, measured in a fresh process so peaks do not mix.

``python -m aikg.bench.load aikg|pyoxigraph DATA STORE_DIR [DUMP]`` prints one JSON line. The aikg path
is the one ``aikg load --bulk`` and the service use: the bulk loader, then the inferred and derived
graphs; with DUMP it also writes the whole store (derived graphs included) as N-Quads, the data every
peer then loads.
"""

from __future__ import annotations

import json
import resource
import subprocess
import sys
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


def _aikg(data: Path, store_dir: Path, dump: Path | None) -> dict[str, Any]:
    from aikg.knowledge.load import bulk_load
    from aikg.store import OxigraphStore

    start = time.perf_counter()
    store = OxigraphStore(store_dir)
    timings = bulk_load(store, data, progress=sys.stderr.isatty())
    quads = store.count()
    store.close()  # flushes to disk
    total = time.perf_counter() - start
    if dump is not None:
        reopened = OxigraphStore(store_dir)
        dump.write_bytes(reopened.dump(mime="application/n-quads"))
        reopened.close()
    return {"seconds": total, **timings, "quads": quads}


def _pyoxigraph(data: Path, store_dir: Path) -> dict[str, Any]:
    import pyoxigraph as ox

    start = time.perf_counter()
    store = ox.Store(str(store_dir))
    store.bulk_load(path=str(data), format=ox.RdfFormat.N_QUADS)
    store.flush()
    return {"seconds": time.perf_counter() - start, "quads": len(store)}


def measure(engine: str, data: Path, store_dir: Path, dump: Path | None = None) -> dict[str, Any]:
    """Run one loader in a child process; its time, quads and peak RSS (MB)."""
    cmd = [sys.executable, "-m", "aikg_bench.load", engine, str(data), str(store_dir)]
    if dump is not None:
        cmd.append(str(dump))
    out = subprocess.run(cmd, check=True, stdout=subprocess.PIPE, text=True).stdout
    measured: dict[str, Any] = json.loads(out.strip().splitlines()[-1])  # the child's last line
    return measured


def main(argv: list[str]) -> None:
    engine, data, store_dir = argv[0], Path(argv[1]), Path(argv[2])
    dump = Path(argv[3]) if len(argv) > 3 else None
    result = _aikg(data, store_dir, dump) if engine == "aikg" else _pyoxigraph(data, store_dir)
    print(json.dumps({**result, "peak_rss_mb": _peak_mb()}))


if __name__ == "__main__":
    main(sys.argv[1:])
