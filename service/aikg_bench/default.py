"""The default store as benchmark data: the ontology, shapes, seeds and Epoch AI snapshot, as N-Quads.

Built the way a user's first ``aikg serve`` builds it (seeds, then the Epoch import through the gate), in
child processes with aikg's own CLI, then dumped: every peer loads the same file, as for generated sizes.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

from aikg.resources import seeds_dir

LABEL = "default"
"""The size label that asks for the default store instead of generated data."""


def build(path: Path, work: Path) -> int:
    """Write the default store's quads to ``path``; their number."""
    store = work / "default-build"
    shutil.rmtree(store, ignore_errors=True)
    aikg = [sys.executable, "-m", "aikg"]
    imported = subprocess.run(
        [*aikg, "import", "epoch", str(seeds_dir() / "epoch"), "--store", str(store)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    # 1 says some rows were left out (the snapshot has a few that the shapes refuse, as on a first start)
    if imported.returncode not in (0, 1) or "left out" not in imported.stderr and imported.returncode:
        raise RuntimeError(f"aikg import epoch failed: {imported.stderr[-500:]}")
    with path.open("wb") as out:
        subprocess.run([*aikg, "dump", "--store", str(store)], check=True, stdout=out)
    shutil.rmtree(store, ignore_errors=True)
    with path.open("rb") as fh:
        return sum(1 for line in fh if line.strip() and not line.startswith(b"#"))
