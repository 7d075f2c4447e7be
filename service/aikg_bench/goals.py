"""Issue 49's goals as one table: each measured against its baseline from the same run.

A row is one goal at one size: what it is compared with (``baseline``), what aikg did (``measured``),
their ratio, the target, and whether it is met or by how much it is missed. A goal whose figures are
missing (a size not run, a peer skipped, an operation failed) says so, never met. A goal that names the
machine's state is judged on the figures of that state: the quiet machine (each size's main phase) or
beside busy loops (the busy phase ``aikg bench --busy N`` adds to each size, in the same run); a run
without the busy phase says "not run" and why. Rows measured beside busy loops say so in their size.
"""

from __future__ import annotations

import statistics
from collections.abc import Iterator, Sequence
from typing import Any

from aikg.settings import Settings

NEW_CONNECTION = 1.2
"""A cached answer asked on a new connection, at most this many times the bare Flask app's time."""
CACHED = 0.9
"""Cached answers and entity lookups under wrk, at least this share of the best bare-Flask ceiling."""
MISS = 1.5
"""Every named query missing the cache (hub parameters included), at most this many times pyoxigraph."""
LIMIT_S = Settings().query_timeout
"""The query time limit (aikg's default, which the bench serves with): past it aikg answers 503."""
COLD_10M_S = 1.0
"""At 10M, every named query's answer missing the cache within this many seconds."""
NODE_GROWTH = 1.2
"""A query bound to one small node, at most this many times slower at 10M than at 1M."""
LOAD = 1.5
"""``aikg load --bulk`` against pyoxigraph's ``bulk_load``, in time and in peak memory."""
RESTART_S = 1.0
"""The first answer after a restart, in seconds."""
WRITE_MS = 50.0
"""A small gated write's median, in milliseconds."""
FAIR = 2.0
"""Under four clients loading hub neighbourhoods, the cheap answers' p99 at most this many times idle."""

MISS_SIZES = ("default", "1M", "10M")
COLD_SIZES = ("10M",)
LOAD_SIZES = ("1M", "10M")
RESTART_SIZES = ("default", "1M")
WRITE_SIZES = ("default", "1M")
FAIR_PROBES = ("neighbourhood (depth 1)", "bad parameter (400)")
"""The fair share's probes the goal names (its other probes are reported with the fair share)."""

_CEILINGS = ("flask-hello", "flask-hello-threads")


def _row(
    goal: str,
    size: str,
    baseline: str,
    measured: str,
    ratio: float | None,
    target: str,
    met: bool | None,
    missed: str = "",
) -> dict[str, Any]:
    return {
        "goal": goal,
        "size": size,
        "baseline": baseline,
        "measured": measured,
        "ratio": ratio,
        "target": target,
        "met": met,
        "missed_by": "" if met else missed,
    }


def _not_run(goal: str, size: str, target: str, why: str) -> dict[str, Any]:
    return _row(goal, size, "–", why, None, target, None)


def _at_most(value: float, limit: float, unit: str = "×") -> tuple[bool, str]:
    """Met, or by how much it is missed (as a factor of the limit)."""
    if value <= limit:
        return True, ""
    return False, f"{value / limit:.2f}× over ({value:.3g}{unit} vs {limit:g}{unit})"


def _label(result: dict[str, Any], size: str) -> str:
    """The size as a row names it (the quiet machine's figures)."""
    return size


def _busy_label(size: str, phase: dict[str, Any] | None) -> str:
    """The size as a row of the busy phase names it: with the loops beside it."""
    loops = (phase or {}).get("loops")
    return f"{size}, beside {loops} busy loops" if loops else size


def _sizes(result: dict[str, Any], named: Sequence[str] = ()) -> Iterator[tuple[str, dict[str, Any] | None]]:
    """The sizes a goal is judged at (``named``; every size run when none is named), each with its
    results, or None where the run did not measure it."""
    run = {s["size"]: s for s in result["sizes"]}
    for label in named or list(run):
        yield label, run.get(label)


NO_BUSY = "not run: needs busy loops (aikg bench --busy 4)"


def _no_busy(result: dict[str, Any]) -> str:
    """Why a busy goal has no figures: the run had no busy phase, or it stopped before the phase ended."""
    if result.get("options", {}).get("busy"):
        return "not run: the run stopped before this size's busy phase ended"
    return NO_BUSY


# -- the goals, in the order of the issue ------------------------------------------------------------------


def new_connection(result: dict[str, Any]) -> Iterator[dict[str, Any]]:
    goal, target = "a cached answer on a new connection vs bare Flask", f"≤ {NEW_CONNECTION}×"
    for label, size in _sizes(result):
        peers = (size or {}).get("peers", {})
        together = peers.get("aikg", {}).get("new_connections") or {}
        if "aikg" in together:  # the servers side by side, in alternating rounds (runs since 49q)
            mine = together["aikg"]
            theirs = [(f"{p}, side by side", together[p]) for p in _CEILINGS if p in together]
        else:  # one server after the other (runs before)
            mine = peers.get("aikg", {}).get("new_connection")
            theirs = [
                (p, peers[p]["new_connection"]) for p in _CEILINGS if "new_connection" in peers.get(p, {})
            ]
        if not mine or not theirs:
            yield _not_run(goal, _label(result, label), target, "not run")
            continue
        peer, best = min(theirs, key=lambda pc: pc[1]["p50_ms"])
        ratio = mine["p50_ms"] / best["p50_ms"]
        met, missed = _at_most(ratio, NEW_CONNECTION)
        yield _row(
            goal,
            _label(result, label),
            f"{peer} p50 {best['p50_ms']:.2f} ms ({best['body_bytes']:,} bytes)",
            f"aikg p50 {mine['p50_ms']:.2f} ms ({mine['path']}), p99 {mine['p99_ms']:.2f} ms",
            ratio,
            target,
            met,
            missed,
        )


def _ceiling(peers: dict[str, Any], op: str) -> tuple[str, float] | None:
    best: tuple[str, float] | None = None
    for peer in _CEILINGS:
        r = (peers.get(peer, {}).get("ops") or {}).get(op)
        if r and r.get("rps") and (best is None or r["rps"] > best[1]):
            best = (peer, r["rps"])
    return best


def cached(result: dict[str, Any]) -> Iterator[dict[str, Any]]:
    """Entity lookups and every cached named query under wrk against the better ceiling: the worst; on
    the quiet machine (each size's peers) and beside busy loops (its busy phase's peers)."""
    target = f"≥ {CACHED}×"
    for label, size in _sizes(result):
        phase = (size or {}).get("busy")
        for goal, peers, where in (
            ("cached answers and lookups vs bare Flask, quiet", (size or {}).get("peers"), label),
            (
                "cached answers and lookups vs bare Flask, both cores busy",
                (phase or {}).get("peers"),
                _busy_label(label, phase),
            ),
        ):
            if size is not None and "busy" in goal and phase is None:
                yield _not_run(goal, where, target, _no_busy(result))
                continue
            yield _cached_row(goal, where, peers or {}, target)


def _cached_row(goal: str, where: str, peers: dict[str, Any], target: str) -> dict[str, Any]:
    mine = peers.get("aikg", {}).get("ops") or {}
    timed = {
        op: r
        for op, r in mine.items()
        if (op == "entity lookup" or op.startswith("query "))
        and r.get("rps") is not None
        and not r.get("slow")
        and _ceiling(peers, op)
    }
    if not timed:
        return _not_run(goal, where, target, "not run")
    ceilings = {op: _ceiling(peers, op) for op in timed}
    ratios = {op: r["rps"] / ceilings[op][1] for op, r in timed.items()}  # type: ignore[index]
    worst = min(ratios, key=lambda op: ratios[op])
    peer, rps = ceilings[worst]  # type: ignore[misc]
    lookups = f"; lookups {ratios['entity lookup']:.2f}×" if "entity lookup" in ratios else ""
    if timed[worst].get("errors"):  # answers that were not cached ones: say so beside the rate
        lookups = f", p99 {timed[worst]['p99_ms']:,.0f} ms, {timed[worst]['errors']} errors{lookups}"
    return _row(
        goal,
        where,
        f"{peer} {rps:,.0f} req/s",
        f"aikg {timed[worst]['rps']:,.0f} req/s ({worst.removeprefix('query ')}, the worst)"
        f"{lookups}; median {statistics.median(ratios.values()):.2f}× over {len(ratios)}",
        ratios[worst],
        target,
        ratios[worst] >= CACHED,
        f"{CACHED / ratios[worst]:.2f}× short" if ratios[worst] else "no answers",
    )


def _misses(size: dict[str, Any]) -> list[dict[str, Any]]:
    """Every named query missing the cache: with the benchmark's parameters, and bound to the hub."""
    hub = (size.get("hubs") or {}).get("hub") or {}
    bound = [{**line, "query": f"{line['query']} ({hub['node']})"} for line in hub.get("queries", [])]
    return [*(size.get("rowtax") or []), *bound]


def miss(result: dict[str, Any]) -> Iterator[dict[str, Any]]:
    goal = "named query missing the cache vs pyoxigraph in process, hub parameters included"
    target = f"≤ {MISS}×"
    for label, size in _sizes(result, MISS_SIZES):
        if not size or not size.get("rowtax"):
            yield _not_run(goal, _label(result, label), target, "not run")
            continue
        lines = _misses(size)
        failed = [line["query"] for line in lines if "ratio" not in line]
        capped = [line["query"] for line in lines if "ratio" in line and _capped(line)]
        differ = [
            line["query"]
            for line in lines
            if "ratio" in line and len(set(line["rows"].values())) != 1 and not _capped(line)
        ]
        timed = [line for line in lines if "ratio" in line]
        if not timed:
            yield _not_run(goal, _label(result, label), target, "every query failed: " + ", ".join(failed))
            continue
        worst = max(timed, key=lambda line: line["ratio"])
        med = statistics.median(line["ratio"] for line in timed)
        met, missed = _at_most(worst["ratio"], MISS)
        notes: list[str] = []
        if failed:
            met, notes = False, [*notes, f"failed: {', '.join(failed)}"]
        if differ:
            met, notes = False, [*notes, f"rows differ: {', '.join(differ)}"]
        if capped:
            notes = [*notes, f"aikg's answer cut at its row limit (flagged truncated): {', '.join(capped)}"]
        over = sum(1 for line in timed if line["ratio"] > MISS)
        yield _row(
            goal,
            _label(result, label),
            f"pyoxigraph {worst['pyoxigraph_ms']:.1f} ms ({worst['query']}, the worst)",
            f"aikg {worst['http_ms']:.1f} ms; median ratio {med:.2f}× over {len(timed)} answers, "
            f"{over} over the target",
            worst["ratio"],
            target,
            met,
            "; ".join([m for m in (missed, *notes) if m]),
        )


def busy_503(result: dict[str, Any]) -> Iterator[dict[str, Any]]:
    """Beside the busy loops, named queries (hub included) aikg answers 503 that pyoxigraph answers
    within the limit, both at the normal priority in the size's busy phase."""
    goal = "beside busy loops: named queries answering 503 that pyoxigraph answers within the limit"
    target = "none"
    for label, size in _sizes(result):
        phase = (size or {}).get("busy")
        where = _busy_label(label, phase)
        if size is not None and phase is None:
            yield _not_run(goal, where, target, _no_busy(result))
            continue
        if not phase or not phase.get("rowtax"):
            yield _not_run(goal, where, target, "not run")
            continue
        lines = _misses(phase)
        within = [line for line in lines if line.get("pyoxigraph_ms", float("inf")) <= LIMIT_S * 1000]
        refused = [line["query"] for line in within if "HTTP 503" in line.get("errors", {}).get("http", "")]
        other = [line["query"] for line in lines if "http_ms" not in line and line["query"] not in refused]
        measured = f"{len(refused)} of {len(within)} answered 503"
        if refused:
            measured += f": {', '.join(refused)}"
        if other:
            measured += f"; failed otherwise or pyoxigraph past the limit too: {', '.join(other)}"
        yield _row(
            goal,
            where,
            f"pyoxigraph answered {len(within)} of {len(lines)} within {LIMIT_S:g} s",
            measured,
            None,
            target,
            not refused,
            f"{len(refused)} answered 503: {', '.join(refused)}",
        )


def cold_10m(result: dict[str, Any]) -> Iterator[dict[str, Any]]:
    goal, target = "every named query missing the cache, hub parameters included", f"≤ {COLD_10M_S:g} s"
    for label, size in _sizes(result, COLD_SIZES):
        if not size or not size.get("rowtax"):
            yield _not_run(goal, _label(result, label), target, "not run")
            continue
        lines = _misses(size)
        failed = [line["query"] for line in lines if "http_ms" not in line]
        timed = [line for line in lines if "http_ms" in line]
        if not timed:
            yield _not_run(goal, _label(result, label), target, "every query failed: " + ", ".join(failed))
            continue
        worst = max(timed, key=lambda line: line["http_ms"])
        met, missed = _at_most(worst["http_ms"] / 1000, COLD_10M_S, " s")
        if failed:
            met, missed = False, "; ".join(m for m in (missed, f"failed: {', '.join(failed)}") if m)
        over = sum(1 for line in timed if line["http_ms"] > COLD_10M_S * 1000)
        floor = worst.get("pyoxigraph_ms")
        yield _row(
            goal,
            _label(result, label),
            f"pyoxigraph {floor:,.1f} ms (same query)" if floor is not None else "pyoxigraph: –",
            f"aikg {worst['http_ms']:,.1f} ms ({worst['query']}, the slowest); {over} of {len(timed)} over",
            worst["http_ms"] / floor if floor else None,
            target,
            met,
            missed,
        )


def _bound_ms(side: dict[str, Any]) -> dict[str, float | None]:
    """Milliseconds of each node-bound answer (None: it failed), by query name and ``lookup``."""
    out: dict[str, float | None] = {line["query"]: line.get("http_ms") for line in side["queries"]}
    out["entity lookup"] = side["lookup"].get("http_ms")
    return out


def node_growth(result: dict[str, Any]) -> Iterator[dict[str, Any]]:
    """The small node's slowest-growing bound answer at 10M against 1M."""
    goal, target = "a query bound to one small node, 10M against 1M", f"≤ {NODE_GROWTH}×"
    run = dict(_sizes(result, ("1M", "10M")))
    before, after = run["1M"], run["10M"]
    small = [((s or {}).get("hubs") or {}).get("small") for s in (before, after)]
    if before is None or after is None or not small[0] or not small[1]:
        yield _not_run(goal, _label(result, "10M"), target, "not run (needs 1M and 10M)")
        return
    b, a = _bound_ms(small[0]), _bound_ms(small[1])
    ratios = {k: v / b[k] for k, v in a.items() if v is not None and b.get(k)}  # type: ignore[operator]
    failed = [k for k, v in a.items() if v is None]
    if not ratios:
        yield _not_run(goal, _label(result, "10M"), target, "no answer at both sizes")
        return
    worst = max(ratios, key=lambda k: ratios[k])
    met, missed = _at_most(ratios[worst], NODE_GROWTH)
    if failed:
        met, missed = False, "; ".join(m for m in (missed, f"failed at 10M: {', '.join(failed)}") if m)
    yield _row(
        goal,
        _label(result, "10M"),
        f"1M: {b[worst]:.1f} ms ({worst}, {small[0]['node']})",
        f"10M: {a[worst]:.1f} ms; median {statistics.median(ratios.values()):.2f}×",
        ratios[worst],
        target,
        met,
        missed,
    )


def load(result: dict[str, Any]) -> Iterator[dict[str, Any]]:
    target = f"≤ {LOAD}×"
    for label, size in _sizes(result, LOAD_SIZES):
        ld = (size or {}).get("load") or {}
        lo, la = ld.get("pyoxigraph"), ld.get("aikg")
        for what, key, unit in (("time", "seconds", " s"), ("peak memory", "peak_rss_mb", " MB")):
            goal = f"load {what} vs pyoxigraph bulk_load"
            if not lo or not la:
                yield _not_run(goal, _label(result, label), target, "not run")
                continue
            ratio = la[key] / lo[key] if lo[key] else None
            met, missed = _at_most(ratio, LOAD) if ratio is not None else (None, "")
            yield _row(
                goal,
                _label(result, label),
                f"pyoxigraph {lo[key]:.1f}{unit}",
                f"aikg {la[key]:.1f}{unit}",
                ratio,
                target,
                met,
                missed,
            )


def restart(result: dict[str, Any]) -> Iterator[dict[str, Any]]:
    goal, target = "the first answer after a restart", f"≤ {RESTART_S:g} s"
    for label, size in _sizes(result, RESTART_SIZES):
        a = (size or {}).get("peers", {}).get("aikg", {})
        c = a.get("cold_start")
        if not c or "search_ms" not in c or "named query_ms" not in c:
            yield _not_run(goal, _label(result, label), target, "not run")
            continue
        first = {k: c[f"{k}_ms"] for k in ("named query", "search")}
        worst = max(first, key=lambda k: first[k])
        seconds = first[worst] / 1000
        build = a.get("search_index_build_seconds")
        met, missed = _at_most(seconds, RESTART_S, " s")
        bad = [k for k in first if c.get(f"{k}_status") != 200]
        if bad:
            met, missed = False, "; ".join([m for m in (missed, f"not a 200: {', '.join(bad)}") if m])
        yield _row(
            goal,
            _label(result, label),
            f"first search after the first start {build:.2f} s" if build is not None else "–",
            f"{worst} {seconds:.2f} s (named query {first['named query']:.0f} ms, search "
            f"{first['search']:.0f} ms; start {max(c.get('startup_seconds') or [0]):.1f} s)",
            None,  # a target in seconds: the first start's search index build is context, not a limit
            target,
            met,
            missed,
        )


def small_write(result: dict[str, Any]) -> Iterator[dict[str, Any]]:
    goal, target = "a small gated write (5 triples, 201), p50", f"≤ {WRITE_MS:g} ms"
    for label, size in _sizes(result, WRITE_SIZES):
        a = (size or {}).get("peers", {}).get("aikg", {})
        w = a.get("small_writes")
        if not w:
            yield _not_run(goal, _label(result, label), target, a.get("after_mix_failed") or "not run")
            continue
        heavy = (a.get("ops") or {}).get("write 100 triples (SHACL gate)", {})
        met, missed = _at_most(w["p50_ms"], WRITE_MS, " ms")
        yield _row(
            goal,
            _label(result, label),
            f"the mix's 100-triple write p50 {heavy['p50_ms']:.1f} ms" if "p50_ms" in heavy else "–",
            f"p50 {w['p50_ms']:.1f} ms, max {w['max_ms']:.1f} ms over {w['writes']}",
            None,  # a target in milliseconds; the mix's larger write is context
            target,
            met,
            missed,
        )


def fair_share(result: dict[str, Any]) -> Iterator[dict[str, Any]]:
    """The worse of the depth-1 neighbourhood and the bad parameter's 400: p99 loaded over idle."""
    goal = "depth-1 neighbourhood and bad-parameter 400 under four clients loading hub neighbourhoods"
    target = f"p99 ≤ {FAIR:g}× idle"
    for label, size in _sizes(result):
        f = (size or {}).get("fair_share")
        ratios = {p: (f or {}).get("p99_ratio", {}).get(p) for p in FAIR_PROBES}
        if not f or None in ratios.values():
            why = (f or {}).get("failed") or "not run"
            yield _not_run(goal, _label(result, label), target, why)
            continue
        worst = max(ratios, key=lambda p: ratios[p])
        idle, loaded = f["idle"]["latency"], f["under_load"]["latency"]

        def p99(phase: dict[str, Any], probe: str) -> str:
            return f"{phase[probe]['p99_ms']:,.0f} ms"

        interval = (f.get("p99_ratio_interval_90") or {}).get(worst)
        spread = f" (90 % {interval[0]:g}–{interval[1]:g})" if interval else ""
        others = "; ".join(f"{p} {ratios[p]:g}×" for p in FAIR_PROBES if p != worst)
        met, missed = _at_most(ratios[worst], FAIR)
        yield _row(
            goal,
            _label(result, label),
            f"idle p99 {p99(idle, worst)} ({worst})",
            f"loaded p99 {p99(loaded, worst)}{spread}; {others}",
            ratios[worst],
            target,
            met,
            missed,
        )


GOALS = (
    new_connection,
    cached,
    miss,
    busy_503,
    cold_10m,
    node_growth,
    load,
    restart,
    small_write,
    fair_share,
)


def table(result: dict[str, Any]) -> list[dict[str, Any]]:
    """Every goal at each of its sizes, in the order of the issue."""
    return [row for goal in GOALS for row in goal(result)]


def markdown(rows: list[dict[str, Any]]) -> list[str]:
    """The goals table as Markdown lines."""
    lines = [
        "| goal | size | baseline | measured | ratio | target | met |",
        "|---|---|---|---|---:|---|---|",
    ]
    for r in rows:
        verdict = {True: "met", False: f"missed: {r['missed_by']}", None: "not run"}[r["met"]]
        if r["met"] is None and not r["measured"].startswith("not run"):
            verdict = "not measured"
        ratio = f"{r['ratio']:.2f}×" if r["ratio"] is not None else "–"
        lines.append(
            f"| {r['goal']} | {r['size']} | {r['baseline']} | {r['measured']} | {ratio} | {r['target']} | "
            f"{verdict} |"
        )
    return lines


def _capped(line: dict[str, Any]) -> bool:
    """aikg answered exactly its row limit (setting max_rows, 10,000 by default) where pyoxigraph
    answered more: the same rows up to the cap, flagged truncated, not a disagreement."""
    rows, cap = line["rows"], line.get("max_rows", 10_000)
    aikg = {v for k, v in rows.items() if k != "pyoxigraph"}
    return aikg == {cap} and rows.get("pyoxigraph", 0) > cap
