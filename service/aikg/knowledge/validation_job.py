"""Whole-store validation as a job: computed once per store version, one computation at a time.

Validating every graph against the shapes takes seconds of CPU (about 14 s with the Epoch data), so no
request computes it: :class:`ValidationJob` keeps the last report and computes the next one in the
background — when the report of the current version is first asked for, and, once anyone has asked,
again after writes (when they have settled for :data:`SETTLE` seconds). Where the store has snapshots
(the embedded on-disk store) the computation runs in a query worker process of its own, at a lower CPU
priority and killed at its time limit (``write_timeout``); elsewhere (in memory, a remote engine) in a
thread, its store reads bounded by that limit. Whatever the requests and their query strings, at most
one computation runs, and none runs twice for one version.

What a request is told is an :class:`Answer`: the report of its version (``done``), that it is being
computed (``running``) or will be once the one running ends (``queued``) — with the last complete
report of an older version, marked as such, so a reader is never left with nothing nor misled —, or
that it failed (``failed``, not tried again for that version before :data:`RETRY_FAILED` seconds).

The state is a :class:`Board` of plain data: the serving writer publishes it to a file its HTTP workers
read (:mod:`aikg.serving.validation`), so one computation serves every worker.
"""

from __future__ import annotations

import dataclasses
import logging
import math
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from aikg.errors import AikgError, QueryTimeout, StoreError
from aikg.query.workers import WorkerPool
from aikg.store import Deadline, Snapshot, Store
from aikg.store.base import deadline_scope

log = logging.getLogger(__name__)

FIRST_GUESS = 3.0
"""Seconds a computation is assumed to take before one has been timed (for Retry-After)."""
SETTLE = 2.0
"""Seconds without a write before the report is computed again for the new version: a burst of writes
(an import) costs one computation, not one per write."""
RETRY_FAILED = 300.0
"""Seconds before a version whose validation failed is tried again on demand (a failure is mostly its
time or memory limit, which a retry at once would meet again)."""
MAX_RETRY_AFTER = 30
"""Most seconds a client is told to wait before it asks again (an estimate, so it should look again)."""


def compute_report(store: Store) -> dict[str, Any]:
    """The whole store's report as plain data (module level, so a query worker can run it)."""
    from aikg.knowledge.validate import validate_store

    result = validate_store(store)
    return {"json": result.to_json(), "turtle": result.to_turtle()}


@dataclass(frozen=True)
class Finished:
    """One finished computation: the report of ``version``, or why there is none (``message``)."""

    version: int
    snapshot: str | None
    """The snapshot validated, where there is one: a version number alone is reused after a restart."""
    started: float
    """When it began (``time.time()``)."""
    seconds: float
    report: dict[str, Any] | None = None
    """``{"json": {...}, "turtle": "..."}`` when it succeeded."""
    message: str = ""

    def covers(self, version: int, snapshot: str | None) -> bool:
        """True if this is about ``version`` (and ``snapshot``, when the asker names one)."""
        return self.version == version and (snapshot is None or self.snapshot == snapshot)

    def summary(self) -> dict[str, Any]:
        """The report's JSON with the version it is for and when it was computed."""
        body: dict[str, Any] = dict(self.report["json"]) if self.report else {}
        return {"version": self.version, **body, "started": _iso(self.started), "seconds": self.seconds}


@dataclass(frozen=True)
class Running:
    """The computation under way."""

    version: int
    snapshot: str | None
    started: float

    def covers(self, version: int, snapshot: str | None) -> bool:
        return self.version == version and (snapshot is None or self.snapshot == snapshot)


@dataclass(frozen=True)
class Board:
    """Where validation stands: the last report, a failure since, the computation running, and how
    long one takes. Plain data, so it can be published to other processes."""

    report: Finished | None = None
    failed: Finished | None = None
    running: Running | None = None
    expected: float = FIRST_GUESS
    """Seconds the last computation took."""

    def to_json(self) -> dict[str, Any]:
        return dataclasses.asdict(self)

    @classmethod
    def from_json(cls, body: dict[str, Any]) -> Board:
        def finished(d: dict[str, Any] | None) -> Finished | None:
            return Finished(**d) if d else None

        running = body.get("running")
        return cls(
            finished(body.get("report")),
            finished(body.get("failed")),
            Running(**running) if running else None,
            float(body.get("expected") or FIRST_GUESS),
        )


@dataclass(frozen=True)
class Answer:
    """What ``GET /api/validate`` says about one version (see the module docstring)."""

    state: str
    """``done``, ``running``, ``queued`` or ``failed``."""
    version: int
    finished: Finished | None = None
    """The report (done) or the failure (failed)."""
    previous: Finished | None = None
    """Running or queued: the last complete report, of an older version."""
    started: float | None = None
    retry_after: int = 1
    """Seconds to wait before asking again (running, queued, failed)."""

    def to_json(self) -> dict[str, Any]:
        """The 202 body of a report still to come (running or queued)."""
        if self.state == "running":
            message = f"the report for store version {self.version} is being computed"
        else:
            message = f"the report for store version {self.version} will be computed next"
        message += f"; ask again in {self.retry_after} s"
        if self.previous is not None:
            message += f" (the last complete report, under 'previous', is of version {self.previous.version})"
        return {
            "ok": True,
            "state": self.state,
            "version": self.version,
            "started": _iso(self.started) if self.started is not None else None,
            "retry_after": self.retry_after,
            "message": message,
            "previous": self.previous.summary() if self.previous is not None else None,
        }


def _iso(t: float) -> str:
    # milliseconds: computations run one after another, so no two share a start time
    return time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(t)) + f".{int(t * 1000) % 1000:03d}Z"


def _wait(seconds: float) -> int:
    return max(1, min(MAX_RETRY_AFTER, math.ceil(seconds)))


def answer(board: Board, version: int, snapshot: str | None, now: float) -> Answer | None:
    """What to tell a request for ``version``; None if nothing is done, running or failed for it (a
    computation must be asked for: :func:`queued` is the answer meanwhile)."""
    if board.report is not None and board.report.covers(version, snapshot):
        return Answer("done", version, board.report)
    failed = board.failed
    if failed is not None and failed.covers(version, snapshot) and now - failed.started < RETRY_FAILED:
        return Answer("failed", version, failed, retry_after=_wait(failed.started + RETRY_FAILED - now))
    running = board.running
    if running is not None and running.covers(version, snapshot):
        left = board.expected - max(0.0, now - running.started)
        return Answer(
            "running", version, previous=board.report, started=running.started, retry_after=_wait(left)
        )
    return None


def queued(board: Board, version: int, now: float) -> Answer:
    """The answer for ``version`` while its computation waits for the one running (or to begin)."""
    left = board.expected
    if board.running is not None:
        left += max(0.0, board.expected - (now - board.running.started))
    return Answer("queued", version, previous=board.report, retry_after=_wait(left))


class _JobPool(WorkerPool):
    """A worker pool that starts no process once closed (a job stopped at shutdown is not retried)."""

    def _start(self) -> Any:
        if self._closed:
            raise StoreError("the service is stopping")
        return super()._start()


class ValidationJob:
    """The whole-store report, computed at most once per store version and one at a time."""

    def __init__(self, store: Store, *, timeout: float, memory_mb: int = 0, settle: float = SETTLE) -> None:
        self.store, self.timeout, self.memory_mb, self.settle = store, timeout, memory_mb, settle
        self._lock = threading.Lock()
        self._publishing = threading.Lock()
        self._done = threading.Condition(self._lock)
        self._board = Board()
        self._wanted = False
        """Someone asked for a report: keep it current after writes."""
        self._pending = False
        """A newer version was asked for while a computation ran: start it when that one ends."""
        self._timer: threading.Timer | None = None
        self._pool: _JobPool | None = None
        self._closed = False
        self.computations = 0
        """How many computations were started (each costs seconds of CPU)."""
        self.published: list[Callable[[Board], None]] = []
        """Called with the new board whenever it changes (the serving writer writes it to a file)."""

    @property
    def board(self) -> Board:
        return self._board

    def state(self) -> Answer:
        """The answer for the store's current version, starting its computation if none is under way."""
        version = self.store.version
        started = None
        with self._lock:
            self._wanted = True
            now = time.time()
            found = answer(self._board, version, None, now)
            if found is None:
                if self._board.running is None:
                    started = self._start_locked()
                else:
                    self._pending = True
                found = answer(self._board, version, None, now) or queued(self._board, version, now)
        if started is not None:
            self._publish()
        return found

    def changed(self) -> None:
        """After a commit: compute the report again once writes settle, if anyone has asked for one."""
        with self._lock:
            if not self._wanted or self._closed:
                return
            if self._timer is not None:
                self._timer.cancel()
            self._timer = threading.Timer(self.settle, self._settled)
            self._timer.daemon = True
            self._timer.start()

    def wait(self, timeout: float) -> bool:
        """Block until no computation runs (``timeout`` at most); True if none does."""
        with self._done:
            return self._done.wait_for(lambda: self._board.running is None, timeout)

    def close(self) -> None:
        """Stop a running computation and start no other."""
        with self._lock:
            self._closed = True
            if self._timer is not None:
                self._timer.cancel()
            pool = self._pool
        if pool is not None:
            pool.close()

    # -- the computation ---------------------------------------------------------------------------

    def _settled(self) -> None:
        with self._lock:
            self._timer = None
            version = self.store.version
            if answer(self._board, version, None, time.time()) is not None:
                return  # done, failed or running for this version already
            if self._board.running is not None:
                self._pending = True  # an older version's: this one next
                return
            started = self._start_locked()
        if started is not None:
            self._publish()

    def _start_locked(self) -> Board | None:
        """Start computing the current version (the lock held, nothing running); the new board."""
        if self._closed:
            return None
        snapshot = self.store.snapshot()
        version = snapshot.version if snapshot is not None else self.store.version
        path = str(snapshot.path) if snapshot is not None else None
        running = Running(version, path, time.time())
        self._board = dataclasses.replace(self._board, running=running)
        self.computations += 1
        threading.Thread(
            target=self._compute, args=(snapshot, running), name="aikg-validate", daemon=True
        ).start()
        return self._board

    def _compute(self, snapshot: Snapshot | None, running: Running) -> None:
        version, start = running.version, time.monotonic()
        deadline = Deadline.after(self.timeout)
        report: dict[str, Any] | None = None
        message = ""
        try:
            report = self._run(snapshot, deadline)
        except QueryTimeout:
            message = (
                f"the validation ran past its time limit of {self.timeout:g} s (setting write_timeout) "
                "and was stopped"
            )
        except AikgError as exc:
            message = exc.message
        except Exception:  # noqa: BLE001 - reported as a failed job, never as a crashed thread
            log.exception("whole-store validation failed")
            message = "the validation failed; the error was logged"
        took = round(time.monotonic() - start, 2)
        finished = Finished(version, running.snapshot, running.started, took, report, message)
        with self._lock:
            old = self._board
            if report is not None:
                board = Board(finished, None, None, max(took, 0.1))
            else:
                board = Board(old.report, finished, None, max(old.expected, took))
            self._board = board
            again = self._pending and not self._closed
            self._pending = False
            self._done.notify_all()
        self._publish()
        if again:
            self._settled()
        elif self._wanted and self.store.version != version:
            self.changed()  # written to while it ran: the new version's report, once writes settle

    def _run(self, snapshot: Snapshot | None, deadline: Deadline) -> dict[str, Any]:
        if snapshot is None:
            with deadline_scope(deadline):
                return compute_report(self.store)
        pool = _JobPool(1, memory_mb=self.memory_mb)
        with self._lock:
            if self._closed:
                raise StoreError("the service is stopping")
            self._pool = pool
        try:
            report: dict[str, Any] = pool.run(
                snapshot, compute_report, {}, deadline=deadline, seconds=self.timeout
            )
            return report
        finally:
            with self._lock:
                self._pool = None
            pool.close()

    def _publish(self) -> None:
        # One publication at a time, each of the board as it is then: the last one written is current.
        with self._publishing:
            board = self._board
            for hook in self.published:
                try:
                    hook(board)
                except Exception:  # noqa: BLE001 - a reader missing one board beats a stuck job
                    log.exception("publishing the validation board failed")
