"""The OpenAPI 3.1 document of aikg's HTTP surface, as data.

The named queries and the class names ``type`` accepts are read from the running service, so each
named query is documented as its own path with its own typed parameters and the document never drifts
from what the server answers. schemathesis checks it against a live server (tests/test_openapi.py).
"""

from __future__ import annotations

from typing import Any

from aikg import __version__
from aikg.export import FALSE_WORDS, TRUE_WORDS
from aikg.lookup.entities import MAX_OFFSET, MAX_RELATION_PAGE, RELATION_PAGE
from aikg.lookup.search import MAX_LIMIT, MAX_SEARCH_OFFSET
from aikg.namespaces import AIKG, DEFAULT_GRAPH
from aikg.query.named import Parameter
from aikg.rdf.formats import GRAPH_FORMATS, RDF_FORMATS, RESULT_FORMATS
from aikg.services import Services

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

_BLANK = "".join(f"\\u{c:04x}" for c in range(0x10000) if chr(c).isspace())
"""Every character the server strips from a parameter (Python's ``str.strip``), spelled out: JSON
Schema's ``\\s`` is not the same set (schemathesis reads it as ASCII white space, ECMA-262 adds U+FEFF),
so a value of U+001D alone would be documented as a question and refused as an empty one."""
_NOT_BLANK = f"[^{_BLANK}]"
"""Holds one character that is not white space: what a required text parameter must have."""
_ONLY_BLANK = f"^[{_BLANK}]*$"
"""Empty or white space only: a parameter the server treats as not given (its default)."""
_NOT_GIVEN = {"type": "string", "pattern": _ONLY_BLANK}
"""A blank value, which the parameter reads as not given (its default)."""


def _cased(word: str) -> str:
    return "".join(f"[{c.lower()}{c.upper()}]" if c.isalpha() else c for c in word)


_FLAG_WORDS = "|".join(_cased(w) for w in sorted(TRUE_WORDS | FALSE_WORDS) if w)
_FLAG = {
    "anyOf": [{"type": "boolean"}, {"type": "string", "pattern": f"^[{_BLANK}]*({_FLAG_WORDS})?[{_BLANK}]*$"}]
}
"""A flag (``fold``) as the server reads it: true/false, 1/0, yes/no, on/off in any case, blank for false."""
_IRI_PATTERN = r"https?://[A-Za-z0-9._~:/?#@!$&'()*+,;=%-]+"
_PARAM_SCHEMAS: dict[str, dict[str, Any]] = {
    "entity": {
        "type": "string",
        "pattern": rf"^([a-z0-9]+(-[a-z0-9]+)*|{_IRI_PATTERN})$",
        "examples": ["nvidia"],
    },
    "iri": {"type": "string", "format": "iri"},
    "string": {"type": "string", "minLength": 1, "pattern": _NOT_BLANK},
    "date": {
        "anyOf": [
            {"type": "string", "format": "date"},
            {"type": "string", "pattern": r"^[1-9]\d{3}(-(0[1-9]|1[0-2]))?$"},
        ],
        "examples": ["2026-08-17"],
    },
    "integer": {"type": "integer"},
    "decimal": {"type": "number"},
}
"""JSON Schema of each named-query parameter type (see aikg.queries)."""


def _ref(name: str) -> dict[str, str]:
    return {"$ref": f"#/components/schemas/{name}"}


def _json(schema: dict[str, Any], description: str) -> dict[str, Any]:
    return {"description": description, "content": {"application/json": {"schema": schema}}}


def _errors(*statuses: int) -> dict[str, Any]:
    return {str(s): {"$ref": f"#/components/responses/E{s}"} for s in statuses}


def _cached_ok(
    schema: dict[str, Any], description: str, extra: dict[str, Any] | None = None
) -> dict[str, Any]:
    """200 with ETag, plus the 304 a matching If-None-Match gets."""
    content = {"application/json": {"schema": schema}, **(extra or {})}
    return {
        "200": {
            "description": description,
            "headers": {"ETag": {"$ref": "#/components/headers/ETag"}},
            "content": content,
        },
        "304": {"$ref": "#/components/responses/NotModified"},
    }


_EMPTY_UPDATE_ALLOWED = {
    "type": "string",
    "description": "The update text; empty (or only a prologue) is a valid update that changes nothing "
    "(SPARQL 1.1 Update grammar, [29] Update).",
}
"""An update body: no minLength, as the server answers the empty update 200 with nothing changed."""

_IF_NONE_MATCH = {"$ref": "#/components/parameters/IfNoneMatch"}
_FORMAT = {
    "name": "format",
    "in": "query",
    "required": False,
    "schema": {"enum": ["json", "csv", ""]},
    "description": "Result format; overrides Accept (empty: chosen by Accept).",
}


def _get(
    summary: str,
    description: str,
    responses: dict[str, Any],
    parameters: list[dict[str, Any]] | None = None,
    tags: list[str] | None = None,
) -> dict[str, Any]:
    # any GET can carry a request line too long to read, whatever its parameters allow
    op: dict[str, Any] = {
        "summary": summary,
        "description": description,
        "responses": {**responses, **_errors(414)},
    }
    if parameters:
        op["parameters"] = parameters
    if tags:
        op["tags"] = tags
    return {"get": op}


def _query(name: str, schema: dict[str, Any], description: str, *, required: bool = False) -> dict[str, Any]:
    return {"name": name, "in": "query", "required": required, "description": description, "schema": schema}


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
            "types": {"type": "array", "items": _ref("Term")},
            "expanded": _ref("Expansion"),
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
            "certainty": {"anyOf": [_ref("Term"), {"type": "null"}]},
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
            "property": _ref("Term"),
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
            "sources": {"type": "array", "items": _ref("Source")},
        },
    }
    relation = {
        "type": "object",
        "required": ["property", "node", "sources"],
        "properties": {
            "property": _ref("Term"),
            "node": _ref("Node"),
            "sources": {"type": "array", "items": _ref("Source")},
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
            "property": _ref("Term"),
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
            "property": _ref("Term"),
            "value": {"type": "string"},
            "lang": {"type": ["string", "null"]},
            "sources": {"type": "array", "items": _ref("Source")},
        },
    }
    expansion = {
        "type": "object",
        "required": ["facts", "relations"],
        "properties": {
            "facts": {"type": "array", "items": _ref("Fact")},
            "relations": {"type": "array", "items": _ref("Relation")},
            "descriptions": {"type": "array", "items": _ref("Description")},
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
                "relations": {"type": "array", "items": _ref("Relation")},
                "documents": {"type": "array", "items": _ref("Document")},
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
            "types": {"type": "array", "items": _ref("Term")},
            "description": {"type": ["string", "null"]},
            "descriptions": {"type": "array", "items": _ref("Description")},
            "facts": {"type": "array", "items": _ref("Fact")},
            "relations": {
                "type": "object",
                "required": ["outgoing", "incoming", "groups"],
                "properties": {
                    "outgoing": {"type": "array", "items": _ref("Relation")},
                    "incoming": {"type": "array", "items": _ref("Relation")},
                    "groups": {
                        "type": "array",
                        "items": _ref("RelationGroup"),
                        "description": "One entry per direction and property: how many links the group "
                        "has and where its next page is.",
                    },
                },
            },
            "documents": {"type": "array", "items": _ref("Document")},
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
            "match": {"enum": ["exact", "prefix", "word", "substring", "words", "parties"]},
            "types": {"type": "array", "items": _ref("Term")},
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
                "results": {"type": "array", "items": _ref("SearchHit")},
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
                            "parents": {"type": "array", "items": _ref("Term")},
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
                "parameters": {"type": "array", "items": _ref("Parameter")},
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
            "properties": {"queries": {"type": "array", "items": _ref("NamedQuery")}},
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
                "rows": {"type": "array", "items": {"type": "object", "additionalProperties": _ref("Cell")}},
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
                "violations": {"type": "array", "items": _ref("Violation")},
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
                    "anyOf": [_ref("ValidationReport"), {"type": "null"}],
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
    responses: dict[str, Any] = {f"E{s}": _json(_ref("Error"), text) for s, text in ERROR_STATUSES.items()}
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


def _class_names(services: Services) -> list[str]:
    vocab = services.vocabulary()
    names = sorted(c[len(str(AIKG)) :] for c in vocab.classes if c.startswith(str(AIKG)))
    return names + sorted(c for c in vocab.classes if c.startswith(str(AIKG)))


def _api_paths(services: Services) -> dict[str, Any]:
    """The JSON API under /api."""
    return {
        **_lookup_paths(services),
        **_entity_paths(),
        **_graph_paths(services),
        **_catalogue_paths(),
        **_query_paths(services),
        **_import_paths(),
        **_history_paths(),
    }


def _lookup_paths(services: Services) -> dict[str, Any]:
    """Liveness and search."""
    return {
        "/api/health": _get(
            "Liveness",
            "Whether the service is up, the store's kind and data version, and whether reads and writes are "
            "taken now (writes are not while the writer process starts).",
            {"200": _json(_ref("Health"), "The service is up."), **_errors(406, 503)},
            tags=["lookup"],
        ),
        "/api/search": _get(
            "Search entities by name",
            "Case-insensitive search over every entity's rdfs:label and skos:altLabel (English, Chinese, "
            "abbreviations). Exact matches rank before prefix, word-prefix and substring matches, then "
            "(several words) entities whose names, or whose parties' names, hold every word; among equal "
            "matches the entity with more links first, and a well-linked thing whose name starts with the "
            "query before an exact match of an obscure one. Fast enough for autocomplete.",
            {
                **_cached_ok(_ref("SearchResponse"), "The best matches, one per entity."),
                **_errors(400, 406, 503),
            },
            [
                _query(
                    "q",
                    {"type": "string", "minLength": 1, "pattern": _NOT_BLANK},
                    "The text to search for.",
                    required=True,
                ),
                _query(
                    "type",
                    {"anyOf": [{"enum": _class_names(services)}, _NOT_GIVEN]},
                    "Only entities of this class or a subclass: a class name (Organization) or IRI "
                    "(blank: any class).",
                ),
                _query(
                    "limit",
                    {"type": "integer", "minimum": 1, "maximum": MAX_LIMIT, "default": 10},
                    "Most results.",
                ),
                _query(
                    "offset",
                    {"type": "integer", "minimum": 0, "maximum": MAX_SEARCH_OFFSET, "default": 0},
                    "Matches to skip: the next page of a name many entities share.",
                ),
                _IF_NONE_MATCH,
            ],
            tags=["lookup"],
        ),
    }


def _entity_paths() -> dict[str, Any]:
    """An entity and its relation pages."""
    return {
        "/api/entities/{id}": _get(
            "One entity",
            "Types, labels, description, literal facts (datatype, unit, qualifier), outgoing and incoming "
            "relations with n-ary nodes (deals, results, phases...) expanded one level, and for every fact "
            "its source documents and certainty. Relations come in groups, one per direction and "
            "property: the first `limit` links of each group, and in `relations.groups` each group's "
            "total and the address of its next page (`truncated` is true when any group has one).",
            {**_cached_ok(_ref("Entity"), "The entity."), **_errors(400, 404, 406, 503)},
            [
                {
                    "name": "id",
                    "in": "path",
                    "required": True,
                    "description": "A slug (coreweave) or a full entity IRI, URL-encoded.",
                    "schema": _PARAM_SCHEMAS["entity"],
                },
                _query(
                    "limit",
                    {"type": "integer", "minimum": 1, "maximum": MAX_RELATION_PAGE, "default": RELATION_PAGE},
                    "Links listed per relation group.",
                ),
                _IF_NONE_MATCH,
            ],
            tags=["lookup"],
        ),
        "/api/entities/{id}/relations": _get(
            "One page of an entity's relations",
            "The links of one property in one direction, `limit` of them from `offset`, with the group's "
            "total and the next page. Pages follow the store's own order, the same for every page while "
            "the data does not change; the links of one page are sorted by IRI.",
            {**_cached_ok(_ref("RelationPage"), "The page."), **_errors(400, 404, 406, 503)},
            [
                {
                    "name": "id",
                    "in": "path",
                    "required": True,
                    "description": "A slug (coreweave) or a full entity IRI, URL-encoded.",
                    "schema": _PARAM_SCHEMAS["entity"],
                },
                _query(
                    "direction",
                    {"enum": ["outgoing", "incoming"]},
                    "outgoing: the entity is the subject; incoming: the entity is the object.",
                    required=True,
                ),
                _query(
                    "property",
                    {
                        "type": "string",
                        "pattern": rf"^([a-z][a-z0-9]*:[A-Za-z0-9_.-]+|{_IRI_PATTERN})$",
                        "examples": ["aikg:investor"],
                    },
                    "The property: a prefixed name (aikg:investor) or a full IRI.",
                    required=True,
                ),
                _query(
                    "offset",
                    {"type": "integer", "minimum": 0, "maximum": MAX_OFFSET, "default": 0},
                    "Links to skip.",
                ),
                _query(
                    "limit",
                    {"type": "integer", "minimum": 1, "maximum": MAX_RELATION_PAGE, "default": RELATION_PAGE},
                    "Links on the page.",
                ),
                _IF_NONE_MATCH,
            ],
            tags=["lookup"],
        ),
    }


def _graph_paths(services: Services) -> dict[str, Any]:
    """Graph views around an entity and over a selection."""
    return {
        "/api/entities/{id}/neighbors": _get(
            "Neighbourhood of an entity",
            "Nodes and edges around the entity as Cytoscape.js elements: the closest and best-connected "
            "`limit` of them (`truncated` and `total` say what was left out). depth=1 gives one node's "
            "neighbours, which the graph view adds when a node is clicked.",
            {"200": _json(_ref("Neighbors"), "The neighbourhood."), **_errors(400, 404, 406, 503)},
            [
                {
                    "name": "id",
                    "in": "path",
                    "required": True,
                    "description": "A slug or a full entity IRI.",
                    "schema": _PARAM_SCHEMAS["entity"],
                },
                _query(
                    "depth",
                    {
                        "anyOf": [
                            {"type": "integer", "minimum": 0, "maximum": 4, "default": 1},
                            {"type": "string", "maxLength": 0},
                        ]
                    },
                    "Hops (empty: 1).",
                ),
                _query("type", {"enum": _class_names(services)}, "Only nodes of this class (repeatable)."),
                _query("fold", _FLAG, "Fold n-ary nodes into labelled edges."),
                _query(
                    "limit",
                    {
                        "anyOf": [
                            {"type": "integer", "minimum": 1, "maximum": 2000, "default": 250},
                            _NOT_GIVEN,
                        ]
                    },
                    "Most nodes answered (blank: 250).",
                ),
            ],
            tags=["lookup"],
        ),
        "/api/graph": _get(
            "The whole graph, capped",
            "The data graph as Cytoscape.js elements for drawing: its best-connected `limit` nodes "
            "(`truncated` and `total` say what was left out). Exports (/export/{format}) are never cut.",
            {"200": _json(_ref("GraphView"), "The graph."), **_errors(400, 406, 503)},
            [
                _query("type", {"enum": _class_names(services)}, "Only nodes of this class (repeatable)."),
                _query("fold", _FLAG, "Fold n-ary nodes into labelled edges."),
                _query(
                    "limit",
                    {
                        "anyOf": [
                            {"type": "integer", "minimum": 1, "maximum": 2000, "default": 600},
                            _NOT_GIVEN,
                        ]
                    },
                    "Most nodes answered (blank: 600).",
                ),
            ],
            tags=["lookup"],
        ),
    }


def _catalogue_paths() -> dict[str, Any]:
    """Types, statistics and the question in plain words."""
    return {
        "/api/types": _get(
            "Classes with instance counts",
            "Every aikg class with its label, parents and how many entities it has, directly "
            "and with its subclasses.",
            {**_cached_ok(_ref("TypesResponse"), "The classes."), **_errors(406, 503)},
            [_IF_NONE_MATCH],
            tags=["lookup"],
        ),
        "/api/stats": _get(
            "Store statistics",
            "Triples per named graph, entities and source documents.",
            {**_cached_ok(_ref("StatsResponse"), "The statistics."), **_errors(406, 503)},
            [_IF_NONE_MATCH],
            tags=["lookup"],
        ),
        "/api/ask": _get(
            "Ask in plain words",
            "A question in English or Chinese, read into a logical form over the ontology (a fact, a "
            "comparison, a ranking, a count, a sum, a list, provenance) compiled to SPARQL, or understood as "
            "a named query with its parameters filled, and answered with the sources of every row or fact; "
            "or an abstention (abstained: true) with the closest questions aikg can answer.",
            {
                **_cached_ok(_ref("AskResponse"), "What was understood, and the answer or abstention."),
                **_errors(400, 406, 429, 503),
            },
            [
                _query(
                    "q",
                    {"type": "string", "minLength": 1, "maxLength": 500, "pattern": _NOT_BLANK},
                    "The question, e.g. 'who runs NVIDIA-only capacity' or 'GB300 的显存是多少?'.",
                    required=True,
                ),
                _query(
                    "after",
                    {"type": "string", "maxLength": 1000},
                    "The question asked before, for a follow-up ('and in Japan?').",
                ),
                _IF_NONE_MATCH,
            ],
            tags=["lookup"],
        ),
    }


def _query_paths(services: Services) -> dict[str, Any]:
    """Named queries and validation."""
    json_ok = _errors(406)
    return {
        "/api/queries": _get(
            "Named queries",
            "Every named query with its title, description and parameters.",
            {"200": _json(_ref("QueryList"), "The named queries."), **json_ok},
            tags=["queries"],
        ),
        "/api/queries/{name}": _get(
            "Run a named query",
            "Runs one named query; parameters go in the query string (see GET /api/queries). JSON rows by "
            "default (IRIs carry the entity id and label), CSV with format=csv or Accept: text/csv. "
            "`limit` and `offset` ask for one page of the answer, in the query's own order; `truncated` "
            "(and the X-AIKG-Truncated header) says more rows follow, `next` (and a Link rel=next header) "
            "where. Without `limit` the page is the row cap (max_rows).",
            {
                **_cached_ok(
                    _ref("QueryResult"), "The result rows.", {"text/csv": {"schema": {"type": "string"}}}
                ),
                **_errors(400, 404, 406, 429, 503),
            },
            [
                {
                    "name": "name",
                    "in": "path",
                    "required": True,
                    "description": "The query's name.",
                    "schema": {"type": "string", "minLength": 1},
                },
                *_page_params(services),
                _FORMAT,
                _IF_NONE_MATCH,
            ],
            tags=["queries"],
        ),
        "/api/validate": _get(
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
                        "application/json": {"schema": _ref("ValidationReport")},
                        "text/turtle": {"schema": {"type": "string"}},
                    },
                },
                "202": {
                    "description": "The report of the current version is still to come.",
                    "headers": {
                        "Retry-After": {
                            "description": "Seconds to wait before asking again.",
                            "schema": {"type": "string"},
                        }
                    },
                    "content": {"application/json": {"schema": _ref("ValidationPending")}},
                },
                **_errors(406, 503),
            },
            tags=["writes"],
        ),
    }


def _import_paths() -> dict[str, Any]:
    """The Epoch imports."""
    return {
        "/api/imports": _get(
            "Imports",
            "Every recorded import of an outside dataset, newest first: per file the rows read, "
            "imported, rejected and kept, the update mode and snapshot date, entities created, and figures "
            "another source gives differently (rounding or disagreement).",
            {
                **_cached_ok(
                    {
                        "type": "object",
                        "required": ["imports"],
                        "properties": {"imports": {"type": "array", "items": {"type": "object"}}},
                    },
                    "The imports.",
                ),
                **_errors(406),
            },
            [_IF_NONE_MATCH],
            tags=["imports"],
        ),
        "/api/imports/{id}": _get(
            "One import",
            "One import with its findings and its diff: every name merged into an existing entity, every "
            "link entity resolution made, every ambiguity left, every row rejected with its reason, every "
            "value read leniently or not at all, every flag and column warning, every figure another source "
            "or snapshot gives differently (by name); ``changes``: per entity and property what the import "
            "did (added, changed, kept not restated, an older snapshot's values kept as history, removed), "
            "with the values before and after and their snapshots. ``latest`` is the newest import.",
            {
                **_cached_ok(
                    {"type": "object", "required": ["id", "files", "findings", "counts"]},
                    "The import and its findings.",
                ),
                **_errors(400, 404, 406),
            },
            [
                {
                    "name": "id",
                    "in": "path",
                    "required": True,
                    "schema": {"type": "string", "minLength": 1},
                    "description": "The import's id (from /api/imports), or latest.",
                },
                {
                    "name": "kind",
                    "in": "query",
                    "required": False,
                    "schema": {
                        "enum": [
                            "merge",
                            "link",
                            "ambiguity",
                            "rejected-row",
                            "unreadable-value",
                            "read-value",
                            "flag",
                            "column",
                            "disagreement",
                            "rounding",
                        ]
                    },
                    "description": "Only findings of this kind.",
                },
                {
                    "name": "file",
                    "in": "query",
                    "required": False,
                    "schema": {"type": "string"},
                    "description": "Only findings about this file (e.g. gpu_clusters/gpu_clusters.csv).",
                },
                _IF_NONE_MATCH,
            ],
            tags=["imports"],
        ),
    }


def _history_paths() -> dict[str, Any]:
    """An entity's history and this document."""
    return {
        "/api/entities/{id}/history": _get(
            "What Epoch AI said before",
            "What Epoch AI's datasets said of one entity before (values a newer snapshot replaced, an older "
            "snapshot gave otherwise, or the newest file does not restate, each with its snapshot) and what "
            "each recorded import changed for it; with ``as_of`` also every value they gave as of that day "
            "(the epoch-as-of named query).",
            {
                **_cached_ok(
                    {"type": "object", "required": ["entity", "history", "changes"]},
                    "The entity's history.",
                ),
                **_errors(400, 404, 406),
            },
            [
                {
                    "name": "id",
                    "in": "path",
                    "required": True,
                    "schema": _PARAM_SCHEMAS["entity"],
                    "description": "The entity: a slug such as gb200, or a full IRI.",
                },
                {
                    "name": "as_of",
                    "in": "query",
                    "required": False,
                    "schema": {"type": "string", "format": "date"},
                    "description": "A day (YYYY-MM-DD): list every value Epoch gave as of it.",
                },
                _IF_NONE_MATCH,
            ],
            tags=["imports"],
        ),
        "/api/openapi.json": _get(
            "This document",
            "The OpenAPI document of the HTTP surface.",
            {
                "200": {
                    "description": "OpenAPI 3.1.",
                    "content": {"application/json": {"schema": {"type": "object"}}},
                }
            },
            tags=["lookup"],
        ),
    }


def _param_schema(param: Parameter) -> dict[str, Any]:
    """A named-query parameter's schema; one with a default, or optional, also takes an empty or blank
    value (read as not given)."""
    schema = dict(_PARAM_SCHEMAS.get(param.type, {"type": "string"}))
    if param.default is not None or not param.required:
        return {"anyOf": [schema, {"type": "string", "pattern": _ONLY_BLANK}]}
    return schema


def _page_params(services: Services) -> list[dict[str, Any]]:
    """``limit`` and ``offset``, which page every named query (aikg.query.named)."""
    return [
        _query(
            "limit",
            {"type": "integer", "minimum": 1, "maximum": services.settings.max_rows},
            "Rows on the page (at most the row cap, max_rows; without it: the row cap).",
        ),
        _query(
            "offset", {"type": "integer", "minimum": 0, "maximum": MAX_OFFSET, "default": 0}, "Rows to skip."
        ),
    ]


def _named_query_paths(services: Services) -> dict[str, Any]:
    queries = services.named.all()
    paths = {}
    for q in queries.values():
        params = [
            {
                **_query(
                    p.name,
                    _param_schema(p),
                    p.description or p.name,
                    required=p.required and p.default is None,
                ),
                "x-aikg-type": p.type,
            }
            for p in q.parameters
        ]
        params += [*_page_params(services), _FORMAT, _IF_NONE_MATCH]
        paths[f"/api/queries/{q.name}"] = _get(
            q.title,
            q.description or q.title,
            {
                **_cached_ok(
                    _ref("QueryResult"), "The result rows.", {"text/csv": {"schema": {"type": "string"}}}
                ),
                **_errors(400, 406, 429, 503),
            },
            params,
            tags=["queries"],
        )
    return paths


def _other_paths() -> dict[str, Any]:
    """The SPARQL endpoint, the exports and the linked-data IRIs."""
    rdf = {f.mime: {"schema": {"type": "string"}} for f in GRAPH_FORMATS}
    return {
        "/sparql": _sparql_path(),
        "/export/{format}": _get(
            "Export the graph",
            "The whole graph, a neighbourhood (focus, depth) or some types, in Turtle, "
            "N-Quads, JSON-LD, GraphML, GEXF, Cytoscape.js JSON or Graphviz DOT.",
            {
                "200": {"description": "The export, as a download.", "content": {"*/*": {"schema": {}}}},
                **_errors(400, 404, 503),
            },
            [
                {
                    "name": "format",
                    "in": "path",
                    "required": True,
                    "description": "Export format name.",
                    "schema": {"type": "string"},
                },
                _query("focus", {"type": "string"}, "Slug or IRI of the centre of a neighbourhood."),
                _query(
                    "depth",
                    {
                        "anyOf": [
                            {"type": "integer", "minimum": 0, "maximum": 4},
                            {"type": "string", "maxLength": 0},
                        ]
                    },
                    "Hops around the focus (empty: 1).",
                ),
                _query("type", {"type": "string"}, "Only nodes of this class (repeatable)."),
                _query("fold", _FLAG, "Fold n-ary nodes into labelled edges."),
            ],
            tags=["exports"],
        ),
        "/id/{slug}": _get(
            "Linked-data IRI of an entity",
            "HTML for browsers; Turtle, N-Triples, JSON-LD or RDF/XML by content negotiation.",
            {
                "200": {
                    "description": "The entity's page or description.",
                    "content": {"text/html": {"schema": {"type": "string"}}, **rdf},
                },
                **_errors(404, 406),
            },
            [
                {
                    "name": "slug",
                    "in": "path",
                    "required": True,
                    "description": "The entity's slug.",
                    "schema": {"type": "string"},
                }
            ],
            tags=["linked data"],
        ),
    }


def _sparql_path() -> dict[str, Any]:
    """SPARQL 1.1 Protocol queries, by GET and POST."""
    rdf = {f.mime: {"schema": {"type": "string"}} for f in GRAPH_FORMATS}
    results: dict[str, dict[str, Any]] = {f.mime: {"schema": {}} for f in RESULT_FORMATS}
    sparql_params = [
        _query("query", {"type": "string"}, "A SPARQL 1.1 query (without it: the service description)."),
        _query("default-graph-uri", {"type": "string"}, "A default graph (repeatable)."),
        _query("named-graph-uri", {"type": "string"}, "A named graph (repeatable)."),
    ]
    sparql_responses = {
        "200": {
            "description": "Query results (SELECT/ASK) or a graph (CONSTRUCT/DESCRIBE, service description).",
            "content": {**results, **rdf},
        },
        **_errors(400, 403, 406, 413, 415, 429, 503),
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
                    "application/sparql-query": {"schema": {"type": "string"}},
                    "application/x-www-form-urlencoded": {
                        "schema": {"type": "object", "properties": {"query": {"type": "string"}}}
                    },
                },
            },
            "responses": sparql_responses,
        },
    }


def _write_paths() -> dict[str, Any]:
    """SPARQL 1.1 Update (``/update``) and the Graph Store HTTP Protocol (``/data``, ``/graph/{path}``)."""
    return {
        "/update": _update_path(),
        "/data": _gsp(_graph_params(), store_post=True),
        "/graph/{path}": _gsp(_path_param(), store_post=False),
    }


def _write_answers() -> dict[str, Any]:
    """What the write routes take and answer: RDF bodies in and out, the outcome of a write."""
    rdf_in: dict[str, Any] = {f.mime: {"schema": {"type": "string"}} for f in RDF_FORMATS}
    rdf_in["application/ld+json"] = {"schema": {"type": ["object", "array"]}}  # JSON-LD 1.1 §9
    rdf_in["multipart/form-data"] = {
        "schema": {
            "type": "object",
            "properties": {"file": {"type": "string", "contentMediaType": "text/turtle"}},
        }
    }
    rdf_out = {f.mime: {"schema": {"type": "string"}} for f in GRAPH_FORMATS}
    secured = {"security": [{"bearer": []}], "x-aikg-valid-may-be-refused": True}
    written = {
        "description": "The write was committed.",
        "content": {"application/json": {"schema": _ref("WriteOutcome")}},
    }
    created = {
        "description": "A new graph was created.",
        "content": {"application/json": {"schema": _ref("WriteOutcome")}},
        "headers": {
            "Location": {
                "description": "The new graph's IRI (GET /data?graph=<it> reads it; /graph/uploads/… "
                "identifies it directly).",
                "schema": {"type": "string"},
            }
        },
    }
    refused = {
        "description": "Validation failed: the data would not conform to the shapes.",
        "content": {
            "application/json": {"schema": _ref("Error")},
            "text/turtle": {"schema": {"type": "string"}},
        },
    }
    errors = _errors(400, 401, 403, 404, 406, 409, 413, 415, 429, 503, 507)
    return {
        "rdf_in": rdf_in,
        "rdf_out": rdf_out,
        "secured": secured,
        "written": written,
        "created": created,
        "refused": refused,
        "errors": errors,
    }


def _graph_params() -> list[dict[str, Any]]:
    """A graph named by ?graph= or ?default (indirect identification)."""
    return [
        _query(
            "graph",
            {"type": "string", "format": "iri"},
            "The graph (absolute IRI), indirectly identified (Graph Store Protocol §4.2).",
        ),
        {
            "name": "default",
            "in": "query",
            "required": False,
            "allowEmptyValue": True,
            "schema": {"type": "string", "maxLength": 0},
            "description": f"The default graph: for writes and GET, <{DEFAULT_GRAPH}>.",
        },
    ]


def _path_param() -> list[dict[str, Any]]:
    """A graph named by its path under /graph/ (direct identification)."""
    return [
        {
            "name": "path",
            "in": "path",
            "required": True,
            "schema": {"type": "string", "minLength": 1},
            "description": "The graph https://w3id.org/aikg/graph/{path} (direct identification).",
        }
    ]


def _gsp(params: list[dict[str, Any]], *, store_post: bool) -> dict[str, Any]:
    """A graph of the Graph Store HTTP Protocol: read, replace, add to, remove."""
    a = _write_answers()
    rdf_in, rdf_out, secured, write_errors = a["rdf_in"], a["rdf_out"], a["secured"], a["errors"]
    written, created, refused = a["written"], a["created"], a["refused"]
    fmt_param = _query(
        "format", {"type": "string"}, "RDF format (short name or media type); overrides Accept."
    )
    body = {"required": False, "content": rdf_in}
    post_ok = {"200": written, "201": created, "204": {"description": "Empty body: nothing changed."}}
    return {
        "parameters": params,
        "get": {
            "summary": "Read a graph (Graph Store Protocol GET)",
            "tags": ["writes"],
            "x-aikg-valid-may-be-refused": True,
            "parameters": [fmt_param, _IF_NONE_MATCH],
            "responses": {
                "200": {"description": "The graph.", "content": rdf_out},
                "304": {"$ref": "#/components/responses/NotModified"},
                **_errors(400, 404, 406, 503),
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


def _update_path() -> dict[str, Any]:
    """SPARQL 1.1 Update: GET gives the service description, POST runs an update."""
    a = _write_answers()
    rdf_out, secured, written, refused, write_errors = (
        a[k] for k in ("rdf_out", "secured", "written", "refused", "errors")
    )
    update_form = {
        "type": "object",
        "required": ["update"],
        "properties": {
            "update": _EMPTY_UPDATE_ALLOWED,
            "using-graph-uri": {"type": "array", "items": {"type": "string"}},
            "using-named-graph-uri": {"type": "array", "items": {"type": "string"}},
        },
    }
    return {
        "get": {
            "summary": "Service description (SPARQL 1.1 Service Description)",
            "tags": ["writes"],
            "responses": {
                "200": {"description": "The service description.", "content": rdf_out},
                **_errors(405, 406),
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
                _query("using-graph-uri", {"type": "string"}, "A USING graph (repeatable)."),
                _query("using-named-graph-uri", {"type": "string"}, "A USING NAMED graph (repeatable)."),
            ],
            "requestBody": {
                "required": True,
                "content": {
                    "application/sparql-update": {"schema": _EMPTY_UPDATE_ALLOWED},
                    "application/x-www-form-urlencoded": {"schema": update_form},
                },
            },
            "responses": {"200": written, "422": refused, **write_errors},
        },
    }


def _import_post() -> dict[str, Any]:
    """POST /api/imports: an Epoch import of uploaded files, for the token holder."""
    return {
        "summary": "Import Epoch AI files (or a dry run)",
        "description": "The import of `aikg import epoch`, on files sent as multipart/form-data: each in a "
        "field `file`, named by its path in Epoch's layout (ml_hardware/ml_hardware.csv) or its file "
        "name. Answers the report: per file the rows matched, new, rejected and kept, the diff per entity, "
        "merges, ambiguities and disagreements by name. A dry run writes nothing. 409 when the import "
        "would leave out values the files give (a header resembling a known column: `map` or `force`), "
        "422 when the store would not conform after it; nothing is written then.",
        "tags": ["imports"],
        "security": [{"bearer": []}],
        "x-aikg-valid-may-be-refused": True,
        "requestBody": {
            "required": True,
            "content": {
                "multipart/form-data": {
                    "schema": {
                        "type": "object",
                        "required": ["file"],
                        "properties": {
                            "file": {"type": "array", "items": {"type": "string", "format": "binary"}},
                            "as_of": {"type": "string", "format": "date"},
                            "dry_run": {"type": "boolean"},
                            "force": {"type": "boolean"},
                            "replace": {"type": "boolean"},
                            "map": {"type": "array", "items": {"type": "string"}},
                        },
                    }
                }
            },
        },
        "responses": {
            "200": _json({"type": "object", "required": ["files", "changes"]}, "The import's report."),
            **_errors(400, 401, 403, 409, 413, 415, 422, 429, 503),
        },
    }


def openapi_document(services: Services) -> dict[str, Any]:
    """The whole OpenAPI 3.1 document for this service and its current data."""
    paths = {**_api_paths(services), **_named_query_paths(services), **_other_paths(), **_write_paths()}
    paths["/api/imports"] = {**paths["/api/imports"], "post": _import_post()}
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
