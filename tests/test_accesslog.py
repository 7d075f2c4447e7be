"""aikg's access log (aikg.serving.accesslog) writes gunicorn's lines, byte for byte: its default line in
one step, where gunicorn computes every atom any format could name for every request; another format
the way gunicorn does."""

from __future__ import annotations

import logging
import socket
from collections.abc import Iterator
from datetime import timedelta
from typing import Any

import pytest
from gunicorn import glogging
from gunicorn.config import Config
from gunicorn.http import wsgi
from gunicorn.workers import gthread

from aikg.serving.accesslog import AccessLogger

FORMATS = [
    None,  # gunicorn's default (the combined log format), as aikg serve runs it
    '%(h)s %(u)s "%(r)s" %(s)s %(B)s %(D)s %({x-quote}i)s %({x-repeated}i)s %({content-type}o)s',
]

RAW = (
    b'GET /api/entities/lambda?x=1 HTTP/1.1\r\nHost: h\r\nUser-Agent: wrk "quoted"\r\n'
    b'Referer: http://r/\r\nX-Quote: a"b\r\nX-Repeated: one\r\nX-Repeated: two\r\n'
    b"Authorization: Basic dXNlcjpwYXNz\r\n\r\n"
)


@pytest.fixture()
def exchange() -> Iterator[tuple[Any, Any, dict[str, Any]]]:
    """A request parsed by gunicorn and its response, after the body was written (as logged)."""
    server, client = socket.socketpair()
    cfg = Config()
    conn = gthread.TConn(cfg, server, ("127.0.0.1", 5555), ("127.0.0.1", 8000))
    conn.init()
    client.sendall(RAW)
    req = next(conn.parser)
    resp, environ = wsgi.create(req, server, ("127.0.0.1", 5555), ("127.0.0.1", 8000), cfg)
    resp.start_response("200 OK", [("Content-Type", "application/json"), ("ETag", '"t"')])
    resp.write(b'{"ok": true}')
    yield req, resp, environ
    server.close()
    client.close()


def _line(cls: type, access_log_format: str | None, req: Any, resp: Any, environ: dict[str, Any]) -> str:
    cfg = Config()
    cfg.set("accesslog", "-")
    if access_log_format is not None:
        cfg.set("access_log_format", access_log_format)
    logger = cls(cfg)
    lines: list[str] = []

    class Keep(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            lines.append(self.format(record))

    logger.access_log.handlers = [Keep()]
    logger.access(resp, req, environ, timedelta(seconds=1, microseconds=234567))
    assert len(lines) == 1
    return lines[0]


@pytest.mark.parametrize("access_log_format", FORMATS)
def test_each_line_is_gunicorns(exchange: tuple[Any, Any, dict[str, Any]], access_log_format: str | None):
    req, resp, environ = exchange
    for _ in range(3):  # the time is formatted per second: the two may straddle a second's edge
        ours = _line(AccessLogger, access_log_format, req, resp, environ)
        theirs = _line(glogging.Logger, access_log_format, req, resp, environ)
        if ours == theirs:
            break
    assert ours == theirs


def test_the_default_line_names_the_request(exchange: tuple[Any, Any, dict[str, Any]]):
    req, resp, environ = exchange
    line = _line(AccessLogger, None, req, resp, environ)
    assert line.startswith("127.0.0.1 - user [")
    assert '"GET /api/entities/lambda?x=1 HTTP/1.1" 200 12 "http://r/" "wrk \\"quoted\\""' in line


def test_aikg_serve_uses_it():
    from aikg.serving.app import Server
    from aikg.settings import load_settings

    server = Server(load_settings({"store": "memory", "port": 8765}))
    assert server.cfg.logger_class is AccessLogger


def test_gunicorns_own_log_file_gets_the_same_line_written_to_it_directly(
    exchange: tuple[Any, Any, dict[str, Any]], tmp_path
):
    """With gunicorn's own handler (a file or standard output, ``%(message)s``), the line is written to
    its stream without a log record (a third of the access log's cost per request): the file holds
    gunicorn's line, one per request, and a handler added beside it still gets it through logging."""
    req, resp, environ = exchange
    for _ in range(3):  # the time is formatted per second: the two may straddle a second's edge
        written = {}
        for cls in (AccessLogger, glogging.Logger):
            path = tmp_path / f"{cls.__module__}.log"
            cfg = Config()
            cfg.set("accesslog", str(path))
            logger = cls(cfg)
            for _ in range(2):
                logger.access(resp, req, environ, timedelta(seconds=1))
            logger.access_log.handlers[0].close()
            written[cls] = path.read_text()
        if written[AccessLogger] == written[glogging.Logger]:
            break
    assert written[AccessLogger] == written[glogging.Logger]
    assert written[AccessLogger].count("\n") == 2 and '"GET /api/entities/lambda?x=1' in written[AccessLogger]

    cfg = Config()
    cfg.set("accesslog", str(tmp_path / "both.log"))
    logger = AccessLogger(cfg)
    lines: list[str] = []

    class Keep(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            lines.append(self.format(record))

    logger.access_log.addHandler(Keep())
    logger.access(resp, req, environ, timedelta(seconds=1))
    for h in logger.access_log.handlers:
        h.close()
    assert lines and (tmp_path / "both.log").read_text() == lines[0] + "\n"
