"""``aikg serve``: the service under gunicorn, a production WSGI server (see :mod:`aikg.serving`).

With the embedded on-disk store, one writer process owns the store and ``--workers`` HTTP workers read
its snapshots; with an in-memory store one worker owns it; with a remote engine every worker talks to
the engine. The CLI process becomes gunicorn's master: it never opens the store, it only checks that no
other process holds the store directory.
"""

from __future__ import annotations

import contextlib
import os
import sys
from pathlib import Path
from typing import Any

import click

from aikg.cli.options import overrides, setting_options
from aikg.errors import AikgError, DamagedStore
from aikg.serving.app import Server, export_settings, has_writer
from aikg.serving.arenas import cap_arenas
from aikg.settings import SETTINGS, Settings, load_settings


def check_store(settings: Settings) -> None:
    """Refuse early, with a clear message, a store directory another process has open.

    The store itself is opened only by the writer (or the one worker): RocksDB state inherited through
    ``fork`` hangs a process at exit, so the master must never open it.
    """
    from aikg.errors import StoreError
    from aikg.store import in_use

    location = settings.store
    if in_use(location):
        raise StoreError(
            f"the store at {location} is open in another process (another aikg serve?): "
            "stop it, or give this one another --store"
        )
    if has_writer(settings):
        from aikg.store import integrity

        integrity.is_new(Path(location))  # a folder that is neither new nor a store is refused here


RELEASE_WAIT = 15.0
"""Seconds ``aikg serve`` waits, as it exits, for its writer to close the store before stopping it."""


def release_store(location: str, writer: int | None) -> None:
    """Return only once no process holds the store, so a start right after this one's exit opens it.

    gunicorn's master exits once its graceful time is up, even when the writer is still closing the
    store (busy with a write or an import, or stopped while it loaded the seeds, when gunicorn drops the
    signal): that writer, orphaned, held the store for ~15 s more. It is given ``RELEASE_WAIT`` seconds
    to finish cleanly, then killed: every committed write is in the engine's log already."""
    import signal
    import time

    from aikg.store import in_use

    until = time.monotonic() + RELEASE_WAIT
    while in_use(location):
        if writer is None or not _ours(writer):
            return  # another process holds it: none of this service's to stop
        with contextlib.suppress(ProcessLookupError):
            os.kill(writer, signal.SIGKILL if time.monotonic() > until else signal.SIGTERM)
        time.sleep(0.1)


def _ours(pid: int) -> bool:
    """True when ``pid`` was started by this ``aikg serve`` (a pid file may outlive its process)."""
    from aikg.serving.app import SERVER_PID

    try:
        environ = Path(f"/proc/{pid}/environ").read_bytes().split(b"\0")
    except OSError:
        return False
    return f"{SERVER_PID}={os.getpid()}".encode() in environ


def port_in_use(host: str, port: int) -> str | None:
    """Why ``host:port`` cannot be listened on (something already does), or None. The HTTP workers
    bind it with SO_REUSEPORT, which another socket of the same user with that flag (a second aikg
    serve) would share silently: a plain bind here fails instead."""
    import socket

    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except OSError:
        return None  # the server's own bind reports a host that does not resolve
    for family, kind, proto, _, address in infos[:1]:
        with socket.socket(family, kind, proto) as probe:
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as gunicorn binds
            try:
                probe.bind(address)
            except OSError as exc:
                return f"cannot listen on {host}:{port}: {exc.strerror or exc} (another aikg serve?)"
    return None


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
    if settings.workers < 1 or settings.threads < 1:
        raise click.UsageError("--workers and --threads must be at least 1")
    if settings.store == "memory" and settings.workers > 1:
        settings = settings.but(workers=1)  # an in-memory store lives in one process
    if (busy := port_in_use(settings.host, settings.port)) is not None:
        click.echo(f"aikg: {busy}", err=True)
        sys.exit(2)
    try:
        check_store(settings)
    except DamagedStore as exc:
        click.echo(f"aikg: {exc.message}", err=True)
        sys.exit(3)
    except AikgError as exc:
        click.echo(f"aikg: {exc.message}", err=True)
        sys.exit(2)
    click.echo(
        f"aikg: serving {settings.store} on http://{settings.host}:{settings.port}/ "
        f"({settings.workers} worker(s))",
        err=True,
    )
    export_settings(settings)
    cap_arenas(settings.malloc_arenas)  # before gunicorn forks: every serving process has it
    _log_to_stderr()
    if has_writer(settings):  # nobody holds the store: a publication left by an earlier run is stale
        from aikg.serving import publication

        folder = publication.folder_for(Path(settings.store))
        publication.withdraw(folder)
        master = os.getpid()
        try:
            Server(settings).run()
        finally:
            if os.getpid() == master:  # not in a worker gunicorn forked, which exits through here too
                release_store(settings.store, publication.writer(folder))
                reason = publication.fatal(folder)
                if reason is not None:  # the writer could not open the store: it ended the service
                    click.echo(f"aikg: {reason}", err=True)
                    sys.exit(3)
        return
    Server(settings).run()


COMMANDS = [serve]
