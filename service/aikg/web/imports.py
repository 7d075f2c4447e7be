"""What every import did, from its record in the store: ``/api/imports`` (JSON) and ``/imports`` (the
explorer page). Every merge, link and ambiguity of entity resolution, every row left out with its reason
and every value read leniently or not at all is listed here, not only on the CLI."""

from __future__ import annotations

from flask import Blueprint, Response, jsonify, render_template, request

from aikg.epoch.record import IMPORT_BASE, get_import, list_imports
from aikg.errors import BadRequest
from aikg.rdf.formats import JSON
from aikg.web import get_store
from aikg.web.negotiation import negotiate
from aikg.web.response_cache import cached

bp = Blueprint("imports", __name__, template_folder="templates")

FINDING_KINDS = (
    "merge",
    "link",
    "ambiguity",
    "rejected-row",
    "unreadable-value",
    "read-value",
    "flag",
    "column",
)


@bp.get("/api/imports")
@cached
def imports() -> Response:
    """Every recorded import, newest first: per file the rows read, imported, rejected and kept, the
    update mode, snapshot date, merges, links, ambiguities and disagreements found."""
    negotiate((JSON,))
    records = list_imports(get_store())
    for r in records:
        r["links"] = {"self": f"/api/imports/{r['id'].removeprefix(IMPORT_BASE)}"}
    return jsonify({"imports": records})


@bp.get("/api/imports/<path:import_id>")
@cached
def one_import(import_id: str) -> Response:
    """One import with its findings; ``kind`` and ``file`` narrow them (``latest`` is the newest import)."""
    negotiate((JSON,))
    kind, file = request.args.get("kind"), request.args.get("file")
    if kind is not None and kind not in FINDING_KINDS:
        raise BadRequest(
            f"parameter 'kind' must be one of {', '.join(FINDING_KINDS)}",
            errors=[{"parameter": "kind", "value": kind}],
        )
    store = get_store()
    if import_id == "latest":
        records = list_imports(store)
        if not records:
            from ..errors import NotFound

            raise NotFound("no import has been recorded yet")
        import_id = records[0]["id"]
    record = get_import(store, import_id)
    findings = record["findings"]
    if kind is not None:
        findings = [f for f in findings if f.get("kind") == kind]
    if file is not None:
        findings = [f for f in findings if f.get("file") == file]
    record["findings"] = findings
    record["counts"] = {k: sum(1 for f in findings if f.get("kind") == k) for k in FINDING_KINDS}
    return jsonify(record)


@bp.get("/imports")
def page() -> str:
    """The explorer page of the imports."""
    from .pages import _page_context

    return render_template("imports.html", kinds=FINDING_KINDS, **_page_context("imports"))
