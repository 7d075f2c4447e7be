"""The writer's resident memory over many gated writes, in process, with and without emptying its caches.

The soak's writes in the order a soak client sends them (INSERT DATA, DELETE DATA, a graph PUT, POST and
DELETE), each through the SHACL gate and followed by a snapshot, as the writer process publishes one
after every write. With ``--allowance MB`` the store is reopened when it has gained that much since the
start or the last reopen, as the writer does past ``writer_memory`` (:meth:`aikg.store.Store.release_caches`).

    python -m aikg_bench.writer_memory STORE_DIR [--writes 2000] [--allowance 32]

STORE_DIR is copied first. Prints the resident memory every 100 writes, and the reopens.
"""

from __future__ import annotations

import argparse
import shutil
import tempfile
import time
from pathlib import Path

import pyoxigraph as ox

from aikg.services import build_services
from aikg.serving.arenas import give_back
from aikg.serving.writer import resident_mb
from aikg.settings import load_settings
from aikg_bench.soak import SOAK_GRAPH, _cloud


def _quads(turtle: str, graph: str) -> list[ox.Quad]:
    target = ox.NamedNode(graph)
    return [
        ox.Quad(t.subject, t.predicate, t.object, target)
        for t in ox.parse(turtle.encode(), format=ox.RdfFormat.TURTLE)
    ]


def main(path: str, writes: int, allowance: int) -> None:
    """Run ``writes`` gated writes on a copy of the store at ``path``; print memory as it goes."""
    with tempfile.TemporaryDirectory() as work:
        copy = Path(work) / "store"
        shutil.copytree(path, copy)
        settings = load_settings({"store": str(copy), "load_seeds": False, "import_epoch": False})
        services = build_services(settings)
        gate, store = services.gate, services.store
        start, began = resident_mb() or 0.0, time.perf_counter()
        print(f"start: {start:.0f} MB resident")
        for i in range(writes):
            client, n, step = i % 8, i // 40, (i // 8) % 5
            graph, gsp = f"{SOAK_GRAPH}c{client}", f"{SOAK_GRAPH}c{client}-gsp"
            if step == 0:
                gate.update(f"INSERT DATA {{ GRAPH <{graph}> {{ {_cloud(client, n)} }} }}")
            elif step == 1:
                gate.update(f"DELETE DATA {{ GRAPH <{graph}> {{ {_cloud(client, n)} }} }}")
            elif step == 2:
                two = _cloud(client, 1000 + n) + "\n" + _cloud(client, 2000 + n)
                gate.put(gsp, _quads(two, gsp), replace=True)
            elif step == 3:
                gate.put(gsp, _quads(_cloud(client, 3000 + n), gsp), replace=False)
            else:
                gate.drop(gsp)
            store.snapshot()
            now = resident_mb() or 0.0
            if allowance and now - start >= allowance:
                store.release_caches()
                give_back()
                start = resident_mb() or now  # the writer counts from its last reopen
                print(f"  write {i + 1}: reopened the store, {now:.0f} -> {start:.0f} MB")
            if (i + 1) % 100 == 0:
                print(f"{i + 1} writes, {time.perf_counter() - began:.0f} s: {now:.0f} MB resident")
        services.close()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("store")
    parser.add_argument("--writes", type=int, default=2000)
    parser.add_argument("--allowance", type=int, default=0, help="MB gained before a reopen (0: never)")
    args = parser.parse_args()
    main(args.store, args.writes, args.allowance)
