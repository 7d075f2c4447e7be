"""``aikg serve`` under gunicorn: which processes run, and what each one builds.

- **Embedded on-disk store** (the default): the writer (:mod:`aikg.serving.writer`, a dirty worker) owns
  the store; ``workers`` HTTP workers read the snapshots it publishes (:mod:`aikg.serving.follower`) and
  forward writes to it (:mod:`aikg.serving.forward`).
- **In-memory store**: one HTTP worker owns the store (nothing else could see it).
- **Remote engine**: ``workers`` HTTP workers, each with its own services over the engine.

Every process resolves its settings from the environment, which the CLI fills from its options before
gunicorn starts, so all of them run with the same settings. HTTP workers are aikg's own worker class
(:mod:`aikg.serving.worker`): the JSON envelope for malformed requests, a read deadline for slow clients.
"""

from __future__ import annotations

import hashlib
import os
import sys
from pathlib import Path
from typing import Any

import click
from gunicorn.app.base import BaseApplication

from aikg.cache import LruCache
from aikg.errors import AikgError
from aikg.settings import SETTINGS, Settings

VIEWS_START_DELAY = 8.0
"""Seconds after an HTTP worker is ready before it starts its views process (a view asked sooner
starts it at once)."""
ASK_WARM_DELAY = 2.0
"""Seconds after a worker loads before it makes its plain-words reader in the background."""

GRACEFUL_SECONDS = 10
"""How long a stopping worker may spend finishing running requests before it is killed."""


def is_embedded(location: str) -> bool:
    """True for the embedded Oxigraph store (a directory or ``memory``)."""
    return not location.startswith(("http://", "https://"))


SERVER_PID = "AIKG_SERVER_PID"
"""The environment variable that tells the processes of ``aikg serve`` the pid of its master."""


def has_writer(settings: Settings) -> bool:
    """True when a writer process owns the store: the embedded store on disk."""
    return is_embedded(settings.store) and settings.store != "memory"


def export_settings(settings: Settings) -> None:
    """Put every resolved setting into the environment, so every process started from here agrees."""
    for s in SETTINGS:
        value = getattr(settings, s.name)
        os.environ[s.env] = ("true" if value else "false") if s.type is bool else str(value)


def reader_app(settings: Settings, *, views: bool = True) -> Any:
    """An HTTP worker's app over the writer's snapshots, forwarding writes to the writer and, with
    ``views``, graph views to its views process (:mod:`aikg.serving.views`); without, the views
    process's own app, which answers them."""
    from aikg.services import build_services
    from aikg.serving import publication
    from aikg.serving.follower import FollowerStore, JournalLog
    from aikg.serving.forward import ForwardingGate
    from aikg.serving.validation import PublishedValidation
    from aikg.web import create_app

    folder = publication.folder_for(Path(settings.store))
    store = FollowerStore(folder)
    services = build_services(
        settings,
        store=store,
        writelog=JournalLog(store, folder),
        gate=ForwardingGate(settings.write_timeout, folder),
        keep=folder,
        # the writer may be busy with a write up to its time limit before it takes the request
        validation=PublishedValidation(folder, store, ask_timeout=3 * settings.write_timeout),
    )
    app = create_app(services=services, owner=False)
    if views:
        from aikg.serving.views import ViewsProcess

        services.views = ViewsProcess(settings.query_timeout)
        services.whole.keeping = False  # the views process keeps the graph's facts
    else:
        services.responses = LruCache(0)  # the HTTP worker keeps the answers
    return app


class Server(BaseApplication):  # type: ignore[misc]  # gunicorn ships no types: its classes are Any
    """gunicorn embedded, so ``aikg serve`` needs no config file; each worker builds its own app."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        os.environ[SERVER_PID] = str(os.getpid())  # gunicorn's master: the writer checks its arbiter's parent
        super().__init__()

    def load_config(self) -> None:
        s = self.settings
        cfg = self.cfg
        cfg.set("bind", f"{s.host}:{s.port}")
        # Each HTTP worker listens on a socket of its own (SO_REUSEPORT), and the kernel spreads new
        # connections over them: on one shared socket, whichever worker woke first took the whole
        # backlog, and in 18 of 25 wrk runs all 8 keep-alive connections landed on one worker (one core).
        # aikg serve checks the port is free first (cli.serve.port_in_use), as a shared socket's bind did.
        cfg.set("reuse_port", True)
        cfg.set("workers", s.workers)
        cfg.set("threads", s.threads)
        cfg.set("worker_class", "aikg.serving.worker.Worker")
        cfg.set("timeout", max(30, int(s.query_timeout * 4)))
        cfg.set("graceful_timeout", GRACEFUL_SECONDS)
        cfg.set("limit_request_line", 8190)  # long SPARQL queries come as GET ?query=
        # gunicorn keys its dirty-arbiter pid file on the process name and, at start, kills the arbiter
        # a file names as an orphan: a name shared by two aikg instances would let one kill the other's
        # writer. Keyed on the store, a restart still cleans up its own orphan (which holds the lock).
        digest = hashlib.blake2b(s.store.encode(), digest_size=5).hexdigest()
        cfg.set("proc_name", f"aikg-{s.port}-{digest}")
        cfg.set("accesslog", "-")
        cfg.set("logger_class", "aikg.serving.accesslog.AccessLogger")  # the same lines, less work
        cfg.set("worker_exit", _close_services)
        if "control_socket_disable" in cfg.settings:  # gunicorn >= 27
            # Its control socket has one per-user path: a second aikg (or any gunicorn) would take it.
            cfg.set("control_socket_disable", True)
        if has_writer(s):
            cfg.set("dirty_apps", ["aikg.serving.writer:Writer"])
            cfg.set("dirty_workers", 1)
            # The arbiter hands a worker one request at a time, whatever its threads: writes take turns
            # in the HTTP workers instead (aikg.serving.forward.WriteTurn), where a deadline is kept.
            cfg.set("dirty_threads", 16)
            # A write is bounded by write_timeout; the arbiter's own limit only catches a stuck writer.
            cfg.set("dirty_timeout", max(600, int(s.write_timeout * 3)))
            cfg.set("dirty_graceful_timeout", 30)

    def load(self) -> Any:
        writer = has_writer(self.settings)
        if writer:  # the HTTP worker reads the writer's snapshots in query workers
            from aikg.query.workers import start_early

            # The first query needs a started worker: its interpreter starts while the app loads.
            start_early(self.settings.query_memory)
        from aikg.web import SERVICES_KEY, create_app

        try:
            # the owner app opens the store and loads the seeds if it is empty
            app = reader_app(self.settings) if writer else create_app(self.settings)
        except AikgError as exc:
            if writer and _writer_gave_up(self.settings):
                sys.exit(WORKER_BOOT_ERROR)  # ends the service; aikg serve says why, once
            click.echo(f"aikg: {exc.message}", err=True)
            raise
        services = app.extensions[SERVICES_KEY]
        services.search.warm_up()  # the first answers need it
        services.runner.warm_up()
        if services.views is not None:
            # Its start (an interpreter, its imports, the app: 2-5 s of a core on a busy machine) waits
            # until the first answers are out, which otherwise shared the cores with it.
            services.views.start(after=VIEWS_START_DELAY)
        import threading

        if self.settings.warm_ask:
            from aikg.web.ask import warm_up as warm_asker

            # the plain-words reader, made once the first answers are out (its first question took 4-6 s)
            timer = threading.Timer(ASK_WARM_DELAY, warm_asker, args=(app,))
            timer.name, timer.daemon = "aikg-ask-warm-up", True
            timer.start()
        if not writer and self.settings.token:  # the first write should not pay for parsing rules
            from aikg.write.gate import warm_up

            threading.Thread(target=warm_up, name="aikg-warm-up", daemon=True).start()
        return app


WORKER_BOOT_ERROR = 3
"""The exit code with which a worker tells gunicorn's master it could not start: the master stops."""


def _writer_gave_up(settings: Settings) -> bool:
    from aikg.serving import publication

    return publication.fatal(publication.folder_for(Path(settings.store))) is not None


def _close_services(_server: Any, worker: Any) -> None:
    """Stop the query workers and release the store as an HTTP worker exits (``worker_exit``)."""
    from aikg.web import SERVICES_KEY

    app = getattr(worker, "wsgi", None)
    services = getattr(app, "extensions", {}).get(SERVICES_KEY)
    if services is not None:
        services.close()
