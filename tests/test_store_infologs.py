"""A store's folder keeps house (issue 49): RocksDB's old info logs (``LOG.old.<microseconds>``, one more
at every read-write open, ~137 KB each, kept up to RocksDB's default of 1,000) are bounded to the newest
few at each open, and nothing else in the folder is ever removed."""

from __future__ import annotations

import os
from pathlib import Path

import pyoxigraph as ox

from aikg.store import OxigraphStore
from aikg.store.infologs import KEEP, old_logs

G = "https://w3id.org/aikg/graph/sources/test-infologs"
QUAD = ox.Quad(
    ox.NamedNode("https://w3id.org/aikg/id/x"),
    ox.NamedNode("https://w3id.org/aikg/ontology#p"),
    ox.Literal("kept"),
    ox.NamedNode(G),
)


def opened_and_closed(path: Path, times: int) -> None:
    for _ in range(times):
        store = OxigraphStore(path)
        store.close()


def test_opening_a_store_again_and_again_keeps_only_the_newest_old_info_logs_and_the_data(tmp_path):
    path = tmp_path / "store"
    store = OxigraphStore(path)
    store.apply(add=[QUAD])
    store.close()
    opened_and_closed(path, KEEP + 3)
    kept = old_logs(path)
    assert len(kept) == KEEP  # RocksDB alone leaves one per open: KEEP + 3 here
    store = OxigraphStore(path)
    assert list(store.quads(graph=G)) == [QUAD]
    newest = old_logs(path)
    assert newest[:-1] == kept[1:] and newest[-1] not in kept  # the oldest went, the newest came
    # and emptying the engine's caches (a close and reopen) keeps house the same way
    for _ in range(KEEP + 2):
        assert store.release_caches()
    assert len(old_logs(path)) == KEEP
    assert list(store.quads(graph=G)) == [QUAD]
    store.close()


def test_only_old_info_logs_are_removed(tmp_path):
    path = tmp_path / "store"
    OxigraphStore(path).close()
    fakes = [path / f"LOG.old.{n}" for n in range(1, 11)]  # older than any RocksDB writes now
    for f in fakes:
        f.write_text("an old info log\n")
    decoys = [path / name for name in ("LOG.old.notes", "LOG.old.12.bak", "MYLOG.old.5", "LOG.older.7")]
    for d in decoys:
        d.write_text("not an info log\n")
    (path / "LOG.old.99").mkdir()  # a folder, whatever its name
    elsewhere = tmp_path / "elsewhere.txt"
    elsewhere.write_text("outside\n")
    os.symlink(elsewhere, path / "LOG.old.98")  # a link is never followed nor removed
    OxigraphStore(path).close()
    logs = old_logs(path)
    assert len(logs) == KEEP
    assert [p.name for p in logs[:-1]] == [f.name for f in fakes[-(KEEP - 1) :]]  # the newest fakes stay
    assert logs[-1].name not in {f.name for f in fakes}  # with the one this open rotated
    for d in (*decoys, path / "LOG", path / "CURRENT"):  # what is not an old info log stays
        assert d.is_file(), d.name
    assert (path / "LOG.old.98").is_symlink() and (path / "LOG.old.99").is_dir()
    assert elsewhere.read_text() == "outside\n"
