"""The import report: per file what was read, imported, rejected and updated; the diff per entity (values
added, changed, kept but not restated, an older snapshot's values kept as history, removed); every merge,
link and ambiguity of entity resolution; every disagreement by name; every value read leniently or not at
all; every flag. A dry run's report is the same as the import's would be."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from aikg.epoch.context import Finding
from aikg.epoch.history import ValueChange, shown
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
    """How the file's snapshot stands to the dataset's: new (its first), newer, same (its newest date
    again), older (kept as history where it differs), or unchanged (nothing to change)."""
    rows: int = 0
    imported: int = 0
    rejected: int = 0
    kept: int = 0
    """Rows of the dataset the file does not have (kept as they were, not restated)."""
    latest_before: str | None = None
    """The dataset's newest snapshot before this import."""
    rows_matched: int = 0
    """Rows describing a node the dataset already had."""
    rows_new: int = 0
    values_added: int = 0
    values_changed: int = 0
    values_kept: int = 0
    """Stored values of the file's rows that it does not restate (kept, marked not restated)."""
    values_restated: int = 0
    values_older: int = 0
    """Values an older snapshot gives differently (kept as history; the newer ones stay)."""
    values_removed: int = 0
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
class Disagreement:
    """A figure this import writes (or keeps as an older snapshot's) that another source gives otherwise."""

    file: str
    entity: str
    prop: str
    value: str
    snapshot: str
    older: bool
    """The file's value is an older snapshot's, kept as history (the newer value stays)."""
    other: str
    sources: str
    """Where the other value is stated (titles, an Epoch snapshot with its date)."""
    kind: str
    """rounding or disagreement (by the figures' stated precision)."""

    def to_json(self, labels: dict[str, str] | None = None) -> dict[str, Any]:
        """Plain data, with the entity's name."""
        out = dict(vars(self))
        out["property"] = out.pop("prop")
        if labels and self.entity in labels:
            out["label"] = labels[self.entity]
        return out


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
    sha256: str = ""
    """The digest of every file of the folder imported (:func:`aikg.epoch.record.folder_sha256`)."""
    files: dict[str, FileReport] = field(default_factory=dict)
    findings: list[Finding] = field(default_factory=list)
    decisions: list[Decision] = field(default_factory=list)
    missing: list[str] = field(default_factory=list)
    """Known files absent from the directory."""
    unknown_files: list[str] = field(default_factory=list)
    """CSV files of the directory aikg does not know (not imported)."""
    problems: list[str] = field(default_factory=list)
    """Overrides that could not be applied."""
    changes: list[ValueChange] = field(default_factory=list)
    """The diff: what happened to each property of each node the files describe."""
    disagreements: list[Disagreement] = field(default_factory=list)
    labels: dict[str, str] = field(default_factory=dict)
    """Node -> its English label, for every node the diff and the disagreements name."""
    dry_run: bool = False
    written: bool = False
    """Whether the change was committed (not for a dry run, nor an import waiting for a decision)."""
    waiting: list[str] = field(default_factory=list)
    """Why the import waits for a decision (--map or --force) instead of writing."""
    refused: list[str] = field(default_factory=list)
    """Why the import was refused whole (the store would not conform after it): nothing was written."""

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
            "rows_matched",
            "rows_new",
            "values_added",
            "values_changed",
            "values_kept",
            "values_restated",
            "values_older",
            "values_removed",
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
            "dry_run": self.dry_run,
            "written": self.written,
            "waiting": self.waiting,
            "refused": self.refused,
            "changes": [c.to_json(self.labels) for c in self.sorted_changes()],
            "disagreements": [d.to_json(self.labels) for d in self.disagreements],
        }
        if findings:
            out["findings"] = [
                f.to_json()
                for f in sorted(
                    self.findings, key=lambda f: (f.kind, f.file, f.row or 0, f.name or "", f.message)
                )
            ]
        return out

    def sorted_changes(self) -> list[ValueChange]:
        """The diff in a stable order: by entity name, then property and file."""
        return sorted(
            self.changes,
            key=lambda c: (self.labels.get(c.entity, c.entity).lower(), c.entity, c.prop, c.file, c.kind),
        )

    def text(self, *, verbose: bool = False) -> str:
        """A readable report: per-file counts, the diff per entity, the disagreements by name, then every
        merge, link, ambiguity, rejection and problem."""
        head = "Epoch AI import" + (" (dry run: nothing was written)" if self.dry_run else "")
        if self.waiting and not self.dry_run:
            head += " (waiting for a decision: nothing was written)"
        out = [head, ""]
        for r in self.files.values():
            out.append(
                f"  {r.file}: {r.rows} rows, {r.imported} imported, {r.rejected} rejected"
                + (f", {r.kept} rows of the dataset not in the file kept" if r.kept else "")
                + f" ({r.mode}, snapshot {r.snapshot}"
                + (f"; the dataset's newest was {r.latest_before}" if r.latest_before else "")
                + ")"
            )
            out.append(
                f"      rows: {r.rows_matched} matched, {r.rows_new} new; values: {r.values_added} added, "
                f"{r.values_changed} changed, {r.values_kept} kept not restated, "
                f"{r.values_restated} restated, {r.values_older} older kept as history, "
                f"{r.values_removed} removed"
            )
            out.append(
                f"      {r.created} created, {r.merges} merged, {r.links} links, {r.ambiguities} ambiguous, "
                f"{r.rounding} rounding differences, {r.disagreements} disagreements"
            )
            out += [f"      snapshot date from {r.snapshot_basis}"]
            out += [f"      warning: {w}" for w in r.warnings]
        for file in self.missing:
            out.append(f"  {file}: not in the directory, left as it was")
        for file in self.unknown_files:
            out.append(f"  {file}: not a file aikg knows, not imported")
        if self.refused:
            out += ["", f"Refused, nothing written (the store would not conform): {len(self.refused)}"]
            out += [f"  {w}" for w in self.refused]
        if self.waiting:
            out += ["", f"Waiting for a decision: {len(self.waiting)}"] + [f"  {w}" for w in self.waiting]
        out += self._diff_text(verbose)
        out += ["", f"Disagreements: {len(self.disagreements)}"]
        listed = sorted(self.disagreements, key=lambda d: (d.kind, self.labels.get(d.entity, d.entity)))
        for n, d in enumerate(listed):
            if not verbose and n >= 200:
                out.append(f"  … {len(listed) - n} more (--verbose or --json lists them all)")
                break
            name = f"{self.labels.get(d.entity, '')} ({_short(d.entity)})".strip()
            said = f"{d.file} ({'older snapshot ' if d.older else ''}{d.snapshot})"
            out.append(
                f"  {d.kind}: {name} {_short(d.prop)}: {d.value} in {said} vs {d.other} in {d.sources}"
            )
        sections = (
            ("merge", "Merged into existing entities"),
            ("link", "Links made"),
            (
                "ambiguity",
                "Ambiguous (kept as its own entity, or its rows left out, until an override decides)",
            ),
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

    def _diff_text(self, verbose: bool) -> list[str]:
        """The diff per entity: each entity by name, then its changed properties."""
        changes = self.sorted_changes()
        out = ["", f"Changes: {len(changes)}"]
        limit = None if verbose else 200
        entity = None
        for n, c in enumerate(changes):
            if limit is not None and n >= limit:
                out.append(f"  … {len(changes) - limit} more (--verbose or --json lists them all)")
                break
            if c.entity != entity:
                entity = c.entity
                out.append(f"  {self.labels.get(c.entity, _short(c.entity))} ({_short(c.entity)})")
            before = ", ".join(_clip(shown(t)) for t in c.before)
            after = ", ".join(_clip(shown(t)) for t in c.after)
            was = f"{before} ({c.before_snapshot})" if c.before else ""
            now = f"{after} ({c.after_snapshot})" if c.after else ""
            text = {
                "added": f"added {now}",
                "changed": f"{was} -> {now}",
                "not-restated": f"kept, not restated by {c.file} ({c.after_snapshot}): {was}",
                "older-snapshot": (f"kept {was}; " if was else "not stated by the newer snapshot; ")
                + f"the older snapshot says {now}, kept as history",
                "removed": f"removed (kept as history): {was}",
            }[c.kind]
            extra = f" [{c.difference}]" if c.difference and c.kind in ("changed", "older-snapshot") else ""
            out.append(f"    {_short(c.prop)}: {text}{extra}  <{c.file}>")
        return out


def _clip(text: str, width: int = 100) -> str:
    """A long value (a note) on one line, cut to ``width`` characters (the JSON has it whole)."""
    text = " ".join(text.split())
    return text if len(text) <= width else text[: width - 1] + "…"


def _line(f: Finding) -> str:
    where = f"{f.file}:{f.row}" if f.row else f.file
    if f.kind in ("merge", "ambiguity"):
        text = f"{f.entity_kind:<12} {f.name!r} -> {_short(f.node) if f.node else 'left out'}  ({f.rule})"
        if f.candidates:
            text += "; candidates: " + ", ".join(_short(c) for c in f.candidates)
        return text
    if f.kind == "link" and f.link is not None:
        return f"{_short(f.node or '')} {_short(f.link[0])} {_short(f.link[1])}  ({f.rule})"
    return f"{where}: {f.message}"


def _short(iri: str) -> str:
    return iri.replace(ID_PREFIX, "id:").replace("https://w3id.org/aikg/ontology#", "aikg:")
