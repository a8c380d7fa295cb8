"""The GPU and workload catalogs: contents, loose GPU names, scanned GPUs, and bad input."""

from __future__ import annotations

import json
from types import SimpleNamespace

import pytest

from gpucheck.catalog import (
    find_gpu,
    get_workload,
    gpu_for,
    load_gpus,
    load_workload_file,
    load_workloads,
    parse_gpus,
    parse_workload,
    read_toml,
    resource_path,
)
from gpucheck.errors import AmbiguousName, BadInput, UnknownName
from gpucheck.machine import Machine
from tests.conftest import FIXTURES

GIB = 1024**3

LADDER = {
    "mnist-cnn", "cifar10-resnet18", "resnet50-finetune", "imagenet-resnet50", "yolov8s-finetune",
    "bert-base-finetune", "whisper-small-finetune", "gpt2-124m-pretrain", "sd15-lora", "sd15-dreambooth",
    "sdxl-lora", "qwen2.5-1.5b-lora", "llama3-8b-qlora", "llama3-8b-lora", "llama3-8b-full",
    "qwen2.5-7b-qlora", "llama3-70b-qlora", "gemma3-4b-qlora",
}


# -- GPUs ---------------------------------------------------------------------------------------------


def test_catalog_covers_at_least_45_gpus_each_with_a_source():
    gpus = load_gpus()
    assert len(gpus) >= 45
    for g in gpus:
        assert g.source and g.as_of, g.id
        assert g.vram_bytes > 0 and g.mem_bandwidth_gbps > 0 and g.tflops_fp32 > 0
        if g.price_usd or g.price_cny:
            assert g.price_source and g.price_as_of, g.id


def test_catalog_spans_the_families_the_product_promises():
    ids = {g.id for g in load_gpus()}
    for needed in ("gtx-1080-ti", "gtx-1660-super", "rtx-2080-ti", "rtx-3060", "rtx-3090", "rtx-4090",
                   "rtx-5090", "rtx-4060-laptop", "rtx-a6000", "rtx-6000-ada", "t4", "v100-16gb", "v100-32gb",
                   "a10", "a10g", "l4", "l40s", "a100-40gb", "a100-80gb", "h100-pcie", "h100-sxm", "h200", "b200",
                   "rx-6800", "rx-7900-xtx", "mi210", "mi250x", "mi300x", "apple-m1", "apple-m2-max",
                   "apple-m3-max", "apple-m4-max", "apple-m2-ultra", "arc-a770"):
        assert needed in ids


def test_geforce_tensor_rate_is_the_fp32_accumulate_half():
    # Ada whitepaper: RTX 4090 330.3 TFLOPS FP16 (FP16 acc), 165.2 with FP32 accumulate.
    assert find_gpu("4090").tflops_bf16_tensor == pytest.approx(165.2)
    # GA102 whitepaper: RTX 3090 142 (FP16 acc) → 71 with FP32 accumulate.
    assert find_gpu("3090").tflops_fp16_tensor == pytest.approx(71.0)
    # Data-center cards are full rate: A100 312 dense.
    assert find_gpu("a100 80gb").tflops_bf16_tensor == pytest.approx(312)


def test_bf16_only_where_the_hardware_has_it():
    assert find_gpu("2080 ti").tflops_bf16_tensor is None  # Turing: fp16 only
    assert find_gpu("v100 16gb").tflops_bf16_tensor is None
    assert find_gpu("1080 ti").tflops_fp16_tensor is None  # Pascal: no tensor cores


@pytest.mark.parametrize("name, gpu_id", [
    ("4090", "rtx-4090"),
    ("RTX 4090", "rtx-4090"),
    ("NVIDIA GeForce RTX 4090", "rtx-4090"),
    ("rtx4090", "rtx-4090"),
    ("a100 80gb", "a100-80gb"),
    ("A100 80GB PCIe", "a100-80gb-pcie"),
    ("h100", "h100-sxm"),
    ("4060 laptop", "rtx-4060-laptop"),
    ("NVIDIA GeForce RTX 4060 Laptop GPU", "rtx-4060-laptop"),
    ("NVIDIA GeForce RTX 3050 Laptop GPU", "rtx-3050-laptop"),  # what NVML reports on budget laptops
    ("NVIDIA GeForce RTX 3050 Ti Laptop GPU", "rtx-3050-ti-laptop"),
    ("3050 ti laptop", "rtx-3050-ti-laptop"),
    ("7900 xtx", "rx-7900-xtx"),
    ("m2 max 96gb", "apple-m2-max-96gb"),
    ("Tesla T4", "t4"),
    ("4070 ti super", "rtx-4070-ti-super"),
    ("4070", "rtx-4070"),
    ("RTX 4090D", "rtx-4090-d"),
    ("3060ti", "rtx-3060-ti"),
    ("Intel(R) Arc(TM) B580 Graphics", "arc-b580"),
    ("NVIDIA A100-SXM4-80GB", "a100-80gb"),
])
def test_find_gpu_matches_loosely(name, gpu_id):
    assert find_gpu(name).id == gpu_id


# Issue 13 ("which GPU did you mean?"): names with a memory size resolve; a name that fits several cards or
# memory sizes lists them and picks none (exit 2 with the list); the common cards the issue named exist.
@pytest.mark.parametrize("name, gpu_id", [
    ("RTX 4060 8GB", "rtx-4060"),  # not the 4060 Ti 8GB
    ("rtx 4070 ti", "rtx-4070-ti"),  # not the Ti SUPER
    ("RTX 3060 12GB", "rtx-3060"),
    ("RTX 3060 8GB", "rtx-3060-8gb"),
    ("RTX 3090 24GB", "rtx-3090"),
    ("3080 10gb", "rtx-3080"),
    ("3080 12gb", "rtx-3080-12gb"),
    ("Apple M1 8GB", "apple-m1-8gb"),
    ("M3 Max 128GB", "apple-m3-max-128gb"),
    ("RTX 5060", "rtx-5060"),
    ("RTX 5060 Ti 8GB", "rtx-5060-ti-8gb"),
    ("RTX PRO 6000 Blackwell", "rtx-pro-6000-blackwell"),
    ("RX 9070 XT", "rx-9070-xt"),
])
def test_names_with_a_memory_size_resolve_to_that_card(name, gpu_id):
    assert find_gpu(name).id == gpu_id


@pytest.mark.parametrize("name, expected", [
    ("a100 pcie", ("A100",)),
    ("rtx", ("RTX 2060", "RTX 4090")),
    ("rtx 3060", ("RTX 3060 (12 GB)", "RTX 3060 8GB")),
    ("4060 ti", ("4060 Ti 16GB", "4060 Ti 8GB")),
    ("m1", ("Apple M1 8GB", "Apple M1 16GB")),
])
def test_an_ambiguous_name_lists_the_candidates_and_picks_none(name, expected):
    with pytest.raises(AmbiguousName) as e:
        find_gpu(name)
    joined = " | ".join(e.value.suggestions)
    assert len(e.value.suggestions) >= 2
    for part in expected:
        assert part in joined


def test_an_ambiguous_gpu_name_exits_2_with_the_list(capsys):
    from gpucheck.cli import main

    assert main(["estimate", "mnist-cnn", "--gpu", "m1"]) == 2
    err = capsys.readouterr().err
    assert "Apple M1 8GB" in err and "Apple M1 16GB" in err and "Traceback" not in err


def test_every_apple_memory_size_is_its_own_choice():
    m1 = find_gpu("Apple M1 8GB")
    big = find_gpu("Apple M1 16GB")
    assert m1.vram_bytes == 8 * 2**30 and big.vram_bytes == 16 * 2**30


def test_unknown_gpu_names_near_matches():
    with pytest.raises(UnknownName) as e:
        find_gpu("RTX 4099")
    assert "4099" in str(e.value)
    assert any("4090" in s for s in e.value.suggestions)


@pytest.mark.parametrize("fixture, gpu_id", [
    ("rtx4090-650w-desktop", "rtx-4090"),
    ("rtx3080-desktop", "rtx-3080"),
    ("a100-mig-server", "a100-80gb"),
    ("h100x8-server", "h100-sxm"),
    ("rx7900xt-desktop", "rx-7900-xt"),
    ("m2max-macbookpro", "apple-m2-max"),
    ("rtx4060-laptop-wsl2", "rtx-4060-laptop"),
    ("gtx1660-laptop", "gtx-1660-ti"),
])
def test_scanned_gpus_find_their_catalog_entry(fixture, gpu_id):
    m = Machine.load(FIXTURES / "machines" / f"{fixture}.json")
    assert gpu_for(m.compute_gpus()[0]).id == gpu_id


def test_unknown_scanned_gpu_is_none_not_a_guess():
    m = Machine.load(FIXTURES / "machines" / "phoenix-apu-laptop.json")
    assert gpu_for(m.gpus[0]) is None


# -- workloads ---------------------------------------------------------------------------------------


def test_the_ladder_has_the_18_ids_sorted_by_level_with_both_languages():
    ws = load_workloads()
    assert {w.id for w in ws} == LADDER
    levels = [w.level for w in ws]
    assert levels == sorted(levels)
    for w in ws:
        assert w.title and w.title_zh and w.description and w.description_zh and w.source, w.id
        if w.smaller_model:
            assert w.smaller_model in LADDER


def test_ladder_architectures_come_from_published_configs():
    llama = get_workload("llama3-8b-qlora").model
    assert (llama.layers, llama.hidden, llama.heads, llama.kv_heads, llama.ffn, llama.vocab) == (
        32, 4096, 32, 8, 14336, 128256)
    assert get_workload("gpt2-124m-pretrain").train.from_scratch


def test_get_workload_by_id_toml_path_and_config_json(tmp_path):
    assert get_workload("mnist-cnn").id == "mnist-cnn"
    src = resource_path("workloads", "bert-base-finetune.toml").read_text(encoding="utf-8")
    p = tmp_path / "mine.toml"
    p.write_text(src.replace('id = "bert-base-finetune"', 'id = "my-bert"'), encoding="utf-8")
    assert get_workload(str(p)).id == "my-bert"
    w = get_workload(str(FIXTURES / "hf" / "gpt2" / "config.json"))
    assert w.model.params == 124439808


def test_unknown_workload_suggests_near_ids():
    with pytest.raises(UnknownName) as e:
        get_workload("llama3-8b-qlor")
    assert "llama3-8b-qlora" in e.value.suggestions


# -- bad input ---------------------------------------------------------------------------------------

GOOD = """
id = "my-job"
title = "My job"
family = "llm"
level = 3
[model]
arch = "transformer"
params = 1.0e8
layers = 12
hidden = 768
heads = 12
[train]
method = "lora"
batch = 2
seq_len = 512
[data]
samples = 1000
"""


def _write(tmp_path, text, name="job.toml"):
    p = tmp_path / name
    p.write_text(text, encoding="utf-8")
    return p


def test_a_good_user_workload_loads(tmp_path):
    w = load_workload_file(_write(tmp_path, GOOD))
    assert (w.id, w.train.method, w.train.batch, w.data.samples) == ("my-job", "lora", 2, 1000)


@pytest.mark.parametrize("change, key, expected", [
    (("batch = 2", "batch = -2"), "train.batch", "integer between 1"),
    (("batch = 2", 'batch = "two"'), "train.batch", "integer"),
    (("batch = 2", "batch = 2.5"), "train.batch", "integer"),
    (("params = 1.0e8", "params = 1.0e20"), "model.params", "number between"),
    (('method = "lora"', 'method = "dora"'), "train.method", "one of full, lora, qlora"),
    (("batch = 2", "batch = 2\nbatchsize = 4"), "train.batchsize", "expected one of"),
    (('family = "llm"', 'family = "llm"\ncolour = "red"'), "colour", "expected one of"),
    (("heads = 12", "heads = 12\nkv_heads = 5"), "model.kv_heads", "divisor"),
    (("samples = 1000", "samples = 0"), "data.samples", "integer"),
    (("heads = 12", "heads = 12\nstep_tensor_elements = [802816, 401408]\nstep_tensor_counts = [30]"),
     "model.step_tensor_counts", "same length"),
])
def test_bad_workload_values_name_file_key_and_expectation(tmp_path, change, key, expected):
    p = _write(tmp_path, GOOD.replace(*change))
    with pytest.raises(BadInput) as e:
        load_workload_file(p)
    msg = str(e.value)
    assert str(p) in msg and key in msg and expected in msg


def test_missing_required_key_and_table(tmp_path):
    with pytest.raises(BadInput, match=r"missing key 'model.layers'"):
        load_workload_file(_write(tmp_path, GOOD.replace("layers = 12\n", "")))
    with pytest.raises(BadInput, match=r"missing table \[data\]"):
        load_workload_file(_write(tmp_path, GOOD.split("[data]")[0]))


def test_malformed_toml_is_one_clear_error(tmp_path):
    p = _write(tmp_path, 'id = "x"\n[model\narch = 1')
    with pytest.raises(BadInput, match="not valid TOML"):
        read_toml(p)
    with pytest.raises(BadInput, match="file not found"):
        read_toml(tmp_path / "nope.toml")
    binary = tmp_path / "b.toml"
    binary.write_bytes(b"\xff\xfe\x00\x01")
    with pytest.raises(BadInput, match="not a text file"):
        read_toml(binary)


def test_bad_gpu_entries_are_rejected():
    base = {"id": "x-1", "name": "X", "vendor": "nvidia", "segment": "consumer", "backend": "cuda",
            "vram_gib": 8, "mem_bandwidth_gbps": 400, "tflops_fp32": 10, "source": "a datasheet"}
    parse_gpus({"gpu": [base]}, "gpus.toml")
    with pytest.raises(BadInput, match=r"gpus.toml: key 'gpu\[0\].vram_gib'"):
        parse_gpus({"gpu": [dict(base, vram_gib=-1)]}, "gpus.toml")
    with pytest.raises(BadInput, match="duplicate id"):
        parse_gpus({"gpu": [base, base]}, "gpus.toml")
    with pytest.raises(BadInput, match=r"unknown key 'gpu\[0\].vram'"):
        parse_gpus({"gpu": [dict(base, vram=8)]}, "gpus.toml")


def test_builtin_workload_ids_match_file_names():
    for p in resource_path("workloads").glob("*.toml"):
        w = parse_workload(read_toml(p), str(p))
        assert w.id == p.stem


def test_gpus_json_round_trip_is_plain_data():
    # the catalog feeds `gpucheck gpus --json`; every field must be JSON-serializable
    import dataclasses

    json.dumps([dataclasses.asdict(g) for g in load_gpus()])
    assert find_gpu("a100 40gb").vram_bytes == 40 * GIB


@pytest.mark.parametrize("key", ['"bad\\nkey"', '"tab\\there"', '"nul\\u0000"'])
def test_an_unknown_key_with_a_control_character_is_named_on_one_line(tmp_path, key):
    """A user's workload file with a key holding a newline: one line on stderr (the CLI's contract),
    the key shown with its escape (a fuzzer found the two-line message)."""
    src = resource_path("workloads", "bert-base-finetune.toml").read_text(encoding="utf-8")
    path = tmp_path / "mine.toml"
    path.write_text(f"{key} = 1\n" + src, encoding="utf-8")
    with pytest.raises(BadInput) as e:
        load_workload_file(path)
    msg = str(e.value)
    assert "\n" not in msg and "\t" not in msg and "\x00" not in msg, msg
    assert "unknown key" in msg and key.strip('"').split("\\")[0] in msg


@pytest.mark.parametrize("name, gib, gpu_id", [
    ("NVIDIA GeForce RTX 3060", 8, "rtx-3060-8gb"),
    ("NVIDIA GeForce RTX 3060", 12, "rtx-3060"),
    ("NVIDIA GeForce RTX 3080", 12, "rtx-3080-12gb"),
    ("NVIDIA GeForce RTX 3080", 10, "rtx-3080"),
    ("NVIDIA GeForce RTX 4060 Ti", 16, "rtx-4060-ti-16gb"),
])
def test_a_scanned_card_sold_with_several_memory_sizes_is_matched_by_its_memory(name, gib, gpu_id):
    # NVML reports the same name for both memory sizes (RTX 3060 8/12 GB, 3080 10/12 GB): the size decides
    g = SimpleNamespace(name=name, vram_total_bytes=gib * 2**30, vendor="nvidia", catalog_id=None)
    assert gpu_for(g).id == gpu_id
