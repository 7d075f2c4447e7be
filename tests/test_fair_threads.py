"""The HTTP workers' request threads: a request that turns out CPU-heavy goes on at a low priority, so
cheap requests served by the same process keep the CPU; the next request runs at full priority."""

from __future__ import annotations

import os
import threading
import time

import pytest

from aikg.serving.fair import FairThreads


def _own_nice() -> int:
    return os.getpriority(os.PRIO_PROCESS, threading.get_native_id())


def _burn(cpu_seconds: float) -> tuple[int, int]:
    """Use ``cpu_seconds`` of this thread's CPU; its thread and its priority at the end."""
    end = time.thread_time() + cpu_seconds
    while time.thread_time() < end:
        sum(range(1000))
    return threading.get_native_id(), _own_nice()


def _cheap() -> tuple[int, int]:
    return threading.get_native_id(), _own_nice()


@pytest.fixture()
def pool():
    threads = FairThreads(2, slow_after=0.1, priority=15)
    yield threads
    threads.shutdown()


def test_a_heavy_request_goes_on_at_a_low_priority_and_its_thread_is_replaced(pool):
    base = _own_nice()
    heavy_thread, heavy_nice = pool.submit(_burn, 0.6).result(timeout=120)
    assert heavy_nice == max(15, base) and pool.slowed_count == 1
    # every later request runs at the process's priority, on threads the heavy one did not use
    later = [pool.submit(_cheap).result(timeout=30) for _ in range(6)]
    assert {nice for _, nice in later} == {base}
    assert heavy_thread not in {tid for tid, _ in later}
    assert len({tid for tid, _ in later}) <= 2  # still two threads, reused


def test_cheap_requests_keep_their_priority_and_threads(pool):
    base = _own_nice()
    answers = [pool.submit(_cheap).result(timeout=30) for _ in range(20)]
    assert {nice for _, nice in answers} == {base} and pool.slowed_count == 0
    assert len({tid for tid, _ in answers}) <= 2


def test_a_failing_request_reaches_its_future_and_the_pool_goes_on(pool):
    def fail() -> None:
        raise ValueError("boom")

    with pytest.raises(ValueError, match="boom"):
        pool.submit(fail).result(timeout=30)
    assert pool.submit(_cheap).result(timeout=30)[1] == _own_nice()


def test_after_shutdown_nothing_more_is_taken():
    threads = FairThreads(1)
    threads.shutdown()
    with pytest.raises(RuntimeError):
        threads.submit(_cheap)
