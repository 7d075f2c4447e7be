"""Every named query gives the same rows on the embedded store and on Virtuoso over the default store's
data (the seeds and Epoch AI's snapshot), or differs only in the ways docs/sparql.md names, each for a
reason of the engine's:

- Virtuoso 7.2 writes an xsd:double with six significant digits (openlink/virtuoso-opensource#1006,
  fixed in 7.2.12): doubles are compared to six digits;
- it keeps 15 decimal places of an xsd:decimal (aikg's rules compute 18): decimals are compared to 15;
- GROUP_CONCAT joins its parts in the engine's order (SPARQL leaves it open): compared as sets of parts;
- in model-accelerator-results it drops values an OPTIONAL binds after a UNION of sub-selects (68 of
  1,905 rows lose their accelerator count or a submitter): there each remote row must be a local row
  with cells missing, nothing else.

Rows are compared as sets: a SELECT DISTINCT's rows are distinct terms, and Virtuoso repeats a row whose
terms differ only in a lexical form (287.5 and 287.50).
"""

from __future__ import annotations

from decimal import Decimal

import pytest

from aikg.query.named import load_queries
from aikg.store import Store
from aikg.store.remote import RemoteStore
from conftest import free_port
from helpers import run_named
from virtuoso import VirtuosoServer

PARAMS = {
    "deals-of-organization": {"org": "nvidia"},
    "sources-of-entity": {"entity": "nvidia"},
    "peers-in-category": {"org": "coreweave"},
    "events-between": {"from": "2024-01-01", "to": "2024-12-31"},
    "models-trained-on": {"accelerator": "h100"},
    "funding-by-company": {"include": "all"},
    "largest-clusters-by-owner": {"include": "all"},
    "nvidia-only-capacity": {"include": "all"},
    "epoch-as-of": {"entity": "xai", "date": "2026-12-31"},
    "changes-since-last-import": {"entity": "xai"},
    "holdings-of-organization": {"org": "meta"},
}
"""The parameters each query is asked with (the rest take their defaults)."""

CONCATENATED = {"sources1": " | ", "sources2": " | ", "usedProperties": " ", "inputs": " "}
"""Columns holding a GROUP_CONCAT, and their separators."""

UNCHANGED = {"changes-since-last-import"}
"""Queries with nothing to answer on the default store (one import of each file: nothing changed)."""

DROPPED_OPTIONALS = {"model-accelerator-results"}
"""Where Virtuoso 7.2 drops some OPTIONAL values (docs/sparql.md)."""

_XSD = "http://www.w3.org/2001/XMLSchema#"


def cell(name: str, term) -> object:
    if term is None:
        return None
    datatype = getattr(getattr(term, "datatype", None), "value", "")
    if name in CONCATENATED:
        return frozenset(term.value.split(CONCATENATED[name]))
    if datatype == _XSD + "double":
        return f"{float(term.value):.5e}"
    if datatype in (_XSD + "decimal", _XSD + "integer"):
        return Decimal(term.value).quantize(Decimal("1e-15")).normalize()
    return term.value


def answer(store: Store, name: str) -> set[tuple]:
    result = run_named(store, name, PARAMS.get(name, {}), {"query_timeout": 60, "max_rows": 100000})
    names = result.variables
    return {tuple((n, cell(n, t)) for n, t in zip(names, row, strict=True)) for row in result.rows}


@pytest.fixture(scope="module")
def default_remote(epoch_store):
    """The default store's data in a Virtuoso of its own, never written to before. The session's shared
    one had run other files' writes first (the test files are spread over two processes): Virtuoso
    7.2 then lost two of CoreWeave's peers in peers-in-category's FILTER NOT EXISTS (an engine fault
    after writes, named in the query), and three triples outlived dropping every graph it listed, so
    the seeds put back held 7,856 triples where they have 7,853."""
    server = VirtuosoServer(free_port(), free_port())
    try:
        remote = RemoteStore(server.url, gsp_url=server.gsp_url)
        remote.load(epoch_store.dump(mime="application/n-quads"), mime="application/n-quads")
        yield remote
    finally:
        server.stop()


@pytest.mark.needs("virtuoso")
@pytest.mark.parametrize("name", sorted(load_queries()))
def test_a_named_query_answers_alike_on_both_backends(epoch_store, default_remote, name) -> None:
    ours, theirs = answer(epoch_store, name), answer(default_remote, name)
    assert ours or name in UNCHANGED, f"{name} answers nothing on the default store"
    if name not in DROPPED_OPTIONALS:
        assert theirs == ours
        return
    # Each remote row is a local row, or a local row with some cells left unbound: nothing else.
    missing = theirs - ours
    for row in missing:
        bound = {(n, v) for n, v in row if v is not None}
        assert any(bound <= set(full) for full in ours), row
    assert len(missing) < len(ours) / 10
