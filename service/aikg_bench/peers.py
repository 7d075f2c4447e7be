"""The servers measured: aikg itself and the peers a user could pick instead, each on 127.0.0.1.

Every server is a subprocess started here and stopped by ``stop()``, and ended by the kernel when the
bench ends however it ends (:func:`spawn`); a peer whose program is not installed raises ``Skipped`` with
the reason, and the run reports it as skipped.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import requests

from aikg_bench.busy import die_with_parent
from aikg_bench.virtuoso import virtuoso_ini

TOKEN = "bench-token"
START_S = 600.0
"""Seconds a server is given to start: beside the busy phase's loops (:mod:`aikg_bench.busy`) a start
that takes 5 s on the quiet machine had a few percent of a core, and took minutes."""


class Skipped(Exception):
    """The peer cannot run here (not installed, or left out at this size); the message says why."""


class Exited(RuntimeError):
    """A server exited while starting: its exit code and the last lines of its standard error."""

    def __init__(self, what: str, code: int, said: str) -> None:
        super().__init__(f"{what} exited while starting (code {code})" + (f": {said}" if said else ""))
        self.code, self.said = code, said


def free_port() -> int:
    """A free TCP port on the loopback interface."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]  # (host, port) for an IPv4 socket
        return port


def spawn(cmd: list[str], log: Path | None = None, **kwargs: Any) -> subprocess.Popen[bytes]:
    """A server's process, sent SIGTERM by the kernel when the thread that started it ends: a bench
    stopped by SIGTERM (``timeout``, a CI job's end) or SIGKILL skips every ``stop()`` in a ``finally``,
    and left its ``aikg serve``, gunicorn or Virtuoso running on the machine. SIGTERM is each server's
    own graceful stop (gunicorn's master stops its workers, aikg's writer flushes the store).

    Its standard error is appended to ``log`` when given: a server that exited while starting said why
    there (the busy phase's ``aikg serve`` at 1M exited with code 2, and nothing kept its reason)."""
    if log is None:
        return subprocess.Popen(
            cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, preexec_fn=die_with_parent, **kwargs
        )
    log.parent.mkdir(parents=True, exist_ok=True)
    with log.open("ab") as err:
        err.write(f"--- {time.strftime('%Y-%m-%d %H:%M:%S')} {' '.join(cmd)}\n".encode())
        err.flush()
        return subprocess.Popen(
            cmd, stdout=subprocess.DEVNULL, stderr=err, preexec_fn=die_with_parent, **kwargs
        )


def tail(log: Path | None, lines: int = 5) -> str:
    """The last ``lines`` lines of a server's standard error kept in ``log`` ('' when none)."""
    if log is None or not log.is_file():
        return ""
    with log.open("rb") as fh:
        fh.seek(max(0, log.stat().st_size - 8192))
        return " | ".join(fh.read().decode("utf-8", "replace").strip().splitlines()[-lines:])


def _wait(
    url: str, proc: subprocess.Popen[bytes], timeout: float, what: str, log: Path | None = None
) -> None:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if proc.poll() is not None:
            raise Exited(what, proc.returncode, tail(log))
        try:
            if requests.get(url, timeout=2).status_code < 500:
                return
        except requests.RequestException:
            pass
        time.sleep(0.2)
    raise RuntimeError(f"{what} did not start within {timeout:.0f} s")


def peak_rss_mb(pid: int) -> float | None:
    """Peak resident memory of a process and its children (gunicorn workers), from /proc, in MB."""
    total = 0
    pids = [pid]
    try:
        for task in Path(f"/proc/{pid}/task").iterdir():
            pids += [int(c) for c in (task / "children").read_text().split()]
        for p in pids:
            for line in Path(f"/proc/{p}/status").read_text().splitlines():
                if line.startswith("VmHWM:"):
                    total += int(line.split()[1])
    except OSError:
        return None
    return total / 1024


class Server:
    """A started server: its base URL, where SPARQL goes, and how to stop it."""

    name = "server"
    sparql_path = "/sparql"
    speaks_sparql = True

    def __init__(self, log: Path | None = None) -> None:
        """``log``: where the server's standard error is kept (:func:`spawn`), or nowhere."""
        self.log = log
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.proc: subprocess.Popen[bytes] | None = None
        self.load_seconds: float | None = None

    def stop(self) -> None:
        """End the server (and its workers) and wait for it."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(30)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()

    def rss_mb(self) -> float | None:
        return peak_rss_mb(self.proc.pid) if self.proc is not None else None


def holders(store_dir: Path) -> str:
    """The processes that hold the store's lock file open ('' when none): who kept a store that aikg
    serve refused as held."""
    lock = (store_dir / "LOCK").resolve()
    found = []
    for fd in Path("/proc").glob("[0-9]*/fd/*"):
        try:
            if Path(os.readlink(fd)) == lock:
                pid = fd.parts[2]
                cmd = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()[:120]
                found.append(f"pid {pid}{' (this bench)' if int(pid) == os.getpid() else ''}: {cmd}")
        except OSError:
            continue
    return f" | held by {'; '.join(sorted(set(found)))}" if found else ""


def _python_bin(name: str) -> str:
    return str(Path(sys.executable).with_name(name))


class Aikg(Server):
    """``aikg serve`` (gunicorn, one worker, threads) over an on-disk store loaded beforehand."""

    name = "aikg"

    START_TRIES = 3
    """Starts tried when ``aikg serve`` refuses to start because its port or its store is taken."""
    RETRY_S = 10.0
    """Seconds before the next try: a store just closed by another process may still be held."""

    def __init__(self, store_dir: Path, threads: int = 8, log: Path | None = None) -> None:
        super().__init__(log)
        env = {**os.environ, "AIKG_TOKEN": TOKEN, "AIKG_LOAD_SEEDS": "false"}
        for attempt in range(1, self.START_TRIES + 1):
            cmd = ["serve", "--store", str(store_dir), "--port", str(self.port), "--threads", str(threads)]
            self.proc = spawn([_python_bin("aikg"), *cmd], log=log, env=env)
            try:
                _wait(self.base + "/api/health", self.proc, START_S, "aikg serve", log)
                break
            except Exited as exc:
                # Code 2: the port was taken between free_port() and the server's bind (another process
                # on the host took it), or another process held the store; the reason is in ``log``.
                if exc.code != 2 or attempt == self.START_TRIES:
                    raise Exited("aikg serve", exc.code, exc.said + holders(store_dir)) from None
                self.port = free_port()
                self.base = f"http://127.0.0.1:{self.port}"
                time.sleep(self.RETRY_S)
        self._wait_for_writes(START_S)

    def _wait_for_writes(self, seconds: float) -> None:
        """Until the writer takes writes (``/api/health`` says ``writes: ready``): a write before is a
        503 with Retry-After, which would be measured as the write's answer."""
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            try:
                if requests.get(self.base + "/api/health", timeout=5).json().get("writes") != "starting":
                    return
            except (requests.RequestException, ValueError):
                pass
            time.sleep(0.2)
        raise RuntimeError(f"aikg serve's writer did not take writes within {seconds:.0f} s")


class Hello(Server):
    """A bare Flask "hello" under gunicorn with 2 workers: the HTTP ceiling."""

    name = "flask-hello"
    speaks_sparql = False
    workers = ["-w", "2"]

    def __init__(self, log: Path | None = None) -> None:
        super().__init__(log)
        self.proc = spawn(
            [
                sys.executable,
                "-m",
                "gunicorn",
                *self.workers,
                "-b",
                f"127.0.0.1:{self.port}",
                "--log-level",
                "warning",
                "aikg_bench.hello:app",
            ],
            log,
        )
        _wait(self.base + "/", self.proc, START_S, "gunicorn hello", log)


class HelloThreads(Hello):
    """The same "hello" served the way aikg is (one gunicorn worker, 8 threads): the ceiling of that
    process model, which separates what aikg does per request from what one process costs."""

    name = "flask-hello-threads"
    workers = ["-w", "1", "-k", "gthread", "--threads", "8"]


class RdflibEndpoint(Server):
    """rdflib-endpoint (PyPI) serving the same N-Quads from an rdflib Dataset."""

    name = "rdflib-endpoint"
    sparql_path = "/"

    def __init__(self, data: Path, log: Path | None = None) -> None:
        super().__init__(log)
        try:
            import rdflib_endpoint  # noqa: F401
            import uvicorn  # noqa: F401
        except ImportError:
            raise Skipped("not installed: pip install 'rdflib-endpoint[cli]' (or aikg[bench])") from None
        start = time.perf_counter()
        self.proc = spawn(
            [
                sys.executable,
                "-m",
                "rdflib_endpoint",
                "serve",
                "--host",
                "127.0.0.1",
                "--port",
                str(self.port),
                "--enable-update",
                str(data),
            ],
            log,
        )
        _wait(self.base + "/?query=ASK%7B%7D", self.proc, 900, "rdflib-endpoint", log)
        self.load_seconds = time.perf_counter() - start


class Virtuoso(Server):
    """Virtuoso open source (Debian package) with a temporary database, loaded with its bulk loader."""

    name = "virtuoso"

    def __init__(self, data: Path, log: Path | None = None) -> None:
        super().__init__(log)
        exe, isql = shutil.which("virtuoso-t"), shutil.which("isql-vt")
        if not exe or not isql:
            raise Skipped("not installed: apt-get install virtuoso-opensource")
        self.isql = isql
        self.sql_port = free_port()
        self.dir = Path(tempfile.mkdtemp(prefix="aikg-bench-virtuoso-"))
        data = data.resolve()
        (self.dir / "virtuoso.ini").write_text(
            virtuoso_ini(
                self.dir,
                sql_port=self.sql_port,
                http_port=self.port,
                buffers=170000,
                dirty_buffers=130000,
                max_query_seconds=60,
                dirs_allowed=f"., {data.parent}",
            )
        )
        self.proc = spawn([exe, "-f", "-c", str(self.dir / "virtuoso.ini")], log, cwd=self.dir)
        _wait(self.base + "/sparql?query=ASK%7B%7D", self.proc, 120, "virtuoso", log)
        self._isql('GRANT SPARQL_UPDATE TO "SPARQL";')
        start = time.perf_counter()
        self._isql(
            f"ld_dir('{data.parent}', '{data.name}', 'https://w3id.org/aikg/graph/default');",
            "rdf_loader_run();",
            "checkpoint;",
        )
        self.load_seconds = time.perf_counter() - start

    def _isql(self, *statements: str) -> None:
        subprocess.run(
            [self.isql, str(self.sql_port), "dba", "dba", "exec=" + " ".join(statements)],
            check=True,
            capture_output=True,
            timeout=3600,
        )

    def stop(self) -> None:
        super().stop()
        shutil.rmtree(self.dir, ignore_errors=True)
