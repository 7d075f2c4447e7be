"""What each write through the SHACL gate touched, per store, so indexes can follow writes instead of
rebuilding whole (the search index's overlay, :mod:`aikg.search`).

The gate calls :func:`begin` before it commits and :func:`record` once the write (data and generated
graphs) is in. A version change with no record — a bulk load, an Epoch import, ``store.load`` in a
test — is unknown territory: :func:`since` answers None and the reader rebuilds whole. Only the
embedded store is followed: on a shared remote engine another aikg instance may write at any time.
"""

from __future__ import annotations

import threading
import time
import weakref
from collections import deque
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Protocol

import pyoxigraph as ox

from aikg.store import OxigraphStore, Store

KEEP = 20_000
"""Subjects remembered per store; older records are forgotten (an index that old rebuilds whole)."""

PENDING_GRACE = 120.0
"""Seconds a begun write counts as in progress (a write that failed half-way never records)."""

_HIERARCHY = frozenset({"http://www.w3.org/2000/01/rdf-schema#subClassOf",
                        "http://www.w3.org/2000/01/rdf-schema#subPropertyOf"})
"""Predicates whose change retypes subjects the write does not name (through the inferred graph)."""


class _Change(Protocol):
    remove: set[ox.Quad]
    add: set[ox.Quad]


@dataclass(frozen=True)
class Written:
    """One gated write: the versions around it and the IRIs of the subjects whose statements changed.

    ``subjects`` is None when the write's reach is unknown (the generated graphs were rebuilt whole).
    """

    before: int
    after: int
    subjects: frozenset[str] | None


class _Log:
    def __init__(self) -> None:
        self.records: deque[Written] = deque()
        self.size = 0
        self.pending: float | None = None


_logs: weakref.WeakKeyDictionary[Store, _Log] = weakref.WeakKeyDictionary()
_lock = threading.Lock()


def begin(store: Store) -> int | None:
    """Mark a gated write as in progress; its store's version before the commit (None: not followed)."""
    if not isinstance(store, OxigraphStore):
        return None
    with _lock:
        _logs.setdefault(store, _Log()).pending = time.monotonic()
    return store.version


def record(store: Store, before: int | None, change: _Change, generated: str | None) -> None:
    """Record a committed gated write: its data change and ``generated``, the update of the generated
    graphs committed with it (None when they were rebuilt whole instead)."""
    if before is None:
        return
    subjects: frozenset[str] | None = None
    if generated is not None and not any(q.predicate.value in _HIERARCHY for q in change.remove | change.add):
        subjects = frozenset(_iris(q.subject for q in change.remove | change.add)) | _subjects_of(generated)
    entry = Written(before, store.version, subjects)
    with _lock:
        log = _logs.setdefault(store, _Log())
        log.pending = None
        log.records.append(entry)
        log.size += len(subjects or ())
        while log.size > KEEP and len(log.records) > 1:
            log.size -= len(log.records.popleft().subjects or ())


def writing(store: Store) -> bool:
    """True while a gated write on ``store`` is between :func:`begin` and :func:`record`."""
    with _lock:
        log = _logs.get(store)
        return log is not None and log.pending is not None and \
            time.monotonic() - log.pending < PENDING_GRACE


def since(store: Store, version: int, now: int) -> frozenset[str] | None:
    """IRIs of the subjects whose statements changed between two versions of the store, or None when
    a change in between was not a recorded gated write (or had an unknown reach)."""
    if version == now:
        return frozenset()
    with _lock:
        log = _logs.get(store)
        records = list(log.records) if log is not None else []
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


def _iris(terms: Iterable[ox.Term]) -> Iterable[str]:
    return (t.value for t in terms if isinstance(t, ox.NamedNode))


def _subjects_of(update: str) -> frozenset[str]:
    """IRI subjects of the quads a DELETE DATA / INSERT DATA update names (read on a scratch store)."""
    if not update.strip():
        return frozenset()
    scratch = ox.Store()
    scratch.update(update.replace("DELETE DATA", "INSERT DATA"))
    return frozenset(_iris(q.subject for q in scratch))
