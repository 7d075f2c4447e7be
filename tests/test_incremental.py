"""Writes keep the inferred and derived graphs up to date locally, with the same result as a full rebuild.

Every case commits a change through the SHACL gate, which follows it incrementally; the generated graphs
are then compared, quad for quad, with what a rebuild from scratch computes on the same data.
"""

from __future__ import annotations

from collections.abc import Callable
from decimal import Decimal

import pyoxigraph as ox
import pytest
from rdflib import URIRef

from aikg.knowledge import incremental
from aikg.knowledge.derive import rebuild_derived, rule_files
from aikg.namespaces import DERIVED_GRAPH, INFERRED_GRAPH
from aikg.write import gate
from helpers import services_for
from test_derived import COREWEAVE_RESULT, RUNS_AND_RESULTS, V3_RUN, derived_value

AIKG = "https://w3id.org/aikg/ontology#"
ID = "https://w3id.org/aikg/id/"
XSD = "http://www.w3.org/2001/XMLSchema#"
TEST_GRAPH = "https://w3id.org/aikg/graph/sources/test-incremental"


def generated(store) -> set[ox.Quad]:
    """Every quad of the inferred and derived graphs."""
    return {q for g in (INFERRED_GRAPH, DERIVED_GRAPH) for q in store.quads(graph=str(g))}


def quads_of(store, s: str, p: str) -> set[ox.Quad]:
    """The asserted (not generated) quads of a subject and property."""
    generated_graphs = (str(DERIVED_GRAPH), str(INFERRED_GRAPH))
    return {
        q for q in store.quads(ox.NamedNode(s), ox.NamedNode(p)) if q.graph_name.value not in generated_graphs
    }


def turtle_quads(text: str, graph: str = TEST_GRAPH) -> set[ox.Quad]:
    return {
        ox.Quad(t.subject, t.predicate, t.object, ox.NamedNode(graph))
        for t in ox.parse(text, format=ox.RdfFormat.TURTLE)
    }


def commit_locally(store, make: Callable[[], gate.Change]) -> None:
    """Commit a change with its generated difference, as the gate does (failing if it cannot)."""
    change = make()
    gate.write_change(store, change, incremental.plan(store, change.remove, change.add))


def assert_same_as_rebuild(store) -> None:
    local = generated(store)
    rebuild_derived(store)
    rebuilt = generated(store)
    assert local - rebuilt == set() and rebuilt - local == set()


def test_changed_count_updates_every_value_that_reads_it(store):
    old = quads_of(store, str(COREWEAVE_RESULT), AIKG + "acceleratorCount")
    new = {
        ox.Quad(
            q.subject, q.predicate, ox.Literal("4096", datatype=ox.NamedNode(XSD + "integer")), q.graph_name
        )
        for q in old
    }
    commit_locally(store, lambda: gate.Change("update", remove=old, add=new))
    hours = derived_value(store, COREWEAVE_RESULT, URIRef(AIKG + "gpuHours"))
    assert hours.quantize(Decimal("0.001")) == Decimal("137.899")  # 2.02 min × 4,096 / 60
    ratio = derived_value(store, V3_RUN, URIRef(AIKG + "ratio"), COREWEAVE_RESULT)
    assert ratio.quantize(Decimal("0.1")) == Decimal("20217.7")
    assert_same_as_rebuild(store)


def test_removed_time_removes_the_values_that_needed_it(store):
    old = quads_of(store, str(COREWEAVE_RESULT), AIKG + "timeToTrain")
    commit_locally(store, lambda: gate.Change("update", remove=old))
    assert derived_value(store, COREWEAVE_RESULT, URIRef(AIKG + "gpuHours")) is None
    assert derived_value(store, V3_RUN, URIRef(AIKG + "ratio"), COREWEAVE_RESULT) is None
    assert_same_as_rebuild(store)


def test_new_entities_get_their_types_closed_and_their_values_derived(store):
    add = turtle_quads(RUNS_AND_RESULTS)
    commit_locally(store, lambda: gate.Change("add", add=add))
    speedup = derived_value(
        store, URIRef(ID + "test-result-fast"), URIRef(AIKG + "speedup"), URIRef(ID + "test-result-slow")
    )
    assert speedup == Decimal("3.2")  # 8.0 / 2.5
    assert derived_value(store, URIRef(ID + "test-run"), URIRef(AIKG + "gpuHours")) == Decimal("7200")
    assert_same_as_rebuild(store)


def test_a_new_fastest_result_moves_every_speedup_of_its_workload(store):
    commit_locally(store, lambda: gate.Change("add", add=turtle_quads(RUNS_AND_RESULTS)))
    faster = turtle_quads(f"""@prefix aikg: <{AIKG}> . @prefix id: <{ID}> .
        id:test-result-faster a aikg:BenchmarkResult ; aikg:workload id:test-model ; aikg:timeToTrain 1.25 .
    """)
    commit_locally(store, lambda: gate.Change("add", add=faster))
    assert derived_value(
        store, URIRef(ID + "test-result-faster"), URIRef(AIKG + "speedup"), URIRef(ID + "test-result-slow")
    ) == Decimal("6.4")
    assert (
        derived_value(
            store, URIRef(ID + "test-result-fast"), URIRef(AIKG + "speedup"), URIRef(ID + "test-result-slow")
        )
        is None
    )
    assert_same_as_rebuild(store)


def test_memory_of_an_accelerator_reaches_the_systems_using_it(store):
    system, chip = ID + "gb300-nvl72", ID + "gb300"
    own = quads_of(store, system, AIKG + "memoryPerChip")
    memory = ox.NamedNode(AIKG + "memoryPerChip")

    def chip_memory(gb: str) -> set[ox.Quad]:
        return {
            ox.Quad(
                ox.NamedNode(chip),
                memory,
                ox.Literal(gb, datatype=ox.NamedNode(XSD + "decimal")),
                ox.NamedNode(TEST_GRAPH),
            )
        }

    # The system no longer states its own memory per chip: the accelerator's figure is used instead.
    commit_locally(store, lambda: gate.Change("update", remove=own, add=chip_memory("300")))
    hbm = URIRef(AIKG + "hbmPerScaleUpDomain")
    assert derived_value(store, URIRef(system), hbm) == Decimal("21600")  # 72 × 300
    # A change on the accelerator alone reaches the system that uses it.
    commit_locally(store, lambda: gate.Change("update", remove=chip_memory("300"), add=chip_memory("100")))
    assert derived_value(store, URIRef(system), hbm) == Decimal("7200")
    assert_same_as_rebuild(store)


def test_dropping_a_whole_source_graph(store):
    graph = "https://w3id.org/aikg/graph/sources/frontier-insights-coreweave-mlperf-2026-08-18"
    commit_locally(store, lambda: gate.drop_change(store, graph))
    assert derived_value(store, COREWEAVE_RESULT, URIRef(AIKG + "gpuHours")) is None
    assert_same_as_rebuild(store)


def test_a_new_subclass_statement_falls_back_to_a_full_rebuild(store):
    add = turtle_quads(f"""@prefix aikg: <{AIKG}> . @prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
        aikg:TestRun rdfs:subClassOf aikg:TrainingRun ; rdfs:label "test run class"@en .""")
    with pytest.raises(incremental.NeedsRebuild):
        incremental.plan(store, set(), add)


def test_every_rule_has_a_known_reach():
    reaches = {p.stem: incremental.rule_shape(p).reach for p in rule_files()}
    assert reaches["speedup-between-results"] == 2  # fastest result -> workload -> each other result
    assert reaches["hbm-per-scale-up-domain"] == 1  # system -> accelerator
    assert reaches["gpu-hours-of-training-run"] == 0


def test_first_build_over_the_union_equals_a_rebuild_over_named_graphs(store):
    # load_seeds built the generated graphs on an empty store (the fast path over the union graph);
    # a second rebuild takes the general path, naming every source graph, and must change nothing.
    first = generated(store)
    assert len(first) > 300
    assert_same_as_rebuild(store)


def test_a_rule_is_run_only_where_every_statement_it_needs_is_there():
    """A rule is not run over a region missing a statement all its answers read (#49: the seven rules
    ran for every small write). What an OPTIONAL, MINUS or one UNION branch reads is not needed."""
    shapes = {p.stem: incremental.rule_shape(p) for p in rule_files()}
    rdf_type = ox.NamedNode("http://www.w3.org/1999/02/22-rdf-syntax-ns#type")
    needs = shapes["gpu-hours-of-benchmark-result"].required
    assert needs == {
        (rdf_type, None),
        (rdf_type, ox.NamedNode(AIKG + "BenchmarkResult")),
        (ox.NamedNode(AIKG + "timeToTrain"), None),
        (ox.NamedNode(AIKG + "acceleratorCount"), None),
    }
    assert all(shape.required for shape in shapes.values())


def test_a_hierarchy_written_between_writes_is_read_again(store):
    """The class hierarchy the closure reads is kept from write to write (#49), and read again after a
    write that changes it: a client's subclass of an aikg class gives its instances aikg's types."""
    services = services_for(store)
    services.gate.write(
        lambda: gate.graph_change(
            store,
            TEST_GRAPH,
            turtle_quads(f"@prefix id: <{ID}> . id:before-cloud <{ID}x-p> 1 ."),
            replace=False,
        )
    )
    services.gate.write(
        lambda: gate.graph_change(
            store,
            TEST_GRAPH,
            turtle_quads(
                "<https://example.org/MyCloud> <http://www.w3.org/2000/01/rdf-schema#subClassOf> "
                f"<{AIKG}Neocloud> ."
            ),
            replace=False,
        )
    )
    services.gate.write(
        lambda: gate.graph_change(
            store,
            TEST_GRAPH,
            turtle_quads(
                f"@prefix id: <{ID}> . id:test-mine a <https://example.org/MyCloud> ; "
                '<http://www.w3.org/2000/01/rdf-schema#label> "Mine"@en .'
            ),
            replace=False,
        )
    )
    inferred = {
        q.object.value for q in store.quads(ox.NamedNode(ID + "test-mine"), None, None, str(INFERRED_GRAPH))
    }
    assert {AIKG + "Neocloud", AIKG + "Organization"} <= inferred
    assert_same_as_rebuild(store)


def test_a_gated_write_and_its_generated_triples_are_one_update(store, monkeypatch):
    turtle = f"""@prefix aikg: <{AIKG}> . @prefix id: <{ID}> .
        id:test-cloud a aikg:Neocloud ; <http://www.w3.org/2000/01/rdf-schema#label> "Test Cloud"@en ."""
    writes: list[dict] = []
    real = store.apply
    monkeypatch.setattr(store, "apply", lambda **kw: (writes.append(kw), real(**kw))[1])
    services_for(store).gate.write(
        lambda: gate.graph_change(store, TEST_GRAPH, turtle_quads(turtle), replace=False)
    )
    assert len(writes) == 1  # one transaction: a reader sees the neocloud with its closure, or neither
    assert {q.graph_name.value for q in writes[0]["add"]} == {TEST_GRAPH, str(INFERRED_GRAPH)}
    inferred = {
        q.object.value for q in store.quads(ox.NamedNode(ID + "test-cloud"), None, None, str(INFERRED_GRAPH))
    }
    assert AIKG + "Organization" in inferred


def test_a_write_of_new_blank_nodes_follows_the_change_without_a_full_rebuild(store, monkeypatch):
    """INSERT DATA with ``[ ... ]`` is everyday RDF in a client graph (aikg's entities are IRIs); it had
    set off a full rebuild (40-76 s at the default store). New blank nodes are followed like IRIs, in the
    same write; the result equals a rebuild."""
    monkeypatch.setattr(gate, "rebuild_derived", lambda _store: pytest.fail("a full rebuild ran"))
    services_for(store).gate.update(
        f"""PREFIX aikg: <{AIKG}> PREFIX xsd: <{XSD}> PREFIX foaf: <http://xmlns.com/foaf/0.1/>
        INSERT DATA {{ GRAPH <{TEST_GRAPH}> {{
          [] foaf:name "Blank Org" ; aikg:announcedOn "2026-01-01"^^xsd:date .
          _:a foaf:knows _:b . _:b foaf:name "Friend" .
        }} }}"""
    )
    [org] = {q.subject for q in store.quads(None, None, ox.Literal("Blank Org"))}
    assert isinstance(org, ox.BlankNode)
    inferred = {
        (q.predicate.value, q.object.value) for q in store.quads(org, None, None, str(INFERRED_GRAPH))
    }
    assert inferred == {(AIKG + "date", "2026-01-01")}  # the closure of the new node, in the same write
    assert_same_as_rebuild(store)


def test_a_change_to_an_existing_blank_node_still_rebuilds(store):
    add = turtle_quads(f"[] a <{AIKG}Neocloud> .")
    store.apply(add=add)
    [blank] = {q.subject for q in add}
    more = {ox.Quad(blank, ox.NamedNode(AIKG + "note"), ox.Literal("more"), ox.NamedNode(TEST_GRAPH))}
    with pytest.raises(incremental.NeedsRebuild):
        incremental.plan(store, set(), more)


def test_warm_up_parses_every_rule_before_the_first_write():
    incremental._shape.cache_clear()
    gate.warm_up()  # what `aikg serve` runs in the background when writes are on
    assert incremental._shape.cache_info().currsize == len(rule_files())


def test_rules_are_described_only_while_something_is_derived():
    """An empty store's first write that derives nothing adds no rule descriptions; the first derivation
    brings them (with their types closed), and removing it takes them away — as a rebuild would."""
    from aikg.store import OxigraphStore

    store = OxigraphStore(None)
    run = turtle_quads(RUNS_AND_RESULTS)
    plain = turtle_quads(f"<{ID}test-plain> <{AIKG}note> 'nothing derives from me' .")
    commit_locally(store, lambda: gate.Change("update", add=plain))
    assert generated(store) == set()
    commit_locally(store, lambda: gate.Change("update", add=run))
    rules = {
        q.subject
        for q in store.quads(None, None, None, str(DERIVED_GRAPH))
        if q.subject.value.startswith(ID + "rule-")
    }
    assert len(rules) == len(rule_files())
    assert_same_as_rebuild(store)
    commit_locally(store, lambda: gate.Change("update", remove=run))
    assert generated(store) == set()
    assert_same_as_rebuild(store)
