"""Running a client's query under the service's limits: time, rows, concurrency, no outside fetches.

Every query that comes from outside (SPARQL protocol, named queries, CLI) goes through
:func:`run_query`, so a limit is enforced in one place.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rdflib.term import Identifier

from .store import Deadline, QueryResult, Store


def run_query(store: Store, sparql: str, settings: Mapping[str, Any], *,
              bindings: Mapping[str, Identifier] | None = None,
              default_graphs: Sequence[str] | None = None,
              named_graphs: Sequence[str] | None = None) -> QueryResult:
    """Run a client's query with the configured row cap and time limit."""
    return store.query(sparql, bindings=bindings, default_graphs=default_graphs,
                       named_graphs=named_graphs, max_rows=settings["max_rows"],
                       deadline=Deadline.after(settings["query_timeout"]))
