"""The SPARQL 1.1 Protocol query operation at ``/sparql``.

GET (or HEAD) ``?query=``, POST form-encoded ``query=``, or POST ``application/sparql-query``;
``default-graph-uri`` and ``named-graph-uri`` (repeatable) set the dataset — in the URL or, for a form
POST, in the body or the URL. Results are negotiated by ``Accept`` (or ``format=``). Relative IRIs resolve
against the service's base IRI, ``https://w3id.org/aikg/``. GET without a query returns the service
description. Updates belong to ``/update`` and are refused here with a pointer to it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, cast

from flask import Blueprint, Response, current_app, redirect, request, url_for
from werkzeug.datastructures import MultiDict

from aikg import compression
from aikg.errors import BadRequest, QuerySyntaxError, UnsupportedMediaType
from aikg.rdf.formats import GRAPH_FORMATS, HTML, RESULT_FORMATS
from aikg.rdf.serialize import TRUNCATED_HEADER, serialize_graph, serialize_result
from aikg.rdf.tokens import is_update
from aikg.services import Services
from aikg.store import ResultKind
from aikg.store.terms import graph_to_ox
from aikg.web import get_services, get_store
from aikg.web.cors import allow_cross_origin
from aikg.web.describe import errors
from aikg.web.negotiation import acceptable, negotiate, negotiated_response, require_any
from aikg.web.params import TextParam, documented, form, text_content
from aikg.web.protocol import FORM, form_params, single, url_params, utf8_body
from aikg.web.response_cache import accept_variant, cached, takes_gzip
from aikg.web.service_description import service_description, service_root

bp = Blueprint("sparql", __name__)
allow_cross_origin(bp)

QUERY_MIME = "application/sparql-query"
UPDATE_MIME = "application/sparql-update"

_USE_UPDATE = "this endpoint only answers queries: send SPARQL Update to /update"


@dataclass
class ProtocolRequest:
    """A query request as the protocol defines it: the text and the dataset it runs over."""

    query: str | None
    default_graphs: list[str] = field(default_factory=list)
    named_graphs: list[str] = field(default_factory=list)


def _representation() -> tuple[str, str]:
    """The media types this request gets for solutions and for a graph ("" where it would be a 406):
    what the answer is written in, whichever kind the query turns out to be."""
    results, graph = acceptable(RESULT_FORMATS), acceptable(GRAPH_FORMATS)
    return (results.mime if results else "", graph.mime if graph else "")


def _variant() -> tuple[str, ...]:
    """The response cache's representation key: the negotiated formats (a service description asks
    for RDF or HTML, so it keys on the header)."""
    describing = request.method in ("GET", "HEAD") and "query" not in request.args
    return (*_representation(), str(accept_variant()) if describing else "")


QUERY = TextParam("query", "A SPARQL 1.1 query (without it: the service description).")
DEFAULT_GRAPH_URI = TextParam("default-graph-uri", "A default graph (repeatable).", repeatable=True)
NAMED_GRAPH_URI = TextParam("named-graph-uri", "A named graph (repeatable).", repeatable=True)
"""The protocol's parameters (read by aikg.web.protocol, which reads the body's fields alike)."""


def _sparql_doc(_: Services) -> dict[str, Any]:
    """SPARQL 1.1 Protocol queries, by GET and POST."""
    rdf = text_content(*(f.mime for f in GRAPH_FORMATS))
    results: dict[str, dict[str, Any]] = {f.mime: {"schema": {}} for f in RESULT_FORMATS}
    sparql_params = [QUERY.describe(), DEFAULT_GRAPH_URI.describe(), NAMED_GRAPH_URI.describe()]
    sparql_responses = {
        "200": {
            "description": "Query results (SELECT/ASK) or a graph (CONSTRUCT/DESCRIBE, service description).",
            "content": {**results, **rdf},
        },
        **errors(400, 403, 406, 413, 415, 429, 503),
    }
    return {
        "get": {
            "summary": "SPARQL 1.1 query (protocol)",
            "tags": ["sparql"],
            "description": "SPARQL 1.1 Protocol query via GET; the default graph is the union of "
            "all named graphs.",
            "parameters": sparql_params,
            "responses": sparql_responses,
        },
        "post": {
            "summary": "SPARQL 1.1 query (form or direct POST)",
            "tags": ["sparql"],
            "description": "POST application/x-www-form-urlencoded (query=...) or application/sparql-query.",
            "requestBody": {
                "required": True,
                "content": {
                    **text_content("application/sparql-query"),
                    "application/x-www-form-urlencoded": {"schema": form(QUERY)},
                },
            },
            "responses": sparql_responses,
        },
    }


@bp.route("/sparql", methods=["GET", "POST"])
@documented(_sparql_doc)
@cached(variant=_variant)
def endpoint() -> Response:
    """Answer a SPARQL query, or describe the service when a GET carries none."""
    req = read_request()
    if req.query is None:
        return describe()
    require_any(RESULT_FORMATS + GRAPH_FORMATS)
    # The query worker writes the answer in the client's format (whichever kind the answer is).
    render = _representation()
    # The dataset protocol: named graphs alone leave the default graph empty; nothing given means
    # the service's default dataset (the union of the named graphs).
    given = bool(req.default_graphs or req.named_graphs)
    try:
        result = get_services().runner.query(
            req.query,
            default_graphs=req.default_graphs if given else None,
            named_graphs=req.named_graphs or None,
            render=(render[0], render[1]),
            gzip=takes_gzip(),
        )
    except QuerySyntaxError:
        if is_update(req.query):
            raise BadRequest(_USE_UPDATE) from None
        raise
    fmt = negotiate(GRAPH_FORMATS if result.kind is ResultKind.GRAPH else RESULT_FORMATS)
    written = result.rendered
    as_written = written is not None and written[0] == fmt.mime
    body = written[1] if written is not None and as_written else serialize_result(result, fmt)
    resp = negotiated_response(body, fmt)
    if as_written and result.gzipped:
        resp.headers["Content-Encoding"] = compression.ENCODING  # the response cache keeps it so
    resp.headers[TRUNCATED_HEADER] = "true" if result.truncated else "false"
    return resp


def read_request() -> ProtocolRequest:
    """The query and dataset of the current request, refusing what the protocol does not allow."""
    url = url_params()
    if request.method in ("GET", "HEAD"):
        return _from_params(url, required=False)
    mime = request.mimetype
    if mime == FORM:
        body = form_params()
        if "query" in url and "query" in body:
            raise BadRequest(
                "give exactly one 'query' parameter (the request has one in the URL and one in the body)"
            )
        merged = MultiDict(body)
        for name in ("default-graph-uri", "named-graph-uri", "query"):
            for value in url.getlist(name):
                merged.add(name, value)
        return _from_params(merged, required=True)
    if mime == QUERY_MIME:
        if "query" in url:
            raise BadRequest("a direct POST carries the query as its body, not as a 'query' parameter")
        text = utf8_body("query body")
        if not text.strip():
            raise BadRequest("the query body is empty")
        return ProtocolRequest(text, *_graph_params(url))
    if mime == UPDATE_MIME:
        raise BadRequest(_USE_UPDATE)
    raise UnsupportedMediaType(
        f"POST a query as {QUERY_MIME} or as {FORM} with a 'query' field"
        + (f", not {mime}" if mime else " (the request has no Content-Type)")
    )


def _from_params(params: MultiDict[str, str], *, required: bool) -> ProtocolRequest:
    if "update" in params:
        raise BadRequest(_USE_UPDATE)
    query = single(params, "query")
    if query is None:
        if required:
            raise BadRequest("the request has no 'query' parameter")
        return ProtocolRequest(None)
    if not query.strip():
        raise BadRequest("the 'query' parameter is empty")
    return ProtocolRequest(query, *_graph_params(params))


def _graph_params(params: MultiDict[str, str]) -> tuple[list[str], list[str]]:
    return params.getlist("default-graph-uri"), params.getlist("named-graph-uri")


def describe() -> Response:
    """The SPARQL 1.1 Service Description (Turtle unless another RDF format is asked for).

    A browser (asking for HTML first) is sent to the explorer's query editor instead.
    """
    fmt = negotiate((*GRAPH_FORMATS, HTML))
    if fmt is HTML:
        if "pages.editor" in current_app.view_functions:
            # Typed as Werkzeug's base response, flask's redirect builds the app's (Flask's) response class.
            return cast(Response, redirect(url_for("pages.editor"), code=303))
        fmt = GRAPH_FORMATS[0]
    graph = service_description(get_store(), service_root(), get_services().settings)
    return negotiated_response(
        serialize_graph(graph_to_ox(graph), fmt, prefixes=dict(graph.namespaces())), fmt
    )
