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
from hypothesis.errors import Unsatisfiable
from schemathesis.generation import GenerationMode
from schemathesis.specs.openapi.checks import positive_data_acceptance

from helpers import valid_may_be_refused

MAX_EXAMPLES = 12


@pytest.fixture(scope="module")
def document(live_server) -> dict:
    """The OpenAPI document the live server serves."""
    return requests.get(live_server.url + "/api/openapi.json", timeout=30).json()


@pytest.fixture(scope="module")
def api_schema(live_server):
    """The same document, loaded as schemathesis sees it."""
    return schemathesis.openapi.from_url(live_server.url + "/api/openapi.json")


def _exercise(operation, mode: GenerationMode, session: requests.Session, excluded: list) -> None:
    @given(case=operation.as_strategy(generation_mode=mode))
    @settings(
        max_examples=MAX_EXAMPLES,
        deadline=None,
        database=None,
        derandomize=True,
        suppress_health_check=list(HealthCheck),
    )
    def run(case) -> None:
        case.call_and_validate(session=session, excluded_checks=excluded)

    run()


@pytest.mark.parametrize("mode", [GenerationMode.POSITIVE, GenerationMode.NEGATIVE])
def test_server_conforms_to_its_openapi_document(api_schema, document, mode):
    failures: list[str] = []
    tested = 0
    with requests.Session() as session:
        for result in api_schema.get_all_operations():
            operation = result.ok()
            excluded = (
                [positive_data_acceptance]
                if valid_may_be_refused(document, operation.method.lower(), operation.path)
                else []
            )
            tested += 1
            try:
                _exercise(operation, mode, session, excluded)
            except Unsatisfiable:
                assert mode is GenerationMode.NEGATIVE  # nothing to get wrong: no parameters to break
            except (Exception, BaseExceptionGroup) as exc:  # noqa: BLE001 - report every operation
                failures.append(f"{operation.method.upper()} {operation.path}: {exc}")
    assert tested >= 20
    assert not failures, "\n\n".join(failures)


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
