"""Running a client's query under the service's limits: time, rows, concurrency, no outside fetches.

Every query that comes from outside (SPARQL protocol, named queries, CLI) goes through
:func:`run_query`, so a limit is enforced in one place. Internal lookups (API pages, derivation rules)
call the store directly and stay in-process.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rdflib.term import Identifier

from aikg.namespaces import BASE
from aikg.query import workers
from aikg.rdf import guard
from aikg.store import Deadline, OxigraphStore, QueryResult, Store


def allowed_services(settings: Mapping[str, Any]) -> frozenset[str]:
    """The SERVICE endpoints the ``allow_service`` setting lists (empty by default)."""
    return frozenset(s.strip() for s in str(settings.get("allow_service") or "").split(",") if s.strip())


def check_query(store: Store, sparql: str, settings: Mapping[str, Any], *,
                default_graphs: Sequence[str] | None = None,
                named_graphs: Sequence[str] | None = None) -> None:
    """Refuse, before anything runs, a query that would make aikg fetch something outside the store."""
    guard.check_sparql(sparql, known_graphs=store.graphs, allow_service=allowed_services(settings), base=BASE)
    if default_graphs:
        guard.check_graphs(default_graphs, store.graphs(), clause="default-graph-uri")
    if named_graphs:
        guard.check_graphs(named_graphs, store.graphs(), clause="named-graph-uri")


def run_query(store: Store, sparql: str, settings: Mapping[str, Any], *,
              bindings: Mapping[str, Identifier] | None = None,
              default_graphs: Sequence[str] | None = None,
              named_graphs: Sequence[str] | None = None) -> QueryResult:
    """Run a client's query with the configured row cap, time limit and concurrency limit."""
    check_query(store, sparql, settings, default_graphs=default_graphs, named_graphs=named_graphs)
    seconds = float(settings["query_timeout"])
    job = {"sparql": sparql, "bindings": dict(bindings) if bindings else None,
           "default_graphs": default_graphs, "named_graphs": named_graphs,
           "max_rows": settings["max_rows"], "seconds": seconds}
    size = int(settings["max_heavy_queries"])
    with workers.slots(size).take(retry_after=seconds):
        if isinstance(store, OxigraphStore):
            return workers.pool(store, size).run(_execute, job, timeout=seconds)
        return _execute(store, **job)  # a remote engine enforces its own time limit; rows are capped here


def _execute(store: Store, *, sparql: str, bindings: Mapping[str, Identifier] | None,
             default_graphs: Sequence[str] | None, named_graphs: Sequence[str] | None,
             max_rows: int, seconds: float) -> QueryResult:
    """The query itself, as run in a worker process (a module-level function, so it can be sent there).

    Relative IRIs resolve against the service's base IRI, ``https://w3id.org/aikg/`` (Protocol §2.3).
    """
    return store.query(sparql, bindings=bindings, default_graphs=default_graphs,
                       named_graphs=named_graphs, max_rows=max_rows, deadline=Deadline.after(seconds),
                       base_iri=BASE)
