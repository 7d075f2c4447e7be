"""The written types hold and the lint rules are kept: mypy --strict over the package and ruff over the
code and the tests, as configured in pyproject.toml, both report nothing."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    # Without PYTHONPATH: mypy takes the directories on it for installed packages and does not report
    # their errors, so a PYTHONPATH=service run would pass over aikg_bench, which aikg imports.
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    return subprocess.run(
        [sys.executable, "-m", *args], cwd=ROOT, env=env, capture_output=True, text=True, timeout=280
    )


def test_mypy_strict_reports_no_error():
    # files, strictness and the untyped third-party modules come from [tool.mypy]; the cache is
    # .mypy_cache/ at the top of the checkout (ignored by git), so later runs only check what changed
    done = _run("mypy", "--config-file", str(ROOT / "pyproject.toml"))
    assert done.returncode == 0, done.stdout + done.stderr


def test_ruff_check_is_clean():
    done = _run("ruff", "check", "service", "tests")
    assert done.returncode == 0, done.stdout + done.stderr


def test_ruff_format_is_kept():
    done = _run("ruff", "format", "--check", "service", "tests")
    assert done.returncode == 0, done.stdout + done.stderr


def _collect(*args: str) -> subprocess.CompletedProcess[str]:
    """``pytest --collect-only`` of ``args`` on a machine without Virtuoso (only Python on the PATH)."""
    env = {**os.environ, "PATH": str(Path(sys.executable).parent)}
    env.pop("PYTHONPATH", None)
    return subprocess.run(
        [sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_the_system_tool_check_counts_only_the_selected_tests():
    """The embedded-store half of a file runs without Virtuoso installed; the whole file names it."""
    half = _collect("tests/test_upstream.py", "-k", "oxigraph")
    assert half.returncode == 0, half.stdout + half.stderr
    whole = _collect("tests/test_upstream.py")
    assert whole.returncode != 0
    assert "virtuoso-t (Debian package virtuoso-opensource): 4 test(s)" in whole.stdout + whole.stderr
