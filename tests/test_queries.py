"""Named queries: every file parses and runs, parameters are bound (never pasted), and on the seed graph
each query returns the rows the source documents call for, asserted by value."""

from __future__ import annotations

from decimal import Decimal
from pathlib import Path

import pyoxigraph as ox
import pytest

from aikg.errors import BadRequest, NotFound
from aikg.query.named import PARAMETER_TYPES, bind_parameters, get_query, load_queries
from helpers import run_named

ID = "https://w3id.org/aikg/id/"
AIKG = "https://w3id.org/aikg/ontology#"
XSD = "http://www.w3.org/2001/XMLSchema#"
COREWEAVE_RESULT = "result-mlperf-training-v6-0-coreweave-deepseek-v3"
SETTINGS: dict[str, object] = {}  # the defaults (run_named passes on the limits given here)
REQUIRED = {
    "nvidia-only-capacity",
    "model-accelerator-results",
    "deals-of-organization",
    "sources-of-entity",
    "peers-in-category",
    "events-between",
    "unconfirmed-claims",
}
EXAMPLE = {
    "entity": "coreweave",
    "iri": ID + "coreweave",
    "string": "x",
    "date": "2024-01-01",
    "integer": "1",
    "decimal": "1.5",
}


def short(term) -> str | None:
    """An RDF term as a compact string: ``id:`` and ``aikg:`` IRIs shortened, literals as their text."""
    if term is None:
        return None
    text = term.value
    if isinstance(term, ox.Literal):
        return text
    for iri, prefix in ((ID, "id:"), (AIKG, "aikg:")):
        if text.startswith(iri):
            return prefix + text[len(iri) :]
    return text


def rows(store, name: str, **params: str) -> list[dict[str, str | None]]:
    """Run a named query under the service's limits; every row as {variable: compact value}."""
    result = run_named(store, name, params, SETTINGS)
    return [{v: short(t) for v, t in zip(result.variables, row, strict=True)} for row in result.rows]


def pick(row: dict, *keys: str) -> tuple:
    return tuple(row[k] for k in keys)


# --------------------------------------------------------------------------- the registry itself


def test_required_queries_exist_with_title_description_and_sparql():
    queries = load_queries()
    assert set(queries) >= REQUIRED
    for q in queries.values():
        assert q.title and q.description, q.name
        assert q.text.lstrip().startswith("#"), q.name
        for p in q.parameters:
            assert p.type in PARAMETER_TYPES and p.description, (q.name, p.name)
            assert f"?{p.name}" in q.text, f"{q.name}: parameter {p.name} is not a variable of the query"


def test_parameters_of_the_contract_queries():
    assert [(p.name, p.type, p.required) for p in get_query("deals-of-organization").parameters] == [
        ("org", "entity", True)
    ]
    assert [(p.name, p.type, p.required) for p in get_query("sources-of-entity").parameters] == [
        ("entity", "entity", True)
    ]
    assert [(p.name, p.type, p.required) for p in get_query("peers-in-category").parameters] == [
        ("org", "entity", True)
    ]
    assert [(p.name, p.type, p.required) for p in get_query("events-between").parameters] == [
        ("from", "date", True),
        ("to", "date", True),
    ]


@pytest.mark.parametrize("name", sorted(load_queries()))
def test_every_query_parses_and_runs_on_the_seeds(seeded_store, name):
    q = get_query(name)
    params = {p.name: EXAMPLE[p.type] for p in q.parameters if p.required}
    result = run_named(seeded_store, name, params, SETTINGS)
    assert result.variables
    assert not result.truncated
    # A bound parameter is projected, so the caller sees the value it was run with.
    for pname in params:
        if result.rows:
            col = result.variables.index(pname)
            assert {short(r[col]) for r in result.rows} == {short(bind_parameters(q, params)[pname])}


def test_unknown_query_is_not_found(seeded_store):
    with pytest.raises(NotFound, match="no-such-query"):
        run_named(seeded_store, "no-such-query", {}, SETTINGS)


@pytest.mark.parametrize(
    ("name", "params", "named"),
    [
        ("deals-of-organization", {}, "org"),
        ("deals-of-organization", {"org": "   "}, "org"),
        ("deals-of-organization", {"org": "NVIDIA Corp!"}, "org"),
        ("deals-of-organization", {"org": "nvidia> } ; DROP ALL ; <x"}, "org"),
        ("deals-of-organization", {"org": "no-such-company"}, "org"),
        ("deals-of-organization", {"org": "nvidia", "vendor": "amd"}, "vendor"),
        ("events-between", {"from": "2024-13-01", "to": "2025-01-01"}, "from"),
        ("events-between", {"from": "2024-01-01", "to": "last year"}, "to"),
        ("events-between", {"from": "2024-02-30", "to": "2025-01-01"}, "from"),
        ("events-between", {"to": "2025-01-01"}, "from"),
        # a word the query does not test for matched no row (200, 0 rows): include=everything, axis=bogus
        ("funding-by-company", {"company": "xai", "include": "everything"}, "include"),
        ("largest-training-runs", {"include": "ALL"}, "include"),
        ("nvidia-only-capacity", {"uses": "known"}, "uses"),
        ("unconfirmed-claims", {"axis": "bogus"}, "axis"),
    ],
)
def test_bad_parameters_are_bad_requests_naming_the_parameter(seeded_store, name, params, named):
    with pytest.raises(BadRequest) as info:
        run_named(seeded_store, name, params, SETTINGS)
    assert repr(named) in info.value.message
    assert info.value.status == 400


def test_parameter_conversion_by_type():
    q = get_query("events-between")
    assert bind_parameters(q, {"from": "2024-05-01", "to": "2025"}) == {
        "from": ox.Literal("2024-05-01", datatype=ox.NamedNode(XSD + "date")),
        "to": ox.Literal("2025", datatype=ox.NamedNode(XSD + "gYear")),
    }
    assert bind_parameters(q, {"from": "2024-05", "to": "2025-12-31"})["from"] == ox.Literal(
        "2024-05", datatype=ox.NamedNode(XSD + "gYearMonth")
    )
    org = get_query("deals-of-organization")
    assert bind_parameters(org, {"org": "nvidia"}) == {"org": ox.NamedNode(ID + "nvidia")}
    assert bind_parameters(org, {"org": ID + "sb-energy"}) == {"org": ox.NamedNode(ID + "sb-energy")}
    assert bind_parameters(get_query("nvidia-only-capacity"), {}) == {
        "vendor": ox.NamedNode(ID + "nvidia"),
        "include": ox.Literal("likely"),
        "uses": ox.Literal("any"),
    }


QUERY_WITH_EVERY_TYPE = """# title: Echo
# description: Returns its parameters, to test binding.
# param: text string required -- Any text
# param: n integer optional default=7 -- A count
# param: x decimal optional -- A figure
SELECT ?text ?n ?x WHERE { }
"""


def test_values_are_bound_never_pasted_into_the_query(seeded_store, tmp_path: Path):
    (tmp_path / "echo.rq").write_text(QUERY_WITH_EVERY_TYPE, encoding="utf-8")
    hostile = '" } UNION { ?s ?p ?o } #'
    result = run_named(seeded_store, "echo", {"text": hostile}, SETTINGS, directory=tmp_path)
    integer = ox.NamedNode(XSD + "integer")
    assert result.rows == [(ox.Literal(hostile), ox.Literal("7", datatype=integer), None)]
    result = run_named(
        seeded_store, "echo", {"text": "a", "n": "-3", "x": "2.50"}, SETTINGS, directory=tmp_path
    )
    assert result.rows[0][1] == ox.Literal("-3", datatype=ox.NamedNode(XSD + "integer"))
    figure = result.rows[0][2]
    assert figure.datatype.value == XSD + "decimal" and Decimal(figure.value) == Decimal("2.5")
    for bad, named in (
        ({"text": "a", "n": "1.5"}, "n"),
        ({"text": "a", "x": "NaN"}, "x"),
        ({"text": "a", "x": "12,5"}, "x"),
    ):
        with pytest.raises(BadRequest, match=repr(named)):
            run_named(seeded_store, "echo", bad, SETTINGS, directory=tmp_path)


def test_a_string_parameter_with_declared_values_takes_them_and_says_them(seeded_store):
    q = get_query("funding-by-company")
    include = next(p for p in q.parameters if p.name == "include")
    assert include.values == ("likely", "all") and include.to_json()["values"] == ["likely", "all"]
    with pytest.raises(BadRequest, match="'likely' or 'all', not 'everything'"):
        bind_parameters(q, {"include": "everything"})
    # both words answer: every round is at least the rounds that happened
    likely = run_named(seeded_store, "funding-by-company", {}, SETTINGS).rows
    every = run_named(seeded_store, "funding-by-company", {"include": "all"}, SETTINGS).rows
    assert likely and len(every) >= len(likely)


@pytest.mark.parametrize(
    "line",
    [
        "# param: axis string optional default=other values=document,dataset -- the default is no value",
        "# param: n integer optional values=1,2 -- values of a number",
    ],
)
def test_declared_values_are_checked_when_the_file_is_read(tmp_path: Path, line):
    from aikg.query.named import QueryFileError

    (tmp_path / "odd.rq").write_text(f"# title: Odd\n{line}\nSELECT * {{}}\n", encoding="utf-8")
    with pytest.raises(QueryFileError, match=r"odd\.rq:2"):
        load_queries(tmp_path)


def test_malformed_header_is_reported_with_file_and_line(tmp_path: Path):
    from aikg.query.named import QueryFileError

    (tmp_path / "broken.rq").write_text(
        "# title: Broken\n# param: org entity maybe\nSELECT * {}\n", encoding="utf-8"
    )
    with pytest.raises(QueryFileError, match=r"broken\.rq:2"):
        load_queries(tmp_path)


# --------------------------------------------------------------------------- answers on the seeds


def test_nvidia_only_capacity_says_whether_stated_or_following(seeded_store):
    found = {pick(r, "holder", "basis", "via") for r in rows(seeded_store, "nvidia-only-capacity")}
    # 园区只跑 NVIDIA 算力: the campus states it; SB Energy builds and runs it, OpenAI rents it.
    assert {
        ("id:ports-pike", "stated policy", "id:ports-pike"),
        ("id:sb-energy", "stated policy", "id:ports-pike"),
        ("id:openai", "stated policy", "id:ports-pike"),
    } <= found
    # CoreWeave's known capacity: its MLPerf v6.0 result on GB300 NVL72; Groq sells NVIDIA clusters.
    assert ("id:coreweave", "inferred from known hardware", "id:coreweave") in found
    assert ("id:groq", "inferred from known hardware", "id:groq") in found
    # The hyperscalers' clusters name no hardware: nothing follows for them.
    holders = {h for h, _, _ in found}
    assert not holders & {"id:microsoft", "id:google", "id:amazon", "id:oracle"}
    coreweave = [r for r in rows(seeded_store, "nvidia-only-capacity") if r["holder"] == "id:coreweave"]
    assert [(r["holderLabel"], r["vendorUses"], r["unknownUses"]) for r in coreweave] == [
        ("CoreWeave", "1", "0")
    ]


def test_nvidia_only_capacity_for_another_vendor(seeded_store):
    found = {pick(r, "holder", "basis") for r in rows(seeded_store, "nvidia-only-capacity", vendor="google")}
    assert ("id:coreweave", "inferred from known hardware") not in found
    assert ("id:ports-pike", "stated policy") not in found


def test_model_accelerator_results(seeded_store):
    found = {
        pick(
            r,
            "model",
            "kind",
            "by",
            "round",
            "accelerator",
            "system",
            "acceleratorCount",
            "minutes",
            "days",
            "statedGpuHours",
        )
        for r in rows(seeded_store, "model-accelerator-results")
    }
    assert (
        "id:deepseek-v3",
        "benchmark result",
        "id:coreweave",
        "id:mlperf-training-v6-0",
        "id:gb300",
        "id:gb300-nvl72",
        "8192",
        "2.02",
        None,
        "276",
    ) in found
    assert (
        "id:gpt-3",
        "benchmark result",
        "id:nvidia",
        "id:mlperf-training-v4-0",
        "id:h100",
        None,
        "11616",
        "3.4",
        None,
        None,
    ) in found
    assert (
        "id:deepseek-v3",
        "training run",
        "id:deepseek",
        None,
        "id:h800",
        None,
        "2048",
        None,
        "57",
        "2788000",
    ) in found
    derived = {r["node"]: r["derivedGpuHours"] for r in rows(seeded_store, "model-accelerator-results")}
    assert Decimal(derived["id:result-mlperf-training-v6-0-coreweave-deepseek-v3"]).quantize(
        Decimal("0.01")
    ) == Decimal("275.80")  # 2.02 min × 8,192 / 60
    assert Decimal(derived["id:result-mlperf-training-v4-0-nvidia-gpt-3"]) == Decimal("658.24")


def test_deals_of_nvidia(seeded_store):
    deals = rows(seeded_store, "deals-of-organization", org="nvidia")
    found = {
        pick(
            r,
            "deal",
            "kind",
            "role",
            "counterparty",
            "counterpartyRole",
            "amount",
            "currency",
            "date",
            "status",
        )
        for r in deals
    }
    assert (
        "id:deal-nvidia-sb-energy-investment",
        "aikg:Investment",
        "aikg:investor",
        "id:sb-energy",
        "aikg:investee",
        "1500000000",
        "USD",
        "2026-08-17",
        "aikg:Announced",
    ) in found
    assert (
        "id:deal-nvidia-groq-series-a-participation",
        "aikg:Investment",
        "aikg:investor",
        "id:groq",
        "aikg:investee",
        None,
        None,
        "2026-08-17",
        "aikg:Planned",
    ) in found
    assert {r["org"] for r in deals} == {"id:nvidia"}
    part_of = {r["deal"]: r["partOf"] for r in deals}
    assert part_of["id:deal-nvidia-groq-series-a-participation"] == "id:deal-groq-series-a-2026"


def test_deals_of_openai_include_the_lease_with_term_and_capacity(seeded_store):
    deals = rows(seeded_store, "deals-of-organization", org="openai")
    lease = [r for r in deals if r["deal"] == "id:deal-openai-sb-energy-ports-pike-lease"]
    assert [
        pick(r, "kind", "role", "counterparty", "counterpartyRole", "termYears", "capacityMW", "status")
        for r in lease
    ] == [("aikg:Lease", "aikg:lessee", "id:sb-energy", "aikg:lessor", "20", "8000", "aikg:Signed")]
    contract = [r for r in deals if r["deal"] == "id:deal-coreweave-openai-2025"]
    assert [pick(r, "kind", "role", "counterparty", "counterpartyRole") for r in contract] == [
        ("aikg:ComputeContract", "aikg:customer", "id:coreweave", "aikg:provider")
    ]


def test_sources_of_coreweave_name_document_publisher_date_and_certainty(seeded_store):
    found = rows(seeded_store, "sources-of-entity", entity="coreweave")
    doc = "id:frontier-insights-coreweave-mlperf-2026-08-18"
    founded = [r for r in found if r["property"] == "aikg:foundedIn"]
    assert [pick(r, "value", "document", "publisher", "issued", "certainty") for r in founded] == [
        ("2017", doc, "id:frontier-tech-insights", "2026-08-18", "aikg:Reported")
    ]
    submitted = [r for r in found if r["property"] == "aikg:submitter"]
    assert {r["subject"] for r in submitted} >= {"id:result-mlperf-training-v6-0-coreweave-deepseek-v3"}
    assert "https://w3id.org/aikg/graph/inferred" not in {r["graph"] for r in found}


def test_sources_of_a_rumour_carry_its_own_certainty(seeded_store):
    found = rows(seeded_store, "sources-of-entity", entity="tpu-v9t")
    designed = [r for r in found if r["property"] == "aikg:designedFor"]
    assert [pick(r, "value", "certainty", "certaintyLabel") for r in designed] == [
        ("aikg:ForTraining", "aikg:Rumoured", "rumoured")
    ]


def test_derived_values_are_sourced_as_derived(seeded_store):
    found = rows(seeded_store, "sources-of-entity", entity=COREWEAVE_RESULT)
    derived = {
        pick(r, "subject", "property", "certainty", "document")
        for r in found
        if r["graph"] == "https://w3id.org/aikg/graph/derived"
    }
    assert (
        "id:derived-gpu-hours-result-mlperf-training-v6-0-coreweave-deepseek-v3",
        "aikg:derivedFor",
        "aikg:Derived",
        "id:aikg-derived-facts",
    ) in derived


def test_peers_of_coreweave_are_the_other_neoclouds(seeded_store):
    found = {pick(r, "category", "peer") for r in rows(seeded_store, "peers-in-category", org="coreweave")}
    assert {
        ("aikg:Neocloud", "id:groq"),
        ("aikg:Neocloud", "id:lambda"),
        ("aikg:Neocloud", "id:nebius"),
    } <= found
    assert {c for c, _ in found} == {"aikg:Neocloud"}


def test_peers_of_microsoft_are_hyperscalers_not_every_cloud(seeded_store):
    found = {pick(r, "category", "peer") for r in rows(seeded_store, "peers-in-category", org="microsoft")}
    assert {
        ("aikg:Hyperscaler", "id:google"),
        ("aikg:Hyperscaler", "id:amazon"),
        ("aikg:Hyperscaler", "id:oracle"),
    } <= found
    assert {c for c, _ in found} == {"aikg:Hyperscaler"}


def test_events_between_two_dates_in_order(seeded_store):
    found = rows(seeded_store, "events-between", **{"from": "2026-08-01", "to": "2026-08-31"})
    events = [r["event"] for r in found]
    for expected in (
        "id:" + COREWEAVE_RESULT,
        "id:deal-nvidia-sb-energy-investment",
        "id:deal-openai-sb-energy-ports-pike-lease",
        "id:deal-groq-series-a-2026",
        "id:mlperf-training-v6-0",
    ):
        assert expected in events
    # Outside the interval: 2024 and 2028.
    assert "id:training-run-deepseek-v3" not in events
    assert "id:ports-pike-first-power-2028" not in events
    dates = [r["date"] for r in found]
    assert dates == sorted(dates)
    kinds = {r["event"]: (r["kind"], r["kindLabel"]) for r in found}
    assert kinds["id:deal-openai-sb-energy-ports-pike-lease"] == ("aikg:Lease", "lease")
    assert kinds["id:coreweave-2026-mlperf-white-paper"] == ("aikg:Announcement", "announcement")
    assert {(r["from"], r["to"]) for r in found} == {("2026-08-01", "2026-08-31")}


def test_events_between_years_compare_partial_dates_at_their_precision(seeded_store):
    found = rows(seeded_store, "events-between", **{"from": "2028", "to": "2032-06"})
    assert [r["event"] for r in found if r["event"].startswith("id:ports-pike")] == [
        "id:ports-pike-first-power-2028",
        "id:ports-pike-full-operation-2032",
    ]
    early = {
        r["event"] for r in rows(seeded_store, "events-between", **{"from": "2017-03-01", "to": "2019-12-31"})
    }
    assert {"id:coreweave-2017-ethereum-mining", "id:coreweave-2019-pivot-to-gpu-cloud"} <= early
    assert "id:coreweave-2023-growth" not in early


def test_unconfirmed_claims_name_who_reported_them(seeded_store):
    found = {pick(r, "claim", "certainty", "reportedBy") for r in rows(seeded_store, "unconfirmed-claims")}
    for rumour in ("id:semianalysis-tpu-v9-rumour", "id:tpu-v9", "id:tpu-v9i", "id:tpu-v9t", "id:torus-6d"):
        assert (rumour, "aikg:Rumoured", "id:semianalysis") in found
    estimates = {
        pick(r, "about", "onProperty", "certainty") for r in rows(seeded_store, "unconfirmed-claims")
    }
    assert ("id:training-run-deepseek-v3", "aikg:cost", "aikg:Estimated") in estimates
    assert ("id:training-run-deepseek-v3", "aikg:pricePerGpuHour", "aikg:Estimated") in estimates
    assert "aikg:Reported" not in {c for _, c, _ in found}


def test_investments_by_investor(seeded_store):
    found = {
        pick(r, "investor", "investee", "amount", "currency", "status")
        for r in rows(seeded_store, "investments-by-investor")
    }
    assert ("id:nvidia", "id:sb-energy", "1500000000", "USD", "aikg:Announced") in found
    assert ("id:nvidia", "id:groq", None, None, "aikg:Planned") in found
    assert (None, "id:groq", "350000000", "USD", "aikg:Announced") in found


def test_labels_from_label_tables_stay_with_their_node(seeded_store):
    """Linked nodes' labels come from deduplicated label tables: a row without the node has no label."""
    found = {
        pick(r, "investor", "investorLabel", "investee", "investeeLabel", "statusLabel")
        for r in rows(seeded_store, "investments-by-investor")
    }
    assert found == {
        ("id:nvidia", "NVIDIA", "id:sb-energy", "SB Energy", "announced"),
        ("id:nvidia", "NVIDIA", "id:groq", "Groq", "planned"),
        (None, None, "id:groq", "Groq", "announced"),
    }
    phases = {
        pick(r, "phase", "ofLabel", "phaseKindLabel", "qualifierLabel")
        for r in rows(seeded_store, "capacity-pipeline")
    }
    assert ("id:groq-capacity-2026", "Groq", "current capacity", None) in phases
    assert ("id:groq-capacity-2027", "Groq", "expansion", "at least / over") in phases


def test_capacity_pipeline_by_year(seeded_store):
    found = [
        pick(r, "year", "of", "phaseKind", "powerMW", "qualifier")
        for r in rows(seeded_store, "capacity-pipeline")
    ]
    for expected in (
        ("2026", "id:groq", "aikg:CurrentCapacity", "54", None),
        ("2027", "id:groq", "aikg:Expansion", "200", "aikg:AtLeast"),
        ("2028", "id:ports-pike", "aikg:FirstPower", "800", None),
        ("2032", "id:ports-pike", "aikg:FullOperation", None, None),
    ):
        assert expected in found
    years = [y for y, *_ in found]
    assert years == sorted(years)


def test_largest_training_runs(seeded_store):
    found = rows(seeded_store, "largest-training-runs")
    v3 = [r for r in found if r["run"] == "id:training-run-deepseek-v3"]
    assert [
        pick(
            r,
            "model",
            "accelerator",
            "acceleratorCount",
            "days",
            "gpuHours",
            "gpuHoursBasis",
            "pricePerGpuHour",
            "statedCost",
            "currency",
        )
        for r in v3
    ] == [("id:deepseek-v3", "id:h800", "2048", "57", "2788000", "stated", "2", "5576000", "USD")]
    assert Decimal(v3[0]["derivedCost"]) == Decimal("5576000")


def test_accelerators_by_vendor(seeded_store):
    found = {pick(r, "vendor", "hardware", "kind") for r in rows(seeded_store, "accelerators-by-vendor")}
    assert {
        ("id:nvidia", "id:gb300-nvl72", "aikg:RackScaleSystem"),
        ("id:nvidia", "id:h100", "aikg:GPU"),
        ("id:google", "id:tpu-v9t", "aikg:TPU"),
        ("id:groq", "id:groq-lpu", "aikg:LPU"),
        ("id:nvidia", "id:hgx-h100", "aikg:ServerBoard"),
    } <= found
    memory = {r["hardware"]: r["memoryGB"] for r in rows(seeded_store, "accelerators-by-vendor")}
    assert memory["id:gb300-nvl72"] == "288"
    assert memory["id:gb200-nvl72"] == "192"


def test_topology_hop_counts(seeded_store):
    found = {
        pick(r, "config", "topology", "chipCount", "shape", "worstCaseHops", "comparedWith")
        for r in rows(seeded_store, "topology-hop-counts")
    }
    assert ("id:topology-config-4096-torus-3d", "id:torus-3d", "4096", "16×16×16", "24", None) in found
    assert (
        "id:topology-config-4096-torus-6d",
        "id:torus-6d",
        "4096",
        "4⁶",
        "12",
        "id:topology-config-4096-torus-3d",
    ) in found


def test_speedup_claims(seeded_store):
    found = {pick(r, "claim", "subject", "baseline") for r in rows(seeded_store, "speedup-claims")}
    assert (
        "id:claim-mlperf-v6-0-coreweave-vs-deepseek-v3-training-gpu-hours",
        "id:result-mlperf-training-v6-0-coreweave-deepseek-v3",
        "id:training-run-deepseek-v3",
    ) in found


def test_derived_values_query_lists_rule_and_inputs(seeded_store):
    found = {r["derivation"]: r for r in rows(seeded_store, "derived-values")}
    ratio = found["id:derived-ratio-training-run-deepseek-v3-vs-" + COREWEAVE_RESULT]
    assert pick(ratio, "about", "property", "comparedWith", "rule") == (
        "id:training-run-deepseek-v3",
        "aikg:ratio",
        "id:result-mlperf-training-v6-0-coreweave-deepseek-v3",
        "id:rule-gpu-hours-ratio-run-vs-result",
    )
    assert 10_000 < Decimal(ratio["value"]) < 10_200
    assert set(ratio["inputs"].split()) == {
        ID + "training-run-deepseek-v3",
        ID + "result-mlperf-training-v6-0-coreweave-deepseek-v3",
        ID + "derived-gpu-hours-result-mlperf-training-v6-0-coreweave-deepseek-v3",
    }


def test_prices_without_currency_are_the_tinker_prices(seeded_store):
    found = {
        pick(r, "node", "platform", "item", "figure", "unitStated")
        for r in rows(seeded_store, "prices-without-currency")
    }
    # 训练单价 1.50，输入 0.30、输出 1.00 — no currency and no unit in the source.
    assert {
        ("id:price-tinker-training", "id:tinker", "aikg:TrainingPrice", "1.5", "false"),
        ("id:price-tinker-input", "id:tinker", "aikg:InputPrice", "0.3", "false"),
        ("id:price-tinker-output", "id:tinker", "aikg:OutputPrice", "1", "false"),
    } <= found
    assert not {node for node, *_ in found if node.startswith("id:derived-")}


def test_relayed_claims_name_soumith_as_relayer(seeded_store):
    found = {
        pick(r, "claim", "certainty", "relayedBy", "document")
        for r in rows(seeded_store, "unconfirmed-claims")
    }
    doc = "id:infoq-soumith-tinker-2026-11-06"
    for relayed in (
        "id:training-run-unnamed-model-tinker",
        "id:unnamed-model-tinker-pretraining-under-3-days",
        "id:price-list-tinker",
        "id:price-tinker-training",
    ):
        assert (relayed, "aikg:Relayed", "id:soumith-chintala", doc) in found


def test_a_chart_line_of_a_header_is_parsed_and_listed_and_a_bad_one_names_its_line(tmp_path, ro_client):
    from aikg.query.named import QueryFileError, parse_query_file

    listed = {q["name"]: q for q in ro_client.get("/api/queries").get_json()["queries"]}
    chart = listed["training-compute-over-time"]["charts"][0]
    assert chart["type"] == "scatter" and chart["x"] == "date" and chart["y"] == "trainingCompute"
    assert chart["log"] == "y" and chart["title"].startswith("Training compute of notable models")
    for bad in ("pie x=a", "scatter x=", "scatter colour=a", "scatter log=z", 'scatter title="open'):
        path = tmp_path / "q.rq"
        path.write_text(f"# title: T\n# chart: {bad}\nSELECT * WHERE {{ ?s ?p ?o }}\n", encoding="utf-8")
        with pytest.raises(QueryFileError, match=r"q\.rq:2"):
            parse_query_file(path)
