"""gunicorn's access log, the same lines for less work per request.

gunicorn's logger builds, for every request, a dictionary of every atom its format could name: some
twenty fixed ones (a ``strftime`` of the time among them), then one per request header, response
header and WSGI environ variable, and copies it once more to escape quotes. A format names a handful.
Profiled under wrk (py-spy, a cached entity lookup), that was 12 % of an HTTP worker's Python time: a
bare Flask app under gunicorn, the ceiling aikg is measured against, logs nothing. Here the line of the
format ``aikg serve`` uses (gunicorn's default) is written in one step, and the time is formatted once a
second; the line is gunicorn's, byte for byte (tests/test_accesslog.py compares them). In process, 61
-> 21 us a line (the rest is the logging module and the write).
"""

from __future__ import annotations

import logging
import time
import traceback
from datetime import timedelta
from typing import Any

from gunicorn import glogging


class _Clock:
    """The Apache Common Log Format time gunicorn writes, formatted once per second."""

    def __init__(self) -> None:
        self._second = -1
        self._text = ""

    def now(self) -> str:
        second = int(time.time())
        if second != self._second:
            # two threads may both format it in the same second: the same text either way
            self._text, self._second = time.strftime("[%d/%b/%Y:%H:%M:%S %z]"), second
        return self._text


_CLOCK = _Clock()
COMBINED = '%(h)s %(l)s %(u)s %(t)s "%(r)s" %(s)s %(b)s "%(f)s" "%(a)s"'
"""gunicorn's default ``access_log_format`` (Apache's combined log format), which ``aikg serve`` keeps:
written in one step rather than atom by atom."""


def _quoted(value: Any) -> Any:
    return value.replace('"', '\\"') if isinstance(value, str) else value


def combined(logger: Any, resp: Any, environ: dict[str, Any]) -> str:
    """The line :data:`COMBINED` gives, as gunicorn writes it."""
    status = resp.status
    status = status.split(None, 1)[0] if isinstance(status, str) else status
    sent = getattr(resp, "sent", None)
    request_line = f"{environ['REQUEST_METHOD']} {environ['RAW_URI']} {environ['SERVER_PROTOCOL']}"
    user = logger._get_user(environ) if "HTTP_AUTHORIZATION" in environ else None
    return (
        f"{_quoted(environ.get('REMOTE_ADDR', '-'))} - {_quoted(user or '-')} {_CLOCK.now()} "
        f'"{_quoted(request_line)}" {_quoted(status)} {str(sent) if sent is not None else "-"} '
        f'"{_quoted(environ.get("HTTP_REFERER", "-"))}" "{_quoted(environ.get("HTTP_USER_AGENT", "-"))}"'
    )


class AccessLogger(glogging.Logger):  # type: ignore[misc]  # gunicorn ships no types
    """gunicorn's logger, writing its default access line in one step (``logger_class`` of ``aikg
    serve``)."""

    def _plain_handler(self) -> logging.StreamHandler[Any] | None:
        """gunicorn's own handler of the access log, when the line is written as it is
        (gunicorn's one file or standard output, its ``%(message)s`` format, at INFO, no filters): then
        the line goes to the stream itself, without a log record made and formatted per request (a
        third of the access log's cost under wrk, profiled with py-spy). None otherwise (a syslog
        handler, a handler a test or an operator added): the logging module writes it."""
        log = self.access_log
        handlers = log.handlers
        if len(handlers) != 1 or log.filters or log.disabled or not log.isEnabledFor(logging.INFO):
            return None
        handler = handlers[0]
        if (
            not getattr(handler, "_gunicorn", False)
            or type(handler) not in (logging.StreamHandler, logging.FileHandler)
            or handler.filters
            or handler.level > logging.INFO
            or handler.formatter is None
            or handler.formatter._fmt != "%(message)s"
        ):
            return None
        return handler if handler.stream is not None else None

    def access(self, resp: Any, req: Any, environ: dict[str, Any], request_time: timedelta) -> None:
        if not self.access_log_enabled:
            return
        try:
            if self.cfg.access_log_format != COMBINED:  # another format: gunicorn's own way
                super().access(resp, req, environ, request_time)
                return
            line = combined(self, resp, environ)
            handler = self._plain_handler()
            if handler is None:
                self.access_log.info(line)  # no arguments: not %-formatted again
                return
            handler.acquire()  # gunicorn's reopen_files swaps the stream under this lock
            try:
                handler.stream.write(line + "\n")
                handler.stream.flush()
            finally:
                handler.release()
        except Exception:  # noqa: BLE001 - as gunicorn's own: a log line never fails a request
            self.error(traceback.format_exc())
