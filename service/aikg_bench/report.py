"""The results as JSON (everything) and a short Markdown table (what a reader compares)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

_HTTP_PEERS = ("flask-hello", "flask-hello-threads", "rdflib-endpoint", "virtuoso")


def _ops(result: dict[str, Any], peer: str) -> dict[str, Any] | None:
    p = result["peers"].get(peer, {})
    ops: dict[str, Any] | None = p.get("ops")
    return ops


def ratios(size: dict[str, Any]) -> dict[str, Any]:
    """aikg / peer for throughput (higher is better for aikg) and p50 (lower is better), per operation."""
    mine = _ops(size, "aikg") or {}
    out: dict[str, Any] = {}
    for peer in (*_HTTP_PEERS, "pyoxigraph"):
        theirs = _ops(size, peer)
        if theirs is None:
            continue
        for op, r in mine.items():
            t = theirs.get(op)
            if not t or "rps" not in r or "rps" not in t or not t["rps"] or not t["p50_ms"]:
                continue
            out.setdefault(op, {})[peer] = {
                "throughput": r["rps"] / t["rps"],
                "p50": r["p50_ms"] / t["p50_ms"],
            }
    return out


def _cell(ops: dict[str, Any] | None, op: str, mine: dict[str, Any] | None) -> str:
    if ops is None:
        return "–"
    r = ops.get(op)
    if not r:
        return "–"
    if "error" in r:
        return "error"
    text = f"{r['rps']:,.0f}"
    if mine and "rps" in mine and r["rps"]:
        text += f" ({mine['rps'] / r['rps']:.2g}×)"
    return text


def markdown(result: dict[str, Any]) -> str:
    """One table per size: aikg's p50 / p99 / throughput / cold latency, peers' throughput and ratios."""
    m = result["machine"]
    lines = [
        f"# aikg bench — {m['date']}",
        "",
        f"Machine: {m['nproc']} cores, {m['cpu']}; Python {m['python']}, pyoxigraph {m['pyoxigraph']}. "
        f"wrk, {result['options']['connections']} connections, {result['options']['seconds']:g} s per "
        "operation (writes: 1 connection). Other work may share the machine: compare ratios, not "
        "absolute figures.",
        "",
    ]
    for size in result["sizes"]:
        ld = size["load"]
        lines += [
            f"## {size['size']} ({size['generate']['quads']:,} quads generated)",
            "",
            f"Load: pyoxigraph bulk_load {ld['pyoxigraph']['seconds']:.1f} s, "
            f"{ld['pyoxigraph']['peak_rss_mb']:.0f} MB peak; aikg {ld['aikg']['seconds']:.1f} s "
            f"(bulk {ld['aikg']['load_seconds']:.1f} s + derived graphs "
            f"{ld['aikg']['derive_seconds']:.1f} s), "
            f"{ld['aikg']['peak_rss_mb']:.0f} MB peak; ratio {ld['ratio']:.2f}×.",
        ]
        a = size["peers"].get("aikg", {})
        if "search_index_build_seconds" in a:
            lines.append(
                f"aikg search index build: {a['search_index_build_seconds']:.2f} s; "
                f"aikg server peak RSS after the mix: {a.get('peak_rss_mb') or 0:.0f} MB."
            )
        for peer in ("virtuoso", "rdflib-endpoint"):
            p = size["peers"].get(peer, {})
            if p.get("load_seconds") is not None:
                lines.append(f"{peer} load: {p['load_seconds']:.1f} s.")
        skipped = [
            f"{k}: {v.get('skipped') or v.get('failed')}"
            for k, v in size["peers"].items()
            if "skipped" in v or "failed" in v
        ]
        if skipped:
            lines.append("Not measured: " + "; ".join(skipped) + ".")
        lines += [
            "",
            "| operation | aikg p50 ms | aikg p99 ms | aikg req/s | aikg cold ms | "
            + " | ".join(f"{p} req/s (aikg ×)" for p in _HTTP_PEERS)
            + " | pyoxigraph in-process p50 ms |",
            "|---|---:|---:|---:|---:|" + "---:|" * len(_HTTP_PEERS) + "---:|",
        ]
        mine = _ops(size, "aikg") or {}
        floor = _ops(size, "pyoxigraph") or {}
        for op in [o["name"] for o in size["operations"]]:
            r = mine.get(op, {})
            if "rps" in r:
                head = f"{r['p50_ms']:.2f} | {r['p99_ms']:.2f} | {r['rps']:,.0f} | {r['cold_ms']:.1f}"
            else:
                head = "error | | |" if "error" in r else "– | – | – | –"
            peers_cells = " | ".join(_cell(_ops(size, p), op, r) for p in _HTTP_PEERS)
            f = floor.get(op)
            lines.append(
                f"| {op} | {head} | {peers_cells} | {f['p50_ms']:.2f} |"
                if f
                else f"| {op} | {head} | {peers_cells} | – |"
            )
        lines.append("")
    return "\n".join(lines)


def write(result: dict[str, Any], out: Path) -> tuple[Path, Path]:
    """Save ``results.json`` and ``results.md`` under ``out``."""
    out.mkdir(parents=True, exist_ok=True)
    for size in result["sizes"]:
        size["ratios"] = ratios(size)
    j, md = out / "results.json", out / "results.md"
    j.write_text(json.dumps(result, indent=2, ensure_ascii=False))
    md.write_text(markdown(result))
    return j, md
