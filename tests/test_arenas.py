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


FREED_AND_GIVEN_BACK = textwrap.dedent(
    """
    import sys
    from aikg.serving.arenas import give_back

    def rss():
        for line in open("/proc/self/status"):
            if line.startswith("VmRSS"):
                return int(line.split()[1]) // 1024

    kept, freed = [], []
    for i in range(300_000):  # ~300 MB of malloc'd blocks, one in fifty kept: the heap cannot shrink
        (kept if i % 50 == 0 else freed).append(bytes(1000 + i % 7))
    freed.clear()
    before = rss()
    returned = give_back()
    print(before, rss(), returned)
    """
)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="glibc's malloc")
def test_freed_memory_is_given_back_to_the_system():
    """What a burst freed stays resident until it is given back (the soak's slow RSS growth)."""
    done = subprocess.run(
        [sys.executable, "-c", FREED_AND_GIVEN_BACK], capture_output=True, text=True, check=True
    )
    before, after, returned = done.stdout.split()
    assert returned == "True"
    assert int(before) > 200 and int(after) < int(before) / 3, done.stdout


class _Idle:
    """The state of an HTTP worker that giving memory back reads."""

    def __init__(self, running: int) -> None:
        self._running, self._give_back_at = running, 0.0


def test_an_http_worker_gives_memory_back_only_when_idle_and_not_too_often(monkeypatch):
    from aikg.serving import worker

    calls = []
    monkeypatch.setattr(worker, "give_back", lambda: calls.append(1) or True)
    busy, idle = _Idle(running=1), _Idle(running=0)
    worker.Worker._give_back_when_idle(busy)
    assert calls == []  # a request runs: malloc's locks are left alone
    for _ in range(5):
        worker.Worker._give_back_when_idle(idle)
    assert calls == [1]  # then not again before GIVE_BACK_EVERY
    idle._give_back_at = 0.0
    worker.Worker._give_back_when_idle(idle)
    assert calls == [1, 1]


def test_the_views_process_gives_memory_back_when_its_last_request_ends(monkeypatch):
    """Regression: the views processes kept the high water of every hub view (+20 % in the soak)."""
    from aikg.serving import views

    calls: list[int] = []
    monkeypatch.setattr(views, "give_back", lambda: calls.append(1) or True)
    running = views._Running()
    running.start()
    running.start()
    running.end()
    assert calls == []  # another request still runs: malloc_trim would hold malloc's locks under it
    running.end()
    assert calls == [1]
