"""How keep-alive connections spread over ``aikg serve``'s HTTP workers.

A client that keeps its connections (wrk, a pool) is served by the workers that accepted them. On one
listening socket shared by the workers, whichever woke first took the whole backlog, and all of wrk's
connections often landed on one worker: one core served them. Each worker now listens on a socket of
its own (SO_REUSEPORT) and the kernel spreads the connections. This runs wrk several times against a
server with two HTTP workers and counts, midway through each run, each worker's open connections to the
port (from /proc):

    python -m aikg_bench.balance [--store DIR] [--runs 25] [--connections 8] [--path /api/health]

Without ``--store`` it serves a new store of the seeds (no Epoch import) in a temporary folder.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import re
import statistics
import subprocess
import tempfile
import time
from pathlib import Path

from aikg_bench.served import Served

RUN_SECONDS = 4
"""Each wrk run; the connections are counted halfway through."""


def _sockets_on(port: int) -> dict[str, str]:
    """The TCP sockets (IPv4) whose local port is ``port``: inode -> state ("0A" listening, "01" open)."""
    found: dict[str, str] = {}
    for line in Path("/proc/net/tcp").read_text().splitlines()[1:]:
        fields = line.split()
        if int(fields[1].rsplit(":", 1)[1], 16) == port:
            found[fields[9]] = fields[3]
    return found


def _socket_inodes(pid: int) -> set[str]:
    """The inodes of the sockets ``pid`` holds open."""
    found: set[str] = set()
    with contextlib.suppress(OSError):
        for fd in Path(f"/proc/{pid}/fd").iterdir():
            with contextlib.suppress(OSError):
                link = os.readlink(fd)
                if link.startswith("socket:["):
                    found.add(link[8:-1])
    return found


def measure(served: Served, runs: int, connections: int, path: str) -> list[tuple[list[int], float]]:
    """For each wrk run: the open connections each HTTP worker held midway, and wrk's requests/s."""
    workers = sorted(pid for pid, role in served.processes().items() if role == "http-worker")
    listening = {i for i, state in _sockets_on(served.port).items() if state == "0A"}
    print(f"HTTP workers {workers}; listening sockets {len(listening)}", flush=True)
    results = []
    for run in range(runs):
        wrk = subprocess.Popen(
            ["wrk", "-t2", f"-c{connections}", f"-d{RUN_SECONDS}s", served.base + path],
            stdout=subprocess.PIPE,
            text=True,
        )
        time.sleep(RUN_SECONDS / 2)
        open_ones = {i for i, state in _sockets_on(served.port).items() if state == "01"}
        held = [len(_socket_inodes(pid) & open_ones) for pid in workers]
        out = wrk.communicate()[0]
        rate = re.search(r"Requests/sec:\s+([\d.]+)", out)
        results.append((held, float(rate.group(1)) if rate else 0.0))
        print(f"run {run + 1}: connections per worker {held}, {results[-1][1]:,.0f} req/s", flush=True)
    return results


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--store", type=Path, help="a store folder nobody else serves (default: a new one)")
    parser.add_argument("--runs", type=int, default=25)
    parser.add_argument("--connections", type=int, default=8)
    parser.add_argument("--path", default="/api/health")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="aikg-balance-") as work:
        store = args.store or Path(work) / "store"
        served = Served(
            store, Path(work) / "logs", env={"AIKG_IMPORT_EPOCH": "false"}, args=["--workers", "2"]
        )
        try:
            results = measure(served, args.runs, args.connections, args.path)
        finally:
            served.stop()
    one_sided = [rate for held, rate in results if min(held) == 0]
    spread = [rate for held, rate in results if min(held) > 0]
    print(f"all connections on one worker in {len(one_sided)} of {len(results)} runs")
    for name, rates in (("one worker", one_sided), ("both workers", spread)):
        if rates:
            print(f"  {name}: median {statistics.median(rates):,.0f} req/s over {len(rates)} runs")
    print(f"load average {Path('/proc/loadavg').read_text().split()[:3]}")


if __name__ == "__main__":
    main()
