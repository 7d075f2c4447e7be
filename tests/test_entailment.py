"""The ontology stays honest under RDFS entailment: what a reasoner infers from the default store (the
seeds and Epoch AI's snapshot) breaks no shape.

pySHACL's own ``inference="rdfs"`` (owlrl over rdflib) ran for more than 10 minutes on the default store,
so the same closure is computed here with SPARQL on Oxigraph — RDFS entailment patterns rdfs2 (domain),
rdfs3 (range, for non-literal objects), rdfs7 (sub-property) and rdfs9 (sub-class), to a fixpoint — and
pySHACL validates every node the closure brings within a shape's reach (a new type a shape targets, or
a new statement of a property a shape targets): every other node is validated as the import validated
it, since which shapes apply to a node depends only on its types and its statements. The regression it
guards: aikg:division had the domain aikg:CompanyFigure, so a reasoner made the MLPerf "2x performance
per cost" claim a company figure, which the shapes then refused.
"""

from __future__ import annotations

import pyoxigraph as ox
from rdflib import URIRef
from rdflib.namespace import SH

from aikg.knowledge.validate import load_ontology, load_shapes, validate_store
from aikg.namespaces import ONTOLOGY_GRAPH
from aikg.store import OxigraphStore, Store

CLOSURE = "https://w3id.org/aikg/graph/rdfs-closure"
RDFS = "http://www.w3.org/2000/01/rdf-schema#"
RDF_TYPE = "http://www.w3.org/1999/02/22-rdf-syntax-ns#type"
RULES = (
    f"CONSTRUCT {{ ?x a ?c }} WHERE {{ ?p <{RDFS}domain> ?c . ?x ?p ?y . FILTER NOT EXISTS {{ ?x a ?c }} }}",
    f"CONSTRUCT {{ ?y a ?c }} WHERE {{ ?p <{RDFS}range> ?c . ?x ?p ?y . FILTER (!isLiteral(?y)) "
    f"FILTER NOT EXISTS {{ ?y a ?c }} }}",
    f"CONSTRUCT {{ ?x ?q ?y }} WHERE {{ ?p <{RDFS}subPropertyOf> ?q . ?x ?p ?y . "
    f"FILTER NOT EXISTS {{ ?x ?q ?y }} }}",
    f"CONSTRUCT {{ ?x a ?d }} WHERE {{ ?c <{RDFS}subClassOf> ?d . ?x a ?c . "
    f"FILTER NOT EXISTS {{ ?x a ?d }} }}",
)


def rdfs_closure(store: Store) -> set[ox.Quad]:
    """Add the RDFS closure to ``store`` (graph/rdfs-closure); the quads it added."""
    added: set[ox.Quad] = set()
    for _ in range(20):
        new = {
            ox.Quad(t.subject, t.predicate, t.object, ox.NamedNode(CLOSURE))
            for rule in RULES
            for t in store.query(rule).triples
        }
        if not new:
            return added
        store.apply(add=new)
        added |= new
    raise AssertionError("the RDFS closure did not reach a fixpoint in 20 rounds")


def nodes_the_shapes_now_reach(store: Store, added: set[ox.Quad]) -> set[str]:
    """The nodes a shape targets because of what the closure added: a new type that is (a sub-class of)
    a shape's target class, a new statement whose property a shape targets the subjects or objects of."""
    shapes = load_shapes()
    classes = {str(c) for c in shapes.objects(None, SH.targetClass)}
    reached = {
        r[0].value
        for r in store.query(
            f"SELECT DISTINCT ?c WHERE {{ VALUES ?t {{ {' '.join(f'<{c}>' for c in classes)} }} "
            f"?c <{RDFS}subClassOf>* ?t }}"
        ).rows
    } | classes
    subjects_of = {str(p) for p in shapes.objects(None, SH.targetSubjectsOf)}
    objects_of = {str(p) for p in shapes.objects(None, SH.targetObjectsOf)}
    focus = set()
    for q in added:
        if q.predicate.value == RDF_TYPE:
            if q.object.value in reached:
                focus.add(q.subject.value)
        elif q.predicate.value in subjects_of:
            focus.add(q.subject.value)
        elif q.predicate.value in objects_of and isinstance(q.object, ox.NamedNode):
            focus.add(q.object.value)
    return focus


def test_what_rdfs_entailment_infers_from_the_default_store_breaks_no_shape(epoch_store) -> None:
    scratch = OxigraphStore(None)
    scratch.load(epoch_store.dump(mime="application/n-quads"), mime="application/n-quads")
    ontology = load_ontology().serialize(format="nt", encoding="utf-8")  # the files, as they are now
    scratch.load(ontology, mime="application/n-triples", graph=str(ONTOLOGY_GRAPH), replace=True)
    added = rdfs_closure(scratch)
    assert len({q.subject for q in added}) > 1000  # prov:Activity, schema:Organization … for thousands
    claim = ox.NamedNode("https://w3id.org/aikg/id/claim-nmedialink-2x-perf-per-cost-llama-3-1-405b")
    types = {q.object.value for q in scratch.quads(claim, ox.NamedNode(RDF_TYPE))}
    assert "https://w3id.org/aikg/ontology#SpeedupClaim" in types
    assert "https://w3id.org/aikg/ontology#CompanyFigure" not in types
    focus = nodes_the_shapes_now_reach(scratch, added)
    result = validate_store(scratch, focus_nodes=[URIRef(n) for n in sorted(focus)])
    assert result.conforms, result.text()
