"""The one SPARQL tokenizer reads a text the way Oxigraph parses it: what is a string, an IRI, a comment,
and which words are keywords. Property-tested against Oxigraph with generated queries whose strings,
IRIs and comments are full of keywords, quotes, escapes and delimiters."""

from __future__ import annotations

import pyoxigraph as ox
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from aikg.rdf import tokens

ENGINE = ox.Store()
KEYWORDS = [
    "SERVICE",
    "FROM",
    "NAMED",
    "LOAD",
    "INSERT",
    "DELETE",
    "DROP",
    "GRAPH",
    "WHERE",
    "SELECT",
    "USING",
    "WITH",
    "CLEAR",
    "ALL",
]
"""Words that matter to the guard (and to the operation reader)."""

_PIECES = st.sampled_from(
    [
        *KEYWORDS,
        " ",
        "#",
        "<",
        ">",
        "{",
        "}",
        ";",
        ".",
        "?x",
        "$y",
        ":",
        "_:b",
        "http://evil.example/",
        "'",
        '"',
        "\\",
        "\n",
        "\t",
        "é",
        "食",
        "%20",
        "@en",
    ]
)
TEXT = st.lists(_PIECES, max_size=12).map("".join)
"""Raw content full of what a lexer could mistake for code."""


def _ucharify(c: str) -> str:
    return f"\\u{ord(c):04X}" if ord(c) <= 0xFFFF else f"\\U{ord(c):08X}"


@st.composite
def string_literals(draw) -> tuple[str, str]:
    """(SPARQL string literal text, the value it denotes), in one of the four quote styles; characters
    that would end it are written as ECHAR or UCHAR escapes, chosen at random."""
    value = draw(TEXT)
    quote = draw(st.sampled_from(['"', "'", '"""', "'''"]))
    out = []
    for i, c in enumerate(value):
        ends_long = (
            len(quote) == 3
            and c == quote[0]
            and (value[i + 1 : i + 3] == quote[0] * 2 or i == len(value) - 1)
        )
        must = c == "\\" or (len(quote) == 1 and c in (quote, "\n", "\r")) or ends_long
        if must or draw(st.integers(0, 9)) == 0:
            echar = {"\\": "\\\\", '"': '\\"', "'": "\\'", "\n": "\\n", "\t": "\\t", "\r": "\\r"}.get(c)
            out.append(echar if echar and draw(st.booleans()) else _ucharify(c))
        else:
            out.append(c)
    return quote + "".join(out) + quote, value


@st.composite
def iris(draw) -> tuple[str, str]:
    """(IRIREF text, the IRI it denotes): keywords in the path, some characters as UCHAR escapes."""
    words = draw(
        st.lists(
            st.sampled_from([*KEYWORDS, "a", "x1", "%41", "é", "-", "_", "~", "=", "&", "?"]), max_size=6
        )
    )
    value = "http://example.org/" + "/".join(words)
    text = "".join(_ucharify(c) if c.isalpha() and draw(st.integers(0, 4)) == 0 else c for c in value)
    return f"<{text}>", value


@st.composite
def comments(draw) -> str:
    """A comment line (with keywords, quotes, IRIs and escape-looking text in it)."""
    body = draw(TEXT).replace("\n", " ").replace("\r", " ")
    tail = draw(st.sampled_from(["", " \\u000A SERVICE <http://evil.example/> {}"]))
    return "#" + body + tail + draw(st.sampled_from(["\n", "\r", "\r\n"]))  # a line ends at CR or LF


def _engine_value(query: str, var: str = "v") -> ox.Term:
    (row,) = list(ENGINE.query(query))
    return row[var]


@settings(max_examples=300, deadline=None, suppress_health_check=list(HealthCheck))
@given(lit=string_literals(), note=comments())
def test_a_string_literal_is_one_token_with_the_engines_value(lit, note):
    text, value = lit
    query = f"SELECT ?v {note}WHERE {{ BIND({text} AS ?v) }}"
    got = _engine_value(query)
    assert got.value == value  # the engine read the whole literal as one string, with this value
    (string,) = [t for t in tokens.tokenize(query) if t.kind == "string"]
    assert string.text == text and string.value == value
    assert tokens.keywords(query) == ["SELECT", "WHERE", "BIND", "AS"]


@settings(max_examples=300, deadline=None, suppress_health_check=list(HealthCheck))
@given(iri=iris(), note=comments())
def test_an_iri_is_one_token_with_the_engines_value(iri, note):
    text, value = iri
    query = f"SELECT ?v WHERE {{ {note} BIND({text} AS ?v) }}"
    assert _engine_value(query) == ox.NamedNode(value)
    (ref,) = [t for t in tokens.tokenize(query) if t.kind == "iri"]
    assert ref.value == value
    assert tokens.keywords(query) == ["SELECT", "WHERE", "BIND", "AS"]


_CLAUSES = {
    "from": ("FROM <https://w3id.org/aikg/graph/a>", ["FROM"]),
    "named": ("FROM NAMED <https://w3id.org/aikg/graph/b>", ["FROM", "NAMED"]),
}


@settings(max_examples=300, deadline=None, suppress_health_check=list(HealthCheck))
@given(
    parts=st.lists(
        st.one_of(
            string_literals().map(lambda x: ("lit", x[0])),
            iris().map(lambda x: ("iri", x[0])),
            comments().map(lambda c: ("comment", c)),
        ),
        max_size=5,
    ),
    dataset=st.lists(st.sampled_from(sorted(_CLAUSES)), max_size=2),
    service=st.booleans(),
)
def test_keywords_outside_strings_iris_and_comments_are_exactly_the_code(parts, dataset, service):
    """The keyword view of a generated query is the keywords it was built from, and the engine parses it."""
    values = " ".join(text for kind, text in parts if kind != "comment")
    notes = "".join(text for kind, text in parts if kind == "comment")
    clauses = " ".join(_CLAUSES[d][0] for d in dataset)
    expected = ["SELECT", *[k for d in dataset for k in _CLAUSES[d][1]], "WHERE", "VALUES"]
    body = f"VALUES ?v {{ {values} }}" if values else "VALUES ?v { }"
    if service:
        body += " SERVICE <http://127.0.0.1:9/sparql> { ?v ?p ?o }"
        expected.append("SERVICE")
    query = f"SELECT ?v {notes}{clauses} WHERE {{ {notes}{body} }}"
    ENGINE.query(query)  # parses (a SELECT is lazy: nothing runs, nothing is fetched)
    assert tokens.keywords(query) == expected


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("SELECT * WHERE { ?s ?p 'FROM <x>' } # SERVICE <http://evil/> {}", ["SELECT", "WHERE"]),
        ('SELECT * WHERE { ?s ?p """a\n""FROM""" }', ["SELECT", "WHERE"]),
        ("SELECT * WHERE { ?s <http://x/FROM> ?o . ?s ex:SERVICE ?o }", ["SELECT", "WHERE"]),
        ('SELECT * WHERE { ?s ?p "\\u0022 SERVICE" }', ["SELECT", "WHERE"]),
        ("PREFIX from: <http://x/> SELECT * WHERE { ?s from:x ?o }", ["PREFIX", "SELECT", "WHERE"]),
    ],
)
def test_keyword_view_of_known_texts(text, words):
    assert tokens.keywords(text) == words


def test_codepoint_escapes_are_decoded_in_iris_and_strings():
    toks = tokens.tokenize(r'SELECT * FROM <\u0068ttp://evil.example/> WHERE { ?s ?p "\u0041\U0001F600" }')
    assert [t.value for t in toks if t.kind == "iri"] == ["http://evil.example/"]
    assert [t.value for t in toks if t.kind == "string"] == ["A\U0001f600"]


def test_the_sparql_1_1_reading_decodes_escapes_everywhere():
    text = r'SELECT * WHERE { ?s ?p "\u0022 } SERVICE <http://evil/> { ?a ?b ?c } # \u0022" }'
    assert "SERVICE" not in tokens.keywords(text)  # the engine: one string
    assert "SERVICE" in tokens.keywords(tokens.decode_escapes(text))  # SPARQL 1.1 §19.2: code


def test_relative_iris_are_resolved_against_the_base():
    text = "BASE <http://a/b/> SELECT * { <c> <../d> ?o } BASE <e/> SELECT <f>"
    assert tokens.resolve_relative(text, "http://z/") == (
        "BASE <http://a/b/> SELECT * { <http://a/b/c> <http://a/d> ?o } BASE <http://a/b/e/> SELECT <http://a/b/e/f>"
    )
    assert tokens.resolve_relative("SELECT * { <x> ?p ?o }", "https://w3id.org/aikg/") == (
        "SELECT * { <https://w3id.org/aikg/x> ?p ?o }"
    )


@pytest.mark.parametrize(
    ("text", "update", "form"),
    [
        ("PREFIX a: <http://a/> # INSERT\nSELECT * {}", False, "SELECT"),
        ("BASE <http://a/> ASK {}", False, "ASK"),
        ("# comment\nINSERT DATA { <a> <b> <c> }", True, "SELECT"),
        ("WITH <g> DELETE { ?s ?p ?o } WHERE { ?s ?p ?o }", True, "SELECT"),
        ("CONSTRUCT WHERE { ?s ?p 'DELETE' }", False, "CONSTRUCT"),
    ],
)
def test_update_and_query_form_detection(text, update, form):
    assert tokens.is_update(text) is update
    assert tokens.query_form(text) == form


RFC3986_EXAMPLES = {  # RFC 3986 §5.4.1 and §5.4.2, base http://a/b/c/d;p?q
    "g:h": "g:h",
    "g": "http://a/b/c/g",
    "./g": "http://a/b/c/g",
    "g/": "http://a/b/c/g/",
    "/g": "http://a/g",
    "//g": "http://g",
    "?y": "http://a/b/c/d;p?y",
    "g?y": "http://a/b/c/g?y",
    "#s": "http://a/b/c/d;p?q#s",
    "g#s": "http://a/b/c/g#s",
    "g?y#s": "http://a/b/c/g?y#s",
    ";x": "http://a/b/c/;x",
    "": "http://a/b/c/d;p?q",
    ".": "http://a/b/c/",
    "./": "http://a/b/c/",
    "..": "http://a/b/",
    "../g": "http://a/b/g",
    "../..": "http://a/",
    "../../g": "http://a/g",
    "../../../g": "http://a/g",
    "/./g": "http://a/g",
    "/../g": "http://a/g",
    "g.": "http://a/b/c/g.",
    "..g": "http://a/b/c/..g",
    "./../g": "http://a/b/g",
    "./g/.": "http://a/b/c/g/",
    "g/./h": "http://a/b/c/g/h",
    "g/../h": "http://a/b/c/h",
    "g;x=1/../y": "http://a/b/c/y",
    "g?y/./x": "http://a/b/c/g?y/./x",
    "g#s/../x": "http://a/b/c/g#s/../x",
}


@pytest.mark.parametrize(("ref", "expected"), sorted(RFC3986_EXAMPLES.items()))
def test_iri_resolution_follows_rfc_3986(ref, expected):
    assert tokens.resolve_iri("http://a/b/c/d;p?q", ref) == expected


def test_an_empty_fragment_survives_resolution():
    """Regression: ``urljoin`` turned the namespace ``<https://w3id.org/aikg/ontology#>`` into
    ``…/ontology`` when resolving against the base, and every prefixed name of a query sent to the
    remote engine missed."""
    assert tokens.resolve_iri("https://w3id.org/aikg/", "https://w3id.org/aikg/ontology#") == (
        "https://w3id.org/aikg/ontology#"
    )
    assert tokens.resolve_iri("https://w3id.org/aikg/", "ontology#") == "https://w3id.org/aikg/ontology#"
