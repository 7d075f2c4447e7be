"""Graphviz DOT, written directly: every ID and label is a quoted, escaped string.

Entities are rounded boxes labelled with name and type, n-ary nodes (deals, results...) ellipses, each
outlined in its type family's colour (the explorer's, :mod:`aikg.export.palette`) and filled with a
tint of it; a node's key values go into its tooltip (shown by SVG viewers). Edges carry the relation's
label.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from aikg.export.budget import bounded
from aikg.export.model import GraphModel, Node
from aikg.export.palette import Palette, tint

_MAX_TOOLTIP_VALUES = 12


def quote(text: str) -> str:
    """A DOT double-quoted string: backslashes and quotes escaped, line breaks as ``\\n``."""
    escaped = (
        text.replace("\\", "\\\\")
        .replace('"', '\\"')
        .replace("\r\n", "\n")
        .replace("\r", "\n")
        .replace("\n", "\\n")
    )
    return f'"{escaped}"'


def dot(model: GraphModel, description: dict[str, Any]) -> Iterator[bytes]:
    """The model as one ``digraph``, nodes then edges, in a stable order."""
    selected = ", ".join(
        f"{k}={str(v).lower() if isinstance(v, bool) else v}"
        for k, v in description.items()
        if v not in (None, [], "")
    )
    lines = [
        "digraph aikg {",
        f"  comment={quote('aikg export' + (f' ({selected})' if selected else ''))};",
        '  graph [rankdir=LR, overlap=false, splines=true, fontname="Helvetica"];',
        '  node [shape=box, style="rounded,filled", penwidth=1.5, fontname="Helvetica"];',
        '  edge [fontname="Helvetica", fontsize=10];',
    ]
    palette = Palette(model.vocab)
    for node in bounded(model.sorted_nodes(), "writing nodes"):
        type_label = model.vocab.label(node.type) if node.type else ""
        label = node.label + (f"\n«{type_label}»" if type_label else "")
        family, colour = palette.colour(node.types)
        # the explorer's colour as the outline, a light tint of it as the fill (black text stays legible)
        attrs = {
            "label": label,
            "tooltip": _tooltip(node, type_label),
            "color": colour,
            "fillcolor": tint(family),
        }
        if node.nary:
            attrs["shape"] = "ellipse"
        lines.append(f"  {quote(node.id)} [{_attrs(attrs)}];")
    for edge in bounded(model.sorted_edges(), "writing edges"):
        data = model.edge_data(edge)
        label = edge.label[: -len(edge.summary) - 2] + "\n" + edge.summary if edge.summary else edge.label
        source = data["document"] or data["graph"]
        attrs = {"label": label, "tooltip": f"{edge.label}\nsource: {source}"}
        lines.append(f"  {quote(edge.source)} -> {quote(edge.target)} [{_attrs(attrs)}];")
    lines.append("}")
    yield ("\n".join(lines) + "\n").encode("utf-8")


def _tooltip(node: Node, type_label: str) -> str:
    parts = [f"{node.label} ({type_label})" if type_label else node.label]
    parts += [f"{k}: {v}" for k, v in node.key_values[:_MAX_TOOLTIP_VALUES]]
    return "\n".join(parts)


def _attrs(attrs: dict[str, str]) -> str:
    return ", ".join(f"{k}={quote(v)}" for k, v in attrs.items())
