"""The reconciliation and import report: what was matched, created, ambiguous, rejected and flagged."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from aikg.epoch.mapping import Flag
from aikg.epoch.reconcile import Match


@dataclass
class Rejection:
    """A row left out because its nodes broke a shape: file, line, and the shapes' messages."""

    file: str
    row: int
    reasons: list[str]


@dataclass
class ImportReport:
    """Everything an import did, for the CLI, the tests and the logs."""

    rows: Counter = field(default_factory=Counter)
    """Rows read per file."""
    imported: Counter = field(default_factory=Counter)
    """Rows accepted per file."""
    matches: list[Match] = field(default_factory=list)
    rejected: list[Rejection] = field(default_factory=list)
    flags: list[Flag] = field(default_factory=list)
    graphs: dict[str, int] = field(default_factory=dict)
    """Quads per named graph written."""
    missing: list[str] = field(default_factory=list)
    """Known files absent from the directory."""

    def by_status(self, status: str) -> list[Match]:
        """Reconciliation decisions of one status, in a stable order."""
        return sorted((m for m in self.matches if m.status == status), key=lambda m: (m.kind, m.name))

    def to_json(self) -> dict[str, Any]:
        """The report as plain data."""
        return {
            "rows": dict(self.rows), "imported": dict(self.imported), "graphs": self.graphs,
            "matched": [vars(m) for m in self.by_status("matched")],
            "created": len(self.by_status("created")),
            "ambiguous": [vars(m) for m in self.by_status("ambiguous")],
            "rejected": [vars(r) for r in self.rejected], "flags": [vars(f) for f in self.flags],
            "missing": self.missing,
        }

    def text(self, *, verbose: bool = False) -> str:
        """A readable report: per-file counts, merges, ambiguous names, rejected rows and flags."""
        out = ["Epoch AI import", ""]
        for file in self.rows:
            out.append(f"  {file}: {self.rows[file]} rows, {self.imported[file]} imported, "
                       f"{self.rows[file] - self.imported[file]} rejected")
        for file in self.missing:
            out.append(f"  {file}: not in the directory, skipped")
        matched, created, ambiguous = (self.by_status(s) for s in ("matched", "created", "ambiguous"))
        out += ["", f"Matched to existing entities: {len(matched)}"]
        out += [f"  {m.kind:<12} {m.name!r} -> {_short(m.iri)}  ({m.rule})" for m in matched]
        out += ["", f"Created: {len(created)} new entities"]
        if verbose:
            out += [f"  {m.kind:<12} {m.name!r} -> {_short(m.iri)}" for m in created]
        out += ["", f"Ambiguous (kept separate): {len(ambiguous)}"]
        for m in ambiguous:
            out.append(f"  {m.kind:<12} {m.name!r} -> {_short(m.iri)}; {m.rule}; candidates: "
                       + ", ".join(_short(c) for c in m.candidates))
        out += ["", f"Rejected rows: {len(self.rejected)}"]
        for r in self.rejected:
            out.append(f"  {r.file}:{r.row}: " + "; ".join(r.reasons))
        out += ["", f"Flagged values: {len(self.flags)}"]
        out += [f"  {f.file}:{f.row}: {_short(f.node)} {f.flag}: {f.note}" for f in self.flags]
        return "\n".join(out)


def _short(iri: str) -> str:
    return iri.replace("https://w3id.org/aikg/id/", "id:")
