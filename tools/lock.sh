#!/usr/bin/env bash
# Refresh the lock files that ./start, ./test and CI install from (with hashes, pip --require-hashes):
#   requirements/app.txt    the app (pyproject's dependencies)
#   requirements/test.txt   the app and the test extras (pytest, Playwright, ruff, mypy)
# Run it after changing the dependencies in pyproject.toml; it keeps every pin it can.
# `tools/lock.sh --upgrade` moves every package to its newest version allowed by pyproject.toml
# (`--upgrade-package NAME` one of them). The lock is for Linux x86_64 and Python 3.11, the machines'.
set -euo pipefail
cd "$(dirname "$0")/.."
UV_VERSION=0.13.9
tools=.venv-tools
if [ ! -x "$tools/bin/uv" ] || [ "$("$tools/bin/uv" --version | cut -d' ' -f2)" != "$UV_VERSION" ]; then
  "${PYTHON:-python3}" -m venv "$tools"
  "$tools/bin/python" -m pip install --quiet "uv==$UV_VERSION"
fi
mkdir -p requirements
compile() {  # OUT [EXTRA]
  "$tools/bin/uv" pip compile pyproject.toml ${2:+--extra "$2"} --generate-hashes --quiet \
    --python-version 3.11 --python-platform x86_64-manylinux_2_28 \
    --custom-compile-command "tools/lock.sh" -o "$1" "${@:3}"
}
compile requirements/app.txt "" "$@"
compile requirements/test.txt test "$@"
echo "Locked: requirements/app.txt, requirements/test.txt (commit both)." >&2
