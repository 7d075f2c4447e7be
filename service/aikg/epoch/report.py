"""The import report: per file what was read, imported, rejected and updated; every merge, link and
ambiguity of entity resolution; every value read leniently or not at all; every flag."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from aikg.epoch.context import Finding
from aikg.epoch.reconcile import Decision

ID_PREFIX = "https://w3id.org/aikg/id/"


@dataclass
class FileReport:
    """What one file did to its dataset."""

    file: str
    graph: str
    snapshot: str
    snapshot_basis: str
    mode: str = "new"
    """new, replaced, merged or unchanged."""
    rows: int = 0
    imported: int = 0
    rejected: int = 0
    kept: int = 0
    """Rows of the dataset's earlier import a partial file did not contain (kept as they were)."""
    created: int = 0
    merges: int = 0
    links: int = 0
    ambiguities: int = 0
    rounding: int = 0
    disagreements: int = 0
    warnings: list[str] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        """Plain data."""
        return dict(vars(self))


@dataclass(frozen=True)
class Rejection:
    """A row left out: file, line, and why."""

    file: str
    row: int
    reasons: list[str]


@dataclass
class ImportReport:
    """Everything an import did, for the CLI, the API, the explorer and the logs."""

    id: str = ""
    started: str = ""
    seconds: float = 0.0
    directory: str = ""
    files: dict[str, FileReport] = field(default_factory=dict)
    findings: list[Finding] = field(default_factory=list)
    decisions: list[Decision] = field(default_factory=list)
    missing: list[str] = field(default_factory=list)
    """Known files absent from the directory."""
    unknown_files: list[str] = field(default_factory=list)
    """CSV files of the directory aikg does not know (not imported)."""
    problems: list[str] = field(default_factory=list)
    """Overrides that could not be applied."""

    # -- views ------------------------------------------------------------------------------------

    @property
    def rows(self) -> Counter[str]:
        """Rows read per file."""
        return Counter({f: r.rows for f, r in self.files.items()})

    @property
    def imported(self) -> Counter[str]:
        """Rows imported per file."""
        return Counter({f: r.imported for f, r in self.files.items()})

    def of_kind(self, kind: str) -> list[Finding]:
        """The findings of one kind, in file and row order."""
        return sorted(
            (f for f in self.findings if f.kind == kind),
            key=lambda f: (f.file, f.row or 0, f.column or "", f.name or "", f.message),
        )

    @property
    def rejected(self) -> list[Rejection]:
        """The rows left out, each with its reasons."""
        reasons: dict[tuple[str, int], list[str]] = {}
        for f in self.of_kind("rejected-row"):
            reasons.setdefault((f.file, f.row or 0), []).append(f.message)
        return [Rejection(file, row, sorted(set(r))) for (file, row), r in sorted(reasons.items())]

    @property
    def flags(self) -> list[Finding]:
        """Suspicious values flagged."""
        return self.of_kind("flag")

    def by_status(self, status: str) -> list[Decision]:
        """Resolution decisions of one status, in a stable order."""
        return sorted((d for d in self.decisions if d.status == status), key=lambda d: (d.kind, d.name))

    def totals(self) -> dict[str, int]:
        """Sums over the files."""
        keys = (
            "rows",
            "imported",
            "rejected",
            "kept",
            "created",
            "merges",
            "links",
            "ambiguities",
            "rounding",
            "disagreements",
        )
        return {k: sum(getattr(r, k) for r in self.files.values()) for k in keys}

    # -- output -----------------------------------------------------------------------------------

    def to_json(self, *, findings: bool = True) -> dict[str, Any]:
        """The report as plain data (the body of ``/api/imports/<id>``)."""
        out: dict[str, Any] = {
            "id": self.id,
            "started": self.started,
            "seconds": round(self.seconds, 2),
            "directory": self.directory,
            "totals": self.totals(),
            "files": [r.to_json() for r in self.files.values()],
            "missing": self.missing,
            "unknown_files": self.unknown_files,
            "problems": self.problems,
        }
        if findings:
            out["findings"] = [
                f.to_json()
                for f in sorted(
                    self.findings, key=lambda f: (f.kind, f.file, f.row or 0, f.name or "", f.message)
                )
            ]
        return out

    def text(self, *, verbose: bool = False) -> str:
        """A readable report: per-file counts, then every merge, link, ambiguity, rejection and problem."""
        out = ["Epoch AI import", ""]
        for r in self.files.values():
            out.append(
                f"  {r.file}: {r.rows} rows, {r.imported} imported, {r.rejected} rejected"
                + (f", {r.kept} earlier rows kept" if r.kept else "")
                + f" ({r.mode}, snapshot {r.snapshot})"
            )
            out.append(
                f"      {r.created} created, {r.merges} merged, {r.links} links, {r.ambiguities} ambiguous, "
                f"{r.rounding} rounding differences, {r.disagreements} disagreements"
            )
            out += [f"      warning: {w}" for w in r.warnings]
        for file in self.missing:
            out.append(f"  {file}: not in the directory, left as it was")
        for file in self.unknown_files:
            out.append(f"  {file}: not a file aikg knows, not imported")
        sections = (
            ("merge", "Merged into existing entities"),
            ("link", "Links made"),
            ("ambiguity", "Ambiguous (each kept as its own entity until an override decides)"),
            ("rejected-row", "Rejected rows"),
            ("unreadable-value", "Values that could not be read"),
            ("read-value", "Values read leniently"),
            ("flag", "Flagged values"),
            ("column", "Columns"),
        )
        for kind, title in sections:
            found = self.of_kind(kind)
            out += ["", f"{title}: {len(found)}"]
            shown = found if verbose or kind not in ("read-value", "unreadable-value") else found[:50]
            out += [f"  {_line(f)}" for f in shown]
            if len(shown) < len(found):
                out.append(f"  … {len(found) - len(shown)} more (--verbose lists them all)")
        if self.problems:
            out += ["", f"Overrides not applied: {len(self.problems)}"] + [f"  {p}" for p in self.problems]
        if verbose:
            created = self.by_status("created")
            out += ["", f"Created: {len(created)} new entities"]
            out += [f"  {d.kind:<12} {d.name!r} -> {_short(d.iri)}" for d in created]
        out += ["", f"Wall time: {self.seconds:.1f} s"]
        return "\n".join(out)


def _line(f: Finding) -> str:
    where = f"{f.file}:{f.row}" if f.row else f.file
    if f.kind in ("merge", "ambiguity"):
        text = f"{f.entity_kind:<12} {f.name!r} -> {_short(f.node or '')}  ({f.rule})"
        if f.candidates:
            text += "; candidates: " + ", ".join(_short(c) for c in f.candidates)
        return text
    if f.kind == "link" and f.link is not None:
        return f"{_short(f.node or '')} {_short(f.link[0])} {_short(f.link[1])}  ({f.rule})"
    return f"{where}: {f.message}"


def _short(iri: str) -> str:
    return iri.replace(ID_PREFIX, "id:").replace("https://w3id.org/aikg/ontology#", "aikg:")
