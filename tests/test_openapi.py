"""The OpenAPI document covers the served surface and says what the server does.

Running schemathesis over it against a real server (valid and invalid requests for every documented
operation, all its checks on each answer) is tests/test_hostile.py's job: it runs them with aikg's
budgets and the write token, so a second, smaller run here added nothing but a minute.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest
import requests
from pydantic import TypeAdapter, ValidationError

import aikg.web
from aikg.web import create_app, shapes
from aikg.web.params import description_of


@pytest.fixture(scope="module")
def document(live_server) -> dict:
    """The OpenAPI document the live server serves."""
    return requests.get(live_server.url + "/api/openapi.json", timeout=30).json()


def test_document_is_openapi_3_and_covers_the_surface(document):
    assert document["openapi"].startswith("3.")
    paths = set(document["paths"])
    assert {
        "/api/health",
        "/api/search",
        "/api/entities/{id}",
        "/api/entities/{id}/neighbors",
        "/api/types",
        "/api/stats",
        "/api/queries",
        "/api/queries/{name}",
        "/api/validate",
        "/api/openapi.json",
        "/sparql",
        "/export/{format}",
        "/id/{slug}",
        "/update",
        "/data",
        "/graph/{path}",
    } <= paths
    assert {"get", "put", "post", "delete"} <= set(document["paths"]["/data"])
    search = document["paths"]["/api/search"]["get"]
    assert {"200", "304", "400", "406"} <= set(search["responses"])
    assert "Organization" in search["parameters"][1]["schema"]["anyOf"][0]["enum"]
    deals = document["paths"]["/api/queries/deals-of-organization"]["get"]["parameters"][0]
    assert (deals["name"], deals["required"], deals["x-aikg-type"]) == ("org", True, "entity")


@pytest.fixture(scope="module")
def declared(seeded_store):
    """An app over the seeded store, and the document it collects from its routes' declarations."""
    app = create_app({"store": "memory", "load_seeds": False, "token": "t"}, store=seeded_store)
    return app, app.test_client().get("/api/openapi.json").get_json()


def test_every_api_route_describes_itself_beside_its_registration(declared):
    """The document is collected from the routes (aikg.web.params.documented): a route under /api that
    declared no description would be missing from it."""
    app, document = declared
    undeclared = sorted(
        rule.rule
        for rule in app.url_map.iter_rules()
        if rule.rule.startswith("/api/") and description_of(app.view_functions[rule.endpoint]) is None
    )
    assert undeclared == []
    assert {"/api/search", "/api/entities/{id}/relations", "/api/imports/{id}"} <= set(document["paths"])
    assert {"get", "post"} <= set(document["paths"]["/api/imports"])


INTEGER_ROUTES = [
    "/api/search?q=nvidia",
    "/api/entities/nvidia",
    "/api/entities/nvidia/relations?direction=outgoing&property=aikg:investor",
    "/api/entities/nvidia/neighbors",
    "/api/graph",
    "/api/queries/accelerators-by-vendor",
]


@pytest.mark.parametrize("route", INTEGER_ROUTES)
def test_a_documented_integer_bound_is_the_bound_the_route_enforces(declared, route):
    """Each integer parameter is declared once (aikg.web.params.IntParam): the route takes the documented
    maximum and refuses one more, naming the parameter."""
    app, document = declared
    path, _, query = route.partition("?")
    template = (
        next(
            p for p in document["paths"] if re.fullmatch(re.sub(r"\{[^}]+\}", "[^/]+", p), path) and "{" in p
        )
        if path not in document["paths"]
        else path
    )
    client = app.test_client()
    checked = 0
    for param in document["paths"][template]["get"]["parameters"]:
        schema = param.get("schema", {})
        schema = next((s for s in schema.get("anyOf", [schema]) if s.get("type") == "integer"), None)
        if param.get("in") != "query" or schema is None:
            continue
        name, high = param["name"], schema["maximum"]
        sep = "&" if query else ""
        assert client.get(f"{path}?{query}{sep}{name}={high}").status_code == 200, name
        refused = client.get(f"{path}?{query}{sep}{name}={high + 1}")
        assert refused.status_code == 400 and name in refused.get_json()["message"], name
        checked += 1
    assert checked >= 1


ANSWERS = [
    ("/api/health", shapes.Health),
    ("/api/search?q=nvidia", shapes.SearchResponse),
    ("/api/search?q=nvidai", shapes.SearchResponse),
    ("/api/entities/nvidia", shapes.Entity),
    ("/api/entities/h100", shapes.Entity),
    ("/api/entities/nvidia/relations?direction=outgoing&property=aikg:investor", shapes.RelationPage),
    ("/api/entities/nvidia/neighbors", shapes.Neighbors),
    ("/api/graph", shapes.GraphView),
    ("/api/types", shapes.TypesResponse),
    ("/api/stats", shapes.StatsResponse),
    ("/api/queries", shapes.QueryList),
    ("/api/queries/accelerators-by-vendor", shapes.QueryResult),
    ("/api/queries/deals-of-organization?org=nvidia", shapes.QueryResult),
]


def _complete(shape: type) -> TypeAdapter:
    """A validator of ``shape`` that also refuses a key the shapes do not declare: an answer that grows
    a key must say so in aikg/web/shapes.py (the document itself lets clients meet keys it does not
    name)."""
    declared = [v for v in vars(shapes).values() if isinstance(v, type) and v.__module__ == shapes.__name__]
    saved = {cls: cls.__dict__.get("__pydantic_config__") for cls in declared}
    try:
        for cls in declared:
            cls.__pydantic_config__ = {**(saved[cls] or {}), "extra": "forbid"}
        return TypeAdapter(shape)
    finally:
        for cls, config in saved.items():
            if config is None:
                del cls.__pydantic_config__
            else:
                cls.__pydantic_config__ = config


@pytest.mark.parametrize(("route", "shape"), ANSWERS, ids=[r for r, _ in ANSWERS])
def test_an_answer_has_the_shape_its_schema_is_generated_from(declared, route, shape):
    """The document's schemas are generated from the answers' declared shapes (aikg.web.shapes); each
    route's real answer validates against its declaration (strictly: a string is not a number; every key
    declared), and the document refers the route's 200 to that shape's schema."""
    app, document = declared
    answer = app.test_client().get(route)
    assert answer.status_code == 200, answer.get_data(as_text=True)[:300]
    _complete(shape).validate_json(answer.get_data(), strict=True)
    path = route.partition("?")[0]
    template = next(
        p
        for p in document["paths"]
        if re.fullmatch(re.sub(r"\{[^}]+\}", "[^/]+", p), path)
        and ("{" not in p or path not in document["paths"])
    )
    schema = document["paths"][template]["get"]["responses"]["200"]["content"]["application/json"]["schema"]
    assert schema == {"$ref": f"#/components/schemas/{shape.__name__}"}
    assert shape.__name__ in document["components"]["schemas"]


def test_a_shape_that_does_not_fit_the_answer_is_refused(declared):
    """The check above can fail: an entity's answer is not a search answer."""
    app, _ = declared
    answer = app.test_client().get("/api/entities/nvidia")
    with pytest.raises(ValidationError):
        TypeAdapter(shapes.SearchResponse).validate_json(answer.get_data(), strict=True)


TEXT_ROUTES = [
    ("/api/entities/nvidia/relations", {"direction": "outgoing", "property": "aikg:investor"}),
    ("/api/imports/latest", {}),
    ("/api/ask", {"q": "who makes the H100?"}),
]


@pytest.mark.parametrize(("path", "given"), TEXT_ROUTES, ids=[p for p, _ in TEXT_ROUTES])
def test_a_documented_word_list_or_length_is_what_the_route_enforces(declared, path, given):
    """Text parameters are declared once too (aikg.web.params TextParam, ChoiceParam): a word off the
    documented list, or one character over the documented length, is the 400 naming the parameter."""
    app, document = declared
    template = next(p for p in document["paths"] if re.fullmatch(re.sub(r"\{[^}]+\}", "[^/]+", p), path))
    client = app.test_client()
    checked = 0
    for param in document["paths"][template]["get"]["parameters"]:
        schema = param.get("schema", {})
        if param.get("in") != "query" or not ({"enum", "maxLength"} & set(schema)):
            continue
        name = param["name"]
        bad = "x" * (schema["maxLength"] + 1) if "maxLength" in schema else "no-such-word"
        refused = client.get(path, query_string={**given, name: bad})
        assert refused.status_code == 400 and repr(name) in refused.get_json()["message"], name
        checked += 1
    assert checked >= 1


SCHEMA_KEYWORDS = {
    "enum",
    "pattern",
    "anyOf",
    "oneOf",
    "allOf",
    "minLength",
    "maxLength",
    "minimum",
    "maximum",
    "items",
    "properties",
    "contentMediaType",
    "in",
}
JSON_TYPES = {"string", "integer", "number", "boolean", "object", "array", "null"}
DECLARATIONS = {"params.py", "describe.py", "shapes.py", "openapi.py"}
"""Where a parameter's or a body's JSON Schema may be written: the declarations and the document's frame."""


def _schema_literals(source: str) -> list[int]:
    """The lines of dict literals in ``source`` that spell JSON Schema (or an OpenAPI parameter) by hand:
    a schema keyword as a key, or ``"type"`` given a JSON type name."""
    lines = []
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.Dict):
            continue
        for key, value in zip(node.keys, node.values, strict=True):
            word = key.value if isinstance(key, ast.Constant) else None
            typed = word == "type" and (
                (isinstance(value, ast.Constant) and value.value in JSON_TYPES) or isinstance(value, ast.List)
            )
            if word in SCHEMA_KEYWORDS or typed:
                lines.append(node.lineno)
                break
    return lines


def test_no_route_module_writes_a_schema_by_hand():
    """Parameters and bodies are described from their declarations (aikg.web.params, describe, shapes),
    never as JSON Schema beside a route, where the route's parsing and the document drift apart."""
    web = Path(aikg.web.__file__).parent
    found = {
        f.name: lines
        for f in sorted(web.glob("*.py"))
        if f.name not in DECLARATIONS and (lines := _schema_literals(f.read_text(encoding="utf-8")))
    }
    assert found == {}
    assert _schema_literals('D = {"name": "q", "in": "query", "schema": {"type": "string"}}') == [1, 1]
