"""Parameter counts of the model types gpucheck reads from resources/hf_types.toml, by transformers' own classes on
the meta device (no memory): the truth tests/core/test_hf_types.py checks gpucheck's counts against.

    .venv-trial/bin/python benchmarks/count_hf_params.py   # writes tests/fixtures/hf_types/*.json and counts.json

Each config is the type's config class with its defaults (the shape the class documents) or with the keys of a
published checkpoint's config.json given below (the shapes their model cards state), saved as a config.json the way
`save_pretrained` writes it.
"""

from __future__ import annotations

import json
import sys
import warnings
from pathlib import Path

OUT = Path(__file__).resolve().parents[1] / "tests" / "fixtures" / "hf_types"

# name: (model_type, keys of the published config.json that differ from the class defaults)
CASES = {
    "phi-defaults": ("phi", {}),
    "phi-2": ("phi", {"hidden_size": 2560, "intermediate_size": 10240, "num_hidden_layers": 32,
                      "num_attention_heads": 32, "vocab_size": 51200, "partial_rotary_factor": 0.4}),
    "gpt-neox-defaults": ("gpt_neox", {}),
    "pythia-1.4b": ("gpt_neox", {"hidden_size": 2048, "intermediate_size": 8192, "num_hidden_layers": 24,
                                 "num_attention_heads": 16, "vocab_size": 50304, "rotary_pct": 0.25}),
    "falcon-defaults": ("falcon", {}),
    "falcon-40b": ("falcon", {"hidden_size": 8192, "num_attention_heads": 128, "num_kv_heads": 8,
                              "num_hidden_layers": 60, "new_decoder_architecture": True, "vocab_size": 65024}),
    "stablelm-defaults": ("stablelm", {}),
    "stablelm-2-1.6b": ("stablelm", {"hidden_size": 2048, "intermediate_size": 5632, "num_hidden_layers": 24,
                                     "num_attention_heads": 32, "num_key_value_heads": 32, "vocab_size": 100352,
                                     "use_qkv_bias": True, "partial_rotary_factor": 0.25}),
    "starcoder2-defaults": ("starcoder2", {}),
    "opt-defaults": ("opt", {}),
    "opt-350m": ("opt", {"hidden_size": 1024, "ffn_dim": 4096, "num_hidden_layers": 24, "num_attention_heads": 16,
                         "word_embed_proj_dim": 512, "do_layer_norm_before": False}),
    "bloom-560m": ("bloom", {"hidden_size": 1024, "n_layer": 24, "n_head": 16, "vocab_size": 250880}),
    "gptj-defaults": ("gptj", {}),
    "cohere-defaults": ("cohere", {}),
    "cohere2-defaults": ("cohere2", {}),
    "nemotron-minitron-4b": ("nemotron", {"hidden_size": 3072, "intermediate_size": 9216, "num_hidden_layers": 32,
                                          "num_attention_heads": 24, "num_key_value_heads": 8, "head_dim": 128,
                                          "vocab_size": 256000}),
    "helium-defaults": ("helium", {}),
    "seed-oss-defaults": ("seed_oss", {}),
    "ernie4.5-defaults": ("ernie4_5", {}),
    "glm-defaults": ("glm", {}),
    "arcee-defaults": ("arcee", {}),
    "distilbert-defaults": ("distilbert", {}),
    "deberta-v2-defaults": ("deberta-v2", {}),
    "deberta-v3-base": ("deberta-v2", {"hidden_size": 768, "num_hidden_layers": 12, "num_attention_heads": 12,
                                       "intermediate_size": 3072, "vocab_size": 128100, "relative_attention": True,
                                       "position_buckets": 256, "norm_rel_ebd": "layer_norm",
                                       "position_biased_input": False, "max_relative_positions": -1,
                                       "type_vocab_size": 0, "pos_att_type": ["p2c", "c2p"]}),
    "t5-defaults": ("t5", {}),
    "flan-t5-base": ("t5", {"d_model": 768, "d_ff": 2048, "num_layers": 12, "num_decoder_layers": 12,
                            "num_heads": 12, "d_kv": 64, "vocab_size": 32128, "feed_forward_proj": "gated-gelu",
                            "tie_word_embeddings": False}),
    "mt5-defaults": ("mt5", {}),
    "bart-defaults": ("bart", {}),
    "whisper-defaults": ("whisper", {}),
    "whisper-small": ("whisper", {"d_model": 768, "encoder_layers": 12, "decoder_layers": 12,
                                  "encoder_attention_heads": 12, "decoder_attention_heads": 12,
                                  "encoder_ffn_dim": 3072, "decoder_ffn_dim": 3072, "vocab_size": 51865,
                                  "num_mel_bins": 80}),
    "deepseek-v3-defaults": ("deepseek_v3", {}),  # DeepSeek-V3 / R1's shape (its MTP layer is not built)
    "deepseek-v2-lite": ("deepseek_v2", {"hidden_size": 2048, "num_hidden_layers": 27, "num_attention_heads": 16,
                                         "num_key_value_heads": 16, "q_lora_rank": None, "kv_lora_rank": 512,
                                         "n_routed_experts": 64, "n_shared_experts": 2, "moe_intermediate_size": 1408,
                                         "intermediate_size": 10944, "first_k_dense_replace": 1,
                                         "num_experts_per_tok": 6, "vocab_size": 102400}),
    "glm-4.5-air": ("glm4_moe", {"hidden_size": 4096, "num_hidden_layers": 46, "num_attention_heads": 96,
                                 "num_key_value_heads": 8, "head_dim": 128, "intermediate_size": 10944,
                                 "moe_intermediate_size": 1408, "n_routed_experts": 128, "n_shared_experts": 1,
                                 "num_experts_per_tok": 8, "first_k_dense_replace": 1, "vocab_size": 151552,
                                 "attention_bias": True, "partial_rotary_factor": 0.5}),
    "llama4-scout-defaults": ("llama4", {}),  # Llama 4 Scout's shape with its image side
    "hunyuan-7b": ("hunyuan_v1_dense", {"head_dim": 128}),  # HunYuanDenseV1Config's shape with Hunyuan-7B's head_dim
    "apertus-defaults": ("apertus", {}),
    "granitemoe-defaults": ("granitemoe", {}),
    "granite-3.1-1b-a400m": ("granitemoe", {"hidden_size": 1024, "num_hidden_layers": 24, "num_attention_heads": 16,
                                            "num_key_value_heads": 8, "intermediate_size": 512,
                                            "num_local_experts": 32, "num_experts_per_tok": 8, "vocab_size": 49155,
                                            "tie_word_embeddings": True}),
    "ministral3-defaults": ("ministral3", {}),  # Ministral 3 8B's shape
    "ministral-8b": ("ministral", {"head_dim": 128}),  # MinistralConfig's shape with Ministral-8B-2410's head_dim
    "internlm3-8b": ("internlm3", {}),  # InternLM3Config's shape: InternLM3-8B (transformers builds it as LLaMA)
    "vit-defaults": ("vit", {}),
    "vit-large-patch16-384": ("vit", {"hidden_size": 1024, "num_hidden_layers": 24, "num_attention_heads": 16,
                                      "intermediate_size": 4096, "image_size": 384}),
    "whisper-large-v3": ("whisper", {"d_model": 1280, "encoder_layers": 32, "decoder_layers": 32,
                                     "encoder_attention_heads": 20, "decoder_attention_heads": 20,
                                     "encoder_ffn_dim": 5120, "decoder_ffn_dim": 5120, "vocab_size": 51866,
                                     "num_mel_bins": 128}),
}


def main() -> int:
    warnings.filterwarnings("ignore")
    import torch
    import transformers
    transformers.logging.set_verbosity_error()
    OUT.mkdir(parents=True, exist_ok=True)
    counts = {}
    for name, (mt, keys) in CASES.items():
        cfg = transformers.AutoConfig.for_model(mt, **keys)
        if mt in ("t5", "mt5", "bart"):
            auto = transformers.AutoModelForSeq2SeqLM
        elif mt == "whisper":
            auto = transformers.AutoModelForSpeechSeq2Seq
        elif mt in ("distilbert", "deberta-v2"):
            auto = transformers.AutoModel
        elif mt == "llama4":
            auto = transformers.AutoModelForImageTextToText
        elif mt == "vit":  # the image classifier's body: no pooler; its classifier is left out, as a text encoder's
            auto = transformers.AutoModelForImageClassification
        else:
            auto = transformers.AutoModelForCausalLM
        with torch.device("meta"):
            model = auto.from_config(cfg)
        # one shared tensor (a tied head) is one set of parameters: count each tensor once, as parameters() does
        counts[name] = {"params": sum(p.numel() for n, p in model.named_parameters() if not n.startswith("classifier")),
                        "class": type(model).__name__}
        d = cfg.to_dict()
        d["model_type"] = mt
        (OUT / f"{name}.json").write_text(json.dumps(d, indent=1, sort_keys=True, default=str) + "\n")
    (OUT / "counts.json").write_text(json.dumps(
        {"about": __doc__.split("\n\n")[0], "transformers": transformers.__version__, "torch": torch.__version__,
         "counts": counts}, indent=1) + "\n")
    print(json.dumps(counts, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
