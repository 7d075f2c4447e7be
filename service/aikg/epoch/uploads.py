"""An import of files sent over HTTP (``POST /api/imports``, for the token holder): the same import as
``aikg import epoch``, run on the uploaded files laid out in a folder of their own.

Each uploaded file is named by its path in Epoch's layout (``ml_hardware/ml_hardware.csv``) or by its
file name alone (``ml_hardware.csv``); a ``snapshot.csv`` or ``README.md`` may come with them. A name
that climbs out of the folder, or a file that is not one of these kinds, is refused before anything is
read.
"""

from __future__ import annotations

import tempfile
from collections.abc import Mapping
from pathlib import Path, PurePosixPath
from typing import TYPE_CHECKING, Any

from aikg.epoch.columns import parse_mappings
from aikg.epoch.importer import import_epoch
from aikg.epoch.report import ImportReport
from aikg.errors import BadRequest

if TYPE_CHECKING:
    from aikg.services import Services

ALLOWED = (".csv", "README.md")


def import_uploaded(
    services: Services, files: Mapping[str, bytes], options: Mapping[str, Any]
) -> ImportReport:
    """Import (or, with ``dry_run``, report) the uploaded files; ``options``: ``as_of``, ``dry_run``,
    ``force``, ``replace``, ``map`` (a list of 'HEADER=COLUMN')."""
    if not files:
        raise BadRequest("no file was sent: send each CSV file as a form field 'file' (multipart/form-data)")
    with tempfile.TemporaryDirectory(prefix="aikg-import-") as tmp:
        root = Path(tmp)
        for name, data in files.items():
            rel = PurePosixPath(name.replace("\\", "/"))
            if rel.is_absolute() or ".." in rel.parts or not rel.parts or not name.endswith(ALLOWED):
                raise BadRequest(
                    f"file {name!r}: send a CSV file by its path in Epoch's layout "
                    "(ml_hardware/ml_hardware.csv) or its name, or snapshot.csv / README.md",
                    errors=[{"file": name}],
                )
            path = root.joinpath(*rel.parts)
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(data)
        return import_epoch(
            services,
            root,
            snapshot_date=options.get("as_of") or None,
            dry_run=bool(options.get("dry_run")),
            force=bool(options.get("force")),
            replace=bool(options.get("replace")),
            mapped=parse_mappings(options.get("map") or []),
            source="uploaded: " + ", ".join(sorted(files)),
        )
