"""``aikg load`` and ``aikg dump``: moving data in and out of the store."""

from __future__ import annotations

import sys
from typing import Any

import click

from ..errors import AikgError
from ..knowledge.load import load_seeds
from ..settings import load_settings
from ..store import open_store
from .options import overrides, setting_options


def fail(exc: AikgError) -> None:
    """Report a usage or input error and exit with code 2."""
    click.echo(f"aikg: {exc.message}", err=True)
    sys.exit(2)


@click.command()
@click.option("--seeds", is_flag=True, help="Load the ontology, shapes and seeds (idempotent).")
@setting_options("store")
def load(seeds: bool, **options: Any) -> None:
    """Load data into the store."""
    settings = load_settings(overrides(options))
    if not seeds:
        raise click.UsageError("say what to load: --seeds")
    store = open_store(settings["store"])
    try:
        counts = load_seeds(store)
    except AikgError as exc:
        fail(exc)
    finally:
        store.close()
    for graph, n in counts.items():
        click.echo(f"{n:>8}  {graph}")


@click.command()
@click.option("--format", "fmt", default="application/n-quads", show_default=True,
              help="Media type or short name (nquads, trig; turtle etc. with --graph).")
@click.option("--graph", default=None, help="Dump only this named graph.")
@setting_options("store")
def dump(fmt: str, graph: str | None, **options: Any) -> None:
    """Write the store (or one graph) to standard output."""
    from ..formats import RDF_FORMATS, by_name

    f = by_name(fmt, RDF_FORMATS)
    if f is None:
        raise click.UsageError(f"unknown format {fmt!r}")
    store = open_store(load_settings(overrides(options))["store"])
    try:
        sys.stdout.buffer.write(store.dump(mime=f.mime, graph=graph))
    except AikgError as exc:
        fail(exc)
    finally:
        store.close()


COMMANDS = [load, dump]
