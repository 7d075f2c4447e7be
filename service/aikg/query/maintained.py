"""Named queries answered from rows kept beside the data (issue 49: answers computed before they are asked).

A whole-graph named query can take seconds to minutes at 10M statements however it is written: the
engine reads every node of a kind and the labels around each. A query declared ``# maintained: root=VAR
reach=N`` has its rows kept in ``graph/answers`` (:data:`aikg.namespaces.ANSWERS_GRAPH`), computed by its
own text when the generated graphs are built and kept up to date with each gated write in the same
transaction (:mod:`aikg.knowledge.answers`). Each row belongs to one node, the value of the root
variable, and reads only statements of nodes at most ``reach`` link steps from it; that is what lets a
write recompute the rows of the nodes it can reach, and nothing else.

This module holds what the reading side needs: what a declared query reads (:func:`shape`), how a page of
its kept rows is read instead (:func:`read_page`: the rows are kept as lines of TSV in *bands* of the
query's order, so a page is read from the bands it falls in, same columns, same order), and whether a
store keeps them for the query's current text (:func:`is_kept`). A store built before the query was
declared, or before its text changed, answers with the query's own text until its generated graphs are
rebuilt.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from functools import lru_cache
from typing import TYPE_CHECKING, Any

import pyoxigraph as ox
from rdflib import URIRef, Variable
from rdflib.paths import Path as PropertyPath
from rdflib.plugins.sparql.algebra import translateQuery
from rdflib.plugins.sparql.parser import parseQuery
from rdflib.plugins.sparql.parserutils import CompValue

from aikg.namespaces import ANSWER, ANSWERS_GRAPH, RDF, node
from aikg.rdf.datatypes import XSD, XSD_NUMERIC
from aikg.rdf.results import QueryResult, ResultKind, StoredTerm, Term
from aikg.rdf.tokens import tokenize

if TYPE_CHECKING:
    from aikg.query.named import NamedQuery
    from aikg.store import Store

FORMAT = "5"
"""The kept rows' layout; a change to it (or to a query's text) leaves earlier rows unused."""

OF = node(ANSWER["of"])
"""A row's query: ``<row> answer:of <answer/query/NAME>``."""
DIGEST = node(ANSWER["digest"])
"""On a query's node: the digest of the text and declaration its kept rows were computed with."""


def column(variable: str) -> ox.NamedNode:
    """The predicate a kept row states its value of ``variable`` with."""
    return node(ANSWER["column/" + variable])


def part(variable: str) -> ox.NamedNode:
    """The predicate a band states the value of a parameter its rows have with: bands only, so a
    request's value selects its partition's bands without reading the rows that have it too (with the
    rows' column, a band read of largest-training-runs' 30 bands took 160 ms at 10M, 11 ms without)."""
    return node(ANSWER["part/" + variable])


def query_node(name: str) -> ox.NamedNode:
    """The node naming a maintained query in the answers graph."""
    return node(ANSWER["query/" + name])


@dataclass(frozen=True)
class Upkeep:
    """A ``# maintained:`` declaration: each row belongs to the node bound to ``root``, and reads
    statements of nodes at most ``reach`` link steps from it (links: the query's own predicates)."""

    root: str
    reach: int

    @classmethod
    def parse(cls, spec: str, where: str) -> Upkeep:
        """``root=VAR reach=N`` (reach defaults to 1)."""
        fields = dict(part.split("=", 1) for part in spec.split() if "=" in part)
        root = fields.get("root", "").lstrip("?$")
        try:
            reach = int(fields.get("reach", "1"))
        except ValueError:
            reach = -1
        if not root or reach < 0 or set(fields) - {"root", "reach"}:
            raise ValueError(f"{where}: '# maintained:' takes root=VARIABLE reach=STEPS, not {spec!r}")
        return cls(root, reach)


@dataclass(frozen=True)
class Shape:
    """What a maintained query reads and answers, from its algebra."""

    variables: tuple[str, ...]
    """The projected columns, in order."""
    predicates: frozenset[ox.NamedNode]
    """Every predicate the query names (in paths too): a change of any other statement leaves it as is."""
    required: frozenset[tuple[ox.NamedNode, ox.NamedNode | None]]
    """Statements every root has: (predicate, class) for a required type, (predicate, None) otherwise."""
    order: str
    """The top-level ORDER BY clause as written, '' when there is none."""
    classes: frozenset[ox.NamedNode] = frozenset()
    """Classes a root has one of (a UNION of a benchmark result and a training run); empty: not known."""
    incoming: frozenset[ox.NamedNode] = frozenset()
    """Predicates of statements every root is the object of (an owner: ``?cluster aikg:operator ?owner``)."""


@lru_cache(maxsize=64)
def shape(text: str, root: str) -> Shape:
    """The shape of a maintained query's text; ValueError when it cannot be maintained by root.

    It must name no variable predicate (a change to any statement could change it), give each row once
    (DISTINCT, or grouped), project its root and the variables it is ordered by, and state something
    every root has (so a write finds the roots it may change without reading the whole graph).
    """
    algebra = translateQuery(parseQuery(text)).algebra
    variables = tuple(str(v) for v in algebra["PV"])
    if variables != projection(text):
        raise ValueError(
            f"the projection read from the text {projection(text)} is not the query's {variables}"
        )
    if root not in variables:
        raise ValueError(f"the root ?{root} is not a projected variable")
    predicates: set[ox.NamedNode] = set()
    for _, p, _ in _patterns(algebra):
        if isinstance(p, Variable):
            raise ValueError("a variable predicate can read any statement")
        predicates |= _iris(p)
    if not _distinct(algebra["p"]):
        raise ValueError("rows must be DISTINCT or grouped: kept rows are a set")
    order = _order_clause(text)
    ordered = {name for names, _ in order_keys(text) for name in names}
    if not ordered <= set(variables):
        raise ValueError(f"ordered by variables not projected: {sorted(ordered - set(variables))}")
    required = frozenset(_required(algebra["p"], Variable(root)))
    incoming = frozenset(p for p, _ in _required(algebra["p"], Variable(root), incoming=True))
    if not required and not incoming:
        raise ValueError(f"no statement every ?{root} has (its roots could not be told apart)")
    classes = _root_classes(algebra["p"], Variable(root)) or set()
    return Shape(variables, frozenset(predicates), required, order, frozenset(classes), incoming)


def _iris(p: object) -> set[ox.NamedNode]:
    if isinstance(p, URIRef):
        return {node(p)}
    if isinstance(p, PropertyPath):
        found: set[ox.NamedNode] = set()
        for attr in ("args", "path", "arg"):
            sub = getattr(p, attr, None)
            for part in sub if isinstance(sub, list | tuple) else [sub] if sub is not None else []:
                found |= _iris(part)
        return found
    return set()


def _patterns(tree: object) -> list[tuple[Any, Any, Any]]:
    out: list[tuple[Any, Any, Any]] = []
    if isinstance(tree, CompValue):
        if tree.name == "BGP":
            out.extend(tree.triples)
        for value in tree.values():
            out.extend(_patterns(value))
    elif isinstance(tree, list | tuple):
        for value in tree:
            out.extend(_patterns(value))
    return out


def _distinct(top: CompValue) -> bool:
    """True when the query's rows are DISTINCT or come from a GROUP BY."""
    if top.name in ("Distinct", "Reduced"):
        return top.name == "Distinct"
    if top.name in ("Project", "OrderBy", "Slice", "Filter", "Extend"):
        return _distinct(top.p)
    return top.name in ("AggregateJoin", "Group")


def _required(
    pattern: object, root: Variable, *, incoming: bool = False
) -> set[tuple[ox.NamedNode, ox.NamedNode | None]]:
    """The statements about ``root`` that every solution of ``pattern`` matches (as in
    :func:`aikg.knowledge.incremental._required`, for one subject); ``incoming``: those naming ``root``
    as their object, (predicate, None) each."""
    if not isinstance(pattern, CompValue):
        return set()
    name = pattern.name
    if name == "BGP":
        found: set[tuple[ox.NamedNode, ox.NamedNode | None]] = set()
        for s, p, o in pattern.triples:
            if incoming:
                if o == root and isinstance(p, URIRef):
                    found.add((node(p), None))
            elif s == root and isinstance(p, URIRef):
                found.add((node(p), None))  # a type of any class, when the root's class is in a UNION
                if p == RDF.type and isinstance(o, URIRef):
                    found.add((node(p), node(o)))
        return found
    if name == "Join":
        return _required(pattern.p1, root, incoming=incoming) | _required(pattern.p2, root, incoming=incoming)
    if name in ("LeftJoin", "Minus"):
        return _required(pattern.p1, root, incoming=incoming)
    if name == "Union":
        return _required(pattern.p1, root, incoming=incoming) & _required(pattern.p2, root, incoming=incoming)
    if name in ("Filter", "Extend", "Project", "Distinct", "Reduced", "ToMultiSet", "OrderBy", "Graph"):
        return _required(pattern.p, root, incoming=incoming)
    if _grouped_by(pattern, root):  # each group's solutions matched what every solution matches
        return _required(pattern.p, root, incoming=incoming)
    return set()


def _grouped_by(pattern: CompValue, root: Variable) -> bool:
    """True for a grouping (or its aggregation) whose groups are keyed by ``root``, among others."""
    if pattern.name == "AggregateJoin":
        return _grouped_by(pattern.p, root)
    return pattern.name == "Group" and root in (pattern.expr or [])


@lru_cache(maxsize=64)
def projection(text: str) -> tuple[str, ...]:
    """The projected variables of a SELECT, read from its tokens (the algebra costs ~0.5 s a query, too
    much for a server's first answer): ``?v`` and ``(expression AS ?v)`` between SELECT and WHERE."""
    out: list[str] = []
    depth, selecting, after_as = 0, False, False
    for tok in tokenize(text):
        if tok.kind == "keyword" and tok.value == "SELECT" and not selecting and not out:
            selecting = True
        elif not selecting:
            continue
        elif tok.kind == "keyword" and tok.value == "WHERE" or tok.text == "{":
            break
        elif tok.text == "(":
            depth += 1
        elif tok.text == ")":
            depth -= 1
        elif tok.kind == "keyword" and tok.value == "AS":
            after_as = True
        elif tok.kind == "var" and (depth == 0 or after_as):
            out.append(tok.value)
            after_as = False
    return tuple(out)


def _root_classes(pattern: object, root: Variable) -> set[ox.NamedNode] | None:
    """Classes of which every solution's ``root`` has one (None: not known)."""
    if not isinstance(pattern, CompValue):
        return None
    name = pattern.name
    if name == "BGP":
        found = {
            node(o) for s, p, o in pattern.triples if s == root and p == RDF.type and isinstance(o, URIRef)
        }
        return found or None
    if name == "Join":
        left, right = _root_classes(pattern.p1, root), _root_classes(pattern.p2, root)
        return left if left is not None else right
    if name in ("LeftJoin", "Minus"):
        return _root_classes(pattern.p1, root)
    if name == "Union":
        left, right = _root_classes(pattern.p1, root), _root_classes(pattern.p2, root)
        return None if left is None or right is None else left | right
    if name in ("Filter", "Extend", "Project", "Distinct", "Reduced", "ToMultiSet", "OrderBy", "Graph"):
        return _root_classes(pattern.p, root)
    if _grouped_by(pattern, root):
        return _root_classes(pattern.p, root)
    return None


def _order_clause(text: str) -> str:
    """The top-level ``ORDER BY`` clause to the end of the text ('' without one)."""
    depth = 0
    for tok in tokenize(text):
        if tok.kind == "punct" and tok.text in ("{", "}"):
            depth += 1 if tok.text == "{" else -1
        elif depth == 0 and tok.kind == "keyword" and tok.value == "ORDER":
            return text[tok.start :].strip()
    return ""


def digest(q: NamedQuery) -> str:
    """What kept rows were computed with: the query's text and declaration, and the rows' layout."""
    assert q.maintained is not None
    seed = f"{FORMAT}\n{q.maintained.root}\n{q.maintained.reach}\n{q.text}"
    return hashlib.sha256(seed.encode()).hexdigest()[:24]


def kept_columns(q: NamedQuery) -> tuple[str, ...]:
    """The columns a kept row states one by one, beside its line: its root (found by a write) and its
    parameters (selected by a request)."""
    assert q.maintained is not None
    wanted = {q.maintained.root} | {p.name for p in q.parameters}
    return tuple(v for v in projection(q.text) if v in wanted)


def kept_value(term: StoredTerm) -> ox.Literal:
    """How a kept column states a value: its N-Triples text as a plain literal, never the node itself, so
    no statement of the answers graph names an entity (sources-of-entity reads every graph naming one)."""
    return ox.Literal(str(term))


def kept_node(value: StoredTerm) -> StoredTerm | None:
    """The node a kept column's value names (:func:`kept_value`), None for a value naming no node."""
    text = value.value if isinstance(value, ox.Literal) else ""
    if text.startswith("<") and text.endswith(">"):
        return ox.NamedNode(text[1:-1])
    if text.startswith("_:"):
        return ox.BlankNode(text[2:])
    return None


def line(row: Sequence[StoredTerm | None]) -> str:
    """A row as one line of SPARQL TSV (each value in N-Triples form, which escapes tabs and newlines)."""
    return "\t".join("" if t is None else str(t) for t in row)


def row_prefix(name: str) -> str:
    """A kept row's IRI before its digest (:func:`aikg.knowledge.bands.row_node`)."""
    return str(ANSWER[f"row/{name}/"])


def band_prefix(name: str) -> str:
    """A band's IRI before its partition's digest and its rank (:func:`aikg.knowledge.bands.band_node`)."""
    return str(ANSWER[f"band/{name}/"])


def rank_predicate(name: str) -> ox.NamedNode:
    """What states a band's rank: one predicate per query, so its bands are one scan of one index."""
    return node(ANSWER["rank/" + name])


BAND = node(ANSWER["band"])
"""On a kept row: the band its line is in."""
LINES = node(ANSWER["lines"])
"""On a band: its lines, in the query's order, one per line of text (a TSV line has no newline)."""
COUNT = node(ANSWER["count"])
"""On a band: how many lines it holds (the page's bands are chosen from the counts alone)."""
HEAD = node(ANSWER["head"])
"""On a band: its first line (a write places a new line after the last head before it)."""
BAND_VARIABLE, RANK_VARIABLE = "aikgBand", "aikgRank"
COUNT_VARIABLE, LINES_VARIABLE = "aikgCount", "aikgLines"


def parameters(q: NamedQuery) -> tuple[str, ...]:
    """The kept columns that are parameters: a request's values select one *partition* of the rows,
    kept in bands of its own."""
    names = {p.name for p in q.parameters}
    return tuple(v for v in kept_columns(q) if v in names)


def bands_text(q: NamedQuery) -> str:
    """The bands of the rows a request's parameters select (written into the text as constants): each
    band's IRI, rank and line count, never its lines. Ranks order the bands, counts place a page in
    them; the lines are read by :func:`lines_text` for the bands of the page only."""
    band = f"?{BAND_VARIABLE}"
    lines = [f"    {band} {rank_predicate(q.name)} ?{RANK_VARIABLE} ; {COUNT} ?{COUNT_VARIABLE} ."]
    lines += [f"    {band} {part(v)} ?{v} ." for v in parameters(q)]
    body = "\n".join(lines)
    return (
        f"# The bands of {q.name}'s kept rows (aikg.query.maintained): the query's text is its API text.\n"
        f"SELECT ?{BAND_VARIABLE} ?{RANK_VARIABLE} ?{COUNT_VARIABLE}\n"
        f"WHERE {{\n  GRAPH <{ANSWERS_GRAPH}> {{\n{body}\n  }}\n}}\n"
    )


def lines_text(bands: Sequence[ox.NamedNode]) -> str:
    """The lines of ``bands`` (aikg's own IRIs, written into the text)."""
    values = " ".join(str(b) for b in bands)
    return (
        f"SELECT ?{BAND_VARIABLE} ?{LINES_VARIABLE}\n"
        f"WHERE {{\n  VALUES ?{BAND_VARIABLE} {{ {values} }}\n"
        f"  GRAPH <{ANSWERS_GRAPH}> {{ ?{BAND_VARIABLE} {LINES} ?{LINES_VARIABLE} }}\n}}\n"
    )


Run = Callable[[str, Mapping[str, Term]], QueryResult]
"""How :func:`read_page` runs a text with bindings: the service's runner, or a store in a test."""


def read_page(
    run: Run, q: NamedQuery, kept: Mapping[str, Term], offset: int, limit: int
) -> tuple[list[str], int]:
    """The kept lines from ``offset`` to ``offset + limit`` in the query's order (ties by the line's
    text: :func:`ordered`), and the number of lines of the whole answer: a range read of the bands the
    page falls in, not a read and sort of every line. ``kept``: the parameters as kept columns state
    them. Bands of more than one partition (a parameter left unbound) are read whole and merged."""
    found = run(bands_text(q), kept)
    bands: list[tuple[str, str, int, ox.NamedNode]] = []
    for b, r, n in found.rows:
        if isinstance(b, ox.NamedNode) and isinstance(r, ox.Literal) and isinstance(n, ox.Literal):
            bands.append((_partition_of_band(b), r.value, int(n.value), b))
    bands.sort(key=lambda b: (b[0], b[1]))
    total = sum(b[2] for b in bands)
    if len({b[0] for b in bands}) > 1:
        lines = ordered(q, _band_lines(run, [b[3] for b in bands]))
        return lines[offset : offset + limit], total
    chosen: list[ox.NamedNode] = []
    skip = start = 0
    for _, _, count, band in bands:
        if start + count > offset and start < offset + limit:
            if not chosen:
                skip = offset - start
            chosen.append(band)
        start += count
    return _band_lines(run, chosen)[skip : skip + limit], total


def _partition_of_band(band: ox.NamedNode) -> str:
    """The digest of a band's partition, from its IRI (``band/NAME/DIGEST.RANK``)."""
    return band.value.rsplit("/", 1)[-1].split(".", 1)[0]


def _band_lines(run: Run, bands: Sequence[ox.NamedNode]) -> list[str]:
    """The lines of ``bands``, band after band."""
    if not bands:
        return []
    by_band: dict[ox.NamedNode, str] = {}
    for b, lines in run(lines_text(bands), {}).rows:
        if isinstance(b, ox.NamedNode) and isinstance(lines, ox.Literal):
            by_band[b] = lines.value
    return [ln for b in bands if (text := by_band.get(b)) for ln in text.split("\n")]


def kept_lines(store: Store, q: NamedQuery) -> list[str]:
    """Every kept line of ``q`` (each partition's in its order, partitions by digest): what a test
    compares with the query's own rows."""
    graph = str(ANSWERS_GRAPH)
    bands = sorted(
        (_partition_of_band(b.subject), b.object.value, b.subject)
        for b in store.quads(None, rank_predicate(q.name), None, graph)
        if isinstance(b.subject, ox.NamedNode) and isinstance(b.object, ox.Literal)
    )
    texts = {
        t.subject: t.object.value
        for t in store.outgoing([b[2] for b in bands], predicates=[LINES], graph=graph)
        if isinstance(t.object, ox.Literal)
    }
    return [ln for _, _, band in bands if (text := texts.get(band)) for ln in text.split("\n")]


def ordered(q: NamedQuery, lines: Sequence[str]) -> list[str]:
    """``lines`` in the query's ORDER BY, ties by the line's text: one total order, so page k of a kept
    answer is page k of its recomputation whatever order the lines were kept or computed in. Each line
    is split once, each distinct cell of a key parsed and given its sort key once, one stable sort of
    positions per key after one by text."""
    lines = sorted(lines)
    variables = projection(q.text)
    keys = order_keys(q.text)
    # split only as far as the last column ordered by (a line's quote and labels after it stay whole)
    last = max((variables.index(name) for names, _ in keys for name in names), default=-1)
    rows = [ln.split("\t", last + 1) for ln in lines] if last >= 0 else []
    order = list(range(len(lines)))
    for names, descending in reversed(keys):  # stable sorts, the last key first
        at = [variables.index(name) for name in names]
        if len(at) == 1:
            cells = [fields[at[0]] for fields in rows]
        else:  # COALESCE: the first bound of the variables
            cells = [next((c for c in (fields[i] for i in at) if c), "") for fields in rows]
        by_cell = _cell_keys(set(cells))
        order.sort(key=lambda i: by_cell[cells[i]], reverse=descending)
    return [lines[i] for i in order]


def as_result(q: NamedQuery, lines: Sequence[str], *, truncated: bool) -> QueryResult:
    """Kept lines as the query's own answer: its columns, one row per line."""
    header = "\t".join(f"?{v}" for v in projection(q.text))
    body = "".join(f"{ln}\n" for ln in lines)
    return QueryResult(
        ResultKind.SELECT,
        variables=list(projection(q.text)),
        tsv=f"{header}\n{body}".encode(),
        truncated=truncated,
    )


@lru_cache(maxsize=64)
def order_keys(text: str) -> tuple[tuple[tuple[str, ...], bool], ...]:
    """The ORDER BY of a text as (variables, descending) pairs: ``?v``, ``ASC(?v)``, ``DESC(?v)``, and
    ``COALESCE(?a, ?b, ...)`` inside them (the first bound of the variables); ValueError for any other
    expression."""
    tokens = tokenize(_order_clause(text))[2:]  # after ORDER BY
    out: list[tuple[tuple[str, ...], bool]] = []
    i = 0
    while i < len(tokens):
        descending = tokens[i].kind == "keyword" and tokens[i].value == "DESC"
        if tokens[i].kind == "keyword" and tokens[i].value in ("ASC", "DESC"):
            end = _closing(tokens, i + 1)
            inner = tokens[i + 2 : end]
            i = end + 1
        else:
            inner, i = tokens[i : i + 1], i + 1
        if len(inner) == 1 and inner[0].kind == "var":
            out.append(((inner[0].value,), descending))
        elif inner and inner[0].text.upper() == "COALESCE" and inner[1].text == "(" and inner[-1].text == ")":
            names = [t.value for t in inner[2:-1] if t.kind == "var"]
            if len(names) * 2 - 1 != len(inner) - 3:  # variables and the commas between them only
                raise ValueError(f"ORDER BY COALESCE of anything but variables cannot be kept: {text[-200:]}")
            out.append((tuple(names), descending))
        else:
            raise ValueError(
                f"only ORDER BY of variables (or their COALESCE) can be kept: {_order_clause(text)}"
            )
    return tuple(out)


def _closing(tokens: Sequence[Any], at: int) -> int:
    """The index of the parenthesis closing the one at ``at``."""
    if at >= len(tokens) or tokens[at].text != "(":
        raise ValueError("ASC or DESC without its parenthesis")
    depth = 0
    for j in range(at, len(tokens)):
        depth += {"(": 1, ")": -1}.get(tokens[j].text, 0)
        if depth == 0:
            return j
    raise ValueError("an unclosed parenthesis in ORDER BY")


def _cell_keys(cells: set[str]) -> dict[str, tuple[Any, ...]]:
    """The sort key of each cell: read from the text where it is an IRI or a literal with no escape in
    it (the labels and figures of a kept line; parsing 23,034 labels took most of speedup-claims'
    ordering at 10M), else from the term the TSV parser makes of it."""
    keys: dict[str, tuple[Any, ...]] = {"": (0,)}
    hard: set[str] = set()
    for cell in cells - {""}:
        if cell.startswith("<") and cell.endswith(">") and "\\" not in cell:
            keys[cell] = (2, cell[1:-1])
            continue
        end = cell.rfind('"')
        if not cell.startswith('"') or end <= 0 or "\\" in cell:
            hard.add(cell)
            continue
        value, suffix = cell[1:end], cell[end + 1 :]
        if suffix.startswith("^^<") and suffix.endswith(">"):
            keys[cell] = _literal_key(value, suffix[3:-1], "")
        elif suffix.startswith("@"):
            keys[cell] = _literal_key(value, _LANG_STRING, suffix[1:])
        elif not suffix:
            keys[cell] = _literal_key(value, XSD + "string", "")
        else:
            hard.add(cell)
    keys.update((cell, _key(term)) for cell, term in _terms(hard).items())
    return keys


def _terms(cells: set[str]) -> dict[str, StoredTerm | None]:
    found: dict[str, StoredTerm | None] = {"": None}
    distinct = sorted(cells - {""})
    if distinct:
        parsed = ox.parse_query_results(
            ("?v\n" + "\n".join(distinct) + "\n").encode(), format=ox.QueryResultsFormat.TSV
        )
        assert isinstance(parsed, ox.QuerySolutions)
        found.update(zip(distinct, (s[0] for s in parsed), strict=True))
    return found


_LANG_STRING = "http://www.w3.org/1999/02/22-rdf-syntax-ns#langString"
_STRINGS = {XSD + "string", _LANG_STRING}


def _key(term: StoredTerm | None) -> tuple[Any, ...]:
    """SPARQL's order of terms (unbound, blank nodes, IRIs, literals), literals by value where the
    operator ``<`` compares them: numbers by number, strings by text, others by their lexical form."""
    if term is None:
        return (0,)
    if isinstance(term, ox.BlankNode):
        return (1, term.value)
    if isinstance(term, ox.NamedNode):
        return (2, term.value)
    if not isinstance(term, ox.Literal):
        return (4, str(term))
    return _literal_key(term.value, term.datatype.value, term.language or "")


def _literal_key(value: str, datatype: str, language: str) -> tuple[Any, ...]:
    """A literal's place in :func:`_key`'s order, from its lexical form, datatype and language."""
    if datatype in XSD_NUMERIC:
        try:
            return (3, 0, Decimal(value), "")
        except InvalidOperation:
            return (
                3,
                0,
                Decimal("NaN") if value == "NaN" else Decimal(value.replace("INF", "Infinity")),
                "",
            )
    if datatype in _STRINGS:
        return (3, 1, value, language)
    return (3, 2, datatype, value)


def is_kept(store: Store, q: NamedQuery) -> bool:
    """True when ``store`` keeps ``q``'s rows for its current text."""
    if q.maintained is None:
        return False
    mark = ox.Literal(digest(q))
    return next(store.quads(query_node(q.name), DIGEST, mark, str(ANSWERS_GRAPH)), None) is not None
