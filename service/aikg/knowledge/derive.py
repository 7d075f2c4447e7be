"""Derived facts: computed by the CONSTRUCT rules in ``ontology/rules/``, never typed in by hand.

The derived graph is rebuilt from scratch whenever the data changes, so a changed input always
changes the value derived from it.
"""

from __future__ import annotations

from pathlib import Path

from rdflib import Graph

from ..namespaces import DERIVED_GRAPH
from ..store import Store
from .layout import rules_dir


def rule_files() -> list[Path]:
    """The derivation rules, in a stable order."""
    return sorted(rules_dir().glob("*.rq"))


def rebuild_derived(store: Store) -> dict[str, int]:
    """Run every rule over all graphs but the derived one and replace the derived graph."""
    sources = [g for g in store.graphs() if g != str(DERIVED_GRAPH)]
    out = Graph()
    for rule in rule_files():
        if not sources:
            break
        result = store.query(rule.read_text(encoding="utf-8"), default_graphs=sources)
        for triple in result.triples:
            out.add(triple)
    data = out.serialize(format="nt", encoding="utf-8")
    n = store.load(data, mime="application/n-triples", graph=str(DERIVED_GRAPH), replace=True)
    return {str(DERIVED_GRAPH): n}
