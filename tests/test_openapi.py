"""The OpenAPI document covers the served surface and says what the server does.

Running schemathesis over it against a real server (valid and invalid requests for every documented
operation, all its checks on each answer) is tests/test_hostile.py's job: it runs them with aikg's
budgets and the write token, so a second, smaller run here added nothing but a minute.
"""

from __future__ import annotations

import pytest
import requests


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
