"""``aikg export`` writes the same bytes as ``/export/<format>`` for the same options, and fails cleanly."""

from __future__ import annotations

from pathlib import Path

import pytest

from aikg.cli import main
from aikg.export import EXPORTS
from aikg.store import OxigraphStore
from aikg.web import create_app

CASES = [
    ("", []),
    ("focus=coreweave&depth=2&fold=true", ["--focus", "coreweave", "--depth", "2", "--fold"]),
    ("type=Neocloud&type=GPU", ["--type", "Neocloud", "--type", "GPU"]),
]


@pytest.fixture(scope="module")
def disk_store(tmp_path_factory) -> str:
    """An on-disk store with the seeds, loaded by ``aikg load --seeds``."""
    from click.testing import CliRunner

    location = str(tmp_path_factory.mktemp("export-store"))
    result = CliRunner().invoke(main, ["load", "--seeds", "--store", location])
    assert result.exit_code == 0, result.output
    return location


def test_cli_writes_the_same_bytes_as_http(disk_store, runner, tmp_path):
    written: dict[tuple[str, str], bytes] = {}
    for fmt in EXPORTS:
        for query, args in CASES:
            if fmt.rdf and "--fold" in args:
                continue
            out = tmp_path / f"{fmt.name}-{len(written)}.{fmt.extension}"
            result = runner.invoke(
                main, ["export", "--format", fmt.name, *args, "--store", disk_store, "-o", str(out)]
            )
            assert result.exit_code == 0, result.output
            written[(fmt.name, query)] = out.read_bytes()
    store = OxigraphStore(disk_store)
    try:
        client = create_app({"store": disk_store, "load_seeds": False}, store=store).test_client()
        for (name, query), body in written.items():
            response = client.get(f"/export/{name}?{query}")
            assert response.status_code == 200, (name, query)
            assert response.data == body, (name, query)
            assert body, (name, query)
    finally:
        store.close()


def test_cli_writes_to_standard_output(disk_store, runner):
    result = runner.invoke(
        main, ["export", "-f", "dot", "--focus", "coreweave", "--depth", "0", "--store", disk_store]
    )
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith("digraph aikg {")
    assert '"https://w3id.org/aikg/id/coreweave" [label="CoreWeave\\n«neocloud»"' in result.stdout


@pytest.mark.parametrize(
    "args, message",
    [
        (["--format", "graphml", "--focus", "no-such-entity"], "no-such-entity"),
        (["--format", "graphml", "--focus", "coreweave", "--depth", "9"], "depth"),
        (["--format", "gexf", "--type", "NoSuchClass"], "NoSuchClass"),
        (["--format", "turtle", "--fold"], "fold"),
        (["--format", "pdf"], "pdf"),
    ],
)
def test_cli_input_errors_exit_2_with_a_message(disk_store, runner, args, message):
    result = runner.invoke(main, ["export", *args, "--store", disk_store])
    assert result.exit_code == 2
    assert message in result.stderr


def test_cli_unwritable_output_exits_2(disk_store, runner, tmp_path):
    target = tmp_path / "missing-dir" / "out.graphml"
    result = runner.invoke(main, ["export", "-f", "graphml", "--store", disk_store, "-o", str(target)])
    assert result.exit_code == 2
    assert "cannot write" in result.stderr
    assert not Path(target).exists()


def test_dump_of_a_missing_graph_is_an_error(disk_store, runner):
    """It printed nothing and exited 0, as if the graph were empty."""
    missing = "https://w3id.org/aikg/graph/sources/no-such-graph"
    result = runner.invoke(main, ["dump", "--graph", missing, "--store", disk_store])
    assert result.exit_code == 2
    assert missing in result.stderr and "no graph" in result.stderr
    assert result.stdout == ""


def test_dump_of_one_graph_writes_just_its_triples(disk_store, runner):
    graph = "https://w3id.org/aikg/graph/sources/frontier-insights-coreweave-mlperf-2026-08-18"
    result = runner.invoke(main, ["dump", "--graph", graph, "--format", "nquads", "--store", disk_store])
    assert result.exit_code == 0, result.stderr
    lines = result.stdout.splitlines()
    store = OxigraphStore(disk_store)
    try:
        assert len(lines) == store.count(graph) > 0
    finally:
        store.close()
    assert any("result-mlperf-training-v6-0-coreweave-deepseek-v3" in line for line in lines)
