"""The JSON lookup API by value: search, entities with sources and certainty, types, stats, named
queries (JSON and CSV), caching with ETag / 304, and the 4xx answers, over the seeded store."""

from __future__ import annotations

import csv
import io
from urllib.parse import quote

import pytest

AIKG = "https://w3id.org/aikg/ontology#"
ID = "https://w3id.org/aikg/id/"
CW_GRAPH = "https://w3id.org/aikg/graph/sources/frontier-insights-coreweave-mlperf-2026-08-18"
CW_TITLE = (
    "CoreWeave 用 8,192 张 GB300 NVL72 把 DeepSeek-V3 671B 训练压到 2.02 分钟：前沿训练的瓶颈已从"
    "「模型配方」转向「集群工程」"
)
MLPERF_RESULT = "result-mlperf-training-v6-0-coreweave-deepseek-v3"


def _ids(resp) -> list[str]:
    assert resp.status_code == 200, resp.get_data(as_text=True)
    return [r["id"] for r in resp.get_json()["results"]]


def _fact(facts: list[dict], prop: str) -> dict:
    found = [f for f in facts if f["property"]["iri"] == AIKG + prop]
    assert len(found) == 1, [f["property"]["name"] for f in facts]
    return found[0]


def _error(resp, status: int) -> dict:
    assert resp.status_code == status, resp.get_data(as_text=True)
    body = resp.get_json()
    assert body["ok"] is False and body["status"] == status
    return body


# -- search ---------------------------------------------------------------------------------------


def test_search_prefix_puts_coreweave_first(ro_client):
    resp = ro_client.get("/api/search?q=core")
    body = resp.get_json()
    first = body["results"][0]
    assert first["id"] == "coreweave"
    assert first["iri"] == ID + "coreweave"
    assert first["label"] == "CoreWeave"
    assert first["matched"] == "CoreWeave"
    assert first["match"] == "prefix"
    assert [t["name"] for t in first["types"]] == ["Neocloud"]
    assert first["types"][0]["label"] == "neocloud"
    scores = [r["score"] for r in body["results"]]
    assert scores == sorted(scores, reverse=True)


def test_search_pages_through_a_name_many_entities_share(ro_client):
    """Found checking answers against Epoch's CSVs: 257 clusters are all "Anonymized Chinese System",
    and search stopped at its 100 best with no way on. Pages of the same ranking follow each other."""
    whole = ro_client.get("/api/search?q=a&limit=12").get_json()
    first = ro_client.get("/api/search?q=a&limit=5").get_json()
    second = ro_client.get(first["next"]).get_json()
    assert len(whole["results"]) == 12
    ids = [h["id"] for h in whole["results"]]
    assert [h["id"] for h in first["results"]] + [h["id"] for h in second["results"]] == ids[:10]
    assert (first["offset"], second["offset"]) == (0, 5)
    assert first["next"] == "/api/search?q=a&limit=5&offset=5"
    everything = ro_client.get("/api/search?q=coreweave&limit=100").get_json()
    last = ro_client.get(
        f"/api/search?q=coreweave&limit=1&offset={len(everything['results']) - 1}"
    ).get_json()
    assert last["next"] is None and last["results"] == everything["results"][-1:]
    assert ro_client.get("/api/search?q=a&offset=901").status_code == 400


def test_search_substring_finds_coreweave(ro_client):
    body = ro_client.get("/api/search?q=weave").get_json()
    assert body["results"][0]["id"] == "coreweave"
    assert body["results"][0]["match"] == "substring"


def test_search_chinese_name_finds_nvidia(ro_client):
    body = ro_client.get("/api/search?q=" + quote("英伟达")).get_json()
    first = body["results"][0]
    assert (first["id"], first["matched"], first["match"]) == ("nvidia", "英伟达", "exact")
    assert first["label"] == "NVIDIA"


@pytest.mark.parametrize(
    ("typed", "meant"), [("nvidai", "nvidia"), ("CoreWaeve", "coreweave"), ("Micrsoft", "microsoft")]
)
def test_search_finds_a_misspelt_name_and_says_so(ro_client, typed, meant):
    """A name typed with a letter swapped or missing matched nothing (an empty page, as if aikg knew
    nothing of NVIDIA): now the closest names are the hits, marked misspelt, below every real match."""
    body = ro_client.get("/api/search?q=" + typed).get_json()
    first = body["results"][0]
    assert (first["id"], first["match"]) == (meant, "misspelt")
    assert first["score"] < 0.2


def test_search_guesses_no_name_for_a_word_near_none(ro_client):
    assert _ids(ro_client.get("/api/search?q=xqzvbn")) == []
    assert _ids(ro_client.get("/api/search?q=nvid")) != []  # a prefix is a match, not a misspelling
    assert {h["match"] for h in ro_client.get("/api/search?q=nvid").get_json()["results"]} != {"misspelt"}


def test_search_abbreviation_finds_deepseek_v3(ro_client):
    body = ro_client.get("/api/search?q=V3").get_json()
    first = body["results"][0]
    assert (first["id"], first["matched"], first["match"]) == ("deepseek-v3", "V3", "exact")


def test_search_is_case_insensitive(ro_client):
    assert _ids(ro_client.get("/api/search?q=COREWEAVE"))[0] == "coreweave"
    assert _ids(ro_client.get("/api/search?q=nvidia"))[0] == "nvidia"


def test_search_exact_before_prefix(ro_client):
    ids = _ids(ro_client.get("/api/search?q=GB300"))
    assert ids[:2] == ["gb300", "gb300-nvl72"]


def test_search_type_filter_includes_subclasses(ro_client):
    ids = _ids(ro_client.get("/api/search?q=core&type=Organization"))
    assert ids == ["coreweave"]  # the neocloud; its events and the white paper are not organizations
    by_iri = _ids(ro_client.get("/api/search?q=core&type=" + quote(AIKG + "CloudOperator")))
    assert by_iri == ["coreweave"]
    assert _ids(ro_client.get("/api/search?q=core&type=AIModel")) == []
    # a blank type is no filter, as the OpenAPI document says (schemathesis sent one with white space)
    unfiltered = _ids(ro_client.get("/api/search?q=core"))
    assert len(unfiltered) > 1 and _ids(ro_client.get("/api/search?q=core&type=%20")) == unfiltered


def test_search_limit(ro_client):
    assert len(_ids(ro_client.get("/api/search?q=a&limit=3"))) == 3
    assert len(_ids(ro_client.get("/api/search?q=a"))) == 10


@pytest.mark.parametrize(
    "query, param",
    [
        ("", "q"),
        ("?q=", "q"),
        ("?q=%20%20", "q"),
        ("?q=core&limit=0", "limit"),
        ("?q=core&limit=101", "limit"),
        ("?q=core&limit=ten", "limit"),
        ("?q=core&type=Spaceship", "type"),
    ],
)
def test_search_bad_parameters_are_400_naming_them(ro_client, query, param):
    body = _error(ro_client.get("/api/search" + query), 400)
    assert f"'{param}'" in body["message"]
    assert body["errors"][0]["parameter"] == param


# -- entities -------------------------------------------------------------------------------------


def test_entity_coreweave_expands_its_mlperf_result(ro_client):
    body = ro_client.get("/api/entities/coreweave").get_json()
    assert body["id"] == "coreweave" and body["label"] == "CoreWeave"
    assert [t["name"] for t in body["types"]] == ["Neocloud"]
    incoming = [r for r in body["relations"]["incoming"] if r["node"]["id"] == MLPERF_RESULT]
    assert [r["property"]["name"] for r in incoming] == ["aikg:submitter"]
    result = incoming[0]["node"]
    assert [t["name"] for t in result["types"]] == ["BenchmarkResult"]
    facts = result["expanded"]["facts"]
    count = _fact(facts, "acceleratorCount")
    assert (count["value"], count["number"]) == ("8192", 8192)
    minutes = _fact(facts, "timeToTrain")
    assert minutes["value"] == "2.02" and minutes["number"] == 2.02
    assert minutes["datatype"] == "http://www.w3.org/2001/XMLSchema#decimal"
    assert minutes["unit"] == {"iri": "http://qudt.org/vocab/unit/MIN", "symbol": "min", "label": "minutes"}
    (source,) = minutes["sources"]
    assert source["graph"] == CW_GRAPH
    assert source["document"]["title"] == CW_TITLE
    assert source["certainty"]["iri"] == AIKG + "Reported"
    links = {(r["property"]["name"], r["node"]["id"]) for r in result["expanded"]["relations"]}
    assert ("aikg:workload", "deepseek-v3") in links
    assert ("aikg:system", "gb300-nvl72") in links
    assert ("aikg:round", "mlperf-training-v6-0") in links


def test_entity_lists_cited_documents_with_publisher_and_date(ro_client):
    body = ro_client.get("/api/entities/coreweave").get_json()
    docs = {d["graph"]: d for d in body["documents"]}
    doc = docs[CW_GRAPH]
    assert doc["id"] == "frontier-insights-coreweave-mlperf-2026-08-18"
    assert doc["title"] == CW_TITLE
    assert doc["date"] == "2026-08-18"
    assert doc["publisher"]["id"] == "frontier-tech-insights"
    assert doc["publisher"]["label"] == "Frontier Tech Insights"


def test_entity_qualified_figure_carries_qualifier_and_its_certainty(ro_client):
    body = ro_client.get("/api/entities/" + MLPERF_RESULT).get_json()
    hours = _fact(body["facts"], "gpuHours")
    assert hours["value"] == "276"
    assert hours["unit"]["label"] == "hours"
    assert hours["qualifier"]["symbol"] == "≈"
    assert hours["qualifier"]["iri"] == AIKG + "Approximately"
    assert hours["sources"][0]["certainty"]["iri"] == AIKG + "Estimated"


def test_entity_relayed_claim_has_certainty_relayed(ro_client):
    body = ro_client.get("/api/entities/training-run-unnamed-model-tinker").get_json()
    days = _fact(body["facts"], "durationDays")
    assert days["value"] == "3"
    assert days["unit"]["label"] == "days"
    assert days["qualifier"]["symbol"] == "≤"
    assert [s["certainty"]["label"] for s in days["sources"]] == ["relayed second-hand"]
    relayed = [r for r in body["relations"]["outgoing"] if r["property"]["name"] == "aikg:relayedBy"]
    assert relayed[0]["node"]["id"] == "soumith-chintala"
    assert relayed[0]["sources"][0]["certainty"]["iri"] == AIKG + "Relayed"


def test_entity_incoming_relation_certainty_comes_from_the_other_node(ro_client):
    body = ro_client.get("/api/entities/soumith-chintala").get_json()
    relayed = {
        r["node"]["id"]: r for r in body["relations"]["incoming"] if r["property"]["name"] == "aikg:relayedBy"
    }
    assert relayed["training-run-unnamed-model-tinker"]["sources"][0]["certainty"]["iri"] == AIKG + "Relayed"


def test_entity_names_by_language(ro_client):
    body = ro_client.get("/api/entities/nvidia").get_json()
    assert body["label"] == "NVIDIA"
    assert body["labels"]["en"] == "NVIDIA" and body["labels"]["zh"] == "英伟达"
    assert {"value": "Nvidia", "lang": None} in body["altLabels"]


def test_entity_by_full_iri(ro_client):
    body = ro_client.get("/api/entities/" + quote(ID + "coreweave", safe="")).get_json()
    assert body["id"] == "coreweave"


@pytest.mark.parametrize("entity_id", ["no-such-entity", "Not A Slug", quote(ID + "nothing-here", safe="")])
def test_unknown_entity_is_404(ro_client, entity_id):
    _error(ro_client.get("/api/entities/" + entity_id), 404)


@pytest.mark.parametrize(
    ("typed", "slug"), [("NVIDIA", "nvidia"), ("英伟达", "nvidia"), ("coreweave-inc", "coreweave")]
)
def test_an_unknown_id_that_names_an_entity_says_which(ro_client, typed, slug):
    """A name typed where a slug is wanted (its case, its Chinese name, its legal form): 404, naming the
    entity the search opens for it, by the API's and the linked-data paths, and on the explorer's page."""
    body = _error(ro_client.get("/api/entities/" + quote(typed, safe="")), 404)
    (suggestion,) = (e["suggestion"] for e in body["errors"])
    assert suggestion["id"] == slug and suggestion["label"] and suggestion["api"] == f"/api/entities/{slug}"
    assert f"did you mean {slug!r}" in body["message"]
    linked = ro_client.get("/id/" + quote(typed, safe=""), headers={"Accept": "text/turtle"})
    assert linked.status_code == 404 and linked.get_json()["errors"][0]["suggestion"]["id"] == slug
    page = ro_client.get("/id/" + quote(typed, safe=""), headers={"Accept": "text/html"})
    assert page.status_code == 404 and f'href="/id/{slug}"' in page.get_data(as_text=True)


def test_an_unknown_id_like_no_name_gets_no_suggestion(ro_client):
    body = _error(ro_client.get("/api/entities/zzzzzzzz"), 404)
    assert body["errors"] == []


# -- types and stats ------------------------------------------------------------------------------


def test_types_count_subclasses(ro_client):
    types = {t["name"]: t for t in ro_client.get("/api/types").get_json()["types"]}
    assert types["Neocloud"]["label"] == "neocloud"
    assert types["Neocloud"]["direct"] >= 1
    org = types["Organization"]
    assert org["total"] >= org["direct"] + types["Neocloud"]["direct"] + types["HardwareVendor"]["direct"]
    assert [p["name"] for p in types["Neocloud"]["parents"]] == ["CloudOperator"]


def test_stats_count_graphs_and_sources(ro_client, ro_app, seeded_store, backend):
    body = ro_client.get("/api/stats").get_json()
    graphs = {g["graph"]: g["triples"] for g in body["graphs"]}
    assert graphs[CW_GRAPH] == seeded_store.count(CW_GRAPH)
    # What the store holds. The shared Virtuoso can hold a few triples more than the seeds after other
    # files' writes (in two test processes, 3 once: literals it keeps in its own lexical form are not
    # removed by the restore); the embedded store is the seeds exactly.
    held = ro_app.extensions["aikg.services"].store.count()
    assert body["triples"] == held
    if backend == "oxigraph":
        assert held == seeded_store.count()
    assert CW_GRAPH in {s["graph"] for s in body["sources"]}
    assert body["entities"] > 50


def test_health(ro_client, backend):
    body = ro_client.get("/api/health").get_json()
    assert body["ok"] is True and body["store"] == {"oxigraph": "oxigraph", "virtuoso": "remote"}[backend]


# -- caching --------------------------------------------------------------------------------------


def test_repeat_with_etag_is_304(ro_client):
    first = ro_client.get("/api/entities/coreweave")
    etag = first.headers["ETag"]
    assert etag
    again = ro_client.get("/api/entities/coreweave", headers={"If-None-Match": etag})
    assert again.status_code == 304
    assert again.headers["ETag"] == etag
    assert again.get_data() == b""
    weak = ro_client.get("/api/entities/coreweave", headers={"If-None-Match": "W/" + etag})
    assert weak.status_code == 304  # If-None-Match compares weakly (a proxy may have weakened the tag)
    other = ro_client.get("/api/entities/nvidia", headers={"If-None-Match": etag})
    assert other.status_code == 200


def test_cached_answer_is_the_same(ro_client):
    a = ro_client.get("/api/search?q=core")
    b = ro_client.get("/api/search?q=core")
    assert a.get_data() == b.get_data() and a.headers["ETag"] == b.headers["ETag"]


def test_a_write_changes_the_etag_and_the_answer(client):
    before = client.get("/api/search?q=zyxel-test-entity")
    assert before.get_json()["results"] == []
    etag = before.headers["ETag"]
    turtle = (
        "<https://w3id.org/aikg/id/zyxel-test-entity> a <https://w3id.org/aikg/ontology#Neocloud> ; "
        '<http://www.w3.org/2000/01/rdf-schema#label> "Zyxel-test-entity"@en .'
    )
    store = client.application.extensions["aikg.services"].store
    store.load(turtle.encode(), mime="text/turtle", graph="https://w3id.org/aikg/graph/test")
    after = client.get("/api/search?q=zyxel-test-entity", headers={"If-None-Match": etag})
    assert after.status_code == 200
    assert after.headers["ETag"] != etag
    assert [r["id"] for r in after.get_json()["results"]] == ["zyxel-test-entity"]


# -- named queries --------------------------------------------------------------------------------


def test_queries_list_names_titles_and_parameters(ro_client):
    queries = {q["name"]: q for q in ro_client.get("/api/queries").get_json()["queries"]}
    assert {"nvidia-only-capacity", "deals-of-organization", "events-between"} <= set(queries)
    deals = queries["deals-of-organization"]
    assert deals["title"]
    assert [(p["name"], p["type"], p["required"]) for p in deals["parameters"]] == [("org", "entity", True)]


def test_named_query_json_links_entities(ro_client):
    body = ro_client.get("/api/queries/deals-of-organization?org=coreweave").get_json()
    assert body["query"] == "deals-of-organization"
    assert body["truncated"] is False
    assert "deal" in body["columns"]
    deals = {row["deal"]["id"]: row for row in body["rows"]}
    assert {"deal-coreweave-microsoft-2023", "deal-coreweave-openai-2025"} <= set(deals)
    row = deals["deal-coreweave-openai-2025"]
    assert row["deal"]["type"] == "uri" and row["deal"]["label"]
    assert row["org"]["id"] == "coreweave" and row["org"]["label"] == "CoreWeave"


def test_named_query_nvidia_only_capacity(ro_client):
    # "园区只跑 NVIDIA 算力": the PORTS-Pike campus SB Energy runs for OpenAI.
    body = ro_client.get("/api/queries/nvidia-only-capacity").get_json()
    holders = {
        (row["holder"]["id"], row["via"]["id"]) for row in body["rows"] if row["vendor"]["id"] == "nvidia"
    }
    assert {("openai", "ports-pike"), ("sb-energy", "ports-pike")} <= holders
    assert body["rows"][0]["holder"]["label"]


@pytest.mark.parametrize(
    "how",
    [
        {"query_string": {"org": "coreweave", "format": "csv"}},
        {"query_string": {"org": "coreweave"}, "headers": {"Accept": "text/csv"}},
    ],
)
def test_named_query_csv(ro_client, how):
    resp = ro_client.get("/api/queries/deals-of-organization", **how)
    assert resp.status_code == 200
    assert resp.mimetype == "text/csv"
    rows = list(csv.DictReader(io.StringIO(resp.get_data(as_text=True))))
    assert ID + "deal-coreweave-openai-2025" in {r["deal"] for r in rows}


def test_a_named_query_page_of_the_whole_row_cap_is_answered(ro_client):
    """``limit`` up to the row cap is valid: at the cap the page is asked for the cap, not one row more
    (Virtuoso sorts at most 10,000 rows: ``?limit=10000`` was a 503 on the remote engine)."""
    resp = ro_client.get("/api/queries/deals-of-organization?org=coreweave&limit=10000")
    assert resp.status_code == 200, resp.get_json()
    body = resp.get_json()
    assert body["rows"] and body["truncated"] is False and body["total"] == len(body["rows"])


def test_named_query_repeat_is_304(ro_client):
    first = ro_client.get("/api/queries/deals-of-organization?org=coreweave")
    again = ro_client.get(
        "/api/queries/deals-of-organization?org=coreweave", headers={"If-None-Match": first.headers["ETag"]}
    )
    assert again.status_code == 304


@pytest.mark.parametrize(
    "query, param",
    [
        ("deals-of-organization", "org"),
        ("deals-of-organization?org=", "org"),
        ("deals-of-organization?org=Not%20A%20Slug", "org"),
        ("deals-of-organization?org=NV_IDIA", "org"),
        ("events-between?from=2026-13-45&to=2026-12-31", "from"),
        ("events-between?from=2026-01-01&to=yesterday", "to"),
    ],
)
def test_named_query_bad_parameter_is_400_naming_it(ro_client, query, param):
    body = _error(ro_client.get("/api/queries/" + query), 400)
    assert f"'{param}'" in body["message"]


@pytest.mark.parametrize(
    ("first", "last"), [("2026-09-01", "2026-06-01"), ("2026-07", "2026-06-30"), ("2027", "2026-12-31")]
)
def test_a_range_that_ends_before_it_starts_is_400_not_an_empty_answer(ro_client, first, last):
    """events-between with its days the wrong way round answered 200 with no rows: "nothing happened"
    to a person who had swapped two fields. A range holding no day is refused, naming both ends."""
    body = _error(ro_client.get(f"/api/queries/events-between?from={first}&to={last}"), 400)
    assert f"'from' ({first}) is after 'to' ({last})" in body["message"]
    same_day = ro_client.get("/api/queries/events-between?from=2026-06&to=2026-06-01")
    assert same_day.status_code == 200  # June's first day is in June


def test_an_entity_id_typed_in_capitals_is_the_id(ro_client):
    lower = ro_client.get("/api/queries/deals-of-organization?org=coreweave").get_json()
    upper = ro_client.get("/api/queries/deals-of-organization?org=CoreWeave").get_json()
    assert upper["rows"] == lower["rows"] and lower["rows"]
    body = _error(ro_client.get("/api/queries/deals-of-organization?org=corewaeve"), 400)
    assert "/api/search?q=corewaeve" in body["message"]  # where to find the id that was meant


def test_unknown_named_query_is_404(ro_client):
    _error(ro_client.get("/api/queries/no-such-query"), 404)


def test_named_query_unacceptable_format_is_406(ro_client):
    body = _error(ro_client.get("/api/queries/nvidia-only-capacity", headers={"Accept": "image/png"}), 406)
    assert "text/csv" in body["message"]
    _error(ro_client.get("/api/queries/nvidia-only-capacity?format=xlsx"), 406)


def test_json_routes_refuse_unacceptable_types(ro_client):
    _error(ro_client.get("/api/search?q=core", headers={"Accept": "image/png"}), 406)


def test_openapi_lists_every_api_route(ro_app, ro_client):
    doc = ro_client.get("/api/openapi.json").get_json()
    assert doc["openapi"].startswith("3.")
    documented = set(doc["paths"])
    for rule in ro_app.url_map.iter_rules():
        if rule.rule.startswith("/api/"):
            path = rule.rule.replace("<path:entity_id>", "{id}").replace("<path:entity>", "{id}")
            path = path.replace("<path:import_id>", "{id}")
            path = path.replace("<name>", "{name}")
            assert path in documented, rule.rule
    assert "/api/queries/deals-of-organization" in documented
    org = doc["paths"]["/api/queries/deals-of-organization"]["get"]["parameters"][0]
    assert (org["name"], org["required"]) == ("org", True)
