"""The reconciliation suite over the real Epoch AI snapshot shipped in seeds/epoch/ (CC BY 4.0).

The session's one import of the whole snapshot (the slow part, ~20-40 s on two cores): per file, the
rows imported and rejected with their reasons; the merges and links entity resolution makes; the known
duplicates gone; family questions reaching variants; each source's value kept; the store conforming.
Then a newer, hand-edited and partial file imported on a copy of that store.
"""

from __future__ import annotations

import csv
import io
from pathlib import Path

import pyoxigraph as ox
import pytest
from rdflib import Literal, URIRef
from rdflib.namespace import RDFS, SKOS, XSD

from aikg.epoch import import_epoch as _import_epoch
from aikg.epoch.importer import default_directory
from aikg.epoch.record import list_imports
from aikg.epoch.rows import read_table
from aikg.knowledge.validate import validate_store
from aikg.lookup.entities import entity_json
from aikg.store import OxigraphStore, Store
from aikg.store.terms import to_rdflib
from aikg.web import create_app
from helpers import rdf_dicts, run_named, services_for

_SERVICES: dict[int, object] = {}


def services_of(store: Store):
    """One set of services (one gate, one write log) per store, as one running aikg has."""
    if id(store) not in _SERVICES:
        _SERVICES[id(store)] = services_for(store, query_timeout=60)
    return _SERVICES[id(store)]


def import_epoch(store: Store, directory: Path, **kwargs):
    """The import through the services of ``store`` (its gate commits)."""
    return _import_epoch(services_of(store), directory, **kwargs)


def named(store: Store, name: str, params: dict | None = None) -> list[dict]:
    """A named query's rows as rdflib terms (``str()`` is the lexical value)."""
    return rdf_dicts(run_named(store, name, params or {}, {"query_timeout": 60}))


def select(store: Store, sparql: str) -> list[tuple[str | None, ...]]:
    """A SELECT's rows as lexical values."""
    return store.query(sparql).values()


ID = "https://w3id.org/aikg/id/"
AIKG = "https://w3id.org/aikg/ontology#"
EPOCH = "https://w3id.org/aikg/graph/epoch/"
RESOLUTION = "https://w3id.org/aikg/graph/resolution"

ROWS = {
    "ml_hardware/ml_hardware.csv": 170,
    "ai_models/notable_ai_models.csv": 965,
    "ai_models/large_scale_ai_models.csv": 481,
    "ai_models/frontier_ai_models.csv": 137,
    "gpu_clusters/gpu_clusters.csv": 786,
    "data_centers/data_centers.csv": 17,
    "data_centers/data_center_timelines.csv": 118,
    "data_centers/data_center_chillers.csv": 143,
    "data_centers/data_center_cooling_towers.csv": 523,
    "ai_companies/ai_companies.csv": 7,
    "ai_companies/ai_companies_funding_rounds.csv": 36,
    "ai_companies/ai_companies_compute_spend.csv": 11,
    "ai_companies/ai_companies_revenue_reports.csv": 34,
    "ai_companies/ai_companies_staff_reports.csv": 42,
    "ai_companies/ai_companies_usage_reports.csv": 44,
}
"""Data rows of each of the fifteen CSV files of the snapshot (counted by the csv module)."""


@pytest.fixture()
def snapshot(epoch_import) -> tuple[Store, object]:
    """The seeds with the whole shipped snapshot imported, and the report: the session's import
    (read-only for the tests)."""
    return epoch_import


@pytest.fixture()
def copy(snapshot) -> OxigraphStore:
    """A copy of the imported store a test may change."""
    store, _ = snapshot
    out = OxigraphStore(None)
    out.apply(add=list(store.quads()))
    return out


def rows(store: Store, name: str, **params: str) -> list[dict]:
    return named(store, name, params)


def values(store: Store, s: str, p: str, graph: str | None = None) -> set:
    """The objects of (s, p) as rdflib terms."""
    return {to_rdflib(q.object) for q in store.quads(ox.NamedNode(s), ox.NamedNode(p), None, graph)}


# --- per file: every row imported, or rejected with its reason ------------------------------------------


def test_every_file_of_the_snapshot_is_imported_row_by_row(snapshot):
    _, report = snapshot
    assert dict(report.rows) == ROWS
    assert report.missing == [] and report.unknown_files == []
    rejected = {k: report.rows[k] - report.imported[k] for k in ROWS}
    # Only a malformed row is left out: the chiller table's row without a model name.
    assert rejected == {k: (1 if k == "data_centers/data_center_chillers.csv" else 0) for k in ROWS}
    assert [(r.file, r.row, r.reasons) for r in report.rejected] == [
        (
            "data_centers/data_center_chillers.csv",
            153,
            ["the row has no 'Model': nothing identifies what it describes"],
        )
    ]
    assert {r.mode for r in report.files.values()} == {"new"}
    assert {r.snapshot for r in report.files.values()} == {"2026-03-06"}


def test_no_column_of_the_snapshot_is_unknown_or_missing(snapshot):
    _, report = snapshot
    assert report.of_kind("column") == []


def test_a_date_with_an_impossible_year_stays_unknown_and_is_reported(snapshot):
    """Regression: compute-spend row 34's report date "0202-07-30" became a date in the year 202,
    which broke the explorer's timeline (it opened on no year at all)."""
    store, report = snapshot
    years = {
        r[0].value[:4]
        for r in store.query("SELECT DISTINCT ?d WHERE { ?e <https://w3id.org/aikg/ontology#date> ?d }").rows
    }
    assert min(years) >= "1800"
    found = [f for f in report.of_kind("unreadable-value") if f.value == "0202-07-30"]
    assert [(f.file, f.row) for f in found] == [("ai_companies/ai_companies_compute_spend.csv", 34)]


def test_the_default_store_conforms_after_the_import(snapshot):
    """Regression: 95 derived GPU-hours without a value and 284 owner-less clusters made it fail."""
    store, _ = snapshot
    result = validate_store(store)
    assert result.conforms, result.text()[:3000]


def test_no_ambiguity_is_left_in_the_shipped_snapshot(snapshot):
    _, report = snapshot
    assert report.by_status("ambiguous") == []
    assert report.problems == []


def test_clusters_epoch_names_as_superseding_or_duplicating_are_linked_and_cited(snapshot):
    """ "Superseded by", "Builds Upon" and "Possible Duplicate Of" name other rows of gpu_clusters.csv:
    each name is a link to that row's cluster in the file's graph, cited by its column; a name with a
    comma in it is one name; a name no row has is reported, never made a cluster."""
    store, report = snapshot
    graph = "https://w3id.org/aikg/graph/epoch/gpu-clusters"
    links = select(
        store,
        f"""PREFIX aikg: <{AIKG}> PREFIX rdfs: <{RDFS}>
        SELECT ?p ?a ?b WHERE {{
          GRAPH <{graph}> {{ ?x ?p ?y }}
          FILTER (?p IN (aikg:supersededBy, aikg:buildsUpon, aikg:possibleDuplicateOf))
          ?x rdfs:label ?a . ?y rdfs:label ?b }}""",
    )
    by_prop: dict[str, set[tuple[str, str]]] = {}
    for p, a, b in links:
        by_prop.setdefault(str(p).rsplit("#", 1)[-1], set()).add((str(a).strip('"'), str(b).strip('"')))
    assert {p: len(v) for p, v in by_prop.items()} == {
        "supersededBy": 31,
        "buildsUpon": 56,
        "possibleDuplicateOf": 54,
    }
    assert ("xAI Colossus Memphis Phase 1", "xAI Colossus Memphis Phase 2") in by_prop["supersededBy"]
    assert ("xAI Colossus Memphis Phase 2", "xAI Colossus Memphis Phase 3") in by_prop["supersededBy"]
    assert ("Paper on Llama 3.1", "Meta GenAI 2024b") in by_prop["possibleDuplicateOf"]
    assert (
        "OpenAI/Microsoft Mt Pleasant, Wisconsin Phase 2",
        "OpenAI/Microsoft Mt Pleasant, Wisconsin Phase 1",
    ) in by_prop["buildsUpon"]
    # Every link is cited by its column, read into its property.
    cited = select(
        store,
        f"""PREFIX aikg: <{AIKG}> SELECT ?column WHERE {{ GRAPH <{graph}> {{
          ?c aikg:readInto aikg:supersededBy ; aikg:columnName ?column }} }}""",
    )
    assert cited == [("Superseded by",)]
    unresolved = sorted(
        (f.column, f.value)
        for f in report.of_kind("unreadable-value")
        if f.column in ("Superseded by", "Builds Upon", "Possible Duplicate Of")
    )
    assert unresolved == [
        ("Builds Upon", "Cambridge Dawn Phase 1"),
        ("Possible Duplicate Of", "Alibaba MLPerf 0.7 Submission"),
        ("Possible Duplicate Of", "Alibaba MLPerf 0.7 Submission"),
    ]
    assert not select(
        store, f'SELECT ?x WHERE {{ ?x <{RDFS.label}> ?l FILTER (STR(?l) = "Cambridge Dawn Phase 1") }}'
    )


# --- merges and links ---------------------------------------------------------------------------------------

MERGES = {
    ("accelerator", "NVIDIA H800 SXM5"): "h800",
    ("accelerator", "NVIDIA GB300 (Blackwell Ultra)"): "gb300",
    ("model", "DeepSeek-V3"): "deepseek-v3",
    ("model", "GPT-3 175B (davinci)"): "gpt-3",
    ("model", "Llama 3.1-405B"): "llama-3-1-405b",
    ("model", "DeepSeek-V2 (MoE-236B)"): "deepseek-v2",
    ("organization", "NVIDIA"): "nvidia",
    ("organization", "Google"): "google",
    ("organization", "CoreWeave"): "coreweave",
    ("organization", "OpenAI"): "openai",
    ("organization", "Microsoft"): "microsoft",
    ("organization", "Oracle"): "oracle",
    ("organization", "Amazon"): "amazon",
    ("organization", "Lambda Labs"): "lambda",
    ("organization", "Nebius AI"): "nebius",
}


def test_epochs_own_judgement_of_each_cluster_row_is_kept_as_in_the_file(snapshot):
    """ "Single cluster?", "Possible Duplicate" and "Include in Standard Analysis", row by row as the CSV
    says (Unclear: no value; an empty checkbox: false), each cited by its column."""
    store, _ = snapshot
    with (default_directory() / "gpu_clusters/gpu_clusters.csv").open(encoding="utf-8-sig", newline="") as f:
        table = list(csv.DictReader(f))
    graph = EPOCH + "gpu-clusters"
    columns = {
        "singleCluster": ("Single cluster?", {"Yes": "true", "No": "false"}),
        "flaggedPossibleDuplicate": ("Possible Duplicate", {"True": "true"}),
        "inStandardAnalysis": ("Include in Standard Analysis", {"True": "true"}),
    }
    for prop, (column, read) in columns.items():
        expected: dict[str, set[str]] = {}
        for row in table:
            if row[column] in read:
                expected.setdefault(row["Name"].strip(), set()).add(read[row[column]])
        stored: dict[str, set[str]] = {}
        for label, value in select(
            store,
            f"""SELECT ?l ?v WHERE {{ GRAPH <{graph}> {{ ?c <{AIKG}{prop}> ?v }} ?c <{RDFS.label}> ?l }}""",
        ):
            stored.setdefault(str(label), set()).add(str(value))
        assert stored == expected, prop
        cited = select(
            store,
            f"""SELECT ?column WHERE {{ GRAPH <{graph}> {{
              ?c <{AIKG}readInto> <{AIKG}{prop}> ; <{AIKG}columnName> ?column }} }}""",
        )
        assert cited == [(column,)], prop


def test_epoch_names_merge_into_the_documents_entities(snapshot):
    _, report = snapshot
    matched = {(d.kind, d.name): d.iri.removeprefix(ID) for d in report.by_status("matched")}
    assert {key: matched.get(key) for key in MERGES} == MERGES


def test_known_duplicates_are_gone(snapshot):
    store, _ = snapshot
    labels = {
        str(r[0]): str(r[1])
        for r in store.query(
            "SELECT ?e ?l WHERE { ?e <http://www.w3.org/2000/01/rdf-schema#label> ?l FILTER (LANG(?l) = "
            '"en") }'
        ).values()
    }
    by_label: dict[str, set[str]] = {}
    for e, label in labels.items():
        by_label.setdefault(label, set()).add(e)
    assert "Lambda Labs" not in by_label and "Nebius AI" not in by_label
    assert Literal("Lambda Labs") in values(store, ID + "lambda", str(SKOS.altLabel))
    assert values(store, ID + "cluster-lambda-labs-h100-h200", AIKG + "operator") == {URIRef(ID + "lambda")}
    assert {str(o) for o in values(store, ID + "nebius", str(SKOS.altLabel))} == {"Nebius AI"}
    # A subsidiary is linked to its parent, not merged, not left apart.
    assert values(store, ID + "amazon-aws", AIKG + "parentOrganization", RESOLUTION) == {
        URIRef(ID + "amazon")
    }
    assert values(store, ID + "amazon-aws", str(RDFS.label)) == {Literal("Amazon AWS", lang="en")}
    assert values(store, ID + "google-deepmind", AIKG + "parentOrganization") == {URIRef(ID + "google")}


def test_a_chip_named_with_its_chinese_name_is_the_chip(snapshot):
    """The large-scale file names JIUTIAN-139MoE's chip "Ascend (昇腾) 910B", which had become a second
    Ascend 910B with no figures: a comparison of the 910B's memory with the H100's read the empty one."""
    store, _ = snapshot
    chip = URIRef(ID + "huawei-ascend-910b")
    assert values(store, ID + "ascend-910b", str(RDFS.label)) == set()
    assert chip in values(store, ID + "training-run-jiutian-139moe", AIKG + "accelerator")
    assert Literal("Ascend (昇腾) 910B") in values(store, str(chip), str(SKOS.altLabel))


def test_the_h100_family_links_its_variants(snapshot):
    store, _ = snapshot
    pattern = store.quads(None, ox.NamedNode(AIKG + "variantOf"), ox.NamedNode(ID + "h100"))
    variants = {q.subject.value for q in pattern}
    assert variants == {ID + "nvidia-h100-sxm5-80gb", ID + "nvidia-h100-pcie", ID + "nvidia-h100-nvl"}
    assert values(store, ID + "nvidia-h100-sxm5-80gb", AIKG + "memoryPerChip") == {
        Literal("80", datatype=XSD.decimal)
    }


def test_models_trained_on_the_h100_reach_its_variants(snapshot):
    """Regression: models-trained-on?accelerator=h100 returned 0 rows."""
    store, _ = snapshot
    found = rows(store, "models-trained-on", accelerator="h100")
    runs = {str(r["run"]) for r in found}
    assert len(runs) >= 60
    assert ID + "training-run-llama-3-1-405b" in runs
    assert {str(r["chip"]) for r in found} <= {
        ID + "h100",
        ID + "nvidia-h100-sxm5-80gb",
        ID + "nvidia-h100-pcie",
        ID + "nvidia-h100-nvl",
    }
    # The document's own H100 result is a benchmark, not a training run: nothing to add here.


def test_one_training_run_per_real_training(snapshot):
    """Regression: DeepSeek-V3, Llama 3.1 405B and GPT-3 had three runs each, one per model file."""
    store, _ = snapshot
    for model, run, files in (
        ("deepseek-v3", "training-run-deepseek-v3", ("notable", "large-scale")),
        ("llama-3-1-405b", "training-run-llama-3-1-405b", ("notable", "large-scale", "frontier")),
        ("gpt-3", "training-run-gpt-3", ("notable", "large-scale", "frontier")),
    ):
        query = f"SELECT DISTINCT ?r WHERE {{ ?r <{AIKG}trainedModel> <{ID}{model}> }}"
        runs = {r[0] for r in store.query(query).values()}
        assert runs == {ID + run}, model
        for f in files:  # each file's row is a source of the one run
            assert values(store, ID + run, AIKG + "sourceRow", f"{EPOCH}{f}-ai-models"), (model, f)


def test_the_h800_keeps_epochs_memory_and_release_date(snapshot):
    store, _ = snapshot
    hw = EPOCH + "ml-hardware"
    assert values(store, ID + "h800", AIKG + "memoryPerChip", hw) == {Literal("80", datatype=XSD.decimal)}
    assert values(store, ID + "h800", AIKG + "availableFrom", hw) == {
        Literal("2023-03-21", datatype=XSD.date)
    }
    assert values(store, ID + "h800", str(RDFS.label)) == {Literal("H800", lang="en")}


# --- every source's value, rounding told from disagreement --------------------------------------------------


def test_source_disagreements_tell_rounding_from_a_real_disagreement(snapshot):
    store, _ = snapshot
    found = rows(store, "source-disagreements")
    pairs = {
        (str(r["entity"]), str(r["figure"]), str(r["value1"]), str(r["value2"])): str(r["difference"])
        for r in found
    }
    assert pairs[(ID + "gb300", "memory per chip (GB)", "287.5", "288")] == "rounding"
    assert pairs[(ID + "nvidia-gb200", "memory per chip (GB)", "186", "192")] == "disagreement"
    assert pairs[(ID + "gpt-3", "parameters", "174600000000", "175000000000")] == "rounding"
    assert pairs[(ID + "training-run-deepseek-v3", "cost", "5390000", "5576000")] == "disagreement"
    # No disagreement listed twice (regression: GPT-3's was listed three times).
    keys = [(str(r["entity"]), str(r["figure"]), str(r["value1"]), str(r["value2"])) for r in found]
    assert len(keys) == len(set(keys))
    gpt3 = next(r for r in found if str(r["entity"]) == ID + "gpt-3")
    # A parameter count carries no currency (regression: it had the run's).
    assert (gpt3.get("currency1"), gpt3.get("currency2")) == (None, None)
    assert set(str(gpt3["sources1"]).split(" | ")) == {
        "Epoch AI: Notable AI Models",
        "Epoch AI: Large-Scale AI Models",
        "Epoch AI: Frontier AI Models",
    }


def test_the_entity_page_shows_each_sources_value_and_the_kind_of_difference(snapshot):
    store, _ = snapshot
    [memory] = entity_json(services_of(store), "nvidia-gb200")["comparisons"]
    assert memory["difference"] == "disagreement"
    assert {(v["value"], (v["node"] or {}).get("id")) for v in memory["values"]} == {
        ("186", None),
        ("192", "gb200-nvl72"),
    }
    [gb300] = entity_json(services_of(store), "gb300")["comparisons"]
    assert gb300["difference"] == "rounding"


# --- questions ----------------------------------------------------------------------------------------------


def test_coreweave_runs_nvidia_only_capacity_with_one_cluster_of_unknown_hardware(snapshot):
    """Regression: Epoch's Hillsboro cluster (no chip named) took CoreWeave out of the answer."""
    store, _ = snapshot
    found = {
        str(r["holder"]): r
        for r in rows(store, "nvidia-only-capacity")
        if str(r["basis"]) == "inferred from known hardware"
    }
    coreweave = found[ID + "coreweave"]
    # Epoch's ten NVIDIA clusters and the document's MLPerf result on GB300; Hillsboro's chips unknown.
    assert (str(coreweave["vendorUses"]), str(coreweave["unknownUses"])) == ("11", "1")


def test_nvidia_only_capacity_never_lists_a_holder_with_a_known_other_chip(snapshot):
    store, _ = snapshot
    holders = {
        str(r["holder"])
        for r in rows(store, "nvidia-only-capacity")
        if str(r["basis"]) == "inferred from known hardware"
    }
    other = {
        str(r[0])
        for r in store.query(f"""
        PREFIX aikg: <{AIKG}>
        SELECT DISTINCT ?holder WHERE {{
          ?use a aikg:Deployment ; aikg:operator ?holder ; aikg:accelerator ?chip .
          ?chip aikg:manufacturer ?maker FILTER (?maker != <{ID}nvidia>)
        }}""").values()
    }
    assert other, "the snapshot has operators of other vendors' chips"
    assert holders & other == set()
    assert ID + "google" not in holders  # TPUs


def test_unconfirmed_claims_no_longer_bury_the_documents_claims(snapshot):
    """Regression: 661 of 675 rows were Epoch's confidence labels."""
    store, _ = snapshot
    document = rows(store, "unconfirmed-claims")
    assert not any(str(r["document"]).startswith(ID + "epoch-") for r in document)
    assert {str(r["claim"]) for r in document} >= {
        ID + "semianalysis-tpu-v9-rumour",
        ID + "inkling",
        ID + "training-run-unnamed-model-tinker",
    }
    dataset = rows(store, "unconfirmed-claims", axis="dataset")
    assert len(dataset) > 500 and all(str(r["document"]).startswith(ID + "epoch-") for r in dataset)


# --- the record, the API and the page -----------------------------------------------------------------------


def test_the_import_record_is_served_by_the_api(snapshot):
    store, report = snapshot
    client = create_app({"store": "memory", "load_seeds": False}, store=store).test_client()
    body = client.get("/api/imports").get_json()
    [latest] = body["imports"]
    assert latest["id"] == report.id
    assert {f["file"]: (f["rows"], f["imported"], f["rejected"]) for f in latest["files"]} == {
        k: (n, n - (1 if "chillers" in k else 0), 1 if "chillers" in k else 0) for k, n in ROWS.items()
    }
    merges = client.get(latest["links"]["self"] + "?kind=merge").get_json()
    assert {(f["name"], f["node"]) for f in merges["findings"]} >= {
        ("Lambda Labs", ID + "lambda"),
        ("Nebius AI", ID + "nebius"),
        ("NVIDIA H800 SXM5", ID + "h800"),
    }
    links = client.get("/api/imports/latest?kind=link").get_json()["findings"]
    assert {"node": ID + "amazon-aws", "property": AIKG + "parentOrganization", "target": ID + "amazon"} in [
        {"node": f["node"], **f["link"]} for f in links
    ]
    assert client.get("/api/imports/latest?kind=nonsense").status_code == 400
    assert client.get("/api/imports/no-such-import").status_code == 404
    # as curl and browsers ask: an Accept header that allows JSON gets it, one that does not a 406
    for path in ("/api/imports", "/api/imports/latest"):
        assert client.get(path, headers={"Accept": "*/*"}).status_code == 200
        assert client.get(path, headers={"Accept": "application/json;q=0.9"}).status_code == 200
        refused = client.get(path, headers={"Accept": "text/turtle"})
        assert refused.status_code == 406 and refused.get_json()["error"] == "not acceptable"
    page = client.get("/imports", headers={"Accept": "text/html"})
    assert page.status_code == 200 and b"js/imports.js" in page.data and b'href="/imports"' in page.data


def test_re_importing_the_snapshot_changes_nothing_but_the_record(copy):
    def data() -> list[bytes]:
        return sorted(
            line
            for line in copy.dump(mime="application/n-quads").splitlines()
            if b"graph/imports" not in line
        )

    first = data()
    report = import_epoch(copy, default_directory())
    assert data() == first
    assert {r.mode for r in report.files.values()} == {"unchanged"}
    assert len(list_imports(copy)) == 2


# --- a newer, hand-edited, partial file on top of the snapshot ----------------------------------------------


def _frontier(
    extra: list[dict[str, str]], rename: dict[str, str] | None = None, keep: int | None = None
) -> str:
    with (default_directory() / "ai_models/frontier_ai_models.csv").open(
        encoding="utf-8-sig", newline=""
    ) as f:
        table = list(csv.DictReader(f))
    columns = list(table[0])
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=[(rename or {}).get(c, c) for c in columns])
    writer.writeheader()
    for row in (table[:keep] if keep is not None else table) + extra:
        writer.writerow({(rename or {}).get(c, c): row.get(c, "") for c in columns})
    return out.getvalue()


NEWER_ROWS = [
    {
        "Model": "DeepSeek-V4-Flash",
        "Organization": "DeepSeek",
        "Publication date": "April 2026",
        "Parameters": "284000000",
        "Parameters notes": "284B total parameters, 13B active",
        "Confidence": "Likely",
    },
    {
        "Model": "GLM-5",
        "Organization": "Zhipu AI",
        "Publication date": "2026-04-10",
        "Parameters": "284B",
        "Confidence": "Speculative",
    },
    {
        "Model": "GLM-4.6",
        "Organization": "Zhipu AI,Tsinghua University",
        "Publication date": "2025-09-30",
        "Parameters": "357000000000",
        "Confidence": "Likely",
    },
]


def _write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "ai_models" / "frontier_ai_models.csv"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return tmp_path


def test_a_newer_file_updates_in_place(copy, tmp_path):
    report = import_epoch(copy, _write(tmp_path, _frontier(NEWER_ROWS)), snapshot_date="2026-04-30")
    r = report.files["ai_models/frontier_ai_models.csv"]
    assert (r.mode, r.rows, r.imported, r.rejected) == ("newer", 140, 140, 0)
    assert (r.rows_matched, r.rows_new, r.kept) == (137, 3, 0)
    # "GLM-4.6" is the shipped notable file's "GLM 4.6": the same id, one English label.
    assert values(copy, ID + "glm-4-6", str(RDFS.label)) == {Literal("GLM 4.6", lang="en")}
    newer = EPOCH + "frontier-ai-models/2026-04-30"
    assert values(copy, ID + "training-run-glm-4-6", AIKG + "sourceRow", newer)
    # Values written another way are read, and said so, per row and column.
    lines = [line for line, _ in read_table(tmp_path / "ai_models" / "frontier_ai_models.csv").rows]
    v4, glm5 = lines[-3], lines[-2]
    read = {(f.row, f.column, f.value) for f in report.of_kind("read-value")}
    assert (v4, "Publication date", "April 2026") in read and (glm5, "Parameters", "284B") in read
    assert values(copy, ID + "glm-5", AIKG + "totalParameters") == {
        Literal("284000000000", datatype=XSD.decimal)
    }
    # 284 million where the notes say 284B: flagged as a unit slip, on the model and in the report.
    assert [(f.row, f.rule) for f in report.flags] == [(v4, "parameters-disagree-with-notes")]
    assert values(copy, ID + "deepseek-v4-flash", AIKG + "flag") == {
        Literal("parameters-disagree-with-notes")
    }
    # The file's own snapshot date (regression: April 2026 models under the March snapshot date): what it
    # states first is in a graph of its own, dated 2026-04-30; what it restates stays where it was.
    issued = copy.query(
        f"""SELECT ?g ?d WHERE {{ ?doc <{AIKG}namedGraph> ?g ; <http://purl.org/dc/terms/issued> ?d
        FILTER (STRSTARTS(STR(?g), "{EPOCH}frontier-ai-models")) }}"""
    )
    assert sorted((str(g), str(d)) for g, d in issued.values()) == [
        (EPOCH + "frontier-ai-models", "2026-03-06"),
        (newer, "2026-04-30"),
    ]
    assert values(copy, ID + "glm-5", AIKG + "releaseDate", newer)


def test_a_renamed_column_is_proposed_and_with_force_nothing_is_lost(copy, tmp_path):
    text = _frontier([], rename={"Organization": "Organisation", "Training hardware": "Training Hardware"})
    directory = _write(tmp_path, text)
    before = copy.version
    report = import_epoch(copy, directory, snapshot_date="2026-04-30")
    warnings = report.files["ai_models/frontier_ai_models.csv"].warnings
    assert (
        "column 'Training Hardware' is read as 'Training hardware' (same name up to case and punctuation)"
        in warnings
    )
    assert [w.split(":")[0] for w in report.waiting] == [
        "column 'Organisation' looks like 'Organization' (similarity 0.92), which this file lacks"
    ]
    assert (report.written, copy.version) == (False, before)
    # Going on without the column: the stored developers stay, marked as not restated by this file.
    report = import_epoch(copy, directory, snapshot_date="2026-04-30", force=True)
    assert report.written
    assert values(
        copy, ID + "training-run-llama-3-1-405b", AIKG + "accelerator", EPOCH + "frontier-ai-models"
    ) == {URIRef(ID + "nvidia-h100-sxm5-80gb")}
    assert values(copy, ID + "llama-3-1-405b", AIKG + "developer", EPOCH + "frontier-ai-models") == {
        URIRef(ID + "meta-ai")
    }
    kept = {(c.entity, c.kind) for c in report.changes if c.prop == AIKG + "developer"}
    assert (ID + "llama-3-1-405b", "not-restated") in kept
    assert report.files["ai_models/frontier_ai_models.csv"].values_kept == len(kept)


def test_a_partial_file_does_not_replace_the_dataset_unless_asked(copy, tmp_path):
    """Regression: a 52-row file turned 481 training runs into 52."""
    directory = _write(tmp_path, _frontier([], keep=52))

    def frontier_runs() -> int:
        return len(
            {
                str(r[0])
                for r in copy.query(f"""SELECT DISTINCT ?r WHERE {{ GRAPH ?g {{ ?r <{AIKG}trainedModel> ?m }}
            FILTER (STRSTARTS(STR(?g), "{EPOCH}frontier-ai-models")) }}""").values()
            }
        )

    before = frontier_runs()
    report = import_epoch(copy, directory, snapshot_date="2026-04-30")
    r = report.files["ai_models/frontier_ai_models.csv"]
    assert (r.mode, r.imported, r.kept) == ("newer", 52, 85)
    assert frontier_runs() == before == 137
    report = import_epoch(copy, directory, snapshot_date="2026-05-01", replace=True)
    assert report.files["ai_models/frontier_ai_models.csv"].values_removed > 0
    assert frontier_runs() == 52


def test_a_hand_edited_file_is_read_cell_by_cell_and_what_cannot_be_read_is_reported(copy, tmp_path):
    """Found by editing the snapshot by hand: a row with one cell too many was imported with every
    value a column over (a country as an operator); a row cut short erased what it had said; 31 June
    was stored as an xsd:date the shapes then refused; a 200,000-character note made the whole file
    unreadable; 1e400 vanished without a word."""
    extra = [
        {"Model": "Hand Edited Date", "Organization": "DeepSeek", "Publication date": "2025-06-31"},
        {"Model": "Hand Edited Note", "Organization": "DeepSeek", "Parameters notes": "long " * 40_000},
        {"Model": "Hand Edited Overflow", "Organization": "DeepSeek", "Parameters": "1e400"},
    ]
    table = list(csv.reader(io.StringIO(_frontier(extra))))
    models = [row[0] for row in table]
    shifted, cut = models.index("Llama 3.1-405B"), models.index("Theseus")
    table[shifted].insert(2, "EXTRA")
    table[cut] = table[cut][:8]
    out = io.StringIO()
    csv.writer(out).writerows(table)
    directory = _write(tmp_path, out.getvalue())
    lines = sorted(line for line, _ in read_table(directory / "ai_models/frontier_ai_models.csv").misshapen)
    before = values(copy, ID + "training-run-llama-3-1-405b", AIKG + "accelerator")

    report = import_epoch(copy, directory, snapshot_date="2026-04-30")

    rejected = {f.row: f.message for f in report.of_kind("rejected-row")}
    width = len(table[0])
    assert len(lines) == 2
    assert f"the row has 8 cells and the header {width}" in rejected[lines[0]]  # Theseus, cut short
    assert f"the row has {width + 1} cells and the header {width}" in rejected[lines[1]]
    # What the two rows said before is kept, not shifted or erased.
    assert values(copy, ID + "training-run-llama-3-1-405b", AIKG + "accelerator") == before != set()
    assert values(copy, ID + "theseus", str(RDFS.label)) == {Literal("Theseus", lang="en")}
    unreadable = {(f.column, f.value) for f in report.of_kind("unreadable-value")}
    assert ("Publication date", "2025-06-31") in unreadable
    assert ("Parameters", "1e400") in unreadable
    assert not copy.query('ASK { ?s ?p "2025-06-31"^^<http://www.w3.org/2001/XMLSchema#date> }').boolean
    note = values(copy, ID + "hand-edited-note", str(RDFS.label))
    assert note == {Literal("Hand Edited Note", lang="en")}
    assert validate_store(copy).conforms


ANONYMIZED = "Anonymized Chinese System"
"""The name 257 clusters of the snapshot share: nothing but their values tells them apart."""


def _clusters(tmp_path: Path, edit) -> Path:
    """The shipped gpu_clusters.csv, its rows (dicts) passed through ``edit``, written under tmp_path."""
    with (default_directory() / "gpu_clusters/gpu_clusters.csv").open(encoding="utf-8-sig", newline="") as f:
        table = list(csv.DictReader(f))
    columns = list(table[0])
    path = tmp_path / "gpu_clusters" / "gpu_clusters.csv"
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", encoding="utf-8", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=columns)
        writer.writeheader()
        writer.writerows(edit(table))
    return tmp_path


def _anonymized(store: Store) -> dict[str, set[str]]:
    """Each cluster labelled ANONYMIZED with its H100 equivalents."""
    out: dict[str, set[str]] = {}
    for node, h100e in select(
        store,
        f"""SELECT ?c ?h WHERE {{ ?c <{RDFS.label}> "{ANONYMIZED}"@en
            OPTIONAL {{ ?c <{AIKG}h100Equivalents> ?h }} }}""",
    ):
        out.setdefault(node, set()).update({h100e} if h100e else set())
    return out


def test_a_newer_complete_file_with_a_changed_anonymized_row_replaces_the_dataset(copy, tmp_path):
    """Found by editing the snapshot by hand: rows of a shared name get ids from their cells, so one
    changed H100e made a complete newer file count as partial, and the old cluster stayed beside the
    new one with its stale figure."""
    before = _anonymized(copy)
    assert len(before) == 257

    def edit(rows: list[dict[str, str]]) -> list[dict[str, str]]:
        first = next(i for i, r in enumerate(rows) if r["Name"] == ANONYMIZED)
        sixth = [i for i, r in enumerate(rows) if r["Name"] == ANONYMIZED][5]
        rows[sixth] = {**rows[sixth], "H100 equivalents": "12345"}
        new = {c: "" for c in rows[0]} | {"Name": ANONYMIZED, "Status": "Planned", "Country": "China"}
        return rows[:first] + [new | {"H100 equivalents": "777"}] + rows[first:]

    report = import_epoch(copy, _clusters(tmp_path, edit), snapshot_date="2026-04-30")

    r = report.files["gpu_clusters/gpu_clusters.csv"]
    assert r.mode == "newer"
    after = _anonymized(copy)
    assert len(after) == 258  # one row more, not one more and a stale copy
    figures = sorted(h for hs in after.values() for h in hs)
    assert "12345" in figures and "777" in figures
    assert sorted(h for hs in before.values() for h in hs).count("20000") - figures.count("20000") == 1


def test_a_partial_file_with_a_row_of_a_shared_name_is_refused_that_row(copy, tmp_path):
    """Found by editing the snapshot by hand: a one-row file holding an anonymized cluster gave that row
    the id of another anonymized cluster, whose facts it then replaced."""
    before = _anonymized(copy)
    plain = ID + "cluster-anonymized-chinese-system"
    kept = values(copy, plain, AIKG + "h100Equivalents")

    def edit(rows: list[dict[str, str]]) -> list[dict[str, str]]:
        return [[r for r in rows if r["Name"] == ANONYMIZED][5]]

    report = import_epoch(copy, _clusters(tmp_path, edit), snapshot_date="2026-04-30")

    (rejected,) = report.of_kind("rejected-row")
    assert rejected.file == "gpu_clusters/gpu_clusters.csv"
    assert "nothing tells which one this row describes" in rejected.message
    assert values(copy, plain, AIKG + "h100Equivalents") == kept != set()
    assert _anonymized(copy) == before


def test_each_funding_round_is_listed_once_with_its_close_date_and_its_sources_certainty(snapshot):
    """Found by checking answers against the CSV: a round reported on another day than it closed came
    twice, once with each date (aikg:announcedOn is an aikg:date by the ontology, and the inferred graph
    says so), so sums over the rows counted it twice; and the certainty column was empty on every row,
    where the source's default certainty applies (as sources-of-entity gives it)."""
    store, _ = snapshot
    rows = named(store, "funding-by-company", {"include": "all"})
    rounds = [str(r["round"]) for r in rows]
    every = {r[0] for r in select(store, f"SELECT ?r WHERE {{ ?r a <{AIKG}FundingRound> }}")}
    assert sorted(rounds) == sorted(every)  # each round once
    path = default_directory() / "ai_companies/ai_companies_funding_rounds.csv"
    with path.open(encoding="utf-8-sig", newline="") as f:
        sep = next(
            r for r in csv.DictReader(f) if r["Id"] == "Sep 2025 Series C" and r["Company"] == "Mistral AI"
        )
    (row,) = [r for r in rows if str(r["round"]) == ID + "funding-round-mistral-ai-sep-2025-series-c"]
    assert (
        (str(row["date"]), str(row["reported"]))
        == (sep["Close date"], sep["Report date"])
        == (
            "2025-09-09",
            "2025-08-05",
        )
    )
    # The confidence column is the one the source gives each row (Epoch AI's, in the CSV).
    assert str(row["confidence"]) == AIKG + sep["Confidence"]
    # (the documents' rounds, Groq's Series A, carry the document's certainty: reported)
    assert {str(r["confidence"]) for r in rows} == {
        AIKG + "Confident",
        AIKG + "Likely",
        AIKG + "Uncertain",
        AIKG + "Reported",
    }
    clusters = named(store, "largest-clusters-by-owner", {"include": "all"})
    assert clusters and {str(r["confidence"]) for r in clusters} == {
        AIKG + "Confirmed",
        AIKG + "Likely",
        AIKG + "Unlikely",
    }


def _funding_rows() -> list[dict[str, str]]:
    path = default_directory() / "ai_companies/ai_companies_funding_rounds.csv"
    with path.open(encoding="utf-8-sig", newline="") as f:
        return list(csv.DictReader(f))


def test_a_round_the_file_lists_twice_keeps_both_rows_and_counts_once(snapshot):
    """Epoch's funding file lists Mistral AI's Series B twice (rows 141 and 146 of the file: one close
    date, equity, debt and source). overrides.csv marks one row's round a duplicate of the other's, in
    aikg's graph with its reason; both rows keep every value; totalRaised adds the round once. Row
    146's post-money valuation, the round's size, is kept and flagged."""
    store, report = snapshot
    csv_rows = [r for r in _funding_rows() if r["Company"] == "Mistral AI"]
    june = [r for r in csv_rows if r["Close date"] == "2024-06-11"]
    assert [(r["Id"], r["Funding (equity)"], r["Funding (debt)"]) for r in june] == [
        ("June 2024 6B", "500000000.0", "140000000.0"),
        ("June 2024 Series B", "500000000.0", "140000000.0"),
    ]
    listed = named(store, "funding-by-company", {"company": "mistral-ai"})
    assert len(listed) == len(csv_rows) == 6  # every row listed
    by_name = {str(r["roundName"]): r for r in listed}
    six, series_b = by_name["June 2024 6B"], by_name["June 2024 Series B"]
    assert (str(six["valuation"]), str(series_b["valuation"])) == ("6000000000", "640000000")  # both kept
    assert str(six["duplicateOf"]) == ID + "funding-round-mistral-ai-june-2024-series-b"
    assert [str(r["roundName"]) for r in listed if r.get("duplicateOf") is not None] == ["June 2024 6B"]
    once = sum(float(r["Funding (equity)"]) for r in csv_rows) - 500_000_000
    assert {str(r["totalRaised"]) for r in listed} == {f"{once:.0f}"} == {"3034300000"}
    # The link is aikg's curation, in graph/resolution, resting on the overrides line's reason.
    six_iri = ID + "funding-round-mistral-ai-june-2024-6b"
    assert values(store, six_iri, AIKG + "possibleDuplicateOf", RESOLUTION) == {
        URIRef(ID + "funding-round-mistral-ai-june-2024-series-b")
    }
    assert (
        values(store, six_iri, AIKG + "possibleDuplicateOf", EPOCH + "ai-companies-funding-rounds") == set()
    )
    why = values(store, ID + "duplicate-round-funding-round-mistral-ai-june-2024-6b", AIKG + "rationale")
    assert len(why) == 1 and "(overrides.csv line " in str(next(iter(why)))
    assert "rows 141 (Id 'June 2024 6B') and 146" in str(next(iter(why)))
    flagged = {
        (f.row, f.rule)
        for f in report.of_kind("flag")
        if f.file == "ai_companies/ai_companies_funding_rounds.csv"
    }
    assert flagged == {(146, "valuation-not-above-round-size")}
    series_b_iri = ID + "funding-round-mistral-ai-june-2024-series-b"
    assert values(store, series_b_iri, AIKG + "flag") == {Literal("valuation-not-above-round-size")}


def test_the_groq_chip_is_a_chip_of_the_documents_groq_lpu_and_its_maker_stays_unstated(snapshot):
    """Epoch's GroqChip LPU v1 (ml_hardware.csv row 97, Manufacturer empty) is linked, by overrides.csv,
    to the document's Groq LPU as one chip of it (aikg:variantOf, in graph/resolution), not merged; no
    graph states a maker for the chip itself (the family's maker is the document's Groq)."""
    store, _ = snapshot
    chip = ID + "groqchip-lpu-v1"
    assert values(store, chip, AIKG + "variantOf", RESOLUTION) == {URIRef(ID + "groq-lpu")}
    assert values(store, chip, AIKG + "manufacturer") == set()
    assert values(store, ID + "groq-lpu", AIKG + "manufacturer") == {URIRef(ID + "groq")}
    assert values(store, ID + "groq-lpu", AIKG + "sourceRow") == set()  # the family keeps no row of its own


@pytest.mark.parametrize(
    ("query", "params"), [("investments-by-investor", {}), ("deals-of-organization", {"org": "openai"})]
)
def test_each_deal_is_listed_once_dated_as_its_source_dates_it(snapshot, query, params):
    """The same double row as funding rounds had (an announcement day read as a second date); a deal
    without a date of its own is dated by its announcement."""
    store, _ = snapshot
    rows = named(store, query, params)
    deals = [str(r["deal"]) for r in rows]
    assert deals and len(deals) == len(set(deals))
    (row,) = [r for r in rows if str(r["deal"]) == ID + "funding-round-openai-jan-2023-microsoft"]
    assert (str(row["date"]), str(row["reported"])) == ("2023-01-23", "2023-04-28")  # the CSV's
    # Undated only when no source dates it: a round Epoch AI gives a report date but no close date is
    # not dated by the day it was reported (aikg:reportedOn is not its date).
    undated = {str(r["deal"]) for r in rows if r.get("date") is None and r.get("reported") is not None}
    for deal in undated:
        assert not store.query(f"ASK {{ <{deal}> <{AIKG}date> ?d }}").boolean, deal


def test_an_empty_file_is_said_to_be_empty_and_changes_nothing(copy, tmp_path):
    """Found by editing the snapshot by hand: a 0-byte file gave 25 "column missing" warnings."""
    before = _anonymized(copy)
    (tmp_path / "gpu_clusters").mkdir()
    (tmp_path / "gpu_clusters" / "gpu_clusters.csv").write_bytes(b"")
    report = import_epoch(copy, tmp_path, snapshot_date="2026-04-30")
    r = report.files["gpu_clusters/gpu_clusters.csv"]
    assert (r.rows, r.warnings[:1]) == (0, ["the file is empty: nothing was read from it"])
    assert len(report.of_kind("column")) == 1
    assert _anonymized(copy) == before


def test_two_rows_of_one_file_giving_one_figure_differently_are_flagged(copy, tmp_path):
    """Found by editing the snapshot by hand: a repeated row with another value (or two spellings of
    one chip) left two values on one node with nothing said, as the disagreement count compares
    sources and both came from one file."""
    again = {"Model": "Llama 3.1-405B", "Organization": "Meta AI", "Parameters": "406000000000"}
    report = import_epoch(copy, _write(tmp_path, _frontier([again])), snapshot_date="2026-04-30")
    (flag,) = [f for f in report.flags if f.rule == "rows-disagree"]
    assert (
        flag.node == ID + "llama-3-1-405b"
        and "totalParameters as 405000000000 and 406000000000" in flag.message
    )
    assert values(copy, ID + "llama-3-1-405b", AIKG + "totalParameters") == {
        Literal("405000000000", datatype=XSD.decimal),
        Literal("406000000000", datatype=XSD.decimal),
    }
    assert Literal("rows-disagree") in values(copy, ID + "llama-3-1-405b", AIKG + "flag")


def test_a_file_saved_with_crlf_line_endings_reads_as_the_same_cells(tmp_path):
    """Found by editing the snapshot by hand: unix2dos (or git's autocrlf) turned the line breaks inside
    19 multi-line notes into CRLF, and every such note was rewritten in the store."""
    text = _frontier([{"Model": "Two Lines", "Organization": "DeepSeek", "Parameters notes": "one\ntwo"}])
    lf, crlf = tmp_path / "lf.csv", tmp_path / "crlf.csv"
    lf.write_bytes(text.replace("\r\n", "\n").encode("utf-8"))
    crlf.write_bytes(text.replace("\r\n", "\n").replace("\n", "\r\n").encode("utf-8"))
    assert read_table(crlf).rows == read_table(lf).rows
    assert read_table(crlf).rows[-1][1]["Parameters notes"] == "one\ntwo"
