"""Turning what was understood into an answer: a named query's rows with the sources of each row, or the
facts of one entity with theirs.

Every row cites the source documents of the node the row is about (the entity column with the most
distinct values: the deal, the run, the result ...), with the certainty each document gives it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any
from urllib.parse import urlencode

import pyoxigraph as ox

from aikg.lookup.search import cell_json
from aikg.namespaces import ID, INFERRED_GRAPH
from aikg.query.named import NamedQuery
from aikg.store import QueryResult, Store

_ID = str(ID)
_XSD_STRING = "http://www.w3.org/2001/XMLSchema#string"
_SOURCES_QUERY = """
PREFIX aikg: <https://w3id.org/aikg/ontology#>
SELECT DISTINCT ?n ?g ?c WHERE {
  VALUES ?n { %s }
  GRAPH ?g { ?n ?p ?o }
  OPTIONAL { GRAPH ?g { ?n aikg:certainty ?c } }
}"""


def query_links(q: NamedQuery, params: Mapping[str, str]) -> dict[str, str]:
    """Where the query can be seen: its page, its API answer, and the SPARQL editor with the values in."""
    qs = f"?{urlencode(params)}" if params else ""
    return {
        "page": f"/queries/{q.name}{qs}",
        "api": f"/api/queries/{q.name}{qs}",
        # by name, not text: a whole query in the URL can pass the server's request-line limit (414)
        "editor": "/editor?" + urlencode({"named": q.name, **params}),
    }


def _entity_iri(term: Any) -> str | None:
    return term.value if isinstance(term, ox.NamedNode) and term.value.startswith(_ID) else None


def _key_column(result: QueryResult, skip: Iterable[str], nary: frozenset[str], index: Any) -> int | None:
    """The column a row is about: the entity column with the most distinct values (n-ary nodes first)."""
    best: tuple[int, int, int] | None = None
    for i, var in enumerate(result.variables):
        if var in skip:
            continue
        values = {iri for r in result.rows if (iri := _entity_iri(r[i])) is not None}
        if not values:
            continue
        sample = index.entities.get(next(iter(values)))
        is_nary = int(bool(sample and any(t in nary for t in sample.types)))
        key = (len(values), is_nary, -i)
        if best is None or key > best:
            best = key
    return None if best is None else -best[2]


def row_sources(
    store: Store, nodes: list[str], documents: Mapping[str, Any], term: Callable[[str], dict[str, Any]]
) -> dict[str, list[dict[str, Any]]]:
    """For each node, the documents whose graphs describe it, with the certainty each gives."""
    out: dict[str, list[dict[str, Any]]] = {n: [] for n in nodes}
    if not nodes:
        return out
    values = " ".join(f"<{n}>" for n in nodes)
    seen: dict[tuple[str, str], dict[str, Any]] = {}
    for n, g, c in store.query(_SOURCES_QUERY % values).rows:
        if n is None or g is None or g.value == str(INFERRED_GRAPH):
            continue
        key = (n.value, g.value)
        doc = documents.get(g.value)
        level = c.value if c is not None else (doc.default_certainty if doc else None)
        if key not in seen:
            seen[key] = {
                "graph": g.value,
                "document": {"iri": doc.iri, "title": doc.title} if doc else None,
                "certainty": term(level) if level else None,
            }
            out[n.value].append(seen[key])
        elif c is not None:
            seen[key]["certainty"] = term(c.value)
    return out


def rows_answer(
    store: Store,
    q: NamedQuery,
    params: Mapping[str, str],
    result: QueryResult,
    index: Any,
    documents: Mapping[str, Any],
    term: Callable[[str], dict[str, Any]],
    max_rows: int,
) -> dict[str, Any]:
    """A named query's rows (at most ``max_rows``), each with the sources of the node it is about."""
    rows = result.rows[:max_rows]
    shown = QueryResult(result.kind, result.variables, rows)
    key = _key_column(shown, {p.name for p in q.parameters}, index.vocab.nary, index)
    nodes = sorted({iri for r in rows if key is not None and (iri := _entity_iri(r[key])) is not None})
    sources = row_sources(store, nodes, documents, term)
    out_rows = []
    for r in rows:
        about = _entity_iri(r[key]) if key is not None else None
        out_rows.append(
            {
                "cells": {v: cell_json(t, index) for v, t in zip(result.variables, r, strict=True)},
                "about": about,
                "sources": sources.get(about, []) if about else [],
            }
        )
    return {
        "kind": "rows",
        "query": {
            "name": q.name,
            "title": q.title,
            "description": q.description,
            "links": query_links(q, params),
        },
        "columns": result.variables,
        "about": result.variables[key] if key is not None else None,
        "rows": out_rows,
        "total": len(result.rows),
        "truncated": result.truncated or len(result.rows) > max_rows,
    }
