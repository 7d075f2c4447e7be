"""The Flask app factory: settings in layers, the services on the app, one blueprint per surface.

Every request runs under one deadline (setting ``query_timeout`` for reads, ``write_timeout`` for
writes) that bounds each store read it makes, internal lookups included (:func:`aikg.store.base.
deadline_scope`); a read past it ends the request with 503 naming the limit.
"""

from __future__ import annotations

import contextvars
from collections.abc import Mapping
from typing import Any

from flask import Flask, current_app, g, request

from aikg.services import Services, build_services
from aikg.settings import Settings, load_settings
from aikg.store import Deadline, Store
from aikg.store.base import pop_deadline, push_deadline
from aikg.web.json_provider import OrjsonProvider

SERVICES_KEY = "aikg.services"
VIEWS_DEADLINE = "aikg.deadline"
"""The WSGI environ key under which the views process (:mod:`aikg.serving.views`) gives a view the
deadline the HTTP worker set as the request arrived (``time.monotonic``): the view keeps the sooner one."""
_WRITES = frozenset({"POST", "PUT", "DELETE", "PATCH"})


def create_app(
    test_config: Mapping[str, Any] | Settings | None = None,
    *,
    store: Store | None = None,
    services: Services | None = None,
    owner: bool = True,
) -> Flask:
    """Build the aikg WSGI app: defaults, then ``AIKG_*`` environment, then ``test_config`` (or the
    resolved settings as they are).

    An ``owner`` app loads the seeds into an empty store and starts the Epoch import; a serving reader
    is not the owner (the writer process does both).
    """
    app = Flask(__name__, static_folder=None)
    if services is None:
        services = build_services(load_settings(test_config), store=store)
    settings = services.settings
    app.config["MAX_CONTENT_LENGTH"] = settings.max_body
    app.json = OrjsonProvider(app)  # keys in their documented order; big answers written fast
    app.extensions[SERVICES_KEY] = services

    if owner and settings.load_seeds:
        from aikg.knowledge.load import is_empty, load_seeds

        if is_empty(services.store):
            load_seeds(services.store)
        from aikg.epoch.background import bring_up_to_date

        services.background["shipped-data"] = bring_up_to_date(services, epoch=settings.import_epoch)
    services.whole.keeping = True  # graph views repeat: keep the whole graph's facts (aikg.export.kept)

    from aikg.web import api, ask, docs, errors, exports, imports, linked_data, pages, sparql, writes

    errors.register(app)
    _bound_requests(app)
    for module in (sparql, api, exports, linked_data, writes, pages, ask, imports, docs):
        app.register_blueprint(module.bp)
    from aikg.web.replay import Replay

    app.wsgi_app = Replay(app.wsgi_app, services)  # type: ignore[method-assign]  # WSGI middleware
    return app


def _bound_requests(app: Flask) -> None:
    """Give every request its deadline; every store read it makes keeps it."""

    @app.before_request
    def _start() -> None:
        settings = get_services().settings
        writing = request.method in _WRITES and request.endpoint not in ("sparql.endpoint",)
        seconds = settings.write_timeout if writing else settings.query_timeout
        deadline = Deadline.after(seconds)
        given = request.environ.get(VIEWS_DEADLINE)  # a view the HTTP worker handed on: its deadline
        if isinstance(given, float):
            deadline = Deadline(given).sooner(deadline)
        g.aikg_deadline = push_deadline(deadline)

    @app.teardown_request
    def _end(_exc: BaseException | None) -> None:
        token: contextvars.Token[Deadline | None] | None = g.pop("aikg_deadline", None)
        if token is not None:
            pop_deadline(token)


def get_services() -> Services:
    """The services of the running app: the one accessor the views use."""
    services: Services = current_app.extensions[SERVICES_KEY]  # Flask types its extensions as Any
    return services


def get_store() -> Store:
    """The store of the running app."""
    return get_services().store


def current_settings() -> Settings:
    """The resolved settings of the running app."""
    return get_services().settings
