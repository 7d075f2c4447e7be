"""After a query ran out of time: was it slow, or did it meet a damaged block of the store?

The engine surfaces a damaged data block as an error only where it reads solutions one by one; an
operator that gathers them first (ORDER BY, GROUP BY, COUNT, ASK) keeps running on it until its time
limit stops it (pyoxigraph 0.5.13; upstream: not filed), so the client was told "query timeout" for a
store that cannot be read. The probe reads the triple patterns of the query one by one, as plain
pattern reads (which do surface the engine's ``Corruption`` status), within a short budget: if one meets
a damaged block, the answer is the store's damage (:class:`aikg.errors.DamagedStore`); else the timeout
stands. A query that cannot be parsed here, or whose patterns take longer than the budget, keeps its
timeout: the probe never turns an ordinary timeout into damage.

A query worker is killed at its deadline; a read in the process that asked cannot be stopped (the engine
has no way to interrupt a query), and such an operator on a damaged block spins until the process ends:
an entity page waited until gunicorn killed its worker, and the client got a dropped connection. So a
read under a time limit runs on a reader thread (:func:`bounded_read`) that the caller waits for until
the deadline only: then the probe decides between 503 'store damaged' and 'query timeout'. The reader
left spinning cannot be stopped (pyoxigraph 0.5.13; upstream: not filed) and is not reused; once the
store object has met damage, a read probes its patterns first, so no other reader spins on the block.
"""

from __future__ import annotations

import functools
import os
import queue
import threading
from collections.abc import Callable
from concurrent.futures import Future
from concurrent.futures import TimeoutError as FutureTimeout
from typing import Any, TypeVar

import pyoxigraph as ox

from aikg.errors import DamagedStore, QueryTimeout
from aikg.store.base import Deadline, Store

T = TypeVar("T")

PROBE_SECONDS = 2.0
"""The probe's budget: a few pattern reads, after the query's own limit. They run in the process that
asked (lazy pattern reads cannot run away: the deadline is checked between quads), so the probe needs
no query worker, which may all be starting again after the timeout."""
PROBE_MAX_CHARS = 16_384
"""Longer texts are not probed: rdflib's parse of them is what takes time (a 9 KB chain of 1,000 '||'
takes 1.4 s, 20 KB of '1 + 1 + ...' 5.5 s; the longest named query, 13 KB, 0.4 s), and damage shows on
the next ordinary query anyway."""
PATTERN_QUADS = 200_000
"""The most quads read per pattern: a damaged block shows in the first reads of its range."""


@functools.lru_cache(maxsize=256)
def patterns(sparql: str) -> list[tuple[Any, Any, Any, Any]]:
    """The (subject, predicate, object, graph) patterns of a query, with a variable as None; empty when
    the text is not one rdflib reads."""
    from rdflib.plugins.sparql.algebra import translateQuery
    from rdflib.plugins.sparql.parser import parseQuery
    from rdflib.plugins.sparql.parserutils import CompValue

    try:
        algebra = translateQuery(parseQuery(sparql)).algebra
    except Exception:  # noqa: BLE001 - any text rdflib cannot read is simply not probed
        return []
    out: list[tuple[Any, Any, Any, Any]] = []

    def walk(node: object, graph: Any) -> None:
        if isinstance(node, CompValue):
            if node.name == "Graph":
                graph = node.get("term")
            if node.name == "BGP":
                for s, p, o in node.get("triples") or ():
                    out.append((_term(s), _term(p), _term(o), _graph(graph)))
            for value in node.values():
                walk(value, graph)
        elif isinstance(node, list | tuple):
            for value in node:
                walk(value, graph)

    walk(algebra, None)
    return out


def _term(t: object) -> ox.NamedNode | ox.Literal | None:
    from rdflib import Literal, URIRef  # here: a query worker imports the store layer, not rdflib

    if isinstance(t, URIRef):
        return ox.NamedNode(str(t))
    if isinstance(t, Literal):
        if t.language:
            return ox.Literal(str(t), language=t.language)
        return (
            ox.Literal(str(t), datatype=ox.NamedNode(str(t.datatype))) if t.datatype else ox.Literal(str(t))
        )
    return None  # a variable, a blank node or a path: read as any term


def _graph(term: object) -> str | None:
    from rdflib import URIRef

    return str(term) if isinstance(term, URIRef) else None


def probe_patterns(store: Store, sparql: str, deadline: Deadline, limit: int = PATTERN_QUADS) -> int:
    """Read each pattern of ``sparql`` (at most ``limit`` quads each) until ``deadline``; the quads
    read. Raises :class:`aikg.errors.DamagedStore` when a read meets a damaged block (the store's
    reads say so)."""
    read = 0
    for s, p, o, g in patterns(sparql):
        if isinstance(s, ox.Literal) or (p is not None and not isinstance(p, ox.NamedNode)):
            continue
        for n, _ in enumerate(store.quads(s, p, o, g), 1):
            read += 1
            if n >= limit or (read % 1024 == 0 and deadline.expired()):
                break
        if deadline.expired():
            break
    return read


STALL_GRACE = 0.5
"""Seconds past its deadline a bounded read is waited for (it checks the deadline between rows itself,
and a read that ends just after it is answered, not probed)."""
PRE_PROBE_SECONDS = 0.5
PRE_PROBE_QUADS = 1024
"""The look for a known damaged block before a read: short (it is paid by every read of a damaged
store); one it misses is found after the read's deadline, as for the first read that met the block."""
IDLE_READERS = 16
"""Reader threads kept waiting for the next read; more end when their read is done."""


def bounded_read(
    read: Callable[[], T], store: Store, sparql: str, deadline: Deadline, *, known_damage: bool
) -> T:
    """``read()`` (a read of ``store`` running ``sparql``) on a reader thread, waited for until
    ``deadline``: its answer or its error; past the deadline :class:`DamagedStore` when the query's
    patterns meet a damaged block, else :class:`QueryTimeout`. With ``known_damage`` the patterns are
    read first, so a read that would meet the block is refused before the engine runs on it."""
    if known_damage:
        probe_within(store, sparql, PRE_PROBE_SECONDS, PRE_PROBE_QUADS)
    future: Future[T] = Future()
    _reader().jobs.put((read, future))
    try:
        return future.result(timeout=max(0.0, deadline.left()) + STALL_GRACE)
    except FutureTimeout:
        probe_within(store, sparql)
        raise QueryTimeout("the read ran past its time limit") from None


def probe_within(
    store: Store, sparql: str, seconds: float = PROBE_SECONDS, limit: int = PATTERN_QUADS
) -> None:
    """Raise :class:`DamagedStore` when the patterns of ``sparql`` (``limit`` quads each) meet a damaged
    block of ``store``, read on a thread waited for at most ``seconds`` (and a little): rdflib's parse of
    a long text cannot be stopped. Texts over :data:`PROBE_MAX_CHARS` are not probed."""
    if len(sparql) > PROBE_MAX_CHARS:
        return
    outcome: list[BaseException | None] = []

    def run() -> None:
        try:
            probe_patterns(store, sparql, Deadline.after(seconds), limit)
            outcome.append(None)
        except BaseException as exc:  # noqa: BLE001 - handed to the caller, which keeps only damage
            outcome.append(_detached(exc))

    worker = threading.Thread(target=run, name="aikg-damage-probe", daemon=True)
    worker.start()
    worker.join(seconds + 0.5)
    if outcome and isinstance(outcome[0], DamagedStore):
        raise outcome[0]


class _Reader(threading.Thread):
    """A daemon thread running reads one after another (a daemon: one spinning on a damaged block never
    holds up the process's exit, as a ThreadPoolExecutor's threads would)."""

    def __init__(self) -> None:
        super().__init__(name="aikg-read", daemon=True)
        self.jobs: queue.SimpleQueue[tuple[Callable[[], Any], Future[Any]]] = queue.SimpleQueue()

    def run(self) -> None:
        while True:
            read, future = self.jobs.get()
            if future.set_running_or_notify_cancel():
                try:
                    future.set_result(read())
                except BaseException as exc:  # noqa: BLE001 - the caller's to raise
                    future.set_exception(_detached(exc))
            del read, future
            with _LOCK:
                if len(_IDLE) >= IDLE_READERS:
                    return
                _IDLE.append(self)


def _detached(exc: BaseException) -> BaseException:
    """``exc`` without the tracebacks of its chain: their frames hold the engine's iterators, which must
    be dropped on the thread that made them (pyoxigraph's are unsendable), not where ``exc`` is raised."""
    seen: set[int] = set()
    link: BaseException | None = exc
    while link is not None and id(link) not in seen:
        seen.add(id(link))
        link.__traceback__ = None
        link = link.__cause__ or link.__context__
    return exc


_LOCK = threading.Lock()
_IDLE: list[_Reader] = []


def _reader() -> _Reader:
    with _LOCK:
        if _IDLE:
            return _IDLE.pop()
    reader = _Reader()
    reader.start()
    return reader


def _forget_readers() -> None:
    _IDLE.clear()  # a forked child has none of its parent's threads


os.register_at_fork(after_in_child=_forget_readers)
