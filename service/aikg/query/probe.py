"""After a query ran out of time: was it slow, or did it meet a damaged block of the store?

The engine surfaces a damaged data block as an error only where it reads solutions one by one; an
operator that gathers them first (ORDER BY, GROUP BY, COUNT, ASK) keeps running on it until its time
limit stops it (pyoxigraph 0.5.13; upstream: not filed), so the client was told "query timeout" for a
store that cannot be read. The probe reads the triple patterns of the query one by one, as plain
pattern reads (which do surface the engine's ``Corruption`` status), within a short budget: if one meets
a damaged block, the answer is the store's damage (:class:`aikg.errors.DamagedStore`); else the timeout
stands. A query that cannot be parsed here, or whose patterns take longer than the budget, keeps its
timeout: the probe never turns an ordinary timeout into damage.
"""

from __future__ import annotations

from typing import Any

import pyoxigraph as ox
from rdflib import Literal, URIRef

from aikg.store import Deadline, Store

PROBE_SECONDS = 2.0
"""The probe's budget: a few pattern reads, after the query's own limit. They run in the process that
asked (lazy pattern reads cannot run away: the deadline is checked between quads), so the probe needs
no query worker, which may all be starting again after the timeout."""
PROBE_MAX_CHARS = 16_384
"""Longer texts are not probed: rdflib's parse of them is what takes time (a 9 KB chain of 1,000 '||'
takes 1.4 s, 20 KB of '1 + 1 + ...' 5.5 s; the longest named query, 13 KB, 0.4 s), and damage shows on
the next ordinary query anyway."""
PATTERN_QUADS = 200_000
"""The most quads read per pattern: a damaged block shows in the first reads of its range."""


def patterns(sparql: str) -> list[tuple[Any, Any, Any, Any]]:
    """The (subject, predicate, object, graph) patterns of a query, with a variable as None; empty when
    the text is not one rdflib reads."""
    from rdflib.plugins.sparql.algebra import translateQuery
    from rdflib.plugins.sparql.parser import parseQuery
    from rdflib.plugins.sparql.parserutils import CompValue

    try:
        algebra = translateQuery(parseQuery(sparql)).algebra
    except Exception:  # noqa: BLE001 - any text rdflib cannot read is simply not probed
        return []
    out: list[tuple[Any, Any, Any, Any]] = []

    def walk(node: object, graph: Any) -> None:
        if isinstance(node, CompValue):
            if node.name == "Graph":
                graph = node.get("term")
            if node.name == "BGP":
                for s, p, o in node.get("triples") or ():
                    out.append((_term(s), _term(p), _term(o), _graph(graph)))
            for value in node.values():
                walk(value, graph)
        elif isinstance(node, list | tuple):
            for value in node:
                walk(value, graph)

    walk(algebra, None)
    return out


def _term(t: object) -> ox.NamedNode | ox.Literal | None:
    if isinstance(t, URIRef):
        return ox.NamedNode(str(t))
    if isinstance(t, Literal):
        if t.language:
            return ox.Literal(str(t), language=t.language)
        return (
            ox.Literal(str(t), datatype=ox.NamedNode(str(t.datatype))) if t.datatype else ox.Literal(str(t))
        )
    return None  # a variable, a blank node or a path: read as any term


def _graph(term: object) -> str | None:
    return str(term) if isinstance(term, URIRef) else None


def probe_patterns(store: Store, sparql: str, deadline: Deadline) -> int:
    """Read each pattern of ``sparql`` (at most :data:`PATTERN_QUADS` quads each) until ``deadline``;
    the quads read. Raises :class:`aikg.errors.DamagedStore` when a read meets a damaged block (the
    store's reads say so)."""
    read = 0
    for s, p, o, g in patterns(sparql):
        if isinstance(s, ox.Literal) or (p is not None and not isinstance(p, ox.NamedNode)):
            continue
        for n, _ in enumerate(store.quads(s, p, o, g), 1):
            read += 1
            if n >= PATTERN_QUADS or (read % 1024 == 0 and deadline.expired()):
                break
        if deadline.expired():
            break
    return read
