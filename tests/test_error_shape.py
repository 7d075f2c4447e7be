"""Every route registered on the app answers errors in the one JSON envelope.

The test walks ``app.url_map``, so a route added later is covered without touching this file: for each
rule it sends a disallowed method (405), junk path values and junk parameters (400/404/406), and junk
bodies without a token (401/415/...), and checks every 4xx/5xx answer's shape. No request carries the
write token, so nothing is changed.
"""

from __future__ import annotations

from werkzeug.routing import Rule

JUNK = "no-such-thing-zz9"
JUNK_ARGS = {
    "q": " ",
    "limit": "-1",
    "depth": "-9",
    "format": "nope",
    "query": "SELEC nothing",
    "graph": "not an iri",
    "focus": JUNK,
    "type": "Nope",
    "from": "x",
    "to": "y",
    "fold": "maybe",
    "org": "Not A Slug",
    "entity": "Not A Slug",
}
METHODS = ("GET", "POST", "PUT", "DELETE", "PATCH")
ENVELOPE_KEYS = {"ok", "status", "error", "message", "errors"}


def _path(rule: Rule) -> str:
    """The rule's path with every variable filled by a value that names nothing."""
    values = {}
    for arg in rule.arguments:
        converter = rule._converters[arg]  # noqa: SLF001 - the converter says what a value looks like
        values[arg] = 999999 if type(converter).__name__ in {"IntegerConverter", "FloatConverter"} else JUNK
    return rule.build(values, append_unknown=False)[1]


def _requests(rule: Rule):
    """(method, path, options) tuples that should each make the route answer with an error."""
    path = _path(rule)
    allowed = rule.methods or set()
    for method in METHODS:
        if method not in allowed:
            yield method, path, {}
            break
    for method in sorted(allowed - {"HEAD", "OPTIONS"}):
        yield method, path, {}
        yield method, path, {"query_string": JUNK_ARGS}
        yield method, path, {"headers": {"Accept": "application/x-nothing"}}
        if method in {"POST", "PUT", "PATCH"}:
            yield method, path, {"data": b"\x00 not rdf, not sparql", "content_type": "application/x-junk"}


def _shape_problem(resp) -> str | None:
    if not resp.is_json:
        return f"content type {resp.content_type!r}"
    body = resp.get_json(silent=True)
    if not isinstance(body, dict) or set(body) != ENVELOPE_KEYS:
        return f"keys {sorted(body) if isinstance(body, dict) else type(body).__name__}"
    if body["ok"] is not False or body["status"] != resp.status_code:
        return f"ok={body['ok']!r} status={body['status']!r}"
    if not (isinstance(body["error"], str) and body["error"]):
        return "error is not a non-empty string"
    if not (isinstance(body["message"], str) and body["message"]):
        return "message is not a non-empty string"
    if not isinstance(body["errors"], list):
        return "errors is not a list"
    return None


def test_every_route_uses_the_error_envelope(app):
    client = app.test_client()
    problems: list[str] = []
    silent: list[str] = []
    rules = list(app.url_map.iter_rules())
    assert any(r.rule.startswith("/api/") for r in rules)
    for rule in rules:
        errors_seen = 0
        for method, path, options in _requests(rule):
            resp = client.open(path, method=method, **options)
            where = f"{method} {path} {options or ''} -> {resp.status_code}"
            if resp.status_code >= 500:
                problems.append(f"{where}: server error")
            if resp.status_code >= 400:
                errors_seen += 1
                problem = _shape_problem(resp)
                if problem:
                    problems.append(f"{where}: {problem}")
        if not errors_seen:
            silent.append(rule.rule)
    assert not problems, "\n".join(problems)
    assert not silent, f"routes that never answered with an error: {silent}"


def test_unknown_route_uses_the_error_envelope(app):
    resp = app.test_client().get("/no/such/route/" + JUNK)
    assert resp.status_code == 404
    assert _shape_problem(resp) is None


def test_method_not_allowed_names_the_allowed_ones(app):
    resp = app.test_client().delete("/api/search")
    assert resp.status_code == 405
    assert _shape_problem(resp) is None
    assert "GET" in resp.headers["Allow"]
