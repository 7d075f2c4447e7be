"""The Epoch AI import: messy CSV cells, reconciliation, the shapes gate per row, provenance, idempotence."""

from __future__ import annotations

from pathlib import Path

import pyoxigraph as ox
import pytest
from rdflib import Literal, URIRef
from rdflib.namespace import XSD

from aikg.cli import main
from aikg.epoch import import_epoch as _import_epoch
from aikg.epoch.importer import default_directory, default_overrides
from aikg.knowledge.load import load_seeds
from aikg.settings import load_settings
from aikg.store import OxigraphStore, Store
from aikg.store.terms import to_rdflib
from helpers import rdf_dicts, run_named, services_for


def import_epoch(store: Store, directory: Path, **kwargs):
    """The import through the services of ``store`` (its gate commits)."""
    return _import_epoch(services_for(store), directory, **kwargs)

ID = "https://w3id.org/aikg/id/"
AIKG = "https://w3id.org/aikg/ontology#"
EPOCH = "https://w3id.org/aikg/graph/epoch/"

FILES = {
    "ml_hardware/ml_hardware.csv": (
        "Hardware name,Manufacturer,Type,Notes,Release date,FP8 performance (FLOP/s),"
        "Memory size per board (Byte),Memory bandwidth (byte/s),TDP (W),Process size (nm),Foundry,"
        "Link to datasheet\n"
        "NVIDIA H800 SXM5,NVIDIA,GPU,,2023-03-21,1979000000000000.0,80000000000.0,3350000000000.0,700.0,"
        "4.0,TSMC,https://example.org/h800\n"
        "NVIDIA GB300 (Blackwell Ultra),NVIDIA,GPU,\"first line\nsecond line\",2025-08-22,inf,"
        "288000000000.0,,1400,,,\n"
        "Acme X1,Acme,GPU,,2024-01,,160000000.0,,150,,,\n"
        "Acme X2,Acme,GPU,,,,,,-5,,,\n"
    ),
    "ai_models/notable_ai_models.csv": (
        "Model,Organization,Publication date,Parameters,Parameters notes,Training compute (FLOP),Confidence,"
        "Link,Training hardware,Hardware quantity,Training time (hours),Training compute cost (2023 USD),"
        "Compute cost notes\n"
        "DeepSeek-V3,DeepSeek,2024-12-24,671000000000.0,671B total parameters,3.4078e+24,Confident,"
        "https://arxiv.org/abs/2412.19437,NVIDIA H800 SXM5,2048.0,1368,5390000.0,\"cost of the final run\n"
        "at 2 USD per GPU-hour\"\n"
        "Tiny Model,Google Cloud,2024-01-01,7000000000.0,The model has 7 million parameters,,Likely,,,,,,\n"
        "Empty Model,,,,,,,,,,,,\n"
    ),
    "gpu_clusters/gpu_clusters.csv": (
        "Name,Status,Certainty,H100 equivalents,Chip type (primary),Chip quantity (primary),Owner,Users,"
        "First Operational Date,Note,Power Capacity (MW),GPU Supplier (primary),Total number of AI chips,"
        "Source 1\n"
        "Oracle Test Cluster,Existing,Confirmed,2000,NVIDIA H800 SXM5,2048,Oracle,\"Cloud,OpenAI\","
        "2024-06-01,"
        "\"a note\nover two lines\",30.0,NVIDIA,2048,https://example.org/oracle\n"
        "CoreWeave GB300 Cluster,Planned,Likely,inf,NVIDIA GB300 (Blackwell Ultra),,Coreweave,,,,,NVIDIA,,\n"
        "Nameless Owner Cluster,Existing,Unlikely,10,,,,,,,,Anonymized,,\n"
    ),
    "data_centers/data_centers.csv": (
        "Handle,Title,Project,Owner,Users,Investors,Energy companies,Current H100 equivalents,"
        "Current power (MW),Current total capital cost (2025 USD billions)\n"
        "Oracle Abilene,Oracle Abilene Campus,Stargate #confident,Oracle #confident,"
        "\"OpenAI #likely, Microsoft #speculative\",,Entergy,1000,300,12.5\n"
    ),
    "data_centers/data_center_timelines.csv": (
        "Date,Data center,Construction status,Power (MW),H100 equivalents,"
        "Total capital cost (2025 USD billions)\n"
        "2025-01-01,Oracle Abilene,Building 1 operational,100.0,500.0,2.5\n"
    ),
    "ai_companies/ai_companies_funding_rounds.csv": (
        "Id,Company,Close date,Status,Funding (equity),Funding (debt),Valuation (post-money),Source 1,Notes,"
        "Confidence\n"
        "Oct 2024 157B,OpenAI,2024-10-02,Closed,6600000000.0,4000000000.0,157000000000.0,"
        "https://example.org/openai,Equity and a credit line,Confident\n"
    ),
}


def write_fixture(directory: Path) -> Path:
    """The small messy Epoch snapshot the tests import."""
    for rel, content in FILES.items():
        path = directory / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(content, encoding="utf-8")
    return directory


def seeded() -> OxigraphStore:
    store = OxigraphStore(None)
    load_seeds(store)
    return store


@pytest.fixture(scope="module")
def fixture_dir(tmp_path_factory) -> Path:
    return write_fixture(tmp_path_factory.mktemp("epoch"))


@pytest.fixture(scope="module")
def imported(fixture_dir):
    """A seeded store with the fixture snapshot imported once, and the report."""
    store = seeded()
    report = import_epoch(store, fixture_dir, overrides=default_overrides())
    return store, report


def values(store: Store, s: str, p: str, graph: str | None = None) -> set:
    return {to_rdflib(q.object) for q in store.quads(ox.NamedNode(s), ox.NamedNode(p), None, graph)}


def settings():
    return load_settings({"store": "memory", "query_timeout": 30})


# --- the report: rows, rejections with file/row/reason, merges, ambiguity, flags ------------------------

def test_rows_read_and_rejected_with_file_row_and_reason(imported):
    _, report = imported
    assert dict(report.rows) == {
        "ml_hardware/ml_hardware.csv": 4, "ai_models/notable_ai_models.csv": 3,
        "gpu_clusters/gpu_clusters.csv": 3, "data_centers/data_centers.csv": 1,
        "data_centers/data_center_timelines.csv": 1, "ai_companies/ai_companies_funding_rounds.csv": 1}
    assert report.imported["ml_hardware/ml_hardware.csv"] == 3
    assert report.imported["gpu_clusters/gpu_clusters.csv"] == 2
    rejected = {(r.file, r.row): r.reasons for r in report.rejected}
    # Lines count from the header (line 1); multi-line cells push later rows down.
    assert set(rejected) == {("ml_hardware/ml_hardware.csv", 6), ("gpu_clusters/gpu_clusters.csv", 5)}
    assert rejected[("ml_hardware/ml_hardware.csv", 6)] == [
        "id:acme-x2 thermalDesignPower: TDP must be one positive number of watts (xsd:decimal)"]
    assert rejected[("gpu_clusters/gpu_clusters.csv", 5)] == [
        "id:cluster-nameless-owner-cluster operator: a deployment must say who runs it (aikg:operator)"]
    assert report.missing == ["ai_models/large_scale_ai_models.csv", "ai_models/frontier_ai_models.csv"]


def test_rejected_rows_leave_nothing_behind_and_valid_rows_stay(imported):
    store, _ = imported
    assert not list(store.quads(ox.NamedNode(ID + "acme-x2"), None, None, None))
    assert not list(store.quads(ox.NamedNode(ID + "cluster-nameless-owner-cluster"), None, None, None))
    assert values(store, ID + "acme-x1", AIKG + "thermalDesignPower") == {
        Literal("150", datatype=XSD.decimal)}


def test_names_merge_with_seed_entities(imported):
    _, report = imported
    matched = {(m.kind, m.name): m.iri for m in report.by_status("matched")}
    assert matched == {
        ("accelerator", "NVIDIA H800 SXM5"): ID + "h800",
        ("accelerator", "NVIDIA GB300 (Blackwell Ultra)"): ID + "gb300",
        ("model", "DeepSeek-V3"): ID + "deepseek-v3",
        ("organization", "Coreweave"): ID + "coreweave",
        ("organization", "DeepSeek"): ID + "deepseek",
        ("organization", "Microsoft"): ID + "microsoft",
        ("organization", "NVIDIA"): ID + "nvidia",
        ("organization", "OpenAI"): ID + "openai",
        ("organization", "Oracle"): ID + "oracle",
    }


def test_merged_entities_keep_their_label_and_gain_the_epoch_name(imported):
    store, _ = imported
    assert values(store, ID + "h800", "http://www.w3.org/2000/01/rdf-schema#label") == {
        Literal("H800", lang="en")}
    assert Literal("NVIDIA H800 SXM5") in values(store, ID + "h800", "http://www.w3.org/2004/02/skos/core#altLabel")
    # One node per organization: the data center's owner and the cluster's owner are the seeds' Oracle.
    assert values(store, ID + "oracle-abilene", AIKG + "operator") == {URIRef(ID + "oracle")}
    assert values(store, ID + "cluster-oracle-test-cluster", AIKG + "operator") == {URIRef(ID + "oracle")}


def test_ambiguous_names_stay_separate_with_candidates(imported):
    store, report = imported
    ambiguous = {m.name: (m.iri, m.candidates) for m in report.by_status("ambiguous")}
    assert ambiguous == {"Google Cloud": (ID + "google-cloud", [ID + "google"])}
    assert values(store, ID + "tiny-model", AIKG + "developer") == {URIRef(ID + "google-cloud")}
    assert "Ambiguous (kept separate): 1" in report.text()
    assert ("'Google Cloud' -> id:google-cloud; an existing name is a prefix of this one; "
            "candidates: id:google") in report.text()


def test_suspicious_values_are_flagged_as_data_and_in_the_report(imported):
    store, report = imported
    flags = {(f.file, f.row, f.flag) for f in report.flags}
    assert flags == {("ml_hardware/ml_hardware.csv", 5, "memory-under-1-gb"),
                     ("ai_models/notable_ai_models.csv", 4, "parameters-disagree-with-notes")}
    run = ID + "training-run-tiny-model-epoch-notable"
    assert values(store, run, AIKG + "flag") == {Literal("parameters-disagree-with-notes")}
    assert values(store, run, AIKG + "note") >= {Literal(
        "Parameters column says 7000000000, the row's notes say 7000000: orders of magnitude apart, "
        "probably a unit slip", lang="en")}


# --- cells: tags, empty, inf, multi-line notes, units ----------------------------------------------------

def test_tags_inside_values_become_certainty(imported):
    store, _ = imported
    site = ID + "oracle-abilene"
    # Owner #confident, users #likely and #speculative: the node takes the least certain of its tags.
    assert values(store, site, AIKG + "certainty") == {URIRef(AIKG + "Rumoured")}
    assert values(store, site, AIKG + "sourceConfidence") == {Literal("speculative")}
    assert values(store, site, AIKG + "tenant") == {URIRef(ID + "openai"), URIRef(ID + "microsoft")}
    assert values(store, site, AIKG + "project") == {Literal("Stargate")}
    cluster = ID + "cluster-oracle-test-cluster"
    assert values(store, cluster, AIKG + "certainty") == {URIRef(AIKG + "Reported")}
    assert values(store, cluster, AIKG + "sourceConfidence") == {Literal("Confirmed")}
    assert values(store, cluster, AIKG + "userCategory") == {Literal("Cloud")}
    assert values(store, cluster, AIKG + "capacityUser") == {URIRef(ID + "openai")}


def test_empty_cells_and_inf_mean_unknown(imported):
    store, _ = imported
    assert values(store, ID + "cluster-coreweave-gb300-cluster", AIKG + "h100Equivalents") == set()
    assert values(store, ID + "gb300", AIKG + "fp8Performance") == set()
    empty = ID + "training-run-empty-model-epoch-notable"
    assert {to_rdflib(q.predicate) for q in store.quads(ox.NamedNode(empty), None, None,
                                                        EPOCH + "notable-ai-models")} == {
        URIRef("http://www.w3.org/1999/02/22-rdf-syntax-ns#type"),
        URIRef("http://www.w3.org/2000/01/rdf-schema#label"),
        URIRef(AIKG + "trainedModel"), URIRef(AIKG + "sourceRow")}


def test_multi_line_notes_are_kept(imported):
    store, _ = imported
    assert values(store, ID + "gb300", AIKG + "note") == {Literal("first line\nsecond line")}
    assert values(store, ID + "cluster-oracle-test-cluster", AIKG + "note") == {
        Literal("Note: a note\nover two lines", lang="en")}


def test_units_are_normalized(imported):
    store, _ = imported
    dec = XSD.decimal
    assert values(store, ID + "acme-x1", AIKG + "memoryPerChip") == {Literal("0.16", datatype=dec)}
    assert values(store, ID + "h800", AIKG + "memoryBandwidth") == {Literal("3350", datatype=dec)}
    assert values(store, ID + "h800", AIKG + "fp8Performance") == {Literal("1979000000000000", datatype=dec)}
    run = ID + "training-run-deepseek-v3-epoch-notable"
    assert values(store, run, AIKG + "trainingCompute") == {
        Literal("3407800000000000000000000", datatype=dec)}
    assert values(store, run, AIKG + "durationDays") == {Literal("57", datatype=dec)}
    assert values(store, run, AIKG + "cost") == {Literal("5390000", datatype=dec)}
    assert values(store, run, AIKG + "currency") == {Literal("USD")}
    assert values(store, run, AIKG + "costYear") == {Literal("2023", datatype=XSD.gYear)}
    assert values(store, ID + "oracle-abilene", AIKG + "cost") == {Literal("12500000000", datatype=dec)}
    assert values(store, ID + "acme-x1", AIKG + "availableFrom") == {
        Literal("2024-01", datatype=XSD.gYearMonth)}


# --- provenance and licence -------------------------------------------------------------------------------

def test_each_file_has_its_own_graph_described_in_the_catalogue(imported):
    store, _ = imported
    graphs = {g for g in store.graphs() if g.startswith(EPOCH)}
    assert graphs == {EPOCH + s for s in ("ml-hardware", "notable-ai-models", "gpu-clusters", "data-centers",
                                          "data-center-timelines", "ai-companies-funding-rounds")}
    result = store.query("""
        PREFIX aikg: <https://w3id.org/aikg/ontology#>
        PREFIX dcterms: <http://purl.org/dc/terms/>
        SELECT ?doc ?title ?publisher ?issued ?license ?certainty WHERE {
          ?doc aikg:namedGraph <https://w3id.org/aikg/graph/epoch/gpu-clusters> ; a aikg:Dataset ;
               dcterms:title ?title ; dcterms:publisher ?publisher ; dcterms:issued ?issued ;
               dcterms:license ?license ; aikg:defaultCertainty ?certainty .
        }""")
    assert result.values() == [(
        ID + "epoch-gpu-clusters", "Epoch AI: GPU Clusters", ID + "epoch-ai", "2026-03-06",
        "https://creativecommons.org/licenses/by/4.0/", AIKG + "Reported")]


def test_row_links_and_line_numbers_are_kept(imported):
    store, _ = imported
    cluster = ID + "cluster-oracle-test-cluster"
    assert values(store, cluster, "https://schema.org/url") == {URIRef("https://example.org/oracle")}
    assert values(store, cluster, AIKG + "sourceRow") == {Literal("2", datatype=XSD.integer)}


def test_funding_round_mapped_with_equity_debt_valuation(imported):
    store, _ = imported
    rows = rdf_dicts(run_named(store, "funding-by-company", {"company": "openai"}, settings()))
    assert [(str(r["roundName"]), str(r["date"]), str(r["amount"]), str(r["debt"]), str(r["valuation"]),
             str(r["currency"]), str(r["status"])) for r in rows] == [
        ("Oct 2024 157B", "2024-10-02", "6600000000", "4000000000", "157000000000", "USD", AIKG + "Closed")]


# --- named queries ------------------------------------------------------------------------------------------

def test_disagreements_are_listed_side_by_side_with_their_sources(imported):
    store, _ = imported
    rows = rdf_dicts(run_named(store, "source-disagreements", {}, settings()))
    found = {(str(r["entity"]), str(r["figure"]), str(r["value1"]), str(r["source1"]), str(r["value2"]),
              str(r["source2"])) for r in rows}
    assert found == {(ID + "deepseek-v3", "cost", "5390000", ID + "epoch-notable-ai-models", "5576000",
                      ID + "frontier-insights-coreweave-mlperf-2026-08-18")}


def test_models_trained_on_an_accelerator(imported):
    store, _ = imported
    rows = rdf_dicts(run_named(store, "models-trained-on", {"accelerator": "h800"}, settings()))
    assert {(str(r["run"]), str(r["source"])) for r in rows} == {
        (ID + "training-run-deepseek-v3", ID + "frontier-insights-coreweave-mlperf-2026-08-18"),
        (ID + "training-run-deepseek-v3-epoch-notable", ID + "epoch-notable-ai-models")}


def test_largest_clusters_by_owner(imported):
    store, _ = imported
    rows = rdf_dicts(run_named(store, "largest-clusters-by-owner", {}, settings()))
    found = [(str(r["owner"]), str(r["cluster"]), str(r["h100Equivalents"]), str(r["clusters"]))
             for r in rows]
    assert found == [(ID + "oracle", ID + "cluster-oracle-test-cluster", "2000", "1")]


def test_nvidia_only_capacity_covers_imported_clusters(imported):
    store, _ = imported
    rows = rdf_dicts(run_named(store, "nvidia-only-capacity", {}, settings()))
    holders = {str(r["holder"]) for r in rows if str(r["basis"]) == "follows from deployments"}
    assert {ID + "coreweave"} <= holders
    # Oracle's seed deployment names no hardware, so its imported NVIDIA cluster does not make it NVIDIA-only.
    assert ID + "oracle" not in holders


# --- idempotence and the command line -----------------------------------------------------------------------

def test_importing_twice_gives_the_same_dump(fixture_dir):
    store = seeded()
    import_epoch(store, fixture_dir, overrides=default_overrides())
    first = store.dump(mime="application/n-quads")
    report = import_epoch(store, fixture_dir, overrides=default_overrides())
    assert store.dump(mime="application/n-quads") == first
    assert len(report.rejected) == 2


def test_cli_reports_and_exits_1_when_rows_were_rejected(runner, fixture_dir, tmp_path):
    result = runner.invoke(main, ["import", "epoch", str(fixture_dir), "--store", str(tmp_path / "store")])
    assert result.exit_code == 1, result.output
    assert "gpu_clusters/gpu_clusters.csv:5: id:cluster-nameless-owner-cluster operator" in result.output
    assert "Rejected rows: 2" in result.output


def test_cli_usage_errors_exit_2(runner, tmp_path):
    empty = tmp_path / "empty"
    empty.mkdir()
    result = runner.invoke(main, ["import", "epoch", str(empty), "--store", "memory"])
    assert result.exit_code == 2
    assert "no Epoch AI file found" in result.output
    assert runner.invoke(main, ["import", "epoch", str(tmp_path / "missing")]).exit_code == 2


# --- the real snapshot kept in seeds/epoch/ ---------------------------------------------------------------

MERGES = {("accelerator", "NVIDIA H800 SXM5"): "h800", ("model", "DeepSeek-V3"): "deepseek-v3",
          ("accelerator", "NVIDIA GB300 (Blackwell Ultra)"): "gb300", ("organization", "NVIDIA"): "nvidia",
          ("organization", "Google"): "google", ("organization", "CoreWeave"): "coreweave",
          ("organization", "OpenAI"): "openai", ("organization", "Microsoft"): "microsoft",
          ("organization", "Oracle"): "oracle"}
"""The merges issue 7 lists: each Epoch name is the seeds' node."""


def test_real_snapshot():
    """The CC BY 4.0 snapshot: rows imported vs rejected, the issue's merges, a disagreement, idempotence."""
    store = seeded()
    report = import_epoch(store, default_directory())
    assert dict(report.rows) == {
        "ml_hardware/ml_hardware.csv": 170, "ai_models/notable_ai_models.csv": 965,
        "ai_models/large_scale_ai_models.csv": 481, "ai_models/frontier_ai_models.csv": 137,
        "gpu_clusters/gpu_clusters.csv": 786, "data_centers/data_centers.csv": 17,
        "data_centers/data_center_timelines.csv": 118, "ai_companies/ai_companies_funding_rounds.csv": 36}
    rejected = {k: report.rows[k] - report.imported[k] for k in report.rows}
    assert rejected == {k: (284 if k == "gpu_clusters/gpu_clusters.csv" else 0) for k in report.rows}
    assert all(r.reasons == [r.reasons[0]] and r.reasons[0].endswith(
        "operator: a deployment must say who runs it (aikg:operator)") for r in report.rejected)
    matched = {(m.kind, m.name): m.iri.removeprefix(ID) for m in report.by_status("matched")}
    assert {key: matched.get(key) for key in MERGES} == MERGES
    # One node each: no Epoch spelling of these names was made a node of its own.
    created = {m.name.lower() for m in report.matches if m.status != "matched"}
    assert not created & {"nvidia", "google", "coreweave", "openai", "microsoft", "oracle", "deepseek-v3"}
    rows = rdf_dicts(run_named(store, "source-disagreements", {}, settings()))
    cost = [r for r in rows if str(r["entity"]) == ID + "deepseek-v3" and str(r["figure"]) == "cost"]
    assert {(str(r["value1"]), str(r["value2"])) for r in cost} == {("5390000", "5576000")}
    first = store.dump(mime="application/n-quads")
    import_epoch(store, default_directory())
    assert store.dump(mime="application/n-quads") == first
