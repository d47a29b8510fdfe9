"""Your defaults in $XDG_CONFIG_HOME/qubic/config.toml: level, board, always-show, colour;
the command line wins; a bad line is told in one line and the defaults are used. Pipes."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import run_piped

SCRIPT = "no\nyes\nLEVEL\n111\nquit\nno\n"


def config(tmp_path: Path, text: str) -> str:
    folder = tmp_path / "config" / "qubic"
    folder.mkdir(parents=True)
    (folder / "config.toml").write_text(text)
    return str(tmp_path / "config")


@pytest.mark.slow
def test_the_config_sets_defaults_and_the_command_line_wins(tmp_path):
    home = config(tmp_path, '# mine\nlevel = "hard"\nalways-show = true\nboard = "wide"\n')
    result = run_piped("--seed", "1", stdin=SCRIPT, XDG_CONFIG_HOME=home)
    assert result.stderr == "" and "THE MACHINE PLAYS AT LEVEL HARD." in result.stdout
    assert "LEVEL 1          LEVEL 2          LEVEL 3          LEVEL 4" in result.stdout
    result = run_piped("--seed", "1", "--level", "easy", stdin=SCRIPT, XDG_CONFIG_HOME=home)
    assert "THE MACHINE PLAYS AT LEVEL EASY." in result.stdout


def test_a_config_file_with_a_bad_line_is_named_in_one_line_and_ignored(tmp_path):
    home = config(tmp_path, 'level = "hard"\nlevel: expert\n')
    result = run_piped("--seed", "1", stdin=SCRIPT, XDG_CONFIG_HOME=home)
    path = tmp_path / "config" / "qubic" / "config.toml"
    assert result.stderr.splitlines() == [
        f"qubic: ignoring the config file: {path}, line 2: expected key = value, "
        "not 'level: expert'"
    ]
    assert result.returncode == 0 and "THE MACHINE PLAYS AT LEVEL NORMAL." in result.stdout


def test_a_bad_value_names_its_choices(tmp_path):
    home = config(tmp_path, 'level = "grandmaster"\n')
    result = run_piped("--seed", "1", stdin=SCRIPT, XDG_CONFIG_HOME=home)
    assert "line 1: level is one of easy, normal" in result.stderr
    assert "THE MACHINE PLAYS AT LEVEL NORMAL." in result.stdout
