"""A lone DELETE/INSERT … WHERE is matched on the store, not on a staging copy (aikg.write.matched): its
change must be the one running the update on a copy gives, for every form of the operation."""

from __future__ import annotations

import pyoxigraph as ox
import pytest

from aikg.namespaces import BASE, DEFAULT_GRAPH
from aikg.rdf import operations
from aikg.store import OxigraphStore
from aikg.write import matched, namespace, staging

G1 = "https://w3id.org/aikg/graph/sources/m1"
G2 = "https://w3id.org/aikg/graph/sources/m2"
P = "PREFIX ex: <http://example.org/> PREFIX rdfs: <http://www.w3.org/2000/01/rdf-schema#> "

DATA = f"""
@prefix ex: <http://example.org/> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
<{G1}> {{
  ex:a ex:p ex:b ; rdfs:label "A"@en ; ex:n 1 .
  ex:b ex:p ex:c ; ex:figure [ ex:value 7 ; ex:unit "GW" ] .
  ex:c rdfs:label "C" .
}}
<{G2}> {{
  ex:a ex:p ex:c ; ex:q ex:d .
  ex:d rdfs:label "D"@en ; ex:n 2 .
}}
<{DEFAULT_GRAPH}> {{ ex:z ex:p ex:a . }}
"""

CHANGING = [
    # the union, the default graph's template, and a named graph's
    "INSERT { ?s ex:seen true } WHERE { ?s ex:p ?o }",
    f"INSERT {{ GRAPH <{G2}> {{ ?o ex:back ?s }} }} WHERE {{ ?s ex:p ?o }}",
    f"DELETE {{ GRAPH <{G1}> {{ ?s ex:p ?o }} }} WHERE {{ ?s ex:p ?o }}",
    # WITH, USING, USING NAMED, GRAPH ?g
    f"WITH <{G2}> DELETE {{ ?s ex:n ?n }} INSERT {{ ?s ex:n ?m }} WHERE {{ ?s ex:n ?n BIND(?n + 10 AS ?m) }}",
    f"WITH <{G2}> INSERT {{ ?s ex:copied ?o }} WHERE {{ GRAPH ?g {{ ?s rdfs:label ?o }} }}",
    f"INSERT {{ GRAPH <{G2}> {{ ?s ex:from1 ?o }} }} USING <{G1}> WHERE {{ ?s ex:p ?o }}",
    f"INSERT {{ GRAPH <{G2}> {{ ?s ex:named ?g }} }} USING NAMED <{G1}> "
    "WHERE { GRAPH ?g { ?s ex:p ?o } }",
    "INSERT { GRAPH ?g { ?s ex:in ?g } } WHERE { GRAPH ?g { ?s ex:p ?o } }",
    f"INSERT {{ GRAPH <{G2}> {{ ?s ex:also ?g }} }} USING <{G1}> USING NAMED <{G2}> "
    "WHERE { ?s ex:p ?o GRAPH ?g { ?s ?p ?x } }",
    # blank nodes: the store's kept, a template's fresh per solution
    f"INSERT {{ GRAPH <{G2}> {{ ?f ex:checked true }} }} WHERE {{ ?s ex:figure ?f }}",
    f"INSERT {{ GRAPH <{G2}> {{ ?s ex:note [ ex:about ?o ] }} }} WHERE {{ ?s ex:p ?o }}",
    # unbound template triples are left out, the bound ones kept
    f"INSERT {{ GRAPH <{G2}> {{ ?s ex:label ?l }} }} WHERE {{ ?s ex:p ?o OPTIONAL {{ ?s rdfs:label ?l }} }}",
    # DELETE WHERE, a constant pattern
    f"DELETE WHERE {{ GRAPH <{G2}> {{ ?s ex:q ?o }} }}",
    "INSERT { ex:k ex:v ex:w } WHERE { ex:a ex:p ex:b }",
    # literals of every kind pass through the solutions unchanged
    f"INSERT {{ GRAPH <{G2}> {{ ex:lit ex:v ?x }} }} WHERE {{ VALUES ?x "
    '{ "a\\nb\\"c" "x"@en-GB 1.5 "2024-01-01"^^<http://www.w3.org/2001/XMLSchema#date> } }',
]

NO_CHANGE = [
    # deleted and inserted again; inserted where it already is
    f"DELETE {{ GRAPH <{G1}> {{ ?s ?p ?o }} }} INSERT {{ GRAPH <{G1}> {{ ?s ?p ?o }} }} "
    f"WHERE {{ GRAPH <{G1}> {{ ?s ?p ?o }} }}",
    f"INSERT {{ GRAPH <{G2}> {{ ?s ex:q ?o }} }} WHERE {{ GRAPH <{G2}> {{ ?s ex:q ?o }} }}",
    # a dataset of named graphs only: the pattern's default graph is empty
    f"INSERT {{ GRAPH <{G2}> {{ ?s ex:nothing ?o }} }} USING NAMED <{G1}> WHERE {{ ?s ex:p ?o }}",
    # USING without USING NAMED: no named graph for GRAPH ?g to reach
    f"INSERT {{ GRAPH <{G2}> {{ ?s ex:none ?g }} }} USING <{G1}> WHERE {{ GRAPH ?g {{ ?s ?p ?o }} }}",
    # ill-formed triples (a literal subject, a blank-node predicate) are no triples
    f"INSERT {{ GRAPH <{G2}> {{ ?v ex:odd ?s }} }} WHERE {{ ?s ex:figure ?f . ?f ex:value ?v }}",
    f"INSERT {{ GRAPH <{G2}> {{ ?s ?f ?o }} }} WHERE {{ ?s ex:figure ?f . ?f ex:unit ?o }}",
    f"INSERT {{ GRAPH <{G2}> {{ ?l ex:of ?s }} }} WHERE {{ ?s rdfs:label ?l }}",
    # no solution
    "INSERT { ex:k ex:v ex:w } WHERE { ex:nobody ex:p ?x }",
]


@pytest.fixture()
def store() -> OxigraphStore:
    s = OxigraphStore(None)
    s.load(DATA.encode(), mime="application/trig")
    return s


def both(store: OxigraphStore, text: str, **protocol: list[str]) -> tuple[tuple, tuple]:
    known = store.graphs()
    plan = operations.read_update(P + text, base=BASE, default=str(DEFAULT_GRAPH))
    using, named = protocol.get("using", []), protocol.get("using_named", [])
    matching = plan.matching(known, using=using, using_named=named)
    assert matching is not None
    graphs = plan.graphs_to_stage(known, [*using, *named], namespace.client_graphs)
    removed, added, _ = staging.stage_update(
        store, steps=plan.steps(using=using, using_named=named), graphs=graphs, default=plan.default
    )
    return _shape(store, matched.matched_change(store, matching=matching)), _shape(store, (removed, added))


def _shape(store: OxigraphStore, change: tuple[set[ox.Quad], set[ox.Quad]]) -> tuple:
    """A change with the blank nodes it makes up (not in the store) written alike, so two runs compare."""
    held = {t for q in store.quads() for t in (q.subject, q.object) if isinstance(t, ox.BlankNode)}

    def term(t: object) -> str:
        return "_:new" if isinstance(t, ox.BlankNode) and t not in held else str(t)

    return tuple(tuple(sorted(" ".join(term(t) for t in q) for q in part)) for part in change)


@pytest.mark.parametrize("text", CHANGING + NO_CHANGE)
def test_matching_on_the_store_changes_what_staging_a_copy_changes(store, text):
    found, expected = both(store, text)
    assert found == expected
    assert (found == ((), ())) == (text in NO_CHANGE)


def test_the_protocols_dataset_is_the_patterns(store):
    found, expected = both(
        store, f"INSERT {{ GRAPH <{G2}> {{ ?s ex:x ?o }} }} WHERE {{ ?s ex:p ?o }}", using=[G2]
    )
    assert found == expected
    assert found[0] == ()
    assert list(found[1]) == [f"<http://example.org/a> <http://example.org/x> <http://example.org/c> <{G2}>"]


def test_a_template_that_does_not_parse_is_staged_so_its_error_names_the_text(store):
    plan = operations.read_update(
        P + "INSERT { ?s ex:p } WHERE { ?s ex:p ?o }", base=BASE, default=str(DEFAULT_GRAPH)
    )
    matching = plan.matching(store.graphs())
    assert matching is not None
    with pytest.raises(matched.Unmatched):
        matched.matched_change(store, matching=matching)


def test_several_operations_are_staged(store):
    text = (
        P
        + f"DELETE WHERE {{ GRAPH <{G2}> {{ ?s ex:q ?o }} }} ; "
        + f"INSERT {{ GRAPH <{G2}> {{ ?s ex:r 1 }} }} WHERE {{ ?s ex:q ?o }}"
    )
    plan = operations.read_update(text, base=BASE, default=str(DEFAULT_GRAPH))
    assert plan.matching(store.graphs()) is None
