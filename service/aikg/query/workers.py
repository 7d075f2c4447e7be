"""Query worker processes: where a query runs so that it can really be stopped at its deadline.

pyoxigraph cannot cancel a running query (an aggregate over a cartesian product yields no row until it
is done), so a client's query runs in a worker process, and at the deadline the worker is killed with
SIGKILL: its CPU is freed at once and nothing else waits for it.

Workers are never forked from the serving process (a multi-threaded process whose threads hold client
sockets, locks and RocksDB state): each is a fresh interpreter (``python -m aikg.query.workers``) that
inherits nothing but the one socket it talks over — no client socket, no lock, no half-written state,
and none of the parent's main module (which multiprocessing's start methods would import again). Each
worker opens the store's current :class:`~aikg.store.base.Snapshot` (a RocksDB checkpoint) read-only,
so it reads exactly the data committed when the query began. Workers run at a lower CPU priority than
the serving process, so cheap lookups keep their share under heavy queries.

Query results come back as bytes written by Oxigraph itself (:mod:`aikg.store.transport`): no per-row
Python work on either side.
"""

from __future__ import annotations

import contextlib
import logging
import math
import multiprocessing.connection
import os
import resource
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

from aikg.errors import AikgError, QueryTimeout, StoreError, TooManyRequests
from aikg.store.base import Deadline, Snapshot, Store

log = logging.getLogger(__name__)

NICENESS = 5
"""How much lower a worker's CPU priority is than the serving process's."""

SLOW_AFTER = 0.25
"""CPU-seconds a query runs at its worker's priority; past them it is a slow one, and the worker drops
to :data:`SLOW_PRIORITY` so cheap queries and lookups keep their share of the CPU (a multilevel feedback
queue: nothing needs to be known about a query before it runs). CPU time, not time waited: on a busy
machine a cheap query waits long for the CPU, and must not be pushed further back for it."""

_CHECK_EVERY = 0.05
"""Seconds between two looks at a running job's CPU time."""


SLOW_PRIORITY = 10
"""The nice value of a slow query's thread: a third of a cheap query's share of the CPU (nice 5), a tenth
of the HTTP workers' — not the lowest, so a legitimately heavy query on a busy machine still finishes
within its time limit. An unprivileged process cannot raise a priority again, so each job runs on a
thread of its own, and the next one starts at the worker's priority."""


READY = "ready"
"""What a worker sends once, when it has started and can take jobs."""


# -- the job a worker runs ----------------------------------------------------------------------------


def _limit_resources(memory_mb: int) -> None:
    with contextlib.suppress(OSError, ValueError):
        os.nice(NICENESS)
    if memory_mb > 0:
        limit = memory_mb * 1024 * 1024
        with contextlib.suppress(OSError, ValueError):
            resource.setrlimit(resource.RLIMIT_DATA, (limit, limit))


def _cpu_budget(seconds: float) -> None:
    """Let the kernel stop this process if it ever runs ``seconds`` CPU-seconds past now, unobserved."""
    usage = resource.getrusage(resource.RUSAGE_SELF)
    cpu = math.ceil(usage.ru_utime + usage.ru_stime + seconds) + 2
    with contextlib.suppress(ValueError, OSError):
        resource.setrlimit(resource.RLIMIT_CPU, (cpu, resource.RLIM_INFINITY))


WORKER_STACK_MB = 256
"""Stack of the threads that run a worker's jobs. Oxigraph parses and plans a query recursively: on a
process's 8 MB main stack, 3,000 nested groups or 10,000 UNIONs overflow it and the worker dies of
SIGSEGV. The text checks refuse nesting past :data:`aikg.rdf.guard.MAX_NESTING` (far below what this
stack holds); the rest of a query's size is bounded by its time limit. Untouched stack costs no memory."""


def _worker_main(conn: multiprocessing.connection.Connection, memory_mb: int) -> None:  # pragma: no cover
    """A worker's loop, on its main thread: each job runs on a new thread with a deep stack (see
    :data:`WORKER_STACK_MB`) and the loop's priority — a job slowed down by the parent (nice values are
    per thread) leaves the next one unaffected, so the worker is kept."""
    threading.stack_size(WORKER_STACK_MB * 1024 * 1024)
    _limit_resources(memory_mb)  # before any job thread exists: they inherit it
    opened: list[tuple[Snapshot, Store]] = []
    try:
        conn.send(READY)  # imported: the parent times its first job from here, not from the start
    except (OSError, ValueError):
        return
    while True:
        try:
            snapshot, fn, kwargs, seconds = conn.recv()
        except (EOFError, OSError):
            return
        _cpu_budget(seconds)
        answers: list[tuple[Any, ...]] = []
        job = threading.Thread(
            target=_job, args=(answers, opened, snapshot, fn, kwargs, memory_mb), name="aikg-query-job"
        )
        job.start()
        job.join()
        try:
            conn.send(answers[0] if answers else (False, StoreError, "the query failed in the store", []))
        except (OSError, ValueError):
            return


def _job(
    answers: list[tuple[Any, ...]],
    opened: list[tuple[Snapshot, Store]],
    snapshot: Snapshot,
    fn: Callable[..., Any],
    kwargs: dict[str, Any],
    memory_mb: int,
) -> None:  # pragma: no cover - runs in the worker process
    """One job, its answer put in ``answers``: open the snapshot it names (kept open while it stays
    current), run ``fn``."""
    answers.append(_answer(opened, snapshot, fn, kwargs, memory_mb))


def _answer(
    opened: list[tuple[Snapshot, Store]],
    snapshot: Snapshot,
    fn: Callable[..., Any],
    kwargs: dict[str, Any],
    memory_mb: int,
) -> tuple[Any, ...]:  # pragma: no cover - runs in the worker process
    from aikg.store import open_snapshot

    try:
        if not opened or opened[0][0] != snapshot:
            if opened:
                opened.pop()[1].close()
            opened.append((snapshot, open_snapshot(snapshot)))
        return (True, fn(opened[0][1], **kwargs))
    except AikgError as exc:
        return (False, type(exc), exc.message, exc.errors)
    except MemoryError:
        return (
            False,
            StoreError,
            "the query needed more memory than a query worker may use (setting query_memory)",
            [{"limit": "query_memory", "megabytes": memory_mb}],
        )
    except Exception:  # noqa: BLE001 - reported to the parent as a store failure, never echoed
        log.exception("query worker job failed")
        return (False, StoreError, "the query failed in the store", [])


class _Worker:
    """One worker process (a fresh interpreter running :func:`main`) and the socket pair to it."""

    def __init__(self, memory_mb: int) -> None:
        ours, theirs = socket.socketpair()
        try:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "aikg.query.workers", str(theirs.fileno()), str(memory_mb)],
                pass_fds=[theirs.fileno()],
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                close_fds=True,
            )
        finally:
            theirs.close()
        self.conn = multiprocessing.connection.Connection(ours.detach())
        self.slowed = False
        """The running job's priority was lowered (it is a slow one)."""
        self.ready = False
        """It said it has started (a fresh interpreter takes a while to import aikg)."""

    def alive(self) -> bool:
        """True while the process runs."""
        return self.process.poll() is None

    def call(
        self,
        snapshot: Snapshot,
        fn: Callable[..., Any],
        kwargs: dict[str, Any],
        deadline: Deadline,
        *,
        slow_after: float | None = None,
        on_slow: Callable[[], None] | None = None,
    ) -> tuple[Any, ...]:
        """Send one job; its answer, :class:`TimeoutError` at the deadline, :class:`EOFError` if it died.

        With ``slow_after``, a job still running after using that many CPU-seconds goes on at
        :data:`SLOW_PRIORITY` (and ``on_slow`` is called).
        """
        self._wait_ready(deadline)
        self.slowed = False
        try:
            self.conn.send((snapshot, fn, kwargs, max(deadline.left(), 0.001)))
        except (OSError, ValueError):
            raise EOFError from None
        if slow_after is not None and not self._answered_fast(deadline, slow_after):
            self.slow_down()
            if on_slow is not None:
                on_slow()
        if not self.conn.poll(max(deadline.left(), 0)):
            raise TimeoutError
        try:
            answer: tuple[Any, ...] = self.conn.recv()  # unpickled: what the worker loop sends back
            return answer
        except (OSError, ValueError) as exc:
            raise EOFError from exc

    def _wait_ready(self, deadline: Deadline) -> None:
        """Wait for the worker's first word, that it has started (:class:`TimeoutError` at the deadline)."""
        if self.ready:
            return
        if not self.conn.poll(max(deadline.left(), 0)):
            raise TimeoutError
        try:
            said = self.conn.recv()
        except (OSError, ValueError) as exc:
            raise EOFError from exc
        if said != READY:
            raise EOFError
        self.ready = True

    def _answered_fast(self, deadline: Deadline, cpu_seconds: float) -> bool:
        """Wait for the answer while the job has used under ``cpu_seconds`` of CPU; False once it has
        used more (its answer not in), True when the answer is in or the deadline is past."""
        start, began = self.cpu_seconds(), time.monotonic()
        while not deadline.expired():
            if self.conn.poll(min(_CHECK_EVERY, max(deadline.left(), 0))):
                return True
            now = self.cpu_seconds()
            used = now - start if now is not None and start is not None else time.monotonic() - began
            if used > cpu_seconds:
                return False
        return True

    def cpu_seconds(self) -> float | None:
        """CPU time the process's live threads have used (the scheduler's own count, in nanoseconds,
        which only grows while a job runs: the process total in ``/proc/PID/stat`` is rounded and can
        move back), or None where /proc cannot tell."""
        task = f"/proc/{self.process.pid}/task"
        total = 0
        try:
            threads = os.listdir(task)
        except OSError:
            return None
        for tid in threads:
            try:
                with open(f"{task}/{tid}/schedstat", "rb") as f:
                    total += int(f.read().split()[0])
            except (OSError, IndexError, ValueError):
                continue
        return total / 1e9

    def slow_down(self) -> None:
        """Lower the priority of the running job: every thread of the process but its main one, whose
        priority the next job's thread inherits (Linux nice values are per thread)."""
        self.slowed = True
        pid = self.process.pid
        try:
            threads = [int(t) for t in os.listdir(f"/proc/{pid}/task") if int(t) != pid]
        except OSError:
            threads = []
        for tid in threads:
            with contextlib.suppress(OSError):
                os.setpriority(os.PRIO_PROCESS, tid, max(SLOW_PRIORITY, os.getpriority(os.PRIO_PROCESS, tid)))

    def died_how(self) -> str:
        """Why the process ended, in words."""
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.process.wait(0.5)
        code = self.process.returncode
        if code is None:
            return "it stopped answering"
        if code < 0:
            return f"it was killed by signal {-code}"
        return f"it exited with status {code}"

    def close(self) -> None:
        """Kill the process and release its socket.

        A process killed at a low priority on a busy machine may take seconds to be scheduled and
        exit: past a moment, it is reaped in the background, so the request that stopped it is not
        kept waiting past its deadline.
        """
        with contextlib.suppress(Exception):
            self.process.kill()
        with contextlib.suppress(Exception):
            self.conn.close()
        try:
            self.process.wait(0.2)
        except subprocess.TimeoutExpired:
            threading.Thread(target=self._reap, name="aikg-worker-reaper", daemon=True).start()

    def _reap(self) -> None:
        with contextlib.suppress(Exception):
            self.process.wait(60)


class Slots:
    """At most ``size`` isolated jobs at once; the rest wait (within their deadline), then get 429.

    A job that turns out slow (see :data:`SLOW_AFTER`) moves to one of ``size // 2`` slow slots when
    one is free, giving its slot back: runaway queries then hold the slow slots, not every slot, and a
    cheap query is not refused because of them.
    """

    QUEUE_WAIT = 0.5
    """Seconds a job waits for a free slot before it is refused with 429 (a short queue)."""

    def __init__(self, size: int) -> None:
        self.size = max(1, size)
        self.slow_size = max(1, self.size // 2)
        self._sem = threading.BoundedSemaphore(self.size)
        self._slow = threading.BoundedSemaphore(self.slow_size)

    @contextlib.contextmanager
    def take(self, deadline: Deadline, *, retry_after: float) -> Iterator[Callable[[], None]]:
        """Hold one slot for the duration of a job; what it yields moves the job to a slow slot."""
        wait = max(0.0, min(self.QUEUE_WAIT, deadline.left()))
        if not self._sem.acquire(timeout=wait):
            raise TooManyRequests(
                f"{self.size} queries are already running (setting max_heavy_queries); retry later",
                errors=[{"limit": "max_heavy_queries", "value": self.size}],
                headers={"Retry-After": str(max(1, math.ceil(retry_after)))},
            )
        held = [self._sem]

        def slow() -> None:  # called on the thread that holds the slot
            if held[0] is self._sem and self._slow.acquire(blocking=False):
                held[0] = self._slow
                self._sem.release()

        try:
            yield slow
        finally:
            held[0].release()


class WorkerPool:
    """Worker processes for one store, reused across jobs, replaced when killed or dead.

    Started the first time they are needed (or by :meth:`warm_up`); the pool then keeps
    :data:`SPARES` started workers idle beside the busy ones (within ``size``), so a query never waits
    for a process to start (~0.3 s, seconds on a loaded machine) — not even right after a runaway
    query's worker was killed and the next runaway took the spare that was there.
    """

    SPARES = 2
    """Idle workers kept started, as far as ``size`` allows."""

    def __init__(self, size: int, *, memory_mb: int = 0) -> None:
        self.size = max(1, size)
        self.memory_mb = memory_mb
        self._idle: list[_Worker] = []
        self._busy: set[_Worker] = set()
        self._starting = 0
        self._lock = threading.Lock()
        self._closed = False

    def _start(self) -> _Worker:
        return _Worker(self.memory_mb)

    def warm_up(self) -> None:
        """Start spare workers in the background, so queries do not wait for new processes."""
        with self._lock:
            wanted = min(
                self.SPARES - len(self._idle) - self._starting,
                self.size - len(self._idle) - len(self._busy) - self._starting,
            )
            if self._closed or wanted <= 0:
                return
            self._starting += wanted

        def start() -> None:
            try:
                worker = self._start()
            except Exception:  # noqa: BLE001 - the next query starts its own and reports why
                worker = None
            with self._lock:
                self._starting -= 1
            if worker is not None:
                self._give_back(worker)

        for _ in range(wanted):
            threading.Thread(target=start, name="aikg-worker-warm-up", daemon=True).start()

    def _take(self) -> _Worker:
        with self._lock:
            while self._idle:
                worker = self._idle.pop()
                if worker.alive():
                    self._busy.add(worker)
                    break
                worker.close()
            else:
                worker = None
        self.warm_up()  # the next query finds a started worker, not a process start
        if worker is not None:
            return worker
        started = time.monotonic()
        worker = self._start()
        log.warning("a query waited %.2f s for a query worker to start", time.monotonic() - started)
        with self._lock:
            self._busy.add(worker)
        return worker

    def _give_back(self, worker: _Worker) -> None:
        with self._lock:
            self._busy.discard(worker)
            if not self._closed and len(self._idle) + len(self._busy) < self.size and worker.alive():
                self._idle.append(worker)
                return
        worker.close()

    def _drop(self, worker: _Worker) -> None:
        with self._lock:
            self._busy.discard(worker)
        worker.close()

    def pids(self, *, busy: bool | None = None) -> set[int]:
        """Process ids of the live workers (only the busy or only the idle ones when asked)."""
        with self._lock:
            if busy is None:
                chosen = self._busy | set(self._idle)
            else:
                chosen = set(self._busy) if busy else set(self._idle)
        return {w.process.pid for w in chosen if w.alive()}

    def _replace_later(self) -> None:
        if not self._closed:
            self.warm_up()

    def run(
        self,
        snapshot: Snapshot,
        fn: Callable[..., Any],
        kwargs: dict[str, Any],
        *,
        deadline: Deadline,
        seconds: float,
        slow_after: float | None = None,
        on_slow: Callable[[], None] | None = None,
    ) -> Any:
        """Run ``fn(store, **kwargs)`` in a worker on ``snapshot``; kill it at ``deadline``; past
        ``slow_after`` CPU-seconds run it on at a low priority.

        A worker that dies without answering is replaced and the job tried once more; a second death is
        reported with its cause (a signal, the memory limit), never as a silent 5xx.
        """
        for attempt in range(2):
            worker = self._take()
            try:
                payload = worker.call(snapshot, fn, kwargs, deadline, slow_after=slow_after, on_slow=on_slow)
            except TimeoutError:
                self._drop(worker)
                self._replace_later()
                raise QueryTimeout(
                    f"the query ran past the time limit of {seconds:g} s (setting query_timeout) "
                    "and was stopped",
                    errors=[{"limit": "query_timeout", "seconds": seconds}],
                ) from None
            except EOFError:
                how = worker.died_how()
                self._drop(worker)
                log.warning("a query worker ended without an answer: %s", how)
                if attempt or deadline.expired():
                    raise StoreError(
                        f"the query worker ended without an answer ({how}); the query "
                        "may need more memory than a worker may use (setting "
                        "query_memory)"
                    ) from None
                continue
            self._give_back(worker)
            if payload[0]:
                return payload[1]
            _, cls, message, errors = payload
            raise cls(message, errors=errors)
        raise AssertionError("unreachable")

    def close(self) -> None:
        """Stop every idle worker."""
        with self._lock:
            self._closed = True
            idle, self._idle = self._idle, []
            idle += list(self._busy)
        for worker in idle:
            worker.close()


def main(argv: list[str]) -> None:  # pragma: no cover - runs in the worker process
    """A worker process's entry point: ``python -m aikg.query.workers FD MEMORY_MB``."""
    conn = multiprocessing.connection.Connection(int(argv[0]))
    _worker_main(conn, int(argv[1]))


if __name__ == "__main__":  # pragma: no cover
    main(sys.argv[1:])
