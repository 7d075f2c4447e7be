"""``aikg validate``: exit 0 when the data conforms, 1 when it does not (with the report), 2 on bad input."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner
from rdflib import Graph
from rdflib.namespace import SH

from aikg.cli import main

PREFIXES = """
@prefix aikg: <https://w3id.org/aikg/ontology#> .
@prefix id:   <https://w3id.org/aikg/id/> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
"""

GOOD = (
    PREFIXES
    + """
id:coreweave a aikg:Neocloud ; rdfs:label "CoreWeave"@en .
id:openai a aikg:AILab ; rdfs:label "OpenAI"@en .
id:contract a aikg:ComputeContract ; rdfs:label "a compute contract"@en ;
    aikg:provider id:coreweave ; aikg:customer id:openai .
"""
)

BAD = (
    PREFIXES
    + """
id:coreweave a aikg:Neocloud ; rdfs:label "CoreWeave"@en .
id:contract a aikg:ComputeContract ; rdfs:label "a compute contract"@en ;
    aikg:provider id:coreweave ; aikg:amount -5 ; aikg:currency "USD" .
"""
)


MEMORY = ("--store", "memory")
"""Every invocation names its store: a throwaway in-memory one, seeded on opening."""


def write(tmp_path: Path, name: str, text: str) -> str:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


def test_the_seeded_memory_store_conforms(runner: CliRunner) -> None:
    result = runner.invoke(main, ["validate", *MEMORY])
    assert result.exit_code == 0, result.output
    assert result.output.strip() == "Conforms: no violations."


def test_a_conforming_file_exits_0(runner: CliRunner, tmp_path: Path) -> None:
    result = runner.invoke(main, ["validate", *MEMORY, write(tmp_path, "good.ttl", GOOD)])
    assert result.exit_code == 0, result.output
    assert "Conforms" in result.output


def test_a_bad_file_exits_1_with_a_readable_report(runner: CliRunner, tmp_path: Path) -> None:
    result = runner.invoke(main, ["validate", *MEMORY, write(tmp_path, "bad.ttl", BAD)])
    assert result.exit_code == 1
    assert "Does not conform: 1 violation(s)." in result.output
    assert "id:contract  aikg:amount" in result.output
    assert "the amount must not be negative" in result.output
    assert "shape: shape:MoneyShape" in result.output


def test_the_report_as_json(runner: CliRunner, tmp_path: Path) -> None:
    result = runner.invoke(main, ["validate", *MEMORY, "--format", "json", write(tmp_path, "bad.ttl", BAD)])
    assert result.exit_code == 1
    body = json.loads(result.output)
    assert body["conforms"] is False
    assert [(v["focus_node"], v["path"], v["message"]) for v in body["violations"]] == [
        (
            "https://w3id.org/aikg/id/contract",
            "https://w3id.org/aikg/ontology#amount",
            "the amount must not be negative",
        )
    ]


def test_the_report_as_turtle(runner: CliRunner, tmp_path: Path) -> None:
    result = runner.invoke(main, ["validate", *MEMORY, "-f", "turtle", write(tmp_path, "bad.ttl", BAD)])
    assert result.exit_code == 1
    report = Graph().parse(data=result.output, format="turtle")
    assert [str(n) for n in report.objects(None, SH.focusNode)] == ["https://w3id.org/aikg/id/contract"]


def test_a_missing_file_exits_2(runner: CliRunner, tmp_path: Path) -> None:
    result = runner.invoke(main, ["validate", *MEMORY, str(tmp_path / "nowhere.ttl")])
    assert result.exit_code == 2
    assert "cannot read" in result.output


def test_a_file_that_is_not_turtle_exits_2(runner: CliRunner, tmp_path: Path) -> None:
    result = runner.invoke(main, ["validate", *MEMORY, write(tmp_path, "broken.ttl", "id:x a <<< .")])
    assert result.exit_code == 2
    assert "broken.ttl is not valid Turtle" in result.output


def test_an_unknown_format_is_a_usage_error(runner: CliRunner, tmp_path: Path) -> None:
    result = runner.invoke(main, ["validate", *MEMORY, "--format", "xml", write(tmp_path, "good.ttl", GOOD)])
    assert result.exit_code == 2


INVESTMENT = (
    PREFIXES
    + """
id:deal-nvidia-coreweave-test a aikg:Investment ; rdfs:label "NVIDIA invests in CoreWeave (test)"@en ;
    aikg:investor id:nvidia ; aikg:investee id:coreweave ; aikg:amount 100 ; aikg:currency "USD" .
"""
)


def test_a_file_linking_to_the_stores_entities_validates_as_load_would(
    runner: CliRunner, tmp_path: Path
) -> None:
    """Regression: a correct investment naming NVIDIA and CoreWeave (entities of the store, typed there)
    was refused ("investee must be an organization") while ``aikg load`` of the same file worked."""
    path = write(tmp_path, "investment.ttl", INVESTMENT)
    result = runner.invoke(main, ["validate", *MEMORY, path])
    assert result.exit_code == 0, result.output
    assert "Conforms" in result.output
    alone = runner.invoke(main, ["validate", "--alone", path])
    assert alone.exit_code == 1
    assert "investee must be an organization" in alone.output


UNREADABLE = (
    PREFIXES
    + """
id:gate-lab a aikg:AILab ; rdfs:label "Gate lab"@en ;
    aikg:foundedIn "2025-02-30"^^<http://www.w3.org/2001/XMLSchema#date> ; aikg:hqCity "Paris" .
"""
)
"""A date no calendar has (stored as written, no date to the engine) and a property the ontology lacks."""


def test_validate_and_load_report_a_term_the_ontology_lacks_and_an_unreadable_literal(
    runner: CliRunner, tmp_path: Path
) -> None:
    """``aikg validate FILE`` says what ``aikg load`` refuses, each statement and why, and exits 1; the load
    writes nothing; no rdflib traceback reaches the terminal."""
    path = write(tmp_path, "unreadable.ttl", UNREADABLE)
    for args in (
        ["validate", *MEMORY, path],
        ["validate", "--alone", path],
        ["load", *MEMORY, path, "--graph", "https://w3id.org/aikg/graph/sources/unreadable"],
    ):
        result = runner.invoke(main, args)
        assert result.exit_code == 1, (args, result.output)
        assert "ontology#hqCity is not a term of aikg's ontology" in result.output, result.output
        assert '"2025-02-30" is not a value of xsd:date' in result.output, result.output
        assert "Traceback" not in result.output
    good = UNREADABLE.replace("2025-02-30", "2025-02-28").replace(' ; aikg:hqCity "Paris"', "")
    assert runner.invoke(main, ["validate", *MEMORY, write(tmp_path, "good.ttl", good)]).exit_code == 0
