"""A sitting with no terminal: the session and its commands, seats, puzzles, analysis,
settings, save files, instructions, rendering and text.

May import `qubic.core`, `qubic.search` and `qubic.players`.
"""
