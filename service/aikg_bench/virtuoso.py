"""The configuration of a throwaway Virtuoso (Debian's virtuoso-opensource) on loopback ports.

Shared by the benchmark's Virtuoso peer and the tests' remote-store fixture, so both start the engine
the same way: a temporary database directory, listening on 127.0.0.1 only.
"""

from __future__ import annotations

from pathlib import Path


def virtuoso_ini(
    directory: Path,
    *,
    sql_port: int,
    http_port: int,
    buffers: int,
    dirty_buffers: int,
    max_query_seconds: int,
    dirs_allowed: str = ".",
) -> str:
    """The ``virtuoso.ini`` of a server whose files all live in ``directory``."""
    d = directory
    return f"""\
[Database]
DatabaseFile = {d}/v.db
ErrorLogFile = {d}/v.log
LockFile = {d}/v.lck
TransactionFile = {d}/v.trx
xa_persistent_file = {d}/v.pxa
[TempDatabase]
DatabaseFile = {d}/v-temp.db
TransactionFile = {d}/v-temp.trx
[Parameters]
ServerPort = 127.0.0.1:{sql_port}
DisableUnixSocket = 1
NumberOfBuffers = {buffers}
MaxDirtyBuffers = {dirty_buffers}
DirsAllowed = {dirs_allowed}
[HTTPServer]
ServerPort = 127.0.0.1:{http_port}
ServerRoot = {d}
ServerThreads = 10
EnabledDavVSP = 0
[SPARQL]
ResultSetMaxRows = 1000000
MaxQueryExecutionTime = {max_query_seconds}
"""
