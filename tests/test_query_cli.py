"""``aikg query``: named queries with parameters, raw SPARQL from the command line or a file, output
formats from aikg.formats, exit codes 0 / 2."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from rdflib import Graph, URIRef

from aikg.cli import main

ID = "https://w3id.org/aikg/id/"


@pytest.fixture(scope="module")
def store_dir(tmp_path_factory) -> str:
    """An on-disk store with the seeds, loaded through ``aikg load --seeds``."""
    path = str(tmp_path_factory.mktemp("query-cli-store"))
    result = CliRunner().invoke(main, ["load", "--seeds", "--store", path])
    assert result.exit_code == 0, result.output
    return path


def run(store_dir: str, *args: str):
    return CliRunner().invoke(main, ["query", *args, "--store", store_dir])


def test_named_query_with_parameter_as_json(store_dir):
    result = run(store_dir, "deals-of-organization", "--param", "org=nvidia")
    assert result.exit_code == 0, result.output
    doc = json.loads(result.stdout)
    assert "org" in doc["head"]["vars"]
    deals = {
        (b["deal"]["value"], b.get("amount", {}).get("value"), b["status"]["value"])
        for b in doc["results"]["bindings"]
    }
    assert (
        ID + "deal-nvidia-sb-energy-investment",
        "1500000000",
        "https://w3id.org/aikg/ontology#Announced",
    ) in deals
    assert (
        ID + "deal-nvidia-groq-series-a-participation",
        None,
        "https://w3id.org/aikg/ontology#Planned",
    ) in deals


def test_named_query_as_csv_with_short_param_option(store_dir):
    result = run(store_dir, "peers-in-category", "-p", "org=coreweave", "--format", "csv")
    assert result.exit_code == 0, result.output
    table = list(csv.DictReader(io.StringIO(result.stdout)))
    assert {ID + "groq", ID + "lambda", ID + "nebius"} <= {r["peer"] for r in table}


def test_named_query_without_parameters_as_tsv(store_dir):
    result = run(store_dir, "topology-hop-counts", "--format", "tsv")
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0].split("\t")[0] == "?config"
    six_d = [
        line.split("\t") for line in lines[1:] if line.startswith(f"<{ID}topology-config-4096-torus-6d>")
    ]
    assert [cells[6] for cells in six_d] == ["12"]  # an xsd:integer, in Turtle's short form


def test_raw_sparql_select_and_construct(store_dir):
    result = run(
        store_dir,
        "--sparql",
        "SELECT ?n WHERE { <https://w3id.org/aikg/id/deepseek-v3> "
        "<https://w3id.org/aikg/ontology#totalParameters> ?n }",
        "--format",
        "csv",
    )
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines() == ["n", "671000000000"]
    result = run(
        store_dir,
        "--sparql",
        "CONSTRUCT { ?s a <https://w3id.org/aikg/ontology#Organization> } "
        "WHERE { ?s a <https://w3id.org/aikg/ontology#Neocloud> }",
    )
    assert result.exit_code == 0, result.output
    g = Graph().parse(data=result.stdout, format="turtle")
    assert (URIRef(ID + "coreweave"), None, None) in g


def test_raw_sparql_from_a_file_as_xml(store_dir, tmp_path: Path):
    query = tmp_path / "ask.rq"
    query.write_text(
        "ASK { <https://w3id.org/aikg/id/coreweave> a <https://w3id.org/aikg/ontology#Organization> }",
        encoding="utf-8",
    )
    result = run(store_dir, "--file", str(query), "--format", "xml")
    assert result.exit_code == 0, result.output
    assert "<boolean>true</boolean>" in result.stdout


def test_list_names_the_queries_and_their_parameters(store_dir):
    result = CliRunner().invoke(main, ["query", "--list"])
    assert result.exit_code == 0, result.output
    assert "nvidia-only-capacity" in result.stdout
    assert "events-between" in result.stdout and "from=date" in result.stdout


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("deals-of-organization",), "'org'"),
        (("deals-of-organization", "--param", "org=Not A Slug"), "'org'"),
        (("events-between", "-p", "from=2024-13-01", "-p", "to=2025-01-01"), "'from'"),
        (("no-such-query",), "no-such-query"),
        (("--sparql", "SELECT WHERE {"), "does not parse"),
        (("--sparql", "CONSTRUCT { ?s ?p ?o } WHERE { ?s ?p ?o } LIMIT 1", "--format", "csv"), "csv"),
        (("deals-of-organization", "--param", "org"), "NAME=VALUE"),
        (("--sparql", "SELECT * {}", "--param", "a=b"), "named queries only"),
        ((), "exactly one"),
        (("deals-of-organization", "--sparql", "SELECT * {}"), "exactly one"),
    ],
)
def test_usage_and_input_errors_exit_2_with_a_message(store_dir, args, message):
    result = run(store_dir, *args)
    assert result.exit_code == 2
    assert message in result.output
    assert "Traceback" not in result.output


def test_query_on_a_busy_on_disk_store_answers_every_time(tmp_path):
    """Regression: on an on-disk store with a large recent load, ``aikg query`` hung in 2-3 runs of 10
    (a query process forked with RocksDB's background threads mid-work) and ``--sparql`` always timed
    out. Each run is its own process, as a user runs it."""
    import subprocess
    import sys

    from aikg_bench.generate import generate

    data = tmp_path / "data.nq"
    generate(data, 60_000)
    store = str(tmp_path / "store")
    subprocess.run(
        [sys.executable, "-m", "aikg", "load", "--bulk", str(data), "--store", store],
        check=True,
        capture_output=True,
        timeout=300,
    )
    neocloud = "<http://www.w3.org/1999/02/22-rdf-syntax-ns#type> <https://w3id.org/aikg/ontology#Neocloud>"
    expected = len({line.split(" ", 1)[0] for line in data.read_text().splitlines() if neocloud in line})
    text = "SELECT (COUNT(DISTINCT ?s) AS ?n) WHERE { ?s a <https://w3id.org/aikg/ontology#Neocloud> }"
    counts = set()
    for i in range(10):
        args = ["--sparql", text, "--format", "csv"] if i % 2 else ["accelerators-by-vendor", "-f", "csv"]
        done = subprocess.run(
            [sys.executable, "-m", "aikg", "query", *args, "--store", store],
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert done.returncode == 0, done.stderr[-1000:]
        if i % 2:
            counts.add(done.stdout.splitlines()[1])
        else:
            assert len(done.stdout.splitlines()) > 10
    assert counts == {str(expected)} and expected > 10  # every run the same, right count


def test_show_prints_one_entity_with_its_facts_relations_and_numbered_sources(store_dir):
    lease = "deal-openai-sb-energy-ports-pike-lease"
    result = CliRunner().invoke(main, ["show", lease, "--store", store_dir])
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0] == (
        "OpenAI–SB Energy 20-year lease of PORTS-Pike (about 8 GW, Ohio) "
        "(deal-openai-sb-energy-ports-pike-lease) · lease"
    )
    assert "  contracted capacity (MW): ≈8,000  [1 reported]" in lines  # qualifier, digits, source, certainty
    assert "  → lessee: OpenAI (openai)  [1 reported]" in lines
    assert "  → lessor: SB Energy (sb-energy)  [1 reported]" in lines
    source = lines[lines.index("Sources") + 1]
    assert source.startswith("  [1] CoreWeave 用 8,192 张 GB300 NVL72") and source.endswith(
        "— Frontier Tech Insights, 2026-08-18"
    )


def test_show_as_json_is_the_api_entity_and_a_group_says_how_many_more(store_dir):
    result = CliRunner().invoke(main, ["show", "nvidia", "-f", "json", "--limit", "1", "--store", store_dir])
    assert result.exit_code == 0, result.output
    body = json.loads(result.stdout)
    assert (body["id"], body["label"], body["links"]["self"]) == ("nvidia", "NVIDIA", "/api/entities/nvidia")
    assert all(g["count"] <= 1 for g in body["relations"]["groups"])
    text = CliRunner().invoke(main, ["show", "nvidia", "--limit", "1", "--store", store_dir]).stdout
    more = [g for g in body["relations"]["groups"] if g["total"] > 1][0]
    arrow = "→" if more["direction"] == "outgoing" else "←"
    assert f"  {arrow} {more['property']['label']}: … {more['total'] - 1} more (--limit)" in text


def test_show_an_unknown_id_exits_2_with_the_closest_names(store_dir):
    result = CliRunner().invoke(main, ["show", "coreweav", "--store", store_dir])
    assert result.exit_code == 2
    assert "no entity" in result.stderr and "Did you mean:" in result.stderr
    assert "  coreweave  (CoreWeave)" in result.stderr.splitlines()
