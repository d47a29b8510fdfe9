"""`python -m qubic` runs the game."""

import sys

from qubic.ui.cli import main

sys.exit(main())
