"""Tab completion of commands and file names, for the console's prompt and the full screen."""

from __future__ import annotations

from collections.abc import Callable, Iterable

from prompt_toolkit.completion import CompleteEvent, Completer, Completion, PathCompleter
from prompt_toolkit.document import Document

from qubic.play.commands import FILE


class ContextCompleter(Completer):
    """Completes what `words(text before the cursor)` offers, in the case being typed; file
    names where it offers FILE."""

    def __init__(self, words: Callable[[str], tuple[str, ...]]) -> None:
        self.words = words
        self.files = PathCompleter(expanduser=True)

    def get_completions(
        self, document: Document, complete_event: CompleteEvent
    ) -> Iterable[Completion]:
        before = document.text_before_cursor
        words = self.words(before)
        prefix = document.get_word_before_cursor()
        if FILE in words:
            argument = before.split()[-1] if prefix else ""
            yield from self.files.get_completions(Document(argument), complete_event)
            return
        for word in words:
            if word.startswith(prefix.upper()):
                # A lowercase prefix completes in lowercase, so one Tab finishes the word.
                yield Completion(word.lower() if prefix.islower() else word, -len(prefix))
