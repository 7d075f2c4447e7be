"""``aikg bench``: synthetic data at several sizes, load times, and one HTTP mix on aikg and its peers."""

from __future__ import annotations

from pathlib import Path

import click


@click.command()
@click.option(
    "--sizes",
    default="default,10k,100k",
    show_default=True,
    help="Comma-separated sizes: 'default' (the seeds and Epoch AI snapshot, as a first start builds "
    "them) or generated graphs in triples (10k, 100k, 1M, or a number).",
)
@click.option(
    "--out",
    default="bench-results",
    show_default=True,
    type=click.Path(path_type=Path),
    help="Directory for results.json and results.md.",
)
@click.option(
    "--peers",
    default="aikg,flask-hello,flask-hello-threads,rdflib-endpoint,virtuoso,pyoxigraph",
    show_default=True,
    help="Servers to measure; those not installed are reported as skipped.",
)
@click.option("--seconds", default=3.0, show_default=True, help="wrk duration per operation and server.")
@click.option("--connections", default=8, show_default=True, help="wrk connections (reads).")
@click.option("--seed", default=42, show_default=True, help="Seed of the data and the request variants.")
@click.option(
    "--rdflib-max",
    default="10k",
    show_default=True,
    help="Largest size rdflib-endpoint is run at (it loads slowly into memory).",
)
@click.option(
    "--ops",
    default=None,
    help="Only these operation groups: lookup,search,named,join,aggregate,export,write.",
)
@click.option(
    "--reps",
    default=5,
    show_default=True,
    help="Repetitions of each in-process timing (named queries missing the cache, hub and small node).",
)
@click.option(
    "--goals/--no-goals",
    default=True,
    show_default=True,
    help="Measure the goals table's figures beyond the mix (misses against pyoxigraph, hub and small "
    "node, new connections, small writes, the fair share, cold start).",
)
@click.option(
    "--busy",
    default=0,
    show_default=True,
    help="Busy loops per core (python 'while True: pass', at the normal priority, in the bench's own "
    "session as other work in one container is) in a busy phase after each size's quiet one: lookups, "
    "cached named queries and named queries missing the cache measured again beside them, so one run "
    "gives the quiet and the busy goals; 4 for the goals' figures, 0 for none.",
)
@click.option(
    "--answers",
    default="heldout",
    show_default=True,
    type=click.Choice(["heldout", "all", "none"]),
    help="Answer accuracy on the default store (issue 44): the held-out evaluation parts "
    "(tests/data/ask_answers_heldout_*.jsonl), every part with the development one, or none.",
)
@click.option(
    "--fair",
    default=40.0,
    show_default=True,
    help="Seconds of the fair share at each size: the hub's depth-1 neighbourhood and a bad parameter's "
    "400 probed idle this long and as long under four clients loading hub neighbourhoods; 0 skips it.",
)
@click.option(
    "--writes",
    default=20,
    show_default=True,
    help="Small gated writes (5 triples, POST /data) timed on aikg after the mix; 0 skips them.",
)
@click.option(
    "--skip",
    default="",
    help="Goal phases left out, comma-separated: misses (named queries missing the cache in process, "
    "quiet and busy), restart (the first answers after a restart); to measure other goals again quickly.",
)
@click.option(
    "--work",
    default=None,
    type=click.Path(path_type=Path),
    help="Keep the generated data and stores here (default: a temporary directory, removed).",
)
def bench(
    sizes: str,
    out: Path,
    peers: str,
    seconds: float,
    connections: int,
    seed: int,
    rdflib_max: str,
    ops: str | None,
    reps: int,
    goals: bool,
    busy: int,
    answers: str,
    fair: float,
    writes: int,
    skip: str,
    work: Path | None,
) -> None:
    """Benchmark aikg against rdflib-endpoint, Virtuoso, a bare Flask app and in-process pyoxigraph, and
    report each of issue 49's goals as a ratio against its baseline measured in the same run."""
    from aikg_bench.generate import parse_size
    from aikg_bench.report import write
    from aikg_bench.run import PEERS, SKIPPABLE, Options, run

    chosen = tuple(p.strip() for p in peers.split(",") if p.strip())
    unknown = set(chosen) - set(PEERS)
    if unknown:
        raise click.UsageError(f"unknown peer(s): {', '.join(sorted(unknown))} (known: {', '.join(PEERS)})")
    skipped = frozenset(p.strip() for p in skip.split(",") if p.strip())
    if skipped - set(SKIPPABLE):
        raise click.UsageError(f"unknown phase(s) to skip: {', '.join(sorted(skipped - set(SKIPPABLE)))}")
    opts = Options(
        sizes=[s.strip() for s in sizes.split(",") if s.strip()],
        out=out,
        peers=chosen,
        seconds=seconds,
        connections=connections,
        seed=seed,
        rdflib_max=parse_size(rdflib_max),
        work=work,
        log=lambda line: click.echo(line, err=True),
        ops={o.strip() for o in ops.split(",")} if ops else None,
        reps=reps,
        goals=goals,
        busy=busy,
        answers=answers,
        fair=fair,
        writes=writes,
        skip=skipped,
    )
    j, md = write(run(opts), out)
    click.echo(md.read_text())
    click.echo(f"results: {j} and {md}", err=True)


COMMANDS = [bench]
