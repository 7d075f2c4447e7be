"""The store interface on the embedded Oxigraph backend: persistence, idempotent seeding, atomic writes."""

from __future__ import annotations

import gc
import sys
import threading
import weakref

import pyoxigraph as ox
import pytest
import requests
from click.testing import CliRunner

from aikg.cli import main
from aikg.errors import BadRequest, QuerySyntaxError, QueryTimeout, RdfSyntaxError, StoreError
from aikg.knowledge.load import load_seeds
from aikg.namespaces import GRAPH
from aikg.rdf.tokens import has_dataset_clause
from aikg.store import OxigraphStore, ResultKind
from aikg.store.base import Deadline
from aikg.store.transport import Encoded
from conftest import LiveServer

ID = "https://w3id.org/aikg/id/"
AIKG = "https://w3id.org/aikg/ontology#"
TEST_GRAPH = ox.NamedNode(str(GRAPH["test"]))
LABEL = ox.NamedNode("http://www.w3.org/2000/01/rdf-schema#label")
SUBCLASS = ox.NamedNode("http://www.w3.org/2000/01/rdf-schema#subClassOf")
NEOCLOUD, CLOUD_OPERATOR = ox.NamedNode(AIKG + "Neocloud"), ox.NamedNode(AIKG + "CloudOperator")
COREWEAVE = ox.NamedNode(ID + "coreweave")
PATIENT = {"AIKG_QUERY_TIMEOUT": "60"}
"""A generous time limit: the machine running the tests may be busy, and speed is not under test here."""
NOTE = ox.Quad(
    ox.NamedNode(ID + "example-note"),
    LABEL,
    ox.Literal("written before the restart", language="en"),
    TEST_GRAPH,
)


def canonical(dump: bytes) -> list[str]:
    """An N-Quads dump with blank nodes canonically relabelled, sorted: equal for equal content."""
    dataset = ox.Dataset(ox.parse(dump, format=ox.RdfFormat.N_QUADS))
    dataset.canonicalize(ox.CanonicalizationAlgorithm.UNSTABLE)  # shapes use blank nodes
    return sorted(str(q) for q in dataset)


def test_on_disk_data_survives_close_and_reopen(tmp_path):
    store = OxigraphStore(tmp_path)
    store.apply(add=[NOTE])
    store.close()
    store.close()  # closing twice is harmless
    reopened = OxigraphStore(tmp_path)
    try:
        assert list(reopened.quads(NOTE.subject)) == [NOTE]
        assert reopened.graphs() == [TEST_GRAPH.value]
    finally:
        reopened.close()


def test_a_snapshot_asked_of_a_closed_store_is_refused_with_a_store_error(tmp_path):
    """A query pool's warm-up thread may ask for a snapshot after its service closed the store: it
    must be told the store is closed (the thread then drops its spare), not die on an AttributeError."""
    store = OxigraphStore(tmp_path / "store")
    store.apply(add=[NOTE])
    store.close()
    with pytest.raises(StoreError, match="closed"):
        store.snapshot()


def test_emptying_the_caches_of_an_on_disk_store_keeps_its_data_version_and_snapshots(tmp_path):
    """The writer reopens its store to empty RocksDB's block caches: nothing a reader sees changes."""
    store = OxigraphStore(tmp_path / "store")
    try:
        store.apply(add=[NOTE])
        version, before = store.version, store.snapshot()
        assert store.release_caches() is True
        assert store.version == version and list(store.quads(NOTE.subject)) == [NOTE]
        assert store.snapshot() == before  # the same data: the snapshot made for it still serves
        store.apply(remove=[NOTE])
        assert store.version > version and list(store.quads(NOTE.subject)) == []
        after = OxigraphStore(store.snapshot().path, read_only=True)
        assert list(after.quads(NOTE.subject)) == []
        after.close()
    finally:
        store.close()
    assert OxigraphStore().release_caches() is False  # in memory: nothing to reopen


def test_data_survives_a_server_restart(tmp_path):
    server = LiveServer(str(tmp_path), env=PATIENT)
    try:
        seeded = server_count(server)
        second = CliRunner().invoke(main, ["serve", "--store", str(tmp_path), "--port", "1"])
        assert second.exit_code == 2
        assert "open in another process" in second.output
    finally:
        server.stop()
    assert server.proc.returncode == 0  # SIGTERM is a graceful stop, not a crash
    assert seeded > 1000  # the first start loaded ontology and seeds
    assert not OxigraphStore.in_use(tmp_path)

    store = OxigraphStore(tmp_path)  # the server is gone, so the directory is free again
    store.apply(add=[NOTE])
    store.close()

    server = LiveServer(str(tmp_path), env=PATIENT)
    try:
        query = f"SELECT ?label WHERE {{ {NOTE.subject} ?p ?label }}"
        resp = requests.get(server.url + "/sparql", params={"query": query}, timeout=10)
        assert [b["label"]["value"] for b in resp.json()["results"]["bindings"]] == [NOTE.object.value]
        assert server_count(server) == seeded + 1  # seeds were not loaded again over existing data
    finally:
        server.stop()


def server_count(server: LiveServer) -> int:
    resp = requests.get(
        server.url + "/sparql",
        timeout=10,
        params={"query": "SELECT (COUNT(*) AS ?n) WHERE { GRAPH ?g { ?s ?p ?o } }"},
    )
    assert resp.status_code == 200, resp.text
    return int(resp.json()["results"]["bindings"][0]["n"]["value"])


def test_loading_seeds_twice_changes_nothing(store):
    before, count = store.dump(mime="application/n-quads"), store.count()
    load_seeds(store)
    assert store.count() == count
    assert canonical(store.dump(mime="application/n-quads")) == canonical(before)


def test_dump_and_load_round_trip_nquads(seeded_store):
    dump = seeded_store.dump(mime="application/n-quads")
    copy = OxigraphStore(None)
    assert copy.load(dump, mime="application/n-quads") == seeded_store.count()
    assert copy.graphs() == seeded_store.graphs()
    assert canonical(copy.dump(mime="application/n-quads")) == canonical(dump)


def test_a_graph_is_there_while_it_holds_data(store):
    """has_graph agrees with graphs(): Oxigraph remembers a graph emptied by a DELETE, aikg does not."""
    quad = ox.Quad(ox.NamedNode(ID + "example-a"), LABEL, ox.Literal("a"), TEST_GRAPH)
    assert not store.has_graph(TEST_GRAPH.value) and not store.has_graph("not an iri")
    store.apply(add=[quad])
    assert store.has_graph(TEST_GRAPH.value) and TEST_GRAPH.value in store.graphs()
    store.apply(remove=[quad])
    assert not store.has_graph(TEST_GRAPH.value) and TEST_GRAPH.value not in store.graphs()


def test_apply_is_atomic(store):
    before = store.count()
    good = ox.Quad(ox.NamedNode(ID + "example-a"), LABEL, ox.Literal("a"), TEST_GRAPH)
    unnamed = ox.Quad(ox.BlankNode(), LABEL, ox.Literal("b"), TEST_GRAPH)
    with pytest.raises(BadRequest):
        store.apply(remove=[unnamed], add=[good])  # a blank node cannot be removed one by one
    assert store.count() == before
    assert list(store.quads(good.subject)) == []


def test_apply_removes_and_adds_in_one_change(store):
    label = next(iter(store.quads(COREWEAVE, LABEL, None)))
    renamed = ox.Quad(COREWEAVE, LABEL, ox.Literal("CoreWeave (renamed)", language="en"), label.graph_name)
    version = store.version
    store.apply(remove=[label], add=[renamed])
    assert [q.object for q in store.quads(COREWEAVE, LABEL, None)] == [renamed.object]
    assert store.version != version


def test_failed_replace_keeps_the_old_graph(store):
    graph = str(GRAPH["ontology"])
    before = store.count(graph)
    with pytest.raises(RdfSyntaxError):
        store.load(b"<urn:a> <urn:b> .", mime="text/turtle", graph=graph, replace=True)
    assert store.count(graph) == before


def test_load_replace_swaps_a_graph(store):
    n = store.load(
        b"<urn:x:a> <urn:x:b> <urn:x:c> .", mime="application/n-triples", graph=TEST_GRAPH.value, replace=True
    )
    assert n == 1
    store.load(
        b"<urn:x:a> <urn:x:b> <urn:x:d> .", mime="application/n-triples", graph=TEST_GRAPH.value, replace=True
    )
    assert [q.object for q in store.quads(graph=TEST_GRAPH.value)] == [ox.NamedNode("urn:x:d")]


def test_triples_need_a_named_graph(store):
    with pytest.raises(RdfSyntaxError):
        store.load(b"<urn:x:a> <urn:x:b> <urn:x:c> .", mime="application/n-triples")


def test_query_kinds_and_union_default_graph(seeded_store):
    ask = seeded_store.query(f"ASK {{ {NEOCLOUD} {SUBCLASS} {CLOUD_OPERATOR} }}")
    assert ask.kind is ResultKind.ASK and ask.boolean is True
    graph = seeded_store.query(f"CONSTRUCT WHERE {{ {NEOCLOUD} {SUBCLASS} ?c }}")
    assert graph.kind is ResultKind.GRAPH
    assert graph.triples == [ox.Triple(NEOCLOUD, SUBCLASS, CLOUD_OPERATOR)]


def test_query_rows_are_capped_and_flagged(seeded_store):
    result = seeded_store.query("SELECT ?s WHERE { ?s ?p ?o }", max_rows=3)
    assert len(result.rows) == 3 and result.truncated


class _StopsAfter(Deadline):
    """A deadline that passes after its third look: a read stopped part-way, whatever the machine's speed."""

    looks = 0

    def expired(self) -> bool:
        self.looks += 1
        return self.looks > 3


@pytest.mark.parametrize(
    "query",
    ["SELECT ?s ?o WHERE { ?s ?p ?o }", "CONSTRUCT { ?s ?p ?o } WHERE { ?s ?p ?o }"],
)
def test_a_read_stopped_at_its_deadline_leaves_no_engine_answer_for_another_thread(seeded_store, query):
    """pyoxigraph's answers are unsendable: left in a stopped read's traceback and collected on another
    thread (a server's next request), they leak with the engine's iterator instead of being freed."""
    leaked: list[str] = []
    hook, sys.unraisablehook = sys.unraisablehook, lambda u: leaked.append(repr(u.exc_value))
    try:
        stopped: list[BaseException] = []
        try:
            seeded_store.query(query, deadline=_StopsAfter(float("inf")), max_rows=1000)
        except QueryTimeout as exc:
            stopped.append(exc)
        assert stopped, "the read was not stopped at its deadline"

        def collect() -> None:
            stopped.clear()
            gc.collect()

        other = threading.Thread(target=collect)
        other.start()
        other.join()
    finally:
        sys.unraisablehook = hook
    assert leaked == []


class _FailingRead:
    """An engine iterator that fails at its first quad, from native code as a damaged block does (no
    Python frame of its own keeps it), and can be watched by weak reference (a QuadIter cannot)."""

    def __iter__(self) -> _FailingRead:
        return self

    __next__ = staticmethod(lambda: (_ for _ in ()).throw(RuntimeError("the engine failed")))


def test_a_failed_pattern_read_keeps_no_engine_iterator_in_its_error():
    """A pattern read's error is handed on (the damage probe's thread gives it to the request thread)
    and freed there: its traceback must not keep the engine's iterator, an unsendable QuadIter never
    freed on another thread ("... is unsendable, but is being dropped on another thread")."""
    read = _FailingRead()
    gone = weakref.ref(read)
    with pytest.raises(RuntimeError) as failed:
        list(OxigraphStore()._checked(read))
    del read
    assert failed.value.__traceback__ is not None and gone() is None


def test_a_bound_variable_is_bound_in_the_projection_or_out_of_it(seeded_store):
    # Written into the text as a constant (aikg.rdf.substitute), as on the remote backend: Oxigraph's own
    # substitution refused a variable the projection leaves out.
    predicates = seeded_store.query("SELECT ?p WHERE { ?s ?p ?o }", bindings={"s": COREWEAVE}).rows
    assert predicates and len(predicates) < seeded_store.query("SELECT ?p WHERE { ?s ?p ?o }").rows.__len__()
    result = seeded_store.query(
        "SELECT ?s ?label WHERE { ?s <http://www.w3.org/2000/01/rdf-schema#label> ?label }",
        bindings={"s": COREWEAVE},
    )
    assert [r["label"] for r in result.dicts()] == [ox.Literal("CoreWeave", language="en")]


def test_syntax_errors_carry_the_position(seeded_store):
    with pytest.raises(QuerySyntaxError) as info:
        seeded_store.query("SELECT ?s WHERE {\n ?s ?p }")
    assert info.value.errors[0]["line"] == 2


def test_bad_graph_iri_is_a_bad_request(seeded_store):
    with pytest.raises(BadRequest):
        seeded_store.count("not an iri")
    with pytest.raises(BadRequest):
        seeded_store.query("ASK {}", default_graphs=["not an iri"])


@pytest.mark.parametrize(
    "query, expected",
    [
        ("SELECT * FROM <urn:g> WHERE { ?s ?p ?o }", True),
        ("select * from named <urn:g> where { graph ?g { ?s ?p ?o } }", True),
        ("PREFIX g: <urn:g:>\nSELECT * FROM g:one WHERE { ?s ?p ?o }", True),
        ("SELECT ?from WHERE { ?from ?p ?o }", False),
        ('SELECT * WHERE { ?s ?p "FROM <urn:g>" }', False),
        ("# FROM <urn:g>\nSELECT * WHERE { ?s ?p ?o }", False),
        ("PREFIX ex: <http://ex.org/FROM#>\nSELECT * WHERE { ?s ex:from ?o }", False),
    ],
)
def test_dataset_clause_detection(query, expected):
    assert has_dataset_clause(query) is expected


# -- the default graph is the merge of the named graphs ---------------------------------------------------

OTHER_GRAPH = ox.NamedNode(str(GRAPH["test-other"]))


def _labels(store, subject: ox.NamedNode = NOTE.subject) -> int:
    """How many times a query without a dataset sees the subject's label."""
    res = store.query(f"SELECT (COUNT(*) AS ?n) WHERE {{ {subject} {LABEL} ?label }}")
    return int(res.rows[0][0].value)


def test_a_triple_stated_in_two_graphs_is_one_triple_of_the_default_graph(store):
    # Oxigraph 0.5's union default graph matched it once per graph (oxigraph#1919): COUNTs overcounted
    # and a hub's restated labels multiplied its queries' rows.
    twice = ox.Quad(NOTE.subject, NOTE.predicate, NOTE.object, OTHER_GRAPH)
    store.apply(add=[NOTE, twice])
    assert _labels(store) == 1
    assert store.count(TEST_GRAPH.value) == store.count(OTHER_GRAPH.value) == 1  # both statements kept
    store.apply(remove=[NOTE])
    assert _labels(store) == 1  # still stated by the other graph
    store.apply(remove=[twice])
    assert _labels(store) == 0


def test_dropping_a_graph_forgets_only_what_no_other_graph_states(store):
    only_here = ox.Quad(ox.NamedNode(ID + "only-here"), LABEL, ox.Literal("gone with its graph"), TEST_GRAPH)
    shared = ox.Quad(NOTE.subject, NOTE.predicate, NOTE.object, OTHER_GRAPH)
    store.apply(add=[NOTE, only_here, shared])
    store.drop_graph(TEST_GRAPH.value)
    assert _labels(store, only_here.subject) == 0
    assert _labels(store) == 1
    store.load(
        b"<urn:x:a> <urn:x:b> <urn:x:c> .",
        mime="application/n-triples",
        graph=OTHER_GRAPH.value,
        replace=True,
    )
    assert _labels(store) == 0  # the replaced graph's old content left the default graph with it
    assert store.query("ASK { <urn:x:a> <urn:x:b> <urn:x:c> }").boolean


def test_a_store_written_before_the_merge_is_merged_when_opened(tmp_path):
    raw = ox.Store(str(tmp_path / "old"))
    raw.add(NOTE)
    raw.flush()
    del raw
    read_only = OxigraphStore(tmp_path / "old", read_only=True)
    try:
        assert _labels(read_only) == 1  # a read-only copy of an unmerged store reads the union instead
    finally:
        read_only.close()
    store = OxigraphStore(tmp_path / "old")
    try:
        assert _labels(store) == 1
        assert list(store.quads()) == [NOTE]  # the merge is never shown as data of its own
        dumped = list(ox.parse(store.dump(mime="application/n-quads"), format=ox.RdfFormat.N_QUADS))
        assert dumped == [NOTE]
    finally:
        store.close()


def test_an_update_text_keeps_the_default_graph_the_merge(store):
    store.update(f"INSERT DATA {{ GRAPH {TEST_GRAPH} {{ {NOTE.subject} {LABEL} 'from an update' }} }}")
    assert _labels(store) == 1
    store.update(f"DELETE WHERE {{ GRAPH ?g {{ {NOTE.subject} ?p ?o }} }}")
    assert _labels(store) == 0


def test_a_blank_node_added_with_a_drop_is_one_node_in_its_graph_and_the_merge(store):
    node = ox.BlankNode()
    quads = [
        ox.Quad(NOTE.subject, ox.NamedNode(AIKG + "hasPart"), node, TEST_GRAPH),
        ox.Quad(node, LABEL, ox.Literal("part"), TEST_GRAPH),
    ]
    store.apply(drop=[TEST_GRAPH.value], add=quads)
    res = store.query(f"SELECT ?l WHERE {{ {NOTE.subject} <{AIKG}hasPart> ?part . ?part {LABEL} ?l }}")
    assert [r[0].value for r in res.rows] == ["part"]


def test_gated_writes_of_every_kind_keep_the_default_graph_the_merge(store):
    """Graph Store PUT/POST/DELETE and SPARQL updates through the gate, then the merge checked whole."""
    from aikg.web import create_app

    auth = {"Authorization": "Bearer test-token"}
    client = create_app(
        {"store": "memory", "load_seeds": False, "token": "test-token"}, store=store
    ).test_client()
    graph = str(GRAPH["test-merge"])
    cloud = (
        f"@prefix aikg: <{AIKG}> . @prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .\n"
        f'<{ID}merge-cloud> a aikg:Neocloud ; rdfs:label "Merge Cloud"@en .\n'
        f'<{ID}coreweave> rdfs:label "CoreWeave"@en .\n'  # restates a seed triple: the merge keeps one
    )
    for method, body in (
        ("PUT", cloud),
        ("POST", cloud.replace('"Merge Cloud"@en', '"Merge Cloud"@en, "合并云"@zh')),
        ("PUT", cloud),
    ):
        r = client.open(
            "/data",
            method=method,
            query_string={"graph": graph},
            data=body.encode(),
            headers={**auth, "Content-Type": "text/turtle"},
        )
        assert r.status_code in (200, 201, 204), r.get_json()
    update = f'DELETE DATA {{ GRAPH <{graph}> {{ {COREWEAVE} {LABEL} "CoreWeave"@en }} }}'
    assert client.post("/update", data={"update": update}, headers=auth).status_code in (200, 204)
    raw = store._ox
    named = {
        q.triple
        for q in raw.quads_for_pattern(None, None, None, None)
        if not isinstance(q.graph_name, ox.DefaultGraph)
    }
    default = {q.triple for q in raw.quads_for_pattern(None, None, None, ox.DefaultGraph())}
    assert named == default
    assert _labels(store, COREWEAVE) == 1  # the seed's statement is still there, once
    assert client.delete("/data", query_string={"graph": graph}, headers=auth).status_code in (200, 204)
    named = {
        q.triple
        for q in raw.quads_for_pattern(None, None, None, None)
        if not isinstance(q.graph_name, ox.DefaultGraph)
    }
    assert named == {q.triple for q in raw.quads_for_pattern(None, None, None, ox.DefaultGraph())}
    assert _labels(store, ox.NamedNode(ID + "merge-cloud")) == 0


@pytest.mark.parametrize(
    "query",
    [
        "SELECT ?s ?o WHERE { VALUES (?s ?o) { (<urn:a> 'one\\ntwo') (<urn:b> UNDEF) (<urn:c> 3) } }",
        "SELECT ?s WHERE { VALUES ?s { <urn:a> } }",
        "SELECT ?s WHERE { VALUES ?s { } }",
        "SELECT * WHERE { }",  # one solution of no variables: an empty line
    ],
)
def test_an_encoded_answer_counts_its_rows_as_its_parsed_rows_do(query):
    """A page's size (its next link) is counted from the bytes a query worker sent, without parsing
    them: literals with newlines, unbound cells, no rows and no variables count as the parsed rows."""
    data = ox.Store().query(query).serialize(format=ox.QueryResultsFormat.TSV)
    counted = Encoded(ResultKind.SELECT, data).decode().row_count
    parsed = len(Encoded(ResultKind.SELECT, data).decode().rows)
    assert counted == parsed == len(list(ox.Store().query(query)))


def test_a_store_describes_the_subjects_its_named_graphs_hold(store, tmp_path):
    """``describes`` (the check a named query's entity parameter passes) reads the merged default graph
    on the embedded store; its answer is the interface's generic one, read from the named graphs, for
    subjects, for nodes met only as objects, for unknown nodes, and after the quads come and go, in
    memory and on disk."""
    from aikg.store.base import Store

    g = GRAPH + "test-describes"
    new, only_object = ox.NamedNode(ID + "describes-new"), ox.NamedNode(ID + "describes-object")
    quad = ox.Quad(new, ox.NamedNode(ID + "p"), only_object, ox.NamedNode(g))
    on_disk = OxigraphStore(tmp_path / "store")
    on_disk.apply(add=store.quads())
    for s in (store, on_disk):
        nodes = [ox.NamedNode(ID + "nvidia"), ox.NamedNode(ID + "no-such-node"), new, only_object]
        assert (
            [s.describes(n) for n in nodes]
            == [Store.describes(s, n) for n in nodes]
            == [
                True,
                False,
                False,
                False,
            ]
        )
        s.apply(add=[quad])
        assert (
            [s.describes(n) for n in nodes]
            == [Store.describes(s, n) for n in nodes]
            == [
                True,
                False,
                True,
                False,
            ]
        )
        s.apply(remove=[quad])
        assert not s.describes(new) and not Store.describes(s, new)
    on_disk.close()
