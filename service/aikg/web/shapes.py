"""The shapes of aikg's JSON answers, declared once as typed Python: the OpenAPI document's schemas are
generated from them (:func:`aikg.web.openapi.component_schemas`, by pydantic), and the tests check the
routes' answers against the same declarations (tests/test_openapi.py; schemathesis in test_hostile.py
checks every answer against the document).

A class is a named schema of the document (``#/components/schemas/<class name>``); its docstring and its
attributes' docstrings are the descriptions. ``NotRequired`` marks a key an answer may leave out; a key
the answer carries as ``null`` is typed ``... | None``. An object that may carry more keys than those
declared (an ask answer's rows, an import's report) declares the ones a client may rely on.

Only typing here (no pydantic import): the routes refer to these classes when they are registered, and
a worker's boot should not pay for the schema generator it needs only when the document is asked for.
"""

from __future__ import annotations

from datetime import datetime
from typing import (
    Annotated,
    Any,
    Literal,
    NotRequired,  # pydantic reads TypedDict from here before 3.12
)

from annotated_types import Ge, Le
from typing_extensions import TypedDict

from aikg.knowledge.validate import Violation  # the dataclass the report is made of is its shape

Count = Annotated[int, Ge(0)]
Share = Annotated[float, Ge(0), Le(1)]
DateTime = datetime
"""A timestamp, as the answers write it: an ISO 8601 string (``format: date-time``)."""


class Doc:
    """The description of an attribute of a class others extend (``Annotated[int, Doc("...")]``): pydantic
    reads attribute docstrings of the class itself only, so a subclass would lose them. Its
    ``__get_pydantic_json_schema__`` is pydantic's hook for annotations; nothing here imports pydantic."""

    def __init__(self, text: str) -> None:
        self.text = text

    def __get_pydantic_json_schema__(self, schema: Any, handler: Any) -> dict[str, Any]:
        value: dict[str, Any] = handler(schema)
        return {**value, "description": self.text}


# -- errors ---------------------------------------------------------------------------------------


class Error(TypedDict):
    """The one error envelope of every refusal and failure."""

    ok: Literal[False]
    status: int
    error: str
    message: str
    errors: list[Any]


# -- an entity --------------------------------------------------------------------------------------


class Term(TypedDict):
    """A class or property of the vocabulary."""

    iri: str
    name: str
    label: str


class Node(TypedDict):
    """An entity at the other end of a relation."""

    id: str | None
    iri: str
    label: str
    types: list[Term]
    expanded: NotRequired[Expansion]


class SourceDocument(TypedDict, total=False):
    """The document a graph was read from."""

    iri: str
    title: str | None


class Evidence(TypedDict):
    """One thing a fact rests on."""

    kind: Literal["quotation", "rationale", "cell"]
    iri: NotRequired[str]
    text: NotRequired[str]
    lang: NotRequired[str | None]
    file: NotRequired[str]
    row: NotRequired[int]
    columns: NotRequired[list[str]]


class Source(TypedDict):
    """A graph that states a fact, with its document and certainty."""

    graph: str
    document: SourceDocument | None
    certainty: Term | None
    confidence: NotRequired[Term]
    """For a dataset's row: the dataset's own confidence in it."""
    evidence: NotRequired[list[Evidence]]
    """What the fact rests on in this graph: the sentences of the document that state it (quotation, word
    for word), aikg's reason for a curated fact (rationale), or the cell of a dataset's file it was read
    from (cell: file, row, column)."""


class Unit(TypedDict, total=False):
    """The unit a figure is given in."""

    iri: str
    symbol: str
    label: str


class Qualifier(TypedDict, total=False):
    """How a figure is to be read (about, at least, at most)."""

    iri: str
    name: str
    label: str
    symbol: str


class Fact(TypedDict):
    """A value with its unit and sources."""

    property: Term
    value: str
    datatype: str | None
    lang: str | None
    number: NotRequired[float]
    unit: Unit | None
    qualifier: Qualifier | None
    sources: list[Source]
    difference: NotRequired[Difference]
    """Where another source gives this figure otherwise (see the entity's ``comparisons``)."""


Difference = Literal["rounding", "disagreement"]
"""How two sources' figures differ: within rounding of each other, or not."""


class GraphCertainty(TypedDict):
    """How certain one source graph is of the entity."""

    graph: str
    certainty: Term


class GraphConfidence(TypedDict):
    """A dataset's own confidence in the row the entity was read from."""

    graph: str
    confidence: Term


class Comparison(TypedDict):
    """A figure sources give differently, their values side by side."""

    property: Term
    unit: Unit | None
    difference: Difference
    values: list[dict[str, Any]]
    """Each source's value (value, number, node, sources)."""
    pairs: list[dict[str, Any]]
    """Each two values that differ, and how (values, difference)."""


class Relation(TypedDict):
    """A link to another entity, with its sources."""

    property: Term
    node: Node
    sources: list[Source]


class Description(TypedDict):
    """A description of an entity, with its sources."""

    property: Term
    value: str
    lang: NotRequired[str | None]
    sources: list[Source]


class Expansion(TypedDict):
    """A related entity's own facts and relations."""

    facts: list[Fact]
    relations: list[Relation]
    descriptions: NotRequired[list[Description]]
    certainty: NotRequired[list[GraphCertainty]]
    confidence: NotRequired[list[GraphConfidence]]


class Document(TypedDict):
    """A source document of the entity's facts."""

    graph: str
    id: NotRequired[str | None]
    iri: NotRequired[str]
    title: NotRequired[str | None]
    publisher: NotRequired[dict[str, Any] | None]
    date: NotRequired[str | None]
    url: NotRequired[str | None]
    language: NotRequired[str | None]


class RelationGroup(TypedDict):
    """One direction and property of an entity's relations: how many links it has, where its next page is."""

    direction: Literal["outgoing", "incoming"]
    property: Term
    total: Annotated[int, Doc("Distinct other ends the property links.")]
    offset: int
    limit: int
    count: Annotated[int, Doc("Links on this page.")]
    next: Annotated[str | None, Doc("The next page (GET /api/entities/{id}/relations), null after the last.")]


class EntityRef(TypedDict, total=False):
    """The entity a page is of."""

    id: str | None
    iri: str
    label: str


class RelationPage(RelationGroup):
    """GET /api/entities/{id}/relations: one page of a relation group."""

    entity: EntityRef
    relations: list[Relation]
    documents: list[Document]
    truncated: bool


class AltLabel(TypedDict, total=False):
    """Another name of the entity."""

    value: str
    lang: str | None


class Relations(TypedDict):
    """An entity's relations, both ways."""

    outgoing: list[Relation]
    incoming: list[Relation]
    groups: list[RelationGroup]
    """One entry per direction and property: how many links the group has and where its next page is."""


class Entity(TypedDict):
    """GET /api/entities/{id}: an entity with its facts, relations and documents."""

    id: str | None
    iri: str
    label: str
    labels: dict[str, str]
    altLabels: list[AltLabel]  # noqa: N815  (the JSON key)
    types: list[Term]
    description: str | None
    descriptions: NotRequired[list[Description]]
    certainty: NotRequired[list[GraphCertainty]]
    confidence: NotRequired[list[GraphConfidence]]
    facts: list[Fact]
    relations: Relations
    documents: list[Document]
    truncated: bool
    links: NotRequired[dict[str, str]]
    """``self`` (this answer's address) and ``page`` (the entity's page)."""
    comparisons: NotRequired[list[Comparison]]
    """Figures sources give differently (rounding or disagreement)."""


# -- search, types, statistics, health ----------------------------------------------------------------


class Maker(TypedDict, total=False):
    """Who made an entity."""

    id: str
    label: str


class SearchHit(TypedDict):
    """One entity matching a search."""

    id: str
    iri: str
    label: str
    matched: str
    match: Literal["exact", "prefix", "word", "substring", "words", "parties", "misspelt"]
    types: list[Term]
    score: float
    description: NotRequired[str]
    """What tells namesakes apart: kind · maker · year."""
    kind: NotRequired[str]
    makers: NotRequired[list[Maker]]
    year: NotRequired[str | None]


class SearchResponse(TypedDict):
    """GET /api/search: the best matches, one per entity."""

    query: str
    type: str | None
    limit: int
    offset: int
    next: str | None
    """The address of the next page of matches, or null when there is none."""
    results: list[SearchHit]


class TypeCount(TypedDict):
    """A class with how many entities have it."""

    iri: str
    name: str
    label: str
    parents: NotRequired[list[Term]]
    direct: int
    total: int


class TypesResponse(TypedDict):
    """GET /api/types."""

    types: list[TypeCount]


class GraphSize(TypedDict, total=False):
    """A named graph and its size."""

    graph: str
    triples: int


class StatsResponse(TypedDict):
    """GET /api/stats."""

    triples: int
    entities: int
    graphs: list[GraphSize]
    sources: list[dict[str, Any]]


class Health(TypedDict):
    """GET /api/health."""

    ok: bool
    store: str
    version: int
    reads: Literal["ready"]
    writes: Literal["ready", "starting", "off"]
    """starting: the writer process is starting, a write now is 503 with Retry-After; off: no token is
    configured"""


# -- named queries and their answers ---------------------------------------------------------------


class Parameter(TypedDict):
    """A parameter of a named query."""

    name: str
    type: Literal["entity", "iri", "string", "date", "integer", "decimal"]
    description: str
    required: bool
    default: NotRequired[str | None]
    values: NotRequired[list[str]]
    """The words a string parameter takes, when its query declares them (any other: 400)."""


class NamedQuery(TypedDict):
    """A named query: its title, parameters and how the explorer draws it."""

    name: str
    title: str
    description: str
    parameters: list[Parameter]
    examples: NotRequired[list[str]]
    links: NotRequired[dict[str, str]]
    """Where to find it: ``self``, the query's address."""
    charts: NotRequired[list[dict[str, str]]]
    """How the explorer draws the answer: one object per '# chart:' line of the query's header (type:
    scatter, line, bar or auto; x, y, color, label, link, status, source name columns; log: x, y or xy;
    top; title)."""


class QueryList(TypedDict):
    """GET /api/queries."""

    queries: list[NamedQuery]


class Cell(TypedDict):
    """One value of a result row (SPARQL 1.1 JSON results), with the entity's id and label for an IRI."""

    value: str
    type: Literal["uri", "literal", "bnode"]
    datatype: NotRequired[str]
    lang: NotRequired[str]
    id: NotRequired[str]
    label: NotRequired[str]


class QueryResult(TypedDict):
    """A named query's answer: its columns and one page of rows (an unbound value is null)."""

    query: str
    parameters: NotRequired[dict[str, Any]]
    applied: NotRequired[dict[str, str]]
    """Every parameter the answer was computed with: the caller's, and the defaults of those not given (a
    ranking's include=likely, say)."""
    columns: list[str]
    rows: list[dict[str, Cell | None]]
    truncated: bool
    """More rows follow this page."""
    limit: NotRequired[int]
    """Rows per page (query_page unless asked, at most the row cap)."""
    offset: NotRequired[int]
    total: NotRequired[int | None]
    """Rows of the whole answer when aikg knows it (a kept answer, a last page), else null."""
    next: NotRequired[str | None]
    """The next page, null after the last."""


class Elements(TypedDict, total=False):
    """The nodes and edges of a graph view (Cytoscape's elements)."""

    nodes: list[Any]
    edges: list[Any]


class GraphView(TypedDict):
    """GET /api/graph: a capped view of the whole graph."""

    fold: NotRequired[bool]
    types: NotRequired[list[Any]]
    elements: Elements
    limit: NotRequired[int]
    truncated: bool
    total: Annotated[int, Doc("Nodes of the whole selection.")]
    shown: NotRequired[Annotated[int, Doc("Nodes answered.")]]


class Neighbors(GraphView):
    """GET /api/entities/{id}/neighbors: an entity's neighbourhood, capped."""

    focus: str
    label: NotRequired[str | None]
    depth: NotRequired[int]


# -- /api/ask ---------------------------------------------------------------------------------------


class Understood(TypedDict):
    """How the question was read."""

    query: str | None
    parameters: dict[str, Any]
    entity: str | None
    confidence: Share
    form: NotRequired[dict[str, Any]]
    """The logical form of a composed answer."""
    description: NotRequired[str]
    """What the answer did, in words."""
    sparql: NotRequired[str]
    """The SPARQL a composed answer ran."""
    sure: NotRequired[bool]
    """False when the reading left words of the question unexplained: the answer is then not shown (kind
    'unsure')."""
    unknown: NotRequired[list[str]]
    """The words of the question the reading does not account for: an answer shown with some did not use
    them (they ask nothing it could use: "who *wins*"); with others it is not sure."""


class Alternative(TypedDict):
    """Another reading of the question."""

    query: str
    parameters: dict[str, Any]
    confidence: Share
    title: NotRequired[str]
    example: NotRequired[str]
    links: NotRequired[dict[str, str]]
    """The named query's page, its API address and the editor."""


class AskAnswer(TypedDict):
    """The answer: rows, facts, or why there is none."""

    kind: Literal["rows", "facts", "none", "timeout", "unsure"]


class AskResponse(TypedDict):
    """GET or POST /api/ask (see aikg.ask.asker)."""

    question: str
    understood: Understood
    answer: AskAnswer
    abstained: bool
    alternatives: list[Alternative]


# -- writes and validation --------------------------------------------------------------------------


class WriteOutcome(TypedDict):
    """What a write changed."""

    ok: Literal[True]
    operation: str
    added: int
    removed: int
    graphs: list[str]
    validated_nodes: int
    notes: NotRequired[list[str]]
    """What the write did beyond its quads: the client graphs a CLEAR or DROP ALL/NAMED reached, a SILENT
    operation skipped."""


class ValidationReport(TypedDict):
    """The store's validation against the shapes."""

    ok: NotRequired[bool]
    version: int
    """The store version this report is of."""
    conforms: bool
    count: Count
    violations: list[Violation]
    started: DateTime
    """When it was computed."""
    seconds: float
    """How long the computation took."""


class ValidationPending(TypedDict):
    """The report of the current store version is still being computed."""

    ok: Literal[True]
    state: Literal["running", "queued"]
    """running: this version's report is being computed; queued: it will be once the computation running
    (of an older version) ends."""
    version: int
    """The store version whose report is to come."""
    started: DateTime | None
    retry_after: Annotated[int, Ge(1)]
    """As the Retry-After header."""
    message: str
    previous: ValidationReport | None
    """The last complete report, of an older store version (its version says which); null if there is
    none yet."""


# -- imports ----------------------------------------------------------------------------------------


class ImportList(TypedDict):
    """GET /api/imports: every recorded import, newest first."""

    imports: list[dict[str, Any]]


class ImportRecord(TypedDict):
    """GET /api/imports/{id}: one import with its findings and its diff (more keys than these)."""

    id: str
    files: list[Any]
    findings: list[Any]
    counts: dict[str, Any]


class ImportReport(TypedDict):
    """POST /api/imports: what the import did, or would do (a dry run); more keys than these."""

    files: list[Any]
    changes: list[Any]


class EntityHistory(TypedDict):
    """GET /api/entities/{id}/history: what Epoch AI's datasets said of an entity before."""

    entity: str
    history: list[Any]
    changes: list[Any]


SHAPES: tuple[type, ...] = (
    Error,
    Entity,
    RelationPage,
    SearchResponse,
    TypesResponse,
    StatsResponse,
    Health,
    QueryList,
    QueryResult,
    Neighbors,
    GraphView,
    AskResponse,
    WriteOutcome,
    ValidationReport,
    ValidationPending,
    ImportList,
    ImportRecord,
    ImportReport,
    EntityHistory,
)
"""The answers the routes give; the schemas they use come with them."""


for _shape in list(globals().values()):
    if isinstance(_shape, type) and _shape.__module__ == __name__ and issubclass(_shape, dict):
        # pydantic's configuration of a TypedDict: its attributes' docstrings are their descriptions
        _shape.__pydantic_config__ = {"use_attribute_docstrings": True}  # type: ignore[attr-defined]
