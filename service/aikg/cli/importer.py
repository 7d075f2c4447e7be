"""``aikg import epoch DIR``: import Epoch AI's public datasets, resolved against the graph;
``aikg import show``: a recorded import.

Exit codes: 0 every row imported, 1 some rows were left out (reported with their reasons; the others
were imported), 2 usage or input error.
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
@click.option(
    "--overrides",
    "overrides_file",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="Reviewed resolution overrides (CSV: kind,name,decision,target,reason); "
    "default: seeds/epoch/overrides.csv.",
)
@click.option(
    "--replace",
    is_flag=True,
    help="Let a partial file replace its whole dataset (by default it updates only its own rows).",
)
@click.option(
    "--snapshot-date",
    default=None,
    metavar="YYYY-MM-DD",
    help="The date the files were taken from Epoch AI (default: the directory's snapshot.csv, "
    "else each file's modification time).",
)
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON instead of text.")
@click.option("--verbose", is_flag=True, help="List every created entity and every value finding too.")
@setting_options(*STORE_SETTINGS)
def epoch(
    directory: Path,
    overrides_file: Path | None,
    replace: bool,
    snapshot_date: str | None,
    as_json: bool,
    verbose: bool,
    **options: Any,
) -> None:
    """Import Epoch AI's CSV files from DIRECTORY (like seeds/epoch/) into their datasets' graphs."""
    from aikg.epoch import import_epoch

    if overrides_file is not None and not overrides_file.is_file():
        raise click.UsageError(f"the overrides file {overrides_file} does not exist")
    with open_services(options, writes=True) as services:
        try:
            if is_empty(services.store):
                click.echo("The store is empty: loading the ontology, shapes and seeds first.", err=True)
                load_seeds(services.store)
            with tqdm(desc="epoch rows", unit="row", file=sys.stderr, disable=None) as bar:
                report = import_epoch(
                    services,
                    directory,
                    overrides=overrides_file,
                    replace=replace,
                    snapshot_date=snapshot_date,
                    progress=bar,
                )
        except AikgError as exc:
            fail(exc)
    click.echo(
        json.dumps(report.to_json(), indent=2, ensure_ascii=False)
        if as_json
        else report.text(verbose=verbose)
    )
    if report.rejected:
        click.echo(f"aikg: {len(report.rejected)} row(s) were left out (see 'Rejected rows')", err=True)
        sys.exit(1)


@import_group.command("show")
@click.argument("import_id", required=False, default="latest")
@click.option("--json", "as_json", is_flag=True, help="Print the record as JSON instead of text.")
@click.option("--verbose", is_flag=True, help="List every value finding too.")
@setting_options(*STORE_SETTINGS)
def show(import_id: str, as_json: bool, verbose: bool, **options: Any) -> None:
    """Show a recorded import (the latest by default), as /api/imports/<id> does."""
    from aikg.epoch.record import get_import, list_imports, report_from_record

    with open_services(options) as services:
        try:
            records = list_imports(services.store)
            if not records:
                click.echo("aikg: no import has been recorded in this store", err=True)
                sys.exit(2)
            record = get_import(services.store, records[0]["id"] if import_id == "latest" else import_id)
        except AikgError as exc:
            fail(exc)
    click.echo(
        json.dumps(record, indent=2, ensure_ascii=False)
        if as_json
        else report_from_record(record).text(verbose=verbose)
    )


COMMANDS = [import_group]
