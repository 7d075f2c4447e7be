"""Reads around nodes (a store capability): the remote backend's batched reads return exactly what the
embedded store's index lookups do."""

from __future__ import annotations

import pyoxigraph as ox
import pytest

from aikg.store.remote import RemoteStore

ID = "https://w3id.org/aikg/id/"
AIKG = "https://w3id.org/aikg/ontology#"
NODES = [ox.NamedNode(ID + slug) for slug in ("coreweave", "nvidia", "gb300-nvl72", "no-such-node")]
SOURCE = "https://w3id.org/aikg/graph/sources/frontier-insights-coreweave-mlperf-2026-08-18"


@pytest.fixture(scope="module")
def readers(seeded_store, seeded_remote):
    seeded_remote.restore()
    return seeded_store, seeded_remote.store


def test_outgoing_is_the_same_on_both_backends(readers):
    embedded, remote = readers
    mine = set(embedded.outgoing(NODES))
    assert any(q.subject == NODES[0] for q in mine)
    assert set(remote.outgoing(NODES)) == mine


def test_incoming_with_predicate_and_graph_is_the_same_on_both_backends(readers):
    embedded, remote = readers
    maker = [ox.NamedNode(AIKG + "manufacturer")]
    mine = set(embedded.incoming(NODES, predicates=maker, graph=SOURCE))
    assert {q.subject.value for q in mine} >= {ID + "gb300-nvl72", ID + "hgx-h100"}
    assert all(q.graph_name.value == SOURCE and q.object == NODES[1] for q in mine)
    assert set(remote.incoming(NODES, predicates=maker, graph=SOURCE)) == mine


def test_many_nodes_go_in_several_batches(readers, monkeypatch):
    embedded, remote = readers
    monkeypatch.setattr(RemoteStore, "CHUNK", 2)
    assert set(remote.outgoing(NODES)) == set(embedded.outgoing(NODES))


def test_with_predicates_is_the_same_on_both_backends(readers):
    embedded, remote = readers
    sub = [ox.NamedNode("http://www.w3.org/2000/01/rdf-schema#subPropertyOf")]
    mine = set(embedded.with_predicates(sub))
    assert len(mine) > 10
    assert set(remote.with_predicates(sub)) == mine
