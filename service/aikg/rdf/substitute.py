"""Bound variables written into a query's text, token by token: the remote engines' substitution.

Oxigraph binds a named query's parameters with its ``substitutions``; a remote SPARQL engine has no such
API, so the same binding is written into the text here, through the one tokenizer (:mod:`aikg.rdf.tokens`),
never pasted: strings, IRIs and comments are left untouched.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from aikg.rdf.results import Term
from aikg.rdf.tokens import Token, apply_edits, tokenize


def substitute(text: str, bindings: Mapping[str, Term]) -> str:
    """Replace bound variables by their values, as Oxigraph's ``substitutions`` do (SPARQL SEP-0007).

    Remote engines have no substitution API, so the query is rewritten token by token: each value is
    serialized by rdflib (never pasted as raw text); strings, IRIs and comments are left untouched. The
    outermost SELECT projects a bound variable as ``(value AS ?var)``; a subquery stops projecting it
    (the value is already in its patterns, and SPARQL forbids binding an in-scope variable again), and
    a grouping or ordering key becomes ``(value)``.
    """
    others = _other_projections(text, bindings)
    edits: list[tuple[int, int, str]] = []
    for kind, tok, select_at, brace in _scan(text):
        if kind != "var" or tok.value not in bindings or select_at == -2:
            continue  # after AS: the name being bound, kept
        name = tok.value
        value = str(bindings[name])
        if select_at >= 0:
            nested = brace > 0 and others.get(select_at, 0) > 0
            replacement = "" if nested else f"({value} AS ?{name})"
        elif select_at == -3:
            replacement = f"({value})"
        else:
            replacement = value
        edits.append((tok.start, tok.end, replacement))
    return apply_edits(text, edits)


def _other_projections(text: str, bindings: Mapping[str, Term]) -> dict[int, int]:
    """For each SELECT (by position), how many projected items are not bound variables."""
    counts: dict[int, int] = {}
    for kind, tok, select_at, _ in _scan(text):
        if select_at >= 0:
            counts.setdefault(select_at, 0)
            if not (kind == "var" and tok.value in bindings):
                counts[select_at] += 1
    return counts


def _scan(text: str) -> Iterable[tuple[str, Token, int, int]]:
    """Tokens of a query as (kind, token, where, brace depth); ``where`` is the start of the SELECT whose
    projection the token is in (at parenthesis depth 0), -2 right after AS, -3 a GROUP/ORDER key, else -1.
    """
    clause, clause_at = "", -1
    depth = brace = 0
    after_as = False
    for tok in tokenize(text):
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
