"""The HTTP ceiling: a bare Flask app served by gunicorn like aikg, doing no work per request.

``/bytes/<n>`` answers a body of ``n`` bytes kept in memory: the ceiling for an answer of that size (a
cached named query at 1M is megabytes, and moving them is part of what any server pays); every other
path answers "hello".
"""

from flask import Flask, Response, abort

app = Flask(__name__)
_bodies: dict[int, bytes] = {}
_MAX_BYTES = 256 * 1024 * 1024


@app.route("/", defaults={"path": ""}, methods=["GET", "POST"])
@app.route("/<path:path>", methods=["GET", "POST"])
def hello(path: str) -> str:
    """Answer every request at once: what serving costs before any work is done."""
    return "hello"


@app.route("/bytes/<int:n>")
def sized(n: int) -> Response:
    """A body of ``n`` bytes, built once per size: what serving an answer this large costs, no more."""
    if n > _MAX_BYTES:
        abort(413)
    body = _bodies.get(n)
    if body is None:
        body = _bodies.setdefault(n, b"x" * n)
    return Response(body, mimetype="application/json")
