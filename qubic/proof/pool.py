"""Where the proof's work runs, and how it stops and resumes.

`workers` gives a `concurrent.futures` executor: a local process pool whose workers ignore
SIGINT (the parent stops them; a Ctrl-C in a terminal reaches the whole process group) and die
with the parent, or, with a scheduler's address, a Dask cluster's through distributed's
`Client.get_executor()` (the `cluster` extra). `run_tasks` runs a list of tasks through it,
appending each answer at once to a `Journal`, so a run stopped at any point, even by `kill -9`,
loses only the tasks in flight: the next run takes the others' answers from the journal.
"""

from __future__ import annotations

import contextlib
import ctypes
import hashlib
import json
import signal
import threading
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Executor, Future, ProcessPoolExecutor, wait
from pathlib import Path
from typing import Any, NamedTuple, TextIO, TypeVar

from qubic.core import files
from qubic.proof.progress import Progress

T = TypeVar("T")
R = TypeVar("R")

PR_SET_PDEATHSIG = 1  # prctl(2): the signal a process gets when its parent dies


def _worker_start() -> None:
    """A local worker: SIGINT and SIGTERM are the parent's to handle (a Ctrl-C, or a kill of
    the process group, reaches the workers too); the parent ends it, and it dies with the
    parent, even one killed by SIGKILL."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    with contextlib.suppress(OSError, AttributeError):  # Linux only
        ctypes.CDLL(None).prctl(PR_SET_PDEATHSIG, signal.SIGKILL)


class Workers(NamedTuple):
    """An executor and how many tasks it runs at once."""

    executor: Executor
    size: int


def local_pool(count: int) -> ProcessPoolExecutor:
    return ProcessPoolExecutor(count, initializer=_worker_start)


@contextlib.contextmanager
def workers(count: int, scheduler: str | None = None) -> Iterator[Workers]:
    """`count` local worker processes, or, given a `scheduler` address, the Dask cluster's
    workers (their threads, counted). Left, the local workers are ended at once with any
    task still in flight: a stop's, or a unit the solver no longer needs (its proof came
    another way), which would otherwise hold a worker for minutes."""
    if scheduler:
        try:
            from distributed import Client
        except ImportError as error:
            raise SystemExit(
                "--scheduler needs distributed: pip install -e '.[cluster]'"
            ) from error
        client = Client(scheduler)
        executor = client.get_executor(pure=False)
        try:
            threads = sum(client.nthreads().values())
            yield Workers(executor, max(1, threads))
        except BaseException:
            executor.shutdown(wait=False)  # cancels the tasks sent
            raise
        finally:
            client.close()
        return
    pool = local_pool(count)
    try:
        yield Workers(pool, count)
    finally:
        stop_pool(pool)


def stop_pool(pool: ProcessPoolExecutor) -> None:
    """End a local pool's workers now, with the tasks they run."""
    processes = list((getattr(pool, "_processes", None) or {}).values())
    # The pool's manager thread, finding its workers gone, may fail on futures already
    # cancelled (InvalidStateError, CPython 3.11): the stop is ours, so it stays quiet.
    threading.excepthook = lambda args: None
    pool.shutdown(wait=False, cancel_futures=True)
    for process in processes:
        with contextlib.suppress(Exception):
            process.kill()
    for process in processes:
        with contextlib.suppress(Exception):
            process.join(5)


def stop_on_signals() -> None:
    """SIGINT and SIGTERM raise KeyboardInterrupt in the main process. Installed for SIGINT
    too: a shell starting a command in the background (`... &`) leaves SIGINT ignored, and
    `kill -INT` would then not stop it."""

    def stop(signum: int, frame: object) -> None:
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)


class Stopped(KeyboardInterrupt):
    """A stop whose one line the step has already printed."""


def digest(*parts: object) -> str:
    """A short key for a task: the hash of its inputs' text."""
    text = "\x1f".join(str(part) for part in parts)
    return hashlib.sha256(text.encode()).hexdigest()[:32]


class Journal:
    """Answers of tasks by key, appended to a file (a line each: key, tab, JSON) as each
    arrives; a line cut off by a kill is ignored when read again."""

    def __init__(self, path: Path | None) -> None:
        self.path = path
        self.answers: dict[str, Any] = {}
        self._file: TextIO | None = None
        if path is not None and path.exists():
            for line in path.read_text(encoding="ascii").splitlines():
                key, _, text = line.partition("\t")
                with contextlib.suppress(ValueError):
                    self.answers[key] = json.loads(text)

    def get(self, key: str) -> Any:
        return self.answers.get(key)

    def put(self, key: str, value: Any) -> None:
        self.answers[key] = value
        if self.path is None:
            return
        if self._file is None:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._file = self.path.open("a", encoding="ascii")
        self._file.write(f"{key}\t{json.dumps(value, separators=(',', ':'))}\n")
        self._file.flush()

    def keep(self, key: str) -> None:
        """Rewrite the file with `key`'s answer alone (through a new file: a stop leaves the
        old one or the new one)."""
        self.close()
        value = self.answers[key]
        self.answers = {key: value}
        if self.path is None:
            return
        text = f"{key}\t{json.dumps(value, separators=(',', ':'))}\n"
        files.write_atomic(self.path, text.encode("ascii"))

    def close(self) -> None:
        if self._file is not None:
            self._file.close()
            self._file = None

    def remove(self) -> None:
        self.close()
        if self.path is not None:
            self.path.unlink(missing_ok=True)
        self.answers.clear()


def run_tasks(
    run: Callable[[T], R],
    tasks: Sequence[T],
    keys: Sequence[str],
    journal: Journal,
    encode: Callable[[R], Any],
    decode: Callable[[Any], R],
    executor: Executor | None = None,
    progress: Progress | None = None,
    seconds: Callable[[R], float] = lambda answer: 0.0,
    count: bool = True,
) -> list[R]:
    """`run` on each task, in `executor`'s workers (else here), the answers in the tasks'
    order. A task whose key the journal holds is not run again; every other answer goes to
    the journal as it arrives. `seconds` tells how long a worker took over an answer, for
    the progress's busy share; unless `count`, the tasks are not counted in its parts."""
    answers: dict[int, R] = {}
    for index, key in enumerate(keys):
        known = journal.get(key)
        if known is not None:
            answers[index] = decode(known)
    if progress is not None:
        progress.reused += len(answers)
        if count:
            progress.update(len(answers), len(tasks), skipped=len(answers))
    todo = [index for index in range(len(tasks)) if index not in answers]

    def receive(index: int, answer: R) -> None:
        answers[index] = answer
        journal.put(keys[index], encode(answer))
        if progress is not None:
            progress.busy(seconds(answer))
            if count:
                progress.advance()

    if executor is None:
        for index in todo:
            receive(index, run(tasks[index]))
    else:
        running: dict[Future[R], int] = {executor.submit(run, tasks[i]): i for i in todo}
        try:
            while running:
                done, _ = wait(running, timeout=1.0, return_when=FIRST_COMPLETED)
                for future in done:
                    receive(running.pop(future), future.result())
                if progress is not None:
                    progress.update()
        finally:
            for future in running:
                future.cancel()
    return [answers[index] for index in range(len(tasks))]
