"""The explorer in a real browser: headless Chromium (Debian's) driven by Playwright against a live server.

One browser for these tests, one fresh context per test. Every test also checks that the page made no
request off 127.0.0.1 and logged no console error, and leaves a screenshot in artifacts/screenshots/.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
import requests
from playwright.sync_api import Browser, Page, Playwright, expect, sync_playwright

from conftest import ARTIFACTS, LiveServer

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]
SHOTS = ARTIFACTS / "screenshots"
RESULT = "result-mlperf-training-v6-0-coreweave-deepseek-v3"
SOURCE_TITLE = "CoreWeave 用 8,192 张 GB300 NVL72 把 DeepSeek-V3 671B 训练压到 2.02 分钟"


@pytest.fixture(scope="module")
def playwright() -> Iterator[Playwright]:
    """The Playwright driver, started once for these tests (and stopped before other modules run)."""
    expect.set_options(timeout=20_000)  # laying out the whole graph on a busy 2-core machine takes seconds
    with sync_playwright() as p:
        yield p


@pytest.fixture(scope="module")
def browser(playwright: Playwright) -> Iterator[Browser]:
    """Debian's Chromium, headless, with every phone-home feature switched off."""
    b = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
    yield b
    b.close()


class Watch:
    """What a page did: requests that left 127.0.0.1 (aborted) and console errors."""

    def __init__(self, base: str) -> None:
        self.base = base
        self.outside: list[str] = []
        self.errors: list[str] = []
        self.local = 0

    def route(self, route) -> None:
        url = route.request.url
        if url.startswith(self.base + "/") or url.startswith(("data:", "blob:")):
            self.local += 1
            route.continue_()
        else:
            self.outside.append(url)
            route.abort()


@pytest.fixture()
def page(browser: Browser, live_server: LiveServer, request) -> Iterator[Page]:
    """A fresh page on the live server; afterwards: nothing left the machine, no console error."""
    context = browser.new_context(viewport={"width": 1360, "height": 900}, base_url=live_server.url,
                                  accept_downloads=True)
    watch = Watch(live_server.url)
    context.route("**/*", watch.route)
    p = context.new_page()
    p.on("console", lambda m: watch.errors.append(m.text) if m.type == "error" else None)
    p.on("pageerror", lambda e: watch.errors.append(f"uncaught: {e}"))
    p.set_default_timeout(20_000)
    yield p
    SHOTS.mkdir(parents=True, exist_ok=True)
    p.screenshot(path=str(SHOTS / f"{request.node.name}.png"), full_page=True)
    context.close()
    assert watch.outside == [], "requests left 127.0.0.1"
    assert watch.errors == [], "console errors"
    assert watch.local > 0


def shot(p: Page, name: str, *, full: bool = False) -> None:
    """Save a named screenshot of the page as it is now (the README shows these)."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    p.screenshot(path=str(SHOTS / f"{name}.png"), full_page=full)


def test_search_core_suggests_coreweave_whose_page_shows_the_mlperf_result_and_its_source(page: Page):
    page.goto("/")
    page.fill("#q", "core")
    suggestion = page.locator('.sugg[data-slug="coreweave"]')
    expect(suggestion).to_be_visible()
    group = page.locator(".sugg-group", has=suggestion)
    expect(group.locator(".sugg-head")).to_have_text("Organizations")
    expect(suggestion).to_contain_text("neocloud")
    shot(page, "search")
    suggestion.click()
    page.wait_for_url("**/id/coreweave")
    expect(page.locator("#entity")).to_have_attribute("data-loaded", "true")
    expect(page.locator("h1")).to_have_text("CoreWeave")

    card = page.locator(f'.node-card[data-node="{RESULT}"]')
    expect(card.locator('dd[data-prop="acceleratorCount"] .big')).to_have_text("8,192")
    expect(card.locator('dd[data-prop="timeToTrain"] .big')).to_have_text("2.02 minutes")
    expect(card.locator("dd a", has_text=re.compile(r"^GB300$"))).to_have_count(1)
    expect(card.locator('dd[data-prop="timeToTrain"] .badge')).to_have_text("reported")
    expect(card.locator(".card-sources")).to_contain_text(SOURCE_TITLE)
    expect(page.locator("#relations .relgroup h3").first).to_contain_text("Deals")
    shot(page, "entity")
    card.scroll_into_view_if_needed()
    shot(page, "entity-result")

    # "Where does this number come from?": its citation leads to the source, the source to its page.
    card.locator('dd[data-prop="timeToTrain"] .cite').click()
    source = page.locator("#src-1")
    expect(source).to_contain_text(SOURCE_TITLE)
    expect(source).to_contain_text("Frontier Tech Insights")
    expect(source).to_contain_text("2026-08-18")
    source.locator(".source-title a").click()
    page.wait_for_url("**/id/frontier-insights-coreweave-mlperf-2026-08-18")
    expect(page.locator("#entity")).to_have_attribute("data-loaded", "true")


def test_chinese_alias_finds_nvidia(page: Page):
    page.goto("/timeline")
    box = page.locator(".topsearch input")
    box.fill("英伟达")
    suggestion = page.locator('.sugg[data-slug="nvidia"]')
    expect(suggestion).to_contain_text("NVIDIA")
    expect(suggestion.locator(".alias")).to_have_text("matched “英伟达”")
    box.press("Enter")
    page.wait_for_url("**/id/nvidia")
    expect(page.locator("h1")).to_have_text("NVIDIA")
    expect(page.locator("#names")).to_contain_text("英伟达")


def test_entity_page_marks_rumours_and_prices_without_currency(page: Page):
    page.goto("/id/price-list-tinker")
    expect(page.locator("#entity")).to_have_attribute("data-loaded", "true")
    prices = page.locator(".node-card.uncertain")
    expect(prices).to_have_count(3)
    expect(prices.first.locator(".warn")).to_have_text("⚠ no currency in source")
    expect(prices.first.locator(".badge.cert-relayed").first).to_have_text("↪ relayed second-hand")
    page.goto("/id/tpu-v9")
    expect(page.locator("#entity")).to_have_attribute("data-loaded", "true")
    expect(page.locator(".node-card.uncertain .badge.cert-rumoured").first).to_have_text("? rumoured")


def _expected_graph(server: LiveServer, query: str) -> tuple[int, int]:
    """Nodes and edges the view should draw: the export's, less value-qualification nodes."""
    body = requests.get(f"{server.url}/export/cytoscape?{query}", timeout=30).json()["elements"]
    kept = {n["data"]["id"] for n in body["nodes"] if n["data"]["type"] != "aikg:ValueQualification"}
    edges = [e for e in body["edges"] if e["data"]["source"] in kept and e["data"]["target"] in kept]
    return len(kept), len(edges)


def test_graph_view_draws_the_neighbourhood_and_a_click_opens_a_node(page: Page, live_server: LiveServer):
    nodes, edges = _expected_graph(live_server, "focus=coreweave&depth=1")
    page.goto("/graph?focus=coreweave&depth=1")
    cy = page.locator("#cy")
    expect(cy).to_have_attribute("data-ready", "true")
    expect(cy).to_have_attribute("data-nodes", str(nodes))
    expect(cy).to_have_attribute("data-edges", str(edges))
    assert page.evaluate("aikgGraph.nodes().length") == nodes
    assert page.evaluate("aikgGraph.edges().length") == edges
    assert page.evaluate(f"aikgGraph.nodes('[slug = \"{RESULT}\"]').length") == 1
    expect(page.locator("#graph-stats")).to_contain_text(f"{nodes} nodes · {edges} edges")

    # Filtering a type hides its nodes.
    deals = page.evaluate("aikgGraph.nodes('[family = \"deal\"]').length")
    assert deals == 2
    page.locator('input[data-family="deal"]').uncheck()
    expect(cy).to_have_attribute("data-nodes", str(nodes - deals))
    page.locator('input[data-family="deal"]').check()
    shot(page, "graph-neighbourhood")

    box = cy.bounding_box()
    pos = page.evaluate("() => aikgGraph.nodes('[slug = \"nebius\"]').renderedPosition()")
    page.mouse.click(box["x"] + pos["x"], box["y"] + pos["y"])
    page.wait_for_url("**/id/nebius")
    expect(page.locator("h1")).to_have_text("Nebius")


def test_graph_view_draws_the_whole_graph_and_folds_results_into_edges(page: Page,
                                                                       live_server: LiveServer):
    nodes, edges = _expected_graph(live_server, "")
    page.goto("/graph")
    cy = page.locator("#cy")
    expect(cy).to_have_attribute("data-ready", "true")
    expect(cy).to_have_attribute("data-nodes", str(nodes))
    expect(cy).to_have_attribute("data-edges", str(edges))
    assert nodes > 100
    shot(page, "graph")
    page.locator("#fold").check()
    expect(cy).to_have_attribute("data-ready", "true")
    folded = int(cy.get_attribute("data-nodes"))
    assert folded < nodes
    assert page.evaluate(f"aikgGraph.nodes('[slug = \"{RESULT}\"]').length") == 0
    assert page.evaluate("aikgGraph.nodes('[slug = \"coreweave\"]').length") == 1


def test_named_query_with_a_parameter_runs_and_tabulates_its_rows(page: Page):
    page.goto("/queries")
    page.locator('a[data-query="deals-of-organization"]').click()
    page.wait_for_url("**/queries/deals-of-organization")
    org = page.locator("#p-org")
    org.fill("NVIDIA")
    page.locator('.picker .sugg[data-slug="nvidia"]').click()
    page.locator("#run").click()
    results = page.locator("#query-results")
    expect(results).to_have_attribute("data-state", "done")
    expect(page.locator("#row-count")).to_have_text("2 rows")
    headers = page.locator("#query-results th").all_inner_texts()
    assert [h.lower() for h in headers][:3] == ["deal", "kind", "role"]
    rows = page.locator("#query-results tbody tr")
    first = rows.nth(0).locator("td").all_inner_texts()
    second = rows.nth(1).locator("td").all_inner_texts()
    assert first[:5] == ["NVIDIA invests USD 1.5 billion in SB Energy", "investment", "investor", "SB Energy",
                         "investee"]
    assert second[:5] == ["NVIDIA's planned participation in Groq's Series A", "investment", "investor",
                          "Groq", "investee"]
    sb_energy = rows.nth(0).get_by_role("link", name="SB Energy", exact=True)
    expect(sb_energy).to_have_attribute("href", "/id/sb-energy")
    assert "org=nvidia" in page.url
    shot(page, "queries")

    with page.expect_download() as download:
        page.locator("#dl-csv").click()
    lines = Path(download.value.path()).read_text(encoding="utf-8").splitlines()
    assert lines[0].startswith("org,deal,dealLabel,")
    assert len(lines) == 3
    assert lines[1].startswith("https://w3id.org/aikg/id/nvidia,https://w3id.org/aikg/id/deal-nvidia-sb-energy")
    assert page.locator("#dl-json").get_attribute("href") == "/api/queries/deals-of-organization?org=nvidia"


def test_who_runs_nvidia_only_capacity_is_one_click_from_the_front_page(page: Page):
    page.goto("/")
    page.get_by_role("link", name="Who runs NVIDIA-only capacity?").click()
    page.wait_for_url("**/queries/nvidia-only-capacity")
    expect(page.locator("#query-results")).to_have_attribute("data-state", "done")
    holders = page.locator("#query-results tbody tr td:first-child").all_inner_texts()
    assert {"CoreWeave", "NVIDIA", "OpenAI", "SB Energy"} <= set(holders)
    shot(page, "nvidia-only-capacity")


def test_sparql_editor_runs_a_query_against_aikg_and_shows_results(page: Page):
    page.goto("/editor")
    tabs = page.locator(".tabsList .tab")
    expect(tabs).to_have_count(4)
    expect(tabs.first).to_contain_text("Entities by type")
    expect(page.locator(".yasr .dataTable tbody tr").first).to_be_visible()
    shot(page, "editor")
    value = page.evaluate("aikgEditor.getTab().getQuery()")
    assert "PREFIX aikg: <https://w3id.org/aikg/ontology#>" in value
    assert page.evaluate("aikgEditor.getTab().getEndpoint()").endswith("/sparql")
    page.evaluate("() => { aikgEditor.getTab().setQuery(`PREFIX id: <https://w3id.org/aikg/id/>\n"
                  "PREFIX rdfs: <http://www.w3.org/2000/01/rdf-schema#>\n"
                  "SELECT DISTINCT ?name WHERE { id:nvidia rdfs:label ?name } ORDER BY ?name`); }")
    page.locator(".yasqe_queryButton").click()
    table = page.locator(".yasr .dataTable tbody")
    expect(table).to_contain_text("英伟达")
    expect(table).to_contain_text("NVIDIA")
    expect(page.locator(".yasr_response_chip")).to_contain_text("2 results")


def test_timeline_lists_dated_events_in_order(page: Page):
    page.goto("/timeline")
    items = page.locator(".tl-item")
    expect(items.first).to_be_visible()
    dates = page.locator(".tl-item .tl-date").all_inner_texts()
    assert dates == sorted(dates)
    result = page.locator(".tl-item", has_text="CoreWeave, MLPerf Training v6.0, DeepSeek-V3 671B")
    expect(result.locator(".tl-date")).to_have_text("2026-08-17")
    expect(result.locator(".role")).to_have_text("benchmark result")
    shot(page, "timeline")
    page.fill("#tl-from", "2026-01-01")
    page.fill("#tl-to", "2026-12-31")
    page.locator("#tl-form button").click()
    expect(page.locator(".tl-year")).to_have_text(["2026"])
    assert all(d.startswith("2026") for d in page.locator(".tl-item .tl-date").all_inner_texts())


def test_front_page_counts_what_the_graph_holds(page: Page):
    page.goto("/")
    chip = page.locator("#type-counts .chip", has_text="neocloud")
    expect(chip.locator(".count")).to_have_text("4")  # CoreWeave, Lambda, Nebius, Groq
    shot(page, "home")
