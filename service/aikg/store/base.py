"""The one narrow storage interface every backend implements.

The rest of aikg talks to a :class:`Store` only: it never knows whether the quads live in an embedded
Oxigraph store or in a remote SPARQL engine. Terms crossing this boundary are rdflib terms.

The default graph of every query is the union of all named graphs, unless the query names its own
dataset (``FROM`` / ``FROM NAMED``) or the caller names default graphs explicitly (SPARQL protocol
``default-graph-uri``). As the protocol says, named graphs given with an empty list of default graphs
(``default_graphs=[]``) leave the default graph empty.
"""

from __future__ import annotations

import time
from abc import ABC, abstractmethod
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum

from rdflib.term import Identifier, URIRef

Quad = tuple[Identifier, Identifier, Identifier, URIRef]
"""(subject, predicate, object, graph): every stored triple lives in a named graph."""


class ResultKind(StrEnum):
    """What a query returns."""

    SELECT = "select"
    ASK = "ask"
    GRAPH = "graph"


@dataclass
class QueryResult:
    """A materialized query result, cut at ``max_rows`` with ``truncated`` set when it was."""

    kind: ResultKind
    variables: list[str] = field(default_factory=list)
    rows: list[tuple[Identifier | None, ...]] = field(default_factory=list)
    boolean: bool | None = None
    triples: list[tuple[Identifier, Identifier, Identifier]] = field(default_factory=list)
    truncated: bool = False

    def dicts(self) -> list[dict[str, Identifier]]:
        """SELECT rows as dicts of bound variables (unbound ones left out)."""
        return [{v: t for v, t in zip(self.variables, row, strict=True) if t is not None}
                for row in self.rows]


@dataclass(frozen=True)
class Deadline:
    """A point in monotonic time after which a running query must stop."""

    at: float

    @classmethod
    def after(cls, seconds: float) -> Deadline:
        """A deadline ``seconds`` from now."""
        return cls(time.monotonic() + seconds)

    def expired(self) -> bool:
        """True once the deadline has passed."""
        return time.monotonic() >= self.at


class Store(ABC):
    """Query, update, load, dump and list named graphs; every write is atomic."""

    kind: str = "abstract"

    @abstractmethod
    def query(self, sparql: str, *, bindings: Mapping[str, Identifier] | None = None,
              default_graphs: Sequence[str] | None = None,
              named_graphs: Sequence[str] | None = None,
              max_rows: int | None = None, deadline: Deadline | None = None,
              base_iri: str | None = None) -> QueryResult:
        """Run a SPARQL 1.1 query; ``bindings`` are bound as values, never pasted into the text.

        Relative IRIs in the text resolve against ``base_iri`` (the service's base, SPARQL 1.1 Protocol
        §2.3); without one they are an error.

        Raises :class:`~aikg.errors.QuerySyntaxError` when the query does not parse and
        :class:`~aikg.errors.QueryTimeout` when ``deadline`` passes while rows are read.
        """

    @abstractmethod
    def update(self, sparql: str) -> None:
        """Run a SPARQL 1.1 Update as one transaction."""

    @abstractmethod
    def load(self, data: bytes, *, mime: str, graph: str | None = None,
             replace: bool = False) -> int:
        """Parse RDF ``data`` into ``graph`` (datasets keep their own graphs); return quads added.

        With ``replace`` the target graph is emptied first, in the same transaction.
        """

    @abstractmethod
    def dump(self, *, mime: str, graph: str | None = None) -> bytes:
        """Serialize one graph, or the whole dataset in a quad format when ``graph`` is None."""

    @abstractmethod
    def graphs(self) -> list[str]:
        """IRIs of the named graphs that hold data."""

    @abstractmethod
    def drop_graph(self, graph: str) -> None:
        """Remove a named graph and everything in it."""

    @abstractmethod
    def count(self, graph: str | None = None) -> int:
        """Number of quads in one graph or in the whole store."""

    @abstractmethod
    def quads(self, subject: Identifier | None = None, predicate: Identifier | None = None,
              obj: Identifier | None = None, graph: str | None = None) -> Iterable[Quad]:
        """Quads matching a pattern (None matches anything)."""

    @abstractmethod
    def apply(self, *, remove: Iterable[Quad] = (), add: Iterable[Quad] = ()) -> None:
        """Remove then add quads as one atomic change: both happen or neither does."""

    @property
    @abstractmethod
    def version(self) -> int:
        """A number that changes whenever the data changes (cache keys, ETags)."""

    def close(self) -> None:  # noqa: B027 - optional hook
        """Release files or connections."""
