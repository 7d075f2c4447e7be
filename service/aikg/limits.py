"""Running a query where it can really be stopped: a forked child process, killed at the time limit.

pyoxigraph cannot cancel a running query (an aggregate over a cartesian product yields no row until the
end), so a client's query runs in a child forked from the server process. The child sees the store as
it was at the fork (copy-on-write: a consistent snapshot, for the in-memory and the on-disk store
alike), sends its materialized result back through a pipe and exits. At the deadline the parent kills
it with SIGKILL: its CPU is freed at once, and other requests never waited for it.

Forks never happen while a write is being committed in this process (:func:`writing`), so a child can
never inherit a store lock held half-way through a write.
"""

from __future__ import annotations

import contextlib
import ctypes
import math
import os
import pickle
import resource
import select
import signal
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any, TypeVar

from .errors import AikgError, QueryTimeout, StoreError, TooManyRequests

T = TypeVar("T")

QUEUE_WAIT = 0.5
"""Seconds a query waits for a free slot before it is refused with 429 (a short queue)."""


class _ForkLock:
    """Many forks at once, or one write commit, never both (a small readers-writer lock)."""

    def __init__(self) -> None:
        self._cond = threading.Condition()
        self._forking = 0
        self._writing = False

    @contextlib.contextmanager
    def fork(self) -> Iterator[None]:
        with self._cond:
            self._cond.wait_for(lambda: not self._writing)
            self._forking += 1
        try:
            yield
        finally:
            with self._cond:
                self._forking -= 1
                self._cond.notify_all()

    @contextlib.contextmanager
    def write(self) -> Iterator[None]:
        with self._cond:
            self._cond.wait_for(lambda: not self._writing and not self._forking)
            self._writing = True
        try:
            yield
        finally:
            with self._cond:
                self._writing = False
                self._cond.notify_all()


_FORK_LOCK = _ForkLock()


def writing() -> contextlib.AbstractContextManager[None]:
    """Hold while changing the store, so that no query child is forked in the middle of the change."""
    return _FORK_LOCK.write()


class Slots:
    """At most ``size`` client queries at once in this process; the rest wait briefly, then get 429."""

    def __init__(self, size: int) -> None:
        self.size = max(1, size)
        self._sem = threading.BoundedSemaphore(self.size)

    @contextlib.contextmanager
    def take(self, *, retry_after: float) -> Iterator[None]:
        """Hold one slot for the duration of a query."""
        if not self._sem.acquire(timeout=QUEUE_WAIT):
            raise TooManyRequests(
                f"{self.size} queries are already running (setting max_heavy_queries); retry later",
                errors=[{"limit": "max_heavy_queries", "value": self.size}],
                headers={"Retry-After": str(max(1, math.ceil(retry_after)))})
        try:
            yield
        finally:
            self._sem.release()


_SLOTS: dict[int, Slots] = {}
_SLOTS_LOCK = threading.Lock()


def slots(size: int) -> Slots:
    """The process-wide slots for a given limit (the limit protects this process's CPUs)."""
    with _SLOTS_LOCK:
        if size not in _SLOTS:
            _SLOTS[size] = Slots(size)
        return _SLOTS[size]


def _child_setup(timeout: float) -> None:
    """Make the child die with its parent and never outlive its CPU budget, even unobserved."""
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    cpu = math.ceil(timeout) + 1
    with contextlib.suppress(ValueError, OSError):
        resource.setrlimit(resource.RLIMIT_CPU, (cpu, cpu + 1))


def _run_child(fn: Callable[[], Any], timeout: float, out: int) -> None:
    try:
        _child_setup(timeout)
        try:
            payload: tuple = (True, fn())
        except AikgError as exc:
            payload = (False, type(exc), exc.message, exc.errors)
        except Exception:  # noqa: BLE001 - reported to the parent as a store failure, never echoed
            payload = (False, StoreError, "the query failed in the store", [])
        data = pickle.dumps(payload, protocol=pickle.HIGHEST_PROTOCOL)
        view = memoryview(data)
        while view:
            n = os.write(out, view)
            view = view[n:]
    finally:
        os._exit(0)


def run_isolated(fn: Callable[[], T], *, timeout: float) -> T:
    """Run ``fn`` in a forked child; kill it and raise :class:`QueryTimeout` after ``timeout`` seconds."""
    read_end, write_end = os.pipe()
    with _FORK_LOCK.fork():
        pid = os.fork()
    if pid == 0:  # pragma: no cover - the child never returns
        os.close(read_end)
        _run_child(fn, timeout, write_end)
    os.close(write_end)
    deadline = time.monotonic() + timeout
    chunks: list[bytes] = []
    finished = False
    try:
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                break
            ready, _, _ = select.select([read_end], [], [], left)
            if not ready:
                continue
            chunk = os.read(read_end, 1 << 20)
            if not chunk:
                finished = True
                break
            chunks.append(chunk)
    finally:
        os.close(read_end)
        if not finished:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
    if not finished:
        raise QueryTimeout(
            f"the query ran past the time limit of {timeout:g} s (setting query_timeout) and was stopped",
            errors=[{"limit": "query_timeout", "seconds": timeout}])
    if not chunks:
        raise StoreError("the query process ended without an answer (out of memory or CPU)")
    payload = pickle.loads(b"".join(chunks))
    if payload[0]:
        return payload[1]
    _, cls, message, errors = payload
    raise cls(message, errors=errors)
