"""The benchmark machinery at a tiny size: the data conforms to the shapes, the report has its structure.

No timing is asserted: the figures depend on the machine; only what was produced is checked.
"""

from __future__ import annotations

import json

import pyoxigraph as ox
import pytest

from aikg.knowledge import validate
from aikg.knowledge.derive import rebuild_derived
from aikg.store import OxigraphStore
from aikg_bench import report
from aikg_bench.generate import build_template, generate, parse_size
from aikg_bench.mix import build_mix
from aikg_bench.run import Options, run

AIKG = "https://w3id.org/aikg/ontology#"


def test_parse_size_reads_suffixes() -> None:
    assert [parse_size(s) for s in ("10k", "1M", "2500", "0.5k")] == [10_000, 1_000_000, 2500, 500]


@pytest.fixture(scope="module")
def generated(tmp_path_factory):
    path = tmp_path_factory.mktemp("bench") / "data.nq"
    return generate(path, 9_000, seed=7, per_batch=4)


def test_generated_data_is_deterministic(generated, tmp_path) -> None:
    again = generate(tmp_path / "again.nq", 9_000, seed=7, per_batch=4)
    assert again.path.read_bytes() == generated.path.read_bytes()
    assert (again.replicas, again.batches) == (generated.replicas, generated.batches)


def test_generated_data_conforms_and_has_the_seeds_shape(generated) -> None:
    store = OxigraphStore()
    store.bulk_load(generated.path, mime="application/n-quads")
    rebuild_derived(store)
    result = validate.validate_store(store)
    assert result.conforms, result.text()[:2000]
    # as many replicas as fit in the size asked (the seeds' size decides), four to a batch
    assert generated.replicas >= 5 and generated.batches == -(-generated.replicas // 4) == 2
    counts = {
        str(r[0].value).removeprefix(AIKG): int(r[1].value)
        for r in store._ox.query(
            "SELECT ?c (COUNT(DISTINCT ?s) AS ?n) WHERE { GRAPH ?g { ?s a ?c } } GROUP BY ?c",
            use_default_graph_as_union=True,
        )
    }
    # every kind of node the seeds have, copied per replica; vendors stay shared hubs
    for kind in (
        "Neocloud",
        "Hyperscaler",
        "AILab",
        "AIModel",
        "GPU",
        "System",
        "Deployment",
        "Investment",
        "ComputeContract",
        "BenchmarkResult",
        "TrainingRun",
        "CapacityPhase",
    ):
        assert counts[kind] >= generated.replicas, kind
    assert counts["HardwareVendor"] == 3
    # one source graph copy per batch, each described in the catalogue
    docs = list(
        store._ox.query(
            "SELECT ?doc ?g WHERE { GRAPH <https://w3id.org/aikg/graph/catalog> { ?doc ?p ?g } "
            f"FILTER(?p = <{AIKG}namedGraph>) }}",
            use_default_graph_as_union=True,
        )
    )
    graphs = {str(r[1].value) for r in docs}
    assert "https://w3id.org/aikg/graph/sources/nmedialink-llama31-training-b2" in graphs
    maintained = {
        f"https://w3id.org/aikg/graph/{g}" for g in ("derived", "inferred", "resolution", "imports")
    }
    assert graphs - maintained <= set(store.graphs())  # aikg fills its own graphs (empty in the seeds)
    # Chinese names are copied too, numbered like the English ones
    zh = {
        r[0].value
        for r in store._ox.query(
            "SELECT ?l WHERE { ?s <http://www.w3.org/2000/01/rdf-schema#label> ?l "
            "FILTER(LANG(?l) = 'zh' && STRENDS(STR(?s), '/deal-coreweave-microsoft-2023-3')) }",
            use_default_graph_as_union=True,
        )
    }
    labels = {
        r[0].value
        for r in store._ox.query(
            "SELECT ?l WHERE { <https://w3id.org/aikg/id/coreweave-3> "
            "<http://www.w3.org/2000/01/rdf-schema#label> ?l }",
            use_default_graph_as_union=True,
        )
    }
    assert "CoreWeave 3" in labels
    assert zh == {"微软合约 3"}


def test_mix_covers_every_operation_kind_and_named_query() -> None:
    from aikg.query.named import load_queries

    ops = build_mix(build_template(), 10)
    assert {op.group for op in ops} == {"lookup", "search", "named", "join", "aggregate", "export", "write"}
    assert {op.name.removeprefix("query ") for op in ops if op.group == "named"} == set(load_queries())
    assert ops[-1].is_write and ops[-1].body.count("\n") == 100
    for op in ops:
        assert len(op.paths) == len(op.sparql) or op.is_write
        for text in op.sparql:
            if not op.is_write:
                ox.Store().query(text)  # parses, parameters bound


@pytest.mark.needs("wrk")
def test_tiny_run_reports_every_operation(tmp_path) -> None:
    opts = Options(
        sizes=["4k"],
        out=tmp_path / "out",
        peers=("aikg", "pyoxigraph", "nothing-here"),
        seconds=1,
        connections=2,
        work=tmp_path / "work",
        log=lambda _: None,
        ops={"lookup", "write"},
    )
    result = run(opts)
    j, md = report.write(result, opts.out)
    saved = json.loads(j.read_text())
    (size,) = saved["sizes"]
    assert set(saved["machine"]) >= {"date", "nproc", "cpu", "free"}
    assert size["load"]["aikg"]["quads"] > size["load"]["pyoxigraph"]["quads"] > 4000
    assert size["peers"]["nothing-here"] == {"skipped": "unknown peer 'nothing-here'"}
    names = [o["name"] for o in size["operations"]]
    assert names[0] == "entity lookup" and names[-1].startswith("write") and len(names) == 2
    for peer in ("aikg", "pyoxigraph"):
        ops = size["peers"][peer]["ops"]
        assert set(ops) == set(names)
        for r in ops.values():
            assert r["errors"] == 0 and r["requests"] >= 1
            assert set(r) >= {"p50_ms", "p99_ms", "rps", "cold_ms"}
    assert set(size["ratios"]["entity lookup"]) == {"pyoxigraph"}
    text = md.read_text()
    assert "| entity lookup |" in text and "Not measured: nothing-here" in text
