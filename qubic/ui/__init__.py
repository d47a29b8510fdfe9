"""The front ends: the command line, the console, the full screen and the engine protocol.

May import every layer but `qubic.proof`.
"""
