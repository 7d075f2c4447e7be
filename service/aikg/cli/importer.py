"""``aikg import epoch DIR``: import Epoch AI's public datasets, reconciled with the graph.

Exit codes: 0 every row imported, 1 some rows broke a shape (reported; the valid rows were imported),
2 usage or input error.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import click
from tqdm import tqdm

from aikg.cli.data import fail
from aikg.cli.options import STORE_SETTINGS, open_services, setting_options
from aikg.errors import AikgError
from aikg.knowledge.load import is_empty, load_seeds


@click.group("import")
def import_group() -> None:
    """Import a structured dataset into its own named graphs, through the shapes."""


@import_group.command("epoch")
@click.argument("directory", type=click.Path(exists=True, file_okay=False, path_type=Path))
@click.option("--overrides", "overrides_file", type=click.Path(dir_okay=False, path_type=Path),
              default=None,
              help="Reconciliation overrides (CSV: kind,epoch_name,aikg_id); "
                   "default: seeds/epoch/overrides.csv.")
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON instead of text.")
@click.option("--verbose", is_flag=True, help="List every created entity too.")
@setting_options(*STORE_SETTINGS)
def epoch(directory: Path, overrides_file: Path | None, as_json: bool, verbose: bool, **options: Any) -> None:
    """Import Epoch AI's CSV files from DIRECTORY (like seeds/epoch/), replacing earlier imports."""
    from aikg.epoch import import_epoch

    if overrides_file is not None and not overrides_file.is_file():
        raise click.UsageError(f"the overrides file {overrides_file} does not exist")
    with open_services(options) as services:
        try:
            if is_empty(services.store):
                click.echo("The store is empty: loading the ontology, shapes and seeds first.", err=True)
                load_seeds(services.store)
            with tqdm(desc="epoch rows", unit="row", file=sys.stderr, disable=None) as bar:
                report = import_epoch(services, directory, overrides=overrides_file, progress=bar)
        except AikgError as exc:
            fail(exc)
    click.echo(json.dumps(report.to_json(), indent=2) if as_json else report.text(verbose=verbose))
    if report.rejected:
        click.echo(f"aikg: {len(report.rejected)} row(s) did not conform and were left out", err=True)
        sys.exit(1)


COMMANDS = [import_group]
