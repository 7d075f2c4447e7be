"""The import report as RDF in ``graph/imports``: written with the import's data in one transaction,
read back by ``/api/imports`` and the explorer, on any backend, after any restart.

An import is ``<https://w3id.org/aikg/import/<stamp>>`` (an ``aikg:Import``); its files and findings
hang below it. The newest :data:`KEEP` imports are kept; older records go with the next import.
"""

from __future__ import annotations

import hashlib
from collections import defaultdict
from pathlib import Path
from typing import Any

import pyoxigraph as ox

from aikg.epoch.context import Finding
from aikg.epoch.history import ValueChange, term_json
from aikg.epoch.reconcile import IMPORTS_GRAPH
from aikg.epoch.report import Disagreement, FileReport, ImportReport
from aikg.errors import NotFound
from aikg.namespaces import AIKG
from aikg.store import Store

IMPORT_BASE = "https://w3id.org/aikg/import/"
KEEP = 20
"""Import records kept in the store."""

_A = ox.NamedNode("http://www.w3.org/1999/02/22-rdf-syntax-ns#type")
_PROV = "http://www.w3.org/ns/prov#"
_XSD = "http://www.w3.org/2001/XMLSchema#"
_G = ox.NamedNode(IMPORTS_GRAPH)

FILE_FIELDS = {
    "file": "filePath",
    "snapshot": "snapshotDate",
    "snapshot_basis": "snapshotDateBasis",
    "mode": "updateMode",
    "rows": "rowsRead",
    "imported": "rowsImported",
    "rejected": "rowsRejected",
    "kept": "rowsKept",
    "latest_before": "latestSnapshotBefore",
    "rows_matched": "rowsMatched",
    "rows_new": "rowsNew",
    "values_added": "valuesAdded",
    "values_changed": "valuesChanged",
    "values_kept": "valuesKept",
    "values_restated": "valuesRestated",
    "values_older": "valuesOlder",
    "values_removed": "valuesRemoved",
    "created": "entitiesCreated",
    "rounding": "roundingDifferences",
    "disagreements": "realDisagreements",
}
"""FileReport field -> aikg property (the graph, merges, links, ambiguities and warnings go separately)."""
FINDING_FIELDS = {
    "kind": "findingKind",
    "row": "sourceRow",
    "column": "column",
    "value": "rawValue",
    "name": "nameAsWritten",
    "entity_kind": "entityKind",
    "rule": "decidedBy",
    "message": "findingMessage",
}


def _p(local: str) -> ox.NamedNode:
    return ox.NamedNode(str(AIKG[local]))


def _lit(value: Any) -> ox.Literal:
    if isinstance(value, bool):
        return ox.Literal(str(value).lower(), datatype=ox.NamedNode(_XSD + "boolean"))
    if isinstance(value, int):
        return ox.Literal(str(value), datatype=ox.NamedNode(_XSD + "integer"))
    if isinstance(value, float):
        return ox.Literal(f"{value:.3f}", datatype=ox.NamedNode(_XSD + "decimal"))
    return ox.Literal(str(value))


def _node(value: str) -> ox.NamedNode | None:
    try:
        return ox.NamedNode(value)
    except ValueError:
        return None


def record_quads(report: ImportReport, ended: str) -> list[ox.Quad]:
    """The report as quads of ``graph/imports``."""
    imp = ox.NamedNode(report.id)
    out = [
        ox.Quad(imp, _A, _p("Import"), _G),
        ox.Quad(
            imp,
            ox.NamedNode(_PROV + "startedAtTime"),
            ox.Literal(report.started, datatype=ox.NamedNode(_XSD + "dateTime")),
            _G,
        ),
        ox.Quad(
            imp,
            ox.NamedNode(_PROV + "endedAtTime"),
            ox.Literal(ended, datatype=ox.NamedNode(_XSD + "dateTime")),
            _G,
        ),
        ox.Quad(imp, _p("importSource"), _lit(report.directory), _G),
        ox.Quad(imp, _p("wallSeconds"), _lit(float(report.seconds)), _G),
    ]
    if report.sha256:
        out.append(ox.Quad(imp, _p("contentSha256"), _lit(report.sha256), _G))
    files: dict[str, ox.NamedNode] = {}
    for n, r in enumerate(report.files.values(), 1):
        node = ox.NamedNode(f"{report.id}/file/{n}")
        files[r.file] = node
        out += [
            ox.Quad(imp, _p("importedFile"), node, _G),
            ox.Quad(node, _A, _p("ImportedFile"), _G),
            ox.Quad(node, _p("targetGraph"), ox.NamedNode(r.graph), _G),
        ]
        for key, local in FILE_FIELDS.items():
            value = getattr(r, key)
            if key in ("snapshot", "latest_before") and value:
                out.append(
                    ox.Quad(node, _p(local), ox.Literal(value, datatype=ox.NamedNode(_XSD + "date")), _G)
                )
            elif value is not None:
                out.append(ox.Quad(node, _p(local), _lit(value), _G))
        for w in r.warnings:
            out.append(ox.Quad(node, _p("note"), _lit(w), _G))
    for extra in (*report.missing, *report.unknown_files, *report.problems):
        out.append(ox.Quad(imp, _p("note"), _lit(extra), _G))
    for n, c in enumerate(report.sorted_changes(), 1):
        node = ox.NamedNode(f"{report.id}/change/{n}")
        out.append(ox.Quad(imp, _p("change"), node, _G))
        out += c.quads(node, files.get(c.file), _G)
    findings = list(report.findings) + [_disagreement_finding(d, report.labels) for d in report.disagreements]
    for n, f in enumerate(findings, 1):
        node = ox.NamedNode(f"{report.id}/finding/{n}")
        out += [ox.Quad(imp, _p("finding"), node, _G), ox.Quad(node, _A, _p("ImportFinding"), _G)]
        if f.file in files:
            out.append(ox.Quad(node, _p("inFile"), files[f.file], _G))
        for key, local in FINDING_FIELDS.items():
            value = getattr(f, key)
            if value is not None and value != "":
                out.append(ox.Quad(node, _p(local), _lit(value), _G))
        for iri, local in ((f.node, "resolvedTo"), *((c, "candidate") for c in f.candidates)):
            term = _node(iri) if iri else None
            if term is not None:
                out.append(ox.Quad(node, _p(local), term, _G))
        if f.link is not None:
            prop, target = (_node(v) for v in f.link)
            if prop is not None and target is not None:
                out += [
                    ox.Quad(node, _p("linkProperty"), prop, _G),
                    ox.Quad(node, _p("linkTarget"), target, _G),
                ]
    return out


def _disagreement_finding(d: Disagreement, labels: dict[str, str]) -> Finding:
    """A disagreement as a finding of the record (kind disagreement or rounding), by name."""
    name = labels.get(d.entity, d.entity)
    said = f"{'the older snapshot ' if d.older else ''}{d.snapshot}"
    return Finding(
        d.kind,
        d.file,
        f"{name} {d.prop.rsplit('#', 1)[-1]}: {d.value} ({said}) vs {d.other} in {d.sources}",
        value=d.value,
        node=d.entity,
        name=name,
        column=d.prop.rsplit("#", 1)[-1],
    )


def folder_sha256(directory: Path) -> str:
    """One digest of every file under ``directory`` (names and bytes; dot files left out): the datasets
    and the files that steer their import (names, overrides, the snapshot manifest) alike."""
    digest = hashlib.sha256()
    files = sorted(
        (p.relative_to(directory).as_posix(), p)
        for p in directory.rglob("*")
        if p.is_file() and not any(part.startswith(".") for part in p.relative_to(directory).parts)
    )
    for name, path in files:
        digest.update(name.encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()


def imported_sha256(store: Store) -> set[str]:
    """The folder digests of the imports the store keeps a record of."""
    return {
        q.object.value
        for q in store.quads(predicate=_p("contentSha256"), graph=IMPORTS_GRAPH)
        if isinstance(q.subject, ox.NamedNode)
        and isinstance(q.object, ox.Literal)
        and q.subject.value.startswith(IMPORT_BASE)
    }


def stale_quads(store: Store, keep: int = KEEP - 1) -> set[ox.Quad]:
    """The quads of every import record but the newest ``keep`` (the next import adds one)."""
    ids = [i["id"] for i in list_imports(store)]
    old = ids[keep:]
    if not old:
        return set()
    out: set[ox.Quad] = set()
    for q in store.quads(graph=IMPORTS_GRAPH):
        if isinstance(q.subject, ox.Triple):
            continue
        subject = q.subject.value
        if any(subject == i or subject.startswith(i + "/") for i in old):
            out.add(q)
    return out


_LIST = f"""
PREFIX aikg: <{AIKG}>
PREFIX prov: <{_PROV}>
SELECT ?import ?started ?ended ?source ?seconds ?file ?p ?o WHERE {{
  GRAPH <{IMPORTS_GRAPH}> {{
    ?import a aikg:Import ; prov:startedAtTime ?started .
    OPTIONAL {{ ?import prov:endedAtTime ?ended }}
    OPTIONAL {{ ?import aikg:importSource ?source }}
    OPTIONAL {{ ?import aikg:wallSeconds ?seconds }}
    OPTIONAL {{ ?import aikg:importedFile ?file . ?file ?p ?o }}
  }}
}}"""


def list_imports(store: Store) -> list[dict[str, Any]]:
    """Every recorded import, newest first, with its per-file figures."""
    imports: dict[str, dict[str, Any]] = {}
    files: dict[str, dict[str, dict[str, Any]]] = defaultdict(dict)
    for imp, started, ended, source, seconds, file, p, o in store.query(_LIST).rows:
        if imp is None:
            continue
        entry = imports.setdefault(
            imp.value,
            {
                "id": imp.value,
                "started": started.value if started is not None else "",
                "ended": ended.value if ended is not None else None,
                "directory": source.value if source is not None else None,
                "seconds": float(seconds.value) if seconds is not None else None,
            },
        )
        if file is None or p is None or o is None:
            continue
        record = files[entry["id"]].setdefault(file.value, {"warnings": []})
        local = p.value.rsplit("#", 1)[-1]
        field = {v: k for k, v in FILE_FIELDS.items()}.get(local)
        if field is not None:
            record[field] = _value(o)
        elif local == "targetGraph":
            record["graph"] = o.value
        elif local == "note":
            record["warnings"].append(o.value)
    out = []
    for entry in sorted(imports.values(), key=lambda e: e["started"], reverse=True):
        entry["files"] = sorted(files[entry["id"]].values(), key=lambda f: _order(f.get("file", "")))
        totals: dict[str, int] = defaultdict(int)
        for f in entry["files"]:
            for key in FILE_FIELDS:
                if isinstance(f.get(key), int):
                    totals[key] += f[key]
        entry["totals"] = dict(totals)
        out.append(entry)
    return out


def _order(file: str) -> int:
    from .datasets import DATASETS

    paths = [d.path for d in DATASETS]
    return paths.index(file) if file in paths else len(paths)


def _value(term: Any) -> Any:
    text = term.value
    datatype = term.datatype.value if isinstance(term, ox.Literal) and not term.language else ""
    if datatype.endswith("#integer"):
        return int(text)
    return text


_FINDINGS = f"""
PREFIX aikg: <{AIKG}>
SELECT ?import ?finding ?p ?o ?path WHERE {{
  GRAPH <{IMPORTS_GRAPH}> {{
    ?import aikg:finding ?finding . ?finding ?p ?o .
    OPTIONAL {{ ?finding aikg:inFile/aikg:filePath ?path }}
  }}
}}"""


def get_import(store: Store, import_id: str) -> dict[str, Any]:
    """One recorded import with every finding; NotFound when there is none with that id."""
    entry = next(
        (
            i
            for i in list_imports(store)
            if i["id"] == import_id or i["id"].removeprefix(IMPORT_BASE) == import_id
        ),
        None,
    )
    if entry is None:
        raise NotFound(f"no import {import_id!r} (see /api/imports)")
    found: dict[str, dict[str, Any]] = defaultdict(lambda: {"candidates": []})
    result = store.query(_FINDINGS, bindings={"import": ox.NamedNode(entry["id"])})
    for _, finding, p, o, path in result.rows:
        if finding is None or p is None or o is None:
            continue
        record = found[finding.value]
        if path is not None:
            record["file"] = path.value
        local = p.value.rsplit("#", 1)[-1]
        field = {v: k for k, v in FINDING_FIELDS.items()}.get(local)
        if field is not None:
            record[field] = _value(o)
        elif local == "resolvedTo":
            record["node"] = o.value
        elif local == "candidate":
            record["candidates"].append(o.value)
        elif local in ("linkProperty", "linkTarget"):
            record.setdefault("link", {})["property" if local == "linkProperty" else "target"] = o.value
    findings = []
    for key in sorted(found, key=lambda k: int(k.rsplit("/", 1)[-1])):
        record = found[key]
        record["candidates"].sort()
        if not record["candidates"]:
            del record["candidates"]
        findings.append(record)
    entry["findings"] = findings
    entry["changes"] = _changes(store, entry["id"])
    return entry


_CHANGES = f"""
PREFIX aikg: <{AIKG}>
PREFIX rdfs: <http://www.w3.org/2000/01/rdf-schema#>
SELECT ?import ?change ?p ?o ?path ?label WHERE {{
  GRAPH <{IMPORTS_GRAPH}> {{
    ?import aikg:change ?change . ?change ?p ?o .
    OPTIONAL {{ ?change aikg:inFile/aikg:filePath ?path }}
  }}
  OPTIONAL {{ ?change aikg:aboutEntity ?entity . ?entity rdfs:label ?label FILTER (LANG(?label) = "en") }}
}}"""
_CHANGE_FIELDS = {
    "changeKind": "kind",
    "aboutEntity": "entity",
    "statedProperty": "property",
    "snapshotBefore": "before_snapshot",
    "snapshotAfter": "after_snapshot",
    "difference": "difference",
}


def _changes(store: Store, import_id: str) -> list[dict[str, Any]]:
    """The diff of one recorded import, in the order it was recorded (by entity name)."""
    found: dict[str, dict[str, Any]] = defaultdict(lambda: {"before": [], "after": []})
    result = store.query(_CHANGES, bindings={"import": ox.NamedNode(import_id)})
    for _, change, p, o, path, label in result.rows:
        if change is None or p is None or o is None:
            continue
        record = found[change.value]
        if path is not None:
            record["file"] = path.value
        if label is not None:
            record["label"] = min(record.get("label", label.value), label.value)
        local = p.value.rsplit("#", 1)[-1]
        if local in _CHANGE_FIELDS:
            record[_CHANGE_FIELDS[local]] = o.value
        elif local in ("valueBefore", "valueAfter"):
            value = term_json(o)
            if value not in record[local.removeprefix("value").lower()]:
                record[local.removeprefix("value").lower()].append(value)
    out = []
    for key in sorted(found, key=lambda k: int(k.rsplit("/", 1)[-1])):
        record = found[key]
        for side in ("before", "after"):
            record[side].sort(key=lambda v: str(v.get("value", v.get("iri"))))
        out.append(record)
    return out


def report_from_record(entry: dict[str, Any]) -> ImportReport:
    """An ImportReport rebuilt from a record (for the CLI's text rendering of a stored import)."""
    report = ImportReport(
        id=entry["id"],
        started=entry["started"],
        seconds=entry.get("seconds") or 0.0,
        directory=entry.get("directory") or "",
    )
    for f in entry.get("files", []):
        fields = {k: f[k] for k in (*FILE_FIELDS, "graph") if k in f}
        report.files[f["file"]] = FileReport(**{"graph": "", "snapshot": "", "snapshot_basis": "", **fields})
        report.files[f["file"]].warnings = list(f.get("warnings", []))
    for c in entry.get("changes", []):
        report.changes.append(
            ValueChange(
                c.get("kind", ""),
                c.get("entity", ""),
                c.get("property", ""),
                c.get("file", ""),
                tuple(_term(v) for v in c.get("before", [])),
                c.get("before_snapshot"),
                tuple(_term(v) for v in c.get("after", [])),
                c.get("after_snapshot", ""),
                c.get("difference"),
            )
        )
        if "label" in c:
            report.labels[c["entity"]] = c["label"]
    for f in entry.get("findings", []):
        link = f.get("link")
        report.findings.append(
            Finding(
                f["kind"],
                f.get("file", ""),
                f.get("message", ""),
                row=f.get("row"),
                column=f.get("column"),
                value=f.get("value"),
                node=f.get("node"),
                name=f.get("name"),
                entity_kind=f.get("entity_kind"),
                candidates=f.get("candidates", []),
                rule=f.get("rule"),
                link=(link["property"], link["target"]) if link else None,
            )
        )
    return report


def _term(value: dict[str, Any]) -> ox.NamedNode | ox.Literal:
    """A value of a recorded change back as a term (for the CLI's text)."""
    if "iri" in value:
        return ox.NamedNode(value["iri"])
    if "language" in value:
        return ox.Literal(value["value"], language=value["language"])
    return ox.Literal(value["value"], datatype=ox.NamedNode(value.get("datatype", _XSD + "string")))
