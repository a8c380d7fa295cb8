#!/usr/bin/env bash
# "The user's Python" for the trial tests (tests/core/test_trial_torch.py): a separate virtualenv with
# PyTorch, torchvision, transformers, peft and diffusers, so that gpucheck's own .venv stays free of
# PyTorch like the packaged app. The tests find it through GPUCHECK_TRIAL_TEST_PYTHON (scripts/test.sh
# sets it) or at .venv-trial/. Measured on a 2-core x86_64 CI machine: ~2 min to create (torch and
# torchvision come from the machine's local wheel folder; the rest from PyPI), ~5.7 GB; seconds when
# it is already there.
set -euo pipefail
cd "$(dirname "$0")/.."
venv=${GPUCHECK_TRIAL_VENV:-.venv-trial}
case "$(uname -m)" in
  # torch 2.14.1 + torchvision 0.29.1: the x86_64 pair that import together (PyPI's CUDA build, runs on a CPU)
  x86_64|AMD64) torch_pins=(torch==2.14.1 torchvision==0.29.1) ;;
  # on aarch64 Linux the CPU build of this pair is small (723 MB)
  aarch64|arm64) torch_pins=(torch==2.9.1 torchvision==0.24.1) ;;
  *) torch_pins=(torch torchvision) ;;
esac
[ -x "$venv/bin/python" ] || python3 -m venv "$venv"
"$venv/bin/python" -m pip install -q --upgrade pip
# GPUCHECK_TORCH_INDEX_URL=https://download.pytorch.org/whl/cpu takes PyTorch's CPU-only wheels (~200 MB
# instead of several GB of CUDA wheels) where that index is reachable, e.g. on GitHub's runners.
"$venv/bin/python" -m pip install -q "${torch_pins[@]}" ${GPUCHECK_TORCH_INDEX_URL:+--index-url "$GPUCHECK_TORCH_INDEX_URL"}
"$venv/bin/python" -m pip install -q transformers==5.24.0 peft==0.21.2 accelerate==1.15.0 diffusers==0.42.1
echo "$PWD/$venv/bin/python"
