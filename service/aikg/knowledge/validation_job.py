"""Whole-store validation as a job: computed once per store version, one computation at a time.

Validating every graph against the shapes takes seconds of CPU (about 14 s with the Epoch data), so
``GET /api/validate`` must not start it on every request: :class:`ValidationJob` keeps the report of the
store's current version, and when there is none it starts one computation — in a query worker on the
store's snapshot where the store has them (killable, at a lower CPU priority, bounded by
``write_timeout``), else in a thread — and says "running" until it is done. Further requests, whatever
their query string, wait for that same computation. With several HTTP workers the writer process runs
the one job for all of them (:class:`aikg.serving.forward.ForwardedValidation`).
"""

from __future__ import annotations

import logging
import math
import threading
import time
from dataclasses import dataclass
from typing import Any

from aikg.errors import AikgError, TooManyRequests
from aikg.query.runner import QueryRunner
from aikg.store import Deadline, Store

log = logging.getLogger(__name__)

FIRST_GUESS = 10.0
"""Seconds a computation is assumed to take before one has been timed (for Retry-After)."""


def compute_report(store: Store) -> dict[str, Any]:
    """The whole store's report as plain data (module level, so a query worker can run it)."""
    from aikg.knowledge.validate import validate_store

    result = validate_store(store)
    return {"json": result.to_json(), "turtle": result.to_turtle()}


@dataclass(frozen=True)
class JobState:
    """Where the report of one store version stands: ``done`` (with it), ``running`` or ``failed``."""

    state: str
    version: int
    report: dict[str, Any] | None = None
    """``{"json": {...}, "turtle": "..."}`` when done."""
    seconds: float | None = None
    """How long the computation took (done, failed) or is expected to take still (running)."""
    message: str = ""

    def to_json(self) -> dict[str, Any]:
        return {"state": self.state, "version": self.version, "report": self.report, "seconds": self.seconds,
                "message": self.message}

    @classmethod
    def from_json(cls, body: dict[str, Any]) -> JobState:
        return cls(str(body["state"]), int(body["version"]), body.get("report"), body.get("seconds"),
                   str(body.get("message") or ""))

    @property
    def retry_after(self) -> int:
        """Whole seconds a client should wait before it asks again."""
        return max(1, math.ceil(self.seconds or 1))


class ValidationJob:
    """The report of the store's current version, computed at most once and one at a time."""

    def __init__(self, store: Store, runner: QueryRunner, timeout: float) -> None:
        self.store, self.runner, self.timeout = store, runner, timeout
        self._lock = threading.Lock()
        self._last: JobState | None = None
        """The last finished computation (done or failed)."""
        self._running: tuple[int, float] | None = None
        """The version being validated and when it started."""
        self._took = FIRST_GUESS

    def state(self) -> JobState:
        """The report for the current version, or that it is being computed (started here if need be)."""
        version = self.store.version
        with self._lock:
            if self._last is not None and self._last.version == version:
                return self._last
            if self._running is None:
                self._running = (version, time.monotonic())
                threading.Thread(target=self._compute, args=(version,), name="aikg-validate",
                                 daemon=True).start()
            started = self._running[1]
            left = max(1.0, self._took - (time.monotonic() - started))
            return JobState("running", self._running[0], seconds=round(left, 1))

    def _compute(self, version: int) -> None:
        start = time.monotonic()
        deadline = Deadline.after(self.timeout)
        try:
            while True:
                try:
                    report = self.runner.isolated(compute_report, {}, deadline=deadline)
                    break
                except TooManyRequests:  # every query slot busy: wait for one, within the time limit
                    if deadline.left() < 1:
                        raise
                    time.sleep(0.5)
            state = JobState("done", version, report, seconds=round(time.monotonic() - start, 2))
        except AikgError as exc:
            state = JobState("failed", version, seconds=round(time.monotonic() - start, 2),
                             message=exc.message)
        except Exception:  # noqa: BLE001 - reported as a failed job, never as a crashed thread
            log.exception("whole-store validation failed")
            state = JobState("failed", version, seconds=round(time.monotonic() - start, 2),
                             message="the validation failed; it was logged")
        with self._lock:
            self._took = state.seconds or self._took
            self._last = state
            self._running = None
