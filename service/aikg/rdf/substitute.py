"""Bound variables written into a query's text, token by token: aikg's one way of binding a variable.

Every bound query, on both backends, runs the text :func:`substitute` writes: a named query's parameters,
the lookups' bound nodes, a rule's ``?rule``. A remote SPARQL engine has no substitution API, and
Oxigraph's (SEP-0007 ``substitutions``) is applied after its optimizer has planned the query as if the
variable were free (tests/test_upstream.py: a bound filter saw 2,000 rows instead of 10); a value written
into the text is a constant the optimizer starts from. It is also the text the SPARQL editor opens for
the same values (:meth:`aikg.query.named.NamedQueries.text`).

The values go through the one tokenizer (:mod:`aikg.rdf.tokens`), never pasted: strings, IRIs and
comments are left untouched. A text's tokens are kept for recent texts (a named query is long and
commented, and tokenizing it costs milliseconds; the values change, the text does not).
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

import pyoxigraph as ox

from aikg.errors import BadRequest
from aikg.rdf.results import Term
from aikg.rdf.tokens import Prologue, Token, apply_edits, declared, tokenize


def substitute(text: str, bindings: Mapping[str, Term]) -> str:
    """Replace bound variables by their values, as Oxigraph's ``substitutions`` do (SPARQL SEP-0007).

    Remote engines have no substitution API, so the query is rewritten token by token: each value is
    serialized by rdflib (never pasted as raw text); strings, IRIs and comments are left untouched. The
    outermost SELECT projects a bound variable as ``(value AS ?var)``; a subquery stops projecting it
    (the value is already in its patterns, and SPARQL forbids binding an in-scope variable again), and
    a grouping or ordering key becomes ``(value)``. A ``VALUES`` block naming a bound variable loses that
    column and keeps the rows whose cell is the value (or ``UNDEF``): the join the binding stands for. A
    subquery that projects only bound variables projects them as ``(value AS ?var)``, and the outer
    SELECT then projects and groups by them as they are (they are in scope). An outermost ``SELECT *``
    keeps a bound variable as a column, bound at the start of its WHERE group. A blank node or a triple
    term has no name a query could hold: binding one is refused.

    Where the text is rewritten depends on the text and on which variables are bound, not on their
    values: that is read once per text and names (:func:`_plan`), and each call only writes the values
    in (reading a named query's text for its sites took ~0.25 ms a call, on every miss of a bound named
    query; writing the values in takes a few microseconds).
    """
    if not bindings:
        return text
    odd = sorted(k for k, v in bindings.items() if isinstance(v, ox.BlankNode | ox.Triple))
    if odd:
        raise BadRequest(f"a blank node or a triple term cannot be bound: {', '.join('?' + k for k in odd)}")
    plan = _plan(text, frozenset(bindings))
    values = {name: str(term) for name, term in bindings.items()}
    edits = [
        (start, end, form.format(value=values[name], name=name)) for start, end, form, name in plan.sites
    ]
    edits += [(block.start, block.end, block.rewritten(values)) for block in plan.blocks]
    if plan.star is not None:
        at, named = plan.star
        edits.append((at, at, "".join(f" BIND ({values[n]} AS ?{n})" for n in named)))
    return apply_edits(text, edits)


@dataclass(frozen=True)
class _Block:
    """A ``VALUES`` block naming a bound variable, read once: rewritten whole for each set of values."""

    start: int
    end: int
    names: tuple[str, ...]
    bound: tuple[bool, ...]
    rows: tuple[tuple[tuple[str, str | None], ...], ...]
    """Each row's cells: (cell as written, the term's N-Triples or None: UNDEF)."""
    inline: bool
    """Inside the WHERE clause (else the query's trailing ValuesClause)."""

    def rewritten(self, values: Mapping[str, str]) -> str:
        """The block with the bound columns taken out and the rows whose bound cells agree with
        ``values`` kept. A block left with no column is written out: nothing where a row agrees (the
        join changes nothing), else, inside the WHERE clause, ``FILTER (false)`` (Virtuoso 7.2 fails on
        ``VALUES () { () }``: "No table DB.DBA.SPARQL_BINDINGS_VIEW_C_0"); a trailing block with no row
        agreeing stays an empty table."""
        kept = [
            [written for (written, _), is_bound in zip(row, self.bound, strict=True) if not is_bound]
            for row in self.rows
            if all(
                key is None or key == values[name]
                for (_, key), name, is_bound in zip(row, self.names, self.bound, strict=True)
                if is_bound
            )
        ]
        if all(self.bound) and (kept or self.inline):
            return "" if kept else "FILTER (false)"
        header = " ".join(f"?{n}" for n, is_bound in zip(self.names, self.bound, strict=True) if not is_bound)
        body = " ".join("(" + " ".join(row) + ")" for row in kept)
        return f"VALUES ({header}) {{ {body} }}"


@dataclass(frozen=True)
class _Plan:
    """Where a text is rewritten for a set of bound variables, whatever their values."""

    sites: tuple[tuple[int, int, str, str], ...]
    """(start, end, replacement form, variable): the form is formatted with the value and the name."""
    blocks: tuple[_Block, ...]
    star: tuple[int, tuple[str, ...]] | None
    """For an outermost ``SELECT *``: where its WHERE group opens, and the bound variables it names."""


@functools.lru_cache(maxsize=256)
def _plan(text: str, names: frozenset[str]) -> _Plan:
    """The rewriting sites of ``text`` for the bound variables ``names`` (kept for recent texts)."""
    others = _other_projections(text, names)
    # A subquery projecting nothing but bound variables projects them as (value AS ?var): they are then
    # in scope outside it, where an outer SELECT projects them as they are.
    scoped = {
        tok.value
        for kind, tok, select_at, brace in _scan(text)
        if kind == "var" and tok.value in names and select_at >= 0 and brace > 0 and not others.get(select_at)
    }
    blocks = _values_blocks(text, names)
    sites: list[tuple[int, int, str, str]] = []
    for kind, tok, select_at, brace in _scan(text):
        if any(block.start <= tok.start < block.end for block in blocks):
            continue  # inside a VALUES block rewritten whole
        if kind != "var" or tok.value not in names or select_at == -2:
            continue  # after AS: the name being bound, kept
        name = tok.value
        if select_at >= 0:
            if brace == 0 and name in scoped:
                continue
            nested = brace > 0 and others.get(select_at, 0) > 0
            form = "" if nested else "({value} AS ?{name})"
        elif select_at == -3:
            if brace == 0 and name in scoped:
                continue  # projected as it is (in scope, bound to the value): a grouping key stays
            form = "({value})"
        else:
            form = "{value}"
        sites.append((tok.start, tok.end, form, name))
    return _Plan(tuple(sites), tuple(blocks), _star_binds(text, names))


_XSD = "http://www.w3.org/2001/XMLSchema#"


def _values_blocks(text: str, names: frozenset[str]) -> list[_Block]:
    """The VALUES blocks naming a bound variable, each to be rewritten whole. A block whose cells this
    cannot read as terms is left as it is."""
    toks = _tokens(text)
    out: list[_Block] = []
    depth = 0  # of braces: a VALUES block at depth 0 is the query's trailing ValuesClause
    done = -1  # the last token of the block read last
    for i, prologue in declared(toks):
        if i <= done:
            continue
        depth += {"{": 1, "}": -1}.get(toks[i].text, 0)
        if toks[i].is_keyword("VALUES"):
            found = _values_block(toks, i, prologue, names, inline=depth > 0)
            if found is not None:
                done = found[0]
                out.append(found[1])
    return out


def _values_block(
    toks: list[Token], at: int, prologue: Prologue, names: frozenset[str], *, inline: bool
) -> tuple[int, _Block] | None:
    """The index of the block's closing brace and the block, when its header names a bound variable."""
    i = at + 1
    if i < len(toks) and toks[i].kind == "var":
        header, single = [toks[i].value], True
        i += 1
    elif i < len(toks) and toks[i].text == "(":
        header, single = [], False
        i += 1
        while i < len(toks) and toks[i].kind == "var":
            header.append(toks[i].value)
            i += 1
        if i >= len(toks) or toks[i].text != ")":
            return None
        i += 1
    else:
        return None
    bound = tuple(n in names for n in header)
    if not any(bound) or i >= len(toks) or toks[i].text != "{":
        return None
    i += 1
    rows: list[tuple[tuple[str, str | None], ...]] = []
    while i < len(toks) and toks[i].text != "}":
        row: list[tuple[str, str | None]]
        if single:
            cell = _cell(toks, i, prologue)
            if cell is None:
                return None
            i, row = cell[0], [cell[1]]
        else:
            if toks[i].kind == "nil":
                i, row = i + 1, []
            elif toks[i].text == "(":
                i, row = i + 1, []
                while i < len(toks) and toks[i].text != ")":
                    cell = _cell(toks, i, prologue)
                    if cell is None:
                        return None
                    i = cell[0]
                    row.append(cell[1])
                i += 1
            else:
                return None
        if len(row) != len(header):
            return None
        rows.append(tuple(row))
    if i >= len(toks):
        return None
    return i, _Block(toks[at].start, toks[i].end, tuple(header), bound, tuple(rows), inline)


def _cell(toks: list[Token], i: int, prologue: Prologue) -> tuple[int, tuple[str, str | None]] | None:
    """One DataBlockValue from ``toks[i]``: the index after it, its text, and its term (None: UNDEF)."""
    tok = toks[i]
    if tok.is_keyword("UNDEF"):
        return i + 1, (tok.text, None)
    if tok.kind in ("iri", "pname"):
        iri = prologue.resolve(tok)
        return None if iri is None else (i + 1, (tok.text, str(ox.NamedNode(iri))))
    if tok.is_keyword("TRUE", "FALSE"):
        term = ox.Literal(tok.value.lower(), datatype=ox.NamedNode(_XSD + "boolean"))
        return i + 1, (tok.text, str(term))
    if tok.kind == "number":
        kind = "double" if "e" in tok.text.lower() else "decimal" if "." in tok.text else "integer"
        return i + 1, (tok.text, str(ox.Literal(tok.text, datatype=ox.NamedNode(_XSD + kind))))
    if tok.kind != "string":
        return None
    nxt = toks[i + 1] if i + 1 < len(toks) else None
    if nxt is not None and nxt.kind == "langtag":
        return i + 2, (tok.text + nxt.text, str(ox.Literal(tok.value, language=nxt.text[1:])))
    if nxt is not None and nxt.text == "^^" and i + 2 < len(toks):
        iri = prologue.resolve(toks[i + 2])
        if iri is None:
            return None
        written = tok.text + "^^" + toks[i + 2].text
        return i + 3, (written, str(ox.Literal(tok.value, datatype=ox.NamedNode(iri))))
    return i + 1, (tok.text, str(ox.Literal(tok.value)))


def _other_projections(text: str, names: frozenset[str]) -> dict[int, int]:
    """For each SELECT (by position), how many projected items are not bound variables."""
    counts: dict[int, int] = {}
    for kind, tok, select_at, _ in _scan(text):
        if select_at >= 0:
            counts.setdefault(select_at, 0)
            if not (kind == "var" and tok.value in names):
                counts[select_at] += 1
    return counts


@functools.lru_cache(maxsize=256)
def _tokens(text: str) -> list[Token]:
    """The tokens of a text (kept for recent texts; read, never changed)."""
    return tokenize(text)


def _star_binds(text: str, names: frozenset[str]) -> tuple[int, tuple[str, ...]] | None:
    """For an outermost ``SELECT *``: where its WHERE group opens and the bound variables the text
    names, each to be bound there (``BIND (value AS ?var)``), so the variable stays a column (as the
    engine's substitution keeps it); None for any other query."""
    scanned = _scan(text)
    first = next((i for i, (_, _, where, _) in enumerate(scanned) if where >= 0), None)
    if first is None or scanned[first][1].text != "*" or scanned[first][3] != 0:
        return None
    opening = next((tok for _, tok, _, _ in scanned[first:] if tok.text == "{"), None)
    named = sorted({tok.value for kind, tok, _, _ in scanned if kind == "var" and tok.value in names})
    if opening is None or not named:
        return None
    return opening.end, tuple(named)


@functools.lru_cache(maxsize=256)
def _scan(text: str) -> tuple[tuple[str, Token, int, int], ...]:
    """Tokens of a query as (kind, token, where, brace depth); ``where`` is the start of the SELECT whose
    projection the token is in (at parenthesis depth 0), -2 right after AS, -3 a GROUP/ORDER key, else -1.
    Kept for recent texts."""
    return tuple(_scanning(text))


def _scanning(text: str) -> Iterable[tuple[str, Token, int, int]]:
    clause, clause_at = "", -1
    depth = brace = 0
    after_as = False
    for tok in _tokens(text):
        if tok.kind == "var":
            if after_as:
                where = -2
            elif clause == "SELECT" and depth == 0:
                where = clause_at
            elif clause in ("GROUP", "ORDER") and depth == 0:
                where = -3
            else:
                where = -1
            yield "var", tok, where, brace
            after_as = False
            continue
        if tok.kind == "keyword":
            if tok.value in _CLAUSES:
                clause, clause_at, depth = tok.value, tok.start, 0
            after_as = tok.value == "AS"
            yield "word", tok, -1, brace
            continue
        if clause == "SELECT" and depth == 0 and tok.text in ("(", "*"):
            yield "item", tok, clause_at, brace
            depth += tok.text == "("
            continue
        if tok.text == "(":
            depth += 1
        elif tok.text == ")":
            depth -= 1
        elif tok.text == "{":
            clause, depth = "", 0
            brace += 1
        elif tok.text == "}":
            brace -= 1
        yield "other", tok, -1, brace


_CLAUSES = {
    "SELECT",
    "GROUP",
    "ORDER",
    "WHERE",
    "HAVING",
    "LIMIT",
    "OFFSET",
    "VALUES",
    "CONSTRUCT",
    "ASK",
    "DESCRIBE",
}
