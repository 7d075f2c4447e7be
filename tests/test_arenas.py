"""Serving processes run with few malloc arenas (aikg.serving.arenas): the soak's HTTP workers grew
48 % in 10 minutes with glibc's default of eight per core, 18 % with two."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap

import pytest

ALLOCATING_THREADS = textwrap.dedent(
    """
    import ctypes, sys, threading
    from aikg.serving.arenas import cap_arenas
    cap_arenas(int(sys.argv[1]))
    barrier = threading.Barrier(16)
    def churn():
        barrier.wait()  # all at once: contention is what makes glibc hand out new arenas
        for _ in range(3000):
            blocks = [bytearray(512) for _ in range(64)]
            del blocks
    threads = [threading.Thread(target=churn) for _ in range(16)]
    for t in threads: t.start()
    for t in threads: t.join()
    ctypes.CDLL("libc.so.6").malloc_stats()  # one "Arena N:" paragraph per arena, on stderr
    """
)


def arenas_used(cap: int) -> int:
    env = {k: v for k, v in os.environ.items() if k != "MALLOC_ARENA_MAX"}
    done = subprocess.run(
        [sys.executable, "-c", ALLOCATING_THREADS, str(cap)],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    return sum(line.startswith("Arena ") for line in done.stderr.splitlines())


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="glibc's malloc")
def test_a_capped_process_keeps_to_its_arenas_where_the_default_spreads():
    assert arenas_used(2) <= 2
    assert arenas_used(0) > 2  # glibc's default, so the cap is what made the difference


def test_a_served_query_worker_starts_with_the_cap_in_its_environment(live_server):
    import requests

    from helpers import descendants

    assert (
        requests.get(live_server.url + "/sparql", params={"query": "ASK {}"}, timeout=30).status_code == 200
    )
    started = []  # processes exec'd by aikg serve (query workers) read the cap from their environment
    for pid in descendants(live_server.proc.pid):
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as cmd, open(f"/proc/{pid}/environ", "rb") as env:
                started.append(
                    (b"aikg.query" in cmd.read(), b"MALLOC_ARENA_MAX=2" in env.read().split(b"\0"))
                )
        except OSError:
            continue  # ended meanwhile
    assert [capped for worker, capped in started if worker] and all(c for w, c in started if w)
