# ruff: noqa: F811 - the tests take the imported fixtures (page) as arguments
"""Asking in plain words in the explorer (headless Chromium): type a question, press Enter, read the table.

Uses the browser fixtures of test_explorer.py: nothing leaves 127.0.0.1, no console error, a screenshot
of each test in artifacts/screenshots/.
"""

from __future__ import annotations

import re

import pytest
import requests
from playwright.sync_api import Page, expect

from test_explorer import SOURCE_TITLE, browse, browser, page, playwright, shot  # noqa: F401 - fixtures


def test_a_question_typed_on_the_front_page_and_enter_shows_the_answer_table_with_sources(page: Page):
    page.goto("/")
    page.fill("#q", "who runs NVIDIA-only capacity?")
    expect(page.locator(".sugg-ask")).to_contain_text("who runs NVIDIA-only capacity?")
    page.press("#q", "Enter")
    page.wait_for_url("**/ask?q=*")
    expect(page.locator("#ask-result")).to_have_attribute("data-state", "answered")
    expect(page.locator("#ask-query")).to_have_text("Who runs NVIDIA-only capacity")
    row = page.locator("#ask-table tbody tr", has=page.locator('a[href="/id/ports-pike"]')).first
    expect(row).to_be_visible()
    expect(row.locator(".row-sources")).to_contain_text(SOURCE_TITLE)
    expect(row.locator(".row-sources .badge").first).to_have_text("reported")
    shot(page, "ask")
    # The named query it ran opens in the SPARQL editor, with its parameter in the text.
    page.click("#ask-editor")
    page.wait_for_url("**/editor?named=*")
    expect(page.locator("#yasgui")).to_contain_text("hardwareVendorPolicy", timeout=20_000)


def test_a_chinese_fact_question_in_the_header_box_shows_the_value_and_its_source(page: Page):
    page.goto("/graph")
    box = page.locator(".topsearch input")
    box.fill("GB300 的显存是多少?")
    box.press("Enter")
    page.wait_for_url("**/ask?q=*")
    expect(page.locator("#ask-result")).to_have_attribute("data-state", "answered")
    value = page.locator("#ask-table tbody tr .fact-value").first
    expect(value).to_have_text("288 GB")
    expect(page.locator("#ask-table .row-sources").first).to_contain_text(SOURCE_TITLE)
    expect(page.locator("#ask-note")).to_contain_text("GB300 NVL72")


def test_an_out_of_scope_question_says_i_do_not_know_and_offers_questions(page: Page):
    page.goto("/ask")
    page.fill("#ask-input", "what is the weather in Paris?")
    page.press("#ask-input", "Enter")
    expect(page.locator("#ask-result")).to_have_attribute("data-state", "abstained")
    expect(page.locator("#ask-abstained")).to_contain_text("I don't know")
    expect(page.locator("#ask-table")).to_have_count(0)
    expect(page.locator("#ask-alternative-list li").first).to_be_visible()


def test_the_questions_page_shows_each_query_s_examples_which_ask_them(page: Page):
    page.goto("/queries/deals-of-organization")
    example = page.locator("#query-examples a", has_text="what deals has CoreWeave made?")
    expect(example).to_be_visible()
    example.click()
    page.wait_for_url("**/ask?q=*")
    expect(page.locator("#ask-query")).to_have_text("Deals of one organization")
    expect(page.locator("#ask-table")).to_contain_text("Microsoft")


# -- composed answers (issue 44), on the default store: what the person sees -----------------------------


@pytest.fixture(scope="module")
def warm_epoch_server(epoch_server):
    """The default store's server with its search index and reader built (the first question of a fresh
    server builds them; on a loaded machine that can outlast the query time limit, which is not what
    these tests are about)."""
    for _ in range(5):
        body = requests.get(
            f"{epoch_server.url}/api/ask",
            params={"q": "Which has more HBM, GB200 NVL72 or GB300 NVL72?"},
            timeout=120,
        ).json()
        if body["answer"]["kind"] != "timeout":
            break
    return epoch_server


def _ask(p: Page, q: str, state: str = "answered") -> None:
    p.fill("#ask-input", q)
    p.press("#ask-input", "Enter")
    expect(p.locator("#ask-result")).to_have_attribute("data-state", state, timeout=20_000)


def test_a_comparison_shows_both_figures_the_larger_and_the_sparql_it_ran(browse, warm_epoch_server):
    p = browse(warm_epoch_server)
    p.goto("/ask")
    _ask(p, "Which has more HBM, GB200 NVL72 or GB300 NVL72?")
    expect(p.locator("#ask-description")).to_contain_text("GB200 NVL72, GB300 NVL72")
    expect(p.locator("#ask-summary")).to_contain_text("GB300 NVL72: 288")
    table = p.locator("#ask-table")
    expect(table).to_contain_text("192")
    expect(table).to_contain_text("288")
    expect(p.locator("#ask-table tbody tr").first.locator(".row-sources li").first).to_be_visible()
    expect(p.locator("#ask-editor")).to_have_attribute("href", re.compile(r"^/editor\?query="))
    expect(p.locator("#ask-sparql")).to_contain_text("aikg:memoryPerChip")
    shot(p, "ask-comparison")


def test_a_superlative_says_its_defaults_and_a_follow_up_changes_only_the_country(browse, warm_epoch_server):
    p = browse(warm_epoch_server)
    p.goto("/ask")
    _ask(p, "What is the largest AI supercomputer operating today?")
    expect(p.locator("#ask-description")).to_contain_text("existing clusters")
    expect(p.locator("#ask-description")).to_contain_text("rated at least Likely")
    first = p.locator("#ask-table tbody tr").first
    expect(first.locator('a[href="/id/cluster-xai-colossus-memphis-phase-3"]').first).to_be_visible()
    shot(p, "ask-superlative")
    _ask(p, "what about in Japan?")
    expect(p.locator("#ask-description")).to_contain_text("in Japan")
    expect(p.locator("#ask-description")).to_contain_text("ranked by H100-equivalents")
    assert "after=" in p.url
    expect(p.locator("#ask-table tbody tr").first).not_to_contain_text("Colossus")
    # "which operator runs the most clusters" ranks the operators by the clusters the totals count
    # (existing, rated at least Likely, each once): Alibaba and Microsoft, 19 each, not Google's 42 rows
    _ask(p, "Which operator runs the most GPU clusters?")
    expect(p.locator("#ask-description")).to_contain_text("grouped by operator")
    top = p.locator("#ask-table tbody tr").first
    expect(top.locator('a[href="/id/alibaba"], a[href="/id/microsoft"]').first).to_be_visible()


def test_what_the_graph_does_not_hold_and_what_was_not_understood_are_abstentions_with_no_table(
    browse, warm_epoch_server
):
    p = browse(warm_epoch_server)
    p.goto("/ask")
    _ask(p, "What is Microsoft's revenue?", "abstained")
    expect(p.locator("#ask-abstained")).to_contain_text("I don't know")
    expect(p.locator("#ask-table")).to_have_count(0)
    expect(p.locator("#ask-description")).to_have_count(0)
    shot(p, "ask-abstained")
    # a word the reading does not explain: "not sure", what it understood, the words it did not, no table
    _ask(p, "operators whose entire fleet is NVIDIA", "unsure")
    expect(p.locator("#ask-unsure")).to_contain_text("Not sure")
    expect(p.locator("#ask-description")).to_contain_text("NVIDIA")
    expect(p.locator("#ask-unsure mark")).to_have_text(["entire"])  # "fleet" is read (issue 44)
    expect(p.locator("#ask-editor")).to_be_visible()
    expect(p.locator("#ask-table")).to_have_count(0)
    shot(p, "ask-unsure")
    # a word that asks nothing of the domain ("wins"): answered, and the word is said unused
    _ask(p, "who wins on memory, H200 or MI325X?")
    expect(p.locator("#ask-unused mark")).to_have_text(["wins"])
    expect(p.locator("#ask-table tbody tr").first).to_be_visible()
