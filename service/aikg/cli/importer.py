"""``aikg import epoch DIR``: import Epoch AI's public datasets, resolved against the graph;
``aikg import show``: a recorded import.

Exit codes of ``aikg import epoch``:

- 0: every row is accounted for, imported or rejected with its reason in the report (with
  ``--dry-run``: would be; nothing was written);
- 1: the import failed; nothing was written;
- 2: usage or input error (no Epoch file, an unreadable file or overrides line, a snapshot date that
  must be given with ``--as-of``); nothing was written;
- 3: the import would leave out values the file gives (a header that resembles a known column:
  accept it with ``--map``, or go on without it with ``--force``); nothing was written.
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
from aikg.errors import AikgError, BadRequest
from aikg.knowledge.load import is_empty, load_seeds


@click.group("import")
def import_group() -> None:
    """Import a structured dataset into its own named graphs, through the shapes.

    Exit codes of 'import epoch': 0 every row accounted for (imported, or rejected with its reason);
    1 the import failed; 2 usage or input error; 3 it would leave out values the file gives (--map or
    --force). Nothing is written unless the code is 0 (and never with --dry-run).
    """


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
    "--as-of",
    "--snapshot-date",
    "snapshot_date",
    default=None,
    metavar="YYYY-MM-DD",
    help="The date the files were taken from Epoch AI (default: the directory's snapshot.csv, else a "
    "README naming the snapshot's date, else the file's own newest 'Last modified' date or modification "
    "time, which are only used for a dataset's first snapshot or when certainly newer).",
)
@click.option(
    "--dry-run",
    is_flag=True,
    help="Print the change per entity (values added, changed, kept not restated, merges, ambiguities, "
    "disagreements, rejected rows) without writing anything.",
)
@click.option(
    "--map",
    "mappings",
    multiple=True,
    metavar="'HEADER=COLUMN'",
    help="Read a header the file has as a known column (as the report proposes); repeatable.",
)
@click.option(
    "--force",
    is_flag=True,
    help="Import even though a header that resembles a known column is left out (its stored values "
    "stay, marked as not restated).",
)
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON instead of text.")
@click.option("--verbose", is_flag=True, help="List every created entity and every value finding too.")
@setting_options(*STORE_SETTINGS)
def epoch(
    directory: Path,
    overrides_file: Path | None,
    replace: bool,
    snapshot_date: str | None,
    dry_run: bool,
    mappings: tuple[str, ...],
    force: bool,
    as_json: bool,
    verbose: bool,
    **options: Any,
) -> None:
    """Import Epoch AI's CSV files from DIRECTORY (like seeds/epoch/) into their datasets' graphs, in the
    order of their snapshots, with nothing lost: see the exit codes in `aikg import --help`."""
    from aikg.epoch import import_epoch
    from aikg.epoch.columns import parse_mappings

    if overrides_file is not None and not overrides_file.is_file():
        raise click.UsageError(f"the overrides file {overrides_file} does not exist")
    with open_services(options, writes=True) as services:
        try:
            mapped = parse_mappings(mappings)
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
                    dry_run=dry_run,
                    force=force,
                    mapped=mapped,
                )
        except BadRequest as exc:
            fail(exc)
        except AikgError as exc:
            click.echo(f"aikg: the import failed, nothing was written: {exc.message}", err=True)
            sys.exit(1)
    click.echo(
        json.dumps(report.to_json(), indent=2, ensure_ascii=False)
        if as_json
        else report.text(verbose=verbose)
    )
    if report.rejected:
        click.echo(
            f"aikg: {len(report.rejected)} row(s) were left out, each with its reason (see 'Rejected rows')",
            err=True,
        )
    if report.refused:
        click.echo(
            "aikg: the import failed, nothing was written: the store would not conform after it "
            "(see 'Refused')",
            err=True,
        )
        sys.exit(1)
    if report.waiting:
        click.echo(
            "aikg: nothing was written: the import would leave out values the file gives "
            "(see 'Waiting for a decision'; --map to accept a mapping, --force to go on without it)",
            err=True,
        )
        sys.exit(3)


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
