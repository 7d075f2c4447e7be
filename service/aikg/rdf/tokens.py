"""The one SPARQL tokenizer: the terminals of the SPARQL 1.1 grammar (Query §19.8), as Oxigraph reads them.

Every part of aikg that looks inside a client's SPARQL text — the guard, the dataset and query-form
checks, the remote backend's rewriting — reads it through :func:`tokenize`, so strings, IRIs and comments
are told apart in one way. Terminals are matched as the grammar defines them (longest match; an
``IRIREF`` cannot hold white space, so ``?a < ?b`` is an operator).

Codepoint escapes (``\\uXXXX``, ``\\UXXXXXXXX``): SPARQL 1.1 (§19.2) replaces them anywhere before
parsing; Oxigraph, like SPARQL 1.2, reads them only inside IRIs and string literals (elsewhere they are a
syntax error). :func:`tokenize` follows the engine (token values are decoded), and :func:`decode_escapes`
gives the SPARQL 1.1 reading, so a check can decide on both (see :mod:`aikg.rdf.guard`).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

from aikg.errors import QuerySyntaxError

_BASE = (
    "A-Za-z\u00c0-\u00d6\u00d8-\u00f6\u00f8-\u02ff\u0370-\u037d\u037f-\u1fff\u200c-\u200d"
    "\u2070-\u218f\u2c00-\u2fef\u3001-\ud7ff\uf900-\ufdcf\ufdf0-\ufffd\U00010000-\U000effff"
)
_U = _BASE + "_"
_CHARS = _U + r"\-0-9\u00b7\u0300-\u036f\u203f-\u2040"
_UCHAR = r"\\u[0-9A-Fa-f]{4}|\\U[0-9A-Fa-f]{8}"
_ECHAR = r"""\\[tbnrf\\"']"""
_PLX = r"%[0-9A-Fa-f]{2}|\\[_~.\-!$&'()*+,;=/?#@%]"
_PREFIX = rf"[{_BASE}](?:[{_CHARS}.]*[{_CHARS}])?"
_LOCAL = rf"(?:[{_U}:0-9]|{_PLX})(?:(?:[{_CHARS}.:]|{_PLX})*(?:[{_CHARS}:]|{_PLX}))?"
_WS = r"[\x20\t\r\n]"

_TERMINALS = re.compile(
    rf"""
    (?P<ws>{_WS}+)
  | (?P<comment>\#[^\r\n]*)
  | (?P<iri><(?:[^<>"{{}}|^`\\\x00-\x20]|{_UCHAR})*>)
  | (?P<string>'''[^'\\]*(?:(?:'{{1,2}}(?!')|{_ECHAR}|{_UCHAR})[^'\\]*)*'''
              |\"\"\"[^"\\]*(?:(?:"{{1,2}}(?!")|{_ECHAR}|{_UCHAR})[^"\\]*)*\"\"\"
              |'[^'\\\r\n]*(?:(?:{_ECHAR}|{_UCHAR})[^'\\\r\n]*)*'
              |"[^"\\\r\n]*(?:(?:{_ECHAR}|{_UCHAR})[^"\\\r\n]*)*")
  | (?P<pname>(?:{_PREFIX})?:(?:{_LOCAL})?)
  | (?P<bnode>_:[{_U}0-9](?:[{_CHARS}.]*[{_CHARS}])?)
  | (?P<var>[?$][{_U}0-9][{_U}0-9\u00b7\u0300-\u036f\u203f-\u2040]*)
  | (?P<langtag>@[a-zA-Z]+(?:-[a-zA-Z0-9]+)*)
  | (?P<number>[0-9]+\.[0-9]*[eE][+-]?[0-9]+|\.[0-9]+[eE][+-]?[0-9]+|[0-9]+[eE][+-]?[0-9]+
              |[0-9]*\.[0-9]+|[0-9]+)
  | (?P<keyword>[A-Za-z][A-Za-z0-9_]*)
  | (?P<nil>\({_WS}*\))
  | (?P<anon>\[{_WS}*\])
  | (?P<punct>\^\^|\|\||&&|!=|<=|>=|[{{}}()\[\];,.=<>!+\-*/|^?])
  | (?P<error>.)
""",
    re.VERBOSE | re.DOTALL,
)
"""One alternative per terminal class, in an order where the first match is the grammar's longest one.
Strings are matched run by run (unrolled loops), not character by character: a megabyte literal takes
milliseconds, and an unterminated one fails in linear time."""

_ESCAPE = re.compile(rf"{_UCHAR}|{_ECHAR}|{_PLX}")
_CODEPOINT = re.compile(_UCHAR)
_ECHARS = {"t": "\t", "b": "\b", "n": "\n", "r": "\r", "f": "\f", "\\": "\\", '"': '"', "'": "'"}

TRIVIA = frozenset({"ws", "comment"})
"""Token kinds that carry no meaning (white space and comments)."""


@dataclass(frozen=True)
class Token:
    """One terminal: its kind, its text as written, where it is, and its decoded value.

    ``value`` is the IRI of an ``iri`` token (escapes decoded, not yet resolved), the lexical form of a
    ``string``, the name of a ``var`` (without ``?``/``$``), the upper-cased word of a ``keyword``, and
    ``prefix:local`` with the local part's escapes removed for a ``pname``.
    """

    kind: str
    text: str
    start: int
    end: int
    value: str

    def is_keyword(self, *words: str) -> bool:
        """True for a keyword token that is one of ``words`` (upper case)."""
        return self.kind == "keyword" and self.value in words


def apply_edits(text: str, edits: list[tuple[int, int, str]]) -> str:
    """``text`` with each (start, end, replacement) applied; the spans come from :func:`tokenize` and do
    not overlap."""
    out, last = [], 0
    for start, end, replacement in sorted(edits):
        out.append(text[last:start] + replacement)
        last = end
    return "".join(out) + text[last:]


def tokenize(text: str, *, trivia: bool = False) -> list[Token]:
    """The terminals of ``text``; white space and comments only when ``trivia`` is set."""
    out: list[Token] = []
    for m in _TERMINALS.finditer(text):
        kind = m.lastgroup or "error"
        if kind in TRIVIA and not trivia:
            continue
        try:
            value = _value(kind, m.group())
        except _NotACharacter as exc:
            raise _escape_error(text, m.start() + exc.offset, exc.escape) from None
        out.append(Token(kind, m.group(), m.start(), m.end(), value))
    return out


class _NotACharacter(ValueError):
    """A codepoint escape that names no Unicode scalar value (beyond U+10FFFF, or a surrogate)."""

    def __init__(self, escape: str, offset: int) -> None:
        super().__init__(escape)
        self.escape = escape
        self.offset = offset


def _escape_error(text: str, at: int, escape: str) -> QuerySyntaxError:
    line = text.count("\n", 0, at) + 1
    column = at - (text.rfind("\n", 0, at) + 1) + 1
    # Oxigraph refuses the same text as a syntax error; saying so here keeps every backend's answer alike.
    return QuerySyntaxError(
        f"the text does not parse: error at {line}:{column}: the escape {escape} names "
        "no Unicode character (beyond U+10FFFF, or a surrogate)",
        errors=[{"line": line, "column": column}],
    )


def _value(kind: str, raw: str) -> str:
    if kind == "iri":
        return _CODEPOINT.sub(lambda m: _decode_one(m, 1), raw[1:-1])
    if kind == "string":
        quote = 3 if raw[:3] in ('"""', "'''") else 1
        return _ESCAPE.sub(lambda m: _decode_one(m, quote), raw[quote:-quote])
    if kind == "keyword":
        return raw.upper()
    if kind == "var":
        return raw[1:]
    if kind == "pname":
        prefix, _, local = raw.partition(":")
        return prefix + ":" + re.sub(r"\\(.)", r"\1", local)
    return raw


def _decode_one(m: re.Match[str], skipped: int) -> str:
    s = m.group()
    if s[:2] in ("\\u", "\\U"):
        code = int(s[2:], 16)
        if code > 0x10FFFF or 0xD800 <= code <= 0xDFFF:
            raise _NotACharacter(s, skipped + m.start())
        return chr(code)
    if s[0] == "\\":
        return _ECHARS.get(s[1], s[1])
    return s  # a %XX stays as it is (it is part of the IRI)


def decode_escapes(text: str) -> str:
    """``text`` with every codepoint escape replaced by its character, as SPARQL 1.1 §19.2 reads it."""
    return _CODEPOINT.sub(lambda m: _safe_chr(int(m.group()[2:], 16)), text)


def _safe_chr(code: int) -> str:
    return chr(code) if code <= 0x10FFFF else "\ufffd"


_CLOSERS = {"(": ")", "{": "}", "[": "]"}


def closing(toks: list[Token], at: int) -> int | None:
    """Index of the token that closes the bracket ``toks[at]`` opens (``(``, ``{`` or ``[``); None when
    it is never closed. Brackets inside strings and IRIs are not tokens of their own, so they do not
    count."""
    opening = toks[at].text
    close = _CLOSERS[opening]
    depth = 0
    for j in range(at, len(toks)):
        t = toks[j]
        if t.kind != "punct":
            continue
        if t.text == opening:
            depth += 1
        elif t.text == close:
            depth -= 1
            if depth == 0:
                return j
    return None


def keywords(text: str) -> list[str]:
    """The keywords of ``text`` outside strings, IRIs and comments, upper-cased, in order."""
    return [t.value for t in tokenize(text) if t.kind == "keyword"]


_REFERENCE = re.compile(r"^(?:([A-Za-z][A-Za-z0-9+.-]*):)?(//[^/?#]*)?([^?#]*)(\?[^#]*)?(#.*)?$", re.DOTALL)


def resolve_iri(base: str, ref: str) -> str:
    """``ref`` resolved against ``base`` as RFC 3986 §5.2 defines it (an absolute ``ref`` is returned as
    written). Unlike ``urllib.parse.urljoin``, an empty fragment or query is kept: ``<ontology#>`` stays
    a namespace ending in ``#``."""
    r = _REFERENCE.match(ref)
    b = _REFERENCE.match(base)
    if r is None or r.group(1) or b is None:
        return ref
    scheme, authority, path, query, fragment = b.group(1) or "", b.group(2), b.group(3), b.group(4), None
    r_authority, r_path, r_query, r_fragment = r.group(2), r.group(3), r.group(4), r.group(5)
    if r_authority is not None:
        authority, path, query = r_authority, _remove_dots(r_path), r_query
    elif r_path == "":
        query = r_query if r_query is not None else query
    else:
        if r_path.startswith("/"):
            path = _remove_dots(r_path)
        elif authority is not None and path == "":
            path = _remove_dots("/" + r_path)
        else:
            path = _remove_dots(path[: path.rfind("/") + 1] + r_path)
        query = r_query
    fragment = r_fragment
    return f"{scheme}:{authority or ''}{path}{query or ''}{fragment or ''}"


def _remove_dots(path: str) -> str:
    """RFC 3986 §5.2.4."""
    out: list[str] = []
    while path:
        if path.startswith("../"):
            path = path[3:]
        elif path.startswith("./") or path.startswith("/./"):
            path = path[2:]
        elif path == "/.":
            path = "/"
        elif path.startswith("/../") or path == "/..":
            path = "/" + path[4:] if path.startswith("/../") else "/"
            if out:
                out.pop()
        elif path in (".", ".."):
            path = ""
        else:
            m = re.match(r"/?[^/]*", path)
            assert m is not None
            out.append(m.group())
            path = path[m.end() :]
    return "".join(out)


@dataclass
class Prologue:
    """The BASE and PREFIX declarations read so far, to turn IRI and prefixed-name tokens into IRIs."""

    base: str = ""
    prefixes: dict[str, str] | None = None

    def resolve(self, tok: Token) -> str | None:
        """The absolute IRI an ``iri`` or ``pname`` token stands for (None for other tokens, or an
        undeclared prefix)."""
        if tok.kind == "iri":
            return resolve_iri(self.base, tok.value) if self.base else tok.value
        if tok.kind == "pname":
            prefix, _, local = tok.value.partition(":")
            ns = (self.prefixes or {}).get(prefix)
            return None if ns is None else ns + local
        return None

    def declare(self, toks: list[Token], i: int) -> int:
        """Read a BASE or PREFIX declaration starting at ``toks[i]``; return the index after it."""
        tok = toks[i]
        if tok.is_keyword("BASE") and i + 1 < len(toks) and toks[i + 1].kind == "iri":
            self.base = self.resolve(toks[i + 1]) or ""
            return i + 2
        if (
            tok.is_keyword("PREFIX")
            and i + 2 < len(toks)
            and toks[i + 1].kind == "pname"
            and toks[i + 1].value.endswith(":")
            and toks[i + 2].kind == "iri"
        ):
            if self.prefixes is None:
                self.prefixes = {}
            self.prefixes[toks[i + 1].value[:-1]] = self.resolve(toks[i + 2]) or ""
            return i + 3
        return i


def declared(toks: list[Token], base: str = "") -> Iterator[tuple[int, Prologue]]:
    """The index of every token of ``toks`` but the BASE/PREFIX declarations, with the prologue in force
    at it (declarations are read as they come; relative IRIs resolve against ``base`` until a BASE)."""
    prologue = Prologue(base=base, prefixes={})
    i = 0
    while i < len(toks):
        after = prologue.declare(toks, i)
        if after != i:
            i = after
            continue
        yield i, prologue
        i += 1


def significant(text: str, base: str = "") -> Iterator[tuple[Token, Prologue]]:
    """Every meaningful token of ``text`` but the BASE/PREFIX declarations, with the prologue in force
    at it (:func:`declared`)."""
    toks = tokenize(text)
    for i, prologue in declared(toks, base):
        yield toks[i], prologue


def first_keyword(text: str) -> str | None:
    """The first keyword of ``text`` after the BASE/PREFIX prologue: the query form or update verb."""
    for tok, _ in significant(text):
        return tok.value if tok.kind == "keyword" else None
    return None


UPDATE_VERBS = frozenset(
    {"INSERT", "DELETE", "LOAD", "CLEAR", "CREATE", "DROP", "COPY", "MOVE", "ADD", "WITH"}
)
"""Keywords that start an update operation (after the prologue)."""

QUERY_FORMS = ("SELECT", "CONSTRUCT", "DESCRIBE", "ASK")


def is_update(text: str) -> bool:
    """True when ``text`` reads as a SPARQL Update request (an update verb after the prologue)."""
    return first_keyword(text) in UPDATE_VERBS


def query_form(text: str) -> str:
    """The query form keyword (SELECT, CONSTRUCT, DESCRIBE, ASK) of a query text; SELECT if none."""
    word = first_keyword(text)
    return word if word in QUERY_FORMS else "SELECT"


def has_dataset_clause(text: str) -> bool:
    """True when a query names its own dataset (``FROM`` / ``FROM NAMED``), which must be honoured."""
    return any(t.is_keyword("FROM") for t in tokenize(text))


def without_dataset_clause(text: str) -> str:
    """``text`` without its ``FROM`` / ``FROM NAMED`` clauses, for an engine that must use the dataset the
    protocol request gives instead (SPARQL 1.1 Protocol §2.1.4) but would prefer the query's own."""
    toks = tokenize(text)
    cuts = []
    for i, tok in enumerate(toks):
        if tok.is_keyword("FROM"):
            j = i + 2 if i + 1 < len(toks) and toks[i + 1].is_keyword("NAMED") else i + 1
            if j < len(toks) and toks[j].kind in ("iri", "pname"):
                cuts.append((tok.start, toks[j].end))
    out, last = [], 0
    for start, end in cuts:
        out.append(text[last:start])
        last = end
    return "".join(out) + text[last:]


def resolve_relative(text: str, base: str) -> str:
    """``text`` with every IRI reference made absolute against ``base`` (and its own BASE declarations).

    For engines that are sent a query without a base IRI: the text then means what it meant here.
    """
    out: list[str] = []
    prologue = Prologue(base=base, prefixes={})
    last = 0
    pending_base = False
    for tok in tokenize(text):
        if tok.kind == "iri":
            absolute = prologue.resolve(tok) or tok.value
            out.append(text[last : tok.start] + "<" + _iri_text(absolute) + ">")
            last = tok.end
            if pending_base:
                prologue.base = absolute
        pending_base = tok.is_keyword("BASE")
    out.append(text[last:])
    return "".join(out)


def _iri_text(iri: str) -> str:
    """An IRI as IRIREF text: characters IRIREF cannot hold are written as codepoint escapes."""
    return "".join(c if c not in '<>"{}|^`\\' and ord(c) > 0x20 else f"\\u{ord(c):04X}" for c in iri)
