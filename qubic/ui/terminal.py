"""Questions asked in a terminal, with prompt_toolkit: line editing, history, Tab completion
and a bottom toolbar. Apart from `qubic.ui.console`, so that piped input, the engine and the
other commands start without loading prompt_toolkit."""

from __future__ import annotations

import signal
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING

from prompt_toolkit import PromptSession
from prompt_toolkit.application import Application, get_app
from prompt_toolkit.key_binding import KeyBindings, KeyPressEvent
from prompt_toolkit.keys import Keys
from prompt_toolkit.layout import Dimension

from qubic.ui.completion import ContextCompleter
from qubic.ui.console import STOPS, Stopped, TimeUp, TypeAhead
from qubic.ui.shared import dropped_words, seconds_left, split_paste, squeezed

if TYPE_CHECKING:
    from asyncio import TimerHandle


class MenuRoomPrompt(PromptSession[str]):
    """prompt_toolkit's prompt, but room for the completion menu (8 lines under the question)
    is kept only while the menu is shown, not all the time."""

    def _get_default_buffer_control_height(self) -> Dimension:
        if self.default_buffer.complete_state is None:
            return Dimension()
        return super()._get_default_buffer_control_height()


class TerminalAsker:
    """Asks with prompt_toolkit: line editing, history on the up arrow, Tab completion of
    `words(text so far)`, and a bottom toolbar showing `status()` and the time left. Text typed
    while the machine thought (`typeahead`) starts the next answer."""

    def __init__(
        self,
        status: Callable[[], str],
        words: Callable[[str], tuple[str, ...]],
        colour: bool,
        typeahead: TypeAhead | None = None,
    ) -> None:
        from prompt_toolkit.output import ColorDepth

        self.status = status
        self.typeahead = typeahead
        self.deadline: float | None = None
        self.dropped = ""  # the lines of a paste after its first, which are not answers
        keys = KeyBindings()
        keys.add(Keys.BracketedPaste)(self._paste)
        # Completion comes on Tab only: a menu popping up at every letter leaves blank lines
        # behind it, and a second Tab on its one word would undo the first.
        self.prompt_session: PromptSession[str] = MenuRoomPrompt(
            bottom_toolbar=self._toolbar,
            completer=ContextCompleter(words),
            complete_while_typing=False,
            enable_suspend=True,
            key_bindings=keys,
            color_depth=None if colour else ColorDepth.MONOCHROME,
        )

    def _paste(self, event: KeyPressEvent) -> None:
        """A paste of one line is typed; of several, its first line is the answer, and the
        rest is dropped (and said so), as one question takes one answer."""
        first, enter, self.dropped = split_paste(event.data)
        event.current_buffer.insert_text(first)
        if enter:
            event.current_buffer.validate_and_handle()

    def _toolbar(self) -> str:
        parts = self.status().split(" | ")
        if self.deadline is not None:
            parts.append(seconds_left(self.deadline - time.monotonic()))
        return " " + squeezed(parts, get_app().output.get_size().columns - 1)

    def ask(self, question: str, seconds: float | None = None) -> str:
        signals = QuestionSignals(self.prompt_session.app, seconds)
        self.deadline = None if seconds is None else time.monotonic() + seconds
        default, enter = self.typeahead.take() if self.typeahead else ("", False)
        try:
            with signals.caught():
                answer = self.prompt_session.prompt(
                    question + " ",
                    handle_sigint=False,
                    pre_run=signals.pre_run,
                    default=default,
                    accept_default=enter,
                    refresh_interval=0 if seconds is None else 0.5,
                )
        finally:
            self.deadline = None
        signals.raise_caught()
        if self.dropped:
            print(dropped_words(self.dropped))
            self.dropped = ""
        return answer


class QuestionSignals:
    """One question's signals and time limit, handed to its running prompt.

    prompt_toolkit's own SIGINT handling leaves a window while its event loop is being built or
    torn down, where a KeyboardInterrupt breaks the loop half-made. So SIGINT is caught here:
    handed to the prompt as a typed Ctrl-C once it runs, and raised after. SIGTERM and SIGHUP
    the same way: the prompt ends, and puts the terminal back, first. The time running out
    ends the prompt with TimeUp.
    """

    def __init__(self, app: Application[str], seconds: float | None) -> None:
        self.app = app
        self.seconds = seconds
        self.interrupted: list[int] = []  # the signals caught, in order
        self.timer: list[TimerHandle] = []

    @contextmanager
    def caught(self) -> Iterator[None]:
        """SIGINT and the STOPS (those not ignored) caught meanwhile; the time limit ended."""
        previous = {signal.SIGINT: signal.signal(signal.SIGINT, self._on_signal)}
        for signum in STOPS:
            if signal.getsignal(signum) is not signal.SIG_IGN:
                previous[signum] = signal.signal(signum, self._on_signal)
        try:
            yield
        finally:
            for signum, handler in previous.items():
                signal.signal(signum, handler)
            for handle in self.timer:
                handle.cancel()

    def pre_run(self) -> None:
        """As the prompt starts: a signal caught before it is handed on, the time limit set."""
        if self.interrupted:
            self._forward()
        if self.seconds is not None and self.app.loop is not None:
            self.timer.append(self.app.loop.call_later(max(0.0, self.seconds), self._time_out))

    def raise_caught(self) -> None:
        """After the prompt: Stopped for a STOPS signal caught, else KeyboardInterrupt for a
        SIGINT."""
        for number in self.interrupted:
            if number in STOPS:
                raise Stopped(number)
        if self.interrupted:
            raise KeyboardInterrupt

    def _running(self) -> bool:
        app = self.app
        return app.is_running and app.future is not None and not app.future.done()

    def _forward(self) -> None:
        if not self._running():
            return
        stops = [signum for signum in self.interrupted if signum in STOPS]
        if stops:
            self.app.exit(exception=Stopped(stops[0]))
        else:
            self.app.key_processor.send_sigint()

    def _on_signal(self, signum: int, frame: object) -> None:
        self.interrupted.append(signum)
        if self.app.loop is not None:
            self.app.loop.call_soon_threadsafe(self._forward)

    def _time_out(self) -> None:
        if self._running():
            self.app.exit(exception=TimeUp())
