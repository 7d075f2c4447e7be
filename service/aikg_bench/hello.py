"""The HTTP ceiling: a bare Flask "hello" served by gunicorn like aikg, doing no work per request."""

from flask import Flask

app = Flask(__name__)


@app.route("/", defaults={"path": ""}, methods=["GET", "POST"])
@app.route("/<path:path>", methods=["GET", "POST"])
def hello(path: str) -> str:
    """Answer every request at once: what serving costs before any work is done."""
    return "hello"
