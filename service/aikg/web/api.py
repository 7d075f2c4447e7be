"""The JSON lookup API: search, entities, types, stats, named queries and the OpenAPI document.

Every read answer goes through the response cache (:mod:`aikg.web.response_cache`): a repeated request
costs a dictionary lookup and a revalidation costs a 304.
"""

from __future__ import annotations

import csv
import io
from typing import Any
from urllib.parse import urlencode

from flask import Blueprint, Response, jsonify, request

from aikg.errors import BadRequest
from aikg.lookup.entities import (
    MAX_OFFSET,
    MAX_RELATION_PAGE,
    RELATION_PAGE,
    entity_json,
    property_iri,
    relations_json,
)
from aikg.lookup.relations import DIRECTIONS, Direction
from aikg.lookup.search import (
    MAX_LIMIT,
    MAX_SEARCH_OFFSET,
    Description,
    LiveIndex,
    cell_json,
    describe,
    type_json,
)
from aikg.lookup.search import search as search_entities
from aikg.namespaces import AIKG
from aikg.query.named import PAGE_PARAMETERS, NamedQuery
from aikg.rdf.formats import JSON, RESULT_FORMATS
from aikg.rdf.serialize import TOTAL_HEADER, TRUNCATED_HEADER
from aikg.services import Services
from aikg.store import QueryResult
from aikg.web import current_settings, get_services, shapes
from aikg.web.describe import (
    FORMAT,
    IF_NONE_MATCH,
    cached_ok,
    class_names,
    errors,
    get_operation,
    json_answer,
    ref,
)
from aikg.web.negotiation import negotiate
from aikg.web.params import (
    IRI_PATTERN,
    JSON_OBJECT,
    ChoiceParam,
    ClassParam,
    IntParam,
    TextParam,
    documented,
    entity_in_path,
    text_content,
)
from aikg.web.response_cache import cached

bp = Blueprint("api", __name__, url_prefix="/api")

CSV = next(f for f in RESULT_FORMATS if f.name == "csv")
RESULT_OFFERS = (JSON, CSV)


def _json_only() -> None:
    """406 unless the client accepts JSON (the error itself is JSON, as every error is)."""
    negotiate((JSON,))


SEARCH_LIMIT = IntParam("limit", "Most results.", default=10, low=1, high=MAX_LIMIT)
SEARCH_OFFSET = IntParam(
    "offset",
    "Matches to skip: the next page of a name many entities share.",
    default=0,
    low=0,
    high=MAX_SEARCH_OFFSET,
)
GROUP_LIMIT = IntParam(
    "limit", "Links listed per relation group.", default=RELATION_PAGE, low=1, high=MAX_RELATION_PAGE
)
PAGE_OFFSET = IntParam("offset", "Links to skip.", default=0, low=0, high=MAX_OFFSET)
PAGE_LIMIT = IntParam("limit", "Links on the page.", default=RELATION_PAGE, low=1, high=MAX_RELATION_PAGE)
SEARCH_TEXT = TextParam(
    "q", "The text to search for.", required=True, not_blank=True, missing="the text to search for"
)
SEARCH_TYPE = ClassParam(
    "type",
    "Only entities of this class or a subclass: a class name (Organization) or IRI (blank: any class).",
    blank_is_any=True,
)
ENTITY_ID = entity_in_path("id", "A slug (coreweave) or a full entity IRI, URL-encoded.")
DIRECTION = ChoiceParam(
    "direction",
    "outgoing: the entity is the subject; incoming: the entity is the object.",
    DIRECTIONS,
    required=True,
    strip=True,
)
PROPERTY = TextParam(
    "property",
    "The property: a prefixed name (aikg:investor) or a full IRI.",
    required=True,
    pattern=rf"([a-z][a-z0-9]*:[A-Za-z0-9_.-]+|{IRI_PATTERN})",
    examples=("aikg:investor",),
)
QUERY_NAME = TextParam("name", "The query's name.", required=True, where="path", min_length=1)
ROWS_OFFSET = IntParam("offset", "Rows to skip.", default=0, low=0, high=MAX_OFFSET)
"""The page parameters of every named query (aikg.query.named), with :func:`rows_limit`."""


def rows_limit(max_rows: int, page: int) -> IntParam:
    """``limit`` of a named query: at most the row cap; ``page`` (query_page) when not given."""
    return IntParam(
        "limit",
        "Rows on the page (at most the row cap, max_rows; without it: query_page).",
        default=min(page, max_rows),
        low=1,
        high=max_rows,
    )


def page_params(services: Services) -> list[dict[str, Any]]:
    """``limit`` and ``offset``, which page every named query, as the OpenAPI document describes them."""
    settings = services.settings
    return [rows_limit(settings.max_rows, settings.query_page).describe(), ROWS_OFFSET.describe()]


def _health_doc(_: Services) -> dict[str, Any]:
    return get_operation(
        "Liveness",
        "Whether the service is up, the store's kind and data version, and whether reads and writes are "
        "taken now (writes are not while the writer process starts). 503 'store damaged' once a read "
        "of any process serving the store has met a damaged block of it (run aikg check).",
        {"200": json_answer(ref(shapes.Health), "The service is up."), **errors(406, 503)},
        tags=["lookup"],
    )


@bp.get("/health")
@documented(_health_doc)
def health() -> Response:
    """Liveness, the store's kind and version, and whether reads and writes are taken: ``writes`` is
    ``ready``, ``starting`` (the writer process is starting: a write now is 503 with ``Retry-After``) or
    ``off`` (no token configured)."""
    services = get_services()
    damage = services.damage or services.store.noted_damage()
    if damage is not None:
        raise damage  # a read (of any process serving it) met a damaged block: the data is not whole
    store = services.store
    writes = services.gate.state() if current_settings().token else "off"
    return jsonify(
        {"ok": True, "store": store.kind, "version": store.version, "reads": "ready", "writes": writes}
    )


def _search_doc(services: Services) -> dict[str, Any]:
    return get_operation(
        "Search entities by name",
        "Case-insensitive search over every entity's rdfs:label and skos:altLabel (English, Chinese, "
        "abbreviations). Exact matches rank before prefix, word-prefix and substring matches, then "
        "(several words) entities whose names, or whose parties' names, hold every word; among equal "
        "matches the entity with more links first, and a well-linked thing whose name starts with the "
        "query before an exact match of an obscure one. Fast enough for autocomplete.",
        {
            **cached_ok(ref(shapes.SearchResponse), "The best matches, one per entity."),
            **errors(400, 406, 503),
        },
        [
            SEARCH_TEXT.describe(),
            SEARCH_TYPE.describe(class_names(services)),
            SEARCH_LIMIT.describe(),
            SEARCH_OFFSET.describe(),
            IF_NONE_MATCH,
        ],
        tags=["lookup"],
    )


@bp.get("/search")
@documented(_search_doc)
@cached
def search() -> Response:
    """Autocomplete: entities whose label or alternative name matches ``q``, best first."""
    _json_only()
    q = SEARCH_TEXT.read(request.args.get("q")) or ""
    limit = SEARCH_LIMIT.read(request.args.get("limit"))
    offset = SEARCH_OFFSET.read(request.args.get("offset"))
    services = get_services()
    type_iri = SEARCH_TYPE.read(request.args.get("type"), services.vocabulary().resolve_class)
    index = services.index()
    # one match more than the page, to tell whether a next page exists
    ranked = search_entities(services.store, index, q, type_iri=type_iri, limit=offset + limit + 1)
    hits = ranked[offset : offset + limit]
    described = describe(services.store, index, hits)
    more = len(ranked) > offset + limit and offset + limit <= MAX_SEARCH_OFFSET
    return jsonify(
        {
            "query": q,
            "type": type_iri,
            "limit": limit,
            "offset": offset,
            "next": _next_page("/api/search", offset + limit, limit) if more else None,
            "results": [
                {
                    "id": h.entity.slug,
                    "iri": h.entity.iri,
                    "label": h.entity.label,
                    "matched": h.name,
                    "match": h.match,
                    "types": index.types_of(h.entity),
                    "score": h.score,
                    **_description(described[h.entity.iri]),
                }
                for h in hits
            ],
        }
    )


def _description(d: Description) -> dict[str, Any]:
    """A hit's ``description`` line and its parts (kind, makers, year), to tell namesakes apart."""
    return {
        "description": d.text(),
        "kind": d.kind,
        "makers": [{"id": m.slug, "label": m.label} for m in d.makers],
        "year": d.year,
    }


def _entity_doc(_: Services) -> dict[str, Any]:
    return get_operation(
        "One entity",
        "Types, labels, description, literal facts (datatype, unit, qualifier), outgoing and incoming "
        "relations with n-ary nodes (deals, results, phases...) expanded one level, and for every fact "
        "its source documents and certainty. Relations come in groups, one per direction and "
        "property: the first `limit` links of each group, and in `relations.groups` each group's "
        "total and the address of its next page (`truncated` is true when any group has one).",
        {**cached_ok(ref(shapes.Entity), "The entity."), **errors(400, 404, 406, 503)},
        [
            ENTITY_ID.describe(),
            GROUP_LIMIT.describe(),
            IF_NONE_MATCH,
        ],
        tags=["lookup"],
    )


@bp.get("/entities/<path:entity_id>")
@documented(_entity_doc)
@cached
def entity(entity_id: str) -> Response:
    """One entity with its facts, relations (the first ``limit`` of each group, with the group's total
    and the link to its next page), expanded n-ary nodes and the sources of each fact."""
    _json_only()
    limit = GROUP_LIMIT.read(request.args.get("limit"))
    return jsonify(entity_json(get_services(), entity_id, limit=limit))


def _relations_doc(_: Services) -> dict[str, Any]:
    return get_operation(
        "One page of an entity's relations",
        "The links of one property in one direction, `limit` of them from `offset`, with the group's "
        "total and the next page. Pages follow the store's own order, the same for every page while "
        "the data does not change; the links of one page are sorted by IRI.",
        {**cached_ok(ref(shapes.RelationPage), "The page."), **errors(400, 404, 406, 503)},
        [
            ENTITY_ID.describe(),
            DIRECTION.describe(),
            PROPERTY.describe(),
            PAGE_OFFSET.describe(),
            PAGE_LIMIT.describe(),
            IF_NONE_MATCH,
        ],
        tags=["lookup"],
    )


@bp.get("/entities/<path:entity_id>/relations")
@documented(_relations_doc)
@cached
def entity_relations(entity_id: str) -> Response:
    """One page of one relation group of an entity: the links of one property in one direction."""
    _json_only()
    direction = DIRECTION.read(request.args.get("direction"))
    raw_prop = PROPERTY.read(request.args.get("property")) or ""
    prop = property_iri(raw_prop)
    if prop is None:
        raise BadRequest(
            f"parameter 'property': no property {raw_prop!r} (give a prefixed name such as "
            f"'aikg:investor' or a property IRI)",
            errors=[{"parameter": "property", "value": raw_prop}],
        )
    offset = PAGE_OFFSET.read(request.args.get("offset"))
    limit = PAGE_LIMIT.read(request.args.get("limit"))
    dir_: Direction = "outgoing" if direction == "outgoing" else "incoming"
    return jsonify(relations_json(get_services(), entity_id, dir_, prop, offset=offset, limit=limit))


def _type_counts(services: Services) -> list[dict[str, Any]]:
    vocab = services.vocabulary()
    direct: dict[str, int] = {}
    total: dict[str, int] = {}
    for info in services.index().entities.values():
        every: set[str] = set()
        for t in info.types:
            direct[t] = direct.get(t, 0) + 1
            every |= {t} | vocab.ancestors(t)
        for t in every:
            total[t] = total.get(t, 0) + 1
    classes = sorted(c for c in vocab.classes if c.startswith(str(AIKG)))
    out = []
    for c in classes:
        out.append(
            {
                **type_json(vocab, c),
                "parents": [
                    type_json(vocab, p) for p in sorted(vocab.supers.get(c, ())) if p.startswith(str(AIKG))
                ],
                "direct": direct.get(c, 0),
                "total": total.get(c, 0),
            }
        )
    return sorted(out, key=lambda t: (-t["total"], t["name"]))


def _types_doc(_: Services) -> dict[str, Any]:
    return get_operation(
        "Classes with instance counts",
        "Every aikg class with its label, parents and how many entities it has, directly "
        "and with its subclasses.",
        {**cached_ok(ref(shapes.TypesResponse), "The classes."), **errors(406, 503)},
        [IF_NONE_MATCH],
        tags=["lookup"],
    )


@bp.get("/types")
@documented(_types_doc)
@cached
def types() -> Response:
    """Every aikg class with its label, parents and instance counts (direct and with subclasses)."""
    _json_only()
    return jsonify({"types": get_services().cached("type-counts", _type_counts)})


def _stats_doc(_: Services) -> dict[str, Any]:
    return get_operation(
        "Store statistics",
        "Triples per named graph, entities and source documents.",
        {**cached_ok(ref(shapes.StatsResponse), "The statistics."), **errors(406, 503)},
        [IF_NONE_MATCH],
        tags=["lookup"],
    )


@bp.get("/stats")
@documented(_stats_doc)
@cached
def stats() -> Response:
    """Triples per named graph, entities and source documents."""
    _json_only()
    services = get_services()
    store = services.store
    graphs = [{"graph": g, "triples": store.count(g)} for g in store.graphs()]
    docs = services.catalog()
    return jsonify(
        {
            "triples": sum(g["triples"] for g in graphs),
            "graphs": graphs,
            "entities": sum(1 for e in services.index().entities.values() if e.types),
            "sources": [
                {"graph": d.graph, "iri": d.iri, "title": d.title, "date": d.issued}
                for d in sorted(docs.values(), key=lambda d: d.graph)
            ],
        }
    )


def _queries_doc(_: Services) -> dict[str, Any]:
    return get_operation(
        "Named queries",
        "Every named query with its title, description and parameters.",
        {"200": json_answer(ref(shapes.QueryList), "The named queries."), **errors(406)},
        tags=["queries"],
    )


@bp.get("/queries")
@documented(_queries_doc)
def queries() -> Response:
    """The named queries: name, title, description and parameters."""
    _json_only()
    return jsonify({"queries": [_query_json(q) for q in get_services().named.all().values()]})


def _query_json(q: NamedQuery) -> dict[str, Any]:
    """A named query as /api/queries lists it: as the query describes itself, without its text."""
    listed = {k: v for k, v in q.to_json().items() if k != "sparql"}
    return {**listed, "links": {"self": f"/api/queries/{q.name}"}}


def _named_query_doc(services: Services) -> dict[str, Any]:
    return get_operation(
        "Run a named query",
        "Runs one named query; parameters go in the query string (see GET /api/queries). JSON rows by "
        "default (IRIs carry the entity id and label), CSV with format=csv or Accept: text/csv. "
        "`limit` and `offset` ask for one page of the answer, in the query's own order; `truncated` "
        "(and the X-AIKG-Truncated header) says more rows follow, `next` (and a Link rel=next header) "
        "where; `total` (and X-AIKG-Total) the rows of the whole answer when aikg knows it (a kept "
        "answer, a last page; else null). Without `limit` the page is the setting query_page (1,000 "
        "rows); `limit` goes up to the row cap (max_rows).",
        {
            **cached_ok(ref(shapes.QueryResult), "The result rows.", text_content("text/csv")),
            **errors(400, 404, 406, 429, 503),
        },
        [
            QUERY_NAME.describe(),
            *page_params(services),
            FORMAT,
            IF_NONE_MATCH,
        ],
        tags=["queries"],
    )


@bp.get("/queries/<name>")
@documented(_named_query_doc)
@cached
def named_query(name: str) -> Response:
    """Run one named query with the caller's parameters: JSON rows, or CSV on request; one page of
    ``limit`` rows from ``offset`` when asked (``truncated`` and ``next`` say when more follow)."""
    fmt = negotiate(RESULT_OFFERS)
    services = get_services()
    declared = services.named.get(name)
    settings = current_settings()
    # Without limit, JSON answers a page a person reads first (query_page), not the row cap: 10,000 rows
    # took 5 s at 10M; its body says the total and the next page. CSV's body cannot say that more rows
    # follow (only a header does), and the explorer's ↓ CSV link is a download of the answer: it keeps
    # the row cap, as before the page.
    whole = fmt is CSV and "limit" not in request.args
    page = (
        settings.max_rows
        if whole
        else rows_limit(settings.max_rows, settings.query_page).read(request.args.get("limit"))
    )
    offset = ROWS_OFFSET.read(request.args.get("offset"))
    raw = {k: v for k, v in request.args.items() if k not in ("format", *PAGE_PARAMETERS)}
    # the whole answer up to the cap is run as such (limit None), not as a page of max_rows + 1 rows:
    # Virtuoso refuses to sort more than 10,000 (SR353)
    result = services.named.run(name, raw, limit=None if whole else page, offset=offset)
    shown = result.row_count
    nxt = _next_page(f"/api/queries/{name}", offset + shown, page) if result.truncated and shown else None
    if fmt is CSV:
        resp = _csv(name, result)
    else:
        rows = _rows(result, services.index())
        resp = jsonify(
            {
                "query": name,
                "parameters": raw,
                # what the answer is computed with, the defaults included: a ranking says it counts
                # only the rows include=likely keeps unless asked otherwise
                "applied": {
                    p.name: raw.get(p.name) or p.default
                    for p in declared.parameters
                    if raw.get(p.name) or p.default is not None
                },
                "columns": result.variables,
                "rows": rows,
                "truncated": result.truncated,
                "limit": page,
                "offset": offset,
                "total": result.total,
                "next": nxt,
            }
        )
    # CSV has no place for the flag in its body: the header says it for every format, as /sparql does
    resp.headers[TRUNCATED_HEADER] = "true" if result.truncated else "false"
    if result.total is not None:
        resp.headers[TOTAL_HEADER] = str(result.total)
    if nxt is not None:
        resp.headers["Link"] = f'<{nxt}>; rel="next"'
    return resp


def _next_page(path: str, offset: int, limit: int) -> str:
    """The address of the next page: this request's parameters with the next offset."""
    args = [(k, v) for k, v in request.args.items(multi=True) if k not in PAGE_PARAMETERS]
    return f"{path}?" + urlencode([*args, ("limit", str(limit)), ("offset", str(offset))])


def _rows(result: QueryResult, index: LiveIndex) -> list[dict[str, dict[str, Any] | None]]:
    """The rows as JSON objects: one cell per distinct value, shared by the rows that hold it."""
    values, coded = result.table()
    cells = [cell_json(t, index) for t in values]
    variables = result.variables
    return [dict(zip(variables, [cells[i] for i in row], strict=True)) for row in coded]


def _csv(name: str, result: QueryResult) -> Response:
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\r\n")
    writer.writerow(result.variables)
    for row in result.rows:
        writer.writerow(["" if t is None else t.value for t in row])
    resp = Response(buf.getvalue(), mimetype="text/csv")
    resp.headers["Content-Disposition"] = f'inline; filename="{name}.csv"'
    return resp


def _openapi_doc(_: Services) -> dict[str, Any]:
    return get_operation(
        "This document",
        "The OpenAPI document of the HTTP surface.",
        {
            "200": {
                "description": "OpenAPI 3.1.",
                "content": {"application/json": {"schema": JSON_OBJECT}},
            }
        },
        tags=["lookup"],
    )


@bp.get("/openapi.json")
@documented(_openapi_doc)
def openapi() -> Response:
    """The OpenAPI 3 document of the HTTP surface (named queries and classes read from the data)."""
    from aikg.web.openapi import openapi_document

    return jsonify(openapi_document(get_services()))
