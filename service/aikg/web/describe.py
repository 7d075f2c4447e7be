"""The building blocks of aikg's OpenAPI description, shared by the routes that describe themselves
(:func:`aikg.web.params.documented`) and the document (:mod:`aikg.web.openapi`): references, answers,
the schemas of a parameter's kinds."""

from __future__ import annotations

from typing import Any

from aikg.namespaces import AIKG
from aikg.services import Services
from aikg.web.params import ChoiceParam, TextParam


def ref(shape: type) -> dict[str, str]:
    """A reference to the document's schema of ``shape``, an answer declared in :mod:`aikg.web.shapes`."""
    return {"$ref": f"#/components/schemas/{shape.__name__}"}


def json_answer(schema: dict[str, Any], description: str) -> dict[str, Any]:
    return {"description": description, "content": {"application/json": {"schema": schema}}}


def errors(*statuses: int) -> dict[str, Any]:
    return {str(s): {"$ref": f"#/components/responses/E{s}"} for s in statuses}


def cached_ok(
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


UPDATE = TextParam(
    "update",
    "The update text.",
    required=True,
    note="The update text; empty (or only a prologue) is a valid update that changes nothing "
    "(SPARQL 1.1 Update grammar, [29] Update).",
)
"""An update body: no minLength, as the server answers the empty update 200 with nothing changed."""
EMPTY_UPDATE = UPDATE.field_schema()

IF_NONE_MATCH = {"$ref": "#/components/parameters/IfNoneMatch"}
FORMAT = ChoiceParam(
    "format", "Result format; overrides Accept (empty: chosen by Accept).", ("json", "csv", "")
).describe()


def get_operation(
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
        "responses": {**responses, **errors(414)},
    }
    if parameters:
        op["parameters"] = parameters
    if tags:
        op["tags"] = tags
    return {"get": op}


def class_names(services: Services) -> list[str]:
    vocab = services.vocabulary()
    names = sorted(c[len(str(AIKG)) :] for c in vocab.classes if c.startswith(str(AIKG)))
    return names + sorted(c for c in vocab.classes if c.startswith(str(AIKG)))
