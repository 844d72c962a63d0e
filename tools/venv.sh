#!/usr/bin/env bash
# Make sure .venv exists and holds this project (editable) with the given extras; quiet when current.
# Usage: tools/venv.sh [EXTRAS]      e.g. tools/venv.sh test
set -euo pipefail
cd "$(dirname "$0")/.."
extras=${1:-}
if [ ! -x .venv/bin/python ]; then
  "${PYTHON:-python3}" -m venv .venv
fi
stamp=".venv/.installed${extras:+-$extras}"
if [ ! -f "$stamp" ] || [ pyproject.toml -nt "$stamp" ]; then
  echo "Installing companion into .venv (first run only)..." >&2
  .venv/bin/python -m pip install --quiet --upgrade pip
  .venv/bin/python -m pip install --quiet -e ".${extras:+[$extras]}"
  touch "$stamp"
fi
