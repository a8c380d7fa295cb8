#!/usr/bin/env bash
# One prepared run of gpucheck on a machine with a real GPU: the raw driver outputs, `gpucheck scan --json`,
# `gpucheck calibrate`, the verdicts before and after calibrating, and `gpucheck trial` of the built-in jobs.
#
#   OUT=/some/folder bash benchmarks/device_check.sh
#
# Everything lands in $OUT as at most 8 files (written as it goes, so a run cut short keeps what it measured):
#   env.txt (nvidia-smi -q / topo / query, lscpu, memory, disks, library versions), smi-q.xml (nvidia-smi -q -x),
#   scan.json, calibrate.json, check.txt (verdicts uncalibrated, then calibrated), trials.jsonl (one
#   `gpucheck trial --json` object a line, with the job, exit code and wall seconds), kernels.json
#   (benchmarks/measure_gpu_kernels.py: NCHW against channels-last conv steps and their layout kernels, the host's
#   cost per launched kernel, the first GEMMs' workspaces; about a minute), log.txt (stderr).
#
# Each trial gets a calibration folder of its own, so the estimate it prints beside the measurement is the
# uncalibrated model's. The trials enter resources/evidence/ as VALIDATION rows: this role is fixed here,
# before any of them is compared with an estimate (docs/evidence.md, "Roles, and the lock").
#
# Time (NVIDIA H200, 16 cores, 2026-12-04, tests/fixtures/recorded/h200*/log.txt): environment and scan 11-32 s,
# calibrate 100-120 s (30 s of steps: the rest starts PyTorch and builds three probes), then per trial 19-92 s of wall
# time (starting Python and PyTorch, building the model with random weights, the warm-up, 5 s of steps). Three runs
# covered the jobs: h200 (the first eight), h200-b (calibrate with GPU-sized probes, imagenet-resnet50,
# sd15-dreambooth; the 4B and 7B QLoRA stopped while building on the CPU, since fixed) and h200-c (the four LLMs
# built on the GPU, 30-42 s each). Not yet run on a GPU: sdxl-lora.
#
# Environment: GC_PY (the Python that runs gpucheck, default python3), TRIAL_PY (the Python with PyTorch for the
# trials, default GC_PY), TRIAL_SECONDS (timed seconds per trial, default 5), CAL_SECONDS (calibrate, default 30),
# JOBS (space-separated built-in jobs, in order of priority; empty: no trials), KERNELS (0 skips kernels.json),
# NS_CHECK (0 skips env.txt's namespace checks: five
# starts of PyTorch, about 20 s), CALIBRATE (0 skips calibrate and check.txt), DEVICE (auto | cuda | cpu), SITE
# (extra folders for PYTHONPATH, e.g. carried wheels unpacked), WHEELS (a folder of wheels unpacked into a temporary
# site first). The three H200 runs: NS_CHECK=0 SITE=$PWD/.devrun/site WHEELS=$PWD/.devrun/wheels, where .devrun
# holds bitsandbytes, platformdirs and importlib_metadata unpacked and the diffusers wheel (the image lacks them).
set -u
cd "$(dirname "$0")/.."
: "${OUT:?set OUT to the folder the results go to}"
GC_PY=${GC_PY:-python3}
TRIAL_PY=$(command -v "${TRIAL_PY:-$GC_PY}")
TRIAL_SECONDS=${TRIAL_SECONDS:-5}
CAL_SECONDS=${CAL_SECONDS:-30}
DEVICE=${DEVICE:-auto}
JOBS=${JOBS-"mnist-cnn cifar10-resnet18 bert-base-finetune qwen2.5-1.5b-lora gpt2-124m-pretrain resnet50-finetune
  whisper-small-finetune sd15-lora llama3-8b-qlora imagenet-resnet50 gemma3-4b-qlora sdxl-lora qwen2.5-7b-qlora
  llama3-8b-lora sd15-dreambooth"}
export PYTHONUNBUFFERED=1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
if [ -n "${WHEELS:-}" ]; then
  for w in "$WHEELS"/*.whl; do "$GC_PY" -m zipfile -e "$w" "$work/site"; done
  SITE="$work/site${SITE:+:$SITE}"
fi
export PYTHONPATH="${SITE:+$SITE:}$PWD"
log=$OUT/log.txt
gc() { "$GC_PY" -m gpucheck "$@"; }
stamp() { echo "== $(date -u +%FT%TZ) $*" | tee -a "$log"; }

stamp "environment"
{
  for cmd in "nvidia-smi -L" "nvidia-smi" "nvidia-smi -q" "nvidia-smi topo -m" \
    "nvidia-smi --query-gpu=name,pci.bus_id,memory.total,power.limit,power.max_limit,clocks.max.sm,clocks.max.mem,pcie.link.gen.max,pcie.link.width.max,temperature.gpu,driver_version --format=csv" \
    "lscpu" "free -b" "df -B1 /" "lsblk -d -o NAME,ROTA,SIZE,MODEL,TRAN" "uname -a"; do
    echo "### $cmd"; timeout 60 $cmd 2>&1
  done
  echo "### rotational"; grep -H . /sys/block/*/queue/rotational 2>&1
  [ "${NS_CHECK:-1}" = 0 ] || echo "### CUDA from inside namespaces (the trial's network block)"
  [ "${NS_CHECK:-1}" = 0 ] || for ns in "" "--user --map-root-user" "--net" "--user --map-root-user --net" "--user --map-root-user --net --pid --fork --kill-child"; do
    echo "unshare $ns: $(timeout 60 ${ns:+unshare $ns} "$TRIAL_PY" -c 'import torch; print(torch.cuda.is_available())' 2>&1 | tail -1)"
  done
  echo "### libraries"
  "$TRIAL_PY" -c "import torch, sys; print(sys.version); print('torch', torch.__version__, 'cuda', torch.version.cuda,
'cudnn', torch.backends.cudnn.version(), torch.cuda.is_available() and torch.cuda.get_device_name(0))" 2>&1
  "$TRIAL_PY" -m pip list 2>/dev/null | grep -iE "^(torch|torchvision|transformers|peft|accelerate|diffusers|bitsandbytes|nvidia-ml-py|psutil|py-cpuinfo|platformdirs) "
} > "$OUT/env.txt" 2>&1
timeout 60 nvidia-smi -q -x > "$OUT/smi-q.xml" 2>>"$log"

stamp "scan"
timeout 120 "$GC_PY" -m gpucheck scan --json > "$OUT/scan.json" 2>>"$log"
echo "scan rc=$?" | tee -a "$log"

[ "${CALIBRATE:-1}" = 0 ] || {
stamp "calibrate"
GPUCHECK_CALIBRATION_DIR=$work/cal timeout $((CAL_SECONDS + 240)) "$GC_PY" -m gpucheck calibrate --json \
  --max-seconds "$CAL_SECONDS" --device "$DEVICE" --python "$TRIAL_PY" --machine "$OUT/scan.json" \
  > "$OUT/calibrate.json" 2>>"$log"
echo "calibrate rc=$?" | tee -a "$log"
{
  echo "### gpucheck check (uncalibrated)"
  GPUCHECK_CALIBRATION_DIR=$work/none timeout 120 "$GC_PY" -m gpucheck check --machine "$OUT/scan.json" --lang en 2>&1
  echo "### gpucheck check (after gpucheck calibrate)"
  GPUCHECK_CALIBRATION_DIR=$work/cal timeout 120 "$GC_PY" -m gpucheck check --machine "$OUT/scan.json" --lang en 2>&1
} > "$OUT/check.txt"
}

for job in $JOBS; do
  stamp "trial $job"
  t0=$(date +%s%N)
  GPUCHECK_CALIBRATION_DIR=$work/cal-$job timeout $((TRIAL_SECONDS + 200)) "$GC_PY" -m gpucheck trial "$job" --json \
    --max-seconds "$TRIAL_SECONDS" --device "$DEVICE" --python "$TRIAL_PY" --machine "$OUT/scan.json" \
    > "$work/trial.json" 2>>"$log"
  rc=$?
  wall=$(( ($(date +%s%N) - t0) / 1000000 ))
  "$GC_PY" - "$work/trial.json" "$job" "$rc" "$wall" >> "$OUT/trials.jsonl" 2>>"$log" <<'EOF'
import json, sys
path, job, rc, wall = sys.argv[1:5]
try:
    body = json.load(open(path, encoding="utf-8"))
except Exception as e:  # a trial that printed nothing still gets its line
    body = {"unreadable": repr(e)[:300]}
print(json.dumps({"job": job, "rc": int(rc), "wall_seconds": round(int(wall) / 1000, 1), "result": body}))
EOF
  echo "trial $job rc=$rc wall=${wall} ms" | tee -a "$log"
done
[ "${KERNELS:-1}" = 0 ] || {
stamp "kernels"
dev=()
[ "$DEVICE" = auto ] || dev=(--device "$DEVICE")
timeout 300 "$TRIAL_PY" benchmarks/measure_gpu_kernels.py "${dev[@]}" --out "$OUT/kernels.json" > /dev/null 2>>"$log"
echo "kernels rc=$?" | tee -a "$log"
}
stamp "done"
