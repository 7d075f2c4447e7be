"""The first answers after restarts of ``aikg serve`` on one store, as ``aikg bench`` measures its cold
start (:func:`aikg_bench.run.cold_start`), repeated: a named query bound to a small node and an entity
lookup after one restart, a search after another.

    python -m aikg_bench.cold STORE_DIR [--runs 3] [--generated]

STORE_DIR is served as it is (stop any server on it first); ``--generated`` for a store of
``aikg_bench.generate`` (numbered slugs), not the default store. Prints one JSON line per run.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from aikg_bench.generate import build_template
from aikg_bench.run import cold_start


def _rounded(value: object) -> object:
    if isinstance(value, list):
        return [_rounded(v) for v in value]
    return round(value, 3) if isinstance(value, float) else value


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("store", type=Path)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--generated", action="store_true", help="a generated store (numbered slugs)")
    args = parser.parse_args()
    template = build_template()
    for _ in range(args.runs):
        out = cold_start(args.store, template, 1 if args.generated else 0)
        print(json.dumps({k: _rounded(v) for k, v in out.items()}), flush=True)


if __name__ == "__main__":
    main()
