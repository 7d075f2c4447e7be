"""Running a query where it can really be stopped: a forked process, killed at the time limit.

pyoxigraph cannot cancel a running query (an aggregate over a cartesian product yields no row until the
end), so a client's query runs in a worker process forked from the server. The worker sees the store as
it was at the fork (copy-on-write: a consistent snapshot), sends its materialized result back through a
pipe, and waits for the next query; workers are retired as soon as the store changes. At the deadline
the server kills the worker with SIGKILL: its CPU is freed at once, and other requests never waited.

Forks never happen while a write is being committed in this process (:func:`writing`), so a worker can
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
import struct
import threading
import time
import weakref
from collections.abc import Callable, Iterator
from typing import Any, TypeVar

from aikg.errors import AikgError, QueryTimeout, StoreError, TooManyRequests

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


_PR_SET_PDEATHSIG = 1


def _child_setup() -> None:
    """Make a query process die with its parent, and ignore the server's signal handlers."""
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)


def _cpu_budget(timeout: float) -> None:
    """Let the kernel stop this process if it ever runs ``timeout`` CPU-seconds past now, unobserved."""
    usage = resource.getrusage(resource.RUSAGE_SELF)
    cpu = math.ceil(usage.ru_utime + usage.ru_stime + timeout) + 2
    with contextlib.suppress(ValueError, OSError):
        resource.setrlimit(resource.RLIMIT_CPU, (cpu, resource.RLIM_INFINITY))


def _outcome(fn: Callable[..., Any], *args: Any, **kwargs: Any) -> tuple:
    """Call ``fn`` and turn its result or its typed error into a picklable message."""
    try:
        return (True, fn(*args, **kwargs))
    except AikgError as exc:
        return (False, type(exc), exc.message, exc.errors)
    except Exception:  # noqa: BLE001 - reported to the parent as a store failure, never echoed
        return (False, StoreError, "the query failed in the store", [])


def _unwrap(payload: tuple) -> Any:
    if payload[0]:
        return payload[1]
    _, cls, message, errors = payload
    raise cls(message, errors=errors)


_HEADER = struct.Struct(">Q")


def _send(fd: int, payload: Any) -> None:
    data = pickle.dumps(payload, protocol=pickle.HIGHEST_PROTOCOL)
    view = memoryview(_HEADER.pack(len(data)) + data)
    while view:
        view = view[os.write(fd, view):]


class _Lost(Exception):
    """The query process ended without an answer."""


def _receive(fd: int, deadline: float | None) -> Any:
    """Read one message; :class:`TimeoutError` at ``deadline``, :class:`_Lost` on end of file."""
    buf = bytearray()
    need = _HEADER.size
    header_done = False
    while True:
        while len(buf) < need:
            if deadline is not None:
                left = deadline - time.monotonic()
                if left <= 0 or not select.select([fd], [], [], left)[0]:
                    raise TimeoutError
            chunk = os.read(fd, min(need - len(buf), 1 << 20))
            if not chunk:
                raise _Lost
            buf += chunk
        if header_done:
            return pickle.loads(bytes(buf))
        (need,) = _HEADER.unpack(bytes(buf[:_HEADER.size]))
        buf = buf[_HEADER.size:]
        header_done = True


def _timeout_error(timeout: float) -> QueryTimeout:
    return QueryTimeout(
        f"the query ran past the time limit of {timeout:g} s (setting query_timeout) and was stopped",
        errors=[{"limit": "query_timeout", "seconds": timeout}])


def _kill(pid: int) -> None:
    with contextlib.suppress(ProcessLookupError):
        os.kill(pid, signal.SIGKILL)
    with contextlib.suppress(ChildProcessError):
        os.waitpid(pid, 0)


def run_isolated(fn: Callable[[], T], *, timeout: float) -> T:
    """Run ``fn`` in a child forked for this call; kill it and raise QueryTimeout after ``timeout``."""
    read_end, write_end = os.pipe()
    with _FORK_LOCK.fork():
        pid = os.fork()
    if pid == 0:  # pragma: no cover - the child never returns
        try:
            os.close(read_end)
            _child_setup()
            _cpu_budget(timeout)
            _send(write_end, _outcome(fn))
        finally:
            os._exit(0)
    os.close(write_end)
    try:
        payload = _receive(read_end, time.monotonic() + timeout)
    except TimeoutError:
        raise _timeout_error(timeout) from None
    except _Lost:
        raise StoreError("the query process ended without an answer (out of memory or CPU)") from None
    finally:
        os.close(read_end)
        _kill(pid)
    return _unwrap(payload)


class _Worker:
    """A query process forked from the server: it sees the store as it was at the fork."""

    def __init__(self, store: Any) -> None:
        from_parent, to_child = os.pipe()
        from_child, to_parent = os.pipe()
        with _FORK_LOCK.fork():
            self.version = store.version
            pid = os.fork()
        if pid == 0:  # pragma: no cover - the child never returns
            try:
                os.close(to_child)
                os.close(from_child)
                _serve(store, from_parent, to_parent)
            finally:
                os._exit(0)
        os.close(from_parent)
        os.close(to_parent)
        self.pid, self.send_fd, self.recv_fd = pid, to_child, from_child

    def call(self, fn: Callable[..., Any], kwargs: dict[str, Any], timeout: float) -> tuple:
        """Send one job and wait for its answer until ``timeout``."""
        try:
            _send(self.send_fd, (fn, kwargs, timeout))
        except OSError:
            raise _Lost from None
        return _receive(self.recv_fd, time.monotonic() + timeout)

    def close(self) -> None:
        """Kill the process and release its pipes."""
        _kill(self.pid)
        for fd in (self.send_fd, self.recv_fd):
            with contextlib.suppress(OSError):
                os.close(fd)


def _serve(store: Any, recv_fd: int, send_fd: int) -> None:  # pragma: no cover - runs in the child
    """The worker's loop: one job at a time, until its parent closes the pipe or kills it."""
    _child_setup()
    while True:
        try:
            fn, kwargs, timeout = _receive(recv_fd, None)
        except _Lost:
            return
        _cpu_budget(timeout)
        _send(send_fd, _outcome(fn, store, **kwargs))


class WorkerPool:
    """Query processes for one store, reused until the store changes, replaced when killed.

    Forking a large process costs time (about 20 ms at 10k triples, 185 ms at 1M in memory, measured on
    2 cores), so a worker serves many queries; it is retired as soon as the store's version moves on, so
    no query ever reads older data than what was committed before it started.
    """

    def __init__(self, store: Any, size: int) -> None:
        self.store, self.size = store, max(1, size)
        self._idle: list[_Worker] = []
        self._lock = threading.Lock()

    def _take(self) -> _Worker:
        with self._lock:
            while self._idle:
                worker = self._idle.pop()
                if worker.version == self.store.version:
                    return worker
                worker.close()
        return _Worker(self.store)

    def _give_back(self, worker: _Worker) -> None:
        with self._lock:
            if worker.version == self.store.version and len(self._idle) < self.size:
                self._idle.append(worker)
                return
        worker.close()

    def run(self, fn: Callable[..., T], kwargs: dict[str, Any], *, timeout: float) -> T:
        """Run ``fn(store, **kwargs)`` in a worker; kill the worker and raise QueryTimeout at the limit.

        A worker that dies without answering (killed from outside, its parent thread gone) is replaced
        and the job tried once more.
        """
        deadline = time.monotonic() + timeout
        for attempt in range(2):
            worker = self._take()
            try:
                payload = worker.call(fn, kwargs, max(deadline - time.monotonic(), 0.001))
            except TimeoutError:
                worker.close()
                raise _timeout_error(timeout) from None
            except _Lost:
                worker.close()
                if attempt:
                    raise StoreError("the query process ended without an answer "
                                     "(out of memory or CPU)") from None
                continue
            self._give_back(worker)
            return _unwrap(payload)
        raise AssertionError("unreachable")

    def close(self) -> None:
        """Stop every idle worker."""
        with self._lock:
            idle, self._idle = self._idle, []
        for worker in idle:
            worker.close()


_POOLS: weakref.WeakKeyDictionary[Any, WorkerPool] = weakref.WeakKeyDictionary()
_POOLS_LOCK = threading.Lock()


def pool(store: Any, size: int) -> WorkerPool:
    """The worker pool of a store in this process."""
    with _POOLS_LOCK:
        found = _POOLS.get(store)
        if found is None or found.size != max(1, size):
            if found is not None:
                found.close()
            found = _POOLS[store] = WorkerPool(store, size)
        return found
