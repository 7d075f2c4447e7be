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
