"""Writes over HTTP: the SPARQL 1.1 Protocol update operation at ``/update``, the SPARQL 1.1 Graph Store
HTTP Protocol at ``/data`` (and ``/graph/<path>``), and whole-store validation at ``/api/validate``.
Every write passes the bearer token and the SHACL gate.

Graph Store Protocol, as aikg maps it:

- ``/data?graph=<iri>`` names a graph indirectly (§4.2); ``/data?default`` names the store's default graph,
  which for writes is :data:`~aikg.namespaces.DEFAULT_GRAPH` (the default graph queries read is the union
  of all named graphs, so it cannot be written as such).
- ``/graph/<path>`` names the graph ``https://w3id.org/aikg/graph/<path>`` directly (§4.1), as
  ``/id/<slug>`` answers for ``https://w3id.org/aikg/id/<slug>``.
- ``POST /data`` without a graph creates a new graph under ``graph/uploads/`` and answers 201 with the new
  graph's IRI as its ``Location`` (§5.5: "the URI of the newly created graph"; ``GET /data?graph=<it>``
  reads it, as does ``/graph/uploads/…``); ``multipart/form-data`` posts (and puts) the merge of the
  uploaded files.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable
from typing import Any

import pyoxigraph as ox
from flask import Blueprint, Response, jsonify, request

from aikg.errors import (
    BadRequest,
    NotFound,
    PayloadTooLarge,
    StoreError,
    UnsupportedMediaType,
    ValidationFailed,
)
from aikg.namespaces import DEFAULT_GRAPH, GRAPH
from aikg.rdf import guard
from aikg.rdf.formats import GRAPH_FORMATS, JSON, RDF_FORMATS, by_extension, by_media_type
from aikg.services import Services
from aikg.store.base import current_deadline
from aikg.web import current_settings, get_services, get_store, shapes
from aikg.web.auth import require_writer
from aikg.web.cors import WRITE, allow_cross_origin
from aikg.web.describe import EMPTY_UPDATE, IF_NONE_MATCH, UPDATE, errors, get_operation, ref
from aikg.web.negotiation import acceptable, negotiate, negotiated_response, preferred
from aikg.web.params import JSON_LD, TextParam, documented, form, header, text_content
from aikg.web.protocol import FORM, form_params, single, url_params, utf8_body
from aikg.web.response_cache import cached
from aikg.write import gate

bp = Blueprint("writes", __name__)

USING_GRAPH_URI = TextParam("using-graph-uri", "A USING graph (repeatable).", repeatable=True)
USING_NAMED_GRAPH_URI = TextParam(
    "using-named-graph-uri", "A USING NAMED graph (repeatable).", repeatable=True
)
GRAPH_IRI = TextParam(
    "graph", "The graph (absolute IRI), indirectly identified (Graph Store Protocol §4.2).", format="iri"
)
DEFAULT_FLAG = TextParam(
    "default", f"The default graph: for writes and GET, <{DEFAULT_GRAPH}>.", max_length=0
)
GRAPH_PATH = TextParam(
    "path",
    "The graph https://w3id.org/aikg/graph/{path} (direct identification).",
    required=True,
    where="path",
    min_length=1,
)
RDF_FORMAT = TextParam("format", "RDF format (short name or media type); overrides Accept.")
RDF_FILE = TextParam("file", "The RDF file.", media_type="text/turtle")
"""The Graph Store Protocol's and the update's parameters and fields (read by aikg.web.protocol)."""
allow_cross_origin(bp, methods=WRITE)

UPDATE_MIME = "application/sparql-update"
MULTIPART = "multipart/form-data"
UPLOADS = str(GRAPH["uploads/"])
"""Where ``POST /data`` without a graph name creates its new graphs."""
_TURTLE = GRAPH_FORMATS[0]
_RDFXML = next(f for f in RDF_FORMATS if f.name == "rdfxml")


def _authorize() -> None:
    require_writer(current_settings().token, request.headers.get("Authorization"))


def _check_size() -> None:
    """Refuse with 413 (naming the setting) a request body over ``max_body``."""
    limit = current_settings().max_body
    if request.content_length is not None and request.content_length > limit:
        raise PayloadTooLarge(
            f"the request body is {request.content_length} bytes, over the limit of "
            f"{limit} bytes (setting max_body)",
            errors=[{"limit": "max_body", "bytes": limit}],
        )


def _body() -> bytes:
    """The request body, within ``max_body``."""
    _check_size()
    return request.get_data(cache=True)


def _gated(write: Callable[[], gate.Outcome], *, location: str | None = None) -> Response:
    """Run a write through the gate; a refusal is the report as JSON envelope, or Turtle on request."""
    try:
        outcome = write()
    except ValidationFailed as exc:
        if exc.report is not None and preferred((JSON, _TURTLE)) is _TURTLE:
            return Response(exc.report.to_turtle(), status=422, content_type=_TURTLE.content_type)
        raise
    resp = jsonify(outcome.to_json())
    resp.status_code = 201 if outcome.created else 200
    if location and outcome.created:
        resp.headers["Location"] = location
    return resp


# --- SPARQL 1.1 Protocol: update operation --------------------------------------------------------------


def _update_doc(_: Services) -> dict[str, Any]:
    """SPARQL 1.1 Update: GET gives the service description, POST runs an update."""
    a = _write_answers()
    rdf_out, secured, written, refused, write_errors = (
        a[k] for k in ("rdf_out", "secured", "written", "refused", "errors")
    )
    update_form = form(UPDATE, USING_GRAPH_URI, USING_NAMED_GRAPH_URI, required=("update",))
    return {
        "get": {
            "summary": "Service description (SPARQL 1.1 Service Description)",
            "tags": ["writes"],
            "responses": {
                "200": {"description": "The service description.", "content": rdf_out},
                **errors(405, 406),
            },
        },
        "post": {
            "summary": "SPARQL 1.1 Update (protocol)",
            "tags": ["writes"],
            **secured,
            "description": "POST application/sparql-update, or the form field update=. Relative "
            "IRIs resolve against https://w3id.org/aikg/. Every write goes through "
            "the SHACL gate; any graph but the ones aikg maintains may be written.",
            "parameters": [
                USING_GRAPH_URI.describe(),
                USING_NAMED_GRAPH_URI.describe(),
            ],
            "requestBody": {
                "required": True,
                "content": {
                    "application/sparql-update": {"schema": EMPTY_UPDATE},
                    "application/x-www-form-urlencoded": {"schema": update_form},
                },
            },
            "responses": {"200": written, "422": refused, **write_errors},
        },
    }


@bp.route("/update", methods=["GET", "POST"])
@documented(_update_doc)
def update() -> Response:
    """SPARQL 1.1 Update, as ``application/sparql-update`` or the form field ``update``; a GET without
    parameters returns the service description (an update is only ever POSTed)."""
    url = url_params()
    if request.method in ("GET", "HEAD"):
        if "update" in url:
            return _method_not_allowed("an update is sent with POST (SPARQL 1.1 Protocol §2.2)")
        from aikg.web.sparql import describe

        return describe()
    _authorize()
    _body()
    if request.mimetype == UPDATE_MIME:
        if "update" in url:
            raise BadRequest("a direct POST carries the update as its body, not as an 'update' parameter")
        text, params = utf8_body("update"), url
    elif request.mimetype == FORM:
        params = form_params()
        for name in ("using-graph-uri", "using-named-graph-uri"):
            for value in url.getlist(name):
                params.add(name, value)
        if "update" in url:
            raise BadRequest("give exactly one 'update' parameter (the request has one in the URL)")
        found = single(params, "update")
        if found is None:
            raise BadRequest("the request has no 'update' parameter")
        text = found
    else:
        raise UnsupportedMediaType(f"send the update as {UPDATE_MIME} or as the form field 'update' ({FORM})")
    # An empty text (or one of comments and prefixes only) is a valid request of no operations
    # (Update §3, grammar rule Update): it succeeds and changes nothing.
    services = get_services()
    using, using_named = params.getlist("using-graph-uri"), params.getlist("using-named-graph-uri")
    return _gated(
        lambda: services.gate.update(text, deadline=current_deadline(), using=using, using_named=using_named)
    )


def _method_not_allowed(message: str) -> Response:
    from aikg.web.errors import error_response

    return error_response(405, "method not allowed", message, headers={"Allow": "POST"})


# --- SPARQL 1.1 Graph Store HTTP Protocol -----------------------------------------------------------------


def _indirect() -> str | None:
    """The graph ``/data`` names: ``?graph=<iri>``, ``?default`` (:data:`DEFAULT_GRAPH`), or None (the
    graph store itself)."""
    params = url_params()
    graph = single(params, "graph")
    if "default" in params:
        if any(params.getlist("default")):
            raise BadRequest("?default takes no value (the query component is the word 'default')")
        if graph is not None:
            raise BadRequest("name either ?graph=<iri> or ?default, not both")
        return str(DEFAULT_GRAPH)
    if graph is None:
        return None
    try:
        iri = ox.NamedNode(graph).value
    except ValueError:
        raise BadRequest(f"the graph IRI is not valid: {graph[:200]}") from None
    if ":" not in iri:  # a relative reference: §4.2 requires an absolute IRI
        raise BadRequest(f"the graph IRI must be absolute: {graph[:200]}")
    return iri


def _direct(path: str) -> str:
    """The graph ``/graph/<path>`` identifies: ``https://w3id.org/aikg/graph/<path>``."""
    iri = str(GRAPH[path])
    try:
        return ox.NamedNode(iri).value
    except ValueError:
        raise BadRequest(f"no graph can be named by the path {path[:200]!r}") from None


def _named_or_400(graph: str | None) -> str:
    if graph is None:
        raise BadRequest(
            f"name the graph: ?graph=<iri>, or ?default for <{DEFAULT_GRAPH}> (the default graph "
            "that queries read is the union of all named graphs)"
        )
    return graph


def _graph_variant() -> str:
    """The response cache's representation key for a graph: the negotiated RDF format."""
    found = acceptable(GRAPH_FORMATS)
    return found.mime if found else ""


def _write_answers() -> dict[str, Any]:
    """What the write routes take and answer: RDF bodies in and out, the outcome of a write."""
    rdf_in: dict[str, Any] = text_content(*(f.mime for f in RDF_FORMATS))
    rdf_in["application/ld+json"] = {"schema": JSON_LD}
    rdf_in["multipart/form-data"] = {"schema": form(RDF_FILE)}
    rdf_out = text_content(*(f.mime for f in GRAPH_FORMATS))
    secured = {"security": [{"bearer": []}], "x-aikg-valid-may-be-refused": True}
    written = {
        "description": "The write was committed.",
        "content": {"application/json": {"schema": ref(shapes.WriteOutcome)}},
    }
    created = {
        "description": "A new graph was created.",
        "content": {"application/json": {"schema": ref(shapes.WriteOutcome)}},
        "headers": {
            "Location": header(
                "The new graph's IRI (GET /data?graph=<it> reads it; /graph/uploads/… "
                "identifies it directly)."
            )
        },
    }
    refused = {
        "description": "Validation failed: the data would not conform to the shapes.",
        "content": {
            "application/json": {"schema": ref(shapes.Error)},
            **text_content("text/turtle"),
        },
    }
    write_errors = errors(400, 401, 403, 404, 406, 409, 413, 415, 429, 503, 507)
    return {
        "rdf_in": rdf_in,
        "rdf_out": rdf_out,
        "secured": secured,
        "written": written,
        "created": created,
        "refused": refused,
        "errors": write_errors,
    }


def _graph_params() -> list[dict[str, Any]]:
    """A graph named by ?graph= or ?default (indirect identification)."""
    return [GRAPH_IRI.describe(), {**DEFAULT_FLAG.describe(), "allowEmptyValue": True}]


def _path_param() -> list[dict[str, Any]]:
    """A graph named by its path under /graph/ (direct identification)."""
    return [GRAPH_PATH.describe()]


def _gsp(params: list[dict[str, Any]], *, store_post: bool) -> dict[str, Any]:
    """A graph of the Graph Store HTTP Protocol: read, replace, add to, remove."""
    a = _write_answers()
    rdf_in, rdf_out, secured, write_errors = a["rdf_in"], a["rdf_out"], a["secured"], a["errors"]
    written, created, refused = a["written"], a["created"], a["refused"]
    fmt_param = RDF_FORMAT.describe()
    body = {"required": False, "content": rdf_in}
    post_ok = {"200": written, "201": created, "204": {"description": "Empty body: nothing changed."}}
    return {
        "parameters": params,
        "get": {
            "summary": "Read a graph (Graph Store Protocol GET)",
            "tags": ["writes"],
            "x-aikg-valid-may-be-refused": True,
            "parameters": [fmt_param, IF_NONE_MATCH],
            "responses": {
                "200": {"description": "The graph.", "content": rdf_out},
                "304": {"$ref": "#/components/responses/NotModified"},
                **errors(400, 404, 406, 503),
            },
        },
        "put": {
            "summary": "Replace a graph (Graph Store Protocol PUT)",
            "tags": ["writes"],
            **secured,
            "requestBody": body,
            "responses": {"200": written, "201": created, "422": refused, **write_errors},
        },
        "post": {
            "summary": "Add to a graph"
            + (", or create a new one without a graph name" if store_post else "")
            + " (Graph Store Protocol POST)",
            "tags": ["writes"],
            **secured,
            "requestBody": body,
            "responses": {**post_ok, "422": refused, **write_errors},
        },
        "delete": {
            "summary": "Remove a graph (Graph Store Protocol DELETE)",
            "tags": ["writes"],
            **secured,
            "responses": {
                "200": written,
                "204": {"description": "The default graph was already empty."},
                "422": refused,
                **write_errors,
            },
        },
    }


def _data_doc(_: Services) -> dict[str, Any]:
    return _gsp(_graph_params(), store_post=True)


def _direct_doc(_: Services) -> dict[str, Any]:
    return _gsp(_path_param(), store_post=False)


@bp.get("/data")
@documented(_data_doc)
@cached(variant=_graph_variant)
def data_get() -> Response:
    """Graph Store Protocol GET (and HEAD): one graph, in the negotiated RDF format (Turtle by default)."""
    return _read_graph(_named_or_400(_indirect()))


@bp.get("/graph/<path:path>")
@documented(_direct_doc)
@cached(variant=_graph_variant)
def direct_get(path: str) -> Response:
    """GET (and HEAD) of a graph by its own URL (direct graph identification)."""
    return _read_graph(_direct(path))


def _read_graph(graph: str) -> Response:
    fmt = negotiate(GRAPH_FORMATS)
    store = get_store()
    if not store.has_graph(graph):
        if graph != str(DEFAULT_GRAPH):  # the default graph always exists (Update §3.2), maybe empty
            raise NotFound(f"no graph {graph[:200]} in the store", errors=[{"graph": graph}])
        return negotiated_response(b"", fmt)
    return negotiated_response(store.dump(mime=fmt.mime, graph=graph), fmt)


@bp.put("/data")
def data_put() -> Response:
    """Graph Store Protocol PUT: replace the named graph with the body, through the gate."""
    return _graph_write(_named_or_400(_indirect()), replace=True)


@bp.put("/graph/<path:path>")
def direct_put(path: str) -> Response:
    """PUT of a graph by its own URL."""
    return _graph_write(_direct(path), replace=True)


@bp.post("/data")
def data_post() -> Response:
    """Graph Store Protocol POST: merge the body into the named graph; without a graph name, create a
    new graph (201 with its Location)."""
    graph = _indirect()
    if graph is None:
        new = f"{UPLOADS}{uuid.uuid4()}"
        return _graph_write(new, replace=False, location=new)
    return _graph_write(graph, replace=False)


@bp.post("/graph/<path:path>")
def direct_post(path: str) -> Response:
    """POST to a graph by its own URL."""
    return _graph_write(_direct(path), replace=False)


def _graph_write(graph: str, *, replace: bool, location: str | None = None) -> Response:
    _authorize()
    target = gate.check_graph_iri(graph)
    quads = _rdf_quads(target)
    services = get_services()
    if not quads and not replace:
        return Response(status=204)  # §5.5: an empty POST changes nothing
    if not quads and not services.store.has_graph(target):
        raise BadRequest("the body holds no triples, and aikg keeps no empty graphs: nothing to create")
    return _gated(
        lambda: services.gate.put(target, quads, replace=replace, deadline=current_deadline()),
        location=location,
    )


def _rdf_quads(graph: str) -> list[ox.Quad]:
    """The body's triples, into ``graph``: one RDF document, or the files of a multipart form."""
    limit = current_settings().max_body
    if request.mimetype == MULTIPART:
        _check_size()
        files = [f for _, f in request.files.items(multi=True) if f.filename or f.mimetype]
        if not files:
            raise BadRequest("the multipart/form-data request holds no file")
        quads: list[ox.Quad] = []
        for f in files:
            fmt = (
                by_media_type(f.mimetype, RDF_FORMATS)
                if f.mimetype not in ("", "application/octet-stream")
                else None
            )
            fmt = fmt or by_extension(f.filename or "")
            if fmt is None:
                raise UnsupportedMediaType(
                    f"cannot tell the RDF format of the part {f.filename!r}: give it a "
                    "Content-Type or a known extension (.ttl, .nt, .nq, .trig, .jsonld, "
                    ".rdf)"
                )
            quads += guard.parse_rdf(f.read(), fmt.mime, graph=graph, max_expansion=limit)
        return quads
    # §5: without a Content-Type the payload SHOULD be read as RDF/XML.
    mime = request.mimetype or _RDFXML.mime
    return guard.parse_rdf(_body(), mime, graph=graph, max_expansion=limit)


@bp.delete("/data")
def data_delete() -> Response:
    """Graph Store Protocol DELETE: remove the named graph, through the gate."""
    return _graph_delete(_named_or_400(_indirect()))


@bp.delete("/graph/<path:path>")
def direct_delete(path: str) -> Response:
    """DELETE of a graph by its own URL."""
    return _graph_delete(_direct(path))


def _graph_delete(graph: str) -> Response:
    _authorize()
    target = gate.check_graph_iri(graph)
    services = get_services()
    if not services.store.has_graph(target):
        if target == str(DEFAULT_GRAPH):
            return Response(status=204)  # DROP DEFAULT: the default graph is emptied, and it was empty
        raise NotFound(f"no graph {target[:200]} in the store", errors=[{"graph": target}])
    return _gated(lambda: services.gate.drop(target, deadline=current_deadline()))


def _validate_doc(_: Services) -> dict[str, Any]:
    return get_operation(
        "Validate the store",
        "Every graph validated against the SHACL shapes, as a job: the report is computed once per "
        "store version, in the background (after writes, and when first asked for), one computation "
        "at a time whatever the requests and their query strings. Until the current version's "
        "report is ready the answer is 202 with Retry-After (ask again then) and the last complete "
        "report of an older version, if any, under previous. A computation that failed (its time "
        "limit is write_timeout) gives 503 until the data changes or Retry-After passes. The "
        "sh:ValidationReport in Turtle on request.",
        {
            "200": {
                "description": "The validation report of the store's current version.",
                "content": {
                    "application/json": {"schema": ref(shapes.ValidationReport)},
                    **text_content("text/turtle"),
                },
            },
            "202": {
                "description": "The report of the current version is still to come.",
                "headers": {"Retry-After": header("Seconds to wait before asking again.")},
                "content": {"application/json": {"schema": ref(shapes.ValidationPending)}},
            },
            **errors(406, 503),
        },
        tags=["writes"],
    )


@bp.get("/api/validate")
@documented(_validate_doc)
def validate_all() -> Response:
    """The whole store's validation report for its current version: JSON, or Turtle on request.

    It is a job (:mod:`aikg.knowledge.validation_job`), never computed on a request thread: once per
    store version, one computation at a time, whatever the query string. Until the current version's
    report is ready the answer is 202 with Retry-After, and the last complete report of an older
    version, if there is one, under ``previous`` (its version named), never in the place of this one.
    """
    fmt = negotiate((JSON, _TURTLE))
    found = get_services().validation.state()
    if found.state == "failed":
        assert found.finished is not None
        raise StoreError(
            f"the whole-store validation of store version {found.version} did not finish: "
            f"{found.finished.message}; it is tried again after the next write, or in "
            f"{found.retry_after} s",
            errors=[{"version": found.version, "seconds": found.finished.seconds}],
            headers={"Retry-After": str(found.retry_after)},
        )
    if found.state != "done":
        resp = jsonify(found.to_json())
        resp.status_code = 202
        resp.headers["Retry-After"] = str(found.retry_after)
        resp.headers["Cache-Control"] = "no-store"
        return resp
    assert found.finished is not None and found.finished.report is not None
    if fmt is _TURTLE:
        resp = Response(found.finished.report["turtle"], content_type=_TURTLE.content_type)
    else:
        resp = jsonify({"ok": True, **found.finished.summary()})
    resp.vary.add("Accept")
    return resp
