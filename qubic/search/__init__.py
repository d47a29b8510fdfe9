"""Searches over bitboards: threats, setups, defences, the prover, scoring, the strategy book.

May import `qubic.core` only.
"""
