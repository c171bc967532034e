"""Build the message catalogues: extract the messages, merge them into the ``.po`` sources,
compile the ``.mo`` files that ship with the package, and check all of it.

Run from a source checkout (it reads ``lukfu_solver/``, ``cli/`` and ``web/``); a build tool, not
part of the installed package::

    python -m tools.i18n_catalogues extract   # lukfu.pot + merge into every <lang>.po
    python -m tools.i18n_catalogues compile   # every <lang>.po -> lukfu.mo
    python -m tools.i18n_catalogues check     # exit 1 on a stale .mo, a missing/unused
                                              # entry, an untranslated one or a bad placeholder

Besides the calls of :mod:`lukfu_solver.i18n` (in the page's JavaScript too, read by
``i18n.js_messages``, which the server uses as well), the command line's help texts are extracted
without markup: every ``help="..."`` keyword and every command's docstring in ``cli/``
(:func:`extract_help`); ``cli.output.translated_help`` looks them up when a ``--help`` is shown.

Why the standard library and not Babel: the format is small (a ``.po`` reader and writer, the
``.mo`` layout, an AST walk for the calls of :mod:`lukfu_solver.i18n`), the output is byte-stable
(sorted, no dates) so a test can compare the shipped ``.mo`` with the sources, and CI needs no
extra dependency. The files are standard GNU gettext files: ``msgfmt --check``, Poedit, Weblate
or ``pybabel`` read them as they are.
"""

from __future__ import annotations

import ast
import inspect
import re
import string
import struct
import sys
from dataclasses import dataclass, field
from pathlib import Path

from lukfu_solver.i18n import DOMAIN, KEYWORDS, LANGUAGES, SOURCE_LANGUAGE, js_messages

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "lukfu_solver"
LOCALE = PACKAGE / "locale"
SOURCES: tuple[Path, ...] = (PACKAGE, ROOT / "cli", ROOT / "web")
"""The folders whose ``.py`` files are scanned for messages (the library, the command line and
the web table)."""
JS_SOURCES: tuple[Path, ...] = (ROOT / "web" / "static",)
"""The folders whose ``.js`` files are scanned for messages (the web table's page): the same
marking functions, ``_("…")``, ``ngettext("…", "…", n)``, ``pgettext("…", "…")``, with
double-quoted literal arguments (:func:`lukfu_solver.i18n.js_messages`)."""
HELP_SOURCES: tuple[Path, ...] = (ROOT / "cli",)
"""The folders whose help texts are extracted without markup: every ``help="..."`` keyword (of
``typer.Option``, ``typer.Argument``, ``typer.Typer``) and every command's docstring, as
xgettext's ``--keyword`` would; the command line translates them when a ``--help`` is shown."""
PLURAL_FORMS: dict[str, str] = {
    "ru": "nplurals=3; plural=(n%10==1 && n%100!=11 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2);",
    "hi": "nplurals=2; plural=(n > 1);",
    "es": "nplurals=2; plural=(n != 1);",
}
"""gettext's plural rule of each translated language (Hindi as CLDR: 0 and 1 take the singular)."""


@dataclass
class Entry:
    """One catalogue entry (a message and its translation, if any)."""

    msgid: str
    msgid_plural: str | None = None
    msgctxt: str | None = None
    msgstr: list[str] = field(default_factory=lambda: [""])
    flags: set[str] = field(default_factory=set)
    references: list[str] = field(default_factory=list)
    comments: list[str] = field(default_factory=list)

    @property
    def key(self) -> tuple[str | None, str]:
        """What identifies the entry in a catalogue: its context and message."""
        return (self.msgctxt, self.msgid)

    @property
    def translated(self) -> bool:
        """Every form has a translation and the entry is not fuzzy (msgfmt skips fuzzy ones)."""
        return all(self.msgstr) and "fuzzy" not in self.flags


# ------------------------------------------------------------------ .po reading and writing

_ESCAPES = {"n": "\n", "t": "\t", '"': '"', "\\": "\\", "r": "\r"}


def _unquote(text: str) -> str:
    body = text.strip()
    if len(body) < 2 or body[0] != '"' or body[-1] != '"':
        raise ValueError(f"not a quoted string: {text!r}")
    return re.sub(r"\\(.)", lambda m: _ESCAPES.get(m.group(1), m.group(0)), body[1:-1])


def _quote(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\t", "\\t").replace("\n", "\\n") + '"'


def parse_po(text: str) -> list[Entry]:
    """The entries of a ``.po`` file, the header (``msgid ""``) first; obsolete ``#~`` ones dropped."""
    entries: list[Entry] = []
    current: dict[str, object] = {}
    last: str | None = None

    def flush() -> None:
        nonlocal current, last
        if "msgid" in current:
            forms = current.get("msgstr", {})
            assert isinstance(forms, dict)
            entries.append(
                Entry(
                    msgid=str(current["msgid"]),
                    msgid_plural=current.get("msgid_plural"),  # type: ignore[arg-type]
                    msgctxt=current.get("msgctxt"),  # type: ignore[arg-type]
                    msgstr=[forms[i] for i in sorted(forms)] or [""],
                    flags=set(current.get("flags", set())),  # type: ignore[call-overload]
                    references=list(current.get("references", [])),  # type: ignore[call-overload]
                    comments=list(current.get("comments", [])),  # type: ignore[call-overload]
                )
            )
        current, last = {}, None

    for raw in text.splitlines():
        line = raw.strip()
        if not line:
            flush()
            continue
        if line.startswith("#~"):
            continue
        if line.startswith("#"):
            if "msgid" in current:
                flush()
            if line.startswith("#,"):
                current.setdefault("flags", set()).update(f.strip() for f in line[2:].split(",") if f.strip())  # type: ignore[union-attr]
            elif line.startswith("#:"):
                current.setdefault("references", []).extend(line[2:].split())  # type: ignore[union-attr]
            elif line.startswith("# ") or line == "#":
                current.setdefault("comments", []).append(line[2:])  # type: ignore[union-attr]
            continue
        if line.startswith('"'):
            if last is None:
                raise ValueError(f"continuation without a keyword: {raw!r}")
            if last.startswith("msgstr"):
                forms = current["msgstr"]
                assert isinstance(forms, dict)
                idx = int(last[7:-1]) if "[" in last else 0
                forms[idx] += _unquote(line)
            else:
                current[last] = str(current[last]) + _unquote(line)
            continue
        keyword, _sep, rest = line.partition(" ")
        if keyword in ("msgctxt", "msgid") and "msgstr" in current:
            flush()
        if keyword.startswith("msgstr"):
            idx = int(keyword[7:-1]) if "[" in keyword else 0
            current.setdefault("msgstr", {})[idx] = _unquote(rest)  # type: ignore[index]
        elif keyword in ("msgctxt", "msgid", "msgid_plural"):
            current[keyword] = _unquote(rest)
        else:
            raise ValueError(f"unknown line in a .po file: {raw!r}")
        last = keyword
    flush()
    return entries


def _field(keyword: str, value: str) -> list[str]:
    """A keyword and its string, split after each newline as gettext writes long messages."""
    if "\n" not in value.rstrip("\n"):
        return [f"{keyword} {_quote(value)}"]
    parts = value.splitlines(keepends=True)
    return [f'{keyword} ""'] + [_quote(p) for p in parts]


def format_po(entries: list[Entry]) -> str:
    """The text of a ``.po`` (or ``.pot``) file: entries in the given order, no line wrapping."""
    out: list[str] = []
    for e in entries:
        out += [f"# {c}".rstrip() for c in e.comments]
        if e.references:
            out.append("#: " + " ".join(e.references))
        if e.flags:
            out.append("#, " + ", ".join(sorted(e.flags)))
        if e.msgctxt is not None:
            out += _field("msgctxt", e.msgctxt)
        out += _field("msgid", e.msgid)
        if e.msgid_plural is not None:
            out += _field("msgid_plural", e.msgid_plural)
            for i, form in enumerate(e.msgstr):
                out += _field(f"msgstr[{i}]", form)
        else:
            out += _field("msgstr", e.msgstr[0])
        out.append("")
    return "\n".join(out)


def header(language: str | None) -> Entry:
    """The header entry of a catalogue (of the template when ``language`` is None); no dates,
    so the files are byte-stable."""
    lines = [
        f"Project-Id-Version: {DOMAIN}",
        "Report-Msgid-Bugs-To: the lukfu issue tracker",
        "PO-Revision-Date: 2026-12-01 00:00+0000",
        "Last-Translator: the lukfu project",
        f"Language-Team: lukfu {language or 'translators'}",
        f"Language: {language or ''}",
        "MIME-Version: 1.0",
        "Content-Type: text/plain; charset=UTF-8",
        "Content-Transfer-Encoding: 8bit",
    ]
    if language in PLURAL_FORMS:
        lines.append(f"Plural-Forms: {PLURAL_FORMS[language]}")
    return Entry(msgid="", msgstr=["".join(line + "\n" for line in lines)])


# ------------------------------------------------------------------ extraction


def placeholders(text: str) -> list[str]:
    """The ``{name}`` fields and Rich markup tags of a message, sorted (they must survive translation).

    >>> placeholders("[bold]{seat}[/bold] plays {play!r} for {n:d} fu")
    ['[/bold]', '[bold]', '{n:d}', '{play!r}', '{seat}']
    """
    found = []
    try:
        for _lit, name, spec, conv in string.Formatter().parse(text):
            if name is not None:
                found.append("{" + name + (f"!{conv}" if conv else "") + (f":{spec}" if spec else "") + "}")
    except ValueError:
        found.append("<bad braces>")
    found += re.findall(r"\[/?[a-z][a-z0-9 _#.=-]*\]", text)
    found += re.findall(r"`[^`]*`", text)  # Markdown code (commands, JSON keys) in help texts
    return sorted(found)


def _flags(msgid: str) -> set[str]:
    return {"python-brace-format"} if re.search(r"\{[A-Za-z_0-9]*(![rsa])?(:[^{}]*)?\}", msgid) else set()


def extract_file(path: Path, rel: str) -> list[Entry]:
    """The messages marked in one source file, each with its ``file:line`` reference."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        name = node.func.id if isinstance(node.func, ast.Name) else getattr(node.func, "attr", None)
        roles = KEYWORDS.get(name or "")
        if roles is None or len(node.args) < len(roles):
            continue
        args = node.args[: len(roles)]
        if not all(isinstance(a, ast.Constant) and isinstance(a.value, str) for a in args):
            continue
        values = dict(zip(roles, (a.value for a in args), strict=True))  # type: ignore[union-attr]
        entry = Entry(
            msgid=values["msgid"],
            msgid_plural=values.get("msgid_plural"),
            msgctxt=values.get("msgctxt"),
            msgstr=["", ""] if "msgid_plural" in values else [""],
            flags=_flags(values["msgid"] + values.get("msgid_plural", "")),
            references=[f"{rel}:{node.lineno}"],
        )
        found.append(entry)
    return sorted(found, key=lambda e: int(e.references[0].rsplit(":", 1)[1]))


def extract_js_file(path: Path, rel: str) -> list[Entry]:
    """The messages marked in one JavaScript file, each with its ``file:line`` reference."""
    out = []
    for _name, values, line in js_messages(path.read_text(encoding="utf-8")):
        out.append(
            Entry(
                msgid=values["msgid"],
                msgid_plural=values.get("msgid_plural"),
                msgctxt=values.get("msgctxt"),
                msgstr=["", ""] if "msgid_plural" in values else [""],
                flags=_flags(values["msgid"] + values.get("msgid_plural", "")),
                references=[f"{rel}:{line}"],
            )
        )
    return out


def _js_files(folder: Path) -> list[Path]:
    return sorted(folder.rglob("*.js")) if folder.is_dir() else []


def _python_files(folder: Path) -> list[Path]:
    return sorted(p for p in folder.rglob("*.py") if "__pycache__" not in p.parts)


def command_names(tree: ast.AST) -> set[str]:
    """The functions a module registers as commands: ``@app.command(...)`` above a ``def``, or
    ``app.command("name", ...)(module.function)``."""
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef):
            for deco in node.decorator_list:
                if isinstance(deco, ast.Call) and getattr(deco.func, "attr", None) == "command":
                    names.add(node.name)
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Call):
            if getattr(node.func.func, "attr", None) == "command" and node.args:
                target = node.args[0]
                name = target.attr if isinstance(target, ast.Attribute) else getattr(target, "id", None)
                if name:
                    names.add(name)
    return names


def extract_help_file(path: Path, rel: str, commands: set[str]) -> list[Entry]:
    """The help texts of one command-line module: ``help="..."`` keywords and the docstrings of
    the functions in ``commands``, cleaned as Typer cleans them (so the lookup finds them)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            for kw in node.keywords:
                if kw.arg == "help" and isinstance(kw.value, ast.Constant) and isinstance(kw.value.value, str):
                    found.append((kw.value.lineno, inspect.cleandoc(kw.value.value)))
        elif isinstance(node, ast.FunctionDef) and node.name in commands and node.col_offset == 0:
            doc = ast.get_docstring(node, clean=True)
            if doc:
                found.append((node.body[0].lineno, doc))
    return [Entry(msgid=text, references=[f"{rel}:{line}"]) for line, text in sorted(found) if text]


def extract_help(sources: tuple[Path, ...] = HELP_SOURCES) -> list[Entry]:
    """Every help text of the command line (see :data:`HELP_SOURCES`), merged, in order of first use."""
    files = [p for folder in sources for p in _python_files(folder)]
    commands = set().union(*(command_names(ast.parse(p.read_text(encoding="utf-8"))) for p in files))
    merged: dict[tuple[str | None, str], Entry] = {}
    for path in files:
        for e in extract_help_file(path, path.relative_to(ROOT).as_posix(), commands):
            if e.key in merged:
                merged[e.key].references += e.references
            else:
                merged[e.key] = e
    return list(merged.values())


def extract(sources: tuple[Path, ...] = SOURCES, help_sources: tuple[Path, ...] = HELP_SOURCES) -> list[Entry]:
    """Every message marked in ``sources`` and every help text of ``help_sources``, merged by
    (context, message), in order of first use."""
    merged: dict[tuple[str | None, str], Entry] = {}
    files = [(p, extract_file) for folder in sources for p in _python_files(folder)]
    if sources == SOURCES:
        files += [(p, extract_js_file) for folder in JS_SOURCES for p in _js_files(folder)]
    for path, reader in files:
        rel = path.relative_to(ROOT).as_posix()
        for e in reader(path, rel):
            if e.key in merged:
                merged[e.key].references += e.references
                merged[e.key].flags |= e.flags
            else:
                merged[e.key] = e
    for e in extract_help(help_sources):
        if e.key in merged:
            merged[e.key].references += e.references
        else:
            merged[e.key] = e
    return list(merged.values())


def merge(template: list[Entry], old: list[Entry], language: str) -> list[Entry]:
    """The catalogue of ``language`` for ``template``: old translations kept, new entries empty,
    entries no longer used dropped (msgmerge without fuzzy matching)."""
    known = {e.key: e for e in old if e.msgid}
    nforms = int(re.search(r"nplurals=(\d+)", PLURAL_FORMS.get(language, "nplurals=2")).group(1))  # type: ignore[union-attr]
    out = [header(language)]
    for t in template:
        prev = known.get(t.key)
        forms = nforms if t.msgid_plural is not None else 1
        msgstr = list(prev.msgstr) if prev and (prev.msgid_plural is None) == (t.msgid_plural is None) else []
        msgstr = (msgstr + [""] * forms)[:forms]
        flags = set(t.flags) | ({"fuzzy"} if prev and "fuzzy" in prev.flags else set())
        comments = prev.comments if prev else []
        out.append(Entry(t.msgid, t.msgid_plural, t.msgctxt, msgstr, flags, list(t.references), list(comments)))
    return out


# ------------------------------------------------------------------ .mo compilation


def compile_mo(entries: list[Entry]) -> bytes:
    """The GNU ``.mo`` file of ``entries`` (translated, non-fuzzy entries and the header), keys
    sorted as msgfmt sorts them; no hash table (readers fall back to a binary search)."""
    pairs: dict[bytes, bytes] = {}
    for e in entries:
        if e.msgid and not e.translated:
            continue
        key = e.msgid if e.msgid_plural is None else f"{e.msgid}\0{e.msgid_plural}"
        if e.msgctxt is not None:
            key = f"{e.msgctxt}\x04{key}"
        pairs[key.encode("utf-8")] = "\0".join(e.msgstr).encode("utf-8")
    keys = sorted(pairs)
    n = len(keys)
    ids = b"".join(k + b"\0" for k in keys)
    strs = b"".join(pairs[k] + b"\0" for k in keys)
    start = 7 * 4 + 16 * n
    id_table, pos = [], start
    for k in keys:
        id_table += [len(k), pos]
        pos += len(k) + 1
    str_table = []
    for k in keys:
        str_table += [len(pairs[k]), pos]
        pos += len(pairs[k]) + 1
    head = struct.pack("<7I", 0x950412DE, 0, n, 7 * 4, 7 * 4 + 8 * n, 0, start)
    return head + struct.pack(f"<{4 * n}I", *id_table, *str_table) + ids + strs


# ------------------------------------------------------------------ files and checks


def po_path(language: str) -> Path:
    """The ``.po`` source of ``language``."""
    return LOCALE / language / "LC_MESSAGES" / f"{DOMAIN}.po"


def mo_path(language: str) -> Path:
    """The compiled ``.mo`` of ``language`` (shipped as package data)."""
    return po_path(language).with_suffix(".mo")


TRANSLATED: tuple[str, ...] = tuple(code for code in LANGUAGES if code != SOURCE_LANGUAGE)
"""The languages with a catalogue (English is the source)."""


def load(language: str) -> list[Entry]:
    """The entries of a language's ``.po`` source (empty when there is none yet)."""
    path = po_path(language)
    return parse_po(path.read_text(encoding="utf-8")) if path.exists() else []


def problems(language: str, template: list[Entry] | None = None) -> list[str]:
    """What is wrong with a language's catalogue, one line each (empty when all is well)."""
    template = extract() if template is None else template
    entries = load(language)
    found = {e.key: e for e in entries if e.msgid}
    wanted = {e.key for e in template}
    out = [f"{language}: missing {k[1]!r}" for k in wanted - found.keys()]
    out += [f"{language}: unused {k[1]!r}" for k in found.keys() - wanted]
    nforms = int(re.search(r"nplurals=(\d+)", PLURAL_FORMS[language]).group(1))  # type: ignore[union-attr]
    for e in found.values():
        if not e.translated:
            out.append(f"{language}: untranslated {e.msgid!r}")
            continue
        if e.msgid_plural is not None and len(e.msgstr) != nforms:
            out.append(f"{language}: {e.msgid!r} has {len(e.msgstr)} plural forms, not {nforms}")
        source = placeholders(e.msgid_plural if e.msgid_plural is not None else e.msgid)
        for form in e.msgstr:
            if placeholders(form) != source:
                out.append(f"{language}: placeholders of {e.msgid!r} differ: {placeholders(form)} vs {source}")
    mo = mo_path(language)
    if not mo.exists() or mo.read_bytes() != compile_mo(entries):
        out.append(f"{language}: {mo.relative_to(ROOT)} is not compiled from the .po (run compile)")
    return out


def main(argv: list[str] | None = None) -> int:
    """The command: ``extract``, ``compile`` or ``check`` (see the module text)."""
    args = sys.argv[1:] if argv is None else argv
    command = args[0] if args else "check"
    template = extract()
    if command == "extract":
        LOCALE.mkdir(exist_ok=True)
        (LOCALE / f"{DOMAIN}.pot").write_text(format_po([header(None), *template]), encoding="utf-8")
        for language in TRANSLATED:
            po_path(language).parent.mkdir(parents=True, exist_ok=True)
            merged = merge(template, load(language), language)
            po_path(language).write_text(format_po(merged), encoding="utf-8")
            todo = sum(1 for e in merged[1:] if not e.translated)
            print(f"{language}: {len(merged) - 1} messages, {todo} to translate")
        return 0
    if command == "compile":
        for language in TRANSLATED:
            mo_path(language).write_bytes(compile_mo(load(language)))
            print(f"{language}: {mo_path(language).relative_to(ROOT)}")
        return 0
    if command == "check":
        found = [line for language in TRANSLATED for line in problems(language, template)]
        print("\n".join(found) if found else f"{len(template)} messages, all translated in {', '.join(TRANSLATED)}")
        return 1 if found else 0
    print(f"unknown command {command!r}: extract, compile or check", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main())
