"""``aikg validate``: check the store, or one Turtle file, against the SHACL shapes (like GET /api/validate).

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
        if services.settings["load_seeds"] and is_empty(services.store):
            load_seeds(services.store)
        return validate_store(services.store)


def render(result: ValidationResult, fmt: str) -> str:
    """The report in the chosen format."""
    if fmt == "json":
        return json.dumps(result.to_json(), ensure_ascii=False, indent=2)
    if fmt == "turtle":
        return result.to_turtle()
    return result.text()


@click.command()
@click.argument("file", required=False, type=click.Path(dir_okay=False, path_type=Path))
@click.option("--format", "-f", "fmt", type=click.Choice(FORMATS, case_sensitive=False), default="text",
              show_default=True, help="Report format: readable text, JSON, or the SHACL report in Turtle.")
@setting_options(*STORE_SETTINGS, "load_seeds")
def validate(file: Path | None, fmt: str, **options: Any) -> None:
    """Validate the whole store, or only FILE (a Turtle file), against the shapes."""
    try:
        result = validate_graph(read_turtle(file)) if file is not None else _validate_store(options)
    except AikgError as exc:
        click.echo(f"aikg: {exc.message}", err=True)
        sys.exit(2)
    click.echo(render(result, fmt.lower()))
    sys.exit(0 if result.conforms else 1)


COMMANDS = [validate]
