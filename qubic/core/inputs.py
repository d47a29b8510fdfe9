"""What comes from outside, read with limits: numbers in ASCII digits, and text quoted short.

Every number a person or a program hands in (options, engine commands, saved games, answers
at the console) is read here: ASCII digits only (not `²`, `٣`, `1_0`, `1e10`, `inf` or a
sign unless the number may be negative), no more than `MAX_DIGITS` of them, within the
caller's limits. A refusal is a `NumberError` whose message is one line in our own words,
quoting the text short, so a 5,000-digit number is never echoed or converted.
"""

from __future__ import annotations

import re

QUOTE_LIMIT = 20  # characters of a person's input quoted back in a message
MAX_DIGITS = 20  # digits a number from outside may have (leading zeros aside)
TEXT_LIMIT = 64  # characters a number's text may have, zeros and spaces included

_WHOLE = re.compile(r"(-?)([0-9]+)")
_DECIMAL = re.compile(r"([0-9]*)(?:\.([0-9]*))?")


class NumberError(ValueError):
    """Text that is not a number within the limits; the message says why in one line."""


def cut(text: str, limit: int) -> str:
    """`text` cut to its first `limit` characters, `...` after it if it was longer."""
    return text if len(text) <= limit else text[:limit] + "..."


def quoted(text: str, limit: int = QUOTE_LIMIT) -> str:
    """`text` (stripped) in quotes, cut to its first `limit` characters and `...` if longer."""
    text = text.strip()
    return repr(text) if len(text) <= limit else repr(text[:limit]) + "..."


def whole(text: str, low: int = 0, high: int = 10**MAX_DIGITS - 1) -> int:
    """The whole number `text` writes (spaces around it ignored), from `low` to `high`: ASCII
    digits, with a `-` before them only where `low` is negative; NumberError otherwise."""
    _short(text)
    match = _WHOLE.fullmatch(text.strip())
    if match is None:
        raise NumberError(f"{quoted(text)} is not a whole number")
    digits = match[2].lstrip("0")
    if match[1] and low >= 0 and digits:
        raise NumberError(f"{quoted(text)} is out of range{_range(low, high)}")
    if len(digits) > MAX_DIGITS:
        raise NumberError(f"{quoted(text)} is too large{_limit(low, high)}")
    number = int(match[1] + (digits or "0"))
    if not low <= number <= high:
        raise NumberError(f"{quoted(text)} is out of range{_range(low, high)}")
    return number


def decimal(text: str, low: float = 0.0, high: float = 10.0**MAX_DIGITS, places: int = 3) -> float:
    """The number `text` writes in ASCII digits with at most one `.` (`30`, `2.5`, `.5`),
    rounded to `places` decimals, from `low` to `high`; NumberError otherwise (exponents,
    signs, `inf` and `nan` included)."""
    _short(text)
    match = _DECIMAL.fullmatch(text.strip())
    if match is None or not (match[1] or match[2]):
        raise NumberError(f"{quoted(text)} is not a number")
    units, fraction = match[1].lstrip("0"), match[2] or ""
    if len(units) > MAX_DIGITS:
        raise NumberError(f"{quoted(text)} is too large{_limit(low, high)}")
    number = round(float(f"{units or '0'}.{fraction or '0'}"), places)
    if not low <= number <= high:
        raise NumberError(f"{quoted(text)} is out of range{_range(low, high)}")
    return number


def _short(text: str) -> None:
    """NumberError for text too long to be read as a number at all."""
    if len(text) > TEXT_LIMIT:
        raise NumberError(f"{quoted(text)} is too long for a number")


def _range(low: float, high: float) -> str:
    """The limits, for the end of a message: `: 1 to 9`, or `: 0 or more`."""
    if high < 10**MAX_DIGITS - 1:
        return f": {_written(low)} to {_written(high)}"
    return f": {_written(low)} or more"


def _limit(low: float, high: float) -> str:
    """How large a number may be, for the end of a message."""
    return _range(low, high) if high < 10**MAX_DIGITS - 1 else f" (at most {MAX_DIGITS} digits)"


def _written(number: float) -> str:
    """A limit as a person writes it: 86400, 0.001, never 8.64e+04."""
    return str(int(number)) if float(number).is_integer() else f"{number:f}".rstrip("0")
