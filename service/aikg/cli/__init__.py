"""The ``aikg`` command: ``serve | load | validate | query | show | export | dump``, mirroring the HTTP
API, and ``check | backup | restore`` for the embedded store.

Exit codes: 0 ok, 1 data does not conform, 2 usage or input error.
"""

from __future__ import annotations

import click

from aikg import __version__


@click.group()
@click.version_option(__version__, prog_name="aikg")
def main() -> None:
    """aikg: a knowledge graph of the AI-compute industry."""


def _register() -> None:
    from aikg.cli import ask, bench, data, export, importer, query, serve, show, store, validate

    for module in (serve, data, query, show, export, validate, bench, importer, ask, store):
        for command in module.COMMANDS:
            main.add_command(command)


_register()
