"""Answers an analyst can print, checked on the default store (the seeds and Epoch AI's snapshot)
against the raw CSV files: status and confidence per row and per link, rankings that count what their
source rates at least Likely by default, the flagship answer's known and unknown uses, one date per
figure, per-chip counts, each hardware once."""

from __future__ import annotations

import csv
import re
from collections import defaultdict
from decimal import Decimal
from pathlib import Path

import pytest

from aikg.ask.compose import OVERLAPS_LEFT_OUT
from aikg.epoch.importer import default_directory
from aikg.epoch.rows import read_table
from aikg.query.named import load_queries
from aikg.store import Store
from aikg.web import create_app
from helpers import rdf_dicts, run_named

ID = "https://w3id.org/aikg/id/"
AIKG = "https://w3id.org/aikg/ontology#"
CLUSTERS = "gpu_clusters/gpu_clusters.csv"
LIKELY = {"confirmed", "confident", "likely"}
"""Epoch's words of confidence the rankings count by default (rank 1 or less)."""


def rows_of(path: str) -> list[dict[str, str]]:
    with open(Path(default_directory()) / path, newline="", encoding="utf-8") as f:
        return list(csv.DictReader(f))


def named(store: Store, name: str, **params: str) -> list[dict]:
    return [
        {k: str(v) for k, v in row.items()}
        for row in rdf_dicts(run_named(store, name, params, {"query_timeout": 60, "max_rows": 100000}))
    ]


def spelt(name: str) -> str:
    """A name without case, spaces or punctuation: the model's label and a file's spelling of it."""
    return re.sub(r"[\W_]+", "", name.lower())


def local(iri: str) -> str:
    return iri.rsplit("/", 1)[-1].rsplit("#", 1)[-1]


# -- rankings count existing rows rated at least Likely, and say so ---------------------------------


def counted_in_total(rows: list[dict[str, str]]) -> list[dict[str, str]]:
    """The CSV rows of one total that count in it: not superseded by, nor a possible duplicate of,
    another row of the same total (Epoch's "Superseded by" / "Possible Duplicate Of", names)."""
    names = {spelt(r["Name"]) for r in rows}
    return [
        r
        for r in rows
        if spelt(r["Superseded by"]) not in names
        and not any(spelt(n) in names for n in r["Possible Duplicate Of"].split(","))
    ]


def test_largest_clusters_lead_with_an_existing_cluster_and_count_as_epoch_rates(epoch_store) -> None:
    rows = named(epoch_store, "largest-clusters-by-owner")
    first = rows[0]
    assert (first["ownerLabel"], first["status"], first["include"]) == ("xAI", "Existing", "likely")
    assert first["confidenceLabel"] in LIKELY and all(r.get("confidenceLabel") for r in rows)
    # xAI's clusters in the CSV: the existing ones Epoch rates Confirmed or Likely, and all of them,
    # less the ones a later cluster of the same total supersedes (Colossus Memphis Phases 1 and 2).
    xai = [r for r in rows_of("gpu_clusters/gpu_clusters.csv") if r["Owner"].strip() == "xAI"]
    rated = [r for r in xai if r["Status"] == "Existing" and r["Certainty"].lower() in LIKELY]
    counted = counted_in_total(rated)
    assert [r["Name"] for r in counted] == ["xAI Colossus Memphis Phase 3"] and len(rated) == 3
    assert first["clusterLabel"] == max(counted, key=lambda r: float(r["H100 equivalents"]))["Name"]
    # The figure cites its cell: the file and the row the CSV has the cluster on.
    [line] = [
        n
        for n, cells in read_table(Path(default_directory()) / CLUSTERS).rows
        if cells["Name"] == first["clusterLabel"]
    ]
    assert (first["sourceFile"], int(first["sourceRow"]), first["sourceTitle"]) == (
        CLUSTERS,
        line,
        "Epoch AI: GPU Clusters",
    )
    assert int(first["clusters"]) == len(counted) == 1
    expected = sum(Decimal(r["H100 equivalents"]) for r in counted)
    assert Decimal(first["totalH100Equivalents"]) == pytest.approx(expected, rel=Decimal("1e-12"))
    assert round(float(first["totalH100Equivalents"])) == 275_796  # not 575,796: Phases 1 + 2 + 3
    everything = named(epoch_store, "largest-clusters-by-owner", include="all")
    assert (everything[0]["clusterLabel"], everything[0]["confidenceLabel"]) == (
        "xAI 5 year plan",
        "unlikely",
    )
    assert int(everything[0]["clusters"]) == len(counted_in_total(xai)) == len(xai) - 2
    expected = sum(Decimal(r["H100 equivalents"] or 0) for r in counted_in_total(xai))
    assert Decimal(everything[0]["totalH100Equivalents"]) == pytest.approx(expected, rel=Decimal("1e-12"))


def test_totals_over_clusters_leave_out_what_epoch_marks_superseded_or_duplicate(epoch_store) -> None:
    """Meta AI's existing clusters rated at least Likely: 21 rows of 234,580 chips in the CSV, of which
    RSC-1 Phase 1 is superseded by Phase 2 and 12 "Paper on ..." rows name the cluster they may
    duplicate; "Paper on Minibatch SGD" is flagged a possible duplicate of nothing named: it counts."""
    csv_rows = rows_of(CLUSTERS)
    meta = [
        r
        for r in csv_rows
        if r["Owner"].strip() == "Meta AI" and r["Status"] == "Existing" and r["Certainty"].lower() in LIKELY
    ]
    chips = {
        r["Name"]: int(float(r["Total number of AI chips"] or r["Chip quantity (primary)"])) for r in meta
    }
    kept = counted_in_total(meta)
    assert (len(meta), sum(chips.values()), len(kept)) == (21, 234_580, 8)
    assert sum(chips[r["Name"]] for r in kept) == 196_400
    by_owner = {r["ownerLabel"]: r for r in named(epoch_store, "largest-clusters-by-owner")}
    assert int(by_owner["Meta AI"]["clusters"]) == 8
    expected = sum(Decimal(r["H100 equivalents"]) for r in kept)
    assert Decimal(by_owner["Meta AI"]["totalH100Equivalents"]) == pytest.approx(
        expected, rel=Decimal("1e-12")
    )
    # The same rule where the capacity is per vendor.
    nvidia = {
        r["holderLabel"]: r for r in named(epoch_store, "nvidia-only-capacity") if r.get("knownCapacityH100e")
    }
    assert round(float(nvidia["xAI"]["knownCapacityH100e"])) == 275_796
    assert Decimal(nvidia["Meta AI"]["knownCapacityH100e"]) == pytest.approx(expected, rel=Decimal("1e-12"))


def test_a_cluster_with_two_kinds_of_chips_keeps_each_count(epoch_store) -> None:
    [row] = [
        r for r in rows_of("gpu_clusters/gpu_clusters.csv") if r["Name"] == "xAI Colossus Memphis Phase 3"
    ]
    shown = {
        (r["acceleratorLabel"], int(r["chipCount"]), int(r["acceleratorCount"]))
        for r in named(epoch_store, "largest-clusters-by-owner")
        if r["clusterLabel"] == row["Name"]
    }
    total = int(float(row["Total number of AI chips"]))
    assert shown == {
        (row["Chip type (primary)"], int(float(row["Chip quantity (primary)"])), total),
        ("NVIDIA GB200", int(float(row["Chip quantity (secondary)"])), total),
    }


def test_largest_training_runs_leave_out_what_epoch_calls_speculative_unless_asked(epoch_store) -> None:
    rated = {}
    for name in ("notable_ai_models.csv", "large_scale_ai_models.csv", "frontier_ai_models.csv"):
        for r in rows_of(f"ai_models/{name}"):
            rated[r["Model"].strip()] = r["Confidence"].strip().lower()
    default = named(epoch_store, "largest-training-runs")
    everything = named(epoch_store, "largest-training-runs", include="all")
    assert {r["include"] for r in default} == {"likely"} and len(everything) > len(default)
    assert all(
        r["confidenceLabel"] in LIKELY | {"reported", "relayed second-hand", "estimated"} for r in default
    )
    left_out = {r["runLabel"] for r in everything} - {r["runLabel"] for r in default}
    model_of = {r["runLabel"]: r.get("modelLabel") for r in everything}
    assert left_out and all(rated.get(model_of[run], "") not in LIKELY for run in left_out)
    assert "Grok 3 training run" in {r["runLabel"] for r in default}  # Likely, 172.8M GPU-hours


def test_each_training_run_cites_the_row_its_gpu_hours_rest_on(epoch_store) -> None:
    """Every run's figure names its source; a dataset's run names the file and the line of the CSV that
    has its model, and that row states the GPU-hours or the chip count they are derived from."""
    rows = named(epoch_store, "largest-training-runs", include="all")
    assert rows and all(r.get("source") and r.get("sourceTitle") for r in rows)
    cited = [r for r in rows if r.get("sourceFile", "").startswith("ai_models/")]
    assert len(cited) > 1000
    names = defaultdict(set)  # a model's label and the spellings of the files ("GPT-3 175B (davinci)")
    for model, name in epoch_store.query(
        "SELECT ?m ?n WHERE { ?r <https://w3id.org/aikg/ontology#trainedModel> ?m . ?m "
        "<http://www.w3.org/2000/01/rdf-schema#label>|<http://www.w3.org/2004/02/skos/core#altLabel> ?n }"
    ).rows:
        names[model.value].add(spelt(name.value))
    tables = {
        path: dict(read_table(Path(default_directory()) / path).rows)
        for path in {r["sourceFile"] for r in cited}
    }
    for r in cited[:200]:  # the largest first
        cells = tables[r["sourceFile"]][int(r["sourceRow"])]
        assert spelt(cells["Model"]) in names[r["model"]], r["runLabel"]
        if r["gpuHoursBasis"] == "stated":
            assert cells["Training chip-hours"].strip(), r["runLabel"]
        elif r["gpuHoursBasis"] == "derived":
            assert cells["Hardware quantity"].strip(), r["runLabel"]
    # A run that only a document describes cites the document's sentence.
    documented = [r for r in rows if not r.get("sourceFile", "").startswith("ai_models/")]
    assert documented and all(r.get("quote") for r in documented)


def test_funding_totals_count_the_closed_rounds_rated_at_least_likely(epoch_store) -> None:
    rounds = [
        r for r in rows_of("ai_companies/ai_companies_funding_rounds.csv") if r["Company"] == "Anthropic"
    ]
    counted = [r for r in rounds if r["Status"] == "Closed" and r["Confidence"].lower() in LIKELY]
    rows = named(epoch_store, "funding-by-company", company="anthropic")
    assert len(rows) == len(counted) < len(rounds)
    assert {Decimal(r["totalRaised"]) for r in rows} == {
        sum(Decimal(r["Funding (equity)"] or 0) for r in counted)
    }
    assert all(r["confidenceLabel"] in LIKELY for r in rows)
    assert len(named(epoch_store, "funding-by-company", company="anthropic", include="all")) == len(rounds)


@pytest.mark.parametrize(
    ("question", "total"),
    [
        ("How many H100-equivalents does xAI have?", 275_796),  # 575,796 with Phases 1 and 2
        ("How many GPUs does Meta have?", 196_400),  # 234,580 with the 13 rows left out
        ("xAI 有多少张卡", 230_000),  # Phase 3's 200,000 H100 and 30,000 GB200
        ("which companies have the most H100 equivalents?", 275_796),  # xAI first
    ],
)
def test_asked_totals_of_clusters_leave_out_what_epoch_marks_superseded_or_duplicate(
    epoch_store, question: str, total: int
) -> None:
    settings = {"store": "memory", "load_seeds": False, "query_timeout": 60}
    client = create_app(settings, store=epoch_store).test_client()
    answer = client.get("/api/ask", query_string={"q": question}).get_json()["answer"]
    first = answer["rows"][0]["cells"]
    assert round(float(first["total"]["value"])) == total, answer["description"]
    said = OVERLAPS_LEFT_OUT[1 if re.search("[\u4e00-\u9fff]", question) else 0]
    assert said in answer["description"]


def test_the_json_answer_says_which_rows_a_ranking_counts(epoch_store) -> None:
    settings = {"store": "memory", "load_seeds": False, "query_timeout": 60}
    client = create_app(settings, store=epoch_store).test_client()
    body = client.get("/api/queries/largest-clusters-by-owner?limit=1").get_json()
    assert body["applied"] == {"include": "likely"}
    listed = {q["name"]: q for q in client.get("/api/queries").get_json()["queries"]}
    assert (
        "only EXISTING clusters their source rates at least LIKELY"
        in listed["largest-clusters-by-owner"]["description"]
    )


# -- a data center's links keep their own ratings ------------------------------------------------


def test_each_link_of_a_data_center_keeps_epochs_tag(epoch_store) -> None:
    found = {
        (
            local(s.value),
            local(p.value),
            local(o.value) if o.value.startswith("http") else o.value,
            local(c.value),
        )
        for s, p, o, c in epoch_store.query(
            "PREFIX aikg: <https://w3id.org/aikg/ontology#> SELECT ?s ?p ?o ?c WHERE { "
            "?s aikg:linkRating ?r . ?r aikg:onProperty ?p ; aikg:onValue ?o ; aikg:datasetConfidence ?c }"
        ).rows
    }
    fairwater = {f for f in found if f[0] == "microsoft-fairwater-fayetteville-georgia"}
    assert fairwater == {
        ("microsoft-fairwater-fayetteville-georgia", "operator", "microsoft", "Confident"),
        ("microsoft-fairwater-fayetteville-georgia", "tenant", "openai", "Speculative"),
        ("microsoft-fairwater-fayetteville-georgia", "project", "Microsoft AI WAN", "Confident"),
    }
    tags = sum(cell.count("#") for r in rows_of("data_centers/data_centers.csv") for cell in r.values())
    assert len(found) == tags  # every tag of the file, one rating each
    # the site itself carries no confidence of its own (it used to be its weakest link's)
    assert not epoch_store.query(
        "PREFIX aikg: <https://w3id.org/aikg/ontology#> ASK { "
        "<https://w3id.org/aikg/id/microsoft-fairwater-fayetteville-georgia> aikg:datasetConfidence ?c }"
    ).boolean


# -- the flagship answer: stated first, then by known capacity; known and unknown uses --------------


def test_nvidia_only_capacity_leads_with_what_a_document_states(epoch_store) -> None:
    rows = named(epoch_store, "nvidia-only-capacity")
    assert {(r["holderLabel"], r["basis"]) for r in rows[:3]} == {
        ("OpenAI", "stated policy"),
        ("SB Energy", "stated policy"),
        ("PORTS-Pike", "stated policy"),
    }
    assert all(r["viaLabel"] == "PORTS-Pike" and r["statedCapacityMW"] == "8000" for r in rows[:3])
    # Each stated row gives the document's sentence stating the policy, word for word.
    texts = [
        f.read_text("utf-8") for f in (Path(__file__).resolve().parents[2] / "shared" / "seeds").glob("*.txt")
    ]
    assert texts and all(
        "园区只跑 NVIDIA 算力" in r["quote"] and any(r["quote"] in t for t in texts) for r in rows[:3]
    )
    inferred = rows[3:]
    assert {r["basis"] for r in inferred} == {"inferred from known hardware"}
    assert not any(r.get("quote") for r in inferred)
    capacities = [Decimal(r.get("knownCapacityH100e") or 0) for r in inferred]
    assert capacities == sorted(capacities, reverse=True) and inferred[0]["holderLabel"] == "xAI"
    alibaba = next(r for r in rows if r["holderLabel"] == "Alibaba")
    assert (alibaba["vendorUses"], alibaba["knownUses"], alibaba["unknownUses"]) == ("2", "2", "20")
    # Alibaba's clusters in the CSV: 22, of which 2 name an NVIDIA chip and 20 no chip at all.
    clusters = [r for r in rows_of("gpu_clusters/gpu_clusters.csv") if r["Owner"].strip() == "Alibaba"]
    known = [r for r in clusters if r["Chip type (primary)"].strip()]
    assert (len(known), len(clusters) - len(known)) == (2, 20)
    mostly = named(epoch_store, "nvidia-only-capacity", uses="mostly-known")
    assert "Alibaba" not in {r["holderLabel"] for r in mostly}
    assert [(r["holderLabel"], r["basis"]) for r in mostly[:3]] == [
        (r["holderLabel"], r["basis"]) for r in rows[:3]
    ]
    assert all(int(r["unknownUses"]) <= int(r["knownUses"]) for r in mostly[3:])


# -- one date per figure ----------------------------------------------------------------------------


def test_anthropic_revenue_has_one_row_per_report_at_the_date_it_is_about(epoch_store) -> None:
    csv_rows = [
        r for r in rows_of("ai_companies/ai_companies_revenue_reports.csv") if r["Company"] == "Anthropic"
    ]
    found = epoch_store.query(
        "PREFIX aikg: <https://w3id.org/aikg/ontology#> SELECT ?date ?reported ?revenue WHERE { "
        "?f a aikg:RevenueFigure ; aikg:agent <https://w3id.org/aikg/id/anthropic> ; aikg:date ?date ; "
        "aikg:annualRevenue ?revenue ; aikg:reportedOn ?reported }"
    ).rows
    assert sorted((d.value, r.value, Decimal(v.value)) for d, r, v in found) == sorted(
        (r["Date"], r["Report date"], Decimal(r["Revenue amount (normalize to annual)"])) for r in csv_rows
    )
    events = named(epoch_store, "events-between", **{"from": "2025-09-26", "to": "2025-09-26"})
    assert "Anthropic revenue: 2024 87M" not in {r.get("label") for r in events}
    events = named(epoch_store, "events-between", **{"from": "2024-01-01", "to": "2024-01-01"})
    assert "Anthropic revenue: 2024 87M" in {r.get("label") for r in events}


# -- smaller: each hardware once, a company's division, the documented parent links -----------------


def test_each_accelerator_is_listed_once_by_its_most_specific_kind(epoch_store) -> None:
    kinds = defaultdict(set)
    for r in named(epoch_store, "accelerators-by-vendor"):
        kinds[r["hardware"]].add(r["kindLabel"])
    assert kinds and all(len(k) == 1 for k in kinds.values())
    assert kinds[ID + "nvidia-h100-sxm5-80gb"] == {"GPU"}


def test_the_documented_parent_links_answer(epoch_store) -> None:
    rows = epoch_store.query(
        "PREFIX aikg: <https://w3id.org/aikg/ontology#> "
        "SELECT ?unit ?parent WHERE { ?unit aikg:parentOrganization ?parent }"
    ).rows
    assert (ID + "google-deepmind", ID + "google") in {(u.value, p.value) for u, p in rows}


def test_an_organizations_holdings_roll_up_its_units(epoch_store) -> None:
    """Epoch names Meta's models and the clusters it runs under "Meta AI" (a unit of Meta: its AI Companies
    file lists company Meta with organization Meta AI) and its data centers under "Meta": asked about
    Meta, the named query reaches both, each row saying through which unit (counted against the CSVs)."""
    rows = named(epoch_store, "holdings-of-organization", org="meta")
    got = defaultdict(set)
    for r in rows:
        got[(r["kind"], r["via"].removeprefix(ID), r["role"].removeprefix(AIKG))].add(r["item"])
    clusters = rows_of(CLUSTERS)
    operated = [r for r in clusters if r["Owner"].strip() == "Meta AI"]
    assert len(got[("cluster", "meta-ai", "operator")]) == len(operated) == 25
    models = read_table(Path(default_directory()) / "ai_models" / "large_scale_ai_models.csv").rows
    assert any("Meta AI" in cells["Organization"].split(",") for _, cells in models)
    assert ID + "llama-3-1-405b" in got[("model", "meta-ai", "developer")]
    assert got[("data center", "meta", "operator")] == {
        ID + "meta-hyperion-holly-ridge-louisiana",
        ID + "meta-prometheus-new-albany-ohio",
    }
    # Facebook AI Research (FAIR) is Meta's too; another company's units are not.
    assert got[("model", "facebook-ai-research", "developer")]
    assert not {r["via"] for r in rows} - {ID + "meta", ID + "meta-ai", ID + "facebook-ai-research"}


def test_largest_clusters_by_owner_gives_one_row_for_a_cluster_whose_graph_has_no_document(store) -> None:
    """A cluster with no confidence at all (no rating, no certainty of its own, its graph no document
    naming it) is one row with no confidence, not one per English label of the store (the label was
    looked up after the COALESCE of the levels, with ?confidence unbound: 654 rows at the default store);
    a rated cluster's row shows its rating, before its document's certainty."""
    bare, rated = (
        "https://w3id.org/aikg/graph/sources/test-bare",
        "https://w3id.org/aikg/graph/sources/test-rated",
    )
    store.update(
        f"""PREFIX aikg: <{AIKG}> PREFIX id: <{ID}> PREFIX rdfs: <http://www.w3.org/2000/01/rdf-schema#>
        INSERT DATA {{
          GRAPH <{bare}> {{
            id:test-bare-org a aikg:Organization ; rdfs:label "bare org"@en .
            id:test-bare-cluster a aikg:Deployment ; rdfs:label "bare cluster"@en ;
              aikg:operator id:test-bare-org ; aikg:h100Equivalents 12345.0 ;
              aikg:operationalStatus "Existing" }}
          GRAPH <{rated}> {{
            id:test-rated-source aikg:namedGraph <{rated}> ; aikg:defaultCertainty aikg:Reported .
            id:test-rated-org a aikg:Organization ; rdfs:label "rated org"@en .
            id:test-rated-cluster a aikg:Deployment ; rdfs:label "rated cluster"@en ;
              aikg:operator id:test-rated-org ; aikg:h100Equivalents 2000.0 ;
              aikg:operationalStatus "Existing" ; aikg:datasetConfidence aikg:Likely }} }}"""
    )
    result = store.query(load_queries()["largest-clusters-by-owner"].text)
    rows = [dict(zip(result.variables, row, strict=True)) for row in result.rows]

    def of(owner: str) -> list[tuple[str | None, ...]]:
        return sorted(
            tuple(
                getattr(r[k], "value", None)
                for k in ("include", "clusterLabel", "confidence", "confidenceLabel")
            )
            for r in rows
            if getattr(r["owner"], "value", None) == ID + owner
        )

    assert of("test-bare-org") == [
        ("all", "bare cluster", None, None)
    ]  # unrated: counted by include=all only
    assert of("test-rated-org") == [
        ("all", "rated cluster", AIKG + "Likely", "likely"),
        ("likely", "rated cluster", AIKG + "Likely", "likely"),
    ]
