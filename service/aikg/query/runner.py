"""The one query runner: every query from outside (SPARQL protocol, named queries, the CLI) and every
job that must be stoppable (the staging of an update) goes through :class:`QueryRunner`.

A query gets one deadline, taken when it arrives, that covers its wait for a slot and its run; the
checks that keep aikg from fetching anything on a client's behalf run before anything else. Where the
store can hand out snapshots (the embedded on-disk store), the query runs in a worker process that is
killed at the deadline (:mod:`aikg.query.workers`); elsewhere it runs in this process and the deadline
is checked while its rows are read (a remote engine also enforces its own limit).
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Mapping, Sequence
from typing import Any, TypeVar, cast

from aikg.cache import LruCache
from aikg.errors import DamagedStore, QueryTimeout
from aikg.namespaces import BASE
from aikg.query.probe import PROBE_MAX_CHARS, PROBE_SECONDS, probe_patterns
from aikg.query.workers import Slots, WorkerPool
from aikg.rdf import guard
from aikg.settings import Settings
from aikg.store import Deadline, QueryResult, Store, Term
from aikg.store.base import current_deadline, deadline_scope
from aikg.store.transport import Encoded, QueryJob, run_query_job

T = TypeVar("T")


def allowed_services(settings: Settings) -> frozenset[str]:
    """The SERVICE endpoints the ``allow_service`` setting lists (empty by default)."""
    return frozenset(s.strip() for s in settings.allow_service.split(",") if s.strip())


class QueryRunner:
    """Runs queries and stoppable jobs for one store under the service's limits."""

    def __init__(self, store: Store, settings: Settings, *, jobs: tuple[str, ...] = ()) -> None:
        """``jobs``: modules of the jobs besides queries this runner runs isolated (see
        :class:`WorkerPool`)."""
        self.store = store
        self.settings = settings
        self.timeout = settings.query_timeout
        self.max_rows = settings.max_rows
        self.slots = Slots(settings.max_heavy_queries)
        self.pool = WorkerPool(
            settings.max_heavy_queries,
            memory_mb=settings.query_memory,
            snapshot=store.snapshot,
            jobs=jobs,
        )
        self.services = allowed_services(settings)
        self._passed: LruCache = LruCache(512, max_bytes=16 * 1024 * 1024)
        """Texts that passed :meth:`check`: they pass again (named queries are long and commented;
        reading one costs a few milliseconds)."""
        self._probing = threading.Lock()

    def deadline(self, seconds: float | None = None) -> Deadline:
        """A new query's deadline: its time limit from now, or the surrounding request's if sooner."""
        own = Deadline.after(self.timeout if seconds is None else seconds)
        return current_deadline(own) or own

    def check(self, sparql: str, *, update: bool = False, base_iri: str = BASE) -> None:
        """Refuse, before anything runs, a text that would make aikg fetch something (SERVICE, LOAD).

        A dataset (``FROM``, ``default-graph-uri``…) needs no check: it names graphs of the store, and one
        the store does not hold is an empty graph."""
        key = (sparql, update, base_iri)
        if self._passed.get(key) is None:
            guard.check_sparql(sparql, allow_service=self.services, update=update, base=base_iri)
            self._passed.put(key, True, len(sparql))

    def query(
        self,
        sparql: str,
        *,
        bindings: Mapping[str, Term] | None = None,
        default_graphs: Sequence[str] | None = None,
        named_graphs: Sequence[str] | None = None,
        base_iri: str | None = None,
        render: tuple[str, str] | None = None,
        gzip: bool = False,
    ) -> QueryResult:
        """Run a client's query with the row cap, the time limit and the concurrency limit.

        Relative IRIs resolve against ``base_iri``, by default the service's own base IRI,
        ``https://w3id.org/aikg/`` (SPARQL 1.1 Protocol §2.3). With ``render`` (the media types for
        solutions and for graphs) the answer comes back written, as ``QueryResult.rendered``; with
        ``gzip`` as well, a large one comes back compressed (``QueryResult.gzipped``).
        """
        deadline = self.deadline()
        base_iri = base_iri or BASE
        self.check(sparql, base_iri=base_iri)
        job = QueryJob(
            sparql,
            dict(bindings) if bindings else None,
            list(default_graphs) if default_graphs is not None else None,
            list(named_graphs) if named_graphs is not None else None,
            self.max_rows,
            base_iri,
            render,
            gzip,
        )
        try:
            encoded: Encoded = self.isolated(run_query_job, {"job": job}, deadline=deadline)
        except QueryTimeout:
            self.probe(sparql)
            raise
        return encoded.decode()

    def read_kept(self, sparql: str, *, bindings: Mapping[str, Term] | None = None) -> QueryResult:
        """aikg's own read of rows it wrote and bounds itself (a maintained answer's bands and their
        lines, :mod:`aikg.query.maintained`): every row, in this process, under the request's deadline
        (checked between rows), without a query slot or a worker.

        Such a read is a few index lookups whose size is the kept answer's, never a join that could run
        long, so it needs no process that can be killed: the hop to a query worker and back (two
        wake-ups, each a wait for a core on a loaded machine) was most of a small kept answer's time,
        and a page of one took two (its bands, then their lines)."""
        return self.store.query(sparql, bindings=bindings, deadline=self.deadline())

    def probe(self, sparql: str) -> None:
        """After ``sparql`` ran out of time: raise :class:`DamagedStore` if its patterns meet a damaged
        block of the store (:mod:`aikg.query.probe`), else return (the timeout stands). One probe at a
        time; none where the store has no snapshots (in memory, remote: no blocks of its own).

        The probe runs in a thread the caller waits for at most :data:`PROBE_SECONDS` (and a little):
        reading the query's patterns parses it with rdflib, which no deadline can stop, and a long text
        ('1 + 1 + ...' 5,000 times) takes seconds to parse; the hostile-traffic test saw a timed-out
        query answered after 13 s. Texts over :data:`PROBE_MAX_CHARS` are not probed at all."""
        if len(sparql) > PROBE_MAX_CHARS or not self._probing.acquire(blocking=False):
            return
        outcome: list[BaseException | None] = []

        def run() -> None:
            try:
                if self.store.snapshot() is not None:
                    probe_patterns(self.store, sparql, Deadline.after(PROBE_SECONDS))
                outcome.append(None)
            except BaseException as exc:  # noqa: BLE001 - handed to the caller, which keeps only damage
                outcome.append(exc)
            finally:
                self._probing.release()  # held until the parse ends: never two probes at once

        worker = threading.Thread(target=run, name="aikg-damage-probe", daemon=True)
        worker.start()
        worker.join(PROBE_SECONDS + 0.5)
        if outcome and isinstance(outcome[0], DamagedStore):
            raise outcome[0]

    def isolated(
        self, fn: Callable[..., T], kwargs: dict[str, Any], *, deadline: Deadline | None = None
    ) -> T:
        """Run ``fn(store, **kwargs)`` where it can be stopped at the deadline, holding a query slot.

        ``fn`` must be a module-level function (it is sent to a worker process by reference).
        """
        deadline = deadline or self.deadline()
        budget = max(0.0, deadline.left())  # counted from when a worker takes the job (WorkerPool.run)
        with self.slots.take(deadline, retry_after=self.timeout):
            snapshot = self.store.snapshot()
            if snapshot is None:
                with deadline_scope(deadline):
                    return fn(self.store, **kwargs)
            # unpickled from the worker process, where fn ran: fn's answer
            return cast(
                T,
                self.pool.run(snapshot, fn, kwargs, deadline=deadline, seconds=self.timeout, budget=budget),
            )

    def warm_up(self) -> None:
        """Start a worker in the background when queries will need one (the store has snapshots): one
        only, as the server boots (:data:`WorkerPool.BOOT_SPARES`)."""
        if self.store.snapshot() is not None:
            self.pool.warm_up(WorkerPool.BOOT_SPARES)

    def close(self) -> None:
        """Stop the worker processes."""
        self.pool.close()
