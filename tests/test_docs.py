"""The manual documents what a user can set, ask and run: every setting, named query, command and ontology
file is in the reference served under ``/docs`` (its pages as the service serves them, generated parts
included). A new one that is not documented fails here. The README stays a short newcomer's page."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from aikg.cli import main
from aikg.query.named import load_queries
from aikg.resources import docs_dir, ontology_dir
from aikg.settings import SETTINGS
from aikg.store import OxigraphStore
from aikg.web import create_app
from aikg.web.docs import ORDER, pages

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def docs_client():
    # No data is needed to render the manual: an empty store keeps this module cheap.
    return create_app({"store": "memory", "load_seeds": False}, store=OxigraphStore(None)).test_client()


@pytest.fixture(scope="module")
def manual(docs_client) -> dict[str, str]:
    """Every page's Markdown as served (``/docs/<page>.md``), generated parts written in."""
    out = {}
    for slug, _ in pages():
        r = docs_client.get(f"/docs/{slug}.md")
        assert r.status_code == 200, slug
        out[slug] = r.get_data(as_text=True)
    return out


@pytest.mark.parametrize("setting", SETTINGS, ids=lambda s: s.name)
def test_every_setting_is_in_the_manual_with_its_help(manual, setting) -> None:
    row = next((line for line in manual["settings"].splitlines() if f"`{setting.env}`" in line), "")
    assert f"`{setting.option}`" in row and setting.help in row


@pytest.mark.parametrize("name", sorted(load_queries()))
def test_every_named_query_is_in_the_manual(manual, name: str) -> None:
    query = load_queries()[name]
    section = manual["named-queries"].split(f"### `{name}` — ", 1)
    assert len(section) == 2, name
    assert section[1].startswith(query.title) and query.description in section[1]
    for p in query.parameters:
        assert f"| `{p.name}` |" in section[1].split("\n### ", 1)[0]


@pytest.mark.parametrize("command", sorted(main.commands))
def test_every_command_is_in_the_manual(manual, command: str) -> None:
    assert f"| `aikg {command}` |" in manual["cli"]


@pytest.mark.parametrize("path", sorted(p.name for p in ontology_dir().glob("*.ttl")))
def test_every_ontology_file_is_described_and_listed_term_by_term(manual, path: str) -> None:
    assert f"`{path}`" in manual["knowledge-model"]
    assert f"## `{path}`" in manual["vocabulary"]


def test_every_page_is_served_as_html_and_listed_in_order(docs_client) -> None:
    index = docs_client.get("/docs").get_data(as_text=True)
    on_disk = sorted(p.stem for p in docs_dir().glob("*.md"))
    assert sorted(ORDER) == on_disk  # a new page gets its place in the reading order
    positions = [index.index(f'href="/docs/{slug}"') for slug in ORDER]
    assert positions == sorted(positions)
    for slug in ORDER:
        r = docs_client.get(f"/docs/{slug}")
        assert r.status_code == 200 and r.mimetype == "text/html", slug
        assert "<!-- aikg:reference" not in r.get_data(as_text=True)  # every generated part written in


def test_links_between_pages_lead_to_pages_that_exist(docs_client, manual) -> None:
    for slug, text in manual.items():
        for target in re.findall(r"\]\(([a-z][a-z-]*)\.md(?:#[^)]*)?\)", text):
            assert target in ORDER, f"{slug} links to {target}.md"
    html = docs_client.get("/docs/cli").get_data(as_text=True)
    assert 'href="/docs/settings"' in html  # on the site, a page link is the served page


def test_an_unknown_page_is_a_404_in_the_error_shape(docs_client) -> None:
    r = docs_client.get("/docs/no-such-page", headers={"Accept": "application/json"})
    assert r.status_code == 404 and r.get_json()["ok"] is False


def test_the_readme_is_a_short_page_whose_links_exist() -> None:
    assert len(README.splitlines()) <= 300
    for target in re.findall(r"\]\(([^)#]+)(?:#[^)]*)?\)", README):
        if not target.startswith("http"):
            assert (ROOT / target).exists(), target


def _setup_commands() -> list[str]:
    """The shell commands of the README's "Set up" section, in order."""
    section = README.split("## Set up", 1)[1].split("\n## ", 1)[0]
    return [block.strip() for block in re.findall(r"```sh\n(.*?)```", section, flags=re.S)]


def test_the_readme_has_exactly_two_set_up_commands_and_ci_runs_the_test_one_verbatim():
    start, test, *examples = _setup_commands()
    assert not any("pip install" in block or "venv" in block for block in examples)  # only usage examples
    assert start.endswith("aikg serve") and test.endswith("pytest")
    assert test.startswith("sh tests/system-packages.sh && ")  # the system packages are part of it
    ci = (ROOT / ".ci" / "run").read_text()
    assert test in ci.splitlines()


def test_an_unknown_or_overlong_page_is_a_404_not_a_500(docs_client) -> None:
    """Regression (hostile traffic): a slug longer than a file name may be made stat() fail (500)."""
    for slug in ("no-such-page", "x" * 5000):
        resp = docs_client.get(f"/docs/{slug}")
        assert resp.status_code == 404 and resp.get_json()["status"] == 404
