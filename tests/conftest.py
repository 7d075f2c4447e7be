"""Shared fixtures: an in-memory seeded store, the Flask app and client, the CLI runner, a live server.

The app fixtures (``app``/``client``, ``ro_app``/``ro_client``) are parametrized over both storage
backends, so every API test runs on the embedded Oxigraph store and on a remote engine (a throwaway
Virtuoso on 127.0.0.1, started once per session). Fixtures that hand out a store directly
(``seeded_store``, ``store``) stay on Oxigraph: the tests using them are about the embedded store
(persistence, process-isolated limits) or are not about the service at all.
"""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any, ClassVar

import pytest
import requests
from click.testing import CliRunner

from aikg.epoch.report import ImportReport
from aikg.knowledge.load import load_seeds
from aikg.store import OxigraphStore, Quad, Store
from aikg.store.remote import RemoteStore
from aikg.web import create_app
from virtuoso import VirtuosoServer  # tests/ is on sys.path (rootdir conftest)

ROOT = Path(__file__).resolve().parents[1]
ARTIFACTS = ROOT / "artifacts"

TOOLS = {
    "virtuoso": ("virtuoso-t", "virtuoso-opensource"),
    "chromium": ("chromium", "chromium"),
    "graphviz": ("dot", "graphviz"),
    "wrk": ("wrk", "wrk"),
    "node": ("node", "nodejs"),
    "roqet": ("roqet", "rasqal-utils"),
}
"""System tools some tests drive: tool name -> (command, the Debian package that has it)."""


def pytest_configure(config) -> None:
    config.addinivalue_line("markers", "needs(tool): the test drives a system tool (see conftest.TOOLS)")


def _tools_of(item) -> set[str]:
    tools = {m.args[0] for m in item.iter_markers("needs")}
    callspec = getattr(item, "callspec", None)
    if callspec is not None and "virtuoso" in callspec.params.values():
        tools.add("virtuoso")
    names = set(getattr(item, "fixturenames", ()))
    if names & {"virtuoso", "seeded_remote"}:
        tools.add("virtuoso")
    if "browser" in names:
        tools.add("chromium")
    return tools


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(session, config, items) -> None:
    """Fail the run, naming the tool and the tests that need it, when a system tool is missing: the
    suite never passes by skipping what it could not run (tests/system-packages.sh installs them).

    Runs last, after ``-k``/``-m`` have deselected: only the tests that will run need their tools
    (``-k oxigraph`` runs the embedded-store half of a file without Virtuoso installed)."""
    import shutil
    from collections import defaultdict

    missing: dict[str, list[str]] = defaultdict(list)
    for item in items:
        for tool in _tools_of(item):
            if shutil.which(TOOLS[tool][0]) is None:
                missing[tool].append(item.nodeid)
    if missing:
        lines = [
            "system tools the selected tests need are missing (install them with tests/system-packages.sh):"
        ]
        for tool, ids in sorted(missing.items()):
            shown = ", ".join(ids[:5]) + (f" and {len(ids) - 5} more" if len(ids) > 5 else "")
            lines.append(f"  {TOOLS[tool][0]} (Debian package {TOOLS[tool][1]}): {len(ids)} test(s): {shown}")
        raise pytest.UsageError("\n".join(lines))


@pytest.fixture(scope="session")
def seeded_store() -> Store:
    """One in-memory store with ontology, shapes, seeds and derived facts; treat it as read-only."""
    store = OxigraphStore(None)
    load_seeds(store)
    return store


@pytest.fixture(scope="session")
def epoch_import() -> tuple[Store, ImportReport]:
    """The default store (the seeds and the real Epoch AI snapshot of seeds/epoch/, imported once per
    session into memory) and the import's report; treat both as read-only."""
    from aikg.epoch import import_epoch
    from aikg.epoch.importer import default_directory
    from helpers import services_for

    store = OxigraphStore(None)
    load_seeds(store)
    # A generous query limit: the import's own reads must not time out on a loaded CI machine.
    report = import_epoch(services_for(store, query_timeout=60), default_directory())
    return store, report


@pytest.fixture(scope="session")
def epoch_store(epoch_import: tuple[Store, ImportReport]) -> Store:
    """The default store of :func:`epoch_import`; treat it as read-only."""
    return epoch_import[0]


@pytest.fixture(scope="session")
def _seed_quads() -> tuple[Quad, ...]:
    """Every quad :func:`load_seeds` writes (derived facts included), read once from a store no test
    sees, so a test that writes to ``seeded_store`` by mistake cannot leak into the copies."""
    s = OxigraphStore(None)
    load_seeds(s)
    return tuple(s.quads())


@pytest.fixture()
def store(_seed_quads: tuple[Quad, ...]) -> Store:
    """A fresh seeded in-memory store a test may change: the seeds' quads copied in one change (about
    a third of load_seeds' time, which ~300 tests paid each)."""
    s = OxigraphStore(None)
    s.apply(add=_seed_quads)
    return s


BACKENDS = ["oxigraph", "virtuoso"]
"""Every API test runs once per backend: the embedded store, and a remote SPARQL engine."""


@pytest.fixture(scope="session")
def virtuoso() -> Iterator[VirtuosoServer]:
    """A throwaway Virtuoso on free loopback ports with a temporary database, for the whole session."""
    server = VirtuosoServer(free_port(), free_port())
    yield server
    server.stop()


class SeededRemote:
    """The session's Virtuoso holding the seeds, with a snapshot to restore after a test wrote to it."""

    def __init__(self, server: VirtuosoServer, seeds: Store) -> None:
        self.store = RemoteStore(server.url, gsp_url=server.gsp_url)
        for g in self.store.graphs():
            self.store.drop_graph(g)
        # Oxigraph's own seeded dataset, copied: the same derived facts, in one bulk load.
        self.store.load(seeds.dump(mime="application/n-quads"), mime="application/n-quads")
        self.snapshot = set(self.store.quads())
        self.version = self.store.version

    def restore(self) -> None:
        """Undo whatever a test wrote: remove what it added, put back what it removed, in one update."""
        if self.store.version == self.version:
            return
        now = set(self.store.quads())
        self.store.apply(remove=now - self.snapshot, add=self.snapshot - now)
        self.version = self.store.version


@pytest.fixture(scope="session")
def seeded_remote(virtuoso: VirtuosoServer, seeded_store: Store) -> SeededRemote:
    """The seeds in the session's Virtuoso (copied from ``seeded_store`` once)."""
    return SeededRemote(virtuoso, seeded_store)


@pytest.fixture(params=BACKENDS)
def backend_store(request) -> Iterator[Store]:
    """A seeded store a test may change: fresh in memory, or the shared Virtuoso restored afterwards."""
    if request.param == "oxigraph":
        yield request.getfixturevalue("store")
        return
    remote: SeededRemote = request.getfixturevalue("seeded_remote")
    remote.restore()
    yield remote.store
    remote.restore()


@pytest.fixture()
def app(backend_store: Store):
    """The app over a fresh seeded store of each backend, with writes enabled by token ``test-token``."""
    # Limits a busy machine does not trip (an update reading the union default graph stages every graph
    # of the shared Virtuoso: past 5 s and 15 s at load 10); tests of the limits build apps of their own.
    settings = {"query_timeout": 60, "write_timeout": 120}
    return create_app(
        {"store": "memory", "load_seeds": False, "token": "test-token", **settings}, store=backend_store
    )


@pytest.fixture()
def client(app):
    """Flask test client."""
    return app.test_client()


@pytest.fixture(scope="session", params=BACKENDS)
def ro_app(request):
    """An app over a shared seeded store of each backend, for read-only tests (cheaper than ``app``)."""
    if request.param == "oxigraph":
        store = request.getfixturevalue("seeded_store")
    else:
        store = request.getfixturevalue("seeded_remote").store
    # A time limit a busy machine does not trip (the default 5 s did: nvidia-only-capacity on Virtuoso at
    # load 10 answered "timeout"); tests of the limit build apps of their own.
    return create_app({"store": "memory", "load_seeds": False, "query_timeout": 60}, store=store)


@pytest.fixture()
def ro_client(ro_app, request):
    """Test client of the read-only app (the shared Virtuoso is restored first if a write changed it)."""
    if request.node.callspec.params.get("ro_app") == "virtuoso":
        request.getfixturevalue("seeded_remote").restore()
    return ro_app.test_client()


@pytest.fixture()
def backend(request) -> str:
    """The backend (``oxigraph`` or ``virtuoso``) the test's app fixture runs on."""
    params = request.node.callspec.params if hasattr(request.node, "callspec") else {}
    return params.get("backend_store") or params.get("ro_app") or "oxigraph"


STORE_KINDS = {"oxigraph": "oxigraph", "virtuoso": "remote"}
"""The ``kind`` of the store each backend name stands for."""


@pytest.fixture()
def runner() -> CliRunner:
    """Click runner for the ``aikg`` command."""
    return CliRunner()


def free_port() -> int:
    """A TCP port on 127.0.0.1 nobody listens on right now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


TEST_QUERY_TIMEOUT = "30"
"""query_timeout of a test's server unless the test sets its own: one a busy machine does not trip (at
the default 5 s, answers 503'd under a load average of 13-34, and the tests failed by time)."""


def _prctl() -> Any:
    """libc's prctl, looked up here: the child between fork and exec must not import or load anything
    (another thread of the test process may hold the import lock)."""
    import ctypes

    try:
        return ctypes.CDLL(None, use_errno=True).prctl
    except (OSError, AttributeError):
        return None


_PRCTL = _prctl()
_PR_SET_PDEATHSIG = 1


def _die_with_parent() -> None:  # pragma: no cover - runs in the child, before exec
    """Have the kernel send SIGTERM to the server when the test process ends, whatever way it ends (a
    server of a killed pytest ran on for an hour). The signal comes when the *thread* that started the
    server ends: start servers from the main thread."""
    if _PRCTL is not None:
        _PRCTL(_PR_SET_PDEATHSIG, _SIGTERM)


_SIGTERM = int(signal.SIGTERM)


class LiveServer:
    """An ``aikg serve`` subprocess on 127.0.0.1, started and stopped by the tests (and stopped after a
    test that failed before it could: see :func:`_no_server_left_behind`)."""

    started: ClassVar[list[LiveServer]] = []
    """Every server started in this session."""

    def __init__(self, store: str, env: dict[str, str] | None = None, args: list[str] | None = None) -> None:
        self.store = store
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        full_env = {
            **os.environ,
            "AIKG_IMPORT_EPOCH": "false",
            "AIKG_WARM_ASK": "false",  # its CPU at every start; tests that ask turn it on
            "AIKG_QUERY_TIMEOUT": TEST_QUERY_TIMEOUT,
            **(env or {}),
        }
        cmd = [
            sys.executable,
            "-m",
            "aikg",
            "serve",
            "--host",
            "127.0.0.1",
            "--port",
            str(self.port),
            "--store",
            store,
            *(args or []),
        ]
        # The log goes to a file: a pipe nobody reads fills up and blocks the server.
        self.log = tempfile.NamedTemporaryFile(prefix="aikg-serve-", suffix=".log", delete=False)  # noqa: SIM115
        self.proc = subprocess.Popen(
            cmd, env=full_env, stdout=subprocess.DEVNULL, stderr=self.log, preexec_fn=_die_with_parent
        )
        LiveServer.started.append(self)
        self.wait_ready()

    def log_tail(self, size: int = 4000) -> str:
        """The end of the server's log, for failure messages."""
        return Path(self.log.name).read_text(errors="replace")[-size:]

    def wait_ready(self, timeout: float = 900) -> None:
        """Block until the health endpoint answers and says writes are taken (or switched off). The
        limit only catches a server that never comes up: a start (seeds, derived graphs, warm-up) took
        over 60 s on a machine at load 6 and over 300 s beside four busy loops a core (load 20), and
        waiting longer costs a passing run nothing."""
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            if self.proc.poll() is not None:
                raise RuntimeError("aikg serve exited: " + self.log_tail(2000))
            try:
                health = requests.get(self.url + "/api/health", timeout=1)
                if health.status_code == 200 and health.json().get("writes") != "starting":
                    return
            except requests.RequestException:
                pass
            time.sleep(0.2)
        self.stop()
        raise RuntimeError("aikg serve did not become ready")

    def running(self) -> bool:
        return self.proc.poll() is None

    def stop(self) -> None:
        """Terminate the server (gracefully: its writer flushes the store), wait for it, remove its log;
        a process of it still there after the server has exited (a worker left by a master that had to
        be killed) is killed."""
        from helpers import descendants, proc_stat

        def started_at(pid: int) -> str | None:  # with the pid, names one process for good
            try:
                return proc_stat(f"/proc/{pid}/stat")[19]
            except (OSError, IndexError):
                return None

        tree = {pid: started_at(pid) for pid in descendants(self.proc.pid)} if self.running() else {}
        if self.running():
            self.proc.terminate()
            try:
                self.proc.wait(45)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        for pid, start in tree.items():
            if start is not None and started_at(pid) == start:  # the same process, not a pid reused
                with contextlib.suppress(ProcessLookupError):
                    os.kill(pid, signal.SIGKILL)
        self.log.close()
        Path(self.log.name).unlink(missing_ok=True)  # read while it ran (log_tail); /tmp kept none


@pytest.fixture(autouse=True)
def _no_server_left_behind() -> Iterator[None]:
    """Stop every server a test started and left running, also when it failed before its own stop
    (test_crash's first server ran on after a failed assertion, an hour past the end of pytest)."""
    before = set(map(id, LiveServer.started))
    yield
    for server in [s for s in LiveServer.started if id(s) not in before]:
        if server.running():
            server.stop()


PATIENT = {"AIKG_QUERY_TIMEOUT": "60"}
"""Limits of the shared live servers: the machine running the tests may be busy (a 3-second query took
5.5 s at load 20 and got a 503), and speed is not under test there; tests of the limits start their own."""


@pytest.fixture(scope="session")
def live_server(tmp_path_factory) -> Iterator[LiveServer]:
    """A real server over an on-disk store with the seeds, for outside clients."""
    server = LiveServer(
        str(tmp_path_factory.mktemp("live-store")), env={"AIKG_TOKEN": "test-token", **PATIENT}
    )
    yield server
    server.stop()


@pytest.fixture(scope="session")
def epoch_server(tmp_path_factory, epoch_store: Store) -> Iterator[LiveServer]:
    """A real server over the default store (seeds and the Epoch snapshot), read-only: the session's
    import copied to disk, so the server starts with it instead of importing in the background."""
    path = tmp_path_factory.mktemp("epoch-store")
    disk = OxigraphStore(path)
    disk.load(epoch_store.dump(mime="application/n-quads"), mime="application/n-quads")
    disk.close()
    server = LiveServer(str(path), env=PATIENT)
    yield server
    server.stop()
