"""Your record: one row per finished game against the machine, in a SQLite database under the
user's data folder ($XDG_DATA_HOME/qubic/record.sqlite3, else
~/.local/share/qubic/record.sqlite3), read by `qubic stats` and by the rating ladder.

    games(id, finished_at, variant, level, first, result, rated, rating, deviation, volatility)

`finished_at` is UTC in ISO 8601 (none for games taken over from the old record.txt);
`variant` is the variant's spec (`qubic size 4 dims 3 target 1 sides 2`; empty for those old
games, which were not told apart by variant); `level` is the level the game started at;
`first` is 1 if the person moved first; `result` is the person's: won, lost or drawn.
`rating`, `deviation` and `volatility` are the person's Glicko-2 rating after the game where
it was rated (`rated` 1), else NULL.

Each game is added in one transaction (`BEGIN IMMEDIATE`, waiting up to BUSY_SECONDS for
other games), so games that end together are all counted. The store is created whole: built
in a temporary file and linked into place. A store that is damaged, unreadable, not a qubic
record or written by a newer qubic is never written over: `Store.open` moves it aside as
`record.bak-<time>` (its journal beside it, if any), says so in `Store.notice`, and starts
a new one. The first store made takes over the old text record (`record.txt`, the counts
per level and side of earlier versions) once, leaving that file as it was.
"""

from __future__ import annotations

import contextlib
import os
import re
import sqlite3
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from urllib.parse import quote

from qubic.core import files
from qubic.core.variant import VariantError, find_variant, parse_spec
from qubic.players.levels import LEVELS

try:
    import fcntl
except ImportError:  # pragma: no cover - not on Unix: opening is not serialised
    fcntl = None  # type: ignore[assignment]

NAME = "record.sqlite3"
OLD_NAME = "record.txt"  # the text record of earlier versions, taken over once
OLD_MAGIC = "qubic-record 1"
SCHEMA_VERSION = 1  # PRAGMA user_version: a store with a higher one is a newer qubic's
APPLICATION_ID = 0x51554243  # PRAGMA application_id: "QUBC", what tells a store is ours
BUSY_SECONDS = 30.0  # how long a game waits for others writing the record at the same time
OLD_LIMIT = 1_000_000  # bytes of record.txt read, at most
OLD_MOST = 100_000  # games in one line of record.txt above which the line is not believed
HEADER = b"SQLite format 3\x00"
RESULTS = ("won", "lost", "drawn")
SIDES = ("first", "second")
ANY_VARIANT = ""  # the variant of games taken over from record.txt: not known
SCHEMA = """
CREATE TABLE games (
    id INTEGER PRIMARY KEY,
    finished_at TEXT,
    variant TEXT NOT NULL,
    level TEXT NOT NULL,
    first INTEGER NOT NULL CHECK (first IN (0, 1)),
    result TEXT NOT NULL CHECK (result IN ('won', 'lost', 'drawn')),
    rated INTEGER NOT NULL DEFAULT 0 CHECK (rated IN (0, 1)),
    rating REAL,
    deviation REAL,
    volatility REAL
);
CREATE INDEX games_rated ON games (rated, id);
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
"""

# (variant spec, level, "first" or "second") -> [won, lost, drawn]
Counts = dict[tuple[str, str, str], list[int]]


class RecordError(Exception):
    """The record cannot be read or written just now (busy, a read-only folder, ...); the
    message says why in one line. A damaged store is not an error: it is set aside."""


@dataclass(frozen=True)
class Rating:
    """A Glicko-2 rating: the rating, its deviation and its volatility."""

    rating: float
    deviation: float
    volatility: float


@dataclass(frozen=True)
class GameRow:
    """One finished game, as `Store.add` takes it: the variant's spec, the level it started
    at, whether the person moved first, the person's result (one of RESULTS), and, if the
    game was rated, the person's rating after it."""

    variant: str
    level: str
    first: bool
    result: str
    rated: bool = False
    rating: Rating | None = None


def data_home() -> Path | None:
    """The user's data folder for qubic: $XDG_DATA_HOME/qubic, else ~/.local/share/qubic.
    A relative XDG_DATA_HOME is ignored, as the XDG specification says. HOME is used only if
    it is an absolute path (unset, the user's entry in the password database); None when
    there is no such home folder, rather than a folder `./~` or `/.local`."""
    base = os.environ.get("XDG_DATA_HOME", "")
    if os.path.isabs(base):
        return Path(base) / "qubic"
    home = os.environ.get("HOME")
    if home is None:
        home = os.path.expanduser("~")  # the password database's, or "~" if none
    if not os.path.isabs(home):
        return None
    return Path(home) / ".local" / "share" / "qubic"


def record_path() -> Path | None:
    """Where the record is kept; None when there is no data folder (see data_home)."""
    home = data_home()
    return None if home is None else home / NAME


NO_HOME = "there is no data folder: neither XDG_DATA_HOME nor HOME is an absolute path"


class Store:
    """The record, open. `Store.open(path)` opens (or creates) it; `add` counts a game;
    `rating`, `ratings` and `counts` read it. `notice` is one line to tell the person, when
    opening set a damaged store aside or could not take over the old record.txt; `kept` is
    where a damaged store went. Use as a context manager, or call `close`. A store may be
    pickled (the full screen's worker gets a copy of the session): the copy connects again
    at its first use."""

    def __init__(self, path: Path, connection: sqlite3.Connection | None) -> None:
        self.path = path
        self.connection = connection
        self.exists = connection is not None  # False: none on disk, read as empty
        self.problem: str | None = None  # what was wrong with a store set aside
        self.kept: Path | None = None  # where that store went
        self.old_trouble: str | None = None  # what was wrong with record.txt, taken over

    @property
    def notice(self) -> str | None:
        """One line on what opening did that the person should know (a damaged store set
        aside, an old record.txt not wholly taken over); None if nothing."""
        said = []
        if self.kept is not None:
            said.append(
                f"your record {self.path} {self.problem}: it is kept as {self.kept.name},"
                " and a new one is started"
            )
        if self.old_trouble is not None:
            old = self.path.with_name(OLD_NAME)
            said.append(f"the old record {old} {self.old_trouble}; it is left as it was")
        return "; ".join(said) or None

    @property
    def game_notice(self) -> str | None:
        """`notice` as the game says it: in capitals, file names as they are."""
        said = []
        if self.kept is not None:
            said.append(
                f"YOUR RECORD {str(self.problem).upper()}: IT IS KEPT AS {self.kept.name},"
                " AND A NEW ONE IS STARTED"
            )
        if self.old_trouble is not None:
            said.append(f"YOUR OLD RECORD {OLD_NAME} {self.old_trouble.upper()}")
        return "; ".join(said) + "." if said else None

    @classmethod
    def open(cls, path: Path, create: bool = True) -> Store:
        """The store at `path`, created (taking over record.txt beside it) if missing. A
        damaged, unreadable, foreign or newer store is moved aside first (see `notice`).
        Without `create`, a missing store (and no record.txt) is read as empty and nothing
        is made on disk. RecordError if it cannot be opened."""
        path = Path(path)
        old = path.with_name(OLD_NAME)
        if not create and not os.path.lexists(path) and not os.path.lexists(old):
            return cls(path, None)
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            reason = files.reason(error)
            raise RecordError(f"cannot make the folder {path.parent}: {reason}") from None
        problem = kept = trouble = None
        with _opening(path):
            problem = _problem(path)
            if problem is not None:
                kept = _set_aside(path)
            if not os.path.lexists(path):
                trouble = _create(path, old, first=not _set_aside_before(path))
        try:
            connection = _connect(path)
        except sqlite3.Error as error:
            raise RecordError(_words(error)) from None
        store = cls(path, connection)
        store.problem, store.kept, store.old_trouble = problem, kept, trouble
        return store

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()

    def close(self) -> None:
        if self.connection is not None:
            self.connection.close()
            self.connection = None

    def __getstate__(self) -> dict[str, object]:
        return {**self.__dict__, "connection": None}

    def add(self, game: GameRow) -> None:
        """Count one finished game, in one transaction; RecordError if it cannot be (the
        record is then as it was)."""
        if game.result not in RESULTS:
            raise ValueError(f"result {game.result!r} is not one of {', '.join(RESULTS)}")
        rating = game.rating if game.rated else None
        row = (
            datetime.now(timezone.utc).isoformat(timespec="seconds").replace("+00:00", "Z"),
            game.variant,
            game.level,
            int(game.first),
            game.result,
            int(game.rated),
            None if rating is None else rating.rating,
            None if rating is None else rating.deviation,
            None if rating is None else rating.volatility,
        )
        connection = self._connection()
        try:
            connection.execute("BEGIN IMMEDIATE")
            try:
                connection.execute(
                    "INSERT INTO games (finished_at, variant, level, first, result, rated,"
                    " rating, deviation, volatility) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    row,
                )
            except BaseException:
                connection.execute("ROLLBACK")
                raise
            connection.execute("COMMIT")
        except sqlite3.Error as error:
            raise RecordError(_words(error)) from None

    def rating(self) -> Rating | None:
        """The person's rating after the latest rated game; None if no game was rated."""
        latest = self.ratings(1)
        return latest[0] if latest else None

    def ratings(self, n: int) -> list[Rating]:
        """The person's ratings after the last `n` rated games, newest first."""
        rows = self._select(
            "SELECT rating, deviation, volatility FROM games WHERE rated = 1"
            " AND rating IS NOT NULL AND deviation IS NOT NULL AND volatility IS NOT NULL"
            " ORDER BY id DESC LIMIT ?",
            (max(0, n),),
        )
        ratings = []
        for values in rows:
            with contextlib.suppress(TypeError, ValueError):
                ratings.append(Rating(*(float(value) for value in values)))
        return ratings

    def counts(self) -> Counts:
        """The games won, lost and drawn per variant, level and side (the person moving
        first or second), for `table`."""
        counts: Counts = {}
        rows = self._select(
            "SELECT variant, level, first, result, COUNT(*) FROM games"
            " GROUP BY variant, level, first, result"
        )
        for variant, level, first, result, number in rows:
            if result not in RESULTS:
                continue
            key = (str(variant), str(level), SIDES[0] if first else SIDES[1])
            counts.setdefault(key, [0, 0, 0])[RESULTS.index(result)] += int(number)
        return counts

    def _connection(self) -> sqlite3.Connection:
        if self.connection is None:
            if not self.exists:
                raise RecordError("the record is not open")
            try:
                self.connection = _connect(self.path)
            except sqlite3.Error as error:
                raise RecordError(_words(error)) from None
        return self.connection

    def _select(self, query: str, parameters: tuple[object, ...] = ()) -> list[tuple]:
        if not self.exists:
            return []
        try:
            return self._connection().execute(query, parameters).fetchall()
        except sqlite3.Error as error:
            raise RecordError(_words(error)) from None


def table(counts: Counts) -> list[str]:
    """The record as a table, for `qubic stats`: a row per variant, level and side."""
    if not counts:
        return ["NO GAMES RECORDED YET."]
    labels = {variant: variant_label(variant) for variant, _, _ in counts}
    width = max(len("VARIANT"), *(len(label) for label in labels.values())) + 2
    lines = [
        f"{'VARIANT':<{width}}{'LEVEL':<10}{'YOU MOVED':<11}{'WON':>5}{'LOST':>6}"
        f"{'DRAWN':>7}{'GAMES':>7}"
    ]
    for (variant, level, side), (won, lost, drawn) in sorted(counts.items(), key=_order):
        lines.append(
            f"{labels[variant]:<{width}}{level.upper():<10}{side.upper():<11}{won:>5}"
            f"{lost:>6}{drawn:>7}{won + lost + drawn:>7}"
        )
    if ANY_VARIANT in labels:
        lines.append("ANY: GAMES COUNTED BY AN EARLIER QUBIC, WHICH DID NOT KEEP VARIANTS APART.")
    return lines


def variant_label(spec: str) -> str:
    """A variant as the table names it: its name, with the settings that differ from the
    named variant's (QUBIC, CUBE3, TESSERACT SIZE 4 ...); ANY for the old record's games."""
    if spec == ANY_VARIANT:
        return "ANY"
    words = spec.split()
    try:
        named = find_variant(words[0])
        variant = parse_spec(words)
    except (VariantError, IndexError, ValueError):
        return " ".join(words[:12]).upper()[:40] or "?"
    if variant == named:
        return named.name.upper()
    settings = variant.spec.split()[1:]
    base = named.spec.split()[1:]
    extra = [
        f"{settings[i]} {settings[i + 1]}"
        for i in range(0, min(len(settings), 8), 2)
        if settings[i : i + 2] != base[i : i + 2]
    ] + [word for word in settings[8:] if word not in base[8:]]
    return " ".join([named.name, *extra]).upper()


def _order(item: tuple[tuple[str, str, str], list[int]]) -> tuple[object, ...]:
    """Variants by label (the old record's last), levels in the levels' own order."""
    (variant, level, side), _ = item
    named = list(LEVELS)
    rank = named.index(level) if level in named else len(named)
    return (variant == ANY_VARIANT, variant_label(variant), rank, level, side)


@contextlib.contextmanager
def _opening(path: Path) -> Iterator[None]:
    """Hold the record's lock file while a store is checked, set aside or created, so two
    games opening it at once never both do it."""
    if fcntl is None:
        yield
        return
    try:
        handle = os.open(path.with_name("record.lock"), os.O_RDWR | os.O_CREAT, 0o666)
    except OSError:
        yield  # a folder we may read but not write: nothing will be created either
        return
    try:
        fcntl.flock(handle, fcntl.LOCK_EX)
        yield
    finally:
        os.close(handle)


COLUMNS = [
    "id",
    "finished_at",
    "variant",
    "level",
    "first",
    "result",
    "rated",
    "rating",
    "deviation",
    "volatility",
]


def _problem(path: Path) -> str | None:
    """What is wrong with the store at `path`, in words to follow its name; None if it is a
    sound store of ours, or missing."""
    try:
        header = _header(path)
    except FileNotFoundError:
        return None
    except files.FileError as error:
        return f"cannot be read ({error})"
    # With a journal beside it, a game stopped in the middle of a commit: SQLite puts the
    # store back as it was when it opens it, so only SQLite's reading of it is judged.
    if not any(os.path.lexists(f"{path}{end}") for end in ("-journal", "-wal")):
        if not header:
            return "is empty"
        if len(header) < 100 or not header.startswith(HEADER):
            return "is damaged (it is not a SQLite database)"
    try:
        connection = _connect(path)
    except sqlite3.Error as error:
        return f"cannot be opened ({_words(error)})"
    try:
        application = connection.execute("PRAGMA application_id").fetchone()[0]
        version = connection.execute("PRAGMA user_version").fetchone()[0]
        if application != APPLICATION_ID:
            return "is not a qubic record"
        if version > SCHEMA_VERSION:
            return (
                f"was written by a newer qubic (version {version}; this one reads {SCHEMA_VERSION})"
            )
        if version < 1:
            return "is damaged (it has no version)"
        check = connection.execute("PRAGMA quick_check").fetchall()
        columns = [row[1] for row in connection.execute("PRAGMA table_info(games)")]
    except sqlite3.Error as error:
        if _damage(error):
            return f"is damaged ({_words(error)})"
        raise RecordError(_words(error)) from None
    finally:
        connection.close()
    if check != [("ok",)]:
        return "is damaged (its integrity check fails)"
    if columns[: len(COLUMNS)] != COLUMNS:
        return "is damaged (it has no games table)"
    return None


def _header(path: Path) -> bytes:
    """The first 100 bytes of the store (its SQLite header); FileNotFoundError if missing,
    FileError if it is not a regular file or cannot be read."""
    if not os.path.lexists(path):
        raise FileNotFoundError(path)
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0)
    try:
        info = os.stat(path)
        if not os.path.isfile(path):
            raise files.FileError(files.kind_words(info.st_mode))
        handle = os.open(path, flags)
    except OSError as error:
        raise files.FileError(files.reason(error)) from None
    try:
        return os.read(handle, 100)
    except OSError as error:
        raise files.FileError(files.reason(error)) from None
    finally:
        os.close(handle)


def _set_aside(path: Path) -> Path:
    """Move the store at `path` (and its journal, if any) to a new `record.bak-<time>`
    beside it, never over another file; RecordError if it cannot be moved."""
    stamp = f"record.bak-{datetime.now():%Y-%m-%d-%H%M%S}"
    count = 1
    while True:
        kept = path.with_name(stamp if count == 1 else f"{stamp}-{count}")
        if not any(os.path.lexists(f"{kept}{end}") for end in ("", "-journal", "-wal", "-shm")):
            break
        count += 1
    try:
        os.rename(path, kept)  # under the lock, to a name checked free
    except OSError as error:
        raise RecordError(
            f"your record {path} is damaged and cannot be moved aside: {files.reason(error)}"
        ) from None
    for end in ("-journal", "-wal", "-shm"):
        with contextlib.suppress(OSError):
            if os.path.lexists(f"{path}{end}"):
                os.rename(f"{path}{end}", f"{kept}{end}")
    files.fsync_folder(path.parent)
    return kept


def _set_aside_before(path: Path) -> bool:
    """Whether a store was ever set aside here (then record.txt was taken over already)."""
    with contextlib.suppress(OSError):
        return any(name.startswith("record.bak-") for name in os.listdir(path.parent))
    return False


def _create(path: Path, old: Path, first: bool) -> str | None:
    """Make a new store at `path`, whole: built in a temporary file, then linked into place.
    The first store takes over `old` (record.txt). What went wrong with `old`, if anything."""
    files.clean_stale(path.parent)
    temporary = path.with_name(files.temporary_name(path.name))
    rows: list[tuple[str, int, str]] = []
    trouble = None
    if first and os.path.lexists(old):
        rows, trouble = _old_rows(old)
    try:
        connection = sqlite3.connect(temporary, isolation_level=None)
        connection.execute("PRAGMA journal_mode = OFF")  # not in place until linked
        connection.execute(f"PRAGMA application_id = {APPLICATION_ID}")
        connection.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
        connection.executescript(SCHEMA)
        connection.execute("BEGIN")
        connection.executemany(
            "INSERT INTO games (finished_at, variant, level, first, result)"
            " VALUES (NULL, ?, ?, ?, ?)",
            [(ANY_VARIANT, level, first_, result) for level, first_, result in rows],
        )
        if rows:
            connection.execute(
                "INSERT INTO meta (key, value) VALUES ('taken-over', ?)",
                (f"{len(rows)} games from {OLD_NAME}",),
            )
        connection.execute("COMMIT")
        connection.close()
        with open(temporary, "rb") as written:
            os.fsync(written.fileno())
        try:
            os.link(temporary, path)
        except FileExistsError:
            pass  # made meanwhile, by a qubic that does not lock: that one is used
        except OSError:
            if not os.path.lexists(path):
                os.rename(temporary, path)
        files.fsync_folder(path.parent)
    except (OSError, sqlite3.Error) as error:
        reason = files.reason(error) if isinstance(error, OSError) else _words(error)
        raise RecordError(f"cannot make the record {path}: {reason}") from None
    finally:
        for end in ("", "-journal"):
            with contextlib.suppress(OSError):
                os.unlink(f"{temporary}{end}")
    return trouble


LEVEL_WORD = re.compile(r"[a-z][a-z0-9-]{0,19}")
COUNT_WORD = re.compile(r"[0-9]{1,9}")


def _old_rows(old: Path) -> tuple[list[tuple[str, int, str]], str | None]:
    """One row (level, first, result) per game the old text record counts, and what was
    wrong with it, if anything. Lines that are not `LEVEL first|second WON LOST DRAWN` with
    ASCII digits are left out (and said)."""
    try:
        text = files.read_text(old, OLD_LIMIT)
    except files.FileError as error:
        return [], f"cannot be read ({error})"
    lines = text.splitlines()
    if not lines or lines[0].strip() != OLD_MAGIC:
        return [], "is not a qubic record, so nothing was taken from it"
    rows: list[tuple[str, int, str]] = []
    skipped = 0
    for line in lines[1:]:
        words = line.split()
        if not words:
            continue
        if (
            len(words) != 5
            or not LEVEL_WORD.fullmatch(words[0])
            or words[1] not in SIDES
            or not all(COUNT_WORD.fullmatch(word) for word in words[2:])
            or sum(int(word) for word in words[2:]) > OLD_MOST
        ):
            skipped += 1
            continue
        first = int(words[1] == SIDES[0])
        for result, word in zip(RESULTS, words[2:]):
            rows += [(words[0], first, result)] * int(word)
    if skipped:
        return rows, f"has {skipped} line{'s' * (skipped > 1)} not understood, left out"
    return rows, None


def _connect(path: Path) -> sqlite3.Connection:
    """A connection to the existing store at `path`, waiting up to BUSY_SECONDS for locks,
    with transactions begun by hand."""
    connection = sqlite3.connect(
        f"file:{_uri_path(path)}?mode=rw", uri=True, timeout=BUSY_SECONDS, isolation_level=None
    )
    return connection


def _uri_path(path: Path) -> str:
    return quote(str(path.absolute()))


def _damage(error: sqlite3.Error) -> bool:
    """Whether `error` says the file is damaged (rather than busy, or read-only)."""
    code = getattr(error, "sqlite_errorcode", None)
    if code is not None:
        return code & 0xFF in (11, 26)  # SQLITE_CORRUPT, SQLITE_NOTADB
    text = str(error)
    return "malformed" in text or "not a database" in text


def _words(error: sqlite3.Error) -> str:
    """A SQLite error in one short line."""
    return " ".join(str(error).split())[:120] or type(error).__name__
