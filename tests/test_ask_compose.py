"""Understanding as composition (issue 44), on the default store (seeds plus the Epoch AI snapshot).

Each test asks as an analyst would and checks the answer by value against the data: a comparison holds
both figures, a ranking honours the status and confidence defaults and says so, a count is the count, a
threshold keeps its unit, a date range both ends, a follow-up what the question before it named, and
provenance the document a figure comes from. The composed SPARQL is shown and opens in the editor.
"""

from __future__ import annotations

import contextlib
import json
from urllib.parse import parse_qs, urlsplit

import pytest

from aikg.ask import Asker
from aikg.ask.compose import Form, read_dates, respell_cjk, restated
from aikg.ask.text import fold
from helpers import services_for

PRE = "PREFIX aikg: <https://w3id.org/aikg/ontology#>\nPREFIX id: <https://w3id.org/aikg/id/>\n"
ID = "https://w3id.org/aikg/id/"


@pytest.fixture(scope="module")
def asker(epoch_store) -> Asker:
    # The session's default store; its services are not closed, as that would close the shared store.
    return Asker.for_services(services_for(epoch_store))


def values(store, sparql: str) -> set[float]:
    return {float(r[0].value) for r in store.query(PRE + sparql).rows}


def numbers(answer: dict) -> set[float]:
    out = set()
    for row in answer["answer"].get("rows", []):
        for c in row["cells"].values():
            if c and "datatype" in c:
                with contextlib.suppress(ValueError):
                    out.add(float(c["value"]))
    return out


def first(answer: dict) -> str:
    return answer["answer"]["rows"][0]["about"]


def count_of(answer: dict) -> int:
    return int(answer["answer"]["rows"][0]["cells"]["count"]["value"])


def every_counts(answer: dict) -> set[int]:
    """The counts of every row a count with the totals' defaults gives beside its answer."""
    return {c["count"] for c in (answer["answer"].get("every_row") or {}).get("counts", [])}


def counted_clusters(scope: str) -> str:
    """Gold: the clusters in ``scope`` (a pattern on ?x, and the same on ?y) the totals count — existing,
    rated at least Likely, leaving out rows superseded by or duplicates of another such cluster in it."""
    rated = 'aikg:operationalStatus "Existing" ; aikg:sourceConfidence ?{0} '
    rated += 'FILTER(?{0} IN ("Confirmed", "Likely"))'
    return (
        f"?x a aikg:Deployment ; {scope.format('x')} . ?x {rated.format('c')} "
        f"MINUS {{ ?x aikg:supersededBy|aikg:possibleDuplicateOf ?y . ?y a aikg:Deployment ; "
        f"{scope.format('y')} . ?y {rated.format('cy')} }}"
    )


def org_totals(orgs: str, prop: str) -> str:
    """Gold: each organization's total of its clusters' ``prop`` (its subsidiaries' clusters too)."""
    where = counted_clusters("aikg:operator/aikg:parentOrganization? ?o")
    return (
        f"SELECT ?t WHERE {{ {{ SELECT ?o (SUM(?v) AS ?t) WHERE {{ SELECT DISTINCT ?o ?x ?v WHERE {{ "
        f"VALUES ?o {{ {orgs} }} {where} ?x aikg:{prop} ?v }} }} GROUP BY ?o }} }}"
    )


@pytest.mark.parametrize(
    "q", ["Which has more HBM, GB200 NVL72 or GB300 NVL72?", "GB200 NVL72 和 GB300 NVL72 哪个显存更大"]
)
def test_a_comparison_holds_both_figures_and_names_the_larger(asker, epoch_store, q):
    body = asker.ask(q)
    assert not body["abstained"] and body["understood"]["form"]["op"] == "compare"
    want = values(
        epoch_store,
        "SELECT ?v WHERE { VALUES ?x { id:gb200-nvl72 id:gb300-nvl72 } ?x aikg:memoryPerChip ?v }",
    )
    assert want == {192.0, 288.0} and want <= numbers(body)
    assert body["answer"]["summary"].startswith("GB300 NVL72")
    # every row cites where its figure comes from
    assert all(row["sources"] for row in body["answer"]["rows"])


@pytest.mark.parametrize(
    ("q", "told"),
    [
        ("Compare Grok 3 and GPT-4o training compute", "aikg has no figure for GPT-4o ("),
        ("Grok 3 和 GPT-4o 哪个训练算力大", "aikg 没有 GPT-4o ("),
    ],
)
def test_a_side_named_by_several_things_none_with_a_figure_is_told_not_dropped(asker, epoch_store, q, told):
    # The data: Grok 3 has a training compute, none of the dated GPT-4o versions has one (Epoch gives none).
    # (a model's training compute is its own or its training run's)
    run = "?r aikg:trainedModel? {} ; aikg:trainingCompute ?v"
    held = values(epoch_store, "SELECT ?v WHERE { " + run.format("id:grok-3") + " }")
    rdfs = "PREFIX rdfs: <http://www.w3.org/2000/01/rdf-schema#>\n"
    label = "?m rdfs:label ?l FILTER(STRSTARTS(?l, 'GPT-4o ('))"
    versions = epoch_store.query(PRE + rdfs + "SELECT DISTINCT ?m WHERE { " + label + " }").rows
    assert held and len(versions) >= 2
    assert not epoch_store.query(PRE + rdfs + "SELECT ?v WHERE { " + label + run.format("?m") + " }").rows
    body = asker.ask(q)
    assert not body["abstained"] and body["understood"]["form"]["op"] == "compare"
    assert held <= numbers(body)
    assert told in (body["answer"]["note"] or "")


def test_a_side_named_by_several_things_one_with_a_figure_needs_no_note(asker):
    # GPT-4's dated versions hold a training compute: the comparison has both sides
    body = asker.ask("Compare Grok 3 and GPT-4 training compute")
    assert not body["abstained"] and body["understood"]["form"]["op"] == "compare"
    assert body["answer"]["note"] is None and len(body["answer"]["rows"]) >= 2


def test_the_largest_supercomputer_operating_is_an_existing_one_rated_at_least_likely(asker, epoch_store):
    body = asker.ask("What is the largest AI supercomputer operating today?")
    assert body["understood"]["form"]["op"] == "top"
    top = first(body)
    row = epoch_store.query(
        PRE + f"SELECT ?s ?c WHERE {{ <{top}> aikg:operationalStatus ?s ; aikg:sourceConfidence ?c }}"
    ).rows
    assert {(s.value, c.value) for s, c in row} <= {("Existing", "Confirmed"), ("Existing", "Likely")}
    assert top == ID + "cluster-xai-colossus-memphis-phase-3"
    assert "existing" in body["understood"]["description"] and "Likely" in body["understood"]["description"]
    # the composed query is shown, and one click opens it in the editor
    editor = body["answer"]["query"]["links"]["editor"]
    assert parse_qs(urlsplit(editor).query)["query"][0] == body["understood"]["sparql"]


def test_a_ranking_keeps_its_country_filter_and_a_follow_up_changes_only_the_country(asker):
    china = asker.ask("largest existing clusters in China")
    japan = asker.ask("what about in Japna?", after="largest existing clusters in China")
    assert china["understood"]["form"]["country"] == "China"
    assert japan["understood"]["form"]["country"] == "Japan"
    assert japan["understood"]["form"]["op"] == "top"
    assert first(japan) != first(china)


def test_a_count_per_organization_is_counted_from_the_graph(asker, epoch_store):
    body = asker.ask("微软运营多少个 GPU 集群？")
    (want,) = values(
        epoch_store,
        "SELECT (COUNT(DISTINCT ?x) AS ?n) WHERE { ?x a aikg:Deployment ; aikg:operator id:microsoft }",
    )
    assert body["understood"]["form"]["op"] == "count"
    # the clusters the totals count (existing, at least Likely, no superseded or duplicate rows), and
    # every row Epoch lists beside them
    (counted,) = values(
        epoch_store,
        "SELECT (COUNT(DISTINCT ?x) AS ?n) WHERE { "
        + counted_clusters("aikg:operator/aikg:parentOrganization? id:microsoft")
        + " }",
    )
    assert count_of(body) == int(counted) < int(want)
    assert int(want) in every_counts(body)
    assert body["answer"]["summary"].startswith(f"{int(counted)}")


def test_a_threshold_keeps_its_unit(asker, epoch_store):
    body = asker.ask("chips with memory bandwidth over 8 TB/s")
    assert body["understood"]["form"]["threshold"] == [">", 8000.0]
    want = {
        r[0].value
        for r in epoch_store.query(
            PRE + "SELECT DISTINCT ?x WHERE { ?x aikg:memoryBandwidth ?v FILTER(?v > 8000) }"
        ).rows
    }
    assert want and want == {row["about"] for row in body["answer"]["rows"]}


def test_a_date_range_keeps_both_ends():
    assert read_dates("between june and september 2026")[0] == ("2026-06-01", "2026-09-30")
    assert read_dates("2025 年 1 月到 3 月之间")[0] == ("2025-01-01", "2025-03-31")
    assert read_dates("since 2024")[0] == ("2024-01-01", "9999-12-31")


def test_who_says_deepseek_v3_cost_5_576m_names_the_document_and_its_certainty(asker):
    body = asker.ask("Who says DeepSeek-V3 cost 5.576M?")
    assert body["understood"]["form"]["op"] == "provenance"
    docs = {row["cells"]["document"]["value"] for row in body["answer"]["rows"]}
    assert ID + "frontier-insights-coreweave-mlperf-2026-08-18" in docs


def test_revenue_is_reached_newest_first(asker, epoch_store):
    body = asker.ask("Anthropic revenue over time")
    assert body["understood"]["form"]["op"] == "series"
    want = values(
        epoch_store,
        "SELECT ?v WHERE { ?f a aikg:RevenueFigure ; aikg:agent id:anthropic ; aikg:annualRevenue ?v }",
    )
    assert want and want <= numbers(body)
    dates = [row["cells"]["date"]["value"] for row in body["answer"]["rows"] if row["cells"].get("date")]
    assert dates == sorted(dates, reverse=True)


def test_a_misspelt_property_word_is_still_the_property(asker):
    body = asker.ask("memory bandwith of the H100 SXM5")
    assert body["understood"]["form"]["property"] == "memoryBandwidth"
    assert not body["abstained"]


@pytest.mark.parametrize(
    "q", ["What is NVIDIA's stock price today?", "英伟达的股价是多少", "What is Microsoft's revenue?"]
)
def test_what_the_graph_does_not_hold_is_not_answered(asker, q):
    body = asker.ask(q)
    assert body["abstained"] and body["answer"]["kind"] == "none"
    assert body["answer"]["message"].startswith("I don't know")


# -- how sure: words the reading does not account for (calibrated abstention) ---------------------------


@pytest.mark.parametrize(
    ("q", "unknown"),
    [
        # "entire fleet" is the whole question ("NVIDIA only"); read without "entire", NVIDIA's own
        # clusters ("fleet" is read: an organization's chips in its clusters)
        ("operators whose entire fleet is NVIDIA", ["entire"]),
        # "by province" asks for a breakdown the data does not give; read without it, a list of clusters
        ("clusters in China by province", ["province"]),
        ("H100 SXM5 memory bandwidth in the cloud", ["cloud"]),
    ],
)
def test_a_question_with_a_word_the_reading_does_not_explain_says_not_sure_and_what_it_understood(
    asker, q, unknown
):
    body = asker.ask(q)
    u, a = body["understood"], body["answer"]
    assert body["abstained"] and a["kind"] == "unsure"
    assert u["sure"] is False and u["unknown"] == unknown and a["unknown"] == unknown
    assert u["confidence"] < 0.75
    assert a["message"].startswith("Not sure.") and all(f"“{w}”" in a["message"] for w in unknown)
    # what it understood is shown (the form and, for a composed one, the SPARQL to run it anyway) ...
    assert a["description"] and a["description"] in a["message"]
    assert u["form"]["op"] and (a["links"].get("editor") or a["links"].get("page"))
    # ... but no answer that would look like one
    assert "rows" not in a and "facts" not in a


@pytest.mark.parametrize(
    "q",
    [
        "How many clusters does Google operate?",  # every word explained: answered as before
        "中国现有的集群",
        "whcih clusters are the largest in Japan",  # a misspelt known word explains as that word
        "H100 SXM5 memory bandwidth",
    ],
)
def test_a_question_whose_every_word_is_explained_is_answered_and_sure(asker, q):
    body = asker.ask(q)
    assert not body["abstained"] and body["answer"]["kind"] in ("rows", "facts")
    assert body["understood"]["sure"] is True and body["understood"]["unknown"] == []


def test_a_named_query_answers_a_paraphrase_word_but_is_less_confident(asker):
    # a named query is a template for a whole kind of question: one word its examples do not use is
    # another way to say the same ("outfits"), and lowers how sure the answer says it is
    body = asker.ask("Which outfits are peers of Nebius?")
    u = body["understood"]
    assert not body["abstained"] and u["query"] == "peers-in-category"
    assert u["sure"] is True and u["unknown"] == ["outfits"] and u["confidence"] <= 0.9
    assert any(r["about"] for r in body["answer"]["rows"])


@pytest.mark.parametrize(
    ("q", "unused", "sparql"),
    [
        # words that ask nothing of this domain: analysts' chat, slang, typos of common words
        (
            "who wins on memory, H200 or MI325X?",
            ["wins"],
            "SELECT ?v WHERE { VALUES ?x { id:nvidia-h200-sxm id:amd-instinct-mi325x }"
            " ?x aikg:memoryPerChip ?v }",
        ),
        (
            "wat has more memroy, Gaudi3 or MI300A",
            ["wat"],
            "SELECT ?v WHERE { VALUES ?x { id:intel-habana-gaudi3 id:amd-instinct-mi300a }"
            " ?x aikg:memoryPerChip ?v }",
        ),
        (
            "tell me Mistral's valuation pls",
            ["pls"],
            "SELECT ?v WHERE { ?x a aikg:FundingRound ; aikg:investee id:mistral-ai ;"
            " aikg:postMoneyValuation ?v ; aikg:date ?d } ORDER BY DESC(?d) LIMIT 1",
        ),
        (
            "话说 Kimi K2 和 DeepSeek-R1 谁的参数量更大啊",
            ["话"],
            "SELECT ?v WHERE { VALUES ?m { id:kimi-k2 id:deepseek-r1 } ?m aikg:totalParameters ?v }",
        ),
        (
            "老实说，H100 NVL 跟 L40 哪个功耗高一点",
            ["老实", "点"],
            "SELECT ?v WHERE { VALUES ?x { id:nvidia-h100-nvl id:nvidia-l40 }"
            " ?x aikg:thermalDesignPower ?v }",
        ),
    ],
)
def test_a_word_that_asks_nothing_of_the_domain_is_answered_and_said_unused(
    asker, epoch_store, q, unused, sparql
):
    body = asker.ask(q)
    u = body["understood"]
    assert not body["abstained"] and body["answer"]["kind"] in ("rows", "facts")
    assert numbers(body) >= values(epoch_store, sparql)
    # the answer says what it did not use, and is less confident for it
    assert u["sure"] is True and u["unknown"] == unused and 0.75 <= u["confidence"] < 1.0


@pytest.mark.parametrize(
    ("q", "meant"),
    [
        ("What is the average TDP of AMD chips?", "average"),  # an operator the composer does not apply
        ("How many clusters does xAI run outside Memphis?", "outside"),
        ("Which NVIDIA chip has the most memory per watt?", "per watt"),  # a ratio no figure is divided by
        ("Which has more memory bandwidth per dollar, H100 or MI300X?", "per dollar"),
        ("哪款英伟达芯片每瓦显存最高", "每瓦"),
        ("AMD 芯片的平均功耗是多少", "均"),
        ("除了英国以外欧洲最大的现有集群", "除"),
        ("clusters in China by province", "province"),  # the argument of a grouping
        ("H100 SXM5 memory bandwidth in the cloud", "cloud"),  # a word of the graph's names
        ("燧原有几款芯片", "燧"),  # the subject: a name the graph does not hold (no capital in Chinese)
        ("哪个模型的推理速度最快", "速度"),  # inside a clause: what is asked, not chat around it
        ("Which cluster uses the most water?", "water"),  # what is measured
        ("how many chips has Intel discontinued?", "discontinued"),  # the verb: the relation asked
        ("英特尔停产了几款芯片", "停产"),
    ],
)
def test_a_word_that_carries_meaning_the_reading_did_not_use_keeps_it_unsure(asker, q, meant):
    body = asker.ask(q)
    assert body["abstained"] and body["answer"]["kind"] == "unsure"
    assert meant in body["understood"]["unknown"] and body["understood"]["sure"] is False


# -- rankings by a count or total of another class, ascending rankings, the data-center class -------------


def group_top(store, sparql: str) -> str:
    (row,) = store.query(PRE + sparql + " LIMIT 1").rows
    return row[0].value


def tops(store, per: str) -> tuple[set[str], int]:
    """Gold: the groups with the most (``per``: a query of ?g and its ?n), and that most (ties kept)."""
    rows = store.query(PRE + per).rows
    most = max(int(r[1].value) for r in rows)
    return {r[0].value for r in rows if int(r[1].value) == most}, most


def clusters_per(path: str) -> str:
    """Gold: the clusters the totals count (existing, at least Likely, each once) per thing at ``path``."""
    where = counted_clusters(f"{path} ?g")
    return f"SELECT ?g (COUNT(DISTINCT ?x) AS ?n) WHERE {{ {where} }} GROUP BY ?g"


@pytest.mark.parametrize(
    ("q", "path"),
    [
        ("Which operator runs the most GPU clusters?", "aikg:operator"),
        ("who runs the most clusters in the dataset", "aikg:operator"),
        ("谁手里在役的集群最多？", "aikg:operator"),
        ("运营集群最多的前三家公司", "aikg:operator"),
        ("哪款加速器被最多的集群采用", "aikg:accelerator"),
        ("Which vendor's chips power the most clusters?", "aikg:accelerator/aikg:manufacturer"),
    ],
)
def test_which_organization_or_chip_has_the_most_clusters_counts_what_the_totals_count(
    asker, epoch_store, q, path
):
    """A ranking by how many clusters counts those the totals count (existing, rated at least Likely,
    no superseded or duplicate rows), as the rankings of clusters do: Google has the most rows (42, many
    planned or duplicates), Alibaba and Microsoft the most clusters running (19 each)."""
    body = asker.ask(q)
    assert not body["abstained"] and body["understood"]["form"]["op"] == "rank"
    assert body["answer"]["about"] == "group"  # not a ranking of the clusters themselves
    groups, most = tops(epoch_store, clusters_per(path))
    assert first(body) in groups and count_of(body) == most


@pytest.mark.parametrize(
    "q",
    [
        "融资总额最多的公司是哪家",
        "the company that raised the most in total",
        "which AI lab has raised the most money overall",
    ],
)
def test_the_company_that_raised_the_most_is_ranked_by_its_total(asker, epoch_store, q):
    body = asker.ask(q)
    assert not body["abstained"] and body["understood"]["form"]["op"] == "rank"
    assert body["answer"]["about"] == "group"  # companies, not their largest rounds
    gold = (
        "SELECT ?g WHERE { { SELECT DISTINCT ?x ?g ?v WHERE { ?x a aikg:FundingRound ; "
        "aikg:investee ?g ; aikg:amount ?v } } } GROUP BY ?g ORDER BY DESC(SUM(?v))"
    )
    assert first(body) == group_top(epoch_store, gold)


@pytest.mark.parametrize(
    ("q", "developer"),
    [
        ("which Meta model used the most training compute", "meta"),
        ("Anthropic's most compute-intensive model", "anthropic"),
    ],
)
def test_an_organizations_largest_model_counts_its_subsidiaries_models(asker, epoch_store, q, developer):
    """Meta's own few models are old; its largest are Meta AI's (a subsidiary): a ranking leaves none out."""
    body = asker.ask(q)
    assert not body["abstained"] and body["understood"]["form"]["op"] == "top"
    gold = (
        "SELECT ?r WHERE { ?r a aikg:TrainingRun ; aikg:trainedModel ?m ; aikg:trainingCompute ?c ; "
        f"aikg:sourceConfidence ?k . ?m aikg:developer/aikg:parentOrganization? id:{developer} "
        'FILTER(?k IN ("Confident", "Likely")) } ORDER BY DESC(xsd:double(STR(?c)))'
    )
    assert first(body) == group_top(epoch_store, "PREFIX xsd: <http://www.w3.org/2001/XMLSchema#>\n" + gold)


@pytest.mark.parametrize(
    ("q", "order"), [("Which chip has the lowest TDP?", "ASC"), ("功耗最低的芯片是哪款", "ASC")]
)
def test_a_ranking_from_the_lowest_up(asker, epoch_store, q, order):
    body = asker.ask(q)
    assert not body["abstained"] and body["understood"]["form"]["op"] == "top"
    gold = f"SELECT ?x WHERE {{ ?x a aikg:Hardware ; aikg:thermalDesignPower ?v }} ORDER BY {order}(?v)"
    assert first(body) == group_top(epoch_store, gold)


@pytest.mark.parametrize("q", ["Which data center has the most power?", "电力容量最大的数据中心"])
def test_a_data_center_is_a_data_center_not_a_cluster(asker, epoch_store, q):
    body = asker.ask(q)
    assert body["understood"]["form"]["class"] == "datacenter"
    gold = "SELECT ?x WHERE { ?x a aikg:DataCenter ; aikg:powerCapacity ?v } ORDER BY DESC(?v)"
    assert first(body) == group_top(epoch_store, gold)


@pytest.mark.parametrize(
    ("q", "gold"),
    [
        (
            "How many training runs used the H800?",
            "SELECT (COUNT(DISTINCT ?x) AS ?n) WHERE { ?x a aikg:TrainingRun ; aikg:accelerator id:h800 }",
        ),
        (
            "有多少个集群用的是 AMD 的芯片",
            "SELECT (COUNT(DISTINCT ?x) AS ?n) WHERE { ?x a aikg:Deployment ; "
            "aikg:accelerator/aikg:manufacturer id:amd }",
        ),
        (
            "How many GPU clusters does Microsoft operate?",  # the operator, not a chip maker
            "SELECT (COUNT(DISTINCT ?x) AS ?n) WHERE { ?x a aikg:Deployment ; aikg:operator id:microsoft }",
        ),
        (
            "How many clusters have more than 100,000 chips?",
            "SELECT (COUNT(DISTINCT ?x) AS ?n) WHERE { ?x a aikg:Deployment ; aikg:acceleratorCount ?v "
            "FILTER(?v > 100000) }",
        ),
    ],
)
def test_a_count_keeps_the_chip_it_is_filtered_by(asker, epoch_store, q, gold):
    body = asker.ask(q)
    (want,) = values(epoch_store, gold)
    assert body["understood"]["form"]["op"] == "count"
    # a count of clusters is of those the totals count; every row's count is given beside it
    assert int(want) in {count_of(body)} | every_counts(body)


def test_traditional_characters_and_homophone_typos_read_as_the_words_they_are():
    assert fold("華為記憶體最大的晶片") == "华为内存最大的芯片"
    assert fold("昇騰的晶片") == "昇腾的芯片"  # 昇 of 昇腾 (Ascend) is kept
    # before a model number, the line's English word, as the labels write it (Huawei Ascend 910C)
    assert fold("昇騰 910C 的製程").split() == ["ascend", "910c", "的制程"]
    assert respell_cjk("mi300x 的显存代宽") == "mi300x 的显存带宽"
    assert respell_cjk("mi355x 的工耗") == "mi355x 的功耗"


@pytest.mark.parametrize(
    ("q", "prop", "gold"),
    [
        ("GB300 NVL72 的顯存是多少", "memoryPerChip", "id:gb300-nvl72 aikg:memoryPerChip ?v"),
        ("MI300X 的显存代宽", "memoryBandwidth", "id:amd-instinct-mi300x aikg:memoryBandwidth ?v"),
    ],
)
def test_a_question_in_traditional_characters_or_with_a_homophone_typo_is_answered(
    asker, epoch_store, q, prop, gold
):
    body = asker.ask(q)
    assert not body["abstained"] and body["understood"]["form"]["property"] == prop
    want = values(epoch_store, f"SELECT ?v WHERE {{ {gold} }}")
    got = {f["number"] for f in body["answer"]["facts"] if "number" in f}
    assert want and want <= got


def test_relative_years_halves_and_quarters_are_date_ranges():
    import datetime

    year = datetime.date.today().year
    assert read_dates("capacity next year")[0] == (f"{year + 1}-01-01", f"{year + 1}-12-31")
    assert read_dates("去年的融资")[0] == (f"{year - 1}-01-01", f"{year - 1}-12-31")
    assert read_dates("rounds closed in the second half of 2024")[0] == ("2024-07-01", "2024-12-31")
    assert read_dates("2024 年第一季度")[0] == ("2024-01-01", "2024-03-31")
    assert read_dates("华为 2019 到 2022 年之间")[0] == ("2019-01-01", "2022-12-31")


def test_staff_is_the_whole_company_and_a_division_count_is_not_an_answer(asker, epoch_store):
    body = asker.ask("How many people work at Anthropic?")
    want = values(
        epoch_store,
        "SELECT ?v WHERE { ?f a aikg:StaffFigure ; aikg:agent id:anthropic ; "
        'aikg:figureKind "Full company" ; aikg:staffCount ?v }',
    )
    assert not body["abstained"] and want and want <= numbers(body)
    # the data gives Google's AI division, not the company: no answer rather than a wrong one
    assert asker.ask("how many employees does Google have")["abstained"]


def test_a_yes_or_no_question_is_not_answered_by_a_list_of_rows(asker):
    # the data does not say who took part in a round: a list of Google's deals is not a "yes"
    for q in ("Did Google invest in Anthropic's Series F?", "谷歌参与了 Anthropic 的 F 轮吗"):
        body = asker.ask(q)
        assert body["abstained"] and "rows" not in body["answer"]
    # a comparison asked as yes or no is answered, with both figures
    body = asker.ask("Is the TDP of the B200 higher than the H100 SXM5's?")
    assert not body["abstained"] and body["understood"]["form"]["op"] == "compare"


def test_per_inside_a_property_word_is_no_breakdown(asker, epoch_store):
    body = asker.ask("Which accelerator has the most memory per chip?")
    assert body["understood"]["form"]["op"] == "top" and body["understood"]["query"] is None
    (most,) = values(
        epoch_store, "SELECT (MAX(?v) AS ?m) WHERE { ?x a aikg:Hardware ; aikg:memoryPerChip ?v }"
    )
    assert float(body["answer"]["rows"][0]["cells"]["value"]["value"]) == most  # three chips share it


def _holdings(store) -> dict[str, dict[str, float]]:
    """Chips per operator and kind in existing clusters rated at least Likely, as the data gives them:
    a cluster's count of one kind is its accelerator group of that kind, or its whole count when it has
    one kind only; a cluster Epoch marks as superseded by, or a possible duplicate of, another cluster of
    the same operator in the same total is left out (computed here in Python from plain triples, not by
    the reader's SPARQL)."""
    rows = store.query(
        PRE + "SELECT ?c ?org ?chip ?n WHERE { ?c a aikg:Deployment ; aikg:operator ?org ; "
        'aikg:operationalStatus "Existing" ; aikg:sourceConfidence ?r ; aikg:accelerator ?chip ; '
        'aikg:acceleratorCount ?n FILTER(?r IN ("Confirmed", "Likely")) }'
    ).rows
    later: dict[str, set[str]] = {}
    for c, other in store.query(
        PRE + "SELECT ?c ?o WHERE { ?c aikg:supersededBy|aikg:possibleDuplicateOf ?o }"
    ).rows:
        later.setdefault(c.value, set()).add(other.value)
    counted = {(c.value, org.value) for c, org, _, _ in rows}
    rows = [r for r in rows if not any((o, r[1].value) in counted for o in later.get(r[0].value, ()))]
    groups = {
        (r[0].value, r[1].value): float(r[2].value)
        for r in store.query(
            PRE + "SELECT ?c ?chip ?n WHERE { ?c aikg:acceleratorGroup ?g . "
            "?g aikg:accelerator ?chip ; aikg:acceleratorCount ?n }"
        ).rows
    }
    kinds: dict[str, set[str]] = {}
    for c, _, chip, _ in rows:
        kinds.setdefault(c.value, set()).add(chip.value)
    out: dict[str, dict[str, float]] = {}
    seen = set()
    for c, org, chip, n in rows:
        if (c.value, chip.value) in seen:
            continue
        seen.add((c.value, chip.value))
        count = groups.get((c.value, chip.value))
        if count is None and len(kinds[c.value]) == 1:
            count = float(n.value)
        if count is not None:
            per = out.setdefault(org.value, {})
            per[chip.value] = per.get(chip.value, 0.0) + count
    return out


@pytest.mark.parametrize("q", ["how many H100 does xAI have", "xAI 有多少张 H100"])
def test_a_chip_and_an_organization_is_the_chips_it_has_not_the_chips_facts(asker, epoch_store, q):
    """The H100 filters xAI's clusters (its variants count: the H100 SXM5 80GB); the answer is how many
    of them xAI has, existing and rated at least Likely, not the facts of the H100."""
    body = asker.ask(q)
    form = body["understood"]["form"]
    assert not body["abstained"] and form["op"] == "sum" and form["organizations"] == ["xai"]
    h100 = {ID + "h100", ID + "nvidia-h100-sxm5-80gb", ID + "nvidia-h100-pcie", ID + "nvidia-h100-nvl"}
    want = sum(n for chip, n in _holdings(epoch_store)[ID + "xai"].items() if chip in h100)
    assert want > 0 and float(body["answer"]["summary"]) == want
    assert "Likely" in body["understood"]["description"]
    # the rows the total adds up are named for what they are (they were "rounds", a funding word)
    assert body["answer"]["columns"] == ["total", "clusters"]


@pytest.mark.parametrize("q", ["which company has the most GPUs?", "哪家公司的 GPU 最多"])
def test_which_company_has_the_most_gpus_ranks_operators_by_their_clusters_chips(asker, epoch_store, q):
    body = asker.ask(q)
    assert not body["abstained"] and body["understood"]["form"]["op"] == "rank"
    totals = {org: sum(per.values()) for org, per in _holdings(epoch_store).items()}
    best = max(totals, key=totals.__getitem__)
    assert first(body) == best
    assert float(body["answer"]["rows"][0]["cells"]["total"]["value"]) >= totals[best]


def test_a_name_of_several_models_answers_for_each_by_name(asker, epoch_store):
    """ "GPT-4" is GPT-4 (Mar 2023) and GPT-4 (Jun 2023): both, named; never one of them silently."""
    body = asker.ask("gpt-4 training compute")
    assert not body["abstained"]
    assert {"gpt-4-mar-2023", "gpt-4-jun-2023"} <= set(body["understood"]["form"]["entities"])
    assert "GPT-4 (Mar 2023)" in body["understood"]["description"]
    runs = {r["about"] for r in body["answer"]["rows"]}
    want = {
        r[0].value
        for r in epoch_store.query(
            PRE + "SELECT ?r WHERE { VALUES ?m { id:gpt-4-mar-2023 id:gpt-4-jun-2023 } "
            "?r aikg:trainedModel ?m ; aikg:trainingCompute ?v }"
        ).rows
    }
    assert len(want) == 2 and want <= runs
    # the qualifier given picks that one
    one = asker.ask("GPT-4 (Mar 2023) training compute")
    assert one["understood"]["entity"] == "gpt-4-mar-2023"


def test_a_comparison_compares_exactly_the_chips_named(asker, epoch_store):
    """ "A100 80GB" is the A100's 80 GB variant, not the A100 and a third chip named "80GB"."""
    body = asker.ask("MI250X 跟 A100 80GB 比，谁的显存带宽高")
    assert body["understood"]["form"]["entities"] == ["amd-radeon-instinct-mi250x", "nvidia-a100-sxm4-80-gb"]
    want = values(
        epoch_store,
        "SELECT ?v WHERE { VALUES ?x { id:amd-radeon-instinct-mi250x id:nvidia-a100-sxm4-80-gb } "
        "?x aikg:memoryBandwidth ?v }",
    )
    assert len(want) == 2 and numbers(body) == want


@pytest.mark.parametrize("q", ["How many clusters use the GB200?", "用 GB200 的集群有几个"])
def test_clusters_using_the_gb200_count_the_chip_the_rack_holds(asker, epoch_store, q):
    """ "GB200" links first to the GB200 NVL72 rack; clusters list the GB200 chip, which the rack holds."""
    (want,) = values(
        epoch_store,
        "SELECT (COUNT(DISTINCT ?c) AS ?n) WHERE { ?c a aikg:Deployment ; aikg:accelerator id:nvidia-gb200 }",
    )
    body = asker.ask(q)
    # every row (41, nearly all planned) beside the one existing cluster the totals count (Colossus Phase 3)
    assert want > 0 and int(want) in every_counts(body) and count_of(body) == 1
    assert "NVIDIA GB200" in body["understood"]["description"]


@pytest.mark.parametrize(
    ("text", "period"),
    [
        ("2024 年以后 AMD 发布了哪些芯片", ("2024-01-01", "9999-12-31")),
        ("2022 年之后的集群", ("2022-01-01", "9999-12-31")),
        ("2023 年以来", ("2023-01-01", "9999-12-31")),
        ("2025年3月之后", ("2025-03-01", "9999-12-31")),
        ("2023 年之前发布的芯片", ("0001-01-01", "2022-12-31")),
        ("2020 年以前", ("0001-01-01", "2019-12-31")),
        ("截至 2025 年 3 月的收入", ("0001-01-01", "2025-03-31")),
        ("chips released before June 2023", ("0001-01-01", "2023-05-31")),
        ("until 2025", ("0001-01-01", "2025-12-31")),
        ("since March 2024", ("2024-03-01", "9999-12-31")),
        ("models released after 2023", ("2024-01-01", "9999-12-31")),
        ("later than March 2024", ("2024-04-01", "9999-12-31")),
        ("models from 2023", ("2023-01-01", "2023-12-31")),
    ],
)
def test_words_around_a_date_open_the_period(text, period):
    assert read_dates(fold(text))[0] == period


def test_a_chip_used_in_the_most_clusters_is_not_a_usage_figure(asker, epoch_store):
    """被用在 is "used in", not 用户 (users) misspelt: a ranking of chips by the clusters that use them."""
    body = asker.ask("哪款芯片被用在最多的集群里")
    assert body["understood"]["form"]["op"] == "rank" and body["understood"]["form"]["class"] == "cluster"
    _, most = tops(epoch_store, clusters_per("aikg:accelerator"))
    assert count_of(body) == most


def test_a_forecast_or_an_opinion_is_not_answered_with_past_figures(asker):
    for q in (
        "OpenAI 下一轮融资会估值多少",
        "What will OpenAI's revenue be in 2030?",
        "Anthropic 的收入预计会达到多少",
        "Is the H100 worth buying?",
        "你觉得英伟达的前景怎么样",
    ):
        body = asker.ask(q)
        assert body["abstained"] and "rows" not in body["answer"] and "facts" not in body["answer"], q
    # what aikg holds of the future is answered: a capacity stated for next year, and who says so
    for q in ("How much capacity will Groq have next year?", "who reported that Groq will have over 200 MW?"):
        assert not asker.ask(q)["abstained"], q


@pytest.mark.parametrize("q", ["How many clusters have been decommissioned?", "已经退役的集群有多少个"])
def test_decommissioned_is_a_status_and_a_shutdown_to_come_is_no_fact(asker, epoch_store, q):
    (want,) = values(
        epoch_store,
        "SELECT (COUNT(DISTINCT ?c) AS ?n) WHERE { ?c a aikg:Deployment ; "
        'aikg:operationalStatus "Decommissioned" }',
    )
    body = asker.ask(q)
    assert want > 0 and float(body["answer"]["summary"]) == want
    # no source plans a shutdown: a count of 0 for next year would be a confident wrong answer
    assert asker.ask("How many clusters will be shut down next year?")["abstained"]
    assert asker.ask("Which clusters will come online in 2027?")["understood"]["form"]["status"] == "Planned"


def test_a_period_a_named_query_cannot_take_is_not_dropped(asker):
    """ "in 2025" with funding-by-company (no date parameter) listed every round since 2021."""
    body = asker.ask("How much did Anthropic raise in 2025?")
    assert body["understood"]["query"] is None and body["understood"]["form"]["dates"] == [
        "2025-01-01",
        "2025-12-31",
    ]
    dates = [r["cells"]["date"]["value"] for r in body["answer"]["rows"]]
    assert dates and all(d.startswith("2025") for d in dates)


def test_what_an_organization_has_includes_its_subsidiaries_and_an_overview_says_which_model(
    asker, epoch_store
):
    """Epoch's clusters are Meta AI's (aikg:parentOrganization Meta); "GPT-4" names two models."""
    h100 = {ID + "h100", ID + "nvidia-h100-sxm5-80gb", ID + "nvidia-h100-pcie", ID + "nvidia-h100-nvl"}
    subs = {
        r[0].value
        for r in epoch_store.query(PRE + "SELECT ?s WHERE { ?s aikg:parentOrganization id:meta }").rows
    }
    held = _holdings(epoch_store)
    want = sum(n for org in subs | {ID + "meta"} for chip, n in held.get(org, {}).items() if chip in h100)
    body = asker.ask("Meta 有多少张 H100")
    assert want > 0 and float(body["answer"]["summary"]) == want
    note = asker.ask("tell me about gpt-4")["answer"]["note"]
    assert "GPT-4 (Mar 2023)" in note and "GPT-4 (Jun 2023)" in note


COUNTED = (
    "FILTER NOT EXISTS { ?x aikg:status aikg:Planned } "
    "OPTIONAL { ?x aikg:datasetConfidence ?l . ?l aikg:confidenceRank ?r } FILTER(!BOUND(?r) || ?r <= 1)"
)


@pytest.mark.parametrize("q", ["How much did Anthropic raise in 2025?", "Anthropic 2025 年融了多少钱"])
def test_how_much_an_organization_raised_in_a_period_is_the_total_of_its_rounds(asker, epoch_store, q):
    body = asker.ask(q)
    (want,) = values(
        epoch_store,
        "SELECT (SUM(?a) AS ?t) WHERE { ?x a aikg:FundingRound ; aikg:investee id:anthropic ; "
        f"aikg:amount ?a ; aikg:date ?d FILTER(YEAR(?d) = 2025) {COUNTED} }}",
    )
    assert body["understood"]["form"]["op"] == "sum"
    assert float(body["answer"]["summary"]) == want == 17.5e9
    # the rounds it adds up are shown beside the total
    assert len(body["answer"]["rows"]) == 3


def test_a_total_raised_leaves_out_planned_rounds_as_funding_by_company_does(asker, epoch_store):
    body = asker.ask("How much has xAI raised in total?")
    (everything,) = values(
        epoch_store,
        "SELECT (SUM(?a) AS ?t) WHERE { ?x a aikg:FundingRound ; aikg:investee id:xai ; aikg:amount ?a }",
    )
    assert float(body["answer"]["summary"]) == 17e9 < everything  # Sep 2025's "late discussions" left out
    assert "rated at least Likely" in body["understood"]["description"]


def test_who_raised_more_gives_each_organization_its_total(asker, epoch_store):
    body = asker.ask("who raised more money, Anthropic or OpenAI?")
    want = values(
        epoch_store,
        "SELECT (SUM(?a) AS ?t) WHERE { VALUES ?o { id:anthropic id:openai } ?x a aikg:FundingRound ; "
        f"aikg:investee ?o ; aikg:amount ?a {COUNTED} }} GROUP BY ?o",
    )
    assert len(want) == 2 and want == numbers(body) & want
    assert body["answer"]["summary"].startswith("OpenAI")
    # "more funding rounds" is still a count of rounds
    rounds = asker.ask("Does Anthropic or Mistral AI have more funding rounds?")
    assert rounds["understood"]["form"]["op"] == "count"


@pytest.mark.parametrize("q", ["how many models has Mistral released", "Mistral 发布了多少个模型"])
def test_a_name_of_a_model_and_of_its_maker_counts_the_makers_models(asker, epoch_store, q):
    (want,) = values(
        epoch_store,
        "SELECT (COUNT(DISTINCT ?x) AS ?n) WHERE { ?x a aikg:AIModel ; aikg:developer id:mistral-ai }",
    )
    body = asker.ask(q)
    assert body["understood"]["form"]["op"] == "count"
    assert body["answer"]["summary"] == str(int(want))


def test_data_centers_compared_by_a_word_of_their_names_on_their_own_figures(asker, epoch_store):
    body = asker.ask("Meta Prometheus vs Fairwater power")
    want = values(
        epoch_store,
        "SELECT ?v WHERE { VALUES ?x { id:meta-prometheus-new-albany-ohio "
        "id:microsoft-fairwater-fayetteville-georgia id:microsoft-fairwater-mount-pleasant-wisconsin } "
        "?x aikg:powerCapacity ?v }",
    )
    assert body["understood"]["form"]["op"] == "compare"
    # both Fairwater data centers, each by its current power (not its planned phases')
    assert numbers(body) == want and len(body["answer"]["rows"]) == 3
    assert body["answer"]["summary"].startswith("Meta Prometheus")
    # a capitalized place a question asks about is no name: "Memphis" is not a data center
    assert asker.ask("how many clusters are in Memphis")["abstained"]


def _iris(body: dict) -> set[str]:
    """Every entity an answer names (cells of its rows, values and nodes of its facts)."""
    out: set[str] = set()
    answer = body["answer"]
    for row in answer.get("rows", []):
        out |= {c["value"] for c in row["cells"].values() if c and c.get("type") == "uri"}
    for fact in answer.get("facts", []):
        out.add(fact["value"])
    return out


@pytest.mark.parametrize(
    ("q", "prop", "site"),
    [
        ("Who is the tenant of Stargate Abilene?", "tenant", "openai-oracle-stargate-abilene-texas"),
        ("Stargate Abilene 的运营方", "operator", "openai-oracle-stargate-abilene-texas"),
        ("who suplies power to Stargate Abilene", "energySupplier", "openai-oracle-stargate-abilene-texas"),
        ("Meta Hyperion 的电力供应商是谁", "energySupplier", "meta-hyperion-holly-ridge-louisiana"),
        ("Who owns Meta Prometheus?", "operator", "meta-prometheus-new-albany-ohio"),
        (
            "Who operates the Project Rainier data center?",
            "operator",
            "anthropic-amazon-project-rainier-new-carlisle-indiana",
        ),
    ],
)
def test_a_sites_operator_tenants_and_power_supplier_are_its_links(asker, epoch_store, q, prop, site):
    # "Stargate Abilene" is the words of one data center's name only; "the Project Rainier data
    # center" is the campus, not the cluster of that name; "owns" is Epoch's Owner, the operator
    gold = {
        r[0].value for r in epoch_store.query(PRE + f"SELECT ?v WHERE {{ id:{site} aikg:{prop} ?v }}").rows
    }
    body = asker.ask(q)
    assert gold and not body["abstained"], body["answer"].get("message")
    assert gold <= _iris(body)


@pytest.mark.parametrize(
    ("q", "gold"),
    [
        # the investment whose investor is NVIDIA and investee SB Energy
        (
            "How much is NVIDIA investing in SB Energy?",
            "SELECT ?v WHERE { ?d aikg:investor id:nvidia ; aikg:investee id:sb-energy ; aikg:amount ?v }",
        ),
        # the MLPerf result of that submitter, round and chip, not the chip's own figures
        (
            "How many GB300 GPUs did CoreWeave use for its MLPerf Training v6.0 run?",
            "SELECT ?v WHERE { ?r aikg:submitter id:coreweave ; aikg:round id:mlperf-training-v6-0 ; "
            "aikg:accelerator id:gb300 ; aikg:acceleratorCount ?v }",
        ),
        (
            "OpenAI 和 SB Energy 的租约期限是几年",
            "SELECT ?v WHERE { ?l aikg:lessee id:openai ; aikg:lessor id:sb-energy ; aikg:termYears ?v }",
        ),
    ],
)
def test_the_figure_of_what_links_the_things_named_is_the_answer(asker, epoch_store, q, gold):
    want = values(epoch_store, gold)
    body = asker.ask(q)
    assert body["understood"]["form"]["op"] == "joint" and len(want) == 1
    assert numbers(body) == want


def test_things_named_that_nothing_links_are_answered_one_by_one(asker):
    body = asker.ask("Which has more memory, H200 or B100?")
    assert body["understood"]["form"]["op"] == "compare"


@pytest.mark.parametrize(
    ("q", "party", "entity"),
    [
        ("TPU v9t 是谁报道的", "reportedBy", "tpu-v9t"),
        ("who reported the TPU v9t rumour", "reportedBy", "tpu-v9t"),
        ("Who relayed the Tinker prices?", "relayedBy", "price-tinker-training"),
        ("Tinker 的价格是谁转述的？", "relayedBy", "price-tinker-training"),
    ],
)
def test_who_reported_or_relayed_a_claim_names_the_party_the_document_and_the_certainty(
    asker, epoch_store, q, party, entity
):
    rows = epoch_store.query(
        PRE + f"SELECT ?p ?c WHERE {{ id:{entity} aikg:{party} ?p ; aikg:certainty ?c }}"
    ).rows
    assert rows
    body = asker.ask(q)
    assert not body["abstained"] and body["understood"]["form"]["op"] == "provenance"
    named = _iris(body)
    assert {
        rows[0][0].value,
        rows[0][1].value,
    } <= named  # SemiAnalysis / Soumith Chintala; rumoured / relayed
    assert any(c.startswith(ID + "frontier-insights") or c.startswith(ID + "infoq") for c in named)


def test_an_epoch_figures_provenance_names_the_dataset_its_rating_and_the_links_it_cites(asker, epoch_store):
    body = asker.ask("What's the source of Anthropic's 2,300 staff figure?")
    assert not body["abstained"]
    cells = [row["cells"] for row in body["answer"]["rows"]]
    assert {c["document"]["value"] for c in cells} == {ID + "epoch-ai-companies-staff-reports"}
    assert {c["confidence"]["value"] for c in cells} == {"Confident"}
    cited = {
        r[0].value
        for r in epoch_store.query(
            PRE + "SELECT ?u WHERE { id:staff-anthropic-december-2025-2300 <https://schema.org/url> ?u }"
        ).rows
    }
    assert cited and cited == {c["cited"]["value"] for c in cells}


@pytest.mark.parametrize("q", ["Anthropic's 2024 R&D compute spend", "Anthropic 2024 年的训练算力支出"])
def test_a_spend_category_keeps_the_figures_of_that_category_alone(asker, q):
    body = asker.ask(q)
    # 1.5 B is Anthropic's 2024 R&D spend; 2.5 B is the total Epoch files under R&D and inference both
    assert numbers(body) == {1.5e9}


def test_how_sure_a_figure_is_is_the_certainty_the_source_gives_that_figure(asker, epoch_store):
    # the source estimates the cost (hours x an assumed price): the figure's certainty, not its run's
    gold = {
        r[0].value
        for r in epoch_store.query(
            PRE + "SELECT ?c WHERE { id:training-run-deepseek-v3 aikg:qualifiedBy ?q . "
            "?q aikg:onProperty aikg:cost ; aikg:certainty ?c }"
        ).rows
    }
    body = asker.ask("How sure is the DeepSeek-V3 training cost of 5.576M?")
    assert gold == {"https://w3id.org/aikg/ontology#Estimated"}
    rows = [r["cells"] for r in body["answer"]["rows"]]
    # the figure asked about first, with its certainty; what another source states of it after it
    assert rows and float(rows[0]["value"]["value"]) == 5576000.0
    assert {c["certainty"]["value"] for c in rows if float(c["value"]["value"]) == 5576000.0} == gold


def test_how_confident_epoch_is_of_a_data_center_is_its_rating_of_each_link(asker, epoch_store):
    gold = {
        r[0].value
        for r in epoch_store.query(
            PRE + "SELECT ?c WHERE { id:meta-hyperion-holly-ridge-louisiana "
            "aikg:linkRating/aikg:sourceConfidence ?c }"
        ).rows
    }
    body = asker.ask("How confident is Epoch about Meta Hyperion?")
    assert gold and not body["abstained"]
    assert {r["cells"]["value"]["value"] for r in body["answer"]["rows"]} == gold
    assert all(r["cells"]["ratedLink"] for r in body["answer"]["rows"])  # which link each rating is of


def test_a_suite_named_finds_the_result_of_its_round_and_a_chip_and_a_benchmark_are_never_compared(
    asker, epoch_store
):
    want = values(
        epoch_store,
        "SELECT ?v WHERE { ?r aikg:submitter id:coreweave ; aikg:round/aikg:suite id:mlperf-training ; "
        "aikg:system id:gb300-nvl72 ; aikg:acceleratorCount ?v }",
    )
    body = asker.ask("CoreWeave 用了多少张 GB300 NVL72 跑 MLPerf")
    assert want == {8192.0} and numbers(body) == want
    # nothing links Groq to MLPerf: no comparison of a company's and a benchmark's figures is shown
    body = asker.ask("How many GPUs did Groq use in MLPerf Training?")
    assert body["abstained"] or body["understood"].get("form", {}).get("op") != "compare"


def test_when_a_site_reaches_full_operation_is_the_date_of_its_phases(asker, epoch_store):
    gold = {
        r[0].value
        for r in epoch_store.query(
            PRE + "SELECT ?d WHERE { ?p aikg:phaseOf id:ports-pike ; "
            "aikg:phaseKind aikg:FullOperation ; aikg:date ?d }"
        ).rows
    }
    body = asker.ask("When will PORTS-Pike reach full operation?")
    assert gold == {"2032"} and not body["abstained"]
    assert gold <= {f["value"] for f in body["answer"]["facts"]}


def test_a_misspelt_word_is_not_a_name_and_a_name_is_not_swallowed_by_a_misspelling(asker, epoch_store):
    # "tennant" is a tenant, not Tencent; "NVIDIA put" is NVIDIA and a word, not the NVIDIA P40
    body = asker.ask("who is the tennant of PORTS-Pike")
    assert _iris(body) >= {ID + "openai"} and ID + "tencent" not in _iris(body)
    want = values(
        epoch_store,
        "SELECT ?v WHERE { ?d aikg:investor id:nvidia ; aikg:investee id:sb-energy ; aikg:amount ?v }",
    )
    assert numbers(asker.ask("How much did NVIDIA put into SB Energy?")) == want == {1.5e9}


@pytest.mark.parametrize(
    ("q", "chip", "prop"),
    [
        ("Nvida H200 memory bandwidth", "nvidia-h200-sxm", "memoryBandwidth"),
        ("Nvdia A100 FP16", "nvidia-a100", "tensorFp16Performance"),
    ],
)
def test_a_misspelt_maker_keeps_the_model_number_as_typed(asker, epoch_store, q, chip, prop):
    # "Nvida H200" as one misspelt name was nearest to "NVIDIA B200" (7,700 GB/s, a confident wrong answer;
    # "nvida h100" gave the A100's TDP): the model's letters and number are never read as another's
    want = values(epoch_store, f"SELECT ?v WHERE {{ id:{chip} aikg:{prop} ?v }}")
    body = asker.ask(q)
    assert not body["abstained"] and body["understood"]["entity"] == chip
    assert want and {f["number"] for f in body["answer"]["facts"]} == want


@pytest.mark.parametrize(
    "q", ["What is the memory bandwidth of the V100S?", "V100S 同 T4 邊張卡嘅記憶體頻寬高啲？"]
)
def test_a_chip_whose_name_ends_in_s_is_that_chip_not_a_plural(asker, epoch_store, q):
    # "V100S" was read as V100s, the V100 counted in the plural: its 897 GB/s answered (sure) for the V100S
    want = values(epoch_store, "SELECT ?v WHERE { id:nvidia-tesla-v100s-pcie-32-gb aikg:memoryBandwidth ?v }")
    body = asker.ask(q)
    assert not body["abstained"] and want
    assert "nvidia-tesla-v100s-pcie-32-gb" in (body["understood"]["form"]["entities"] or [])
    assert ID + "nvidia-v100" not in _iris(body)


def test_a_chip_counted_in_the_plural_with_a_small_s_is_that_chip(asker):
    # "V100s" is the V100 in the plural (ga060: GPT-3's 10,000), the capital S of "V100S" another chip
    body = asker.ask("Which training run used the most V100s?")
    assert not body["abstained"]
    sparql = body["understood"]["sparql"]
    assert f"<{ID}nvidia-v100>" in sparql and "v100s-pcie" not in sparql


@pytest.mark.parametrize("q", ["What is the most powerful chip Huawei makes?", "华为最强的芯片是哪款"])
def test_a_chips_power_is_its_compute(asker, epoch_store, q):
    body = asker.ask(q)
    rows = epoch_store.query(
        PRE + "SELECT ?x WHERE { ?x aikg:manufacturer id:huawei ; aikg:fp16Performance ?v } "
        "ORDER BY DESC(?v) LIMIT 1"
    ).rows
    assert body["understood"]["form"]["property"] == "fp16Performance"
    assert first(body) == rows[0][0].value


def test_a_named_query_that_drops_an_organization_the_question_names_is_not_sure(asker):
    # deals-of-organization takes one organization: OpenAI's deals, none of them with Oracle
    body = asker.ask("What did OpenAI pay Oracle?")
    assert body["abstained"] and "oracle" in body["understood"]["unknown"]
    # the same query answers when its rows show the other names
    assert not asker.ask("deals of OpenAI")["abstained"]


META_CHIPS = (
    "SELECT (SUM(?v) AS ?n) WHERE { SELECT DISTINCT ?x ?v WHERE { ?x a aikg:Deployment ; aikg:operator ?o ;"
    ' aikg:operationalStatus "Existing" ; aikg:acceleratorCount ?v . ?o aikg:parentOrganization* id:meta .'
    ' ?x aikg:sourceConfidence ?c FILTER(?c IN ("Confirmed", "Likely"))'
    " FILTER NOT EXISTS { ?x aikg:supersededBy|aikg:possibleDuplicateOf ?later } } }"
)


@pytest.mark.parametrize(
    "q", ["How many GPUs does Meta have?", "Meta 有多少张 GPU", "Meta 有多少 GPU", "Meta 手里有几块卡"]
)
def test_how_many_chips_an_organization_has_is_the_total_of_its_clusters_in_both_languages(
    asker, epoch_store, q
):
    body = asker.ask(q)
    assert not body["abstained"] and body["understood"]["form"]["op"] == "sum"
    assert values(epoch_store, META_CHIPS) == {196400.0} and 196400.0 in numbers(body)
    # not the chips Meta makes (its MTIA accelerators)
    assert "meta-mtia" not in str(body["answer"])


def test_how_many_gpu_hours_is_not_a_count_of_gpus(asker):
    body = asker.ask("DeepSeek-V3 训练用了多少 GPU 小时")
    assert body["understood"]["form"]["op"] != "sum"
    assert 2788000.0 in {float(f["value"]) for f in body["answer"]["facts"] if str(f["value"])[:1].isdigit()}


@pytest.mark.parametrize(
    ("q", "sparql", "want"),
    [
        # 啥 (什么)
        ("Qwen2.5-72B 啥时候发布的", "SELECT ?v WHERE { id:qwen2-5-72b aikg:releaseDate ?v }", "2024-09-19"),
        # "lower" of a comparison: both figures shown
        ("TPU v6e 和 L40 哪个功耗更低", None, None),
        # 哪家公司做的: the maker of a chip, the developer of a model
        (
            "Gaudi3 是哪家公司做的",
            "SELECT ?v WHERE { id:intel-habana-gaudi3 aikg:manufacturer ?v }",
            ID + "intel",
        ),
        ("Kimi K2 是谁做的", "SELECT ?v WHERE { id:kimi-k2 aikg:developer ?v }", ID + "moonshot"),
        # Chinese names of places and projects the labels write in English
        (
            "孟菲斯的巨像 2 是谁运营的",
            "SELECT ?v WHERE { id:xai-colossus-2-memphis-tennessee aikg:operator ?v }",
            ID + "xai",
        ),
    ],
)
def test_colloquial_chinese_is_read_as_the_words_it_stands_for(asker, epoch_store, q, sparql, want):
    body = asker.ask(q)
    assert not body["abstained"] and body["understood"]["unknown"] == []
    if sparql is None:
        want_tdp = values(
            epoch_store,
            "SELECT ?v WHERE { VALUES ?x { id:google-tpu-v6e-trillium id:nvidia-l40 }"
            " ?x aikg:thermalDesignPower ?v }",
        )
        assert want_tdp == {380.0, 300.0} and want_tdp <= numbers(body)
        return
    gold = {r[0].value for r in epoch_store.query(PRE + sparql).rows}
    assert gold == {want}
    assert want in str(body["answer"])


def test_the_end_of_a_year_closes_the_period_it_asks_for(asker):
    body = asker.ask("截至2024年底 xAI 的收入数据")
    assert not body["abstained"]
    got = numbers(body)
    assert 100000000.0 in got and 178000000.0 not in got  # the January 2025 figure is after it


def test_chinese_place_names_fold_to_the_english_words_of_the_labels():
    assert fold("德州 Abilene 的星際之門").split() == ["texas", "abilene", "的", "stargate"]
    assert fold("亚特兰大").strip() == "atlanta" and fold("Texas") == "texas"


@pytest.mark.parametrize("q", ["Gaudi 3 memory bandwidth", "Gaudi 3 和 MI300A 谁的显存带宽大"])
def test_a_name_written_with_its_number_apart_is_the_thing_that_joins_it(asker, epoch_store, q):
    body = asker.ask(q)
    assert not body["abstained"]
    gaudi3 = values(epoch_store, "SELECT ?v WHERE { id:intel-habana-gaudi3 aikg:memoryBandwidth ?v }")
    assert gaudi3 == {3700.0} and "intel-habana-gaudi3" in str(body["answer"])
    assert "gaudi-hl-205" not in str(body["answer"])  # not the older GAUDI HL-205


# -- figures, provenance and date ranges (issue 44, fifth session) ------------------------------------


@pytest.mark.parametrize(
    "q", ["What was OpenAI's total compute spend in 2025?", "OpenAI 2025 年的算力总支出是多少"]
)
def test_a_total_compute_spend_is_the_figure_epoch_files_under_several_categories(asker, epoch_store, q):
    body = asker.ask(q)
    assert not body["abstained"]
    want = values(
        epoch_store,
        "SELECT ?v WHERE { ?x a aikg:ComputeSpendFigure ; aikg:agent id:openai ; aikg:computeSpend ?v ;"
        " aikg:date ?d ; aikg:spendCategory ?a , ?b FILTER(?a != ?b && YEAR(?d) = 2025) }",
    )
    # the total alone: not the R&D (9 billion) and inference (7 billion) figures beside it
    assert want == {16e9} and numbers(body) == want
    assert all(row["sources"] for row in body["answer"]["rows"])


@pytest.mark.parametrize(
    ("q", "by"),
    [
        ("What is the total H100-equivalents of xAI's existing clusters?", None),
        ("who raised more money, Anthropic or OpenAI?", "org0"),
        ("which operator runs the most clusters", "group"),
    ],
)
def test_every_row_of_a_total_cites_the_sources_of_the_rows_it_adds_up(asker, q, by):
    body = asker.ask(q)
    assert not body["abstained"] and body["answer"]["rows"]
    for row in body["answer"]["rows"]:
        titles = {(s["document"] or {}).get("title", "") for s in row["sources"]}
        assert any(t.startswith("Epoch AI") for t in titles), (row["cells"], titles)


def test_provenance_of_a_figure_two_sources_state_shows_both_values_with_their_sources(asker):
    body = asker.ask("Who says DeepSeek-V3 cost 5.576M to train?")
    assert body["understood"]["form"]["op"] == "provenance"
    by_document = {
        r["cells"]["document"]["value"]: float(r["cells"]["value"]["value"]) for r in body["answer"]["rows"]
    }
    assert by_document == {
        ID + "frontier-insights-coreweave-mlperf-2026-08-18": 5576000.0,
        ID + "epoch-notable-ai-models": 5390000.0,
    }


@pytest.mark.parametrize(
    ("q", "figure", "url"),
    [
        ("Who reported that ChatGPT has 800 million weekly users?", 8e8, "techcrunch.com/2025/10/06/"),
        ("Meta AI 10亿月活出自哪里", 1e9, "zuckerberg-meta-ai-one-billion-monthly-users"),
    ],
)
def test_provenance_of_a_products_usage_figure_cites_the_links_of_that_figure_alone(asker, q, figure, url):
    body = asker.ask(q)
    assert not body["abstained"] and body["understood"]["form"]["op"] == "provenance"
    rows = body["answer"]["rows"]
    assert rows and numbers(body) == {figure}  # the figure named, not the product's other figures
    assert any(url in (r["cells"].get("cited") or {}).get("value", "") for r in rows)


def test_a_name_that_is_also_a_company_asked_for_its_valuation_answers_the_companys(asker):
    body = asker.ask("Mistral 最新估值是多少亿美元")
    assert not body["abstained"]
    assert body["understood"]["form"]["organizations"] == ["mistral-ai"]
    assert float(body["answer"]["rows"][0]["cells"]["value"]["value"]) == 13.7e9  # the latest first


def test_an_organization_with_no_models_of_its_own_lists_its_subsidiaries_and_says_so(asker, epoch_store):
    body = asker.ask("去年 Meta 发布了哪些模型")
    assert not body["abstained"]
    want = {
        r[0].value
        for r in epoch_store.query(
            PRE + "SELECT ?x WHERE { ?x a aikg:AIModel ; aikg:developer/aikg:parentOrganization id:meta ;"
            " aikg:releaseDate ?d FILTER(YEAR(?d) = 2025) }"
        ).rows
    }
    assert want and {r["about"] for r in body["answer"]["rows"]} == want
    assert "含子公司" in body["understood"]["description"]


@pytest.mark.parametrize(
    ("q", "total"),
    [
        ("What did OpenAI raise last year?", 18.3e9),
        ("How much did Anthropic raise between 2023 and 2024?", 11.2e9),
    ],
)
def test_money_raised_in_a_period_is_the_total_of_its_rounds(asker, q, total):
    body = asker.ask(q)
    assert body["understood"]["form"]["op"] == "sum"
    assert total in numbers(body)


def test_a_period_the_class_has_no_date_for_is_not_dropped(asker):
    body = asker.ask("data centers operated by Microsoft that opened in 2025")
    assert body["abstained"] or body["understood"].get("form", {}).get("op") not in ("list", "count")


@pytest.mark.parametrize(
    ("text", "months"),
    [
        ("openai 去年上半年的收入", ("01-01", "06-30")),
        ("funding rounds in the second half of last year", ("07-01", "12-31")),
        ("openai funding rounds last year", ("01-01", "12-31")),
    ],
)
def test_a_relative_year_is_read_in_place_with_the_part_of_it_asked(text, months):
    import datetime

    last = datetime.date.today().year - 1
    period, spans = read_dates(text)
    assert period == (f"{last}-{months[0]}", f"{last}-{months[1]}")
    assert "year" in text[spans[0][0] : spans[0][1]] or "去年" in text[spans[0][0] : spans[0][1]]


@pytest.mark.parametrize(
    ("text", "period"),
    [
        ("models released 2023 to 2025", ("2023-01-01", "2025-12-31")),
        ("openai revenue 2023–2024", ("2023-01-01", "2024-12-31")),
        ("2023到2025的模型", ("2023-01-01", "2025-12-31")),
        ("funding rounds in 2024-05", ("2024-05-01", "2024-05-31")),
        ("clusters before 2024-03", ("0001-01-01", "2024-02-29")),
        ("events between 2024-05-01 and 2024-12-31", ("2024-05-01", "2024-12-31")),
        ("rounds from 2024-05 to 2024-08", ("2024-05-01", "2024-08-31")),
    ],
)
def test_a_span_of_years_or_an_iso_month_is_read_whole(text, period):
    # was the first year alone (2023), and the whole of 2024 for "2024-05": an answer for another period
    assert read_dates(text)[0] == period


@pytest.mark.parametrize("q", ["Who raised more, xAI or Mistral?", "xAI 和 Mistral 谁融资更多"])
def test_a_name_of_a_model_and_of_its_maker_asked_for_company_figures_is_the_maker(asker, epoch_store, q):
    # "Mistral" is a word of the model Mistral 7B and of Mistral AI: money raised is the company's
    body = asker.ask(q)
    assert not body["abstained"]
    raised = values(
        epoch_store,
        "SELECT (SUM(?a) AS ?v) WHERE { ?x a aikg:FundingRound ; aikg:investee id:mistral-ai ; aikg:amount ?a"
        " FILTER NOT EXISTS { ?x aikg:status aikg:Planned } OPTIONAL { ?x aikg:datasetConfidence ?l ."
        " ?l aikg:confidenceRank ?rk } FILTER(!BOUND(?rk) || ?rk <= 1)"
        # its Series B, listed twice in Epoch's CSV, counted once
        " FILTER NOT EXISTS { ?x aikg:possibleDuplicateOf ?d . ?d a aikg:FundingRound } }",
    )
    assert len(raised) == 1 and raised <= numbers(body)
    assert "mistral-7b" not in str(body["answer"])


def test_chinese_numerals_read_as_digits_and_the_year_before_last_as_its_year():
    import datetime

    assert fold("H100等效超过十万的集群") == "h100等效超过10万的集群"
    assert fold("一百二十瓦") == "120瓦" and fold("前五十") == "前50"
    # words that hold a numeral character are words
    for word in ("百度", "三星", "一共", "千瓦", "零一万物"):
        assert fold(word) == word
    # a model's Chinese name is read as the name its label writes (no 1000 in it)
    assert fold("通义千问").split() == ["tongyi", "qianwen"]
    year = datetime.date.today().year
    assert read_dates(fold("去年上半年的融资"))[0] == (f"{year - 1}-01-01", f"{year - 1}-06-30")
    assert read_dates(fold("前年投运的集群"))[0] == (f"{year - 2}-01-01", f"{year - 2}-12-31")


def test_gigawatts_in_chinese_are_a_power_threshold(asker):
    body = asker.ask("功率超过1吉瓦的集群")
    assert not body["abstained"] and "> 1000.0)" in body["understood"]["sparql"]


def test_a_capitalized_name_beside_a_chinese_place_name_still_links(asker, epoch_store):
    # 德州 and 星际之门 fold to "texas" and "stargate" (the text changes length): "Abilene", written
    # capitalized, is still a name
    body = asker.ask("德州 Abilene 那个星际之门数据中心谁供电")
    assert not body["abstained"] and body["understood"]["unknown"] == []
    gold = epoch_store.query(
        PRE + "SELECT ?v WHERE { id:openai-oracle-stargate-abilene-texas aikg:energySupplier ?v }"
    ).rows
    assert [r[0].value for r in gold] == [ID + "american-electric-power"]
    assert "american-electric-power" in str(body["answer"])


def test_provenance_of_a_benchmark_rounds_figure_reaches_the_result_of_that_round(asker):
    # a result is linked to its round (aikg:round): "MLPerf v4.0 … 11616 张 GPU" is NVIDIA's v4.0 result
    body = asker.ask("NVIDIA MLPerf v4.0 用 11616 张 GPU 的说法是谁说的")
    assert not body["abstained"] and body["understood"]["form"]["op"] == "provenance"
    rows = body["answer"]["rows"]
    assert rows and all(float(r["cells"]["value"]["value"]) == 11616.0 for r in rows)
    documents = {r["cells"]["document"]["value"] for r in rows}
    assert ID + "frontier-insights-coreweave-mlperf-2026-08-18" in documents


@pytest.mark.parametrize(
    ("q", "orgs", "prop"),
    [
        ("Who has more GPUs, Meta or Microsoft?", "id:meta id:microsoft", "acceleratorCount"),
        ("微软和亚马逊哪家算力更大", "id:microsoft id:amazon", "h100Equivalents"),
    ],
)
def test_organizations_compared_on_gpus_or_compute_add_up_their_clusters(asker, epoch_store, q, orgs, prop):
    # not the chips they make (Maia, MTIA): each one's clusters' total, as the totals count them
    body = asker.ask(q)
    form = body["understood"]["form"]
    assert (form["op"], form["class"], form["property"]) == ("sum", "cluster", prop)
    want = values(epoch_store, org_totals(orgs, prop))
    assert len(want) == 2 and want <= numbers(body)
    assert all(r["about"].rsplit("/", 1)[-1] in orgs for r in body["answer"]["rows"])


def test_countries_are_ranked_and_compared_on_their_clusters(asker, epoch_store):
    top = asker.ask("Which country has the most AI compute?")
    where = counted_clusters("aikg:locationName ?k")
    gold = (
        f"SELECT ?k (SUM(?v) AS ?t) WHERE {{ SELECT DISTINCT ?k ?x ?v WHERE {{ {where} "
        "?x aikg:h100Equivalents ?v "
        'FILTER(?k IN ("China", "United States of America", "Japan")) } } GROUP BY ?k ORDER BY DESC(?t)'
    )
    (k, t) = epoch_store.query(PRE + gold).rows[0]
    row = top["answer"]["rows"][0]["cells"]
    assert row["group"]["value"] == k.value
    assert float(row["total"]["value"]) == pytest.approx(float(t.value))
    both = asker.ask("中国和美国哪个集群更多")
    counts = {
        r["cells"]["country"]["value"]: int(r["cells"]["count"]["value"]) for r in both["answer"]["rows"]
    }
    for country in ("China", "United States of America"):
        (want,) = values(
            epoch_store, f'SELECT (COUNT(DISTINCT ?x) AS ?n) WHERE {{ {where} FILTER(?k = "{country}") }}'
        )
        assert counts[country] == int(want)


def test_a_count_of_rounds_or_clusters_is_of_what_the_totals_add(asker, epoch_store):
    rounds = asker.ask("How many funding rounds has xAI had?")
    happened = "SELECT (COUNT(DISTINCT ?x) AS ?n) WHERE { ?x a aikg:FundingRound ; aikg:investee id:xai %s }"
    (want,) = values(
        epoch_store,
        happened
        % "FILTER NOT EXISTS { ?x aikg:status aikg:Planned } OPTIONAL { ?x aikg:datasetConfidence ?l . "
        "?l aikg:confidenceRank ?r } FILTER(!BOUND(?r) || ?r <= 1)",
    )
    (every,) = values(epoch_store, happened % "")
    assert count_of(rounds) == int(want) < int(every) and every_counts(rounds) == {int(every)}
    assert "rounds that happened" in rounds["understood"]["description"]
    texas = asker.ask("How many clusters are in Texas?")
    scope = 'aikg:locationName ?l{0} FILTER(CONTAINS(?l{0}, "Texas") || REGEX(?l{0}, ", TX( |$)"))'
    (want,) = values(epoch_store, f"SELECT (COUNT(DISTINCT ?x) AS ?n) WHERE {{ {counted_clusters(scope)} }}")
    assert count_of(texas) == int(want) > 0
    assert "superseded" in texas["understood"]["description"]
    # a data center's address writes the state as a postal code ("…, Abilene, TX 79601")
    sites = asker.ask("list data centers in Texas")
    labels = {r["cells"]["x"]["label"] for r in sites["answer"]["rows"]}
    assert len(labels) >= 2 and all("Texas" in s for s in labels), labels


def test_a_choice_named_before_its_comparative_is_compared(asker, epoch_store):
    body = asker.ask("OpenAI or Anthropic, who raised more in 2025?")
    form = body["understood"]["form"]
    assert (form["op"], form["class"]) == ("sum", "funding")
    want = values(
        epoch_store,
        "SELECT ?t WHERE { { SELECT ?o (SUM(?v) AS ?t) WHERE { SELECT DISTINCT ?o ?x ?v WHERE { "
        "VALUES ?o { id:openai id:anthropic } ?x a aikg:FundingRound ; aikg:investee ?o ; aikg:amount ?v ; "
        'aikg:date ?d FILTER(STRSTARTS(STR(?d), "2025")) FILTER NOT EXISTS { ?x aikg:status aikg:Planned } '
        "OPTIONAL { ?x aikg:datasetConfidence ?l . ?l aikg:confidenceRank ?r } FILTER(!BOUND(?r) || ?r <= 1) "
        "} } GROUP BY ?o } }",
    )
    assert len(want) == 2 and want <= numbers(body)


@pytest.mark.parametrize(
    "q", ["新加坡在运营的最大集群", "日本現役最大的叢集", "largest operating cluster in Japan"]
)
def test_a_chinese_status_word_filters_and_is_not_read_as_the_operator(asker, epoch_store, q):
    body = asker.ask(q)
    form = body["understood"]["form"]
    assert not body["abstained"] and (form["op"], form["status"]) == ("top", "Existing")
    assert form["property"] == "h100Equivalents"
    country = "Singapore" if "新加坡" in q else "Japan"
    gold = (
        "SELECT ?x WHERE { ?x a aikg:Deployment ; aikg:h100Equivalents ?v ; aikg:operationalStatus "
        f'"Existing" ; aikg:locationName "{country}" ; aikg:sourceConfidence ?c '
        'FILTER(?c IN ("Confirmed", "Likely")) } ORDER BY DESC(?v)'
    )
    assert first(body) == group_top(epoch_store, gold)


@pytest.mark.parametrize(
    ("q", "order"), [("英伟达最早的 GPU 是哪款", "ASC"), ("NVIDIA's earliest GPU", "ASC")]
)
def test_the_earliest_of_a_maker_is_ranked_by_date_oldest_first(asker, epoch_store, q, order):
    body = asker.ask(q)
    assert not body["abstained"] and body["understood"]["form"]["property"] == "availableFrom"
    gold = (
        "SELECT ?x WHERE { ?x a aikg:Hardware ; aikg:manufacturer id:nvidia ; aikg:availableFrom ?v } "
        f"ORDER BY {order}(?v)"
    )
    assert first(body) == group_top(epoch_store, gold)


def test_two_companies_compared_on_a_valuation_show_their_valuations_not_a_count_of_rounds(
    asker, epoch_store
):
    body = asker.ask("Anthropic 和 Mistral 最近一次估值谁高")
    assert not body["abstained"] and body["understood"]["form"]["op"] == "series"
    latest = values(
        epoch_store,
        "SELECT ?v WHERE { VALUES ?o { id:anthropic id:mistral-ai } ?x a aikg:FundingRound ; "
        "aikg:investee ?o ; aikg:postMoneyValuation ?v ; aikg:date ?d FILTER NOT EXISTS { "
        "?y a aikg:FundingRound ; aikg:investee ?o ; aikg:postMoneyValuation ?w ; aikg:date ?d2 "
        "FILTER(?d2 > ?d) } }",
    )
    assert len(latest) == 2 and latest <= numbers(body)


@pytest.mark.parametrize(
    ("q", "prop"),
    [
        ("昇腾910B 和寒武纪 MLU370-X8 谁更费电", "thermalDesignPower"),
        ("ChatGPT 每天有多少条消息", "dailyMessages"),
        ("how many messages does ChatGPT get per day", "dailyMessages"),
        ("OpenAI 2024年研发算力花了多少钱", "computeSpend"),
    ],
)
def test_chinese_analyst_words_name_their_property(asker, q, prop):
    body = asker.ask(q)
    assert not body["abstained"] and body["understood"]["form"]["property"] == prop


# -- confident-wrong kinds of the sixth session: follow-ups, spending, units, families, dates ------------


def test_a_follow_up_with_a_typo_or_a_new_threshold_goes_on_from_the_question_before(asker, epoch_store):
    body = asker.ask("wat about the MI355X?", after="What's the TDP of the MI300X?")
    assert not body["abstained"]
    assert {f["value"] for f in body["answer"]["facts"]} == {
        str(int(v))
        for v in values(epoch_store, "SELECT ?v WHERE { id:amd-instinct-mi355x aikg:thermalDesignPower ?v }")
    }
    body = asker.ask("only the ones above 4e26 flops?", after="models trained with more than 1e26 FLOP")
    gold = {
        r[0].value
        for r in epoch_store.query(
            PRE + "SELECT ?r WHERE { ?r a aikg:TrainingRun ; aikg:trainingCompute ?c FILTER(?c > 4e26) }"
        ).rows
    }
    assert not body["abstained"] and gold and {r["about"] for r in body["answer"]["rows"]} == gold
    body = asker.ask("wht about japan", after="largest existing cluster in France")
    assert body["understood"]["form"]["country"] == "Japan"


def test_countries_ranked_by_data_centers_abstain_the_data_gives_an_address(asker):
    for q in ("Which country has the most data centers?", "哪个国家的数据中心最多"):
        body = asker.ask(q)
        assert body["abstained"] and "address" in body["answer"]["message"], q


def test_wan_kilowatts_are_a_sites_power_not_a_chips_tdp(asker, epoch_store):
    body = asker.ask("装机超过 50 万千瓦的数据中心有哪些")
    gold = {
        r[0].value
        for r in epoch_store.query(
            PRE + "SELECT ?x WHERE { ?x a aikg:DataCenter ; aikg:powerCapacity ?p FILTER(?p > 500) }"
        ).rows
    }
    assert not body["abstained"] and gold and {r["about"] for r in body["answer"]["rows"]} == gold


@pytest.mark.parametrize(
    "q", ["OpenAI 推理花了多少钱", "how much did OpenAI spend on inference", "OpenAI inference cost"]
)
def test_what_an_organization_spends_is_its_compute_spending_of_the_category(asker, epoch_store, q):
    """Not the cost of a training run of one of its models (OpenAI Five's), nor its funding."""
    body = asker.ask(q)
    gold = values(
        epoch_store,
        "SELECT ?v WHERE { ?x a aikg:ComputeSpendFigure ; aikg:agent id:openai ; aikg:computeSpend ?v ; "
        'aikg:spendCategory "Inference cloud compute" '
        'FILTER NOT EXISTS { ?x aikg:spendCategory ?o FILTER(?o != "Inference cloud compute") } }',
    )
    assert not body["abstained"] and gold and numbers(body) >= gold
    assert numbers(body) - gold <= set(), q  # no other category's figure, no run's cost


def test_a_family_name_answers_for_each_member_by_name(asker, epoch_store):
    """ "Llama 3" is Llama 3-8B and Llama 3-70B (not Llama 3.1), never one of them silently."""
    gold = values(
        epoch_store,
        "SELECT ?v WHERE { VALUES ?m { id:llama-3-8b id:llama-3-70b } ?m aikg:totalParameters ?v }",
    )
    for q in ("how many parameters does Llama 3 have", "Llama 3 有多少参数"):
        body = asker.ask(q)
        assert not body["abstained"] and numbers(body) == gold, q


def test_a_date_given_to_the_year_is_inside_a_range_from_that_year(asker, epoch_store):
    body = asker.ask("which NVIDIA accelerators were released later than 2023")
    gold = {
        r[0].value
        for r in epoch_store.query(
            PRE
            + "SELECT ?x WHERE { ?x a aikg:Hardware ; aikg:manufacturer id:nvidia ; aikg:availableFrom ?d "
            'FILTER(STR(?d) >= "2024") }'
        ).rows
    }
    dated = epoch_store.query(
        PRE + "SELECT ?d WHERE { ?x a aikg:Hardware ; aikg:manufacturer id:nvidia ; aikg:availableFrom ?d "
        'FILTER(STR(?d) >= "2024") }'
    ).rows
    # a chip dated to its year alone, which a string comparison with 2024-01-01 left out
    assert any(len(r[0].value) == 4 for r in dated)
    assert not body["abstained"] and {r["about"] for r in body["answer"]["rows"]} == gold


def test_a_compute_cluster_in_chinese_is_a_cluster_running_now(asker, epoch_store):
    body = asker.ask("中国现在最大的在役算力集群")
    form = body["understood"]["form"]
    assert not body["abstained"] and form["class"] == "cluster" and form["status"] == "Existing"


def test_a_list_over_a_period_runs_in_the_order_things_happened(asker):
    """ "events from 2019 until 2024": the first of them first, not the first 200 by name."""
    body = asker.ask("events from 2019 until 2024")
    days = [r["cells"]["date"]["value"] for r in body["answer"]["rows"]]
    assert not body["abstained"] and days and days == sorted(days) and days[0].startswith("2019")


def test_the_costliest_training_is_ranked_by_cost(asker, epoch_store):
    body = asker.ask("成本最高的训练")
    form = body["understood"]["form"]
    assert not body["abstained"] and (form["op"], form["class"], form["property"]) == ("top", "run", "cost")
    gold = (
        "SELECT ?x WHERE { ?x a aikg:TrainingRun ; aikg:cost ?c ; aikg:sourceConfidence ?k "
        'FILTER(?k IN ("Confident", "Likely")) } ORDER BY DESC(?c)'
    )
    assert first(body) == group_top(epoch_store, gold)


def test_inference_is_no_misspelt_release_and_where_the_largest_is_no_ranking_of_countries(asker):
    body = asker.ask("OpenAI 2025 年推理花了多少")
    form = body["understood"]["form"]
    assert not body["abstained"] and (form["class"], form["property"]) == ("spend", "computeSpend")
    form = asker.ask("最大的集群在哪个国家")["understood"].get("form") or {}
    assert form.get("op") != "rank"  # not the countries with the most clusters
    # a figure of the first of a ranking is no count of the organization's runs
    body = asker.ask("Meta 训练算力最大的模型用了多少张卡")
    assert body["abstained"] and "rows" not in body["answer"]


@pytest.mark.parametrize(
    ("q", "maker"), [("昆仑芯收录了几款芯片", "kunlunxin-baidu"), ("沐曦有几款芯片", "metax")]
)
def test_a_chinese_chip_maker_named_in_chinese_is_counted(asker, epoch_store, q, maker):
    body = asker.ask(q)
    assert not body["abstained"] and body["understood"]["form"]["organizations"] == [maker]
    gold = f"SELECT (COUNT(DISTINCT ?x) AS ?n) WHERE {{ ?x a aikg:Hardware ; aikg:manufacturer id:{maker} }}"
    (want,) = values(epoch_store, gold)
    assert count_of(body) == int(want) > 0


@pytest.mark.parametrize(
    ("q", "lower"),
    [("深算一号和昇腾910B 哪个功耗低", True), ("which draws less power, H100 SXM or B200", True)],
)
def test_a_comparison_asked_by_its_lower_side_names_the_lower(asker, q, lower):
    body = asker.ask(q)
    rows = body["answer"]["rows"]
    by_value = sorted(rows, key=lambda r: float(r["cells"]["value"]["value"]))
    want = by_value[0] if lower else by_value[-1]
    assert body["answer"]["summary"].startswith(want["cells"]["entity"]["label"])


@pytest.mark.parametrize(
    ("q", "key", "want"),
    [
        ("壁仞 BR100 跟昇腾910C 比，哪个更吃电", "property", "thermalDesignPower"),
        ("阿联酋正在跑的集群有几个", "status", "Existing"),
        ("沙特那边已投运的最大集群", "status", "Existing"),
        ("Anthropic 历史上融资加一块儿有多少", "op", "sum"),
        ("AMD 最老的加速器是哪款", "property", "availableFrom"),
    ],
)
def test_colloquial_chinese_words_are_read(asker, q, key, want):
    body = asker.ask(q)
    assert not body["abstained"] and body["understood"]["form"][key] == want


@pytest.mark.parametrize(
    "q", ["Mistral 最近一轮融了多少钱", "How much did Mistral raise in its latest round?"]
)
def test_the_latest_round_is_that_round_not_the_total_of_all(asker, epoch_store, q):
    body = asker.ask(q)
    assert not body["abstained"] and body["understood"]["form"]["op"] == "series"
    gold = (
        "SELECT ?v WHERE { ?x a aikg:FundingRound ; aikg:investee id:mistral-ai ; aikg:amount ?v ; "
        "aikg:date ?d } ORDER BY DESC(?d) LIMIT 1"
    )
    (want,) = values(epoch_store, gold)
    assert float(body["answer"]["rows"][0]["cells"]["value"]["value"]) == want
    assert not body["answer"].get("summary")


def test_who_has_the_most_chips_ranks_operators_and_a_single_round_is_no_total(asker):
    body = asker.ask("who has the most H100s")
    form = body["understood"]["form"]
    assert not body["abstained"] and (form["op"], form["class"]) == ("rank", "cluster")
    assert body["answer"]["about"] == "group"
    body = asker.ask("Which company has raised the most money in a single round?")
    form = body["understood"]["form"]
    assert not body["abstained"] and (form["op"], form["class"]) == ("top", "funding")


def _rounds_counted(store, org: str) -> dict[str, float]:
    """An organization's rounds a total counts, computed in Python from plain triples (not the reader's
    SPARQL): rounds that happened, rated at least Likely, without a round the CSV lists twice (linked
    aikg:possibleDuplicateOf another counted round)."""
    rows = store.query(
        PRE + f"SELECT ?f ?a ?planned ?rank WHERE {{ ?f a aikg:FundingRound ; aikg:investee id:{org} ; "
        "aikg:amount ?a . OPTIONAL { ?f aikg:status ?planned FILTER(?planned = aikg:Planned) } "
        "OPTIONAL { ?f aikg:datasetConfidence ?l . ?l aikg:confidenceRank ?rank } }"
    ).rows
    happened = {
        f.value: float(a.value)
        for f, a, planned, rank in rows
        if planned is None and (rank is None or int(rank.value) <= 1)
    }
    twice = {
        f.value
        for f, other in store.query(
            PRE + "SELECT ?f ?o WHERE { ?f a aikg:FundingRound ; aikg:possibleDuplicateOf ?o }"
        ).rows
        if other.value in happened
    }
    return {f: a for f, a in happened.items() if f not in twice}


@pytest.mark.parametrize(
    ("q", "kind"),
    [
        ("How much money has Mistral AI raised in total?", "sum"),
        ("Mistral AI 总共融资多少", "sum"),
        ("How many funding rounds has Mistral AI raised?", "count"),
        ("Mistral AI 融了几轮资", "count"),
    ],
)
def test_a_round_listed_twice_is_counted_once_in_totals_and_counts(asker, epoch_store, q, kind):
    """Epoch's funding CSV lists Mistral AI's Series B twice (rows 141 and 146: both 500 M equity +
    140 M debt, June 2024); the import links one row as a possible duplicate of the other, and a total
    or count of rounds counts it once (as funding-by-company does) and says so."""
    counted = _rounds_counted(epoch_store, "mistral-ai")
    assert len(counted) == 5  # six rows that happened, one of them the same round again
    body = asker.ask(q)
    assert not body["abstained"]
    want = sum(counted.values()) if kind == "sum" else float(len(counted))
    summary = body["answer"]["summary"]
    assert f"{want:.0f}" in summary.replace(",", "")
    assert any(w in body["understood"]["description"] for w in ("listed twice", "重复列出"))


@pytest.mark.parametrize(
    ("q", "found"),
    [
        ("which open-weights models are largest", [("openness", "open-weights")]),
        ("how many inference-only chips", [("use", "inference-only")]),
        ("谷歌已退役的推理芯片", [("status", "已退役"), ("use", "推理")]),
        ("when does the cluster come online", []),  # a word of time, not a status
        ("when was the H100 announced", []),  # announced: a date asked, not a status
        ("the largest cluster today", []),
    ],
)
def test_qualifiers_are_the_restrictions_the_question_says(q, found):
    from aikg.ask.qualifiers import qualifiers

    assert qualifiers(fold(q)) == found


def test_operators_are_the_composers_unapplied_words_as_written():
    from aikg.ask.coverage import operators

    assert operators(fold("which operators use only NVIDIA hardware, excluding OpenAI")) == [
        "only",
        "excluding",
    ]
    assert operators(fold("how sure is the news about TPU v9t?")) == []  # news is no "new"
    assert operators(fold("which facts are second-hand or rumoured?")) == []  # no ordinal
    assert operators(fold("average TDP of the averages")) == ["average", "averages"]


# -- follow-ups and provenance of the seventh session (issue 44, fixer C) --------------------------------


def _round(store, name: str, prop: str) -> set[float]:
    return values(store, f'SELECT ?v WHERE {{ ?r aikg:roundName "{name}" ; aikg:{prop} ?v }}')


@pytest.mark.parametrize(
    ("q", "after", "name", "prop"),
    [
        (
            "what about the series C?",
            "How much did Anthropic raise in its Series B?",
            "May 2023 Series C",
            "amount",
        ),
        ("那 E 轮呢？", "Anthropic D 轮的估值是多少？", "Mar 2025 61.5B Series E", "postMoneyValuation"),
        ("C輪估值呢？", "xAI 的 B 轮融了多少钱？", "Dec 2024 Series C", "postMoneyValuation"),
        ("那A輪融了多少呢", "Anthropic 的 B 轮估值是多少", "May 2021 Series A", "amount"),
    ],
)
def test_a_follow_up_naming_a_round_asks_of_that_round_not_the_one_before(
    asker, epoch_store, q, after, name, prop
):
    body = asker.ask(q, after=after)
    gold = _round(epoch_store, name, prop)
    assert not body["abstained"] and gold and gold <= numbers(body), (q, numbers(body))
    if prop == "postMoneyValuation":
        assert body["understood"]["form"]["op"] != "sum"  # valuations are listed, never added


def _spend(store, org: str, category: str, year: int) -> set[float]:
    return values(
        store,
        f"SELECT ?v WHERE {{ ?f aikg:agent id:{org} ; aikg:computeSpend ?v ; aikg:date ?d ; "
        f'aikg:spendCategory "{category}" . FILTER NOT EXISTS {{ ?f aikg:spendCategory ?other '
        f'FILTER(?other != "{category}") }} FILTER(YEAR(?d) = {year}) }}',
    )


def test_a_follow_up_of_compute_spending_reads_its_words_as_the_category(asker, epoch_store):
    # "R&D" is also the company Panasonic R&D, "研发" the developer: after spending, they are categories
    body = asker.ask(
        "what about R&D in 2024?", after="How much did Anthropic spend on inference compute in 2025?"
    )
    assert numbers(body) == _spend(epoch_store, "anthropic", "R&D cloud compute", 2024)
    body = asker.ask("那 2024 年的研发呢？", after="Anthropic 2025 年推理算力支出多少？")
    assert numbers(body) == _spend(epoch_store, "anthropic", "R&D cloud compute", 2024)
    body = asker.ask("那推理呢？", after="OpenAI 2025 年研发算力花了多少钱？")
    assert numbers(body) == _spend(epoch_store, "openai", "Inference cloud compute", 2025)
    # standing alone, "spend on inference compute" is money, not training compute
    body = asker.ask("How much did OpenAI spend on inference compute in 2024?")
    assert body["understood"]["form"]["property"] == "computeSpend"
    assert numbers(body) == _spend(epoch_store, "openai", "Inference cloud compute", 2024)


def test_one_chip_after_a_comparison_is_that_chips_figure(asker, epoch_store):
    body = asker.ask(
        "and the GB200's?", after="who draws more power per card, the TPU v7 Ironwood or the B200?"
    )
    gold = values(epoch_store, "SELECT ?v WHERE { id:nvidia-gb200 aikg:thermalDesignPower ?v }")
    assert not body["abstained"] and {float(f["value"]) for f in body["answer"]["facts"]} == gold


def test_which_one_after_a_ranking_of_data_centers_ranks_data_centers(asker, epoch_store):
    gold = first_of(
        epoch_store,
        "SELECT ?x WHERE { GRAPH <https://w3id.org/aikg/graph/epoch/data-centers> "
        "{ ?x a aikg:DataCenter ; aikg:powerCapacity ?v } } ORDER BY DESC(?v) LIMIT 1",
    )
    for q, after in (
        ("and the one with the most power?", "which data centers have the most H100-equivalents?"),
        ("那功率最大的是哪个？", "哪个数据中心的造价最高？"),
    ):
        body = asker.ask(q, after=after)
        assert body["understood"]["form"]["class"] == "datacenter" and first(body) == gold, q
    # a class named is kept: clusters after data centers are clusters
    body = asker.ask(
        "and the cluster with the most power?", after="which data centers have the most H100-equivalents?"
    )
    assert body["understood"]["form"]["class"] == "cluster"


def first_of(store, sparql: str) -> str:
    return store.query(PRE + sparql).rows[0][0].value


def _ratings(body: dict) -> set[str]:
    return {
        (row["cells"].get("confidence") or {}).get("value", "").casefold()
        for row in body["answer"].get("rows", [])
    }


def test_epochs_rating_of_an_organizations_cluster_named_by_its_class(asker, epoch_store):
    for q, org in (
        ("Reliance 那个超算集群，Epoch 给的可信度是啥？", "reliance-industries"),
        ("How reliable is the data on Graphcore's GPU cluster?", "graphcore"),
    ):
        body = asker.ask(q)
        gold = {
            r[0].value
            for r in epoch_store.query(
                PRE + f"SELECT ?c WHERE {{ ?c a aikg:Deployment ; aikg:operator id:{org} }}"
            ).rows
        }
        assert (
            not body["abstained"] and {r["cells"]["entity"]["value"] for r in body["answer"]["rows"]} == gold
        ), q
        assert _ratings(body) - {""}, q


def test_epochs_rating_of_a_data_centers_link_is_that_links(asker):
    body = asker.ask("Crusoe Goodnight 的租户是谷歌，这条 Epoch 评级是什么？")
    rows = body["answer"]["rows"]
    assert not body["abstained"] and rows
    assert {(r["cells"]["ratedLink"]["label"], r["cells"]["ratedValue"]["id"]) for r in rows} == {
        ("tenant", "google")
    }
    assert _ratings(body) == {"speculative"}
    # a link the data center does not have is not answered by its other links
    assert asker.ask("Crusoe Goodnight 的租户是微软，这条 Epoch 评级是什么？")["abstained"]


def test_is_real_asks_epochs_rating_and_person_sizes_a_team(asker, epoch_store):
    body = asker.ask("How sure is Epoch that Stargate UAE Phase 2 is real?")
    assert body["understood"]["form"]["entities"] == ["cluster-stargate-uae-phase-2"]
    assert _ratings(body) == {"likely"}
    body = asker.ask("What's the source link for Mistral's 350-person headcount?")
    assert not body["abstained"] and not body["understood"]["unknown"]
    cited = {(r["cells"].get("cited") or {}).get("value") for r in body["answer"]["rows"]}
    gold = {
        r[0].value
        for r in epoch_store.query(
            PRE + "SELECT ?u WHERE { ?f aikg:agent id:mistral-ai ; aikg:staffCount 350 ; "
            "<https://schema.org/url> ?u }"
        ).rows
    }
    assert gold and gold <= cited


@pytest.mark.parametrize(
    "q",
    [
        "Groq 机房从 54MW 扩到 200MW，这是哪篇文章说的？",
        "PORTS-Pike 首期 800 兆瓦之后还要扩建，这个 800 兆瓦是哪篇文章写的？",
    ],
)
def test_a_capacity_named_by_how_it_grows_is_that_figures_source(asker, q):
    # the organization beside 机房 has no data center of its own: its capacity figures are what is asked
    body = asker.ask(q)
    assert not body["abstained"] and body["understood"]["sure"], body["answer"].get("message")
    documents = {(r["cells"].get("document") or {}).get("id") for r in body["answer"]["rows"]}
    assert "frontier-insights-coreweave-mlperf-2026-08-18" in documents


# -- seventh session, fixer B: kinds of the moved part-g items (b001-b030 measure them) ---------------


def test_two_figures_of_one_round_are_both_answered(asker, epoch_store):
    """ "F 轮融了多少钱，估值多少": the round's amount and its valuation, not the amount alone (a total)."""
    gold = values(
        epoch_store,
        "SELECT ?v WHERE { ?r aikg:investee id:anthropic ; aikg:roundName ?n "
        "FILTER(CONTAINS(?n, 'Series F')) { ?r aikg:amount ?v } UNION { ?r aikg:postMoneyValuation ?v } }",
    )
    assert len(gold) == 2
    for q in (
        "Anthropic F 轮融了多少钱，估值多少",
        "Anthropic Series F: amount raised and post-money valuation?",
    ):
        a = asker.ask(q)
        assert not a["abstained"], q
        assert gold <= numbers(a), q


def test_products_compared_on_their_newest_figure(asker, epoch_store):
    """Two products of the usage figures named ("Meta AI 助手" is the Meta AI assistant): each one's
    newest monthly figure, not the series of one of them filtered by the other's maker."""
    gold = values(
        epoch_store,
        'SELECT ?v WHERE { VALUES ?p { "Gemini" "Meta AI assistant" } ?f aikg:product ?p ; '
        'aikg:activeUsers ?v ; aikg:activeUsersPeriod "Monthly" ; aikg:date ?d . '
        "FILTER NOT EXISTS { ?g aikg:product ?p ; "
        'aikg:activeUsers ?w ; aikg:activeUsersPeriod "Monthly" ; aikg:date ?e FILTER(STR(?e) > STR(?d)) } }',
    )
    for q in (
        "Gemini 和 Meta AI 助手，最新的月活谁高？",
        "Gemini vs Meta AI: whose assistant has more monthly users?",
    ):
        a = asker.ask(q)
        assert not a["abstained"], q
        assert numbers(a) == gold, q


def test_a_company_ranking_named_like_one_of_its_models_ranks_the_companys_models(asker, epoch_store):
    """ "Mistral" links the model Mistral 7B and the company Mistral AI: "Mistral 训练算力最大的模型"
    ranks the company's models, not every model (the name dropped)."""
    top = {
        r[0].value
        for r in epoch_store.query(
            PRE
            + "SELECT ?m WHERE { ?r a aikg:TrainingRun ; aikg:trainedModel ?m ; aikg:trainingCompute ?v ; "
            "aikg:datasetConfidence ?k . ?m aikg:developer id:mistral-ai . "
            "FILTER(?k IN (aikg:Confident, aikg:Likely)) } ORDER BY DESC(?v) LIMIT 1"
        ).rows
    }
    for q in ("Mistral 训练算力最大的模型是哪个", "Which Mistral model used the most training compute?"):
        a = asker.ask(q)
        assert a["understood"]["form"]["organizations"] == ["mistral-ai"], q
        assert a["answer"]["rows"][0]["cells"]["trainedModel"]["value"] in top, q


@pytest.mark.parametrize(
    ("q", "chip"),
    [
        ("用昇腾910B训练过的模型有几个？", "huawei-ascend-910b"),
        ("用 TPU v4 训练的任务有几个", "google-tpu-v4"),
    ],
)
def test_a_count_of_runs_by_chip_in_chinese_is_a_count(asker, epoch_store, q, chip):
    """ "用昇腾…" is no misspelt 用户 (users), and 训练的任务 is the class of runs: a count, not a list."""
    (gold,) = values(
        epoch_store,
        f"SELECT (COUNT(DISTINCT ?m) AS ?n) WHERE {{ ?r a aikg:TrainingRun ; aikg:accelerator id:{chip} ; "
        "aikg:trainedModel ?m }",
    )
    a = asker.ask(q)
    assert a["understood"]["form"]["op"] == "count"
    assert count_of(a) == gold


def test_which_rounds_of_a_year_lists_them(asker, epoch_store):
    """ "哪几轮" asks which rounds (a list), not how many."""
    gold = {
        r[0].value
        for r in epoch_store.query(
            PRE + "SELECT ?r WHERE { ?r a aikg:FundingRound ; aikg:investee id:anthropic ; "
            "aikg:status aikg:Closed ; aikg:date ?d FILTER(STRSTARTS(STR(?d), '2023')) }"
        ).rows
    }
    a = asker.ask("2023 年 Anthropic 完成了哪几轮融资？")
    assert a["understood"]["form"]["op"] != "count"
    assert gold <= {ID + r["cells"]["x"]["id"] for r in a["answer"]["rows"]}


@pytest.mark.parametrize("q", ["训练时用了超过 3 万张卡的模型有哪些？", "哪些模型训练时用的卡超过三万张？"])
def test_a_threshold_on_cards_is_on_the_runs_chips(asker, epoch_store, q):
    """ "3 万张卡" names the chips counted: not 训练时长 guessed from 训练时 (one character off)."""
    a = asker.ask(q)
    assert a["understood"]["form"]["property"] == "acceleratorCount"
    models = {r["cells"]["trainedModel"]["value"] for r in a["answer"]["rows"]}
    gold = {
        r[0].value
        for r in epoch_store.query(
            PRE + "SELECT DISTINCT ?m WHERE { ?r a aikg:TrainingRun ; aikg:trainedModel ?m ; "
            "aikg:acceleratorCount ?n FILTER(?n > 30000) }"
        ).rows
    }
    assert models == gold


def test_money_spent_on_inference_compute_is_compute_spending(asker):
    """ "spend on inference compute": the compute spending of that category, not a run's FLOP."""
    a = asker.ask("How much did OpenAI spend on inference compute in 2024?")
    assert a["understood"]["form"]["class"] == "spend"
    assert numbers(a) == {1.8e9}


def test_a_round_named_by_its_month_is_that_round(asker):
    """ "after the October 2024 round": the valuation that round set, not the rounds after October."""
    a = asker.ask("What was OpenAI's post-money valuation after the October 2024 round?")
    assert a["understood"]["form"]["dates"] == ["2024-10-01", "2024-10-31"]
    assert numbers(a) == {157e9}


def test_chips_in_the_hardware_list_are_its_rows(asker, epoch_store):
    """ "in the hardware list": Epoch's ML hardware rows (the MI210 only a cluster names is not one)."""
    (gold,) = values(
        epoch_store,
        "SELECT (COUNT(DISTINCT ?x) AS ?n) WHERE { GRAPH <https://w3id.org/aikg/graph/epoch/ml-hardware> "
        "{ ?x aikg:manufacturer id:amd } }",
    )
    (every,) = values(
        epoch_store,
        "SELECT (COUNT(DISTINCT ?x) AS ?n) WHERE { ?x a aikg:Hardware ; aikg:manufacturer id:amd }",
    )
    assert gold < every
    assert count_of(asker.ask("how many AMD chips are in the hardware list")) == gold
    assert count_of(asker.ask("硬件列表里有几款 AMD 的芯片？")) == gold
    assert count_of(asker.ask("How many AMD chips are there?")) == every


@pytest.mark.parametrize(
    ("q", "k"),
    [
        ("the three biggest clusters", 3),
        ("前三大集群", 3),
        ("top five chips by memory", 5),
        ("显存最大的前两款芯片", 2),
    ],
)
def test_the_number_of_rows_a_ranking_asks_for_is_honoured(asker, q, k):
    a = asker.ask(q)
    assert a["understood"]["form"]["top"] == k
    assert len(a["answer"]["rows"]) == k


def test_reliable_figures_only_is_the_rating_filter_not_one_vendor(asker):
    """ "reliable figures only" / 要靠谱的数据: rows rated at least Likely; "only" is not "runs only X"."""
    for q in (
        "Which Meta model used the most training compute, reliable figures only?",
        "xAI 训练算力最大的模型是哪个（要靠谱的数据）",
    ):
        a = asker.ask(q)
        assert not a["abstained"], q
        assert a["understood"]["form"]["op"] == "top", q
        assert "Likely" in a["understood"]["description"], q


@pytest.mark.parametrize(
    ("q", "prop"),
    [
        ("Which data center has the biggest price tag in the data?", "cost"),
        ("哪个数据中心的造价最高？", "cost"),
        ("Which closed rounds valued the company above $100B post-money?", "postMoneyValuation"),
    ],
)
def test_words_of_a_figure_name_its_property(asker, q, prop):
    """ "price tag" and 造价 are what a thing cost (not a price list's price); "post-money" the valuation."""
    a = asker.ask(q)
    assert not a["abstained"], q
    assert a["understood"]["form"]["property"] == prop, q


@pytest.mark.parametrize(
    ("q", "value"),
    [("昇腾 910C 是几纳米工艺？", 7.0), ("What's the street address of Microsoft Fairwater Atlanta?", None)],
)
def test_a_fact_asked_by_its_unit_or_kind_is_answered(asker, q, value):
    a = asker.ask(q)
    assert not a["abstained"], q
    if value is not None:
        assert a["answer"]["facts"][0]["number"] == value
    else:
        assert "1435 Hwy 54 W" in a["answer"]["facts"][0]["value"]


def test_closed_rounds_are_only_closed_ones(asker, epoch_store):
    gold = {
        r[0].value
        for r in epoch_store.query(
            PRE + "SELECT ?r WHERE { ?r a aikg:FundingRound ; aikg:status aikg:Closed ; "
            "aikg:postMoneyValuation ?v FILTER(?v > 100000000000) }"
        ).rows
    }
    a = asker.ask("Which closed rounds valued the company above $100B post-money?")
    assert {ID + r["cells"]["x"]["id"] for r in a["answer"]["rows"]} == gold


@pytest.mark.parametrize(
    ("q", "threshold"),
    [
        ("Which models have more than a trillion parameters?", 1e12),
        ("models with more than half a trillion params", 5e11),
    ],
)
def test_an_amount_in_words_is_a_threshold(asker, q, threshold):
    a = asker.ask(q)
    assert a["understood"]["form"]["threshold"] == [">", threshold]


def test_a_count_of_records_counts_every_row_of_the_figures(asker, epoch_store):
    """ "有几条员工人数的记录": every staff row of Anthropic (its R&D division's too), not a series."""
    (gold,) = values(
        epoch_store,
        "SELECT (COUNT(DISTINCT ?f) AS ?n) WHERE { ?f a aikg:StaffFigure ; aikg:agent id:anthropic }",
    )
    assert count_of(asker.ask("Anthropic 有几条员工人数的记录？")) == gold
    (revenue,) = values(
        epoch_store,
        "SELECT (COUNT(DISTINCT ?f) AS ?n) WHERE { ?f a aikg:RevenueFigure ; aikg:agent id:openai }",
    )
    assert count_of(asker.ask("How many revenue records does OpenAI have?")) == revenue


def test_the_cluster_with_the_most_chips_is_a_ranking_of_built_ones(asker):
    """ "已经建成的集群里，芯片数量最多的是哪个": existing clusters ranked by chips (数量: the figure's)."""
    a = asker.ask("美国已经建成的集群里，芯片数量最多的是哪个？")
    form = a["understood"]["form"]
    assert (form["op"], form["property"]) == ("top", "acceleratorCount")
    assert "现有" in a["understood"]["description"]


def test_a_division_named_as_an_organization_has_its_parents_figures_of_it(asker, epoch_store):
    """Google DeepMind's staff are Google's figures of the division "Google DeepMind"."""
    (latest,) = values(
        epoch_store,
        "SELECT ?v WHERE { ?f aikg:agent id:google ; aikg:staffCount ?v ; aikg:date ?d ; "
        'aikg:companyDivision "Google DeepMind" } '
        "ORDER BY DESC(STR(?d)) LIMIT 1",
    )
    a = asker.ask("Google DeepMind headcount, latest?")
    assert not a["abstained"]
    assert float(a["answer"]["rows"][0]["cells"]["value"]["value"]) == latest


def test_equity_raised_so_far_compares_the_totals_of_closed_rounds(asker, epoch_store):
    """ "raised more equity so far, closed rounds only": each one's total of closed rounds (equity is
    Epoch's amount, debt apart; "rounds" there filters, it asks no count; "only" names no vendor)."""
    gold = values(
        epoch_store,
        "SELECT ?t WHERE { { SELECT ?o (SUM(?a) AS ?t) WHERE { VALUES ?o { id:anthropic id:xai } "
        "?r aikg:investee ?o ; aikg:status aikg:Closed ; aikg:amount ?a ; aikg:datasetConfidence ?k . "
        "FILTER(?k IN (aikg:Confident, aikg:Likely)) } GROUP BY ?o } }",
    )
    for q in (
        "Anthropic or xAI - who's raised more equity so far, closed rounds only?",
        "Anthropic 和 xAI 的已完成融资（股权）加起来，谁融得多？",
    ):
        a = asker.ask(q)
        assert not a["abstained"], q
        assert a["understood"]["form"]["op"] == "sum", q
        assert numbers(a) >= gold, q


def test_an_organizations_gpu_fleet_is_the_chips_of_its_clusters(asker, epoch_store):
    """ "Microsoft's GPU fleet": the chips it runs in its clusters (as "how many GPUs does Microsoft
    have" counts them), not the chips Microsoft makes (Maia) nor a refusal of "fleet"."""
    fleet = asker.ask("How big is Microsoft's GPU fleet?")
    has = asker.ask("How many GPUs does Microsoft have?")
    assert not fleet["abstained"]
    assert fleet["understood"]["sparql"] == has["understood"]["sparql"]
    assert numbers(fleet) == numbers(has)


def test_a_comparison_missing_a_side_says_which_part_it_did_not_answer(asker):
    """ "H100 和 B200 谁的显存更大": the H100 named alone has no memory figure of its own; the B200's is
    shown with a note naming the side not answered, and no winner is named."""
    a = asker.ask("H100 和 B200 谁的显存更大？")
    assert not a["abstained"]
    # (the note in the question's language: "这部分问题没有回答", this part is not answered)
    assert "H100" in a["answer"]["note"] and "没有回答" in a["answer"]["note"]
    assert not a["answer"]["summary"]
    both = asker.ask("Which has more HBM, GB200 NVL72 or GB300 NVL72?")
    assert len(both["answer"]["rows"]) == 2 and both["answer"]["note"] is None


def test_an_organization_before_a_name_of_several_things_picks_its_own(asker):
    """ "谷歌 New Albany": Google New Albany Ohio, not also Meta Prometheus New Albany Ohio."""
    a = asker.ask("谷歌 New Albany 的造价是多少？")
    assert not a["abstained"]
    assert "meta-prometheus-new-albany-ohio" not in str(a["answer"])
    assert "google-new-albany-ohio" in str(a["answer"])


def figures(body: dict) -> set[float]:
    """The numbers an answer states: its rows' figures and its facts' values."""
    out = numbers(body)
    for fact in body["answer"].get("facts", []):
        with contextlib.suppress(ValueError, TypeError):
            out.add(float(fact["value"]))
    return out


@pytest.mark.parametrize(
    ("q", "gold"),
    [
        # chips and models in the names their makers use in China (the labels write English or pinyin)
        ("平头哥含光800的功耗是多少", "VALUES ?x { id:t-head-hanguang-800 } ?x aikg:thermalDesignPower ?v"),
        (
            "昆仑芯一代和昆仑芯二代的制程分别是多少",
            "VALUES ?x { id:baidu-kunlun-i id:baidu-kunlun-ii } ?x aikg:processNode ?v",
        ),
        ("思元370-X8的显存有多大", "VALUES ?x { id:cambricon-mlu370-x8 } ?x aikg:memoryPerChip ?v"),
        ("混元Large有多少参数", "VALUES ?x { id:hunyuan-large } ?x aikg:totalParameters ?v"),
        # places as Chinese maps write them; an organization before the site or cluster its name begins
        ("谷歌奥马哈数据中心的电力容量", "id:google-omaha-nebraska aikg:powerCapacity ?v"),
        (
            "新卡莱尔的雷尼尔计划数据中心电力容量多大",
            "id:anthropic-amazon-project-rainier-new-carlisle-indiana aikg:powerCapacity ?v",
        ),
        ("特斯拉Cortex二期集群的H100当量是多少", "id:cluster-tesla-cortex-phase-2 aikg:h100Equivalents ?v"),
        # a phase (二期, 'phase 4') with the name's words apart; the other phase of "一期和二期"
        (
            "Jean Zay phase 4 有多少 H100 当量",
            "id:cluster-jean-zay-supercomputer-phase-4 aikg:h100Equivalents ?v",
        ),
        (
            "NVIDIA Selene 一期和二期，哪个H100当量多",
            "VALUES ?x { id:cluster-nvidia-selene-phase-1 id:cluster-nvidia-selene-phase-2 } "
            "?x aikg:h100Equivalents ?v",
        ),
        # a cluster people call by its own name, Epoch's name quoted ('"Jupiter, Jülich"')
        ("Gefion 集群有多少 H100 当量", "id:cluster-novo-nordisk-gefion aikg:h100Equivalents ?v"),
        ("How many H100 equivalents does Jupiter have?", "id:cluster-jupiter-julich aikg:h100Equivalents ?v"),
    ],
)
def test_a_name_written_as_people_write_it_links_to_its_entity(asker, epoch_store, q, gold):
    want = values(epoch_store, f"SELECT DISTINCT ?v WHERE {{ {gold} }}")
    body = asker.ask(q)
    assert not body["abstained"], q
    assert figures(body) == want, q


def test_a_country_the_data_has_clusters_in_is_read_in_chinese_too(asker, epoch_store):
    (want,) = values(
        epoch_store,
        'SELECT (COUNT(DISTINCT ?c) AS ?n) WHERE { ?c a aikg:Deployment ; aikg:locationName "Iceland" }',
    )
    body = asker.ask("冰岛有几个集群")
    assert not body["abstained"]
    assert body["answer"]["summary"] == str(int(want))


@pytest.mark.parametrize(
    "q",
    [
        "盘古5.0有多少参数",  # Pangu 5.0 is not in the data: not PanGu-Σ's parameters
        "SURF Snellius 二期集群的H100当量是多少",  # Epoch lists phases 1 and 3
        "SURF Snellius phase 2 H100 equivalents",
        "Snellius 一期和二期的H100当量",  # not phase 1's figure alone
        "昆仑芯三代的TDP是多少",  # Kunlun I and II only
    ],
)
def test_a_version_or_phase_the_data_does_not_hold_abstains(asker, q):
    assert asker.ask(q)["abstained"], q


def test_a_phase_in_chinese_reads_as_epochs_names_write_it():
    assert fold("Alps二期").split() == ["alps", "phase", "2"]
    assert fold("第一期").split() == ["phase", "1"]
    # 首期 and 期间 hold no numeral: words, not phases
    assert "phase" not in fold("PORTS-Pike 首期供电") + fold("期间")


def test_a_misspelt_status_is_that_status_and_a_filler_word_is_no_typo(asker, epoch_store):
    """ "decomissioned clusters" counts the decommissioned ones (was: the existing ones, sure, while the
    coverage check explained the typo as the status); "listed" is no typo of "lasted" (a run's duration:
    "how many Intel accelerators are listed" counted training runs)."""
    gold = values(
        epoch_store,
        "SELECT (COUNT(DISTINCT ?c) AS ?n) WHERE { ?c a aikg:Deployment ; "
        'aikg:operationalStatus "Decommissioned" }',
    )
    a = asker.ask("how many decomissioned clusters are in the dataset?")
    assert not a["abstained"] and a["understood"]["form"]["status"] == "Decommissioned"
    assert {float(count_of(a))} == gold
    chips = values(
        epoch_store,
        "SELECT (COUNT(DISTINCT ?x) AS ?n) WHERE { ?x a aikg:Accelerator ; aikg:manufacturer id:intel }",
    )
    b = asker.ask("how many Intel accelerators are listed")
    assert b["understood"]["form"]["class"] == "hardware" and {float(count_of(b))} == chips


def test_cantonese_function_words_are_read_as_mandarin():
    """嘅 / 系 / 边个 / 几多 (Hong Kong's written Cantonese) read as 的 / 是 / 哪个 / 多少; 系 of a Mandarin
    word (系列, 关系) is kept, and a question with no Cantonese word is left as it is."""
    assert fold("以色列最大嘅现役GPU集群系边个") == fold("以色列最大的现役GPU集群是哪个")
    assert fold("B200 嘅显存系几多") == fold("B200 的显存是多少")
    assert "系列" in fold("英伟达嘅 H 系列芯片") and "关系" in fold("佢哋嘅关系")
    assert fold("H100 系列有哪些") == "h100 系列有哪些"


def test_cantonese_words_beyond_function_words_are_read_as_mandarin():
    """而家 (now), 几时 (when), 运行紧 (running: 运行中), 边款 (which model), 喺度 (in the middle of), the
    particle 㗎: read as the Mandarin words, only where a Cantonese word says the text is Cantonese;
    Mandarin's 紧 (紧急, 要紧) is kept."""
    assert fold("德國而家運行緊最大嘅 GPU 集群係邊個") == fold("德国现在运行中最大的 GPU 集群是哪个")
    assert fold("B200 係幾時發佈㗎？") == fold("B200 是什么时候发布？")
    assert fold("AMD 邊款卡嘅顯存最大") == fold("AMD 哪款卡的显存最大")
    assert fold("巴西有幾多個集群喺度運行緊") == fold("巴西有多少个集群在运行中")
    assert "要紧" in fold("呢个好要紧嘅") and "紧急" in fold("紧急嘅集群")
    assert fold("运行紧凑的集群") == "运行紧凑的集群"  # no Cantonese word: left as it is


@pytest.mark.parametrize(
    ("q", "plain"),
    [
        # organizations as the Chinese press names them (seeds/epoch/names.csv)
        ("阶跃星辰参数量最大的模型是哪个", "StepFun 参数量最大的模型是哪个"),
        ("小米有几个模型", "Xiaomi Corp 有几个模型"),
        ("清华和北大，谁的模型多", "Tsinghua University 和 Peking University，谁的模型多"),
        ("軟銀有哪些集群", "Softbank 有哪些集群"),
        # one organization named twice, in Chinese and by its own name in brackets
        ("软银（SoftBank）有哪些集群", "Softbank 有哪些集群"),
        # laboratories, sites and chips as Chinese reports name them (words.PLACE_NAMES), a chip line's
        # Chinese name before a model number of digits alone
        ("劳伦斯利弗莫尔的 Sierra 有多少张卡", "Lawrence Livermore NL Sierra 有多少张卡"),
        ("Meta 的亥伯龙数据中心是谁建的", "Meta Hyperion 数据中心是谁建的"),
        ("神威 SW26010-Pro 的制程是多少", "Sunway SW26010-Pro 的制程是多少"),
        ("昇騰310 的 TDP 係幾多瓦", "Huawei Ascend 310 的 TDP 是多少瓦"),
        # a ranking "only over those with the figure", 得 before the degree
        ("谷歌哪款芯片功耗最高？只看有功耗数据的", "谷歌哪款芯片功耗最高"),
        ("谷歌哪款芯片发布得最早", "谷歌哪款芯片发布最早"),
    ],
)
def test_chinese_names_and_colloquial_words_are_read_as_their_plain_form(asker, q, plain):
    """A name as the Chinese press writes it, a Cantonese or colloquial word: the question is answered
    as its plain form is (the same query), and sure."""
    a, b = asker.ask(q), asker.ask(plain)
    assert not b["abstained"]
    assert not a["abstained"] and a["understood"]["unknown"] == [], a["understood"]
    for key in ("sparql", "description"):  # a fact has no query of its own: what it is of
        assert a["understood"].get(key) == b["understood"].get(key)
    assert a["answer"].get("rows") == b["answer"].get("rows")
    assert a["answer"].get("facts") == b["answer"].get("facts")


@pytest.mark.parametrize(
    ("q", "maker"),
    [
        ("Which AMD chip has the highest tensor FP16 throughput?", "amd"),
        ("哪款芯片的 BF16 张量算力最高", None),
        ("英伟达哪款卡的張量性能最高", "nvidia"),
    ],
)
def test_tensor_throughput_is_epochs_tensor_figure_not_fp16s(asker, epoch_store, q, maker):
    """Epoch has one tensor figure (Tensor-FP16/BF16): "tensor FP16 throughput", 张量算力, 张量性能 rank by
    it; "FP16 throughput" inside the longer phrase no longer wins (AMD's ranking was FP16's)."""
    body = asker.ask(q)
    assert not body["abstained"] and body["understood"]["form"]["property"] == "tensorFp16Performance"
    of = f"aikg:manufacturer id:{maker} ;" if maker else ""
    (top,) = values(
        epoch_store,
        f"SELECT (MAX(?v) AS ?m) WHERE {{ ?x a aikg:Accelerator ; {of} aikg:tensorFp16Performance ?v }}",
    )
    assert float(body["answer"]["rows"][0]["cells"]["value"]["value"]) == top


def test_annualized_in_chinese_asks_nothing_more(asker):
    """按年化算 (counted annualized) is the annualized figure the question names, as "annualized" is."""
    a = asker.ask("Anthropic 2025年5月的收入按年化算是多少")
    b = asker.ask("Anthropic 2025年5月的年化收入是多少")
    assert not a["abstained"] and a["understood"]["unknown"] == []
    assert a["understood"]["sparql"] == b["understood"]["sparql"]


@pytest.mark.parametrize("q", ["哪些芯片的 BF16 张量算力超过 2 PFLOPS", "哪些芯片的 FP8 算力超过 3 PFLOPS"])
def test_a_threshold_in_pflops_on_the_tensor_figure_keeps_its_unit(asker, q):
    """张量算力 is a property word of its own; it does not take the unit's word "flops" from FP8's."""
    body = asker.ask(q)
    assert not body["abstained"] and body["understood"]["form"]["threshold"]
    assert body["understood"]["form"]["property"] in {"tensorFp16Performance", "fp8Performance"}


def test_only_those_with_the_figure_is_read_but_another_only_is_not(asker):
    """只看有功耗数据的 (only those with a power figure) asks nothing a ranking does not do; 只看已发布的
    (only released ones) names a filter the reader cannot apply: not sure, no answer."""
    assert asker.ask("谷歌哪款芯片功耗最高？只看有功耗数据的")["understood"]["unknown"] == []
    body = asker.ask("谷歌哪款芯片功耗最高？只看已发布的")
    assert body["abstained"] and body["understood"]["unknown"]


@pytest.mark.parametrize(
    ("q", "plain"),
    [
        ("以色列最大嘅现役GPU集群系边个", "以色列最大的现役GPU集群是哪个"),
        ("微软拥有多少个集群？", "微软有多少个集群？"),
        ("德國 H100 當量超過一千的叢集", "德国 H100 等效超过1000的集群"),
        ("谷歌2025年4月到7月之间公布的用户数据", "谷歌2025年4月到7月之间的用户数据"),
    ],
)
def test_chinese_words_of_a_known_meaning_are_read_as_it(asker, q, plain):
    """Words the reader left as single characters (拥 of 拥有, 布 of 公布, 量 of 当量 after a space, 嘅):
    each is read as the word it is, so the question is answered as its plain form is, and sure."""
    a, b = asker.ask(q), asker.ask(plain)
    assert not a["abstained"] and a["understood"]["unknown"] == []
    assert a["understood"]["sparql"] == b["understood"]["sparql"]


def test_a_number_of_people_is_a_count_and_the_end_of_a_month_is_that_month(asker):
    """ "超过3000人", "above 5,000 people": 人 and people are the unit of the count, no word left over; "在
    2025年10月底", "at the end of October 2025": the month, as 年底 is the year."""
    for q in ("员工数超过3000人的记录有哪些公司", "Which companies have staff records above 5,000 people?"):
        a = asker.ask(q)
        assert (
            not a["abstained"] and a["understood"]["unknown"] == [] and a["understood"]["form"]["threshold"]
        )
    for q in (
        "Gemini 和 Meta AI 在2025年10月底的月活谁高？",
        "At the end of October 2025, which had more monthly users, Meta AI or Gemini?",
    ):
        a = asker.ask(q)
        assert not a["abstained"] and a["understood"]["unknown"] == []
        assert a["understood"]["form"]["dates"] == ["2025-10-01", "2025-10-31"]


def test_a_companys_figures_asked_as_records_are_every_row_with_whose_each_is(asker, epoch_store):
    """ "staff counts reported in 2024": every figure of the year, a division's too (Anthropic's R&D
    521 beside its 915); "员工数超过3000人的记录有哪些公司": each figure over the threshold with its company
    (Meta's and Google's AI division's: no whole-company figure is over 3000)."""
    gold = values(
        epoch_store,
        "SELECT ?v WHERE { ?f a aikg:StaffFigure ; aikg:agent id:anthropic ; aikg:staffCount ?v ; "
        'aikg:date ?d FILTER(STRSTARTS(STR(?d), "2024")) }',
    )
    a = asker.ask("Anthropic staff counts reported in 2024")
    assert 521.0 in gold and numbers(a) == gold
    b = asker.ask("员工数超过3000人的记录有哪些公司")
    companies = {r["cells"]["company"]["id"] for r in b["answer"]["rows"]}
    assert companies == {"meta", "google"}


def test_two_organizations_rounds_of_different_letters_are_each_its_own(asker, epoch_store):
    """ "xAI's Series C post-money vs Anthropic's Series E": xAI's C and Anthropic's E (was: both
    companies' Series C, Anthropic's 4.5B beside xAI's 45B)."""
    gold = values(
        epoch_store,
        "SELECT ?v WHERE { VALUES ?x { id:funding-round-xai-dec-2024-series-c "
        "id:funding-round-anthropic-mar-2025-61-5b-series-e } ?x aikg:postMoneyValuation ?v }",
    )
    for q in (
        "xAI's Series C post-money vs Anthropic's Series E post-money — which was higher?",
        "xAI 的 C 轮和 Anthropic 的 E 轮，哪一轮的投后估值更高？",
    ):
        a = asker.ask(q)
        assert numbers(a) == gold, q


def test_two_products_compared_at_the_end_of_a_month_are_each_ones_figure_of_that_month(asker, epoch_store):
    """ "Gemini 和 Meta AI 在2025年5月底的月活": each product's newest monthly figure up to that month's
    end (a later one, outside the period, made the answer empty); Meta AI beside a product named is
    the assistant."""
    gold = values(
        epoch_store,
        'SELECT ?v WHERE { ?f aikg:activeUsers ?v ; aikg:activeUsersPeriod "Monthly" ; aikg:product ?p ; '
        'aikg:date ?d . VALUES ?p { "Gemini" "Meta AI assistant" } '
        'FILTER(STR(?d) >= "2025-05-01" && STR(?d) <= "2025-05-31") }',
    )
    a = asker.ask("Gemini 和 Meta AI 在2025年5月底的月活谁更多？")
    assert len(gold) == 2 and numbers(a) == gold


def test_a_precision_word_beside_chips_is_their_figure_not_a_thing_named(asker, epoch_store):
    """ "B200 or MI355X, which is faster at FP8?": FP8 is the chips' FP8 performance (was: the thing
    named "FP8" and the speed-up claims' named query, sure)."""
    gold = values(
        epoch_store,
        "SELECT ?v WHERE { VALUES ?x { id:nvidia-b200 id:amd-instinct-mi355x } ?x aikg:fp8Performance ?v }",
    )
    a = asker.ask("B200 or MI355X, which is faster at FP8?")
    assert a["understood"]["form"]["property"] == "fp8Performance" and numbers(a) == gold


def test_a_named_query_that_leaves_a_thing_named_unused_is_not_sure(asker):
    """ "how sure is the 6D torus for TPU v9t?" answered by every topology's hop counts leaves the TPU
    v9t out of the answer: not that answer. The statement its words name (the TPU v9 rumour: TPU v9t on a
    6D torus) is answered instead, with its certainty (aikg.ask.described)."""
    a = asker.ask("how sure is the 6D torus for TPU v9t?")
    assert a["understood"].get("query") != "topology-hop-counts"
    assert not a["abstained"] and "Rumoured" in json.dumps(a["answer"])


def test_the_words_around_a_name_ask_for_its_figure(asker, epoch_store):
    """ "on-board memory" (Epoch's "Memory size per board"), a node asked "(nm)", 是哪家公司的芯片 (its
    maker), a cluster's "status" and a chip's form factor (OAM版) are read, not left as words that make
    the answer unsure."""
    memory = values(
        epoch_store,
        "SELECT ?v WHERE { VALUES ?x { id:aws-inferentia2 id:nvidia-l4 } ?x aikg:memoryPerChip ?v }",
    )
    assert figures(asker.ask("Inferentia2 vs NVIDIA L4: which has more on-board memory?")) == memory
    node = values(epoch_store, "SELECT ?v WHERE { id:biren-br100 aikg:processNode ?v }")
    assert figures(asker.ask("What process node is the Biren BR100 built on (nm)?")) == node
    maker = asker.ask("深算一号是哪家公司的芯片")
    assert not maker["abstained"] and _iris(maker) == {ID + "hygon"}
    status = asker.ask("What is the status of Tesla Cortex phase 3?")
    assert not status["abstained"]
    assert [f["value"] for f in status["answer"]["facts"]] == ["Planned"]
    # a form factor after the name ("OAM版") picks that variant of it, not both
    oam = values(epoch_store, "SELECT ?v WHERE { id:metax-mxc500-oam aikg:thermalDesignPower ?v }")
    assert figures(asker.ask("曦云C500 OAM版的热设计功耗是多少")) == oam


@pytest.mark.parametrize(
    ("q", "period"),
    [
        ("Anthropic 在2023年10月到2024年12月之间的员工数", ("2023-10-01", "2024-12-31")),
        ("2023年1月至2024年5月的员工人数", ("2023-01-01", "2024-05-31")),
        ("OpenAI 2024年6月到2025年的收入", ("2024-06-01", "2025-12-31")),
        ("2023年到2024年3月", ("2023-01-01", "2024-03-31")),
        ("2025年4月到7月之间", ("2025-04-01", "2025-07-31")),
        ("2019 到 2022 年", ("2019-01-01", "2022-12-31")),
    ],
)
def test_a_chinese_period_of_months_across_years_keeps_both_ends(q, period):
    """ "2023年10月到2024年12月": from the first month to the last, across the years (was: October 2023
    alone, answered sure); a month past December is no month (was: an error)."""
    assert read_dates(fold(q))[0] == period
    assert read_dates(fold("2024年13月的收入"))[0] != ("2024-13-01", "2024-13-31")


def texts(answer: dict) -> set[str]:
    """Every value of the answer's rows, as text (dates too)."""
    return {c["value"] for row in answer["answer"].get("rows", []) for c in row["cells"].values() if c}


@pytest.mark.parametrize(
    ("q", "chips", "prop"),
    [
        # each figure Epoch gives a chip, asked by its own words (issue 44, ninth session, o541-o552)
        (
            "Which has more TF32 throughput, the MI325X or the Gaudi3?",
            "amd-instinct-mi325x intel-habana-gaudi3",
            "tf32Performance",
        ),
        ("H200 SXM 和 H800 的 TF32 算力谁高？", "nvidia-h200-sxm h800", "tf32Performance"),
        (
            "Which has higher intranode bandwidth, the H100 SXM5 80GB or the MI250X?",
            "nvidia-h100-sxm5-80gb amd-radeon-instinct-mi250x",
            "intranodeBandwidth",
        ),
        (
            "昇腾910C 和 A100 PCIe 的节点间带宽谁高？",
            "huawei-ascend-910c nvidia-a100-pcie",
            "internodeBandwidth",
        ),
        (
            "Which has the smaller process node, the Gaudi3 or the MI250X?",
            "intel-habana-gaudi3 amd-radeon-instinct-mi250x",
            "processNode",
        ),
        # "the GB200" links first to the GB200 NVL72 rack: compared on a chip's figure, it is the chip
        (
            "Which draws more power, the GB200 or the H200 SXM?",
            "nvidia-gb200 nvidia-h200-sxm",
            "thermalDesignPower",
        ),
        ("GB200 和 MI355X 谁的 FP4 算力更高？", "nvidia-gb200 amd-instinct-mi355x", "fp4Performance"),
        ("GB200 vs B200: which has more memory?", "nvidia-gb200 nvidia-b200", "memoryPerChip"),
    ],
)
def test_chips_are_compared_on_each_figure_epoch_gives(asker, epoch_store, q, chips, prop):
    want = values(
        epoch_store,
        f"SELECT ?v WHERE {{ VALUES ?x {{ id:{' id:'.join(chips.split())} }} ?x aikg:{prop} ?v }}",
    )
    body = asker.ask(q)
    assert not body["abstained"] and body["understood"]["form"]["entities"] == chips.split()
    assert len(want) == 2 and numbers(body) == want


@pytest.mark.parametrize(
    ("q", "chips"),
    [
        ("Which came out first, the MI300X or the Gaudi2?", "amd-instinct-mi300x intel-habana-gaudi2"),
        ("Which chip is newer, the TPU v5p or the Trainium2?", "google-tpu-v5p amazon-trainium2"),
        (
            "Which came out first, Microsoft's Maia 100 or Google's TPU v6e?",
            "maia-100-m100 google-tpu-v6e-trillium",
        ),
    ],
)
def test_chips_named_with_a_comparative_of_time_compare_their_release_dates(asker, epoch_store, q, chips):
    """Not a ranking of the runs that used them ("first" is a ranking's word), nor a chip link ("chip")."""
    rows = epoch_store.query(
        PRE
        + f"SELECT ?v WHERE {{ VALUES ?x {{ id:{' id:'.join(chips.split())} }} ?x aikg:availableFrom ?v }}"
    ).rows
    want = {str(r[0].value) for r in rows}
    body = asker.ask(q)
    assert (
        body["understood"]["form"]["op"] == "compare"
        and body["understood"]["form"]["entities"] == chips.split()
    )
    assert len(want) == 2 and want <= texts(body)


@pytest.mark.parametrize(
    ("q", "sparql"),
    [
        # the data as what has the chips: the chips it lists of that maker, not those its clusters hold
        ("How many Huawei chips does the dataset have?", "?x a aikg:Hardware ; aikg:manufacturer id:huawei"),
        (
            "How many Kunlunxin chips does aikg have?",
            "?x a aikg:Hardware ; aikg:manufacturer id:kunlunxin-baidu",
        ),
        ("lol how many chips has Intel got in here", "?x a aikg:Hardware ; aikg:manufacturer id:intel"),
        ("how many accelerators has Huawei shipped?", "?x a aikg:Hardware ; aikg:manufacturer id:huawei"),
        ("how many chips has Cambricon put out?", "?x a aikg:Hardware ; aikg:manufacturer id:cambricon"),
        # a company's rows counted: "reports", and 条 (the measure word of rows)
        ("How many usage reports does the data have for Meta?", "?x a aikg:UsageFigure ; aikg:agent id:meta"),
        ("aikg 收录了多少条谷歌的用户数据？", "?x a aikg:UsageFigure ; aikg:agent id:google"),
    ],
)
def test_what_the_data_holds_is_counted(asker, epoch_store, q, sparql):
    (want,) = values(epoch_store, f"SELECT (COUNT(DISTINCT ?x) AS ?n) WHERE {{ {sparql} }}")
    body = asker.ask(q)
    assert not body["abstained"] and body["understood"]["form"]["op"] == "count"
    assert want > 1 and count_of(body) == int(want)


def test_the_chips_an_organization_has_are_still_its_clusters(asker, epoch_store):
    """The organization as what has the chips (not the data): the total of its clusters' chips."""
    body = asker.ask("How many GPUs does xAI have in the dataset?")
    assert body["understood"]["form"]["op"] == "sum" and body["understood"]["form"]["class"] == "cluster"


def figure(cls: str, org: str, date: str, prop: str, extra: str = "") -> str:
    """Gold: the ``prop`` of ``org``'s figure of class ``cls`` dated ``date``."""
    return (
        f"SELECT ?v WHERE {{ ?f a aikg:{cls} ; aikg:agent id:{org} ; {extra}"
        f'aikg:date "{date}"^^<http://www.w3.org/2001/XMLSchema#date> ; aikg:{prop} ?v }}'
    )


@pytest.mark.parametrize(
    ("q", "sparql"),
    [
        (
            "How many tokens a day was Google handling in July 2025?",
            figure("UsageFigure", "google", "2025-07-23", "dailyTokens"),
        ),
        (
            "how many tokens/day was google processing end of sept 2025?",
            figure("UsageFigure", "google", "2025-09-30", "dailyTokens"),
        ),
        (
            "Anthropic's annualized revenue back in March 2025?",
            figure(
                "RevenueFigure",
                "anthropic",
                "2025-03-31",
                "annualRevenue",
                'aikg:figureKind "Annualized revenue" ; ',
            ),
        ),
        ("OpenAI 现在大概多少号人？", figure("StaffFigure", "openai", "2025-07-15", "staffCount")),
        (
            "MI325X or Gaudi3, who's got the edge on memory?",
            "SELECT ?v WHERE { VALUES ?x { id:amd-instinct-mi325x id:intel-habana-gaudi3 } "
            "?x aikg:memoryPerChip ?v }",
        ),
        (
            "Anthropic's total cloud compute bill for 2023",
            figure("ComputeSpendFigure", "anthropic", "2023-12-31", "computeSpend"),
        ),
        (
            "xAI's valuation",
            "SELECT ?v WHERE { ?x a aikg:FundingRound ; aikg:investee id:xai ; aikg:postMoneyValuation ?v ; "
            "aikg:date ?d } ORDER BY DESC(?d) LIMIT 1",
        ),
    ],
)
def test_words_restating_what_the_form_asks_leave_it_sure(asker, epoch_store, q, sparql):
    """ "handling" beside usage figures, "back in" beside a month, 多少号人, "the edge" beside a comparison,
    a (cloud) compute bill, a valuation asked bare (the newest first): answered, with the figure."""
    want = values(epoch_store, sparql)
    body = asker.ask(q)
    assert body["understood"]["sure"] and not body["abstained"] and want
    assert want <= numbers(body)


def test_rounds_done_are_those_that_closed(asker, epoch_store):
    (want,) = values(
        epoch_store,
        "SELECT (COUNT(DISTINCT ?x) AS ?n) WHERE { ?x a aikg:FundingRound ; aikg:investee id:openai ; "
        "aikg:status aikg:Closed }",
    )
    body = asker.ask("How many funding rounds has OpenAI done?")
    assert "closed" in body["understood"]["description"]
    assert int(want) in every_counts(body) | {count_of(body)}


@pytest.mark.parametrize(
    ("op", "carrier", "unknown", "left"),
    [
        ("series", "usage", ["handling"], []),
        ("fact", "hardware", ["handling"], ["handling"]),  # beside a chip's figure it asks something else
        ("compare", "hardware", ["edge", "smaller"], []),
        ("fact", "hardware", ["edge"], ["edge"]),
        ("count", "funding", ["done"], ["done"]),  # no organization's rounds
        ("count", "model", ["shipped", "so"], ["shipped"]),  # "so far" is until now; no maker named
    ],
)
def test_a_restating_word_is_explained_only_beside_what_it_restates(op, carrier, unknown, left):
    form = Form(op, carrier=carrier)
    assert restated(form, "how many models so far " + " ".join(unknown), unknown) == left


@pytest.mark.parametrize(
    ("q", "label", "prop"),
    [
        # whose it is: a cluster's owner (Epoch's "Owner", aikg:operator), a chip's maker
        ("Whose cluster is Argonne NL Aurora?", "Argonne NL Aurora", "operator"),
        ("Taiwania 2 這個叢集是誰的？", "Taiwania 2", "operator"),
        ("Trainium2 是谁的？", "Amazon Trainium2", "manufacturer"),
    ],
)
def test_whose_a_thing_is_is_its_owner_or_maker(asker, epoch_store, q, label, prop):
    rows = epoch_store.query(
        PRE + f"SELECT ?v WHERE {{ ?x <http://www.w3.org/2000/01/rdf-schema#label> ?l ; aikg:{prop} ?v "
        f'FILTER(STR(?l) = "{label}") }}'
    ).rows
    (want,) = {str(r[0].value) for r in rows}
    body = asker.ask(q)
    assert not body["abstained"] and body["answer"]["property"]["name"] == f"aikg:{prop}"
    assert want in {str(f.get("value")) for f in body["answer"]["facts"]}


def test_a_thing_named_twice_is_one_thing(asker, epoch_store):
    """ "Google's Omaha, Nebraska data center": Omaha and Nebraska both name Google Omaha Nebraska."""
    body = asker.ask("What's the street address of Google's Omaha, Nebraska data center?")
    assert body["understood"]["form"]["entities"] == ["google-omaha-nebraska"]
    assert any("11110 State St" in str(f.get("value")) for f in body["answer"]["facts"])


@pytest.mark.parametrize("q", ["Meta 的 GPU 机群有多大？", "How big is Amazon's GPU fleet?"])
def test_an_organizations_fleet_is_the_chips_of_its_clusters(asker, q):
    """机群 (a fleet) is no misspelt 集群 (clusters): the total of the organization's clusters' chips."""
    body = asker.ask(q)
    form = body["understood"]["form"]
    assert form["op"] == "sum" and form["property"] == "acceleratorCount" and not body["abstained"]


@pytest.mark.parametrize(
    "q", ["OpenAI API tokens per day as of December 2025?", "OpenAI 的 API 每天处理多少 token？"]
)
def test_a_product_named_beside_its_company_filters_its_figures(asker, epoch_store, q):
    """ "for API" was said and not applied: GPT-5-Codex's 2T tokens a day came first, the same day."""
    (want,) = values(
        epoch_store,
        'SELECT ?v WHERE { ?f a aikg:UsageFigure ; aikg:agent id:openai ; aikg:product "API" ; '
        "aikg:dailyTokens ?v }",
    )
    body = asker.ask(q)
    assert not body["abstained"] and numbers(body) == {want}


@pytest.mark.parametrize(
    ("q", "status"),
    [
        ("how many planned clusters does Epoch rate as Unlikely?", "Planned"),
        ("How many existing clusters does Epoch rate as Unlikely?", "Existing"),
        ("Epoch 评为 Unlikely 的规划中集群有几个？", "Planned"),
    ],
)
def test_clusters_counted_by_the_rating_named(asker, epoch_store, q, status):
    """The rating named replaces the default of at least Likely (which no Unlikely row passes)."""
    (want,) = values(
        epoch_store,
        "SELECT (COUNT(DISTINCT ?x) AS ?n) WHERE { ?x a aikg:Deployment ; aikg:sourceConfidence "
        f'"Unlikely" ; aikg:operationalStatus "{status}" }}',
    )
    body = asker.ask(q)
    assert body["understood"]["sure"] and not body["abstained"]
    assert want > 0 and int(want) in every_counts(body) | {count_of(body)}


def _rows(body: dict) -> list[str]:
    return [row["about"] for row in body["answer"]["rows"]]


def _gold(store, sparql: str) -> list[str]:
    rdfs = "PREFIX rdfs: <http://www.w3.org/2000/01/rdf-schema#>\n"
    return [r[0].value for r in store.query(PRE + rdfs + sparql).rows]


def test_chip_lines_are_read_from_the_makers_chip_names():
    """A line is the word a maker's chips are named by after its own name, one maker's only; a word the
    composer reads ("Data Center GPU") and a model number are none."""
    from aikg.ask.lines import chip_lines

    rows = [
        (
            "https://w3id.org/aikg/id/a",
            "Huawei Ascend 910B",
            "https://w3id.org/aikg/id/huawei",
            "Huawei",
            "Huawei",
        ),
        (
            "https://w3id.org/aikg/id/b",
            "Huawei Ascend 310",
            "https://w3id.org/aikg/id/huawei",
            "Huawei",
            "华为",
        ),
        (
            "https://w3id.org/aikg/id/c",
            "Amazon Trainium2",
            "https://w3id.org/aikg/id/aws",
            "Amazon AWS",
            "Amazon AWS",
        ),
        (
            "https://w3id.org/aikg/id/d",
            "Intel Data Center GPU Max 1550",
            "https://w3id.org/aikg/id/intel",
            "Intel",
            "Intel",
        ),
        (
            "https://w3id.org/aikg/id/e",
            "Intel Habana Gaudi2",
            "https://w3id.org/aikg/id/intel",
            "Intel",
            "Intel",
        ),
        (
            "https://w3id.org/aikg/id/f",
            "NVIDIA GeForce RTX 4090",
            "https://w3id.org/aikg/id/nvidia",
            "NVIDIA",
            "NVIDIA",
        ),
        ("https://w3id.org/aikg/id/g", "AMD Radeon RX 7900", "https://w3id.org/aikg/id/amd", "AMD", "AMD"),
        (
            "https://w3id.org/aikg/id/h",
            "AMD Radeon Instinct MI250X",
            "https://w3id.org/aikg/id/amd",
            "AMD",
            "AMD",
        ),
    ]
    lines = chip_lines(rows, lambda w: w in {"data", "center", "gpu"})
    assert {w: c.slug for w, c in lines.items()} == {
        "ascend": "huawei",
        "trainium": "aws",
        "habana": "intel",
        "gaudi": "intel",
        "geforce": "nvidia",
        "rtx": "nvidia",
        "radeon": "amd",
        "instinct": "amd",
        "aws": "aws",  # the acronym of a maker's name, which the linker does not take alone
    }


def test_a_chip_line_is_its_makers_chips_of_that_name(asker, epoch_store):
    """ "Which Trainium chip …": Amazon AWS's chips named Trainium (not its Inferentia2), where the word
    was respelt "training" and every chip ranked, sure; "Kunlun", "Ascend", 昇腾 were words not understood."""
    body = asker.ask("Which Trainium chip has the highest TDP?")
    want = _gold(
        epoch_store,
        "SELECT ?x WHERE { ?x aikg:manufacturer id:amazon-aws ; rdfs:label ?l ; "
        'aikg:thermalDesignPower ?w FILTER(CONTAINS(?l, "Trainium")) } ORDER BY DESC(?w)',
    )
    assert want and _rows(body) == want
    low = _gold(
        epoch_store,
        "SELECT ?x WHERE { ?x aikg:manufacturer id:kunlunxin-baidu ; aikg:thermalDesignPower ?w } "
        "ORDER BY ?w",
    )
    assert first(asker.ask("Which Kunlun chip has the lowest TDP?")) == low[0]
    huawei = _gold(
        epoch_store,
        "SELECT ?x WHERE { ?x aikg:manufacturer id:huawei ; aikg:thermalDesignPower ?w } ORDER BY ?w",
    )
    assert first(asker.ask("昇腾芯片里功耗最低的是哪款？")) == huawei[0]
    since = _gold(
        epoch_store,
        "SELECT ?x WHERE { ?x aikg:manufacturer id:huawei ; aikg:availableFrom ?d "
        'FILTER(STR(?d) >= "2024-07") }',
    )
    body = asker.ask("Huawei Ascend parts launched since the second half of 2024")
    assert since and sorted(_rows(body)) == sorted(since)
    aws = _gold(
        epoch_store,
        "SELECT ?x WHERE { ?x aikg:manufacturer id:amazon-aws ; aikg:availableFrom ?d "
        'FILTER(STR(?d) < "2024") }',
    )
    assert aws and sorted(_rows(asker.ask("Which AWS chips were out before 2024?"))) == sorted(aws)


def test_since_or_before_the_half_of_a_year_opens_the_period():
    assert read_dates("chips launched since the second half of 2021")[0] == ("2021-07-01", "9999-12-31")
    assert read_dates("rounds before the first quarter of 2025")[0] == ("0001-01-01", "2024-12-31")
    assert read_dates("until the second half of 2023")[0] == ("0001-01-01", "2023-12-31")


def test_own_making_is_the_organizations_filter_and_cards_are_chips(asker, epoch_store):
    """ "NVIDIA's own", "Meta 自研": what the organization made, which its filter is (was: a word not
    understood); 哪些卡 are chips, 出过 / 发了 their release (was: models, or a named query of deals)."""
    meta = _gold(
        epoch_store,
        "SELECT ?x WHERE { ?x aikg:manufacturer id:meta ; aikg:thermalDesignPower ?w } ORDER BY DESC(?w)",
    )
    body = asker.ask("Meta 自研芯片里功耗最高的是哪款？")
    assert not body["abstained"] and first(body) == meta[0]
    assert not asker.ask("Google's own largest model by parameters?")["abstained"]
    amd = _gold(
        epoch_store,
        "SELECT ?x WHERE { ?x aikg:manufacturer id:amd ; aikg:availableFrom ?d "
        'FILTER(STR(?d) >= "2023-10" && STR(?d) < "2024") }',
    )
    body = asker.ask("2023年第四季度 AMD 发了哪些卡？")
    assert amd and sorted(_rows(body)) == sorted(amd)
    old = _gold(
        epoch_store,
        "SELECT ?x WHERE { ?x aikg:manufacturer id:kunlunxin-baidu ; aikg:availableFrom ?d "
        'FILTER(STR(?d) < "2021") }',
    )
    assert old and sorted(_rows(asker.ask("百度昆仑芯 2021 年之前出过哪几款芯片"))) == sorted(old)


def test_which_generation_beside_newest_or_oldest_ranks_by_date(asker, epoch_store):
    """ "谷歌最早推出的 TPU 是哪一代": the oldest TPU (was: ranked by the seed documents' architecture
    generation, TPU v9 first, sure)."""
    tpus = _gold(
        epoch_store,
        "SELECT ?x WHERE { ?x aikg:manufacturer id:google ; aikg:availableFrom ?d } ORDER BY STR(?d)",
    )
    assert first(asker.ask("谷歌最早推出的 TPU 是哪一代？")) == tpus[0]
    assert first(asker.ask("谷歌最新发布的 TPU 是哪一代")) == tpus[-1]


def test_amounts_written_with_their_unit_are_thresholds(asker, epoch_store):
    """ "16GB" is an amount, not the "16GB" of a P100's name; "at FP8" beside chips asked for is their
    FP8 figure, not the thing named FP8 (both were: another answer, sure, or none)."""
    small = _gold(
        epoch_store,
        "SELECT ?x WHERE { ?x aikg:manufacturer id:google ; aikg:memoryPerChip ?m FILTER(?m < 16) }",
    )
    assert small and sorted(_rows(asker.ask("显存不到 16GB 的谷歌 TPU 有哪几款？"))) == sorted(small)
    fp8 = _gold(epoch_store, "SELECT DISTINCT ?x WHERE { ?x aikg:fp8Performance ?v FILTER(?v > 4e15) }")
    assert fp8 and set(_rows(asker.ask("Which chips exceed 4 PFLOP/s at FP8?"))) == set(fp8)


def test_chat_words_ask_nothing(asker):
    """ "mem", "u", "in the pipeline" are memory, you and planned (were: words not understood)."""
    for q in (
        "Which Intel accelerator has the highest mem bandwidth?",
        "newest cambricon chip u have?",
        "Largest planned cluster Amazon has in the pipeline?",
    ):
        assert asker.ask(q)["understood"]["sure"], q


def test_a_negated_comparator_is_the_bound_it_says(asker, epoch_store):
    """ "不超过 75 瓦", "no more than 16 GB": at most (was: 超过 / "more than" inside it, read as over,
    sure)."""
    body = asker.ask("功耗不超过 75 瓦的寒武纪芯片")
    assert body["understood"]["form"]["threshold"] == ["<=", 75.0]
    want = _gold(
        epoch_store,
        "SELECT ?x WHERE { ?x aikg:manufacturer id:cambricon ; aikg:thermalDesignPower ?w FILTER(?w <= 75) }",
    )
    assert want and sorted(_rows(body)) == sorted(want)
    assert asker.ask("chips with no more than 16 GB of memory")["understood"]["form"]["threshold"] == [
        "<=",
        16.0,
    ]
    assert asker.ask("显存不低于 192GB 的芯片")["understood"]["form"]["threshold"] == [">=", 192.0]


def test_how_many_a_ranking_shows_is_read_after_its_superlative(asker):
    """ "日本最大的两个现役集群", "功耗最低的三款", "which 3 chips": two, three rows (was: ten, or not
    sure)."""
    assert len(asker.ask("日本最大的两个现役集群")["answer"]["rows"]) == 2
    assert len(asker.ask("功耗最低的三款芯片")["answer"]["rows"]) == 3
    assert len(asker.ask("Which 3 chips have the lowest TDP?")["answer"]["rows"]) == 3


def test_an_amount_of_money_of_rounds_is_the_money_raised(asker, epoch_store):
    """ "funding rounds of at least $5 billion in 2025": the rounds' amount (was: the threshold held by no
    property, every round of 2025 listed, sure)."""
    body = asker.ask("funding rounds of at least $5 billion in 2025")
    want = _gold(
        epoch_store,
        "SELECT ?f WHERE { ?f a aikg:FundingRound ; aikg:amount ?a ; aikg:date ?d "
        'FILTER(?a >= 5e9 && STRSTARTS(STR(?d), "2025")) }',
    )
    assert want and sorted(set(_rows(body))) == sorted(want)


def test_events_of_a_period_are_the_named_query_of_what_happened(asker):
    """ "events from 2019 until 2024", "2024年12月有什么事件": the named query of what happened then, with
    the models released (was: the class of events alone, which holds none, sure)."""
    for q, period in (
        ("events from 2019 until 2024", ("2019-01-01", "2024-12-31")),
        ("2024年12月有什么事件", ("2024-12-01", "2024-12-31")),
    ):
        body = asker.ask(q)
        assert body["understood"]["query"] == "events-between", q
        assert (body["understood"]["parameters"]["from"], body["understood"]["parameters"]["to"]) == period


@pytest.mark.parametrize(
    ("q", "subject", "prop"),
    [
        ("Who made the Trainium2?", "amazon-trainium2", "manufacturer"),
        ("who made Claude 3 Opus?", "claude-3-opus", "developer"),
        ("TPU v5p 是谁家出的？", "google-tpu-v5p", "manufacturer"),
        ("Who runs MareNostrum 5?", "cluster-mare-nostrum-5", "operator"),
        (
            "Who powers Microsoft's Fairwater data center in Fayetteville?",
            "microsoft-fairwater-fayetteville-georgia",
            "energySupplier",
        ),
    ],
)
def test_who_made_runs_or_powers_a_thing_is_the_party_linked(asker, epoch_store, q, subject, prop):
    """ "Who made X" is its maker or developer, "who runs X" its operator, "who powers X" its energy
    supplier (never its power capacity): the party the data links, by value."""
    rows = epoch_store.query(PRE + f"SELECT ?v WHERE {{ id:{subject} aikg:{prop} ?v }}").rows
    want = {str(r[0].value) for r in rows}
    body = asker.ask(q)
    assert want and not body["abstained"]
    assert want <= {str(f.get("value")) for f in body["answer"]["facts"]}


@pytest.mark.parametrize(
    ("q", "role", "org"),
    [
        ("How many data centers get their power from Entergy?", "energySupplier", "entergy"),
        (
            "How many data centers does American Electric Power supply?",
            "energySupplier",
            "american-electric-power",
        ),
        ("Mortenson 承建了几个数据中心？", "builder", "mortenson"),
        ("How many data centers is OpenAI a tenant of?", "tenant", "openai"),
    ],
)
def test_data_centers_are_counted_by_the_role_the_question_names(asker, epoch_store, q, role, org):
    """An organization that supplies, builds or rents a site is counted in that role, not as its owner
    (which counted 0, sure)."""
    gold = values(
        epoch_store,
        f"SELECT (COUNT(DISTINCT ?d) AS ?n) WHERE {{ ?d a aikg:DataCenter ; aikg:{role} id:{org} }}",
    )
    body = asker.ask(q)
    assert not body["abstained"] and gold == {float(count_of(body))} and gold != {0.0}


@pytest.mark.parametrize(
    "q",
    [
        "how many models has Trane made",  # Trane makes chillers: no AI model links it as developer
        # the model Mistral 7B, which no cluster filter takes; Mistral AI has no cluster
        "How many clusters does Mistral have in China?",
    ],
)
def test_a_count_of_what_the_organization_named_has_none_of_says_it_does_not_know(asker, q):
    """A count where nothing of the class is linked to the organization named (or the name is read as a
    thing the count does not use) is not 0, nor every cluster in China: aikg does not know."""
    body = asker.ask(q)
    assert body["abstained"]


@pytest.mark.parametrize(
    ("q", "cls", "maker"),
    [
        ("How many chillers does Vertiv make?", "Chiller", "vertiv"),
        ("Carrier 有多少款冷水机组？", "Chiller", "carrier"),
        ("How many cooling tower models does Aggreko have?", "CoolingTower", "aggreko"),
    ],
)
def test_chillers_and_cooling_towers_are_counted_by_maker(asker, epoch_store, q, cls, maker):
    """Epoch's facility equipment by its maker: Vertiv's 14 chillers, not with its 2 cooling towers."""
    gold = values(
        epoch_store,
        f"SELECT (COUNT(DISTINCT ?x) AS ?n) WHERE {{ ?x a aikg:{cls} ; aikg:manufacturer id:{maker} }}",
    )
    body = asker.ask(q)
    assert not body["abstained"] and gold == {float(count_of(body))}


def test_equipment_is_ranked_and_filtered_by_cooling_capacity_in_kw(asker, epoch_store):
    """ "above 9,000 kW" of a chiller is 9,000 kW of cooling capacity (not 9,000,000 W of a chip's TDP),
    and the largest of a maker is ranked by it."""
    rows = epoch_store.query(
        PRE + "SELECT ?x WHERE { ?x a aikg:Chiller ; aikg:coolingCapacity ?v FILTER(?v > 9000) }"
    ).rows
    gold = {str(r[0].value) for r in rows}
    body = asker.ask("chillers with a cooling capacity above 9,000 kW")
    assert gold and {r["about"] for r in body["answer"]["rows"]} == gold
    (top,) = epoch_store.query(
        PRE + "SELECT ?x WHERE { ?x a aikg:CoolingTower ; aikg:manufacturer id:aggreko ; "
        "aikg:coolingCapacity ?v } ORDER BY DESC(?v) LIMIT 1"
    ).rows
    assert first(asker.ask("Which Aggreko cooling tower has the most cooling capacity?")) == str(top[0].value)


def test_a_decimal_amount_in_wan_yi_is_a_threshold_not_a_models_name(asker, epoch_store):
    """ "超过 1.6 万亿", "more than 1.6 trillion": 1.6e12 parameters, not the model Seed 1.6."""
    rows = epoch_store.query(
        PRE + "SELECT ?m WHERE { ?m a aikg:AIModel ; aikg:totalParameters ?v FILTER(?v > 1.6e12) }"
    ).rows
    gold = {str(r[0].value) for r in rows}
    for q in ("参数量超过 1.6 万亿的模型有哪些？", "which models have more than 1.6 trillion parameters?"):
        body = asker.ask(q)
        assert gold and {r["about"] for r in body["answer"]["rows"]} == gold, q


@pytest.mark.parametrize(
    ("q", "prop"),
    [
        ("Which chip released in 2023 has the highest TDP?", "thermalDesignPower"),
        ("2023年发布的芯片里，哪款显存最大", "memoryPerChip"),
    ],
)
def test_a_superlative_within_a_years_releases_ranks_by_the_property_asked(asker, epoch_store, q, prop):
    """The release word says what the year is of; the figure asked is ranked (the chips of the year were
    listed, the TDP asked not used)."""
    (top,) = epoch_store.query(
        PRE + f"SELECT ?x WHERE {{ ?x a aikg:Hardware ; aikg:{prop} ?v ; aikg:availableFrom ?d "
        'FILTER(STR(?d) >= "2023" && STR(?d) < "2024") } ORDER BY DESC(?v) LIMIT 1'
    ).rows
    assert first(asker.ask(q)) == str(top[0].value)


def test_two_sites_compared_by_their_class_are_the_data_centers(asker, epoch_store):
    """ "Prometheus 数据中心和 Project Rainier 数据中心": the data centers, not the cluster named Project
    Rainier (whose 350 was shown beside one data center's figure); a comparison with one side not linked
    (普罗米修斯) is not answered with the other side's figure."""
    gold = values(
        epoch_store,
        "SELECT ?v WHERE { VALUES ?d { id:meta-prometheus-new-albany-ohio "
        "id:anthropic-amazon-project-rainier-new-carlisle-indiana } ?d aikg:powerCapacity ?v }",
    )
    body = asker.ask("Meta 的 Prometheus 数据中心和 Project Rainier 数据中心，哪个功率更大？")
    assert len(gold) == 2 and numbers(body) == gold
    both = values(
        epoch_store,
        "SELECT ?v WHERE { VALUES ?d { id:google-new-albany-ohio id:meta-prometheus-new-albany-ohio } "
        "?d aikg:cost ?v }",
    )
    body = asker.ask("谷歌在新奥尔巴尼的数据中心和 Meta 的普罗米修斯，哪个造价更高？")
    assert len(both) == 2 and (body["abstained"] or numbers(body) == both)
    # a side no name links (阿特拉斯, a campus aikg does not hold): not the other side's cost alone
    assert asker.ask("谷歌在新奥尔巴尼的数据中心和 Meta 的阿特拉斯园区，哪个造价更高？")["abstained"]


@pytest.mark.parametrize(
    ("q", "country"),
    [
        ("How many Japanese clusters are there?", "Japan"),
        ("How many French clusters are listed?", "France"),  # not the clusters of the CEA ("French …")
        (
            "How many British clusters are in the data?",
            "United Kingdom of Great Britain and Northern Ireland",
        ),
    ],
)
def test_a_country_said_by_its_adjective_filters_the_clusters(asker, epoch_store, q, country):
    """ "Japanese clusters" are the clusters in Japan; "French" and "British" name no organization (the
    CEA, the University of British Columbia) when they say a country."""
    gold = values(
        epoch_store,
        f'SELECT (COUNT(DISTINCT ?x) AS ?n) WHERE {{ ?x a aikg:Deployment ; aikg:locationName "{country}" }}',
    )
    body = asker.ask(q)
    assert not body["abstained"] and body["understood"]["form"]["country"] == country
    assert not body["understood"]["form"]["organizations"]
    assert {int(g) for g in gold} <= every_counts(body) | {count_of(body)}


def test_runs_carried_out_on_a_chip_are_the_runs_that_used_it(asker, epoch_store):
    """ "carried out", "done", "conducted" on a chip restate its use ("carried" is no Carrier misspelt)."""
    gold = values(
        epoch_store,
        "SELECT (COUNT(DISTINCT ?r) AS ?n) WHERE { ?r a aikg:TrainingRun ; "
        "aikg:accelerator id:google-tpu-v4 }",
    )
    for q in (
        "How many training runs were carried out on TPU v4?",
        "How many training runs were done on TPU v4?",
    ):
        body = asker.ask(q)
        assert not body["abstained"] and gold == {float(count_of(body))}, q


def test_a_count_filtered_on_a_country_the_class_has_no_place_for_is_not_zero(asker):
    """Models have no location in aikg: "how many Chinese models …" is not 0, aikg does not know."""
    assert asker.ask("How many Chinese models have over 500 billion parameters?")["abstained"]


def test_a_follow_up_after_chat_words_keeps_the_maker_and_kind_of_the_question_before(asker, epoch_store):
    def gold(where: str) -> set[str]:
        return {r[0].value for r in epoch_store.query(PRE + f"SELECT DISTINCT ?x WHERE {{ {where} }}").rows}

    body = asker.ask("ok and over 300 W?", after="Which Huawei chips have a TDP above 200 W?")
    huawei = gold("?x aikg:manufacturer id:huawei ; aikg:thermalDesignPower ?v FILTER(?v > 300)")
    assert not body["abstained"] and huawei and {r["about"] for r in body["answer"]["rows"]} == huawei
    body = asker.ask("好的，那超过 2 TB/s 的呢", after="谷歌哪些 TPU 显存带宽超过 1 TB/s？")
    tpus = gold("?x a aikg:TPU ; aikg:manufacturer id:google ; aikg:memoryBandwidth ?v FILTER(?v > 2000)")
    assert not body["abstained"] and tpus and {r["about"] for r in body["answer"]["rows"]} == tpus
    assert body["understood"]["unknown"] == []


def test_a_follow_up_naming_only_a_period_after_a_question_not_composed_is_not_answered_alone(asker):
    # the question before is not composed (aikg holds no churn): "and in 2024" alone is not the events of
    # 2024; after a question about events it is
    body = asker.ask("and in 2024", after="What was Meta AI's churn rate in January 2025?")
    assert body["abstained"]
    body = asker.ask("and in 2024", after="events between 2019 and 2022")
    assert not body["abstained"] and body["understood"]["query"] == "events-between"


def test_two_rounds_compared_are_each_sides_own_round_by_its_letter_or_its_month(asker, epoch_store):
    def valuations(*rounds: str) -> set[float]:
        vs = " ".join(f"id:funding-round-{r}" for r in rounds)
        return values(
            epoch_store, f"SELECT ?v WHERE {{ VALUES ?r {{ {vs} }} ?r aikg:postMoneyValuation ?v }}"
        )

    # one company's two letters: both rounds, not the first letter's alone
    body = asker.ask("Which was valued higher, xAI's Series B or its Series C?")
    assert not body["abstained"]
    assert numbers(body) == valuations("xai-may-2024-24b-series-b", "xai-dec-2024-series-c")
    # each company's round of its own month: not the first month applied to both
    body = asker.ask("OpenAI 2024年10月那轮和 xAI 2024年5月那轮，哪个投后估值高？")
    assert not body["abstained"]
    assert numbers(body) == valuations("openai-oct-2024-157b", "xai-may-2024-24b-series-b")
    body = asker.ask("Anthropic's May 2021 round vs Mistral's June 2023 round: which raised more?")
    assert not body["abstained"] and body["understood"]["unknown"] == []
    assert numbers(body) == {124e6, 113e6}


def test_a_rounds_figure_named_beside_the_word_for_a_round_is_the_one_ranked(asker, epoch_store):
    # 融资 of 哪一轮融资 names the round; the valuation is what is ranked (was: the amount raised)
    body = asker.ask("xAI 哪一轮融资的投后估值最低？")
    gold = (
        epoch_store.query(
            PRE
            + "SELECT ?r WHERE { ?r aikg:investee id:xai ; aikg:postMoneyValuation ?v } ORDER BY ?v LIMIT 1"
        )
        .rows[0][0]
        .value
    )
    assert not body["abstained"] and first(body) == gold


def test_an_organizations_gpu_clusters_are_the_clusters_it_runs_not_those_of_chips_it_makes(
    asker, epoch_store
):
    every = (
        epoch_store.query(
            PRE + "SELECT (COUNT(DISTINCT ?c) AS ?n) WHERE { ?c a aikg:Deployment ;"
            " aikg:operator/aikg:parentOrganization* id:meta }"
        )
        .rows[0][0]
        .value
    )
    for q in ("Count of Meta's GPU clusters?", "Meta 的 GPU 集群有几个？"):
        body = asker.ask(q)
        assert not body["abstained"] and int(every) in every_counts(body), q
        assert "made by" not in body["understood"]["description"], q
        assert "芯片来自" not in body["understood"]["description"], q
    # the twin keeps the maker: clusters that use Huawei's chips
    body = asker.ask("How many GPU clusters use Huawei chips?")
    assert "made by Huawei" in body["understood"]["description"]


def test_those_few_before_a_superlative_rank_them_and_count_nothing(asker, epoch_store):
    body = asker.ask("亚马逊那几个数据中心里，哪个功率最大？")
    gold = (
        epoch_store.query(
            PRE + "SELECT ?x WHERE { ?x a aikg:DataCenter ; aikg:operator id:amazon ; aikg:powerCapacity ?p }"
            " ORDER BY DESC(?p) LIMIT 1"
        )
        .rows[0][0]
        .value
    )
    assert not body["abstained"] and body["understood"]["form"]["op"] == "top" and first(body) == gold


def test_an_organizations_models_and_sites_counted_or_listed_are_its_divisions_too(asker, epoch_store):
    body = asker.ask("Which Microsoft models were released in 2023?")
    gold = {
        r[0].value
        for r in epoch_store.query(
            PRE + "SELECT DISTINCT ?m WHERE { ?m a aikg:AIModel ; aikg:developer/aikg:parentOrganization*"
            ' id:microsoft ; aikg:releaseDate ?d FILTER(STRSTARTS(STR(?d), "2023")) }'
        ).rows
    }
    assert ID + "llava" in gold  # Microsoft Research's
    assert not body["abstained"] and {r["about"] for r in body["answer"]["rows"]} == gold
    # Google's data centers are Google Cloud's; the count of Google's own (none) is said beside
    body = asker.ask("How many data centers does Google own?")
    assert not body["abstained"] and count_of(body) == 3
    assert 0 in {c["count"] for c in body["answer"]["every_row"]["counts"]}


def test_a_threshold_written_with_the_letter_of_its_size_is_no_models_name(asker, epoch_store):
    # "more than 100B parameters": 1e11, not PLaMo-100B's parameters
    body = asker.ask("Which Meta models have more than 100B parameters?")
    gold = {
        r[0].value
        for r in epoch_store.query(
            PRE + "SELECT DISTINCT ?m WHERE { ?m a aikg:AIModel ; aikg:totalParameters ?p FILTER(?p > 1e11) ."
            " ?m aikg:developer/aikg:parentOrganization* id:meta }"
        ).rows
    }
    assert not body["abstained"] and gold and {r["about"] for r in body["answer"]["rows"]} == gold
    assert body["understood"]["form"]["threshold"] == [">", 1e11]
    # a name holding the number without a comparator before it is still the model
    assert asker.ask("How many parameters does PLaMo-100B have?")["answer"]["kind"] == "facts"


def test_cantonese_which_ones_and_is_it_are_read_as_mandarin():
    """邊幾款 / 邊幾輪 (which ones: a list), 邊輪 (which round) and 係咪 (is it) read as 哪几款 / 哪几轮 /
    哪轮 / 是不是, so a Cantonese list is a list (was: 边 left over, or 几款 read as a count)."""
    assert fold("AMD 嘅晶片邊幾款係 2023 年出嘅？") == fold("AMD 的芯片哪几款是 2023 年出的？")
    assert fold("xAI 喺 2025 年做咗邊幾輪融資") == fold("xAI 在 2025 年做了哪几轮融资")
    assert fold("邊輪估值高啲") == fold("哪轮估值高些")
    assert fold("MI300X 係咪比 B200 顯存大") == fold("MI300X 是不是比 B200 显存大")
    assert fold("在旁边几个机房") == "在旁边几个机房"  # 边 of 旁边 (nearby) is no Cantonese "which"
    assert fold("旁边几个机房嘅集群") == fold("旁边几个机房的集群")


@pytest.mark.parametrize(
    ("q", "gold"),
    [
        ("B200 的显存是不是超过 150GB？", "SELECT ?v WHERE { id:nvidia-b200 aikg:memoryPerChip ?v }"),
        (
            "MI300X 嘅功耗有冇超過 700W？",
            "SELECT ?v WHERE { id:amd-instinct-mi300x aikg:thermalDesignPower ?v }",
        ),
        (
            "DeepSeek-V3 的参数量是否超过 5000 亿？",
            "SELECT ?v WHERE { id:deepseek-v3 aikg:totalParameters ?v }",
        ),
        (
            "Does the MI300X have more than 150 GB of memory?",
            "SELECT ?v WHERE { id:amd-instinct-mi300x aikg:memoryPerChip ?v }",
        ),
        (
            "Has DeepSeek-V3 got over 600 billion parameters?",
            "SELECT ?v WHERE { id:deepseek-v3 aikg:totalParameters ?v }",
        ),
    ],
)
def test_a_yes_or_no_over_a_bound_is_answered_with_the_things_own_figure(asker, epoch_store, q, gold):
    """A yes or no asked of one thing's figure against a bound is that thing's figure: was every chip or
    model over the bound, the thing named dropped (every 288 GB chip for the MI300X), sure."""
    body = asker.ask(q)
    assert not body["abstained"] and body["answer"]["kind"] == "facts", q
    assert float(body["answer"]["facts"][0]["value"]) in values(epoch_store, gold), q
    assert body["understood"]["form"]["threshold"] is None


def test_a_yes_or_no_over_what_an_organization_has_is_the_total_it_has(asker):
    """ "Meta 有超过 10 万张 H100 吗" is what "Meta 有多少张 H100" answers (was: an MLPerf run's 11,616
    H100)."""
    asked = asker.ask("Meta 有超过 10 万张 H100 吗？")
    plain = asker.ask("Meta 有多少张 H100？")
    assert not asked["abstained"] and asked["answer"]["summary"] == plain["answer"]["summary"]
    # a list asked for keeps its bound: clusters over 100,000 chips, each
    listed = asker.ask("有超过 10 万张 H100 的集群吗？")
    assert listed["understood"]["form"]["threshold"] is not None


RDFS = "PREFIX rdfs: <http://www.w3.org/2000/01/rdf-schema#>\n"
SERIES_GOLD = (
    RDFS + "SELECT ?m WHERE {{ ?m a aikg:AIModel ; rdfs:label ?l ; aikg:totalParameters ?p "
    'FILTER(STRSTARTS(LCASE(STR(?l)), "{word}")) }} ORDER BY DESC(?p) LIMIT 1'
)


def test_a_series_of_models_keeps_to_the_models_its_word_names(asker, epoch_store):
    """ "Qwen 系列", "which Qwen model", "Phi 系列", "EXAONE 系列": the models whose name begins with the word
    (was: "qwen" and 系列 not understood, or "Llama" linked and dropped: every model ranked)."""
    top = {r[0].value for r in epoch_store.query(PRE + SERIES_GOLD.format(word="qwen")).rows}
    for q in ("Qwen 系列里哪个模型参数最多？", "Which Qwen model has the most parameters?"):
        body = asker.ask(q)
        assert not body["abstained"] and body["understood"]["form"].get("series") == "qwen", q
        assert first(body) in top, q
    phi = values(
        epoch_store,
        RDFS + "SELECT (COUNT(DISTINCT ?m) AS ?n) WHERE { ?m a aikg:AIModel ; rdfs:label ?l "
        'FILTER(STRSTARTS(LCASE(STR(?l)), "phi")) }',
    )
    body = asker.ask("微軟 Phi 系列有幾多個模型？")  # Phi-4 is Microsoft Research's: counted too
    assert not body["abstained"] and {float(count_of(body))} == phi
    # LG AI Research, EXAONE's developer, is linked to no parent: a division named by LG's name and more
    body = asker.ask("LG 的 EXAONE 系列里，哪个模型训练算力最大？")
    assert (
        not body["abstained"]
        and "exaone" in body["answer"]["rows"][0]["cells"]["trainedModel"]["label"].lower()
    )
    # a series word said as no series, or beside a fact, asks what the answer does not keep to
    assert asker.ask("H100 系列里哪款功耗最高")["abstained"]


@pytest.mark.parametrize(
    ("q", "gold"),
    [
        ("谷歌自己研发的芯片有几款？", "?c a aikg:Accelerator ; aikg:manufacturer id:google"),
        ("Meta 自己开发了多少款芯片？", "?c a aikg:Accelerator ; aikg:manufacturer id:meta"),
        ("亚马逊自己开发的模型，数据里有几个？", "?c a aikg:AIModel ; aikg:developer id:amazon"),
        ("光 OpenAI 就发布了多少个模型？", "?c a aikg:AIModel ; aikg:developer id:openai"),
    ],
)
def test_what_a_company_developed_itself_is_its_own_filter(asker, epoch_store, q, gold):
    """自己开发, 自己研发 beside an organization's models or chips are its filter, as 自研 is; 光 X 就 ("X
    alone") is the filter X already is (was: 自己, 光, 就 not understood)."""
    body = asker.ask(q)
    assert not body["abstained"], q
    assert {float(count_of(body))} == values(
        epoch_store, f"SELECT (COUNT(DISTINCT ?c) AS ?n) WHERE {{ {gold} }}"
    )


def test_within_a_bound_in_operation_and_converted_to_h100s(asker, epoch_store):
    """以内 is at most; 運作中 is existing; 折合多少张 H100 asks the H100-equivalents; 投入运营 with a year is
    the clusters' first operational date (not their operator, 运营, nor their status now)."""
    body = asker.ask("功耗 100 瓦以内的英伟达芯片有哪些？")
    assert not body["abstained"] and body["understood"]["form"]["threshold"] == ["<=", 100.0]
    body = asker.ask("日本運作中嘅 GPU 叢集邊個規模最大？")
    assert not body["abstained"] and body["understood"]["form"]["status"] == "Existing"
    body = asker.ask("xAI Colossus Memphis Phase 2 折合多少张 H100？")
    assert body["understood"]["form"]["property"] == "h100Equivalents"
    gold = values(
        epoch_store,
        "SELECT (COUNT(DISTINCT ?c) AS ?n) WHERE { ?c a aikg:Deployment ; aikg:operator id:microsoft ; "
        "aikg:date ?d FILTER(YEAR(?d) = 2024) }",
    )
    for q in (
        "微软有哪些集群是 2024 年投入运营的？",
        "Which Microsoft clusters went into operation in 2024?",
    ):
        body = asker.ask(q)
        assert not body["abstained"] and body["understood"]["form"]["status"] is None, q
        assert {float(len(body["answer"]["rows"]))} == gold, q


def test_organizations_are_ranked_by_their_founding_date(asker, epoch_store):
    """ "哪家成立得最早", "which company was founded most recently": the organizations with a founding date,
    earliest or latest first (was: nothing composed)."""
    rows = epoch_store.query(PRE + "SELECT ?o ?d WHERE { ?o aikg:foundedIn ?d }").rows
    ordered = [r[0].value for r in sorted(rows, key=lambda r: str(r[1].value))]
    assert first(asker.ask("邊間公司成立得最早？")) == ordered[0]
    assert first(asker.ask("Which company in the data was founded most recently?")) == ordered[-1]


def test_a_chip_beside_a_list_of_clusters_or_runs_filters_them(asker, epoch_store):
    """ "哪些集群用的是 MI300X", "用了超过 5000 张 A100 的训练任务有哪些", "使用 H100 的集群": the clusters or
    runs that use the chip (was: a named query of models, every run over the bound, or a cluster whose name
    holds the chip, Reka H100 Rental, sure)."""
    gold = {
        r[0].value
        for r in epoch_store.query(
            PRE + "SELECT DISTINCT ?c WHERE { ?c a aikg:Deployment ; aikg:accelerator ?a . "
            "?a aikg:variantOf? id:amd-instinct-mi300x }"
        ).rows
    }
    body = asker.ask("哪些集群用的是 MI300X？")
    assert not body["abstained"] and {r["about"] for r in body["answer"]["rows"]} == gold
    runs = {
        r[0].value
        for r in epoch_store.query(
            PRE + "SELECT DISTINCT ?r WHERE { ?r a aikg:TrainingRun ; aikg:accelerator ?a ; "
            "aikg:acceleratorCount ?n . ?a aikg:variantOf? id:nvidia-a100 FILTER(?n > 5000) }"
        ).rows
    }
    body = asker.ask("用了超过 5000 张 A100 的训练任务有哪些？")
    assert not body["abstained"] and {r["about"] for r in body["answer"]["rows"]} == runs
    body = asker.ask("使用 H100 的集群有几个")
    assert body["understood"]["form"]["entities"] == []


def test_which_came_out_earlier_in_cantonese_compares_the_dates(asker):
    """ "A100 同 V100 邊個早啲出", 哪个先发布: the two chips' release dates (was: 早, 出 not understood)."""
    for q in ("A100 同 V100 邊個早啲出？", "A100 和 V100 哪个先发布？"):
        body = asker.ask(q)
        assert not body["abstained"] and body["understood"]["form"]["property"] == "availableFrom", q
        assert len(body["answer"]["rows"]) == 2, q


def test_the_newest_generation_is_the_newest_and_a_figure_of_it_is_not_a_list(asker, epoch_store):
    """新一代 is the newest (a ranking by date), no foundry word; "AMD 最新芯片的显存" asks the newest one's
    figure, which no one form says: not sure, never every AMD chip listed."""
    newest = (
        epoch_store.query(
            PRE + "SELECT ?c WHERE { ?c a aikg:Accelerator ; aikg:manufacturer id:huawei ; "
            "aikg:availableFrom ?d } ORDER BY DESC(?d) LIMIT 1"
        )
        .rows[0][0]
        .value
    )
    assert first(asker.ask("华为新一代昇腾芯片是哪款？")) == newest
    assert asker.ask("AMD 最新芯片的显存是多少")["abstained"]


def test_a_figure_with_no_bound_beside_a_list_is_not_applied_so_not_sure(asker):
    """ "阿里巴巴有 1 万亿参数的模型吗": a list of Alibaba's models does not apply the figure (was: every one
    listed, sure)."""
    for q in ("阿里巴巴有冇 1 万亿参数嘅模型？", "Which Alibaba models have 1 trillion parameters?"):
        body = asker.ask(q)
        assert body["abstained"] and body["answer"]["kind"] == "unsure", q


def test_a_product_named_in_a_follow_up_is_that_products_whoever_makes_it(asker, epoch_store):
    """ "那 Grok 呢" after DeepSeek's daily users: Grok's figure, not DeepSeek's filtered by Grok's name."""
    body = asker.ask("那 Grok 呢", after="DeepSeek 2025年3月的日活有多少")
    assert not body["abstained"] and not body["understood"]["form"]["organizations"]
    assert body["answer"]["rows"] and all(
        "grok" in str(r["cells"]).casefold() or "xai" in str(r["cells"]).casefold()
        for r in body["answer"]["rows"]
    )


def test_a_rating_named_with_its_chinese_word_filters_and_asks_no_source(asker, epoch_store):
    """ "可信度为 Unlikely 的集群有多少个": the clusters rated so (可信度 is the rating filtered on here,
    not a provenance question: was nothing composed)."""
    body = asker.ask("可信度为 Unlikely 的集群有多少个？")
    assert not body["abstained"]
    gold = values(
        epoch_store,
        'SELECT (COUNT(DISTINCT ?x) AS ?n) WHERE { ?x a aikg:Deployment ; aikg:sourceConfidence "Unlikely" }',
    )
    assert {int(g) for g in gold} <= every_counts(body) | {count_of(body)}


def test_an_edition_named_by_a_word_of_the_things_label_asks_nothing_more(asker):
    """ "沐曦 MXC500（OAM 版）": OAM is a word of the MetaX MXC500 (OAM)'s label and 版 its edition (was: oam,
    版 not understood); "A100（80GB 版）" names an edition the linked A100 is not: still not sure."""
    body = asker.ask("沐曦 MXC500（OAM 版）同壁仞 BR100，邊個記憶體頻寬高啲？")
    assert not body["abstained"] and len(body["answer"]["rows"]) == 2
    assert asker.ask("A100（80GB 版）的显存")["abstained"]


# -- fixer 44g1 (twelfth session): a part of the question the answer did not use ----------------------


def test_an_organization_written_by_its_initials_is_that_organization(asker, epoch_store):
    from aikg.ask.acronyms import initials, with_acronyms

    assert {"doe"} <= initials("US Department of Energy")
    assert "nudt" in initials("National University of Defense Technology")
    assert initials("Google DeepMind") == set()  # two letters name too many things
    # only a word written in capitals is an acronym: the word "doe" is no department
    table = asker._acronyms(asker.search())
    assert with_acronyms("how many does the doe have", "how many does the doe have", [], table) == []
    doe = counted_clusters("aikg:operator/aikg:parentOrganization? id:us-department-of-energy")
    gold = int(next(iter(values(epoch_store, f"SELECT (COUNT(DISTINCT ?x) AS ?n) WHERE {{ {doe} }}"))))
    for q in ("How many clusters does the DOE operate?", "美国能源部运营几个集群？"):
        a = asker.ask(q)
        assert not a["abstained"], q
        assert count_of(a) == gold and 17 in every_counts(a), q  # gpu_clusters.csv: 17 rows, Owner DOE
    a = asker.ask("How many chips has NUDT made?")
    assert not a["abstained"] and count_of(a) == 2  # ml_hardware.csv: MT-3000 and MT-2000
    a = asker.ask("Which has more memory, NUDT's MT-3000 or NVIDIA's A100?")
    assert not a["abstained"] and {128.0, 40.0} <= numbers(a)


def test_a_count_of_two_organizations_clusters_counts_them_without_failing(asker):
    # "the Department of Energy" read as it and Entergy: the count of its own rows was read from the
    # organization column (ValueError) — the count is answered, grouped per organization
    a = asker.ask("How many clusters does the Department of Energy have?")
    assert a["answer"]["kind"] in ("rows", "unsure")


@pytest.mark.parametrize(
    ("q", "word"),
    [
        ("How many models were trained on Tinker?", "tinker"),
        ("Tinker 上跑得最久的训练任务是哪个？", "tinker"),
        ("Which chip has the most memory in the GB200 NVL72?", "gb200 nvl72"),
        ("Which model trained at Stargate Abilene has the most parameters?", "stargate abilene"),
        ("孟菲斯的 Colossus 2 园区里有几个集群？", "colossus 2"),
    ],
)
def test_a_thing_named_that_a_count_or_ranking_does_not_use_makes_it_unsure(asker, q, word):
    # was: every model counted (1,305), every chip or run ranked, every cluster counted (522), sure
    a = asker.ask(q)
    assert a["abstained"] and a["answer"]["kind"] == "unsure", q
    assert any(word in w for w in a["understood"]["unknown"]), a["understood"]["unknown"]


def test_a_thing_a_count_uses_is_still_answered(asker, epoch_store):
    gold = values(
        epoch_store,
        "SELECT (COUNT(DISTINCT ?r) AS ?n) WHERE { ?r a aikg:TrainingRun ; aikg:accelerator ?c ;"
        " aikg:trainedModel ?m . id:gb200-nvl72 aikg:usesAccelerator ?c }",  # runs on the rack's chip
    )
    a = asker.ask("How many training runs used the GB200 NVL72?")
    assert not a["abstained"] and count_of(a) in {int(g) for g in gold}


@pytest.mark.parametrize(
    ("q", "sparql"),
    [
        (
            "xAI's Colossus Memphis Phase 3 power?",
            "id:cluster-xai-colossus-memphis-phase-3 aikg:powerCapacity ?v",
        ),
        ("NVIDIA's A100 TDP?", "id:nvidia-a100 aikg:thermalDesignPower ?v"),
        ("英伟达的 A100 功耗是多少？", "id:nvidia-a100 aikg:thermalDesignPower ?v"),
        ("英伟达的 A100 显存带宽是多少？", "id:nvidia-a100 aikg:memoryBandwidth ?v"),
    ],
)
def test_an_organization_before_its_own_thing_says_whose_it_is(asker, epoch_store, q, sparql):
    # was: the figures of the nodes linking both (Colossus Phase 2's 280 MW, the A100's variants), sure
    gold = values(epoch_store, f"SELECT ?v WHERE {{ {sparql} }}")
    a = asker.ask(q)
    assert not a["abstained"] and a["answer"]["kind"] == "facts", q
    assert float(a["answer"]["facts"][0]["value"]) in gold, q


def test_two_organizations_or_a_thing_and_another_organization_are_still_joined(asker):
    a = asker.ask("How much is NVIDIA investing in SB Energy?")
    assert a["understood"]["form"]["op"] == "joint"


@pytest.mark.parametrize(
    "q",
    [
        "特斯拉同甲骨文，邊個嘅現役集群加埋H100當量多啲？",  # Cantonese 加埋: 加起来
        "Tesla or Oracle: whose existing clusters add up to more H100-equivalents?",
        "Tesla or Oracle: whose existing clusters total more H100-equivalents?",
    ],
)
def test_what_two_organizations_clusters_add_up_to_is_each_ones_total(asker, epoch_store, q):
    # was: 加埋 and "add" not understood (unsure). The status named ("existing") is the total's filter, as
    # one organization's total of a status is: every rating (Tesla's Unlikely "earnings call claim" of
    # 35,000 H100e too, 99,144; tests/data/README.md's defaults, xb002), Epoch's superseded and duplicate
    # rows left out
    want = set()
    for org in ("tesla", "oracle"):
        want |= values(
            epoch_store,
            f"SELECT (SUM(?h) AS ?t) WHERE {{ ?c aikg:operator id:{org} ; "
            f'aikg:operationalStatus "Existing" ; aikg:h100Equivalents ?h MINUS {{ '
            f"?c aikg:supersededBy|aikg:possibleDuplicateOf ?o2 . ?o2 aikg:operator id:{org} ; "
            f'aikg:operationalStatus "Existing" }} }}',
        )
    want = {round(v, 3) for v in want}
    a = asker.ask(q)
    assert not a["abstained"], q
    assert want and want <= {round(n, 3) for n in numbers(a)} | numbers(a), (q, numbers(a), want)


def test_cantonese_inside_is_mandarin_inside(asker, epoch_store):
    # 資料入面 (in the data): was 入面 (or 面 of 里面) not understood
    want = values(
        epoch_store,
        "SELECT (COUNT(DISTINCT ?x) AS ?n) WHERE { ?x a aikg:Accelerator ; aikg:manufacturer id:cambricon }",
    )
    for q in ("資料入面寒武紀嘅晶片有幾多款？", "数据里面寒武纪的芯片有多少款？"):
        a = asker.ask(q)
        assert not a["abstained"] and count_of(a) in {int(w) for w in want}, q


@pytest.mark.parametrize(
    ("q", "sparql"),
    [
        (
            "What is the most compute-heavy model Google DeepMind has trained?",
            "SELECT ?r WHERE { ?m aikg:developer id:google-deepmind . ?r aikg:trainedModel ?m ;"
            ' aikg:trainingCompute ?c ; aikg:sourceConfidence ?cf FILTER(?cf IN ("Confident", "Likely")) }'
            " ORDER BY DESC(?c) LIMIT 1",
        ),
        (
            "Which Intel chip has the highest tensor FP16/BF16 throughput?",
            "SELECT ?x WHERE { ?x a aikg:Accelerator ; aikg:manufacturer id:intel ;"
            " aikg:tensorFp16Performance ?v } ORDER BY DESC(?v) LIMIT 1",
        ),
        (
            "Which Huawei chip has the most on-board memory?",
            "SELECT ?x WHERE { ?x a aikg:Accelerator ; aikg:manufacturer id:huawei ; aikg:memoryPerChip ?v }"
            " ORDER BY DESC(?v) LIMIT 1",
        ),
    ],
)
def test_a_word_that_restates_the_property_ranked_asks_nothing_more(asker, epoch_store, q, sparql):
    # "compute-heavy", "throughput", "on-board": was a word not understood, so not sure
    want = {r[0].value for r in epoch_store.query(PRE + sparql).rows}
    a = asker.ask(q)
    assert not a["abstained"], q
    assert first(a) in want, (q, first(a), want)


@pytest.mark.parametrize(
    ("q", "place", "year"),
    [
        ("Which clusters in Germany went operational in 2023?", '"Germany"', 2023),
        ("2023 年日本启用了哪些集群？", '"Japan"', 2023),
    ],
)
def test_clusters_that_went_operational_in_a_year_are_every_one_of_that_year(
    asker, epoch_store, q, place, year
):
    # was: "went" not understood, and "operational" read as the status now (existing only)
    gold = {
        r[0].value
        for r in epoch_store.query(
            PRE + f"SELECT DISTINCT ?c WHERE {{ ?c a aikg:Deployment ; aikg:locationName {place} ;"
            f" aikg:date ?d FILTER(YEAR(?d) = {year}) }}"
        ).rows
    }
    a = asker.ask(q)
    assert not a["abstained"] and gold and {r["about"] for r in a["answer"]["rows"]} == gold, q


@pytest.mark.parametrize(
    "q",
    [
        "How many chips are in Google's TPU 12 supercomputer?",
        "谷歌 TPU 12 超算有多少芯片？",
        "What's the power of AWS's Trainium 5 cluster?",
        "昇腾 5 超算的 H100 当量是多少？",
    ],
)
def test_a_chip_line_with_a_generation_no_name_covers_is_not_answered(asker, q):
    # was: every Google TPU cluster counted, Amazon's clusters listed by power — the number dropped
    a = asker.ask(q)
    assert a["abstained"] and a["answer"]["kind"] == "none", q


def test_a_generation_the_line_has_is_still_read(asker, epoch_store):
    gold = values(epoch_store, "SELECT ?v WHERE { id:amazon-trainium2 aikg:thermalDesignPower ?v }")
    a = asker.ask("What's the TDP of Trainium 2?")
    assert not a["abstained"] and float(a["answer"]["facts"][0]["value"]) in gold
    from aikg.ask.lines import unlinked_generation

    assert unlinked_generation("the tpu 9 supercomputer", ["tpu"], []) == "tpu 9"
    assert unlinked_generation("the tpu 9 supercomputer", ["tpu"], [(4, 9)]) is None  # linked with it
    assert unlinked_generation("4096 tpu chips", ["tpu"], []) is None
    assert unlinked_generation("tpu 2 张", ["tpu"], []) is None  # a count, not a generation


def test_a_clusters_power_asked_with_a_chips_words_is_its_capacity(asker, epoch_store):
    # was: the clusters' TDP, which no cluster has ("I don't know")
    want = values(
        epoch_store,
        "SELECT ?v WHERE { VALUES ?c { id:cluster-meta-100k id:cluster-tesla-cortex-phase-1 }"
        " ?c aikg:powerCapacity ?v }",
    )
    a = asker.ask("Which draws more power, Meta 100k or Tesla Cortex Phase 1?")
    assert not a["abstained"] and a["understood"]["form"]["property"] == "powerCapacity"
    assert want and want <= numbers(a)
    a = asker.ask("Which draws more power, H100 SXM or MI300X?")  # chips: their TDP
    assert a["understood"]["form"]["property"] == "thermalDesignPower"


def test_usage_figures_named_by_user_before_the_figure_are_active_users(asker, epoch_store):
    want = values(
        epoch_store,
        'SELECT ?v WHERE { ?f a aikg:UsageFigure ; aikg:product "ChatGPT" ; aikg:activeUsersPeriod "Weekly" ;'
        " aikg:date ?d ; aikg:activeUsers ?v FILTER(YEAR(?d) = 2025) }",
    )
    a = asker.ask("ChatGPT weekly user numbers reported in 2025?")
    assert not a["abstained"] and want and want <= numbers(a)


@pytest.mark.parametrize(
    ("q", "chip", "bound"),
    [
        ("Which training runs used more than 2,000 H800s?", "id:h800", "?n > 2000"),
        ("Which training runs used fewer than 100 TPU v4s?", "id:google-tpu-v4", "?n < 100"),
    ],
)
def test_chips_counted_in_the_plural_bound_the_runs_that_used_them(asker, epoch_store, q, chip, bound):
    # was: the bound read with no property, so no query applied it (every H800 run listed, sure), or the
    # plural ("v4s") not read as the chip
    gold = {
        r[0].value
        for r in epoch_store.query(
            PRE + "SELECT DISTINCT ?r WHERE { ?r a aikg:TrainingRun ; aikg:accelerator ?a ;"
            f" aikg:acceleratorCount ?n . ?a aikg:variantOf? {chip} FILTER({bound}) }}"
        ).rows
    }
    a = asker.ask(q)
    assert not a["abstained"] and gold and {r["about"] for r in a["answer"]["rows"]} == gold, q


@pytest.mark.parametrize(
    "q",
    [
        "B200 or MI355X, which has more memory bandwidth? asking for a friend",
        "how many clusters r there in japan",
        "ChatGPT app weekly users reported in 2025?",
    ],
)
def test_chat_words_and_a_products_app_ask_nothing_more(asker, q):
    # was: "friend" (after "for"), "r" and "app" taken for words of the domain, so not sure
    a = asker.ask(q)
    assert not a["abstained"] and not a["understood"]["unknown"], (q, a["understood"]["unknown"])


_RANKED_CLUSTERS = (
    "SELECT ?c WHERE {{ ?c a aikg:Deployment ; aikg:operator id:{org} ; aikg:{prop} ?v ; "
    'aikg:operationalStatus "Existing" ; aikg:datasetConfidence ?cf . '
    "FILTER(?cf IN (aikg:Confirmed, aikg:Likely)) }} ORDER BY {order}(?v)"
)


def test_a_follow_up_asking_of_those_keeps_the_things_before(asker, epoch_store):
    """ "which of those is the biggest by H100e?" after Samsung's clusters counted, 其中功耗最低的 after
    Kunlunxin's chips above 16 GB, 佢哋邊個耗電最少 after SoftBank's clusters: the biggest or least of
    those, not of every cluster or chip (was: every existing cluster ranked, sure)."""
    cases = (
        (
            "which of those is the biggest by H100e?",
            "How many clusters does Samsung operate?",
            _RANKED_CLUSTERS.format(org="samsung", prop="h100Equivalents", order="DESC"),
        ),
        (
            "佢哋邊個耗電最少？",
            "軟銀有幾多個集群？",
            _RANKED_CLUSTERS.format(org="softbank", prop="powerCapacity", order="ASC"),
        ),
        (
            "其中功耗最低的是哪款？",
            "显存超过 16GB 的昆仑芯芯片有哪些？",
            "SELECT ?h WHERE { ?h a aikg:Hardware ; aikg:manufacturer id:kunlunxin-baidu ; "
            "aikg:memoryPerChip ?m ; aikg:thermalDesignPower ?v . FILTER(?m > 16) } ORDER BY ASC(?v)",
        ),
        (
            "其中最大的是哪个？",
            "沙特阿美有几个集群？",
            _RANKED_CLUSTERS.format(org="saudi-aramco", prop="h100Equivalents", order="DESC"),
        ),
    )
    for q, after, sparql in cases:
        body = asker.ask(q, after=after)
        assert not body["abstained"] and first(body) == _gold(epoch_store, sparql)[0], (q, body["understood"])
    # the same words after things of another class keep nothing: not sure, not every chip ranked
    body = asker.ask("which of them has the highest TDP?", after="Which data centers does Google operate?")
    assert body["abstained"] and body["answer"]["kind"] == "unsure"


def test_a_follow_up_counts_what_a_list_listed_and_lists_what_a_count_counted(asker, epoch_store):
    body = asker.ask(
        "how many of those are there?", after="Which Huawei chips have more than 60 GB of memory?"
    )
    gold = _gold(
        epoch_store,
        "SELECT (COUNT(DISTINCT ?h) AS ?n) WHERE { ?h a aikg:Hardware ; aikg:manufacturer id:huawei ; "
        "aikg:memoryPerChip ?m . FILTER(?m > 60) }",
    )
    assert not body["abstained"] and count_of(body) == int(gold[0])
    body = asker.ask("分别是哪几个？", after="月之暗面 2025 年发布了几个模型？")
    gold = _gold(
        epoch_store,
        "SELECT ?m WHERE { ?m a aikg:AIModel ; aikg:developer id:moonshot ; aikg:releaseDate ?d . "
        "FILTER(YEAR(?d) = 2025) }",
    )
    assert not body["abstained"] and sorted(_rows(body)) == sorted(gold)
    # clusters listed, then counted as a count of clusters is: the totals' defaults, every row beside
    body = asker.ask("how many of those are there?", after="Which clusters does Yandex operate?")
    every = _gold(
        epoch_store,
        "SELECT (COUNT(DISTINCT ?c) AS ?n) WHERE { ?c a aikg:Deployment ; aikg:operator id:yandex }",
    )
    assert not body["abstained"] and int(every[0]) in every_counts(body) and count_of(body) < int(every[0])
    body = asker.ask("how many of those came out in 2024?", after="Which models did Mistral AI release?")
    gold = _gold(
        epoch_store,
        "SELECT (COUNT(DISTINCT ?m) AS ?n) WHERE { ?m a aikg:AIModel ; aikg:developer id:mistral-ai ; "
        "aikg:releaseDate ?d . FILTER(YEAR(?d) = 2024) }",
    )
    assert not body["abstained"] and count_of(body) == int(gold[0])


def test_a_month_named_alone_in_a_follow_up_is_of_the_year_before(asker, epoch_store):
    body = asker.ask("and in september?", after="ChatGPT weekly active users in March 2024?")
    assert not body["abstained"] and numbers(body) & values(
        epoch_store,
        "SELECT ?v WHERE { ?f a aikg:UsageFigure ; aikg:product ?p ; aikg:activeUsers ?v ; aikg:date ?d . "
        'FILTER(STR(?p) = "ChatGPT" && STRSTARTS(STR(?d), "2024-09")) }',
    )
    assert body["understood"]["form"]["dates"] == ["2024-09-01", "2024-09-30"]
    body = asker.ask("那九月呢？", after="OpenAI 2024年6月的年化收入是多少？")
    assert not body["abstained"] and body["understood"]["form"]["dates"] == ["2024-09-01", "2024-09-30"]


def test_a_follow_up_naming_another_round_or_an_organization_drops_what_named_the_one_before(
    asker, epoch_store
):
    """ "那D轮呢" after Anthropic's C round of May 2023: the D round, whatever its month (was: nothing in
    May 2023); "那 Meta AI 呢" after Grok's daily users: Meta AI's, not Grok's under Meta AI's name."""
    body = asker.ask("那D轮呢？", after="Anthropic 2023年5月C轮的投后估值是多少？")
    gold = values(
        epoch_store,
        "SELECT ?v WHERE { id:funding-round-anthropic-dec-2023-18-4b-series-d aikg:postMoneyValuation ?v }",
    )
    assert not body["abstained"] and gold <= numbers(body)
    body = asker.ask("那 Meta AI 呢？", after="Grok 2025年3月的日活是多少？")
    gold = values(
        epoch_store,
        'SELECT ?v WHERE { ?f a aikg:UsageFigure ; aikg:agent id:meta ; aikg:activeUsersPeriod "Daily" ; '
        'aikg:activeUsers ?v ; aikg:date ?d . FILTER(STRSTARTS(STR(?d), "2025-03")) }',
    )
    assert not body["abstained"] and numbers(body) == gold


def test_the_question_before_a_follow_up_is_read_as_it_was_answered(asker, epoch_store):
    """ "and in 2025?" after "Which models did TII release in 2024?": TII read by its initials, as when it
    was asked (was: every model of 2025, sure)."""
    body = asker.ask("and in 2025?", after="Which models did TII release in 2024?")
    gold = _gold(
        epoch_store,
        "SELECT ?m WHERE { ?m a aikg:AIModel ; aikg:developer id:technology-innovation-institute ; "
        "aikg:releaseDate ?d . FILTER(YEAR(?d) = 2025) }",
    )
    assert not body["abstained"] and sorted(_rows(body)) == sorted(gold)


@pytest.mark.parametrize(
    "q",
    [
        "What is AMD's memory bandwidth?",
        "How many parameters does Anthropic have?",
        "OpenAI 的训练算力是多少？",
        "英伟达嘅 H100 显存系几多？",
        "What's the H100's TDP?",
    ],
)
def test_a_figure_of_a_thing_another_node_would_only_guess_at_is_not_answered(asker, q):
    """An organization holds no chip's or model's figure (AMD's was the MI300A's, Anthropic's parameters
    Anthropic LM 52B's, OpenAI's training compute OpenAI Five's), and a family name whose own node has none
    names chips that differ (H100: NVL 94 GB, PCIe 80 GB): one of them picked answered with confidence."""
    body = asker.ask(q)
    assert body["abstained"] and not body["answer"].get("facts")


@pytest.mark.parametrize("q", ["GB200 的功耗", "H100 process node"])
def test_a_figure_every_thing_the_name_names_agrees_on_is_still_answered(asker, epoch_store, q):
    """The GB200 NVL72 has no TDP and names one chip with it (the NVIDIA GB200); the H100's variants have
    one process node: either is the answer whichever is meant."""
    body = asker.ask(q)
    assert not body["abstained"]
    fact = body["answer"]["facts"][0]
    prop = fact["property"]["name"].split(":")[1]
    assert float(fact["value"]) in values(
        epoch_store, f"SELECT ?v WHERE {{ id:{fact['subject']['id']} aikg:{prop} ?v }}"
    )


@pytest.mark.parametrize(
    ("q", "maker", "prop", "bound"),
    [
        ("Which Google chips have a TDP of 450 W and up?", "google", "thermalDesignPower", 450),
        ("显存 192GB 或更高的 AMD 芯片有哪些？", "amd", "memoryPerChip", 192),
        ("List AMD accelerators with memory bandwidth of 8 TB/s or higher", "amd", "memoryBandwidth", 8000),
        ("AMD chips with 288 GB of memory and above?", "amd", "memoryPerChip", 288),
    ],
)
def test_a_bound_said_after_its_number_includes_it(asker, epoch_store, q, maker, prop, bound):
    """ "450 W and up", "or higher", "and above", 或更高: at least, the chips at the bound too (was: no
    threshold read — TDP of W.A.L.T, or a list of every chip of the maker not sure)."""
    body = asker.ask(q)
    assert body["understood"]["form"]["threshold"] == [">=", float(bound)]
    want = {
        r[0].value
        for r in epoch_store.query(
            PRE
            + f"SELECT ?x WHERE {{ ?x aikg:manufacturer id:{maker} ; aikg:{prop} ?v FILTER(?v >= {bound}) }}"
        ).rows
    }
    assert want and want == {row["about"] for row in body["answer"]["rows"]}


@pytest.mark.parametrize(
    ("q", "sparql"),
    [
        (
            "How many GPU clusters does Epoch list for Tesla, any status?",
            "SELECT (COUNT(DISTINCT ?c) AS ?n) WHERE { ?c a aikg:Deployment ; aikg:operator id:tesla }",
        ),
        (
            "xAI 一共有几条融资记录，不管什么状态？",
            "SELECT (COUNT(DISTINCT ?r) AS ?n) WHERE { ?r a aikg:FundingRound ; aikg:investee id:xai }",
        ),
        (
            "阿里巴巴的集群不论状态一共有几个？",
            "SELECT (COUNT(DISTINCT ?c) AS ?n) WHERE { ?c a aikg:Deployment ; aikg:operator id:alibaba }",
        ),
    ],
)
def test_a_count_whatever_the_status_counts_every_row(asker, epoch_store, q, sparql):
    """ "any status", 不管什么状态, 不论状态: every row is the count asked, not the totals' defaults (Tesla:
    5 existing, rated at least Likely, of 12; the Chinese words were not understood)."""
    body = asker.ask(q)
    assert not body["abstained"]
    assert {count_of(body)} == values(epoch_store, sparql)


@pytest.mark.parametrize(
    ("q", "org", "year"),
    [
        ("How much did OpenAI spend on compute in 2025, training plus inference combined?", "openai", 2025),
        ("OpenAI 2025 年训练加推理的算力开支合计多少？", "openai", 2025),
        (
            "How much did Anthropic spend on cloud compute in 2024 in total (training + inference)?",
            "anthropic",
            2024,
        ),
    ],
)
def test_spending_of_two_categories_together_is_the_figure_filed_under_both(asker, epoch_store, q, org, year):
    """Training and inference named together ask Epoch's figure of both categories (Anthropic's 2.5B of
    2024), not the first category named (its 1.5B of training)."""
    body = asker.ask(q)
    want = values(
        epoch_store,
        f"SELECT ?v WHERE {{ ?f a aikg:ComputeSpendFigure ; aikg:agent id:{org} ; aikg:date ?d ; "
        f"aikg:computeSpend ?v ; aikg:spendCategory ?a, ?b FILTER(YEAR(?d) = {year} && ?a != ?b) }}",
    )
    assert not body["abstained"] and len(want) == 1
    assert numbers(body) == want


@pytest.mark.parametrize(
    ("q", "model"),
    [
        ("DeepSeek-V2: how many parameters are active per token?", "deepseek-v2"),
        ("DeepSeek-V3 每个 token 激活多少参数？", "deepseek-v3"),
        ("Inkling: how many parameters are active for each token?", "inkling"),
    ],
)
def test_parameters_active_per_token_are_the_active_parameters(asker, epoch_store, q, model):
    body = asker.ask(q)
    assert body["answer"]["property"]["name"] == "aikg:activeParameters"
    want = values(epoch_store, f"SELECT ?v WHERE {{ id:{model} aikg:activeParameters ?v }}")
    assert {float(body["answer"]["facts"][0]["value"])} == want


@pytest.mark.parametrize(
    "q", ["Inkling 总参数 975B 这个说法是哪个媒体报的？", "哪篇文章说 OpenAI 和 SB Energy 签了 20 年的租约"]
)
def test_a_source_asked_is_never_answered_with_a_comparison_or_a_list_of_deals(asker, q):
    """The source asked is in no row of a comparison (Inkling beside its article) nor of a named query
    whose own words never ask one (OpenAI's 16 deals): the statements' sources answer, or nothing."""
    body = asker.ask(q)
    form = body["understood"].get("form") or {}
    assert body["abstained"] or (form.get("op") != "compare" and body["understood"].get("query") is None)


@pytest.mark.parametrize(
    "q",
    [
        "what models did Tencent put out in 2023 and 2025?",
        "阿里巴巴 2023 年和 2025 年发布了哪些模型",
    ],
)
def test_a_year_the_period_read_leaves_out_makes_the_answer_not_sure(asker, q):
    """Two years apart read as the first one's period listed that year's models alone, sure; the year left
    out is a date the answer did not use."""
    body = asker.ask(q)
    assert body["abstained"] and body["answer"]["kind"] == "unsure"
    assert "2025" in body["understood"]["unknown"]


def test_between_misspelt_still_reads_both_years(asker, epoch_store):
    body = asker.ask("what models did Tencent put out betwen 2023 and 2024 (inclusive)?")
    assert body["understood"]["form"]["dates"] == ["2023-01-01", "2024-12-31"]
    want = {
        r[0].value
        for r in epoch_store.query(
            PRE
            + "SELECT ?m WHERE { ?m a aikg:AIModel ; aikg:developer/aikg:parentOrganization* id:tencent ; "
            "aikg:releaseDate ?d FILTER(YEAR(?d) IN (2023, 2024)) }"
        ).rows
    }
    assert want and want <= {row["about"] for row in body["answer"]["rows"]}


def test_a_bound_in_tops_is_integer_operations_per_second(asker, epoch_store):
    """ "超过 200 TOPS" is 2e14 OP/s of the precision named (was: 200, every Cambricon chip with an INT8
    figure)."""
    body = asker.ask("哪些寒武纪芯片的 INT8 算力超过 200 TOPS？")
    assert body["understood"]["form"]["threshold"] == [">", 2e14]
    want = {
        r[0].value
        for r in epoch_store.query(
            PRE + "SELECT ?x WHERE { ?x aikg:manufacturer id:cambricon ; aikg:int8Performance ?v "
            "FILTER(?v > 2e14) }"
        ).rows
    }
    assert want and want == {row["about"] for row in body["answer"]["rows"]}


def test_a_named_query_finding_nothing_for_a_question_it_half_read_is_not_sure(asker):
    """The models trained on NVIDIA's chips in fiscal 2025 are none, and "gross margin" was not read: the
    empty rows answered nothing that was asked."""
    body = asker.ask("What was NVIDIA's gross margin in fiscal 2025?")
    assert body["abstained"]


@pytest.mark.parametrize(
    ("q", "sparql"),
    [
        (
            "which chips has Huawei made?",
            "SELECT ?x WHERE { ?x a aikg:Accelerator ; "
            "aikg:manufacturer/aikg:parentOrganization* id:huawei }",
        ),
        (
            "What models has Baidu made?",
            "SELECT ?x WHERE { ?x a aikg:AIModel ; aikg:developer/aikg:parentOrganization* id:baidu }",
        ),
    ],
)
def test_things_of_a_class_no_template_names_are_listed_not_the_organizations_deals(
    asker, epoch_store, q, sparql
):
    """ "which chips has Huawei made" routed to Huawei's deals (none: 0 rows, sure): the class asked for is
    a word the named query's title and examples never say, so the composed list answers."""
    body = asker.ask(q)
    assert body["understood"].get("query") is None
    want = {r[0].value for r in epoch_store.query(PRE + sparql).rows}
    assert want and want == {row["about"] for row in body["answer"]["rows"]}


@pytest.mark.parametrize(
    "q",
    [
        "Why did pre-training on Tinker drop below three days?",
        "为什么 Groq 明年的数据中心规模能到 200 兆瓦？",
        "Why does the GB300 NVL72 draw so much power?",
    ],
)
def test_a_reason_asked_is_not_answered_with_a_figure(asker, q):
    """ "Why" asks what no figure says: the duration, the 200 MW or the rack's power were shown, sure."""
    body = asker.ask(q)
    assert body["abstained"] and not body["answer"].get("facts") and not body["answer"].get("rows")


def test_a_person_who_relayed_a_figure_is_no_side_of_a_comparison(asker, epoch_store):
    """ "Tinker's output price, per the list Soumith Chintala relayed" compared Tinker with Soumith; the
    person says the figure: the price is answered, or nothing."""
    body = asker.ask("What's Tinker's output price, per the list Soumith Chintala relayed?")
    form = body["understood"].get("form") or {}
    assert form.get("op") != "compare"
    if not body["abstained"]:
        want = values(epoch_store, "SELECT ?v WHERE { id:price-tinker-output aikg:price ?v }")
        assert want & {float(f["value"]) for f in body["answer"].get("facts", [])} or want & numbers(body)


def _said(answer: dict) -> str:
    """Every value an answer's rows and facts state, as one text."""
    return json.dumps(
        [answer["answer"].get("rows", []), answer["answer"].get("facts", [])], ensure_ascii=False
    )


@pytest.mark.parametrize(
    ("q", "node"),
    [
        ("Source for xAI's 64M monthly active users figure?", "usage-xai-xai-64m-mau"),
        (
            "Source of Anthropic's $4B annualized revenue figure from July 2025?",
            "revenue-anthropic-july-2025-4b",
        ),
        (
            "Where's the $100M figure for Anthropic's revenue in October 2023 from? Link please",
            "revenue-anthropic-october-2023-100m",
        ),
    ],
)
def test_a_figures_source_asked_with_source_first_or_where_from(asker, epoch_store, q, node):
    # was: "Source" at the start linked as aikg's own source catalogue (the company dropped, nothing
    # answered); "where's … from? link please" a list of the company's revenue
    (url,) = {
        r[0].value
        for r in epoch_store.query(PRE + f"SELECT ?u WHERE {{ id:{node} <https://schema.org/url> ?u }}").rows
    }
    a = asker.ask(q)
    assert not a["abstained"] and a["understood"]["form"]["op"] == "provenance", q
    assert ID + "catalog" not in json.dumps(a["understood"]["form"])
    assert url in _said(a), q


@pytest.mark.parametrize(
    ("q", "node"),
    [
        (
            "What's Epoch's confidence for DeepSeek's 160-employee figure from early 2025?",
            "staff-deepseek-march-2025-160",
        ),
        (
            "How confident is Epoch about OpenAI's $1.6B annualized revenue figure from late 2023?",
            "revenue-openai-1-6b-dec-2023",
        ),
    ],
)
def test_epochs_confidence_as_a_noun_and_a_part_of_a_year(asker, epoch_store, q, node):
    # was: "confidence" no provenance word (the staff figures listed, sure); "early", "late" words not
    # understood
    (rating,) = {
        r[0].value
        for r in epoch_store.query(PRE + f"SELECT ?c WHERE {{ id:{node} aikg:sourceConfidence ?c }}").rows
    }
    a = asker.ask(q)
    assert (
        not a["abstained"]
        and a["understood"]["form"]["op"] == "provenance"
        and not a["understood"]["unknown"]
    )
    assert f'"{rating}"' in _said(a)


def test_a_part_of_a_year_is_its_months():
    assert read_dates("revenue in early 2025")[0] == ("2025-01-01", "2025-06-30")
    assert read_dates("staff in late 2023")[0] == ("2023-07-01", "2023-12-31")
    assert read_dates("clusters from mid-2024")[0] == ("2024-04-01", "2024-09-30")
    assert read_dates("revenue in 2025")[0] == ("2025-01-01", "2025-12-31")


def test_a_round_in_talks_is_dated_by_when_it_was_reported(asker, epoch_store):
    # Epoch's "Late discussions" rounds have no closing date, only aikg:reportedOn: a round named by its
    # month found nothing
    a = asker.ask("xAI 2025年9月那轮融资估值多少？")
    assert not a["abstained"] and numbers(a) == values(
        epoch_store, "SELECT ?v WHERE { id:funding-round-xai-sep-2025-10b aikg:postMoneyValuation ?v }"
    )
    a = asker.ask("Has OpenAI's September 2025 funding round closed?")
    assert not a["abstained"] and "https://w3id.org/aikg/ontology#Planned" in _said(a)
    a = asker.ask("How sure is Epoch about xAI's September 2025 round?")
    assert not a["abstained"] and '"Likely"' in _said(a)
    assert ID + "funding-round-xai-dec-2024-series-c" not in _said(a)  # its other rounds are not asked


def test_how_much_a_round_is_is_its_amount(asker, epoch_store):
    # was: the round listed with no figure, sure ("funding" of "funding round" is the class's word)
    for q in (
        "How much was xAI's May 2024 round?",
        "How much money is in Anthropic's November 2025 funding round?",
    ):
        a = asker.ask(q)
        assert a["understood"]["form"]["property"] == "amount" and not a["abstained"], q
    assert values(
        epoch_store, "SELECT ?v WHERE { id:funding-round-anthropic-microsoft-nvidia aikg:amount ?v }"
    ) <= numbers(a)


@pytest.mark.parametrize(
    ("q", "node"),
    [
        ("How many people were at Meta's FAIR in 2016?", "staff-meta-october-2016-75"),
        ("Meta 的 FAIR 实验室 2018 年有多少人？", "staff-meta-november-2018-200"),
        ("Anthropic's R&D headcount at the end of 2024?", "staff-anthropic-dec-2024-r-d"),
        ("Anthropic 研发部门 2024 年底有多少人？", "staff-anthropic-dec-2024-r-d"),
    ],
)
def test_a_division_the_staff_rows_name_is_their_filter(asker, epoch_store, q, node):
    # was: "fair" a word not understood; "R&D" the organization Panasonic R&D beside Anthropic (the whole
    # company's 915 shown, sure); 研发 read as the models Anthropic develops
    a = asker.ask(q)
    assert not a["abstained"] and not a["understood"]["unknown"], (q, a["understood"]["unknown"])
    assert numbers(a) == values(epoch_store, f"SELECT ?v WHERE {{ id:{node} aikg:staffCount ?v }}"), q
    assert "panasonic" not in json.dumps(a["understood"]["form"]) and a["understood"]["form"]["division"]
    # "fair" not written as the data writes the division's acronym is no division
    assert asker.ask("Is that fair to Meta's staff?")["understood"]["form"].get("division") is None


@pytest.mark.parametrize(
    ("after", "q", "gold"),
    [
        # an organization after a product's figure: its figures, not its under the other product's name
        (
            "Gemini 2025年5月月活多少",
            "那 Meta AI 呢？",
            "SELECT ?v WHERE { ?f a aikg:UsageFigure ; aikg:agent id:meta ; aikg:activeUsersPeriod"
            ' "Monthly" ; aikg:date ?d ; aikg:activeUsers ?v FILTER(STRSTARTS(STR(?d), "2025-05")) }',
        ),
        # a round's letter after a round named by its month and letter: the month was the earlier round's
        (
            "How much did xAI raise in its May 2024 Series B?",
            "and the Series C?",
            "SELECT ?v WHERE { id:funding-round-xai-dec-2024-series-c aikg:amount ?v }",
        ),
        (
            "Anthropic 2023年5月那轮C轮融了多少？",
            "那F轮呢？",
            "SELECT ?v WHERE { id:funding-round-anthropic-sep-2025-183b-series-f aikg:amount ?v }",
        ),
        # "mins", the chat shorthand of minutes
        (
            "How many GB300s did CoreWeave use for DeepSeek-V3 in MLPerf Training v6.0?",
            "and how many mins did it take?",
            "SELECT ?v WHERE { id:result-mlperf-training-v6-0-coreweave-deepseek-v3 aikg:timeToTrain ?v }",
        ),
    ],
)
def test_a_follow_up_replaces_what_it_names_and_what_depended_on_it(asker, epoch_store, after, q, gold):
    a = asker.ask(q, after=after)
    want = values(epoch_store, gold)
    assert not a["abstained"] and want and want <= numbers(a), (q, a["understood"].get("description"))


@pytest.mark.parametrize(
    ("after", "q", "year"),
    [
        ("Which models did the TII release in 2024?", "and in 2023?", 2023),
        ("TII 2023年发布了哪些模型？", "那2025年呢？", 2025),
    ],
)
def test_a_follow_ups_question_before_is_read_with_the_acronyms(asker, epoch_store, after, q, year):
    # was: the question before read without the graph's acronyms (TII), so the follow-up lost the
    # organization and listed every model of the year
    gold = {
        r[0].value
        for r in epoch_store.query(
            PRE + "SELECT ?m WHERE { ?m a aikg:AIModel ; aikg:developer id:technology-innovation-institute ;"
            f" aikg:releaseDate ?d FILTER(YEAR(?d) = {year}) }}"
        ).rows
    }
    a = asker.ask(q, after=after)
    assert not a["abstained"] and gold and {r["about"] for r in a["answer"]["rows"]} == gold


def test_a_country_beside_the_organization_of_models_filters_nothing(asker, epoch_store):
    # was: the models located in the UAE, which none is (nothing answered); sites keep their country
    a = asker.ask("Which models did the UAE's TII release in 2024?")
    assert not a["abstained"] and a["understood"]["form"]["country"] is None
    assert len(a["answer"]["rows"]) == 3
    assert asker.ask("Google's clusters in Japan")["understood"]["form"]["country"] == "Japan"


@pytest.mark.parametrize(
    ("q", "node", "prop"),
    [
        ("How many GPUs are in Eni's HPC6 supercomputer?", "cluster-eni-hpc6", "acceleratorCount"),
        (
            "甲骨文 OCI Supercluster A100s 有多少张卡？",
            "cluster-oracle-oci-supercluster-a100s",
            "acceleratorCount",
        ),
        ("What chip is in Oracle's OCI MI300x cluster?", "cluster-oracle-oci-mi300x", "accelerator"),
        (
            "Where is ExxonMobil's Discovery 5 supercomputer?",
            "cluster-exxonmobil-discovery-5",
            "locationName",
        ),
        ("Which city is Hut 8's H100 cluster in?", "cluster-hut-8-h100-cluster", "locationName"),
    ],
)
def test_a_cluster_named_by_its_organization_and_the_rest_of_its_name(asker, epoch_store, q, node, prop):
    # was: the organization alone, the rest of the name ("discovery", "oci", "hpc6") a word not understood;
    # "city" a word not understood beside the location asked
    a = asker.ask(q)
    assert not a["abstained"] and a["understood"]["form"]["entities"] == [node], (q, a["understood"])
    want = {
        r[0].value for r in epoch_store.query(PRE + f"SELECT ?v WHERE {{ id:{node} aikg:{prop} ?v }}").rows
    }
    assert want and all(v in _said(a) for v in want), q


@pytest.mark.parametrize(
    "q",
    [
        "How many chips are in ExxonMobil's Discovery 7 supercomputer?",  # Epoch lists Discovery 5 and 6
        "甲骨文 OCI Supercluster H300s 有多少张卡？",
        "How many of Oracle's OCI clusters are there?",  # several: no one of them is named
    ],
)
def test_a_name_after_an_organization_that_no_site_has_names_none(asker, q):
    a = asker.ask(q)
    assert not any(e.startswith("cluster-") for e in (a["understood"].get("form") or {}).get("entities", []))


def test_a_bound_the_source_gives_and_the_seed_documents_ask_nothing_more(asker, epoch_store):
    # was: "minimum" (of a figure given as at least 10,000) and "seed" (read as the model SEER) left over
    (want,) = values(
        epoch_store, "SELECT ?v WHERE { id:deployment-oracle-training-clusters aikg:acceleratorCount ?v }"
    )
    a = asker.ask("How many accelerators do Oracle's training clusters have at minimum?")
    assert not a["abstained"] and want in {f["number"] for f in a["answer"]["facts"]}
    assert asker.ask("How many accelerators do Oracle's training clusters have at most?")["abstained"]
    gold = {
        r[0].value
        for r in epoch_store.query(PRE + "SELECT ?o WHERE { id:coreweave aikg:competesWith ?o }").rows
    }
    for q in (
        "Which neoclouds does CoreWeave compete with, per the seed article?",
        "文章里说 CoreWeave 跟哪几家公司竞争？",
    ):
        a = asker.ask(q)
        assert not a["abstained"] and gold and all(g in _said(a) for g in gold), q


@pytest.mark.parametrize(
    ("q", "node", "prop"),
    [
        ("Mistral 种子轮估值多少？", "funding-round-mistral-ai-june-2023-seed", "postMoneyValuation"),
        (
            "How much did OpenAI raise in its 2019 seed round?",
            "funding-round-openai-2019-lp-seed-khosla",
            "amount",
        ),
    ],
)
def test_a_seed_round_is_the_round_epoch_names_seed(asker, epoch_store, q, node, prop):
    a = asker.ask(q)
    assert not a["abstained"] and numbers(a) == values(
        epoch_store, f"SELECT ?v WHERE {{ id:{node} aikg:{prop} ?v }}"
    )


def test_the_source_link_of_a_row_and_a_year_inside_a_name(asker, epoch_store):
    # was: every statement about the cluster (62 rows, the named query), and the year of "Oracle 2020 A100
    # Cluster" read as a period the named query could not take ("I don't know")
    (url,) = {
        r[0].value
        for r in epoch_store.query(
            PRE + "SELECT ?u WHERE { id:cluster-oracle-2020-a100-cluster <https://schema.org/url> ?u }"
        ).rows
    }
    a = asker.ask("甲骨文 2020 年那个 A100 集群，数据来源链接是什么？")
    assert not a["abstained"] and url in _said(a) and len(a["answer"]["rows"]) <= 3
    a = asker.ask("甲骨文 2020 年那个 A100 集群有多少张卡？")
    assert a["understood"]["form"]["dates"] is None and numbers(a) | {
        f["number"] for f in a["answer"].get("facts", [])
    } >= values(
        epoch_store, "SELECT ?v WHERE { id:cluster-oracle-2020-a100-cluster aikg:acceleratorCount ?v }"
    )


def test_which_gpus_a_named_cluster_uses_is_its_chip_not_their_count(asker, epoch_store):
    # was: 'GPUs' in the plural read as the accelerator count (IBM Vela's 2,880, sure) once the cluster was
    # linked by its organization and the rest of its name
    want = {
        r[0].value
        for r in epoch_store.query(PRE + "SELECT ?a WHERE { id:cluster-ibm-vela aikg:accelerator ?a }").rows
    }
    a = asker.ask("What GPUs is IBM's Vela cluster built on?")
    assert a["understood"]["form"]["property"] == "accelerator" and want and all(w in _said(a) for w in want)


def test_which_one_after_a_list_is_one_of_the_things_listed(asker, epoch_store):
    """ "which one has the most power?" after Meta's data centers, 哪款最省电 after Intel's chips above 90 GB:
    one of those (was: every data center or chip ranked, sure)."""
    cases = (
        (
            "which one has the most power?",
            "Which data centers does Meta operate?",
            "SELECT ?x WHERE { ?x a aikg:DataCenter ; aikg:operator id:meta ; aikg:powerCapacity ?v } "
            "ORDER BY DESC(?v)",
        ),
        (
            "哪款最省电？",
            "英特尔有哪些芯片显存超过 90GB？",
            "SELECT ?h WHERE { ?h a aikg:Hardware ; aikg:manufacturer id:intel ; aikg:memoryPerChip ?m ; "
            "aikg:thermalDesignPower ?v . FILTER(?m > 90) } ORDER BY ASC(?v)",
        ),
    )
    for q, after, sparql in cases:
        body = asker.ask(q, after=after)
        assert not body["abstained"] and first(body) == _gold(epoch_store, sparql)[0], (q, body["understood"])
    # a class named of its own is a new set, not one of those, and is answered
    body = asker.ask("哪个数据中心功率最大？", after="英特尔有哪些芯片显存超过 90GB？")
    assert not body["abstained"] and body["understood"]["form"]["class"] == "datacenter"


@pytest.mark.parametrize(
    ("q", "org"),
    [
        ("How many of xAI's clusters are not yet built?", "xai"),
        ("How many Cerebras clusters aren't operational yet?", "cerebras"),
        ("G42 还有几个集群没有建成？", "g42"),
        ("Sesterce 有幾多個叢集仲未投入運作？", "sesterce"),
        ("How many IREN clusters are still only planned?", "iren"),
    ],
)
def test_a_status_negated_or_said_with_still_counts_the_planned_clusters(asker, epoch_store, q, org):
    # "not yet built" was read as no status, so the count took the totals' default: the EXISTING ones
    body = asker.ask(q)
    assert not body["abstained"] and body["understood"]["form"]["status"] == "Planned"
    assert body["understood"]["unknown"] == []
    every = values(
        epoch_store,
        f"SELECT (COUNT(DISTINCT ?c) AS ?n) WHERE {{ ?c a aikg:Deployment ; aikg:operator id:{org} ; "
        f'aikg:operationalStatus "Planned" }}',
    )
    assert every & ({count_of(body)} | every_counts(body))


@pytest.mark.parametrize(
    ("q", "org", "stage"),
    [
        ("OpenAI 有几轮融资还在谈、没有完成？", "openai", "open"),
        ("How many xAI funding rounds have not closed yet?", "xai", "open"),
        ("Anthropic 有幾多輪融資仲未完成？", "anthropic", "open"),
        ("How many of Anthropic's funding rounds are still in talks?", "anthropic", "Planned"),
        ("OpenAI 仲有幾多輪融資喺計劃緊？", "openai", "Planned"),
        ("How many planned funding rounds does OpenAI have?", "openai", "Planned"),
    ],
)
def test_a_funding_rounds_stage_other_than_closed_is_counted_not_the_closed_rounds(
    asker, epoch_store, q, org, stage
):
    # "还没完成" was read as the rounds that closed (11 of OpenAI's), "still in talks" was not sure
    body = asker.ask(q)
    assert not body["abstained"] and body["understood"]["form"].get("stage") == stage
    status = "aikg:Planned" if stage == "Planned" else "?s FILTER(?s != aikg:Closed)"
    want = values(
        epoch_store,
        f"SELECT (COUNT(DISTINCT ?r) AS ?n) WHERE {{ ?r a aikg:FundingRound ; aikg:investee id:{org} ; "
        f"aikg:status {status} }}",
    )
    assert want == {float(count_of(body))} and count_of(body) < 5


@pytest.mark.parametrize(
    "q",
    [
        "在已完成的融资轮中，Anthropic 和 xAI 谁融到的钱更多？",
        "xAI 和 Anthropic 的已完成融资轮，谁的融资总额更高？",
        "已經完成嘅融資入面，xAI 同 Anthropic 邊個融到嘅資金多啲？",
        "Counting completed rounds only, did Anthropic or xAI raise more money?",
        "Did Anthropic or xAI raise more money in closed rounds?",
    ],
)
def test_money_raised_compared_over_closed_rounds_is_each_ones_total_not_a_count(asker, epoch_store, q):
    # the word for rounds (融资轮) made it a count of rounds (10 and 4); "did … closed" a yes/no of status
    body = asker.ask(q)
    assert not body["abstained"] and body["understood"]["form"]["op"] == "sum"
    want = set()
    for org in ("anthropic", "xai"):
        want |= values(
            epoch_store,
            f"SELECT (SUM(?a) AS ?t) WHERE {{ ?r a aikg:FundingRound ; aikg:investee id:{org} ; "
            f"aikg:status aikg:Closed ; aikg:amount ?a }}",
        )
    assert want == {29404000000.0, 17000000000.0} and want <= numbers(body)


def test_organizations_compared_on_a_total_of_the_status_they_name_count_every_rating(asker, epoch_store):
    # "whose existing clusters add up": every existing row, as one organization's total is; the rankings'
    # "rated at least Likely" left out Tesla's Unlikely 35,000 H100e (64,144 in place of 99,144)
    body = asker.ask("Oracle vs Tesla — whose existing GPU clusters add up to more H100-equivalents?")
    assert not body["abstained"] and body["understood"]["form"]["op"] == "sum"
    want = set()
    for org in ("oracle", "tesla"):
        want |= values(
            epoch_store,
            f"SELECT (SUM(?h) AS ?t) WHERE {{ ?c aikg:operator id:{org} ; "
            f'aikg:operationalStatus "Existing" ; '
            f"aikg:h100Equivalents ?h MINUS {{ ?c aikg:supersededBy|aikg:possibleDuplicateOf ?o2 . "
            f'?o2 aikg:operator id:{org} ; aikg:operationalStatus "Existing" }} }}',
        )
    assert {round(v) for v in want} == {114062, 99144}
    assert {round(v) for v in want} <= {round(v) for v in numbers(body)}
    # with no status said, what each one has now keeps the rankings' defaults
    now = asker.ask("which has more H100 equivalents, xAI or OpenAI?")
    assert "rated at least Likely" in now["understood"]["description"]


@pytest.mark.parametrize(
    ("q", "orgs"),
    [
        (
            "Tesla vs Nebius: whose operating GPU clusters add up to more H100-equivalents?",
            ("tesla", "nebius"),
        ),
        ("甲骨文和特斯拉，现役集群的 H100 当量加起来谁多？", ("oracle", "tesla")),
        ("What do Tesla's operating clusters add up to in H100-equivalents?", ("tesla",)),
    ],
)
def test_a_total_of_a_status_named_with_no_rating_states_the_total_rated_at_least_likely_too(
    asker, epoch_store, q, orgs
):
    # was: every existing row alone (Tesla 99,144), confident and wrong for whoever reads "operating" as the
    # rankings do (batch y's yb001, yb051: 64,144 without Tesla's Unlikely earnings-call row): both now
    def total(org: str, rated: bool) -> float:
        rating = '?{1} aikg:sourceConfidence ?r{0} FILTER(?r{0} IN ("Confirmed", "Likely"))' if rated else ""
        return next(
            iter(
                values(
                    epoch_store,
                    f"SELECT (SUM(?h) AS ?t) WHERE {{ ?c aikg:operator id:{org} ; "
                    f'aikg:operationalStatus "Existing" ; aikg:h100Equivalents ?h . {rating.format(1, "c")} '
                    f"MINUS {{ ?c aikg:supersededBy|aikg:possibleDuplicateOf ?o2 . "
                    f"?o2 aikg:operator id:{org} ; "
                    f'aikg:operationalStatus "Existing" . {rating.format(2, "o2")} }} }}',
                )
            )
        )

    body = asker.ask(q)
    assert not body["abstained"] and body["understood"]["form"]["op"] == "sum"
    rows = body["answer"]["rows"]
    got = {round(float(c["value"])) for r in rows for k, c in r["cells"].items() if k in ("total", "rated")}
    want = {round(total(o, rated)) for o in orgs for rated in (False, True)}
    assert round(total("tesla", False)) == 99144 and round(total("tesla", True)) == 64144
    assert want <= got, (q, got, want)
    assert "64,144" in body["answer"]["summary"]
    # a rating named is the total's filter, with nothing beside it
    said = asker.ask("What do Tesla's operating clusters rated at least Likely add up to in H100e?")
    assert not any("rated" in r["cells"] for r in said["answer"].get("rows", []))


def test_a_data_centers_town_written_in_chinese_links_the_site(asker, epoch_store):
    # 坎顿 (Canton, Mississippi) was a word not understood: only Alibaba's side was read, not sure
    body = asker.ask("阿里巴巴张北的数据中心和亚马逊坎顿的数据中心，哪个电力容量更大？")
    assert not body["abstained"] and body["understood"]["form"]["op"] == "compare"
    want = values(
        epoch_store,
        "SELECT ?v WHERE { VALUES ?x { id:alibaba-zhangbei-zhangjiakou-hebei id:amazon-canton-mississippi } "
        "?x aikg:powerCapacity ?v }",
    )
    assert want == {341.0, 339.0} and want <= numbers(body)


def test_series_typed_one_letter_off_still_names_the_round(asker):
    # "Seris F": the letter F was a word not understood, and the answer not sure
    body = asker.ask("Which raised more money, xAI's Series B or Anthropic's Seris F?")
    assert not body["abstained"] and body["understood"]["unknown"] == []
    assert {6e9, 13e9} <= numbers(body)


@pytest.mark.parametrize(
    ("q", "org"),
    [
        ("How many clusters does Lambda have that are already running?", "lambda"),
        ("甲骨文有多少个集群已经投入运营？", "oracle"),
        ("Voltage Park 已經投入運行嘅叢集有幾多個？", "voltage-park"),
    ],
)
def test_already_running_or_put_into_operation_counts_the_existing_clusters(asker, epoch_store, q, org):
    # "already" and 已经投入运营 were words not understood: the count was not sure
    body = asker.ask(q)
    assert not body["abstained"] and body["understood"]["form"]["status"] == "Existing"
    assert body["understood"]["unknown"] == []
    every = values(
        epoch_store,
        f"SELECT (COUNT(DISTINCT ?c) AS ?n) WHERE {{ ?c a aikg:Deployment ; aikg:operator id:{org} ; "
        f'aikg:operationalStatus "Existing" }}',
    )
    assert every & ({count_of(body)} | every_counts(body))


def test_artificial_intelligence_is_no_staff_word_misspelt(asker, epoch_store):
    # 人工 (of 人工智能) was read as 员工 one character off: NVIDIA's staff figures counted
    body = asker.ask("英伟达的人工智能模型有多少个？")
    assert not body["abstained"] and body["understood"]["form"]["class"] == "model"
    want = values(
        epoch_store,
        "SELECT (COUNT(DISTINCT ?m) AS ?n) WHERE { ?m a aikg:AIModel ; aikg:developer id:nvidia }",
    )
    assert want == {float(count_of(body))}


@pytest.mark.parametrize(
    ("q", "after", "where"),
    [
        (
            "above 200 MW?",
            "Which of Microsoft's clusters draw more than 100 MW?",
            "?x a aikg:Deployment ; aikg:operator id:microsoft ; aikg:powerCapacity ?v FILTER(?v > 200)",
        ),
        (
            "超過 100 兆瓦嘅有邊啲？",
            "特斯拉哪些集群的功率超过 50 兆瓦？",
            "?x a aikg:Deployment ; aikg:operator id:tesla ; aikg:powerCapacity ?v FILTER(?v > 100)",
        ),
        (
            "ones above 200 GB?",
            "Which AMD chips have more than 150 GB of memory?",
            "?x a aikg:Hardware ; aikg:manufacturer id:amd ; aikg:memoryPerChip ?v FILTER(?v > 200)",
        ),
        (
            "more than 50,000 H100e?",
            "Which existing clusters in the US have more than 20,000 H100-equivalents?",
            '?x a aikg:Deployment ; aikg:operationalStatus "Existing" ; '
            'aikg:locationName "United States of America" ; aikg:h100Equivalents ?v FILTER(?v > 50000)',
        ),
    ],
)
def test_a_follow_up_naming_only_a_new_threshold_keeps_the_things_before(asker, epoch_store, q, after, where):
    # no "and", no 呢: the threshold alone was read as a question of its own, over every cluster or chip
    gold = {r[0].value for r in epoch_store.query(PRE + f"SELECT DISTINCT ?x WHERE {{ {where} }}").rows}
    body = asker.ask(q, after=after)
    assert not body["abstained"] and gold and {r["about"] for r in body["answer"]["rows"]} == gold


def test_a_model_named_after_a_products_usage_figures_is_not_answered_with_that_products(asker):
    # "and GPT-4o?" after Gemini's monthly users was answered with Gemini's figures under GPT-4o's name
    body = asker.ask("and GPT-4o?", after="What is Gemini's monthly active users?")
    assert body["abstained"] and "gpt-4o" in body["understood"]["unknown"]


@pytest.mark.parametrize(
    ("q", "after"),
    [
        ("How much did OpenAI raise in its March 2025 round?", None),
        ("OpenAI 2025 年 3 月那一轮拿了多少钱？", None),
        ("咁 OpenAI 2025年3月嗰輪呢？", "xAI 2025年9月那轮融了多少？"),
    ],
)
def test_a_month_with_a_closed_round_names_that_round_not_one_in_talks(asker, epoch_store, q, after):
    # Epoch lists OpenAI's $10B closed on 31 March 2025 and a $22.5B round in talks reported that day: the
    # month named the round in talks first (part k's 2025年3月那轮, wrong since the rounds-in-talks reading)
    closed = values(
        epoch_store,
        "SELECT ?v WHERE { ?r a aikg:FundingRound ; aikg:investee id:openai ; aikg:date ?d ; aikg:amount ?v "
        'FILTER(STRSTARTS(STR(?d), "2025-03")) }',
    )
    body = asker.ask(q, after=after)
    assert not body["abstained"] and len(closed) == 1
    assert float(body["answer"]["rows"][0]["cells"]["value"]["value"]) in closed
    assert numbers(body) == closed
    # asked for the round in talks, it is still found by its month
    body = asker.ask("OpenAI's March 2025 round that is still in late discussions: how much?")
    assert not body["abstained"] and numbers(body) and not numbers(body) & closed


@pytest.mark.parametrize(
    ("q", "after", "component"),
    [
        ("那输出呢", "Tinker 训练单价多少？", "output"),
        ("and for training?", "What does Tinker charge for output tokens?", "training"),
        ("咁輸入呢？", "Tinker 訓練單價幾多？", "input"),
    ],
)
def test_a_follow_up_naming_another_component_of_a_price_list_gives_its_price(
    asker, epoch_store, q, after, component
):
    want = values(epoch_store, f"SELECT ?v WHERE {{ id:price-tinker-{component} aikg:price ?v }}")
    body = asker.ask(q, after=after)
    assert not body["abstained"] and want and numbers(body) == want


@pytest.mark.parametrize(
    ("q", "after", "country"),
    [
        ("ok and how many in Japn?", "How many clusters in France are still only planned?", "Japan"),
        ("what about Chna?", "How many existing clusters are in France?", "China"),
        ("How many clusters in Inda are planned?", None, "India"),
    ],
)
def test_a_country_typed_with_a_letter_dropped_is_that_country(asker, q, after, country):
    body = asker.ask(q, after=after)
    assert not body["abstained"] and body["understood"]["form"]["country"] == country


def test_a_four_letter_word_one_letter_off_a_country_is_no_country():
    from aikg.ask.compose import _respell

    assert "spain" not in _respell("what is the time span of the round", [])
    assert "japan" in _respell("clusters in japn", [])


@pytest.mark.parametrize(
    ("q", "where"),
    [
        (
            "華為邊啲芯片嘅顯存帶寬多過 1 TB/s？",
            "?x aikg:manufacturer id:huawei ; aikg:memoryBandwidth ?v FILTER(?v > 1000)",
        ),
        (
            "Meta 有邊啲集群功率大過 100 兆瓦？",
            "?x aikg:operator id:meta-ai ; aikg:powerCapacity ?v FILTER(?v > 100)",
        ),
        (
            "英偉達邊啲芯片嘅 TDP 高過 1000 瓦？",
            "?x aikg:manufacturer id:nvidia ; aikg:thermalDesignPower ?v FILTER(?v > 1000)",
        ),
    ],
)
def test_cantonese_comparatives_are_thresholds(asker, epoch_store, q, where):
    # 多過, 大過, 高過 (more than): the bound was a number not understood, the answer not sure
    gold = {r[0].value for r in epoch_store.query(PRE + f"SELECT DISTINCT ?x WHERE {{ {where} }}").rows}
    body = asker.ask(q)
    assert not body["abstained"] and gold and {r["about"] for r in body["answer"]["rows"]} == gold


def test_names_given_in_chinese_or_by_an_acronym_in_brackets(asker, epoch_store):
    # 产总研 and AIST: "National Institute of Advanced Industrial Science and Technology (AIST)" (its initials
    # spell no AIST); 神算-1: Hygon's 深算一号 typed by its sound
    every = values(
        epoch_store,
        "SELECT (COUNT(DISTINCT ?c) AS ?n) WHERE { ?c a aikg:Deployment ; "
        "aikg:operator id:national-institute-of-advanced-industrial-science-and-technology-aist }",
    )
    for q in ("产总研有多少个集群？", "How many clusters does AIST run?"):
        body = asker.ask(q)
        assert not body["abstained"] and every & ({count_of(body)} | every_counts(body)), q
    body = asker.ask("神算-1 的显存带宽是多少？")
    want = values(epoch_store, "SELECT ?v WHERE { id:shensuan-1 aikg:memoryBandwidth ?v }")
    assert not body["abstained"] and {float(f["value"]) for f in body["answer"]["facts"]} == want


@pytest.mark.parametrize(
    ("q", "after"),
    [
        ("B200 又點？", "MI300X 嘅顯存係幾多？"),
        ("B200 又點樣？", "MI300X 嘅顯存係幾多？"),
        ("如果係 B200 呢", "MI300X 嘅顯存係幾多？"),
        ("要是 B200 呢", "MI300X 的显存是多少？"),
    ],
)
def test_a_cantonese_or_conditional_follow_up_goes_on_from_the_question_before(asker, epoch_store, q, after):
    # 又點 (what about), 如果係 / 要是 (what if it is) were words not understood: not sure, or 10 % off
    want = values(epoch_store, "SELECT ?v WHERE { id:nvidia-b200 aikg:memoryPerChip ?v }")
    body = asker.ask(q, after=after)
    assert not body["abstained"] and body["understood"]["unknown"] == []
    assert {float(f["value"]) for f in body["answer"]["facts"]} == want


def test_a_place_typed_one_letter_off_names_the_organizations_site_there(asker, epoch_store):
    want = values(epoch_store, "SELECT ?v WHERE { id:google-omaha-nebraska aikg:powerCapacity ?v }")
    body = asker.ask("What's the power of Google's site in Omha?")
    assert not body["abstained"] and {float(f["value"]) for f in body["answer"]["facts"]} == want


def iris(store, sparql: str) -> set[str]:
    return {r[0].value for r in store.query(PRE + sparql).rows}


@pytest.mark.parametrize(
    ("q", "gold"),
    [
        (
            "Of AMD's chips with more than 150 GB of memory, which has the highest memory bandwidth?",
            "SELECT ?x WHERE { ?x aikg:manufacturer id:amd ; aikg:memoryPerChip ?m ; aikg:memoryBandwidth ?b "
            "FILTER(?m > 150) } ORDER BY DESC(?b) LIMIT 1",
        ),
        (
            "Of NVIDIA's chips with more than 4 TB/s of memory bandwidth, which one has the highest TDP?",
            "SELECT ?x WHERE { ?x aikg:manufacturer id:nvidia ; aikg:memoryBandwidth ?b ; "
            "aikg:thermalDesignPower ?t FILTER(?b > 4000) } ORDER BY DESC(?t) LIMIT 1",
        ),
        (
            "英伟达显存超过 150GB 的芯片里，哪款功耗最低？",
            "SELECT ?x WHERE { ?x aikg:manufacturer id:nvidia ; aikg:memoryPerChip ?m ; "
            "aikg:thermalDesignPower ?t FILTER(?m > 150) } ORDER BY ?t LIMIT 1",
        ),
    ],
)
def test_a_bound_on_one_property_ranks_by_the_other_said(asker, epoch_store, q, gold):
    # the bound's unit named the longer property word the reading took, and the chips were ranked by it
    # (by bandwidth, not TDP), sure: the other property word said is what the ranking is by
    body = asker.ask(q)
    assert not body["abstained"] and body["understood"]["form"]["op"] == "top"
    assert {first(body)} == iris(epoch_store, gold)


@pytest.mark.parametrize(
    ("q", "org"),
    [
        ("Which OpenAI funding round is the most recent one?", "openai"),
        ("What was the most recent funding round of Anthropic?", "anthropic"),
    ],
)
def test_the_most_recent_round_is_the_newest_not_the_largest(asker, epoch_store, q, org):
    # "most recent" was read as "most": the rounds ranked by amount raised, sure
    body = asker.ask(q)
    assert not body["abstained"]
    newest = iris(
        epoch_store,
        f"SELECT ?r WHERE {{ ?r a aikg:FundingRound ; aikg:investee id:{org} ; aikg:date ?d }} "
        "ORDER BY DESC(?d) LIMIT 1",
    )
    assert {first(body)} == newest


def test_a_period_open_at_its_end():
    # "2024 年及以后", "2025 or later", "2024 and later" were read as that year alone
    for text in ("2024 年及以后", "2024 or later", "2024 and later", "2024 年及之后"):
        assert read_dates(fold(text))[0] == ("2024-01-01", "9999-12-31"), text


def test_chips_released_in_a_year_or_later_are_listed(asker, epoch_store):
    body = asker.ask("AMD 2024 年及以后推出的芯片有哪些")
    assert not body["abstained"]
    want = iris(
        epoch_store,
        "SELECT ?x WHERE { ?x a aikg:Hardware ; aikg:manufacturer id:amd ; aikg:availableFrom ?d "
        'FILTER(STR(?d) >= "2024") }',
    )
    assert len(want) >= 3 and {r["about"] for r in body["answer"]["rows"]} == want


def test_a_country_of_data_centers_is_read_in_their_address(asker, epoch_store):
    # data centers carry a postal address, never a country's name: an exact match counted 0, sure
    body = asker.ask("美国有多少个数据中心？")
    assert not body["abstained"]
    every = iris(epoch_store, "SELECT ?x WHERE { ?x a aikg:DataCenter ; aikg:locationName ?l }")
    abroad = iris(
        epoch_store,
        "SELECT ?x WHERE { ?x a aikg:DataCenter ; aikg:locationName ?l "
        'FILTER(CONTAINS(?l, "China") || CONTAINS(?l, "United Arab Emirates")) }',
    )
    assert len(abroad) == 2 and count_of(body) == len(every - abroad)
    china = asker.ask("How many data centers are there in China?")
    assert count_of(china) == 1
    # no address names Japan: a filter the class never takes there, not a count of nothing
    assert asker.ask("How many data centers are in Japan?")["abstained"]


@pytest.mark.parametrize(
    ("q", "chip"),
    [("H100 SXM5 的算力是多少", "nvidia-h100-sxm5-80gb"), ("谷歌的TPU v5p算力是多少", "google-tpu-v5p")],
)
def test_a_chips_compute_is_its_performance(asker, epoch_store, q, chip):
    # 算力 of a chip was the training compute of the runs that used it, sure
    body = asker.ask(q)
    assert not body["abstained"]
    facts = body["answer"]["facts"]
    assert body["answer"]["property"]["iri"].endswith("#tensorFp16Performance")
    want = values(epoch_store, f"SELECT ?v WHERE {{ id:{chip} aikg:tensorFp16Performance ?v }}")
    assert {float(facts[0]["value"])} == want
    # a model's 算力 is still its training compute
    model = asker.ask("Gemma 2 27B 的算力是多少")
    assert model["answer"]["property"]["iri"].endswith("#trainingCompute")


@pytest.mark.parametrize(
    ("q", "lo", "hi"),
    [
        ("Which Mistral models came out in the second half of 2024?", "2024-07-01", "2024-12-31"),
        ("2025 年及之后发布的 Mistral 模型有哪些", "2025-01-01", "9999-12-31"),
    ],
)
def test_a_makers_models_of_a_period_when_its_name_is_also_a_models(asker, epoch_store, q, lo, hi):
    # "Mistral" names Mistral 7B and Mistral AI: read as the one model's release date, no answer
    body = asker.ask(q)
    assert not body["abstained"] and body["understood"]["form"]["organizations"] == ["mistral-ai"]
    want = iris(
        epoch_store,
        "SELECT ?x WHERE { ?x a aikg:AIModel ; aikg:developer id:mistral-ai ; aikg:releaseDate ?d "
        f'FILTER(STR(?d) >= "{lo}" && STR(?d) <= "{hi}") }}',
    )
    assert len(want) >= 4 and {r["about"] for r in body["answer"]["rows"]} == want


def test_a_property_said_that_the_ranking_does_not_use_is_not_sure(asker):
    # "which has the highest TDP" beside a ranking by memory: another question's answer, said sure
    body = asker.ask("Which NVIDIA chip with the most memory has the highest TDP?")
    assert body["abstained"] and body["answer"]["kind"] == "unsure"
    assert "tdp" in body["understood"]["unknown"]


@pytest.mark.parametrize(
    ("q", "country", "year"),
    [
        ("日本 2024 年投入使用的集群有哪些", "Japan", "2024"),
        ("法國喺 2023 年投入運作嘅叢集有邊啲？", "France", "2023"),
        ("Which clusters in France were put into use in 2024?", "France", "2024"),
    ],
)
def test_clusters_put_into_use_in_a_year(asker, epoch_store, q, country, year):
    # 投入使用 was read as a status the answer did not apply, 投入運作 and "put into use" not at all: not sure
    body = asker.ask(q)
    assert not body["abstained"] and body["understood"]["unknown"] == []
    want = iris(
        epoch_store,
        f'SELECT ?x WHERE {{ ?x a aikg:Deployment ; aikg:locationName "{country}" ; aikg:date ?d '
        f'FILTER(STR(?d) >= "{year}-01-01" && STR(?d) <= "{year}-12-31") }}',
    )
    assert want and {r["about"] for r in body["answer"]["rows"]} == want


@pytest.mark.parametrize(
    ("q", "scope"),
    [
        ("How many existing clusters in Japan are rated Likely or better?", 'aikg:locationName "Japan"'),
        ("日本现役集群里可信度在 Likely 及以上的有几个？", 'aikg:locationName "Japan"'),
        ("How many operating clusters does Oracle have with an Epoch rating of at least Likely?", None),
        ("甲骨文的现役集群中，评级至少为 Likely 的有几个？", None),
    ],
)
def test_a_rating_named_as_a_floor_keeps_every_rating_above_it(asker, epoch_store, q, scope):
    # was: "rated Likely or better" read as rated Likely alone, 'likely' and 'better' not understood
    # (batch y's yb004), and "an Epoch rating of at least Likely", 评级至少为 Likely read as Epoch's rating
    # asked (provenance), answered with the sources of Oracle's clusters
    where = counted_clusters(scope or "aikg:operator id:oracle")
    want = values(epoch_store, f"SELECT (COUNT(DISTINCT ?x) AS ?n) WHERE {{ {where} }}")
    body = asker.ask(q)
    assert not body["abstained"] and body["understood"]["form"]["op"] == "count", q
    assert count_of(body) in {int(w) for w in want} and want & {23.0, 5.0}, (q, count_of(body), want)


def test_a_rating_floor_below_likely_is_not_read_as_that_rating_alone(asker):
    # the ratings Speculative and Unlikely as a floor are not read: not sure, never Speculative's rows alone
    body = asker.ask("How many existing clusters in Japan are rated Speculative or better?")
    assert body["abstained"] and "better" in body["understood"]["unknown"]


@pytest.mark.parametrize(
    ("q", "node", "prop"),
    [
        ("How many GPUs does Calcul Quebec Beluga have?", "cluster-calcul-quebec-beluga", "acceleratorCount"),
        ("Petrobras Dragao 的 H100 等效是多少？", "cluster-petrobras-dragao", "h100Equivalents"),
        ("How many H100e does Microsoft Sweden Gavle have?", "cluster-microsoft-sweden-gavle", None),
    ],
)
def test_a_name_typed_without_its_accents_links_the_thing(asker, epoch_store, q, node, prop):
    # was: "Beluga", "Dragao", "Gavle" not understood (Epoch writes Béluga, Dragão, Gävle)
    body = asker.ask(q)
    assert not body["abstained"], q
    assert body["understood"]["form"]["entities"][:1] == [node]
    want = values(epoch_store, f"SELECT ?v WHERE {{ id:{node} aikg:{prop or 'h100Equivalents'} ?v }}")
    assert want <= {float(f["value"]) for f in body["answer"]["facts"]}


def test_a_name_typed_with_an_accent_the_data_does_not_write_links_the_thing(asker, epoch_store):
    # was: "Jülich Supercomputing Centre" linked Pawsey Supercomputing Centre (a confident count of its one
    # cluster, batch y's ya022): Epoch writes "Julich Supercomputing Center"
    want = values(
        epoch_store,
        "SELECT (COUNT(DISTINCT ?c) AS ?n) WHERE { ?c a aikg:Deployment ; "
        "aikg:operator id:julich-supercomputing-center }",
    )
    body = asker.ask("how many clusters does the Jülich Supercomputing Centre run?")
    assert not body["abstained"]
    assert body["understood"]["form"]["organizations"] == ["julich-supercomputing-center"]
    assert want == {3.0} and count_of(body) == 3


def test_both_beside_a_comparison_and_calendar_before_a_year_restate_the_form(asker, epoch_store):
    # was: "both" and "calendar" not understood (not sure; batch y's ya003, yb003)
    body = asker.ask("Which has more parameters, Gopher or Chinchilla? Give both numbers.")
    want = values(
        epoch_store,
        "SELECT ?v WHERE { VALUES ?x { id:gopher-280b id:chinchilla } ?x aikg:totalParameters ?v }",
    )
    assert not body["abstained"] and body["understood"]["form"]["op"] == "compare"
    assert len(want) == 2 and want <= numbers(body)
    body = asker.ask("How much did Anthropic raise in calendar 2023?")
    assert not body["abstained"] and body["understood"]["form"]["dates"] == ["2023-01-01", "2023-12-31"]
    # a fiscal year is not the calendar's: not understood
    assert asker.ask("How much did Anthropic raise in fiscal 2023?")["abstained"]


@pytest.mark.parametrize(
    "q",
    [
        "How much did Amazon invest in Anthropic?",
        "谷歌给 Anthropic 投了多少钱？",
        "How much has NVIDIA invested in xAI?",
    ],
)
def test_what_one_organization_invested_in_another_is_never_the_investees_total(asker, q):
    # was: Anthropic's total raised (29.4 billion) under "of Amazon / Anthropic", confident (the lead's
    # probe: Microsoft in OpenAI); NVIDIA "invested in xAI" answered with NVIDIA's investors. Epoch's rounds
    # name no investor, so nothing links the two: no answer
    body = asker.ask(q)
    assert body["abstained"], (q, body["answer"].get("summary"))


def test_what_an_investor_put_into_a_company_a_deal_names_is_answered(asker, epoch_store):
    # the seed document's investment links both: NVIDIA's 1.5 billion in SB Energy
    want = values(
        epoch_store,
        "SELECT ?a WHERE { ?d aikg:party id:nvidia ; aikg:investee id:sb-energy ; aikg:amount ?a }",
    )
    body = asker.ask("How much did NVIDIA invest in SB Energy?")
    assert not body["abstained"] and want == {1.5e9} and want <= numbers(body)


@pytest.mark.parametrize(
    ("q", "sites"),
    [
        ("Who operates Colossus?", ("xai-colossus-1-memphis-tennessee", "xai-colossus-2-memphis-tennessee")),
        (
            "Fairwater 数据中心是谁运营的？",
            ("microsoft-fairwater-fayetteville-georgia", "microsoft-fairwater-mount-pleasant-wisconsin"),
        ),
    ],
)
def test_who_operates_the_sites_a_short_name_names_is_their_operator(asker, epoch_store, q, sites):
    # was: "I don't know" — the name names two data centers, compared on aikg:operatedBy (a platform's)
    # alone, which sites do not have (the lead's probe 5)
    named = " ".join("id:" + s for s in sites)
    query = f"SELECT ?o WHERE {{ VALUES ?x {{ {named} }} ?x aikg:operator ?o }}"
    want = {r[0].value for r in epoch_store.query(PRE + query).rows}
    body = asker.ask(q)
    assert not body["abstained"] and len(want) == 1
    got = {c.get("value") for r in body["answer"]["rows"] for c in r["cells"].values() if isinstance(c, dict)}
    assert want <= got, (q, got)


@pytest.mark.parametrize(
    ("q", "org"),
    [
        ("How many of OpenAI's funding rounds are still only in late discussions?", "openai"),
        ("Anthropic 有几轮融资还只是在洽谈？", "anthropic"),
    ],
)
def test_rounds_of_a_status_said_with_only_are_counted(asker, epoch_store, q, org):
    # was: "only in late discussions" not read as the status (funding-by-company listed, confident: part
    # n's nb026); 只 of 还只是在洽谈 not understood
    want = values(
        epoch_store,
        f"SELECT (COUNT(DISTINCT ?r) AS ?n) WHERE {{ ?r a aikg:FundingRound ; aikg:investee id:{org} ; "
        "aikg:status aikg:Planned }",
    )
    body = asker.ask(q)
    assert not body["abstained"] and body["understood"]["form"]["op"] == "count", q
    assert count_of(body) in {int(w) for w in want}


@pytest.mark.parametrize(
    ("q", "sparql"),
    [
        (
            "how many GPU clusters does Epoch's cluster dataset list for Amazon, any status",
            "?c a aikg:Deployment ; aikg:operator id:amazon ; aikg:sourceRow ?row",
        ),
        (
            "How many data centers does Epoch's Frontier Data Centers dataset hold?",
            "?c a aikg:DataCenter ; aikg:sourceRow ?row",
        ),
    ],
)
def test_what_epochs_dataset_lists_is_its_rows_not_a_seed_documents_nodes(asker, epoch_store, q, sparql):
    # was: Amazon's 11 rows and the seed article's "Amazon training clusters" (12); the 17 data centers and
    # the seed document's PORTS-Pike (18), confident (ma013, y064's kind)
    want = values(epoch_store, f"SELECT (COUNT(DISTINCT ?c) AS ?n) WHERE {{ {sparql} }}")
    body = asker.ask(q)
    assert not body["abstained"] and count_of(body) in {int(w) for w in want}, (q, count_of(body), want)
    assert "Epoch's dataset" in body["understood"]["description"]


def test_already_beside_a_status_typed_with_a_slip_is_understood(asker):
    # "already up and runnning": the status was respelt, "already" beside it stayed a word not understood
    body = asker.ask(
        "and how many r already up and runnning?", after="How many planned clusters does Voltage Park have?"
    )
    assert not body["abstained"] and body["understood"]["form"]["status"] == "Existing"
    assert body["understood"]["unknown"] == []


@pytest.mark.parametrize(
    ("q", "org", "status"),
    [
        ("美国能源部有几个集群已经停用了？", "us-department-of-energy", "Decommissioned"),
        ("Preferred Networks 有幾多個已停用嘅集群？", "preferred-networks-inc", "Decommissioned"),
        ("阿里雲有幾多個集群？", "alibaba", None),
    ],
)
def test_chinese_words_the_fold_or_the_press_write_otherwise(asker, epoch_store, q, org, status):
    # 停用, which the traditional-to-simplified fold writes 禁用; 阿里雲 (Alibaba's cloud): Alibaba's clusters
    where = f'; aikg:operationalStatus "{status}"' if status else ""
    every = values(
        epoch_store,
        f"SELECT (COUNT(DISTINCT ?c) AS ?n) WHERE {{ ?c a aikg:Deployment ; aikg:operator id:{org}{where} }}",
    )
    body = asker.ask(q)
    assert not body["abstained"] and body["understood"]["unknown"] == []
    assert every & ({count_of(body)} | every_counts(body))


def test_operating_company_per_day_and_in_terms_of_are_read(asker, epoch_store):
    body = asker.ask("星際之門阿比林數據中心嘅營運商係邊個？")
    assert not body["abstained"] and any(
        (f.get("node") or {}).get("id") == "oracle" or "Oracle" in json.dumps(f)
        for f in body["answer"]["facts"]
    )
    want = values(
        epoch_store,
        "SELECT ?v WHERE { ?f a aikg:UsageFigure ; aikg:agent id:deepseek ; aikg:dailyTokens ?v }",
    )
    body = asker.ask("DeepSeek 一天处理多少 token？")
    assert not body["abstained"] and numbers(body) & want
    body = asker.ask("H200 在显存带宽方面是多少？")
    want = values(epoch_store, "SELECT ?v WHERE { id:nvidia-h200-sxm aikg:memoryBandwidth ?v }")
    assert not body["abstained"] and {float(f["value"]) for f in body["answer"]["facts"]} == want


def test_a_follow_up_naming_no_class_ranks_the_list_before(asker, epoch_store):
    # "what's the biggest one?" / 最大的是哪个 after xAI's clusters above 100 MW: the biggest of those (it was
    # a named query of every owner's largest clusters, or not sure); "which has the highest TDP?" after
    # Huawei's chips above 60 GB keeps the bound
    top = (
        epoch_store.query(
            PRE + "SELECT ?c WHERE { ?c a aikg:Deployment ; aikg:operator id:xai ; aikg:operationalStatus "
            '"Existing" ; aikg:sourceConfidence ?k ; aikg:powerCapacity ?p . FILTER(?k IN ("Confirmed", '
            '"Likely") && ?p > 100) } ORDER BY DESC(?p) LIMIT 1'
        )
        .rows[0][0]
        .value
    )
    for q, after in (
        ("what's the biggest one?", "Which of xAI's clusters draw more than 100 MW?"),
        ("最大的是哪个？", "xAI 哪些集群的功率超过100兆瓦？"),
    ):
        body = asker.ask(q, after=after)
        assert not body["abstained"] and first(body) == top, q
    body = asker.ask("which has the highest TDP?", after="Which Huawei chips have more than 60 GB of memory?")
    form = body["understood"]["form"]
    assert form["threshold"] == [">", 60.0] and form["organizations"] == ["huawei"]


@pytest.mark.parametrize(
    ("q", "after", "cls", "prop", "org"),
    [
        ("and revenue?", "How many staff does OpenAI have?", "RevenueFigure", "annualRevenue", "openai"),
        ("收入呢？", "xAI 有多少员工？", "RevenueFigure", "annualRevenue", "xai"),
        (
            "how about headcount?",
            "What's Anthropic's latest annualized revenue?",
            "StaffFigure",
            "staffCount",
            "anthropic",
        ),
    ],
)
def test_a_follow_up_naming_another_company_figure_gives_that_figure(
    asker, epoch_store, q, after, cls, prop, org
):
    # the figure was asked of the rows before ("annualized revenue of staff figures"): nothing found
    want = values(
        epoch_store, f"SELECT ?v WHERE {{ ?f a aikg:{cls} ; aikg:agent id:{org} ; aikg:{prop} ?v }}"
    )
    body = asker.ask(q, after=after)
    assert not body["abstained"] and numbers(body) and numbers(body) <= want


def test_a_question_word_one_letter_off_a_place_is_no_place(asker):
    # "status" is one letter off "states" (a word of Microsoft's sites' addresses): read as a place beside
    # Quincy, it named no site and the answer was not sure
    body = asker.ask("What's the status of Microsoft's GPU cluster in Quincy?")
    assert not body["abstained"] and "Existing" in json.dumps(body["answer"])


def _gold_set(store, sparql: str) -> set[str]:
    return {r[0].value for r in store.query(PRE + sparql).rows if r[0] is not None}


@pytest.mark.parametrize(
    ("q", "round_"),
    [
        (
            "Where does the Anthropic Series F figure come from? need the link",
            "anthropic-sep-2025-183b-series-f",
        ),
        ("Mistral 2023年12月的 A 轮融资，来源链接是什么？", "mistral-ai-december-2023-series-a"),
        ("Where does the Mistral seed round figure come from? link please", "mistral-ai-june-2023-seed"),
        ("Epoch 对 Mistral 的 B 轮融资有多大把握？", "mistral-ai-june-2024-series-b"),
    ],
)
def test_the_provenance_of_one_round_named_is_that_rounds_row(asker, epoch_store, q, round_):
    # was: every round of the company (or the model Mistral 7B's statements), the one asked among them
    body = asker.ask(q)
    rows = [r["cells"] for r in body["answer"].get("rows", [])]
    assert not body["abstained"] and rows, q
    assert {c["node"]["value"] for c in rows} == {ID + "funding-round-" + round_}, q
    cited = _gold_set(
        epoch_store, f"SELECT ?u WHERE {{ id:funding-round-{round_} <https://schema.org/url> ?u }}"
    )
    assert cited and {c["cited"]["value"] for c in rows} == cited
    rating = _gold_set(
        epoch_store, f"SELECT ?c WHERE {{ id:funding-round-{round_} aikg:sourceConfidence ?c }}"
    )
    assert {c["confidence"]["value"] for c in rows} == rating


@pytest.mark.parametrize(
    ("q", "model"),
    [
        ("What rating does Epoch give Claude 3 Opus?", "claude-3-opus"),
        ("Epoch 对 Gemini 1.0 Ultra 训练数据的可信度评级是什么？", "gemini-1-0-ultra"),
        ("Where does Epoch's data on Qwen2.5-72B come from? need the link", "qwen2-5-72b"),
    ],
)
def test_epochs_rating_of_a_model_is_its_training_runs(asker, epoch_store, q, model):
    # Epoch's row of a model is its training run's (rating, links); was every statement about the model
    body = asker.ask(q)
    assert not body["abstained"] and body["understood"].get("query") is None, q
    runs = _gold_set(
        epoch_store, f"SELECT ?r WHERE {{ ?r aikg:trainedModel id:{model} ; aikg:sourceConfidence ?c }}"
    )
    rows = [r["cells"] for r in body["answer"]["rows"]]
    assert runs and {c["node"]["value"] for c in rows} == runs
    rating = _gold_set(
        epoch_store, f"SELECT ?c WHERE {{ ?r aikg:trainedModel id:{model} ; aikg:sourceConfidence ?c }}"
    )
    assert {c["confidence"]["value"] for c in rows} == rating
    # a seed document's model, with no rating of Epoch's asked: every statement about it, as before
    assert asker.ask("how sure is the Inkling model")["understood"]["query"] == "sources-of-entity"


@pytest.mark.parametrize(
    ("q", "column", "want"),
    [
        (
            "Which firm is the source of the TPU v9t rumour, and how certain is it?",
            "reportedBy",
            ID + "semianalysis",
        ),
        ("Which company reported the TPU v9i rumour?", "reportedBy", ID + "semianalysis"),
        ("TPU v9i 呢單消息係邊間公司爆出嚟㗎？", "reportedBy", ID + "semianalysis"),
        ("TPU v9i 這個消息確定嗎？還是傳聞？", "certainty", "https://w3id.org/aikg/ontology#Rumoured"),
        (
            "Is the TPU v9t news confirmed or just a rumour?",
            "certainty",
            "https://w3id.org/aikg/ontology#Rumoured",
        ),
    ],
)
def test_who_reported_a_thing_and_how_certain_it_is_asked_by_the_kind_of_party(asker, q, column, want):
    # was: every statement about the chip (sources-of-entity), or unconfirmed claims of every document
    body = asker.ask(q)
    assert not body["abstained"] and body["understood"].get("query") is None, q
    assert body["answer"]["rows"][0]["cells"][column]["value"] == want, q


def test_a_media_outlet_asked_is_no_party_the_relayed_claim_names(asker):
    # the outlet that carried the relayed claim is the report's publisher, which the unnamed model's own
    # row does not give: no answer, never its relayer
    assert asker.ask("Which media outlet first carried the news that pre-training got under 3 days?")[
        "abstained"
    ]


@pytest.mark.parametrize(
    ("q", "want"),
    [
        ("OpenAI 2024 年推理方面的算力支出是多少？", 1.8e9),
        ("OpenAI 2025 年光研发算力花了多少钱", 9e9),
        ("How many tokens per day is OpenAI's API serving?", 8.6e12),
        ("OpenAI API 一日處理幾多 token？", 8.6e12),
        ("OpenAI 的 API 一天要处理多少 token？", 8.6e12),
    ],
)
def test_words_restating_a_figure_leave_it_answered(asker, q, want):
    # 方面 (the side a figure is of), 光 (that category alone), "serving", 处理 (the volume handled) restate
    # the figure asked: they were words not understood, so the answer was not sure
    body = asker.ask(q)
    assert not body["abstained"], q
    assert float(body["answer"]["rows"][0]["cells"]["value"]["value"]) == want, q


@pytest.mark.parametrize(
    ("q", "cls", "org", "year"),
    [
        (
            "What's the source link for Anthropic's 2024 compute spend?",
            "ComputeSpendFigure",
            "anthropic",
            2024,
        ),
        ("How confident is Epoch about OpenAI's revenue in 2024?", "RevenueFigure", "openai", 2024),
        ("xAI 2025 年的员工数据出自哪里？", "StaffFigure", "xai", 2025),
    ],
)
def test_the_provenance_of_an_organizations_figures_of_a_year_is_of_that_years_rows(
    asker, epoch_store, q, cls, org, year
):
    # was: every row of the company (the 2023 figure first for "2024")
    body = asker.ask(q)
    assert not body["abstained"], q
    want = _gold_set(
        epoch_store,
        f"SELECT ?x WHERE {{ ?x a aikg:{cls} ; aikg:agent id:{org} ; aikg:date ?d "
        f"FILTER(YEAR(?d) = {year}) }}",
    )
    assert want and {r["cells"]["node"]["value"] for r in body["answer"]["rows"]} == want, q


@pytest.mark.parametrize(
    ("q", "node"),
    [
        ("Where was OpenAI's 3,000 staff figure reported?", "staff-openai-july-2025-3000"),
        ("xAI 2025 年 3 月 300 人嘅員工數，係邊度報道嘅？", "staff-xai-march-2025-300"),
    ],
)
def test_where_a_figure_was_reported_is_its_source(asker, epoch_store, q, node):
    # was: the company's staff figures listed, not their source
    body = asker.ask(q)
    assert not body["abstained"] and body["understood"]["form"]["op"] == "provenance", q
    rows = [r["cells"] for r in body["answer"]["rows"]]
    assert rows[0]["node"]["value"] == ID + node
    cited = _gold_set(epoch_store, f"SELECT ?u WHERE {{ id:{node} <https://schema.org/url> ?u }}")
    assert cited <= {c["cited"]["value"] for c in rows if c["node"]["value"] == ID + node}


@pytest.mark.parametrize(
    ("q", "want"),
    [
        ("按那篇文章的说法，Groq 明年数据中心规模能到多少兆瓦？", 200.0),
        ("According to the article, how much data-center capacity will Groq have next year, in MW?", 200.0),
        ("按那篇报道的说法，Groq 现在的数据中心规模是多少兆瓦？", 54.0),
    ],
)
def test_a_figure_asked_as_the_article_states_it_is_the_figure_not_its_source(asker, q, want):
    # was: the sources of every capacity figure of Groq, this year's 54 MW first for next year's
    body = asker.ask(q)
    assert not body["abstained"] and body["understood"]["form"]["op"] != "provenance", q
    assert float(body["answer"]["facts"][0]["value"]) == want, q
    # the article asked for itself is still its source
    assert (
        asker.ask("Which article says Groq will have 200 MW next year?")["understood"]["form"]["op"]
        == "provenance"
    )


@pytest.mark.parametrize(
    ("q", "org"),
    [("What's the largest cluster Oracle operates?", "oracle"), ("甲骨文运营的最大集群是哪个？", "oracle")],
)
def test_the_largest_of_what_an_organization_operates_ranks_as_the_class_ranks(asker, epoch_store, q, org):
    # "operates" was read as the property ranked by (the operator): no answer
    body = asker.ask(q)
    assert not body["abstained"] and body["understood"]["form"]["property"] == "h100Equivalents"
    want = iris(
        epoch_store,
        f"SELECT ?x WHERE {{ ?x a aikg:Deployment ; aikg:operator/aikg:parentOrganization* id:{org} ; "
        'aikg:operationalStatus "Existing" ; aikg:sourceConfidence ?c ; aikg:h100Equivalents ?h '
        'FILTER(?c IN ("Confirmed", "Likely")) } ORDER BY DESC(?h) LIMIT 1',
    )
    assert {first(body)} == want
