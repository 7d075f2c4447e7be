"""The gate validates a write on its neighbourhood only (the nodes it touches, what points at them, what
the shapes reach from them); its verdict must be the one a validation of the whole data would give.

Random changes of the seeds, drawn with a fixed seed, are sent through the gate one after another (an
accepted one is committed, so later changes see it): new entities (valid, or missing their English
label, or with a slug the shapes refuse), blank nodes, statements copied onto other nodes, statements
removed, literals made negative, nodes retyped (which can break the shapes of the nodes pointing at
them), nodes' statements removed whole (a link to them then points at a node of no type), and statements
about the vocabulary. Each verdict is compared with the whole data validated after the change: the gate
takes the change exactly when the data then conforms, and a refusal names the same violations; a
statement about the vocabulary is refused whatever the shapes say.
"""

from __future__ import annotations

import random
from collections.abc import Callable

import pyoxigraph as ox
import pytest

from aikg.errors import Forbidden, ValidationFailed
from aikg.knowledge import validate
from aikg.namespaces import ANSWERS_GRAPH, DERIVED_GRAPH, INFERRED_GRAPH, SHAPES_GRAPH
from aikg.write import gate
from helpers import services_for

AIKG = "https://w3id.org/aikg/ontology#"
ID = "https://w3id.org/aikg/id/"
RDF_TYPE = ox.NamedNode("http://www.w3.org/1999/02/22-rdf-syntax-ns#type")
RDFS = "http://www.w3.org/2000/01/rdf-schema#"
LABEL = ox.NamedNode(RDFS + "label")
G = ox.NamedNode("https://w3id.org/aikg/graph/sources/test-gate-verdicts")
NOT_DATA = {str(SHAPES_GRAPH), str(DERIVED_GRAPH), str(INFERRED_GRAPH), str(ANSWERS_GRAPH)}
"""What the gate does not validate: the shapes, and the graphs it computes (rebuilt from the data; the
kept answers of named queries among them)."""
NUMERIC = {"http://www.w3.org/2001/XMLSchema#" + t for t in ("integer", "decimal", "double")}

CHANGES = 30
"""Random changes per run (each costs a validation of the whole seeds, ~1 s)."""


def data_quads(store) -> set[ox.Quad]:
    return {q for q in store.quads() if q.graph_name.value not in NOT_DATA}


def violations(result: validate.ValidationResult) -> set[tuple[str, str | None, str, str, str | None]]:
    """The violations (warnings do not refuse a write)."""
    return {
        (v.focus_node, v.path, v.message, v.shape, v.value)
        for v in result.violations
        if v.severity == "Violation"
    }


def whole(quads: set[ox.Quad]) -> validate.ValidationResult:
    """Every shape over the whole data as one graph, as ``aikg validate`` checks a store (copied term by
    term: blank nodes keep their labels, so the reports can be compared)."""
    scratch = validate._validation_store([])
    scratch.extend(ox.Quad(q.subject, q.predicate, q.object) for q in quads)
    return validate._run(scratch, None)


class Draw:
    """Random changes of a store's data, each drawn from what the store holds when it is drawn."""

    def __init__(self, store, rng: random.Random) -> None:
        self.store, self.rng, self.n = store, rng, 0

    def _fresh(self) -> str:
        self.n += 1
        return f"verdict-{self.n}"

    def _writable(self) -> list[ox.Quad]:
        protected = {ox.NamedNode(g) for g in gate.PROTECTED_GRAPHS}
        return sorted(
            (
                q
                for q in data_quads(self.store)
                if q.graph_name not in protected and isinstance(q.subject, ox.NamedNode)
            ),
            key=str,
        )

    def _typed(self) -> list[ox.Quad]:
        return [q for q in self._writable() if q.predicate == RDF_TYPE and q.object.value.startswith(AIKG)]

    def _classes(self) -> list[ox.NamedNode]:
        return sorted({q.object for q in self._typed()}, key=str)

    def new_entity(self) -> gate.Change:
        slug = self._fresh()
        node = ox.NamedNode(ID + (slug if self.rng.random() < 0.8 else slug.upper()))
        add = {ox.Quad(node, RDF_TYPE, self.rng.choice(self._classes()), G)}
        if self.rng.random() < 0.7:
            add.add(ox.Quad(node, LABEL, ox.Literal(slug, language="en"), G))
        return gate.Change("new entity", add=add)

    def blank_node(self) -> gate.Change:
        """A new blank node, typed or not (an entity may not be one), labelled or not, with a number
        below zero or not, linked from an existing node or not."""
        b = ox.BlankNode(self._fresh().replace("-", ""))  # labelled: the draws stay the same run to run
        add = {ox.Quad(b, LABEL, ox.Literal(self._fresh(), language="en"), G)}
        if self.rng.random() < 0.5:
            add.add(ox.Quad(b, RDF_TYPE, self.rng.choice(self._classes()), G))
        if self.rng.random() < 0.3:
            number = self.rng.choice(self._numbers())
            add.add(ox.Quad(b, number.predicate, ox.Literal("-1", datatype=number.object.datatype), G))
        if self.rng.random() < 0.5:
            link = self.rng.choice(self._links())
            add.add(ox.Quad(link.subject, link.predicate, b, G))
        return gate.Change("blank node", add=add)

    def copied(self) -> gate.Change:
        """A statement of one node stated of another node too (a second value, a value of the wrong
        class or datatype, a property the other's shapes do not know)."""
        q = self.rng.choice([q for q in self._writable() if q.predicate != RDF_TYPE])
        other = self.rng.choice(self._typed()).subject
        return gate.Change("copied", add={ox.Quad(other, q.predicate, q.object, G)})

    def removed(self) -> gate.Change:
        return gate.Change("removed", remove={self.rng.choice(self._writable())})

    def _links(self) -> list[ox.Quad]:
        return [q for q in self._writable() if isinstance(q.object, ox.NamedNode) and q.predicate != RDF_TYPE]

    def _numbers(self) -> list[ox.Quad]:
        return [
            q
            for q in self._writable()
            if isinstance(q.object, ox.Literal) and q.object.datatype.value in NUMERIC
        ]

    def negative(self) -> gate.Change:
        q = self.rng.choice(self._numbers())
        bad = ox.Literal(self.rng.choice(["-1", "0"]), datatype=q.object.datatype)
        return gate.Change("negative", remove={q}, add={ox.Quad(q.subject, q.predicate, bad, q.graph_name)})

    def retyped(self) -> gate.Change:
        """A node pointed at given another type: the nodes pointing at it may need the old one."""
        pointed = {q.object for q in self._writable() if isinstance(q.object, ox.NamedNode)}
        q = self.rng.choice([q for q in self._typed() if q.subject in pointed])
        new = self.rng.choice([c for c in self._classes() if c != q.object])
        return gate.Change("retyped", remove={q}, add={ox.Quad(q.subject, RDF_TYPE, new, q.graph_name)})

    def emptied(self) -> gate.Change:
        """Every statement of a node pointed at, in one graph, removed."""
        pointed = {q.object for q in self._writable() if isinstance(q.object, ox.NamedNode)}
        q = self.rng.choice([q for q in self._typed() if q.subject in pointed])
        gone = {p for p in self._writable() if p.subject == q.subject and p.graph_name == q.graph_name}
        return gate.Change("emptied", remove=gone)

    def vocabulary(self) -> gate.Change:
        a, b = self.rng.sample(self._classes(), 2)
        predicate = self.rng.choice(
            [RDFS + "subClassOf", "http://www.w3.org/2002/07/owl#equivalentClass", RDFS + "domain"]
        )
        return gate.Change("vocabulary", add={ox.Quad(a, ox.NamedNode(predicate), b, G)})

    def any(self) -> gate.Change:
        kinds: list[Callable[[], gate.Change]] = [
            self.new_entity,
            self.blank_node,
            self.copied,
            self.removed,
            self.negative,
            self.retyped,
            self.emptied,
            self.vocabulary,
        ]
        return self.rng.choice(kinds)()


@pytest.mark.parametrize("seed", [4901, 4902])
def test_the_gates_verdicts_are_those_of_a_whole_validation(store, seed):
    services = services_for(store)
    assert whole(data_quads(store)).conforms  # the seeds conform: what a change breaks is its own
    draw = Draw(store, random.Random(seed))
    seen: dict[str, set[str]] = {}
    elsewhere = 0
    """Refusals naming a node the change does not mention (one pointing at a node it changed)."""
    for _ in range(CHANGES):
        change = draw.any()
        before = data_quads(store)
        version = store.version
        after = (before - change.remove) | change.add
        try:
            services.gate.write(lambda change=change: change)
            verdict, found = "accepted", set()
        except Forbidden:
            verdict, found = "vocabulary", set()
        except ValidationFailed as exc:
            verdict, found = "refused", violations(exc.report)
        seen.setdefault(change.kind, set()).add(verdict)
        if gate.vocabulary_statements(change.add):
            assert verdict == "vocabulary", change
            assert store.version == version
            continue
        expected = whole(after)
        assert verdict == ("accepted" if expected.conforms else "refused"), (change, expected.text())
        if verdict == "refused":
            assert found == violations(expected), change
            assert store.version == version and data_quads(store) == before
            mentioned = {str(t) for q in change.add | change.remove for t in (q.subject, q.object)}
            mentioned |= {t.value for q in change.add | change.remove for t in (q.subject, q.object)}
            elsewhere += any(v[0] not in mentioned for v in found)
        else:
            assert data_quads(store) == after
    # the draw reached both verdicts, through changes of several kinds
    assert {"accepted", "refused", "vocabulary"} <= set().union(*seen.values()), seen
    assert len(seen) >= 6, seen
    assert elsewhere, "no change broke the shape of a node it does not mention"
