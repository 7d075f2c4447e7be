"""``aikg show <id>``: one entity, as ``/api/entities/<id>`` gives it, read in a terminal.

Prints its names, kind, description, facts (value, unit, qualifier), the values sources disagree on,
its relations both ways (a group's first ``--limit``, and how many more), each statement with the
number of its source document and its certainty, and the numbered sources; ``--format json`` prints the
API's JSON. Exit codes: 0 shown, 2 no such entity (the closest names are suggested) or bad input,
3 the store failed.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Mapping
from typing import Any

import click

from aikg.cli.options import STORE_SETTINGS, echo_answer, open_services, setting_options, text_or_json
from aikg.errors import AikgError, NotFound
from aikg.lookup.entities import MAX_RELATION_PAGE, RELATION_PAGE, entity_json
from aikg.lookup.search import search

SUGGESTED = 5
"""Names suggested for an id that names no entity."""


class _Sources:
    """The source documents of an entity, numbered in the order the API lists them."""

    def __init__(self, documents: list[dict[str, Any]]) -> None:
        self.documents = documents
        self.number = {d["graph"]: n for n, d in enumerate(documents, 1)}

    def cite(self, sources: list[dict[str, Any]]) -> str:
        """A statement's sources: ``[1 reported, 3 rumoured]``."""
        marks = []
        for s in sources:
            n = self.number.get(s["graph"])
            level = (s.get("certainty") or {}).get("label")
            marks.append(" ".join(str(x) for x in (n if n else s["graph"], level) if x))
        return f"[{', '.join(marks)}]" if marks else ""


_PLAIN_NUMBER = re.compile(r"^(-?)([0-9]+)(\.[0-9]+)?$")
_UNIT_IN_LABEL = re.compile(r"\([^)]*\)$")


def _digits(value: str) -> str:
    """A number as the source gave it, its integer part in groups of three (8192 -> 8,192); one with
    an exponent (1.02E24) is left as it is."""
    m = _PLAIN_NUMBER.match(value)
    return f"{m.group(1)}{int(m.group(2)):,}{m.group(3) or ''}" if m else value


def _value(item: Mapping[str, Any], prop_label: str = "") -> str:
    node = item.get("node")
    if node:
        name = node.get("label") or node["iri"]
        return f"{name} ({node['id']})" if node.get("id") else name
    qualifier = (item.get("qualifier") or {}).get("symbol") or ""
    if item.get("number") is not None:
        # the property's label names its unit ("memory bandwidth (GB/s)"): the unit only when it does not
        unit = "" if _UNIT_IN_LABEL.search(prop_label) else (item.get("unit") or {}).get("symbol") or ""
        return f"{qualifier}{_digits(str(item['value']))}{' ' + unit if unit else ''}"
    lang = f" @{item['lang']}" if item.get("lang") else ""
    text = "\n      ".join(line for line in str(item["value"]).strip().splitlines() if line.strip())
    return f"{qualifier}{text}{lang}"


def render_text(body: Mapping[str, Any]) -> str:
    """The entity for a terminal."""
    sources = _Sources(body.get("documents") or [])
    kinds = ", ".join(t["label"] for t in body.get("types") or []) or "no type"
    lines = [f"{body['label']} ({body['id']}) · {kinds}", body["iri"]]
    others = [v for lang, v in sorted((body.get("labels") or {}).items()) if v != body["label"]]
    others += [a["value"] for a in body.get("altLabels") or []]
    if others:
        lines.append("Also: " + "; ".join(dict.fromkeys(others)))
    if body.get("description"):
        lines.append(body["description"])
    for key, title in (("certainty", "Certainty"), ("confidence", "Confidence")):
        levels = [c.get("label") or c.get("name") or c.get("iri") for c in body.get(key) or []]
        if levels:
            lines.append(f"{title}: {', '.join(str(x) for x in levels)}")
    if body.get("facts"):
        lines += ["", "Facts"]
        for f in body["facts"]:
            label = f["property"]["label"]
            lines.append(f"  {label}: {_value(f, label)}  {sources.cite(f['sources'])}".rstrip())
    if body.get("comparisons"):
        lines += ["", "Where sources differ"]
        for c in body["comparisons"]:
            label = c["property"]["label"]
            unit = "" if _UNIT_IN_LABEL.search(label) else (c.get("unit") or {}).get("symbol") or ""
            values = " vs ".join(
                f"{_digits(str(v['value']))}{' ' + unit if unit else ''}"
                + (f" (via {v['node']['label']})" if v.get("node") else "")
                + f" {sources.cite(v['sources'])}"
                for v in c["values"]
            )
            lines.append(f"  {label}: {values} ({c['difference']})")
    relations = body.get("relations") or {}
    groups = relations.get("groups") or []
    if groups:
        lines += ["", "Relations"]
        for g in groups:
            arrow = "→" if g["direction"] == "outgoing" else "←"
            items = [
                r for r in relations.get(g["direction"], []) if r["property"]["iri"] == g["property"]["iri"]
            ]
            for r in items:
                lines.append(f"  {arrow} {g['property']['label']}: {_value(r)}  {sources.cite(r['sources'])}")
            if g["total"] > len(items):
                lines.append(
                    f"  {arrow} {g['property']['label']}: … {g['total'] - len(items)} more (--limit)"
                )
    if sources.documents:
        lines += ["", "Sources"]
        for n, d in enumerate(sources.documents, 1):
            publisher = (d.get("publisher") or {}).get("label")
            about = ", ".join(x for x in (publisher, d.get("date")) if x)
            lines.append(f"  [{n}] {d.get('title') or d['graph']}{' — ' + about if about else ''}")
            if d.get("url"):
                lines.append(f"      {d['url']}")
    return "\n".join(lines)


@click.command()
@click.argument("entity_id", metavar="ID")
@text_or_json("/api/entities/ID")
@click.option(
    "--limit",
    type=click.IntRange(1, MAX_RELATION_PAGE),
    default=RELATION_PAGE,
    show_default=True,
    help="Relations shown per group (property and direction).",
)
@setting_options(*STORE_SETTINGS, "query_timeout")
def show(entity_id: str, fmt: str, limit: int, **options: Any) -> None:
    """Show one entity (a slug such as 'coreweave', or an IRI): its facts, relations and sources."""
    with open_services(options) as services:
        try:
            body = entity_json(services, entity_id, limit=limit)
        except NotFound as exc:
            click.echo(f"aikg: {exc.message}", err=True)
            try:
                hits = search(services.store, services.index(), entity_id, limit=SUGGESTED)
            except AikgError:
                hits = []
            if hits:
                click.echo("Did you mean:", err=True)
                for h in hits:
                    click.echo(f"  {h.entity.slug}  ({h.entity.label})", err=True)
            sys.exit(2)
        except AikgError as exc:
            click.echo(f"aikg: {exc.message}", err=True)
            sys.exit(2 if exc.status < 500 else 3)
    echo_answer(body, fmt, render_text)


COMMANDS = [show]
