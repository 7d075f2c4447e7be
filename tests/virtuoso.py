"""A throwaway Virtuoso server on 127.0.0.1 with a temporary database, for the remote-store tests."""

from __future__ import annotations

import shutil
import subprocess
import tempfile
import time
from pathlib import Path

import requests

from aikg_bench.virtuoso import virtuoso_ini
from helpers import cpu_seconds

VIRTUOSO = shutil.which("virtuoso-t")
ISQL = shutil.which("isql-vt")


class VirtuosoServer:
    """Starts ``virtuoso-t`` in the foreground on free loopback ports; ``stop()`` ends it and cleans up."""

    def __init__(self, sql_port: int, http_port: int) -> None:
        if not VIRTUOSO or not ISQL:
            raise RuntimeError("virtuoso-opensource is not installed (apt-get install virtuoso-opensource)")
        self.dir = Path(tempfile.mkdtemp(prefix="aikg-virtuoso-"))
        self.sql_port, self.http_port = sql_port, http_port
        self.url = f"http://127.0.0.1:{http_port}/sparql"
        self.gsp_url = f"http://127.0.0.1:{http_port}/sparql-graph-crud"
        """Virtuoso's Graph Store Protocol endpoint (``graph-uri`` parameter); the grant below opens it."""
        # Small buffers keep the test engine light; its own 5 s limit ends a query aikg stopped waiting for.
        (self.dir / "virtuoso.ini").write_text(
            virtuoso_ini(
                self.dir,
                sql_port=sql_port,
                http_port=http_port,
                buffers=20000,
                dirty_buffers=15000,
                max_query_seconds=30,
            )
        )
        self.proc = subprocess.Popen(
            [VIRTUOSO, "-f", "-c", str(self.dir / "virtuoso.ini")],
            cwd=self.dir,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        self._wait()
        # Anonymous SPARQL Update on the loopback-only test server, so tests need no digest auth.
        subprocess.run(
            [ISQL, str(sql_port), "dba", "dba", 'exec=GRANT SPARQL_UPDATE TO "SPARQL";'],
            check=True,
            capture_output=True,
            timeout=60,
        )

    def _wait(self, timeout: float = 90) -> None:
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            if self.proc.poll() is not None:
                raise RuntimeError("virtuoso-t exited: " + (self.dir / "v.log").read_text()[-2000:])
            try:
                if requests.get(self.url, params={"query": "ASK {}"}, timeout=2).status_code == 200:
                    return
            except requests.RequestException:
                pass
            time.sleep(0.3)
        self.stop()
        raise RuntimeError("virtuoso did not start")

    def cpu_seconds(self) -> float:
        """CPU time the server has used so far (user + system)."""
        return cpu_seconds(self.proc.pid)

    def settle(self, within: float = 90) -> float:
        """Wait until the server is idle (under 0.1 CPU-second in half a second); the seconds it took.

        A query aikg stopped waiting for runs on in the engine until its own limit ends it, on the cores
        the next tests' query workers (which run at a lower priority) need."""
        start = time.monotonic()
        used = self.cpu_seconds()
        while time.monotonic() - start < within:
            time.sleep(0.5)
            now = self.cpu_seconds()
            if now - used < 0.1:
                return time.monotonic() - start
            used = now
        raise AssertionError(f"virtuoso was still busy after {within} s")

    def stop(self) -> None:
        """End the server and remove its database."""
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(20)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        shutil.rmtree(self.dir, ignore_errors=True)
