"""The JSON lookup API."""

from flask import Blueprint, jsonify

from . import get_store

bp = Blueprint("api", __name__, url_prefix="/api")


@bp.get("/health")
def health():
    """Liveness and the store's kind and size."""
    store = get_store()
    return jsonify({"ok": True, "store": store.kind, "version": store.version})
