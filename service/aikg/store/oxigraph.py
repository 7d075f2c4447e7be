"""The default backend: an embedded Oxigraph store, on disk (survives restarts) or in memory."""

from __future__ import annotations

import contextlib
import gc
import logging
import os
import re
import shutil
import tempfile
import threading
import time
import traceback
import uuid
from collections.abc import Iterable, Iterator, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, TypeVar

import pyoxigraph as ox

from aikg.errors import (
    BadRequest,
    DamagedStore,
    InsufficientStorage,
    QuerySyntaxError,
    QueryTimeout,
    RdfSyntaxError,
    StoreError,
)
from aikg.rdf.formats import DATASET_FORMATS, rdf_format_of
from aikg.rdf.order import Ordered, guard_engine_order, split_order
from aikg.rdf.results import Node, Quad, QueryResult, ResultKind, Term
from aikg.rdf.substitute import substitute
from aikg.rdf.tokens import has_dataset_clause
from aikg.store import infologs, integrity, spill
from aikg.store.base import GENERATION, Deadline, Snapshot, Store, current_deadline
from aikg.store.copies import DefaultCopies
from aikg.store.transport import Encoded, QueryJob, encode, encode_ordered

T = TypeVar("T")
log = logging.getLogger(__name__)

_QUAD_MIME = frozenset(f.mime for f in DATASET_FORMATS)
"""Formats that can carry their own named graphs."""


REOPEN_WAIT = 10.0
"""Seconds :meth:`OxigraphStore.release_caches` waits for the store it closed to be released."""


class OxigraphStore(Store):
    """pyoxigraph behind the aikg store interface; thread-safe, one writer process per directory.

    An on-disk store can hand out :meth:`snapshot` copies (RocksDB checkpoints: hard links, cheap) that
    other processes open read-only (:meth:`open_snapshot`); that is how query workers read consistent
    data without being forked from the serving process.

    Oxigraph's real default graph holds the RDF merge of the named graphs, kept by every write in the
    same transaction, and a query without a dataset reads it: Oxigraph 0.5's union default graph is a
    multiset (a triple stated in N graphs matches N times, oxigraph#1919, fixed by oxigraph PR #1920 after
    0.5.13), which made a hub's queries expand its restated labels and types per graph (seconds to
    minutes at 1M quads) and COUNTs overcount (tests/test_upstream.py watches for the fix).
    """

    kind = "oxigraph"

    def __init__(
        self, path: str | Path | None = None, *, read_only: bool = False, version: int | None = None
    ) -> None:
        """Open (creating if needed) the store at ``path``, or an in-memory store when None."""
        self.path = None if path is None else Path(path)
        self.read_only = read_only
        try:
            if self.path is None:
                self._ox = ox.Store()
            elif read_only:
                self._ox = ox.Store.read_only(str(self.path))
            else:
                # Only a new folder is created, and only a store the engine opened read-only is opened
                # read-write: anything else is refused as it is (aikg.store.integrity).
                if integrity.vet(self.path):
                    self.path.mkdir(parents=True, exist_ok=True)
                self._ox = ox.Store(str(self.path))
                infologs.prune(self.path)  # each open rotates RocksDB's info log: the old ones bounded
        except integrity.ENGINE_ERRORS as exc:
            hint = " (another process has it open: stop it, or use a copy)" if "lock" in str(exc) else ""
            raise StoreError(
                f"cannot open the store at {self.path}{hint}: {integrity.engine_message(exc)}"
            ) from exc
        # Start from the clock so versions (ETags, cache keys) never repeat across restarts.
        self._version = time.time_ns() // 1000 if version is None else version
        self._lock = threading.Lock()
        self._snapshotting = threading.Lock()
        self._snapshots: dict[int, Snapshot] = {}
        self._retired: list[tuple[float, Snapshot]] = self._left_behind() if self._owns_snapshots() else []
        self._writes = 0  # writes under way: while any is, the data has no generation
        self._full = False  # the engine refused a write for want of space (see _space_error)
        self._generation = self._marked() if self.path is not None and not read_only else None
        self._merged = self._holds_merge()
        if not self._merged and not read_only:
            with self._writing():
                self._remerge()  # a store written before the merge was kept: once, at its first open
            self._merged = True
        if self.path is not None and not read_only and self._generation is None:
            self._generation = uuid.uuid4().hex  # data of unknown history: named afresh, from now on
            self._mark(self.path, self._generation)

    def _owns_snapshots(self) -> bool:
        return self.path is not None and not self.read_only

    def _left_behind(self) -> list[tuple[float, Snapshot]]:
        """Snapshots an earlier run left (its last one is kept for readers closing with it, and a
        killed one leaves all), retired now: removed after the grace, as readers may still use one."""
        assert self.path is not None
        folder = snapshots_folder(self.path)
        if not folder.is_dir():
            return []
        now = time.monotonic()
        return [(now, Snapshot(p, 0)) for p in sorted(folder.iterdir()) if p.is_dir()]

    def _holds_merge(self) -> bool:
        """True when the default graph is the merge: it has data, or no named graph has any."""
        if next(self._ox.quads_for_pattern(None, None, None, ox.DefaultGraph()), None) is not None:
            return True
        return not bool(self._ox.query("ASK { GRAPH ?g { ?s ?p ?o } }"))

    def _remerge(self) -> None:
        """Rebuild the default graph as the merge of the named graphs (after a bulk load, an open)."""
        try:
            if next(self._ox.quads_for_pattern(None, None, None, ox.DefaultGraph()), None) is None:
                self._ox.bulk_extend(
                    ox.Quad(q.subject, q.predicate, q.object, ox.DefaultGraph())
                    for q in self._ox.quads_for_pattern(None, None, None, None)
                )
            else:
                self._ox.update(_REMERGE)
        except OSError as exc:
            raise StoreError("the store could not rebuild its merged default graph") from exc

    def _default_empty(self) -> bool:
        return next(self._ox.quads_for_pattern(None, None, None, ox.DefaultGraph()), None) is None

    def _merge_file(self, path: Path, *, quads_only: bool) -> None:
        """Add the statements of an N-Quads file just bulk-loaded to the merged default graph: the
        file's lines without their graph names, through the bulk loader again
        (:mod:`aikg.store.copies`; ``quads_only``: the file states nothing in the default graph);
        statements with blank nodes are copied inside the engine, graph by graph; a file with other
        lines has its store re-merged whole."""
        with DefaultCopies(path, quads_only=quads_only) as copies:
            try:
                self._write("bulk_load", copies, format=ox.RdfFormat.N_TRIPLES, to_graph=ox.DefaultGraph())
            except SyntaxError:
                if not quads_only:
                    raise
                # A line the fast cut took for a quad was not one (a comment after a statement): the
                # bulk load is not one transaction, so the merge is rebuilt whole from the graphs.
                copies.other += 1
        if copies.other:
            self._ox.update(_REMERGE)
        elif copies.blank_graphs:
            graphs = " ".join(str(ox.NamedNode(g)) for g in sorted(copies.blank_graphs))
            self._ox.update(
                f"INSERT {{ ?s ?p ?o }} WHERE {{ VALUES ?g {{ {graphs} }} GRAPH ?g {{ ?s ?p ?o }} "
                "FILTER (isBlank(?s) || isBlank(?o)) }"
            )

    @staticmethod
    def in_use(path: str | Path) -> bool:  # POSIX only: elsewhere opening the store fails clearly
        """True when another process has the on-disk store at ``path`` open (it holds RocksDB's lock).

        Checked without opening the store, so a process that forks afterwards (gunicorn's master)
        never carries RocksDB state into its children. Call it only from a process that has no store
        open at ``path``: POSIX record locks belong to the process, so the probe would release its own.
        """
        import fcntl

        lock = Path(path) / "LOCK"
        if not lock.is_file():
            return False
        with open(lock, "rb+") as fh:
            try:
                fcntl.lockf(fh, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError:
                return True
            fcntl.lockf(fh, fcntl.LOCK_UN)
        return False

    @classmethod
    def open_snapshot(cls, snapshot: Snapshot) -> OxigraphStore:
        """Open a snapshot read-only, with the version of the data it holds."""
        return cls(snapshot.path, read_only=True, version=snapshot.version)

    @property
    def version(self) -> int:
        return self._version

    def _bump(self) -> None:
        with self._lock:
            self._version += 1

    def _run(
        self,
        sparql: str,
        *,
        bindings: Mapping[str, Term] | None,
        default_graphs: Sequence[str] | None,
        named_graphs: Sequence[str] | None,
        base_iri: str | None,
        guard: bool = True,
    ) -> Any:
        """The raw pyoxigraph answer, with the interface's dataset and errors.

        Every ORDER BY the engine sorts by is guarded (:func:`aikg.rdf.order.guard_engine_order`): its
        sort aborts the process on terms it cannot order; a guarded text the engine refuses runs as
        written, so a wrong text fails with its own positions."""
        if guard:
            try:
                guarded = guard_engine_order(sparql)
            except QuerySyntaxError:
                guarded = None  # the text runs as written, and fails with the engine's own message
            if guarded is not None:
                with contextlib.suppress(QuerySyntaxError):
                    return self._run(
                        guarded,
                        bindings=bindings,
                        default_graphs=default_graphs,
                        named_graphs=named_graphs,
                        base_iri=base_iri,
                        guard=False,
                    )
        kwargs: dict[str, Any] = {}
        if bindings:
            sparql = substitute(sparql, bindings)  # the one way a variable is bound (aikg.rdf.substitute)
        if base_iri:
            kwargs["base_iri"] = base_iri
        if default_graphs is not None and (default_graphs or named_graphs):
            # Named graphs given without default graphs: the default graph is empty (SPARQL protocol);
            # Oxigraph reads an empty list as an empty graph (its own default graph holds the merge).
            kwargs["default_graph"] = [_named(g, "default graph") for g in default_graphs]
        elif not self._merged and not has_dataset_clause(sparql):
            kwargs["use_default_graph_as_union"] = True  # a read-only copy of a store never re-merged
        if named_graphs:
            kwargs["named_graphs"] = [_named(g, "named graph") for g in named_graphs]
        try:
            return self._ox.query(sparql, **kwargs)
        except SyntaxError as exc:
            raise QuerySyntaxError(f"the query does not parse: {exc}", errors=_position(exc)) from None
        except OSError as exc:
            raise self._damaged(exc) or StoreError("the store failed while running the query") from exc
        except (RuntimeError, TypeError) as exc:
            raise self._damaged(exc) or StoreError("the store could not run the query") from exc

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
        deadline = current_deadline(deadline)
        if deadline is not None and deadline.expired():
            raise QueryTimeout("the request ran past its time limit before this read")
        res = self._run(
            sparql,
            bindings=bindings,
            default_graphs=default_graphs,
            named_graphs=named_graphs,
            base_iri=base_iri,
        )
        if isinstance(res, ox.QueryBoolean):
            return QueryResult(ResultKind.ASK, boolean=bool(res))
        try:
            return self._read(res, max_rows, deadline)
        except BaseException as exc:
            _let_go(exc)
            raise
        finally:
            del res  # the caller's traceback keeps this frame: the answer must not stay in it

    def _read(self, res: Any, max_rows: int | None, deadline: Deadline | None) -> QueryResult:
        """The rows or triples of a SELECT or CONSTRUCT answer, cut at ``max_rows`` and ``deadline``."""
        try:
            if isinstance(res, ox.QuerySolutions):
                variables = [v.value for v in res.variables]
                rows, truncated = _take((tuple(s) for s in res), max_rows, deadline)
                return QueryResult(ResultKind.SELECT, variables=variables, rows=rows, truncated=truncated)
            assert isinstance(res, ox.QueryTriples)
            triples, truncated = _take(iter(res), max_rows, deadline)
        except OSError as exc:
            raise self._damaged(exc) or StoreError(
                "the store failed while reading the query results"
            ) from exc
        except RuntimeError as exc:
            damage = self._damaged(exc)
            if damage is None:
                raise
            raise damage from exc
        return QueryResult(ResultKind.GRAPH, triples=triples, truncated=truncated)

    def answer(self, job: QueryJob) -> Encoded:
        """Run the query and write its answer with Oxigraph's serializers, cut at the row cap.

        A SELECT's outermost ORDER BY is done on the written rows (:mod:`aikg.rdf.order`): faster
        than Oxigraph's, and Oxigraph's panics on values it cannot order."""
        ordered = split_order(job.sparql)
        try:
            if ordered is not None:
                done = self._answer_ordered(ordered, job)
                if done is not None:
                    return done
            return encode(self._run(job.sparql, **self._dataset(job)), job.max_rows)
        except OSError as exc:
            _let_go(exc)
            raise self._damaged(exc) or StoreError(
                "the store failed while reading the query results"
            ) from exc
        except RuntimeError as exc:  # a damaged block met while the answer is written
            _let_go(exc)
            damage = self._damaged(exc)
            if damage is None:
                raise
            raise damage from exc
        except BaseException as exc:
            _let_go(exc)
            raise

    def noted_damage(self) -> DamagedStore | None:
        return None if self.path is None else integrity.noted_damage(integrity.store_of(self.path))

    def _damaged(self, exc: BaseException) -> DamagedStore | None:
        """The refusal of a read that met a damaged block (:func:`aikg.store.integrity.damaged_read`)."""
        return integrity.damaged_read(self.path, exc)

    def _checked(self, quads: Iterator[Quad]) -> Iterator[Quad]:
        """``quads``, with a damaged block met while they are read refused as :class:`DamagedStore`.

        A stopped read lets go of the engine's iterator here, on the reading thread: the error's
        traceback keeps this frame, and a QuadIter (PyO3 ``unsendable``) freed with it on another thread
        (the damage probe hands its error to the request thread) is never freed (see :func:`_let_go`)."""
        try:
            yield from quads
        except BaseException as exc:
            del quads
            if not isinstance(exc, OSError | RuntimeError):
                raise
            damage = self._damaged(exc)
            if damage is None:
                raise
            raise damage from exc

    def _answer_ordered(self, ordered: Ordered, job: QueryJob) -> Encoded | None:
        """The answer with aikg's ORDER BY; None where the engine must run the text as written: an
        answer too large to sort here, or a rewritten text the engine refuses (a computed key over a
        variable a GROUP BY does not keep may be ordered by, not projected), so that the client's own
        text is the one that runs, and fails with its own positions if it is wrong."""
        try:
            res = self._run(ordered.text, **self._dataset(job))
            if isinstance(res, ox.QuerySolutions) and ordered.star is not None:
                ordered = ordered.projected([v.value for v in res.variables])
                res = self._run(ordered.text, **self._dataset(job))
        except QuerySyntaxError:
            return None
        if not isinstance(res, ox.QuerySolutions):
            return None
        return encode_ordered(res, ordered, job.max_rows)

    @staticmethod
    def _dataset(job: QueryJob) -> dict[str, Any]:
        """The arguments of :meth:`_run` besides the text, as a job gives them."""
        return {
            "bindings": job.bindings,
            "default_graphs": job.default_graphs,
            "named_graphs": job.named_graphs,
            "base_iri": job.base_iri,
        }

    def _write(self, method: str, *args: Any, **kwargs: Any) -> Any:
        """Call the engine's ``method``, named rather than bound: a store reopened first (after a full
        disk) has a new engine, and a method bound to the old one would keep it, and its lock, open."""
        if self.read_only:
            raise StoreError("this store is a read-only snapshot")
        if self._full:
            self._recover()
        with self._writing():
            try:
                return getattr(self._ox, method)(*args, **kwargs)
            except OSError as exc:
                space = self._space_error(exc)
                if space is None:
                    raise
                raise space from exc
            except RuntimeError as exc:
                if "Corruption" not in str(exc) or self.path is None:
                    raise
                raise DamagedStore(
                    f"the store at {self.path} is damaged: the engine refused the write "
                    f"({integrity.engine_message(exc)}); nothing was written. Run 'aikg check --store "
                    f"{self.path}' and restore the store from a backup",
                    errors=[{"store": str(self.path), "engine": integrity.engine_message(exc)}],
                ) from exc

    # -- a full file system: a clear, recoverable state ----------------------------------------------

    def _space_error(self, exc: BaseException) -> InsufficientStorage | None:
        """The 507 for an engine error caused by a full file system (None for any other error).

        RocksDB keeps such an error and refuses every later write, even once space is free: the store
        is marked, and the next write reopens it first (:meth:`_recover`). Nothing of the refused write
        was committed; reads go on."""
        if "No space left on device" not in str(exc) or self.path is None:
            return None
        self._full = True
        return InsufficientStorage(
            f"the file system holding the store at {self.path} is full ({_free_mib(self.path)} free): "
            "the write was not committed; reads go on, and writes work again once space is freed",
            errors=[{"store": str(self.path), "free_bytes": _free_bytes(self.path)}],
        )

    def _recover(self) -> None:
        """Reopen a store whose engine refused a write for want of space, once there is room again; the
        engine reads its write-ahead log back (every committed write is in it)."""
        assert self.path is not None
        if _free_bytes(self.path) < RECOVER_SPACE:
            raise InsufficientStorage(
                f"the file system holding the store at {self.path} is still full "
                f"({_free_mib(self.path)} free, {RECOVER_SPACE // 2**20} MiB needed to resume writing): "
                "nothing was changed; reads go on, and writes work again once space is freed",
                errors=[{"store": str(self.path), "free_bytes": _free_bytes(self.path)}],
            )
        with self._lock:
            if not self._full:
                return  # another write reopened it meanwhile
            self._ox = None  # type: ignore[assignment]  # no flush: the engine refuses it; its log has all
            self._ox = self._reopen()
            self._full = False

    # -- the data's generation: what a kept search index is keyed on ---------------------------------

    @contextlib.contextmanager
    def _writing(self) -> Iterator[None]:
        """Around every write: the data has no generation while it changes, and a new one after.

        The store's marker file names the generation of the data on disk. It is removed before the
        first write after it was written and written back only by :meth:`close`, so a store killed
        after a write has none (what was kept for it is not trusted) and a store closed cleanly has
        the generation its last snapshots carried (what was kept for them is found again at restart).
        Only aikg's own writes keep this: a store changed by another tool must be opened without its
        marker file."""
        with self._lock:
            self._writes += 1
            marked, self._generation = self._generation, None
        if marked is not None and self.path is not None:
            (self.path / GENERATION).unlink(missing_ok=True)
        try:
            yield
        finally:
            with self._lock:
                self._writes -= 1
                if self._writes == 0:
                    self._generation = uuid.uuid4().hex

    def _marked(self) -> str | None:
        assert self.path is not None
        try:
            return (self.path / GENERATION).read_text().strip() or None
        except OSError:
            return None

    @staticmethod
    def _mark(folder: Path, generation: str) -> None:
        """Write a generation marker atomically (a reader sees no file or the whole name)."""
        tmp = folder / f".{GENERATION}.{os.getpid()}.tmp"
        tmp.write_text(generation)
        os.replace(tmp, folder / GENERATION)

    def update(self, sparql: str, *, base_iri: str | None = None) -> None:
        """Run any update text, then re-merge the default graph whole (O(store): for tools and tests).

        aikg's own writes go through :meth:`apply`, which keeps the merge in the change's transaction
        at the cost of the change.
        """
        try:
            with self._writing():  # the merge rebuilt inside the same generation's change
                self._write("update", sparql, **({"base_iri": base_iri} if base_iri else {}))
                self._ox.update(_REMERGE)
        except SyntaxError as exc:
            raise QuerySyntaxError(f"the update does not parse: {exc}", errors=_position(exc)) from None
        except OSError as exc:
            raise self._space_error(exc) or StoreError("the store failed while running the update") from exc
        self._bump()

    def load(self, data: bytes, *, mime: str, graph: str | None = None, replace: bool = False) -> int:
        fmt = rdf_format_of(mime)
        target = _named(graph, "graph") if graph else None
        try:
            parsed = list(ox.parse(data, format=fmt))
        except (SyntaxError, ValueError) as exc:
            raise RdfSyntaxError(f"the RDF document does not parse: {exc}") from None
        if target is None and any(isinstance(q.graph_name, ox.DefaultGraph) for q in parsed):
            raise RdfSyntaxError("every triple must go to a named graph: name the target graph")
        quads = [
            q
            if not isinstance(q.graph_name, ox.DefaultGraph)
            else ox.Quad(q.subject, q.predicate, q.object, target)
            for q in parsed
        ]
        self._change(drop=[target.value] if replace and target is not None else [], add=quads)
        return len(quads)

    def bulk_load(self, path: Path, *, mime: str, progress: bool = False) -> None:
        """Load a large quad file with Oxigraph's bulk loader: much faster, but not one transaction."""
        from tqdm import tqdm  # only here: query workers import this module and never load (~40 ms)

        if mime not in _QUAD_MIME:
            raise RdfSyntaxError("a bulk load needs a quad format (N-Quads, TriG): every triple has a graph")
        path = Path(path)
        with (
            open(path, "rb") as raw,
            tqdm.wrapattr(
                raw,
                "read",
                total=path.stat().st_size,
                unit="B",
                unit_scale=True,
                desc=f"loading {path.name}",
                disable=not progress,
            ) as fh,
        ):
            try:
                with self._writing():
                    empty = self._default_empty()
                    self._write("bulk_load", fh, format=rdf_format_of(mime))
                    if mime == "application/n-quads":
                        # Still empty: the file states nothing in the default graph (every line a quad).
                        self._merge_file(path, quads_only=empty and self._default_empty())
                    else:
                        self._remerge()
            except SyntaxError as exc:
                raise RdfSyntaxError(f"{path.name} does not parse: {exc}") from None
            except OSError as exc:
                raise self._space_error(exc) or StoreError("the store failed while loading data") from exc
        self._bump()

    def replace_graph(self, graph: str, triples: Iterable[ox.Triple]) -> int:
        """Only the difference is written; a first build of a large graph goes through the bulk loader."""
        g = _named(graph, "graph")
        new = set(triples)
        old = {q.triple for q in self._ox.quads_for_pattern(None, None, None, g)}
        if old == new:
            return len(new)
        if not old and len(new) >= _BULK_FIRST_BUILD:
            # A first build (a load): nothing is there to keep consistent, so the fast loader, from one
            # file the engine writes (the maintained answers at 1M, 30,946 triples: one transaction of
            # their 61,892 quads took 2-2.3x the bulk loader's time, 4.7-10.7 s under load 13-18).
            with self._spill_folder() as folder:
                path = folder / "graph.nt"
                with path.open("wb") as out:
                    ox.serialize(new, output=out, format=ox.RdfFormat.N_TRIPLES)
                spill.write_file(self._write, path, (g, ox.DefaultGraph()), _ANSWER_CHUNK)
            self._bump()
            return len(new)
        if any(isinstance(t, ox.BlankNode) for tr in old | new for t in (tr.subject, tr.object)):
            # Dropped, then added as quads, which keep their blank nodes. The generic way loads them as
            # a document, whose blank node labels are its own: a blank node's inferred statements came
            # back about a new node, connected to nothing. Two writes (a rebuild is not one either).
            self._change(drop=[g.value])
            self._change(add=[ox.Quad(t.subject, t.predicate, t.object, g) for t in new])
            return len(new)
        return super().replace_graph(graph, new)

    def add_constructed(
        self,
        graph: str,
        queries: Sequence[tuple[str, Mapping[str, Term] | None]],
        *,
        independent: bool = False,
    ) -> int:
        """The answers written into the graph in bulk, never held (a set of terms in Python cost ~1.7 KB
        a triple: 7.9 GB at 10M statements): the engine writes the answers to one file beside the store
        and its bulk loader reads it into the graph and into the default graph, the merge, after the
        last query (:mod:`aikg.store.spill`). Every query reads the data as it was before the call, so
        ``independent`` changes nothing here; one bulk write per graph, not per query (each costs
        ~0.1-0.3 s whatever its size: 14 of them for the seven derivation rules). The queries run side
        by side, one thread each up to the cores this process may use (the engine evaluates and writes
        each answer's file without Python's lock), and their files are joined in their order."""
        del independent  # every query reads the store before any answer is written
        g = _named(graph, "graph")
        with self._spill_folder() as folder:
            parts = [folder / f"answer-{i}.nt" for i in range(len(queries))]
            threads = max(1, min(len(queries), len(os.sched_getaffinity(0))))
            with ThreadPoolExecutor(max_workers=threads, thread_name_prefix="aikg-construct") as pool:
                runs = [pool.submit(self._construct_into, q, p) for q, p in zip(queries, parts, strict=True)]
                for run in runs:
                    run.result()  # the first failure raised
            path = folder / "answers.nt"
            with path.open("wb") as out:
                for part in parts:
                    with part.open("rb") as answer:
                        shutil.copyfileobj(answer, out)
                    part.unlink()
            spill.write_file(self._write, path, (g, ox.DefaultGraph()), _ANSWER_CHUNK)
        self._bump()
        return self.count(graph)

    def _construct_into(self, query: tuple[str, Mapping[str, Term] | None], path: Path) -> None:
        """A CONSTRUCT query's answer written by the engine as N-Triples to ``path``."""
        text, bindings = query
        answer = self._run(text, bindings=bindings, default_graphs=None, named_graphs=None, base_iri=None)
        if not isinstance(answer, ox.QueryTriples):
            raise BadRequest("only a CONSTRUCT query's answer can be added to a graph")
        try:
            answer.serialize(output=str(path), format=ox.RdfFormat.N_TRIPLES)
        except OSError as exc:
            raise self._space_error(exc) or StoreError("the store could not write a rule's answer") from exc
        finally:
            del answer

    @contextlib.contextmanager
    def _spill_folder(self) -> Iterator[Path]:
        """A folder for answers on their way to the bulk loader: beside an on-disk store (on its disk,
        never in a temporary folder that may be memory), removed after."""
        parent = None if self.path is None else self.path.parent
        with tempfile.TemporaryDirectory(
            prefix=f".{self.path.name if self.path else 'aikg'}.answers-", dir=parent
        ) as tmp:
            yield Path(tmp)

    def dump(self, *, mime: str, graph: str | None = None) -> bytes:
        fmt = rdf_format_of(mime)
        if graph is None:
            if mime not in _QUAD_MIME:
                raise RdfSyntaxError("a dump of the whole store needs a quad format (N-Quads, TriG)")
            named = (
                q
                for q in self._ox.quads_for_pattern(None, None, None, None)
                if not isinstance(q.graph_name, ox.DefaultGraph)
            )
            return ox.serialize(named, format=fmt) or b""
        return self._ox.dump(format=fmt, from_graph=_named(graph, "graph")) or b""

    def graphs(self) -> list[str]:
        # Oxigraph remembers a graph emptied by DELETE; the interface lists graphs that hold data (as a
        # remote engine does), so both backends agree on which graphs exist.
        return sorted(
            g.value
            for g in self._ox.named_graphs()
            if isinstance(g, ox.NamedNode)
            and next(self._ox.quads_for_pattern(None, None, None, g), None) is not None
        )

    def has_graph(self, graph: str) -> bool:
        # One probe, where graphs() probes each of the store's graphs (~3.5 ms of a small gated write
        # at the default store, which asks whether its graph is new).
        try:
            name = ox.NamedNode(graph)
        except ValueError:
            return False  # no graph is named so (as graphs() would say)
        return next(self._ox.quads_for_pattern(None, None, None, name), None) is not None

    def drop_graph(self, graph: str) -> None:
        self.apply(drop=[_named(graph, "graph").value])

    def count(self, graph: str | None = None) -> int:
        # A validated IRI in its N-Triples form is safe in query text; substitutions would need ?g
        # in the projection.
        target = _named(graph, "graph") if graph else "?g"
        res = self._ox.query(f"SELECT (COUNT(*) AS ?n) WHERE {{ GRAPH {target} {{ ?s ?p ?o }} }}")
        assert isinstance(res, ox.QuerySolutions)
        cell = next(iter(res))[0]
        return int(cell.value) if isinstance(cell, ox.Literal) else 0

    def quads(
        self,
        subject: Node | None = None,
        predicate: ox.NamedNode | None = None,
        obj: Term | None = None,
        graph: str | None = None,
    ) -> Iterator[Quad]:
        g = _named(graph, "graph") if graph else None
        pattern = self._checked(self._ox.quads_for_pattern(subject, predicate, obj, g))
        if obj is None:
            return (q for q in pattern if not isinstance(q.graph_name, ox.DefaultGraph))
        # pyoxigraph 0.5.13 on disk answers a pattern whose object is an integer ending in byte 0xFF
        # (255, 511, 1023, 2559 …) with every quad after it in the index too (255 also matched 256, 257
        # …; SPARQL is not affected, and a store in memory is not): each match is checked here.
        # Upstream: not filed; Oxigraph's RocksDB ``scan_prefix`` adds one to the last byte below 0xFF
        # for the scan's upper bound but keeps the 0xFF bytes after it (tests/test_upstream.py).
        return (
            q
            for q in pattern
            if q.object == obj
            and not isinstance(q.graph_name, ox.DefaultGraph)
            and (subject is None or q.subject == subject)
            and (g is None or q.graph_name == g)
        )

    def describes(self, node: Node) -> bool:
        """The first quad of ``node`` in the default graph, the merge of the named graphs: ``quads``
        reads the named graphs only, after every quad of the default graph's (Oxigraph scans the default
        graph first), which cost a named query's bound entity ~0.1-0.3 ms at the default store, more
        for a hub. A store that holds no merge is read as ``quads`` reads it."""
        if not self._merged:
            return super().describes(node)
        first = next(self._checked(self._ox.quads_for_pattern(node, None, None, ox.DefaultGraph())), None)
        return first is not None and first.subject == node  # a prefix scan's bound (see quads)

    def apply(
        self, *, remove: Iterable[Quad] = (), add: Iterable[Quad] = (), drop: Iterable[str] = ()
    ) -> None:
        remove = list(remove)
        if any(isinstance(t, ox.BlankNode) for q in remove for t in (q.subject, q.object)):
            raise BadRequest("quads with blank nodes cannot be removed one by one: replace their graph")
        self._change(drop=[_named(g, "graph").value for g in drop], remove=remove, add=list(add))

    def _change(
        self, *, drop: Sequence[str] = (), remove: Sequence[Quad] = (), add: Sequence[Quad] = ()
    ) -> None:
        """The one write path: drop graphs, remove, add, and keep the merged default graph, atomically."""
        if not drop and not remove and not add:
            return
        try:
            if not drop and not remove:
                # One transaction without writing SPARQL text: the quads and their default-graph copies.
                self._write("extend", [*add, *(_in_default(q) for q in add)])
            else:
                self._write("update", _change_text(sorted(set(drop)), remove, add))
        except (SyntaxError, OSError) as exc:
            raise StoreError("the store could not apply the change; nothing was written") from exc
        self._bump()

    def snapshot(self) -> Snapshot | None:
        """A checkpoint of the current data (made once per version), or None for an in-memory store.

        A read-only store opened on a snapshot is one itself.
        """
        if self.path is None:
            return None
        if self.read_only:
            return Snapshot(self.path, self.version)
        with self._snapshotting:  # one checkpoint at a time: a second caller takes the first's
            return self._checkpoint()

    def _checkpoint(self) -> Snapshot:
        assert self.path is not None
        # Read before the checkpoint: it holds this version's data, and perhaps writes committed
        # while it was made (a version is never claimed that the snapshot may not hold).
        version = self.version
        with self._lock:
            found = self._snapshots.get(version)
            if found is not None and found.path.is_dir():
                return found
            before = self._generation
            engine = self._ox  # the one open now, should release_caches reopen it meanwhile
        if engine is None:  # closed meanwhile (a worker's warm-up thread outliving its service)
            raise StoreError(f"the store at {self.path} is closed: no snapshot can be made")
        folder = snapshots_folder(self.path)
        folder.mkdir(parents=True, exist_ok=True)
        target = folder / f"{version}-{uuid.uuid4().hex[:8]}"
        try:
            engine.backup(str(target))
        except OSError as exc:
            space = self._space_error(exc)
            raise space or StoreError("the store could not make a snapshot for a query worker") from exc
        finally:
            del engine  # before taking the lock below: release_caches holds it until this is gone
        if before is not None and self._generation == before:  # no write began or ended meanwhile
            self._mark(target, before)
        snap = Snapshot(target, version)
        with self._lock:
            self._snapshots[version] = snap
            stale = [v for v in self._snapshots if v != version]
            for v in stale:
                self._retired.append((time.monotonic(), self._snapshots.pop(v)))
        self._sweep()
        return snap

    SNAPSHOT_GRACE = 120.0
    """Seconds an outdated snapshot is kept, so queries still reading it can finish."""

    def _sweep(self) -> None:
        now = time.monotonic()
        with self._lock:
            old = [s for t, s in self._retired if now - t > self.SNAPSHOT_GRACE]
            self._retired = [(t, s) for t, s in self._retired if now - t <= self.SNAPSHOT_GRACE]
        for snap in old:
            shutil.rmtree(snap.path, ignore_errors=True)

    def release_caches(self) -> bool:
        """Close and reopen an on-disk store: RocksDB's block caches (32 MB, and 128 MB for Oxigraph's
        string dictionary) are emptied, which nothing in pyoxigraph can bound or clear.

        They keep the blocks of files compaction has deleted until those are pushed out: with a
        snapshot per write, every write makes new files, so a writer's memory grew about 8 MB every 100
        writes (measured: 86 to 186 MB over 2,300 gated writes; reopened, 0.13 s on the default store).
        """
        if self.path is None or self.read_only or self._full:
            return False
        with self._lock:
            if self._writes:
                return False
            self._ox.flush()
            self._ox = None  # type: ignore[assignment]  # the last reference: RocksDB closes its files
            self._ox = self._reopen()
            return True

    def _reopen(self) -> ox.Store:
        """The store opened again after its engine was dropped (caller holds ``_lock``); should it not
        open within ``REOPEN_WAIT``, it is opened read-only, so reads go on, and StoreError is raised."""
        assert self.path is not None
        until = time.monotonic() + REOPEN_WAIT
        while True:
            try:
                engine = ox.Store(str(self.path))
                infologs.prune(self.path)
                return engine
            except integrity.ENGINE_ERRORS as exc:  # a snapshot begun before still holds the old one open
                # or a reference cycle does: the engine's error kept the frame of the write it refused
                gc.collect()
                if time.monotonic() > until:
                    self._ox = ox.Store.read_only(str(self.path))
                    raise StoreError(
                        f"the store at {self.path} could not be reopened for writing: "
                        f"{integrity.engine_message(exc)}"
                    ) from exc
                time.sleep(0.05)

    def close(self) -> None:
        store = getattr(self, "_ox", None)
        if store is None:
            return
        if self.path is not None and not self.read_only:
            try:
                store.flush()
                if self._generation is not None:
                    self._mark(self.path, self._generation)
            except OSError as exc:
                if self._space_error(exc) is None:
                    raise
                # A full file system: every committed write is in the engine's write-ahead log, read back
                # at the next open; with no marker written, that open names the data afresh (nothing kept
                # for this generation is trusted). Closing must not turn the write's clear 507 into a crash.
                # The log gets the error's text: a record holding the error would hold this frame, and with
                # it the engine and its lock, past the close.
                log.warning("closing the store at %s on a full disk: not flushed (%s)", self.path, str(exc))
        self._ox = None  # type: ignore[assignment]  # dropping the last reference closes the files
        if self.path is not None and not self.read_only:
            # The newest snapshot stays until the next open: readers closing at the same time (a
            # service's HTTP workers, stopped with the writer) may still read it, to keep what they built.
            with self._lock:
                retired = [s for _, s in self._retired]
                newest = max(self._snapshots.values(), key=lambda s: s.version, default=None)
                retired += [s for s in self._snapshots.values() if s is not newest]
            for snap in retired:
                shutil.rmtree(snap.path, ignore_errors=True)


RECOVER_SPACE = 8 * 2**20
"""Bytes a full file system must have free again before the store is reopened for writing: the engine
writes a new MANIFEST (preallocated: 4 MiB), OPTIONS and log files as it opens."""


def _free_bytes(path: Path) -> int:
    try:
        return shutil.disk_usage(path).free
    except OSError:
        return 0


def _free_mib(path: Path) -> str:
    return f"{_free_bytes(path) / 2**20:.1f} MiB"


_BULK_FIRST_BUILD = 10_000
"""A first build at least this large goes through Oxigraph's bulk loader instead of one update (at 5,000
triples both took as long; at 30,000 one update took twice the bulk loader's time)."""

_ANSWER_CHUNK = 100_000
"""Triples of an answer naming a blank node :meth:`OxigraphStore.add_constructed` writes at a time."""


def snapshots_folder(path: Path) -> Path:
    """Where the snapshots of the store at ``path`` are kept: beside it, never inside RocksDB's folder."""
    return path.with_name(path.name + ".snapshots")


def _position(exc: SyntaxError) -> list[dict[str, int]]:
    """Line and column of a parse error, from Oxigraph's ``error at L:C: ...`` message."""
    m = re.search(r"\b(\d+):(\d+)\b", str(exc))
    return [{"line": int(m.group(1)), "column": int(m.group(2))}] if m else []


def _named(iri: str, what: str) -> ox.NamedNode:
    try:
        return ox.NamedNode(str(iri))
    except ValueError:
        raise BadRequest(f"{what} {iri!r} is not a valid IRI") from None


def _let_go(exc: BaseException | None) -> None:
    """Free, on this thread, what the finished frames of a stopped read still hold.

    pyoxigraph's answers (QuerySolutions, QueryTriples) are PyO3 ``unsendable`` objects: kept alive by
    an exception's frames and collected later by the garbage collector on another thread, they are
    never freed ("... is unsendable, but is being dropped on another thread"), and with them the
    engine's iterator over its snapshot. Clearing the frames of the traceback (and of the exceptions it
    was raised from) drops them here; the frame still running is left as it is (``clear_frames``
    skips it)."""
    seen: set[int] = set()
    while exc is not None and id(exc) not in seen:
        seen.add(id(exc))
        traceback.clear_frames(exc.__traceback__)
        exc = exc.__cause__ or exc.__context__


def _take(items: Iterator[T], max_rows: int | None, deadline: Deadline | None) -> tuple[list[T], bool]:
    """Read at most ``max_rows`` items, checking ``deadline`` between them; say if more were left."""
    if max_rows is None and deadline is None:
        return list(items), False  # internal reads (rules, loads): read in Rust's own loop
    out: list[T] = []
    for item in items:
        if deadline is not None and deadline.expired():
            raise QueryTimeout("the read ran past its time limit and was stopped")
        if max_rows is not None and len(out) >= max_rows:
            return out, True
        out.append(item)
    return out, False


def _quad_block(quads: Sequence[Quad]) -> str:
    return "\n".join(f"GRAPH {q.graph_name} {{ {q.subject} {q.predicate} {q.object} }}" for q in quads)


def _in_default(q: Quad) -> ox.Quad:
    return ox.Quad(q.subject, q.predicate, q.object, ox.DefaultGraph())


_REMERGE = (
    "DELETE { ?s ?p ?o } WHERE { ?s ?p ?o FILTER NOT EXISTS { GRAPH ?g { ?s ?p ?o } } } ;\n"
    "INSERT { ?s ?p ?o } WHERE { GRAPH ?g { ?s ?p ?o } }"
)
"""The default graph rebuilt as the merge of the named graphs, whatever an update text did."""


def _change_text(drop: list[str], remove: Sequence[Quad], add: Sequence[Quad]) -> str:
    """One update: drop, remove, add, with the default graph kept as the merge of the named graphs.

    Before the drops, the default graph forgets the triples that only the dropped graphs state; the added
    triples go in with their quads (one INSERT DATA, so a blank node label is one node in both); last, it
    forgets the removed triples no named graph states any more. Cost: the change, not the store.
    """
    parts = []
    if drop:
        named = [f"<{g}>" for g in drop]
        parts.append(
            f"DELETE {{ ?s ?p ?o }} WHERE {{ VALUES ?g {{ {' '.join(named)} }} GRAPH ?g {{ ?s ?p ?o }} "
            f"FILTER NOT EXISTS {{ GRAPH ?h {{ ?s ?p ?o }} FILTER (?h NOT IN ({', '.join(named)})) }} }}"
        )
        parts.extend(f"DROP SILENT GRAPH <{g}>" for g in drop)
    if remove:
        parts.append("DELETE DATA {\n" + _quad_block(remove) + "\n}")
    if add:
        copies = "\n".join(f"{q.subject} {q.predicate} {q.object} ." for q in add)
        parts.append("INSERT DATA {\n" + _quad_block(add) + "\n" + copies + "\n}")
    if remove:
        rows = "\n".join(f"({q.subject} {q.predicate} {q.object})" for q in remove)
        parts.append(
            "DELETE { ?s ?p ?o } WHERE { VALUES (?s ?p ?o) {\n" + rows + "\n} "
            "FILTER NOT EXISTS { GRAPH ?g { ?s ?p ?o } } }"
        )
    return " ;\n".join(parts)
