"""The one closed storage interface every backend implements.

The rest of aikg talks to a :class:`Store` only: it never knows whether the quads live in an embedded
Oxigraph store or in a remote SPARQL engine. What differs between backends is behind this interface:
either a method every backend implements, or a *capability* with a generic default here that a backend
may do faster (neighbourhood reads, replacing a generated graph, bulk loads, a snapshot other processes
can open).

Terms crossing the boundary are pyoxigraph terms (:data:`Term`, ``ox.Quad``, ``ox.Triple``): immutable,
hashable, fast, and written in SPARQL's own syntax by ``str()``. rdflib is used at the edges only (SHACL
validation, a few serializers) through :mod:`aikg.store.terms`.

The default graph of every query is the union of all named graphs, unless the query names its own
dataset (``FROM`` / ``FROM NAMED``) or the caller names default graphs explicitly (SPARQL protocol
``default-graph-uri``). As the protocol says, named graphs given with an empty list of default graphs
(``default_graphs=[]``) leave the default graph empty.
"""

from __future__ import annotations

import contextlib
import contextvars
import time
from abc import ABC, abstractmethod
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import pyoxigraph as ox

from aikg.errors import DamagedStore
from aikg.rdf.results import Node, Quad, QueryResult, StoredTerm, Term

if TYPE_CHECKING:
    from aikg.store.transport import Encoded, QueryJob


@dataclass(frozen=True)
class Deadline:
    """A point in monotonic time after which a read must stop."""

    at: float

    @classmethod
    def after(cls, seconds: float) -> Deadline:
        """A deadline ``seconds`` from now."""
        return cls(time.monotonic() + seconds)

    def left(self) -> float:
        """Seconds until the deadline (negative once it has passed)."""
        return self.at - time.monotonic()

    def expired(self) -> bool:
        """True once the deadline has passed."""
        return time.monotonic() >= self.at

    def sooner(self, other: Deadline | None) -> Deadline:
        """The earlier of two deadlines."""
        return self if other is None or self.at <= other.at else other


_CURRENT: contextvars.ContextVar[Deadline | None] = contextvars.ContextVar("aikg_deadline", default=None)


@contextlib.contextmanager
def deadline_scope(deadline: Deadline | None) -> Iterator[Deadline | None]:
    """Make ``deadline`` bound every store read made in this context (a request, a job).

    Reads given their own deadline keep the sooner of the two, so no read outlives its request.
    """
    outer = _CURRENT.get()
    chosen = deadline.sooner(outer) if deadline is not None else outer
    token = _CURRENT.set(chosen)
    try:
        yield chosen
    finally:
        _CURRENT.reset(token)


@contextlib.contextmanager
def unbounded() -> Iterator[None]:
    """Read without the surrounding request's deadline: for building what every later request shares
    (the search index), which one request's time limit must not cut short and waste."""
    token = _CURRENT.set(None)
    try:
        yield
    finally:
        _CURRENT.reset(token)


def push_deadline(deadline: Deadline) -> contextvars.Token[Deadline | None]:
    """Start bounding this context's reads by ``deadline`` (a request's start); see :func:`pop_deadline`."""
    return _CURRENT.set(deadline)


def pop_deadline(token: contextvars.Token[Deadline | None]) -> None:
    """Stop what :func:`push_deadline` started (a request's end)."""
    _CURRENT.reset(token)


def current_deadline(given: Deadline | None = None) -> Deadline | None:
    """The deadline a read must keep: the one given, or the context's, whichever comes first."""
    scoped = _CURRENT.get()
    if given is None:
        return scoped
    return given.sooner(scoped)


GENERATION = "aikg-generation"
"""The file, inside an embedded store's folder or a snapshot's, naming the generation of its data."""


@dataclass(frozen=True)
class Snapshot:
    """A consistent, read-only copy of the store that another process can open (see ``snapshot``)."""

    path: Path
    version: int

    def data_id(self) -> str:
        """An identity of the data the snapshot holds, stable across restarts: two snapshots with the same
        id hold the same data, so what was computed from one (a search index) can be kept for the other.

        The store's generation when the snapshot was taken (see ``OxigraphStore._writing``); a snapshot
        without one is named by its table files (RocksDB never rewrites a file under its name), which
        holds for one run only, since a store reopened after writes flushes its log to new files."""
        try:
            generation = (self.path / GENERATION).read_text().strip()
        except OSError:
            generation = ""
        if generation:
            return f"g{generation}"
        import hashlib

        h = hashlib.blake2b(digest_size=12)
        for entry in sorted(self.path.iterdir()):
            size = entry.stat().st_size
            if entry.suffix == ".sst" or (entry.suffix == ".log" and size):
                h.update(f"{entry.name}:{size}\n".encode())
        return h.hexdigest()


class Store(ABC):
    """Query, update, load, dump and list named graphs; every write is atomic."""

    kind: str = "abstract"

    follows_own_writes: bool = True
    """True when every change to the data goes through this object (so a log of the writes it made is
    complete); False for a shared engine that other aikg instances may write to."""

    @property
    def lineage(self) -> str | None:
        """A name that every process reading this data shares, such that (lineage, ``version``) names
        one state of it: ETags made from both agree whichever process answers. None when this object
        is the data's only reader (an embedded store): the caches then make up a name of their own."""
        return None

    @abstractmethod
    def query(
        self,
        sparql: str,
        *,
        bindings: Mapping[str, Term] | None = None,
        default_graphs: Sequence[str] | None = None,
        named_graphs: Sequence[str] | None = None,
        max_rows: int | None = None,
        deadline: Deadline | None = None,
        base_iri: str | None = None,
    ) -> QueryResult:
        """Run a SPARQL 1.1 query; ``bindings`` are bound as values, never pasted into the text.

        Relative IRIs in the text resolve against ``base_iri`` (the service's base, SPARQL 1.1 Protocol
        §2.3); without one they are an error.

        Raises :class:`~aikg.errors.QuerySyntaxError` when the query does not parse and
        :class:`~aikg.errors.QueryTimeout` when ``deadline`` (or the context's, see
        :func:`deadline_scope`) passes while rows are read.
        """

    @abstractmethod
    def update(self, sparql: str, *, base_iri: str | None = None) -> None:
        """Run a SPARQL 1.1 Update as one transaction."""

    @abstractmethod
    def load(self, data: bytes, *, mime: str, graph: str | None = None, replace: bool = False) -> int:
        """Parse RDF ``data`` into ``graph`` (datasets keep their own graphs); return quads added.

        With ``replace`` the target graph is emptied first, in the same transaction.
        """

    @abstractmethod
    def dump(self, *, mime: str, graph: str | None = None) -> bytes:
        """Serialize one graph, or the whole dataset in a quad format when ``graph`` is None."""

    @abstractmethod
    def graphs(self) -> list[str]:
        """IRIs of the named graphs that hold data."""

    def has_graph(self, graph: str) -> bool:
        """Whether the named graph ``graph`` holds data (is one of :meth:`graphs`)."""
        return graph in self.graphs()

    @abstractmethod
    def drop_graph(self, graph: str) -> None:
        """Remove a named graph and everything in it."""

    @abstractmethod
    def count(self, graph: str | None = None) -> int:
        """Number of quads in one graph or in the whole store."""

    @abstractmethod
    def quads(
        self,
        subject: Node | None = None,
        predicate: ox.NamedNode | None = None,
        obj: Term | None = None,
        graph: str | None = None,
    ) -> Iterator[Quad]:
        """Quads matching a pattern (None matches anything), never in the (unused) default graph."""

    @abstractmethod
    def apply(
        self, *, remove: Iterable[Quad] = (), add: Iterable[Quad] = (), drop: Iterable[str] = ()
    ) -> None:
        """Drop graphs, remove quads, then add quads, as one atomic change: all happen or none does."""

    @property
    @abstractmethod
    def version(self) -> int:
        """A number that changes whenever the data changes (cache keys, ETags)."""

    def release_caches(self) -> bool:
        """Give back the memory the engine keeps only for speed; False when there was none to give.

        The caller makes sure no other thread reads or writes this store meanwhile (the writer process,
        between two actions: :class:`aikg.serving.writer.Writer`)."""
        return False

    def close(self) -> None:  # noqa: B027 - optional hook
        """Release files or connections."""

    # -- capabilities: generic here, faster in a backend where it can be ----------------------------

    def outgoing(
        self,
        nodes: Iterable[StoredTerm],
        *,
        predicates: Iterable[ox.NamedNode] | None = None,
        graph: str | None = None,
    ) -> list[Quad]:
        """Quads with one of ``nodes`` as subject (only ``predicates`` / ``graph`` when given)."""
        preds = list(predicates) if predicates is not None else [None]
        return [
            q
            for n in set(nodes)
            if isinstance(n, ox.NamedNode | ox.BlankNode)
            for p in preds
            for q in self.quads(n, p, None, graph)
        ]

    def incoming(
        self,
        nodes: Iterable[StoredTerm],
        *,
        predicates: Iterable[ox.NamedNode] | None = None,
        graph: str | None = None,
    ) -> list[Quad]:
        """Quads with one of ``nodes`` as object (only ``predicates`` / ``graph`` when given)."""
        preds = list(predicates) if predicates is not None else [None]
        return [
            q
            for n in set(nodes)
            if not isinstance(n, ox.Triple)
            for p in preds
            for q in self.quads(None, p, n, graph)
        ]

    def describes(self, node: Node) -> bool:
        """Whether a named graph holds a quad with ``node`` as subject (an entity the data has)."""
        return next(self.quads(node), None) is not None

    def with_predicates(self, predicates: Iterable[ox.NamedNode]) -> list[Quad]:
        """Every quad of the given predicates."""
        return [q for p in predicates for q in self.quads(None, p, None, None)]

    def replace_graph(self, graph: str, triples: Iterable[ox.Triple]) -> int:
        """Make ``graph`` hold exactly ``triples`` (a generated graph), writing only the difference."""
        g = ox.NamedNode(graph)
        new = set(triples)
        old = {q.triple for q in self.quads(graph=graph)}
        if old == new:
            return len(new)
        if any(isinstance(t, ox.BlankNode) for tr in old | new for t in (tr.subject, tr.object)):
            body = ox.serialize(new, format=ox.RdfFormat.N_TRIPLES) or b""
            return self.load(body, mime="application/n-triples", graph=graph, replace=True)
        self.apply(
            remove=(ox.Quad(t.subject, t.predicate, t.object, g) for t in old - new),
            add=(ox.Quad(t.subject, t.predicate, t.object, g) for t in new - old),
        )
        return len(new)

    def add_constructed(
        self,
        graph: str,
        queries: Sequence[tuple[str, Mapping[str, Term] | None]],
        *,
        independent: bool = False,
    ) -> int:
        """Add to ``graph`` the triples each CONSTRUCT query answers (text, bindings), every query
        reading the data as it was before the call (``independent``: no query's answer depends on
        another's, so a backend may let each answer join the data as it is written); the number of
        triples ``graph`` then holds.

        For a first build of a generated graph (a load): a backend may write without one transaction
        and without holding the answers in memory."""
        new = {t for text, bindings in queries for t in self.query(text, bindings=bindings).triples}
        if any(isinstance(t, ox.BlankNode) for tr in new for t in (tr.subject, tr.object)):
            # As a document, so that a blank node's label is one node in the whole addition.
            self.load(
                ox.serialize(new, format=ox.RdfFormat.N_TRIPLES) or b"",
                mime="application/n-triples",
                graph=graph,
            )
        else:
            g = ox.NamedNode(graph)
            self.apply(add=(ox.Quad(t.subject, t.predicate, t.object, g) for t in new))
        return self.count(graph)

    def bulk_load(self, path: Path, *, mime: str, progress: bool = False) -> None:
        """Load a large quad file (not necessarily one transaction: for an initial load)."""
        self.load(Path(path).read_bytes(), mime=mime)

    def answer(self, job: QueryJob) -> Encoded:
        """A query's answer in transport form, as a query worker sends it back (see ``snapshot``)."""
        from aikg.store.transport import encode_result

        return encode_result(
            self.query(
                job.sparql,
                bindings=job.bindings,
                default_graphs=job.default_graphs,
                named_graphs=job.named_graphs,
                max_rows=job.max_rows,
                base_iri=job.base_iri,
            )
        )

    def snapshot(self) -> Snapshot | None:
        """A consistent read-only copy of the current data that another process can open, or None
        when this backend has none (an in-memory store; a remote engine, which any process can reach)."""
        return None

    @property
    def shared(self) -> bool:
        """True when other processes can reach the same data directly (a remote engine)."""
        return False

    def noted_damage(self) -> DamagedStore | None:
        """The damaged block a read of any process serving this data met, as noted beside it, or None
        (a backend whose engine keeps no such note)."""
        return None
