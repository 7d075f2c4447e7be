"""Bound variables as a leading VALUES block (aikg.rdf.values): the substitution's rows, or no rewrite."""

from __future__ import annotations

import pyoxigraph as ox
import pytest

from aikg.knowledge.load import load_seeds
from aikg.rdf.values import with_values
from aikg.store import OxigraphStore

ID = "https://w3id.org/aikg/id/"
NVIDIA = ox.NamedNode(ID + "nvidia")
LABEL = "<http://www.w3.org/2000/01/rdf-schema#label>"


@pytest.fixture(scope="module")
def raw() -> ox.Store:
    store = OxigraphStore(None)
    load_seeds(store)
    return store._ox  # the engine itself: the rewrite is compared with Oxigraph's own substitution


def _rows(raw: ox.Store, text: str, **kw) -> list[str]:
    return sorted(str(list(r)) for r in raw.query(text, **kw))


@pytest.mark.parametrize(
    "text",
    [
        f"SELECT ?org ?label WHERE {{ ?org {LABEL} ?label }}",
        f"SELECT * {{ ?org {LABEL} ?label }}",
        "SELECT DISTINCT ?org (COUNT(?t) AS ?n) WHERE { ?org a ?t } GROUP BY ?org",
        f"SELECT ?org ?l WHERE {{ OPTIONAL {{ ?org {LABEL} ?l }} }} ORDER BY ?l",
        # a literal and an IRI that look like the variable are left alone
        f'SELECT ?org WHERE {{ ?org {LABEL} ?l FILTER (?l != "?org") }}',
    ],
)
def test_the_block_gives_the_substitutions_rows(raw, text):
    rewritten = with_values(text, {"org": NVIDIA})
    assert rewritten is not None and "VALUES (?org)" in rewritten
    expected = _rows(raw, text, substitutions={ox.Variable("org"): NVIDIA})
    assert expected and _rows(raw, rewritten) == expected


def test_a_literal_value_is_written_in_its_escaped_form(raw):
    text = f"SELECT ?s ?l WHERE {{ ?s {LABEL} ?l }}"
    value = ox.Literal("NVIDIA", language="en")
    rewritten = with_values(text, {"l": value})
    assert rewritten is not None
    assert _rows(raw, rewritten) == _rows(raw, text, substitutions={ox.Variable("l"): value})
    tricky = with_values(text, {"l": ox.Literal('a "quoted" }\nvalue')})
    assert tricky is not None and _rows(raw, tricky) == []  # it parses: the value stays one literal


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("ASK { ?org a ?t }", "not a SELECT"),
        ("SELECT ?label WHERE { ?org <urn:p> ?label }", "the bound variable is not projected"),
        ("SELECT ?org WHERE { { SELECT ?org WHERE { ?org a ?t } } }", "a subquery has its own scope"),
        ("SELECT ?org WHERE { ?x a ?t BIND (?x AS ?org) }", "BIND binds it"),
        ("SELECT ?org WHERE { ?org a ?t } VALUES ?t { <urn:c> }", "a trailing VALUES clause"),
        ("SELECT (?x AS ?org) WHERE { ?x a ?t }", "a projection expression binds it"),
    ],
)
def test_no_rewrite_where_the_meaning_could_differ(text, why):
    assert with_values(text, {"org": NVIDIA}) is None, why


def test_a_blank_node_value_keeps_the_substitution():
    assert with_values("SELECT * WHERE { ?org a ?t }", {"org": ox.BlankNode()}) is None


def test_the_store_binds_through_the_block_with_the_same_rows():
    store = OxigraphStore(None)
    load_seeds(store)
    text = f"SELECT ?org ?label WHERE {{ ?org {LABEL} ?label }}"
    rows = store.query(text, bindings={"org": NVIDIA}).rows
    assert rows and {r[0] for r in rows} == {NVIDIA}
