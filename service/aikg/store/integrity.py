"""Is the folder an embedded store aikg may open, create, or neither; checks, backups and restores of it.

Opening a folder read-write lets RocksDB change it: without its ``CURRENT`` file it starts a new
database there and deletes the old files, and it rewrites files as it recovers. So a folder is opened
read-write only when it is new (absent, or an empty directory) or when the engine has first opened it
read-only without complaint (which touches nothing): RocksDB then has read its ``MANIFEST``, checked that
every table file is there at its recorded size, and read each table's footer, index and properties
blocks with their checksums. Anything else is a :class:`~aikg.errors.DamagedStore`: every file is left
as found, and the message says what to do. Damage inside a table's data blocks shows only when they are
read: :func:`check` reads every index of the store whole (``aikg check``).
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pyoxigraph as ox

from aikg.errors import DamagedStore, StoreError
from aikg.store.base import GENERATION

ENGINE_ERRORS = (OSError, RuntimeError, ValueError)
"""What pyoxigraph raises when RocksDB refuses a store: IO errors as OSError, corruption as RuntimeError."""

CURRENT = "CURRENT"
"""The file RocksDB opens first: it names the live MANIFEST. Without it, a folder is no database to it."""


def engine_message(exc: BaseException) -> str:
    """RocksDB's own words, on one line."""
    return " ".join(str(exc).split())[:600] or type(exc).__name__


def damaged(path: Path, what: str, exc: BaseException | None = None) -> DamagedStore:
    """The refusal of the store at ``path``: what is wrong, the engine's message and what to do."""
    said = f" (the engine says: {engine_message(exc)})" if exc is not None else ""
    return DamagedStore(
        f"the store at {path} cannot be opened: {what}{said}. aikg left every file of it as it found "
        f"them. Restore the store from a backup ('aikg restore BACKUP --store {path}', into an empty "
        "folder), or move this folder away to start with a new store; "
        f"'aikg check --store {path}' reports what it can read",
        errors=[{"store": str(path), "problem": what, **({"engine": engine_message(exc)} if exc else {})}],
    )


SNAPSHOTS = ".snapshots"
"""A store's read-only snapshots (the RocksDB checkpoints its query workers open) are in
``<store>.snapshots/``."""


def store_of(path: Path) -> Path:
    """The store a folder belongs to: itself, or the store whose snapshot it is."""
    parent = path.parent
    return parent.with_name(parent.name.removesuffix(SNAPSHOTS)) if parent.name.endswith(SNAPSHOTS) else path


def damaged_read(path: Path | None, exc: BaseException) -> DamagedStore | None:
    """The refusal of a read the engine stopped because a block of the store at ``path`` (or of its
    snapshot) fails its checksum or cannot be decoded — RocksDB's ``Corruption`` status, the only words
    that say so — or None for any other failure (a timeout, a bad query, a full disk)."""
    said = engine_message(exc)
    if path is None or "Corruption" not in said:
        return None
    store = store_of(path)
    damage = DamagedStore(
        f"the store is damaged: reading it hit a damaged block of {store} (the engine says: {said}). "
        f"Nothing was changed. Run 'aikg check --store {store}' to see what can still be read, and "
        f"restore the store from a backup ('aikg restore BACKUP --store NEW_FOLDER')",
        errors=[{"store": str(store), "problem": "damaged block", "engine": said}],
    )
    note_damage(store, damage)
    return damage


DAMAGE_NOTE = "AIKG-DAMAGED.json"
"""In a store's folder: the first damaged block a read of any process met, so every process serving the
store reports it (each HTTP worker, and a restarted server, would otherwise say "ok" until a read of its
own met the block). It lives and goes with the folder: a store restored into a new folder, or put where
the damaged one was moved away from, has none. The engine leaves files of other names alone."""


def note_damage(store: Path, damage: DamagedStore) -> None:
    """Keep ``damage`` in ``store``'s folder unless a note is there already. Best effort: a note that
    cannot be written (a full or read-only disk) leaves the refusal itself unchanged."""
    note = store / DAMAGE_NOTE
    if note.exists() or not (store / CURRENT).exists():
        return
    body = {"message": damage.message, "errors": damage.errors}
    tmp = store / f".{DAMAGE_NOTE}.{uuid.uuid4().hex}.tmp"
    try:
        tmp.write_text(json.dumps(body), encoding="utf-8")
        os.replace(tmp, note)
    except OSError:
        with contextlib.suppress(OSError):
            tmp.unlink()


def noted_damage(store: Path) -> DamagedStore | None:
    """The damage a read of any process met in the store at ``store``, as noted in its folder, or None."""
    try:
        body = json.loads((store / DAMAGE_NOTE).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(body, dict):
        return None
    return DamagedStore(str(body.get("message", "")), errors=list(body.get("errors") or []))


def is_new(path: Path) -> bool:
    """True for a folder aikg may create a store in: absent, or an empty directory. False for a store
    (it has ``CURRENT``); anything else is refused (:class:`DamagedStore`)."""
    if not path.exists():
        return True
    if not path.is_dir():
        raise damaged(path, "it is not a directory")
    if (path / CURRENT).is_file():
        return False
    try:
        names = sorted(os.listdir(path))
    except OSError as exc:
        raise damaged(path, "its folder cannot be read", exc) from None
    if not names:
        return True
    shown = ", ".join(names[:6]) + (f" and {len(names) - 6} more" if len(names) > 6 else "")
    raise damaged(
        path,
        f"it holds {len(names)} file(s) ({shown}) but no {CURRENT} file, so it is not a whole store "
        "(a partial copy or restore, or a crash on a file system without a journal?)",
    )


def open_read_only(path: Path) -> ox.Store:
    """The store at ``path`` opened read-only by the engine (which verifies what it reads); refused as
    damaged when it cannot be."""
    if is_new(path):
        raise damaged(path, "there is no store there")
    try:
        return ox.Store.read_only(str(path))
    except ENGINE_ERRORS as exc:
        raise damaged(path, "the engine cannot open it", exc) from None


def vet(path: Path) -> bool:
    """Before the store at ``path`` is opened read-write: True when it is new (to be created), False when
    it is a store the engine opened read-only without complaint; else :class:`DamagedStore`.

    A store that was not closed cleanly (it has no generation marker: killed, crashed, or written by
    another tool) is also read whole first (:func:`check`): a crash on a file system without a journal
    leaves damage inside table data blocks, which the engine sees only when it reads them — and once
    open read-write, its compactions rewrite the folder's files."""
    if is_new(path):
        return True
    if not (path / GENERATION).is_file():
        report = check(path)
        if not report.sound:
            raise damaged(
                path, "it was not closed cleanly and reading it whole found: " + "; ".join(report.problems)
            )
        return False
    store = open_read_only(path)
    del store  # the last reference: the engine closes it
    return False


# -- aikg check ------------------------------------------------------------------------------------


@dataclass
class Report:
    """What :func:`check` read: quads per index, and every disagreement found."""

    path: Path
    named: int = 0
    """Quads in named graphs."""
    default: int = 0
    """Triples in the default graph (aikg keeps it as the merge of the named graphs)."""
    graphs: int = 0
    indexes: dict[str, int] = field(default_factory=dict)
    """Quads read through each index (every one must hold the same)."""
    problems: list[str] = field(default_factory=list)

    @property
    def sound(self) -> bool:
        """True when every index was read whole and they all agree."""
        return not self.problems

    def lines(self) -> list[str]:
        """The report as text, one fact per line."""
        out = [
            f"store {self.path}",
            f"  {self.named} quads in {self.graphs} named graphs, "
            f"{self.default} triples in the default graph",
        ]
        out += [f"  index {name}: {n} quads read" for name, n in self.indexes.items()]
        out += [f"  PROBLEM: {p}" for p in self.problems]
        out.append("  sound: every index read whole, all agree" if self.sound else "  NOT SOUND")
        return out


def check(path: Path, progress: Callable[[str], None] | None = None) -> Report:
    """Read every index of the store at ``path`` whole (the engine verifies each block's checksum as it
    reads it), and check that they hold the same quads and that the default graph is the merge of the
    named graphs. Read-only: nothing is changed, and it works beside a running server."""
    store = open_read_only(path)
    report = Report(path)
    say = progress or (lambda _text: None)
    try:
        _sweep(store, report, say)
    except ENGINE_ERRORS as exc:
        report.problems.append(f"the engine failed while reading: {engine_message(exc)}")
    return report


def _count(rows: Any) -> int:
    return sum(1 for _ in rows)


def _matching(store: ox.Store, s: Any, p: Any, o: Any, g: Any) -> Any:
    """The quads matching a pattern: pyoxigraph 0.5.13 on disk answers one whose object is an integer
    ending in byte 0xFF (255, 511 …) with the quads after it in the index too, so matches are checked
    (every block the engine read was still read, and checksummed). Upstream: not filed; see
    :meth:`aikg.store.oxigraph.OxigraphStore.quads` and tests/test_upstream.py."""
    for q in store.quads_for_pattern(s, p, o, g):
        if (o is None or q.object == o) and (g is None or q.graph_name == g):
            yield q


def _sweep(store: ox.Store, report: Report, say: Callable[[str], None]) -> None:
    subjects: set[Any] = set()
    predicates: set[Any] = set()
    objects: set[Any] = set()
    by_predicate: set[tuple[Any, Any]] = set()
    by_object: set[tuple[Any, Any]] = set()
    graphs: set[Any] = set()
    merged: set[int] = set()
    default: set[int] = set()
    say("reading every quad (spo indexes)")
    for q in store.quads_for_pattern(None, None, None, None):
        subjects.add(q.subject)
        predicates.add(q.predicate)
        objects.add(q.object)
        if isinstance(q.graph_name, ox.DefaultGraph):
            report.default += 1
            default.add(hash(q.triple))
        else:
            report.named += 1
            graphs.add(q.graph_name)
            by_predicate.add((q.graph_name, q.predicate))
            by_object.add((q.graph_name, q.object))
            merged.add(hash(q.triple))
    total = report.named + report.default
    report.graphs = len(graphs)
    report.indexes["gspo+dspo"] = total
    listed = set(store.named_graphs())
    if not graphs <= listed:
        report.problems.append(f"{len(graphs - listed)} graph(s) hold quads but are not listed")
    sweeps: list[tuple[str, Any, int]] = [
        ("spog+dspo", ((s, None, None, None) for s in subjects), total),
        ("posg+dpos", ((None, p, None, None) for p in predicates), total),
        ("ospg+dosp", ((None, None, o, None) for o in objects), total),
        ("gpos", ((None, p, None, g) for g, p in by_predicate), report.named),
        ("gosp", ((None, None, o, g) for g, o in by_object), report.named),
    ]
    for name, patterns, expected in sweeps:
        say(f"reading index {name}")
        read = sum(_count(_matching(store, *pattern)) for pattern in patterns)
        report.indexes[name] = read
        if read != expected:
            report.problems.append(f"index {name} holds {read} quads, the store {expected}")
    if default != merged and report.default:
        report.problems.append(
            f"the default graph ({len(default)} triples) is not the merge of the named graphs "
            f"({len(merged)} distinct triples)"
        )


# -- aikg backup / restore ---------------------------------------------------------------------------


def backup(source: Path, target: Path) -> int:
    """Copy the store at ``source`` (a store, or a snapshot a server published) into the new folder
    ``target``: the engine's own consistent checkpoint, then every file copied whole, so the backup
    shares no file with the store (a checkpoint hard-links them: damage to one would be damage to both).
    Returns the bytes copied. ``target`` must not exist."""
    if target.exists():
        raise StoreError(f"the backup folder {target} already exists: name a new one")
    store = open_read_only(source)
    staging = source.with_name(f".{source.name}.backup-{uuid.uuid4().hex[:8]}")
    partial = target.with_name(f".{target.name}.partial-{uuid.uuid4().hex[:8]}")
    try:
        try:
            store.backup(str(staging))
        except ENGINE_ERRORS as exc:
            raise StoreError(
                f"the engine could not make a checkpoint of {source}: {engine_message(exc)}"
            ) from None
        finally:
            del store
        target.parent.mkdir(parents=True, exist_ok=True)
        # not the data's generation marker: the backup's data is named afresh when it is opened
        shutil.copytree(
            staging, partial, copy_function=shutil.copy2, ignore=shutil.ignore_patterns(GENERATION)
        )
        vet(partial)  # the copy opens as a store
        os.replace(partial, target)
    finally:
        shutil.rmtree(staging, ignore_errors=True)
        shutil.rmtree(partial, ignore_errors=True)
    return sum(f.stat().st_size for f in target.iterdir() if f.is_file())


def restore(source: Path, target: Path) -> int:
    """Copy the backup at ``source`` into ``target``, which must be new (absent or an empty folder):
    a restore never replaces a store. The backup is opened by the engine first, and the copy is moved
    into place whole (a folder with a partial copy is never left at ``target``). Returns bytes copied."""
    vet_backup = open_read_only(source)
    del vet_backup
    if not is_new(target):
        raise StoreError(
            f"{target} holds a store: a restore never replaces one. Move it away (or name another "
            "--store), then restore"
        )
    partial = target.with_name(f".{target.name}.partial-{uuid.uuid4().hex[:8]}")
    try:
        shutil.copytree(source, partial, copy_function=shutil.copy2, ignore=shutil.ignore_patterns("LOCK"))
        vet(partial)
        with contextlib.suppress(FileNotFoundError):
            target.rmdir()  # an empty folder (is_new said so)
        os.replace(partial, target)
    finally:
        shutil.rmtree(partial, ignore_errors=True)
    return sum(f.stat().st_size for f in target.iterdir() if f.is_file())
