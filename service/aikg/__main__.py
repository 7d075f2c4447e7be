"""``python -m aikg`` runs the ``aikg`` command."""

from aikg.cli import main

if __name__ == "__main__":
    main()
