"""Every fact imported from Epoch AI's files cites its cell: the file, the row and the column it was read
from, on the default store (the seeds and the Epoch snapshot), checked against the CSV files."""

from __future__ import annotations

from collections import defaultdict

import pyoxigraph as ox
import pytest
from rdflib.namespace import RDF, RDFS, SKOS

from aikg.epoch.catalog import graph_of
from aikg.epoch.citations import BY_MAPPER, NOT_CITED
from aikg.epoch.datasets import DATASETS
from aikg.epoch.importer import default_directory
from aikg.epoch.rows import read_table
from aikg.lookup.entities import entity_json
from aikg.namespaces import AIKG
from aikg.store import Store
from helpers import run_named, services_for

NAMES = {str(RDF.type), str(RDFS.label), str(SKOS.altLabel)}
"""A node's names and classes: read from whichever name column names it (cited, not checked per row)."""
TEXTS = {str(AIKG.note), str(AIKG.flag), str(AIKG.sourceRow)}
"""Notes and flags (a note read from an unreadable figure starts with its column's name), and the row."""


def test_every_cited_column_is_one_a_file_is_read_from() -> None:
    """The column map names only columns aikg reads (a misspelt or renamed column fails here instead of
    citing a column no file has); a file is cited by the columns of the map it has (files of one mapping
    function differ a little: the large-scale models have no cost column)."""
    reads: dict[str, set[str]] = defaultdict(set)
    for d in DATASETS:
        reads[d.mapper.__name__] |= set(d.reads)
    assert set(BY_MAPPER) == set(reads)
    unknown = {
        (mapper, c)
        for mapper, cited in BY_MAPPER.items()
        for columns in cited.values()
        for c in columns
        if not any(c in d.reads for d in DATASETS)
    }
    assert unknown == set()


def _used(store: Store, graph: str) -> dict[str, set[str]]:
    """Property -> subjects stating it in one dataset graph, catalogue entry and column nodes aside."""
    text = f"""
    PREFIX aikg: <{AIKG}>
    SELECT ?s ?p WHERE {{
      GRAPH <{graph}> {{ ?s ?p ?o }}
      FILTER NOT EXISTS {{ GRAPH <{graph}> {{ ?s a ?t }} FILTER (?t IN (aikg:Dataset, aikg:DatasetColumn)) }}
      FILTER NOT EXISTS {{ ?doc aikg:namedGraph <{graph}> ; <http://purl.org/dc/terms/publisher> ?s }}
    }}"""
    used: dict[str, set[str]] = defaultdict(set)
    for s, p in store.query(text).rows:
        if s is not None and p is not None:
            used[p.value].add(s.value)
    return used


def _cited(store: Store, graph: str) -> dict[str, set[str]]:
    text = f"""
    PREFIX aikg: <{AIKG}>
    SELECT ?p ?column WHERE {{ GRAPH <{graph}> {{ ?c aikg:readInto ?p ; aikg:columnName ?column }} }}"""
    cited: dict[str, set[str]] = defaultdict(set)
    for p, column in store.query(text).rows:
        if p is not None and column is not None:
            cited[p.value].add(column.value)
    return cited


@pytest.mark.parametrize("dataset", DATASETS, ids=lambda d: d.stem)
def test_every_fact_of_a_file_cites_a_column_that_has_its_value(epoch_store: Store, dataset) -> None:
    """Each property the import wrote into a dataset's graph is cited by a column of the file, and the
    row a node was read from has a value in (one of) the columns its facts cite."""
    graph = graph_of(dataset)
    used, cited = _used(epoch_store, graph), _cited(epoch_store, graph)
    assert used, graph
    uncited = sorted(p for p in used if p not in cited and p not in {str(p) for p in NOT_CITED})
    assert uncited == []
    table = {line: cells for line, cells in read_table(default_directory() / dataset.path).rows}
    rows = {
        s.value: int(r.value)
        for s, r in epoch_store.query(
            f"SELECT ?s ?r WHERE {{ GRAPH <{graph}> {{ ?s <{AIKG.sourceRow}> ?r }} }}"
        ).rows
        if s is not None and r is not None
    }
    empty = []
    for p, subjects in used.items():
        if p in NAMES | TEXTS:
            continue
        for s in subjects & rows.keys():
            cells = table[rows[s]]
            if not any((cells.get(c) or "").strip() for c in cited[p]):
                empty.append((s, p, rows[s], sorted(cited[p])))
    assert empty[:10] == [], f"{len(empty)} facts whose cited columns are empty in their row"


def _alphago_zero_run(store: Store) -> tuple[str, str, int]:
    """AlphaGo Zero's training run, the notable-models graph, and its row in that file (read from the CSV)."""
    dataset = next(d for d in DATASETS if d.path == "ai_models/notable_ai_models.csv")
    [line] = [
        n
        for n, cells in read_table(default_directory() / dataset.path).rows
        if cells["Model"] == "AlphaGo Zero"
    ]
    graph = graph_of(dataset)
    [(run,)] = store.query(
        f"PREFIX aikg: <{AIKG}> SELECT DISTINCT ?run "
        f"WHERE {{ GRAPH <{graph}> {{ ?run aikg:trainedModel ?m ; aikg:sourceRow {line} }} }}"
    ).rows
    assert isinstance(run, ox.NamedNode)
    return run.value, graph, line


def test_sources_of_an_epoch_figure_name_file_row_and_column(epoch_store: Store) -> None:
    """sources-of-entity and the entity JSON cite AlphaGo Zero's training compute by its cell: the
    notable-models file, the row the CSV has it on, the column "Training compute (FLOP)"."""
    run, graph, line = _alphago_zero_run(epoch_store)
    result = run_named(epoch_store, "sources-of-entity", {"entity": run}, {"query_timeout": 60})
    found = [dict(zip(result.variables, r, strict=True)) for r in result.rows]
    compute = [
        (r["file"].value, int(r["row"].value), r["column"].value)
        for r in found
        if r["property"].value == str(AIKG.trainingCompute) and r["graph"].value == graph
    ]
    assert compute == [("ai_models/notable_ai_models.csv", line, "Training compute (FLOP)")]
    body = entity_json(services_for(epoch_store, query_timeout=60), run)
    cells = [
        e
        for f in body["facts"]
        if f["property"]["name"] == "aikg:trainingCompute"
        for s in f["sources"]
        if s["graph"] == graph
        for e in s["evidence"]
    ]
    assert cells == [
        {
            "kind": "cell",
            "file": "ai_models/notable_ai_models.csv",
            "columns": ["Training compute (FLOP)"],
            "row": line,
        }
    ]
