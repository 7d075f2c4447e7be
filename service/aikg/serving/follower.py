"""A reader's store: the snapshot the writer published last, reopened when a newer one appears.

Every read first looks at the publication's stamp (one ``stat``, a few microseconds); when the writer
has published a newer snapshot, it is opened read-only (~25 ms at a million triples) and reads move to
it, while reads already running finish on the old one. When the writer has answered a write whose
snapshot is still being made, the read waits for that snapshot (:mod:`aikg.serving.publication`).
The write log of a reader is the writer's journal, so the search index follows writes as it does in
one process.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any, NoReturn

import pyoxigraph as ox

from aikg.errors import StoreError
from aikg.serving import publication
from aikg.store import Node, Quad, QueryResult, Snapshot, Store, Term, open_snapshot
from aikg.store.base import Deadline
from aikg.store.transport import Encoded, QueryJob
from aikg.write.writelog import WriteLog, Written

WAIT_FOR_WRITER = 120.0
"""Seconds a reader waits at start for the writer's first snapshot (the seeds load first)."""


class FollowerStore(Store):
    """The store interface over the latest published snapshot; writes go to the writer, not here."""

    kind = "oxigraph"

    def __init__(self, folder: Path, *, wait: float = WAIT_FOR_WRITER) -> None:
        self.folder = folder
        self._marker = publication.marker(folder)
        self._lock = threading.Lock()
        deadline = time.monotonic() + wait
        while True:
            found = publication.current(folder)
            if found is not None:
                try:
                    self._store = open_snapshot(found.snapshot)
                    self._published = found
                    break
                except StoreError:
                    pass  # a publication left by an earlier run, its snapshot gone: wait for the writer's
            reason = publication.fatal(folder)
            if reason is not None:  # the writer could not open the store: the service ends
                raise StoreError(reason)
            if time.monotonic() > deadline:
                raise StoreError(f"the writer published no snapshot in {folder} within {wait:.0f} s")
            time.sleep(0.05)

    def _current(self) -> Store:
        seen = publication.stamp_at(self._marker)
        if seen is not None and seen != self._published.stamp:
            with self._lock:
                if seen != self._published.stamp:
                    # A write answered and its snapshot still being made: wait for it, so a client
                    # reads what it was told is committed (given up after a while: a writer that
                    # died before publishing; the next writer publishes what it finds).
                    found = publication.current(self.folder, wait=publication.SETTLE_WAIT)
                    if found is not None and (
                        found.snapshot.version != self._published.snapshot.version
                        or found.run != self._published.run  # a new writer counts versions anew
                    ):
                        self._store = open_snapshot(found.snapshot)
                    if found is not None:
                        self._published = found
        return self._store

    # -- reads: the current snapshot ---------------------------------------------------------------

    @property
    def version(self) -> int:
        return self._current().version

    @property
    def lineage(self) -> str | None:
        # The writer's run: every HTTP worker follows the same publications, so all tag alike.
        self._current()
        return self._published.run or None

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
        return self._current().query(
            sparql,
            bindings=bindings,
            default_graphs=default_graphs,
            named_graphs=named_graphs,
            max_rows=max_rows,
            deadline=deadline,
            base_iri=base_iri,
        )

    def answer(self, job: QueryJob) -> Encoded:
        return self._current().answer(job)

    def dump(self, *, mime: str, graph: str | None = None) -> bytes:
        return self._current().dump(mime=mime, graph=graph)

    def graphs(self) -> list[str]:
        return self._current().graphs()

    def has_graph(self, graph: str) -> bool:
        return self._current().has_graph(graph)

    def count(self, graph: str | None = None) -> int:
        return self._current().count(graph)

    def quads(
        self,
        subject: Node | None = None,
        predicate: ox.NamedNode | None = None,
        obj: Term | None = None,
        graph: str | None = None,
    ) -> Iterator[Quad]:
        return self._current().quads(subject, predicate, obj, graph)

    def snapshot(self) -> Snapshot | None:
        return self._current().snapshot()

    # -- writes: never here -------------------------------------------------------------------------

    def _refuse(self, *_: Any, **__: Any) -> NoReturn:
        raise StoreError("this process reads snapshots; writes go through the writer process")

    def update(self, sparql: str, *, base_iri: str | None = None) -> None:
        self._refuse()

    def load(self, data: bytes, *, mime: str, graph: str | None = None, replace: bool = False) -> int:
        self._refuse()

    def drop_graph(self, graph: str) -> None:
        self._refuse()

    def apply(
        self, *, remove: Iterable[Quad] = (), add: Iterable[Quad] = (), drop: Iterable[str] = ()
    ) -> None:
        self._refuse()

    def close(self) -> None:
        self._store.close()


class JournalLog(WriteLog):
    """A reader's write log: the writer's journal of gated writes, read as it grows."""

    def __init__(self, store: Store, folder: Path) -> None:
        super().__init__(store)
        self.path = folder / "writes.jsonl"
        self._offset = 0

    def _read_new(self) -> None:
        try:
            with open(self.path, encoding="utf-8") as fh:
                fh.seek(self._offset)
                lines = fh.readlines()
                self._offset = fh.tell()
        except FileNotFoundError:
            return
        for line in lines:
            if not line.endswith("\n"):  # a line being written: read it next time
                self._offset -= len(line.encode("utf-8"))
                break
            body = json.loads(line)
            subjects = None if body["subjects"] is None else frozenset(body["subjects"])
            self.absorb(Written(int(body["before"]), int(body["after"]), subjects))

    def since(self, version: int, now: int) -> frozenset[str] | None:
        with self._lock:
            self._read_new()
        return super().since(version, now)

    def writing(self) -> bool:
        return False  # a published snapshot is complete: nothing is ever half-written here
