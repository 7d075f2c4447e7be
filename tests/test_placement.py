"""Where heavy work runs (aikg.placement): below cheap work but never starved, every core but one."""

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


def test_run_below_runs_on_a_thread_of_its_own_as_heavy_work_on_the_heavy_cores():
    """What a large body's compression runs on: the caller's thread keeps its priority and cores (a
    lowered priority is never raised again without privileges), errors come back to the caller."""
    me = threading.get_native_id()
    before = (os.getpriority(os.PRIO_PROCESS, me), os.sched_getaffinity(0))
    yielding = placement.YIELDING_NICENESS if placement.may_raise_to(before[0]) else before[0]
    seen = placement.run_below(
        lambda: (threading.get_native_id(), os.getpriority(os.PRIO_PROCESS, 0), os.sched_getaffinity(0))
    )
    assert seen[0] != me
    assert seen[1:] == (yielding, placement.heavy_cores())  # it had its share before it began
    assert (os.getpriority(os.PRIO_PROCESS, me), os.sched_getaffinity(0)) == before
    with pytest.raises(ValueError):
        placement.run_below(lambda: int("not a number"))


class Clock:
    """Wall time and CPU time that the test moves by hand."""

    def __init__(self) -> None:
        self.now, self.cpu = 100.0, 7.0

    def run(self, seconds: float, share: float) -> None:
        self.now += seconds
        self.cpu += seconds * share


def test_heavy_work_yields_while_it_has_had_its_share_and_is_never_starved(monkeypatch):
    """Regression (#49): heavy work ran at nice 19, where four busy processes of anyone else per core left
    it ~0.4 % of a core, and queries pyoxigraph answered in seconds beside the same load answered 503.
    Now it runs below cheap work only while it has had SHARE of a core since it became heavy, and at the
    normal priority while it has not; without the right to raise a priority it is never lowered."""
    clock = Clock()
    placed: list[int] = []
    monkeypatch.setattr(placement.time, "monotonic", lambda: clock.now)
    monkeypatch.setattr(placement, "cpu_seconds", lambda tasks, pid=None: clock.cpu)
    monkeypatch.setattr(
        placement, "place_tasks", lambda tasks, niceness, cores: placed.append(niceness) or True
    )
    monkeypatch.setattr(placement, "may_raise_to", lambda niceness: True)
    share = placement.Share(lambda: [1234], 0)
    assert share.look() and placed == [placement.YIELDING_NICENESS]  # heavy: it yields at once
    clock.run(0.5, 0.9)  # a free core: it had far more than its share
    share.look()
    assert placed == [placement.YIELDING_NICENESS]
    clock.run(10, 0.01)  # then the host got busy: it fell behind its share ...
    share.look()
    assert placed[-1] == 0  # ... and competes as an equal
    clock.run(1, 0.2)  # still behind (0.41 s of the 2.875 s it is owed)
    share.look()
    assert placed[-1] == 0
    clock.run(20, 0.9)  # caught up: it yields again
    share.look()
    assert placed == [placement.YIELDING_NICENESS, 0, placement.YIELDING_NICENESS]

    monkeypatch.setattr(placement, "may_raise_to", lambda niceness: False)
    placed.clear()
    unprivileged = placement.Share(lambda: [1234], 0)
    unprivileged.look()
    clock.run(10, 0.9)
    unprivileged.look()
    assert placed == [0]  # only moved to the heavy cores: a lowered priority could not come back


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


def test_a_process_cpu_time_is_one_clock_read_that_counts_its_ended_threads():
    """A query job's CPU is read from the kernel's per-process clock: what the process has run, its
    threads that ended included (a sum over /proc's live threads forgets those), and 0.0 once it is gone."""
    code = """if True:
        import threading, time
        def spin():
            end = time.process_time() + 0.3
            while time.process_time() < end:
                pass
        spinner = threading.Thread(target=spin)
        spinner.start()
        spinner.join()
        print("done", flush=True)
        time.sleep(60)
    """
    child = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True)
    try:
        assert child.stdout is not None and child.stdout.readline() == "done\n"
        tasks = placement.process_tasks(child.pid)
        for _ in range(1000):  # an ended thread leaves /proc when the kernel reaps it, a moment after join()
            if len(tasks) == 1:
                break
            time.sleep(0.01)
            tasks = placement.process_tasks(child.pid)
        assert len(tasks) == 1  # the spinning thread has ended
        assert placement.process_cpu_seconds(child.pid) >= 0.3
        assert placement.cpu_seconds(tasks, child.pid) < 0.3  # its threads' sum no longer counts it
    finally:
        child.kill()
        child.wait()
    assert placement.process_cpu_seconds(child.pid) == 0.0
    ours = time.process_time()
    assert ours <= placement.process_cpu_seconds(os.getpid()) <= time.process_time()
