"""``aikg query``: run a named query or raw SPARQL against the store, mirroring /api/queries and /sparql.

Exit codes: 0 ok, 2 usage or input error (unknown query, bad parameter, query that does not parse),
3 the store failed or the query ran past its time limit.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import click

from aikg.cli.options import STORE_SETTINGS, open_services, setting_options
from aikg.errors import AikgError, BadRequest
from aikg.query.named import load_queries
from aikg.rdf.formats import GRAPH_FORMATS, RESULT_FORMATS, Format, by_name
from aikg.rdf.serialize import serialize_result
from aikg.store import QueryResult, ResultKind

_FORMAT_NAMES = [f.name for f in RESULT_FORMATS + GRAPH_FORMATS]


def parse_params(pairs: tuple[str, ...]) -> dict[str, str]:
    """``k=v`` pairs from ``--param`` into a dict; a pair without ``=`` is a usage error."""
    params: dict[str, str] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key.strip():
            raise click.UsageError(f"--param expects NAME=VALUE, got {pair!r}")
        params[key.strip()] = value
    return params


def _format_for(result: QueryResult, name: str | None) -> Format:
    table = GRAPH_FORMATS if result.kind is ResultKind.GRAPH else RESULT_FORMATS
    fmt = by_name(name or table[0].name, table)
    if fmt is None:
        offered = ", ".join(f.name for f in table)
        kind = "graph (CONSTRUCT/DESCRIBE)" if result.kind is ResultKind.GRAPH else "SELECT/ASK"
        raise BadRequest(f"format {name!r} does not fit a {kind} result; use one of: {offered}")
    return fmt


def _list(ctx: click.Context, _param: click.Parameter, value: bool) -> None:
    if not value or ctx.resilient_parsing:
        return
    for q in load_queries().values():
        params = " ".join(f"{p.name}={p.type}{'' if p.required else '?'}" for p in q.parameters)
        click.echo(f"{q.name:<28} {q.title}" + (f"  [{params}]" if params else ""))
    ctx.exit(0)


@click.command()
@click.argument("name", required=False)
@click.option(
    "--param",
    "-p",
    "params",
    multiple=True,
    metavar="NAME=VALUE",
    help="A parameter of the named query (repeatable).",
)
@click.option("--sparql", "sparql", default=None, help="Run this SPARQL query instead of a named one.")
@click.option(
    "--file",
    "file",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="Run the SPARQL query in this file instead of a named one.",
)
@click.option(
    "--format",
    "-f",
    "fmt",
    type=click.Choice(_FORMAT_NAMES, case_sensitive=False),
    default=None,
    help="Output format: json (default), csv, tsv, xml for SELECT/ASK; "
    "turtle (default), ntriples, jsonld, rdfxml for CONSTRUCT/DESCRIBE.",
)
@click.option(
    "--list",
    "list_",
    is_flag=True,
    expose_value=False,
    is_eager=True,
    callback=_list,
    help="List the named queries and their parameters, then exit.",
)
@setting_options(*STORE_SETTINGS, "query_timeout", "max_rows")
def query(
    name: str | None,
    params: tuple[str, ...],
    sparql: str | None,
    file: Path | None,
    fmt: str | None,
    **options: Any,
) -> None:
    """Run a named query (NAME, with --param k=v) or raw SPARQL (--sparql or --file)."""
    given = [x for x in (name, sparql, file) if x is not None]
    if len(given) != 1:
        raise click.UsageError("give exactly one of: a query NAME, --sparql TEXT, --file PATH")
    if params and name is None:
        raise click.UsageError("--param applies to named queries only")
    raw = parse_params(params)
    text = sparql
    if file is not None:
        try:
            text = file.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            raise click.UsageError(f"cannot read {file}: {exc.__class__.__name__}") from None
    with open_services(options) as services:
        try:
            run = services.named.run
            result = run(name, raw) if name is not None else services.runner.query(text or "")
            out = serialize_result(result, _format_for(result, fmt))
        except AikgError as exc:
            click.echo(f"aikg: {exc.message}", err=True)
            sys.exit(2 if exc.status < 500 else 3)
        max_rows = services.settings.max_rows
    sys.stdout.buffer.write(out)
    if result.truncated:
        click.echo(f"aikg: result cut off at {max_rows} rows (setting max_rows)", err=True)


COMMANDS = [query]
