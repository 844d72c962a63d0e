#!/usr/bin/env bash
# Make sure .venv exists and holds the locked dependencies and this project (editable); quiet when
# current. Without extras it installs requirements/app.txt, with `test` requirements/test.txt: the
# exact versions, each checked against its hash (tools/lock.sh refreshes them).
# Usage: tools/venv.sh [EXTRAS]      e.g. tools/venv.sh test
set -euo pipefail
cd "$(dirname "$0")/.."
extras=${1:-}
lock="requirements/${extras:-app}.txt"
if [ ! -f "$lock" ]; then
  echo "No lock file $lock (the extras are: test)." >&2
  exit 2
fi
if [ ! -x .venv/bin/python ]; then
  "${PYTHON:-python3}" -m venv .venv
fi
stamp=".venv/.installed${extras:+-$extras}"
if [ ! -f "$stamp" ] || [ pyproject.toml -nt "$stamp" ] || [ "$lock" -nt "$stamp" ]; then
  echo "Installing companion into .venv from $lock (first run only)..." >&2
  .venv/bin/python -m pip install --quiet --upgrade pip
  .venv/bin/python -m pip install --quiet --require-hashes -r "$lock"
  .venv/bin/python -m pip install --quiet --no-deps -e .
  touch "$stamp"
fi
