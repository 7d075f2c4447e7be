"""The registry of named queries: ``queries/*.rq``, each described by a comment header.

A named query is a file; its stem is its name. Its header says what it answers and which parameters
it takes, so the API, the CLI and the docs are generated from the same place::

    # title: Deals of one organization
    # description: Every deal the organization is a party to ...
    # description: (more lines continue the description)
    # param: org entity required -- The organization (slug such as nvidia, or a full IRI)
    # param: since date optional -- Only deals from this day on
    # example: what deals has {CoreWeave} made?
    # example: {英伟达}投资了什么？

``chart`` lines declare how the answer is drawn (the explorer's charts; see :func:`parse_chart`)::

    # chart: scatter x=date y=trainingCompute log=y color=developer title="Training compute"

``example`` lines are questions in plain words (English or Chinese) the query answers: they train the
router of ``aikg ask`` and are shown on the Questions page. Braces mark the name that fills the query's
entity parameter; they are dropped when the example is shown.

Parameter types are ``entity`` (a slug or a full IRI), ``iri``, ``string``, ``date`` (YYYY-MM-DD, or
YYYY-MM / YYYY when only that precise), ``integer`` and ``decimal``. Values are bound through the store's
``bindings``: written into the text as constants by :func:`aikg.rdf.substitute.substitute`, token by
token, on both backends (never pasted as raw text); each query projects its parameters, so an answer
shows the values it was bound to.

Every named query is answered in pages: ``limit`` and ``offset`` (reserved, no query declares them)
become the query's own ``LIMIT``/``OFFSET``, so the engine stops after the page instead of handing
every row to Python; one row more than the page is asked for, to tell whether a next page exists.
A page of an ordered query holds the rows of the whole ordered answer at those positions.
"""

from __future__ import annotations

import datetime as dt
import functools
import re
import shlex
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pyoxigraph as ox

from aikg.errors import BadRequest, NotFound
from aikg.namespaces import ID, ID_NODES
from aikg.query import maintained
from aikg.query.maintained import Upkeep
from aikg.query.runner import QueryRunner
from aikg.rdf.tokens import tokenize
from aikg.resources import queries_dir
from aikg.store import QueryResult, Store, Term

_XSD = "http://www.w3.org/2001/XMLSchema#"

PAGE_PARAMETERS = ("limit", "offset")
"""Query-string names that page a named query's answer; a query file may not declare them."""

PARAMETER_TYPES = ("entity", "iri", "string", "date", "integer", "decimal")
"""The kinds of value a named query parameter accepts."""

_SLUG = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")
_IRI = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:[^\s<>\"{}|\\^`]+$")
_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
_HEADER = re.compile(r"^#\s*(title|description|param|example|chart|maintained)\s*:\s*(.*?)\s*$")
_MENTION_MARKS = str.maketrans("", "", "{}")
_PARAM = re.compile(
    r"^(?P<name>\S+)\s+(?P<type>\S+)\s+(?P<req>required|optional)"
    r"(?:\s+default=(?P<default>\S+))?(?:\s+values=(?P<values>\S+))?\s*(?:(?:--|—)\s*(?P<desc>.*))?$"
)
_DATE_FORMS = (
    (re.compile(r"^\d{4}-\d{2}-\d{2}$"), ox.NamedNode(_XSD + "date")),
    (re.compile(r"^\d{4}-\d{2}$"), ox.NamedNode(_XSD + "gYearMonth")),
    (re.compile(r"^\d{4}$"), ox.NamedNode(_XSD + "gYear")),
)


@dataclass
class Parameter:
    """One parameter of a named query: its variable name, kind of value and whether it must be given."""

    name: str
    type: str
    description: str
    required: bool
    default: str | None = None
    values: tuple[str, ...] = ()
    """The words a string parameter takes (``values=likely,all``); empty: any text."""

    def to_json(self) -> dict[str, Any]:
        """The parameter as the API and docs list it."""
        out: dict[str, Any] = {
            "name": self.name,
            "type": self.type,
            "description": self.description,
            "required": self.required,
            "default": self.default,
        }
        if self.values:
            out["values"] = list(self.values)
        return out


@dataclass
class NamedQuery:
    """A query file: its name (the file stem), what it answers, its parameters and its SPARQL text."""

    name: str
    title: str
    description: str
    parameters: list[Parameter] = field(default_factory=list)
    text: str = ""
    examples: list[str] = field(default_factory=list)
    """Example questions as written in the header, names to link marked with braces."""
    charts: list[dict[str, str]] = field(default_factory=list)
    """How the answer is drawn: one entry per ``# chart:`` line (:func:`parse_chart`)."""
    maintained: Upkeep | None = None
    """``# maintained: root=VAR reach=N``: its rows are kept beside the data (aikg.query.maintained)."""

    def example_texts(self) -> list[str]:
        """The example questions as people read them (without the braces)."""
        return [e.translate(_MENTION_MARKS) for e in self.examples]

    def to_json(self) -> dict[str, Any]:
        """The query as the API lists it (text included, so clients can copy it)."""
        return {
            "name": self.name,
            "title": self.title,
            "description": self.description,
            "parameters": [p.to_json() for p in self.parameters],
            "examples": self.example_texts(),
            "charts": self.charts,
            "sparql": self.text,
        }


class QueryFileError(ValueError):
    """A query file's header is malformed; the message names the file and the line."""


def parse_query_file(path: Path) -> NamedQuery:
    """Read one ``.rq`` file and its comment header."""
    text = path.read_text(encoding="utf-8")
    title = ""
    description: list[str] = []
    params: list[Parameter] = []
    examples: list[str] = []
    charts: list[dict[str, str]] = []
    maintained: Upkeep | None = None
    for lineno, line in enumerate(text.splitlines(), 1):
        m = _HEADER.match(line.strip())
        if not m:
            continue
        key, value = m.groups()
        if key == "title":
            title = value
        elif key == "description":
            description.append(value)
        elif key == "example":
            if value:
                examples.append(value)
        elif key == "chart":
            charts.append(parse_chart(value, f"{path.name}:{lineno}"))
        elif key == "maintained":
            try:
                maintained = Upkeep.parse(value, f"{path.name}:{lineno}")
            except ValueError as exc:
                raise QueryFileError(str(exc)) from None
        else:
            params.append(_parse_param(value, f"{path.name}:{lineno}"))
    if not title:
        raise QueryFileError(f"{path.name}: the header has no '# title:' line")
    return NamedQuery(path.stem, title, " ".join(description), params, text, examples, charts, maintained)


CHART_TYPES = ("scatter", "line", "bar", "auto")
"""How a chart draws its rows: dots, lines per series (with dots), bars of the largest, or chosen from the
columns' types."""

CHART_KEYS = ("x", "y", "color", "label", "link", "status", "source", "log", "top", "title")
"""What a ``# chart:`` line may set: columns (x, y, color, label, link, status, source; ``status=none``
draws no row apart), the log axes (x, y or xy; bars are always linear), how many bars or series (top)
and the title."""


def parse_chart(spec: str, where: str) -> dict[str, str]:
    """One ``# chart: TYPE key=value ...`` line (values with spaces in double quotes); QueryFileError
    naming the line for an unknown type or key or a malformed value."""
    try:
        words = shlex.split(spec)
    except ValueError as exc:
        raise QueryFileError(f"{where}: {exc}") from None
    if not words or words[0] not in CHART_TYPES:
        raise QueryFileError(f"{where}: a chart starts with its type, one of {', '.join(CHART_TYPES)}")
    chart = {"type": words[0]}
    for word in words[1:]:
        key, eq, value = word.partition("=")
        if not eq or key not in CHART_KEYS or not value:
            raise QueryFileError(
                f"{where}: expected key=value with a key of {', '.join(CHART_KEYS)}: {word!r}"
            )
        if key == "log" and value not in ("x", "y", "xy"):
            raise QueryFileError(f"{where}: log is x, y or xy, not {value!r}")
        if key == "top" and not value.isdigit():
            raise QueryFileError(f"{where}: top is a whole number, not {value!r}")
        if key not in ("log", "top", "title") and not _NAME.match(value):
            raise QueryFileError(f"{where}: {key} names a variable, not {value!r}")
        chart[key] = value
    return chart


def _parse_param(spec: str, where: str) -> Parameter:
    m = _PARAM.match(spec)
    if not m:
        raise QueryFileError(
            f"{where}: expected '# param: NAME TYPE required|optional [default=VALUE] [values=A,B] "
            "-- description'"
        )
    if m["type"] not in PARAMETER_TYPES or not _NAME.match(m["name"]):
        raise QueryFileError(f"{where}: bad parameter name or type {m['name']!r} {m['type']!r}")
    if m["name"] in PAGE_PARAMETERS:
        raise QueryFileError(f"{where}: {m['name']!r} pages every named query and cannot be declared")
    values = tuple(v for v in (m["values"] or "").split(",") if v)
    if values and m["type"] != "string":
        raise QueryFileError(f"{where}: values= lists the words of a string parameter, not of {m['type']!r}")
    if values and m["default"] is not None and m["default"] not in values:
        raise QueryFileError(f"{where}: default {m['default']!r} is not one of its values {','.join(values)}")
    return Parameter(m["name"], m["type"], m["desc"] or "", m["req"] == "required", m["default"], values)


def load_queries(directory: Path | str | None = None) -> dict[str, NamedQuery]:
    """Every named query in the folder, by name; re-read only when a file changes."""
    folder = Path(directory) if directory is not None else queries_dir()
    files = sorted(folder.glob("*.rq"))
    stamp = tuple((str(p), p.stat().st_mtime_ns) for p in files)
    return dict(_load_cached(stamp))


@functools.lru_cache(maxsize=8)
def _load_cached(stamp: tuple[tuple[str, int], ...]) -> tuple[tuple[str, NamedQuery], ...]:
    return tuple((Path(p).stem, parse_query_file(Path(p))) for p, _ in stamp)


def convert(param: Parameter, raw: str) -> Term:
    """Turn one raw parameter value into the RDF term it stands for; BadRequest names the parameter."""
    value = raw.strip()
    if not value:
        raise BadRequest(f"parameter {param.name!r} is empty")
    kind = param.type
    if kind == "entity":
        if _SLUG.match(value.lower()):  # an id is lower case: "NVIDIA" is the id nvidia as people type it
            return ID_NODES[value.lower()]
        if _IRI.match(value):
            return _iri(param, value)
        raise BadRequest(f"parameter {param.name!r} must be an entity slug (e.g. 'nvidia') or an IRI")
    if kind == "iri":
        if _IRI.match(value):
            return _iri(param, value)
        raise BadRequest(f"parameter {param.name!r} must be an absolute IRI")
    if kind == "date":
        return _date(param, value)
    if kind == "integer":
        # at most 100 digits, checked before int(): past 4,300 it raises, and its cost grows with them
        if re.fullmatch(r"[+-]?\d{1,100}", value):
            return ox.Literal(str(int(value)), datatype=ox.NamedNode(_XSD + "integer"))
        raise BadRequest(f"parameter {param.name!r} must be an integer of at most 100 digits")
    if kind == "decimal":
        try:
            number = Decimal(value)
        except InvalidOperation:
            number = None
        if number is None or not number.is_finite():
            raise BadRequest(f"parameter {param.name!r} must be a decimal number")
        return ox.Literal(str(number), datatype=ox.NamedNode(_XSD + "decimal"))
    if param.values and value not in param.values:
        # a word the query does not test for matches no row: "include=everything" answered 0 rows, 200
        words = [repr(v) for v in param.values]
        told = " or ".join(words) if len(words) == 2 else f"one of {', '.join(words)}"
        raise BadRequest(f"parameter {param.name!r} must be {told}, not {value!r}")
    return ox.Literal(value)


def _iri(param: Parameter, value: str) -> ox.NamedNode:
    try:
        return ox.NamedNode(value)
    except ValueError:
        raise BadRequest(f"parameter {param.name!r} is not a valid IRI") from None


def _date(param: Parameter, value: str) -> ox.Literal:
    for pattern, datatype in _DATE_FORMS:
        if pattern.match(value):
            try:
                dt.date.fromisoformat((value + "-01-01")[:10])
            except ValueError:
                break
            return ox.Literal(value, datatype=datatype)
    raise BadRequest(f"parameter {param.name!r} must be a date: YYYY-MM-DD (or YYYY-MM, YYYY)")


def bind_parameters(q: NamedQuery, raw: Mapping[str, str]) -> dict[str, Term]:
    """Check and convert the caller's values for ``q``: unknown, missing or malformed -> BadRequest."""
    known = {p.name for p in q.parameters}
    unknown = sorted(set(raw) - known)
    if unknown:
        offered = ", ".join(sorted(known)) or "none"
        raise BadRequest(f"unknown parameter {unknown[0]!r} for query {q.name!r} (parameters: {offered})")
    bound: dict[str, Term] = {}
    for p in q.parameters:
        value = raw.get(p.name)
        if value is None or not str(value).strip():
            if p.default is not None:
                value = p.default
            elif p.required:
                raise BadRequest(f"parameter {p.name!r} is required by query {q.name!r}")
            else:
                continue
        bound[p.name] = convert(p, str(value))
    _check_range(bound)
    return bound


RANGES = (("from", "to"),)
"""Date parameters that bound a range together, first and last day."""


def _check_range(bound: Mapping[str, Term]) -> None:
    """A range whose first day is after its last holds no day: a 400 saying so, not an empty answer
    that reads as "nothing happened" (events-between with from=2026-09-01&to=2026-06-01 gave 0 rows)."""
    for first, last in RANGES:
        start, end = bound.get(first), bound.get(last)
        if (
            isinstance(start, ox.Literal)
            and isinstance(end, ox.Literal)
            and _day(start.value, False) > _day(end.value, True)
        ):
            raise BadRequest(
                f"parameter {first!r} ({start.value}) is after {last!r} ({end.value}): the range holds no day"
            )


def _day(value: str, last: bool) -> dt.date:
    """The first (or last) day of a date, a year-month or a year as the date parameters accept them."""
    parts = [int(x) for x in value.split("-")]
    year, month = parts[0], parts[1] if len(parts) > 1 else (12 if last else 1)
    if len(parts) > 2:
        return dt.date(year, month, parts[2])
    if not last:
        return dt.date(year, month, 1)
    return dt.date(year + month // 12, month % 12 + 1, 1) - dt.timedelta(days=1)


def paged(q: NamedQuery, limit: int, offset: int) -> str:
    """The query's text asking the engine for ``limit`` rows from ``offset``.

    BadRequest for a query that has its own top-level LIMIT or OFFSET (none of aikg's has)."""
    own = _own_page(q.text)
    if own is not None:
        raise BadRequest(f"named query {q.name!r} has its own {own} and cannot be paged")
    return f"{q.text.rstrip()}\nLIMIT {limit}" + (f" OFFSET {offset}" if offset else "")


@functools.lru_cache(maxsize=128)
def _own_page(text: str) -> str | None:
    """The keyword of ``text``'s own top-level LIMIT or OFFSET, if it has one. Kept per text: tokenizing
    a named query took 0.3-1.1 ms of the HTTP worker's CPU on every miss, before its hand-off to the
    query worker, as much as the engine's whole answer for the default store's small queries."""
    depth = 0
    for tok in tokenize(text):
        if tok.kind == "punct" and tok.text in ("{", "}"):
            depth += 1 if tok.text == "{" else -1
        elif depth == 0 and tok.kind == "keyword" and tok.value in ("LIMIT", "OFFSET"):
            return tok.value
    return None


def get_query(name: str, directory: Path | str | None = None) -> NamedQuery:
    """One named query; NotFound when there is none by that name."""
    queries = load_queries(directory)
    if name not in queries:
        raise NotFound(f"no named query {name!r}")
    return queries[name]


class NamedQueries:
    """The named queries of one service: listed from the query folder, run through its runner."""

    RECHECK = 1.0
    """Seconds between two looks at the query folder (a look stats every file: ~0.5 ms a request)."""

    def __init__(self, store: Store, runner: QueryRunner, directory: Path | str | None = None) -> None:
        self.store, self.runner, self.directory = store, runner, directory
        self._seen: tuple[Path | str | None, float, dict[str, NamedQuery]] | None = None

    def all(self) -> dict[str, NamedQuery]:
        """Every named query, by name (re-read when a file changes, seen within :attr:`RECHECK`)."""
        now = time.monotonic()
        seen = self._seen
        if seen is None or seen[0] != self.directory or now - seen[1] > self.RECHECK:
            seen = self._seen = (self.directory, now, load_queries(self.directory))
        return seen[2]

    def get(self, name: str) -> NamedQuery:
        """One named query; NotFound when there is none by that name."""
        q = self.all().get(name)
        if q is None:
            raise NotFound(f"no named query {name!r}")
        return q

    def text(self, name: str, raw: Mapping[str, str]) -> str:
        """The query's text with the caller's values written in (as the SPARQL editor opens it), defaults
        included, so it answers what the Questions page answers with the same values; its own text when
        nothing is bound. Unknown names and bad values are refused as :meth:`bind` refuses them."""
        from aikg.rdf.substitute import substitute  # the one token-wise rewriter of bound variables

        q = self.get(name)
        if raw:
            bound = bind_parameters(q, raw)
        else:  # the defaults only: a required parameter stays a variable to fill in
            bound = {p.name: convert(p, p.default) for p in q.parameters if p.default is not None}
        return substitute(q.text, bound) if bound else q.text

    def bind(self, name: str, raw: Mapping[str, str]) -> tuple[NamedQuery, dict[str, Term]]:
        """The query and its checked, converted parameters (an entity parameter must exist)."""
        q = self.get(name)
        bound = bind_parameters(q, raw)
        for p in q.parameters:
            term = bound.get(p.name)
            if p.type == "entity" and isinstance(term, ox.NamedNode) and not self.store.describes(term):
                slug = term.value.removeprefix(str(ID))
                raise BadRequest(
                    f"parameter {p.name!r}: no entity {term.value!r} in the graph; "
                    f"find its id with /api/search?q={quote(slug)}"
                )
        return q, bound

    def _kept(self, q: NamedQuery, bound: Mapping[str, Term], limit: int | None, offset: int) -> QueryResult:
        """``q`` answered from its kept rows (:mod:`aikg.query.maintained`): the page read from the bands
        it falls in, in the query's order (ties by the line's text), with the whole answer's size."""
        kept = {name: maintained.kept_value(value) for name, value in bound.items()}
        page = self.runner.max_rows if limit is None else min(limit, self.runner.max_rows)

        def run(text: str, bindings: Mapping[str, Term]) -> QueryResult:
            return self.runner.read_kept(text, bindings=bindings)

        lines, total = maintained.read_page(run, q, kept, offset, page)
        result = maintained.as_result(q, lines, truncated=total > offset + page)
        result.total = total  # every band's count read: the whole answer's size is known
        return result

    def run(
        self, name: str, raw: Mapping[str, str], *, limit: int | None = None, offset: int = 0
    ) -> QueryResult:
        """Run a named query with the caller's parameters, under the service's limits: the page of
        ``limit`` rows from ``offset`` (``truncated`` when more follow), or every row up to the row cap.
        ``total`` is the whole answer's row count when known: a kept answer's lines, or a last page."""
        q, bound = self.bind(name, raw)
        if q.maintained is not None and maintained.is_kept(self.store, q):
            return self._kept(q, bound, limit, offset)
        if limit is None and not offset:
            result = self.runner.query(q.text, bindings=bound)
            if not result.truncated:
                result.total = result.row_count
            return result
        page = self.runner.max_rows if limit is None else min(limit, self.runner.max_rows)
        if page >= self.runner.max_rows:
            # A page of the whole cap is asked for the cap, not one row more: Virtuoso sorts at most
            # 10,000 rows (SR353, a 503 for ?limit=10000); a full page may have more after it.
            result = self.runner.query(paged(q, page, offset), bindings=bound)
            if len(result.rows) < page and (result.rows or not offset):
                result.total = offset + len(result.rows)
            result.truncated = result.truncated or len(result.rows) >= page
            return result
        result = self.runner.query(paged(q, page + 1, offset), bindings=bound)
        rows = result.rows
        if len(rows) <= page:
            if not result.truncated and (rows or not offset):  # past the end: unknown
                result.total = offset + len(rows)
            return result
        return QueryResult(result.kind, variables=result.variables, rows=rows[:page], truncated=True)
