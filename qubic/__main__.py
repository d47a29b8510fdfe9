"""`python -m qubic` runs the game."""

import sys

from qubic.cli import main

sys.exit(main())
