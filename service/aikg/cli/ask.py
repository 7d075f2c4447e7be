"""``aikg ask "<question>"``: a question in plain words, answered from the store as ``/api/ask`` answers it.

Prints what was understood and the answer (rows or facts, each with its sources), or "I don't know" and
the closest questions aikg can answer; ``--format json`` prints the same JSON as ``/api/ask``.
Exit codes: 0 answered, 1 abstained, 2 usage or input error, 3 the store failed or a query ran too long.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Mapping
from typing import Any

import click

from aikg.ask import Asker
from aikg.cli.options import STORE_SETTINGS, echo_answer, open_services, setting_options, text_or_json
from aikg.errors import AikgError


def _sources(sources: list[dict[str, Any]]) -> str:
    names = []
    for s in sources:
        title = (s.get("document") or {}).get("title") or s["graph"]
        level = (s.get("certainty") or {}).get("label")
        names.append(f"{title} ({level})" if level else title)
    return "; ".join(names) or "-"


def _cell(cell: dict[str, Any] | None) -> str:
    if cell is None:
        return ""
    return str(cell.get("label") or cell.get("id") or cell["value"])


def render_text(body: Mapping[str, Any]) -> str:
    """The answer for a terminal: understood, rows or facts with sources, alternatives."""
    lines: list[str] = []
    u, a = body["understood"], body["answer"]
    if body["abstained"]:
        lines.append(a["message"])
        if a["kind"] == "unsure" and a.get("links"):
            lines.append(f"To run it anyway: {a['links'].get('editor') or a['links'].get('page')}")
    elif a["kind"] == "rows" and u.get("description"):
        lines.append(f"Understood as: {u['description']} (confidence {u['confidence']:.0%})")
        if a.get("summary"):
            lines.append(f"Answer: {a['summary']}")
        for row in a["rows"]:
            cells = " | ".join(f"{c}: {_cell(v)}" for c, v in row["cells"].items() if v)
            lines.append(f"- {cells}\n    sources: {_sources(row['sources'])}")
        lines.append(f"SPARQL:\n{u['sparql']}")
    elif a["kind"] == "rows":
        params = ", ".join(f"{k}={v}" for k, v in u["parameters"].items())
        lines.append(
            f"Understood as: {a['query']['title']} [{u['query']}{' ' + params if params else ''}]"
            f" (confidence {u['confidence']:.0%})"
        )
        shown = [c for c in a["columns"] if not c.endswith("Label")]
        for row in a["rows"]:
            cells = " | ".join(f"{c}: {_cell(row['cells'].get(c))}" for c in shown if row["cells"].get(c))
            lines.append(f"- {cells}\n    sources: {_sources(row['sources'])}")
        more = f" of {a['total']}" if a["total"] > len(a["rows"]) else ""
        lines.append(
            f"{len(a['rows'])}{more} rows. SPARQL: aikg query {u['query']}"
            + "".join(f" -p {k}={v}" for k, v in u["parameters"].items())
        )
    else:
        what = a["property"]["label"] if a["property"] else "facts"
        lines.append(f"Understood as: {what} of {a['entity']['label']} (confidence {u['confidence']:.0%})")
        if a.get("note"):
            lines.append(a["note"])
        for f in a["facts"]:
            value = (f.get("node") or {}).get("label") or f["value"]
            unit = (f.get("unit") or {}).get("symbol") or ""
            qualifier = (f.get("qualifier") or {}).get("symbol") or ""
            lines.append(
                f"- {f['subject']['label']}, {f['property']['label']}: {qualifier}{value}"
                f"{' ' + unit if unit else ''}\n    sources: {_sources(f['sources'])}"
            )
    if not body["abstained"] and u.get("unknown"):
        lines.append("Did not use: " + ", ".join(u["unknown"]))
    if body["alternatives"]:
        lines.append("Closest questions aikg can answer:" if body["abstained"] else "Alternatives:")
        for alt in body["alternatives"]:
            params = " ".join(f"-p {k}={v}" for k, v in alt["parameters"].items())
            lines.append(
                f"  {alt['title']}: aikg query {alt['query']} {params}".rstrip()
                + (f"  (needs {', '.join(alt['missing'])})" if alt.get("missing") else "")
            )
    return "\n".join(lines)


@click.command()
@click.argument("question")
@text_or_json("/api/ask")
@click.option("--after", default=None, help='The question asked before, for a follow-up ("and in Japan?").')
@setting_options(*STORE_SETTINGS, "query_timeout", "max_rows")
def ask(question: str, fmt: str, after: str | None, **options: Any) -> None:
    """Ask a question in plain words, in English or Chinese (e.g. "GB300 的显存是多少?")."""
    with open_services(options) as services:
        try:
            body = Asker.for_services(services).ask(question, after=after)
        except AikgError as exc:
            click.echo(f"aikg: {exc.message}", err=True)
            sys.exit(2 if exc.status < 500 else 3)
    echo_answer(body, fmt, render_text)
    sys.exit(1 if body["abstained"] else 0)


@click.command("ask-eval")
@click.argument("files", nargs=-1, type=click.Path(exists=True, dir_okay=False))
@click.option("--json", "as_json", is_flag=True, help="Print the figures as JSON (with the wrong answers).")
@setting_options(*STORE_SETTINGS, "query_timeout", "max_rows")
def ask_eval(files: tuple[str, ...], as_json: bool, **options: Any) -> None:
    """Measure answers on evaluation files (default: tests/data/ask_answers_*.jsonl): accuracy per part,
    language and category, confident-wrong rate, abstention precision, understanding time."""
    from pathlib import Path

    from aikg.ask.scoring import evaluate_answers, load_items, table

    paths = list(files) or sorted(str(p) for p in Path("tests/data").glob("ask_answers_*.jsonl"))
    if not paths:
        raise click.UsageError("no evaluation files given and none in tests/data/")
    with open_services(options) as services:
        figures = evaluate_answers(Asker.for_services(services), services.store, load_items(*paths))
    if as_json:
        click.echo(json.dumps(figures, ensure_ascii=False, indent=2))
        return
    click.echo(table(figures))
    for part, f in figures["parts"].items():
        click.echo(
            f"{part}: {f['questions']} questions, confident-wrong {f['confident_wrong']['count']} "
            f"({f['confident_wrong']['share']:.1%}), out-of-scope answered {f['out_of_scope']['answered']} "
            f"of {f['out_of_scope']['of']}, not sure {f['unsure']}, "
            f"abstention precision {f['abstention']['precision']}"
        )
    click.echo(
        f"understanding p50 {figures['understanding_ms']['p50']} ms,"
        f" p95 {figures['understanding_ms']['p95']} ms"
    )


COMMANDS = [ask, ask_eval]
