"""Small gated writes over HTTP, taken apart: what a 5-triple write costs when it is committed (201),
when the shapes refuse it (422: the SHACL gate runs, nothing is committed or published), and when its
body is bad (400: the HTTP worker alone); the GET of each committed graph right after its 201, which
waits for the snapshot that holds it (made after the answer); the CPU each serving process spent per
write; and the floor, pyoxigraph's plain insert of the same triples into the same store, in process.

    python -m aikg_bench.small_writes [--store DIR] [--writes 200] [--cases committed] [--no-read-back]

Without ``--store`` it builds the default store (the seeds and the Epoch AI snapshot, as a user's first
start does) in a temporary folder; a store given is written to (each run adds its own new graphs; the
floor's triples are removed again). The machine may be shared: every figure comes with the load average.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import pyoxigraph as ox
import requests

from aikg.resources import seeds_dir
from aikg.serving.app import VIEWS_START_DELAY
from aikg_bench.served import TOKEN, Served, load_average

ID = "https://w3id.org/aikg/id/"
ONTOLOGY = "https://w3id.org/aikg/ontology#"
RDFS = "http://www.w3.org/2000/01/rdf-schema#"
GRAPHS = "https://w3id.org/aikg/graph/sources/"


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


READ_BACK = "GET of the graph just written (waits for its snapshot)"
CASES = {"bad": 400, "refused": 422, "committed": 201}
TITLES = {
    "bad": "400 bad body (HTTP worker)",
    "refused": "422 refused by the shapes (writer, no commit)",
    "committed": "201 committed (writer: gate, commit; its snapshot after the answer)",
}


def _cpu_seconds(pid: int) -> float:
    """User and system CPU seconds a process has used (0 once it is gone)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _cpu_by_role(served: Served) -> dict[str, float]:
    spent: dict[str, float] = {}
    for pid, role in served.processes().items():
        spent[role] = spent.get(role, 0.0) + _cpu_seconds(pid)
    return spent


def settle(served: Served, limit: float = 300.0) -> float:
    """Wait until the serving processes are idle (under 5 % of a core for two seconds on end), and at
    least until the views processes have started (``VIEWS_START_DELAY`` after the HTTP workers; each then
    reads the whole graph for seconds), so the writes are measured in the steady state; the seconds
    waited."""
    began = time.monotonic()
    time.sleep(VIEWS_START_DELAY + 2)
    last, quiet = sum(_cpu_by_role(served).values()), 0
    while time.monotonic() - began < limit and quiet < 2:
        time.sleep(1.0)
        now = sum(_cpu_by_role(served).values())
        quiet = quiet + 1 if now - last < 0.05 else 0
        last = now
    return time.monotonic() - began


def measure(
    served: Served, writes: int, cases: list[str], *, read_back: bool, method: str
) -> tuple[dict[str, list[float]], dict[str, dict[str, float]]]:
    """Milliseconds of each request by case, and the CPU ms per request each process role spent."""
    base, run = served.base, int(time.time()) % 100_000
    session = requests.Session()
    headers = {"Authorization": f"Bearer {TOKEN}", "Content-Type": "text/turtle"}
    bodies: dict[str, Callable[[int], str]] = {
        "bad": lambda i: "<a> <b> .",
        "refused": lambda i: neocloud(f"Bench-Bad-{run}-{i}"),
        "committed": lambda i: neocloud(f"bench-write-{run}-{i}"),
    }
    times: dict[str, list[float]] = {}
    cpu: dict[str, dict[str, float]] = {}
    send = session.put if method == "put" else session.post
    for case in cases:
        status, name = CASES[case], TITLES[case]
        before = _cpu_by_role(served)
        for i in range(writes):
            graph = f"{GRAPHS}bench-write-{run}-{i}"
            start = time.perf_counter()
            r = send(base + "/data", params={"graph": graph}, data=body_of(bodies, case, i), headers=headers)
            times.setdefault(name, []).append((time.perf_counter() - start) * 1000)
            if r.status_code != status:
                raise RuntimeError(f"{name}: answered {r.status_code}: {r.text[:300]}")
            if status == 201 and read_back:  # read back at once: it waits for the write's snapshot
                start = time.perf_counter()
                r = session.get(base + "/data", params={"graph": graph}, headers={"Accept": "text/turtle"})
                times.setdefault(READ_BACK, []).append((time.perf_counter() - start) * 1000)
                if r.status_code != 200 or f"bench-write-{run}-{i}" not in r.text:
                    raise RuntimeError(f"{READ_BACK}: answered {r.status_code}: {r.text[:300]}")
        after = _cpu_by_role(served)
        cpu[name] = {role: (after[role] - before.get(role, 0.0)) * 1000 / writes for role in after}
    return times, cpu


def committed(base: str, token: str, writes: int = 20) -> dict[str, float | int]:
    """Median and slowest milliseconds of ``writes`` committed 5-triple writes (``POST /data`` of a new
    graph, 201 each), one after another on one connection: ``aikg bench``'s small gated write (issue
    49's goal: p50 ≤ 50 ms), on the server it has just measured."""
    run = int(time.time() * 1000) % 10_000_000
    headers = {"Authorization": f"Bearer {token}", "Content-Type": "text/turtle"}
    times: list[float] = []
    with requests.Session() as session:
        for i in range(writes):
            slug = f"bench-small-{run}-{i}"
            start = time.perf_counter()
            r = session.post(
                base + "/data", params={"graph": GRAPHS + slug}, data=neocloud(slug), headers=headers
            )
            times.append((time.perf_counter() - start) * 1000)
            if r.status_code != 201:
                raise RuntimeError(f"a small write answered {r.status_code}: {r.text[:300]}")
    return {"writes": writes, "p50_ms": round(statistics.median(times), 2), "max_ms": round(max(times), 2)}


def body_of(bodies: dict[str, Callable[[int], str]], case: str, i: int) -> str:
    return bodies[case](i)


def floor(store: Path, writes: int) -> list[float]:
    """Milliseconds of pyoxigraph's plain insert of the same five triples (one transaction each) into
    the same store, opened in process once the server has stopped; removed again after."""
    engine = ox.Store(str(store))
    run = int(time.time()) % 100_000
    times, done = [], []
    for i in range(writes):
        graph = ox.NamedNode(f"{GRAPHS}floor-{run}-{i}")
        quads = [
            ox.Quad(t.subject, t.predicate, t.object, graph)
            for t in ox.parse(neocloud(f"floor-{run}-{i}"), format=ox.RdfFormat.TURTLE)
        ]
        start = time.perf_counter()
        engine.extend(quads)
        times.append((time.perf_counter() - start) * 1000)
        done += quads
    for q in done:
        engine.remove(q)
    engine.flush()
    del engine
    return times


def _line(name: str, ms: list[float]) -> str:
    ordered = sorted(ms)
    p99 = ordered[min(len(ordered) - 1, round(0.99 * (len(ordered) - 1)))]
    return (
        f"{name}: p50 {statistics.median(ms):.1f} ms, p99 {p99:.1f} ms, min {ordered[0]:.1f} ms, "
        f"max {ordered[-1]:.1f} ms (n={len(ms)})"
    )


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--store", type=Path, help="a store folder nobody else serves (default: the default store)"
    )
    parser.add_argument("--writes", type=int, default=200)
    parser.add_argument(
        "--cases", default="bad,refused,committed", help="which of bad, refused, committed (in that order)"
    )
    parser.add_argument("--no-read-back", dest="read_back", action="store_false")
    parser.add_argument("--method", choices=("post", "put"), default="post")
    args = parser.parse_args()
    cases = [c for c in CASES if c in args.cases.split(",")]
    loads = [load_average()]
    with tempfile.TemporaryDirectory(prefix="aikg-writes-") as work:
        store = args.store
        if store is None:
            store = Path(work) / "store"
            cmd = [sys.executable, "-m", "aikg", "import", "epoch", str(seeds_dir() / "epoch")]
            cmd += ["--store", str(store)]
            subprocess.run(cmd, check=False, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        served = Served(store, Path(work) / "logs", env={"AIKG_IMPORT_EPOCH": "false"})
        try:
            deadline = time.monotonic() + 300
            while requests.get(served.base + "/api/health", timeout=10).json().get("writes") != "ready":
                if time.monotonic() > deadline:
                    raise RuntimeError("the writer did not take writes within 300 s")
                time.sleep(0.5)
            print(f"the server settled in {settle(served):.0f} s", flush=True)
            times, cpu = measure(served, args.writes, cases, read_back=args.read_back, method=args.method)
        finally:
            served.stop()
        loads.append(load_average())
        floor_ms = floor(store, args.writes)
    for name, ms in times.items():
        print(_line(name, ms))
        if name in cpu:
            print(
                "    CPU ms per request: " + ", ".join(f"{r} {v:.1f}" for r, v in sorted(cpu[name].items()))
            )
    print(_line("floor: pyoxigraph in process, extend() of the same 5 triples", floor_ms))
    print(f"load average before {loads[0]}, after {loads[1]}")


if __name__ == "__main__":
    main()
