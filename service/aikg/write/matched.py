"""The change a lone DELETE/INSERT … WHERE makes, found where the data is.

Running an update on a staging copy of the graphs it reads costs a copy of the whole store as soon as
its pattern reads the default graph (the union): seconds per write on the default store, past any time
limit at a million quads. Here the pattern is matched on the store itself (a snapshot, in a query
worker), as a ``SELECT *`` over the operation's dataset; only the templates run on an empty scratch
store, over those solutions as a ``VALUES`` block, so Oxigraph still decides what a template makes of
a solution (unbound or ill-formed triples left out, a fresh blank node per solution). The change is then
SPARQL 1.1 Update §3.1.3's: the deleted quads that are there and not inserted again, and the inserted
quads that were not there.

A solution's blank nodes go through the ``VALUES`` block as IRIs no data can hold, and come back as
the store's blank nodes.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterator, Sequence
from typing import Any

import pyoxigraph as ox

from aikg.errors import BadRequest, QuerySyntaxError, QueryTimeout
from aikg.namespaces import BASE, DEFAULT_GRAPH
from aikg.rdf.operations import Matching
from aikg.store import Quad, Store, Term
from aikg.store.base import current_deadline

BATCH = 1000
"""Solutions per run of a template on the scratch store."""


class Unmatched(Exception):
    """The texts could not be run this way (a template or pattern Oxigraph refuses as rewritten, a
    solution holding a triple term): the caller stages the update instead, which names any error as the
    client wrote it."""


def matched_change(store: Store, *, matching: Matching) -> tuple[set[Quad], set[Quad]]:
    """The quads the update removes and adds (raises :class:`Unmatched`)."""
    try:
        found = store.query(matching.select, base_iri=BASE)
    except QuerySyntaxError:
        raise Unmatched from None
    variables, rows = found.variables, found.rows
    skolem = f"urn:x-aikg-solution-bnode:{uuid.uuid4().hex}:"
    values = [[_written(t, skolem) for t in row] for row in rows]
    deleted = _instantiate(matching.deletes, variables, values, skolem)
    inserted = _instantiate(matching.inserts, variables, values, skolem)
    removed = {q for q in deleted if q not in inserted and _holds(store, q)}
    added = {q for q in inserted if not _holds(store, q)}
    return removed, added


def _written(term: Term | None, skolem: str) -> str:
    if term is None:
        return "UNDEF"
    if isinstance(term, ox.BlankNode):
        return f"<{skolem}{term.value}>"
    if isinstance(term, ox.NamedNode | ox.Literal):
        return str(term)
    raise Unmatched  # a triple term


def _instantiate(
    template: str | None, variables: Sequence[str], values: list[list[str]], skolem: str
) -> set[Quad]:
    """The quads ``template`` (``… INSERT { … }``, waiting for its WHERE) makes of the solutions."""
    if template is None:
        return set()
    head = "(" + " ".join(f"?{v}" for v in variables) + ")"
    scratch = ox.Store()
    deadline = current_deadline(None)
    for start in range(0, max(len(values), 1), BATCH):
        if deadline is not None and deadline.expired():
            raise QueryTimeout("the update's templates ran past the time limit and were stopped")
        batch = values[start : start + BATCH]
        where = (
            "{ VALUES " + head + " { " + " ".join("(" + " ".join(r) + ")" for r in batch) + " } }"
            if batch
            else "{ FILTER(false) }"  # no solution: the template is still read, so its errors show
        )
        try:
            scratch.update(f"{template} WHERE {where}", base_iri=BASE)
        except (SyntaxError, OSError, RuntimeError, ValueError):
            raise Unmatched from None
    return set(_restored(scratch, skolem))


def unnamed_graph_write() -> BadRequest:
    """The refusal of a write into Oxigraph's unnamed graph: every template's default-graph triples are
    sent to DEFAULT_GRAPH, so one there would be a gap in that rewrite."""
    return BadRequest(
        "the update writes into the store's unnamed graph, which aikg does not keep; "
        f"name the graph (GRAPH <iri> {{ ... }}) or use <{DEFAULT_GRAPH}>"
    )


def _restored(scratch: ox.Store, skolem: str) -> Iterator[Quad]:
    for q in scratch:
        if isinstance(q.graph_name, ox.DefaultGraph):
            raise unnamed_graph_write()
        if _is_skolem(q.predicate, skolem) or _is_skolem(q.graph_name, skolem):
            continue  # a blank node as predicate or graph name: no triple, as Oxigraph would decide
        yield ox.Quad(_back(q.subject, skolem), q.predicate, _back(q.object, skolem), q.graph_name)


def _is_skolem(term: object, skolem: str) -> bool:
    return isinstance(term, ox.NamedNode) and term.value.startswith(skolem)


def _back(term: Any, skolem: str) -> Any:
    if _is_skolem(term, skolem):
        assert isinstance(term, ox.NamedNode)
        return ox.BlankNode(term.value[len(skolem) :])
    return term


def _holds(store: Store, q: Quad) -> bool:
    graph = q.graph_name
    assert isinstance(graph, ox.NamedNode)
    return next(iter(store.quads(q.subject, q.predicate, q.object, graph.value)), None) is not None  # type: ignore[arg-type]
