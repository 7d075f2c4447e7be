"""Binding a variable, the one way (aikg.rdf.substitute): the value written into the text as a constant,
with the meaning of Oxigraph's own substitution (SEP-0007), on both backends."""

from __future__ import annotations

import pyoxigraph as ox
import pytest

from aikg.errors import BadRequest
from aikg.query.named import bind_parameters, load_queries
from aikg.rdf.substitute import substitute

ID = "https://w3id.org/aikg/id/"
NVIDIA = ox.NamedNode(ID + "nvidia")
AIKG = "https://w3id.org/aikg/ontology#"
LABEL = "<http://www.w3.org/2000/01/rdf-schema#label>"


def _rows(result) -> list[str]:
    return sorted(str(list(r)) for r in result)


@pytest.mark.parametrize(
    "text",
    [
        f"SELECT ?org ?label WHERE {{ ?org {LABEL} ?label }}",
        f"SELECT * {{ ?org {LABEL} ?label }}",
        "SELECT DISTINCT ?org (COUNT(?t) AS ?n) WHERE { ?org a ?t } GROUP BY ?org",
        f"SELECT ?org ?l WHERE {{ OPTIONAL {{ ?org {LABEL} ?l }} }} ORDER BY ?l",
        f"SELECT ?org ?l WHERE {{ {{ SELECT ?org ?l WHERE {{ ?org {LABEL} ?l }} }} }}",
        f"SELECT ?org ?t WHERE {{ ?org a ?t }} VALUES ?t {{ <{ID}x> <{AIKG}HardwareVendor> }}",
        # a literal and an IRI that look like the variable are left alone
        f'SELECT ?org WHERE {{ ?org {LABEL} ?l FILTER (?l != "?org") }}',
    ],
)
def test_a_bound_query_answers_the_engines_substitution_rows(seeded_store, text):
    expected = _rows(seeded_store._ox.query(text, substitutions={ox.Variable("org"): NVIDIA}))
    assert expected
    assert _rows(seeded_store.query(text, bindings={"org": NVIDIA}).rows) == expected
    written = substitute(text, {"org": NVIDIA})
    assert "?org" not in written.replace("AS ?org)", "").replace(
        '"?org"', ""
    )  # a constant everywhere, named only as a column


def test_one_text_bound_in_turn_to_other_values_answers_each_values_rows(seeded_store):
    """Where a text is rewritten is read once per text and bound names (kept), the values are written
    in per call: a text bound to one value, then to another, answers the engine's rows for each, its
    VALUES block's rows included."""
    text = f"SELECT ?org ?t WHERE {{ ?org a ?t }} VALUES ?t {{ <{ID}x> <{AIKG}HardwareVendor> }}"
    seen = []
    for org, t in [
        (NVIDIA, ox.NamedNode(AIKG + "HardwareVendor")),
        (ox.NamedNode(ID + "groq"), ox.NamedNode(AIKG + "HardwareVendor")),
        (NVIDIA, ox.NamedNode(ID + "x")),
    ]:
        bindings = {"org": org, "t": t}
        expected = _rows(
            seeded_store._ox.query(text, substitutions={ox.Variable(k): v for k, v in bindings.items()})
        )
        assert _rows(seeded_store.query(text, bindings=bindings).rows) == expected
        seen.append(expected)
    assert seen[0] and seen[1] and seen[0] != seen[1] and seen[2] == []


def test_a_literal_value_is_written_in_its_escaped_form(seeded_store):
    text = f"SELECT ?s ?l WHERE {{ ?s {LABEL} ?l }}"
    value = ox.Literal("NVIDIA", language="en")
    ours = seeded_store.query(text, bindings={"l": value}).rows
    assert ours and _rows(ours) == _rows(
        seeded_store._ox.query(text, substitutions={ox.Variable("l"): value})
    )
    tricky = ox.Literal('a "quoted" }\nvalue')
    assert seeded_store.query(text, bindings={"l": tricky}).rows == []  # it parses: one literal


def test_a_variable_the_projection_leaves_out_is_bound_too(seeded_store):
    """Oxigraph's own substitution refuses it (SEP-0007 binds projected variables); a constant in the
    text needs no projection, as on the remote backend."""
    rows = seeded_store.query(f"SELECT ?label WHERE {{ ?org {LABEL} ?label }}", bindings={"org": NVIDIA}).rows
    assert {str(r[0]) for r in rows} >= {'"NVIDIA"@en'}


def test_a_blank_node_cannot_be_bound():
    with pytest.raises(BadRequest, match="blank node"):
        substitute("SELECT * WHERE { ?org a ?t }", {"org": ox.BlankNode()})


def test_every_named_query_bound_as_the_api_binds_it_answers_the_engines_rows(seeded_store):
    """Each named query with the values of its parameters (defaults, and NVIDIA/CoreWeave/H100 for an
    entity): the text with the values written in gives the rows of the engine's substitution."""
    values = {"org": "coreweave", "entity": "nvidia", "company": "openai", "accelerator": "h100"}
    values |= {"vendor": "nvidia", "from": "2024-01-01", "to": "2026-12-31", "date": "2026-03-06"}
    checked = 0
    for q in load_queries().values():
        if not q.parameters:
            continue
        raw = {p.name: values[p.name] for p in q.parameters if p.name in values}
        bound = bind_parameters(q, raw)
        theirs = seeded_store._ox.query(
            q.text,
            substitutions={ox.Variable(k): v for k, v in bound.items()},
            use_default_graph_as_union=False,
        )
        assert _rows(seeded_store.query(q.text, bindings=bound).rows) == _rows(theirs), q.name
        checked += 1
    assert checked >= 8
