"""The answer evaluation of asking in plain words (tests/data/ask_answers_*.jsonl; see its README).

Answers, not routes: each item's gold query runs on the session's default store (seeds plus the Epoch AI
snapshot) and the answer must contain its items, or abstain. In CI the development questions written for
the composed forms (comparisons, rankings, counts, figures, thresholds, dates, provenance, seed facts,
follow-ups) and the out-of-scope ones run (the first held-out part, now development data, only its
out-of-scope questions); ``aikg ask-eval`` measures both parts in full. Figures go to
artifacts/ask-eval.json.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from aikg.ask import Asker
from aikg.ask.scoring import Whole, evaluate_answers, judge, load_items
from conftest import ARTIFACTS
from helpers import services_for

DATA = Path(__file__).parent / "data"
BAR = 0.85


@pytest.fixture(scope="module")
def figures(epoch_store) -> dict:
    # The session's default store; its services are not closed, as that would close the shared store.
    # A generous query limit: accuracy is measured here, not speed on a loaded CI machine.
    services = services_for(epoch_store, query_timeout=60)
    # A sample, to keep CI short: the composed kinds written for development and every out-of-scope
    # question; the named-query paraphrases of issue 16 and the first held-out part (moved here) run
    # in full with `aikg ask-eval`.
    items = [
        i for i in load_items(DATA / "ask_answers_dev.jsonl") if i["id"][0] in "de" or i["category"] == "oos"
    ]
    result = evaluate_answers(Asker.for_services(services), epoch_store, items)
    ARTIFACTS.mkdir(exist_ok=True)
    (ARTIFACTS / "ask-eval.json").write_text(
        json.dumps(result, ensure_ascii=False, indent=2), encoding="utf-8"
    )
    return result


def test_the_evaluation_has_a_held_out_part_written_first_and_a_larger_development_part():
    held = load_items(*sorted(DATA.glob("ask_answers_heldout_*.jsonl")))
    dev = load_items(DATA / "ask_answers_dev.jsonl")
    assert len(held) >= 150 and len(dev) >= 250
    for part in (held, dev):
        langs = [i["lang"] for i in part]
        assert abs(langs.count("en") - langs.count("zh")) <= 0.25 * len(part)
    assert sum(1 for i in held if not i["paraphrase"]) >= len(held) / 2
    assert all("sparql" in i["expect"] or i["expect"].get("abstain") for i in held)


def test_a_follow_up_names_its_previous_question_by_its_words_not_its_id(tmp_path):
    """Part g was first committed with "after": "z156": each follow-up then ran after a question "z156"
    and scored wrong for the file's sake (0 of 12); the loader refuses such a file."""
    first = {"id": "x1", "q": "Which chip has the most memory?", "lang": "en", "category": "superlative"}
    path = tmp_path / "ask_answers_heldout_x.jsonl"
    path.write_text(
        "\n".join(
            json.dumps(i) for i in (first, {**first, "id": "x2", "q": "and the least?", "after": "x1"})
        ),
        encoding="utf-8",
    )
    with pytest.raises(ValueError, match="x.jsonl:2: 'after' must be the previous question"):
        load_items(path)
    path.write_text(
        "\n".join(json.dumps(i) for i in (first, {**first, "id": "x2", "after": first["q"]})),
        encoding="utf-8",
    )
    assert load_items(path)[1]["after"] == first["q"]


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_development_answers_are_right_in_each_language(figures, lang):
    share = figures["accuracy"][f"part:dev:lang:{lang}"]["share"]
    wrong = [w["q"] for w in figures["wrong"]]
    assert share >= BAR, f"{lang}: {share:.1%} right; wrong: {wrong}"


def test_no_out_of_scope_question_is_answered(figures):
    dev = figures["parts"]["dev"]
    assert dev["out_of_scope"]["of"] >= 30
    assert dev["out_of_scope"]["answered"] == 0, [
        w["q"] for w in figures["wrong"] if w["expected"] == "abstain"
    ]


def _rows_answer(rows: list[dict], description: str = "", summary: str | None = None) -> dict:
    cells = [
        {"cells": {k: {"value": v, "type": "literal"} for k, v in r.items()}, "sources": []} for r in rows
    ]
    return {
        "abstained": False,
        "answer": {
            "kind": "rows",
            "description": description,
            "summary": summary,
            "query": {"title": description, "description": description, "links": {}},
            "rows": cells,
            "total": len(rows),
        },
    }


def _item(match: str) -> dict:
    return {"id": "x", "q": "?", "expect": {"match": match, "sparql": "SELECT ?x {}"}}


def test_a_single_figure_asked_for_must_be_the_answers_own_not_one_among_several():
    """ "DeepSeek-V3's GPU hours" answered 276 (another run) first and 2,788,000 second was scored right:
    a figure anywhere in the answer counted. The figure must be its headline or its first row or fact."""
    gold = [{"number": 2788000.0}]
    wrong = _rows_answer([{"run": "MLPerf", "value": "276"}, {"run": "original", "value": "2788000"}])
    right = _rows_answer([{"run": "original", "value": "2788000"}, {"run": "MLPerf", "value": "276"}])
    for match in ("any", "all", "count"):
        assert judge(_item(match), wrong, gold) is False
        assert judge(_item(match), right, gold) is True
    # a count stated as the answer's headline, its rows listing what was counted
    counted = _rows_answer([{"x": "a"}, {"x": "b"}, {"x": "c"}], summary="3")
    assert judge(_item("all"), counted, [{"number": 3.0}]) is True
    assert judge(_item("all"), counted, [{"number": 4.0}]) is False


def test_only_what_the_answer_states_counts_not_the_words_of_its_query():
    """A gold text ("France") in the answer's description or query title, beside rows of other things,
    was found there and scored right."""
    answer = _rows_answer([{"x": "Germany"}, {"x": "Italy"}], description="clusters in France")
    assert judge(_item("any"), answer, [{"text": "France"}]) is False
    assert judge(_item("any"), answer, [{"text": "Italy"}]) is True


def test_first_is_the_first_row_not_any_row():
    answer = _rows_answer([{"x": "Germany", "v": "2"}, {"x": "France", "v": "9"}])
    assert judge(_item("first"), answer, [{"text": "France"}]) is False
    assert judge(_item("first"), answer, [{"text": "Germany"}]) is True


ID = "https://w3id.org/aikg/id/"
GOLD = [{"iri": f"{ID}chip-{n}"} for n in range(5)]


def _chips(names: list[str], total: int | None = None) -> dict:
    answer = _rows_answer([{"x": f"{ID}{n}", "bandwidth": "1.6"} for n in names])
    answer["answer"]["total"] = total if total is not None else len(names)
    return answer


def test_a_list_holding_every_gold_item_among_many_other_rows_is_wrong():
    """ "Huawei chips with memory bandwidth above 1.5 TB/s" answered with every chip that has a bandwidth
    held each gold chip among 113 rows and was scored right: the threshold was never applied."""
    gold_rows = [f"chip-{n}" for n in range(5)]
    for match in ("all", "most"):
        assert judge(_item(match), _chips(gold_rows + [f"other-{n}" for n in range(20)]), GOLD) is False
        assert judge(_item(match), _chips(gold_rows + ["other-1", "other-2"]), GOLD) is True
        assert judge(_item(match), _chips(gold_rows + ["other-1", "other-2", "other-3"]), GOLD) is False
    # rows it says it has but did not show are outside for all it is known, once past the gold and slack
    assert judge(_item("all"), _chips(gold_rows, total=8), GOLD) is False
    assert judge(_item("all"), _chips(gold_rows, total=7), GOLD) is True
    # a ranking or a count is not a list: its rules are the same as before
    assert judge(_item("first"), _chips(gold_rows + 20 * ["other-0"]), GOLD) is True
    assert judge(_item("any"), _chips(gold_rows + 20 * ["other-0"]), GOLD) is True


def test_a_row_holding_a_gold_entity_in_another_column_is_not_outside():
    """A row per cluster of a gold operator holds the operator, not in the answer's first column."""
    gold = [{"iri": f"{ID}meta-ai"}, {"iri": f"{ID}xai"}]
    clusters = [
        {"x": f"{ID}cluster-{n}", "operator": f"{ID}{'xai' if n % 2 else 'meta-ai'}"} for n in range(12)
    ]
    assert judge(_item("all"), _rows_answer(clusters), gold) is True
    other = [{"x": f"{ID}cluster-{n}", "operator": f"{ID}openai"} for n in range(3)]
    assert judge(_item("all"), _rows_answer(clusters + other), gold) is False


def test_a_rankings_tail_after_its_gold_top_is_not_outside():
    """ "Which GPU has the highest TDP?" (two tied at the top) answered with the ten highest, the two
    first: the rows after the gold are the ranking's tail, as a superlative's `first` accepts."""
    gold = GOLD[:2]
    ranked = _chips(["chip-0", "chip-1", *[f"other-{n}" for n in range(8)]])
    superlative = {**_item("all"), "category": "superlative"}
    assert judge(superlative, ranked, gold) is True
    assert judge(_item("all"), ranked, gold) is False
    assert judge(superlative, _chips([*[f"other-{n}" for n in range(8)], "chip-0", "chip-1"]), gold) is False


def test_a_named_gold_is_the_start_of_a_whole_list_the_answer_may_show():
    """A named query's gold is its first 30 rows' entities; the rest of its answer is not outside, nor
    are as many rows as it has without an entity in the gold's column."""
    whole = Whole([*GOLD, *[{"iri": f"{ID}other-{n}"} for n in range(40)]], rows=48, blank=3)
    names = [f"chip-{n}" for n in range(5)] + [f"other-{n}" for n in range(40)] + ["x-1", "x-2", "x-3"]
    assert judge(_item("most"), _chips(names), GOLD, whole) is True
    assert judge(_item("most"), _chips(names), GOLD) is False
    assert judge(_item("most"), _chips([*names, *[f"y-{n}" for n in range(11)]]), GOLD, whole) is False
