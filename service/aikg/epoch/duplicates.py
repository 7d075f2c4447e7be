"""Funding rounds a file lists twice, as a person decided in ``seeds/epoch/overrides.csv``.

A line ``funding-round,<Id>,duplicate-of,<round slug>,<reason>`` says that the row of that Id lists the
same round as the round ``target`` of the same company (Epoch's funding file has Mistral AI's Series B
twice). Both rows keep every value; the link ``aikg:possibleDuplicateOf`` from the row's round to the
other one goes into ``graph/resolution`` (aikg's curation, never Epoch's graph) with an
``aikg:CurationRationale`` quoting the line, both owned by the duplicate's row, so a rejected row takes
them with it. Totals over rounds then count the round once (docs/named-queries.md "Totals over
clusters": the same rule). A decision that finds no round, or several, is reported and marks nothing.
"""

from __future__ import annotations

from dataclasses import dataclass

from rdflib import Literal, URIRef

from aikg.epoch.overrides import RoundDecision
from aikg.epoch.rows import Quads, RowKey
from aikg.epoch.values import normalize
from aikg.namespaces import AIKG, ID, RDF, RESOLUTION_GRAPH
from aikg.store import Store

RATIONALE_PREFIX = str(ID["duplicate-round-"])
"""The rationale of a round marked a duplicate is ``id:duplicate-round-<the round's slug>``."""
_GRAPH = str(RESOLUTION_GRAPH)


@dataclass(frozen=True)
class Round:
    """A funding round: its node, company, Id, and the row of this import describing it (None when
    only the store holds it)."""

    iri: str
    company: str
    name: str
    row: RowKey | None


def rounds_of_import(quads: Quads) -> list[Round]:
    """The funding rounds this import's rows describe, with their company and Id."""
    company: dict[str, str] = {}
    named: dict[str, tuple[str, RowKey]] = {}
    for (s, p, o, _), rows in quads.owners.items():
        if p == AIKG.investee:
            company[str(s)] = str(o)
        elif p == AIKG.roundName and rows:
            named[str(s)] = (str(o), min(rows))
    return [Round(iri, company[iri], name, row) for iri, (name, row) in named.items() if iri in company]


def rounds_of_store(store: Store) -> list[Round]:
    """The funding rounds the store holds, with their company and Id."""
    rows = store.query(
        f"SELECT ?round ?company ?name WHERE {{ ?round a <{AIKG.FundingRound}> ; "
        f"<{AIKG.investee}> ?company ; <{AIKG.roundName}> ?name }}"
    ).values()
    return [Round(str(r), str(c), str(n), None) for r, c, n in rows]


def mark_duplicates(
    decisions: list[RoundDecision], mine: list[Round], stored: list[Round], quads: Quads
) -> list[str]:
    """Write each decision's link and rationale (owned by the duplicate's row of this import); return the
    decisions that could not be applied, in plain words. Nothing is said when this import has no funding
    round (its file is not imported: the stored links stay as they are)."""
    if not mine:
        return []
    by_iri = {r.iri: r for r in stored} | {r.iri: r for r in mine}
    problems: list[str] = []
    marked: dict[str, str] = {}
    for d in decisions:
        target = by_iri.get(str(ID[d.target]))
        if target is None:
            problems.append(f"{d.describe()}: the round {d.target!r} is not in the store: nothing was marked")
            continue
        same = sorted(
            {
                r.iri
                for r in by_iri.values()
                if r.company == target.company
                and normalize(r.name) == normalize(d.name)
                and r.iri != target.iri
            }
        )
        if len(same) != 1:
            found = f"{len(same)} rounds" if same else "no other round"
            problems.append(
                f"{d.describe()}: {d.name!r} names {found} of the company of {d.target!r}: nothing was marked"
            )
            continue
        duplicate = by_iri[same[0]]
        if marked.get(target.iri) == duplicate.iri:
            problems.append(f"{d.describe()}: {d.target!r} is already marked a duplicate of {d.name!r}")
            continue
        marked[duplicate.iri] = target.iri
        if duplicate.row is not None:
            _write(quads, duplicate, target, d)
    return problems


def _write(quads: Quads, duplicate: Round, target: Round, d: RoundDecision) -> None:
    row, node, other = duplicate.row, URIRef(duplicate.iri), URIRef(target.iri)
    assert row is not None
    why = URIRef(RATIONALE_PREFIX + duplicate.iri.removeprefix(str(ID)))
    quads.add(row, _GRAPH, node, AIKG.possibleDuplicateOf, other)
    quads.add(row, _GRAPH, why, RDF.type, AIKG.CurationRationale)
    quads.add(row, _GRAPH, why, AIKG.evidenceFor, node)
    quads.add(row, _GRAPH, why, AIKG.supportsProperty, AIKG.possibleDuplicateOf)
    quads.add(row, _GRAPH, why, AIKG.drawsOn, node)
    quads.add(row, _GRAPH, why, AIKG.drawsOn, other)
    text = f"{duplicate.name} lists the round {target.name} again ({d.describe()})"
    quads.add(row, _GRAPH, why, AIKG.rationale, Literal(text, lang="en"))


def is_duplicate_quad(subject: str, predicate: str) -> bool:
    """True for a quad of graph/resolution that :func:`mark_duplicates` writes (a link or its rationale)."""
    return predicate == str(AIKG.possibleDuplicateOf) or subject.startswith(RATIONALE_PREFIX)
