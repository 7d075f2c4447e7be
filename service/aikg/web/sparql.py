"""The SPARQL 1.1 Protocol query endpoint at ``/sparql``.

GET ``?query=``, POST form-encoded ``query=``, or POST ``application/sparql-query``; ``default-graph-uri``
and ``named-graph-uri`` (repeatable) set the dataset. Results are negotiated by ``Accept`` (or ``format=``).
GET without a query returns the service description. Updates belong to ``/update`` and are refused here.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from flask import Blueprint, Response, current_app, redirect, request, url_for

from aikg.errors import BadRequest, QuerySyntaxError, UnsupportedMediaType
from aikg.rdf.formats import GRAPH_FORMATS, RESULT_FORMATS
from aikg.rdf.serialize import TRUNCATED_HEADER, serialize_graph, serialize_result
from aikg.store import ResultKind
from aikg.store.terms import graph_to_ox
from aikg.web import get_services, get_store, setting
from aikg.web.cors import allow_cross_origin
from aikg.web.negotiation import HTML, choose, negotiate, rdf_response, request_format, require_any
from aikg.web.response_cache import cached
from aikg.web.service_description import service_description

bp = Blueprint("sparql", __name__)
allow_cross_origin(bp)

QUERY_MIME = "application/sparql-query"
UPDATE_MIME = "application/sparql-update"
FORM_MIME = "application/x-www-form-urlencoded"

_UPDATE_START = re.compile(
    r"^\s*(?:(?:#[^\n]*|PREFIX\s+[\w.-]*:\s*<[^>]*>|BASE\s*<[^>]*>)\s*)*"
    r"(?:INSERT|DELETE|LOAD|CLEAR|CREATE|DROP|COPY|MOVE|ADD|WITH)\b",
    re.IGNORECASE)
"""A prologue followed by an update keyword: the text is a SPARQL Update, not a query."""

_USE_UPDATE = "this endpoint only answers queries: send SPARQL Update to /update"


@dataclass
class ProtocolRequest:
    """A query request as the protocol defines it: the text and the dataset it runs over."""

    query: str | None
    default_graphs: list[str] = field(default_factory=list)
    named_graphs: list[str] = field(default_factory=list)


@bp.route("/sparql", methods=["GET", "POST"])
@cached
def endpoint() -> Response:
    """Answer a SPARQL query, or describe the service when a GET carries none."""
    req = read_request()
    if req.query is None:
        return describe()
    fmt_param = request_format()
    require_any(RESULT_FORMATS + GRAPH_FORMATS, request.accept_mimetypes, fmt_param)
    # The dataset protocol: named graphs alone leave the default graph empty; nothing given means
    # the service's default dataset (the union of the named graphs).
    given = bool(req.default_graphs or req.named_graphs)
    try:
        result = get_services().runner.query(req.query,
                                             default_graphs=req.default_graphs if given else None,
                                             named_graphs=req.named_graphs or None)
    except QuerySyntaxError:
        if _UPDATE_START.match(req.query):
            raise BadRequest(_USE_UPDATE) from None
        raise
    table = GRAPH_FORMATS if result.kind is ResultKind.GRAPH else RESULT_FORMATS
    fmt = choose(table, request.accept_mimetypes, fmt_param)
    resp = rdf_response(serialize_result(result, fmt), fmt)
    resp.headers[TRUNCATED_HEADER] = "true" if result.truncated else "false"
    return resp


def read_request() -> ProtocolRequest:
    """The query and dataset of the current request, refusing what the protocol does not allow."""
    if request.method == "GET":
        return _from_params(request.args, required=False)
    mime = request.mimetype
    if mime == FORM_MIME:
        return _from_params(request.form, required=True)
    if mime == QUERY_MIME:
        charset = request.mimetype_params.get("charset", "utf-8")
        try:
            text = request.get_data().decode(charset)
        except (LookupError, UnicodeDecodeError):
            raise BadRequest(f"the query body is not valid {charset} text") from None
        if not text.strip():
            raise BadRequest("the query body is empty")
        return ProtocolRequest(text, *_graph_params(request.args))
    if mime == UPDATE_MIME:
        raise BadRequest(_USE_UPDATE)
    raise UnsupportedMediaType(
        f"POST a query as {QUERY_MIME} or as {FORM_MIME} with a 'query' field"
        + (f", not {mime}" if mime else " (the request has no Content-Type)"))


def _from_params(params, *, required: bool) -> ProtocolRequest:
    if "update" in params:
        raise BadRequest(_USE_UPDATE)
    queries = params.getlist("query")
    if len(queries) > 1:
        raise BadRequest("give exactly one 'query' parameter")
    if not queries:
        if required:
            raise BadRequest("the request has no 'query' parameter")
        return ProtocolRequest(None)
    if not queries[0].strip():
        raise BadRequest("the 'query' parameter is empty")
    return ProtocolRequest(queries[0], *_graph_params(params))


def _graph_params(params) -> tuple[list[str], list[str]]:
    return params.getlist("default-graph-uri"), params.getlist("named-graph-uri")


def describe() -> Response:
    """The SPARQL 1.1 Service Description (Turtle unless another RDF format is asked for).

    A browser (asking for HTML first) is sent to the explorer's query editor instead.
    """
    fmt = negotiate((*GRAPH_FORMATS, HTML))
    if fmt is HTML:
        if "pages.editor" in current_app.view_functions:
            return redirect(url_for("pages.editor"), code=303)
        fmt = GRAPH_FORMATS[0]
    base = setting("base_url").rstrip("/") or request.url_root.rstrip("/")
    graph = service_description(get_store(), base + "/sparql")
    triples = graph_to_ox(graph)
    return rdf_response(serialize_graph(triples, fmt, prefixes=dict(graph.namespaces())), fmt)
