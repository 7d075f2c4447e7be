"""What every import did, from its record in the store: ``/api/imports`` (JSON) and ``/imports`` (the
explorer page). Every merge, link and ambiguity of entity resolution, every row left out with its reason
and every value read leniently or not at all is listed here, not only on the CLI."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from flask import Blueprint, Response, jsonify, render_template, request

from aikg.epoch.history import changes_about, records_about, term_json
from aikg.epoch.record import IMPORT_BASE, get_import, list_imports
from aikg.errors import (
    Conflict,
    NotFound,
    PayloadTooLarge,
    UnsupportedMediaType,
    ValidationFailed,
)
from aikg.query.named import convert
from aikg.rdf.formats import JSON
from aikg.services import Services
from aikg.web import current_settings, get_services, get_store, shapes
from aikg.web.describe import (
    IF_NONE_MATCH,
    cached_ok,
    errors,
    get_operation,
    json_answer,
    ref,
)
from aikg.web.negotiation import negotiate
from aikg.web.params import ChoiceParam, FlagParam, TextParam, documented, entity_in_path, form
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
    "disagreement",
    "rounding",
)

IMPORT_ID = TextParam(
    "id", "The import's id (from /api/imports), or latest.", required=True, where="path", min_length=1
)
FINDING_KIND = ChoiceParam("kind", "Only findings of this kind.", FINDING_KINDS)
FINDING_FILE = TextParam("file", "Only findings about this file (e.g. gpu_clusters/gpu_clusters.csv).")
HISTORY_ID = entity_in_path("id", "The entity: a slug such as gb200, or a full IRI.")
DRY_RUN = FlagParam("dry_run", "Report what would change; change nothing.")
FORCE = FlagParam("force", "Import even what the checks hold back.")
REPLACE = FlagParam("replace", "Replace the dataset's earlier rows.")
UPLOAD = (
    TextParam("file", "A dataset file (repeatable).", format="binary", repeatable=True),
    TextParam("as_of", "The snapshot's day.", format="date"),
    DRY_RUN,
    FORCE,
    REPLACE,
    TextParam("map", "A column mapping (repeatable).", repeatable=True),
)
"""The fields of an import's upload form."""
AS_OF = TextParam("as_of", "A day (YYYY-MM-DD): list every value Epoch gave as of it.", format="date")


def _imports_doc(_: Services) -> dict[str, Any]:
    return get_operation(
        "Imports",
        "Every recorded import of an outside dataset, newest first: per file the rows read, "
        "imported, rejected and kept, the update mode and snapshot date, entities created, and figures "
        "another source gives differently (rounding or disagreement).",
        {
            **cached_ok(ref(shapes.ImportList), "The imports."),
            **errors(406),
        },
        [IF_NONE_MATCH],
        tags=["imports"],
    )


@bp.get("/api/imports")
@documented(_imports_doc)
@cached
def imports() -> Response:
    """Every recorded import, newest first: per file the rows read, imported, rejected and kept, the
    update mode, snapshot date, merges, links, ambiguities and disagreements found."""
    negotiate((JSON,))
    records = list_imports(get_store())
    for r in records:
        r["links"] = {"self": f"/api/imports/{r['id'].removeprefix(IMPORT_BASE)}"}
    return jsonify({"imports": records})


def _import_doc(_: Services) -> dict[str, Any]:
    return get_operation(
        "One import",
        "One import with its findings and its diff: every name merged into an existing entity, every "
        "link entity resolution made, every ambiguity left, every row rejected with its reason, every "
        "value read leniently or not at all, every flag and column warning, every figure another source "
        "or snapshot gives differently (by name); ``changes``: per entity and property what the import "
        "did (added, changed, kept not restated, an older snapshot's values kept as history, removed), "
        "with the values before and after and their snapshots. ``latest`` is the newest import.",
        {
            **cached_ok(ref(shapes.ImportRecord), "The import and its findings."),
            **errors(400, 404, 406),
        },
        [
            IMPORT_ID.describe(),
            FINDING_KIND.describe(),
            FINDING_FILE.describe(),
            IF_NONE_MATCH,
        ],
        tags=["imports"],
    )


@bp.get("/api/imports/<path:import_id>")
@documented(_import_doc)
@cached
def one_import(import_id: str) -> Response:
    """One import with its findings; ``kind`` and ``file`` narrow them (``latest`` is the newest import)."""
    negotiate((JSON,))
    kind = FINDING_KIND.read(request.args.get("kind"))
    file = FINDING_FILE.read(request.args.get("file"))
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


def _import_post_doc(_: Services) -> dict[str, Any]:
    """POST /api/imports: an Epoch import of uploaded files, for the token holder."""
    return {
        "post": {
            "summary": "Import Epoch AI files (or a dry run)",
            "description": "The import of `aikg import epoch`, on files sent as multipart/form-data: "
            "each in a field `file`, named by its path in Epoch's layout (ml_hardware/ml_hardware.csv) or "
            "its file name. Answers the report: per file the rows matched, new, rejected and kept, the diff "
            "per entity, merges, ambiguities and disagreements by name. A dry run writes nothing. 409 when "
            "the import would leave out values the files give (a header resembling a known column: `map` or "
            "`force`), 422 when the store would not conform after it; nothing is written then.",
            "tags": ["imports"],
            "security": [{"bearer": []}],
            "x-aikg-valid-may-be-refused": True,
            "requestBody": {
                "required": True,
                "content": {"multipart/form-data": {"schema": form(*UPLOAD, required=("file",))}},
            },
            "responses": {
                "200": json_answer(ref(shapes.ImportReport), "The import's report."),
                **errors(400, 401, 403, 409, 413, 415, 422, 429, 503),
            },
        }
    }


@bp.post("/api/imports")
@documented(_import_post_doc)
def post_import() -> Response:
    """Import Epoch AI files sent as multipart/form-data (fields ``file``, each named by its path or file
    name; ``as_of``, ``dry_run``, ``force``, ``replace``, ``map``), for the token holder: the same import
    and report as ``aikg import epoch``. 200 with the report (a dry run writes nothing); 409 when it would
    leave out values the files give (``map`` or ``force`` decides); 422 when the store would not conform."""
    from aikg.epoch.uploads import import_uploaded
    from aikg.web.auth import require_writer
    from aikg.write.gate import Gate

    settings = current_settings()
    require_writer(settings.token, request.headers.get("Authorization"))
    limit = settings.max_body
    if request.content_length is not None and request.content_length > limit:
        raise PayloadTooLarge(
            f"the request body is {request.content_length} bytes, over the limit of {limit} bytes "
            "(setting max_body)",
            errors=[{"limit": "max_body", "bytes": limit}],
        )
    if request.mimetype != "multipart/form-data":
        raise UnsupportedMediaType("send the files as multipart/form-data, each in a field named 'file'")
    files = {f.filename or "": f.read() for f in request.files.getlist("file")}
    options: dict[str, Any] = {
        "as_of": request.form.get("as_of"),
        **{flag.name: flag.read(request.form.get(flag.name)) for flag in (DRY_RUN, FORCE, REPLACE)},
        "map": request.form.getlist("map"),
    }
    services = get_services()
    if isinstance(services.gate, Gate):
        body = import_uploaded(services, files, options).to_json()
    else:  # the serving writer process owns the store
        body = services.gate.import_epoch(files, options)  # type: ignore[attr-defined]
    if body.get("refused"):
        raise ValidationFailed(
            "the import was refused, nothing was written: the store would not conform after it",
            errors=[{"violation": v} for v in body["refused"]],
        )
    if body.get("waiting") and not body.get("dry_run"):
        raise Conflict(
            "nothing was written: the import would leave out values the files give; accept a mapping "
            "with 'map' (HEADER=COLUMN) or go on without it with 'force'",
            errors=[{"waiting": w} for w in body["waiting"]],
        )
    return jsonify(body)


def _history_doc(_: Services) -> dict[str, Any]:
    return get_operation(
        "What Epoch AI said before",
        "What Epoch AI's datasets said of one entity before (values a newer snapshot replaced, an older "
        "snapshot gave otherwise, or the newest file does not restate, each with its snapshot) and what "
        "each recorded import changed for it; with ``as_of`` also every value they gave as of that day "
        "(the epoch-as-of named query).",
        {
            **cached_ok(ref(shapes.EntityHistory), "The entity's history."),
            **errors(400, 404, 406),
        },
        [
            HISTORY_ID.describe(),
            AS_OF.describe(),
            IF_NONE_MATCH,
        ],
        tags=["imports"],
    )


@bp.get("/api/entities/<path:entity_id>/history")
@documented(_history_doc)
@cached
def entity_history(entity_id: str) -> Response:
    """What Epoch's datasets said of one entity before, and what each import changed for it; with
    ``as_of`` (YYYY-MM-DD) also every value they gave as of that day (the epoch-as-of named query)."""
    negotiate((JSON,))
    services = get_services()
    query = services.named.get("epoch-as-of")
    entity = convert(next(p for p in query.parameters if p.name == "entity"), entity_id)
    if next(services.store.quads(entity), None) is None:  # type: ignore[arg-type]
        raise NotFound(f"no entity {entity_id!r} in the graph")
    body: dict[str, Any] = {
        "entity": entity.value,
        "history": records_about(services.store, entity.value),
        "changes": changes_about(services.store, entity.value),
    }
    as_of = AS_OF.read(request.args.get("as_of"))
    if as_of is not None:
        # read as the query's day, the 400 naming as_of (it said "parameter 'date'", which the route lacks)
        convert(replace(next(p for p in query.parameters if p.name == "date"), name="as_of"), as_of)
        result = services.named.run("epoch-as-of", {"entity": entity.value, "date": as_of})
        body["as_of"] = as_of
        body["values"] = [
            {k: _plain(v) for k, v in zip(result.variables, row, strict=True) if v is not None}
            for row in result.rows
        ]
    return jsonify(body)


def _plain(term: Any) -> Any:
    return term_json(term) if hasattr(term, "value") else term


@bp.get("/imports")
def page() -> str:
    """The explorer page of the imports."""
    from .pages import _page_context

    return render_template("imports.html", kinds=FINDING_KINDS, **_page_context("imports"))
