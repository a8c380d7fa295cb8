#!/usr/bin/env bash
# Install gpucheck with its test dependencies into .venv and run the whole test suite.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/system-deps.sh test
[ -x .venv/bin/python ] || python3 -m venv .venv
.venv/bin/python -m pip install -q --upgrade pip
.venv/bin/python -m pip install -q -e ".[test,build]"
export QT_QPA_PLATFORM=offscreen
exec .venv/bin/python -m pytest "$@"
