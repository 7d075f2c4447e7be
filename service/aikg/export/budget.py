"""The request's time limit over an export's own Python work, not only over its store reads.

Selecting a neighbourhood, building the drawn graph, folding, capping and writing a format are loops in
this process: the store's reads stop at the request's deadline (:func:`aikg.store.base.deadline_scope`),
but without these checks a hub's four hops could still spend many seconds in Python after its last
read. Each loop passes its items through :func:`bounded`, which checks that same deadline every few
hundred items and raises :class:`~aikg.errors.QueryTimeout`, the error a runaway SPARQL query ends in.
Outside a request (``aikg export``) there is no deadline and nothing is checked.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from typing import TypeVar

from aikg.errors import QueryTimeout
from aikg.store.base import current_deadline

T = TypeVar("T")

EVERY = 256
"""Items between two checks: a check costs a clock read, 256 items of the slowest loop (a node of the
drawn graph) take about a millisecond, so the limit is overrun by far less than a second."""


_pause: Callable[[], None] | None = None
"""Called at every check: where a process that answers cheap and heavy requests on threads of one
interpreter lets its heavy ones wait while a cheap one runs (:mod:`aikg.serving.views`)."""


def pause_with(fn: Callable[[], None] | None) -> None:
    """Call ``fn`` at every check of this process (None: nothing)."""
    global _pause
    _pause = fn


def check(doing: str) -> None:
    """QueryTimeout if the request's deadline has passed; ``doing`` says at which step."""
    if _pause is not None:
        _pause()
    deadline = current_deadline()
    if deadline is not None and deadline.expired():
        raise _timeout(doing)


def _timeout(doing: str) -> QueryTimeout:
    return QueryTimeout(
        f"the request ran past its time limit while {doing} and was stopped", errors=[{"step": doing}]
    )


def step_of(exc: QueryTimeout) -> str:
    """What the request was doing when ``exc`` stopped it: a step named here, else reading the store."""
    for error in exc.errors:
        if isinstance(error, dict) and isinstance(error.get("step"), str):
            return str(error["step"])
    return "reading the store"


def bounded(items: Iterable[T], doing: str, *, every: int = EVERY) -> Iterator[T]:
    """``items``, checking the request's deadline before the first and then every ``every`` items."""
    deadline = current_deadline()
    if deadline is None:
        yield from items
        return
    for i, item in enumerate(items):
        if i % every == 0:
            if _pause is not None:
                _pause()
            if deadline.expired():
                raise _timeout(doing)
        yield item
