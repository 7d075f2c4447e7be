"""Click options generated from the settings list, so CLI and environment never drift apart."""

from __future__ import annotations

import contextlib
import json
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from aikg.settings import SETTINGS, Settings, load_settings

if TYPE_CHECKING:
    from aikg.services import Services
    from aikg.store import Store

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


def text_or_json(route: str) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """``--format/-f``: ``text`` for a reader (the default), or ``json``, the JSON ``route`` answers."""
    return click.option(
        "--format",
        "-f",
        "fmt",
        type=click.Choice(["text", "json"]),
        default="text",
        help=f"text (default) or the JSON {route} gives.",
    )


def echo_answer(body: Any, fmt: str, render: Callable[[Any], str]) -> None:
    """Print an answer as :func:`text_or_json` chose: the JSON as the route gives it, or its text."""
    click.echo(json.dumps(body, ensure_ascii=False, indent=2) if fmt == "json" else render(body))


def overrides(values: dict[str, Any]) -> dict[str, Any]:
    """The settings given on the command line (None means: not given)."""
    return {k: v for k, v in values.items() if v is not None}


@contextlib.contextmanager
def open_services(options: dict[str, Any], *, writes: bool = False) -> Iterator[Services]:
    """The services for a command's options (the same factory the web app uses), closed afterwards.

    Beside a running ``aikg serve`` (its writer holds the on-disk store), a command that reads opens the
    snapshot the server published last, read-only; one that ``writes`` is refused in one line that says
    how to write instead. A store that cannot be opened ends the command in one line too (exit 3)."""
    from aikg.errors import AikgError
    from aikg.services import build_services

    settings = load_settings(overrides(options))
    try:
        services = build_services(settings, store=_beside_server(settings, writes=writes))
    except AikgError as exc:
        click.echo(f"aikg: {exc.message}", err=True)
        sys.exit(3 if exc.status >= 500 else 2)
    try:
        yield services
    finally:
        services.close()


def _beside_server(settings: Settings, *, writes: bool) -> Store | None:
    """The published snapshot of a store a running server holds (None when no server holds it)."""
    from aikg.errors import StoreError
    from aikg.serving import publication
    from aikg.serving.app import has_writer
    from aikg.store import in_use, open_snapshot

    location = settings.store
    if not has_writer(settings) or not in_use(location):
        return None
    if writes:
        raise StoreError(
            f"the store at {location} is open in a running aikg serve: write through its HTTP API "
            "(PUT /data?graph=IRI, POST /update) or stop the server first"
        )
    published = publication.current(publication.folder_for(Path(location)), wait=publication.SETTLE_WAIT)
    if published is None:
        raise StoreError(f"the store at {location} is open in a server that has published no snapshot yet")
    return open_snapshot(published.snapshot)
