"""The writer process: the one process that opens the on-disk store for writing.

It is a gunicorn *dirty worker* (``gunicorn.dirty``): gunicorn starts it before the HTTP workers,
restarts it if it dies and stops it last. It loads the seeds into an empty store, imports the Epoch
snapshot in the background, commits every write through the gate, and answers once it is committed,
having said so where readers look; its publisher thread then makes and publishes the snapshot that holds
it (:mod:`aikg.serving.publication`), and readers wait for that snapshot before they read. HTTP
workers reach it through gunicorn's dirty client (:mod:`aikg.serving.forward`); arguments and answers
are plain data (the dirty protocol carries no pickles), so a refusal travels as its status, message and
report.
"""

from __future__ import annotations

import contextlib
import logging
import os
import signal
import threading
import time
from pathlib import Path
from typing import Any

import pyoxigraph as ox
from gunicorn.dirty.app import DirtyApp

from aikg.errors import AikgError, DamagedStore, StoreError, ValidationFailed, WriteTimeout
from aikg.knowledge.validation_job import ValidationJob
from aikg.services import Services, build_services
from aikg.serving import publication
from aikg.serving.app import SERVER_PID
from aikg.serving.arenas import give_back
from aikg.serving.validation import publish_board, withdraw_board
from aikg.settings import Settings, load_settings
from aikg.store import Deadline, Snapshot
from aikg.write.gate import Gate

log = logging.getLogger(__name__)

APP_PATH = "aikg.serving.writer:Writer"
"""How HTTP workers name this app to gunicorn's dirty client."""


def error_answer(exc: AikgError) -> dict[str, Any]:
    """A typed error as plain data, so the HTTP worker raises the same error with the same body."""
    answer: dict[str, Any] = {
        "ok": False,
        "type": type(exc).__name__,
        "message": exc.message,
        "errors": exc.errors,
        "headers": exc.headers,
    }
    if isinstance(exc, ValidationFailed) and exc.report is not None:
        answer["report"] = {"json": exc.report.to_json(), "turtle": exc.report.to_turtle()}
    return answer


WARM_UP_NICENESS = 10
"""How much lower the writer's warm-up runs than the serving processes: ~1 s of CPU that only the first
write needs, while a restarting server's readers load their indexes and answer their first requests."""


def _behind_readers(fn: Any, name: str = "aikg-writer-warm-up", *, wait: bool = True) -> threading.Thread:
    """Run ``fn`` on a thread of lower CPU priority, and wait for it unless ``wait`` is false. On Linux a
    thread's niceness is its own (the threads it starts inherit it); it is never raised again (that
    needs privileges): the thread ends with ``fn``. The writer's other threads are idle while it starts,
    so none waits on the GIL behind it."""

    def run() -> None:
        with contextlib.suppress(OSError, AttributeError):  # AttributeError: no native thread ids
            os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), WARM_UP_NICENESS)
        fn()

    thread = threading.Thread(target=run, name=name, daemon=True)
    thread.start()
    if wait:
        thread.join()
    return thread


KEEP_ANSWERS_DELAY = 10.0
"""Seconds after the writer is ready before it computes the kept answers a store lacks: a restarted
server's first answers come first. Started at once, their queries (two threads at nice 10) took the first
named query after a restart at 1M from 13 to 88 ms, and the entity lookup after it from 278 to 526 ms
(load 13-14)."""

OPEN_WAIT = 30.0
"""Seconds a new writer waits for the store's lock (a writer being replaced may still be closing it)."""


def _open(settings: Settings) -> Services:
    deadline = time.monotonic() + OPEN_WAIT
    while True:
        try:
            # its query workers stage updates (aikg.write.gate.update_delta): imported as they start
            return build_services(settings, jobs=("aikg.write.gate",))
        except DamagedStore:
            raise  # it would fail again: never retried
        except StoreError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.2)


GIVE_UP_WAIT = 60.0
"""Seconds a writer that gave up waits to be stopped with the service before it exits by itself."""


def _give_up(folder: Path, exc: StoreError) -> None:
    """End the service, once, because the writer cannot open the store: say why where ``aikg serve`` and
    the readers look, stop the master, and wait here to be stopped with it. A writer that exited instead
    would be started again at once by gunicorn's dirty arbiter, failing the same way ~16 times a second
    for as long as the service ran, every client left without an answer."""
    log.error("%s", exc.message)
    publication.give_up(folder, exc.message)
    master = os.environ.get(SERVER_PID)
    if master is None:  # not under aikg serve: nothing to stop but this process
        raise exc
    signal.signal(signal.SIGTERM, lambda *_: os._exit(0))  # stopped with the service: not respawned
    with contextlib.suppress(ProcessLookupError, ValueError):
        os.kill(int(master), signal.SIGTERM)
    time.sleep(GIVE_UP_WAIT)
    os._exit(1)


MEMORY_CHECK = 5.0
"""Seconds between two looks at the writer's resident memory."""

IDLE_BEFORE_RELEASE = 1.0
"""Seconds with no action under way before the writer reopens its store (reads wait for it: 0.13 s)."""


def resident_mb() -> float | None:
    """This process's resident memory in MB (None where ``/proc`` does not say)."""
    try:
        pages = int(Path("/proc/self/statm").read_text().split()[1])
    except (OSError, IndexError, ValueError):
        return None
    return pages * os.sysconf("SC_PAGE_SIZE") / 2**20


CLOSE_WAIT = 30.0
"""Most seconds a closing writer waits for its last snapshot to be published."""

PUBLISH_RETRY = 1.0
"""Seconds before the publisher tries again after the engine refused a snapshot (a full disk)."""

PUBLISH_IDLE = 0.2
"""Seconds without a write after which the publisher makes the snapshot nobody has asked for yet."""

PUBLISH_MOST = 2.0
"""Most seconds a committed write waits for its snapshot while writes keep coming and nobody asks."""

PUBLISH_POLL = 0.004
"""Seconds between the publisher's looks for a reader's request (a file: the readers are processes)."""

PARENT_CHECK = 0.5
"""Seconds between the writer's checks that the dirty arbiter that started it is still there."""

PARENT_GRACE = 30.0
"""Seconds an orphaned writer is given to stop cleanly before it exits at once."""


def _watch_parent() -> None:
    """Stop this writer once the dirty arbiter that started it has gone.

    A writer left behind holds the store's lock: the next ``aikg serve`` could not open the store. The
    kernel's parent-death signal was not enough: an arbiter killed before the request was made sent
    nothing, and gunicorn drops a SIGTERM that comes while the app initializes (opening the store and
    loading the seeds take seconds), so a writer killed that way stayed. The parent is checked
    instead, when the writer starts and then every half second; gunicorn's own workers do the same.
    """
    parent = os.getppid()
    if not _started_by_this_service(parent):
        raise SystemExit(0)  # the arbiter died before this writer got here

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(PARENT_CHECK)
        log.warning("the dirty arbiter (pid %s) is gone: the writer stops", parent)
        until = time.monotonic() + PARENT_GRACE
        while time.monotonic() < until:  # again and again: a SIGTERM during init is dropped
            os.kill(os.getpid(), signal.SIGTERM)
            time.sleep(PARENT_CHECK)
        os._exit(1)

    threading.Thread(target=watch, name="aikg-parent-watch", daemon=True).start()


def _started_by_this_service(parent: int) -> bool:
    """True when ``parent`` is the dirty arbiter of the running ``aikg serve`` (its child)."""
    master = os.environ.get(SERVER_PID)
    if master is None:  # not started by aikg serve: only an adoption by init is known to be wrong
        return parent != 1
    try:
        stat = Path(f"/proc/{parent}/stat").read_text()
    except OSError:
        return not Path("/proc/self").exists()  # gone, unless there is no /proc to read
    return stat.rsplit(")", 1)[1].split()[1] == master


def _deadline(until: float | None) -> Deadline | None:
    """The request's deadline, sent as a wall-clock instant: the time it took to get here counts."""
    return None if until is None else Deadline.after(until - time.time())


class Writer(DirtyApp):  # type: ignore[misc]  # gunicorn ships no types: its classes are Any
    """The store's owner inside gunicorn's dirty arbiter."""

    workers = 1
    """Exactly one process may write the on-disk store."""

    services: Services
    folder: Path
    _turns: threading.Condition
    _actions: int
    _releasing: bool
    _last_action: float

    ACTIONS = frozenset({"update", "put", "drop", "status", "validate", "import_epoch"})
    """What HTTP workers may ask of the writer (gunicorn would otherwise expose every public method)."""

    def __call__(self, action: str, *args: Any, **kwargs: Any) -> Any:
        if action not in self.ACTIONS:
            raise ValueError(f"unknown writer action {action!r}")
        with self._turns:
            self._turns.wait_for(lambda: not self._releasing)
            self._actions += 1
        try:
            return getattr(self, action)(*args, **kwargs)
        finally:
            with self._turns:
                self._actions -= 1
                self._last_action = time.monotonic()

    # -- memory ------------------------------------------------------------------------------------

    def _watch_memory(self, allowed_mb: int) -> None:
        """Empty the store's caches when the writer has gained ``allowed_mb`` since it started or last
        emptied them, at a moment with no action under way (:meth:`aikg.store.Store.release_caches`).

        Measured with the soak (8 clients, mixed reads and writes, ``python -m aikg_bench.soak``): the
        writer grew from 103 to 153 MB in 10 minutes (+49 %), the caches of RocksDB filling with blocks
        of deleted files; nothing else in it grew (tracemalloc: Python's heap flat at 8 MB)."""
        first = resident_mb()
        if not allowed_mb or first is None:
            return

        def watch(start: float) -> None:
            while True:
                time.sleep(MEMORY_CHECK)
                now = resident_mb()
                if now is None or now - start < allowed_mb or self._importing():
                    continue
                with self._turns:
                    if self._actions or time.monotonic() - self._last_action < IDLE_BEFORE_RELEASE:
                        continue
                    self._releasing = True
                # Counted from here on: what the writer loads on first use (the gate's rules,
                # pyshacl) is not a cache, and counted from the start it would reopen every time.
                start = self._empty_caches(now)

        threading.Thread(target=watch, args=(first,), name="aikg-writer-memory", daemon=True).start()

    def _empty_caches(self, before: float) -> float:
        """Reopen the store while actions wait (``_releasing`` set); the resident MB after it."""
        try:
            began = time.monotonic()
            self.services.store.release_caches()
            give_back()
            after = resident_mb() or before
            log.info(
                "the writer emptied the store's caches: %.0f -> %.0f MB in %.2f s",
                before,
                after,
                time.monotonic() - began,
            )
            return after
        except StoreError:
            log.exception("the store could not be reopened: the writer stops, to be replaced")
            os._exit(1)
        finally:
            with self._turns:
                self._releasing = False
                self._turns.notify_all()

    def _importing(self) -> bool:
        """True while background work of the writer runs (the shipped files brought up to date, the
        kept answers' upkeep)."""
        return any(thread.is_alive() for thread in self.services.background.values())

    def _keep_answers(self) -> None:
        """The kept answers this store lacks, computed and committed (:meth:`Gate.keep_answers`), once the
        shipped files are brought up to date (that may rebuild the generated graphs, kept answers too) and
        :data:`KEEP_ANSWERS_DELAY` after the writer is ready."""
        shipped = self.services.background.get("shipped-data")
        if shipped is not None:
            shipped.join()
        time.sleep(KEEP_ANSWERS_DELAY)
        started = time.monotonic()
        try:
            kept = self._gate.keep_answers()
        except AikgError as exc:
            log.warning("the kept answers could not be brought up to date: %s", exc.message)
            return
        if kept:
            log.info("kept answers of %d named queries computed in %.1f s", kept, time.monotonic() - started)

    def init(self) -> None:
        """Open the store, load the seeds into an empty one, publish, then import Epoch's data."""
        # Actions under way, and whether they wait while the store's caches are emptied.
        self._actions, self._releasing, self._last_action = 0, False, time.monotonic()
        self._turns = threading.Condition()
        _watch_parent()
        settings = load_settings()
        self.folder = publication.folder_for(Path(settings.store))
        publication.mark_ready(self.folder, False)  # a writer started again: writes wait for this one
        publication.note_writer(self.folder, os.getpid())
        try:
            self.services = _open(settings)
        except StoreError as exc:
            _give_up(self.folder, exc)
            raise
        store = self.services.store
        withdraw_board(self.folder)  # a board left by an earlier run names its snapshots, gone now
        job = self.services.validation
        assert isinstance(job, ValidationJob)  # the writer computes; HTTP workers read its board
        job.published.append(lambda board: publish_board(self.folder, board))
        if settings.load_seeds:
            from aikg.knowledge.load import is_empty, load_seeds

            if is_empty(store):
                load_seeds(store)
        gate = self.services.gate
        assert isinstance(gate, Gate)  # the writer holds the store: its gate commits here
        self._gate = gate
        self._publishing, self._closing = threading.Condition(), False
        self._shown = self._snapshot()
        self._latest = self._shown.version
        with self._publishing:
            self._show()
        gate.committed.append(self._published_write)
        self._publisher = threading.Thread(
            target=self._keep_publishing, name="aikg-writer-publisher", daemon=True
        )
        self._publisher.start()
        if settings.token:
            from aikg.write.gate import warm_up

            _behind_readers(warm_up)
        if settings.load_seeds:
            from aikg.epoch.background import bring_up_to_date

            thread = bring_up_to_date(self.services, epoch=settings.import_epoch)
            self.services.background["shipped-data"] = thread
        # Kept answers the store lacks (their queries declared or changed since its generated graphs were
        # built) are computed behind the readers: until then those queries answer with their text.
        self.services.background["kept-answers"] = _behind_readers(
            self._keep_answers, "aikg-kept-answers", wait=False
        )
        self._watch_memory(settings.writer_memory)
        publication.mark_ready(self.folder, True)

    # -- publication -------------------------------------------------------------------------------

    _gate: Gate
    _publishing: threading.Condition
    """Guards what is published: the snapshot shown to readers and the newest committed version."""
    _closing: bool
    _publisher: threading.Thread
    _shown: Snapshot
    _latest: int

    def _snapshot(self) -> Snapshot:
        """A snapshot of the store as it is, never in the middle of a commit made of several
        transactions (the data, then the generated graphs rebuilt whole)."""
        with self._gate.whole:
            snapshot = self.services.store.snapshot()
        assert snapshot is not None
        return snapshot

    def _show(self) -> None:
        """Write what readers read (the caller holds ``_publishing``)."""
        publication.publish(self.folder, self._shown, self.services.made_up, self._latest)

    def _published_write(self) -> None:
        """After each commit, before its answer: journal the write and say that its version is
        committed, so every read that begins after the answer waits for the snapshot that holds it."""
        record = self.services.writelog.records[-1] if self.services.writelog.records else None
        if record is not None:
            publication.record_write(self.folder, record.before, record.after, record.subjects)
        with self._publishing:
            self._latest = max(self._latest, self.services.store.version)
            self._show()
            self._publishing.notify_all()

    def _until_wanted(self) -> None:
        """Return when the newest writes should be published: a reader waits for them
        (:func:`publication.want`), the writes paused for :data:`PUBLISH_IDLE`, the oldest of them has
        waited :data:`PUBLISH_MOST`, or the writer closes."""
        first = time.monotonic()
        while not self._closing and not publication.wanted(self.folder):
            now = time.monotonic()
            with self._turns:
                busy, last = self._actions, self._last_action
            if now - first >= PUBLISH_MOST or (not busy and now - last >= PUBLISH_IDLE):
                return
            time.sleep(PUBLISH_POLL)

    def _keep_publishing(self) -> None:
        """Make the snapshot of the newest committed version and publish it, when a reader asks for it
        or the writes pause: one RocksDB checkpoint (its file syncs take 20–300 ms on a shared disk; at
        1M the compactions after its flush ~85 ms of CPU) serves every write committed before it began,
        off the writes' own path."""
        while True:
            with self._publishing:
                self._publishing.wait_for(lambda: self._closing or self._latest > self._shown.version)
                if self._latest <= self._shown.version:  # closing, every write published
                    return
            self._until_wanted()
            with self._turns:  # the caches are not emptied under a checkpoint
                self._turns.wait_for(lambda: not self._releasing)
                self._actions += 1
            try:
                snapshot = self._snapshot()
            except (AikgError, OSError):
                log.exception("the writer could not make a snapshot; it tries again")
                if self._closing:
                    return
                time.sleep(PUBLISH_RETRY)
                continue
            finally:
                with self._turns:
                    self._actions -= 1
                    self._last_action = time.monotonic()
            with self._publishing:
                if snapshot.version > self._shown.version:
                    self._shown = snapshot
                    self._show()

    # -- actions -----------------------------------------------------------------------------------

    # ``until``: the request's deadline (``time.time()`` instant); the gate commits nothing past it.

    def update(
        self,
        text: str,
        using: list[str] | None = None,
        using_named: list[str] | None = None,
        until: float | None = None,
    ) -> dict[str, Any]:
        """A SPARQL Update through the gate (with the protocol's using-graph-uri / using-named-graph-uri)."""
        deadline = _deadline(until)
        return self._write(
            lambda: self.services.gate.update(text, using=using, using_named=using_named, deadline=deadline),
            deadline,
        )

    def put(self, graph: str, nquads: bytes, replace: bool, until: float | None = None) -> dict[str, Any]:
        """A Graph Store PUT/POST of already-checked quads (sent as N-Quads) through the gate."""
        deadline = _deadline(until)
        return self._write(
            lambda: self.services.gate.put(
                graph, list(ox.parse(nquads, format=ox.RdfFormat.N_QUADS)), replace=replace, deadline=deadline
            ),
            deadline,
        )

    def drop(self, graph: str, until: float | None = None) -> dict[str, Any]:
        """A Graph Store DELETE through the gate."""
        deadline = _deadline(until)
        return self._write(lambda: self.services.gate.drop(graph, deadline=deadline), deadline)

    def import_epoch(self, files: dict[str, bytes], options: dict[str, Any]) -> dict[str, Any]:
        """An Epoch import (or its dry run) of uploaded files, through the gate; its report as plain data."""
        from aikg.epoch.uploads import import_uploaded

        try:
            report = import_uploaded(self.services, files, options)
        except AikgError as exc:
            return error_answer(exc)
        return {"ok": True, "report": report.to_json()}

    def _write(self, run: Any, deadline: Deadline | None) -> dict[str, Any]:
        try:
            if deadline is not None and deadline.expired():
                # Its client has been told it timed out: doing the work now would only delay the next.
                raise WriteTimeout(
                    "the write reached the writer after its time limit (setting "
                    "write_timeout) and was not started; nothing was changed",
                    errors=[{"limit": "write_timeout"}],
                )
            outcome = run()
        except AikgError as exc:
            return error_answer(exc)
        return {
            "ok": True,
            "outcome": outcome.to_json(),
            "created": outcome.created,
            "version": self.services.store.version,
        }

    def status(self) -> dict[str, Any]:
        """What the writer is doing: the store's version, and whether the Epoch import still runs."""
        return {"version": self.services.store.version, "epoch_import_running": self._importing()}

    def validate(self) -> dict[str, Any]:
        """Start computing the current version's whole-store report unless it is done or under way (one
        job for every HTTP worker, which read its board: :mod:`aikg.serving.validation`)."""
        found = self.services.validation.state()
        return {"state": found.state, "version": found.version}

    def close(self) -> None:
        """Flush and release the store as gunicorn stops the writer.

        The last publication and its snapshot stay (the next start withdraws them): gunicorn stops the
        HTTP workers at the same time, and each keeps its search index for the data it reflects, which
        it reads from that snapshot."""
        publication.mark_ready(self.folder, False)
        withdraw_board(self.folder)
        if hasattr(self, "_publisher"):
            # The last writes' snapshot is published before the store closes: the HTTP workers,
            # stopping at the same time, keep their search index for the data it holds.
            with self._publishing:
                self._closing = True
                self._publishing.notify_all()
            self._publisher.join(CLOSE_WAIT)
        self.services.close()
