"""Small gated writes over HTTP, taken apart: what a 5-triple PUT costs when it is committed (201), when
the shapes refuse it (422: the SHACL gate runs, nothing is committed or published), and when its body
is bad (400: the HTTP worker alone); and the GET of each committed graph right after its 201, which
waits for the snapshot that holds it (made after the answer).

    python -m aikg_bench.small_writes [--store DIR] [--writes 40]

Without ``--store`` it builds the default store (the seeds and the Epoch AI snapshot, as a user's first
start does) in a temporary folder; a store given is written to (each run adds its own new graphs).
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import requests

from aikg.resources import seeds_dir
from aikg_bench.served import TOKEN, Served

ID = "https://w3id.org/aikg/id/"
ONTOLOGY = "https://w3id.org/aikg/ontology#"
RDFS = "http://www.w3.org/2000/01/rdf-schema#"


def neocloud(slug: str) -> str:
    """Five triples of a new neocloud (a slug with a capital letter is refused by the shapes)."""
    s = f"<{ID}{slug}>"
    return "\n".join(
        [
            f"{s} a <{ONTOLOGY}Neocloud> .",
            f'{s} <{RDFS}label> "{slug}"@en .',
            f'{s} <{RDFS}label> "{slug} 云"@zh .',
            f'{s} <http://www.w3.org/2004/02/skos/core#altLabel> "{slug.upper()}" .',
            f'{s} <{RDFS}comment> "A synthetic neocloud (aikg bench)."@en .',
        ]
    )


def measure(base: str, writes: int) -> dict[str, list[float]]:
    """Milliseconds of each request, by case."""
    run = int(time.time()) % 100_000
    session = requests.Session()
    headers = {"Authorization": f"Bearer {TOKEN}", "Content-Type": "text/turtle"}
    cases: dict[str, tuple[Callable[[int], str], int]] = {
        "400 bad body (HTTP worker)": (lambda i: "<a> <b> .", 400),
        "422 refused by the shapes (writer, no commit)": (lambda i: neocloud(f"Bench-Bad-{run}-{i}"), 422),
        "201 committed (writer: gate, commit; its snapshot after the answer)": (
            lambda i: neocloud(f"bench-write-{run}-{i}"),
            201,
        ),
    }
    times: dict[str, list[float]] = {}
    for name, (body, status) in cases.items():
        for i in range(writes):
            graph = f"https://w3id.org/aikg/graph/sources/bench-write-{run}-{i}"
            start = time.perf_counter()
            r = session.put(
                base + "/data", params={"graph": graph}, data=body(i), headers=headers, timeout=60
            )
            times.setdefault(name, []).append((time.perf_counter() - start) * 1000)
            if r.status_code != status:
                raise RuntimeError(f"{name}: answered {r.status_code}: {r.text[:300]}")
            if status == 201:  # read back at once: it waits for the write's snapshot if need be
                start = time.perf_counter()
                r = session.get(
                    base + "/data", params={"graph": graph}, headers={"Accept": "text/turtle"}, timeout=60
                )
                times.setdefault(READ_BACK, []).append((time.perf_counter() - start) * 1000)
                if r.status_code != 200 or f"bench-write-{run}-{i}" not in r.text:
                    raise RuntimeError(f"{READ_BACK}: answered {r.status_code}: {r.text[:300]}")
    return times


READ_BACK = "GET of the graph just written (waits for its snapshot)"


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--store", type=Path, help="a store folder nobody else serves (default: the default store)"
    )
    parser.add_argument("--writes", type=int, default=40)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="aikg-writes-") as work:
        store = args.store
        if store is None:
            store = Path(work) / "store"
            cmd = [
                sys.executable,
                "-m",
                "aikg",
                "import",
                "epoch",
                str(seeds_dir() / "epoch"),
                "--store",
                str(store),
            ]
            subprocess.run(cmd, check=False, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        served = Served(store, Path(work) / "logs", env={"AIKG_IMPORT_EPOCH": "false"})
        try:
            deadline = time.monotonic() + 300
            while requests.get(served.base + "/api/health", timeout=10).json().get("writes") != "ready":
                if time.monotonic() > deadline:
                    raise RuntimeError("the writer did not take writes within 300 s")
                time.sleep(0.5)
            times = measure(served.base, args.writes)
        finally:
            served.stop()
    for name, ms in times.items():
        print(
            f"{name}: p50 {statistics.median(ms):.0f} ms, min {min(ms):.0f} ms, "
            f"max {max(ms):.0f} ms (n={len(ms)})"
        )
    print(f"load average {Path('/proc/loadavg').read_text().split()[:3]}")


if __name__ == "__main__":
    main()
