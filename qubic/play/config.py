"""Your defaults: ~/.config/qubic/config.toml ($XDG_CONFIG_HOME/qubic/config.toml), a few
`key = value` lines in TOML's simple form, read without a TOML library:

    level = "hard"         # any level's name, or auto (the step nearest your rating)
    board = "tall"         # wide or tall
    always-show = true
    colour = false         # or color

Command-line options win over it. As in TOML, a key given twice is refused and a byte-order
mark at the start is allowed; `color` and `colour` are one key. The file is read only if it is
a regular file of at most CONFIG_LIMIT bytes of UTF-8 text (a named pipe is refused, never
waited on). A line it cannot read makes the whole file ignored, said in one line naming the
file and the line, with what was typed quoted short: the game starts with the built-in
defaults.
"""

from __future__ import annotations

import os
from pathlib import Path

from qubic.core.files import FileError, read_text
from qubic.core.inputs import quoted
from qubic.play.rating import AUTO
from qubic.players.levels import LEVELS

KEYS = {"level": (*LEVELS, AUTO), "board": ("wide", "tall"), "always-show": None, "colour": None}
ALIASES = {"color": "colour"}  # the spelling of --no-color and NO_COLOR
CONFIG_LIMIT = 64_000  # bytes: a config file is a few lines
BOM = "\ufeff"
Config = dict[str, str | bool]


class ConfigError(ValueError):
    """A config file that cannot be read; the message names the file and the line."""


def config_path() -> Path:
    base = os.environ.get("XDG_CONFIG_HOME") or os.path.join(os.path.expanduser("~"), ".config")
    return Path(base) / "qubic" / "config.toml"


def load(path: Path) -> Config:
    """The defaults `path` sets (none if it is missing); ConfigError for a file or a line it
    cannot read."""
    if not os.path.lexists(path):
        return {}
    try:
        text = read_text(path, CONFIG_LIMIT)
    except FileError as error:
        raise ConfigError(f"{path}: cannot read it: {error}") from None
    config: Config = {}
    for number, raw in enumerate(text.removeprefix(BOM).splitlines(), start=1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        typed, equals, value = (part.strip() for part in line.partition("="))
        key = ALIASES.get(typed, typed)
        where = f"{path}, line {number}"
        if not equals:
            raise ConfigError(f"{where}: expected key = value, not {quoted(raw)}")
        if key not in KEYS:
            known = ", ".join([*KEYS, *ALIASES])
            raise ConfigError(f"{where}: unknown key {quoted(typed)} (known: {known})")
        if key in config:
            one = "" if typed == key else f" ({typed} and {key} are one key)"
            raise ConfigError(f"{where}: {typed} is given twice{one}")
        choices = KEYS[key]
        if choices is None:
            if value not in ("true", "false"):
                raise ConfigError(f"{where}: {typed} is true or false, not {quoted(value)}")
            config[key] = value == "true"
            continue
        if len(value) < 2 or value[0] != value[-1] or value[0] not in "\"'":
            raise ConfigError(f"{where}: {key} takes a quoted word, such as {choices[0]!r}")
        word = value[1:-1].lower()
        if word not in choices:
            raise ConfigError(f"{where}: {key} is one of {', '.join(choices)}, not {quoted(word)}")
        config[key] = word
    return config
