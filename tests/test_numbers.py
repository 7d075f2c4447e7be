"""Every figure is a number the engines compare, order and add up at its full range.

Oxigraph's xsd:decimal stops at ~1.7e20 and its xsd:integer at 2^63; a literal beyond is kept as written
but is no number to FILTER, MAX, SUM or ORDER BY, silently. Each numeric property of the ontology has a
datatype chosen for the magnitudes it holds (training compute, up to 5e26 FLOP, is an xsd:double), the
Epoch import writes each figure in it, and the shapes refuse a figure the engines cannot compare.
"""

from __future__ import annotations

import csv
from decimal import Decimal

import pyoxigraph as ox
import pytest
from rdflib import Graph, URIRef
from rdflib.namespace import SH, XSD

from aikg.epoch.importer import default_directory
from aikg.epoch.values import number_literal
from aikg.knowledge.figures import numeric_ranges
from aikg.knowledge.validate import load_shapes, validate_graph
from aikg.namespaces import AIKG, PREFIXES
from aikg.store import Store

SHAPE = "https://w3id.org/aikg/shapes#"
SWEEP = "https://w3id.org/aikg/graph/sources/numbers-sweep"
DOUBLE = str(XSD.double)
TTL = "".join(f"@prefix {p}: <{iri}> .\n" for p, iri in PREFIXES.items())


def test_the_numbers_shape_checks_every_numeric_property_of_the_ontology() -> None:
    targets = {
        str(t) for t in load_shapes().objects(URIRef(SHAPE + "ComparableNumberShape"), SH.targetSubjectsOf)
    }
    assert targets == set(numeric_ranges())


def test_training_compute_is_a_double_and_the_rest_fit_a_decimal() -> None:
    ranges = numeric_ranges()
    assert ranges[str(AIKG.trainingCompute)] == DOUBLE
    assert ranges[str(AIKG.h100Equivalents)] == str(XSD.decimal)
    assert ranges[str(AIKG.fp4Performance)] == str(XSD.decimal)  # a sub-property has its parent's range


RUN = (
    'id:m a aikg:AIModel ; rdfs:label "a model"@en . '
    'id:run a aikg:TrainingRun ; rdfs:label "a run"@en ; aikg:trainedModel id:m ; aikg:currency "USD" ; '
)


def _violations(figures: str) -> list[tuple[str, str | None, str]]:
    result = validate_graph(Graph().parse(data=TTL + RUN + figures + " .", format="turtle"))
    return [(v.shape.removeprefix(SHAPE), v.path, v.message) for v in result.violations]


@pytest.mark.parametrize(
    ("figure", "shape"),
    [
        ('aikg:cost "1000000000000000000000"^^xsd:decimal', "ComparableNumberShape"),  # 1e21 > decimal
        ('aikg:cost "0.0000000000000000001"^^xsd:decimal', "ComparableNumberShape"),  # 19 decimals
        ("aikg:acceleratorCount 9223372036854775808", "ComparableNumberShape"),  # 2^63
        ('aikg:trainingCompute "NaN"^^xsd:double', "ComparableNumberShape"),
        ('aikg:trainingCompute "500000000000000000000000000"^^xsd:decimal', "DatasetFigureShape"),
    ],
)
def test_a_figure_the_engines_cannot_compare_is_refused(figure: str, shape: str) -> None:
    found = _violations(figure)
    assert found, f"{figure} was accepted"
    assert shape in {s for s, _, _ in found}, found


def test_figures_at_the_edge_of_the_range_are_accepted() -> None:
    assert (
        _violations(
            'aikg:cost "99999999999999999999.5"^^xsd:decimal ; aikg:acceleratorCount 9223372036854775807 ; '
            'aikg:trainingCompute "5.0e27"^^xsd:double'
        )
        == []
    )


# -- the default store: Epoch's training compute as numbers, checked against the CSV files ----------


def _compute_in_csv() -> dict[str, Decimal]:
    """Each model's training compute as Epoch's three model files give it (they agree on every model)."""
    found: dict[str, set[Decimal]] = {}
    for name in ("notable_ai_models.csv", "large_scale_ai_models.csv", "frontier_ai_models.csv"):
        with open(default_directory() / "ai_models" / name, newline="", encoding="utf-8") as f:
            for row in csv.DictReader(f):
                cell = row["Training compute (FLOP)"].strip()
                if cell:
                    found.setdefault(row["Model"].strip(), set()).add(Decimal(cell))
    assert all(len(v) == 1 for v in found.values()), "the files disagree: the expected values need a rule"
    return {k: next(iter(v)) for k, v in found.items()}


COMPUTE = """
PREFIX aikg: <https://w3id.org/aikg/ontology#>
SELECT (COUNT(DISTINCT ?run) AS ?runs) (MAX(?flop) AS ?max) (SUM(?flop) AS ?sum) WHERE {
  { SELECT DISTINCT ?run ?flop WHERE { ?run aikg:trainingCompute ?flop } }
}"""


def test_training_compute_filters_orders_and_adds_up_as_epoch_gives_it(epoch_store: Store) -> None:
    csv_values = _compute_in_csv()
    [(runs, top, total)] = epoch_store.query(COMPUTE).rows
    assert int(runs.value) == len(csv_values) == 708
    assert float(top.value) == float(max(csv_values.values())) == 5.0000000000001e26  # Grok 4
    assert float(total.value) == pytest.approx(float(sum(csv_values.values())), rel=1e-12)
    over = epoch_store.query(
        "PREFIX aikg: <https://w3id.org/aikg/ontology#> SELECT DISTINCT ?run WHERE "
        "{ ?run aikg:trainingCompute ?flop FILTER (?flop > 1e25) }"
    ).rows
    assert len(over) == sum(1 for v in csv_values.values() if v > Decimal("1e25")) == 21
    first = epoch_store.query(
        "PREFIX aikg: <https://w3id.org/aikg/ontology#> SELECT DISTINCT ?run ?flop WHERE "
        "{ ?run aikg:trainingCompute ?flop } ORDER BY DESC(?flop) ?run LIMIT 3"
    ).rows
    assert [float(r[1].value) for r in first] == [float(v) for v in sorted(csv_values.values())[-1:-4:-1]]
    assert first[0][0].value.endswith("/training-run-grok-4")


# -- every numeric property, at the largest magnitude the sources hold and ten times more -----------


def _largest(store: Store) -> dict[str, Decimal]:
    """Each numeric property's largest magnitude in the store, read from the lexical forms (1 if none)."""
    out = {}
    for prop in numeric_ranges():
        values = [abs(Decimal(q.object.value)) for q in store.quads(predicate=ox.NamedNode(prop))]
        out[prop] = max(values, default=Decimal(1)) or Decimal(1)
    return out


def _sweep_quads(largest: dict[str, Decimal]) -> list[ox.Quad]:
    """Per property three nodes: 0, the largest value and ten times it, in the property's datatype."""
    quads = []
    for prop, top in largest.items():
        datatype = numeric_ranges()[prop]
        local = prop.rsplit("#", 1)[-1]
        for n, value in (("zero", Decimal(0)), ("top", top), ("ten", top * 10)):
            lit = number_literal(
                value if datatype != str(XSD.integer) else value.to_integral_value(), datatype
            )
            quads.append(
                ox.Quad(
                    ox.NamedNode(f"https://w3id.org/aikg/id/sweep-{local}-{n}"),
                    ox.NamedNode(prop),
                    ox.Literal(str(lit), datatype=ox.NamedNode(datatype)),
                    ox.NamedNode(SWEEP),
                )
            )
    return quads


def _same(engine_value: str, expected: Decimal, datatype: str) -> bool:
    """Equal as numbers; a double to six significant digits (Virtuoso 7.2 writes no more of one:
    openlink/virtuoso-opensource#1006, fixed in 7.2.12)."""
    got = Decimal(engine_value)
    if datatype == DOUBLE:
        return abs(got - expected) <= abs(expected) * Decimal("1e-5")
    return got == expected


@pytest.fixture(scope="module")
def largest(epoch_store: Store) -> dict[str, Decimal]:
    return _largest(epoch_store)


def test_every_numeric_property_filters_orders_and_adds_up_at_its_largest(backend_store, largest) -> None:
    store = backend_store
    store.apply(add=_sweep_quads(largest))
    try:
        sums = store.query(
            f"SELECT ?p (MAX(?v) AS ?max) (SUM(?v) AS ?sum) (COUNT(?v) AS ?n) "
            f"WHERE {{ GRAPH <{SWEEP}> {{ ?s ?p ?v }} }} GROUP BY ?p"
        ).rows
        halves = " ".join(f'(<{p}> "{float(top) / 2!r}"^^<{DOUBLE}>)' for p, top in largest.items())
        over = store.query(
            f"SELECT ?p (COUNT(?v) AS ?n) WHERE {{ VALUES (?p ?half) {{ {halves} }} "
            f"GRAPH <{SWEEP}> {{ ?s ?p ?v }} FILTER (?v > ?half) }} GROUP BY ?p"
        ).rows
        ordered = store.query(
            f"SELECT ?p ?s WHERE {{ GRAPH <{SWEEP}> {{ ?s ?p ?v }} }} ORDER BY ?p DESC(?v)"
        ).rows
    finally:
        store.drop_graph(SWEEP)
    wrong = []
    by_prop = {p.value: (mx, sm, n) for p, mx, sm, n in sums}
    for prop, top in largest.items():
        datatype = numeric_ranges()[prop]
        got = by_prop.get(prop)
        if got is None or got[0] is None or got[1] is None or got[2].value != "3":
            wrong.append((prop, "MAX/SUM", got))
            continue
        if not _same(got[0].value, top * 10, datatype) or not _same(got[1].value, top * 11, datatype):
            wrong.append((prop, "MAX/SUM", got[0].value, got[1].value, top))
    counts = {p.value: int(n.value) for p, n in over}
    wrong += [(p, "FILTER", counts.get(p)) for p in largest if counts.get(p) != 2]
    order: dict[str, list[str]] = {}
    for p, s in ordered:
        order.setdefault(p.value, []).append(s.value.rsplit("-", 1)[-1])
    wrong += [(p, "ORDER BY", order.get(p)) for p in largest if order.get(p) != ["ten", "top", "zero"]]
    assert wrong == [], wrong


# -- disagreements on a figure beyond the decimal range are listed ----------------------------------

TWO_SOURCES = """
@prefix aikg: <https://w3id.org/aikg/ontology#> .
@prefix id: <https://w3id.org/aikg/id/> .
@prefix dcterms: <http://purl.org/dc/terms/> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
@prefix xsd: <http://www.w3.org/2001/XMLSchema#> .
GRAPH <https://w3id.org/aikg/graph/sources/compute-a> {
  id:doc-compute-a a aikg:SourceDocument ; dcterms:title "Report A" ;
      aikg:namedGraph <https://w3id.org/aikg/graph/sources/compute-a> ; aikg:defaultCertainty aikg:Reported .
  id:training-run-big a aikg:TrainingRun ; rdfs:label "a big run"@en ;
      aikg:trainingCompute "3.41e23"^^xsd:double .
  id:training-run-near a aikg:TrainingRun ; rdfs:label "a run given twice"@en ;
      aikg:trainingCompute "3.41e23"^^xsd:double .
}
GRAPH <https://w3id.org/aikg/graph/sources/compute-b> {
  id:doc-compute-b a aikg:SourceDocument ; dcterms:title "Report B" ;
      aikg:namedGraph <https://w3id.org/aikg/graph/sources/compute-b> ; aikg:defaultCertainty aikg:Reported .
  id:training-run-big aikg:trainingCompute "6.49439910290227e20"^^xsd:double .
  id:training-run-near aikg:trainingCompute "3.4078e23"^^xsd:double .
}
"""


def test_a_training_compute_disagreement_is_listed_on_both_backends(backend_store) -> None:
    from helpers import rdf_dicts, run_named

    store = backend_store
    store.load(TWO_SOURCES.encode(), mime="application/trig")
    try:
        rows = rdf_dicts(run_named(store, "source-disagreements", {}, {"query_timeout": 60}))
    finally:
        for g in ("compute-a", "compute-b"):
            store.drop_graph(f"https://w3id.org/aikg/graph/sources/{g}")
    compute = {
        (
            str(r["entity"]).rsplit("/", 1)[-1],
            float(str(r["value1"])),
            float(str(r["value2"])),
            str(r["difference"]),
        )
        for r in rows
        if str(r["figure"]) == "training compute (FLOP)"
    }
    # 6.49e20 vs 3.41e23 disagree; 3.4078e23 is 3.41e23 to its last digit (1e21): rounding.
    assert {(e, round(a / 1e18), round(b / 1e18), d) for e, a, b, d in compute} == {
        ("training-run-big", 649, 341000, "disagreement"),
        ("training-run-near", 340780, 341000, "rounding"),
    }
