#!/usr/bin/env bash
# Install gpucheck into .venv and start it (the desktop app; with no display, the scan and verdicts).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/system-deps.sh run
[ -x .venv/bin/python ] || python3 -m venv .venv
.venv/bin/python -m pip install -q --upgrade pip
.venv/bin/python -m pip install -q -e .
exec .venv/bin/gpucheck "$@"
