"""The response cache's reading of a request's headers (aikg.web.response_cache), remembered per header
value since a cached answer is a dictionary lookup and reading them anew was a share of its cost: the
key and the encoding chosen must be what reading the header itself gives, for every value, however many
values come (the memory is bounded) and however long a value is (long ones are not remembered)."""

from __future__ import annotations

import pytest
from werkzeug.http import parse_accept_header

from aikg.web import response_cache as rc
from aikg.web.negotiation import parse_accept

ACCEPTS = [
    None,
    "",
    "*/*",
    "application/json",
    "application/json, */*;q=0.1",
    "*/*;q=0.1, application/json",
    "text/turtle;charset=utf-8;q=0.9, application/ld+json",
    "application/sparql-results+json;q=0",
    "*/*;q=0",
    "bad",
    "application/json;" + "x=1;" * 100,  # past MEMO_HEADER
]


def _fresh_variant(accept: str | None) -> object:
    ranges = parse_accept(accept)
    if ranges is None or all((r.type, r.subtype, r.params) == ("*", "*", ()) and r.q > 0 for r in ranges):
        return ()
    return tuple(sorted((r.type, r.subtype, r.params, r.q) for r in ranges))


@pytest.mark.parametrize("accept", ACCEPTS)
def test_the_variant_is_the_headers_reading(accept: str | None):
    for _ in range(2):  # the first reading and the remembered one
        assert rc.variant_of(accept) == _fresh_variant(accept)


def test_requests_negotiation_cannot_tell_apart_share_a_variant():
    assert rc.variant_of(None) == rc.variant_of("*/*") == rc.variant_of("") == ()
    assert rc.variant_of("application/json, */*;q=0.1") == rc.variant_of("*/*;q=0.1, application/json")
    assert rc.variant_of("application/json") != rc.variant_of("text/turtle")
    assert rc.variant_of("*/*;q=0") != ()


@pytest.mark.parametrize(
    "accept_encoding, gzip",
    [
        (None, False),
        ("", False),
        ("gzip", True),
        ("gzip, deflate, br", True),
        ("br;q=1.0, gzip;q=0", False),
        ("*", True),
        ("*;q=0", False),
        ("identity", False),
        ("deflate, " * 60 + "gzip", True),  # past MEMO_HEADER
    ],
)
def test_gzip_is_taken_as_the_header_says(accept_encoding: str | None, gzip: bool):
    for _ in range(2):
        assert rc.gzip_ok(accept_encoding) is gzip
        assert gzip == (parse_accept_header(accept_encoding).quality("gzip") > 0)


def test_many_values_are_each_read_right():
    """More distinct values than are remembered: each still gets its own reading."""
    for round_ in range(2):
        for i in range(1200):
            accept = f"application/x-{i}"
            assert rc.variant_of(accept) == (("application", f"x-{i}", (), 1.0),), round_
            assert rc.gzip_ok(f"gzip;q={0 if i % 2 else 1}, x-{i}") is (i % 2 == 0)
