"""The reviewed overrides file: entity-resolution decisions a person made, each with its reason.

``seeds/epoch/overrides.csv`` (aikg's, not Epoch's) has the columns ``kind,name,decision,target,reason``:

- ``kind``: organization, model, accelerator, datacenter or training-run (the name of a run is its
  model's name as the dataset writes it);
- ``decision``: ``same`` (the name denotes the entity ``target``), ``separate`` (its own node, whatever
  the rules would say), ``variant-of`` (its own node, a variant of the product family ``target``),
  ``subsidiary-of`` (its own node, whose parent organization is ``target``), ``part-of`` (a data
  center of its own, a part or phase of the site ``target``: aikg:partOfSite; its figures are not the
  site's), ``chip-of`` (resolved by the rules as usual, and the system ``target`` is built from it);
- ``target``: an aikg slug (empty for ``separate``);
- ``reason``: why, in plain words, checked against the sources: required on every line.

A line of kind ``funding-round`` decides about a row, not a name: ``name`` is a round's Id as Epoch's
funding file writes it, ``decision`` ``duplicate-of`` (the row lists the same round as the round
``target``, a round's slug, of the same company: both rows are kept, totals count the round once;
:mod:`aikg.epoch.duplicates`).

The file is read as every curated file is (aikg.epoch.curated: comments, header, a malformed line
stops the import with its line number: a decision file that cannot be read must not be half applied).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from aikg.epoch.curated import check_kind, curated_rows
from aikg.epoch.values import normalize
from aikg.errors import BadRequest

DECISIONS = ("same", "separate", "variant-of", "subsidiary-of", "part-of", "chip-of")
ROUND_KIND = "funding-round"
ROUND_DECISIONS = ("duplicate-of",)
_SLUG = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")
COLUMNS = ("kind", "name", "decision", "target", "reason")


@dataclass(frozen=True)
class Override:
    """One reviewed decision."""

    kind: str
    name: str
    decision: str
    target: str | None
    reason: str
    line: int

    def describe(self) -> str:
        """How the report names the decision: the file's line and its reason."""
        return f"overrides.csv line {self.line}: {self.reason}"


@dataclass(frozen=True)
class RoundDecision:
    """One reviewed decision about a funding round's row: the round ``name`` (its Id) is a duplicate of
    the round ``target`` (a slug)."""

    name: str
    decision: str
    target: str
    reason: str
    line: int

    def describe(self) -> str:
        """How the report and the rationale name the decision: the file's line and its reason."""
        return f"overrides.csv line {self.line}: {self.reason}"


def read_overrides(path: Path | None) -> dict[tuple[str, str], Override]:
    """The entity overrides as ``{(kind, normalized name): Override}``; BadRequest on a malformed line
    (of any kind: the file is read whole)."""
    return _read(path)[0]


def read_round_decisions(path: Path | None) -> list[RoundDecision]:
    """The decisions about funding rounds' rows, in file order; BadRequest on a malformed line."""
    return _read(path)[1]


def _read(path: Path | None) -> tuple[dict[tuple[str, str], Override], list[RoundDecision]]:
    out: dict[tuple[str, str], Override] = {}
    rounds: list[RoundDecision] = []
    seen: dict[str, int] = {}
    for number, where, cells in curated_rows(path, COLUMNS):
        kind, name, decision, target, reason = cells[:5]
        if kind == ROUND_KIND:
            rounds.append(_round_decision(where, number, name, decision, target, reason, seen))
            continue
        check_kind(kind, where)
        if not name:
            raise BadRequest(f"{where}: the name is empty")
        if decision not in DECISIONS:
            raise BadRequest(f"{where}: decision must be one of {', '.join(DECISIONS)}, not {decision!r}")
        if decision == "separate":
            target = ""
        elif not _SLUG.match(target):
            raise BadRequest(f"{where}: decision {decision!r} needs the target entity's slug (e.g. h100)")
        if not reason:
            raise BadRequest(f"{where}: every decision needs its reason")
        key = (kind, normalize(name))
        if key in out:
            raise BadRequest(f"{where}: {kind} {name!r} is already decided on line {out[key].line}")
        out[key] = Override(kind, name, decision, target or None, reason, number)
    return out, rounds


def _round_decision(
    where: str, number: int, name: str, decision: str, target: str, reason: str, seen: dict[str, int]
) -> RoundDecision:
    if not name:
        raise BadRequest(f"{where}: the name (the round's Id) is empty")
    if decision not in ROUND_DECISIONS:
        raise BadRequest(f"{where}: a funding-round decision must be one of {', '.join(ROUND_DECISIONS)}")
    if not _SLUG.match(target):
        raise BadRequest(f"{where}: decision {decision!r} needs the target round's slug")
    if not reason:
        raise BadRequest(f"{where}: every decision needs its reason")
    key = f"{normalize(name)}|{target}"
    if key in seen:
        raise BadRequest(f"{where}: funding round {name!r} is already decided on line {seen[key]}")
    seen[key] = number
    return RoundDecision(name, decision, target, reason, number)
