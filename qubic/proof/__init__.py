"""The proof's offline tools: the solver, its units and checkpoint, the compiled prover, the
strategy book's writer, the verifier and the opening book's builder.

May import anything; nothing outside this folder imports it.
"""
