"""``aikg serve``: the service under gunicorn, a production WSGI server."""

from __future__ import annotations

from typing import Any

import click
from gunicorn.app.base import BaseApplication

from ..settings import load_settings
from .options import overrides, setting_options


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
        self.cfg.set("accesslog", "-")

    def load(self):  # noqa: ANN201 - gunicorn's hook
        from ..web import create_app

        return create_app(self.settings)


@click.command()
@setting_options("host", "port", "workers", "threads", "store", "token", "load_seeds",
                 "query_timeout", "max_rows", "max_body", "max_heavy_queries")
def serve(**options: Any) -> None:
    """Start the HTTP service (SPARQL endpoint, API, exports, explorer)."""
    settings = load_settings(overrides(options))
    click.echo(f"aikg: serving {settings['store']} on http://{settings['host']}:{settings['port']}/",
               err=True)
    _Gunicorn(settings).run()


COMMANDS = [serve]
