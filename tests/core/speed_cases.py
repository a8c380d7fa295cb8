"""Published training-speed measurements, each with its source and the line it was read from.

Every row is either `calibration` (a factor in resources/factors.toml was set with it) or
`validation` (no factor looked at it). docs/accuracy.md reports the two apart, the validation errors
per family, and leave-one-source-out errors (tests/core/test_speed_accuracy.py).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from gpucheck.catalog import get_workload
from gpucheck.records import ModelSpec, TrainSpec


@dataclass(frozen=True)
class SpeedCase:
    id: str
    what: str
    source: str  # a key of SOURCES
    quote: str  # the published line, as read
    how: str  # how it was read (settings assumed where the source is silent)
    model: ModelSpec
    train: TrainSpec
    gpu: str
    gpus: int
    quantity: str  # samples_per_s | tokens_per_s
    measured: float
    role: str  # calibration | validation
    avg_len: int | None = None  # packed / short samples: tokens per sample

    @property
    def family(self) -> str:
        return self.model.arch


SOURCES = {
    "lambda": "lambdal/deeplearning-benchmark (Lambda Labs GPU benchmarks, NVIDIA DeepLearningExamples PyTorch code "
              "in NGC containers, synthetic data): pytorch/pytorch-train-throughput-{fp16,fp32}.csv (images or "
              "sequences per second) and pytorch-train-bs-{fp16,fp32}.csv (global batch)",
    "dle": "NVIDIA DeepLearningExamples PyTorch/Classification/ConvNets/resnet50v1.5/README.md, training performance "
           "tables (DGX A100 80GB, DGX-1 V100 16GB; DALI, channels-last under AMP)",
    "litgpt": "Lightning-AI/litgpt tutorials/resource-tables.md, 'Time 1k iterations' (A100-SXM4-40GB, Alpaca, "
              "micro-batch as stated, one micro-batch per iteration)",
    "hf-single-gpu": "Hugging Face Transformers docs, 'Efficient Training on a Single GPU' (v4.2x; bert-large-uncased, "
                     "seq 512, V100 16GB, HF Trainer)",
    "shivam": "ShivamShrirao/diffusers examples/dreambooth README, flags table 'Tested on Tesla T4 GPU' (SD 1.x, 512 px, "
              "xformers, latents cached, --with_prior_preservation: 2 images per step)",
    "hf-blog-lora": "huggingface/blog lora.md, 'Using LoRA for Efficient Stable Diffusion Fine-Tuning' (2023)",
    "kohya-827": "kohya-ss/sd-scripts issue #827 (2023-09-20)",
    "nanogpt": "karpathy/nanoGPT README + config/train_gpt2.py (torch.compile, flash attention)",
    "nanogpt-182": "karpathy/nanoGPT issue #182 (akjindal53244, 2023-03-02)",
    "llmc": "karpathy/llm.c scripts/run_gpt2_*.sh headers",
}

BERT_BASE = ModelSpec(arch="transformer", params=109482240, layers=12, hidden=768, heads=12, kv_heads=12, ffn=3072,
                      vocab=30522, gated_mlp=False, eager_attention=True, name="bert-base-uncased")
# DeepLearningExamples' BERT (modeling.py BertSelfAttention) materializes the attention scores (matmul, softmax,
# dropout): eager attention, though its LayerNorm, GELU and optimizer are fused (apex)
BERT_LARGE = ModelSpec(arch="transformer", params=335141888, layers=24, hidden=1024, heads=16, kv_heads=16,
                       ffn=4096, vocab=30522, gated_mlp=False, eager_attention=True, name="bert-large-uncased")
BERT_LARGE_EAGER = dataclasses.replace(BERT_LARGE, vocab=None)  # sequence classification: no MLM head
LLAMA2_7B = ModelSpec(arch="transformer", params=6738415616, layers=32, hidden=4096, heads=32, kv_heads=32,
                      ffn=11008, vocab=32000, name="meta-llama/Llama-2-7b-hf")
LLAMA2_13B = ModelSpec(arch="transformer", params=13015864320, layers=40, hidden=5120, heads=40, kv_heads=40,
                       ffn=13824, vocab=32000, name="meta-llama/Llama-2-13b-hf")
PHI15 = ModelSpec(arch="transformer", params=1418270720, layers=24, hidden=2048, heads=32, kv_heads=32,
                  ffn=8192, vocab=51200, gated_mlp=False, name="microsoft/phi-1_5")


def _gpt2(h: int, layers: int, heads: int, params: float) -> ModelSpec:
    return ModelSpec(arch="transformer", params=params, layers=layers, hidden=h, heads=heads, kv_heads=heads,
                     ffn=4 * h, vocab=50304, tied_embeddings=True, gated_mlp=False, name=f"GPT-2 {params / 1e6:.0f}M")


GPT2_124M = _gpt2(768, 12, 12, 124337664)
GPT2_774M = _gpt2(1280, 36, 20, 774030080)
GPT2_1558M = _gpt2(1600, 48, 25, 1557611200)
RN50 = get_workload("imagenet-resnet50").model
SD15_UNET = dataclasses.replace(get_workload("sd15-dreambooth").model, aux_params=0.0, aux_forward_gflops=0.0)
SD15_LORA = get_workload("sd15-lora").model
SDXL_LORA = get_workload("sdxl-lora").model

# Lambda's GPUs used to set factors (the rest of Lambda's rows are validation)
LAMBDA_CALIBRATION_GPUS = ("a100 80gb", "rtx 3090")
_TASK = {"resnet50": ("ResNet-50", RN50), "bert_base_squad": ("BERT-base SQuAD", BERT_BASE),
         "bert_large_squad": ("BERT-large SQuAD", BERT_LARGE)}


def L(name: str, gpu: str, n: int, prec: str, task: str, batch: int, value: float) -> SpeedCase:  # noqa: N802
    label, model = _TASK[task]
    if task == "resnet50":
        t = TrainSpec(method="full", precision="fp16" if prec == "fp16" else "fp32", optimizer="sgd", batch=batch,
                      image_size=224, stack="fused")
    else:
        t = TrainSpec(method="full", precision="fp16" if prec == "fp16" else "fp32", optimizer="adamw", batch=batch,
                      seq_len=384, stack="fused")
    single = n == 1 and gpu in LAMBDA_CALIBRATION_GPUS
    return SpeedCase(
        id=f"lambda-{task}-{prec}-{n}x-{gpu.replace(' ', '-')}", what=f"{label} training, {prec.upper()}, "
        f"batch {batch} per GPU", source="lambda",
        quote=f"pytorch-train-throughput-{prec}.csv: name_gpu '{name}', num_gpu {n}, {task} {value:g}; "
              f"pytorch-train-bs-{prec}.csv: {task} {batch * n}",
        how="throughput = samples/s of all GPUs; batch per GPU = the bs file's global batch / num_gpu; BERT at "
            "DeepLearningExamples' SQuAD default of 384 tokens; FP32 rows use TF32 where the GPU has it (NGC "
            "containers enable it for matmuls and convolutions)",
        model=model, train=t, gpu=gpu, gpus=n, quantity="samples_per_s", measured=value,
        role="calibration" if single else "validation")


LAMBDA = [
    # generated from the CSV files named in `quote`; one line per (GPU set, precision, task)
    L('LambdaCloud V100 16GB', 'v100 16gb', 1, 'fp16', 'resnet50', 256, 833.0),
    L('LambdaCloud V100 16GB', 'v100 16gb', 1, 'fp16', 'bert_base_squad', 48, 189.0),
    L('LambdaCloud V100 16GB', 'v100 16gb', 1, 'fp16', 'bert_large_squad', 16, 57.0),
    L('RTX 3090', 'rtx 3090', 1, 'fp16', 'resnet50', 448, 905.0),
    L('RTX 3090', 'rtx 3090', 1, 'fp16', 'bert_base_squad', 96, 172.0),
    L('RTX 3090', 'rtx 3090', 1, 'fp16', 'bert_large_squad', 28, 52.0),
    L('LambdaCloud A10', 'a10', 1, 'fp16', 'resnet50', 448, 638.0),
    L('LambdaCloud A10', 'a10', 1, 'fp16', 'bert_base_squad', 80, 135.0),
    L('LambdaCloud A10', 'a10', 1, 'fp16', 'bert_large_squad', 28, 42.0),
    L('LambdaCloud A100 40GB PCIe', 'a100 40gb pcie', 1, 'fp16', 'resnet50', 720, 1396.0),
    L('LambdaCloud A100 40GB PCIe', 'a100 40gb pcie', 1, 'fp16', 'bert_base_squad', 160, 368.0),
    L('LambdaCloud A100 40GB PCIe', 'a100 40gb pcie', 1, 'fp16', 'bert_large_squad', 48, 117.0),
    L('A100 80GB PCIe', 'a100 80gb pcie', 1, 'fp16', 'resnet50', 1280, 1527.0),
    L('A100 80GB PCIe', 'a100 80gb pcie', 1, 'fp16', 'bert_base_squad', 320, 415.0),
    L('A100 80GB PCIe', 'a100 80gb pcie', 1, 'fp16', 'bert_large_squad', 112, 140.0),
    L('A100 80GB SXM4', 'a100 80gb', 1, 'fp16', 'resnet50', 1280, 1582.0),
    L('A100 80GB SXM4', 'a100 80gb', 1, 'fp16', 'bert_base_squad', 320, 443.0),
    L('A100 80GB SXM4', 'a100 80gb', 1, 'fp16', 'bert_large_squad', 112, 152.0),
    L('RTX 6000 Ada', 'rtx 6000 ada', 1, 'fp16', 'resnet50', 928, 1146.0),
    L('RTX 6000 Ada', 'rtx 6000 ada', 1, 'fp16', 'bert_base_squad', 192, 255.0),
    L('RTX 6000 Ada', 'rtx 6000 ada', 1, 'fp16', 'bert_large_squad', 64, 79.0),
    L('RTX A6000', 'rtx a6000', 1, 'fp16', 'resnet50', 928, 916.0),
    L('RTX A6000', 'rtx a6000', 1, 'fp16', 'bert_base_squad', 192, 198.0),
    L('RTX A6000', 'rtx a6000', 1, 'fp16', 'bert_large_squad', 64, 68.0),
    L('RTX 4090', 'rtx 4090', 1, 'fp16', 'resnet50', 448, 1301.0),
    L('RTX 4090', 'rtx 4090', 1, 'fp16', 'bert_base_squad', 96, 297.0),
    L('RTX 4090', 'rtx 4090', 1, 'fp16', 'bert_large_squad', 28, 93.0),
    L('H100 80GB PCIe Gen5', 'h100 pcie', 1, 'fp16', 'resnet50', 1280, 1866.0),
    L('H100 80GB PCIe Gen5', 'h100 pcie', 1, 'fp16', 'bert_base_squad', 320, 567.0),
    L('H100 80GB PCIe Gen5', 'h100 pcie', 1, 'fp16', 'bert_large_squad', 112, 203.0),
    L('H100 80GB SXM5', 'h100 sxm', 1, 'fp16', 'resnet50', 1280, 2616.0),
    L('H100 80GB SXM5', 'h100 sxm', 1, 'fp16', 'bert_base_squad', 320, 812.0),
    L('H100 80GB SXM5', 'h100 sxm', 1, 'fp16', 'bert_large_squad', 112, 301.0),
    L('2x RTX 3090', 'rtx 3090', 2, 'fp16', 'resnet50', 448, 1751.0),
    L('2x RTX 3090', 'rtx 3090', 2, 'fp16', 'bert_base_squad', 96, 327.0),
    L('2x RTX 3090', 'rtx 3090', 2, 'fp16', 'bert_large_squad', 28, 89.0),
    L('2x RTX 4090', 'rtx 4090', 2, 'fp16', 'resnet50', 448, 2468.0),
    L('2x RTX 4090', 'rtx 4090', 2, 'fp16', 'bert_base_squad', 96, 541.0),
    L('2x RTX 4090', 'rtx 4090', 2, 'fp16', 'bert_large_squad', 28, 139.0),
    L('2x RTX A6000', 'rtx a6000', 2, 'fp16', 'resnet50', 928, 1775.0),
    L('2x RTX A6000', 'rtx a6000', 2, 'fp16', 'bert_base_squad', 192, 374.0),
    L('2x RTX A6000', 'rtx a6000', 2, 'fp16', 'bert_large_squad', 64, 118.0),
    L('2x A100 80GB SXM4', 'a100 80gb', 2, 'fp16', 'resnet50', 1280, 3038.0),
    L('2x A100 80GB SXM4', 'a100 80gb', 2, 'fp16', 'bert_base_squad', 320, 815.0),
    L('2x A100 80GB SXM4', 'a100 80gb', 2, 'fp16', 'bert_large_squad', 112, 246.0),
    L('8x A100 80GB SXM4', 'a100 80gb', 8, 'fp16', 'resnet50', 1280, 11439.0),
    L('8x A100 80GB SXM4', 'a100 80gb', 8, 'fp16', 'bert_base_squad', 320, 4273.0),
    L('8x A100 80GB SXM4', 'a100 80gb', 8, 'fp16', 'bert_large_squad', 112, 746.0),
    L('8x H100 80GB SXM5', 'h100 sxm', 8, 'fp16', 'resnet50', 1280, 20728.0),
    L('8x H100 80GB SXM5', 'h100 sxm', 8, 'fp16', 'bert_base_squad', 320, 9176.0),
    L('8x H100 80GB SXM5', 'h100 sxm', 8, 'fp16', 'bert_large_squad', 112, 2167.0),
    L('LambdaCloud 8xV100 16GB', 'v100 16gb', 8, 'fp16', 'resnet50', 256, 6174.0),
    L('LambdaCloud 8xV100 16GB', 'v100 16gb', 8, 'fp16', 'bert_base_squad', 48, 1204.0),
    L('LambdaCloud 8xV100 16GB', 'v100 16gb', 8, 'fp16', 'bert_large_squad', 16, 286.0),
    L('4x H100 80GB PCIe Gen5', 'h100 pcie', 4, 'fp16', 'resnet50', 1280, 7378.0),
    L('4x H100 80GB PCIe Gen5', 'h100 pcie', 4, 'fp16', 'bert_base_squad', 320, 2190.0),
    L('4x H100 80GB PCIe Gen5', 'h100 pcie', 4, 'fp16', 'bert_large_squad', 112, 759.0),
    L('LambdaCloud V100 16GB', 'v100 16gb', 1, 'fp32', 'resnet50', 128, 369.0),
    L('LambdaCloud V100 16GB', 'v100 16gb', 1, 'fp32', 'bert_base_squad', 24, 42.0),
    L('LambdaCloud V100 16GB', 'v100 16gb', 1, 'fp32', 'bert_large_squad', 8, 12.0),
    L('RTX 3090', 'rtx 3090', 1, 'fp32', 'resnet50', 224, 513.0),
    L('RTX 3090', 'rtx 3090', 1, 'fp32', 'bert_base_squad', 48, 85.0),
    L('RTX 3090', 'rtx 3090', 1, 'fp32', 'bert_large_squad', 16, 24.0),
    L('LambdaCloud A10', 'a10', 1, 'fp32', 'resnet50', 224, 349.0),
    L('LambdaCloud A10', 'a10', 1, 'fp32', 'bert_base_squad', 48, 70.0),
    L('LambdaCloud A10', 'a10', 1, 'fp32', 'bert_large_squad', 12, 19.0),
    L('LambdaCloud A100 40GB PCIe', 'a100 40gb pcie', 1, 'fp32', 'resnet50', 360, 882.0),
    L('LambdaCloud A100 40GB PCIe', 'a100 40gb pcie', 1, 'fp32', 'bert_base_squad', 80, 179.0),
    L('LambdaCloud A100 40GB PCIe', 'a100 40gb pcie', 1, 'fp32', 'bert_large_squad', 28, 53.0),
    L('A100 80GB PCIe', 'a100 80gb pcie', 1, 'fp32', 'resnet50', 640, 1014.0),
    L('A100 80GB PCIe', 'a100 80gb pcie', 1, 'fp32', 'bert_base_squad', 172, 224.0),
    L('A100 80GB PCIe', 'a100 80gb pcie', 1, 'fp32', 'bert_large_squad', 64, 70.0),
    L('A100 80GB SXM4', 'a100 80gb', 1, 'fp32', 'resnet50', 640, 1066.0),
    L('A100 80GB SXM4', 'a100 80gb', 1, 'fp32', 'bert_base_squad', 172, 239.0),
    L('A100 80GB SXM4', 'a100 80gb', 1, 'fp32', 'bert_large_squad', 64, 75.0),
    L('RTX 6000 Ada', 'rtx 6000 ada', 1, 'fp32', 'resnet50', 496, 647.0),
    L('RTX 6000 Ada', 'rtx 6000 ada', 1, 'fp32', 'bert_base_squad', 96, 136.0),
    L('RTX 6000 Ada', 'rtx 6000 ada', 1, 'fp32', 'bert_large_squad', 32, 44.0),
    L('RTX A6000', 'rtx a6000', 1, 'fp32', 'resnet50', 496, 514.0),
    L('RTX A6000', 'rtx a6000', 1, 'fp32', 'bert_base_squad', 96, 101.0),
    L('RTX A6000', 'rtx a6000', 1, 'fp32', 'bert_large_squad', 32, 33.0),
    L('RTX 4090', 'rtx 4090', 1, 'fp32', 'resnet50', 224, 721.0),
    L('RTX 4090', 'rtx 4090', 1, 'fp32', 'bert_base_squad', 48, 137.0),
    L('RTX 4090', 'rtx 4090', 1, 'fp32', 'bert_large_squad', 16, 44.0),
    L('H100 80GB PCIe Gen5', 'h100 pcie', 1, 'fp32', 'resnet50', 640, 1197.0),
    L('H100 80GB PCIe Gen5', 'h100 pcie', 1, 'fp32', 'bert_base_squad', 172, 292.0),
    L('H100 80GB PCIe Gen5', 'h100 pcie', 1, 'fp32', 'bert_large_squad', 64, 97.0),
    L('H100 80GB SXM5', 'h100 sxm', 1, 'fp32', 'resnet50', 640, 1753.0),
    L('H100 80GB SXM5', 'h100 sxm', 1, 'fp32', 'bert_base_squad', 172, 408.0),
    L('H100 80GB SXM5', 'h100 sxm', 1, 'fp32', 'bert_large_squad', 64, 141.0),
    L('2x RTX 3090', 'rtx 3090', 2, 'fp32', 'resnet50', 224, 979.0),
    L('2x RTX 3090', 'rtx 3090', 2, 'fp32', 'bert_base_squad', 48, 154.0),
    L('2x RTX 3090', 'rtx 3090', 2, 'fp32', 'bert_large_squad', 16, 38.0),
    L('2x RTX 4090', 'rtx 4090', 2, 'fp32', 'resnet50', 224, 1363.0),
    L('2x RTX 4090', 'rtx 4090', 2, 'fp32', 'bert_base_squad', 48, 232.0),
    L('2x RTX 4090', 'rtx 4090', 2, 'fp32', 'bert_large_squad', 16, 55.0),
    L('2x RTX A6000', 'rtx a6000', 2, 'fp32', 'resnet50', 496, 995.0),
    L('2x RTX A6000', 'rtx a6000', 2, 'fp32', 'bert_base_squad', 96, 179.0),
    L('2x RTX A6000', 'rtx a6000', 2, 'fp32', 'bert_large_squad', 32, 49.0),
    L('2x A100 80GB SXM4', 'a100 80gb', 2, 'fp32', 'resnet50', 640, 2029.0),
    L('2x A100 80GB SXM4', 'a100 80gb', 2, 'fp32', 'bert_base_squad', 172, 411.0),
    L('2x A100 80GB SXM4', 'a100 80gb', 2, 'fp32', 'bert_large_squad', 64, 105.0),
    L('8x A100 80GB SXM4', 'a100 80gb', 8, 'fp32', 'resnet50', 640, 7397.0),
    L('8x A100 80GB SXM4', 'a100 80gb', 8, 'fp32', 'bert_base_squad', 172, 1362.0),
    L('8x A100 80GB SXM4', 'a100 80gb', 8, 'fp32', 'bert_large_squad', 64, 251.0),
    L('8x H100 80GB SXM5', 'h100 sxm', 8, 'fp32', 'resnet50', 640, 13856.0),
    L('8x H100 80GB SXM5', 'h100 sxm', 8, 'fp32', 'bert_base_squad', 172, 3133.0),
    L('8x H100 80GB SXM5', 'h100 sxm', 8, 'fp32', 'bert_large_squad', 64, 1042.0),
    L('LambdaCloud 8xV100 16GB', 'v100 16gb', 8, 'fp32', 'resnet50', 128, 2817.0),
    L('LambdaCloud 8xV100 16GB', 'v100 16gb', 8, 'fp32', 'bert_base_squad', 24, 289.0),
    L('LambdaCloud 8xV100 16GB', 'v100 16gb', 8, 'fp32', 'bert_large_squad', 8, 70.0),
    L('4x H100 80GB PCIe Gen5', 'h100 pcie', 4, 'fp32', 'resnet50', 640, 4719.0),
    L('4x H100 80GB PCIe Gen5', 'h100 pcie', 4, 'fp32', 'bert_base_squad', 172, 1091.0),
    L('4x H100 80GB PCIe Gen5', 'h100 pcie', 4, 'fp32', 'bert_large_squad', 64, 355.0),
]


def _v1v2(case: SpeedCase) -> SpeedCase:
    """The same reading from the csv_v1_v2/ folder (where Lambda keeps its B200 rows)."""
    return dataclasses.replace(case, id=case.id.replace("lambda-", "lambda-v1v2-"),
                               quote="csv_v1_v2/" + case.quote.replace("; pytorch-", "; csv_v1_v2/pytorch-"))


LAMBDA_B200 = [_v1v2(L('LambdaCloud 1x B200 192GB SXM5', 'b200', 1, prec, task, batch, value)) for prec, task, batch, value in (
    ("fp16", "resnet50", 3328, 3076.0), ("fp16", "bert_base_squad", 768, 1405.0),
    ("fp16", "bert_large_squad", 256, 523.0), ("fp32", "resnet50", 1664, 2967.0),
    ("fp32", "bert_base_squad", 384, 855.0), ("fp32", "bert_large_squad", 128, 281.0))]


def _max_q(case: SpeedCase) -> SpeedCase:
    """A laptop row: Lambda's '3080Max-Q' folder is the Max-Q design of the RTX 3080 Laptop GPU (16 GB: the
    run's monitor log shows 15,064 MiB in use), which NVIDIA sells at 80–150 W; the catalog's one entry has no
    sustained clock of its own, so the laptop fallback (factors.toml clocks.fallback_fraction) is what is tested."""
    return dataclasses.replace(case, how=case.how + "; a laptop GPU: the Max-Q design, one entry in the catalog "
                                                    "for every power limit")


def R(folder: str, gpu: str, prec: str, batch: int, value: float, date: str, runs: list[float]) -> SpeedCase:  # noqa: N802
    """A ResNet-50 row read from Lambda's raw logs (pytorch/results/<folder>/PyTorch_resnet50_<prec>/*.txt):
    the median of the runs' 'Summary: … train.total_ips' lines; the batch from the logged command line."""
    t = TrainSpec(method="full", precision="fp16" if prec == "AMP" else "fp32", optimizer="sgd", batch=batch,
                  image_size=224, stack="fused")
    return SpeedCase(
        id=f"lambda-log-resnet50-{prec.lower()}-{gpu.replace(' ', '-')}",
        what=f"ResNet-50 training, {prec}, batch {batch}", source="lambda",
        quote=f"pytorch/results/{folder}/PyTorch_resnet50_{prec}/{date}_*.txt: 'Summary: … train.total_ips : "
              f"{' / '.join(f'{r:g}' for r in runs)} img/s', command line '--batch-size', '{batch}'",
        how="median of the logged runs (one per file); DeepLearningExamples main.py --training-only, synthetic-free "
            "ImageNet loader, AMP via --amp (apex, 2020–2021 NGC containers)",
        model=RN50, train=t, gpu=gpu, gpus=1, quantity="samples_per_s", measured=value, role="validation")


LAMBDA_LOGS = [
    R('1080Ti', 'gtx 1080 ti', 'AMP', 160, 242.0, '03-03-2020', [248.1, 241.96, 227.58]),
    R('1080Ti', 'gtx 1080 ti', 'FP32', 100, 196.2, '03-03-2020', [195.78, 197.06, 196.18]),
    R('2080Ti', 'rtx 2080 ti', 'AMP', 160, 528.7, '23-06-2020', [528.71]),
    R('2080Ti', 'rtx 2080 ti', 'FP32', 100, 275.1, '23-06-2020', [275.1]),
    R('3070', 'rtx 3070', 'AMP', 120, 418.6, '24-03-2021', [418.6]),
    R('3070', 'rtx 3070', 'FP32', 64, 246.2, '24-03-2021', [246.17]),
    R('3080', 'rtx 3080 10gb', 'AMP', 136, 638.8, '28-10-2020', [638.75]),
    R('3080', 'rtx 3080 10gb', 'FP32', 80, 384.7, '28-10-2020', [384.71]),
    R('A4000', 'rtx a4000', 'AMP', 288, 454.5, '26-06-2021', [453.51, 455.51]),
    R('A4000', 'rtx a4000', 'FP32', 152, 255.9, '26-06-2021', [255.93, 255.81]),
    R('A5000', 'rtx a5000', 'AMP', 448, 705.3, '03-06-2021', [705.26]),
    R('A5000', 'rtx a5000', 'FP32', 224, 405.8, '03-06-2021', [405.81]),
    R('A40', 'a40', 'FP32', 496, 390.7, '26-06-2021', [390.65]),  # the AMP run (batch 928) logged no summary
    *[_max_q(R('3080Max-Q', 'rtx 3080 laptop 16gb', prec, batch, value, '20-05-2021', [value]))
      for prec, batch, value in (('AMP', 288, 350.13), ('FP32', 152, 193.06))],
]


def _lit(**k) -> TrainSpec:
    base = dict(method="lora", precision="bf16", optimizer="adamw", batch=1, seq_len=128, lora_rank=8,
                lora_targets="qv", stack="eager")
    base.update(k)
    return TrainSpec(**base)


_LIT_HOW = ("samples/s = micro-batch × 1000 / seconds; the mean Alpaca sample length is not published: 128 tokens "
            "assumed; litgpt's bf16-true keeps weights in bf16 (no autocast casts)")


def _db(**k) -> TrainSpec:
    base = dict(method="full", precision="fp16", optimizer="adamw-8bit", batch=2, image_size=512, stack="eager")
    base.update(k)
    return TrainSpec(**base)


_SHIVAM_HOW = "samples/s = 2 × it/s × train_batch_size (each step holds an instance and a class image)"


def _rn(prec: str, batch: int) -> TrainSpec:
    return TrainSpec(method="full", precision=prec, optimizer="sgd", batch=batch, image_size=224, stack="fused")


def _gpt(batch: int, stack: str, accum: int = 1) -> TrainSpec:
    return TrainSpec(method="full", precision="bf16", optimizer="adamw", batch=batch, seq_len=1024, stack=stack,
                     grad_accum=accum)


OTHER = [
    SpeedCase("litgpt-llama2-7b-lora", "Llama 2 7B LoRA, micro-batch 1", "litgpt",
              "| Llama 2 7B | LoRA | ... | 2.36 min |", _LIT_HOW, LLAMA2_7B, _lit(), "a100 40gb", 1,
              "samples_per_s", 1000 / (2.36 * 60), "validation"),
    SpeedCase("litgpt-llama2-7b-lora-mb2", "Llama 2 7B LoRA, micro-batch 2", "litgpt",
              "| Llama 2 7B | LoRA | micro-batch 2 | 2.52 min |", _LIT_HOW, LLAMA2_7B, _lit(batch=2), "a100 40gb", 1,
              "samples_per_s", 2000 / (2.52 * 60), "validation"),
    SpeedCase("litgpt-llama2-13b-lora", "Llama 2 13B LoRA, micro-batch 1", "litgpt",
              "| Llama 2 13B | LoRA | ... | 3.19 min |", _LIT_HOW, LLAMA2_13B, _lit(), "a100 40gb", 1,
              "samples_per_s", 1000 / (3.19 * 60), "validation"),
    SpeedCase("litgpt-llama2-7b-qlora", "Llama 2 7B QLoRA (nf4-dq), micro-batch 1", "litgpt",
              "| Llama 2 7B | QLoRA nf4-dq | ... | 3.83 min |", _LIT_HOW, LLAMA2_7B, _lit(method="qlora"), "a100 40gb",
              1, "samples_per_s", 1000 / (3.83 * 60), "validation"),
    SpeedCase("litgpt-llama2-13b-qlora", "Llama 2 13B QLoRA (nf4-dq), micro-batch 1", "litgpt",
              "| Llama 2 13B | QLoRA nf4-dq | ... | 6.55 min |", _LIT_HOW, LLAMA2_13B, _lit(method="qlora"),
              "a100 40gb", 1, "samples_per_s", 1000 / (6.55 * 60), "validation"),
    SpeedCase("litgpt-phi15-lora", "phi-1.5 LoRA, micro-batch 1", "litgpt", "| phi-1.5 | LoRA | ... | 1.62 min |",
              _LIT_HOW, PHI15, _lit(), "a100 40gb", 1, "samples_per_s", 1000 / (1.62 * 60), "validation"),
    SpeedCase("litgpt-phi15-lora-mb4", "phi-1.5 LoRA, micro-batch 4", "litgpt",
              "| phi-1.5 | LoRA | micro-batch 4 | 1.70 min |", _LIT_HOW, PHI15, _lit(batch=4), "a100 40gb", 1,
              "samples_per_s", 4000 / (1.70 * 60), "validation"),
    SpeedCase("hf-bert-large-fp32", "bert-large, fp32, batch 4", "hf-single-gpu",
              "'train_samples_per_second': 8.86 (fp32, batch 4)", "as printed by the Trainer", BERT_LARGE_EAGER,
              TrainSpec(method="full", precision="fp32", optimizer="adamw", batch=4, seq_len=512), "v100 16gb", 1,
              "samples_per_s", 8.86, "validation"),
    SpeedCase("hf-bert-large-fp16", "bert-large, fp16, batch 4", "hf-single-gpu",
              "'train_samples_per_second': 18.64 (fp16=True, batch 4)", "as printed by the Trainer", BERT_LARGE_EAGER,
              TrainSpec(method="full", precision="fp16", optimizer="adamw", batch=4, seq_len=512), "v100 16gb", 1,
              "samples_per_s", 18.64, "validation"),
    SpeedCase("hf-bert-large-ckpt", "bert-large, fp32, batch 1 × 4, checkpointing", "hf-single-gpu",
              "'train_samples_per_second': 5.99 (gradient_checkpointing=True, batch 1, accumulation 4)",
              "as printed by the Trainer", BERT_LARGE_EAGER,
              TrainSpec(method="full", precision="fp32", optimizer="adamw", batch=1, grad_accum=4, seq_len=512,
                        grad_checkpointing=True), "v100 16gb", 1, "samples_per_s", 5.99, "validation"),
    SpeedCase("shivam-t4-fp16-ckpt", "SD 1.x DreamBooth, fp16, 8-bit AdamW, checkpointing", "shivam",
              "| fp16 | 8bit adam | gradient checkpointing | 0.93 it/s |", _SHIVAM_HOW, SD15_UNET,
              _db(grad_checkpointing=True), "t4", 1, "samples_per_s", 0.93 * 2, "calibration"),
    SpeedCase("shivam-t4-fp16-ckpt-b2", "SD 1.x DreamBooth, fp16, batch 2, checkpointing", "shivam",
              "| fp16 | train_batch_size 2 | gradient checkpointing | 0.66 it/s |", _SHIVAM_HOW, SD15_UNET,
              _db(grad_checkpointing=True, batch=4), "t4", 1, "samples_per_s", 0.66 * 4, "calibration"),
    SpeedCase("shivam-t4-fp16", "SD 1.x DreamBooth, fp16, no checkpointing", "shivam",
              "| fp16 | 8bit adam | 1.14 it/s |", _SHIVAM_HOW, SD15_UNET, _db(), "t4", 1, "samples_per_s", 1.14 * 2,
              "calibration"),
    SpeedCase("shivam-t4-fp16-b2", "SD 1.x DreamBooth, fp16, batch 2, no checkpointing", "shivam",
              "| fp16 | train_batch_size 2 | 0.82 it/s |", _SHIVAM_HOW, SD15_UNET, _db(batch=4), "t4", 1,
              "samples_per_s", 0.82 * 4, "calibration"),
    SpeedCase("shivam-t4-fp32-ckpt", "SD 1.x DreamBooth, fp32, checkpointing", "shivam",
              "| fp32 | 8bit adam | gradient checkpointing | 0.42 it/s |", _SHIVAM_HOW, SD15_UNET,
              _db(grad_checkpointing=True, precision="fp32"), "t4", 1, "samples_per_s", 0.42 * 2, "validation"),
    SpeedCase("shivam-t4-fp32", "SD 1.x DreamBooth, fp32, no checkpointing", "shivam",
              "| fp32 | 8bit adam | 0.49 it/s |", _SHIVAM_HOW, SD15_UNET, _db(precision="fp32"), "t4", 1,
              "samples_per_s", 0.49 * 2, "validation"),
    SpeedCase("hf-blog-sd15-lora-2080ti", "SD 1.5 LoRA, fp16, batch 1 × 4", "hf-blog-lora",
              "'took about 5 hours in a 2080 Ti GPU' (15,000 steps × batch 1 × accumulation 4)",
              "samples/s = 60,000 / (5 × 3600); the VAE and text encoder run every step", SD15_LORA,
              TrainSpec(method="lora", precision="fp16", optimizer="adamw", batch=1, image_size=512, lora_rank=4,
                        grad_accum=4), "2080 ti", 1, "samples_per_s", 60000 / (5 * 3600), "validation"),
    SpeedCase("kohya-sdxl-lora-3090ti", "SDXL LoRA, bf16, batch 1, 1024 px", "kohya-827", "'1.12 s/it'",
              "RTX 3090 Ti, LoRA dim 32 on U-Net and text encoders, xformers, latents cached", SDXL_LORA,
              TrainSpec(method="lora", precision="bf16", optimizer="adamw", batch=1, image_size=1024, lora_rank=32,
                        cache_embeddings=True), "3090 ti", 1, "samples_per_s", 1 / 1.12, "validation"),
    SpeedCase("dle-rn50-a100-amp", "ResNet-50, 1× A100 80GB, AMP", "dle", "|    1     | 938 img/s  |  2470 img/s |",
              "batch not stated: 256 assumed", RN50, _rn("fp16", 256), "a100 80gb", 1, "samples_per_s", 2470,
              "validation"),
    SpeedCase("dle-rn50-a100-tf32", "ResNet-50, 1× A100 80GB, TF32", "dle", "|    1     | 938 img/s  |  2470 img/s |",
              "batch not stated: 256 assumed", RN50, _rn("fp32", 256), "a100 80gb", 1, "samples_per_s", 938,
              "validation"),
    SpeedCase("dle-rn50-8xa100-amp", "ResNet-50, 8× A100 80GB, AMP", "dle", "|    8     | 7248 img/s | 16621 img/s |",
              "batch not stated: 256 assumed", RN50, _rn("fp16", 256), "a100 80gb", 8, "samples_per_s", 16621,
              "validation"),
    SpeedCase("dle-rn50-8xa100-tf32", "ResNet-50, 8× A100 80GB, TF32", "dle", "|    8     | 7248 img/s | 16621 img/s |",
              "batch not stated: 256 assumed", RN50, _rn("fp32", 256), "a100 80gb", 8, "samples_per_s", 7248,
              "validation"),
    SpeedCase("dle-rn50-v100-amp", "ResNet-50, 1× V100 16GB, AMP", "dle", "|    1     | 367 img/s  |  1200 img/s |",
              "batch not stated: 256 assumed", RN50, _rn("fp16", 256), "v100 16gb", 1, "samples_per_s", 1200,
              "validation"),
    SpeedCase("dle-rn50-v100-fp32", "ResNet-50, 1× V100 16GB, FP32", "dle", "|    1     | 367 img/s  |  1200 img/s |",
              "batch not stated: 112 assumed (fits 16 GB)", RN50, _rn("fp32", 112), "v100 16gb", 1, "samples_per_s",
              367, "validation"),
    SpeedCase("dle-rn50-8xv100-amp", "ResNet-50, 8× V100 16GB, AMP", "dle", "|    8     | 2855 img/s |  8322 img/s |",
              "batch not stated: 256 assumed", RN50, _rn("fp16", 256), "v100 16gb", 8, "samples_per_s", 8322,
              "validation"),
    SpeedCase("nanogpt-124m-8xa100", "GPT-2 124M, 8× A100 40GB, micro-batch 12", "nanogpt",
              "'takes about 4 days' (600k iterations × 491,520 tokens)", "tokens/s = 295e9 / (4 × 86400)",
              GPT2_124M, _gpt(12, "fused", 5), "a100 40gb", 8, "tokens_per_s", 295e9 / (4 * 86400), "validation"),
    SpeedCase("nanogpt-124m-4090", "GPT-2 124M, 1× RTX 4090, micro-batch 12", "nanogpt-182",
              "'on 1x 4090 GPU, I am getting 29% MFU while training GPT-2 124M'",
              "nanoGPT's MFU is against 312 TFLOPS with 6N + 12·L·H·Q·T FLOPs per token → ≈ 106k tokens/s",
              GPT2_124M, _gpt(12, "fused", 40), "4090", 1, "tokens_per_s",
              0.29 * 312e12 / (6 * 123.6e6 + 12 * 12 * 768 * 1024), "validation"),
    SpeedCase("llmc-124m-8xa100", "GPT-2 124M, 8× A100 80GB, llm.c", "llmc",
              "run_gpt2_124M.sh: 'on 8X A100 80GB SXM ($14/hr) steps in ~300ms/iter' (524,288 tokens/step)",
              "micro-batch 64", GPT2_124M, _gpt(64, "handtuned"), "a100 80gb", 8, "tokens_per_s", 524288 / 0.300,
              "calibration"),
    SpeedCase("llmc-774m-8xa100", "GPT-2 774M, 8× A100 80GB, llm.c", "llmc",
              "run_gpt2_774M.sh: 'on 8X A100 80GB SXM ($14/hr) steps in ~1.7s/iter' (524,288 tokens/step)",
              "micro-batch 32", GPT2_774M, _gpt(32, "handtuned", 2), "a100 80gb", 8, "tokens_per_s", 524288 / 1.7,
              "validation"),
    SpeedCase("llmc-1558m-8xh100", "GPT-2 1558M, 8× H100 SXM, llm.c", "llmc",
              "run_gpt2_1558M.sh: 'on 8X H100 80GB SXM ($28/hr) steps in 2.80s/iter' (1,048,576 tokens/step)",
              "micro-batch 16 (the script's -b 16)", GPT2_1558M, _gpt(16, "handtuned", 8), "h100 sxm", 8,
              "tokens_per_s", 1048576 / 2.80, "validation"),
]

CASES: list[SpeedCase] = LAMBDA + LAMBDA_B200 + LAMBDA_LOGS + OTHER
