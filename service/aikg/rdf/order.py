"""A SELECT's outermost ``ORDER BY`` done by aikg on the rows the engine wrote, instead of by Oxigraph.

Two reasons, both measured on Oxigraph 0.5.13:

- **Speed.** Oxigraph compares two terms by reading both strings from disk at every comparison: at 1M
  quads the ORDER BY of sources-of-entity bound to nvidia (20,172 rows) is half of its 4.9 s, and
  accelerators-by-vendor spends 2.1 s where the unordered rows take 0.5 s. Sorting the rows' text here
  costs 0.2 s and 0.09 s.
- **It cannot crash.** Oxigraph's comparison is not a total order across datatypes, and Rust's sort
  panics on such a comparison: an ordinary ``SELECT ?o WHERE { ?s ?p ?o } ORDER BY ?o`` over integers
  and dates aborted the query process. Upstream: not filed. spareval's ``cmp_terms`` compares numbers by
  value and falls back to the lexical form between a number and a date (5 < 10, yet "10" <
  "2020-01-01" < "5"). oxigraph#1542 (the same panic on ``ORDER BY RAND()``, fixed in 0.5.3) is a
  different cause: 0.5.13 still aborts, and tests/test_upstream.py runs the engine's own sort as a
  strict expected failure that passes the day this half of the reason is gone. The speed half is
  measured by ``python -m aikg_bench.ordering``.

The order is SPARQL 1.1 Query §15.1: unbound, then blank nodes, IRIs, literals; literals comparable with
``<`` by value (numbers of any numeric type, booleans), the rest by lexical form, then datatype and
language (which is how Oxigraph breaks those ties: ``"a"@en`` before ``"a"``). Rows equal on every key
keep the engine's order (a stable sort), so an answer is the same on every run.

Every outermost ``ORDER BY`` of a SELECT followed by at most ``LIMIT`` and ``OFFSET`` is taken over. A
key that is a projected variable is read from its column; any other key (an expression, an aggregate, a
variable the projection leaves out) is computed by the engine as an extra column, ``(expr AS ?k)``
appended to the projection, and removed after sorting. With ``DISTINCT`` or ``REDUCED`` the engine
then keeps rows that differ only in such a column, and aikg keeps the first of them in the order, as
SPARQL's Distinct(Project(OrderBy(…))) does. ``SELECT *`` with such keys is written out with the
variables the engine names for it (:meth:`Ordered.projected`); an ``EXISTS { … }`` key is such an
expression too. A clause aikg cannot read (a trailing ``VALUES``) leaves the query to the engine.

An answer with a row cap keeps only the rows that can be in the page while it is being written
(:class:`RowSorter`), so its memory does not grow with the answer.
"""

from __future__ import annotations

import functools
import math
import re
from collections.abc import Sequence
from dataclasses import dataclass, replace

from aikg.rdf.datatypes import XSD, XSD_NUMERIC
from aikg.rdf.tokens import QUERY_FORMS, Token, closing, tokenize

_STRING = XSD + "string"
_LANG_STRING = "http://www.w3.org/1999/02/22-rdf-syntax-ns#langString"
_BOOLEAN = XSD + "boolean"
_NUMERIC = XSD_NUMERIC
_TSV_ESCAPE = re.compile(r"\\(.)")
_TSV_ESCAPES = {"t": "\t", "n": "\n", "r": "\r"}
_HIDDEN = "aikg_order_"
"""The stem of the extra columns' names (made unique against the query's own variables)."""


@dataclass(frozen=True)
class Ordered:
    """A SELECT split into the text the engine runs and the order, page aikg applies to its rows."""

    text: str
    """The query without its outermost ORDER BY, LIMIT and OFFSET, with the computed keys projected."""
    keys: tuple[tuple[str, bool], ...]
    """The columns to order by, outermost first, each with True when descending."""
    limit: int | None = None
    offset: int = 0
    hidden: int = 0
    """How many trailing columns of the engine's answer hold computed keys (removed from the answer)."""
    distinct: bool = False
    """Rows equal on the visible columns are one (``DISTINCT`` or ``REDUCED`` with computed keys)."""
    star: int | None = None
    """Where ``text`` has the ``*`` of ``SELECT *`` still to be written out (see :meth:`projected`)."""
    pending: str = ""
    """The computed keys' projection, for :meth:`projected`."""

    def projected(self, variables: Sequence[str]) -> Ordered:
        """This ``SELECT *`` with its ``*`` written out as ``variables`` (what the engine named for it),
        followed by the computed keys."""
        if self.star is None:
            return self
        names = "".join(f"?{v} " for v in variables)
        text = self.text[: self.star] + names + self.pending + self.text[self.star + 1 :]
        return replace(self, text=text, star=None, pending="")

    def keep(self, cap: int | None) -> int | None:
        """How many of the ordered rows can be in the answer cut at ``cap`` (one more, to tell it was
        cut); None when every row can."""
        most = [n for n in (self.limit, None if cap is None else cap + 1) if n is not None]
        return self.offset + min(most) if most else None


@functools.lru_cache(maxsize=256)
def split_order(text: str) -> Ordered | None:
    """``text`` as an :class:`Ordered` when aikg can do its ORDER BY (see the module), else None.

    Kept for recent texts: a named query is long and commented, and tokenizing it costs milliseconds."""
    toks = tokenize(text)
    form = next((i for i, t in enumerate(toks) if t.kind == "keyword" and t.value in QUERY_FORMS), None)
    if form is None or toks[form].value != "SELECT":
        return None
    order = _outer_order(toks, form)
    projection = _projection(toks, form)
    if order is None or projection is None:
        return None
    parsed = _conditions(text, toks[order + 2 :])
    if parsed is None or not parsed[0]:
        return None
    conditions, limit, offset = parsed
    names = {t.value for t in toks if t.kind == "var"}
    keys: list[tuple[str, bool]] = []
    extra: list[str] = []
    for key, is_var, descending in conditions:
        if is_var and (projection.star is not None or key in projection.names):
            keys.append((key, descending))
            continue
        name = _fresh(names, len(extra))
        extra.append(f"({'?' + key if is_var else key} AS ?{name}) ")
        keys.append((name, descending))
    head = text[: toks[order].start].rstrip() + "\n"
    distinct = bool(extra) and projection.distinct
    pending = "".join(extra)
    if projection.star is not None:
        star = toks[projection.star].start if extra else None
        return Ordered(head, tuple(keys), limit, offset, len(extra), distinct, star, pending)
    at = toks[projection.end].start
    head = head[:at] + pending + head[at:]
    return Ordered(head, tuple(keys), limit, offset, len(extra), distinct)


@functools.lru_cache(maxsize=256)
def guard_engine_order(text: str) -> str | None:
    """``text`` with every ORDER BY condition the engine will sort by preceded by its term's class, so
    that Oxigraph only ever compares terms it can order (None when the text has no ORDER BY to guard).

    For the sorts aikg leaves to the engine (a subquery's ORDER BY, an answer too large to sort here):
    Oxigraph's sort panics, and the query process aborts, when its comparison is not a total order, as
    between integers and dates. The class is the empty string for numbers, IRIs,
    blank nodes and unbound values (which Oxigraph orders among themselves) and the datatype's IRI for
    other literals, so numbers still come first and values of one datatype keep their order; only the
    order between literals of different datatypes, which SPARQL leaves open, is fixed. A clause with a
    condition aikg does not read is left as it is. Kept for recent texts, as :func:`split_order`."""
    if "ORDER" not in text.upper():
        return None
    toks = tokenize(text)
    edits: list[tuple[int, str]] = []
    for i, t in enumerate(toks):
        if not (t.is_keyword("ORDER") and i + 1 < len(toks) and toks[i + 1].is_keyword("BY")):
            continue
        tail = toks[i + 2 :]
        read = _read_conditions(tail)
        if read is None:
            continue
        for c in read[0]:
            expr = text[tail[c.inner[0]].start : tail[c.inner[1]].end]
            kind = f'COALESCE(IF(isNumeric({expr}), "", STR(DATATYPE({expr}))), "")'
            edits.append((tail[c.first].start, f"{'DESC' if c.descending else 'ASC'}({kind}) "))
    if not edits:
        return None
    out, at = [], 0
    for pos, insert in edits:
        out += [text[at:pos], insert]
        at = pos
    return "".join(out) + text[at:]


def _fresh(names: set[str], n: int) -> str:
    """A variable name for the ``n``-th computed key that the query does not use."""
    name = f"{_HIDDEN}{n}"
    while name in names:
        name += "_"
    return name


def _outer_order(toks: list[Token], form: int) -> int | None:
    """Index of the ``ORDER`` of ``ORDER BY`` outside every group and parenthesis, if any."""
    depth = 0
    for i in range(form + 1, len(toks)):
        t = toks[i]
        if t.kind == "punct" and t.text in "{(":
            depth += 1
        elif t.kind == "punct" and t.text in "})":
            depth -= 1
        elif depth == 0 and t.is_keyword("ORDER") and i + 1 < len(toks) and toks[i + 1].is_keyword("BY"):
            return i
    return None


@dataclass(frozen=True)
class _Condition:
    """One order condition of an ORDER BY clause, as token indexes into the tail it was read from."""

    first: int
    """Its first token (``?v``, ``ASC``, ``DESC``, ``(`` or a function's name)."""
    last: int
    """Its last token."""
    inner: tuple[int, int]
    """The first and last token of the expression it orders by (without ``ASC(``/``DESC(`` and ``)``)."""
    descending: bool
    var: str | None
    """The variable's name when the expression is one variable (``?v``, ``(?v)``, ``ASC(?v)``)."""


def _read_conditions(tail: list[Token]) -> tuple[list[_Condition], int] | None:
    """The order conditions at the start of ``tail`` (what follows ``ORDER BY``) and the index of the token
    after them; None for a clause aikg does not read."""
    conditions: list[_Condition] = []
    i = 0
    while i < len(tail):
        t = tail[i]
        if t.kind == "var":
            conditions.append(_Condition(i, i, (i, i), False, t.value))
            i += 1
            continue
        descending = t.is_keyword("DESC")
        at = i
        if t.is_keyword("ASC", "DESC"):
            i += 1  # a BrackettedExpression follows
            if i >= len(tail) or tail[i].text != "(":
                return None
        first = tail[i]
        if first.text == "(" and first.kind == "punct":
            end = closing(tail, i)
        elif (group := _exists_group(tail, i)) is not None:
            end = closing(tail, group)  # EXISTS { … } or NOT EXISTS { … }: a boolean
        elif first.kind in ("keyword", "iri", "pname") and not first.is_keyword(*_AFTER_ORDER):
            if i + 1 >= len(tail):
                return None
            nxt = tail[i + 1]  # a built-in or function call: NAME(args) or NAME()
            end = i + 1 if nxt.kind == "nil" else closing(tail, i + 1) if nxt.text == "(" else None
        else:
            break
        if end is None:
            return None
        bracketed = first.text == "(" and first.kind == "punct"
        inner = (i + 1, end - 1) if bracketed else (i, end)
        var = tail[i + 1].value if bracketed and end == i + 2 and tail[i + 1].kind == "var" else None
        conditions.append(_Condition(at, end, inner, descending, var))
        i = end + 1
    return conditions, i


def _exists_group(tail: list[Token], i: int) -> int | None:
    """Index of the ``{`` of an ``EXISTS { … }`` or ``NOT EXISTS { … }`` starting at ``tail[i]``."""
    j = i + 1 if tail[i].is_keyword("NOT") else i
    if j + 1 < len(tail) and tail[j].is_keyword("EXISTS") and tail[j + 1].text == "{":
        return j + 1
    return None


_AFTER_ORDER = ("LIMIT", "OFFSET", "VALUES")
"""Keywords that end an ORDER BY clause."""


def _conditions(text: str, tail: list[Token]) -> tuple[list[tuple[str, bool, bool]], int | None, int] | None:
    """The order conditions (a variable's name or an expression's text, whether it is a variable,
    whether descending), LIMIT and OFFSET of what follows ``ORDER BY``; None for what aikg cannot read."""
    read = _read_conditions(tail)
    if read is None:
        return None
    found, i = read
    conditions: list[tuple[str, bool, bool]] = []
    for c in found:
        if c.var is not None:
            conditions.append((c.var, True, c.descending))
        else:
            a, b = tail[c.inner[0]], tail[c.inner[1]]
            conditions.append((text[a.start : b.end], False, c.descending))
    limit: int | None = None
    offset = 0
    seen: set[str] = set()
    while i < len(tail):
        word = tail[i]
        if word.kind != "keyword" or word.value in seen or i + 1 >= len(tail) or tail[i + 1].kind != "number":
            return None
        if not tail[i + 1].text.isdigit():
            return None
        seen.add(word.value)
        if word.value == "LIMIT":
            limit = int(tail[i + 1].text)
        elif word.value == "OFFSET":
            offset = int(tail[i + 1].text)
        else:
            return None
        i += 2
    return conditions, limit, offset


@dataclass(frozen=True)
class _Projection:
    names: frozenset[str]
    """The variables the projection names (as itself or after AS)."""
    end: int
    """Index of the token after it (``WHERE``, ``{`` or ``FROM``)."""
    star: int | None
    """Index of the ``*`` of ``SELECT *``."""
    distinct: bool


def _projection(toks: list[Token], form: int) -> _Projection | None:
    """The SELECT's projection; None when it has no end aikg can find."""
    names: set[str] = set()
    parens = 0
    star = None
    distinct = form + 1 < len(toks) and toks[form + 1].is_keyword("DISTINCT", "REDUCED")
    for i in range(form + 1, len(toks)):
        t = toks[i]
        if t.text == "(" and t.kind == "punct":
            parens += 1
        elif t.text == ")" and t.kind == "punct":
            parens -= 1
        elif parens == 0 and (t.text == "{" or t.is_keyword("WHERE", "FROM")):
            return _Projection(frozenset(names), i, star, distinct)
        elif parens == 0 and t.text == "*":
            star = i
        elif t.kind == "var" and (parens == 0 or toks[i - 1].is_keyword("AS")):
            names.add(t.value)
    return None


def term_key(term: str) -> tuple[object, ...]:
    """A sort key for one term as SPARQL TSV writes it (the empty string when unbound)."""
    if not term:
        return (0,)
    first = term[0]
    if first == "_":
        return (1, term[2:])
    if first == "<":
        return (2, term[1:-1])
    if first != '"':  # a number or boolean written bare
        if term in ("true", "false"):
            return (3, 1, term == "true")
        return _number(term)
    end = term.rindex('"')
    value = term[1:end]
    if "\\" in value:
        value = _TSV_ESCAPE.sub(lambda m: _TSV_ESCAPES.get(m.group(1), m.group(1)), value)
    rest = term[end + 1 :]
    if rest.startswith("@"):
        return (3, 3, value, _LANG_STRING, rest[1:])
    datatype = rest[3:-1] if rest.startswith("^^<") else _STRING
    if datatype in _NUMERIC:
        return _number(value)
    if datatype == _BOOLEAN and value in ("true", "false", "1", "0"):
        return (3, 1, value in ("true", "1"))
    return (3, 3, value, datatype, "")


def _number(lexical: str) -> tuple[object, ...]:
    try:
        value = float(lexical)
    except ValueError:
        return (3, 3, lexical, "", "")
    if math.isnan(value):
        return (3, 0, 1, 0.0)  # NaN compares with nothing: after every number, so the order is total
    return (3, 0, 0, value)


class TooManyRows(Exception):
    """Raised by a :class:`RowSorter` without a bound once it holds more rows than it may."""


class RowSorter:
    """A file-like sink for Oxigraph's SPARQL TSV writer that orders the rows as ``ordered`` says.

    With ``keep`` (see :meth:`Ordered.keep`) it holds at most that many rows plus one batch: each
    full batch is sorted with the rows kept so far and cut back to ``keep``. The rows kept are in
    order and arrived first among their ties, so the result is one stable sort of the whole answer.
    Without ``keep`` it raises :class:`TooManyRows` past ``most`` rows."""

    def __init__(self, ordered: Ordered, keep: int | None, most: int) -> None:
        self.ordered = ordered
        self.keep = keep
        self.most = most
        self.batch = max(50_000, keep or 0)
        self.header: str | None = None
        self.rows: list[str] = []
        self._rest = b""
        self._at: list[tuple[int, bool]] = []

    def write(self, data: bytes) -> int:
        cut = data.rfind(b"\n")
        if cut < 0:
            self._rest += data
            return len(data)
        lines = (self._rest + data[:cut]).decode().split("\n")
        self._rest = data[cut + 1 :]
        if self.header is None:
            self._start(lines.pop(0))
        self.rows.extend(lines)
        if self.keep is None:
            if len(self.rows) > self.most:
                raise TooManyRows
        elif len(self.rows) >= self.keep + self.batch:
            self.rows = self._sorted()[: self.keep]
        return len(data)

    def flush(self) -> None:
        """Nothing to flush: the rows are read at the end."""

    def _start(self, header: str) -> None:
        self.header = header
        columns = [v[1:] for v in header.split("\t")]
        # a key the answer has no column for (SELECT * of a variable out of scope) is unbound in every row
        self._at = [(columns.index(v), d) for v, d in self.ordered.keys if v in columns]

    def _sorted(self) -> list[str]:
        """The rows held, in order (stable sorts, innermost key first), one of each when distinct."""
        cells = [row.split("\t") for row in self.rows]
        order = list(range(len(self.rows)))
        for at, descending in reversed(self._at):
            keys = [term_key(row[at]) for row in cells]
            order.sort(key=keys.__getitem__, reverse=descending)
        rows = [self.rows[i] for i in order]
        if self.ordered.distinct:
            hidden = self.ordered.hidden
            seen: set[str] = set()
            kept = []
            for row in rows:
                visible = row.rsplit("\t", hidden)[0]
                if visible not in seen:
                    seen.add(visible)
                    kept.append(row)
            rows = kept
        return rows

    def result(self, cap: int | None) -> tuple[bytes, bool]:
        """The answer in order, paged, cut at ``cap`` rows, its computed keys removed; and whether
        rows were cut off there."""
        if self._rest:
            self.write(b"\n")
        header = self.header or ""
        start = self.ordered.offset
        stop = None if self.ordered.limit is None else start + self.ordered.limit
        page = self._sorted()[start:stop]
        truncated = cap is not None and len(page) > cap
        if truncated:
            page = page[:cap]
        hidden = self.ordered.hidden
        if hidden:
            header = header.rsplit("\t", hidden)[0]
            page = [r.rsplit("\t", hidden)[0] for r in page]
        return (header + "\n" + "".join(r + "\n" for r in page)).encode(), truncated
