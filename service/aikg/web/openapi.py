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
from typing import Any

from flask import current_app

from aikg import __version__
from aikg.query.named import Parameter
from aikg.services import Services
from aikg.web.api import page_params
from aikg.web.describe import (
    FORMAT,
    IF_NONE_MATCH,
    PARAM_SCHEMAS,
    cached_ok,
    errors,
    get_operation,
    json_answer,
    ref,
)
from aikg.web.params import NOT_GIVEN, description_of, path_names_of, query_param

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


def _schemas() -> dict[str, Any]:
    """Every named schema of the document, by the part of the surface that answers it."""
    return {
        "Error": {
            "type": "object",
            "required": ["ok", "status", "error", "message", "errors"],
            "properties": {
                "ok": {"const": False},
                "status": {"type": "integer"},
                "error": {"type": "string"},
                "message": {"type": "string"},
                "errors": {"type": "array"},
            },
        },
        **_entity_schemas(),
        **_lookup_schemas(),
        **_query_schemas(),
        **_write_schemas(),
    }


def _entity_parts() -> dict[str, Any]:
    """The pieces an entity is told in: a term, a node, a source, a fact, a relation."""
    term = {
        "type": "object",
        "required": ["iri", "name", "label"],
        "properties": {"iri": {"type": "string"}, "name": {"type": "string"}, "label": {"type": "string"}},
    }
    node = {
        "type": "object",
        "required": ["id", "iri", "label", "types"],
        "properties": {
            "id": {"type": ["string", "null"]},
            "iri": {"type": "string"},
            "label": {"type": "string"},
            "types": {"type": "array", "items": ref("Term")},
            "expanded": ref("Expansion"),
        },
    }
    source = {
        "type": "object",
        "required": ["graph", "document", "certainty"],
        "properties": {
            "graph": {"type": "string"},
            "document": {
                "type": ["object", "null"],
                "properties": {"iri": {"type": "string"}, "title": {"type": ["string", "null"]}},
            },
            "certainty": {"anyOf": [ref("Term"), {"type": "null"}]},
            "evidence": {
                "type": "array",
                "description": "What the fact rests on in this graph: the sentences of the document that "
                "state it (quotation, word for word), aikg's reason for a curated fact (rationale), or the "
                "cell of a dataset's file it was read from (cell: file, row, column).",
                "items": {
                    "type": "object",
                    "required": ["kind"],
                    "properties": {
                        "kind": {"enum": ["quotation", "rationale", "cell"]},
                        "iri": {"type": "string"},
                        "text": {"type": "string"},
                        "lang": {"type": ["string", "null"]},
                        "file": {"type": "string"},
                        "row": {"type": "integer"},
                        "columns": {"type": "array", "items": {"type": "string"}},
                    },
                },
            },
        },
    }
    return {"Term": term, "Node": node, "Source": source, **_fact_parts()}


def _fact_parts() -> dict[str, Any]:
    """A fact (a value with its unit and sources) and a relation (a link with its sources)."""
    fact = {
        "type": "object",
        "required": ["property", "value", "datatype", "lang", "unit", "qualifier", "sources"],
        "properties": {
            "property": ref("Term"),
            "value": {"type": "string"},
            "datatype": {"type": ["string", "null"]},
            "lang": {"type": ["string", "null"]},
            "number": {"type": "number"},
            "unit": {
                "type": ["object", "null"],
                "properties": {
                    "iri": {"type": "string"},
                    "symbol": {"type": "string"},
                    "label": {"type": "string"},
                },
            },
            "qualifier": {
                "type": ["object", "null"],
                "properties": {
                    "iri": {"type": "string"},
                    "label": {"type": "string"},
                    "symbol": {"type": "string"},
                },
            },
            "sources": {"type": "array", "items": ref("Source")},
        },
    }
    relation = {
        "type": "object",
        "required": ["property", "node", "sources"],
        "properties": {
            "property": ref("Term"),
            "node": ref("Node"),
            "sources": {"type": "array", "items": ref("Source")},
        },
    }
    return {"Fact": fact, "Relation": relation}


def _entity_schemas() -> dict[str, Any]:
    """GET /api/entities/{id} and its relation pages."""
    group: dict[str, Any] = {
        "type": "object",
        "required": ["direction", "property", "total", "offset", "limit", "count", "next"],
        "properties": {
            "direction": {"enum": ["outgoing", "incoming"]},
            "property": ref("Term"),
            "total": {"type": "integer", "description": "Distinct other ends the property links."},
            "offset": {"type": "integer"},
            "limit": {"type": "integer"},
            "count": {"type": "integer", "description": "Links on this page."},
            "next": {
                "type": ["string", "null"],
                "description": "The next page (GET /api/entities/{id}/relations), null after the last.",
            },
        },
    }
    described = {
        "type": "object",
        "required": ["property", "value", "sources"],
        "properties": {
            "property": ref("Term"),
            "value": {"type": "string"},
            "lang": {"type": ["string", "null"]},
            "sources": {"type": "array", "items": ref("Source")},
        },
    }
    expansion = {
        "type": "object",
        "required": ["facts", "relations"],
        "properties": {
            "facts": {"type": "array", "items": ref("Fact")},
            "relations": {"type": "array", "items": ref("Relation")},
            "descriptions": {"type": "array", "items": ref("Description")},
        },
    }
    document = {
        "type": "object",
        "required": ["graph"],
        "properties": {
            "graph": {"type": "string"},
            "id": {"type": ["string", "null"]},
            "iri": {"type": "string"},
            "title": {"type": ["string", "null"]},
            "publisher": {"type": ["object", "null"]},
            "date": {"type": ["string", "null"]},
            "url": {"type": ["string", "null"]},
            "language": {"type": ["string", "null"]},
        },
    }
    return {
        **_entity_parts(),
        "RelationGroup": group,
        "RelationPage": {
            "type": "object",
            "required": [*group["required"], "entity", "relations", "documents", "truncated"],
            "properties": {
                **group["properties"],
                "entity": {
                    "type": "object",
                    "properties": {
                        "id": {"type": ["string", "null"]},
                        "iri": {"type": "string"},
                        "label": {"type": "string"},
                    },
                },
                "relations": {"type": "array", "items": ref("Relation")},
                "documents": {"type": "array", "items": ref("Document")},
                "truncated": {"type": "boolean"},
            },
        },
        "Description": described,
        "Expansion": expansion,
        "Document": document,
        "Entity": _entity_schema(),
    }


def _entity_schema() -> dict[str, Any]:
    """GET /api/entities/{id}: an entity with its facts, relations and documents."""
    return {
        "type": "object",
        "required": [
            "id",
            "iri",
            "label",
            "labels",
            "altLabels",
            "types",
            "description",
            "facts",
            "relations",
            "documents",
            "truncated",
        ],
        "properties": {
            "id": {"type": ["string", "null"]},
            "iri": {"type": "string"},
            "label": {"type": "string"},
            "labels": {"type": "object", "additionalProperties": {"type": "string"}},
            "altLabels": {
                "type": "array",
                "items": {
                    "type": "object",
                    "properties": {"value": {"type": "string"}, "lang": {"type": ["string", "null"]}},
                },
            },
            "types": {"type": "array", "items": ref("Term")},
            "description": {"type": ["string", "null"]},
            "descriptions": {"type": "array", "items": ref("Description")},
            "facts": {"type": "array", "items": ref("Fact")},
            "relations": {
                "type": "object",
                "required": ["outgoing", "incoming", "groups"],
                "properties": {
                    "outgoing": {"type": "array", "items": ref("Relation")},
                    "incoming": {"type": "array", "items": ref("Relation")},
                    "groups": {
                        "type": "array",
                        "items": ref("RelationGroup"),
                        "description": "One entry per direction and property: how many links the group "
                        "has and where its next page is.",
                    },
                },
            },
            "documents": {"type": "array", "items": ref("Document")},
            "truncated": {"type": "boolean"},
        },
    }


def _lookup_schemas() -> dict[str, Any]:
    """Search, types, statistics and health."""
    hit = {
        "type": "object",
        "required": ["id", "iri", "label", "matched", "match", "types", "score"],
        "properties": {
            "id": {"type": "string"},
            "iri": {"type": "string"},
            "label": {"type": "string"},
            "matched": {"type": "string"},
            "match": {"enum": ["exact", "prefix", "word", "substring", "words", "parties", "misspelt"]},
            "types": {"type": "array", "items": ref("Term")},
            "score": {"type": "number"},
            "description": {
                "type": "string",
                "description": "What tells namesakes apart: kind · maker · year.",
            },
            "kind": {"type": "string"},
            "makers": {
                "type": "array",
                "items": {
                    "type": "object",
                    "properties": {"id": {"type": "string"}, "label": {"type": "string"}},
                },
            },
            "year": {"type": ["string", "null"]},
        },
    }
    return {
        "SearchHit": hit,
        "SearchResponse": {
            "type": "object",
            "required": ["query", "type", "limit", "offset", "next", "results"],
            "properties": {
                "query": {"type": "string"},
                "type": {"type": ["string", "null"]},
                "limit": {"type": "integer"},
                "offset": {"type": "integer"},
                "next": {
                    "type": ["string", "null"],
                    "description": "The address of the next page of matches, or null when there is none.",
                },
                "results": {"type": "array", "items": ref("SearchHit")},
            },
        },
        **_status_schemas(),
    }


def _status_schemas() -> dict[str, Any]:
    """Types, statistics and health."""
    return {
        "TypesResponse": {
            "type": "object",
            "required": ["types"],
            "properties": {
                "types": {
                    "type": "array",
                    "items": {
                        "type": "object",
                        "required": ["iri", "name", "label", "direct", "total"],
                        "properties": {
                            "iri": {"type": "string"},
                            "name": {"type": "string"},
                            "label": {"type": "string"},
                            "parents": {"type": "array", "items": ref("Term")},
                            "direct": {"type": "integer"},
                            "total": {"type": "integer"},
                        },
                    },
                }
            },
        },
        "StatsResponse": {
            "type": "object",
            "required": ["triples", "graphs", "entities", "sources"],
            "properties": {
                "triples": {"type": "integer"},
                "entities": {"type": "integer"},
                "graphs": {
                    "type": "array",
                    "items": {
                        "type": "object",
                        "properties": {"graph": {"type": "string"}, "triples": {"type": "integer"}},
                    },
                },
                "sources": {"type": "array", "items": {"type": "object"}},
            },
        },
        "Health": {
            "type": "object",
            "required": ["ok", "store", "version", "reads", "writes"],
            "properties": {
                "ok": {"type": "boolean"},
                "store": {"type": "string"},
                "version": {"type": "integer"},
                "reads": {"type": "string", "enum": ["ready"]},
                "writes": {
                    "type": "string",
                    "enum": ["ready", "starting", "off"],
                    "description": "starting: the writer process is starting, a write now is 503 with "
                    "Retry-After; off: no token is configured",
                },
            },
        },
    }


def _query_schemas() -> dict[str, Any]:
    """Named queries, their answers, the ask answer and graph views."""
    parameter = {
        "type": "object",
        "required": ["name", "type", "description", "required"],
        "properties": {
            "name": {"type": "string"},
            "type": {"enum": ["entity", "iri", "string", "date", "integer", "decimal"]},
            "description": {"type": "string"},
            "required": {"type": "boolean"},
            "default": {"type": ["string", "null"]},
        },
    }
    return {
        "Parameter": parameter,
        "NamedQuery": {
            "type": "object",
            "required": ["name", "title", "description", "parameters"],
            "properties": {
                "name": {"type": "string"},
                "title": {"type": "string"},
                "description": {"type": "string"},
                "parameters": {"type": "array", "items": ref("Parameter")},
                "examples": {"type": "array", "items": {"type": "string"}},
                "charts": {
                    "type": "array",
                    "description": "How the explorer draws the answer: one object per '# chart:' line of "
                    "the query's header (type: scatter, line, bar or auto; x, y, color, label, link, status, "
                    "source name columns; log: x, y or xy; top; title).",
                    "items": {"type": "object", "additionalProperties": {"type": "string"}},
                },
            },
        },
        "AskResponse": _ask_schema(),
        "QueryList": {
            "type": "object",
            "required": ["queries"],
            "properties": {"queries": {"type": "array", "items": ref("NamedQuery")}},
        },
        **_answer_schemas(),
    }


def _answer_schemas() -> dict[str, Any]:
    """A named query's result rows and the graph views."""
    cell = {
        "type": ["object", "null"],
        "required": ["value", "type"],
        "properties": {
            "value": {"type": "string"},
            "type": {"enum": ["uri", "literal", "bnode"]},
            "datatype": {"type": "string"},
            "lang": {"type": "string"},
            "id": {"type": "string"},
            "label": {"type": "string"},
        },
    }
    return {
        "Cell": cell,
        "QueryResult": {
            "type": "object",
            "required": ["query", "columns", "rows", "truncated"],
            "properties": {
                "query": {"type": "string"},
                "parameters": {"type": "object"},
                "applied": {
                    "type": "object",
                    "additionalProperties": {"type": "string"},
                    "description": "Every parameter the answer was computed with: the caller's, and the "
                    "defaults of those not given (a ranking's include=likely, say).",
                },
                "columns": {"type": "array", "items": {"type": "string"}},
                "rows": {"type": "array", "items": {"type": "object", "additionalProperties": ref("Cell")}},
                "truncated": {"type": "boolean", "description": "More rows follow this page."},
                "limit": {"type": "integer", "description": "Rows per page (the row cap unless asked)."},
                "offset": {"type": "integer"},
                "next": {"type": ["string", "null"], "description": "The next page, null after the last."},
            },
        },
        "Neighbors": {
            "type": "object",
            "required": ["focus", "elements", "truncated", "total"],
            "properties": {
                "focus": {"type": "string"},
                "label": {"type": ["string", "null"]},
                "depth": {"type": "integer"},
                "fold": {"type": "boolean"},
                "types": {"type": "array"},
                **_CAPPED,
            },
        },
        "GraphView": {
            "type": "object",
            "required": ["elements", "truncated", "total"],
            "properties": {"fold": {"type": "boolean"}, "types": {"type": "array"}, **_CAPPED},
        },
    }


def _write_schemas() -> dict[str, Any]:
    """What a write and a validation answer."""
    return {
        "WriteOutcome": {
            "type": "object",
            "required": ["ok", "operation", "added", "removed", "graphs", "validated_nodes"],
            "properties": {
                "ok": {"const": True},
                "operation": {"type": "string"},
                "added": {"type": "integer"},
                "removed": {"type": "integer"},
                "graphs": {"type": "array", "items": {"type": "string"}},
                "validated_nodes": {"type": "integer"},
                "notes": {
                    "type": "array",
                    "items": {"type": "string"},
                    "description": "What the write did beyond its quads: the client graphs a CLEAR or DROP "
                    "ALL/NAMED reached, a SILENT operation skipped.",
                },
            },
        },
        "ValidationReport": {
            "type": "object",
            "required": ["version", "conforms", "count", "violations", "started", "seconds"],
            "properties": {
                "ok": {"type": "boolean"},
                "version": {"type": "integer", "description": "The store version this report is of."},
                "conforms": {"type": "boolean"},
                "count": {"type": "integer", "minimum": 0},
                "violations": {"type": "array", "items": ref("Violation")},
                "started": {"type": "string", "format": "date-time", "description": "When it was computed."},
                "seconds": {"type": "number", "description": "How long the computation took."},
            },
        },
        "Violation": {
            "type": "object",
            "required": ["focus_node", "path", "message", "severity", "shape", "value"],
            "properties": {
                "focus_node": {"type": "string"},
                "path": {"type": ["string", "null"]},
                "message": {"type": "string"},
                "severity": {"type": "string"},
                "shape": {"type": "string"},
                "value": {"type": ["string", "null"]},
            },
        },
        "ValidationPending": {
            "type": "object",
            "required": ["ok", "state", "version", "started", "retry_after", "message", "previous"],
            "properties": {
                "ok": {"const": True},
                "state": {
                    "enum": ["running", "queued"],
                    "description": "running: this version's report is being computed; queued: it will be "
                    "once the computation running (of an older version) ends.",
                },
                "version": {"type": "integer", "description": "The store version whose report is to come."},
                "started": {"type": ["string", "null"], "format": "date-time"},
                "retry_after": {"type": "integer", "minimum": 1, "description": "As the Retry-After header."},
                "message": {"type": "string"},
                "previous": {
                    "anyOf": [ref("ValidationReport"), {"type": "null"}],
                    "description": "The last complete report, of an older store version (its version "
                    "says which); null if there is none yet.",
                },
            },
        },
    }


_CAPPED: dict[str, Any] = {
    "elements": {"type": "object", "properties": {"nodes": {"type": "array"}, "edges": {"type": "array"}}},
    "limit": {"type": "integer"},
    "truncated": {"type": "boolean"},
    "total": {"type": "integer", "description": "Nodes of the whole selection."},
    "shown": {"type": "integer", "description": "Nodes answered."},
}
"""Fields of a capped graph view."""


def _components() -> dict[str, Any]:
    responses: dict[str, Any] = {
        f"E{s}": json_answer(ref("Error"), text) for s, text in ERROR_STATUSES.items()
    }
    responses["E429"]["headers"] = {
        "Retry-After": {"description": "Seconds to wait before retrying.", "schema": {"type": "string"}}
    }
    responses["NotModified"] = {
        "description": "Not modified: the ETag in If-None-Match is still current.",
        "headers": {"ETag": {"$ref": "#/components/headers/ETag"}},
    }
    return {
        "schemas": _schemas(),
        "responses": responses,
        "headers": {
            "ETag": {
                "description": "Entity tag of this answer for the store's current data.",
                "schema": {"type": "string"},
            }
        },
        "parameters": {
            "IfNoneMatch": {
                "name": "If-None-Match",
                "in": "header",
                "required": False,
                "description": "An ETag from an earlier answer: 304 when the data has not changed since.",
                "schema": {"type": "string"},
            }
        },
        "securitySchemes": {
            "bearer": {
                "type": "http",
                "scheme": "bearer",
                "description": "The token set with AIKG_TOKEN (writes only).",
            }
        },
    }


def _param_schema(param: Parameter) -> dict[str, Any]:
    """A named-query parameter's schema; one with a default, or optional, also takes an empty or blank
    value (read as not given)."""
    schema = dict(PARAM_SCHEMAS.get(param.type, {"type": "string"}))
    if param.default is not None or not param.required:
        return {"anyOf": [schema, NOT_GIVEN]}
    return schema


def _named_query_paths(services: Services) -> dict[str, Any]:
    queries = services.named.all()
    paths = {}
    for q in queries.values():
        params = [
            {
                **query_param(
                    p.name,
                    _param_schema(p),
                    p.description or p.name,
                    required=p.required and p.default is None,
                ),
                "x-aikg-type": p.type,
            }
            for p in q.parameters
        ]
        params += [*page_params(services), FORMAT, IF_NONE_MATCH]
        paths[f"/api/queries/{q.name}"] = get_operation(
            q.title,
            q.description or q.title,
            {
                **cached_ok(
                    ref("QueryResult"), "The result rows.", {"text/csv": {"schema": {"type": "string"}}}
                ),
                **errors(400, 406, 429, 503),
            },
            params,
            tags=["queries"],
        )
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


def _ask_schema() -> dict[str, Any]:
    """The JSON of /api/ask (see aikg.ask.asker)."""
    understood = {
        "type": "object",
        "required": ["query", "parameters", "entity", "confidence"],
        "properties": {
            "query": {"type": ["string", "null"]},
            "parameters": {"type": "object"},
            "entity": {"type": ["string", "null"]},
            "confidence": {"type": "number", "minimum": 0, "maximum": 1},
            "form": {"type": "object", "description": "The logical form of a composed answer."},
            "description": {"type": "string", "description": "What the answer did, in words."},
            "sparql": {"type": "string", "description": "The SPARQL a composed answer ran."},
            "sure": {
                "type": "boolean",
                "description": "False when the reading left words of the question unexplained: the "
                "answer is then not shown (kind 'unsure').",
            },
            "unknown": {
                "type": "array",
                "items": {"type": "string"},
                "description": "The words of the question the reading does not account for.",
            },
        },
    }
    alternative = {
        "type": "object",
        "required": ["query", "parameters", "confidence"],
        "properties": {
            "query": {"type": "string"},
            "parameters": {"type": "object"},
            "confidence": {"type": "number", "minimum": 0, "maximum": 1},
        },
    }
    answer = {
        "type": "object",
        "required": ["kind"],
        "properties": {"kind": {"enum": ["rows", "facts", "none", "timeout", "unsure"]}},
    }
    return {
        "type": "object",
        "required": ["question", "understood", "answer", "abstained", "alternatives"],
        "properties": {
            "question": {"type": "string"},
            "understood": understood,
            "answer": answer,
            "abstained": {"type": "boolean"},
            "alternatives": {"type": "array", "items": alternative},
        },
    }
