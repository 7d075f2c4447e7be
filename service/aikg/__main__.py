"""``python -m aikg`` runs the ``aikg`` command."""

from aikg.cli import main

main()
