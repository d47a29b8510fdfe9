import io
import time

import pytest

from qubic.ui.shared import Spinner


def test_a_quick_reply_shows_no_spinner():
    out = io.StringIO()
    with Spinner(out):
        pass
    assert out.getvalue() == ""


@pytest.mark.slow
def test_a_slow_reply_shows_a_spinner_then_erases_it():
    out = io.StringIO()
    with Spinner(out):
        time.sleep(Spinner.DELAY + 0.5)
    text = out.getvalue()
    assert text.startswith("\rTHINKING ")
    assert text.endswith("\r" + " " * len("THINKING |") + "\r")
