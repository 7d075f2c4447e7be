"""The OpenAPI document holds against a real server: schemathesis generates valid and invalid requests
for every documented operation and runs all its checks on each answer (no 5xx, no undocumented status,
bodies, content types and headers as documented, invalid input rejected, valid input accepted).

schemathesis' pytest integration (``from_fixture``) does not run under pytest 9, so each operation's
hypothesis strategy is driven here directly; failures are collected so one run reports every operation.
"""

from __future__ import annotations

import pytest
import requests
import schemathesis
from hypothesis import HealthCheck, given, settings
from schemathesis.generation import GenerationMode

MAX_EXAMPLES = 20


@pytest.fixture(scope="module")
def api_schema(live_server):
    """The document the live server serves, loaded as schemathesis sees it."""
    return schemathesis.openapi.from_url(live_server.url + "/api/openapi.json")


def _exercise(operation, mode: GenerationMode, session: requests.Session) -> None:
    @given(case=operation.as_strategy(generation_mode=mode))
    @settings(max_examples=MAX_EXAMPLES, deadline=None, database=None, derandomize=True,
              suppress_health_check=list(HealthCheck))
    def run(case) -> None:
        case.call_and_validate(session=session)

    run()


@pytest.mark.parametrize("mode", [GenerationMode.POSITIVE, GenerationMode.NEGATIVE])
def test_server_conforms_to_its_openapi_document(api_schema, mode):
    failures: list[str] = []
    tested = 0
    with requests.Session() as session:
        for result in api_schema.get_all_operations():
            operation = result.ok()
            tested += 1
            try:
                _exercise(operation, mode, session)
            except (Exception, BaseExceptionGroup) as exc:  # noqa: BLE001 - report every operation
                failures.append(f"{operation.method.upper()} {operation.path}: {exc}")
    assert tested >= 20
    assert not failures, "\n\n".join(failures)


def test_document_is_openapi_3_and_covers_the_surface(live_server):
    doc = requests.get(live_server.url + "/api/openapi.json", timeout=30).json()
    assert doc["openapi"].startswith("3.")
    paths = set(doc["paths"])
    assert {"/api/health", "/api/search", "/api/entities/{id}", "/api/entities/{id}/neighbors",
            "/api/types", "/api/stats", "/api/queries", "/api/queries/{name}", "/api/validate",
            "/api/openapi.json", "/sparql", "/export/{format}", "/id/{slug}"} <= paths
    search = doc["paths"]["/api/search"]["get"]
    assert {"200", "304", "400", "406"} <= set(search["responses"])
    assert "Organization" in search["parameters"][1]["schema"]["enum"]
