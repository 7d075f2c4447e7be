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

from collections.abc import Sequence
from pathlib import Path

import pyoxigraph as ox
from rdflib import Graph, Literal, URIRef
from rdflib.namespace import RDF, RDFS

from aikg.namespaces import AIKG, DERIVED_GRAPH, ID, INFERRED_GRAPH
from aikg.query.named import parse_query_file
from aikg.resources import data_root, rules_dir
from aikg.store import OxigraphStore, Store

GENERATED_GRAPHS = (str(DERIVED_GRAPH), str(INFERRED_GRAPH))
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
        rel = path.resolve().relative_to(data_root().resolve()).as_posix()
    except ValueError:
        rel = path.name
    g.add((iri, AIKG.ruleFile, Literal(rel)))
    return g


def _construct(store: Store, files: Sequence[Path], sources: Sequence[str], *,
               bind_rule: bool) -> Graph:
    out = Graph()
    for path in files:
        bindings = {"rule": rule_iri(path)} if bind_rule else None
        result = store.query(path.read_text(encoding="utf-8"), bindings=bindings,
                             default_graphs=list(sources))
        for triple in result.triples:
            out.add(triple)
    return out


def _replace(store: Store, graph: str, data: Graph) -> int:
    if not len(data):
        store.drop_graph(graph)
        return 0
    return store.load(data.serialize(format="nt", encoding="utf-8"),
                      mime="application/n-triples", graph=graph, replace=True)


def _embedded(store: Store) -> bool:
    """True for the embedded Oxigraph store, also behind a wrapper (the gate's fork-safe proxy)."""
    return isinstance(getattr(store, "raw", None), ox.Store)


def _construct_ox(store: OxigraphStore, files: Sequence[Path], sources: Sequence[str], *,
                  bind_rule: bool) -> set[ox.Triple]:
    # On the embedded store the triples stay Oxigraph terms: converting hundreds of thousands of them
    # to rdflib and back cost ten times more than the rules themselves.
    graphs = [ox.NamedNode(g) for g in sources]
    out: set[ox.Triple] = set()
    for path in files:
        subs = {ox.Variable("rule"): ox.NamedNode(str(rule_iri(path)))} if bind_rule else None
        dataset = {"default_graph": graphs} if graphs else {"use_default_graph_as_union": True}
        out.update(store.raw.query(path.read_text(encoding="utf-8"), substitutions=subs, **dataset))
    return out


_BULK_FIRST_BUILD = 50_000
"""A first build at least this large goes through Oxigraph's bulk loader instead of one update."""


def _replace_ox(store: OxigraphStore, graph: str, triples: set[ox.Triple]) -> int:
    # Only the difference is written: a small write changes a handful of derived triples, and
    # rewriting a whole generated graph (hundreds of thousands of triples at 1M) made every write slow.
    g = ox.NamedNode(graph)
    old = {q.triple for q in store.raw.quads_for_pattern(None, None, None, g)}
    remove, add = old - triples, triples - old
    if not remove and not add:
        return len(triples)
    if not old and len(add) >= _BULK_FIRST_BUILD:
        # A first build (a load): nothing is there to keep consistent, so the fast loader.
        store.raw.bulk_extend(ox.Quad(t.subject, t.predicate, t.object, g) for t in add)
        store.update(f"DROP SILENT GRAPH <{GENERATED_MARKER}>")  # bumps the store's version
        return len(triples)
    if any(isinstance(t.subject, ox.BlankNode) or isinstance(t.object, ox.BlankNode)
           for t in remove | add):
        # DELETE DATA cannot name blank nodes: rewrite the whole graph in one update instead.
        return store.load(ox.serialize(triples, format=ox.RdfFormat.N_TRIPLES),
                          mime="application/n-triples", graph=graph, replace=True)
    parts = []
    if remove:
        parts.append("DELETE DATA { GRAPH " + str(g) + " {\n" + _triples_text(remove) + "\n} }")
    if add:
        parts.append("INSERT DATA { GRAPH " + str(g) + " {\n" + _triples_text(add) + "\n} }")
    store.update(" ;\n".join(parts))
    return len(triples)


GENERATED_MARKER = "urn:aikg:none"
"""A graph that never exists: dropping it is a no-op update that still marks the store as changed."""


def _triples_text(triples: set[ox.Triple]) -> str:
    return "\n".join(f"{t.subject} {t.predicate} {t.object} ." for t in triples)


def infer(store: Store, sources: Sequence[str]) -> int:
    """Materialize the subclass / subproperty closure of ``sources`` into the inferred graph."""
    if _embedded(store):
        return _replace_ox(store, str(INFERRED_GRAPH),
                           _construct_ox(store, inference_files(), sources, bind_rule=False))
    return _replace(store, str(INFERRED_GRAPH),
                    _construct(store, inference_files(), sources, bind_rule=False))


def rebuild_derived(store: Store) -> dict[str, int]:
    """Recompute the inferred and derived graphs from every other graph, from scratch."""
    base = [g for g in store.graphs() if g not in GENERATED_GRAPHS]
    if not base:
        for g in GENERATED_GRAPHS:
            store.drop_graph(g)
        return {g: 0 for g in GENERATED_GRAPHS}
    if _embedded(store) and len(base) == len(store.graphs()):
        return _first_build(store)
    infer(store, base)
    if _embedded(store):
        fast = _construct_ox(store, rule_files(), [*base, str(INFERRED_GRAPH)], bind_rule=True)
        fast |= _rule_descriptions()
        n_derived = _replace_ox(store, str(DERIVED_GRAPH), fast)
    else:
        derived = _construct(store, rule_files(), [*base, str(INFERRED_GRAPH)], bind_rule=True)
        for path in rule_files():
            derived += describe_rule(path)
        n_derived = _replace(store, str(DERIVED_GRAPH), derived)
    # The derived nodes' own types need their superclasses too, so close over them as well.
    n_inferred = infer(store, [*base, str(DERIVED_GRAPH)])
    return {str(DERIVED_GRAPH): n_derived, str(INFERRED_GRAPH): n_inferred}


def _rule_descriptions() -> set[ox.Triple]:
    out: set[ox.Triple] = set()
    for path in rule_files():
        nt = describe_rule(path).serialize(format="nt", encoding="utf-8")
        out.update(q.triple for q in ox.parse(nt, format=ox.RdfFormat.N_TRIPLES))
    return out


def _first_build(store: OxigraphStore) -> dict[str, int]:
    """The generated graphs of a store that has none yet (a load), over the union default graph.

    Naming a few hundred source graphs as the default graph made Oxigraph 10–400× slower per rule than
    its union default graph (seconds against minutes at a million triples). While no generated graph
    exists the union *is* the base data, so the rules can use it: the closure first, then the derivation
    rules (which read the closure), then the closure of the derivation nodes alone, computed on a scratch
    store (their subjects are their own, so their closure does not depend on anything else).
    """
    inferred = _construct_ox(store, inference_files(), [], bind_rule=False)
    _replace_ox(store, str(INFERRED_GRAPH), inferred)
    derived = _construct_ox(store, rule_files(), [], bind_rule=True) | _rule_descriptions()
    n_derived = _replace_ox(store, str(DERIVED_GRAPH), derived)
    hierarchy = [q for p in (RDFS.subClassOf, RDFS.subPropertyOf)
                 for q in store.raw.quads_for_pattern(None, ox.NamedNode(str(p)), None, None)
                 if not isinstance(q.graph_name, ox.DefaultGraph)]
    derived_graph, inferred_graph = ox.NamedNode(str(DERIVED_GRAPH)), ox.NamedNode(str(INFERRED_GRAPH))
    scratch = ox.Store()
    scratch.extend(hierarchy)
    scratch.extend(ox.Quad(t.subject, t.predicate, t.object, derived_graph) for t in derived)
    nodes = {t.subject for t in derived}
    closure: set[ox.Triple] = set()
    for path in inference_files():
        answer = scratch.query(path.read_text(encoding="utf-8"), use_default_graph_as_union=True)
        closure.update(t for t in answer if t.subject in nodes)
    closure -= inferred
    if len(closure) >= _BULK_FIRST_BUILD:
        store.raw.bulk_extend(ox.Quad(t.subject, t.predicate, t.object, inferred_graph) for t in closure)
        store.update(f"DROP SILENT GRAPH <{GENERATED_MARKER}>")  # bumps the store's version
    elif closure:
        store.update(f"INSERT DATA {{ GRAPH {inferred_graph} {{\n{_triples_text(closure)}\n}} }}")
    return {str(DERIVED_GRAPH): n_derived, str(INFERRED_GRAPH): len(inferred) + len(closure)}
