"""No fetching on a client's behalf: checks run on a query, an update or an RDF body BEFORE it executes.

Oxigraph (0.5) really does fetch: ``SERVICE <http://…>`` sends the sub-query over HTTP and ``LOAD`` GETs
the IRI (``FROM <http://…>`` does not: it names a graph of the store, empty when the store has none). Its
RDF/XML parser expands nested internal entities (a "billion laughs" document grows exponentially). So
every client text is read here first, through the one tokenizer (:mod:`aikg.rdf.tokens`), cheaply, and
refused when it would make the engine fetch; ``LOAD SILENT`` passes, and is never run (the update reports
it skipped, as SPARQL 1.1 Update §3.1.4 has a failed silent LOAD succeed).
"""

from __future__ import annotations

import json
import re
from collections.abc import Collection

import pyoxigraph as ox

from aikg.errors import BadRequest, Forbidden, RdfSyntaxError, UnsupportedMediaType
from aikg.rdf.formats import RDF_FORMATS, by_media_type
from aikg.rdf.tokens import Token, decode_escapes, significant


def _views(text: str) -> list[str]:
    """The text as the engine reads it, and — when it holds codepoint escapes — as SPARQL 1.1 §19.2
    reads it (escapes replaced before parsing). A check must hold for both: an escaped quote can make a
    keyword code in one reading and part of a string in the other."""
    decoded = decode_escapes(text)
    return [text] if decoded == text else [text, decoded]


MAX_NESTING = 500
"""Deepest nesting of ``{ ( [`` a query or update may have. Oxigraph parses recursively: thousands of
levels overflow a query worker's stack, and no real query comes near a hundred."""
MAX_OPERATORS = 50_000
"""Most operators and pattern separators (``UNION | / ! & + * ^ . ; ,``) outside ``DATA { }`` blocks:
long chains of them become as deep trees as nested brackets do. Data blocks hold flat lists of quads."""
_OPERATOR_PUNCT = frozenset("|/!&+*^;,.")


def check_size(toks: list[Token]) -> None:
    """Refuse a text nested deeper than :data:`MAX_NESTING` or longer in operators than
    :data:`MAX_OPERATORS`, before any engine parses it (its parser would overflow the stack)."""
    depth, operators, data_depth, previous = 0, 0, -1, ""
    for tok in toks:
        text = tok.text
        if tok.kind == "punct" and text in "{([":
            depth += 1
            if depth > MAX_NESTING:
                raise BadRequest(
                    f"the text nests brackets more than {MAX_NESTING} levels deep, aikg's limit "
                    "(deeper texts can exhaust the engine's parser)",
                    errors=[{"limit": "nesting", "value": MAX_NESTING}],
                )
            if text == "{" and previous == "DATA" and data_depth < 0:
                data_depth = depth
        elif tok.kind == "punct" and text in "})]":
            if depth == data_depth:
                data_depth = -1
            depth -= 1
        elif data_depth < 0 and (
            (tok.kind == "punct" and text[0] in _OPERATOR_PUNCT) or tok.is_keyword("UNION", "MINUS")
        ):
            operators += 1
            if operators > MAX_OPERATORS:
                raise BadRequest(
                    f"the text has more than {MAX_OPERATORS} operators and pattern separators "
                    "(UNION, |, /, ., ...), aikg's limit; send data as INSERT DATA or through "
                    "the Graph Store Protocol",
                    errors=[{"limit": "operators", "value": MAX_OPERATORS}],
                )
        previous = tok.value if tok.kind == "keyword" else text


def check_sparql(
    text: str,
    *,
    allow_service: Collection[str] = (),
    update: bool = False,
    base: str = "",
) -> None:
    """Refuse SERVICE (unless allow-listed) and LOAD: the operations that make the engine fetch.

    IRIs are resolved against ``base`` (the service's base IRI) and the text's own BASE. A dataset
    (``FROM``, ``USING``, ``GRAPH``) names graphs of the store only: the engine reads a graph the store
    does not hold as an empty graph and fetches nothing (tested with a listener, tests/test_ssrf.py). A
    text too deeply nested or too long in operators is refused first (:func:`check_size`).
    """
    for n, view in enumerate(_views(text)):
        toks = [t for t, _ in significant(view)]
        if n == 0:
            check_size(toks)
        for i, (tok, prologue) in enumerate(significant(view, base)):
            if tok.kind != "keyword":
                continue
            rest = _skip(toks[i + 1 : i + 4], "SILENT", "NAMED")
            iri = prologue.resolve(rest[0]) if rest else None
            if tok.value == "SERVICE" and (iri is None or iri not in allow_service):
                raise Forbidden(
                    f"SERVICE {iri or 'with a variable endpoint'} is refused: aikg does not call other "
                    "endpoints on a client's behalf (setting allow_service lists the allowed ones)",
                    errors=[{"clause": "SERVICE", "iri": iri}],
                )
            silent = i + 1 < len(toks) and toks[i + 1].is_keyword("SILENT")
            if tok.value == "LOAD" and update and not silent:
                raise Forbidden(
                    f"LOAD {iri or ''} is refused: aikg never fetches a document on a client's "
                    "behalf; send the data in the request body (Graph Store Protocol)",
                    errors=[{"clause": "LOAD", "iri": iri}],
                )


def _skip(rest: list[Token], *words: str) -> list[Token]:
    while rest and rest[0].is_keyword(*words):
        rest = rest[1:]
    return rest


_ENTITY = re.compile(rb"<!ENTITY\s+(%\s+)?([^\s>]+)\s+(SYSTEM|PUBLIC|\"[^\"]*\"|'[^']*')", re.IGNORECASE)


_XML_TAG = re.compile(rb"<(/?)[^<>!?]*?(/?)>|<!--.*?-->|<!\[CDATA\[.*?\]\]>", re.DOTALL)


def check_xml_nesting(data: bytes) -> None:
    """Refuse XML nested deeper than :data:`MAX_NESTING` elements: Oxigraph's RDF/XML parser takes time
    that grows with the cube of the depth (20,000 levels: 25 s)."""
    depth = 0
    for m in _XML_TAG.finditer(data):
        if m.group(0).startswith((b"<!--", b"<![CDATA[")):
            continue
        if m.group(1):
            depth -= 1
        elif not m.group(2):
            depth += 1
            if depth > MAX_NESTING:
                raise BadRequest(
                    f"the RDF/XML nests elements more than {MAX_NESTING} levels deep, aikg's limit",
                    errors=[{"limit": "nesting", "value": MAX_NESTING}],
                )


def check_rdfxml(data: bytes, *, max_expansion: int) -> None:
    """Refuse external entities, parameter entities, entity expansion that could explode, deep nesting."""
    if data.startswith((b"\xff\xfe", b"\xfe\xff")) or b"\x00" in data:
        raise BadRequest("RDF/XML must be encoded in UTF-8")
    check_xml_nesting(data)
    head = data[: data.find(b"]>") + 2] if b"<!DOCTYPE" in data and b"]>" in data else b""
    if b"<!ENTITY" in data and not head:
        raise BadRequest("entity declarations outside an internal DTD subset are refused")
    values: dict[bytes, bytes] = {}
    for m in _ENTITY.finditer(head):
        parameter, name, value = m.group(1), m.group(2), m.group(3)
        if value.upper() in (b"SYSTEM", b"PUBLIC"):
            raise Forbidden(
                "an external XML entity is refused: aikg never fetches a document named in an RDF/XML body",
                errors=[{"entity": name.decode("utf-8", "replace")}],
            )
        if parameter:
            raise BadRequest("XML parameter entities are refused")
        if b"&" in value[1:-1].replace(b"&#", b""):
            raise BadRequest(
                "nested XML entity expansion is refused (it can grow exponentially)",
                errors=[{"entity": name.decode("utf-8", "replace")}],
            )
        values[name] = value[1:-1]
    if head.count(b"<!ENTITY") != len(values):
        raise BadRequest("an XML entity declaration could not be checked and is refused")
    body = data[len(head) :]
    expanded = sum(len(v) * body.count(b"&" + k + b";") for k, v in values.items())
    if expanded > max_expansion:
        raise BadRequest("XML entity expansion would exceed the body size limit and is refused")


def check_jsonld(data: bytes) -> None:
    """Refuse a JSON-LD document whose @context (or @import) names a remote document."""
    try:
        doc = json.loads(data)
    except (ValueError, RecursionError):
        raise BadRequest("the JSON-LD document is not valid JSON") from None
    if not isinstance(doc, dict | list):
        # JSON-LD 1.1 §9 (grammar): a document is a node object, a map of @context/@graph, or an array.
        raise RdfSyntaxError(
            "a JSON-LD document is a JSON object or array, not a bare "
            f"{type(doc).__name__ if doc is not None else 'null'}"
        )
    stack = [doc]
    while stack:
        node = stack.pop()
        if isinstance(node, list):
            stack.extend(node)
        elif isinstance(node, dict):
            for key, value in node.items():
                if key in ("@context", "@import") and _names_document(value):
                    raise Forbidden(
                        "a remote JSON-LD @context is refused: aikg never fetches a "
                        "document on a client's behalf; inline the context",
                        errors=[{"key": key}],
                    )
                stack.append(value)


def _names_document(value: object) -> bool:
    if isinstance(value, str):
        return True
    if isinstance(value, list):
        return any(isinstance(v, str) for v in value)
    return isinstance(value, dict) and isinstance(value.get("@import"), str)


def parse_rdf(data: bytes, mime: str, *, graph: str, max_expansion: int) -> list[ox.Quad]:
    """Parse a client's RDF body safely into quads of ``graph`` (quad formats must name only it).

    ``mime`` is the body's media type (an alias such as ``application/x-turtle`` or plain JSON works).
    """
    found = by_media_type(mime, RDF_FORMATS)
    if found is None or not isinstance(found.ox, ox.RdfFormat):
        raise UnsupportedMediaType(
            f"cannot read {mime or 'a body without Content-Type'}; send one of "
            + ", ".join(f.mime for f in RDF_FORMATS),
            errors=[{"accepted": [f.mime for f in RDF_FORMATS]}],
        )
    fmt, mime = found.ox, found.mime
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
        if isinstance(q.subject, ox.Triple) or isinstance(q.object, ox.Triple):
            raise BadRequest(
                "the body holds a triple term (RDF 1.2 <<( ... )>>); aikg stores RDF 1.1 "
                "triples only: state the triple itself, and its source as a fact"
            )
        if not isinstance(q.graph_name, ox.DefaultGraph) and q.graph_name != target:
            raise BadRequest(
                f"the body holds triples of another graph ({q.graph_name}); a write names one graph: {graph}"
            )
        out.append(ox.Quad(q.subject, q.predicate, q.object, target))
    return out


def _first_line(exc: Exception) -> str:
    return (str(exc).splitlines() or ["syntax error"])[0][:300]
