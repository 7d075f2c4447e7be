"""A real package: a built wheel carries the ontology, shapes, rules, seeds and queries, and an install
from it serves them from anywhere; a missing data folder fails loudly instead of loading nothing."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DATA = ("ontology", "seeds", "queries")


def shipped_files() -> set[str]:
    """Every data file of the checkout, as its path inside the package."""
    return {
        f"aikg/data/{p.relative_to(ROOT).as_posix()}"
        for folder in DATA
        for p in (ROOT / folder).rglob("*")
        if p.is_file()
    }


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("wheel")
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(out), str(ROOT)],
        check=True,
        timeout=300,
    )
    (found,) = out.glob("aikg-*.whl")
    return found


@pytest.fixture(scope="module")
def installed(wheel, tmp_path_factory) -> Path:
    site = tmp_path_factory.mktemp("site")
    subprocess.run(
        [sys.executable, "-m", "pip", "install", "--no-deps", "-q", "--target", str(site), str(wheel)],
        check=True,
        timeout=300,
    )
    return site


def run_outside(site: Path, code: str, tmp_path: Path) -> subprocess.CompletedProcess:
    """Run Python from a folder outside the checkout, importing aikg from ``site`` only."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("AIKG_")}
    env["PYTHONPATH"] = str(site)
    return subprocess.run(
        [sys.executable, "-I", "-c", f"import sys; sys.path.insert(0, {str(site)!r})\n" + code],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_the_wheel_holds_every_data_file_and_not_the_tests(wheel):
    names = set(zipfile.ZipFile(wheel).namelist())
    assert shipped_files() <= names
    assert not any(n.startswith("tests/") for n in names)
    metadata = next(n for n in names if n.endswith("METADATA"))
    requires = zipfile.ZipFile(wheel).read(metadata).decode()
    runtime = [
        line for line in requires.splitlines() if line.startswith("Requires-Dist:") and "extra ==" not in line
    ]
    assert not any("pytest" in line for line in runtime)  # pytest is a test extra, not a runtime need


def test_an_installed_wheel_serves_the_seeds_from_outside_the_checkout(installed, tmp_path):
    code = """
import aikg, json
from aikg.knowledge.load import load_seeds
from aikg.services import build_services
from aikg.settings import load_settings
services = build_services(load_settings({"store": "memory"}))
counts = load_seeds(services.store)
result = services.named.run("nvidia-only-capacity", {})
holder = result.variables.index("holder")
print(json.dumps({"file": aikg.__file__, "graphs": len(counts), "queries": len(services.named.all()),
                  "coreweave": any(r[holder].value.endswith("/coreweave") for r in result.rows)}))
"""
    done = run_outside(installed, code, tmp_path)
    assert done.returncode == 0, done.stderr[-2000:]
    import json

    got = json.loads(done.stdout.strip().splitlines()[-1])
    assert got["file"].startswith(str(installed))  # not the checkout's copy
    assert got["queries"] == len(list((ROOT / "queries").glob("*.rq")))
    assert got["graphs"] > 5 and got["coreweave"] is True


def test_a_missing_data_folder_fails_loudly(installed, tmp_path):
    broken = tmp_path / "broken"
    shutil.copytree(installed, broken)
    shutil.rmtree(broken / "aikg" / "data" / "queries")
    done = run_outside(broken, "from aikg.resources import data_root\ndata_root()", tmp_path)
    assert done.returncode != 0
    assert "no queries data folder" in done.stderr and "reinstall" in done.stderr
