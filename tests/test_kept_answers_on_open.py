"""Kept answers a store lacks when it opens (issue 49): a store whose generated graphs were built before a
named query was declared ``# maintained:``, or before its text changed, answers that query with its text;
the writer then computes its rows behind the readers and commits them between clients' writes
(:meth:`aikg.write.gate.Gate.keep_answers`). The rows must equal the query's own text over the data, the
other queries' rows stay as they were, and a write that comes in meanwhile is not lost."""

from __future__ import annotations

import pyoxigraph as ox

from aikg.knowledge import answers
from aikg.namespaces import ANSWERS_GRAPH
from aikg.query import maintained
from aikg.query.named import load_queries
from aikg.store import Store
from helpers import services_for

GRAPH = str(ANSWERS_GRAPH)
MISSING, EARLIER = "speedup-claims", "capacity-pipeline"
ID = "https://w3id.org/aikg/id/"


def _of(store: Store, name: str) -> set[ox.Quad]:
    """A kept query's quads in the answers graph: its rows' statements and its mark."""
    node = maintained.query_node(name)
    rows = {r.subject for r in store.quads(None, maintained.OF, node, GRAPH)}
    return set(store.outgoing(rows, graph=GRAPH)) | set(store.quads(node, None, None, GRAPH))


def _as_if_built_before(store: Store) -> None:
    """MISSING as if declared after the store was built (no rows, no mark); EARLIER as if its text had
    changed since (a mark of another text, and a row that text answered)."""
    node = maintained.query_node(EARLIER)
    (mark,) = store.quads(node, maintained.DIGEST, None, GRAPH)
    row = ox.NamedNode(maintained.row_prefix(EARLIER) + "0" * 32)
    store.apply(
        remove=[*_of(store, MISSING), mark],
        add=[
            ox.Quad(node, maintained.DIGEST, ox.Literal("an earlier text"), ox.NamedNode(GRAPH)),
            ox.Quad(row, maintained.OF, node, ox.NamedNode(GRAPH)),
            ox.Quad(row, maintained.column("phase"), ox.Literal("<urn:a-phase>"), ox.NamedNode(GRAPH)),
        ],
    )


def _assert_kept_as_their_texts_answer(store: Store) -> None:
    for q in answers.declared():
        assert maintained.is_kept(store, q), q.name
        lines = maintained.kept_lines(store, q)
        assert sorted(lines) == sorted(maintained.line(row) for row in store.query(q.text).rows), q.name


def test_the_writer_keeps_the_answers_a_store_lacks_between_writes(store: Store) -> None:
    services = services_for(store)
    others = {q.name: _of(store, q.name) for q in answers.declared() if q.name not in (MISSING, EARLIER)}
    _as_if_built_before(store)
    assert sorted(q.name for q in answers.stale(store)) == sorted([EARLIER, MISSING])
    version, records = store.version, len(services.writelog.records)

    assert services.gate.keep_answers() == 2

    assert answers.stale(store) == []
    _assert_kept_as_their_texts_answer(store)
    assert len(store.query(load_queries()[MISSING].text).rows) > 0
    node = maintained.query_node(EARLIER)
    assert len(list(store.quads(node, maintained.DIGEST, None, GRAPH))) == 1  # the earlier mark gone
    assert {name: _of(store, name) for name in others} == others  # the other queries' rows untouched
    assert store.version == version + 1  # one transaction
    (entry,) = list(services.writelog.records)[records:]
    assert entry.subjects == frozenset()  # recorded as touching no data: indexes follow, not rebuild
    assert services.gate.keep_answers() == 0


def test_a_write_that_comes_in_while_they_are_computed_is_not_lost(store: Store, monkeypatch) -> None:
    """The rows are computed outside the writer lock: a gated write in the meantime (whose upkeep does
    not follow a query the store does not keep yet) has them computed again before they are committed."""
    services = services_for(store)
    _as_if_built_before(store)
    claim = f"{ID}test-kept-claim"
    refreshed, calls = answers.refreshed, []

    def with_a_write_meanwhile(s: Store, queries, **kw):  # type: ignore[no-untyped-def]
        computed = refreshed(s, queries, **kw)
        if not calls:
            services.gate.update(
                "INSERT DATA { GRAPH <https://w3id.org/aikg/graph/sources/test-kept> { "
                f"<{claim}> <http://www.w3.org/2000/01/rdf-schema#label> 'written meanwhile'@en }} }}"
            )
        calls.append(len(queries))
        return computed

    monkeypatch.setattr(answers, "refreshed", with_a_write_meanwhile)
    assert services.gate.keep_answers() == 2
    assert calls == [2, 2]  # computed again after the write
    _assert_kept_as_their_texts_answer(store)
    assert store.query(f"ASK {{ <{claim}> ?p ?o }}").boolean
