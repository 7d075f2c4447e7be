"""A reader's gate: the same operations as :class:`aikg.write.gate.Gate`, done by the writer process.

The HTTP worker checks and parses what it can (token, body size, RDF syntax, the guard), then sends
the operation to the writer through gunicorn's dirty client and turns its answer back into an
:class:`~aikg.write.gate.Outcome` or the same typed error. The writer answers only once the new
snapshot is published, and this worker then reads it: a client reads its own write next.

gunicorn's dirty arbiter hands the writer one request at a time, in arrival order, and the time a
request spends in that queue is invisible to both sides. So writes take turns here instead, under a lock
file all HTTP workers share (:class:`WriteTurn`): a write that waits for others past its deadline is
refused with 429 (nothing changed, retry), never sent to time out behind them; the writer is given the
deadline as a wall-clock instant, so the time a write took to reach it counts.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import threading
import time
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import pyoxigraph as ox

from aikg import errors
from aikg.errors import AikgError, NotReady, StoreError, TooManyRequests, ValidationFailed, WriteTimeout
from aikg.knowledge.validate import ValidationResult
from aikg.serving import publication
from aikg.serving.writer import APP_PATH
from aikg.store import Deadline
from aikg.write.gate import Outcome, Phases


class ForwardedReport:
    """A validation report as the writer sent it: JSON for the envelope, Turtle on request."""

    def __init__(self, body: dict[str, Any]) -> None:
        self.body = body

    def to_json(self) -> dict[str, Any]:
        report: dict[str, Any] = self.body["json"]
        return report

    def to_turtle(self) -> str:
        turtle: str = self.body["turtle"]
        return turtle


WRITER_SHARE = 0.9
"""The part of a write's remaining time the writer may spend before it must have begun to commit; the
rest is kept for the commit and the snapshot it publishes."""
ANSWER_GRACE = 0.5
"""Seconds an HTTP worker waits for the writer past the request's deadline, to hear its answer."""


RETRY_AFTER = 2
"""Seconds a write refused because others held the writer is told to wait before it retries."""
IMPORT_TIMEOUT = 1800.0
"""Seconds an HTTP worker waits for an uploaded Epoch import (reading, resolving, validating files)."""
TURN_SHARE = 0.5
"""The part of a write's time limit it may spend waiting for its turn: one that gets it later would
reach the writer with too little time to validate and commit, and time out with its fate unknown."""
POLL = 0.02
"""Seconds between two tries at the lock file while other writes hold it."""


class WriteTurn:
    """The turn to send a write to the writer, shared by every HTTP worker through ``flock`` on one file.

    A lock file, not a lock in memory: the HTTP workers are separate processes. The kernel releases it
    when its holder's process dies, so no crashed worker can keep the others waiting.
    """

    def __init__(self, path: Path) -> None:
        self.path = path

    def take(self, deadline: Deadline) -> int | None:
        """The lock's file descriptor once it is this caller's turn; None if the deadline passed first."""
        self.path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o600)
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                return fd
            except BlockingIOError:
                if deadline.expired():
                    os.close(fd)
                    return None
                time.sleep(POLL)

    @staticmethod
    def give_back(fd: int) -> None:
        """Release the turn (closing the descriptor releases the lock)."""
        os.close(fd)


class ForwardingGate:
    """Writes done by the writer process (see the module docstring)."""

    def __init__(self, timeout: float, folder: Path) -> None:
        self.timeout = timeout
        self.folder = folder
        self.turn = WriteTurn(folder / "write-turn.lock")

    def state(self) -> str:
        """``ready`` once the writer takes writes, ``starting`` before."""
        return "ready" if publication.writer_ready(self.folder) else "starting"

    def _starting(self) -> NotReady:
        return NotReady(
            "writes are not taken yet: the writer process is starting (opening the store, loading the "
            f"seeds, warming up); nothing was changed: retry in {RETRY_AFTER} s (GET /api/health says "
            "when writes are ready)",
            headers={"Retry-After": str(RETRY_AFTER)},
        )

    def _call(self, action: str, *args: Any, deadline: Deadline | None = None) -> Outcome:
        from gunicorn.dirty.errors import DirtyError, DirtyTimeoutError

        if not publication.writer_ready(self.folder):
            raise self._starting()
        deadline = deadline or Deadline.after(self.timeout)
        started = time.monotonic()
        phases = Phases()
        fd = self.turn.take(Deadline.after(deadline.left() * TURN_SHARE))
        if fd is None:
            waited = time.monotonic() - started
            raise TooManyRequests(
                f"other writes held the writer for the {waited:.0f} s this one could wait "
                "(setting write_timeout); nothing was changed: retry later",
                errors=[{"limit": "write_timeout", "seconds": round(waited, 1)}],
                headers={"Retry-After": str(RETRY_AFTER)},
            )
        handed_on = False
        seconds = max(1.0, deadline.left())
        phases.mark("waiting for its turn (other writes)")
        try:
            # The writer gets the request's deadline, less a reserve for its commit and publication, and
            # commits nothing past it; this side waits a little longer, so it hears the writer's refusal.
            answer = _execute(
                action, *args, timeout=seconds + ANSWER_GRACE, until=time.time() + seconds * WRITER_SHARE
            )
        except DirtyTimeoutError:
            # The writer is still busy with this write: the turn stays taken until it answers anything,
            # so the next write waits here (and hears 429 at its deadline), not in the arbiter's queue.
            threading.Thread(
                target=_hold_until_idle, args=(fd, self.timeout), name="aikg-write-turn", daemon=True
            ).start()
            handed_on = True
            raise WriteTimeout(
                f"the write ran past its time limit of {seconds:.0f} s (setting "
                "write_timeout); the writer commits nothing past it, so it was not committed "
                "unless its commit had begun: read the data to see",
                errors=[{"limit": "write_timeout", "seconds": round(seconds, 1)}],
            ) from None
        except DirtyError as exc:
            if not publication.writer_ready(self.folder):  # it was being replaced: the write never reached it
                raise self._starting() from None
            raise StoreError(
                f"the writer process did not answer ({type(exc).__name__}); the write may "
                "not have been committed: read the data to see"
            ) from None
        finally:
            if not handed_on:
                self.turn.give_back(fd)
            phases.mark("sent to the writer and answered")
            phases.report(f"a forwarded {action}")
        if answer.get("ok"):
            return Outcome.from_json(answer["outcome"], created=bool(answer.get("created")))
        raise _error(answer)

    def update(
        self,
        text: str,
        *,
        deadline: Deadline | None = None,
        using: list[str] | None = None,
        using_named: list[str] | None = None,
    ) -> Outcome:
        """A SPARQL 1.1 Update, committed by the writer."""
        return self._call("update", text, list(using or ()), list(using_named or ()), deadline=deadline)

    def put(
        self, graph: str, quads: Iterable[ox.Quad], *, replace: bool, deadline: Deadline | None = None
    ) -> Outcome:
        """A Graph Store PUT/POST, committed by the writer."""
        nquads = ox.serialize(list(quads), format=ox.RdfFormat.N_QUADS) or b""
        return self._call("put", graph, nquads, replace, deadline=deadline)

    def drop(self, graph: str, *, deadline: Deadline | None = None) -> Outcome:
        """A Graph Store DELETE, committed by the writer."""
        return self._call("drop", graph, deadline=deadline)

    def import_epoch(self, files: dict[str, bytes], options: dict[str, Any]) -> dict[str, Any]:
        """An Epoch import of uploaded files (or its dry run), done by the writer: its report as plain
        data. An import reads and validates whole files, so it may take up to :data:`IMPORT_TIMEOUT`."""
        from gunicorn.dirty.errors import DirtyError

        fd = self.turn.take(Deadline.after(self.timeout * TURN_SHARE))
        if fd is None:
            raise TooManyRequests(
                "other writes held the writer; nothing was changed: retry later",
                headers={"Retry-After": str(RETRY_AFTER)},
            )
        try:
            answer = _execute("import_epoch", files, options, timeout=IMPORT_TIMEOUT)
        except DirtyError as exc:
            raise StoreError(
                f"the writer process did not answer the import ({type(exc).__name__}): read "
                "/api/imports/latest to see whether it was committed"
            ) from None
        finally:
            self.turn.give_back(fd)
        if answer.get("ok"):
            report: dict[str, Any] = answer["report"]
            return report
        raise _error(answer)


def _execute(action: str, *args: Any, timeout: float, **kwargs: Any) -> Any:
    from gunicorn.dirty.client import DirtyClient, get_dirty_socket_path

    # A client of its own: gunicorn's per-thread client keeps the timeout of its first call.
    with DirtyClient(get_dirty_socket_path(), timeout=timeout) as client:
        return client.execute(APP_PATH, action, *args, **kwargs)


IDLE_WAIT_SHARE = 3
"""How many write time limits a timed-out write may keep the turn while the writer finishes it (the
writer cannot stop validating midway); after that the turn is given back whatever the writer does."""


def _hold_until_idle(fd: int, timeout: float) -> None:
    """Keep the turn until the writer answers a status call (queued behind the write that timed out)."""
    from gunicorn.dirty.errors import DirtyError

    try:
        with contextlib.suppress(DirtyError, OSError):
            _execute("status", timeout=timeout * IDLE_WAIT_SHARE)
    finally:
        WriteTurn.give_back(fd)


def _error(answer: dict[str, Any]) -> AikgError:
    cls = getattr(errors, str(answer.get("type")), None)
    if not (isinstance(cls, type) and issubclass(cls, AikgError)):
        cls = StoreError
    if cls is ValidationFailed:
        report = ForwardedReport(answer["report"]) if answer.get("report") else None
        return ValidationFailed(answer["message"], report=report, errors=answer.get("errors"))
    return cls(answer["message"], errors=answer.get("errors"), headers=answer.get("headers"))


__all__ = ["ForwardingGate", "ValidationResult"]
