"""Graph exports (``/export/<format>``) and the neighbours of one entity (``/api/entities/<id>/neighbors``).

Parameters, shared by both: ``focus`` (slug or IRI; exports only), ``depth`` (0-4, default 1), ``type``
(repeatable, subclass-aware), ``fold`` (true/false). An unknown format is a 404 naming the supported
ones (the format is part of the path); an unknown focus or entity is a 404; a bad depth, type or fold
is a 400 naming the parameter.
"""

from __future__ import annotations

from flask import Blueprint, Response, jsonify, request

from aikg.export import ExportOptions, graph_model, parse_options, run_export, select
from aikg.export.cytoscape import elements
from aikg.web import get_services
from aikg.web.response_cache import cached

bp = Blueprint("exports", __name__)


def _options(*, focus: str | None) -> ExportOptions:
    args = request.args
    return parse_options(focus=focus, depth=args.get("depth"), types=args.getlist("type"),
                         fold=args.get("fold"))


@bp.get("/export/<name>")
def export(name: str) -> Response:
    """The selected graph in one export format, as a download named after what it holds."""
    result = run_export(get_services(), name, _options(focus=request.args.get("focus")))
    response = Response(result.chunks, mimetype=None, content_type=result.format.mime)
    response.headers["Content-Disposition"] = f'attachment; filename="{result.filename}"'
    return response


@bp.get("/api/entities/<path:entity>/neighbors")
@cached
def neighbors(entity: str) -> Response:
    """Nodes and edges around one entity as Cytoscape.js elements, for the explorer's graph view."""
    options = _options(focus=entity)
    services = get_services()
    selection = select(services, focus=options.focus, depth=options.depth, types=options.types,
                       through_nary=options.fold)
    model = graph_model(services, selection, fold=options.fold)
    focus_iri = selection.focus.value if selection.focus is not None else None
    focus = model.nodes.get(focus_iri) if focus_iri else None
    return jsonify({"focus": focus_iri, "label": focus.label if focus else None,
                    "depth": options.depth, "fold": options.fold, "types": list(selection.types),
                    "elements": elements(model)})
