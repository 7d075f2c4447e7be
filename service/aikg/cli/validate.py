"""``aikg validate``: check the store, or one Turtle file, against the SHACL shapes (like GET /api/validate).

A file is validated as ``aikg load`` would write it: with the store's entities it links to (their types
come from the store), so a correct file naming NVIDIA and CoreWeave passes; ``--alone`` validates the
file by itself.

Exit codes: 0 the data conforms, 1 it does not (the report says why), 2 usage or input error.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import click
import pyoxigraph as ox
from rdflib import Graph

from aikg.cli.options import STORE_SETTINGS, open_services, setting_options
from aikg.errors import AikgError, RdfSyntaxError
from aikg.knowledge.load import is_empty, load_seeds
from aikg.knowledge.validate import ValidationResult, validate_graph, validate_store
from aikg.namespaces import GRAPH
from aikg.write import gate, terms

FORMATS = ("text", "json", "turtle")


def read_turtle(path: Path) -> Graph:
    """Parse a Turtle file, turning a syntax error into an input error that says where."""
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise RdfSyntaxError(f"cannot read {path}: {exc.strerror}") from None
    try:
        for _ in ox.parse(data, format=ox.RdfFormat.TURTLE):
            pass
    except (SyntaxError, ValueError) as exc:
        raise RdfSyntaxError(f"{path.name} is not valid Turtle: {exc}") from None
    return Graph().parse(data=data, format="turtle")


def _validate_store(options: dict[str, Any]) -> ValidationResult:
    with open_services(options) as services:
        if services.settings.load_seeds and is_empty(services.store):
            load_seeds(services.store)
        return validate_store(services.store)


def render(result: ValidationResult, fmt: str) -> str:
    """The report in the chosen format."""
    if fmt == "json":
        return json.dumps(result.to_json(), ensure_ascii=False, indent=2)
    if fmt == "turtle":
        return result.to_turtle()
    return result.text()


def _validate_file(file: Path, graph: str | None, alone: bool, options: dict[str, Any]) -> ValidationResult:
    """FILE as ``aikg load`` would write it: its graph replaced, validated with the store's entities
    around it (a file linking to NVIDIA needs NVIDIA's type from the store), nothing written."""
    data = read_turtle(file)
    unreadable = terms.violations(ox.parse(file.read_bytes(), format=ox.RdfFormat.TURTLE))
    if alone:
        return terms.as_result(unreadable, validate_graph(data))
    target = gate.check_graph_iri(graph or str(GRAPH["sources/" + file.stem]))
    quads = {
        ox.Quad(q.subject, q.predicate, q.object, ox.NamedNode(target))
        for q in ox.parse(file.read_bytes(), format=ox.RdfFormat.TURTLE)
    }
    with open_services(options) as services:
        store = services.store
        if services.settings.load_seeds and is_empty(store):
            load_seeds(store)
        result, _ = gate.validate_change(store, gate.graph_change(store, target, quads, replace=True))
        return terms.as_result(unreadable, result)


@click.command()
@click.argument("file", required=False, type=click.Path(dir_okay=False, path_type=Path))
@click.option(
    "--graph", default=None, help="The graph FILE would be loaded into (default: graph/sources/<file stem>)."
)
@click.option(
    "--alone", is_flag=True, help="Validate FILE on its own (with the ontology), not against the store."
)
@click.option(
    "--format",
    "-f",
    "fmt",
    type=click.Choice(FORMATS, case_sensitive=False),
    default="text",
    show_default=True,
    help="Report format: readable text, JSON, or the SHACL report in Turtle.",
)
@setting_options(*STORE_SETTINGS, "load_seeds")
def validate(file: Path | None, graph: str | None, alone: bool, fmt: str, **options: Any) -> None:
    """Validate the whole store, or FILE (a Turtle file) as loading it into the store would."""
    try:
        result = _validate_file(file, graph, alone, options) if file is not None else _validate_store(options)
    except AikgError as exc:
        click.echo(f"aikg: {exc.message}", err=True)
        sys.exit(2)
    click.echo(render(result, fmt.lower()))
    sys.exit(0 if result.conforms else 1)


COMMANDS = [validate]
