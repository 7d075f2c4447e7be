"""Click options generated from the settings list, so CLI and environment never drift apart."""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any

import click

from aikg.settings import SETTINGS, load_settings

if TYPE_CHECKING:
    from aikg.services import Services

STORE_SETTINGS = ("store", "store_update_url", "store_gsp_url", "store_user", "store_password")
"""The settings that say which store to open: every command that opens one takes all of them."""


def setting_options(*names: str) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Decorate a command with one option per named setting (help and env var from the list)."""
    chosen = [s for s in SETTINGS if s.name in names]

    def decorate(fn: Callable[..., Any]) -> Callable[..., Any]:
        for s in reversed(chosen):
            kind = click.BOOL if s.type is bool else s.type
            fn = click.option(
                s.option,
                s.name,
                type=kind,
                default=None,
                help=f"{s.help} [env {s.env}; default {s.default!r}]",
            )(fn)
        return fn

    return decorate


def overrides(values: dict[str, Any]) -> dict[str, Any]:
    """The settings given on the command line (None means: not given)."""
    return {k: v for k, v in values.items() if v is not None}


@contextlib.contextmanager
def open_services(options: dict[str, Any]) -> Iterator[Services]:
    """The services for a command's options (the same factory the web app uses), closed afterwards."""
    from aikg.services import build_services

    services = build_services(load_settings(overrides(options)))
    try:
        yield services
    finally:
        services.close()
