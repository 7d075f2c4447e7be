"""Folding n-ary nodes (deals, results, runs, phases, positions...) into labelled edges between entities.

The rule, the same for every n-ary class:

1. A value qualification (``aikg:ValueQualification``) becomes an attribute of the node it qualifies
   (``amount_qualifier = approximately``) and its symbol prefixes that figure in folded labels.
2. Every other n-ary node N is looked at through its ROLE LINKS: each link between N and an entity
   (not n-ary), in either direction, with the linking property as the role.
3. N folds only when it links at least two distinct entities. The PRIMARY role is the first of
   :data:`PRIMARY_ROLES` N uses (the party that acts: investor, customer, lessee, submitter, claimant,
   operator, agent...), else the alphabetically first role label. Entities in the primary role are the
   edge SOURCES; every other linked entity is a TARGET. N becomes one edge per source-target pair,
   labelled ``<N's class> (<source role> → <target role>): <key values>`` and carrying N's attributes,
   ``via`` (N's IRI) and ``via_label``. So an investment is investor → investee, and a benchmark result
   is submitter → accelerator, submitter → workload, submitter → system.
4. A link from n-ary A to n-ary B becomes an attribute of A (on A's node, or on A's folded edges)
   valued with B's label, so folding never leaves an edge dangling.
5. N with fewer than two linked entities (a founding event of one company, a price list of one
   platform), or only sources, stays a node; so does the focus of a neighbourhood, which then counts
   as an entity for the others.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

from aikg.export.budget import bounded
from aikg.export.model import Edge, GraphModel, Node, Value, add_value, attribute_key
from aikg.lookup.vocabulary import QUALIFIER_SYMBOLS
from aikg.namespaces import AIKG, curie

PRIMARY_ROLES: tuple[str, ...] = tuple(
    str(AIKG[name])
    for name in (
        "investor",
        "customer",
        "lessee",
        "submitter",
        "claimant",
        "operator",
        "agent",
        "heldBy",
        "suite",
        "trainedModel",
        "subjectPlatform",
        "phaseOf",
        "priceListOf",
        "topology",
        "party",
    )
)
"""Roles whose holder is the source end of folded edges, most telling first."""


@dataclass(frozen=True)
class _Link:
    other: str
    role: str
    outgoing: bool
    graphs: frozenset[str]


def fold(model: GraphModel, *, keep: set[str] | None = None) -> GraphModel:
    """Fold the model's n-ary nodes in place per the module's rule, except those in ``keep``."""
    qualification = model.vocab.descendants(str(AIKG.ValueQualification))
    _fold_qualifications(
        model,
        [n for n in model.nodes.values() if set(n.types) & qualification and n.id not in (keep or set())],
    )
    links = _links(model)
    nary = {k for k, n in model.nodes.items() if n.nary} - (keep or set())
    plans = {
        k: p
        for k in bounded(sorted(nary), "folding n-ary nodes into edges")
        if (p := _plan(model, links[k], nary)) is not None
    }
    for key, (sources, targets) in bounded(plans.items(), "folding n-ary nodes into edges", every=64):
        node = model.nodes[key]
        for link in links[key]:
            if link.other in nary and link.other not in plans and not link.outgoing:
                add_value(model.nodes[link.other].attrs, attribute_key(link.role), node.label)
        _add_folded_edges(model, node, links[key], nary, sources, targets)
    _remove(model, set(plans))
    return model


def _fold_qualifications(model: GraphModel, quals: list[Node]) -> None:
    qualified_by = str(AIKG.qualifiedBy)
    ids = {q.id for q in quals}
    holders: dict[str, list[str]] = defaultdict(list)
    for e in model.edges.values():
        if e.relation == qualified_by and e.target in ids:
            holders[e.target].append(e.source)
    for q in quals:
        props = q.terms.get(str(AIKG.onProperty), [])
        kinds = q.terms.get(str(AIKG.qualifier), [])
        for holder in (model.nodes[h] for h in holders[q.id] if h in model.nodes):
            for prop in props:
                prop_label = model.vocab.label(prop)
                for kind in kinds:
                    add_value(holder.attrs, attribute_key(prop) + "_qualifier", model.vocab.label(kind))
                    symbol = QUALIFIER_SYMBOLS.get(kind, "")
                    holder.key_values = [
                        (k, symbol + v if k == prop_label and symbol else v) for k, v in holder.key_values
                    ]
    _remove(model, ids)


def _links(model: GraphModel) -> dict[str, list[_Link]]:
    links: dict[str, list[_Link]] = defaultdict(list)
    for e in model.edges.values():
        graphs = frozenset(e.graphs)
        links[e.source].append(_Link(e.target, e.relation, True, graphs))
        links[e.target].append(_Link(e.source, e.relation, False, graphs))
    return links


def _plan(model: GraphModel, links: list[_Link], nary: set[str]) -> tuple[list[str], list[str]] | None:
    entity_links = [lk for lk in links if lk.other not in nary]
    if len({lk.other for lk in entity_links}) < 2:
        return None
    rank = {role: i for i, role in enumerate(PRIMARY_ROLES)}
    listed = [lk for lk in entity_links if lk.outgoing and lk.role in rank]
    if listed:
        primary = min(listed, key=lambda lk: rank[lk.role]).role
    else:
        primary = min(entity_links, key=lambda lk: (model.vocab.label(lk.role), lk.role)).role
    sources = sorted({lk.other for lk in entity_links if lk.role == primary})
    targets = sorted({lk.other for lk in entity_links} - set(sources))
    return (sources, targets) if targets else None


def _add_folded_edges(
    model: GraphModel, node: Node, links: list[_Link], nary: set[str], sources: list[str], targets: list[str]
) -> None:
    vocab = model.vocab
    roles: dict[str, list[str]] = defaultdict(list)
    graphs: set[str] = set()
    for lk in links:
        graphs |= lk.graphs
        if lk.other not in nary:
            label = vocab.label(lk.role) if lk.outgoing else f"{vocab.label(lk.role)} of"
            if label not in roles[lk.other]:
                roles[lk.other].append(label)
    attrs: dict[str, list[Value]] = {k: list(v) for k, v in node.attrs.items()}
    for lk in links:
        if lk.other in nary and lk.outgoing:
            add_value(attrs, attribute_key(lk.role), model.nodes[lk.other].label)
    cls = node.type
    cls_label = vocab.label(cls) if cls else "n-ary node"
    values = ", ".join(f"{k} {v}" for k, v in node.key_values)
    for s in sources:
        for t in targets:
            src_role, tgt_role = ", ".join(roles[s]), ", ".join(roles[t])
            head = f"{cls_label} ({src_role} → {tgt_role})"
            key = f"{curie(node.id)}: {curie(s)} -> {curie(t)}"
            edge_attrs = {k: list(v) for k, v in attrs.items()}
            edge_attrs.update(
                via=[node.id], via_label=[node.label], source_role=[src_role], target_role=[tgt_role]
            )
            label = head + (f": {values}" if values else "")
            model.edges[("folded", node.id, s, t)] = Edge(
                key, s, t, cls or str(AIKG.Event), label, set(graphs), edge_attrs, values
            )


def _remove(model: GraphModel, ids: set[str]) -> None:
    for key in ids:
        model.nodes.pop(key, None)
    for edge in [k for k, e in model.edges.items() if e.source in ids or e.target in ids]:
        del model.edges[edge]
