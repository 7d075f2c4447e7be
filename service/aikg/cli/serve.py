"""``aikg serve``: the service under gunicorn, a production WSGI server (see :mod:`aikg.serving`).

With the embedded on-disk store, one writer process owns the store and ``--workers`` HTTP workers read
its snapshots; with an in-memory store one worker owns it; with a remote engine every worker talks to
the engine. The CLI process becomes gunicorn's master: it never opens the store, it only checks that no
other process holds the store directory.
"""

from __future__ import annotations

import sys
from typing import Any

import click

from aikg.cli.options import overrides, setting_options
from aikg.errors import AikgError
from aikg.serving.app import Server, export_settings, has_writer
from aikg.serving.arenas import cap_arenas
from aikg.settings import SETTINGS, load_settings


def check_store(settings: dict[str, Any]) -> None:
    """Refuse early, with a clear message, a store directory another process has open.

    The store itself is opened only by the writer (or the one worker): RocksDB state inherited through
    ``fork`` hangs a process at exit, so the master must never open it.
    """
    from aikg.errors import StoreError
    from aikg.store import in_use

    location = settings["store"]
    if in_use(location):
        raise StoreError(
            f"the store at {location} is open in another process (another aikg serve?): "
            "stop it, or give this one another --store"
        )


def _log_to_stderr() -> None:
    """The service's own messages (``aikg.*`` loggers, from INFO) beside gunicorn's, in its format."""
    import logging

    logger = logging.getLogger("aikg")
    if not logger.handlers:
        handler = logging.StreamHandler(sys.stderr)
        handler.setFormatter(
            logging.Formatter(
                "[%(asctime)s] [%(process)d] [%(levelname)s] %(message)s", "%Y-%m-%d %H:%M:%S %z"
            )
        )
        logger.addHandler(handler)
        logger.setLevel(logging.INFO)
        logger.propagate = False


@click.command()
@setting_options(*(s.name for s in SETTINGS))  # every setting, so CLI and environment never differ
def serve(**options: Any) -> None:
    """Start the HTTP service (SPARQL endpoint, API, exports, explorer)."""
    settings = load_settings(overrides(options))
    if settings["workers"] < 1 or settings["threads"] < 1:
        raise click.UsageError("--workers and --threads must be at least 1")
    if settings["store"] == "memory" and settings["workers"] > 1:
        settings["workers"] = 1  # an in-memory store lives in one process
    try:
        check_store(settings)
    except AikgError as exc:
        click.echo(f"aikg: {exc.message}", err=True)
        sys.exit(2)
    click.echo(
        f"aikg: serving {settings['store']} on http://{settings['host']}:{settings['port']}/ "
        f"({settings['workers']} worker(s))",
        err=True,
    )
    export_settings(settings)
    cap_arenas(int(settings["malloc_arenas"]))  # before gunicorn forks: every serving process has it
    _log_to_stderr()
    if has_writer(settings):  # nobody holds the store: a publication left by an earlier run is stale
        from pathlib import Path

        from aikg.serving import publication

        publication.withdraw(publication.folder_for(Path(settings["store"])))
    Server(settings).run()


COMMANDS = [serve]
