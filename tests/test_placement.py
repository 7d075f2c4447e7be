"""Where heavy work runs (aikg.placement): the lowest priority, every core but one."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from aikg import placement

THREADS = (
    "import threading, time\nfor _ in range(3): threading.Thread(target=time.sleep, args=(60,)).start()\n"
)


def test_heavy_work_keeps_off_the_lowest_core(monkeypatch):
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: {0, 1, 2, 3})
    assert placement.heavy_cores() == {1, 2, 3}
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: {2, 5})
    assert placement.heavy_cores() == {5}
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: {3})  # one core: nothing to keep free
    assert placement.heavy_cores() == {3}


@pytest.mark.skipif(len(os.sched_getaffinity(0)) < 2, reason="needs two cores to keep one free")
def test_place_moves_every_thread_of_a_process():
    """Linux keeps priority and cores per thread: a process's threads started before are moved too."""
    child = subprocess.Popen([sys.executable, "-c", THREADS + "time.sleep(60)"])
    try:
        tasks = Path(f"/proc/{child.pid}/task")
        end = time.monotonic() + 30
        while len(list(tasks.iterdir())) < 4 and time.monotonic() < end:
            time.sleep(0.01)
        before = os.getpriority(os.PRIO_PROCESS, child.pid)
        assert placement.place(child.pid, placement.LONG_NICENESS, placement.heavy_cores())
        for task in tasks.iterdir():
            assert os.getpriority(os.PRIO_PROCESS, int(task.name)) == placement.LONG_NICENESS
            assert os.sched_getaffinity(int(task.name)) == placement.heavy_cores()
        assert before < placement.LONG_NICENESS
    finally:
        child.kill()
        child.wait()
    assert not placement.place(child.pid, placement.LONG_NICENESS, placement.heavy_cores())  # it ended


def test_run_below_runs_on_a_thread_of_its_own_at_the_lowest_priority_on_the_heavy_cores():
    """What a large body's compression runs on: the caller's thread keeps its priority and cores (a
    lowered priority is never raised again without privileges), errors come back to the caller."""
    me = threading.get_native_id()
    before = (os.getpriority(os.PRIO_PROCESS, me), os.sched_getaffinity(0))
    seen = placement.run_below(
        lambda: (threading.get_native_id(), os.getpriority(os.PRIO_PROCESS, 0), os.sched_getaffinity(0))
    )
    assert seen[0] != me
    assert seen[1:] == (placement.LONG_NICENESS, placement.heavy_cores())
    assert (os.getpriority(os.PRIO_PROCESS, me), os.sched_getaffinity(0)) == before
    with pytest.raises(ValueError):
        placement.run_below(lambda: int("not a number"))


@pytest.mark.skipif(len(os.sched_getaffinity(0)) < 2, reason="needs two cores to keep one free")
def test_a_query_worker_starts_as_heavy_work_and_takes_jobs_on_every_core():
    """A worker's start (a quarter of a second of imports, then its snapshot) replaced a killed runaway
    query's every few seconds under hostile load: it runs on the heavy cores from its first instruction,
    at its jobs' priority, and moves to every core once it is handed out."""
    from aikg.query.workers import NICENESS, WorkerPool

    base = os.getpriority(os.PRIO_PROCESS, 0) + NICENESS
    pool = WorkerPool(1)
    try:
        worker = pool._start()
        pid = worker.process.pid
        seen = (os.getpriority(os.PRIO_PROCESS, pid), os.sched_getaffinity(pid))
        assert not worker.conn.poll(0)  # still importing: what was seen is where its start runs
        assert seen == (base, placement.heavy_cores())
        assert worker.wait_ready(30)
        pool._give_back(worker)
        tasks = list(Path(f"/proc/{pid}/task").iterdir())
        assert {os.getpriority(os.PRIO_PROCESS, int(t.name)) for t in tasks} == {base}
        assert all(os.sched_getaffinity(int(t.name)) == placement.all_cores() for t in tasks)
    finally:
        pool.close()
