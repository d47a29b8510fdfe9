"""QUBIC where game-AI people work: OpenSpiel and PettingZoo, faces of our one board.

`qubic.integrations.openspiel` registers the game `python_qubic` with OpenSpiel (the
`openspiel` extra) and offers `QubicBot`, any of our levels as an OpenSpiel bot;
`qubic.integrations.pettingzoo` is an AEC environment (the `pettingzoo` extra). Both keep no
rules of their own: every move, end, winner and score is our `Board`'s. Nothing else in the
package imports these modules, and importing this package imports neither framework.
"""
