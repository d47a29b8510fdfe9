"""Files from outside, read and written safely: one bounded reader and one atomic writer.

`read_text(path, limit)` reads a regular file of at most `limit` bytes as UTF-8 text. It never
waits on a FIFO or a device and never reads more than `limit` + 1 bytes, so a named pipe,
`/dev/zero` or a folder answers at once with one line of our own words.

`write_atomic(path, data)` writes through a temporary file in the same folder: the data is
written and fsynced, the file is put in place by a rename (or, with `exclusive`, by a hard
link that fails if the name is taken, so two writers never both get one name), and the
folder is fsynced, so a crash leaves the old file or the new one, never half of one. The
temporary file is called `.NAME.PID-RANDOM.qubic-tmp`; `clean_stale` removes those that a
killed writer left behind.

Both raise `FileError`, whose message says what went wrong in one line, in lower case and
without Python's words (no `[Errno 2]`), for the caller to put after its own words.
"""

from __future__ import annotations

import errno
import os
import secrets
import stat
import time
from contextlib import suppress
from pathlib import Path

SAVE_LIMIT = 1_000_000  # bytes: saved games (a full 4-D game is some 3 kB) and config files
TEMP_SUFFIX = ".qubic-tmp"
STALE_SECONDS = 3600.0  # a temporary file this old is stale whoever wrote it

# The system's reasons, in our words (the rest: the system's own words, in lower case).
REASONS = {
    errno.ENOENT: "there is no such file or folder",
    errno.EACCES: "permission denied",
    errno.EPERM: "permission denied",
    errno.EISDIR: "it is a folder",
    errno.ENOTDIR: "a part of the path is not a folder",
    errno.ELOOP: "too many symbolic links",
    errno.ENAMETOOLONG: "the name is too long",
    errno.ENOSPC: "the disk is full",
    errno.EDQUOT: "the disk quota is used up",
    errno.EROFS: "the file system is read-only",
    errno.EEXIST: "the name is taken",
    errno.ENXIO: "it is not a regular file",
}


class FileError(Exception):
    """A file that cannot be read or written; the message says why, in one line."""


class NameTaken(FileError):
    """An exclusive write found its name taken (by a file, a folder or a link)."""


def reason(error: OSError) -> str:
    """An OSError in our words: one line, lower case, no error number."""
    if error.errno in REASONS:
        return REASONS[error.errno]
    words = error.strerror or type(error).__name__
    return " ".join(words.split()).lower()


def size_words(limit: int) -> str:
    """`limit` bytes for people: 1 MB, 64 kB, 100 bytes."""
    if limit >= 1_000_000 and limit % 1_000_000 == 0:
        return f"{limit // 1_000_000} MB"
    if limit >= 1000 and limit % 1000 == 0:
        return f"{limit // 1000} kB"
    return f"{limit} bytes"


def kind_words(mode: int) -> str:
    """What a file that is not a regular file is, for the refusal."""
    if stat.S_ISDIR(mode):
        return "it is a folder"
    if stat.S_ISFIFO(mode):
        return "it is a named pipe (FIFO), not a regular file"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "it is a device, not a regular file"
    if stat.S_ISSOCK(mode):
        return "it is a socket, not a regular file"
    return "it is not a regular file"


def read_bytes(path: str | os.PathLike[str], limit: int) -> bytes:
    """The bytes of the regular file at `path` (a symbolic link is followed), at most `limit`;
    FileError if it is missing, unreadable, not a regular file or larger than `limit`."""
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0)
    try:
        mode = os.stat(path).st_mode  # a device is refused before it is opened
        if not stat.S_ISREG(mode):
            raise FileError(kind_words(mode))
        # O_NONBLOCK: opening a FIFO with no writer returns at once instead of waiting.
        handle = os.open(path, flags)
    except OSError as error:
        raise FileError(reason(error)) from None
    try:
        mode = os.fstat(handle).st_mode
        if not stat.S_ISREG(mode):
            raise FileError(kind_words(mode))
        chunks, left = [], limit + 1
        while left > 0:
            chunk = os.read(handle, min(left, 1 << 16))
            if not chunk:
                break
            chunks.append(chunk)
            left -= len(chunk)
    except OSError as error:
        raise FileError(reason(error)) from None
    finally:
        os.close(handle)
    data = b"".join(chunks)
    if len(data) > limit:
        raise FileError(f"it is larger than {size_words(limit)}")
    return data


def read_text(path: str | os.PathLike[str], limit: int = SAVE_LIMIT) -> str:
    """The UTF-8 text of the regular file at `path`, at most `limit` bytes; FileError (one
    line) if it is missing, unreadable, not a regular file, too large or not UTF-8 text."""
    data = read_bytes(path, limit)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise FileError("it is not UTF-8 text") from None


def is_our_temporary(name: str) -> bool:
    """Whether `name` is one of write_atomic's temporary files."""
    return name.startswith(".") and name.endswith(TEMP_SUFFIX)


def temporary_name(target: str) -> str:
    """A fresh temporary file name for writing `target` (a bare name)."""
    return f".{target[:100]}.{os.getpid()}-{secrets.token_hex(4)}{TEMP_SUFFIX}"


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:
        return True  # it exists (another user's): not ours to judge
    return True


def clean_stale(folder: str | os.PathLike[str]) -> int:
    """Remove the temporary files of write_atomic in `folder` that a killed writer left:
    those whose process is gone (and older than a minute), or older than an hour. The number
    removed; nothing else is touched, and an error only leaves a file where it was."""
    removed = 0
    now = time.time()
    with suppress(OSError), os.scandir(folder) as entries:
        for entry in entries:
            if not is_our_temporary(entry.name):
                continue
            with suppress(OSError, ValueError):
                info = entry.stat(follow_symlinks=False)
                if not stat.S_ISREG(info.st_mode):
                    continue
                pid = int(entry.name[: -len(TEMP_SUFFIX)].rsplit(".", 1)[1].split("-")[0])
                age = now - info.st_mtime
                if age > STALE_SECONDS or (age > 60 and not _alive(pid)):
                    os.unlink(entry.path)
                    removed += 1
    return removed


def fsync_folder(folder: str | os.PathLike[str]) -> None:
    """Make a rename or link in `folder` durable (where the system allows it)."""
    with suppress(OSError):
        handle = os.open(folder, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
        try:
            os.fsync(handle)
        finally:
            os.close(handle)


def write_atomic(
    path: str | os.PathLike[str],
    data: bytes | str,
    *,
    exclusive: bool = False,
    mode: int | None = None,
) -> None:
    """Write `data` (text is written as UTF-8) to `path` all at once: through a temporary
    file in the same folder, fsynced, put in place, and the folder fsynced.

    With `exclusive`, the file is put in place by a hard link, which fails with FileError
    (NameTaken) if anything, even a dangling link, has the name: two writers never
    both get it. Without, it replaces what is at `path`; a symbolic link there is followed,
    so the file it points to is replaced and the link stays. The new file gets `mode`, else
    the mode of the file it replaces, else what the umask leaves of 0o666. FileError if it
    cannot be written; nothing is left behind then."""
    target = Path(path)
    if not exclusive and target.is_symlink():
        target = Path(os.path.realpath(target))
    folder = target.parent
    if mode is None and not exclusive:
        with suppress(OSError):
            mode = stat.S_IMODE(os.stat(target).st_mode)
    payload = data.encode("utf-8") if isinstance(data, str) else data
    temporary = folder / temporary_name(target.name)
    try:
        handle = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
    except OSError as error:
        raise FileError(reason(error)) from None
    placed = False
    try:
        _write_all(handle, payload, mode)
        if exclusive:
            _link(temporary, target, payload, mode)
        else:
            os.replace(temporary, target)
            placed = True
        fsync_folder(folder)
    except OSError as error:
        raise FileError(reason(error)) from None
    finally:
        if not placed:
            with suppress(OSError):
                os.unlink(temporary)


def _link(temporary: Path, target: Path, payload: bytes, mode: int | None) -> None:
    """Put `temporary` in place at `target` if nothing has that name; where the file system
    has no hard links, create `target` exclusively and write it again there."""
    try:
        os.link(temporary, target, follow_symlinks=False)
        return
    except FileExistsError:
        raise NameTaken("the name is taken") from None
    except OSError as error:
        if error.errno not in (errno.EPERM, errno.ENOTSUP, errno.EOPNOTSUPP, errno.ENOSYS):
            raise
    try:
        handle = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
    except FileExistsError:
        raise NameTaken("the name is taken") from None
    _write_all(handle, payload, mode)


def _write_all(handle: int, payload: bytes, mode: int | None) -> None:
    """Write `payload` to the open file `handle`, give it `mode` if any, fsync and close it."""
    try:
        if mode is not None:
            os.fchmod(handle, mode)
        view = memoryview(payload)
        while view:
            view = view[os.write(handle, view) :]
        os.fsync(handle)
    finally:
        os.close(handle)
