"""``aikg check``, ``aikg backup`` and ``aikg restore``: the embedded on-disk store's health and copies.

All three work on the folder itself (:mod:`aikg.store.integrity`), never through a read-write open:
``check`` and ``backup`` run beside a running ``aikg serve`` (a backup is then made from the snapshot
the server published last), and ``restore`` only ever fills a new folder.

Exit codes: 0 ok, 2 usage or input error, 3 the store is damaged or could not be copied.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import click

from aikg.cli.options import overrides, setting_options
from aikg.errors import AikgError, DamagedStore
from aikg.settings import load_settings


def _folder(options: dict[str, Any]) -> Path:
    """The store folder the settings name; the commands are for the embedded on-disk store only."""
    from aikg.serving.app import has_writer

    settings = load_settings(overrides(options))
    if not has_writer(settings):
        raise click.UsageError("this command works on the embedded on-disk store: give --store DIRECTORY")
    return Path(settings.store)


def _fail(exc: AikgError) -> None:
    click.echo(f"aikg: {exc.message}", err=True)
    sys.exit(3 if exc.status >= 500 else 2)


@click.command()
@setting_options("store")
def check(**options: Any) -> None:
    """Verify the store: every index read whole (each block's checksum checked), all in agreement."""
    from aikg.store import integrity

    path = _folder(options)
    try:
        report = integrity.check(path, progress=lambda text: click.echo(f"aikg: {text}", err=True))
    except AikgError as exc:
        _fail(exc)
    click.echo("\n".join(report.lines()))
    if not report.sound:
        sys.exit(3)


@click.command()
@click.argument("target", type=click.Path(file_okay=False, path_type=Path))
@setting_options("store")
def backup(target: Path, **options: Any) -> None:
    """Copy the store into the new folder TARGET (consistent, even beside a running server)."""
    from aikg.serving import publication
    from aikg.store import in_use, integrity

    path = _folder(options)
    source = path
    if in_use(str(path)):  # a server writes it: copy the snapshot it published last
        published = publication.current(publication.folder_for(path), wait=publication.SETTLE_WAIT)
        if published is None:
            _fail(DamagedStore(f"the store at {path} is open in a server that has published no snapshot yet"))
            return
        source = published.snapshot.path
    try:
        size = integrity.backup(source, target)
    except AikgError as exc:
        _fail(exc)
    click.echo(f"backed up {path} into {target} ({size / 2**20:.1f} MiB)")


@click.command()
@click.argument("source", type=click.Path(exists=True, file_okay=False, path_type=Path))
@setting_options("store")
def restore(source: Path, **options: Any) -> None:
    """Restore the backup SOURCE into the store folder, which must be new (absent or empty)."""
    from aikg.errors import StoreError
    from aikg.store import in_use, integrity

    path = _folder(options)
    try:
        if in_use(str(path)):
            raise StoreError(f"the store at {path} is open in another process (aikg serve?): stop it first")
        size = integrity.restore(source, path)
    except AikgError as exc:
        _fail(exc)
    click.echo(
        f"restored {source} into {path} ({size / 2**20:.1f} MiB); start it with aikg serve --store {path}"
    )


COMMANDS = [check, backup, restore]
