"""Bound variables of a SELECT as a ``VALUES`` block at the head of its ``WHERE`` group.

Oxigraph applies ``substitutions`` to the evaluation, not to the plan: its optimizer never learns that
``?org`` is one node, so a query bound to a small organization still starts from every deal of the
store (deals-of-organization at 1M quads: 95–400 ms bound by substitution, 2–3 ms with the value in
a leading VALUES block, same rows). A leading VALUES block is the plain SPARQL 1.1 form (§10.2) of the
same binding, which the optimizer joins first. Upstream: not filed. Oxigraph hands substitutions
(SEP-0007) to spareval as the evaluation's initial bindings, after sparopt has chosen the join order
from a query in which the variable is free; tests/test_upstream.py counts the rows a filter sees
(2,000 substituted, 10 with VALUES) as a strict expected failure that passes once the plan sees them.

The rewrite applies only where its meaning is the substitution's and it is faster: a SELECT whose
projection holds every bound variable (or ``*``), with no subquery (a subquery has its own scope, and
Oxigraph re-evaluated one under the block: nvidia-only-capacity 0.2 -> 7 s), no trailing VALUES, and no
bound variable after ``AS`` (a variable bound by BIND or a projection expression cannot be bound
again). Anything else keeps the engine's substitution, with its own rules and errors.
"""

from __future__ import annotations

from collections.abc import Mapping

import pyoxigraph as ox

from aikg.rdf.results import StoredTerm as Term
from aikg.rdf.tokens import QUERY_FORMS, Token, tokenize


def with_values(text: str, bindings: Mapping[str, Term]) -> str | None:
    """``text`` with ``bindings`` as a leading VALUES block of its WHERE group, or None where that
    would not mean what a substitution means."""
    if not bindings or any(isinstance(v, ox.BlankNode | ox.Triple) for v in bindings.values()):
        return None  # a blank node in VALUES is not allowed; triple terms are refused by the guard
    toks = tokenize(text)
    form = next((i for i, t in enumerate(toks) if t.kind == "keyword" and t.value in QUERY_FORMS), None)
    if form is None or toks[form].value != "SELECT":
        return None
    where = _where_brace(toks, form)
    if where is None or not _projects(toks[form + 1 : where], bindings):
        return None
    if not _safe_body(toks[where:], bindings):
        return None
    names = sorted(bindings)
    block = (
        f" VALUES ({' '.join('?' + n for n in names)}) {{ ({' '.join(str(bindings[n]) for n in names)}) }} "
    )
    at = toks[where].end
    return text[:at] + block + text[at:]


def _where_brace(toks: list[Token], form: int) -> int | None:
    """Index of the ``{`` that opens the outermost WHERE group (parentheses of the projection skipped)."""
    parens = 0
    for i in range(form + 1, len(toks)):
        t = toks[i].text
        if t == "(":
            parens += 1
        elif t == ")":
            parens -= 1
        elif t == "{" and parens == 0:
            return i
    return None


def _projects(projection: list[Token], bindings: Mapping[str, Term]) -> bool:
    """True when the projection is ``*`` or names every bound variable as itself (not after AS)."""
    if any(t.text == "*" for t in projection if t.kind == "punct") and not any(
        t.kind == "var" for t in projection
    ):
        return True
    plain: set[str] = set()
    parens = 0
    for i, t in enumerate(projection):
        if t.text == "(":
            parens += 1
        elif t.text == ")":
            parens -= 1
        elif t.kind == "var" and parens == 0:
            plain.add(t.value)
        elif t.kind == "var" and t.value in bindings and projection[i - 1].is_keyword("AS"):
            return False  # a projection expression binds it
    return set(bindings) <= plain


def _safe_body(body: list[Token], bindings: Mapping[str, Term]) -> bool:
    """False when the query has a subquery or a trailing VALUES clause, or a bound variable follows AS."""
    depth = 0
    for i, t in enumerate(body):
        if t.text == "{":
            depth += 1
        elif t.text == "}":
            depth -= 1
        elif t.is_keyword("SELECT"):
            return False  # a subquery: Oxigraph re-ran nvidia-only-capacity's under the block (0.2 -> 7 s)
        elif t.is_keyword("VALUES") and depth == 0:
            return False  # a trailing VALUES clause: leave the query as written
        elif t.kind == "var" and t.value in bindings and i > 0 and body[i - 1].is_keyword("AS"):
            return False
    return True
