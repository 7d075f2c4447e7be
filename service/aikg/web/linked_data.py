"""Linked data: every entity IRI ``https://w3id.org/aikg/id/<slug>`` answers locally at ``/id/<slug>``.

Browsers get the explorer's HTML page; RDF clients get the entity's description by content negotiation
(Turtle, N-Triples, JSON-LD, RDF/XML, or ``?format=``). The description is, over all graphs:

1. every triple with the entity as subject;
2. every triple pointing at it (incoming links);
3. the n-ary nodes (deals, results, phases, positions, prices, qualifications...) linked to it either way,
   with all their own triples: one level, so a deal shows its parties, amount and date;
4. the ``rdfs:label`` of every other IRI these triples mention (linked entities, classes, controlled
   values), so a reader needs no second request to name them.
"""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import quote

import pyoxigraph as ox
from flask import Blueprint, Response

from aikg.errors import NotFound
from aikg.lookup.entities import with_suggestion
from aikg.lookup.vocabulary import NARY_ROOTS
from aikg.namespaces import ID, ID_NODES, RDFS_NODES
from aikg.rdf.formats import GRAPH_FORMATS, HTML
from aikg.rdf.serialize import serialize_graph
from aikg.services import Services
from aikg.store import Store
from aikg.web import get_services, get_store
from aikg.web.cors import allow_cross_origin
from aikg.web.describe import errors, get_operation
from aikg.web.negotiation import negotiate, negotiated_response
from aikg.web.params import TextParam, documented, text_content

bp = Blueprint("linked_data", __name__)
allow_cross_origin(bp, methods=("GET", "HEAD", "OPTIONS"))

SLUG = re.compile(r"^[a-z0-9][a-z0-9-]*$")

SLUG_PARAM = TextParam("slug", "The entity's slug.", required=True, where="path")
OFFERS = (*GRAPH_FORMATS, HTML)
"""RDF first, so ``*/*`` (curl, scripts) gets Turtle; browsers ask for text/html by name."""


def _id_doc(_: Services) -> dict[str, Any]:
    rdf = text_content(*(f.mime for f in GRAPH_FORMATS))
    return get_operation(
        "Linked-data IRI of an entity",
        "HTML for browsers; Turtle, N-Triples, JSON-LD or RDF/XML by content negotiation.",
        {
            "200": {
                "description": "The entity's page or description.",
                "content": {**text_content("text/html"), **rdf},
            },
            **errors(404, 406),
        },
        [SLUG_PARAM.describe()],
        tags=["linked data"],
    )


@bp.get("/id/<slug>")
@documented(_id_doc)
def entity(slug: str) -> Response:
    """The entity's page or its RDF description, by content negotiation."""
    fmt = negotiate(OFFERS)
    if fmt is HTML:
        from aikg.web.pages import entity_page

        resp = entity_page(slug)
    else:
        store = get_store()
        if not SLUG.match(slug):
            raise with_suggestion(
                get_services(),
                slug,
                NotFound(f"no entity {slug[:200]!r}: an id is lower-case letters, digits and hyphens"),
            )
        iri = ID_NODES[slug]
        if next(store.quads(iri), None) is None:
            raise with_suggestion(
                get_services(), slug, NotFound(f"no entity {slug!r}: nothing is said about {iri}")
            )
        resp = negotiated_response(serialize_graph(describe(store, iri), fmt), fmt)
    resp.vary.add("Accept")
    if resp.status_code == 200:
        # Only an entity that exists has representations; a slug that is not one (CJK text, control
        # characters, a lone surrogate) must never reach a header, which carries Latin-1 only.
        resp.headers["Link"] = _links(slug)
    return resp


def describe(store: Store, iri: ox.NamedNode) -> list[ox.Triple]:
    """The entity's description (see the module docstring), without duplicates, in a stable order."""
    out: set[ox.Triple] = {q.triple for q in store.quads(iri)}
    out |= {q.triple for q in store.quads(None, None, iri)}
    expanded = set(nary_neighbours(store, iri))
    for node in expanded:
        out |= {q.triple for q in store.quads(node)}
    mentioned = {t for tr in out for t in (tr.subject, tr.object) if isinstance(t, ox.NamedNode)}
    label = RDFS_NODES.label
    for node in mentioned - expanded - {iri}:
        out |= {q.triple for q in store.quads(node, label)}
    return sorted(out, key=lambda t: (str(t.subject), str(t.predicate), str(t.object)))


def nary_neighbours(store: Store, iri: ox.NamedNode) -> list[ox.NamedNode]:
    """The n-ary nodes linked to ``iri`` in either direction (typed by a subclass of an n-ary root)."""
    roots = " ".join(f"<{r}>" for r in NARY_ROOTS)  # described with the entity they touch
    # ``iri`` is built from a checked slug, so it is safe in the query text.
    result = store.query(f"""
        SELECT DISTINCT ?n WHERE {{
          {{ {iri} ?p ?n }} UNION {{ ?n ?p {iri} }}
          FILTER(isIRI(?n))
          # Superclass types are materialized (graph/inferred), so no subClassOf* path is needed,
          # which Virtuoso 7.2 mis-evaluates when its end comes from VALUES.
          ?n a ?root .
          VALUES ?root {{ {roots} }}
        }}""")
    return [row[0] for row in result.rows if isinstance(row[0], ox.NamedNode)]


def _links(slug: str) -> str:
    """The canonical IRI and every representation of it, for clients that read ``Link``."""
    slug = quote(slug, safe="-")  # a checked slug needs no escaping; this keeps it so if the check moves
    links = [f'<{ID[slug]}>; rel="canonical"']
    links += [f'</id/{slug}?format={f.name}>; rel="alternate"; type="{f.mime}"' for f in OFFERS]
    return ", ".join(links)
