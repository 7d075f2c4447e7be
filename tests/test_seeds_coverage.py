"""Fact coverage of the seeds: each document's key figures, with the right subject, in its own graph."""

from __future__ import annotations

import datetime
from decimal import Decimal
from functools import cache
from pathlib import Path

import pytest
from rdflib import Graph, Literal, URIRef
from rdflib.namespace import DCTERMS, RDF, RDFS, SKOS, XSD

from aikg.namespaces import AIKG, GRAPH, ID
from aikg.resources import seeds_dir

FRONTIER = "frontier-insights-coreweave-mlperf-2026-08-18"
NMEDIA = "nmedialink-llama31-training"
SOUMITH = "infoq-soumith-tinker-2026-11-06"
CW6 = "result-mlperf-training-v6-0-coreweave-deepseek-v3"
GPU_HOURS_CLAIM = "claim-mlperf-v6-0-coreweave-vs-deepseek-v3-training-gpu-hours"
UNNAMED = "unnamed-model-tinker-pretraining-under-3-days"
GYEAR = URIRef("http://www.w3.org/2001/XMLSchema#gYear")
GYEARMONTH = URIRef("http://www.w3.org/2001/XMLSchema#gYearMonth")


@cache
def doc_graph(stem: str) -> Graph:
    """One source document's graph, parsed straight from its seed file."""
    g = Graph()
    g.parse(Path(seeds_dir(), "sources", f"{stem}.ttl"), format="turtle")
    return g


def values(stem: str, slug: str, prop: str) -> set:
    """The Python values of ``id:<slug> aikg:<prop>`` in the document's graph."""
    return {
        o.toPython() if isinstance(o, Literal) else o for o in doc_graph(stem).objects(ID[slug], AIKG[prop])
    }


def qualifiers(stem: str, slug: str, prop: str) -> set[URIRef]:
    """The qualifiers (aikg:Approximately, ...) the document puts on one figure of a node."""
    g = doc_graph(stem)
    return {
        q
        for vq in g.objects(ID[slug], AIKG.qualifiedBy)
        if (vq, AIKG.onProperty, AIKG[prop]) in g
        for q in g.objects(vq, AIKG.qualifier)
    }


# (document, subject slug, property, expected value): figures the issue names, and the rest of each document.
FIGURES = [
    # 003 — CoreWeave / MLPerf Training v6.0 / DeepSeek
    (FRONTIER, CW6, "acceleratorCount", 8192),
    (FRONTIER, CW6, "timeToTrain", Decimal("2.02")),
    (FRONTIER, CW6, "rank", 1),
    (FRONTIER, CW6, "announcedOn", datetime.date(2026, 8, 17)),
    (FRONTIER, CW6, "gpuHours", Decimal(276)),
    (FRONTIER, CW6, "submitter", ID.coreweave),
    (FRONTIER, CW6, "round", ID["mlperf-training-v6-0"]),
    (FRONTIER, CW6, "workload", ID["deepseek-v3"]),
    (FRONTIER, CW6, "system", ID["gb300-nvl72"]),
    (FRONTIER, CW6, "accelerator", ID.gb300),
    (FRONTIER, "deepseek-v3", "totalParameters", Decimal(671_000_000_000)),
    (FRONTIER, "deepseek-v3", "activeParameters", Decimal(37_000_000_000)),
    (FRONTIER, "deepseek-v3", "trainingTokens", Decimal(14_800_000_000_000)),
    (FRONTIER, "deepseek-v3", "openWeights", True),
    (FRONTIER, "deepseek-v3", "trainingPrecision", ID.fp8),
    (FRONTIER, "deepseek-v3", "architecture", AIKG.MixtureOfExperts),
    (FRONTIER, "deepseek-v3", "predecessor", ID["deepseek-v2"]),
    (FRONTIER, "deepseek-v2", "successor", ID["deepseek-v3"]),
    (FRONTIER, "deepseek-v2", "totalParameters", Decimal(236_000_000_000)),
    (FRONTIER, "deepseek-v2", "activeParameters", Decimal(21_000_000_000)),
    (FRONTIER, "china-llm-api-price-war", "triggeredBy", ID["deepseek-v2"]),
    (FRONTIER, "training-run-deepseek-v3", "trainedModel", ID["deepseek-v3"]),
    (FRONTIER, "training-run-deepseek-v3", "accelerator", ID.h800),
    (FRONTIER, "training-run-deepseek-v3", "acceleratorCount", 2048),
    (FRONTIER, "training-run-deepseek-v3", "gpuHours", Decimal(2_788_000)),
    (FRONTIER, "training-run-deepseek-v3", "durationDays", Decimal(57)),
    (FRONTIER, "training-run-deepseek-v3", "pricePerGpuHour", Decimal(2)),
    (FRONTIER, "training-run-deepseek-v3", "cost", Decimal(5_576_000)),
    (FRONTIER, "training-run-deepseek-v3", "currency", "USD"),
    (FRONTIER, GPU_HOURS_CLAIM, "ordersOfMagnitude", Decimal(4)),
    (FRONTIER, "mlperf-training-v4-0", "introducedWorkload", ID["gpt-3"]),
    (FRONTIER, "gpt-3", "totalParameters", Decimal(175_000_000_000)),
    (FRONTIER, "result-mlperf-training-v4-0-nvidia-gpt-3", "submitter", ID.nvidia),
    (FRONTIER, "result-mlperf-training-v4-0-nvidia-gpt-3", "accelerator", ID.h100),
    (FRONTIER, "result-mlperf-training-v4-0-nvidia-gpt-3", "acceleratorCount", 11616),
    (FRONTIER, "result-mlperf-training-v4-0-nvidia-gpt-3", "timeToTrain", Decimal("3.4")),
    (FRONTIER, "mlperf-training-early-rounds", "workload", ID["resnet-50"]),
    (FRONTIER, "hgx-h100", "acceleratorsPerSystem", 8),
    (FRONTIER, "hgx-h100", "usesAccelerator", ID.h100),
    (FRONTIER, "gb200-nvl72", "scaleUpDomainSize", 72),
    (FRONTIER, "gb200-nvl72", "memoryPerChip", Decimal(192)),
    (FRONTIER, "gb200-nvl72", "liquidCooled", True),
    (FRONTIER, "gb200-nvl72", "usesInterconnect", ID.nvlink),
    (FRONTIER, "gb300-nvl72", "memoryPerChip", Decimal(288)),
    (FRONTIER, "gb300-nvl72", "scaleUpDomainSize", 72),
    (FRONTIER, "gb300-nvl72", "architectureGeneration", ID["blackwell-ultra"]),
    (FRONTIER, "gb300-nvl72", "successorOf", ID["gb200-nvl72"]),
    (FRONTIER, "tpu-v8t", "scaleUpDomainSize", 9600),
    (FRONTIER, "tpu-v8t", "usesTopology", ID["torus-3d"]),
    (FRONTIER, "tpu-v9i", "designedFor", AIKG.ForInference),
    (FRONTIER, "tpu-v9i", "usesTopology", ID.boardfly),
    (FRONTIER, "tpu-v9t", "designedFor", AIKG.ForTraining),
    (FRONTIER, "tpu-v9t", "usesTopology", ID["torus-6d"]),
    (FRONTIER, "tpu-v9t", "manufacturer", ID.google),
    (FRONTIER, "torus-6d", "evolvedFrom", ID["torus-3d"]),
    (FRONTIER, "topology-config-4096-torus-3d", "chipCount", 4096),
    (FRONTIER, "topology-config-4096-torus-3d", "worstCaseHops", 24),
    (FRONTIER, "topology-config-4096-torus-3d", "shape", "16×16×16"),
    (FRONTIER, "topology-config-4096-torus-6d", "chipCount", 4096),
    (FRONTIER, "topology-config-4096-torus-6d", "worstCaseHops", 12),
    (FRONTIER, "topology-config-4096-torus-6d", "comparedWith", ID["topology-config-4096-torus-3d"]),
    (FRONTIER, "topology-config-4096-torus-6d", "costDriver", ID.ocs),
    (FRONTIER, "coreweave-2019-pivot-to-gpu-cloud", "agent", ID.coreweave),
    (FRONTIER, "deal-coreweave-microsoft-2023", "customer", ID.microsoft),
    (FRONTIER, "deal-coreweave-openai-2025", "customer", ID.openai),
    (FRONTIER, "coreweave-2025-ipo", "eventKind", AIKG.IPO),
    (FRONTIER, "deal-groq-series-a-2026", "amount", Decimal(350_000_000)),
    (FRONTIER, "deal-groq-series-a-2026", "currency", "USD"),
    (FRONTIER, "deal-groq-series-a-2026", "investee", ID.groq),
    (FRONTIER, "deal-groq-series-a-2026", "announcedOn", datetime.date(2026, 8, 17)),
    (FRONTIER, "deal-nvidia-groq-series-a-participation", "investor", ID.nvidia),
    (FRONTIER, "deal-nvidia-groq-series-a-participation", "status", AIKG.Planned),
    (FRONTIER, "groq-capacity-2026", "powerCapacity", Decimal(54)),
    (FRONTIER, "groq-capacity-2027", "powerCapacity", Decimal(200)),
    (FRONTIER, "groq-lpu", "manufacturer", ID.groq),
    (FRONTIER, "deployment-groq-nvidia-clusters", "acceleratorVendor", ID.nvidia),
    (FRONTIER, "lambda", "competesWith", ID.coreweave),
    (FRONTIER, "nebius", "competesWith", ID.coreweave),
    (FRONTIER, "google", "competesWith", ID.nvidia),
    (FRONTIER, "deployment-microsoft-training-clusters", "acceleratorCount", 10000),
    (FRONTIER, "deployment-oracle-training-clusters", "operator", ID.oracle),
    (FRONTIER, "deal-openai-sb-energy-ports-pike-lease", "contractedCapacity", Decimal(8000)),
    (FRONTIER, "deal-openai-sb-energy-ports-pike-lease", "termYears", Decimal(20)),
    (FRONTIER, "deal-openai-sb-energy-ports-pike-lease", "lessee", ID.openai),
    (FRONTIER, "deal-openai-sb-energy-ports-pike-lease", "lessor", ID["sb-energy"]),
    (FRONTIER, "ports-pike", "location", ID.ohio),
    (FRONTIER, "ports-pike", "builder", ID["sb-energy"]),
    (FRONTIER, "ports-pike", "operator", ID["sb-energy"]),
    (FRONTIER, "ports-pike", "hardwareVendorPolicy", ID.nvidia),
    (FRONTIER, "ports-pike-first-power-2028", "powerCapacity", Decimal(800)),
    (FRONTIER, "ports-pike-first-power-2028", "phaseKind", AIKG.FirstPower),
    (FRONTIER, "ports-pike-full-operation-2032", "phaseKind", AIKG.FullOperation),
    (FRONTIER, "deal-nvidia-sb-energy-investment", "amount", Decimal(1_500_000_000)),
    (FRONTIER, "deal-nvidia-sb-energy-investment", "currency", "USD"),
    (FRONTIER, "deal-nvidia-sb-energy-investment", "investor", ID.nvidia),
    (FRONTIER, "deal-nvidia-sb-energy-investment", "investee", ID["sb-energy"]),
    # 001 — 新媒网, Llama 3.1 405B speed-ups
    (NMEDIA, "claim-nmedialink-3-2x-llama-3-1-405b", "speedup", Decimal("3.2")),
    (NMEDIA, "claim-nmedialink-3-2x-llama-3-1-405b", "acceleratorCount", 512),
    (NMEDIA, "claim-nmedialink-3-2x-llama-3-1-405b", "baselinePrecision", ID.fp8),
    (NMEDIA, "claim-nmedialink-3-2x-llama-3-1-405b", "trainingPrecision", ID.fp4),
    (NMEDIA, "claim-nmedialink-3-2x-llama-3-1-405b", "workload", ID["llama-3-1-405b"]),
    (
        NMEDIA,
        "claim-nmedialink-3-2x-llama-3-1-405b",
        "baseline",
        ID["nmedialink-previous-generation-platform"],
    ),
    (NMEDIA, "claim-nmedialink-2x-perf-per-cost-llama-3-1-405b", "speedup", Decimal(2)),
    (NMEDIA, "claim-nmedialink-2x-perf-per-cost-llama-3-1-405b", "round", ID["mlperf-training-v5-0"]),
    (NMEDIA, "claim-nmedialink-2x-perf-per-cost-llama-3-1-405b", "round", ID["mlperf-training-v5-1"]),
    (NMEDIA, "claim-nmedialink-1-4x-nvfp4-v5-1", "speedup", Decimal("1.4")),
    (NMEDIA, "claim-nmedialink-1-4x-nvfp4-v5-1", "trainingPrecision", ID.nvfp4),
    (NMEDIA, "claim-nmedialink-1-4x-nvfp4-v5-1", "baselinePrecision", ID.fp8),
    (NMEDIA, "claim-nmedialink-1-9x-upgraded-llama-3-1-405b", "speedup", Decimal("1.9")),
    (NMEDIA, "claim-nmedialink-1-9x-upgraded-llama-3-1-405b", "acceleratorCount", 512),
    (NMEDIA, "claim-nmedialink-1-9x-upgraded-llama-3-1-405b", "attributedTo", ID["factor-larger-hbm"]),
    (NMEDIA, "claim-nmedialink-4-2x-cumulative", "speedup", Decimal("4.2")),
    (NMEDIA, "claim-nmedialink-4-2x-cumulative", "subjectPlatform", ID["nmedialink-upgraded-platform"]),
    (NMEDIA, "nmedialink-upgraded-platform", "successorOf", ID["nmedialink-new-generation-platform"]),
    (NMEDIA, "nmedialink-new-generation-platform", "architectureGeneration", ID.blackwell),
    (NMEDIA, "nmedialink-new-generation-platform", "supportsPrecision", ID.nvfp4),
    (NMEDIA, "mlperf-training-v5-1", "workload", ID["llama-3-1-405b"]),
    (NMEDIA, "llama-3-1-405b", "totalParameters", Decimal(405_000_000_000)),
    (NMEDIA, "nvlink-switch", "manufacturer", ID.nvidia),
    # 000 — Soumith's relayed claim and Tinker
    (SOUMITH, "training-run-unnamed-model-tinker", "durationDays", Decimal(3)),
    (SOUMITH, "training-run-unnamed-model-tinker", "platform", ID.tinker),
    (SOUMITH, "training-run-unnamed-model-tinker", "attributedTo", ID["factor-infrastructure-improvements"]),
    (SOUMITH, "training-run-unnamed-model-tinker", "trainedModel", ID[UNNAMED]),
    (SOUMITH, "price-tinker-training", "price", Decimal("1.50")),
    (SOUMITH, "price-tinker-input", "price", Decimal("0.30")),
    (SOUMITH, "price-tinker-output", "price", Decimal("1.00")),
    (SOUMITH, "price-tinker-training", "priceComponent", AIKG.TrainingPrice),
    (SOUMITH, "price-tinker-input", "priceComponent", AIKG.InputPrice),
    (SOUMITH, "price-tinker-output", "priceComponent", AIKG.OutputPrice),
    (SOUMITH, "price-list-tinker", "priceListOf", ID.tinker),
    (SOUMITH, "tinker", "operatedBy", ID["thinking-machines-lab"]),
    (SOUMITH, "position-soumith-chintala-thinking-machines-lab-cto", "role", AIKG.CTO),
    (SOUMITH, "position-soumith-chintala-thinking-machines-lab-cto", "heldBy", ID["soumith-chintala"]),
    (SOUMITH, "position-soumith-chintala-pytorch-co-founder", "role", AIKG.CoFounder),
    (SOUMITH, "position-soumith-chintala-pytorch-co-founder", "inOrganization", ID.pytorch),
    (SOUMITH, "factor-hardware-interconnect-upgrade", "involves", ID.infiniband),
    (SOUMITH, "report-infoq-2026-11-06-soumith-pretraining", "citedBy", ID[SOUMITH]),
    (SOUMITH, "report-ainews-2026-07-15-thinky-inkling", "citedBy", ID[SOUMITH]),
    (SOUMITH, "report-36kr-2026-05-26-nvidia-world-model", "citedBy", ID[SOUMITH]),
]


@pytest.mark.parametrize(
    ("stem", "slug", "prop", "expected"), FIGURES, ids=[f"{s[:8]}:{n}.{p}={v}" for s, n, p, v in FIGURES]
)
def test_figure_is_in_its_documents_graph(stem: str, slug: str, prop: str, expected) -> None:
    """The figure is stated, on the right node, in the graph of the document that gives it."""
    assert expected in values(stem, slug, prop)


def test_years_and_months_keep_the_sources_precision() -> None:
    """Dates the sources give only as a year or a month stay xsd:gYear / xsd:gYearMonth."""
    g = doc_graph(FRONTIER)
    assert (ID.coreweave, AIKG.foundedIn, Literal("2017", datatype=GYEAR)) in g
    assert (ID["deepseek-v2"], AIKG.releaseDate, Literal("2024-05", datatype=GYEARMONTH)) in g
    assert (ID["deepseek-v3"], AIKG.releaseDate, Literal("2024-12", datatype=GYEARMONTH)) in g
    assert (ID["ports-pike-first-power-2028"], AIKG.date, Literal("2028", datatype=GYEAR)) in g
    assert (ID["ports-pike-full-operation-2032"], AIKG.date, Literal("2032", datatype=GYEAR)) in g
    assert (ID["groq-capacity-2027"], AIKG.date, Literal("2027", datatype=GYEAR)) in g
    assert (ID["gb200-nvl72"], AIKG.availableFrom, Literal("2024", datatype=GYEAR)) in g
    assert (ID["gb300-nvl72"], AIKG.availableUntil, Literal("2026", datatype=GYEAR)) in g


QUALIFIED = [
    (FRONTIER, "training-run-deepseek-v3", "gpuHours", AIKG.Approximately),
    (FRONTIER, "training-run-deepseek-v3", "durationDays", AIKG.Approximately),
    (FRONTIER, "training-run-deepseek-v3", "pricePerGpuHour", AIKG.Approximately),
    (FRONTIER, "training-run-deepseek-v3", "cost", AIKG.Approximately),
    (FRONTIER, "result-mlperf-training-v4-0-nvidia-gpt-3", "timeToTrain", AIKG.Approximately),
    (FRONTIER, CW6, "gpuHours", AIKG.Approximately),
    (FRONTIER, GPU_HOURS_CLAIM, "ordersOfMagnitude", AIKG.Approximately),
    (FRONTIER, "tpu-v8t", "scaleUpDomainSize", AIKG.AtMost),
    (FRONTIER, "groq-capacity-2027", "powerCapacity", AIKG.AtLeast),
    (FRONTIER, "deal-openai-sb-energy-ports-pike-lease", "contractedCapacity", AIKG.Approximately),
    (FRONTIER, "deployment-amazon-training-clusters", "acceleratorCount", AIKG.AtLeast),
    (NMEDIA, "claim-nmedialink-3-2x-llama-3-1-405b", "speedup", AIKG.UpTo),
    (NMEDIA, "claim-nmedialink-2x-perf-per-cost-llama-3-1-405b", "speedup", AIKG.Nearly),
    (NMEDIA, "claim-nmedialink-1-4x-nvfp4-v5-1", "speedup", AIKG.UpTo),
    (NMEDIA, "claim-nmedialink-4-2x-cumulative", "speedup", AIKG.UpTo),
    (SOUMITH, "training-run-unnamed-model-tinker", "durationDays", AIKG.AtMost),
]


@pytest.mark.parametrize(
    ("stem", "slug", "prop", "qualifier"), QUALIFIED, ids=[f"{n}.{p}" for _, n, p, _ in QUALIFIED]
)
def test_vague_figures_are_qualified(stem: str, slug: str, prop: str, qualifier: URIRef) -> None:
    """约 / 近 / 高达 / 以上 / 不足 / 最多 become qualifications of exactly that figure."""
    assert qualifiers(stem, slug, prop) == {qualifier}


def test_exact_figures_are_not_qualified() -> None:
    """Figures the sources give exactly carry no qualification."""
    assert qualifiers(FRONTIER, CW6, "timeToTrain") == set()
    assert qualifiers(FRONTIER, "training-run-deepseek-v3", "acceleratorCount") == set()
    assert qualifiers(NMEDIA, "claim-nmedialink-1-9x-upgraded-llama-3-1-405b", "speedup") == set()


def test_cost_and_price_of_deepseek_v3_are_marked_as_the_sources_estimate() -> None:
    """ "按每卡小时约 2 美元计算": the price is assumed and the cost computed, so both are Estimated."""
    g = doc_graph(FRONTIER)
    run = ID["training-run-deepseek-v3"]
    estimated = {
        p
        for vq in g.objects(run, AIKG.qualifiedBy)
        if (vq, AIKG.certainty, AIKG.Estimated) in g
        for p in g.objects(vq, AIKG.onProperty)
    }
    assert estimated == {AIKG.pricePerGpuHour, AIKG.cost}
    assert (run, AIKG.certainty, None) not in g


def test_soumiths_claim_is_relayed() -> None:
    """The pre-training claim and the prices are relayed by Soumith Chintala, not first-hand."""
    g = doc_graph(SOUMITH)
    for slug in (
        UNNAMED,
        "training-run-unnamed-model-tinker",
        "price-list-tinker",
        "price-tinker-training",
        "price-tinker-input",
        "price-tinker-output",
    ):
        assert (ID[slug], AIKG.certainty, AIKG.Relayed) in g, slug
        assert (ID[slug], AIKG.relayedBy, ID["soumith-chintala"]) in g, slug


def test_unnamed_model_stays_unnamed_with_only_what_is_known() -> None:
    """No name, size, tokens or chips are invented for the model Soumith's post does not name."""
    g = doc_graph(SOUMITH)
    model = ID[UNNAMED]
    assert (model, RDF.type, AIKG.AIModel) in g
    assert (model, AIKG.platform, ID.tinker) in g
    for prop in ("totalParameters", "activeParameters", "trainingTokens", "developer", "releaseDate"):
        assert (model, AIKG[prop], None) not in g, prop
    run = ID["training-run-unnamed-model-tinker"]
    for prop in ("accelerator", "acceleratorCount", "gpuHours", "cost", "date"):
        assert (run, AIKG[prop], None) not in g, prop


def test_tinker_prices_have_no_currency_and_no_unit() -> None:
    """1.50 / 0.30 / 1.00 are given without currency or unit, so none is recorded and both are flagged."""
    g = doc_graph(SOUMITH)
    assert not list(g.triples((None, AIKG.currency, None)))
    for slug in ("price-tinker-training", "price-tinker-input", "price-tinker-output", "price-list-tinker"):
        assert (ID[slug], AIKG.currencyStated, Literal(False)) in g, slug
        assert (ID[slug], AIKG.unitStated, Literal(False)) in g, slug


def test_tpu_v9_news_is_a_rumour_reported_by_semianalysis() -> None:
    """ "SemiAnalysis 传出": the TPU v9 chips, the 6D torus news and the event are marked rumoured."""
    g = doc_graph(FRONTIER)
    for slug in ("semianalysis-tpu-v9-rumour", "tpu-v9", "tpu-v9i", "tpu-v9t", "torus-6d"):
        assert (ID[slug], AIKG.certainty, AIKG.Rumoured) in g, slug
        assert (ID[slug], AIKG.reportedBy, ID.semianalysis) in g, slug
    assert (ID["semianalysis-tpu-v9-rumour"], AIKG.date, Literal(datetime.date(2026, 8, 17))) in g
    assert (ID["tpu-v8t"], AIKG.certainty, None) not in g


def test_deal_roles_and_statuses() -> None:
    """Deals are nodes with role properties and a status as the source words it (签约, 宣布, 计划)."""
    g = doc_graph(FRONTIER)
    assert (ID["deal-openai-sb-energy-ports-pike-lease"], RDF.type, AIKG.Lease) in g
    assert (ID["deal-openai-sb-energy-ports-pike-lease"], AIKG.status, AIKG.Signed) in g
    assert (ID["deal-nvidia-sb-energy-investment"], RDF.type, AIKG.Investment) in g
    assert (ID["deal-groq-series-a-2026"], RDF.type, AIKG.FundingRound) in g
    assert (ID["deal-groq-series-a-2026"], AIKG.status, AIKG.Announced) in g
    participation = ID["deal-nvidia-groq-series-a-participation"]
    assert (participation, AIKG.partOfDeal, ID["deal-groq-series-a-2026"]) in g
    phases = set(g.subjects(AIKG.underDeal, ID["deal-openai-sb-energy-ports-pike-lease"]))
    assert phases == {ID["ports-pike-first-power-2028"], ID["ports-pike-full-operation-2032"]}


def test_references_are_cited_reports_with_titles_and_dates() -> None:
    """The 【参考资料】 of the Soumith item are reports with their titles, publishers and dates, as given."""
    g = doc_graph(SOUMITH)
    expected = {
        "report-infoq-2026-11-06-soumith-pretraining": ("infoq", datetime.date(2026, 11, 6)),
        "report-ainews-2026-07-15-thinky-inkling": ("ainews", datetime.date(2026, 7, 15)),
        "report-36kr-2026-05-26-nvidia-world-model": ("36kr", datetime.date(2026, 5, 26)),
    }
    for slug, (publisher, issued) in expected.items():
        node = ID[slug]
        assert (node, RDF.type, AIKG.Report) in g
        assert (node, DCTERMS.publisher, ID[publisher]) in g
        assert (node, DCTERMS.issued, Literal(issued)) in g
    assert (
        ID["report-ainews-2026-07-15-thinky-inkling"],
        DCTERMS.title,
        Literal("Thinky's Inkling: 975B-A41B multimodal", lang="en"),
    ) in g
    # One title states a fact of its own (975B total, 41B active, multimodal): a relayed claim reported
    # by AINews in that report. The other titles state none: no world model.
    inkling = ID["inkling"]
    assert (inkling, RDF.type, AIKG.AIModel) in g
    assert (inkling, AIKG.totalParameters, Literal("975000000000", datatype=XSD.decimal)) in g
    assert (inkling, AIKG.activeParameters, Literal("41000000000", datatype=XSD.decimal)) in g
    assert (inkling, AIKG.modelDomain, Literal("multimodal")) in g
    assert (inkling, AIKG.certainty, AIKG.Relayed) in g
    assert (inkling, AIKG.reportedBy, ID.ainews) in g
    assert (inkling, AIKG.statedIn, ID["report-ainews-2026-07-15-thinky-inkling"]) in g
    # Who "Thinky" is, the title does not say: the developer link is aikg's curation, not the document's.
    assert not list(g.objects(inkling, AIKG.developer))
    assert not [s for s in g.subjects(RDF.type, AIKG.AIModel) if "world" in str(s)]


ZH_NAMES = [
    (FRONTIER, "microsoft", "微软"),
    (FRONTIER, "google", "谷歌"),
    (FRONTIER, "amazon", "亚马逊"),
    (FRONTIER, "ohio", "俄亥俄州"),
    (FRONTIER, "deepseek-v3", "V3"),
    (FRONTIER, "tpu-v9", "TPUv9"),
    (FRONTIER, "nvidia", "Nvidia"),
    (NMEDIA, "blackwell", "黑威尔"),
    (NMEDIA, "blackwell", "黑威尔架构"),
    (NMEDIA, "nmedialink", "新媒网"),
    (NMEDIA, "nmedialink-new-generation-platform", "新一代平台"),
    (NMEDIA, "nmedialink-previous-generation-platform", "前代"),
    (NMEDIA, "nmedialink-upgraded-platform", "更迭版本"),
    (NMEDIA, "mlperf-training", "MLPerf训练"),
    (SOUMITH, "36kr", "36氪"),
    (SOUMITH, "soumith-chintala", "Soumith"),
    (SOUMITH, "factor-infrastructure-improvements", "基础设施改进"),
]


@pytest.mark.parametrize(("stem", "slug", "name"), ZH_NAMES, ids=[f"{n}={m}" for _, n, m in ZH_NAMES])
def test_names_the_source_uses_are_labels(stem: str, slug: str, name: str) -> None:
    """Search finds entities by the Chinese and short names the sources use (label or alt label)."""
    g = doc_graph(stem)
    names = {str(o) for p in (RDFS.label, SKOS.altLabel) for o in g.objects(ID[slug], p)}
    assert name in names


def test_nvidia_chinese_name_is_in_the_background() -> None:
    """英伟达 appears only in a cited title, so NVIDIA's Chinese label is aikg's curation."""
    g = Graph().parse(Path(seeds_dir(), "background.ttl"), format="turtle")
    assert (ID.nvidia, RDFS.label, Literal("英伟达", lang="zh")) in g


def test_store_holds_each_figure_in_the_documents_named_graph(seeded_store) -> None:
    """Loaded into the store, the figures sit in graph/sources/<stem>, not elsewhere."""
    res = seeded_store.query("SELECT ?g WHERE { GRAPH ?g { ?r <" + str(AIKG.acceleratorCount) + "> 8192 } }")
    assert {r[0] for r in res.values()} == {str(GRAPH[f"sources/{FRONTIER}"])}
    res = seeded_store.query(
        "SELECT ?g ?v WHERE { GRAPH ?g { <"
        + str(ID["price-tinker-input"])
        + "> <"
        + str(AIKG.price)
        + "> ?v } }"
    )
    rows = [(g.value, Decimal(v.value)) for g, v in res.rows]
    assert rows == [(str(GRAPH[f"sources/{SOUMITH}"]), Decimal("0.3"))]


def test_nvidia_s_sb_energy_investment_is_not_made_part_of_the_lease() -> None:
    """The report says only 同时 (at the same time): the two deals stay unlinked (regression: the seed
    claimed aikg:partOfDeal, which the document does not state)."""
    g = Graph().parse(Path(seeds_dir(), "sources", f"{FRONTIER}.ttl"), format="turtle")
    investment = ID["deal-nvidia-sb-energy-investment"]
    assert list(g.objects(investment, AIKG.partOfDeal)) == []
    assert any("同时" in str(n) for n in g.objects(investment, AIKG.note))
