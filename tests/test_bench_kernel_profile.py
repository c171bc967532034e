"""``bench/kernel_profile.py``'s own logic: the positions it is given, gdb's answers turned into
function names, functions into phases of a node, and a clear refusal when its tools are missing."""

from __future__ import annotations

import pytest

from bench import kernel_profile as kp


def test_positions_are_read_by_set_and_default_to_set_c() -> None:
    assert kp.parse_only("b/36:2,25:0,c/5:1,9:0,d/1006:0") == {
        "b": [(36, 2), (25, 0)],
        "c": [(5, 1), (9, 0)],
        "d": [(1006, 0)],
    }
    assert kp.parse_only("7:2") == {"c": [(7, 2)]}


@pytest.mark.parametrize(
    ("text", "fault"), [("z/1:0", "no bench set 'z'"), ("c/5", "'5' is not SEED:CALLER"), ("5:3", "'5:3'")]
)
def test_bad_positions_are_refused_by_name(text: str, fault: str) -> None:
    with pytest.raises(ValueError, match=fault):
        kp.parse_only(text)


def test_bad_positions_exit_2_with_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stop:
        kp.main(["--only", "c/x:1"])
    assert stop.value.code == 2
    assert "--only: 'x:1' is not SEED:CALLER" in capsys.readouterr().err


def test_gdb_answers_name_the_function_without_offset_or_abi_tag() -> None:
    line = "lukfu_solver::search::kernel::state::tt_key[abi:v1][abi:c8tJTIeFCjyCbUFRqqOAK_2f6h0phxApMogijRBAA_3d](Array<long long, 1, C, mutable, aligned>) + 812 in section .text"
    assert kp.symbol_of(line) == "lukfu_solver::search::kernel::state::tt_key"
    assert kp.symbol_of("No symbol matches 0x7fff0000.") == "?"


@pytest.mark.parametrize(
    ("name", "phase"),
    [
        ("lukfu_solver::search::kernel::state::push_to", "keys and push"),
        ("lukfu_solver::search::kernel::discards::ahead_end_lo", "bounds and look-aheads"),
        ("lukfu_solver::search::kernel::layout::can_beat", "bounds and look-aheads"),
        ("lukfu_solver::search::kernel::alphabeta::known_move", "moves and ordering"),
        ("lukfu_solver::search::kernel::alphabeta::search", "node loop (with the inlined table probe)"),
        ("NRT_decref", "numba reference counting calls"),
        ("_PyEval_EvalFrameDefault", "not the kernel (Python, numpy)"),
        ("[Linux]", "the system (Linux: page faults, system calls)"),
    ],
)
def test_functions_fall_into_their_phase(name: str, phase: str) -> None:
    assert kp.phase_of(name) == phase


def test_missing_tools_are_named_and_exit_2(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(kp.shutil, "which", lambda tool: None if tool == "gdb" else f"/usr/bin/{tool}")
    assert kp.main(["--quick"]) == 2
    assert "needs gdb" in capsys.readouterr().err
