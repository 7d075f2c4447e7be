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
    deals = {(b["deal"]["value"], b.get("amount", {}).get("value"), b["status"]["value"])
             for b in doc["results"]["bindings"]}
    assert (ID + "deal-nvidia-sb-energy-investment", "1500000000",
            "https://w3id.org/aikg/ontology#Announced") in deals
    assert (ID + "deal-nvidia-groq-series-a-participation", None,
            "https://w3id.org/aikg/ontology#Planned") in deals


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
    six_d = [line.split("\t") for line in lines[1:]
             if line.startswith(f"<{ID}topology-config-4096-torus-6d>")]
    assert [cells[6] for cells in six_d] == ["12"]  # an xsd:integer, in Turtle's short form


def test_raw_sparql_select_and_construct(store_dir):
    result = run(store_dir, "--sparql",
                 "SELECT ?n WHERE { <https://w3id.org/aikg/id/deepseek-v3> "
                 "<https://w3id.org/aikg/ontology#totalParameters> ?n }", "--format", "csv")
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines() == ["n", "671000000000"]
    result = run(store_dir, "--sparql",
                 "CONSTRUCT { ?s a <https://w3id.org/aikg/ontology#Organization> } "
                 "WHERE { ?s a <https://w3id.org/aikg/ontology#Neocloud> }")
    assert result.exit_code == 0, result.output
    g = Graph().parse(data=result.stdout, format="turtle")
    assert (URIRef(ID + "coreweave"), None, None) in g


def test_raw_sparql_from_a_file_as_xml(store_dir, tmp_path: Path):
    query = tmp_path / "ask.rq"
    query.write_text("ASK { <https://w3id.org/aikg/id/coreweave> "
                     "a <https://w3id.org/aikg/ontology#Organization> }", encoding="utf-8")
    result = run(store_dir, "--file", str(query), "--format", "xml")
    assert result.exit_code == 0, result.output
    assert "<boolean>true</boolean>" in result.stdout


def test_list_names_the_queries_and_their_parameters(store_dir):
    result = CliRunner().invoke(main, ["query", "--list"])
    assert result.exit_code == 0, result.output
    assert "nvidia-only-capacity" in result.stdout
    assert "events-between" in result.stdout and "from=date" in result.stdout


@pytest.mark.parametrize(("args", "message"), [
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
])
def test_usage_and_input_errors_exit_2_with_a_message(store_dir, args, message):
    result = run(store_dir, *args)
    assert result.exit_code == 2
    assert message in result.output
    assert "Traceback" not in result.output
