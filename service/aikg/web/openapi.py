"""The OpenAPI 3.1 document of aikg's HTTP surface, as data.

Each route describes itself beside its registration (:func:`aikg.web.params.documented`; its integer
parameters are :class:`aikg.web.params.IntParam` declarations that also read the request): the document's
paths are collected from the app's routes, so a route is declared once. Here are the shared schemas and
responses, and one path per named query with its own typed parameters (from its ``Parameter`` types);
the class names ``type`` accepts are read from the running service. schemathesis checks the document
against a live server (tests/test_hostile.py).
"""

from __future__ import annotations

import re
from functools import cache
from typing import Any

from flask import current_app
from pydantic import TypeAdapter
from pydantic.json_schema import GenerateJsonSchema, JsonSchemaMode, JsonSchemaValue
from pydantic_core import core_schema

from aikg import __version__
from aikg.query.named import RANGES, Parameter
from aikg.services import Services
from aikg.web import describe, shapes
from aikg.web.api import page_params
from aikg.web.params import KindParam, TextParam, description_of, header, path_names_of, text_content

ERROR_STATUSES = {
    400: "Bad request: a missing or malformed parameter (the message names it).",
    401: "Unauthorized: the write came without a valid bearer token.",
    403: "Forbidden: writes are switched off, the request would make aikg fetch something (SERVICE, LOAD), "
    "or it would write a graph aikg maintains.",
    404: "Not found: no such entity, named query, graph or format.",
    405: "Method not allowed (the Allow header lists the methods offered).",
    406: "Not acceptable: none of the media types in Accept can be produced (the message lists them).",
    409: "Conflict: the request conflicts with the store's state (CREATE GRAPH of a graph that exists).",
    413: "Payload too large: the request body is over the configured limit.",
    414: "URI too long: the request line is over 8,190 bytes (long values percent-encoded grow up to "
    "nine times); send a long query or question by POST where the route takes one.",
    415: "Unsupported media type: the request body's Content-Type is not one aikg reads.",
    422: "Validation failed: the data would not conform to the shapes (the report says why).",
    429: "Too many requests: too many heavy queries are running, or other writes held the writer for this "
    "write's whole time limit; retry after Retry-After seconds.",
    503: "Service unavailable: the query ran past its time limit, the store is unavailable, or (a write) "
    "the writer is starting: retry after Retry-After seconds.",
    507: "Insufficient storage: the file system holding the store is full (the message gives its path and "
    "free space); nothing was written, reads go on, and writes work again once space is freed.",
}


class _Schemas(GenerateJsonSchema):
    """pydantic's JSON Schema as the document writes it: no generated titles (a property's title would
    only repeat its name), and a nullable plain type as one ``type`` list (``["string", "null"]``)."""

    def field_title_should_be_set(self, schema: Any) -> bool:
        return False

    def typed_dict_schema(self, schema: core_schema.TypedDictSchema) -> JsonSchemaValue:
        value = super().typed_dict_schema(schema)
        value.pop("title", None)
        return value

    def dataclass_schema(self, schema: core_schema.DataclassSchema) -> JsonSchemaValue:
        value = super().dataclass_schema(schema)
        value.pop("title", None)
        return value

    def nullable_schema(self, schema: core_schema.NullableSchema) -> JsonSchemaValue:
        inner = self.generate_inner(schema["schema"])
        if isinstance(inner.get("type"), str) and "$ref" not in inner:
            return {**inner, "type": [inner["type"], "null"]}
        return {"anyOf": [inner, {"type": "null"}]}


@cache
def component_schemas() -> dict[str, Any]:
    """Every named schema of the document, generated from the answers' declared shapes
    (:mod:`aikg.web.shapes`) by pydantic: those of :data:`~aikg.web.shapes.SHAPES` and all they use."""
    mode: JsonSchemaMode = "serialization"
    adapters = [(shape.__name__, mode, TypeAdapter[Any](shape)) for shape in shapes.SHAPES]
    _, defs = TypeAdapter.json_schemas(
        adapters, ref_template="#/components/schemas/{model}", schema_generator=_Schemas
    )
    return {name: _one_line(schema) for name, schema in sorted(defs["$defs"].items())}


def _one_line(schema: Any) -> Any:
    """``schema`` with its descriptions (docstrings, wrapped in the source) on one line each."""
    if isinstance(schema, list):
        return [_one_line(s) for s in schema]
    if not isinstance(schema, dict):
        return schema
    return {
        k: " ".join(v.split()) if k == "description" and isinstance(v, str) else _one_line(v)
        for k, v in schema.items()
    }


IF_NONE_MATCH = TextParam(
    "If-None-Match",
    "An ETag from an earlier answer: 304 when the data has not changed since.",
    where="header",
)
"""Read by aikg.web.response_cache."""


def _components() -> dict[str, Any]:
    responses: dict[str, Any] = {
        f"E{s}": describe.json_answer(describe.ref(shapes.Error), text) for s, text in ERROR_STATUSES.items()
    }
    responses["E429"]["headers"] = {"Retry-After": header("Seconds to wait before retrying.")}
    responses["NotModified"] = {
        "description": "Not modified: the ETag in If-None-Match is still current.",
        "headers": {"ETag": {"$ref": "#/components/headers/ETag"}},
    }
    return {
        "schemas": component_schemas(),
        "responses": responses,
        "headers": {"ETag": header("Entity tag of this answer for the store's current data.")},
        "parameters": {"IfNoneMatch": IF_NONE_MATCH.describe()},
        "securitySchemes": {
            "bearer": {
                "type": "http",
                "scheme": "bearer",
                "description": "The token set with AIKG_TOKEN (writes only).",
            }
        },
    }


def _declared(param: Parameter) -> KindParam:
    """A named query's parameter as a route parameter of its kind: one with a default, or optional,
    also takes an empty or blank value (read as not given)."""
    return KindParam(
        param.name,
        param.type,
        param.description or param.name,
        required=param.required and param.default is None,
        blank_is_default=param.default is not None or not param.required,
        values=param.values,
    )


def _named_query_paths(services: Services) -> dict[str, Any]:
    queries = services.named.all()
    paths = {}
    for q in queries.values():
        params = [{**_declared(p).describe(), "x-aikg-type": p.type} for p in q.parameters]
        params += [*page_params(services), describe.FORMAT, describe.IF_NONE_MATCH]
        names = {p.name for p in q.parameters}
        # a range whose first day is after its last is a 400 (valid dates each, which a schema cannot relate)
        ranged = any({a, b} <= names for a, b in RANGES)
        paths[f"/api/queries/{q.name}"] = operation = describe.get_operation(
            q.title,
            q.description or q.title,
            {
                **describe.cached_ok(
                    describe.ref(shapes.QueryResult),
                    "The result rows.",
                    text_content("text/csv"),
                ),
                **describe.errors(400, 406, 429, 503),
            },
            params,
            tags=["queries"],
        )
        if ranged:
            operation["get"]["x-aikg-valid-may-be-refused"] = True
    return paths


_RULE_VARIABLE = re.compile(r"<(?:\w+:)?(\w+)>")
_PATH_NAMES = {"entity_id": "id", "entity": "id", "import_id": "id"}
"""The document's names of the routes' path variables, where the two differ."""


def _document_path(rule: str, names: dict[str, str]) -> str:
    """A Flask rule as an OpenAPI path (``/api/entities/<path:entity_id>`` -> ``/api/entities/{id}``)."""
    return _RULE_VARIABLE.sub(lambda m: "{" + names.get(m[1], m[1]) + "}", rule)


def _declared_paths(services: Services) -> dict[str, Any]:
    """The path items the app's routes declare beside themselves (:func:`aikg.web.params.documented`),
    under their rule's path: a route is declared once, and described where it is registered."""
    paths: dict[str, Any] = {}
    for rule in current_app.url_map.iter_rules():
        view = current_app.view_functions[rule.endpoint]
        describe = description_of(view)
        if describe is not None:
            path = _document_path(rule.rule, {**_PATH_NAMES, **path_names_of(view)})
            paths[path] = {**paths.get(path, {}), **describe(services)}
    return paths


def openapi_document(services: Services) -> dict[str, Any]:
    """The whole OpenAPI 3.1 document for this service and its current data."""
    paths = {**_declared_paths(services), **_named_query_paths(services)}
    return {
        "openapi": "3.1.0",
        "info": {
            "title": "aikg",
            "version": __version__,
            "description": "A knowledge graph of the AI-compute industry: lookup API, named queries, "
            "SPARQL 1.1 endpoint, linked data and exports. Every error uses one JSON "
            "envelope {ok: false, status, error, message, errors}.",
        },
        "paths": paths,
        "components": _components(),
    }
