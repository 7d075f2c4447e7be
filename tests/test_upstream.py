"""The engine behaviours aikg works around, each run on the engine itself as a strict expected failure.

Every test here states what the engine *should* do and is marked ``xfail(strict=True)``: today the engine
does not, so the test is an expected failure. The day an upgrade fixes the engine, the test passes, the
strict mark turns that into a failure of the suite, and the message names the workaround that can go
(:data:`WORKAROUNDS`, also listed in the manual: docs/architecture.md, "Engine workarounds").
A last test checks that each workaround's module still names its upstream issue.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pyoxigraph as ox
import pytest
import requests

import aikg

XSD = "http://www.w3.org/2001/XMLSchema#"
EX = "https://example.org/aikg-test/upstream/"

WORKAROUNDS = {
    "oxigraph-order": (
        "rdf/order.py",
        "cmp_terms",
        "aikg sorts the outermost ORDER BY itself and guards the engine's (aikg.rdf.order)",
    ),
    "oxigraph-substitutions": (
        "rdf/substitute.py",
        "tests/test_upstream.py",
        "nothing must go: bound values are written into the text on both backends (aikg.rdf.substitute);"
        " the embedded store could take the engine's substitutions again",
    ),
    "oxigraph#1919": (
        "store/oxigraph.py",
        "oxigraph#1919",
        "the store keeps the merge of the named graphs in the real default graph (OxigraphStore)",
    ),
    "oxigraph-scan-prefix": (
        "store/oxigraph.py",
        "scan_prefix",
        "OxigraphStore.quads and aikg check compare each match with the pattern",
    ),
    "virtuoso#1055": (
        "store/remote.py",
        "virtuoso-opensource#1055",
        "DELETE DATA is split into one operation per GRAPH block (store.remote.split_delete_data)",
    ),
    "virtuoso#126": (
        "store/remote.py",
        "virtuoso-opensource#126",
        "blank nodes sent to the remote engine are skolemized (store.remote.skolemize_text)",
    ),
    "virtuoso-protocol-dataset": (
        "store/remote.py",
        "Protocol §2.1.4",
        "FROM/FROM NAMED are removed when the protocol names the dataset (RemoteStore.query)",
    ),
    "virtuoso#1016": (
        "store/remote.py",
        "virtuoso-opensource#1016",
        "an ASK answered as a one-row SELECT of __ASK_RETVAL is read as a boolean (RemoteStore.query)",
    ),
}
"""Engine behaviour -> (the module working around it, the words that module cites it by, what to remove)."""


def upstream(key: str) -> pytest.MarkDecorator:
    """Strict expected failure of the engine behaviour ``key``; its reason says what to remove once the
    test passes (pytest reports ``XPASS(strict)`` with it)."""
    module, _, remedy = WORKAROUNDS[key]
    return pytest.mark.xfail(
        strict=True,
        raises=AssertionError,
        reason=f"{key} (if this passes, the engine is fixed: remove from aikg/{module}: {remedy})",
    )


# -- Oxigraph (pyoxigraph 0.5.13) ---------------------------------------------------------------------

_ORDER_CHILD = """
import random, pyoxigraph as ox
rng = random.Random(4)
values = [str(rng.randint(0, 100)) if rng.random() < 0.5 else f'"20{rng.randint(10, 29)}-01-01"^^<XSDdate>'
          for _ in range(30)]
rows = list(ox.Store().query("SELECT ?o WHERE { VALUES ?o { " + " ".join(values) + " } } ORDER BY ?o"))
print(len(rows))
""".replace("XSD", XSD)


@upstream("oxigraph-order")
def test_oxigraph_orders_integers_and_dates_without_aborting_the_process():
    """spareval's ``cmp_terms`` orders numbers by value but falls back to the lexical form between a
    number and a date ("5" > "2020-01-01" > "10" while 5 < 10): not a total order, and Rust's sort
    (>= 1.81) panics on it, aborting the whole process. Not filed; oxigraph#1542 (the same panic on
    ``ORDER BY RAND()``, fixed in 0.5.3) is the nearest. Run in a child process, since it aborts."""
    child = subprocess.run(
        [sys.executable, "-c", _ORDER_CHILD],
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, "RUST_BACKTRACE": "0"},
    )
    assert child.returncode == 0, child.stderr[-300:]
    assert child.stdout.split() == ["30"]


@upstream("oxigraph-substitutions")
def test_oxigraph_plans_a_query_with_its_substituted_variable_bound():
    """A variable bound by ``substitutions`` is bound only at evaluation: the plan is made as if it were
    free, so a filter on another pattern runs over every row of the store instead of the bound node's
    (counted here by a custom function the filter calls: 2,000 calls, against 10 with a leading VALUES
    block or a constant). Not filed (SEP-0007 substitution is applied by spareval as initial bindings,
    after sparopt has chosen the join order)."""
    store = ox.Store()
    amount, org = ox.NamedNode(EX + "amount"), ox.NamedNode(EX + "org")
    for i in range(2000):
        deal = ox.NamedNode(f"{EX}deal{i}")
        store.add(ox.Quad(deal, org, ox.NamedNode(f"{EX}org{i % 200}")))
        store.add(ox.Quad(deal, amount, ox.Literal(str(i), datatype=ox.NamedNode(XSD + "integer"))))
    calls = []

    def tick(term: ox.Literal) -> ox.Literal:
        calls.append(term)
        return ox.Literal("true", datatype=ox.NamedNode(XSD + "boolean"))

    text = (
        f"SELECT ?org ?d WHERE {{ ?d <{amount.value}> ?a . FILTER (<{EX}tick>(?a)) ?d <{org.value}> ?org }}"
    )
    functions = {ox.NamedNode(EX + "tick"): tick}
    with_values = text.replace("WHERE {", f"WHERE {{ VALUES ?org {{ <{EX}org7> }}", 1)
    assert len(list(store.query(with_values, custom_functions=functions))) == 10
    assert len(calls) == 10  # the plan starts from the bound organization
    calls.clear()
    bound = {ox.Variable("org"): ox.NamedNode(EX + "org7")}
    rows = list(store.query(text, substitutions=bound, custom_functions=functions))
    assert len(rows) == 10
    assert len(calls) == 10


@upstream("oxigraph#1919")
def test_oxigraph_union_default_graph_counts_a_triple_of_two_graphs_once():
    """oxigraph#1919 (fixed upstream by PR #1920, not in 0.5.13): the default graph as the union of the
    named graphs (``use_default_graph_as_union``, or several ``FROM``) matches a triple once per graph."""
    store = ox.Store()
    store.update(
        f"INSERT DATA {{ GRAPH <{EX}g1> {{ <{EX}s> <{EX}p> 10 }} GRAPH <{EX}g2> {{ <{EX}s> <{EX}p> 10 }} }}"
    )
    res = store.query(f"SELECT (COUNT(*) AS ?n) WHERE {{ ?s <{EX}p> ?o }}", use_default_graph_as_union=True)
    assert [row[0].value for row in res] == ["1"]


@upstream("oxigraph-scan-prefix")
def test_oxigraph_on_disk_matches_an_integer_object_ending_in_byte_ff_alone():
    """On disk, ``quads_for_pattern`` with the integer 255 as object also answers 256, 257 …: Oxigraph's
    ``scan_prefix`` (storage/rocksdb_wrapper.rs) makes the scan's upper bound by adding one to the last
    byte below 0xFF but keeps the 0xFF bytes after it, so the bound lies past the prefix. SPARQL and the
    in-memory store are not affected. Not filed."""
    with tempfile.TemporaryDirectory() as folder:
        store = ox.Store(folder)
        p, g = ox.NamedNode(EX + "p"), ox.NamedNode(EX + "g")
        integer = ox.NamedNode(XSD + "integer")
        store.extend(
            [
                ox.Quad(ox.NamedNode(f"{EX}s{n}"), p, ox.Literal(str(n), datatype=integer), g)
                for n in (255, 256, 257)
            ]
        )
        store.flush()
        found = [
            q.object.value for q in store.quads_for_pattern(None, p, ox.Literal("255", datatype=integer), g)
        ]
        del store
    assert found == ["255"]


# -- Virtuoso 7.2 (the remote backend's test engine) ----------------------------------------------------


@pytest.fixture()
def engine(virtuoso) -> Iterator[str]:
    """The session's Virtuoso endpoint; the test's graphs (under EX) are dropped afterwards."""
    yield virtuoso.url
    graphs = ("g1", "g2", "g3")
    update = " ; ".join(f"DROP SILENT GRAPH <{EX}{g}>" for g in graphs)
    requests.post(virtuoso.url, data={"update": update}, timeout=30).raise_for_status()


def _update(url: str, text: str) -> requests.Response:
    return requests.post(url, data={"update": text}, timeout=30)


def _select(url: str, text: str, **params: str) -> list[tuple[str, ...]]:
    r = requests.post(
        url, data={"query": text, **params}, headers={"Accept": "application/sparql-results+json"}, timeout=30
    )
    r.raise_for_status()
    body = r.json()
    return sorted(
        tuple(b[v]["value"] for v in body["head"]["vars"] if v in b) for b in body["results"]["bindings"]
    )


@upstream("virtuoso#1055")
def test_virtuoso_deletes_language_tagged_literals_of_a_delete_data_with_two_graph_blocks(engine):
    """virtuoso-opensource#1055: a DELETE DATA with more than one GRAPH block leaves its language-tagged
    (and custom-typed) literals in place; the same quads in one block per operation are deleted."""
    data = f'GRAPH <{EX}g1> {{ <{EX}s> <{EX}p> "x"@en }} GRAPH <{EX}g2> {{ <{EX}s> <{EX}p> 1 }}'
    _update(engine, f"INSERT DATA {{ {data} }}").raise_for_status()
    _update(engine, f"DELETE DATA {{ {data} }}").raise_for_status()
    left = _select(engine, f"SELECT ?o WHERE {{ GRAPH ?g {{ <{EX}s> <{EX}p> ?o }} }}")
    assert left == []


@upstream("virtuoso#126")
def test_virtuoso_takes_blank_nodes_in_insert_data(engine):
    """virtuoso-opensource#126: ``INSERT DATA`` with a blank node is refused (SP031 "not allowed in a
    constant clause"), though SPARQL 1.1 Update §3.1.1 allows it."""
    r = _update(engine, f"INSERT DATA {{ GRAPH <{EX}g1> {{ _:b <{EX}p> 1 }} }}")
    assert r.status_code == 200


@upstream("virtuoso-protocol-dataset")
def test_virtuoso_lets_the_protocol_dataset_override_the_query_from(engine):
    """SPARQL 1.1 Protocol §2.1.4: ``default-graph-uri`` replaces the query's own ``FROM``; Virtuoso
    takes the union of both. Not filed (virtuoso-opensource#451, on the dataset of a FROM, is near)."""
    _update(
        engine,
        f"INSERT DATA {{ GRAPH <{EX}g1> {{ <{EX}s> <{EX}p> 1 }} GRAPH <{EX}g2> {{ <{EX}s> <{EX}p> 2 }} }}",
    ).raise_for_status()
    rows = _select(
        engine, f"SELECT ?o FROM <{EX}g1> WHERE {{ <{EX}s> <{EX}p> ?o }}", **{"default-graph-uri": EX + "g2"}
    )
    assert rows == [("2",)]


@upstream("virtuoso#1016")
def test_virtuoso_answers_ask_with_a_boolean_in_json(engine):
    """virtuoso-opensource#1016: an ASK asked for SPARQL JSON results comes back as a SELECT of one row
    binding ``__ASK_RETVAL`` to 1 or 0, not as ``{"boolean": …}`` (SPARQL 1.1 JSON Results §3.2.2)."""
    r = requests.post(
        engine,
        data={"query": "ASK { ?s ?p ?o }"},
        headers={"Accept": "application/sparql-results+json"},
        timeout=30,
    )
    r.raise_for_status()
    assert "boolean" in r.json()


# -- the workarounds name what they work around ---------------------------------------------------------


@pytest.mark.parametrize("key", sorted(WORKAROUNDS))
def test_each_workaround_module_names_its_upstream_issue(key):
    module, cites, _ = WORKAROUNDS[key]
    text = (Path(aikg.__file__).parent / module).read_text(encoding="utf-8")
    assert cites in text, f"aikg/{module} no longer cites {cites!r} for {key}"
