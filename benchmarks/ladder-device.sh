#!/bin/sh
# The ladder's published run, on the 16-core machine: about 5 minutes (3,615 games in 5.2 at
# 2cb5ab6), never more than 6. It plays 48 games a neighbouring pair (24 a pair one step
# further, 12 every other pair within 400 Elo) in rounds, starts no game after 5 minutes,
# rates what was played, and leaves in $OUT (or here):
#   ladder.txt          the result file: copy it to qubic/players/ladder.txt and commit it
#   ladder-report.md    the cross table, ratings, move times and docs/levels.md's table
#   ladder-games.txt    one line a game; given back as --record, a cut-off run goes on
# It needs no package beyond the standard library: without .venv, python3 runs it from here.
set -e
cd "$(dirname "$0")/.."
dir="${OUT:-.}"
python="${PYTHON:-.venv/bin/python}"
[ -x "$python" ] || python=python3
PYTHONPATH="$PWD" "$python" benchmarks/ladder.py --jobs 16 --games 48 --minutes 5 \
    --record "$dir/ladder-games.txt" --out "$dir/ladder.txt" >"$dir/ladder-report.md"
