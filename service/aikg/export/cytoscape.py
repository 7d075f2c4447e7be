"""Cytoscape.js JSON (``elements.nodes[].data`` / ``elements.edges[].data``), for Cytoscape and D3.

The same document Cytoscape desktop imports as ``.cyjs`` and ``cy.add()`` accepts in a browser; the
explorer's graph view draws it as is.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

from aikg.export.budget import bounded
from aikg.export.model import GraphModel
from aikg.export.palette import Palette


def elements(model: GraphModel) -> dict[str, list[dict[str, Any]]]:
    """``{"nodes": [{"data": ...}], "edges": [{"data": ...}]}`` in a stable order; each node carries its
    type family and that family's colour (``family``, ``color``: the explorer's, as in GraphML and GEXF),
    which a Cytoscape style maps with ``data(color)``."""
    palette = Palette(model.vocab)
    nodes = []
    for n in bounded(model.sorted_nodes(), "writing nodes"):
        data: dict[str, Any] = model.node_data(n)
        data["family"], data["color"] = palette.colour(n.types)
        nodes.append({"data": data})
    return {
        "nodes": nodes,
        "edges": [{"data": model.edge_data(e)} for e in bounded(model.sorted_edges(), "writing edges")],
    }


def document(model: GraphModel, description: dict[str, Any]) -> dict[str, Any]:
    """The whole CYJS document: format header, what was selected, and the elements."""
    return {
        "format_version": "1.0",
        "generated_by": "aikg",
        "target_cytoscapejs_version": "~3",
        "data": {"name": "aikg", **description},
        "elements": elements(model),
    }


def cytoscape(model: GraphModel, description: dict[str, Any]) -> Iterator[bytes]:
    """The CYJS document as compact UTF-8 JSON (no indentation: Python's fast encoder, smaller files)."""
    yield json.dumps(document(model, description), ensure_ascii=False, separators=(",", ":")).encode("utf-8")
