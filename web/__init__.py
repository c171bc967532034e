"""lukfu's card table in a browser (``lukfu serve``): a Starlette app over the library's game
session, its files (HTML, CSS, JavaScript: no build step, nothing fetched from elsewhere) in
``static/``. Importing this package imports nothing heavy; :mod:`.app` brings in the web stack."""
