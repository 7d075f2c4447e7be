"""``aikg export``: the graph, a neighbourhood or some types in one export format, like ``/export/<format>``.

It calls the same :func:`aikg.export.run_export` as the HTTP route, so the same options write the same
bytes. Exit codes: 0 ok, 2 usage or input error (unknown focus or type, bad depth), 3 the store failed.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import click

from aikg.cli.options import STORE_SETTINGS, open_services, setting_options
from aikg.errors import AikgError
from aikg.export import EXPORTS, MAX_DEPTH, parse_options, run_export

_NAMES = [name for f in EXPORTS for name in (f.name, *f.aliases)]


@click.command()
@click.option(
    "--format",
    "-f",
    "fmt",
    required=True,
    type=click.Choice(_NAMES, case_sensitive=False),
    help="Export format: " + ", ".join(f"{f.name} ({f.title})" for f in EXPORTS) + ".",
)
@click.option("--focus", default=None, help="Export the neighbourhood of this entity (slug or IRI).")
@click.option(
    "--depth", type=int, default=None, help=f"Links to follow from --focus, 0 to {MAX_DEPTH} [default 1]."
)
@click.option(
    "--type",
    "types",
    multiple=True,
    help="Keep only nodes of this class or its subclasses (repeatable), e.g. Organization.",
)
@click.option(
    "--fold",
    is_flag=True,
    help="Fold deals, results and other n-ary nodes into labelled edges (graph formats only).",
)
@click.option(
    "--output",
    "-o",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="Write to this file instead of standard output.",
)
@setting_options(*STORE_SETTINGS, "load_seeds")
def export(
    fmt: str,
    focus: str | None,
    depth: int | None,
    types: tuple[str, ...],
    fold: bool,
    output: Path | None,
    **options: Any,
) -> None:
    """Export the data graph for Gephi, Cytoscape, Graphviz, yEd or any RDF tool."""
    with open_services(options) as services:
        try:
            if services.settings.load_seeds and not services.store.graphs():
                from aikg.knowledge.load import load_seeds

                load_seeds(services.store)
            result = run_export(
                services, fmt, parse_options(focus=focus, depth=depth, types=types, fold=fold)
            )
            chunks = list(result.chunks)
        except AikgError as exc:
            click.echo(f"aikg: {exc.message}", err=True)
            sys.exit(2 if exc.status < 500 else 3)
    if output is None:
        for chunk in chunks:
            sys.stdout.buffer.write(chunk)
        sys.stdout.buffer.flush()
        return
    try:
        with output.open("wb") as fh:
            fh.writelines(chunks)
    except OSError as exc:
        click.echo(f"aikg: cannot write {output}: {exc.strerror}", err=True)
        sys.exit(2)
    click.echo(f"aikg: wrote {output}", err=True)


COMMANDS = [export]
