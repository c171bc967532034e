"""The parsing layer (lukfu_solver.inputs): numbers of any length, JSON of any depth, any text and
bytes are either accepted as documented or refused with one short NotationError, never a crash."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from lukfu_solver.errors import NotationError
from lukfu_solver.inputs import (
    MAX_DIGITS,
    MAX_JSON_DEPTH,
    MAX_SEED,
    check_int,
    check_name,
    check_seed,
    check_text,
    decode_line,
    excerpt,
    json_depth,
    load_json,
    load_json_file,
    parse_int,
    read_bounded,
    split_fields,
)

MESSAGE_MAX = 300
"""No message of the layer is longer than this, whatever the input."""


def refused(fn, *args: object) -> str:
    """Call ``fn`` expecting a NotationError; return its one-line, short, valid-UTF-8 message."""
    with pytest.raises(NotationError) as info:
        fn(*args)
    text = str(info.value)
    assert "\n" not in text and len(text) <= MESSAGE_MAX, text
    text.encode("utf-8")  # no lone surrogate in a message
    return text


# ---------------------------------------------------------------- numbers


@given(st.text(alphabet="0123456789", min_size=1, max_size=6000))
def test_any_digit_string_is_a_number_or_a_clean_refusal(digits: str) -> None:
    try:
        value = parse_int(digits, "seed", 0, MAX_SEED)
    except NotationError as e:
        assert e.field == "seed" and len(str(e)) <= MESSAGE_MAX
        assert len(digits) > MAX_DIGITS or int(digits) > MAX_SEED
    else:
        assert value == int(digits) <= MAX_SEED


@given(st.integers(min_value=-(10**30), max_value=10**30))
def test_parse_int_reads_exactly_the_numbers_in_range(n: int) -> None:
    if 0 <= n <= 12:
        assert parse_int(str(n), "fu", 0, 12) == n
    else:
        assert "outside 0-12" in refused(parse_int, str(n), "fu", 0, 12)


@pytest.mark.parametrize("text", ["", "-", "+1", " 1", "1 ", "1_000", "0x10", "１２", "٣", "²", "1.0", "1e3"])
def test_parse_int_refuses_what_int_would_bend(text: str) -> None:
    assert refused(parse_int, text, "fu", 0, 12).startswith("fu: expected a whole number")


def test_a_huge_number_is_refused_before_conversion() -> None:
    msg = refused(parse_int, "9" * 100_000, "count", 1, 1000)
    assert "100,000-digit number is too long" in msg


@pytest.mark.parametrize("value", [True, 1.0, "3", None, [3], 2**70])
def test_check_int_takes_only_ints_in_range(value: object) -> None:
    refused(check_int, value, "deals", 1, 2**64)
    assert check_int(5, "deals", 1, 10) == 5


def test_seeds_are_never_negative() -> None:
    assert check_seed(0) == 0 and check_seed(MAX_SEED) == MAX_SEED
    assert "outside" in refused(check_seed, -1)
    assert "outside" in refused(check_seed, MAX_SEED + 1)


# ---------------------------------------------------------------- text


@pytest.mark.parametrize(
    "text,needle",
    [
        ("a\tb", "a tab at column 2"),
        ("ab\n", "a line break at column 3"),
        ("a\x00b", "U+0000"),
        ("a\u202eb", "right-to-left override"),
        ("a\u200bb", "zero width space"),
        ("a\u3000b", "ideographic space"),
        ("a\udcffb", "an undecodable byte 0xff"),
        ("a\ud800b", "a lone surrogate U+D800"),
    ],
)
def test_check_text_names_the_character_and_column(text: str, needle: str) -> None:
    assert needle in refused(check_text, text, "position")


def test_check_text_keeps_printable_text_and_limits_length() -> None:
    assert check_text("C1 Ｃ１ 六虎", "x") == "C1 Ｃ１ 六虎"  # wide characters are text; parsers refuse them
    assert "too long" in refused(check_text, "x" * 10_001, "x")
    assert "a space at column 2" in refused(check_text, "a b", "hand", 100, False)


@given(st.lists(st.text(alphabet="abcC19/,-x", min_size=1, max_size=8), min_size=1, max_size=8))
def test_split_fields_round_trips_single_spaces(fields: list[str]) -> None:
    assert split_fields(" ".join(fields), "position") == fields


@pytest.mark.parametrize("text", ["a  b", " a b", "a b ", "a\tb", "a b\n\n", "a\r\nb", "a b\r", "a b \n"])
def test_split_fields_refuses_every_other_whitespace(text: str) -> None:
    refused(split_fields, text, "position")


def test_a_line_may_end_with_its_line_break() -> None:
    assert split_fields("a b\n", "position") == split_fields("a b\r\n", "position") == ["a", "b"]


def test_names() -> None:
    assert check_name("ann", "players") == "ann"
    for bad in ("", "x" * 65, "a\nb", "\ud800", 7, None):
        refused(check_name, bad, "players")


def test_decode_line() -> None:
    assert decode_line("C1 é".encode()) == "C1 é"
    assert "0xff at byte 3" in refused(decode_line, b"C1\xff", "line")


# ---------------------------------------------------------------- excerpts


@given(st.text(max_size=3000))
def test_an_excerpt_is_short_one_line_and_valid_utf8(text: str) -> None:
    out = excerpt(text)
    assert len(out) <= 150 and "\n" not in out
    out.encode("utf-8")
    if len(text) <= 60 and len(repr(text)) <= 120:
        assert out == repr(text)


def test_excerpt_of_huge_values_is_cheap() -> None:
    deep: list = []
    for _ in range(10_000):
        deep = [deep]
    assert len(excerpt(deep)) < 100
    assert excerpt(10**4000) == "a 4001-digit number"
    assert excerpt(10**50_000) == "a number of about 50,000 digits"
    assert "bytes" in excerpt(b"\xff" * 1000)


# ---------------------------------------------------------------- JSON

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-(10**18), 10**18) | st.text(max_size=10),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3),
    max_leaves=20,
)


@given(json_values)
def test_load_json_agrees_with_json_within_the_limits(value: object) -> None:
    text = json.dumps(value)
    assert json_depth(text) <= MAX_JSON_DEPTH
    assert load_json(text, "record") == json.loads(text)
    assert load_json(text.encode(), "record") == json.loads(text)


@given(st.integers(min_value=1, max_value=200_000), st.sampled_from(["[", '{"a":', '[{"b":']))
def test_any_nesting_is_refused_cleanly(depth: int, opener: str) -> None:
    text = opener * depth
    if json_depth(text) <= MAX_JSON_DEPTH:
        refused(load_json, text, "record")  # unterminated: a syntax error
    else:
        assert "nested more than" in refused(load_json, text, "record")


def test_depth_counts_brackets_outside_strings_only() -> None:
    assert json_depth('{"a": "[[[[", "b": [[1]]}') == 3
    assert json_depth('["\\"[", []]') == 2


@pytest.mark.parametrize(
    "text,needle",
    [
        ('{"seed": ' + "1" * 5000 + "}", "number is too long"),
        ('{"x": 1e999}', "too large"),
        ('{"x": NaN}', "NaN is not a JSON value"),
        ('{"x": -Infinity}', "not a JSON value"),
        ('{"a": 1, "a": 2}', "given twice"),
        ('{"players": ["\\ud800"]}', "lone surrogate"),
        ('{"\\udfff": 1}', "lone surrogate"),
        ("{", "not valid JSON"),
        ("x" * (2 << 20), "too large"),
    ],
)
def test_load_json_refusals(text: str, needle: str) -> None:
    assert needle in refused(load_json, text, "record")


def test_load_json_bytes_must_be_utf8() -> None:
    assert "0xff" in refused(load_json, b'{"a": "\xff"}', "record")


def test_files_are_read_with_a_bound(tmp_path: Path) -> None:
    f = tmp_path / "big.json"
    f.write_bytes(b"[" + b"0," * 1000 + b"0]")
    assert len(read_bounded(f, 5000)) == 2003
    assert "larger than 100 bytes" in refused(read_bounded, f, 100)
    assert "no such file" in refused(read_bounded, tmp_path / "missing.json", 100)
    assert "is a directory" in refused(read_bounded, tmp_path, 100)
    assert load_json_file(f, 5000)[0] == 0
    assert refused(load_json_file, f, 100).startswith(f"file: {f}: larger than")
    (tmp_path / "deep.json").write_text("[" * 50_000)
    assert "nested more than 20 deep" in refused(load_json_file, tmp_path / "deep.json")
