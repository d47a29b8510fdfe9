"""Your defaults: ~/.config/qubic/config.toml ($XDG_CONFIG_HOME/qubic/config.toml), a few
`key = value` lines in TOML's simple form, read without a TOML library:

    level = "hard"         # easy, normal, shrewd, hard, expert, perfect or classic
    board = "tall"         # wide or tall
    always-show = true
    colour = false

Command-line options win over it. A line it cannot read makes the whole file ignored, said
in one line naming the file and the line: the game starts with the built-in defaults.
"""

from __future__ import annotations

import os
from pathlib import Path

from qubic.players.levels import LEVELS

KEYS = {"level": tuple(LEVELS), "board": ("wide", "tall"), "always-show": None, "colour": None}
Config = dict[str, str | bool]


class ConfigError(ValueError):
    """A config file that cannot be read; the message names the file and the line."""


def config_path() -> Path:
    base = os.environ.get("XDG_CONFIG_HOME") or os.path.join(os.path.expanduser("~"), ".config")
    return Path(base) / "qubic" / "config.toml"


def load(path: Path) -> Config:
    """The defaults `path` sets (none if it is missing); ConfigError for a line it cannot
    read."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return {}
    except (OSError, UnicodeDecodeError) as error:
        raise ConfigError(f"{path}: cannot read it: {error}") from None
    config: Config = {}
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        key, equals, value = (part.strip() for part in line.partition("="))
        where = f"{path}, line {number}"
        if not equals:
            raise ConfigError(f"{where}: expected key = value, not {raw.strip()!r}")
        if key not in KEYS:
            raise ConfigError(f"{where}: unknown key {key!r} (known: {', '.join(KEYS)})")
        choices = KEYS[key]
        if choices is None:
            if value not in ("true", "false"):
                raise ConfigError(f"{where}: {key} is true or false, not {value!r}")
            config[key] = value == "true"
            continue
        if len(value) < 2 or value[0] != value[-1] or value[0] not in "\"'":
            raise ConfigError(f"{where}: {key} takes a quoted word, such as {choices[0]!r}")
        word = value[1:-1].lower()
        if word not in choices:
            raise ConfigError(f"{where}: {key} is one of {', '.join(choices)}, not {word!r}")
        config[key] = word
    return config
