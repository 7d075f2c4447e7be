"""Subclass-aware answers: superclass types and superproperty statements are materialized into
graph/inferred, so plain SPARQL finds neoclouds as organizations and investors as parties."""

from __future__ import annotations

from rdflib import URIRef
from rdflib.namespace import RDF

from aikg.knowledge.derive import rebuild_derived
from aikg.namespaces import AIKG, ID, INFERRED_GRAPH
from helpers import rdf

INFERRED = str(INFERRED_GRAPH)
PROLOGUE = "PREFIX aikg: <https://w3id.org/aikg/ontology#>\nPREFIX id: <https://w3id.org/aikg/id/>\n"


def select(store, body: str) -> set[tuple[str, ...]]:
    """A plain SPARQL SELECT over the union of all graphs, as a set of string tuples."""
    return set(store.query(PROLOGUE + body).values())


def test_organizations_include_neoclouds_labs_and_vendors(seeded_store):
    found = {x for (x,) in select(seeded_store, "SELECT ?x WHERE { ?x a aikg:Organization }")}
    for slug in ("coreweave", "openai", "sb-energy", "nvidia", "microsoft", "groq"):
        assert str(ID[slug]) in found


def test_cloud_operators_include_neoclouds_and_hyperscalers(seeded_store):
    found = {x for (x,) in select(seeded_store, "SELECT ?x WHERE { ?x a aikg:CloudOperator }")}
    assert {str(ID[s]) for s in ("coreweave", "lambda", "nebius", "microsoft", "google")} <= found
    assert str(ID["openai"]) not in found


def test_deals_include_investments_leases_rounds_and_contracts(seeded_store):
    found = {d for (d,) in select(seeded_store, "SELECT ?d WHERE { ?d a aikg:Deal }")}
    assert {
        str(ID[s])
        for s in (
            "deal-nvidia-sb-energy-investment",
            "deal-openai-sb-energy-ports-pike-lease",
            "deal-groq-series-a-2026",
            "deal-coreweave-openai-2025",
        )
    } <= found
    events = {d for (d,) in select(seeded_store, "SELECT ?d WHERE { ?d a aikg:Event }")}
    assert found <= events


def test_party_finds_investors_lessees_and_providers(seeded_store):
    found = select(seeded_store, "SELECT ?d ?o WHERE { ?d aikg:party ?o }")
    assert (str(ID["deal-nvidia-sb-energy-investment"]), str(ID["nvidia"])) in found
    assert (str(ID["deal-nvidia-sb-energy-investment"]), str(ID["sb-energy"])) in found
    assert (str(ID["deal-openai-sb-energy-ports-pike-lease"]), str(ID["openai"])) in found
    assert (str(ID["deal-coreweave-openai-2025"]), str(ID["coreweave"])) in found


def test_announced_on_is_a_date(seeded_store):
    found = select(seeded_store, "SELECT ?d WHERE { id:deal-nvidia-sb-energy-investment aikg:date ?d }")
    assert found == {("2026-08-17",)}


def test_inferred_triples_live_in_their_own_graph_and_only_for_aikg_terms(seeded_store):
    neocloud_org = list(rdf(seeded_store).quads(ID["coreweave"], RDF.type, AIKG.Organization))
    assert [g for *_, g in neocloud_org] == [URIRef(INFERRED)]
    inferred_types = {o for _, _, o, _ in rdf(seeded_store).quads(None, RDF.type, None, graph=INFERRED)}
    assert inferred_types and all(str(t).startswith(str(AIKG)) for t in inferred_types)
    # Asserted facts are not repeated in the inferred graph.
    assert not any(rdf(seeded_store).quads(ID["coreweave"], RDF.type, AIKG.Neocloud, graph=INFERRED))


def test_derived_nodes_get_their_superclasses(seeded_store):
    node = ID["derived-gpu-hours-result-mlperf-training-v6-0-coreweave-deepseek-v3"]
    assert any(rdf(seeded_store).quads(node, RDF.type, AIKG.Entity, graph=INFERRED))


NEW_FACTS = """
@prefix aikg: <https://w3id.org/aikg/ontology#> .
@prefix id: <https://w3id.org/aikg/id/> .
id:test-cloud a aikg:Hyperscaler .
id:test-lease a aikg:Lease ; aikg:lessor id:test-cloud .
"""


def test_inference_follows_the_data(store):
    graph = "https://w3id.org/aikg/graph/sources/test-inference"
    store.load(NEW_FACTS.encode(), mime="text/turtle", graph=graph)
    rebuild_derived(store)
    assert any(rdf(store).quads(ID["test-cloud"], RDF.type, AIKG.Organization, graph=INFERRED))
    assert any(rdf(store).quads(ID["test-cloud"], RDF.type, AIKG.CloudOperator, graph=INFERRED))
    assert any(rdf(store).quads(ID["test-lease"], AIKG.party, ID["test-cloud"], graph=INFERRED))
    store.drop_graph(graph)
    rebuild_derived(store)
    assert not any(rdf(store).quads(ID["test-cloud"], None, None))
    assert not any(rdf(store).quads(ID["test-lease"], None, None))
