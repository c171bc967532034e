"""The safe-write helper: atomic, never over a file it was not asked to replace, never over a
link, directory or special file, nothing left behind on failure, errors naming the user's path."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from lukfu_solver import safe_write
from lukfu_solver.errors import NotationError
from lukfu_solver.safe_write import check_target, write_atomic


def listing(d: Path) -> list[str]:
    """The names in a directory, sorted."""
    return sorted(os.listdir(d))


def test_a_new_file_is_written_with_ordinary_permissions(tmp_path: Path) -> None:
    target = tmp_path / "out.json"
    assert write_atomic(target, "hello\n") == target
    assert target.read_text() == "hello\n" and listing(tmp_path) == ["out.json"]
    umask = os.umask(0o022)
    os.umask(umask)
    assert stat.S_IMODE(target.stat().st_mode) == 0o666 & ~umask


def test_an_existing_file_is_kept_unless_overwrite(tmp_path: Path) -> None:
    target = tmp_path / "out.json"
    target.write_text("mine")
    target.chmod(0o600)
    with pytest.raises(NotationError, match=r"out\.json already exists; use --force$"):
        write_atomic(target, "new", hint="use --force")
    with pytest.raises(NotationError, match=r"out\.json already exists; refusing to overwrite it$"):
        write_atomic(target, "new")
    assert target.read_text() == "mine"
    write_atomic(target, b"new", overwrite=True)
    assert target.read_text() == "new" and stat.S_IMODE(target.stat().st_mode) == 0o600
    assert listing(tmp_path) == ["out.json"]


def test_text_that_is_not_utf8_is_never_written(tmp_path: Path) -> None:
    with pytest.raises(NotationError, match=r"out\.json: the text holds U\+DCFF, not a character"):
        write_atomic(tmp_path / "out.json", "ann\udcff")
    assert listing(tmp_path) == []


def test_the_users_own_tmp_file_is_untouched(tmp_path: Path) -> None:
    (tmp_path / "out.json.tmp").write_text("precious")
    write_atomic(tmp_path / "out.json", "x")
    assert (tmp_path / "out.json.tmp").read_text() == "precious"
    assert listing(tmp_path) == ["out.json", "out.json.tmp"]


@pytest.mark.parametrize("overwrite", [False, True])
def test_links_directories_and_special_files_are_refused(tmp_path: Path, overwrite: bool) -> None:
    real = tmp_path / "real.txt"
    real.write_text("real")
    (tmp_path / "link").symlink_to(real)
    (tmp_path / "dangling").symlink_to(tmp_path / "nowhere")
    os.mkfifo(tmp_path / "fifo")
    (tmp_path / "dir").mkdir()
    cases = {"link": "symbolic link", "dangling": "symbolic link", "fifo": "special file", "dir": "is a directory"}
    for name, needle in cases.items():
        with pytest.raises(NotationError, match=needle):
            write_atomic(tmp_path / name, "x", overwrite=overwrite)
        with pytest.raises(NotationError, match=needle):
            check_target(tmp_path / name, overwrite=overwrite)
    assert real.read_text() == "real" and not (tmp_path / "nowhere").exists()
    assert stat.S_ISFIFO(os.lstat(tmp_path / "fifo").st_mode)
    assert listing(tmp_path) == ["dangling", "dir", "fifo", "link", "real.txt"]


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="no /dev/full")
def test_a_device_is_never_replaced() -> None:
    with pytest.raises(NotationError, match=r"^out: /dev/full is a special file"):
        write_atomic("/dev/full", "x", overwrite=True, field="out")
    assert stat.S_ISCHR(os.stat("/dev/full").st_mode)


def test_a_missing_directory_names_the_path_as_given(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    with pytest.raises(NotationError, match=r"^record: nodir/game\.json: the directory nodir does not exist$"):
        write_atomic("nodir/game.json", "x", field="record")
    with pytest.raises(NotationError, match=r"^record: nodir/game\.json: the directory"):
        check_target("nodir/game.json", field="record")
    assert listing(tmp_path) == []


def test_a_failed_write_leaves_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def full(fd: int) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(safe_write.os, "fsync", full)
    with pytest.raises(NotationError, match=r"out\.json: cannot write \(No space left on device\)"):
        write_atomic(tmp_path / "out.json", "x")
    assert listing(tmp_path) == []


def test_a_file_that_appears_while_writing_is_kept(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    target = tmp_path / "out.json"
    real_fsync = os.fsync

    def racing(fd: int) -> None:
        real_fsync(fd)
        target.write_text("theirs")

    monkeypatch.setattr(safe_write.os, "fsync", racing)
    with pytest.raises(NotationError, match="already exists"):
        write_atomic(target, "mine")
    assert target.read_text() == "theirs" and listing(tmp_path) == ["out.json"]


def test_a_link_that_appears_while_writing_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    target = tmp_path / "out.json"
    victim = tmp_path / "victim"
    victim.write_text("keep")
    target.write_text("old")
    real_fsync = os.fsync

    def racing(fd: int) -> None:
        real_fsync(fd)
        target.unlink()
        target.symlink_to(victim)

    monkeypatch.setattr(safe_write.os, "fsync", racing)
    with pytest.raises(NotationError, match="symbolic link"):
        write_atomic(target, "mine", overwrite=True)
    assert victim.read_text() == "keep" and target.is_symlink()
    assert listing(tmp_path) == ["out.json", "victim"]


def test_without_hard_links_the_last_check_still_holds(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def no_link(src: str, dst: object) -> None:
        raise OSError(1, "Operation not permitted")

    monkeypatch.setattr(safe_write.os, "link", no_link)
    write_atomic(tmp_path / "a.json", "x")
    assert (tmp_path / "a.json").read_text() == "x" and listing(tmp_path) == ["a.json"]


def test_check_target_probes_and_leaves_nothing(tmp_path: Path) -> None:
    assert check_target(tmp_path / "new.json") == tmp_path / "new.json"
    assert listing(tmp_path) == []
    (tmp_path / "old.json").write_text("x")
    with pytest.raises(NotationError, match="already exists"):
        check_target(tmp_path / "old.json")
    check_target(tmp_path / "old.json", overwrite=True)
    assert listing(tmp_path) == ["old.json"]


def test_a_read_only_directory_fails_the_check(tmp_path: Path) -> None:
    """A directory the user cannot write in: a read-only one, or for root (who writes anywhere
    else) sysfs, which refuses new files to everyone."""
    ro = Path("/sys") if os.geteuid() == 0 else tmp_path / "ro"
    if ro != Path("/sys"):
        ro.mkdir()
        ro.chmod(0o500)
    try:
        with pytest.raises(NotationError, match="cannot write in"):
            check_target(ro / "x.json")
    finally:
        if ro != Path("/sys"):
            ro.chmod(0o700)
