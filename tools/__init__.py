"""The project's build tools, run from a source checkout (``python -m tools.NAME``); not part of
the installed package: ``i18n_catalogues`` extracts, merges, compiles and checks the message
catalogues (``docs/i18n.md``)."""
