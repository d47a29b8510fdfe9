"""The rules: geometry, variants, the board, notation and symmetry. Imports nothing of ours."""
