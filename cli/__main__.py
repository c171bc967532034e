"""``python -m lukfu_cli`` runs the ``lukfu`` command (the launcher lives with the command line)."""

from .app import main

if __name__ == "__main__":
    main()
