"""The results as JSON (everything) and Markdown: the goals table, then per size what a reader compares.

``python -m aikg_bench.report RESULTS_JSON [PAGE]`` prints the Markdown again from a saved run, or, given
the manual's performance page (``service/aikg/docs/performance.md``), replaces its section between the
``bench:begin`` and ``bench:end`` markers with it.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from aikg_bench import answers, goals

BEGIN, END = "<!-- bench:begin -->", "<!-- bench:end -->"
"""The performance page's markers around the section ``aikg bench`` regenerates."""

_HTTP_PEERS = ("flask-hello", "flask-hello-threads", "rdflib-endpoint", "virtuoso")


def _ops(result: dict[str, Any], peer: str) -> dict[str, Any] | None:
    p = result.get("peers", {}).get(peer, {})
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


def _peaks(load: dict[str, Any]) -> str:
    """Which part of aikg's load held the memory (runs before this field existed have none)."""
    if not load.get("load_peak_mb"):
        return ""
    return f" (bulk {load['load_peak_mb']:.0f} MB, derived graphs {load['derive_peak_mb']:.0f} MB)"


def _busy_option(options: dict[str, Any]) -> str:
    return f" --busy {options['busy']}" if options.get("busy") else ""


def _goal_options(options: dict[str, Any]) -> str:
    """The fair share's seconds and the small writes, when the run chose them (runs before have none),
    and the peers and answer files when not the default ones: the command as it was run."""
    from aikg_bench.run import PEERS  # the default peers (run imports this module)

    chosen = "".join(f" --{k} {options[k]:g}" for k in ("fair", "writes") if k in options)
    if options.get("peers") and tuple(options["peers"]) != PEERS:
        chosen += f" --peers {','.join(options['peers'])}"
    if options.get("answers", "heldout") != "heldout":
        chosen += f" --answers {options['answers']}"
    if options.get("skip"):
        chosen += f" --skip {','.join(options['skip'])}"
    return chosen


def _load_line(result: dict[str, Any]) -> str:
    """The machine's load average (1, 5, 15 minutes) as the run began and after its last size: what
    else shared the cores (runs before this field existed say nothing)."""
    began, ended = result["machine"].get("load_average"), result.get("load_average")
    if not began or not ended:
        return ""
    return (
        f" Load average (1/5/15 min) {'/'.join(f'{x:.1f}' for x in began)} as it began, "
        f"{'/'.join(f'{x:.1f}' for x in ended)} after its last size."
    )


def _busy_line(result: dict[str, Any]) -> str:
    """What ran beside the busy phase (runs without one say nothing)."""
    per_core = result["options"].get("busy")
    if not per_core:
        return ""
    loops = next((s["busy"]["loops"] for s in result["sizes"] if s.get("busy", {}).get("loops")), None)
    count = f" ({loops} on {result['machine']['nproc']} cores)" if loops else ""
    return (
        f" Each size is measured on the quiet machine, then in a busy phase beside {per_core} busy loops "
        f"per core{count} at the normal priority in the bench's own session, as the service's."
    )


def _busy_phase(size: dict[str, Any]) -> list[str]:
    """The busy phase of one size: lookups and cached named queries under wrk against the bare apps,
    and the named queries aikg answered 503 beside the loops."""
    phase = size.get("busy")
    if not phase:
        return []
    began, ended = phase.get("load_average_began"), phase.get("load_average")
    load = f"; load average {began[0]:.1f} as it began, {ended[0]:.1f} at its end" if began and ended else ""
    ceilings = [p for p in ("flask-hello", "flask-hello-threads") if p in phase["peers"]]
    out = [
        f"Busy phase, beside {phase['loops']} busy loops{load}: wrk on aikg and the bare apps, each "
        "started beside the loops (req/s; aikg × the bare app):",
        "",
        "| operation | aikg req/s | aikg p99 ms | "
        + " | ".join(f"{p} req/s (aikg ×)" for p in ceilings)
        + " |",
        "|---|---:|---:|" + "---:|" * len(ceilings),
    ]
    mine = phase["peers"].get("aikg", {}).get("ops") or {}
    for op, r in mine.items():
        head = f"{r['rps']:,.0f} | {r['p99_ms']:,.1f}" if "rps" in r else "error | "
        cells = " | ".join(_cell(phase["peers"][p].get("ops"), op, r) for p in ceilings)
        out.append(f"| {op} | {head} | {cells} |")
    lines = [*(phase.get("rowtax") or []), *((phase.get("hubs") or {}).get("hub") or {}).get("queries", [])]
    if lines:
        refused = [line["query"] for line in lines if "HTTP 503" in line.get("errors", {}).get("http", "")]
        out += [
            "",
            f"Beside the loops, {len(lines)} named query answers missing the cache through aikg's app (the "
            f"benchmark's parameters, then bound to the hub): {len(refused)} answered 503"
            + (f" ({', '.join(refused)})" if refused else "")
            + "; the slowest through aikg "
            + ", ".join(
                f"{line['query']} {line['http_ms']:,.0f} ms (pyoxigraph {_ms(line, 'pyoxigraph_ms')})"
                for line in sorted(
                    (line for line in lines if "http_ms" in line), key=lambda line: -line["http_ms"]
                )[:3]
            )
            + ".",
        ]
    return [*out, ""]


def markdown(result: dict[str, Any]) -> str:
    """The goals table, then one table per size: aikg's p50 / p99 / throughput / cold latency, peers'
    throughput and ratios."""
    m = result["machine"]
    o = result["options"]
    lines = [
        f"# aikg bench — {m['date']}",
        "",
        f"Machine: {m['nproc']} cores, {m['cpu']}; Python {m['python']}, pyoxigraph {m['pyoxigraph']}. "
        f"wrk, {o['connections']} connections, {o['seconds']:g} s per "
        "operation (writes: 1 connection). Other work may share the machine: compare ratios, not "
        f"absolute figures. Command: `aikg bench --sizes {','.join(o['sizes'])} --seconds {o['seconds']:g} "
        f"--reps {o.get('reps', 5)}{_busy_option(o)}{_goal_options(o)}`.{_busy_line(result)}"
        f"{_load_line(result)}",
        "",
        "## Goals (issue 49), each against its baseline in this run",
        "",
        *goals.markdown(goals.table(result)),  # from the figures, by the goals as they now stand
        "",
        "Misses are medians of the repetitions through aikg's app with its response cache cleared, beside "
        "pyoxigraph in process on the same store and text, with the benchmark's parameters and bound to the "
        "hub; cached answers are wrk against the better of the two bare-Flask ceilings on the same operation "
        "and body sizes; a new connection is one client asking a cached entity on a fresh TCP connection "
        "each time, against the bare app answering as many bytes (both up, in alternating rounds); the first "
        "answer after a restart restarts "
        "`aikg serve` on the same store; small writes are 5-triple `POST /data` after the mix; the fair "
        "share probes the hub's depth-1 neighbourhood and a bad parameter's 400 idle and under four clients "
        "loading NVIDIA's depth-4 neighbourhoods and GraphML exports (p99 loaded / idle).",
        "",
    ]
    for size in result["sizes"]:
        lines += [_size_title(size), "", *_unfinished(size)]
        ld = size.get("load")
        if not ld:
            continue  # stopped before its load ended: nothing else was measured
        lines.append(
            f"Load: pyoxigraph bulk_load {ld['pyoxigraph']['seconds']:.1f} s, "
            f"{ld['pyoxigraph']['peak_rss_mb']:.0f} MB peak; aikg {ld['aikg']['seconds']:.1f} s "
            f"(bulk {ld['aikg']['load_seconds']:.1f} s + derived graphs "
            f"{ld['aikg']['derive_seconds']:.1f} s), "
            f"{ld['aikg']['peak_rss_mb']:.0f} MB peak{_peaks(ld['aikg'])}; ratio {ld['ratio']:.2f}×."
        )
        a = size.get("peers", {}).get("aikg", {})
        if "search_index_build_seconds" in a:
            lines.append(
                f"aikg search index build: {a['search_index_build_seconds']:.2f} s; "
                f"aikg server peak RSS after the mix: {a.get('peak_rss_mb') or 0:.0f} MB."
            )
        for peer in ("virtuoso", "rdflib-endpoint"):
            p = size.get("peers", {}).get(peer, {})
            if p.get("load_seconds") is not None:
                lines.append(f"{peer} load: {p['load_seconds']:.1f} s.")
        skipped = [
            f"{k}: {v.get('skipped') or v.get('failed')}"
            for k, v in size.get("peers", {}).items()
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
        for op in [o["name"] for o in size.get("operations", [])]:
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
        lines += ["", *_rowtax(size), *_hubs(size), *_busy_phase(size)]
        if size.get("answers"):
            lines += ["", *answers.markdown(size["answers"])]
    return "\n".join(lines)


def _size_title(size: dict[str, Any]) -> str:
    gen = size.get("generate")
    if not gen:
        return f"## {size['size']} (not generated)"
    what = "generated)" if gen.get("replicas") else "of the seeds and the Epoch AI snapshot)"
    return f"## {size['size']} ({gen['quads']:,} quads {what}"


def _unfinished(size: dict[str, Any]) -> list[str]:
    """For a size the run did not finish (stopped, or still running as its results were written): the
    phases that ended, whose figures are kept, and that the rest did not run; nothing for a finished
    size (or a run saved before phases were recorded)."""
    if size.get("complete", True):
        return []
    ended = ", ".join(size.get("ended") or []) or "none"
    return [
        f"**Not finished** (the run stopped in this size, or was still running when this was written): "
        f"the phases that ended are kept ({ended}); those after them did not run, and a goal at this "
        "size without its figures says not run.",
        "",
    ]


def _ms(line: dict[str, Any], key: str) -> str:
    return f"{line[key]:,.1f}" if key in line else "error"


def _rowtax(size: dict[str, Any]) -> list[str]:
    lines = size.get("rowtax")
    if not lines:
        return []
    out = [
        "Named queries missing the cache (median ms; rows of pyoxigraph / aikg):",
        "",
        "| named query | rows | pyoxigraph ms | aikg runner ms | aikg HTTP ms | ratio |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    for line in lines:
        rows = "/".join(str(line["rows"].get(k, "–")) for k in ("pyoxigraph", "http"))
        ratio = f"{line['ratio']:.2f}×" if "ratio" in line else line.get("error", "")[:80]
        out.append(
            f"| {line['query']} | {rows} | {_ms(line, 'pyoxigraph_ms')} | {_ms(line, 'runner_ms')} | "
            f"{_ms(line, 'http_ms')} | {ratio} |"
        )
    return [*out, ""]


def _hubs(size: dict[str, Any]) -> list[str]:
    h = size.get("hubs") or {}
    if "hub" not in h or "small" not in h:
        return []
    hub, small = h["hub"], h["small"]
    out = [
        f"Node-bound answers missing the cache, hub `{hub['node']}` and small node `{small['node']}` "
        "(median ms through aikg; pyoxigraph in process in brackets):",
        "",
        f"| answer | {hub['node']} ms | rows | {small['node']} ms | rows |",
        "|---|---:|---:|---:|---:|",
    ]
    for a, b in zip(hub["queries"], small["queries"], strict=True):
        cells = []
        for line in (a, b):
            floor = f" ({line['pyoxigraph_ms']:,.1f})" if "pyoxigraph_ms" in line else ""
            shown = _ms(line, "http_ms") + floor if "error" not in line else line["error"][:60]
            cells += [shown, str(line["rows"].get("http", "–"))]
        out.append(f"| {a['query']} | {' | '.join(cells)} |")
    out.append(f"| entity lookup | {_ms(hub['lookup'], 'http_ms')} | | {_ms(small['lookup'], 'http_ms')} | |")
    return [*out, ""]


def write(result: dict[str, Any], out: Path) -> tuple[Path, Path]:
    """Save ``results.json`` and ``results.md`` under ``out``."""
    out.mkdir(parents=True, exist_ok=True)
    for size in result["sizes"]:
        size["ratios"] = ratios(size) if "peers" in size else {}
    result["goals"] = goals.table(result)
    j, md = out / "results.json", out / "results.md"
    j.write_text(json.dumps(result, indent=2, ensure_ascii=False))
    md.write_text(markdown(result))
    return j, md


def readme(section: str, text: str) -> str:
    """``text`` (the performance page) with its bench section replaced by ``section``."""
    head, begin, rest = text.partition(BEGIN)
    _, end, tail = rest.partition(END)
    if not begin or not end:
        raise ValueError(f"the page has no {BEGIN} … {END} section")
    return f"{head}{BEGIN}\n{section.strip()}\n{END}{tail}"


def main(argv: list[str]) -> None:
    result = json.loads(Path(argv[0]).read_text())
    section = markdown(result).split("\n", 2)[2]  # without the page title: the page has its own
    section = section.replace("\n## ", "\n### ")  # under the page's "## Results"
    if len(argv) > 1:
        path = Path(argv[1])
        path.write_text(readme(section, path.read_text()))
    else:
        print(section)


if __name__ == "__main__":
    main(sys.argv[1:])
