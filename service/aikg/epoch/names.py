"""The names file: names of Epoch's entities in other languages, given to the node each name resolves to.

``seeds/epoch/names.csv`` (aikg's, not Epoch's) has the columns ``kind,name,label,lang,reference``:
``name`` is the entity as Epoch's files write it ("Huawei"), ``label`` a name of it in the language
``lang`` ("华为", zh), ``reference`` where the name comes from (required). The file declares no node:
the import resolves ``name`` as it resolves any name of the files (the seeds, the rules, overrides.csv),
then gives ``label`` to that node, so matching is the same with or without the file. The names are
written into ``graph/resolution`` (which the resolution itself does not read), each node's names with an
aikg:CurationRationale giving their references. Lines starting with ``#`` are comments; a malformed line
stops the import with its line number, as in overrides.csv.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

import pyoxigraph as ox

from aikg.epoch.curated import check_kind, curated_rows
from aikg.epoch.values import normalize
from aikg.errors import BadRequest
from aikg.namespaces import AIKG, ID, RDF, RESOLUTION_GRAPH, SKOS

COLUMNS = ("kind", "name", "label", "lang", "reference")
_LANG = re.compile(r"^[a-z]{2,3}(?:-[A-Za-z0-9]{2,8})*$")
RATIONALE_PREFIX = str(ID["names-of-"])
"""The rationale of a node's names is ``id:names-of-<the node's slug>``."""


@dataclass(frozen=True)
class Name:
    """One name of an entity, with its reference."""

    kind: str
    name: str
    label: str
    lang: str
    reference: str
    line: int


def read_names(path: Path | None) -> list[Name]:
    """The names of ``path`` in file order; BadRequest on a malformed line."""
    out: list[Name] = []
    seen: dict[tuple[str, str, str, str], int] = {}
    for number, where, cells in curated_rows(path, COLUMNS):
        kind, name, label, lang, reference = cells[:5]
        check_kind(kind, where)
        if not name or not label:
            raise BadRequest(f"{where}: the name and the label are required")
        if not _LANG.match(lang):
            raise BadRequest(f"{where}: lang must be a language tag such as zh, not {lang!r}")
        if not reference:
            raise BadRequest(f"{where}: every name needs its reference")
        key = (kind, normalize(name), label, lang)
        if key in seen:
            raise BadRequest(f"{where}: {label!r} is already given to {kind} {name!r} on line {seen[key]}")
        seen[key] = number
        out.append(Name(kind, name, label, lang, reference, number))
    return out


def name_quads(
    names: Iterable[Name], nodes_of: Callable[[str, str], set[str]], file: str = "names.csv"
) -> tuple[set[ox.Quad], list[str]]:
    """The quads giving each name to the one node ``nodes_of(kind, name)`` resolves it to, and the names
    left out in plain words: a name of several nodes is not guessed; a name of none (an entity neither
    this import nor the store has) has nothing to be given to, and is left out silently."""
    graph = ox.NamedNode(str(RESOLUTION_GRAPH))
    alt, rdf_type = ox.NamedNode(str(SKOS.altLabel)), ox.NamedNode(str(RDF.type))
    by_node: dict[str, list[Name]] = defaultdict(list)
    problems: list[str] = []
    for n in names:
        nodes = nodes_of(n.kind, n.name)
        if len(nodes) == 1:
            by_node[next(iter(nodes))].append(n)
        elif nodes:
            shown = ", ".join(sorted(x.removeprefix(str(ID)) for x in nodes))
            problems.append(
                f"{file} line {n.line}: {n.kind} {n.name!r} names {len(nodes)} entities ({shown}): "
                f"{n.label!r} was given to none"
            )
    out: set[ox.Quad] = set()
    for node, given in by_node.items():
        subject = ox.NamedNode(node)
        why = ox.NamedNode(RATIONALE_PREFIX + node.removeprefix(str(ID)))
        out |= {ox.Quad(subject, alt, ox.Literal(n.label, language=n.lang), graph) for n in given}
        out |= {
            ox.Quad(why, rdf_type, ox.NamedNode(str(AIKG.CurationRationale)), graph),
            ox.Quad(why, ox.NamedNode(str(AIKG.evidenceFor)), subject, graph),
            ox.Quad(why, ox.NamedNode(str(AIKG.supportsProperty)), alt, graph),
        }
        out |= {
            ox.Quad(
                why,
                ox.NamedNode(str(AIKG.rationale)),
                ox.Literal(f"{n.label} ({file} line {n.line}): {n.reference}", language="en"),
                graph,
            )
            for n in given
        }
    return out, problems


def is_name_quad(q: ox.Quad) -> bool:
    """True for a quad of graph/resolution that :func:`name_quads` writes (a name or its rationale)."""
    return q.predicate.value == str(SKOS.altLabel) or (
        isinstance(q.subject, ox.NamedNode) and q.subject.value.startswith(RATIONALE_PREFIX)
    )
