"""Shared fixtures: an in-memory seeded store, the Flask app and client, the CLI runner, a live server."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import requests
from click.testing import CliRunner

from aikg.knowledge.load import load_seeds
from aikg.store import OxigraphStore, Store
from aikg.web import create_app

ROOT = Path(__file__).resolve().parents[1]
ARTIFACTS = ROOT / "artifacts"


@pytest.fixture(scope="session")
def seeded_store() -> Store:
    """One in-memory store with ontology, shapes, seeds and derived facts; treat it as read-only."""
    store = OxigraphStore(None)
    load_seeds(store)
    return store


@pytest.fixture()
def store() -> Store:
    """A fresh seeded in-memory store a test may change."""
    s = OxigraphStore(None)
    load_seeds(s)
    return s


@pytest.fixture()
def app(store: Store):
    """The app over a fresh seeded in-memory store, with writes enabled by token ``test-token``."""
    return create_app({"store": "memory", "load_seeds": False, "token": "test-token"}, store=store)


@pytest.fixture()
def client(app):
    """Flask test client."""
    return app.test_client()


@pytest.fixture(scope="session")
def ro_app(seeded_store: Store):
    """An app over the shared seeded store, for read-only tests (cheaper than ``app``)."""
    return create_app({"store": "memory", "load_seeds": False}, store=seeded_store)


@pytest.fixture()
def ro_client(ro_app):
    """Test client of the read-only app."""
    return ro_app.test_client()


@pytest.fixture()
def runner() -> CliRunner:
    """Click runner for the ``aikg`` command."""
    return CliRunner()


def free_port() -> int:
    """A TCP port on 127.0.0.1 nobody listens on right now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class LiveServer:
    """An ``aikg serve`` subprocess on 127.0.0.1, started and stopped by the tests."""

    def __init__(self, store: str, env: dict[str, str] | None = None,
                 args: list[str] | None = None) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        full_env = {**os.environ, **(env or {})}
        cmd = [sys.executable, "-m", "aikg", "serve", "--host", "127.0.0.1",
               "--port", str(self.port), "--store", store, *(args or [])]
        self.proc = subprocess.Popen(cmd, env=full_env, stdout=subprocess.DEVNULL,
                                     stderr=subprocess.PIPE)
        self.wait_ready()

    def wait_ready(self, timeout: float = 60) -> None:
        """Block until the health endpoint answers."""
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            if self.proc.poll() is not None:
                raise RuntimeError("aikg serve exited: " + self.proc.stderr.read().decode()[-2000:])
            try:
                if requests.get(self.url + "/api/health", timeout=1).status_code == 200:
                    return
            except requests.RequestException:
                pass
            time.sleep(0.2)
        self.stop()
        raise RuntimeError("aikg serve did not become ready")

    def stop(self) -> None:
        """Terminate the server and wait for it."""
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()


@pytest.fixture(scope="session")
def live_server(tmp_path_factory) -> Iterator[LiveServer]:
    """A real server over an on-disk store with the seeds, for outside clients."""
    server = LiveServer(str(tmp_path_factory.mktemp("live-store")), env={"AIKG_TOKEN": "test-token"})
    yield server
    server.stop()
