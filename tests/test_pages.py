"""The explorer's pages through the Flask test client: shells, entity pages, vendor files, no outside URLs."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from aikg.namespaces import sparql_prologue
from aikg.web.pages import EXAMPLE_QUERIES, EXPORT_FORMATS, VENDOR_FILES

PAGES = ["/", "/graph", "/queries", "/queries/nvidia-only-capacity", "/editor", "/timeline", "/id/coreweave"]
HTML = {"Accept": "text/html"}
QUERIES = Path(__file__).resolve().parents[1] / "queries"


@pytest.mark.parametrize("path", PAGES)
def test_page_is_html_with_navigation_and_its_script(ro_client, path):
    resp = ro_client.get(path, headers=HTML)
    assert resp.status_code == 200
    assert resp.mimetype == "text/html"
    body = resp.get_data(as_text=True)
    for link in ('href="/graph"', 'href="/queries"', 'href="/timeline"', 'href="/editor"'):
        assert link in body
    assert "/static/js/search.js" in body


@pytest.mark.parametrize("path", PAGES)
def test_page_names_no_outside_url_to_fetch(ro_client, path):
    body = ro_client.get(path, headers=HTML).get_data(as_text=True)
    fetched = re.findall(r'(?:src|href)="([^"]+)"', body)
    assert fetched
    assert [u for u in fetched if re.match(r"(?:https?:)?//", u)] == []


def test_entity_page_shows_label_comment_and_every_export(ro_client):
    body = ro_client.get("/id/coreweave", headers=HTML).get_data(as_text=True)
    assert "<title>CoreWeave · aikg</title>" in body
    assert 'data-slug="coreweave"' in body
    for fmt, _ in EXPORT_FORMATS:
        assert f'href="/export/{fmt}?focus=coreweave&amp;depth=1"' in body


def test_entity_page_of_chinese_named_entity_keeps_english_title(ro_client):
    body = ro_client.get("/id/nvidia", headers=HTML).get_data(as_text=True)
    assert "<title>NVIDIA · aikg</title>" in body


def test_unknown_question_is_an_html_404(ro_client):
    resp = ro_client.get("/queries/no-such-question", headers=HTML)
    assert resp.status_code == 404
    assert resp.mimetype == "text/html"


@pytest.mark.parametrize("slug", ["no-such-entity", "Bad_Slug", "x%20y"])
def test_unknown_entity_is_an_html_404(ro_client, slug):
    resp = ro_client.get(f"/id/{slug}", headers=HTML)
    assert resp.status_code == 404
    assert resp.mimetype == "text/html"
    assert "No entity" in resp.get_data(as_text=True)


def test_type_families_come_from_the_ontology(ro_client):
    body = ro_client.get("/", headers=HTML).get_data(as_text=True)
    info = json.loads(re.search(r'id="aikg-types">(.*?)</script>', body, re.S).group(1))
    aikg = "https://w3id.org/aikg/ontology#"
    assert info["classes"][aikg + "Neocloud"]["family"] == "organization"
    assert info["classes"][aikg + "FundingRound"]["family"] == "deal"
    assert info["classes"][aikg + "BenchmarkResult"]["family"] == "benchmark"
    assert info["classes"][aikg + "GPU"]["family"] == "hardware"
    assert info["classes"][aikg + "DataCenterCampus"]["family"] == "facility"
    assert info["classes"][aikg + "Neocloud"]["label"] == "neocloud"


@pytest.mark.parametrize("name", sorted(VENDOR_FILES))
def test_vendor_files_are_served_from_the_local_install(ro_client, name):
    resp = ro_client.get(f"/vendor/{name}")
    assert resp.status_code == 200
    assert resp.mimetype in {"text/javascript", "application/javascript", "text/css"}
    assert len(resp.data) > 1000


@pytest.mark.parametrize("name", ["package.json", "..%2Fpages.py", "cytoscape", "yasgui.min.js.map"])
def test_vendor_serves_nothing_off_the_allow_list(ro_client, name):
    resp = ro_client.get(f"/vendor/{name}")
    assert resp.status_code == 404
    assert resp.get_json()["ok"] is False


def test_editor_offers_aikg_prefixes_and_examples(ro_client):
    body = ro_client.get("/editor", headers=HTML).get_data(as_text=True)
    config = json.loads(re.search(r'id="editor-config">(.*?)</script>', body, re.S).group(1))
    assert config["prefixes"]["aikg"] == "https://w3id.org/aikg/ontology#"
    assert config["prefixes"]["id"] == "https://w3id.org/aikg/id/"
    assert [name for name, _ in config["examples"]][0] == "Entities by type"
    prefixes = ro_client.get("/editor/prefixes.json").get_json()
    assert prefixes["dcterms"] == "http://purl.org/dc/terms/"


def _editor_config(resp) -> dict:
    found = re.search(r'id="editor-config">(.*?)</script>', resp.get_data(as_text=True), re.S)
    return json.loads(found.group(1))


def test_the_editor_opens_every_named_query_by_name_within_a_request_line(ro_client):
    """The queries page and the ask page link to the editor by name: the longest query texts, in a URL,
    pass gunicorn's 8,190-byte request line (a 414 where the link should open the editor)."""
    queries = {q["name"]: q for q in ro_client.get("/api/queries").get_json()["queries"]}
    assert "source-disagreements" in queries
    for name, q in sorted(queries.items()):
        resp = ro_client.get(f"/editor?named={name}", headers=HTML)
        assert resp.status_code == 200, name
        given = _editor_config(resp)["given"]
        defaults = [p for p in q["parameters"] if p["default"] is not None]
        if not defaults:
            assert given["query"] == (QUERIES / f"{name}.rq").read_text(encoding="utf-8"), name
        for p in defaults:  # written in, as the Questions page runs it (vendor=nvidia, not all vendors)
            assert f"AS ?{p['name']})" in given["query"], name
    bound = _editor_config(ro_client.get("/editor?named=deals-of-organization&org=coreweave", headers=HTML))
    assert bound["given"]["name"] == "Deals of one organization"
    assert "<https://w3id.org/aikg/id/coreweave>" in bound["given"]["query"]
    where = bound["given"]["query"].split("WHERE", 1)[1]
    spoken = "\n".join(line for line in where.splitlines() if not line.lstrip().startswith("#"))
    assert "?org" not in spoken  # the value is written in; a comment may still name the parameter


def test_the_editor_refuses_an_unknown_named_query_or_parameter(ro_client):
    assert ro_client.get("/editor?named=no-such-query").status_code == 404
    resp = ro_client.get("/editor?named=deals-of-organization&nope=1")
    assert resp.status_code == 400
    assert "nope" in resp.get_json()["message"]


def test_a_browser_sent_to_an_unknown_named_query_gets_the_editor_saying_so(ro_client):
    """A mistyped or stale link from a browser: the editor page, under the same status, with the
    problem written in it (not a JSON body the browser shows as raw text), and nothing filled in."""
    for url, status, words in (
        ("/editor?named=no-such-query", 404, "no-such-query"),
        ("/editor?named=deals-of-organization&nope=1", 400, "nope"),
    ):
        resp = ro_client.get(url, headers=HTML)
        assert resp.status_code == status
        assert resp.mimetype == "text/html"
        alert = re.search(r'<p class="error" role="alert">(.*?)</p>', resp.get_data(as_text=True), re.S)
        assert alert is not None and words in alert.group(1)
        assert _editor_config(resp)["given"] is None
    assert 'role="alert"' not in ro_client.get("/editor?named=deals-of-organization", headers=HTML).get_data(
        as_text=True
    )


def test_static_assets_are_served(ro_client):
    for path in (
        "/static/css/explorer.css",
        "/static/js/common.js",
        "/static/js/entity.js",
        "/static/favicon.svg",
    ):
        assert ro_client.get(path).status_code == 200, path


@pytest.mark.parametrize("fmt", [f for f, _ in EXPORT_FORMATS])
def test_every_download_button_of_an_entity_page_answers(ro_client, fmt):
    resp = ro_client.get(f"/export/{fmt}?focus=coreweave&depth=1")
    assert resp.status_code == 200
    assert len(resp.data) > 200


@pytest.mark.parametrize("name,query", EXAMPLE_QUERIES, ids=[n for n, _ in EXAMPLE_QUERIES])
def test_every_example_of_the_editor_runs(ro_client, name, query):
    resp = ro_client.post(
        "/sparql",
        data={"query": sparql_prologue() + query},
        headers={"Accept": "application/sparql-results+json"},
    )
    assert resp.status_code == 200
    assert resp.get_json()["results"]["bindings"]


def test_the_editor_text_of_a_question_with_a_default_answers_what_the_page_answers(ro_client):
    """The NVIDIA-only question's link to the editor kept no vendor: its text answered for every vendor."""
    given = _editor_config(ro_client.get("/editor?named=nvidia-only-capacity", headers=HTML))["given"]
    page = ro_client.get("/api/queries/nvidia-only-capacity").get_json()
    sparql = ro_client.post(
        "/sparql", data={"query": given["query"]}, headers={"Accept": "application/sparql-results+json"}
    ).get_json()
    holders = sorted(b["holder"]["value"] for b in sparql["results"]["bindings"])
    assert holders == sorted(r["holder"]["value"] for r in page["rows"]) and holders
