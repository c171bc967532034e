"""``python -m lukfu_solver`` runs the ``lukfu`` command.

This launcher is the one place that reaches the command line; the library modules never
import it, so ``import lukfu_solver`` stays free of Typer and Rich.
"""

from importlib import import_module

if __name__ == "__main__":
    import_module("lukfu_cli.app").main()
