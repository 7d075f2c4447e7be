"""Writes over HTTP: SPARQL 1.1 Update at ``/update``, the Graph Store Protocol at ``/data``, and
whole-store validation at ``/api/validate``. Every write passes the bearer token and the SHACL gate.
"""

from __future__ import annotations

from collections.abc import Callable

from flask import Blueprint, Response, jsonify, request

from aikg.errors import (
    BadRequest,
    NotAcceptable,
    NotFound,
    PayloadTooLarge,
    UnsupportedMediaType,
    ValidationFailed,
)
from aikg.knowledge import validate
from aikg.rdf import guard
from aikg.rdf.formats import GRAPH_FORMATS, MIME_ALIASES
from aikg.store.base import current_deadline
from aikg.web import get_services, get_store, setting
from aikg.web.auth import require_writer
from aikg.write import gate

bp = Blueprint("writes", __name__)

_TURTLE = "text/turtle"


def _authorize() -> None:
    require_writer(setting("token"), request.headers.get("Authorization"))


def _body() -> bytes:
    """The request body, refused with 413 (naming the setting) when it is over ``max_body``."""
    limit = setting("max_body")
    if request.content_length is not None and request.content_length > limit:
        raise PayloadTooLarge(f"the request body is {request.content_length} bytes, over the limit of "
                              f"{limit} bytes (setting max_body)", errors=[{"limit": "max_body",
                                                                            "bytes": limit}])
    return request.get_data(cache=True)


def _wants_turtle() -> bool:
    return request.accept_mimetypes.best_match(["application/json", _TURTLE]) == _TURTLE


def _gated(write: Callable[[], gate.Outcome]) -> Response:
    """Run a write through the gate; a refusal is the report as JSON envelope, or Turtle on request."""
    try:
        outcome = write()
    except ValidationFailed as exc:
        if exc.report is not None and _wants_turtle():
            return Response(exc.report.to_turtle(), status=422, mimetype=_TURTLE)
        raise
    resp = jsonify(outcome.to_json())
    resp.status_code = 201 if outcome.created else 200
    return resp


@bp.post("/update")
def update() -> Response:
    """SPARQL 1.1 Update, as ``application/sparql-update`` or the form field ``update``."""
    _authorize()
    if request.mimetype == "application/sparql-update":
        try:
            text = _body().decode("utf-8")
        except UnicodeDecodeError:
            raise BadRequest("the update is not valid UTF-8") from None
    elif request.mimetype == "application/x-www-form-urlencoded":
        _body()
        text = request.form.get("update", "")
    else:
        raise UnsupportedMediaType("send the update as application/sparql-update or as the form field "
                                   "'update' (application/x-www-form-urlencoded)")
    if not text.strip():
        raise BadRequest("the update is empty")
    if request.values.getlist("using-graph-uri") or request.values.getlist("using-named-graph-uri"):
        raise BadRequest("using-graph-uri is not supported: write USING <iri> in the update")
    services = get_services()
    return _gated(lambda: services.gate.update(text, deadline=current_deadline()))


def _target() -> str | None:
    """The graph a Graph Store Protocol request names; the default graph is refused for writes."""
    graph = request.args.get("graph")
    if "default" in request.args:
        if graph is not None:
            raise BadRequest("name either ?graph=<iri> or ?default, not both")
        return None
    if graph is None:
        raise BadRequest("name the graph: ?graph=<iri> (aikg keeps every triple in a named graph)")
    return graph


@bp.get("/data")
def data_get() -> Response:
    """Graph Store Protocol GET: one named graph, in the negotiated RDF format (Turtle by default)."""
    graph = _target()
    if graph is None:
        raise BadRequest("aikg keeps every triple in a named graph; the default graph is the union of "
                         "them all: query it at /sparql, or name a graph with ?graph=<iri>")
    store = get_store()
    if graph not in store.graphs():
        raise NotFound(f"no graph {graph[:200]} in the store")
    offered = [f.mime for f in GRAPH_FORMATS]
    accept = request.accept_mimetypes
    mime = accept.best_match(offered, default=None) if accept else _TURTLE
    if mime is None:
        raise NotAcceptable("cannot produce any type in Accept; offered: " + ", ".join(offered))
    return Response(store.dump(mime=mime, graph=graph), mimetype=mime)


def _rdf_body(graph: str) -> list:
    mime = MIME_ALIASES.get(request.mimetype, request.mimetype)
    if mime == "application/json":
        mime = "application/ld+json"
    return guard.parse_rdf(_body(), mime, graph=graph, max_expansion=setting("max_body"))


@bp.put("/data")
def data_put() -> Response:
    """Graph Store Protocol PUT: replace the named graph with the body, through the gate."""
    return _graph_write(replace=True)


@bp.post("/data")
def data_post() -> Response:
    """Graph Store Protocol POST: add the body's triples to the named graph, through the gate."""
    return _graph_write(replace=False)


def _graph_write(*, replace: bool) -> Response:
    _authorize()
    graph = gate.check_graph_iri(_target())
    quads = _rdf_body(graph)
    services = get_services()
    return _gated(lambda: services.gate.put(graph, quads, replace=replace, deadline=current_deadline()))


@bp.delete("/data")
def data_delete() -> Response:
    """Graph Store Protocol DELETE: remove the named graph, through the gate."""
    _authorize()
    graph = gate.check_graph_iri(_target())
    services = get_services()
    if graph not in services.store.graphs():
        raise NotFound(f"no graph {graph[:200]} in the store")
    return _gated(lambda: services.gate.drop(graph, deadline=current_deadline()))


@bp.get("/api/validate")
def validate_all() -> Response:
    """Validate the whole store against the shapes: the JSON report, or Turtle on request.

    It reads every graph, so it counts as a heavy query against ``max_heavy_queries``.
    """
    services = get_services()
    with services.runner.slots.take(services.runner.deadline(), retry_after=setting("query_timeout")):
        result = validate.validate_store(services.store)
    if _wants_turtle():
        return Response(result.to_turtle(), mimetype=_TURTLE)
    return jsonify({"ok": True, **result.to_json()})
