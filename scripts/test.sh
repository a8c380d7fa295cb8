#!/usr/bin/env bash
# Install gpucheck with its test dependencies into .venv and run the whole test suite.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/system-deps.sh test
[ -x .venv/bin/python ] || python3 -m venv .venv
.venv/bin/python -m pip install -q --upgrade pip
.venv/bin/python -m pip install -q -e ".[test,build]"
# The trial tests need a Python with PyTorch beside the app's own (see scripts/trial-venv.sh);
# GPUCHECK_SKIP_TRIAL_VENV=1 skips it (those tests then skip, saying why).
if [ "${GPUCHECK_SKIP_TRIAL_VENV:-0}" != 1 ]; then
  GPUCHECK_TRIAL_TEST_PYTHON=$(bash scripts/trial-venv.sh | tail -n 1)
  export GPUCHECK_TRIAL_TEST_PYTHON
fi
export QT_QPA_PLATFORM=offscreen
exec .venv/bin/python -m pytest "$@"
