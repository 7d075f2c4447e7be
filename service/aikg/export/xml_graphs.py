"""GraphML and GEXF, written by networkx's writers (what Gephi, yEd and Cytoscape desktop read).

Both formats declare one type per attribute, so values are made uniform per attribute first: all
integers stay integers, integers mixed with decimals become decimals, anything else becomes text, and
several values of one attribute are joined with ``; ``.
"""

from __future__ import annotations

import io
from collections.abc import Iterator
from typing import Any

import networkx as nx

from aikg.export.model import GraphModel, Value

SEPARATOR = "; "


def to_networkx(model: GraphModel, description: dict[str, Any]) -> nx.MultiDiGraph:
    """The model as a directed multigraph keyed by edge id, with uniformly typed attributes."""
    nodes = [model.node_data(n) for n in model.sorted_nodes()]
    edges = [model.edge_data(e) for e in model.sorted_edges()]
    _uniform(nodes)
    _uniform(edges)
    g = nx.MultiDiGraph(name="aikg", **_graph_attributes(description))
    for data in nodes:
        g.add_node(data["id"], **data)
    for data in edges:
        attrs = {k: v for k, v in data.items() if k not in {"source", "target"}}
        g.add_edge(data["source"], data["target"], key=data["id"], **attrs)
    return g


def graphml(model: GraphModel, description: dict[str, Any]) -> Iterator[bytes]:
    """GraphML 1.0 with typed ``<key>`` declarations for every graph, node and edge attribute."""
    buf = io.BytesIO()
    nx.write_graphml(to_networkx(model, description), buf, encoding="utf-8", infer_numeric_types=True)
    yield buf.getvalue()


def gexf(model: GraphModel, description: dict[str, Any]) -> Iterator[bytes]:
    """GEXF 1.2 (Gephi's own format): node and edge labels plus typed attributes."""
    g = to_networkx(model, description)
    for data in g.nodes.values():
        data.pop("id", None)  # the node key is the id already; GEXF writes it as the node id
    buf = io.BytesIO()
    nx.write_gexf(g, buf, encoding="utf-8", version="1.2draft")
    yield buf.getvalue()


def _graph_attributes(description: dict[str, Any]) -> dict[str, Value]:
    """What was selected, as graph-level attributes (GraphML keeps them; GEXF has no place for them)."""
    out: dict[str, Value] = {}
    for k, v in description.items():
        if isinstance(v, list):
            v = " ".join(str(x) for x in v)
        if v is not None and v != "":
            out[f"selection_{k}"] = v
    return out


def _uniform(records: list[dict[str, Value | list[Value]]]) -> None:
    kinds: dict[str, set[type]] = {}
    for rec in records:
        for k, v in rec.items():
            if isinstance(v, list):
                rec[k] = v = SEPARATOR.join(str(x) for x in v)
            kinds.setdefault(k, set()).add(type(v))
    for k, seen in kinds.items():
        if seen <= {int} or seen <= {float} or seen <= {bool} or seen <= {str}:
            continue
        target = float if seen <= {int, float} else str
        for rec in records:
            if k in rec:
                rec[k] = target(rec[k]) if target is float else _text(rec[k])


def _text(value: Value) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)
