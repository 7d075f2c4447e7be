"""The data files aikg ships as package data, and the named graph each one is loaded into.

The repository keeps them at its top level (``ontology/``, ``seeds/``, ``queries/``); the package reaches
them through ``aikg/data/`` (symbolic links in a checkout, real folders in a built wheel), always with
:mod:`importlib.resources`, so ``pip install .`` from anywhere serves the same data as a checkout.

- ``ontology/*.ttl``          -> ``graph/ontology``
- ``ontology/shapes/*.ttl``   -> ``graph/shapes``
- ``seeds/<path>/<stem>.ttl`` -> ``graph/<path>/<stem>`` (e.g. ``seeds/catalog.ttl`` -> ``graph/catalog``)
- derived facts               -> ``graph/derived`` (rebuilt from ``ontology/rules/*.rq``)
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

from aikg.errors import AikgError
from aikg.namespaces import GRAPH, ONTOLOGY_GRAPH, SHAPES_GRAPH

FOLDERS = ("ontology", "seeds", "queries")
"""The data folders shipped with the package; each must be present."""


class MissingData(AikgError):
    """A data folder the package must ship is not there: the installation is broken."""

    title = "installation error"


@functools.cache
def data_root() -> Path:
    """The folder holding ``ontology/``, ``seeds/`` and ``queries/``; fails loudly when one is missing."""
    root = Path(str(resources.files("aikg") / "data"))
    missing = [name for name in FOLDERS if not (root / name).is_dir()]
    if missing:
        raise MissingData(
            f"the aikg package has no {', '.join(missing)} data folder under {root}: "
            "reinstall it (pip install .) from a complete checkout"
        )
    return root


def docs_dir() -> Path:
    """The reference manual's Markdown pages (served under ``/docs``; ``aikg/docs/`` in the package)."""
    return Path(str(resources.files("aikg") / "docs"))


def ontology_dir() -> Path:
    """The ontology folder."""
    return data_root() / "ontology"


def shapes_dir() -> Path:
    """The SHACL shapes folder."""
    return ontology_dir() / "shapes"


def rules_dir() -> Path:
    """The derivation rules (SPARQL CONSTRUCT files)."""
    return ontology_dir() / "rules"


def seeds_dir() -> Path:
    """The seed data folder."""
    return data_root() / "seeds"


def queries_dir() -> Path:
    """The named queries folder."""
    return data_root() / "queries"


@dataclass(frozen=True)
class DataFile:
    """One Turtle file and the named graph it is loaded into."""

    path: Path
    graph: str


def seed_graph_iri(path: Path, root: Path | None = None) -> str:
    """The named graph of a seed file: its path under ``seeds/`` without the extension."""
    rel = path.relative_to(root or seeds_dir()).with_suffix("")
    return str(GRAPH[rel.as_posix()])


def data_files() -> list[DataFile]:
    """Every file loaded at start: ontology, shapes, seeds, in a stable order."""
    files = [DataFile(p, str(ONTOLOGY_GRAPH)) for p in sorted(ontology_dir().glob("*.ttl"))]
    files += [DataFile(p, str(SHAPES_GRAPH)) for p in sorted(shapes_dir().glob("*.ttl"))]
    files += [DataFile(p, seed_graph_iri(p)) for p in sorted(seeds_dir().rglob("*.ttl"))]
    return files
