"""An update run on a staging copy: its operations one after the other, each seeing what the ones before
it did, and the difference before/after as the change.

The staging store is a scratch Oxigraph store holding copies of the graphs the request reaches
(:meth:`aikg.rdf.operations.UpdatePlan.graphs_to_stage`). What an operation means here is decided as it
runs, on the staging store as the earlier operations left it:

- ``CREATE`` of a graph that exists (it holds data, or an earlier operation created it) fails unless
  ``SILENT`` (409); ``ADD``/``MOVE``/``COPY`` from a graph that does not exist fail unless ``SILENT`` (404:
  a typo in the source must not empty the destination); the default graph always exists;
- ``CLEAR``/``DROP`` of a graph with no triples succeed (it is an empty graph); ``ALL``, ``NAMED`` and
  ``DEFAULT`` reach the client graphs only (the default graph is :data:`~aikg.namespaces.DEFAULT_GRAPH`,
  ``NAMED`` every other client graph): the graphs aikg maintains are left as they are, and the outcome
  says so;
- a ``SILENT`` operation that would change a graph aikg maintains, and ``LOAD SILENT`` (aikg fetches
  nothing), are skipped: the request succeeds, as SPARQL 1.1 Update §3 has a failed silent operation
  succeed, and the outcome names what was skipped;
- a pattern that reads the default graph reads the union of the staging store's graphs at that moment
  (graphs an earlier operation created included).
"""

from __future__ import annotations

import re

import pyoxigraph as ox

from aikg.errors import BadRequest, Conflict, NotFound, QuerySyntaxError
from aikg.namespaces import BASE
from aikg.rdf.operations import Step
from aikg.store import Quad, Store
from aikg.write import namespace
from aikg.write.matched import unnamed_graph_write

KEPT = (
    "the graphs aikg maintains (ontology, shapes, catalogue, seed sources, Epoch AI, derived, inferred) "
    "are not client graphs and were left as they are"
)


def stage_update(
    store: Store, *, steps: list[Step], graphs: list[str], default: str
) -> tuple[set[Quad], set[Quad], list[str]]:
    """Run the steps on a scratch copy of ``graphs``: the quads removed, the quads added, and notes
    on what the operations did beyond that (a ``CLEAR ALL``'s reach, a silent operation skipped).

    Module level, so a query worker can run it on a snapshot.
    """
    staging = ox.Store()
    for g in graphs:
        staging.add_graph(ox.NamedNode(g))
        staging.extend(store.quads(graph=g))
    before = set(staging)
    notes: list[str] = []
    for step in steps:
        _run(staging, step, default, notes)
    after = set(staging)
    if any(isinstance(q.graph_name, ox.DefaultGraph) for q in after):
        raise unnamed_graph_write()
    return before - after, after - before, notes


def _exists(staging: ox.Store, graph: str) -> bool:
    """Whether ``graph`` exists now: it held data when staged, or an earlier operation created it."""
    return staging.contains_named_graph(ox.NamedNode(graph))


def _client_graphs(staging: ox.Store, default: str, *, named_only: bool) -> list[str]:
    names = [g.value for g in staging.named_graphs() if isinstance(g, ox.NamedNode)]
    return [g for g in namespace.client_graphs(names) if not (named_only and g == default)]


def _refused(step: Step, graph: str, notes: list[str]) -> bool:
    """Whether ``step`` may not change ``graph``, aikg's own: a silent step is skipped (noted), any other
    is refused (the text check refuses it first; this holds for what only the run decides)."""
    if not namespace.maintained(graph):
        return False
    if not step.silent:
        namespace.check_writable(graph, step.verb)
    notes.append(
        f"{step.verb} SILENT: skipped, <{graph}> is maintained by aikg and cannot be changed by clients"
    )
    return True


def _run(staging: ox.Store, step: Step, default: str, notes: list[str]) -> None:
    verb, target, source = step.verb, step.target, step.source
    if verb == "LOAD":  # only LOAD SILENT comes this far (the guard refuses the others); never run
        notes.append(f"LOAD SILENT <{source}>: skipped, aikg never fetches a document on a client's behalf")
        return
    if verb in ("CLEAR", "DROP") and target in ("ALL", "NAMED"):
        reached = _client_graphs(staging, default, named_only=target == "NAMED")
        for g in reached:
            _update(staging, f"{verb} SILENT GRAPH <{g}>")
        notes.append(f"{verb} {target}: {len(reached)} client graph(s); {KEPT}")
        return
    if verb in ("CLEAR", "DROP", "CREATE"):
        assert target is not None
        if _refused(step, target, notes):
            return
        if verb == "CREATE" and _exists(staging, target):
            if step.silent:
                return
            raise Conflict(
                f"CREATE GRAPH <{target}>: the graph already exists; use CREATE SILENT to ignore this",
                errors=[{"graph": target}],
            )
        _update(staging, f"{verb} SILENT GRAPH <{target}>")
        return
    if verb in ("ADD", "MOVE", "COPY"):
        assert target is not None and source is not None
        if _refused(step, target, notes) or (verb == "MOVE" and _refused(step, source, notes)):
            return
        if source == target:
            return
        if source != default and not _exists(staging, source):
            if step.silent:
                return
            raise NotFound(
                f"{verb} <{source}> TO …: there is no graph <{source}> in the store; "
                f"use {verb} SILENT to ignore this",
                errors=[{"graph": source}],
            )
        staging.add_graph(ox.NamedNode(source))  # the default graph exists even when it holds nothing
        _update(staging, f"{verb} SILENT GRAPH <{source}> TO GRAPH <{target}>")
        return
    text = step.text
    if step.union_at is not None:
        graphs = sorted(g.value for g in staging.named_graphs() if isinstance(g, ox.NamedNode))
        dataset = " ".join([*(f"USING <{g}>" for g in graphs), *(f"USING NAMED <{g}>" for g in graphs)])
        text = f"{text[: step.union_at]}{dataset} {text[step.union_at :]}"
    _update(staging, text)


def _update(staging: ox.Store, text: str) -> None:
    try:
        staging.update(text, base_iri=BASE)
    except SyntaxError as exc:
        raise QuerySyntaxError(
            f"the update does not parse: {_first_line(exc)}", errors=_position(exc)
        ) from None
    except (OSError, RuntimeError, ValueError) as exc:
        raise BadRequest(f"the update failed: {_first_line(exc)}") from None


def _position(exc: SyntaxError) -> list[dict[str, int]]:
    """Line and column of a parse error, from Oxigraph's ``error at L:C: ...`` message."""
    m = re.search(r"\b(\d+):(\d+)\b", str(exc))
    return [{"line": int(m.group(1)), "column": int(m.group(2))}] if m else []


def _first_line(exc: Exception) -> str:
    return (str(exc).splitlines() or ["error"])[0][:300]
