"""Settings are one typed declaration (aikg.settings.Settings): read from the environment and the command
line once, converted to their declared types there, and the same list the CLI and the manual show."""

from __future__ import annotations

import dataclasses
import typing

import pytest

from aikg.settings import SETTINGS, Settings, load_settings


def test_environment_strings_become_the_declared_types_once():
    s = load_settings(
        {"port": "9001"},
        environ={
            "AIKG_QUERY_TIMEOUT": "2.5",
            "AIKG_LOAD_SEEDS": "no",
            "AIKG_MAX_ROWS": "7",
            "AIKG_STORE": "memory",
        },
    )
    assert (s.port, s.query_timeout, s.load_seeds, s.max_rows, s.store) == (9001, 2.5, False, 7, "memory")
    assert type(s.query_timeout) is float and type(s.max_rows) is int


def test_an_override_wins_over_the_environment_and_a_default_fills_the_rest():
    s = load_settings({"max_rows": 3}, environ={"AIKG_MAX_ROWS": "7"})
    assert s.max_rows == 3
    assert s.cache_size == 512 and s.store  # an empty store setting names the per-user directory


def test_an_unknown_setting_is_refused_and_settings_do_not_change():
    with pytest.raises(ValueError, match="unknown setting"):
        load_settings({"max_row": 3}, environ={})
    s = load_settings(environ={})
    with pytest.raises(dataclasses.FrozenInstanceError):
        s.max_rows = 1  # type: ignore[misc]
    assert s.but(workers="1").workers == 1 and s.workers == 2


def test_the_list_the_cli_and_the_manual_show_is_the_declaration():
    hints = typing.get_type_hints(Settings)
    fields = dataclasses.fields(Settings)
    assert [s.name for s in SETTINGS] == [f.name for f in fields]
    for s, f in zip(SETTINGS, fields, strict=True):
        assert s.type is hints[f.name] and s.default == f.default and s.help
        assert isinstance(s.default, s.type)
