"""The README documents what a user can set, ask and run: every setting, named query, command and
ontology file. A new one that is not documented fails here."""

from __future__ import annotations

from pathlib import Path

import pytest

from aikg.cli import main
from aikg.query.named import load_queries
from aikg.resources import ontology_dir
from aikg.settings import SETTINGS

README = (Path(__file__).resolve().parents[1] / "README.md").read_text(encoding="utf-8")


@pytest.mark.parametrize("setting", SETTINGS, ids=lambda s: s.name)
def test_every_setting_is_in_the_readme(setting) -> None:
    assert f"`{setting.env}`" in README
    assert f"`{setting.option}`" in README


@pytest.mark.parametrize("name", sorted(load_queries()))
def test_every_named_query_is_in_the_readme(name: str) -> None:
    assert f"`{name}`" in README


@pytest.mark.parametrize("command", sorted(main.commands))
def test_every_command_is_in_the_readme(command: str) -> None:
    assert f"aikg {command}" in README or f"| {command} |" in README or f" {command} |" in README


@pytest.mark.parametrize("path", sorted(p.name for p in ontology_dir().glob("*.ttl")))
def test_every_ontology_file_is_in_the_readme(path: str) -> None:
    assert f"`{path}`" in README


def _setup_commands() -> list[str]:
    """The shell commands of the README's "Set up" section, in order."""
    import re

    section = README.split("## Set up", 1)[1].split("\n## ", 1)[0]
    return [block.strip() for block in re.findall(r"```sh\n(.*?)```", section, flags=re.S)]


def test_the_readme_has_exactly_two_set_up_commands_and_ci_runs_the_test_one_verbatim():
    start, test, *examples = _setup_commands()
    assert not any("pip install" in block or "venv" in block for block in examples)  # only usage examples
    assert start.endswith("aikg serve") and test.endswith("pytest")
    assert test.startswith("sh tests/system-packages.sh && ")  # the system packages are part of it
    ci = (Path(__file__).resolve().parents[1] / ".ci" / "run").read_text()
    assert test in ci.splitlines()
