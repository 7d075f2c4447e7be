"""The HTTP worker's request threads, with a fair share of the CPU for cheap requests.

gunicorn's threaded worker runs each request on a thread of a pool. Here the pool is aikg's own: a
request that has used :data:`~aikg.query.workers.SLOW_AFTER` CPU-seconds (a depth-4 neighbourhood of a
hub, a whole-store export being written) goes on at :data:`~aikg.query.workers.SLOW_PRIORITY`, so lookups
served by the same process keep the CPU — the same multilevel feedback queue as the query workers'.
Linux nice values are per thread and an unprivileged process cannot raise one again, so the thread that
ran a slowed request ends after it and a new one takes its place.
"""

from __future__ import annotations

import contextlib
import os
import queue
import threading
import time
from collections.abc import Callable
from concurrent.futures import Executor, Future
from typing import Any

from aikg.query.workers import SLOW_AFTER, SLOW_PRIORITY

CHECK_EVERY = 0.05
"""Seconds between two looks at the running requests' CPU time."""


def _cpu(ident: int) -> float | None:
    """CPU-seconds the thread ``ident`` has used, or None once it has ended (or where unsupported)."""
    try:
        return time.clock_gettime(time.pthread_getcpuclockid(ident))
    except (OSError, AttributeError, OverflowError):
        return None


class FairThreads(Executor):
    """``size`` request threads; a request past ``slow_after`` CPU-seconds runs on at ``priority``."""

    def __init__(self, size: int, *, slow_after: float = SLOW_AFTER, priority: int = SLOW_PRIORITY) -> None:
        self.size, self.slow_after, self.priority = max(1, size), slow_after, priority
        self._tasks: queue.SimpleQueue[tuple[Future[Any], Callable[[], Any]] | None] = queue.SimpleQueue()
        self._lock = threading.Lock()
        self._running: dict[int, tuple[int, float]] = {}
        """Busy threads: ident -> (native id, CPU-seconds when their request began)."""
        self._slowed: set[int] = set()
        self.slowed_count = 0
        """Requests slowed so far (each one's thread was replaced)."""
        self._threads: set[threading.Thread] = set()
        self._stopped = threading.Event()
        for _ in range(self.size):
            self._spawn()
        self._monitor = threading.Thread(target=self._watch, name="aikg-fair-share", daemon=True)
        self._monitor.start()

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
        if self._stopped.is_set():
            raise RuntimeError("cannot schedule new requests after shutdown")
        future: Future[Any] = Future()
        self._tasks.put((future, lambda: fn(*args, **kwargs)))
        return future

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        self._stopped.set()
        with self._lock:
            threads = list(self._threads)
        for _ in threads:
            self._tasks.put(None)
        if wait:
            for t in threads:
                t.join()

    # -- the threads ----------------------------------------------------------------------------------

    def _spawn(self) -> None:
        thread = threading.Thread(target=self._serve, name="aikg-request", daemon=True)
        with self._lock:
            self._threads.add(thread)
        thread.start()

    def _serve(self) -> None:
        me = threading.get_ident()
        while True:
            task = self._tasks.get()
            if task is None:
                break
            future, fn = task
            if not future.set_running_or_notify_cancel():
                continue
            with self._lock:
                self._running[me] = (threading.get_native_id(), _cpu(me) or 0.0)
            try:
                future.set_result(fn())
            except BaseException as exc:  # noqa: BLE001 - the future carries it, as the standard pool's does
                future.set_exception(exc)
            finally:
                with self._lock:
                    self._running.pop(me, None)
                    slowed = me in self._slowed
                    self._slowed.discard(me)
            if slowed:  # this thread's priority cannot come back up: a new thread serves the next request
                if not self._stopped.is_set():
                    self._spawn()
                break
        with self._lock:
            self._threads.discard(threading.current_thread())

    def _watch(self) -> None:
        while not self._stopped.wait(CHECK_EVERY):
            with self._lock:
                running = list(self._running.items())
            for ident, began in running:
                used = _cpu(ident)
                if used is None or used - began[1] <= self.slow_after:
                    continue
                with self._lock:  # still that request (not ended, not followed by another)?
                    if self._running.get(ident) != began or ident in self._slowed:
                        continue
                    self._slowed.add(ident)
                    self.slowed_count += 1
                    tid = began[0]
                    with contextlib.suppress(OSError):
                        nice = max(self.priority, os.getpriority(os.PRIO_PROCESS, tid))
                        os.setpriority(os.PRIO_PROCESS, tid, nice)
