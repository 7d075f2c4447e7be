"""The Flask app factory: settings in layers, the store on the app, one blueprint per surface."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from flask import Flask, current_app

from ..settings import load_settings
from ..store import Store, open_store

STORE_KEY = "aikg.store"


def create_app(test_config: Mapping[str, Any] | None = None, *, store: Store | None = None) -> Flask:
    """Build the aikg WSGI app: defaults, then ``AIKG_*`` environment, then ``test_config``."""
    app = Flask(__name__, static_folder=None)
    settings = load_settings(test_config)
    app.config["AIKG"] = settings
    app.config["MAX_CONTENT_LENGTH"] = settings["max_body"]
    app.json.sort_keys = False  # keep the documented field order in JSON bodies

    if store is None:
        store = open_store(settings["store"], **_remote_options(settings))
    app.extensions[STORE_KEY] = store
    if settings["load_seeds"]:
        from ..knowledge.load import is_empty, load_seeds

        if is_empty(store):
            load_seeds(store)
        if settings["import_epoch"]:
            from ..epoch.background import import_in_background

            app.extensions["aikg.epoch_import"] = import_in_background(store)

    from . import api, errors, exports, imports, linked_data, pages, sparql, writes

    errors.register(app)
    for module in (sparql, api, exports, linked_data, writes, pages, imports):
        app.register_blueprint(module.bp)
    return app


def _remote_options(settings: Mapping[str, Any]) -> dict[str, str]:
    return {k: settings[f"store_{k}"] for k in ("update_url", "gsp_url", "user", "password")
            if settings.get(f"store_{k}")}


def get_store() -> Store:
    """The store of the running app: the one accessor the views use."""
    return current_app.extensions[STORE_KEY]


def setting(name: str) -> Any:
    """One resolved setting of the running app."""
    return current_app.config["AIKG"][name]
