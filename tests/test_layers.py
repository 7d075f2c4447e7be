"""The package's layers, as import-linter contracts in pyproject.toml ([tool.importlinter]): each layer
imports only the layers below it, and the two storage backends know nothing of each other. A new upward
import fails here, with the chain that breaks the rule."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
LINT = Path(sys.executable).with_name("lint-imports")


def _lint(package_parent: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(package_parent)}
    return subprocess.run(
        [str(LINT), "--no-cache", str(ROOT / "pyproject.toml")],
        cwd=package_parent,
        env=env,
        capture_output=True,
        text=True,
        timeout=240,
    )


def test_every_layer_imports_only_the_layers_below_it() -> None:
    done = _lint(ROOT / "service")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "Contracts: 2 kept, 0 broken." in done.stdout


def test_an_upward_import_breaks_the_contract(tmp_path) -> None:
    shutil.copytree(
        ROOT / "service" / "aikg", tmp_path / "aikg", ignore=shutil.ignore_patterns("node_modules", "data")
    )
    base = tmp_path / "aikg" / "store" / "base.py"
    base.write_text(base.read_text() + "\nfrom aikg.web import create_app  # an upward import\n")
    done = _lint(tmp_path)
    assert done.returncode != 0
    assert "aikg.store is not allowed to import aikg.web" in done.stdout


def test_the_manual_draws_the_layers_the_contract_enforces() -> None:
    import tomllib

    contract = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]["contracts"][0]
    drawing = (ROOT / "service" / "aikg" / "docs" / "architecture.md").read_text().split("```\n")[1]
    lines = drawing.splitlines()

    def line_of(module: str) -> int:
        name = module.removeprefix("aikg.")
        shown = (f" {name}/", f" {name}.py")
        return next(i for i, line in enumerate(lines) if any(s in f" {line} " for s in shown))

    rows = [[line_of(m.strip()) for m in layer.split("|")] for layer in contract["layers"]]
    assert [min(r) for r in rows] == sorted(min(r) for r in rows)  # drawn top-down in the contract's order
