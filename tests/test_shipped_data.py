"""A new version of the files aikg ships reaches a store that holds an older one, at the next start.

Found stepping off the paved path: the service loaded the ontology, shapes and seeds into an empty store
only, and imported the shipped Epoch snapshot only into a store with no Epoch data, so a service upgraded
in place and restarted kept answering from the files of its first start, without a word. Checked here by
value: a store refreshed from changed files equals a store loaded afresh from them (every graph, the
generated ones included), a second start changes nothing, and a newer Epoch snapshot shipped is imported
at the next start while the same one is not imported twice.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pyoxigraph as ox
import pytest

from aikg.epoch import background
from aikg.knowledge.derive import rebuild_derived
from aikg.knowledge.load import CONTENT_SHA256, load_files, load_seeds, records
from aikg.namespaces import GRAPH
from aikg.resources import DataFile, data_files
from aikg.store import OxigraphStore, Store
from aikg.web import create_app
from aikg.write import shipped
from helpers import services_for

TINKER = str(GRAPH["sources/infoq-soumith-tinker-2026-11-06"])
LLAMA = str(GRAPH["sources/nmedialink-llama31-training"])
EXTRA = str(GRAPH["sources/test-extra-note"])
PRICE = "<https://w3id.org/aikg/id/price-tinker-training>"
VERSIONS = Path(__file__).parent / "data" / "epoch_versions"


def _older_files(tmp_path: Path) -> list[DataFile]:
    """The shipped files as an older version had them: Tinker's training price stated otherwise, the
    Llama 3.1 document not yet there, and a note since withdrawn."""
    files = [f for f in data_files() if f.graph != LLAMA]
    tinker = next(f for f in files if f.graph == TINKER)
    older = tmp_path / tinker.path.name
    text = tinker.path.read_text()
    assert "aikg:price 1.50 ;" in text
    older.write_text(text.replace("aikg:price 1.50 ;", "aikg:price 1.25 ;", 1))
    extra = tmp_path / "extra.ttl"
    label = "<http://www.w3.org/2000/01/rdf-schema#label>"
    extra.write_text(f'<https://w3id.org/aikg/id/test-extra-note> {label} "a note"@en .\n')
    return [DataFile(older, f.graph) if f.graph == TINKER else f for f in files] + [DataFile(extra, EXTRA)]


def _stored_from(files: list[DataFile]) -> Store:
    store = OxigraphStore(None)
    load_files(store, files)
    rebuild_derived(store)
    return store


def _price(store: Store) -> list[str]:
    rows = store.query(f"SELECT ?v WHERE {{ {PRICE} <https://w3id.org/aikg/ontology#price> ?v }}").rows
    return sorted(str(r[0].value) for r in rows if r[0] is not None)


def _graphs(store: Store) -> dict[str, set[ox.Quad] | int]:
    """Each graph's quads; for a graph with blank nodes (the shapes) only their number, since a blank
    node is named anew at each load."""
    out: dict[str, set[ox.Quad] | int] = {}
    for g in store.graphs():
        quads = set(store.quads(graph=g))
        blank = any(isinstance(t, ox.BlankNode) for q in quads for t in (q.subject, q.object))
        out[g] = len(quads) if blank else quads
    return out


def test_a_start_brings_changed_added_and_withdrawn_seed_files_into_the_store(tmp_path):
    store = _stored_from(_older_files(tmp_path))
    assert _price(store) == ["1.25"] and not store.has_graph(LLAMA) and store.has_graph(EXTRA)
    found = shipped.refresh(services_for(store).gate)
    assert (found.changed, found.added, found.gone) == ([TINKER], [LLAMA], [EXTRA])
    assert _price(store) == ["1.5"]
    fresh = OxigraphStore(None)
    load_seeds(fresh)
    assert _graphs(store) == _graphs(fresh)  # the generated graphs and the records included
    version = store.version
    again = shipped.refresh(services_for(store).gate)
    assert not again and store.version == version


def test_a_store_loaded_before_the_records_is_only_recorded_when_it_holds_the_files():
    store = OxigraphStore(None)
    load_seeds(store)
    store.apply(remove=list(store.quads(graph=str(GRAPH["imports"]))))  # as loaded before the records
    assert records(store) == {}
    before, shapes = _graphs(store), set(store.quads(graph=str(GRAPH["shapes"])))
    found = shipped.refresh(services_for(store).gate)
    assert not found and sorted(found.recorded) == sorted({f.graph for f in data_files()})
    after = _graphs(store)
    after.pop(str(GRAPH["imports"]))
    assert after == before
    assert set(store.quads(graph=str(GRAPH["shapes"]))) == shapes  # not rewritten: the same blank nodes
    version = store.version
    assert not shipped.refresh(services_for(store).gate) and store.version == version


def test_the_service_start_loads_the_shipped_files_into_an_older_store(tmp_path):
    store = _stored_from(_older_files(tmp_path))
    services = services_for(store, load_seeds=True, import_epoch=False)
    app = create_app(services=services, owner=True)
    app.extensions  # noqa: B018  # built: the owner's start has begun bringing the store up to date
    services.background["shipped-data"].join(120)
    assert _price(store) == ["1.5"] and store.has_graph(LLAMA) and not store.has_graph(EXTRA)


@pytest.mark.parametrize("first, then", [("hardware_older", "hardware_newer")])
def test_a_newer_epoch_snapshot_shipped_is_imported_at_the_next_start_and_the_same_one_never_twice(
    monkeypatch, first, then
):
    store = OxigraphStore(None)
    load_seeds(store)
    services = services_for(store)
    tpu = "<https://w3id.org/aikg/id/google-tpu-v6e-trillium>"
    fp8 = f"SELECT ?v WHERE {{ {tpu} <https://w3id.org/aikg/ontology#fp8Performance> ?v }}"

    monkeypatch.setattr(background, "default_directory", lambda: VERSIONS / first)
    background.bring_up_to_date(services).join(300)
    assert background.epoch_is_current(store, VERSIONS / first)
    assert not store.query(fp8).rows  # the older file gives no FP8 for the TPU v6e
    version = store.version
    background.bring_up_to_date(services).join(300)
    assert store.version == version  # the same snapshot again: nothing imported

    monkeypatch.setattr(background, "default_directory", lambda: VERSIONS / then)
    background.bring_up_to_date(services).join(300)
    assert background.epoch_is_current(store, VERSIONS / then)
    assert [str(r[0].value) for r in store.query(fp8).rows] == ["918000000000000"]


def test_a_store_imported_before_the_digests_is_imported_into_again_only_for_a_newer_snapshot(tmp_path):
    """A store whose imports recorded no digest (the default store of an earlier version) is not imported
    into again for the snapshot it holds (at 10M statements, minutes of work for nothing), but is for a
    folder whose manifest dates a file later than its imports of that file."""
    store = OxigraphStore(None)
    load_seeds(store)
    services = services_for(store)
    older = VERSIONS / "hardware_older"
    report = background.import_epoch(services, older)
    assert report.written and background.epoch_is_current(store, older)
    store.apply(remove=list(store.quads(predicate=CONTENT_SHA256, graph=str(GRAPH["imports"]))))
    assert background.epoch_is_current(store, older)
    imported = report.files["ml_hardware/ml_hardware.csv"].snapshot
    newer = tmp_path / "newer"
    shutil.copytree(VERSIONS / "hardware_newer", newer)
    (newer / "snapshot.csv").write_text(f"file,snapshot_date\nml_hardware/ml_hardware.csv,{imported}\n")
    assert background.epoch_is_current(store, newer)  # another folder, the same snapshot date
    (newer / "snapshot.csv").write_text("file,snapshot_date\nml_hardware/ml_hardware.csv,2099-01-01\n")
    assert not background.epoch_is_current(store, newer)
