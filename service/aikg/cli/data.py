"""``aikg load`` and ``aikg dump``: moving data in and out of the store."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import click

from aikg.cli.options import STORE_SETTINGS, open_services, overrides, setting_options
from aikg.errors import AikgError, NotFound, ValidationFailed
from aikg.knowledge.load import load_seeds
from aikg.rdf import guard
from aikg.rdf.formats import by_extension
from aikg.settings import load_settings
from aikg.write import gate, terms


def fail(exc: AikgError) -> None:
    """Report a usage or input error and exit with code 2."""
    click.echo(f"aikg: {exc.message}", err=True)
    sys.exit(2)


def _load_file(path: Path, graph: str, fmt: str | None, replace: bool, options: dict[str, Any]) -> None:
    """Load one RDF file into one named graph through the same SHACL gate as HTTP writes."""
    found = by_extension(path.name)
    mime = fmt or (found.mime if found else None)
    if mime is None:
        raise click.UsageError(f"cannot tell the format of {path.name}: give --format (a media type)")
    try:
        target = gate.check_graph_iri(graph)
        settings = load_settings(overrides(options))
        quads = guard.parse_rdf(path.read_bytes(), mime, graph=target, max_expansion=settings.max_body)
    except AikgError as exc:
        fail(exc)
    with open_services(options, writes=True) as services:
        try:
            outcome = services.gate.put(target, quads, replace=replace)
        except ValidationFailed as exc:
            # refused by the shapes (their report), or before them (write/terms.py: its violations)
            click.echo((exc.report or terms.as_result(exc.errors)).text())
            click.echo(f"aikg: {exc.message}", err=True)
            sys.exit(1)
        except AikgError as exc:
            fail(exc)
    click.echo(f"{outcome.added:>8} added, {outcome.removed} removed  {target}")


def _bulk(path: Path, options: dict[str, Any]) -> None:
    """Bulk-load one N-Quads file, then rebuild the derived graphs."""
    from aikg.knowledge.load import bulk_load

    with open_services(options, writes=True) as services:
        try:
            seconds = bulk_load(services.store, path, progress=True)
        except AikgError as exc:
            fail(exc)
    click.echo(
        f"loaded {path.name} in {seconds['load_seconds']:.1f} s, derived graphs in "
        f"{seconds['derive_seconds']:.1f} s"
    )
    built = _keep_search_index(options)
    if built is not None:
        click.echo(f"search index built and kept for the first start in {built:.1f} s")


def _keep_search_index(options: dict[str, Any]) -> float | None:
    """Build the loaded data's search index and keep it where ``aikg serve`` looks, so a first start
    after a bulk load loads it (at 1M quads a build takes ~10 s, and until it was done searches, entity
    lookups and named queries answered 503). Seconds taken; None for a store that keeps no index."""
    import time

    from aikg.serving import publication
    from aikg.serving.app import has_writer

    settings = load_settings(overrides(options))
    if not has_writer(settings):
        return None
    started = time.perf_counter()
    # Reopened after the load's clean close: the data's identity is the one the server will name.
    with open_services(options, writes=True) as services:
        services.search.keep = publication.folder_for(Path(settings.store))
        try:
            services.index()
        except AikgError as exc:
            fail(exc)
    return time.perf_counter() - started


@click.command()
@click.argument("file", required=False, type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--seeds", is_flag=True, help="Load the ontology, shapes and seeds (idempotent).")
@click.option("--graph", default=None, help="The named graph FILE belongs to (required with FILE).")
@click.option("--format", "fmt", default=None, help="Media type of FILE (default: from its extension).")
@click.option("--replace", is_flag=True, help="Replace the graph's content instead of adding to it.")
@click.option(
    "--bulk",
    is_flag=True,
    help="Bulk-load a large N-Quads FILE (each quad into its own graph) "
    "with a progress bar, skipping the SHACL gate: for initial loads; check with 'aikg validate'.",
)
@setting_options(*STORE_SETTINGS)
def load(
    file: Path | None,
    seeds: bool,
    graph: str | None,
    fmt: str | None,
    replace: bool,
    bulk: bool,
    **options: Any,
) -> None:
    """Load data into the store: the seeds, or FILE into --graph (validated by the shapes first)."""
    if bulk:
        if file is None or seeds or graph or replace:
            raise click.UsageError("--bulk takes one N-Quads FILE, without --seeds, --graph or --replace")
        _bulk(file, options)
        return
    if file is not None:
        if seeds:
            raise click.UsageError("give either FILE or --seeds")
        if not graph:
            raise click.UsageError("every write names its graph: give --graph IRI")
        _load_file(file, graph, fmt, replace, options)
        return
    if not seeds:
        raise click.UsageError("say what to load: FILE --graph IRI, or --seeds")
    with open_services(options, writes=True) as services:
        try:
            counts = load_seeds(services.store)
        except AikgError as exc:
            fail(exc)
    for graph, n in counts.items():
        click.echo(f"{n:>8}  {graph}")


@click.command()
@click.option(
    "--format",
    "fmt",
    default="application/n-quads",
    show_default=True,
    help="Media type or short name (nquads, trig; turtle etc. with --graph).",
)
@click.option("--graph", default=None, help="Dump only this named graph.")
@setting_options(*STORE_SETTINGS)
def dump(fmt: str, graph: str | None, **options: Any) -> None:
    """Write the store (or one graph) to standard output."""
    from aikg.rdf.formats import RDF_FORMATS, by_name

    f = by_name(fmt, RDF_FORMATS)
    if f is None:
        raise click.UsageError(f"unknown format {fmt!r}")
    with open_services(options) as services:
        store = services.store
        try:
            if graph is not None and graph not in store.graphs():
                raise NotFound(f"no graph {graph[:200]} in the store (see /api/stats for the graphs)")
            sys.stdout.buffer.write(store.dump(mime=f.mime, graph=graph))
        except AikgError as exc:
            fail(exc)


COMMANDS = [load, dump]
