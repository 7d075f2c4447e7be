"""The reference manual under ``/docs``: the Markdown pages of ``aikg/docs/``, with the parts that can be
generated (settings, named queries, the vocabulary, HTTP routes) written from their one declaration.

The README stays a newcomer's page; everything a user looks up lives here, shipped in the wheel and served
by every running aikg, so the manual always matches the version answering. A page marks a generated part
with a line ``<!-- aikg:reference NAME -->``; :data:`GENERATED` lists the names.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable
from pathlib import Path

from flask import Blueprint, Response, render_template
from markdown_it import MarkdownIt
from rdflib import Graph, Literal
from rdflib.namespace import OWL, RDF, RDFS

from aikg.errors import NotFound
from aikg.namespaces import AIKG
from aikg.query.named import NamedQuery
from aikg.resources import docs_dir, ontology_dir
from aikg.services import Services
from aikg.settings import SETTINGS
from aikg.web import get_services
from aikg.web.pages import _page_context as page_context

bp = Blueprint("docs", __name__, template_folder="templates")

ORDER = (
    "knowledge-model",
    "vocabulary",
    "explorer",
    "sparql",
    "named-queries",
    "ask",
    "api",
    "exports",
    "cli",
    "writing",
    "epoch",
    "limits",
    "settings",
    "architecture",
    "performance",
    "tests",
)
"""The pages in reading order (the index lists them so)."""

_MARK = re.compile(r"^<!-- aikg:reference ([a-z-]+) -->$", re.M)
_SLUG = re.compile(r"^[a-z][a-z-]*$")


def _settings_reference(_: Services) -> str:
    rows = ["| variable / option | default | meaning |", "|---|---|---|"]
    for s in SETTINGS:
        default = "" if s.default in ("", None) else f"`{s.default}`"
        rows.append(f"| `{s.env}` / `{s.option}` | {default} | {s.help} |")
    return "\n".join(rows)


def _named_query_reference(services: Services) -> str:
    out: list[str] = []
    queries: dict[str, NamedQuery] = services.named.all()
    for name in sorted(queries):
        q = queries[name]
        out.append(f"### `{name}` — {q.title}\n\n{q.description}\n")
        if q.parameters:
            out.append("| parameter | type | required | default | meaning |\n|---|---|---|---|---|")
            for p in q.parameters:
                default = "" if p.default is None else f"`{p.default}`"
                required = "yes" if p.required else "no"
                kind = p.type if not p.values else "one of " + ", ".join(f"`{v}`" for v in p.values)
                out.append(f"| `{p.name}` | {kind} | {required} | {default} | {p.description} |")
            out.append("")
        if q.examples:
            out.append("Asked as: " + " · ".join(f"*{e}*" for e in q.example_texts()) + "\n")
        out.append(f"`GET /api/queries/{name}` · [open in the explorer](/queries/{name})\n")
    return "\n".join(out)


@functools.cache
def _vocabulary_reference_text() -> str:
    """Every class and property of the ontology, file by file, with its labels and comment."""
    out: list[str] = []
    for path in sorted(ontology_dir().glob("*.ttl")):
        g = Graph().parse(path, format="turtle")
        terms = sorted(
            {s for s in g.subjects(RDF.type, None) if str(s).startswith(str(AIKG))},
            key=lambda t: (_kind(g, t), str(t)),
        )
        terms = [t for t in terms if _kind(g, t) != "other"]
        if not terms:
            continue
        out.append(f"## `{path.name}`\n\n| term | kind | labels | meaning |\n|---|---|---|---|")
        for t in terms:
            labels = " / ".join(
                f"{lit} ({lit.language})" if isinstance(lit, Literal) and lit.language else str(lit)
                for lit in g.objects(t, RDFS.label)
            )
            comment = " ".join(str(c) for c in g.objects(t, RDFS.comment)).replace("|", "\\|")
            out.append(f"| `aikg:{str(t)[len(str(AIKG)) :]}` | {_kind(g, t)} | {labels} | {comment} |")
        out.append("")
    return "\n".join(out)


def _kind(g: Graph, term: object) -> str:
    types = set(g.objects(term, RDF.type))  # type: ignore[arg-type]
    if OWL.Class in types or RDFS.Class in types:
        return "class"
    if OWL.ObjectProperty in types:
        return "relation"
    if OWL.DatatypeProperty in types:
        return "value"
    if types & {RDF.Property, OWL.AnnotationProperty}:
        return "property"
    return "other"


def _route_reference(services: Services) -> str:
    from aikg.web.openapi import openapi_document

    rows = ["| method | path | what |", "|---|---|---|"]
    for path, item in openapi_document(services)["paths"].items():
        for method, op in item.items():
            if method in {"get", "post", "put", "delete", "patch", "head"}:
                rows.append(f"| {method.upper()} | `{path}` | {op.get('summary', '')} |")
    return "\n".join(rows)


GENERATED: dict[str, Callable[[Services], str]] = {
    "settings": _settings_reference,
    "named-queries": _named_query_reference,
    "vocabulary": lambda _: _vocabulary_reference_text(),
    "routes": _route_reference,
}
"""What a ``<!-- aikg:reference NAME -->`` line is replaced by."""


def page_markdown(slug: str, services: Services) -> str:
    """The Markdown of one page with its generated parts written in (NotFound for an unknown page)."""
    # looked up among the pages, never by the path a request spells: a 5,000-letter slug made stat()
    # raise "File name too long" (a 500 under hostile traffic)
    if not _SLUG.match(slug) or slug not in {p.stem for p in docs_dir().glob("*.md")}:
        raise NotFound(f"no documentation page called {slug!r}")
    path = docs_dir() / f"{slug}.md"
    return _MARK.sub(lambda m: GENERATED[m.group(1)](services), path.read_text(encoding="utf-8"))


def pages() -> list[tuple[str, str]]:
    """(slug, title) of every page, in reading order, then any page not in :data:`ORDER`."""
    found = {p.stem: p for p in docs_dir().glob("*.md")}
    slugs = [s for s in ORDER if s in found] + sorted(set(found) - set(ORDER))
    return [(s, _title(found[s])) for s in slugs]


def _title(path: Path) -> str:
    first = path.read_text(encoding="utf-8").split("\n", 1)[0]
    return first.lstrip("# ").replace("`", "") or path.stem


@functools.cache
def _renderer() -> MarkdownIt:
    # Trusted text (the package's own pages), so inline HTML is allowed; tables as GitHub writes them.
    return MarkdownIt("commonmark", {"html": True}).enable("table")


_PAGE_LINK = re.compile(r"^([a-z][a-z-]*)\.md(#.*)?$")


def render(markdown: str) -> str:
    """HTML of a page's Markdown; a link to another page's file (``cli.md``, which works when the files
    are read on disk or on GitHub) becomes a link to that page on this site (``/docs/cli``)."""
    md = _renderer()
    tokens = md.parse(markdown)
    for token in tokens:
        for child in token.children or ():
            href = child.attrGet("href") if child.type == "link_open" else None
            m = _PAGE_LINK.match(str(href)) if href else None
            if m:
                child.attrSet("href", f"/docs/{m.group(1)}{m.group(2) or ''}")
    return str(md.renderer.render(tokens, md.options, {}))


@bp.get("/docs")
@bp.get("/docs/")
def index() -> str:
    """The manual's contents."""
    return render_template("docs.html", pages=pages(), body=None, slug=None, **page_context("docs"))


@bp.get("/docs/<slug>")
def page(slug: str) -> Response:
    """One page of the manual, as HTML (``.md`` at the end gives its Markdown)."""
    services = get_services()
    if slug.endswith(".md"):
        return Response(page_markdown(slug[:-3], services), mimetype="text/markdown")
    body = render(page_markdown(slug, services))
    html = render_template("docs.html", pages=pages(), body=body, slug=slug, **page_context("docs"))
    return Response(html, mimetype="text/html")
