#!/bin/sh
# The ladder's published run, on the 16-core machine: about 5 minutes (estimated from this
# machine: some 4,650 seconds of processor time), never more than 7. It plays 48 games a
# neighbouring pair (24 a pair one step further, 12 every other pair within 400 Elo) in rounds,
# starts no game after 6 minutes, rates what was played, and leaves in $OUT (or here):
#   ladder.txt          the result file: copy it to qubic/players/ladder.txt and commit it
#   ladder-report.md    the cross table, ratings, move times and docs/levels.md's table
#   ladder-games.txt    one line a game; given back as --record, a cut-off run goes on
# It needs no package beyond the standard library: without .venv, python3 runs it from here.
set -e
cd "$(dirname "$0")/.."
dir="${OUT:-.}"
python="${PYTHON:-.venv/bin/python}"
[ -x "$python" ] || python=python3
PYTHONPATH="$PWD" "$python" benchmarks/ladder.py --jobs 16 --games 48 --minutes 6 \
    --record "$dir/ladder-games.txt" --out "$dir/ladder.txt" >"$dir/ladder-report.md"
