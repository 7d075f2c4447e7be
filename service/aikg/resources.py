"""Where the data files live and which named graph each one is loaded into.

- ``ontology/*.ttl``          -> ``graph/ontology``
- ``ontology/shapes/*.ttl``   -> ``graph/shapes``
- ``seeds/<path>/<stem>.ttl`` -> ``graph/<path>/<stem>`` (e.g. ``seeds/catalog.ttl`` -> ``graph/catalog``)
- derived facts               -> ``graph/derived`` (rebuilt from ``ontology/rules/*.rq``)
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from aikg.namespaces import GRAPH, ONTOLOGY_GRAPH, SHAPES_GRAPH


def data_root() -> Path:
    """The folder holding ``ontology/``, ``seeds/`` and ``queries/`` (``AIKG_DATA_DIR`` overrides)."""
    env = os.environ.get("AIKG_DATA_DIR")
    return Path(env) if env else Path(__file__).resolve().parents[2]


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
