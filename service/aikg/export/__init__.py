"""Graph exports for visualization and reuse: RDF (Turtle, N-Quads, JSON-LD) and property-graph formats
(GraphML, GEXF, Cytoscape.js JSON, Graphviz DOT), of the whole data graph, a neighbourhood or some types.

``/export/<format>`` and ``aikg export`` both call :func:`run_export`, so the same options give the
same bytes.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from aikg.errors import BadRequest, NotFound
from aikg.export import cytoscape, dot, rdf, xml_graphs
from aikg.export.cap import Capped, cap, capped_model
from aikg.export.fold import fold as fold_model
from aikg.export.model import GraphModel, build_model, selected_facts
from aikg.export.select import MAX_DEPTH, Selection, check_depth, listed, select
from aikg.namespaces import ID, slug_of
from aikg.rdf.formats import RDF_FORMATS, Format, by_name

if TYPE_CHECKING:
    from aikg.services import Services

__all__ = [
    "EXPORTS",
    "MAX_DEPTH",
    "ExportFormat",
    "ExportOptions",
    "ExportResult",
    "capped_view",
    "graph_model",
    "parse_options",
    "run_export",
    "select",
]


@dataclass(frozen=True)
class ExportFormat:
    """One export format: its name, other accepted names, media type, file extension and writer."""

    name: str
    title: str
    mime: str
    extension: str
    rdf: bool
    write: Callable[..., Iterator[bytes]]
    """``write(selection)`` for RDF formats, ``write(model, description)`` for graph formats."""
    aliases: tuple[str, ...] = ()


def _rdf(name: str) -> Format:
    """An RDF export's media type comes from the one format table."""
    fmt = by_name(name, RDF_FORMATS)
    assert fmt is not None, name
    return fmt


EXPORTS: tuple[ExportFormat, ...] = (
    ExportFormat("turtle", "Turtle", _rdf("turtle").content_type, "ttl", True, rdf.turtle, ("ttl",)),
    ExportFormat("nquads", "N-Quads", _rdf("nquads").content_type, "nq", True, rdf.nquads, ("nq",)),
    ExportFormat("jsonld", "JSON-LD", _rdf("jsonld").content_type, "jsonld", True, rdf.jsonld, ("json-ld",)),
    ExportFormat(
        "graphml", "GraphML", "application/graphml+xml; charset=utf-8", "graphml", False, xml_graphs.graphml
    ),
    ExportFormat("gexf", "GEXF", "application/gexf+xml; charset=utf-8", "gexf", False, xml_graphs.gexf),
    ExportFormat(
        "cytoscape", "Cytoscape.js JSON", "application/json", "cyjs", False, cytoscape.cytoscape, ("cyjs",)
    ),
    ExportFormat(
        "dot", "Graphviz DOT", "text/vnd.graphviz; charset=utf-8", "gv", False, dot.dot, ("gv", "graphviz")
    ),
)
"""Every export format; the first name is the one used in URLs and messages."""


def export_format(name: str) -> ExportFormat:
    """The format a name or alias denotes; NotFound naming the supported ones otherwise."""
    key = name.strip().lower()
    for f in EXPORTS:
        if key == f.name or key in f.aliases:
            return f
    raise NotFound(
        f"no export format {name!r}; supported: {', '.join(f.name for f in EXPORTS)}",
        errors=[{"parameter": "format", "supported": [f.name for f in EXPORTS]}],
    )


@dataclass(frozen=True)
class ExportOptions:
    """What to export: a neighbourhood (``focus``, ``depth``), some ``types``, or the ``nodes`` listed
    (a drawing as shown), folded or not."""

    focus: str | None = None
    depth: int = 1
    types: tuple[str, ...] = ()
    fold: bool = False
    nodes: tuple[str, ...] = ()

    @property
    def whole(self) -> bool:
        """True for the whole data graph (no focus, types or nodes): the export built in the background."""
        return self.focus is None and not self.types and not self.nodes


TRUE_WORDS = frozenset({"1", "true", "yes", "on"})
"""What a flag such as ``fold`` reads as true (case and surrounding white space ignored)."""
FALSE_WORDS = frozenset({"0", "false", "no", "off", ""})


def parse_options(
    *,
    focus: str | None = None,
    depth: str | int | None = None,
    types: Sequence[str] = (),
    fold: str | bool | None = None,
    nodes: str | None = None,
) -> ExportOptions:
    """Options from request parameters (strings); BadRequest naming the parameter that is wrong.
    ``nodes`` is a list of slugs or IRIs separated by white space or commas; it excludes ``focus`` and
    ``type``."""
    depth_value = _depth(depth)
    if isinstance(fold, bool) or fold is None:
        fold_value = bool(fold)
    elif fold.strip().lower() in TRUE_WORDS | FALSE_WORDS:
        fold_value = fold.strip().lower() in TRUE_WORDS
    else:
        raise BadRequest("fold must be true or false", errors=[{"parameter": "fold", "value": fold}])
    focus = focus.strip() if focus is not None else None
    listed_nodes = tuple(n for n in re.split(r"[\s,]+", nodes or "") if n)
    kept_types = tuple(t for t in types if t.strip())
    if nodes is not None and not listed_nodes:
        raise BadRequest(
            "nodes must list at least one slug or IRI", errors=[{"parameter": "nodes", "value": ""}]
        )
    if listed_nodes and (focus or kept_types):
        raise BadRequest(
            "nodes lists the nodes to export; it does not combine with focus or type",
            errors=[{"parameter": "nodes"}],
        )
    return ExportOptions(focus or None, depth_value, kept_types, fold_value, listed_nodes)


def _depth(raw: str | int | None) -> int:
    if raw is None or raw == "":
        return 1
    text = str(raw).strip()
    if isinstance(raw, bool) or not re.fullmatch(r"[0-9]{1,3}", text):
        raise BadRequest(
            f"depth must be an integer from 0 to {MAX_DEPTH}",
            errors=[{"parameter": "depth", "value": str(raw)}],
        )
    value = int(text)
    check_depth(value)
    return value


@dataclass
class ExportResult:
    """An export ready to send or write: media type, suggested file name and the bytes, in chunks."""

    format: ExportFormat
    filename: str
    chunks: Iterator[bytes]
    description: dict[str, Any] = field(default_factory=dict)


def graph_model(services: Services, selection: Selection, *, fold: bool = False) -> GraphModel:
    """The drawn graph of a selection, with n-ary nodes folded into edges when asked."""
    model = build_model(services, selection)
    keep = {selection.focus.value} if selection.focus is not None else set()
    return fold_model(model, keep=keep) if fold else model


def capped_view(services: Services, selection: Selection, limit: int, *, fold: bool = False) -> Capped:
    """A graph view of a selection: its ``limit`` closest and best-connected nodes (:mod:`.cap`).

    Unfolded, only the kept nodes are built (:func:`~aikg.export.cap.capped_model`); folded, the
    whole model is, as folding changes which nodes and edges there are.
    """
    focus = selection.focus.value if selection.focus is not None else None
    if fold:
        return cap(graph_model(services, selection, fold=True), limit, hops=selection.hops, focus=focus)
    return capped_model(selected_facts(services, selection), limit, hops=selection.hops, focus=focus)


def only(model: GraphModel, nodes: Sequence[str]) -> GraphModel:
    """The model cut to the ``nodes`` listed (slugs or IRIs) and the edges between them: a folded
    drawing's n-ary nodes, brought along to be folded, are not kept as nodes."""
    base = str(ID)
    wanted = {n if n.startswith(("http://", "https://")) else base + n for n in nodes}
    kept = {k: n for k, n in model.nodes.items() if k in wanted}
    edges = {k: e for k, e in model.edges.items() if e.source in kept and e.target in kept}
    return GraphModel(kept, edges, model.vocab, model.titles)


def describe(selection: Selection, options: ExportOptions) -> dict[str, Any]:
    """What an export holds, in words a file's reader can check."""
    if options.nodes:
        return {"nodes": len(options.nodes), "fold": options.fold}
    return {
        "focus": selection.focus.value if selection.focus is not None else None,
        "depth": options.depth if selection.focus is not None else None,
        "types": list(selection.types),
        "fold": options.fold,
    }


def filename(fmt: ExportFormat, selection: Selection, options: ExportOptions) -> str:
    """``aikg[-<focus>-d<depth>][-<types>][-folded].<ext>``: says what the file holds."""
    parts = ["aikg"]
    if options.nodes:
        parts.append(f"view-{len(options.nodes)}-nodes")
    if selection.focus is not None:
        parts.append(f"{slug_of(selection.focus.value) or 'focus'}-d{options.depth}")
    if selection.types:
        parts.append("+".join(t.rsplit("#", 1)[-1].rsplit("/", 1)[-1] for t in selection.types))
    if options.fold and not fmt.rdf:
        parts.append("folded")
    # Only safe characters, so the name can go into a Content-Disposition header as is.
    return re.sub(r"[^A-Za-z0-9._+-]", "_", "-".join(parts)) + "." + fmt.extension


def run_export(services: Services, format_name: str, options: ExportOptions) -> ExportResult:
    """Resolve the selection (errors raised here, before any byte is written) and start the writer."""
    fmt = export_format(format_name)
    if fmt.rdf and options.fold:
        raise BadRequest(
            f"fold applies to the graph formats only, not to {fmt.name}: RDF exports hold the data as stored",
            errors=[{"parameter": "fold", "value": "true"}],
        )
    fold = options.fold and not fmt.rdf
    if options.nodes:
        selection = listed(services, options.nodes, through_nary=fold)
    else:
        selection = select(
            services, focus=options.focus, depth=options.depth, types=options.types, through_nary=fold
        )
    description = describe(selection, options)
    if fmt.rdf:
        chunks = fmt.write(selection)
    else:
        model = graph_model(services, selection, fold=options.fold)
        if options.nodes:
            model = only(model, options.nodes)
        chunks = fmt.write(model, description)
    return ExportResult(fmt, filename(fmt, selection, options), chunks, description)
