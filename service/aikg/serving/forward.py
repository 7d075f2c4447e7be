"""A reader's gate: the same operations as :class:`aikg.write.gate.Gate`, done by the writer process.

The HTTP worker checks and parses what it can (token, body size, RDF syntax, the guard), then sends
the operation to the writer through gunicorn's dirty client and turns its answer back into an
:class:`~aikg.write.gate.Outcome` or the same typed error. The writer answers only once the new
snapshot is published, and this worker then reads it: a client reads its own write next.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import pyoxigraph as ox

from aikg import errors
from aikg.errors import AikgError, StoreError, ValidationFailed, WriteTimeout
from aikg.knowledge.validate import ValidationResult
from aikg.serving.writer import APP_PATH
from aikg.store import Deadline
from aikg.write.gate import Outcome


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


class ForwardingGate:
    """Writes done by the writer process (see the module docstring)."""

    def __init__(self, timeout: float) -> None:
        self.timeout = timeout

    def _call(self, action: str, *args: Any, deadline: Deadline | None = None) -> Outcome:
        from gunicorn.dirty.client import DirtyClient, get_dirty_socket_path
        from gunicorn.dirty.errors import DirtyError, DirtyTimeoutError

        seconds = self.timeout if deadline is None else max(1.0, deadline.left())
        # The writer gets the request's deadline, less a reserve for its commit and publication, and
        # commits nothing past it; this side waits a little longer, so it hears the writer's refusal.
        writer_seconds = seconds * WRITER_SHARE
        # A client of its own: gunicorn's per-thread client keeps the timeout of its first call.
        try:
            with DirtyClient(get_dirty_socket_path(), timeout=seconds + ANSWER_GRACE) as client:
                answer = client.execute(APP_PATH, action, *args, seconds=writer_seconds)
        except DirtyTimeoutError:
            raise WriteTimeout(
                f"the write ran past its time limit of {seconds:.0f} s (setting "
                "write_timeout); the writer commits nothing past it, so it was not committed "
                "unless its commit had begun: read the data to see",
                errors=[{"limit": "write_timeout", "seconds": round(seconds, 1)}],
            ) from None
        except DirtyError as exc:
            raise StoreError(
                f"the writer process did not answer ({type(exc).__name__}); the write may "
                "not have been committed: read the data to see"
            ) from None
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


def _error(answer: dict[str, Any]) -> AikgError:
    cls = getattr(errors, str(answer.get("type")), None)
    if not (isinstance(cls, type) and issubclass(cls, AikgError)):
        cls = StoreError
    if cls is ValidationFailed:
        report = ForwardedReport(answer["report"]) if answer.get("report") else None
        return ValidationFailed(answer["message"], report=report, errors=answer.get("errors"))
    return cls(answer["message"], errors=answer.get("errors"), headers=answer.get("headers"))


__all__ = ["ForwardingGate", "ValidationResult"]
