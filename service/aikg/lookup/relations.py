"""The links of one entity to other nodes, counted and paged by the engine, one group per property
and direction.

A hub has thousands of links (nvidia at 1M quads: 22,769 incoming triples): reading them all costs
seconds in row handling alone, so the engine counts each group (``COUNT(DISTINCT ...)``, milliseconds)
and hands out one page of the other ends per group (``LIMIT``/``OFFSET`` in a subquery), and only the
triples of that page are read back.

Pages follow the engine's own order, which is the same for every offset while the data does not change
(no ``ORDER BY``: sorting the IRIs of a hub's group costs Oxigraph about 37 µs a row, 100 ms for
2,666); the entries of one page are then sorted by IRI, so an entity whose groups fit in one page is
answered in the same order as before paging.

Links stated only in graphs that are not facts (vocabulary, shapes, materialized inferences, import
records) are left out, as in the entity's other parts. A blank node at the other end is a link like any
other (its ``iri`` is its ``_:`` label): telling IRIs from blank nodes costs Oxigraph about 3.5 µs a
row in a filter (incoming counts of nvidia: 17 -> 89 ms), and aikg's fact graphs hold no blank nodes.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Literal

import pyoxigraph as ox

from aikg.namespaces import AIKG, AIKG_NODES, RDF
from aikg.store import Store

Direction = Literal["outgoing", "incoming"]
DIRECTIONS: tuple[Direction, ...] = ("outgoing", "incoming")

NOT_LINKS = (str(RDF.type), str(AIKG.certainty), str(AIKG.datasetConfidence), str(AIKG.qualifiedBy))
"""Properties with an IRI value that describe the entity itself rather than link it to another node."""
NOT_INCOMING = (str(AIKG.evidenceFor), str(AIKG.drawsOn))
"""Properties pointing at an entity from the records of what its statements rest on (a quotation, a
rationale): the entity JSON gives them with each fact's sources, not as the entity's relations."""


@dataclass
class Page:
    """One page of one group: the other ends with, per end, the graphs stating the link and (incoming)
    the other end's own certainty in each graph."""

    direction: Direction
    prop: str
    total: int
    offset: int
    limit: int
    graphs: dict[str, set[str]] = field(default_factory=dict)
    certainty: dict[str, dict[str, str]] = field(default_factory=dict)

    @property
    def more(self) -> bool:
        """True when later pages hold more of the group."""
        return self.offset + len(self.graphs) < self.total


def node_key(term: ox.NamedNode | ox.BlankNode | ox.Literal | ox.Triple) -> str:
    """The other end of a link as a string: an IRI, or a blank node's ``_:`` label."""
    if isinstance(term, ox.BlankNode):
        return f"_:{term.value}"
    return str(term) if isinstance(term, ox.Triple) else term.value


def _iris(values: Iterable[str]) -> str:
    return ", ".join(str(ox.NamedNode(v)) for v in sorted(values))


def _pattern(direction: Direction, entity: str, prop: str) -> tuple[str, str]:
    """The triple pattern of a group's links and the variable of their other end."""
    if direction == "incoming":
        return f"?x {prop} {entity}", "?x"
    return f"{entity} {prop} ?x", "?x"


class Relations:
    """Counts and pages of one entity's links, read from a store; ``skipped`` graphs are not facts."""

    def __init__(self, store: Store, iri: str, skipped: Iterable[str]) -> None:
        self.store = store
        self.iri = iri
        self.entity = str(ox.NamedNode(iri))
        self.skipped = _iris(skipped)

    def _filter(self, direction: Direction, *, grouped: bool) -> str:
        parts = [f"?g NOT IN ({self.skipped})"]
        if direction == "outgoing":  # the entity's own figures and names are facts, not links
            parts.append("!isLiteral(?x)")
            if grouped:
                parts.append(f"?p NOT IN ({_iris(NOT_LINKS)})")
        elif grouped:
            parts.append(f"?p NOT IN ({_iris(NOT_INCOMING)})")
        return "FILTER (" + " && ".join(parts) + ")"

    def counts(self, direction: Direction) -> dict[str, int]:
        """Property -> how many distinct other ends it links, for one direction."""
        pattern, _ = _pattern(direction, self.entity, "?p")
        text = (
            f"SELECT ?p (COUNT(DISTINCT ?x) AS ?n) WHERE {{ GRAPH ?g {{ {pattern} }} "
            f"{self._filter(direction, grouped=True)} }} GROUP BY ?p"
        )
        out: dict[str, int] = {}
        for p, n in self.store.query(text).rows:
            if isinstance(p, ox.NamedNode) and isinstance(n, ox.Literal):
                out[p.value] = int(n.value)
        return out

    def pages(self, direction: Direction, wanted: Mapping[str, tuple[int, int, int]]) -> list[Page]:
        """One page per property in ``wanted`` (property -> (total, offset, limit)), all in one query."""
        if not wanted:
            return []
        certainty = str(AIKG_NODES.certainty)
        blocks = []
        for prop, (_, offset, limit) in sorted(wanted.items()):
            node = str(ox.NamedNode(prop))
            pattern, _ = _pattern(direction, self.entity, node)
            blocks.append(
                f"{{ {{ SELECT DISTINCT ?x WHERE {{ GRAPH ?g {{ {pattern} }} "
                f"{self._filter(direction, grouped=False)} }} LIMIT {limit} OFFSET {offset} }} "
                f"BIND ({node} AS ?p) }}"
            )
        inner, _ = _pattern(direction, self.entity, "?p")
        mark = (
            f"OPTIONAL {{ GRAPH ?g {{ ?x {certainty} ?c }} }}"
            if direction == "incoming"
            else "BIND (?unbound AS ?c)"
        )
        text = (
            f"SELECT ?p ?x ?g ?c WHERE {{ {' UNION '.join(blocks)} "
            f"GRAPH ?g {{ {inner} }} {self._filter(direction, grouped=False)} {mark} }}"
        )
        graphs: dict[str, dict[str, set[str]]] = defaultdict(lambda: defaultdict(set))
        marks: dict[str, dict[str, dict[str, str]]] = defaultdict(lambda: defaultdict(dict))
        for p, x, g, c in self.store.query(text).rows:
            if p is None or x is None or g is None:
                continue
            end = node_key(x)
            graphs[p.value][end].add(g.value)
            if isinstance(c, ox.NamedNode):
                marks[p.value][end][g.value] = c.value
        return [
            Page(
                direction,
                prop,
                total,
                offset,
                limit,
                dict(graphs.get(prop, {})),
                {x: dict(m) for x, m in marks.get(prop, {}).items()},
            )
            for prop, (total, offset, limit) in sorted(wanted.items())
        ]

    def exists(self) -> bool:
        """True when any graph holds a triple pointing at the entity."""
        result = self.store.query(f"ASK {{ GRAPH ?g {{ ?s ?p {self.entity} }} }}")
        return bool(result.boolean)
