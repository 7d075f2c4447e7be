"""No fetching on a client's behalf: checks run on a query, an update or an RDF body BEFORE it executes.

Oxigraph (0.5) really does fetch: ``SERVICE <http://…>`` sends the sub-query over HTTP and ``LOAD`` and
``FROM <http://…>`` GET the IRI. Its RDF/XML parser expands nested internal entities (a "billion laughs"
document grows exponentially). So every client text is lexed here first, cheaply, and refused when it
names something outside the store.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Collection, Iterator
from dataclasses import dataclass
from urllib.parse import urljoin

import pyoxigraph as ox

from aikg.errors import BadRequest, Forbidden, RdfSyntaxError, UnsupportedMediaType

_TOKEN = re.compile(r"""
    (?P<ws>\s+)
  | (?P<comment>\#[^\n]*)
  | (?P<string>\"\"\"(?:[^"\\]|\\.|"(?!""))*\"\"\"|'''(?:[^'\\]|\\.|'(?!''))*'''
               |"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*')
  | (?P<iri><[^<>"{}|^`\\\x00-\x20]*>)
  | (?P<var>[?$][^\s(){}\[\];,.!=<>*/+\-|&^"'#]+)
  | (?P<word>[^\s(){}\[\];,<>=!*/+|&^"'\#?$]+)
  | (?P<punct>.)
""", re.VERBOSE | re.DOTALL)
"""SPARQL tokens, enough to find keywords outside strings, IRIs and comments (never a full parser)."""


@dataclass(frozen=True)
class Token:
    """One lexical token: its kind (iri, var, word, string, punct) and text."""

    kind: str
    text: str


def tokens(text: str) -> Iterator[Token]:
    """The SPARQL tokens of ``text``, without white space and comments."""
    for m in _TOKEN.finditer(text):
        kind = m.lastgroup or "punct"
        if kind not in ("ws", "comment"):
            yield Token(kind, m.group())


@dataclass
class _Prologue:
    base: str = ""
    prefixes: dict[str, str] | None = None

    def resolve(self, tok: Token) -> str | None:
        """The absolute IRI an IRI or prefixed-name token stands for (None when it is neither)."""
        if tok.kind == "iri":
            return urljoin(self.base, tok.text[1:-1]) if self.base else tok.text[1:-1]
        if tok.kind == "word" and ":" in tok.text:
            prefix, local = tok.text.split(":", 1)
            ns = (self.prefixes or {}).get(prefix)
            return None if ns is None else ns + local.rstrip(".").replace("\\", "")
        return None


def scan(text: str) -> Iterator[tuple[str, list[Token], _Prologue]]:
    """Yield (KEYWORD, following tokens, prologue so far) for every bare word, upper-cased."""
    toks = list(tokens(text))
    prologue = _Prologue(prefixes={})
    for i, tok in enumerate(toks):
        if tok.kind != "word":
            continue
        kw = tok.text.upper()
        rest = toks[i + 1:i + 4]
        _declare(prologue, kw, rest)
        yield kw, rest, prologue


def _declare(prologue: _Prologue, kw: str, rest: list[Token]) -> None:
    """Record a PREFIX or BASE declaration, so later prefixed names resolve."""
    if kw == "PREFIX" and len(rest) >= 2 and rest[0].text.endswith(":") and rest[1].kind == "iri":
        assert prologue.prefixes is not None
        prologue.prefixes[rest[0].text[:-1]] = prologue.resolve(rest[1]) or ""
    elif kw == "BASE" and rest and rest[0].kind == "iri":
        prologue.base = prologue.resolve(rest[0]) or ""


def graph_references(text: str) -> tuple[set[str], bool]:
    """Every IRI an update names, and whether it may also reach graphs it does not name.

    A graph can be addressed only by its IRI written out, or through ``GRAPH ?var`` / ``ALL`` / ``NAMED``
    (then the second value is True).
    """
    toks = list(tokens(text))
    prologue = _Prologue(prefixes={})
    iris: set[str] = set()
    open_ended = False
    previous = ""
    for i, tok in enumerate(toks):
        if tok.kind == "word" and ":" not in tok.text:
            kw = tok.text.upper()
            rest = toks[i + 1:i + 4]
            _declare(prologue, kw, rest)
            if kw == "GRAPH" and rest and rest[0].kind == "var":
                open_ended = True
            if kw in ("ALL", "NAMED") and previous in ("CLEAR", "DROP", "SILENT"):
                open_ended = True
            previous = kw
            continue
        iri = prologue.resolve(tok)
        if iri:
            iris.add(iri)
    return iris, open_ended


def _skip(rest: list[Token], *words: str) -> list[Token]:
    while rest and rest[0].kind == "word" and rest[0].text.upper() in words:
        rest = rest[1:]
    return rest


def check_sparql(text: str, *, known_graphs: Callable[[], Collection[str]],
                 allow_service: Collection[str] = (), update: bool = False) -> None:
    """Refuse SERVICE (unless allow-listed), LOAD, and FROM/USING naming a graph not in the store.

    ``known_graphs`` is called only when the text names a dataset, so most queries cost no store call.
    """
    for kw, rest, prologue in scan(text):
        if kw == "SERVICE":
            target = _skip(rest, "SILENT")
            iri = prologue.resolve(target[0]) if target else None
            if iri is None or iri not in allow_service:
                raise Forbidden(
                    f"SERVICE {iri or 'with a variable endpoint'} is refused: aikg does not call other "
                    "endpoints on a client's behalf (setting allow_service lists the allowed ones)",
                    errors=[{"clause": "SERVICE", "iri": iri}])
        elif kw == "LOAD" and update:
            iri = prologue.resolve(_skip(rest, "SILENT")[0]) if _skip(rest, "SILENT") else None
            raise Forbidden(f"LOAD {iri or ''} is refused: aikg never fetches a document on a client's "
                            "behalf; send the data in the request body (Graph Store Protocol)",
                            errors=[{"clause": "LOAD", "iri": iri}])
        elif kw in ("FROM", "USING"):
            target = _skip(rest, "NAMED")
            iri = prologue.resolve(target[0]) if target else None
            if iri is not None:
                check_graphs([iri], known_graphs(), clause=kw)


def check_graphs(graphs: Collection[str], known_graphs: Collection[str], *, clause: str) -> None:
    """Refuse a dataset naming a graph the store does not hold (it would be fetched, not read)."""
    missing = [g for g in graphs if g not in known_graphs]
    if missing:
        raise Forbidden(f"{clause} names a graph that is not in the store: {missing[0]}; aikg never "
                        "fetches a graph on a client's behalf",
                        errors=[{"clause": clause, "iri": g} for g in missing])


_ENTITY = re.compile(rb"<!ENTITY\s+(%\s+)?([^\s>]+)\s+(SYSTEM|PUBLIC|\"[^\"]*\"|'[^']*')", re.IGNORECASE)


def check_rdfxml(data: bytes, *, max_expansion: int) -> None:
    """Refuse external entities, parameter entities and entity expansion that could explode."""
    if data.startswith((b"\xff\xfe", b"\xfe\xff")) or b"\x00" in data:
        raise BadRequest("RDF/XML must be encoded in UTF-8")
    head = data[:data.find(b"]>") + 2] if b"<!DOCTYPE" in data and b"]>" in data else b""
    if b"<!ENTITY" in data and not head:
        raise BadRequest("entity declarations outside an internal DTD subset are refused")
    values: dict[bytes, bytes] = {}
    for m in _ENTITY.finditer(head):
        parameter, name, value = m.group(1), m.group(2), m.group(3)
        if value.upper() in (b"SYSTEM", b"PUBLIC"):
            raise Forbidden("an external XML entity is refused: aikg never fetches a document named in "
                            "an RDF/XML body", errors=[{"entity": name.decode("utf-8", "replace")}])
        if parameter:
            raise BadRequest("XML parameter entities are refused")
        if b"&" in value[1:-1].replace(b"&#", b""):
            raise BadRequest("nested XML entity expansion is refused (it can grow exponentially)",
                             errors=[{"entity": name.decode("utf-8", "replace")}])
        values[name] = value[1:-1]
    if head.count(b"<!ENTITY") != len(values):
        raise BadRequest("an XML entity declaration could not be checked and is refused")
    body = data[len(head):]
    expanded = sum(len(v) * body.count(b"&" + k + b";") for k, v in values.items())
    if expanded > max_expansion:
        raise BadRequest("XML entity expansion would exceed the body size limit and is refused")


def check_jsonld(data: bytes) -> None:
    """Refuse a JSON-LD document whose @context (or @import) names a remote document."""
    try:
        doc = json.loads(data)
    except (ValueError, RecursionError):
        raise BadRequest("the JSON-LD document is not valid JSON") from None
    stack = [doc]
    while stack:
        node = stack.pop()
        if isinstance(node, list):
            stack.extend(node)
        elif isinstance(node, dict):
            for key, value in node.items():
                if key in ("@context", "@import") and _names_document(value):
                    raise Forbidden("a remote JSON-LD @context is refused: aikg never fetches a "
                                    "document on a client's behalf; inline the context",
                                    errors=[{"key": key}])
                stack.append(value)


def _names_document(value: object) -> bool:
    if isinstance(value, str):
        return True
    if isinstance(value, list):
        return any(isinstance(v, str) for v in value)
    return isinstance(value, dict) and isinstance(value.get("@import"), str)


QUAD_FORMATS = {"application/n-quads": ox.RdfFormat.N_QUADS, "application/trig": ox.RdfFormat.TRIG}
TRIPLE_FORMATS = {
    "text/turtle": ox.RdfFormat.TURTLE,
    "application/n-triples": ox.RdfFormat.N_TRIPLES,
    "application/ld+json": ox.RdfFormat.JSON_LD,
    "application/rdf+xml": ox.RdfFormat.RDF_XML,
}
INPUT_FORMATS = {**TRIPLE_FORMATS, **QUAD_FORMATS}
"""Media types a client may send RDF in."""


def parse_rdf(data: bytes, mime: str, *, graph: str, max_expansion: int) -> list[ox.Quad]:
    """Parse a client's RDF body safely into quads of ``graph`` (quad formats must name only it)."""
    fmt = INPUT_FORMATS.get(mime)
    if fmt is None:
        raise UnsupportedMediaType(f"cannot read {mime or 'a body without Content-Type'}; send one of "
                                   + ", ".join(INPUT_FORMATS))
    if mime == "application/rdf+xml":
        check_rdfxml(data, max_expansion=max_expansion)
    elif mime == "application/ld+json":
        check_jsonld(data)
    target = ox.NamedNode(graph)
    try:
        parsed = list(ox.parse(data, format=fmt, base_iri=graph))
    except (SyntaxError, ValueError, UnicodeError) as exc:
        raise RdfSyntaxError(f"the {mime} body does not parse: {_first_line(exc)}") from None
    out = []
    for q in parsed:
        if not isinstance(q.graph_name, ox.DefaultGraph) and q.graph_name != target:
            raise BadRequest(f"the body holds triples of another graph ({q.graph_name}); a write names "
                             f"one graph: {graph}")
        out.append(ox.Quad(q.subject, q.predicate, q.object, target))
    return out


def _first_line(exc: Exception) -> str:
    return (str(exc).splitlines() or ["syntax error"])[0][:300]
