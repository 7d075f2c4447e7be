"""Graph views and exports keep the request's time limit in their Python work, and their fast paths give
the answers the plain ones give.

A view's store reads always stopped at the deadline; what ran on after the last read (drawing, folding,
capping, writing a format) did not, and a hub's neighbourhood held a worker for seconds past the limit
(issue 13). The timeout tests make a step end exactly when the request's deadline has passed, by
sleeping out what is left of it (``current_deadline().left()``), so what follows is pure Python work that
must notice; nothing is timed.
"""

from __future__ import annotations

import contextlib
import importlib
import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from aikg.export import capped_view, graph_model, select
from aikg.export.cap import cap
from aikg.store.base import current_deadline
from aikg.web import create_app, get_services

select_module = importlib.import_module("aikg.export.select")
export_package = importlib.import_module("aikg.export")
rdf_module = importlib.import_module("aikg.export.rdf")

LIMIT = 2.0
"""The apps' query_timeout: room for the seeds' selections; the tests run out only what is left."""

GRAPH_FORMATS = ("graphml", "gexf", "cytoscape", "dot")
RDF_FORMATS = ("turtle", "nquads", "jsonld")


@pytest.fixture()
def app(store):
    """An app over a fresh seeded in-memory store, with the response cache off (every request cold)."""
    return create_app(
        {"store": "memory", "load_seeds": False, "query_timeout": LIMIT, "cache_size": 0}, store=store
    )


def run_out_after(monkeypatch, owner: Any, name: str) -> None:
    """Make ``owner.name`` return only once the request's deadline has passed."""
    real: Callable[..., Any] = getattr(owner, name)

    def late(*args: Any, **kwargs: Any) -> Any:
        result = real(*args, **kwargs)
        deadline = current_deadline()
        assert deadline is not None, "the request has no deadline"
        time.sleep(max(deadline.left(), 0) + 0.05)
        return result

    monkeypatch.setattr(owner, name, late)


def assert_timeout_envelope(resp) -> dict:
    """The envelope a runaway SPARQL query ends in (tests/test_limits.py), naming the limit."""
    assert resp.status_code == 503, resp.data[:300]
    assert resp.mimetype == "application/json"
    body = resp.get_json()
    assert set(body) == {"ok", "status", "error", "message", "errors"}
    assert body["ok"] is False and body["status"] == 503 and body["error"] == "query timeout"
    assert f"{LIMIT:g} s" in body["message"] and "query_timeout" in body["message"]
    assert body["errors"] == [{"limit": "query_timeout", "seconds": LIMIT}]
    return body


def assert_cheap_request_answers(client) -> None:
    resp = client.get("/api/entities/coreweave/neighbors?depth=1")
    assert resp.status_code == 200
    assert resp.get_json()["focus"] == "https://w3id.org/aikg/id/coreweave"


@pytest.mark.parametrize(
    "url",
    [
        "/api/graph",
        "/api/graph?type=Organization",
        "/api/entities/nvidia/neighbors?depth=2",
        "/api/entities/nvidia/neighbors?depth=2&limit=5",
    ],
)
def test_an_unfolded_view_still_drawing_at_the_limit_ends_in_the_timeout_envelope(app, monkeypatch, url):
    client = app.test_client()
    with monkeypatch.context() as m:
        run_out_after(m, export_package, "selected_facts")  # every read done: ranking and drawing remain
        body = assert_timeout_envelope(client.get(url))
    assert "smaller" in body["message"] or "lower limit" in body["message"]
    assert_cheap_request_answers(client)


@pytest.mark.parametrize("url", ["/api/graph?fold=true", "/api/entities/nvidia/neighbors?depth=2&fold=true"])
def test_a_folded_view_still_capping_at_the_limit_ends_in_the_timeout_envelope(app, monkeypatch, url):
    client = app.test_client()
    with monkeypatch.context() as m:
        run_out_after(m, export_package, "fold_model")  # folded: capping and writing remain
        assert_timeout_envelope(client.get(url))
    assert_cheap_request_answers(client)


@pytest.mark.parametrize("fmt", GRAPH_FORMATS)
def test_a_graph_export_still_writing_at_the_limit_ends_in_the_timeout_envelope(app, monkeypatch, fmt):
    client = app.test_client()
    with monkeypatch.context() as m:
        run_out_after(m, export_package, "graph_model")  # the model is built: only the writer remains
        resp = client.get(f"/export/{fmt}?focus=nvidia&depth=2&fold=true")
        assert "Content-Disposition" not in resp.headers
        body = assert_timeout_envelope(resp)
    assert f"the {fmt} export" in body["message"]
    assert client.get(f"/export/{fmt}?focus=coreweave&depth=1").status_code == 200


@pytest.mark.parametrize("fmt", RDF_FORMATS)
def test_an_rdf_export_still_writing_at_the_limit_ends_in_the_timeout_envelope(app, monkeypatch, fmt):
    client = app.test_client()
    with monkeypatch.context() as m:
        run_out_after(m, rdf_module, "graph_lines")  # the quads are read and sorted: writing remains
        assert_timeout_envelope(client.get(f"/export/{fmt}?focus=nvidia&depth=2"))
    assert client.get(f"/export/{fmt}?focus=coreweave&depth=1").status_code == 200


def test_a_walk_still_reading_at_the_limit_ends_in_the_timeout_envelope(app, monkeypatch):
    """A hop's store reads keep the deadline, and the view names the limit for them too."""
    client = app.test_client()
    with monkeypatch.context() as m:
        run_out_after(m, select_module, "_hop")
        body = assert_timeout_envelope(client.get("/api/entities/nvidia/neighbors?depth=3"))
    assert "depth 3" in body["message"]
    assert_cheap_request_answers(client)


# --- the fast paths give the plain paths' answers ---------------------------------------------------

NOT_HOPS = (
    "<http://www.w3.org/1999/02/22-rdf-syntax-ns#type>, <https://w3id.org/aikg/ontology#evidenceFor>, "
    "<https://w3id.org/aikg/ontology#drawsOn>"
)
"""A class is not a neighbour, nor is the quotation or rationale naming a node."""
OLD_LINKED_FROM = (
    """SELECT DISTINCT ?n WHERE {
  VALUES ?f { %s }
  ?f ?p ?n .
  FILTER (isIRI(?n) && ?p NOT IN ("""
    + NOT_HOPS
    + """))
  FILTER EXISTS { ?n ?q ?v }
}"""
)
OLD_LINKING_TO = (
    """SELECT DISTINCT ?n WHERE {
  VALUES ?f { %s }
  ?n ?p ?f .
  FILTER (isIRI(?n) && ?p NOT IN ("""
    + NOT_HOPS
    + """))
}"""
)
OLD_TYPED = "SELECT DISTINCT ?n WHERE { VALUES ?n { %s } VALUES ?t { %s } ?n a ?t }"
OLD_ABOUT = "SELECT ?s ?p ?o ?g WHERE { VALUES ?s { %s } GRAPH ?g { ?s ?p ?o } }"
"""The walk's queries as they were, over a dataset of the data graphs: the reference."""


def old_distances(store, focus, depth: int, graphs: list[str], through: set[str] | None) -> dict:
    """The neighbourhood walk as it was (one batch per hop: the seeds are small)."""

    def ask(text: str) -> set:
        return {row[0] for row in store.query(text, default_graphs=graphs).rows}

    def values(nodes) -> str:
        return " ".join(str(n) for n in sorted(nodes, key=str))

    def typed(nodes) -> set:
        if not nodes or not through:
            return set()
        return ask(OLD_TYPED % (values(nodes), " ".join(f"<{c}>" for c in sorted(through))))

    def hop(nodes) -> set:
        return ask(OLD_LINKED_FROM % values(nodes)) | ask(OLD_LINKING_TO % values(nodes))

    seen = {focus: 0}
    frontier = {focus}
    for n in range(1, depth + 1):
        new = hop(frontier) - seen.keys()
        seen.update(dict.fromkeys(new, n))
        inner = typed(new)
        while inner:
            more = hop(inner) - seen.keys()
            seen.update(dict.fromkeys(more, n))
            new |= more
            inner = typed(more)
        frontier = new
        if not frontier:
            break
    return seen


@pytest.fixture(scope="module")
def services(seeded_store) -> Iterator[Any]:
    app = create_app({"store": "memory", "load_seeds": False}, store=seeded_store)
    with app.app_context():
        yield get_services()


FOCI = ("nvidia", "coreweave", "openai", "deepseek-v3", "gb300-nvl72")


@pytest.mark.parametrize("focus", FOCI)
@pytest.mark.parametrize("through", [False, True])
def test_the_walk_over_filtered_quads_reaches_what_the_dataset_walk_reached(services, focus, through):
    store = services.store
    graphs = select_module.data_graphs(store)
    iri = select_module.resolve_focus(store, focus, graphs)
    classes = set(services.vocabulary().nary) if through else None
    for depth in range(select_module.MAX_DEPTH + 1):
        new = select_module.distances(store, iri, depth, graphs, through=classes)
        assert new == old_distances(store, iri, depth, graphs, classes), (focus, depth)
    assert len(new) > 1, "a focus without neighbours proves nothing"


@pytest.mark.parametrize("focus", FOCI)
def test_a_selection_reads_the_quads_the_dataset_query_read(services, focus):
    selection = select(services, focus=focus, depth=2)
    batch = " ".join(str(n) for n in sorted(selection.nodes, key=str))
    old = services.store.query(OLD_ABOUT % batch, named_graphs=list(selection.graphs)).rows
    new = sorted(
        (str(q.subject), str(q.predicate), str(q.object), str(q.graph_name)) for q in selection.quads()
    )
    assert new == sorted(tuple(str(t) for t in row) for row in old)
    assert len(new) > 50


def _drawn(capped) -> tuple[dict, dict]:
    m = capped.model
    nodes = {n.id: m.node_data(n) for n in m.sorted_nodes()}
    edges = {e.id: m.edge_data(e) for e in m.sorted_edges()}
    return nodes, edges


@pytest.mark.parametrize(
    ("focus", "depth", "types"),
    [
        (None, 1, ()),
        (None, 1, ("Organization",)),
        ("nvidia", 1, ()),
        ("nvidia", 2, ()),
        ("deepseek-v3", 3, ()),
    ],
)
@pytest.mark.parametrize("limit", [1, 7, 40, 2000])
def test_a_view_that_builds_only_its_kept_nodes_draws_what_the_whole_model_capped_draws(
    services, focus, depth, types, limit
):
    selection = select(services, focus=focus, depth=depth, types=types)
    focus_iri = selection.focus.value if selection.focus is not None else None
    whole = cap(graph_model(services, selection), limit, hops=selection.hops, focus=focus_iri)
    fast = capped_view(services, selection, limit)
    assert (fast.total, fast.truncated) == (whole.total, whole.truncated)
    assert _drawn(fast) == _drawn(whole)  # the same nodes and edges, attributes and all
    if limit < whole.total:
        assert len(fast.model.nodes) == limit and fast.truncated


class RecordedViews:
    """A views process that records what it was handed (lane included) and answers 200."""

    def __init__(self) -> None:
        self.forwarded: list[tuple[str, bool]] = []

    def forward(self, request: Any, *, query_string: str | None = None, cheap: bool = False) -> Any:
        from flask import Response

        self.forwarded.append((request.full_path, cheap))
        return Response("{}", mimetype="application/json")

    def close(self) -> None:
        pass


@pytest.mark.parametrize(
    ("url", "parameter"),
    [
        ("/api/entities/nvidia/neighbors?depth=9", "depth"),
        ("/api/entities/nvidia/neighbors?limit=abc", "limit"),
        ("/api/graph?fold=maybe", "fold"),
        ("/api/graph?type=", "type"),
        ("/export/graphml?focus=nvidia&depth=x", "depth"),
    ],
)
def test_a_bad_parameter_is_answered_before_any_view_is_handed_on(app, url, parameter):
    """Regression (#49): with four clients loading a hub's neighbourhoods, a 400 for a bad parameter
    waited 11-12 s in the views process's queue behind them. The HTTP worker checks the parameters
    itself; only a valid request is handed to the views process."""
    views = RecordedViews()
    get_services_of(app).views = views
    resp = app.test_client().get(url)
    assert resp.status_code == 400 and resp.get_json()["errors"][0]["parameter"] == parameter
    assert views.forwarded == []


def test_a_neighbourhood_of_depth_one_goes_by_the_cheap_lane_and_deeper_views_by_the_heavy_one(app):
    views = RecordedViews()
    get_services_of(app).views = views
    client = app.test_client()
    for url in (
        "/api/entities/coreweave/neighbors",
        "/api/entities/coreweave/neighbors?depth=0",
        "/api/entities/nvidia/neighbors?depth=1",
        "/api/entities/nvidia/neighbors?depth=2",
        "/api/graph?limit=5",
        "/export/graphml?focus=coreweave&depth=1",
    ):
        assert client.get(url).status_code == 200
    assert [cheap for _, cheap in views.forwarded] == [True, True, True, False, False, False]


def get_services_of(app: Any) -> Any:
    from aikg.web import SERVICES_KEY

    return app.extensions[SERVICES_KEY]


def test_heavy_views_pause_at_their_checks_while_a_cheap_one_runs(monkeypatch):
    """In the views process, a cheap view (depth 1) shared the interpreter with up to four hub views busy
    in Python. A heavy view now pauses at its next check of the time limit while a cheap one runs; the
    cheap one's own checks never pause it, and the pause ends with the cheap view."""
    import threading

    from aikg.export import budget
    from aikg.serving.views import _Lanes
    from aikg.store.base import Deadline, deadline_scope

    lanes = _Lanes()
    monkeypatch.setattr(budget, "_pause", None)
    budget.pause_with(lanes.pause)
    cheap_running, cheap_may_end = threading.Event(), threading.Event()
    walked: list[str] = []

    def cheap() -> None:
        with lanes.cheap(), deadline_scope(Deadline.after(30)):
            cheap_running.set()
            walked.extend("cheap" for _ in budget.bounded(range(1000), "walking", every=10))
            cheap_may_end.wait(30)

    def heavy() -> None:
        with deadline_scope(Deadline.after(30)):
            walked.extend("heavy" for _ in budget.bounded(range(5), "walking", every=1))

    first = threading.Thread(target=cheap)
    first.start()
    assert cheap_running.wait(30)
    second = threading.Thread(target=heavy)
    second.start()
    second.join(0.3)
    assert second.is_alive() and "heavy" not in walked  # waiting at its first check
    assert walked.count("cheap") == 1000  # the cheap view's own checks never waited
    cheap_may_end.set()
    first.join(30)
    second.join(30)
    assert walked.count("heavy") == 5


def test_a_cheap_view_has_a_process_of_its_own_that_a_heavy_views_overrun_does_not_end(app, monkeypatch):
    """A heavy view past its limit and grace gets its process killed; the cheap views that were in it
    were asked again of a new process, which had to start and read the graph first (13-15 s under four
    clients loading a hub's deep neighbourhoods). The cheap lane now has a process of its own."""
    from aikg.serving import views as views_module

    started: list[Any] = []

    class Child:
        def __init__(self) -> None:
            self.closed = False
            self.overrun = False
            started.append(self)

        def alive(self) -> bool:
            return not self.closed

        def ask(self, path: str, query: str, headers: Any, seconds: float, *, cheap: bool = False) -> Any:
            if self.overrun:
                raise TimeoutError
            return 200, [("Content-Type", "application/json")], b'{"cheap": %d}' % cheap

        def close(self) -> None:
            self.closed = True

    monkeypatch.setattr(views_module, "_Child", Child)
    monkeypatch.setattr(views_module.ViewsProcess, "_answering", lambda self, child: contextlib.nullcontext())
    views = views_module.ViewsProcess(timeout=5)
    get_services_of(app).views = views
    client = app.test_client()
    try:
        assert client.get("/api/entities/nvidia/neighbors?depth=1").get_json() == {"cheap": 1}
        assert client.get("/api/entities/nvidia/neighbors?depth=3").get_json() == {"cheap": 0}
        cheap, heavy = started
        heavy.overrun = True
        assert client.get("/api/entities/nvidia/neighbors?depth=4&fold=true").status_code == 503
        assert heavy.closed and not cheap.closed  # the heavy view's process was ended, not the cheap one's
        assert client.get("/api/entities/nvidia/neighbors?depth=1&n=2").get_json() == {"cheap": 1}
        assert len(started) == 2  # answered by the same cheap process, no new start
    finally:
        get_services_of(app).views = None
        views.close()


def test_a_view_whose_time_ran_out_waiting_for_the_same_answer_is_answered_503_not_run_again(
    store, monkeypatch
):
    """Two clients asking the same hub export at once: the second waits (response cache) for the first's
    answer until its deadline, and then asked the views process with a whole limit of its own, answered
    8.5-22 s after the request under four clients loading NVIDIA's exports. Each view now keeps its
    request's deadline: one past it is answered 503 without being handed on, and a view handed on
    carries its deadline."""
    import threading

    from aikg.serving import views as views_module
    from aikg.store.base import Deadline

    app = create_app({"store": "memory", "load_seeds": False, "query_timeout": 0.5}, store=store)
    asked: list[Any] = []
    first_asked, release = threading.Event(), threading.Event()

    class Child:
        def alive(self) -> bool:
            return True

        def ask(self, path: str, query: str, headers: Any, deadline: Any, *, cheap: bool = False) -> Any:
            asked.append(deadline)
            if len(asked) == 1:
                first_asked.set()
                release.wait(30)  # the first view runs until the second request has been answered
                body = b'{"ok": false, "status": 503, "error": "query timeout", "message": "late"}'
                return 503, [("Content-Type", "application/json")], body
            return 200, [("Content-Type", "application/xml")], b"<graphml/>"

        def close(self) -> None:
            pass

    monkeypatch.setattr(views_module, "_Child", Child)
    monkeypatch.setattr(views_module.ViewsProcess, "_answering", lambda self, child: contextlib.nullcontext())
    views = views_module.ViewsProcess(timeout=0.5)
    get_services_of(app).views = views
    url = "/export/graphml?focus=nvidia&depth=4&fold=true"
    answers: dict[str, Any] = {}

    def get(name: str) -> None:
        answers[name] = app.test_client().get(url)

    first = threading.Thread(target=get, args=("first",))
    first.start()
    try:
        assert first_asked.wait(30)
        get("second")  # waits for the first one's answer until its own deadline
        second = answers["second"]
        assert second.status_code == 503, second.data[:200]
        assert second.get_json()["error"] == "query timeout"
        assert len(asked) == 1  # the second request was never handed on with a new limit
        assert isinstance(asked[0], Deadline)  # the first carried its request's deadline
    finally:
        release.set()
        first.join(30)
        views.close()
    assert answers["first"].status_code == 503


def test_the_views_process_keeps_the_deadline_a_view_was_handed_on_with(app):
    """In the views process a view ran with a limit counted from when its thread took it up; it now
    keeps the deadline the HTTP worker set as the request arrived: one already past ends in the
    timeout envelope, however cheap the view."""
    import threading

    from aikg.serving.views import _answer, _Lanes

    class Conn:
        sent: list[Any] = []

        def send(self, answer: Any) -> None:
            self.sent.append(answer)

    conn = Conn()
    path, query = "/api/entities/coreweave/neighbors", "depth=1"
    _answer(app, conn, threading.Lock(), (1, path, query, [], True, time.monotonic() + 30), _Lanes())  # type: ignore[arg-type]
    _answer(app, conn, threading.Lock(), (2, path, query, [], True, time.monotonic() - 1), _Lanes())  # type: ignore[arg-type]
    (number, status, _, body), (late_number, late_status, _, late_body) = conn.sent
    assert (number, status) == (1, 200), body[:200]
    assert (late_number, late_status) == (2, 503), late_body[:200]
    assert b'"query timeout"' in late_body
