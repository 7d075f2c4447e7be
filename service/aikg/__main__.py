"""``python -m aikg`` runs the ``aikg`` command."""

from .cli import main

main()
