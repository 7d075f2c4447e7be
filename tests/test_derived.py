"""Derived facts: computed by the rules in ontology/rules/, recorded with their rule and inputs, and
recomputed when an input changes."""

from __future__ import annotations

from decimal import Decimal

from rdflib import Literal, URIRef
from rdflib.namespace import PROV, RDF, RDFS, XSD

from aikg.knowledge.derive import rebuild_derived, rule_files
from aikg.namespaces import AIKG, DERIVED_GRAPH, ID
from helpers import rdf

DERIVED = str(DERIVED_GRAPH)
COREWEAVE_RESULT = ID["result-mlperf-training-v6-0-coreweave-deepseek-v3"]
NVIDIA_RESULT = ID["result-mlperf-training-v4-0-nvidia-gpt-3"]
V3_RUN = ID["training-run-deepseek-v3"]
TEST_GRAPH = "https://w3id.org/aikg/graph/sources/test-derived"


def derived_value(store, about: URIRef, prop: URIRef, compared: URIRef | None = None) -> Decimal | None:
    """The value the rules derived for (node, property), read from the derived graph only."""
    extra = "?d aikg:comparedWith ?compared ." if compared is not None else ""
    bindings = {"about": about, "prop": prop, **({"compared": compared} if compared is not None else {})}
    result = rdf(store).query(
        "PREFIX aikg: <https://w3id.org/aikg/ontology#>\n"
        "SELECT ?about ?prop ?compared ?value WHERE { GRAPH <" + DERIVED + "> {"
        " ?d aikg:derivedFor ?about ; aikg:derivedProperty ?prop ; aikg:value ?value . " + extra + "} }",
        bindings=bindings,
    )
    values = {row[-1].toPython() for row in result.rows}
    assert len(values) <= 1, values
    return Decimal(str(values.pop())) if values else None


def in_derived(store, s, p, o) -> bool:
    return any(rdf(store).quads(s, p, o, graph=DERIVED))


def test_gpu_hours_of_coreweave_result(seeded_store):
    # 2.02 minutes × 8,192 GPUs / 60 = 275.797… GPU-hours (the report rounds it to ≈ 276).
    value = derived_value(seeded_store, COREWEAVE_RESULT, AIKG.gpuHours)
    assert value.quantize(Decimal("0.001")) == Decimal("275.797")


def test_gpu_hours_of_nvidia_gpt3_result(seeded_store):
    assert derived_value(seeded_store, NVIDIA_RESULT, AIKG.gpuHours) == Decimal("658.24")  # 3.4 × 11,616 / 60


def test_deepseek_v3_training_cost_and_implied_days(seeded_store):
    # 2.788M H800 GPU-hours × 2 USD per GPU-hour = 5.576M USD, derived alongside the stated cost.
    assert derived_value(seeded_store, V3_RUN, AIKG.cost) == Decimal("5576000")
    cost_node = ID["derived-cost-training-run-deepseek-v3"]
    assert in_derived(seeded_store, cost_node, AIKG.currency, Literal("USD"))
    # 2.788M / 2,048 / 24 = 56.7 days: the source's "about 57 days".
    days = derived_value(seeded_store, V3_RUN, AIKG.durationDays)
    assert days.quantize(Decimal("0.01")) == Decimal("56.72")


def test_v3_training_is_four_orders_of_magnitude_more_gpu_hours_than_the_mlperf_run(seeded_store):
    ratio = derived_value(seeded_store, V3_RUN, AIKG.ratio, COREWEAVE_RESULT)
    assert ratio.quantize(Decimal("0.1")) == Decimal("10108.9")  # 2,788,000 / 275.797
    assert 10**4 <= ratio < 10**5


def test_hbm_per_nvlink_domain(seeded_store):
    assert derived_value(seeded_store, ID["gb300-nvl72"], AIKG.hbmPerScaleUpDomain) == Decimal("20736")
    assert derived_value(seeded_store, ID["gb200-nvl72"], AIKG.hbmPerScaleUpDomain) == Decimal("13824")


def test_derived_graph_records_rule_and_inputs(seeded_store):
    node = ID["derived-gpu-hours-result-mlperf-training-v6-0-coreweave-deepseek-v3"]
    rule = ID["rule-gpu-hours-of-benchmark-result"]
    assert in_derived(seeded_store, node, RDF.type, AIKG.Derivation)
    assert in_derived(seeded_store, node, AIKG.rule, rule)
    assert in_derived(seeded_store, node, PROV.wasDerivedFrom, COREWEAVE_RESULT)
    assert in_derived(seeded_store, node, AIKG.usedProperty, AIKG.timeToTrain)
    assert in_derived(seeded_store, node, AIKG.usedProperty, AIKG.acceleratorCount)
    assert in_derived(seeded_store, node, AIKG.derivedProperty, AIKG.gpuHours)
    assert in_derived(seeded_store, rule, RDF.type, AIKG.Rule)
    assert in_derived(seeded_store, rule, RDFS.label, Literal("GPU-hours of a benchmark result", lang="en"))
    assert in_derived(
        seeded_store, rule, AIKG.ruleFile, Literal("ontology/rules/gpu-hours-of-benchmark-result.rq")
    )
    # A ratio names the derivation it builds on, so the chain of inputs can be followed.
    ratio = ID["derived-ratio-training-run-deepseek-v3-vs-result-mlperf-training-v6-0-coreweave-deepseek-v3"]
    assert in_derived(seeded_store, ratio, PROV.wasDerivedFrom, node)
    assert in_derived(seeded_store, ratio, PROV.wasDerivedFrom, V3_RUN)


def test_every_rule_is_described_and_every_derivation_names_a_described_rule(seeded_store):
    rules = {ID["rule-" + p.stem] for p in rule_files()}
    assert len(rules) >= 6
    for rule in rules:
        assert in_derived(seeded_store, rule, RDF.type, AIKG.Rule)
    used = {o for _, _, o, _ in rdf(seeded_store).quads(None, AIKG.rule, None, graph=DERIVED)}
    assert used and used <= rules


def test_derived_values_live_only_in_the_derived_graph(seeded_store):
    graphs = {g for _, _, _, g in rdf(seeded_store).quads(None, AIKG.derivedFor, None)}
    assert graphs == {URIRef(DERIVED)}
    assert not any(rdf(seeded_store).quads(COREWEAVE_RESULT, AIKG.gpuHours, None, graph=DERIVED))


def test_changed_input_changes_the_derived_value(store):
    graph = next(g for _, _, _, g in rdf(store).quads(COREWEAVE_RESULT, AIKG.acceleratorCount, None))
    old = (COREWEAVE_RESULT, AIKG.acceleratorCount, Literal(8192, datatype=XSD.integer), graph)
    new = (COREWEAVE_RESULT, AIKG.acceleratorCount, Literal(4096, datatype=XSD.integer), graph)
    rdf(store).apply(remove=[old], add=[new])
    rebuild_derived(store)
    hours = derived_value(store, COREWEAVE_RESULT, AIKG.gpuHours)
    assert hours.quantize(Decimal("0.001")) == Decimal("137.899")  # 2.02 × 4,096 / 60
    ratio = derived_value(store, V3_RUN, AIKG.ratio, COREWEAVE_RESULT)
    assert ratio.quantize(Decimal("0.1")) == Decimal("20217.7")


def test_removed_input_removes_the_derived_value(store):
    rdf(store).apply(remove=list(rdf(store).quads(COREWEAVE_RESULT, AIKG.timeToTrain, None)))
    rebuild_derived(store)
    assert derived_value(store, COREWEAVE_RESULT, AIKG.gpuHours) is None
    assert derived_value(store, V3_RUN, AIKG.ratio, COREWEAVE_RESULT) is None
    # The others are untouched.
    assert derived_value(store, NVIDIA_RESULT, AIKG.gpuHours) == Decimal("658.24")


def test_rebuild_is_idempotent(store):
    before = sorted(rdf(store).quads(graph=DERIVED))
    rebuild_derived(store)
    rebuild_derived(store)
    assert sorted(rdf(store).quads(graph=DERIVED)) == before


RUNS_AND_RESULTS = """
@prefix aikg: <https://w3id.org/aikg/ontology#> .
@prefix id: <https://w3id.org/aikg/id/> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
id:test-model a aikg:AIModel ; rdfs:label "Test model"@en .
id:test-result-fast a aikg:BenchmarkResult ; rdfs:label "fast"@en ; aikg:workload id:test-model ;
    aikg:timeToTrain 2.5 ; aikg:acceleratorCount 512 .
id:test-result-slow a aikg:BenchmarkResult ; rdfs:label "slow"@en ; aikg:workload id:test-model ;
    aikg:timeToTrain 8.0 .
id:test-run a aikg:TrainingRun ; rdfs:label "test run"@en ; aikg:acceleratorCount 100 ;
    aikg:durationDays 3 ; aikg:pricePerGpuHour 1.50 ; aikg:currencyStated false .
"""


def test_speedup_gpu_hours_from_days_and_cost_without_currency(store):
    store.load(RUNS_AND_RESULTS.encode(), mime="text/turtle", graph=TEST_GRAPH)
    rebuild_derived(store)
    fast, slow, run = ID["test-result-fast"], ID["test-result-slow"], ID["test-run"]
    # Speed-up between results of one workload: 8.0 / 2.5 = 3.2, on the faster one.
    assert derived_value(store, fast, AIKG.speedup, slow) == Decimal("3.2")
    assert derived_value(store, slow, AIKG.speedup, fast) is None
    hours = derived_value(store, fast, AIKG.gpuHours)
    assert hours.quantize(Decimal("0.001")) == Decimal("21.333")  # 2.5 × 512 / 60
    # A run with days but no stated GPU-hours: 100 × 3 × 24 = 7,200; cost 7,200 × 1.50, no currency.
    assert derived_value(store, run, AIKG.gpuHours) == Decimal("7200")
    assert derived_value(store, run, AIKG.cost) == Decimal("10800")
    cost_node = ID["derived-cost-test-run"]
    assert in_derived(store, cost_node, AIKG.currencyStated, Literal(False))
    assert not any(rdf(store).quads(cost_node, AIKG.currency, None))
    store.drop_graph(TEST_GRAPH)
    rebuild_derived(store)
    assert derived_value(store, run, AIKG.cost) is None
