"""The search index outlives a restart: built once per data, kept beside the store, loaded by the next
start (or the other HTTP worker) instead of built again; a first build never holds a request past its
deadline."""

from __future__ import annotations

import subprocess
import sys
import threading
import time

import pytest

from aikg.knowledge.load import load_seeds
from aikg.lookup import search
from aikg.lookup.search import IndexNotReady
from aikg.store import Deadline, OxigraphStore
from aikg.store.base import GENERATION, deadline_scope
from helpers import services_for


@pytest.fixture()
def disk(tmp_path):
    store = OxigraphStore(tmp_path / "store")
    load_seeds(store)
    yield store, tmp_path / "kept"
    store.close()


def kept_services(store, folder):
    services = services_for(store)
    services.search.keep = folder
    return services


def test_a_built_index_is_kept_and_loaded_instead_of_built_again(disk, monkeypatch):
    store, folder = disk
    first = kept_services(store, folder).index()
    assert [h.entity.slug for h in first.search("coreweave")][:1] == ["coreweave"]
    (kept,) = folder.glob("search-*.pickle")

    def no_build(*_):
        raise AssertionError("the kept index should have been loaded")

    monkeypatch.setattr(search, "_build", no_build)
    again = kept_services(store, folder).index()  # a restart, or the other HTTP worker
    assert [h.entity.slug for h in again.search("英伟达")][:1] == ["nvidia"]
    assert list(folder.glob("search-*.pickle")) == [kept]


def test_a_loaded_index_names_every_entity_as_the_built_one_did(disk, monkeypatch):
    """The kept directory is held as columns: loaded, each entity keeps its slug, label and types, and
    a search still ranks and filters by type as the built index did."""
    store, folder = disk
    built = kept_services(store, folder).index()
    monkeypatch.setattr(search, "_build", None)  # loaded, or this fails
    loaded = kept_services(store, folder).index()
    assert len(loaded.entities) == len(built.entities) > 100
    for iri in built.entities:
        assert loaded.entities[iri] == built.entities[iri]
    nvidia = loaded.entities["https://w3id.org/aikg/id/nvidia"]
    assert (nvidia.slug, nvidia.label) == ("nvidia", "NVIDIA")
    assert loaded.entities.get("https://w3id.org/aikg/id/no-such-thing") is None
    chips = "https://w3id.org/aikg/ontology#Accelerator"
    for q in ("h100", "nvidia", "cor"):
        assert loaded.search(q) == built.search(q)
        assert loaded.search(q, type_iri=chips) == built.search(q, type_iri=chips)


def test_an_index_kept_in_an_older_layout_is_built_again_not_loaded(disk, monkeypatch):
    """A kept file from before the directory was held as columns unpickles into an index whose parts
    are not where this code looks for them: it must be rebuilt (and kept anew), never used."""
    import pickle

    store, folder = disk
    kept_services(store, folder).index()
    (kept,) = folder.glob("search-*.pickle")
    layout, index, rows = pickle.loads(kept.read_bytes())
    assert layout == search.KEPT_FORMAT
    kept.write_bytes(pickle.dumps((index, rows)))  # the layout before: no format in front
    assert search._load_kept(kept) is None
    builds: list[int] = []
    real = search._build
    monkeypatch.setattr(search, "_build", lambda *args: builds.append(1) or real(*args))
    again = kept_services(store, folder).index()
    assert builds == [1]
    assert [h.entity.slug for h in again.search("coreweave")][:1] == ["coreweave"]
    assert search._load_kept(kept) is not None  # and kept again in the current layout


def test_other_data_gets_its_own_index(disk):
    store, folder = disk
    kept_services(store, folder).index()
    store.load(
        b"<https://w3id.org/aikg/id/kept-cloud> a <https://w3id.org/aikg/ontology#Neocloud> ; "
        b'<http://www.w3.org/2000/01/rdf-schema#label> "Kept Cloud"@en .',
        mime="text/turtle",
        graph="https://w3id.org/aikg/graph/sources/test-kept",
    )
    fresh = kept_services(store, folder).index()
    assert [h.entity.slug for h in fresh.search("kept cloud")] == ["kept-cloud"]
    assert len(list(folder.glob("search-*.pickle"))) == 2


def test_a_slow_first_build_answers_503_within_the_deadline_and_then_serves(disk, monkeypatch):
    store, folder = disk
    real = search._build
    release = threading.Event()

    def slow(*args):
        release.wait(10)
        return real(*args)

    monkeypatch.setattr(search, "_build", slow)
    services = kept_services(store, folder)
    start = time.monotonic()
    with deadline_scope(Deadline.after(0.3)), pytest.raises(IndexNotReady) as info:
        services.index()
    assert time.monotonic() - start < 9  # at its deadline, not when the build ends (10 s)
    assert info.value.status == 503 and info.value.headers["Retry-After"]
    release.set()
    with deadline_scope(Deadline.after(10)):
        assert [h.entity.slug for h in services.index().search("groq")][:1] == ["groq"]


CLOUD = (
    b"<https://w3id.org/aikg/id/kept-cloud> a <https://w3id.org/aikg/ontology#Neocloud> ; "
    b'<http://www.w3.org/2000/01/rdf-schema#label> "Kept Cloud"@en .'
)


def test_the_data_keeps_its_identity_over_a_clean_restart_and_only_then(tmp_path):
    """What the search index is kept under: the same data, reopened after a clean close, has the same
    identity; a write gives it a new one; a store killed after a write has none it can be mistaken by."""
    path = tmp_path / "store"
    store = OxigraphStore(path)
    load_seeds(store)
    seeded = store.snapshot().data_id()
    store.close()
    store = OxigraphStore(path)
    assert store.snapshot().data_id() == seeded
    store.load(CLOUD, mime="text/turtle", graph="https://w3id.org/aikg/graph/sources/test-kept")
    written = store.snapshot().data_id()
    assert written != seeded
    assert not (path / GENERATION).exists()  # changed since it was marked: the folder names nothing
    store.close()
    reopened = OxigraphStore(path)
    assert reopened.snapshot().data_id() == written
    reopened.close()
    killed = subprocess.run(  # a write, then the process ends without closing the store
        [sys.executable, "-c", KILLED_AFTER_A_WRITE, str(path)], capture_output=True, text=True, timeout=120
    )
    assert killed.returncode == 0, killed.stderr
    after = OxigraphStore(path)
    assert after.snapshot().data_id() not in {seeded, written}
    assert len(list(after.quads(graph="https://w3id.org/aikg/graph/sources/test-killed"))) == 1
    after.close()


KILLED_AFTER_A_WRITE = """
import os, sys
from aikg.store import OxigraphStore
store = OxigraphStore(sys.argv[1])
store.load(b"<urn:x:a> <urn:x:b> <urn:x:c> .", mime="text/turtle",
           graph="https://w3id.org/aikg/graph/sources/test-killed")
os._exit(0)
"""


def test_a_half_written_index_of_a_stopped_process_is_removed_when_the_next_is_kept(disk):
    """A server stopped while it wrote its index left the partial file (38 MB at 1M quads), and every
    such stop one more; one still being written by a live process is left alone."""
    import os

    store, folder = disk
    folder.mkdir(parents=True)
    gone = subprocess.Popen([sys.executable, "-c", "pass"])
    gone.wait()
    stale = folder / f"search-2-gdead.{gone.pid}.tmp"
    writing = folder / f"search-2-glive.{os.getpid()}.tmp"
    other = folder / "search-notes.tmp"  # not named as aikg names them: left alone
    for f in (stale, writing, other):
        f.write_bytes(b"partial")
    kept_services(store, folder).index()
    assert not stale.exists()
    assert writing.exists() and other.exists()
