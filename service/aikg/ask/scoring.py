"""Measuring answers, not routes (issue 44): the evaluation files of tests/data/ask_answers_*.jsonl.

Each answerable item has a gold query over the store (its first column gives the items the answer must
contain: entities, numbers, texts) and how many must be there (all, most, any, first, count); or it must
abstain. The gold query runs again at each evaluation, so the items follow the data as it is corrected.
Reported per part (held-out, dev), language and category: answer accuracy, the confident-wrong rate (an
answer shown that is wrong), abstention precision and recall, and how long understanding takes.
"""

from __future__ import annotations

import contextlib
import json
import math
import re
import statistics
import time
from collections import defaultdict
from collections.abc import Iterable
from pathlib import Path
from typing import Any, NamedTuple

import pyoxigraph as ox

from aikg import namespaces
from aikg.ask.asker import Asker

ID = str(namespaces.ID)
GOLD_PREFIXES = (
    "PREFIX aikg: <https://w3id.org/aikg/ontology#>\nPREFIX id: <https://w3id.org/aikg/id/>\n"
    "PREFIX rdfs: <http://www.w3.org/2000/01/rdf-schema#>\nPREFIX xsd: <http://www.w3.org/2001/XMLSchema#>\n"
)
_NUMERIC = ("integer", "decimal", "double", "float", "long", "int", "positiveInteger", "nonNegativeInteger")
TOLERANCE = 0.005
MOST = 0.8
EXTRA = 0.2
"""Share of a list's gold size an answer may show beyond it (:func:`outside`), at least :data:`EXTRA_LEAST`
rows: the mirror of :data:`MOST`, which lets a fifth of the gold be missing."""
EXTRA_LEAST = 2
"""Rows outside any gold an answer may show: at small sizes a row legitimately differs (both sides' counts
with the totals' defaults beside the gold's every-row counts, a 900-tutors staff row beside the company's,
the rack's own memory row beside the chip's)."""
RANKED = ("comparison", "superlative")
"""Categories whose gold is the top of a ranking or each side's latest figure, shown first: the rows after
the last one holding a gold item are the ranking's tail or each side's older figures, not an answer."""


class Whole(NamedTuple):
    """The complete list a gold is the start of: a named query's answer, whose first rows are the gold."""

    items: list[dict[str, Any]]
    """The entities of the gold's column over every row."""
    rows: int
    """How many rows the answer has."""
    blank: int
    """Rows without an entity in that column ("sources for DeepSeek-V3": the rows with no quotation)."""


def load_items(*paths: Path | str) -> list[dict[str, Any]]:
    """The items of answer-evaluation files; ``part`` is ``heldout`` for a file so named, else ``dev``."""
    items: list[dict[str, Any]] = []
    for path in paths:
        p = Path(path)
        part = "heldout" if "heldout" in p.stem else "dev"
        start = len(items)
        for n, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1):
            if line.strip():
                items.append({**json.loads(line), "part": part, "where": f"{p.name}:{n}"})
        ids = {item["id"] for item in items[start:]}
        for item in items[start:]:
            # "after" is the previous question's text: an item's id there would be asked as a question,
            # and the follow-up scored wrong for the file's sake, not the reader's.
            if item.get("after") in ids:
                raise ValueError(f"{item['where']}: 'after' must be the previous question, not its id")
    return items


def gold_items(store: Any, sparql: str) -> list[dict[str, Any]]:
    """The items a gold query gives on the store, in its order."""
    out: list[dict[str, Any]] = []
    for row in store.query(GOLD_PREFIXES + sparql).rows:
        t = row[0]
        if t is None:
            continue
        if isinstance(t, ox.NamedNode):
            item: dict[str, Any] = {"iri": t.value}
        elif isinstance(t, ox.Literal) and t.datatype.value.rsplit("#", 1)[-1] in _NUMERIC:
            item = {"number": float(t.value)}
        else:
            item = {"text": t.value}
        if item not in out:
            out.append(item)
    return out


def _entities(terms: Iterable[Any]) -> list[str]:
    return list(
        dict.fromkeys(t.value for t in terms if isinstance(t, ox.NamedNode) and t.value.startswith(ID))
    )


def named_gold(
    asker: Asker, name: str, parameters: dict[str, str], rows: int = 30
) -> tuple[list[dict[str, Any]], Whole]:
    """The items of a named query's answer (the entities of its column with the most distinct ones in
    its first ``rows`` rows) and the whole answer they are the start of (that column over every row)."""
    result = asker.run(name, parameters)
    best: list[str] = []
    column = 0
    for i in range(len(result.variables)):
        seen = _entities(r[i] for r in result.rows[:rows])
        if len(seen) > len(best):
            best, column = seen, i
    column_terms = [r[column] for r in result.rows] if best else []
    blank = sum(1 for t in column_terms if not _entities([t]))
    every = [{"iri": iri} for iri in _entities(column_terms)]
    return [{"iri": iri} for iri in best], Whole(every, len(result.rows), blank)


def gold_of(asker: Asker, store: Any, expect: dict[str, Any]) -> tuple[list[dict[str, Any]], Whole | None]:
    """The items an answer must contain, computed now from the data, and the whole list they are the
    start of when they are not all of it (a named query's first rows; None: the gold is the list)."""
    if "named" in expect:
        return named_gold(asker, expect["named"], expect.get("parameters", {}))
    return gold_items(store, expect["sparql"]), None


def _walk(value: Any, strings: set[str], numbers: list[float]) -> None:
    if isinstance(value, dict):
        if isinstance(value.get("id"), str):
            strings.add(ID + value["id"])
        for v in value.values():
            _walk(v, strings, numbers)
    elif isinstance(value, list):
        for v in value:
            _walk(v, strings, numbers)
    elif isinstance(value, bool):
        return
    elif isinstance(value, (int, float)):
        numbers.append(float(value))
    elif isinstance(value, str):
        strings.add(value)
        with contextlib.suppress(ValueError):
            numbers.append(float(value))


def _contains(item: dict[str, Any], strings: set[str], numbers: list[float]) -> bool:
    if "iri" in item:
        return item["iri"] in strings
    if "number" in item:
        n = item["number"]
        return any(abs(x - n) <= TOLERANCE * max(abs(n), 1e-9) for x in numbers)
    text = item["text"].casefold()
    return any(text in s.casefold() for s in strings)


def _parts(answer: dict[str, Any]) -> list[Any]:
    a = answer["answer"]
    return list(a.get("rows") or a.get("facts") or [])


def _headline(answer: dict[str, Any]) -> list[Any]:
    """The figures an answer states for itself, not in a row or fact: its summary ("12"), the count of
    every row beside a count's answer, and how many rows a list has."""
    a = answer["answer"]
    out: list[Any] = [a.get("summary")]
    if isinstance(a.get("every_row"), dict):
        out.append(a["every_row"].get("counts"))
    if a.get("kind") == "rows":
        out.append(a.get("total"))
    return out


def _found(item: dict[str, Any], *values: Any) -> bool:
    strings: set[str] = set()
    numbers: list[float] = []
    for v in values:
        _walk(v, strings, numbers)
    return _contains(item, strings, numbers)


def _holds(part: Any, items: list[dict[str, Any]]) -> bool:
    strings: set[str] = set()
    numbers: list[float] = []
    _walk(part, strings, numbers)
    return any(_contains(g, strings, numbers) for g in items)


def outside(
    item: dict[str, Any], answer: dict[str, Any], gold: list[dict[str, Any]], whole: Whole | None
) -> int:
    """How many rows of a list answer lie outside the gold: its rows or facts that hold none of the gold's
    items (a row per cluster of a gold operator holds the operator, in whatever column: not outside),
    and the rows it says it has but did not show once its total passes the gold's size and the slack
    (unknown rows, outside for all we know). "Huawei chips with memory bandwidth above 1.5 TB/s" answered
    with every chip that has a bandwidth held every gold chip among 113 rows and was scored right.

    A named query's gold is its first rows: a row is inside when it holds an entity of the whole answer's
    column, and as many rows as the whole answer has without one are not counted.
    A gold query cut by LIMIT is the top of a ranking the answer may show more of (clusters per operator,
    the first two counts): nothing is outside. For :data:`RANKED` categories only the rows before the
    last one holding a gold item count."""
    expect = item.get("expect", {})
    if re.search(r"\bLIMIT\b", expect.get("sparql", ""), re.IGNORECASE):
        return 0
    reference = whole.items if whole else gold
    size = whole.rows if whole else len(gold)
    parts = _parts(answer)
    inside = [_holds(p, reference) for p in parts]
    if item.get("category") in RANKED:
        last = max((n for n, ok in enumerate(inside) if ok), default=len(parts) - 1)
        return sum(1 for ok in inside[: last + 1] if not ok)
    a = answer["answer"]
    total = a.get("total") if a.get("kind") == "rows" and isinstance(a.get("total"), int) else len(parts)
    unseen = max(0, total - len(parts)) if total > size + slack(size) else 0
    return max(0, sum(1 for ok in inside if not ok) - (whole.blank if whole else 0)) + unseen


def slack(size: int) -> int:
    """Rows outside the gold a list answer may show (:data:`EXTRA`, at least :data:`EXTRA_LEAST`)."""
    return max(EXTRA_LEAST, math.ceil(EXTRA * size))


def judge(
    item: dict[str, Any], answer: dict[str, Any], gold: list[dict[str, Any]], whole: Whole | None = None
) -> bool:
    """True when the answer is what the item expects.

    Only what the answer states counts: its rows (with their sources), facts (with theirs) and headline
    figures (:func:`_headline`), never the words of its query, description or links, where a gold text
    ("France", "Existing") stands whatever the rows are. A single figure asked for must be the answer's
    own: in its headline or its first row or fact, not one figure among several ("DeepSeek-V3's GPU
    hours": 276 first, the run of the question's 2.788M second, is wrong). A list (``all``, ``most``) must
    not add more than :func:`slack` rows outside the gold (:func:`outside`): a list of every chip holding
    the few above a threshold answers another question. ``whole`` is the complete list when the gold is
    only its start (:func:`gold_of`)."""
    expect = item["expect"]
    if expect.get("abstain"):
        return bool(answer["abstained"])
    if not gold:
        # the data holds nothing for it: right when aikg says it has nothing, not when it shows rows
        return bool(answer["abstained"]) or not _parts(answer)
    if answer["abstained"]:
        return False
    parts = _parts(answer)
    match = expect["match"]
    if match == "first":
        return bool(parts) and _found(gold[0], parts[0])
    if len(gold) == 1 and "number" in gold[0]:
        return _found(gold[0], _headline(answer), parts[:1])
    strings: set[str] = set()
    numbers: list[float] = []
    _walk([parts, _headline(answer)], strings, numbers)
    hits = [_contains(g, strings, numbers) for g in gold]
    if match == "any":
        return any(hits)
    if match not in ("all", "most"):
        return all(hits)
    enough = sum(hits) >= MOST * len(hits) if match == "most" else all(hits)
    return enough and outside(item, answer, gold, whole) <= slack(whole.rows if whole else len(gold))


def evaluate_answers(asker: Asker, store: Any, items: Iterable[dict[str, Any]]) -> dict[str, Any]:
    """The figures over the items (see the module's docstring), and the wrong ones."""
    items = list(items)
    if items:
        asker.ask(items[0]["q"])  # the search index and router are built on first use
    reading: list[float] = []
    for item in items:
        start = time.perf_counter()
        r, _ = asker.understand(item["q"])
        asker.compose(r, item.get("after"))
        reading.append(time.perf_counter() - start)
    results = []
    for item in items:
        answer = asker.ask(item["q"], after=item.get("after"))
        gold, whole = ([], None) if item["expect"].get("abstain") else gold_of(asker, store, item["expect"])
        results.append((item, answer, judge(item, answer, gold, whole), gold))
    groups: dict[str, list[bool]] = defaultdict(list)
    for item, _, ok, _ in results:
        for key in (
            "all",
            f"part:{item['part']}",
            f"part:{item['part']}:lang:{item['lang']}",
            f"part:{item['part']}:category:{item['category']}",
            f"part:{item['part']}:category:{item['category']}:lang:{item['lang']}",
        ):
            groups[key].append(ok)
    figures: dict[str, Any] = {"items": len(results), "parts": {}}
    for part in sorted({i["part"] for i in items}):
        mine = [(i, a, ok) for i, a, ok, _ in results if i["part"] == part]
        shown = [(i, ok) for i, a, ok in mine if not a["abstained"]]
        abstained = [i for i, a, _ in mine if a["abstained"]]
        oos = [(i, a) for i, a, _ in mine if i["expect"].get("abstain")]
        figures["parts"][part] = {
            "questions": len(mine),
            "confident_wrong": {
                "count": sum(1 for _, ok in shown if not ok),
                "share": round(sum(1 for _, ok in shown if not ok) / len(mine), 4) if mine else None,
            },
            "out_of_scope": {"of": len(oos), "answered": sum(1 for _, a in oos if not a["abstained"])},
            "unsure": sum(1 for _, a, _ in mine if a["answer"].get("kind") == "unsure"),
            "abstention": {
                "abstained": len(abstained),
                "precision": round(
                    sum(1 for i in abstained if i["expect"].get("abstain")) / len(abstained), 4
                )
                if abstained
                else None,
                "recall": round(sum(1 for _, a in oos if a["abstained"]) / len(oos), 4) if oos else None,
            },
        }
    figures["accuracy"] = {
        k: {"right": sum(v), "of": len(v), "share": round(sum(v) / len(v), 4)}
        for k, v in sorted(groups.items())
    }
    reading.sort()
    figures["understanding_ms"] = {
        "p50": round(1000 * statistics.median(reading), 2) if reading else None,
        "p95": round(1000 * reading[int(0.95 * (len(reading) - 1))], 2) if reading else None,
    }
    figures["wrong"] = [
        {
            "where": i["where"],
            "q": i["q"],
            "category": i["category"],
            "abstained": a["abstained"],
            "kind": a["answer"].get("kind"),
            "unknown": a["understood"].get("unknown", []),
            "understood": a["understood"].get("description") or a["understood"].get("query"),
            "expected": gold[:5] if gold else "abstain",
        }
        for i, a, ok, gold in results
        if not ok
    ]
    return figures


def table(figures: dict[str, Any]) -> str:
    """The per-category accuracy table (Markdown), per part and language."""
    acc = figures["accuracy"]
    cats = sorted({k.split(":")[3] for k in acc if ":category:" in k})
    lines = ["| category | held-out EN | held-out ZH | dev EN | dev ZH |", "|---|---|---|---|---|"]
    for cat in [*cats, None]:
        cells = []
        for part in ("heldout", "dev"):
            for lang in ("en", "zh"):
                key = f"part:{part}:category:{cat}:lang:{lang}" if cat else f"part:{part}:lang:{lang}"
                v = acc.get(key)
                cells.append(f"{v['right']}/{v['of']} ({v['share']:.0%})" if v else "–")
        lines.append(f"| {cat or '**all**'} | " + " | ".join(cells) + " |")
    return "\n".join(lines)
