"""Derived facts and subclass-aware answers, computed by rules, never typed in by hand.

Two kinds of rule, both SPARQL CONSTRUCT files with a comment header (``# title:``, ``# description:``):

- ``ontology/rules/*.rq`` compute derived values (GPU-hours, costs, ratios) into ``graph/derived``. Each
  value is an ``aikg:Derivation`` node naming the rule (``aikg:rule``), the input nodes
  (``prov:wasDerivedFrom``) and the properties read (``aikg:usedProperty``). The rule's IRI is bound to
  ``?rule`` when it runs, and the rule itself is described in the same graph (title, description, file).
- ``ontology/rules/inference/*.rq`` materialize the rdf:type closure over rdfs:subClassOf and the
  closure over rdfs:subPropertyOf (aikg terms) into ``graph/inferred``, so a plain SPARQL client asking
  for ``?x a aikg:Organization`` finds neoclouds, and ``?d aikg:party ?o`` finds investors.

Both graphs are rebuilt from scratch here after a load or an import; a write through the SHACL gate
changes them only around the nodes it touches (:mod:`aikg.knowledge.incremental`). Either way a changed
input changes the value derived from it, and a removed fact takes its consequences with it.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from pathlib import Path

import pyoxigraph as ox
from rdflib import Graph, Literal, URIRef
from rdflib.namespace import RDF, RDFS

from aikg.knowledge import answers
from aikg.namespaces import AIKG, ANSWERS_GRAPH, DERIVED_GRAPH, ID, INFERRED_GRAPH, graphs_with, node
from aikg.query.named import parse_query_file
from aikg.resources import data_root, rules_dir
from aikg.store import Store

GENERATED_GRAPHS = tuple(sorted(graphs_with("generated")))
"""Graphs computed from the others; never inputs to their own rebuild."""


def rule_files() -> list[Path]:
    """The derivation rules, in a stable order."""
    return sorted(rules_dir().glob("*.rq"))


def inference_files() -> list[Path]:
    """The RDFS closure rules (subclass and subproperty), in a stable order."""
    return sorted((rules_dir() / "inference").glob("*.rq"))


def rule_iri(path: Path) -> URIRef:
    """The IRI naming a derivation rule in the derived graph: ``id:rule-<file stem>``."""
    return URIRef(ID["rule-" + path.stem])


def describe_rule(path: Path) -> Graph:
    """The rule as a node: its label and comment from the file header, and where the file is."""
    g = Graph()
    iri = rule_iri(path)
    header = parse_query_file(path)
    title, description = header.title, header.description
    g.add((iri, RDF.type, AIKG.Rule))
    g.add((iri, RDFS.label, Literal(title, lang="en")))
    if description:
        g.add((iri, RDFS.comment, Literal(description, lang="en")))
    try:
        rel = path.relative_to(data_root()).as_posix()
    except ValueError:
        rel = path.name
    g.add((iri, AIKG.ruleFile, Literal(rel)))
    return g


def _construct(
    store: Store, files: Sequence[Path], sources: Sequence[str], *, bind_rule: bool
) -> set[ox.Triple]:
    """The triples the rule files construct over ``sources`` (over the union default graph when empty).

    Naming a few hundred source graphs as the default graph made Oxigraph 10–400× slower per rule than
    its union default graph, so an empty ``sources`` (nothing generated yet: the union *is* the base
    data) uses the union.
    """
    out: set[ox.Triple] = set()
    for path in files:
        bindings = {"rule": node(rule_iri(path))} if bind_rule else None
        result = store.query(
            path.read_text(encoding="utf-8"),
            bindings=bindings,
            default_graphs=list(sources) if sources else None,
        )
        out.update(result.triples)
    return out


def infer(store: Store, sources: Sequence[str]) -> int:
    """Materialize the subclass / subproperty closure of ``sources`` into the inferred graph."""
    return store.replace_graph(
        str(INFERRED_GRAPH), _construct(store, inference_files(), sources, bind_rule=False)
    )


def rebuild_derived(store: Store) -> dict[str, int]:
    """Recompute the inferred and derived graphs from every other graph, from scratch."""
    graphs = store.graphs()
    base = [g for g in graphs if g not in GENERATED_GRAPHS]
    if not base:
        for g in GENERATED_GRAPHS:
            store.drop_graph(g)
        return {g: 0 for g in GENERATED_GRAPHS}
    if len(base) == len(graphs):
        return _first_build(store)
    infer(store, base)
    derived = _construct(store, rule_files(), [*base, str(INFERRED_GRAPH)], bind_rule=True)
    n_derived = store.replace_graph(str(DERIVED_GRAPH), derived | described(derived))
    # The derived nodes' own types need their superclasses too, so close over them as well.
    n_inferred = infer(store, [*base, str(DERIVED_GRAPH)])
    return {str(DERIVED_GRAPH): n_derived, str(INFERRED_GRAPH): n_inferred, **_answered(store)}


def described(derived: set[ox.Triple]) -> set[ox.Triple]:
    """The rules' descriptions, when something was derived: a store where no rule derives anything
    (an empty one, written to) shows none of aikg's own triples (regression: 28 in ``SELECT *``)."""
    return set(rule_descriptions()) if derived else set()


@functools.cache
def rule_descriptions() -> frozenset[ox.Triple]:
    """Every rule as a node of the derived graph (its label, comment and file)."""
    out: set[ox.Triple] = set()
    for path in rule_files():
        nt = describe_rule(path).serialize(format="nt", encoding="utf-8")
        out.update(q.triple for q in ox.parse(nt, format=ox.RdfFormat.N_TRIPLES))
    return frozenset(out)


def _first_build(store: Store) -> dict[str, int]:
    """The generated graphs of a store that has none yet (a load), over the union default graph.

    While no generated graph exists the union is the base data, so the rules can use it: the closure
    first, then the derivation rules (which read the closure), then the closure of the derivation nodes
    alone, computed on a scratch store (their subjects are their own, so their closure does not depend
    on anything else). The closure and the rules' answers are streamed into the store
    (:meth:`~aikg.store.Store.add_constructed`), not held: as Python sets they took 7.9 GB at 10M
    statements. The derived graph is read back for the last step (a few per cent of the data).
    """
    n_inferred = store.add_constructed(
        str(INFERRED_GRAPH),
        [(p.read_text(encoding="utf-8"), None) for p in inference_files()],
        independent=True,  # types from classes, statements from properties: neither reads the other's
    )
    n_derived = store.add_constructed(
        str(DERIVED_GRAPH),
        [(p.read_text(encoding="utf-8"), {"rule": node(rule_iri(p))}) for p in rule_files()],
    )
    if not n_derived:
        return {str(DERIVED_GRAPH): 0, str(INFERRED_GRAPH): n_inferred, **_answered(store)}
    derived_graph = node(DERIVED_GRAPH)
    store.apply(add=(ox.Quad(t.subject, t.predicate, t.object, derived_graph) for t in rule_descriptions()))
    hierarchy = store.with_predicates([node(p) for p in (RDFS.subClassOf, RDFS.subPropertyOf)])
    scratch = ox.Store()
    scratch.extend(hierarchy)
    scratch.bulk_extend(
        ox.Quad(q.subject, q.predicate, q.object, derived_graph)
        for q in store.quads(graph=str(DERIVED_GRAPH))
    )
    nodes = {q.subject for q in scratch.quads_for_pattern(None, None, None, derived_graph)}
    closure: set[ox.Triple] = set()
    for path in inference_files():
        answer = scratch.query(path.read_text(encoding="utf-8"), use_default_graph_as_union=True)
        assert isinstance(answer, ox.QueryTriples)  # the inference rules are CONSTRUCT queries
        closure.update(t for t in answer if t.subject in nodes)
    inferred_graph = node(INFERRED_GRAPH)
    store.apply(add=(ox.Quad(t.subject, t.predicate, t.object, inferred_graph) for t in closure))
    return {
        str(DERIVED_GRAPH): store.count(str(DERIVED_GRAPH)),
        str(INFERRED_GRAPH): store.count(str(INFERRED_GRAPH)),
        **_answered(store),
    }


def _answered(store: Store) -> dict[str, int]:
    """The maintained answers (:mod:`aikg.knowledge.answers`), computed last: they read both graphs."""
    return {str(ANSWERS_GRAPH): answers.rebuild(store)}
