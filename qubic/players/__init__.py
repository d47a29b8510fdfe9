"""The machine's levels, each a small strategy over the searches, and their registry.

May import `qubic.core` and `qubic.search`.
"""
