"""GraphML and GEXF, written by networkx's writers (what Gephi, yEd and Cytoscape desktop read).

Both formats declare one type per attribute, and a tool can only size, colour or filter by an attribute
declared numeric. So values are made uniform per attribute first:

- a figure given several times (two sources, or a source and aikg's own derivation: GPU-hours 276 and
  275.8) stays a number, the first one given (sources before derivations), and every value is kept as
  text in ``<name>_values`` (``276; 275.797``);
- integers mixed with decimals become decimals; a number is never turned into text because another
  node's value of the attribute is text: that text goes to ``<name>_values`` instead;
- anything else is text, several values joined with ``; ``.

Every node also carries its type family and that family's colour (``family``, ``color``: the explorer's
colours); GEXF gives the colour as ``viz:color``, which Gephi draws.
"""

from __future__ import annotations

import io
from collections.abc import Iterator
from typing import Any

import networkx as nx

from aikg.export.budget import bounded, check
from aikg.export.model import GraphModel, Value
from aikg.export.palette import Palette, rgb

SEPARATOR = "; "
VALUES = "_values"
"""Suffix of the text attribute that keeps every value of a figure given more than once."""


def to_networkx(model: GraphModel, description: dict[str, Any]) -> nx.MultiDiGraph:
    """The model as a directed multigraph keyed by edge id, with uniformly typed attributes."""
    nodes = []
    palette = Palette(model.vocab)
    for n in bounded(model.sorted_nodes(), "writing nodes"):
        data = model.node_data(n)
        data["family"], data["color"] = palette.colour(n.types)
        nodes.append(data)
    edges = [model.edge_data(e) for e in bounded(model.sorted_edges(), "writing edges")]
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
    graph = to_networkx(model, description)
    check("writing GraphML")
    buf = io.BytesIO()
    nx.write_graphml(graph, buf, encoding="utf-8", infer_numeric_types=True)
    yield buf.getvalue()


def gexf(model: GraphModel, description: dict[str, Any]) -> Iterator[bytes]:
    """GEXF 1.2 (Gephi's own format): node and edge labels plus typed attributes."""
    g = to_networkx(model, description)
    for data in bounded(g.nodes.values(), "writing nodes"):
        data.pop("id", None)  # the node key is the id already; GEXF writes it as the node id
        r, gr, b = rgb(str(data["family"]))
        data["viz"] = {"color": {"r": r, "g": gr, "b": b, "a": 1.0}}
    check("writing GEXF")
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


def _number(v: object) -> bool:
    return isinstance(v, int | float) and not isinstance(v, bool)


def _uniform(records: list[dict[str, Value | list[Value]]]) -> None:
    for rec in records:
        for k, v in list(rec.items()):
            if isinstance(v, list):
                if all(_number(x) for x in v):
                    rec[k] = v[0]
                    rec[k + VALUES] = SEPARATOR.join(_text(x) for x in v)
                else:
                    rec[k] = SEPARATOR.join(_text(x) for x in v)
    kinds: dict[str, set[type]] = {}
    for rec in records:
        for k, v in rec.items():
            kinds.setdefault(k, set()).add(type(v))
    for k, seen in kinds.items():
        if len(seen) == 1:
            continue
        numeric = seen & {int, float}
        if numeric and seen <= {int, float}:
            for rec in records:
                if k in rec:
                    rec[k] = float(_scalar(rec[k]))
        elif numeric:
            # numbers stay numbers; the other values of the attribute are kept as text beside them
            for rec in records:
                if k in rec and not _number(rec[k]):
                    text = _text(_scalar(rec.pop(k)))
                    rec[k + VALUES] = f"{rec[k + VALUES]}{SEPARATOR}{text}" if k + VALUES in rec else text
                elif k in rec and float in numeric and int in numeric:
                    rec[k] = float(_scalar(rec[k]))
        else:
            for rec in records:
                if k in rec:
                    rec[k] = _text(_scalar(rec[k]))


def _scalar(value: Value | list[Value]) -> Value:
    """A value once :func:`_uniform`'s first pass has made every list one value."""
    if isinstance(value, list):
        raise TypeError(f"a list left in a record: {value!r}")
    return value


def _text(value: Value) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)
