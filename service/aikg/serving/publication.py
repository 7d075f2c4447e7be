"""How the writer tells the readers which snapshot is current, and what each write touched.

One folder beside the store (``<store>.serving``) holds ``current.json`` — the version and path of the
latest snapshot, and the newest committed version, replaced atomically — and ``writes.jsonl``, one line
per gated write (the versions around it and the subjects it touched), so a reader's search index follows
writes without a rebuild.

A write is answered once it is committed; its snapshot (a RocksDB checkpoint: 20–300 ms of file syncs on
a shared disk, most of a small write's time) is made after, by the writer's publisher thread, several
writes in one when they come faster. Before answering, the writer says in ``current.json`` that a newer
version is committed (``latest``), and a reader that sees it asks for that snapshot (:func:`want`) and
waits for it before it reads (:meth:`Published.settled`): every read that begins after a write's answer
sees the write. Unasked, the publisher waits for the writes to pause: each checkpoint flushes RocksDB's
memtable into new files, and at 1M the compactions that follow cost ~85 ms of CPU a checkpoint, which
writes coming one after another paid.
"""

from __future__ import annotations

import contextlib
import json
import os
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from aikg.store import Snapshot


def folder_for(store_path: Path) -> Path:
    """The publication folder of the store at ``store_path``."""
    return store_path.with_name(store_path.name + ".serving")


@dataclass(frozen=True)
class Published:
    """The current snapshot and the stamp of the file it was read from."""

    snapshot: Snapshot
    stamp: tuple[int, int]
    run: str = ""
    """The writer's run: with the snapshot's version (which restarts with each run) it names one state
    of the data for every reader."""
    latest: int | None = None
    """The newest version the writer has committed (and answered), if newer than the snapshot's."""

    @property
    def settled(self) -> bool:
        """True when the snapshot holds every committed write (none is waiting for its snapshot)."""
        return self.latest is None or self.latest <= self.snapshot.version


def publish(folder: Path, snapshot: Snapshot, run: str, latest: int | None = None) -> None:
    """Make ``snapshot`` of the writer's ``run`` the current one (atomically: readers see the old file or
    the new one), saying that version ``latest`` is committed when its snapshot is still to come."""
    folder.mkdir(parents=True, exist_ok=True)
    fields: dict[str, object] = {"version": snapshot.version, "path": str(snapshot.path), "run": run}
    if latest is not None and latest > snapshot.version:
        fields["latest"] = latest
    body = json.dumps(fields)
    fd, tmp = tempfile.mkstemp(dir=folder, prefix=".current-")
    with os.fdopen(fd, "w") as fh:
        fh.write(body)
    os.replace(tmp, folder / "current.json")


def withdraw(folder: Path) -> None:
    """Remove the current publication (the writer stops, or a new run starts: its snapshot is gone), and
    the word of a writer that gave up in an earlier run."""
    (folder / "current.json").unlink(missing_ok=True)
    (folder / FATAL).unlink(missing_ok=True)
    (folder / WRITER).unlink(missing_ok=True)
    (folder / READY).unlink(missing_ok=True)
    (folder / WANTED).unlink(missing_ok=True)


WANTED = "snapshot-wanted"
"""Present while a reader waits for the snapshot of a write it was told is committed: the writer's
publisher makes it at once, where it otherwise waits for the writes to pause (:func:`want`)."""


def want(folder: Path) -> None:
    """Ask the writer for the snapshot of every committed write now (a reader waits for it)."""
    with contextlib.suppress(OSError):
        os.close(os.open(folder / WANTED, os.O_CREAT | os.O_WRONLY, 0o600))


def wanted(folder: Path) -> bool:
    """True, once, when a reader has asked for the snapshot since the last call (the writer asks)."""
    try:
        (folder / WANTED).unlink()
    except OSError:
        return False
    return True


FATAL = "fatal.txt"
"""Why the writer gave up (it could not open the store): the service ends, and says this."""


def give_up(folder: Path, message: str) -> None:
    """Leave the writer's reason for ending the service where readers and ``aikg serve`` look."""
    folder.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=folder, prefix=".fatal-")
    with os.fdopen(fd, "w") as fh:
        fh.write(message)
    os.replace(tmp, folder / FATAL)


READY = "writer-ready"
"""Present once the writer takes writes: it has opened the store, loaded the seeds and warmed up."""


def mark_ready(folder: Path, ready: bool) -> None:
    """Say whether the writer takes writes (the file is removed as a writer starts)."""
    if ready:
        folder.mkdir(parents=True, exist_ok=True)
        (folder / READY).write_text(str(os.getpid()))
    else:
        (folder / READY).unlink(missing_ok=True)


def writer_ready(folder: Path) -> bool:
    """True once the writer takes writes."""
    return (folder / READY).is_file()


WRITER = "writer.pid"
"""The writer process's pid: ``aikg serve`` waits for it to release the store before it exits."""


def note_writer(folder: Path, pid: int) -> None:
    """Say which process is the writer (it holds the store's lock)."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / WRITER).write_text(str(pid))


def writer(folder: Path) -> int | None:
    """The pid of the last writer started, or None."""
    try:
        return int((folder / WRITER).read_text())
    except (OSError, ValueError):
        return None


def fatal(folder: Path) -> str | None:
    """Why the writer gave up, or None while it has not."""
    try:
        return (folder / FATAL).read_text()
    except OSError:
        return None


def stamp(folder: Path) -> tuple[int, int] | None:
    """A cheap fingerprint of ``current.json`` (inode, mtime): it changes with every publication."""
    return stamp_at(marker(folder))


def marker(folder: Path) -> str:
    """The path of ``current.json``, for :func:`stamp_at`."""
    return os.fspath(folder / "current.json")


def stamp_at(path: str) -> tuple[int, int] | None:
    """:func:`stamp` of the ``current.json`` at ``path``: a reader looks at it before every read, twice
    per cached answer, so the path is joined once, not each time (a pathlib join costs more than the
    ``stat``)."""
    try:
        st = os.stat(path)
    except FileNotFoundError:
        return None
    return (st.st_ino, st.st_mtime_ns)


def current(folder: Path, *, wait: float = 0.0) -> Published | None:
    """The current snapshot, or None before the writer published one; with ``wait``, for up to that many
    seconds the snapshot that holds every write the writer has answered (:meth:`Published.settled`)."""
    until, asked = time.monotonic() + wait, False
    while True:
        found = _read(folder)
        if found is None or found.settled or time.monotonic() >= until:
            return found
        if not asked:
            want(folder)
            asked = True
        time.sleep(SETTLE_POLL)


SETTLE_WAIT = 10.0
"""Most seconds a read waits for the snapshot of a write the writer has answered (a writer that died
before publishing it never will; the next one publishes what it finds)."""

SETTLE_POLL = 0.003
"""Seconds between two looks at ``current.json`` while a committed write's snapshot is being made."""


def _read(folder: Path) -> Published | None:
    seen = stamp(folder)
    if seen is None:
        return None
    try:
        body = json.loads((folder / "current.json").read_text())
    except (FileNotFoundError, ValueError):
        return None
    latest = body.get("latest")
    return Published(
        Snapshot(Path(body["path"]), int(body["version"])),
        seen,
        str(body.get("run", "")),
        None if latest is None else int(latest),
    )


def record_write(folder: Path, before: int, after: int, subjects: frozenset[str] | None) -> None:
    """Append one gated write to the journal readers follow (None: its reach is unknown)."""
    line = json.dumps(
        {"before": before, "after": after, "subjects": None if subjects is None else sorted(subjects)}
    )
    with open(folder / "writes.jsonl", "a", encoding="utf-8") as fh:
        fh.write(line + "\n")
