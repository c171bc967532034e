"""The ``lukfu`` command line (import name ``lukfu_cli``; sources in ``cli/``): thin over the library."""
