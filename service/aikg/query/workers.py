"""Query worker processes: where a query runs so that it can really be stopped at its deadline.

pyoxigraph cannot cancel a running query (an aggregate over a cartesian product yields no row until it
is done), so a client's query runs in a worker process, and at the deadline the worker is killed with
SIGKILL: its CPU is freed at once and nothing else waits for it.

Workers are never forked from the serving process (a multi-threaded process whose threads hold client
sockets, locks and RocksDB state): each is a fresh interpreter (``python -m aikg.query.workers``) that
inherits nothing but the one socket it talks over — no client socket, no lock, no half-written state,
and none of the parent's main module (which multiprocessing's start methods would import again). Each
worker opens the store's current :class:`~aikg.store.base.Snapshot` (a RocksDB checkpoint) read-only,
so it reads exactly the data committed when the query began. A job runs at the serving process's
priority until it has used :data:`DEMOTE_CPU` of CPU (or run :data:`DEMOTE_AFTER`); then it is heavy
work (:class:`aikg.placement.Share`): on the heavy cores, below cheap work while it has had its share of
a core, never starved by other load on the host.

Query results come back as bytes written by Oxigraph itself (:mod:`aikg.store.transport`): no per-row
Python work on either side.
"""

from __future__ import annotations

import contextlib
import functools
import importlib
import logging
import math
import multiprocessing.connection
import os
import resource
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

from aikg import interpreters
from aikg.errors import AikgError, QueryTimeout, StoreError, TooManyRequests
from aikg.placement import (
    SHARE_LOOK,
    Share,
    all_cores,
    heavy_cores,
    place,
    process_cpu_seconds,
    process_tasks,
)
from aikg.store.base import Deadline, Snapshot, Store

log = logging.getLogger(__name__)

NICENESS = 0
"""How much lower a worker's CPU priority is than the serving process's: not at all. A query job is
cheap until it has shown otherwise, and cheap work keeps the normal priority; a job that turns out heavy
is placed as heavy work (:class:`aikg.placement.Share`). At nice 5, a machine busy with other work (load
average 15 on 2 cores) gave an ``ASK { FILTER(!true) }`` ~4 % of a core, and it answered 503 at the 3 s
limit of the hostile-traffic test."""

READY = "ready"
"""What a worker sends once it has started (its imports take ~0.3 s, seconds on a busy machine): a job
is sent only to a worker that has, so a cheap query never waits for an interpreter to start."""

DEMOTE_AFTER = 1.0
"""Seconds a job runs before it is heavy work whatever CPU it has used."""

DEMOTE_CPU = 0.005
"""CPU seconds a job runs at the worker's priority before it is heavy work: a cheap query (an ``ASK``,
a lookup) needs about a millisecond; one that has taken 5 ms of a core is heavy work, which yields to
everything cheap, off the cheap requests' core. Until then a job runs on any core:
at 20 ms, 30 whole-store CONSTRUCTs a second kept a job at nice 5 beside the cheap requests most of the
time (an ``ASK``'s p99 under four such loops: 2.9× idle at 20 ms, 1.5× with this bound and the two
other changes of README "Soak and fair share"; ``python -m aikg_bench.soak --fair --kind "large
construct"``)."""

OPENING_CPU = 0.05
"""CPU seconds a job may use besides :data:`DEMOTE_CPU` when its worker opens a snapshot for it first
(~25 ms, once per worker after each write): a cheap query is not taken for heavy work for that."""

LONG_JOB = 1.0
"""Seconds a job runs before the pool starts spares beside it (it may hold its worker for its whole
limit: a runaway). A shorter job's pool is topped up once it has answered: spares started at once
competed with it (right after a restart, the first named query, heavy work after 5 ms of CPU, shared
its core with the two spares it had started and answered in 1.8 s at load 10)."""

LOOK_EVERY = 0.002
"""The shortest wait between two looks at a running job's CPU time until it is heavy (a look is one
system call); then every :data:`aikg.placement.SHARE_LOOK`. Between looks the asking thread waits as long
as the job cannot have become heavy (see :meth:`_Worker._answered_before`)."""


# -- the job a worker runs ----------------------------------------------------------------------------


def opened(_store: Store) -> None:
    """A job that only opens its snapshot (the worker loop does, before any job)."""


def _limit_resources(memory_mb: int) -> None:
    """The worker's memory limit (its priority and cores are set by the pool as it starts)."""
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
"""Stack of the thread that runs a worker's jobs. Oxigraph parses and plans a query recursively: on a
process's 8 MB main stack, 3,000 nested groups or 10,000 UNIONs overflow it and the worker dies of
SIGSEGV. The text checks refuse nesting past :data:`aikg.rdf.guard.MAX_NESTING` (far below what this
stack holds); the rest of a query's size is bounded by its time limit. Untouched stack costs no memory."""


def _worker_main(
    conn: multiprocessing.connection.Connection, memory_mb: int, jobs: list[str]
) -> None:  # pragma: no cover
    """Run the worker's loop on a thread with a deep stack (see :data:`WORKER_STACK_MB`)."""
    _limit_resources(memory_mb)
    threading.stack_size(WORKER_STACK_MB * 1024 * 1024)
    loop = threading.Thread(target=_serve, args=(conn, memory_mb, jobs), name="aikg-query-job")
    loop.start()
    loop.join()


def _prepared(jobs: list[str] = []) -> Callable[[Snapshot], Store]:  # noqa: B006 - never changed
    """Import what a query job needs, and the modules of the other jobs its pool runs (``jobs``), before
    the worker says it is ready; how to open a snapshot.

    For queries only the store's layer: no rdflib, settings or progress bars (imported, they were half
    of a worker's start, ~0.4 s of a core, paid by the first query after a restart). A job whose module
    was not imported imports it inside its time limit: the writer's first update staged in a new worker
    imported the gate (0.55 s idle, seconds on a busy machine) and answered 503 at the 3 s limit of the
    hostile-traffic test."""
    import aikg.store.transport  # noqa: F401 - query jobs name its run_query_job
    from aikg.store import open_snapshot

    for module in jobs:
        importlib.import_module(module)
    return open_snapshot


def _serve(
    conn: multiprocessing.connection.Connection, memory_mb: int, jobs: list[str]
) -> None:  # pragma: no cover
    """A worker's loop: open the snapshot a job names (kept open while it stays current), run, answer."""
    open_snapshot = _prepared(jobs)
    try:
        conn.send(READY)
    except (OSError, ValueError):
        return
    opened: tuple[Snapshot, Store] | None = None
    while True:
        try:
            snapshot, fn, kwargs, seconds = conn.recv()
        except (EOFError, OSError):
            return
        _cpu_budget(seconds)
        try:
            if opened is None or opened[0] != snapshot:
                if opened is not None:
                    opened[1].close()
                opened = (snapshot, open_snapshot(snapshot))
            answer: tuple[Any, ...] = (True, fn(opened[1], **kwargs))
        except AikgError as exc:
            answer = (False, type(exc), exc.message, exc.errors)
        except MemoryError:
            answer = (
                False,
                StoreError,
                "the query needed more memory than a query worker may use (setting query_memory)",
                [{"limit": "query_memory", "megabytes": memory_mb}],
            )
        except Exception:  # noqa: BLE001 - reported to the parent as a store failure, never echoed
            log.exception("query worker job failed")
            answer = (False, StoreError, "the query failed in the store", [])
        try:
            conn.send(answer)
        except (OSError, ValueError):
            return


class _Worker:
    """One worker process (a fresh interpreter running :func:`main`) and the socket pair to it."""

    def __init__(self, memory_mb: int, jobs: tuple[str, ...] = ()) -> None:
        self.memory_mb = memory_mb
        self.jobs = jobs
        """The modules of the jobs besides queries it imports as it starts (see :func:`_prepared`)."""
        self.niceness = min(os.getpriority(os.PRIO_PROCESS, 0) + NICENESS, 19)
        """The priority the worker's jobs start at."""
        # Its start (imports, then opening the snapshot) is work nobody waits for: on the heavy cores
        # until it is handed its first job (see restored).
        self.process, self.conn = interpreters.start(
            "aikg.query.workers", str(memory_mb), *jobs, niceness=self.niceness, cores=heavy_cores()
        )
        self.demoted = True
        """Whether the worker runs other than a fresh job does (lower, or on the heavy cores only)."""
        self.ready = False
        self.snapshot: Snapshot | None = None
        """The snapshot the worker has open (the last one a job named)."""

    def wait_ready(self, seconds: float) -> bool:
        """Wait up to ``seconds`` for the process to say it has started; whether it has."""
        if not self.ready:
            try:
                self.ready = self.conn.poll(max(seconds, 0)) and self.conn.recv() == READY
            except (OSError, EOFError, ValueError):
                return False
        return self.ready

    def alive(self) -> bool:
        """True while the process runs."""
        return self.process.poll() is None

    def call(
        self,
        snapshot: Snapshot,
        fn: Callable[..., Any],
        kwargs: dict[str, Any],
        deadline: Deadline,
        on_long: Callable[[], None] | None = None,
    ) -> tuple[Any, ...]:
        """Send one job; its answer, :class:`TimeoutError` at the deadline, :class:`EOFError` if it died.
        ``on_long`` is called once if the job runs :data:`LONG_JOB` seconds without answering."""
        if not self.wait_ready(deadline.left()):
            if self.alive():
                raise TimeoutError
            raise EOFError
        opening, self.snapshot = snapshot != self.snapshot, snapshot
        try:
            self.conn.send((snapshot, fn, kwargs, max(deadline.left(), 0.001)))
        except (OSError, ValueError):
            raise EOFError from None
        if not self._answered_before(deadline, DEMOTE_CPU + (OPENING_CPU if opening else 0.0), on_long):
            raise TimeoutError
        try:
            answer: tuple[Any, ...] = self.conn.recv()  # unpickled: what the worker loop sends back
            return answer
        except (OSError, ValueError) as exc:
            raise EOFError from exc

    def _answered_before(
        self, deadline: Deadline, heavy_after: float, on_long: Callable[[], None] | None = None
    ) -> bool:
        """Wait for the job's answer until ``deadline``; whether it came. A job that has used
        ``heavy_after`` seconds of CPU (:data:`DEMOTE_CPU`, plus :data:`OPENING_CPU` when the worker
        opens a snapshot for it) or run :data:`DEMOTE_AFTER` seconds is heavy work, kept at its share
        (:class:`aikg.placement.Share`) until it answers.

        Until then the wait between two looks is as long as the job cannot have become heavy: its CPU
        time grows no faster than the clock (one thread runs it), so after ``used`` seconds of CPU it
        needs ``heavy_after - used`` seconds more at least. Looking every 2 ms woke the asking thread
        2-10 times for a small query's answer on a loaded machine (each wake a wait for a core, for a
        look that could not find it heavy); now a job that answers within its 5 ms is looked at never."""
        began, cpu = time.monotonic(), self._cpu_seconds()
        share: Share | None = None
        used = 0.0
        while True:
            left = deadline.left()
            if left <= 0:
                return self.conn.poll(0)
            if self.conn.poll(min(self._next_look(began, heavy_after - used, on_long, share), left)):
                return True
            if on_long is not None and time.monotonic() - began >= LONG_JOB:
                on_long()
                on_long = None
            if share is not None:
                share.look()
                continue
            used = self._cpu_seconds() - cpu
            if time.monotonic() - began >= DEMOTE_AFTER or used >= heavy_after:
                pid = self.process.pid
                share = Share(functools.partial(process_tasks, pid), self.niceness, pid=pid)
                self.demoted = True
                share.look()

    @staticmethod
    def _next_look(
        began: float, cpu_left: float, on_long: Callable[[], None] | None, share: Share | None
    ) -> float:
        """Seconds to wait for the answer before the next look: :data:`SHARE_LOOK` for heavy work, else
        until the job could have used ``cpu_left`` more CPU seconds, run :data:`DEMOTE_AFTER`, or (with
        ``on_long``) :data:`LONG_JOB` — at least :data:`LOOK_EVERY`."""
        if share is not None:
            return SHARE_LOOK
        ran = time.monotonic() - began
        until = min(cpu_left, DEMOTE_AFTER - ran, LONG_JOB - ran if on_long is not None else cpu_left)
        return max(LOOK_EVERY, until)

    def _cpu_seconds(self) -> float:
        """CPU seconds the process has run (read as each job is sent: one system call)."""
        return process_cpu_seconds(self.process.pid)

    def restored(self) -> bool:
        """Whether the worker runs at its jobs' priority on every core again, so it can take the next
        job (a lowered priority is raised only where the kernel allows it: see :class:`Share`)."""
        if self.demoted:
            if not place(self.process.pid, self.niceness, all_cores()):
                return False
            self.demoted = False
        return True

    def died_how(self) -> str:
        """Why the process ended, in words."""
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.process.wait(0.5)
        code = self.process.returncode
        if code is None:
            return "it stopped answering"
        if code == -signal.SIGABRT:
            # Rust aborts the process when an allocation fails (the memory limit) or on a panic
            return "it was killed by signal 6: Oxigraph aborted, out of memory or on an internal error"
        if code < 0:
            return f"it was killed by signal {-code}"
        return f"it exited with status {code}"

    def close(self) -> None:
        """Kill the process and release its socket; it is reaped in the background."""
        interpreters.stop(self.process, self.conn)


_early: list[_Worker] = []
_early_lock = threading.Lock()


def start_early(memory_mb: int) -> None:
    """Start a query worker now, for the :class:`WorkerPool` this process is about to make (which takes
    it as its first worker, see :meth:`WorkerPool._start`).

    An HTTP worker calls this before it loads its app: the worker's interpreter starts and imports while
    the app loads (~1 s), instead of after it, when the first query was already waiting for it (0.9-1.2 s
    of a restart's first named answer at the default store, load 6)."""
    worker = _Worker(memory_mb)
    with _early_lock:
        _early.append(worker)


def _started_early(memory_mb: int, jobs: tuple[str, ...]) -> _Worker | None:
    """A worker :func:`start_early` started as a pool with this memory limit and these jobs would,
    now the caller's; None if none."""
    with _early_lock:
        for worker in _early:
            if worker.memory_mb == memory_mb and worker.jobs == jobs:
                _early.remove(worker)
                return worker
    return None


class Slots:
    """At most ``size`` isolated jobs at once; the rest wait (within their deadline), then get 429."""

    QUEUE_WAIT = 0.5
    """Seconds a job waits for a free slot before it is refused with 429 (a short queue)."""

    def __init__(self, size: int) -> None:
        self.size = max(1, size)
        self._sem = threading.BoundedSemaphore(self.size)

    @contextlib.contextmanager
    def take(self, deadline: Deadline, *, retry_after: float) -> Iterator[None]:
        """Hold one slot for the duration of a job."""
        wait = max(0.0, min(self.QUEUE_WAIT, deadline.left()))
        if not self._sem.acquire(timeout=wait):
            raise TooManyRequests(
                f"{self.size} queries are already running (setting max_heavy_queries); retry later",
                errors=[{"limit": "max_heavy_queries", "value": self.size}],
                headers={"Retry-After": str(max(1, math.ceil(retry_after)))},
            )
        try:
            yield
        finally:
            self._sem.release()


class WorkerPool:
    """Worker processes for one store, reused across jobs, replaced when killed or dead.

    Started the first time they are needed (or by :meth:`warm_up`); the pool then keeps
    :data:`SPARES` started workers idle beside the busy ones (within ``size``), so a query never waits
    for a process to start (~0.3 s, seconds on a loaded machine) — not even right after a runaway
    query's worker was killed and the next runaway took the spare that was there.
    """

    SPARES = 2
    """Idle workers kept started, as far as ``size`` allows."""

    BOOT_SPARES = 1
    """Workers started as a server boots: one per HTTP worker. Every process of a starting server
    competes for the cores (kept search indexes loading, the writer warming up): with two spares each,
    the first answer after a restart at 1M quads took 0.9-1.1 s, with one 0.56-0.68 s. The first job's
    answer tops the pool up to :data:`SPARES`."""

    STARTUP = 60.0
    """Seconds a spare may take to start before it is given up."""

    START_WAIT = 10.0
    """Seconds a job waits for the process it had to start before it is refused as "busy" (429): a
    start takes ~0.3 s idle, 1-4 s with both cores busy."""

    def __init__(
        self,
        size: int,
        *,
        memory_mb: int = 0,
        snapshot: Callable[[], Snapshot | None] | None = None,
        jobs: tuple[str, ...] = (),
    ) -> None:
        self.size = max(1, size)
        self.memory_mb = memory_mb
        self.jobs = jobs
        """Modules of the jobs besides queries that this pool's workers run (imported as they start)."""
        self.snapshot = snapshot
        """The store's current snapshot, which a spare opens before it is offered (see :meth:`_ready_up`)."""
        self._idle: list[_Worker] = []
        self._busy: set[_Worker] = set()
        self._short: set[_Worker] = set()
        """Busy workers whose job has not run :data:`LONG_JOB`: each is free again soon, or the pool
        starts spares then (:meth:`_topped_up`)."""
        self._starting = 0
        self._lock = threading.Lock()
        self._ready = threading.Condition(self._lock)
        """Notified when a worker becomes idle or a start ends (see :meth:`_take`)."""
        self._closed = False

    def _start(self) -> _Worker:
        return _started_early(self.memory_mb, self.jobs) or _Worker(self.memory_mb, self.jobs)

    def warm_up(self, spares: int = SPARES) -> None:
        """Start spare workers in the background (up to ``spares`` idle ones), so queries do not wait
        for new processes."""
        with self._lock:
            wanted = min(
                spares - len(self._idle) - self._starting,
                self.size - len(self._idle) - len(self._busy) - self._starting,
            )
            if self._closed or wanted <= 0:
                return
            self._starting += wanted

        def start() -> None:
            try:
                worker: _Worker | None = self._start()
            except Exception:  # noqa: BLE001 - the next query starts its own and reports why
                worker = None
            if worker is not None and not self._ready_up(worker):
                worker.close()
                worker = None
            if worker is not None:
                self._give_back(worker)  # idle before it stops counting as starting: see _take
            with self._lock:
                self._starting -= 1
                self._ready.notify_all()

        for _ in range(wanted):
            threading.Thread(target=start, name="aikg-worker-warm-up", daemon=True).start()

    def _ready_up(self, worker: _Worker) -> bool:
        """Wait for a spare to start and open the current snapshot; whether it did. Opening one takes
        ~25 ms idle and 30-60 ms under the fair-share suite's hostile clients: a cheap ASK sent to a
        spare that had just replaced a runaway query's worker paid it (traced: 40-80 ms of its tail)."""
        if not worker.wait_ready(self.STARTUP):
            return False
        try:
            snapshot = self.snapshot() if self.snapshot is not None else None
        except StoreError:  # the store closed while the spare started: it is not wanted
            return False
        if snapshot is None:
            return True
        try:
            answer = worker.call(snapshot, opened, {}, Deadline.after(self.STARTUP))
        except (TimeoutError, EOFError):
            return False
        return bool(answer[0])

    def _idle_worker(self) -> _Worker | None:
        """An idle live worker, now busy (None when there is none); the caller holds the lock."""
        while self._idle:
            worker = self._idle.pop()
            if worker.alive():
                self._busy.add(worker)
                return worker
            worker.close()
        return None

    def _take(self, deadline: Deadline | None = None) -> _Worker:
        """A worker for a job, now busy: an idle one, else the first to become free of those on their
        way (a spare that is starting, a worker whose job has not run long), else a process started now.

        Taking a worker starts no spare: the pool is topped up once the job has answered, or has run
        :data:`LONG_JOB` (:meth:`_topped_up`, :meth:`run`). A spare's start is ~0.3 s of a core (seconds
        on a busy machine), and started beside a job it competed with it."""
        deadline = deadline or Deadline.after(self.STARTUP)
        with self._lock:
            worker = self._idle_worker()
            # A spare that is starting is ready sooner than a process started now, which would also
            # compete with it for the cores: right after a restart at 1M quads a query started its
            # own while the boot spare was half-way, and answered when that one was ready (+0.3 s).
            while (
                worker is None
                and (self._starting or self._short)
                and not self._closed
                and not deadline.expired()
            ):
                self._ready.wait(deadline.left())
                worker = self._idle_worker()
            if worker is not None:
                self._short.add(worker)
                return worker
        started = time.monotonic()
        worker = self._start()
        waited = time.monotonic() - started
        # a one-shot CLI query always starts its worker: only a long wait is worth a warning
        log.log(logging.WARNING if waited > 1 else logging.INFO, "a query waited %.2f s for a worker", waited)
        with self._lock:
            self._busy.add(worker)
            self._short.add(worker)
        return worker

    def _topped_up(self, worker: _Worker) -> None:
        """``worker``'s job has run long: start the spares the pool lacks now, and let a job waiting for
        ``worker`` (see :meth:`_take`) wait for those instead."""
        with self._lock:
            self._short.discard(worker)
            self._ready.notify_all()
        self.warm_up()

    def _give_back(self, worker: _Worker) -> None:
        if not worker.restored():  # a worker left lower or on fewer cores would slow the next query
            self._drop(worker)
            self._replace_later()
            return
        with self._lock:
            self._busy.discard(worker)
            self._short.discard(worker)
            if not self._closed and len(self._idle) + len(self._busy) < self.size and worker.alive():
                self._idle.append(worker)
                self._ready.notify()
                return
        worker.close()

    def _drop(self, worker: _Worker) -> None:
        with self._lock:
            self._busy.discard(worker)
            self._short.discard(worker)
            self._ready.notify_all()
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
        budget: float | None = None,
    ) -> Any:
        """Run ``fn(store, **kwargs)`` in a worker on ``snapshot``; kill it once it has run the time that
        was left of ``deadline`` when it was asked for (``budget``, when the caller asked earlier).

        Waiting for a worker is not running: on a busy machine a spare's start took the whole of a 3 s
        limit, and a one-pattern update was answered "query timeout" as if it had run away (CI, hostile
        traffic). The wait has bounds of its own: a spare is waited for until ``deadline``, a process
        start for :data:`START_WAIT` (or ``budget``, if longer) at most: past that, 429 (the service is
        busy, retry).

        A worker that dies without answering is replaced and the job tried once more; a second death is
        reported with its cause (a signal, the memory limit), never as a silent 5xx.
        """
        budget = max(0.0, deadline.left()) if budget is None else budget
        for attempt in range(2):
            worker = self._take(deadline)
            if not worker.wait_ready(max(budget, deadline.left(), self.START_WAIT)) and worker.alive():
                self._drop(worker)
                self._replace_later()
                raise TooManyRequests(
                    "no query worker could be started in time: the machine is busy; retry later",
                    errors=[{"limit": "query_timeout", "seconds": seconds}],
                    headers={"Retry-After": str(max(1, math.ceil(seconds)))},
                )
            running = Deadline(max(deadline.at, time.monotonic() + budget))
            try:
                long = functools.partial(self._topped_up, worker)
                payload = worker.call(snapshot, fn, kwargs, running, long)
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
                budget = running.left()  # the retry runs for what is left, not for a second budget
                if attempt or budget <= 0:
                    self._replace_later()
                    raise StoreError(
                        f"the query worker ended without an answer ({how}); the query "
                        "may need more memory than a worker may use (setting "
                        "query_memory)"
                    ) from None
                continue
            self._give_back(worker)
            self.warm_up()  # the answer is out: now spares may take the cores (see _take)
            if payload[0]:
                return payload[1]
            _, cls, message, errors = payload
            raise cls(message, errors=errors)
        raise AssertionError("unreachable")

    def close(self) -> None:
        """Stop every idle worker."""
        with self._lock:
            self._closed = True
            self._ready.notify_all()
            idle, self._idle = self._idle, []
            idle += list(self._busy)
        for worker in idle:
            worker.close()


def main(argv: list[str]) -> None:  # pragma: no cover - runs in the worker process
    """A worker process's entry point: ``python -m aikg.query.workers FD MEMORY_MB [MODULE ...]``."""
    conn = multiprocessing.connection.Connection(int(argv[0]))
    _worker_main(conn, int(argv[1]), argv[2:])


if __name__ == "__main__":  # pragma: no cover
    main(sys.argv[1:])
