"""Graph exports (``/export/<format>``), the neighbours of one entity (``/api/entities/<id>/neighbors``)
and the whole graph as the explorer draws it (``/api/graph``).

Parameters, shared by all: ``focus`` (slug or IRI; exports only), ``depth`` (0-4, default 1), ``type``
(repeatable, subclass-aware), ``fold`` (true/false). The two views also take ``limit`` (1-2000 nodes,
default 250 for a neighbourhood, 600 for the whole graph): they answer the closest and best-connected
nodes, with ``truncated`` and ``total`` saying what was left out (exports are never cut). An unknown
format is a 404 naming the supported ones (the format is part of the path); an unknown focus or entity
is a 404; a bad depth, type, fold or limit is a 400 naming the parameter.

Under ``aikg serve`` an HTTP worker checks the parameters (a bad one is its 400, never queued behind
other views) and hands these requests to its views process, which runs these same routes as heavy
work (:mod:`aikg.serving.views`); a neighbourhood of depth 0 or 1 goes there by the cheap lane. Each
request runs within the service's one time limit (setting ``query_timeout``), its Python work
(walking, drawing, folding, capping, writing) as much as its store reads (:mod:`aikg.export.budget`):
past it the request ends in 503 ``query timeout``, the error a runaway SPARQL query gets, saying what
to ask for instead. An export is written before its first byte is sent, so that error can still be sent.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from itertools import chain
from typing import Any
from urllib.parse import urlencode

from flask import Blueprint, Response, jsonify, render_template, request, send_file

from aikg.errors import BadRequest, QueryTimeout, StoreError
from aikg.export import ExportOptions, capped_view, export_format, parse_options, run_export, select
from aikg.export.budget import step_of
from aikg.export.built import Building, Failed, Ready
from aikg.export.cap import DEFAULT_NODES, MAX_NODES, Capped
from aikg.export.cytoscape import elements
from aikg.export.select import MAX_DEPTH
from aikg.services import Services
from aikg.store.base import current_deadline
from aikg.web import current_settings, get_services, shapes
from aikg.web.describe import class_names, errors, get_operation, json_answer, ref
from aikg.web.params import (
    ClassParam,
    FlagParam,
    IntParam,
    TextParam,
    documented,
    entity_in_path,
)
from aikg.web.response_cache import cached

bp = Blueprint("exports", __name__)

WHOLE_GRAPH_NODES = 600
"""Nodes of the whole-graph view unless it asks for another number: a force layout stays readable and
quick up to a few hundred."""


@contextmanager
def _within_limit(what: str, advice: str) -> Iterator[None]:
    """Name the time limit and a smaller request in a timeout of the work inside."""
    try:
        yield
    except QueryTimeout as exc:
        seconds = current_settings().query_timeout
        raise QueryTimeout(
            f"{what} ran past the time limit of {seconds:g} s (setting query_timeout) while "
            f"{step_of(exc)} and was stopped; {advice}",
            errors=[{"limit": "query_timeout", "seconds": seconds}],
        ) from None


_SMALLER = "ask for a smaller depth, a lower limit, some types (type=...) or fold=false"


def _options(*, focus: str | None, view: bool = False) -> ExportOptions:
    """The request's options; a view (documented with the class names as its ``type`` values) refuses
    an empty ``type``, where an export takes it as no filter. An export's ``nodes`` may come in a form
    body (POST): the graph page's drawing names hundreds."""
    args = request.values
    if view and any(not t.strip() for t in args.getlist("type")):
        raise BadRequest(
            "parameter 'type' must name a class, such as 'Organization' (see /api/types)",
            errors=[{"parameter": "type", "value": ""}],
        )
    return parse_options(
        focus=focus,
        depth=(HOPS if view else DEPTH).read(args.get("depth")),
        types=args.getlist("type"),
        fold=FOLD.read(args.get("fold")),
        nodes=None if view else args.get("nodes"),
    )


def _node_limit(default: int) -> IntParam:
    """``limit`` of a graph view: most nodes answered; blank is the default, as an empty form field is."""
    return IntParam(
        "limit",
        f"Most nodes answered (blank: {default}).",
        default=default,
        low=1,
        high=MAX_NODES,
        unit="nodes",
        blank_is_default=True,
    )


DEPTH = IntParam(
    "depth", "Hops around the focus (empty: 1).", default=1, low=0, high=MAX_DEPTH, empty_is_default=True
)
HOPS = IntParam("depth", "Hops (empty: 1).", default=1, low=0, high=MAX_DEPTH, empty_is_default=True)
VIEW_TYPE = ClassParam("type", "Only nodes of this class (repeatable).")
EXPORT_TYPE = TextParam("type", "Only nodes of this class (repeatable).")
FOLD = FlagParam("fold", "Fold n-ary nodes into labelled edges.")
EXPORT_FORMAT = TextParam("format", "Export format name.", required=True, where="path")
FOCUS = TextParam("focus", "Slug or IRI of the centre of a neighbourhood.")
NEIGHBORS_ID = entity_in_path("id", "A slug or a full entity IRI.")
NEIGHBORS_LIMIT = _node_limit(DEFAULT_NODES)
GRAPH_LIMIT = _node_limit(WHOLE_GRAPH_NODES)


def _view_params(services: Services, limit: IntParam) -> list[dict[str, Any]]:
    """What a graph view takes beside its focus: classes, folding and how many nodes."""
    return [
        VIEW_TYPE.describe(class_names(services)),
        FOLD.describe(),
        limit.describe(),
    ]


def _view(capped: Capped, limit: int) -> dict[str, Any]:
    return {
        "elements": elements(capped.model),
        "limit": limit,
        "truncated": capped.truncated,
        "total": capped.total,
        "shown": len(capped.model.nodes),
    }


def _export_doc(_: Services) -> dict[str, Any]:
    return get_operation(
        "Export the graph",
        "The whole graph, a neighbourhood (focus, depth) or some types, in Turtle, "
        "N-Quads, JSON-LD, GraphML, GEXF, Cytoscape.js JSON or Graphviz DOT.",
        {
            "200": {"description": "The export, as a download.", "content": {"*/*": {"schema": {}}}},
            **errors(400, 404, 503),
        },
        [
            EXPORT_FORMAT.describe(),
            FOCUS.describe(),
            DEPTH.describe(),
            EXPORT_TYPE.describe(),
            FOLD.describe(),
        ],
        tags=["exports"],
    )


@bp.route("/export/<name>", methods=["GET", "POST"])
@documented(_export_doc, names={"name": "format"})
def export(name: str) -> Response:
    """The selected graph in one export format, as a download named after what it holds. POST takes
    the same parameters as a form (``nodes`` of a drawing outgrow a URL). The whole graph is served
    from a file built in the background (:mod:`aikg.export.built`); a part of it is written now and
    kept in the response cache per store version (a neighbourhood at depth 2: ~80 ms)."""
    services = get_services()
    if request.method == "POST":
        request.get_data(cache=True)  # read first: the response cache keys a POST on its body's digest
    options = _options(focus=request.values.get("focus"))
    # an unknown format is told here, never after waiting for the views process: behind a hub's slow
    # view, /export/csv?focus=x answered 503 "the view ran past the time limit" after 5 s, not its 404
    export_format(name)
    whole = options.whole and not options.fold
    if services.views is not None:
        if not whole:
            return _forwarded()
        # The whole graph: sent from here when written, its progress told from here while a process
        # writes it; only the request that starts the build goes to the views process, and if that is
        # too busy to answer in time the build is queued there all the same.
        built = services.built.ready(services, name)
        if built is not None:
            return _send(built, passthrough=True)
        under_way = services.built.building(services, name)
        if under_way is not None:
            return _building(under_way)
        try:
            return services.views.forward(request)  # type: ignore[no-any-return]
        except (QueryTimeout, StoreError):
            return _building(Building(export_format(name).name, 0, 0.0))
    if whole:
        return _whole(name)
    return _part(name, options)


@cached
def _forwarded() -> Response:
    """A part of the graph written by the views process, kept in this worker's response cache as a
    view is: a repeat is not written again, and a client that takes gzip gets it compressed (sent
    on as it came, a neighbourhood's Turtle went out plain to a gzip client)."""
    views = get_services().views
    assert views is not None  # only called when there is a views process
    return views.forward(request, query_string=_with_form())  # type: ignore[no-any-return]


def _send(built: Ready, *, passthrough: bool) -> Response:
    """A built file as a download; read into the answer unless ``passthrough`` (the views process hands
    its answers on as bytes)."""
    response = send_file(
        built.path, mimetype=built.mime, as_attachment=True, download_name=built.filename, conditional=True
    )
    response.headers["Cache-Control"] = "no-cache"
    response.direct_passthrough = passthrough
    return response


def _whole(name: str) -> Response:
    """The whole graph's file, waiting for its build as long as the request's time limit allows; else
    202 with the build's progress (a page that retries for a browser, JSON for a program)."""
    services = get_services()
    deadline = current_deadline()
    wait = max(0.0, deadline.left() - 0.5) if deadline is not None else 0.0
    state = services.built.wait(services, name, wait)
    if isinstance(state, Ready):
        return _send(state, passthrough=False)
    if isinstance(state, Failed):
        raise StoreError(state.message)
    return _building(state)


def _building(state: Building) -> Response:
    """202: the whole graph's file is being written, how far it has come and when to ask again (a page
    that asks again by itself, for a browser)."""
    retry = 2
    body = {
        "ok": True,
        "status": 202,
        "state": "building",
        "format": state.format,
        "written_bytes": state.written,
        "seconds": round(state.seconds, 1),
        "retry_after": retry,
        "message": f"the whole graph's {state.format} file is being written "
        f"({state.written:,} bytes so far); ask again in {retry} s",
    }
    headers = {"Retry-After": str(retry), "Cache-Control": "no-store"}
    if any(mime == "text/html" for mime, _ in request.accept_mimetypes):
        from aikg.web.pages import page_context

        page = render_template("building.html", building=body, retry=retry, **page_context("graph"))
        return Response(page, status=202, mimetype="text/html", headers=headers)
    response = jsonify(body)
    response.status_code = 202
    response.headers.update(headers)
    return response


@cached
def _part(name: str, options: ExportOptions) -> Response:
    """A neighbourhood, some types, the nodes listed or a folded whole graph, written now."""
    with _within_limit(
        f"the {name} export", "export a smaller neighbourhood (focus, a lower depth) or some types (type=...)"
    ):
        result = run_export(get_services(), name, options)
        first = next(result.chunks, b"")  # the writing happens here, within the limit
    response = Response(chain([first], result.chunks), mimetype=None, content_type=result.format.mime)
    response.headers["Content-Disposition"] = f'attachment; filename="{result.filename}"'
    return response


def _with_form() -> str:
    """The request's query string, with a POSTed form's fields after it (the views process reads them
    as arguments)."""
    query = str(request.environ.get("QUERY_STRING", ""))
    if request.method != "POST" or not request.form:
        return query
    form = urlencode(list(request.form.items(multi=True)))
    return f"{query}&{form}" if query else form


def _neighbors_doc(services: Services) -> dict[str, Any]:
    return get_operation(
        "Neighbourhood of an entity",
        "Nodes and edges around the entity as Cytoscape.js elements: the closest and best-connected "
        "`limit` of them (`truncated` and `total` say what was left out). depth=1 gives one node's "
        "neighbours, which the graph view adds when a node is clicked.",
        {"200": json_answer(ref(shapes.Neighbors), "The neighbourhood."), **errors(400, 404, 406, 503)},
        [
            NEIGHBORS_ID.describe(),
            HOPS.describe(),
            *_view_params(services, NEIGHBORS_LIMIT),
        ],
        tags=["lookup"],
    )


@bp.get("/api/entities/<path:entity>/neighbors")
@documented(_neighbors_doc)
@cached
def neighbors(entity: str) -> Response:
    """Nodes and edges around one entity as Cytoscape.js elements, for the explorer's graph view: the
    ``limit`` closest and best-connected (ask for one node's neighbours with depth=1)."""
    views = get_services().views
    options = _options(focus=entity, view=True)
    limit = NEIGHBORS_LIMIT.read(request.args.get("limit"))
    if views is not None:
        return views.forward(request, cheap=options.depth <= 1)  # type: ignore[no-any-return]
    services = get_services()
    with _within_limit(f"the neighbourhood of {entity[:100]!r} at depth {options.depth}", _SMALLER):
        selection = select(
            services, focus=options.focus, depth=options.depth, types=options.types, through_nary=options.fold
        )
        capped = capped_view(services, selection, limit, fold=options.fold)
        focus_iri = selection.focus.value if selection.focus is not None else None
        focus = capped.model.nodes.get(focus_iri) if focus_iri else None
        view = _view(capped, limit)
    return jsonify(
        {
            "focus": focus_iri,
            "label": focus.label if focus else None,
            "depth": options.depth,
            "fold": options.fold,
            "types": list(selection.types),
            **view,
        }
    )


def _graph_doc(services: Services) -> dict[str, Any]:
    return get_operation(
        "The whole graph, capped",
        "The data graph as Cytoscape.js elements for drawing: its best-connected `limit` nodes "
        "(`truncated` and `total` say what was left out). Exports (/export/{format}) are never cut.",
        {"200": json_answer(ref(shapes.GraphView), "The graph."), **errors(400, 406, 503)},
        [
            *_view_params(services, GRAPH_LIMIT),
        ],
        tags=["lookup"],
    )


@bp.get("/api/graph")
@documented(_graph_doc)
@cached
def whole_graph() -> Response:
    """The whole data graph as Cytoscape.js elements for the explorer: its ``limit`` best-connected
    nodes (of some types, folded, on request)."""
    views = get_services().views
    options = _options(focus=None, view=True)
    limit = GRAPH_LIMIT.read(request.args.get("limit"))
    if views is not None:
        return views.forward(request)  # type: ignore[no-any-return]
    services = get_services()
    with _within_limit("the whole-graph view", "ask for a lower limit or some types (type=...)"):
        selection = select(services, types=options.types, through_nary=options.fold)
        view = _view(capped_view(services, selection, limit, fold=options.fold), limit)
    return jsonify({"fold": options.fold, "types": list(selection.types), **view})
