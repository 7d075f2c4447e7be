"""Answer accuracy beside the speed figures (issue 44): ``aikg ask-eval`` on the benchmark's default store.

Each evaluation file (a held-out part, the development part) is measured on its own, in a child process with
aikg's own CLI on the store the run has just loaded, so the figures are those a user of that store gets.
Only aggregates are kept: per language and category, confident-wrong, out of scope answered, abstention
precision and understanding time. The wrong answers are left out of the results on purpose — a held-out
part stays held out only while whoever changes the reader does not see which of its questions fail.
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

DATA = Path(__file__).resolve().parents[2] / "tests" / "data"
"""The evaluation files, in the source tree the bench runs from (they are not part of the package)."""

CHOICES = ("heldout", "all", "none")
"""``--answers``: the held-out parts only (about a minute), every file (the development part adds several
minutes), or none."""


def files(choice: str, data: Path) -> list[Path]:
    """The evaluation files ``choice`` names, newest held-out part first, the development part last."""
    if choice == "none" or not data.is_dir():
        return []
    held = sorted(data.glob("ask_answers_heldout_*.jsonl"), reverse=True)
    dev = [data / "ask_answers_dev.jsonl"] if choice == "all" else []
    return [*held, *(p for p in dev if p.exists())]


def summary(name: str, figures: dict[str, Any]) -> dict[str, Any]:
    """One file's figures without its wrong answers (see the module's docstring)."""
    part = next(iter(figures["parts"].values()))
    acc = figures["accuracy"]
    prefix = next(iter(figures["parts"]))
    return {
        "file": name,
        "questions": part["questions"],
        "right": acc["all"]["right"],
        "languages": {
            lang: acc[f"part:{prefix}:lang:{lang}"]
            for lang in ("en", "zh")
            if f"part:{prefix}:lang:{lang}" in acc
        },
        "categories": {
            key.split(":")[3] + ":" + key.split(":")[5]: value
            for key, value in acc.items()
            if ":category:" in key and ":lang:" in key
        },
        "confident_wrong": part["confident_wrong"],
        "out_of_scope": part["out_of_scope"],
        "unsure": part["unsure"],
        "abstention": part["abstention"],
        "understanding_ms": figures["understanding_ms"],
    }


def measure(
    store: Path, paths: list[Path], log: Callable[[str], None], query_timeout: float = 60.0
) -> list[dict[str, Any]]:
    """``aikg ask-eval --json`` on each file over ``store`` (closed again before the servers open it)."""
    out: list[dict[str, Any]] = []
    for path in paths:
        done = subprocess.run(
            [
                sys.executable,
                "-m",
                "aikg",
                "ask-eval",
                "--json",
                "--store",
                str(store),
                "--query-timeout",
                str(query_timeout),
                str(path),
            ],
            capture_output=True,
            text=True,
        )
        if done.returncode:
            out.append({"file": path.name, "failed": done.stderr.strip()[-300:]})
            log(f"    answers {path.name}: failed")
            continue
        out.append(summary(path.name, json.loads(done.stdout)))
        s = out[-1]
        log(
            f"    answers {path.name}: {s['right']} of {s['questions']}, confident-wrong "
            f"{s['confident_wrong']['count']}"
        )
    return out


def _share(v: dict[str, Any] | None) -> str:
    return f"{v['right']}/{v['of']} ({v['share']:.1%})" if v else "–"


def markdown(measured: list[dict[str, Any]]) -> list[str]:
    """A line per file (accuracy per language, confident-wrong, out of scope answered, abstention
    precision, understanding p50), then the first file's per-category table (the newest held-out part)."""
    if not measured:
        return []
    lines = [
        "### Answers (issue 44), on this run's default store",
        "",
        "| part | EN | ZH | confident-wrong | out of scope answered | abstention precision "
        "| understanding p50 |",
        "|---|---|---|---|---|---|---|",
    ]
    for s in measured:
        if "failed" in s:
            lines.append(f"| {s['file']} | failed: {s['failed']} | | | | | |")
            continue
        cw, oos, ab = s["confident_wrong"], s["out_of_scope"], s["abstention"]
        precision = "–" if ab["precision"] is None else f"{ab['precision']:.1%}"
        lines.append(
            f"| {s['file']} | {_share(s['languages'].get('en'))} | {_share(s['languages'].get('zh'))} | "
            f"{cw['count']} ({cw['share']:.1%}) | {oos['answered']} of {oos['of']} | {precision} | "
            f"{s['understanding_ms']['p50']} ms |"
        )
    first = next((s for s in measured if "failed" not in s), None)
    if first is not None:
        cats = sorted({k.split(":")[0] for k in first["categories"]})
        lines += ["", f"Per category, {first['file']}:", "", "| category | EN | ZH |", "|---|---|---|"]
        for cat in cats:
            cells = [_share(first["categories"].get(f"{cat}:{lang}")) for lang in ("en", "zh")]
            lines.append(f"| {cat} | {cells[0]} | {cells[1]} |")
    lines += [
        "",
        "Bars (issue 44, on the held-out part): 85 % per language, confident-wrong ≤ 2 %, out of scope "
        "answered 0. The wrong answers are not printed here (`aikg ask-eval --json FILE` lists them).",
    ]
    return lines
