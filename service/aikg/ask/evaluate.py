"""The router's figures on an evaluation set: accuracy per language and part, abstention, latency.

An item is right when the answer is what the item expects: the named query with exactly the expected
parameters; a fact of the expected entity for the expected property (any of its values); or an abstention.
The held-out part is scored like the rest and reported on its own.
"""

from __future__ import annotations

import statistics
import time
from collections import defaultdict
from collections.abc import Iterable
from typing import Any

from aikg import namespaces
from aikg.ask.asker import Asker

AIKG = str(namespaces.AIKG)


def judge(item: dict[str, Any], answer: dict[str, Any]) -> bool:
    """True when the answer is what the item expects."""
    expect = item["expect"]
    if expect.get("abstain"):
        return bool(answer["abstained"])
    if answer["abstained"]:
        return False
    if "query" in expect:
        u = answer["understood"]
        return bool(u["query"] == expect["query"] and u["parameters"] == expect["parameters"])
    a = answer["answer"]
    if a.get("kind") != "facts" or answer["understood"]["entity"] != expect["entity"]:
        return False
    if expect["fact"] is None:
        return a["property"] is None
    return a["property"] is not None and a["property"]["iri"] == AIKG + expect["fact"] and bool(a["facts"])


def evaluate(asker: Asker, items: Iterable[dict[str, Any]], *, warm: bool = True) -> dict[str, Any]:
    """Accuracy (all, per language, per part), abstention figures and latency over the items.

    ``latency_ms`` is a whole answer (reading, routing, running the query, the rows' sources);
    ``understanding_ms`` the reading and routing alone. The router is built before the clock starts.
    """
    items = list(items)
    start = time.perf_counter()
    router = asker.router()
    build = time.perf_counter() - start
    if warm and items:
        asker.ask(items[0]["q"])  # the search index is built on first use
    reading: list[float] = []
    for item in items:
        start = time.perf_counter()
        asker.understand(item["q"])
        reading.append(time.perf_counter() - start)
    results = []
    for item in items:
        start = time.perf_counter()
        answer = asker.ask(item["q"])
        seconds = time.perf_counter() - start
        results.append((item, answer, judge(item, answer), seconds))
    groups: dict[str, list[bool]] = defaultdict(list)
    for item, _, ok, _ in results:
        for key in (
            "all",
            f"lang:{item['lang']}",
            f"part:{item['part']}",
            f"part:{item['part']}:lang:{item['lang']}",
        ):
            groups[key].append(ok)
    oos = [(ok, a) for item, a, ok, _ in results if item["expect"].get("abstain")]
    abstained = [(item, ok) for item, a, ok, _ in results if a["abstained"]]
    latencies = sorted(s for *_, s in results)
    reading.sort()
    return {
        "items": len(results),
        "accuracy": {
            k: {"right": sum(v), "of": len(v), "share": round(sum(v) / len(v), 4)}
            for k, v in sorted(groups.items())
        },
        "out_of_scope": {"of": len(oos), "answered": sum(1 for _, a in oos if not a["abstained"])},
        "abstention": {
            "abstained": len(abstained),
            "precision": round(sum(1 for i, _ in abstained if i["expect"].get("abstain")) / len(abstained), 4)
            if abstained
            else None,
            "recall": round(sum(1 for _, a in oos if a["abstained"]) / len(oos), 4) if oos else None,
        },
        "latency_ms": _percentiles(latencies),
        "understanding_ms": _percentiles(reading),
        "router": {
            "examples": len(router.examples),
            "features": len(router.model.idf),
            "intents": len(router.intents),
            "build_ms": round(1000 * build, 1),
        },
        "wrong": [
            {"where": i["where"], "q": i["q"], "expect": i["expect"], "got": _got(a)}
            for i, a, ok, _ in results
            if not ok
        ],
    }


def _percentiles(seconds: list[float]) -> dict[str, float] | None:
    """p50, p95 and max of sorted durations, in milliseconds."""
    if not seconds:
        return None
    return {
        "p50": round(1000 * statistics.median(seconds), 2),
        "p95": round(1000 * seconds[int(0.95 * (len(seconds) - 1))], 2),
        "max": round(1000 * seconds[-1], 2),
    }


def _got(answer: dict[str, Any]) -> dict[str, Any]:
    """What an answer understood, in short (for the list of wrong answers)."""
    a = answer["answer"]
    prop = a.get("property") if a.get("kind") == "facts" else None
    return {
        "understood": answer["understood"],
        "abstained": answer["abstained"],
        "property": prop["iri"] if prop else None,
        "message": a.get("message"),
    }
