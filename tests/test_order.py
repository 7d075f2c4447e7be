"""A SELECT's plain ORDER BY done by aikg (aikg.rdf.order): SPARQL's order, the engine's where the engine
has one, every page of it, and no crash on values Oxigraph cannot order."""

from __future__ import annotations

import random

import pyoxigraph as ox
import pytest
import requests

from aikg.namespaces import BASE
from aikg.query.named import bind_parameters, load_queries, paged
from aikg.rdf.order import split_order, term_key
from aikg.store import OxigraphStore
from aikg.store.transport import QueryJob

XSD = "http://www.w3.org/2001/XMLSchema#"


def _mixed_values(seed: int = 4, n: int = 30) -> str:
    """Integers and dates in one column: Oxigraph 0.5.13 calls an integer and a date equal, two dates
    not, and its sort panics on that (this text aborted the query worker: a 503 before aikg sorted)."""
    rng = random.Random(seed)
    values = [
        str(rng.randint(0, 100)) if rng.random() < 0.5 else f'"20{rng.randint(10, 29)}-01-01"^^<{XSD}date>'
        for _ in range(n)
    ]
    return "SELECT ?o WHERE { VALUES ?o { " + " ".join(values) + " } } ORDER BY ?o"


def _answer(store: OxigraphStore, text: str, **kw) -> list[list[str]]:
    data = store.answer(QueryJob(text, base_iri=BASE, **kw)).data.decode()
    return [line.split("\t") for line in data.split("\n")[1:] if line]


@pytest.fixture()
def mixed() -> OxigraphStore:
    """Terms of every kind, and a subject without the property (an unbound ordering value)."""
    store = OxigraphStore(None)
    lit = ox.Literal
    values = [
        lit("b"),
        lit("a"),
        lit("a", language="en"),
        lit("ä"),
        lit("x\ty"),
        lit("10", datatype=ox.NamedNode(XSD + "integer")),
        lit("9.5", datatype=ox.NamedNode(XSD + "decimal")),
        lit("9", datatype=ox.NamedNode(XSD + "integer")),
        lit("1e1", datatype=ox.NamedNode(XSD + "double")),
        lit("-3", datatype=ox.NamedNode(XSD + "integer")),
        lit("2024-01-05", datatype=ox.NamedNode(XSD + "date")),
        lit("2023-12-31", datatype=ox.NamedNode(XSD + "date")),
        lit("true", datatype=ox.NamedNode(XSD + "boolean")),
        lit("false", datatype=ox.NamedNode(XSD + "boolean")),
        ox.NamedNode("http://x/z"),
        ox.NamedNode("http://x/a"),
        ox.BlankNode("b1"),
    ]
    quads = [
        ox.Quad(ox.NamedNode(f"http://x/s{i:02d}"), ox.NamedNode("http://x/p"), v, ox.NamedNode("http://x/g"))
        for i, v in enumerate(values)
    ]
    none = ox.NamedNode("http://x/none")
    quads.append(ox.Quad(none, ox.NamedNode("http://x/q"), lit("u"), quads[0].graph_name))
    store._change(drop=[], add=quads)
    return store


ALL = "SELECT ?s ?o WHERE { ?s ?any ?x OPTIONAL { ?s <http://x/p> ?o } }"


def test_sparql_order_of_kinds_and_values(mixed):
    rows = _answer(mixed, ALL + " ORDER BY ?o")
    values = [o for _, o in rows]
    # unbound, blank nodes, IRIs, then literals (SPARQL 1.1 Query §15.1)
    assert values[0] == ""
    assert values[1].startswith("_:")
    assert values[2:4] == ["<http://x/a>", "<http://x/z>"]
    # numbers of every numeric type by value, not by lexical form
    numbers = values[4:9]
    assert numbers[:3] == ["-3", "9", "9.5"]
    assert set(numbers[3:]) == {"10", f'"10"^^<{XSD}double>'}  # equal values: either first
    assert values.index('"a"@en') < values.index('"a"') < values.index('"b"') < values.index('"ä"')
    assert values.index(f'"2023-12-31"^^<{XSD}date>') < values.index(f'"2024-01-05"^^<{XSD}date>')
    assert values.index("false") < values.index("true")


def test_descending_is_the_ascending_order_reversed(mixed):
    up = [o for _, o in _answer(mixed, ALL + " ORDER BY ?o ?s")]
    down = [o for _, o in _answer(mixed, ALL + " ORDER BY DESC(?o) DESC(?s)")]
    assert down == list(reversed(up))


def test_values_oxigraph_cannot_order_are_answered():
    store = OxigraphStore(None)
    values = [o for (o,) in _answer(store, _mixed_values())]
    assert len(values) == 30
    numbers = [v for v in values if not v.startswith('"')]
    assert numbers == sorted(numbers, key=int)
    assert values[: len(numbers)] == numbers  # numbers before the other literals


def test_a_served_query_that_aborted_the_worker_is_answered(live_server):
    r = requests.post(
        live_server.url + "/sparql",
        data={"query": _mixed_values()},
        headers={"Accept": "application/sparql-results+json"},
        timeout=30,
    )
    assert r.status_code == 200, r.text
    assert len(r.json()["results"]["bindings"]) == 30


@pytest.mark.parametrize(
    ("text", "keys", "limit", "offset"),
    [
        ("SELECT ?a ?b WHERE { ?a ?p ?b } ORDER BY ?b DESC(?a)", (("b", False), ("a", True)), None, 0),
        ("SELECT DISTINCT ?a WHERE { ?a ?p ?b } ORDER BY ASC(?a) LIMIT 5 OFFSET 10", (("a", False),), 5, 10),
        (
            "SELECT ?a (COUNT(?b) AS ?n) { ?a ?p ?b } GROUP BY ?a ORDER BY DESC(?n) (?a) OFFSET 2",
            None,
            None,
            2,
        ),  # noqa: E501
    ],
)
def test_the_plain_forms_are_taken(text, keys, limit, offset):
    ordered = split_order(text)
    assert ordered is not None
    if keys is not None:
        assert ordered.keys == keys
    assert (ordered.limit, ordered.offset) == (limit, offset)
    assert "ORDER" not in ordered.text and "LIMIT" not in ordered.text


@pytest.mark.parametrize(
    "text",
    [
        "SELECT * WHERE { ?a ?p ?b } ORDER BY ?a",  # the projection is not named
        "SELECT ?a WHERE { ?a ?p ?b } ORDER BY ?b",  # not projected
        "SELECT ?a WHERE { ?a ?p ?b } ORDER BY STR(?a)",  # an expression
        "SELECT ?a WHERE { { SELECT ?a WHERE { ?a ?p ?b } ORDER BY ?a LIMIT 3 } }",  # only a subquery's
        "CONSTRUCT { ?a ?p ?b } WHERE { ?a ?p ?b } ORDER BY ?a",
        "SELECT ?a WHERE { ?a ?p ?b } ORDER BY ?a VALUES ?a { <http://x/a> }",  # a trailing VALUES
        "SELECT ?a WHERE { ?a ?p ?b } ORDER BY ?a LIMIT 2 LIMIT 3",
    ],
)
def test_other_forms_keep_the_engines_order(text):
    assert split_order(text) is None


def test_ties_keep_one_order(mixed):
    text = "SELECT ?s ?k WHERE { ?s ?any ?x BIND (1 AS ?k) } ORDER BY ?k"
    first = _answer(mixed, text)
    assert all(_answer(mixed, text) == first for _ in range(3))


def _engine(store: OxigraphStore, text: str, bindings) -> list[list[str]]:
    import io

    buf = io.BytesIO()
    subs = {ox.Variable(k): v for k, v in bindings.items()}
    found = store._ox.query(text, substitutions=subs, base_iri=BASE)
    found.serialize(buf, format=ox.QueryResultsFormat.TSV)
    return [line.split("\t") for line in buf.getvalue().decode().split("\n")[1:] if line]


@pytest.mark.parametrize("name", sorted(load_queries()))
def test_named_queries_keep_the_engines_order_on_the_default_store(epoch_store, name):
    """Every named query: the same rows as Oxigraph's own ORDER BY, in the same order of their keys
    (rows equal on every key may come in another order: Oxigraph's sort is not stable)."""
    q = load_queries()[name]
    given = {"accelerator": "h100", "entity": "nvidia", "org": "nvidia"}
    given.update({"from": "2000-01-01", "to": "2030-12-31"})
    raw = {p.name: given[p.name] for p in q.parameters if p.required}
    bindings = bind_parameters(q, raw)
    engine = _engine(epoch_store, q.text, bindings)
    ours = _answer(epoch_store, q.text, bindings=bindings or None)
    assert sorted(map(tuple, ours)) == sorted(map(tuple, engine))
    ordered = split_order(q.text)
    if ordered is None:
        assert ours == engine
        return
    head = epoch_store.answer(QueryJob(q.text, bindings or None, base_iri=BASE)).data.decode().split("\n")[0]
    at = [[c[1:] for c in head.split("\t")].index(v) for v, _ in ordered.keys]
    assert [[term_key(r[i]) for i in at] for r in ours] == [[term_key(r[i]) for i in at] for r in engine]
    # and a page is the whole ordered answer's rows at those positions
    page = _answer(epoch_store, paged(q, 7, 3), bindings=bindings or None)
    assert page == ours[3:10]


def test_the_row_cap_cuts_the_ordered_answer_and_says_so(mixed):
    answer = mixed.answer(QueryJob(ALL + " ORDER BY DESC(?o)", max_rows=4, base_iri=BASE))
    assert answer.truncated
    values = [line.split("\t")[1] for line in answer.data.decode().split("\n")[1:] if line]
    assert values == [o for _, o in _answer(mixed, ALL + " ORDER BY DESC(?o)")][:4]
