"""What each write through the SHACL gate touched, so indexes can follow writes instead of rebuilding
whole (the search index's overlay, :mod:`aikg.lookup.search`).

The gate calls :meth:`WriteLog.begin` before it commits and :meth:`WriteLog.record` once the write (data
and generated graphs) is in. A version change with no record — a bulk load, ``store.load`` in a test —
is unknown territory: :meth:`WriteLog.since` answers None and the reader rebuilds whole. Only a store
that sees all its own writes is followed (``Store.follows_own_writes``): on a shared remote engine
another aikg instance may write at any time.
"""

from __future__ import annotations

import threading
import time
from collections import deque
from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

import pyoxigraph as ox

from aikg.store import Store

if TYPE_CHECKING:
    from aikg.knowledge.incremental import Generated

KEEP = 20_000
"""Subjects remembered; older records are forgotten (an index that old rebuilds whole)."""

PENDING_GRACE = 120.0
"""Seconds a begun write counts as in progress (a write that failed half-way never records)."""

_HIERARCHY = frozenset(
    {"http://www.w3.org/2000/01/rdf-schema#subClassOf", "http://www.w3.org/2000/01/rdf-schema#subPropertyOf"}
)
"""Predicates whose change retypes subjects the write does not name (through the inferred graph)."""


class _Change(Protocol):
    remove: set[ox.Quad]
    add: set[ox.Quad]


@dataclass(frozen=True)
class Written:
    """One gated write: the versions around it and the IRIs of the subjects whose statements changed.

    ``subjects`` is None when the write's reach is unknown (the generated graphs were rebuilt whole, the
    class hierarchy or a blank node's statements changed).
    """

    before: int
    after: int
    subjects: frozenset[str] | None


class WriteLog:
    """The recent gated writes of one store."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.records: deque[Written] = deque()
        self.size = 0
        self.pending: float | None = None
        self._lock = threading.Lock()

    def begin(self) -> int | None:
        """Mark a gated write as in progress; the store's version before the commit (None: not followed)."""
        if not self.store.follows_own_writes:
            return None
        with self._lock:
            self.pending = time.monotonic()
        return self.store.version

    def record(self, before: int | None, change: _Change, generated: Generated | None) -> None:
        """Record a committed gated write: its data change and ``generated``, the update of the generated
        graphs committed with it (None when they were rebuilt whole instead)."""
        if before is None:
            return
        subjects: frozenset[str] | None = None
        quads = change.remove | change.add
        # A blank node's statements cannot be named by IRI: a write changing some has an unknown reach
        # for readers that keep every subject's statements (the whole graph's facts, aikg.export.kept).
        if generated is not None and not any(
            q.predicate.value in _HIERARCHY or isinstance(q.subject, ox.BlankNode) for q in quads
        ):
            subjects = frozenset(_iris(q.subject for q in (*quads, *generated.remove, *generated.add)))
        entry = Written(before, self.store.version, subjects)
        with self._lock:
            self.pending = None
            self._keep(entry)

    def absorb(self, entry: Written) -> None:
        """Keep a record made elsewhere (the writer process's journal); the caller holds the lock."""
        self._keep(entry)

    def _keep(self, entry: Written) -> None:
        self.records.append(entry)
        self.size += len(entry.subjects or ())
        while self.size > KEEP and len(self.records) > 1:
            self.size -= len(self.records.popleft().subjects or ())

    def abandon(self) -> None:
        """A begun write failed before it committed: nothing to record."""
        with self._lock:
            self.pending = None

    def writing(self) -> bool:
        """True while a gated write is between :meth:`begin` and :meth:`record`."""
        with self._lock:
            return self.pending is not None and time.monotonic() - self.pending < PENDING_GRACE

    def since(self, version: int, now: int) -> frozenset[str] | None:
        """IRIs of the subjects whose statements changed between two versions of the store, or None when
        a change in between was not a recorded gated write (or had an unknown reach)."""
        if version == now:
            return frozenset()
        with self._lock:
            records = list(self.records)
        out: set[str] = set()
        covered = version
        for w in records:
            if w.after <= covered:
                continue
            if w.before > covered or w.subjects is None:
                return None
            out |= w.subjects
            covered = w.after
            if covered >= now:
                return frozenset(out)
        return None


def _iris(terms: Iterable[ox.NamedNode | ox.BlankNode | ox.Literal | ox.Triple]) -> Iterable[str]:
    return (t.value for t in terms if isinstance(t, ox.NamedNode))
