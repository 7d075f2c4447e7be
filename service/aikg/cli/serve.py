"""``aikg serve``: the service under gunicorn, a production WSGI server.

The embedded store (on disk or in memory) belongs to one process: RocksDB locks its directory, and an
in-memory store cannot be shared. So with an embedded store ``aikg serve`` runs exactly one worker and
scales with threads (queries release the GIL); several workers need a remote store. The master only
checks that no other process holds the store directory; the worker opens the store once (loading the
seeds into an empty one) and closes it, flushing to disk, when it exits, including on SIGTERM after
gunicorn's graceful shutdown has let running requests finish.
"""

from __future__ import annotations

import sys
import threading
from typing import Any

import click
from gunicorn.app.base import BaseApplication

from aikg.cli.options import overrides, setting_options
from aikg.errors import AikgError
from aikg.settings import SETTINGS, load_settings

GRACEFUL_SECONDS = 10
"""How long a stopping worker may spend finishing running requests before it is killed."""


def is_embedded(location: str) -> bool:
    """True for the embedded Oxigraph store (a directory or ``memory``), which lives in one process."""
    return not location.startswith(("http://", "https://"))


class _Gunicorn(BaseApplication):
    """Gunicorn embedded, so ``aikg serve`` needs no config file; the app is built in each worker."""

    def __init__(self, settings: dict[str, Any]) -> None:
        self.settings = settings
        super().__init__()

    def load_config(self) -> None:
        s = self.settings
        self.cfg.set("bind", f"{s['host']}:{s['port']}")
        self.cfg.set("workers", s["workers"])
        self.cfg.set("threads", s["threads"])
        self.cfg.set("worker_class", "gthread")
        self.cfg.set("timeout", max(30, int(s["query_timeout"] * 4)))
        self.cfg.set("graceful_timeout", GRACEFUL_SECONDS)
        self.cfg.set("limit_request_line", 8190)  # long SPARQL queries come as GET ?query=
        self.cfg.set("proc_name", "aikg")
        self.cfg.set("accesslog", "-")
        self.cfg.set("worker_exit", _close_store)
        if "control_socket_disable" in self.cfg.settings:  # gunicorn >= 27
            # Its control socket has one per-user path: a second aikg (or any gunicorn) would take it.
            self.cfg.set("control_socket_disable", True)

    def load(self):  # noqa: ANN201 - gunicorn's hook
        from aikg.web import create_app

        try:
            app = create_app(self.settings)  # opens the store; loads the seeds if it is empty
        except AikgError as exc:
            click.echo(f"aikg: {exc.message}", err=True)
            raise
        if self.settings["token"]:  # writes are on: the first one should not pay for parsing rules
            from aikg.write.gate import warm_up

            threading.Thread(target=warm_up, name="aikg-warm-up", daemon=True).start()
        return app


def _close_store(_server: Any, worker: Any) -> None:
    """Stop the query workers and flush and release the store as the worker exits (``worker_exit``)."""
    from aikg.web import SERVICES_KEY

    app = getattr(worker, "wsgi", None)
    services = getattr(app, "extensions", {}).get(SERVICES_KEY)
    if services is not None:
        services.close()


def check_store(settings: dict[str, Any]) -> None:
    """Refuse early, with a clear message, a store directory another process has open.

    The store itself is opened only in the worker: RocksDB state inherited through ``fork`` hangs the
    worker at exit, so the master must never open it.
    """
    from aikg.errors import StoreError
    from aikg.store import OxigraphStore

    location = settings["store"]
    if is_embedded(location) and location != "memory" and OxigraphStore.in_use(location):
        raise StoreError(f"the store at {location} is open in another process (another aikg serve?): "
                         "stop it, or give this one another --store")


@click.command()
@setting_options(*(s.name for s in SETTINGS))  # every setting, so CLI and environment never differ
def serve(**options: Any) -> None:
    """Start the HTTP service (SPARQL endpoint, API, exports, explorer)."""
    settings = load_settings(overrides(options))
    if settings["workers"] < 1 or settings["threads"] < 1:
        raise click.UsageError("--workers and --threads must be at least 1")
    if settings["workers"] > 1 and is_embedded(settings["store"]):
        raise click.UsageError(
            "the embedded store lives in one process, so it is served by one worker: raise --threads "
            "to answer more requests at once, or use a remote store (--store http://...) for more workers")
    try:
        check_store(settings)
    except AikgError as exc:
        click.echo(f"aikg: {exc.message}", err=True)
        sys.exit(2)
    click.echo(f"aikg: serving {settings['store']} on http://{settings['host']}:{settings['port']}/",
               err=True)
    _Gunicorn(settings).run()


COMMANDS = [serve]
