"""Click options generated from the settings list, so CLI and environment never drift apart."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import click

from aikg.settings import SETTINGS


def setting_options(*names: str) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Decorate a command with one option per named setting (help and env var from the list)."""
    chosen = [s for s in SETTINGS if s.name in names]

    def decorate(fn: Callable[..., Any]) -> Callable[..., Any]:
        for s in reversed(chosen):
            kind = click.BOOL if s.type is bool else s.type
            fn = click.option(s.option, s.name, type=kind, default=None,
                              help=f"{s.help} [env {s.env}; default {s.default!r}]")(fn)
        return fn

    return decorate


def overrides(values: dict[str, Any]) -> dict[str, Any]:
    """The settings given on the command line (None means: not given)."""
    return {k: v for k, v in values.items() if v is not None}
