"""The explorer's HTML pages: search, entity pages, graph view, named queries, SPARQL editor, timeline.

Pages are server-rendered shells; their scripts (plain ES modules in ``static/js``) read the same JSON
API, exports and SPARQL endpoint every other client uses. Front-end libraries come from the local npm
install next to this module and are served by :func:`vendor` from an allow-list: no request leaves the
machine.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pyoxigraph as ox
from flask import Blueprint, Response, abort, render_template, request, send_file

from aikg.errors import AikgError, NotFound
from aikg.export.palette import COLORS, FAMILIES, family_of
from aikg.lookup.entities import suggest
from aikg.namespaces import ID_NODES, PREFIXES, RDFS_NODES
from aikg.services import Services
from aikg.web import get_services, get_store

bp = Blueprint(
    "pages", __name__, template_folder="templates", static_folder="static", static_url_path="/static"
)

NODE_MODULES = Path(__file__).resolve().parent / "node_modules"
"""Where ``npm ci --prefix service/aikg/web`` installs the front-end libraries."""

VENDOR_FILES: dict[str, str] = {
    "cytoscape.min.js": "cytoscape/dist/cytoscape.min.js",
    "layout-base.js": "layout-base/layout-base.js",
    "cose-base.js": "cose-base/cose-base.js",
    "cytoscape-fcose.js": "cytoscape-fcose/cytoscape-fcose.js",
    "yasgui.min.js": "@zazuko/yasgui/build/yasgui.min.js",
    "yasgui.min.css": "@zazuko/yasgui/build/yasgui.min.css",
    "d3.min.js": "d3/dist/d3.min.js",
    "plot.umd.min.js": "@observablehq/plot/dist/plot.umd.min.js",
}
"""The only files of ``node_modules`` the browser may fetch, by the short name pages use."""

EXPORT_FORMATS: tuple[tuple[str, str], ...] = (
    ("turtle", "Turtle"),
    ("nquads", "N-Quads"),
    ("jsonld", "JSON-LD"),
    ("graphml", "GraphML"),
    ("gexf", "GEXF"),
    ("cytoscape", "Cytoscape JSON"),
    ("dot", "Graphviz DOT"),
)
"""Every export format of ``/export/<format>``, with the name a button shows."""

EXAMPLE_QUERIES: tuple[tuple[str, str], ...] = (
    (
        "Entities by type",
        """# Asserted (most specific) types only: graph/inferred holds the superclasses.
SELECT ?type (COUNT(DISTINCT ?e) AS ?entities) WHERE {
  GRAPH ?g { ?e a ?type }
  FILTER(?g != graph:inferred && STRSTARTS(STR(?e), STR(id:)))
}
GROUP BY ?type
ORDER BY DESC(?entities)""",
    ),
    (
        "Benchmark results",
        """SELECT ?result ?submitter ?model ?accelerators ?minutes WHERE {
  ?result a aikg:BenchmarkResult ;
          aikg:submitter ?submitter .
  OPTIONAL { ?result aikg:workload ?model }
  OPTIONAL { ?result aikg:acceleratorCount ?accelerators }
  OPTIONAL { ?result aikg:timeToTrain ?minutes }
}
ORDER BY ?minutes""",
    ),
    (
        "Facts with their source graph",
        """# One named graph per source document: GRAPH ?graph names the source.
SELECT ?graph ?subject ?property ?value WHERE {
  GRAPH ?graph { ?subject ?property ?value }
  FILTER(STRSTARTS(STR(?graph), CONCAT(STR(graph:), "sources/")))
}
LIMIT 50""",
    ),
    (
        "Names in Chinese",
        """SELECT DISTINCT ?entity ?name WHERE {
  { ?entity rdfs:label ?name } UNION { ?entity skos:altLabel ?name }
  FILTER(STRSTARTS(STR(?entity), STR(id:)))
  FILTER(LANG(?name) = "zh" || REGEX(?name, "[\u4e00-\u9fff]"))
}
ORDER BY ?entity""",
    ),
)
"""Queries the SPARQL editor opens with, one tab each."""

_SLUG = re.compile(r"^[a-z0-9][a-z0-9-]*$")


def _asks_for_html() -> bool:
    """True when the client names text/html in Accept (browsers do); others get the JSON envelope."""
    return any(mime == "text/html" for mime, _ in request.accept_mimetypes)


def entity_page(slug: str) -> Response:
    """The HTML side of ``/id/<slug>``: one entity, its figures, relations and their sources."""
    head = _entity_head(slug) if _SLUG.match(slug) else None
    if head is None:
        html = render_template(
            "not_found.html", slug=slug, suggestion=suggest(get_services(), slug), **page_context("entity")
        )
        return Response(html, status=404, mimetype="text/html")
    html = render_template(
        "entity.html", slug=slug, head=head, exports=EXPORT_FORMATS, **page_context("entity")
    )
    return Response(html, mimetype="text/html")


@bp.get("/")
def home() -> str:
    """The front page: search first, then questions people start from."""
    return render_template("home.html", **page_context("home"))


@bp.get("/graph")
def graph() -> str:
    """The graph view: the whole graph or one entity's neighbourhood."""
    return render_template("graph.html", exports=EXPORT_FORMATS, **page_context("graph"))


@bp.get("/queries")
@bp.get("/queries/<name>")
def queries(name: str | None = None) -> tuple[str, int]:
    """The named queries: each with a form for its parameters and a results table (404: no such name)."""
    texts = {q.name: q.text for q in get_services().named.all().values()}
    status = 404 if name is not None and name not in texts else 200
    if status == 404 and not _asks_for_html():
        raise NotFound(f"no named query called {name!r}")
    return render_template("queries.html", selected=name, texts=texts, **page_context("queries")), status


@bp.get("/editor")
def editor() -> tuple[str, int]:
    """The SPARQL editor (YASGUI) pointed at this service's own endpoint; ``?named=<name>`` (with the
    query's parameters) opens a named query with those values written in, ``?query=<text>`` any text.

    An unknown name or a bad parameter is the usual JSON error, except for a browser, which gets the
    editor (empty) with the problem written above it, under the same status."""
    given, problem, status = None, None, 200
    name = request.args.get("named")
    if name is not None:
        params = {k: v for k, v in request.args.items() if k != "named"}
        named = get_services().named
        try:
            given = {"name": named.get(name).title or name, "query": named.text(name, params)}
        except AikgError as exc:
            if not _asks_for_html():
                raise
            problem, status = exc.message, exc.status
    page = render_template(
        "editor.html",
        prefixes=PREFIXES,
        examples=EXAMPLE_QUERIES,
        given=given,
        problem=problem,
        **page_context("editor"),
    )
    return page, status


@bp.get("/editor/prefixes.json")
def editor_prefixes() -> Response:
    """aikg's prefixes in prefix.cc's shape, so the editor completes them without asking prefix.cc."""
    return Response(json.dumps(PREFIXES), mimetype="application/json")


@bp.get("/timeline")
def timeline() -> str:
    """Dated events in order: deals, results, capacity phases."""
    return render_template("timeline.html", **page_context("timeline"))


@bp.get("/vendor/<name>")
def vendor(name: str) -> Response:
    """A front-end library file from the local npm install, if it is on the allow-list."""
    rel = VENDOR_FILES.get(name)
    if rel is None:
        abort(404, description=f"no vendor file named {name!r}")
    path = NODE_MODULES / rel
    if not path.is_file():
        abort(404, description="front-end libraries are not installed: run npm ci --prefix service/aikg/web")
    return send_file(path, max_age=3600)


def page_context(active: str) -> dict[str, Any]:
    """What every page's template reads: the active tab and the type families with their colours."""
    return {"active": active, "type_info": get_services().cached("explorer-types", _type_info)}


def _entity_head(slug: str) -> dict[str, str] | None:
    """Label and comment of an entity, or None when the store says nothing about it."""
    store = get_store()
    try:
        subject = ID_NODES[slug]
    except ValueError:
        return None
    if next(store.quads(subject), None) is None:
        return None
    label, comment = RDFS_NODES.label, RDFS_NODES.comment
    labels = [q.object for q in store.quads(subject, label) if isinstance(q.object, ox.Literal)]
    comments = [q.object for q in store.quads(subject, comment) if isinstance(q.object, ox.Literal)]
    english_label, english_comment = _pick_english(labels), _pick_english(comments)
    return {
        "label": english_label.value if english_label else slug,
        "comment": english_comment.value if english_comment else "",
    }


def _pick_english(literals: list[ox.Literal]) -> ox.Literal | None:
    for lit in literals:
        if lit.language == "en":
            return lit
    return literals[0] if literals else None


def _type_info(services: Services) -> dict[str, Any]:
    """Each aikg class's family and English label, and each family's label and colour."""
    vocab = services.vocabulary()
    classes: dict[str, dict[str, str]] = {}
    for iri in sorted(vocab.classes):
        family = family_of(vocab, [iri])
        if family != "other":
            classes[iri] = {"family": family, "label": vocab.label(iri)}
    families = [{"key": key, "label": label, "color": COLORS[key]} for key, label, _ in FAMILIES]
    families.append({"key": "other", "label": "Other", "color": COLORS["other"]})
    return {"classes": classes, "families": families, "prefixes": PREFIXES}


_page_context = page_context  # the name the ask and imports pages import
