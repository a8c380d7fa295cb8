"""The advice's data: resources/advice.toml, cloud.toml and parts.toml as validated frozen records.

Every problem in a file is a `BadInput` naming the file, the entry and the key.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from gpucheck.errors import BadInput
from gpucheck.resources import resource_path
from gpucheck.tomldata import VALUE_KINDS, read_toml, shown_key, validate_table


@dataclass(frozen=True)
class CloudOffer:
    id: str
    provider: str
    region_group: str
    gpu: str
    gpu_counts: tuple[int, ...]
    kind: str
    price_usd_per_gpu_hour: float | None
    price_cny_per_gpu_hour: float | None
    weekly_hours_limit: float | None
    session_hours_limit: float | None
    notes: str
    url: str
    source: str
    as_of: str
    verified: bool
    provider_zh: str = ""  # the provider's name for Chinese readers ("Vast.ai（可中断）"), "" = as `provider`
    notes_zh: str = ""
    total_hours_limit: float | None = None  # free tiers with one allowance (a trial, a sign-up quota)
    # how a reader in mainland China gets it: domestic | overseas_card | overseas_card_aws | google | unstable
    mainland_access: str = "overseas_card"
    ram_gib: float | None = None  # the machine's system RAM where the provider fixes it (free notebooks); None = unknown
    # the frameworks its GPU environment runs: an offer the printed (PyTorch) snippet cannot run on is never shown
    frameworks: tuple[str, ...] = ("pytorch",)
    gpu_label: str = ""  # the card as the provider lists it ("A800 80GB"); "" = the catalog name
    tips: tuple[str, ...] = ()  # how to use it well (AutoDL: 无卡模式, network_turbo, data disk …)
    tips_zh: tuple[str, ...] = ()
    disk_gib: float | None = None  # the data disk a rented machine comes with (more is paid); None = unknown


@dataclass(frozen=True)
class Billing:
    """How a provider turns the time a machine runs into a bill (cloud.toml [billing.<provider>])."""
    provider: str  # the key: offers whose id starts with "<provider>-"
    increment_s: int  # the step the running time is rounded up to (1 = per second, 60 = per minute)
    minimum_s: int  # the least a start is billed
    source: str
    as_of: str
    verified: bool


@dataclass(frozen=True)
class Startup:
    """What a rented run spends before training starts (cloud.toml [startup]): a policy, not a measurement."""
    minutes: float  # start the machine, set up the environment
    download_mb_per_s: float  # the model's 16-bit weights arrive at this speed
    source: str
    as_of: str


@dataclass(frozen=True)
class Part:
    kind: str  # gpu | ram | ssd | psu
    id: str
    name: str
    price_usd: float | None
    price_cny: float | None
    price_kind: str
    source: str
    as_of: str
    verified: bool
    url: str = ""
    notes: str = ""
    notes_zh: str = ""  # the notes for Chinese readers ("" = the English notes)
    name_zh: str = ""  # the part's name for Chinese readers ("850 W 80 PLUS 金牌 ATX 3.1 电源")
    price_cny_source: str = ""  # where the yuan price was read (a domestic listing or launch price)
    price_cny_as_of: str = ""
    gpu: str | None = None  # gpu: catalog name
    required_psu_w: float | None = None
    tdp_w: float | None = None
    slots: float | None = None
    pcie_lanes: int | None = None
    capacity_gb: float | None = None  # ram / ssd
    ram_kind: str | None = None  # DDR4 | DDR5
    read_mb_per_s: float | None = None  # ssd
    watts: float | None = None  # psu
    markets: tuple[str, ...] = ("global", "cn")  # where it is sold: global | cn
    cn_channel: str = "retail"  # how it is had in mainland China: retail | grey | used | modified


@dataclass(frozen=True)
class TorchBuild:
    variant: str
    cuda: str
    min_cc: float
    max_cc: float
    min_driver_linux: str
    min_driver_windows: str
    recommend: bool = True  # False: an older build, only recognised when installed


def _str(required=False, choices=None):
    return ("str", required, None, None, choices)


def _num(required=False, lo=0.0, hi=None):
    return ("float", required, lo, hi, None)


_BOOL = ("bool", False, None, None, None)


def _list_of_ints(where: str, key: str, value: Any) -> tuple[int, ...]:
    if (not isinstance(value, list) or not value
            or not all(isinstance(v, int) and not isinstance(v, bool) and v >= 1 for v in value)):
        raise BadInput(f"{where}: key '{key}': expected a list of whole numbers ≥ 1, got {value!r:.60}")
    return tuple(sorted(set(value)))


MAINLAND_ACCESS = ("domestic", "overseas_card", "overseas_card_aws", "google", "unstable")

_OFFER_SPEC = {
    "id": _str(True), "provider": _str(True), "provider_zh": _str(), "region_group": _str(True, ("global", "china")),
    "gpu": _str(True), "gpu_counts": ("strlist", False, None, None, None),  # replaced below
    "kind": _str(True, ("free", "on_demand", "spot")),
    "price_usd_per_gpu_hour": _num(), "price_cny_per_gpu_hour": _num(),
    "weekly_hours_limit": _num(), "session_hours_limit": _num(), "total_hours_limit": _num(), "ram_gib": _num(),
    "mainland_access": _str(False, MAINLAND_ACCESS), "notes": _str(), "notes_zh": _str(),
    "url": _str(True), "source": _str(True), "as_of": _str(True), "verified": _BOOL,
    "frameworks": ("strlist", False, None, None, None), "gpu_label": _str(),
    "tips": ("strlist", False, None, None, None), "tips_zh": ("strlist", False, None, None, None),
    "disk_gib": _num(),
}
FRAMEWORKS = ("pytorch", "paddlepaddle", "tensorflow", "jax")


@lru_cache(maxsize=1)
def load_cloud() -> tuple[CloudOffer, ...]:
    path = resource_path("cloud.toml")
    data = read_toml(path)
    offers = data.get("offer")
    if not isinstance(offers, list) or not offers:
        raise BadInput(f"{path}: expected one or more [[offer]] tables")
    out = []
    seen = set()
    for i, raw in enumerate(offers):
        where = f"{path}: offer #{i + 1}"
        if not isinstance(raw, dict):
            raise BadInput(f"{where}: expected a table")
        counts = _list_of_ints(where, "gpu_counts", raw.get("gpu_counts", [1]))
        v = validate_table(where, {k: x for k, x in raw.items() if k != "gpu_counts"},
                           {k: s for k, s in _OFFER_SPEC.items() if k != "gpu_counts"})
        if v["id"] in seen:
            raise BadInput(f"{where}: duplicate id '{v['id']}'")
        seen.add(v["id"])
        usd = v.get("price_usd_per_gpu_hour")
        cny = v.get("price_cny_per_gpu_hour")
        if usd is None and cny is None:
            raise BadInput(f"{where} ({v['id']}): give price_usd_per_gpu_hour or price_cny_per_gpu_hour")
        frameworks = v.get("frameworks", ("pytorch",))
        bad = [f for f in frameworks if f not in FRAMEWORKS]
        if bad or not frameworks:
            raise BadInput(f"{where} ({v['id']}): key 'frameworks': expected a list of {', '.join(FRAMEWORKS)}")
        if len(v.get("tips_zh", ())) != len(v.get("tips", ())):
            raise BadInput(f"{where} ({v['id']}): key 'tips_zh': one Chinese tip per entry of 'tips'")
        out.append(CloudOffer(
            id=v["id"], provider=v["provider"], region_group=v["region_group"], gpu=v["gpu"],
            gpu_counts=counts, kind=v["kind"], price_usd_per_gpu_hour=usd, price_cny_per_gpu_hour=cny,
            weekly_hours_limit=v.get("weekly_hours_limit"), session_hours_limit=v.get("session_hours_limit"),
            notes=v.get("notes", ""), url=v["url"], source=v["source"], as_of=v["as_of"],
            verified=v.get("verified", True), provider_zh=v.get("provider_zh", ""),
            total_hours_limit=v.get("total_hours_limit"), notes_zh=v.get("notes_zh", ""), ram_gib=v.get("ram_gib"),
            mainland_access=v.get("mainland_access") or ("domestic" if v["region_group"] == "china"
                                                         else "overseas_card"),
            frameworks=tuple(frameworks), gpu_label=v.get("gpu_label", ""), tips=v.get("tips", ()),
            tips_zh=v.get("tips_zh", ()), disk_gib=v.get("disk_gib"),
        ))
    return tuple(out)


@dataclass(frozen=True)
class UnlistedCloud:
    """A rental site much used in mainland China with no sourced price (cloud.toml [[unlisted]]): named, with what
    it is known for, never priced."""
    id: str
    provider: str
    provider_zh: str
    known_for: str
    known_for_zh: str
    url: str
    source: str
    as_of: str


_UNLISTED_SPEC = {"id": _str(True), "provider": _str(True), "provider_zh": _str(True), "known_for": _str(True),
                  "known_for_zh": _str(True), "url": _str(True), "source": _str(True), "as_of": _str(True)}


@lru_cache(maxsize=1)
def load_unlisted_clouds() -> tuple[UnlistedCloud, ...]:
    """cloud.toml's [[unlisted]] sites (none: an empty tuple); a price key there is an error (they have none)."""
    path = resource_path("cloud.toml")
    rows = read_toml(path).get("unlisted", [])
    if not isinstance(rows, list):
        raise BadInput(f"{path}: expected [[unlisted]] tables")
    out = []
    for i, raw in enumerate(rows):
        where = f"{path}: unlisted #{i + 1}"
        if not isinstance(raw, dict):
            raise BadInput(f"{where}: expected a table")
        v = validate_table(where, raw, _UNLISTED_SPEC)
        out.append(UnlistedCloud(**{k: v[k] for k in _UNLISTED_SPEC}))
    return tuple(out)

_BILLING_SPEC = {"increment_s": _num(True, 1), "minimum_s": _num(True, 0), "source": _str(True),
                 "as_of": _str(True), "verified": _BOOL}
_STARTUP_SPEC = {"minutes": _num(True, 0), "download_mb_per_s": _num(True, 1), "source": _str(True),
                 "as_of": _str(True)}


@lru_cache(maxsize=1)
def load_billing() -> dict[str, Billing]:
    """Each provider's billing terms, by the key its offers' ids start with ("aws" for "aws-p5-h100")."""
    path = resource_path("cloud.toml")
    table = read_toml(path).get("billing")
    if not isinstance(table, dict):
        raise BadInput(f"{path}: expected a [billing.<provider>] table per provider")
    out = {}
    for key, raw in table.items():
        if not isinstance(raw, dict):
            raise BadInput(f"{path}: [billing.{key}]: expected a table")
        v = validate_table(f"{path}: [billing.{key}]", raw, _BILLING_SPEC)
        out[key] = Billing(key, int(v["increment_s"]), int(v["minimum_s"]), v["source"], v["as_of"],
                           v.get("verified", True))
    return out


def billing_of(offer: CloudOffer) -> Billing | None:
    """The billing terms of the offer's provider; None for a free tier (nothing is billed)."""
    if offer.kind == "free":
        return None
    key = offer.id.split("-", 1)[0]
    billing = load_billing().get(key)
    if billing is None:
        raise BadInput(f"cloud.toml: offer {offer.id}: no [billing.{key}] table")
    return billing


@lru_cache(maxsize=1)
def load_startup() -> Startup:
    path = resource_path("cloud.toml")
    raw = read_toml(path).get("startup")
    if not isinstance(raw, dict):
        raise BadInput(f"{path}: expected a [startup] table")
    v = validate_table(f"{path}: [startup]", raw, _STARTUP_SPEC)
    return Startup(float(v["minutes"]), float(v["download_mb_per_s"]), v["source"], v["as_of"])


CN_CHANNELS = ("retail", "grey", "used", "modified")
_COMMON_PART = {
    "id": _str(True), "name": _str(True), "price_usd": _num(), "price_cny": _num(),
    "price_kind": _str(True, ("msrp", "street", "list")), "source": _str(True), "as_of": _str(True),
    "verified": _BOOL, "url": _str(), "notes": _str(), "notes_zh": _str(), "name_zh": _str(),
    "price_cny_source": _str(), "price_cny_as_of": _str(),
    "markets": ("strlist", False, None, None, None), "cn_channel": _str(False, CN_CHANNELS),
}
_PART_SPECS = {
    "gpu": {**_COMMON_PART, "gpu": _str(True), "required_psu_w": _num(True, 100, 3000),
            "tdp_w": _num(True, 5, 3000), "slots": _num(False, 1, 6),
            "pcie_lanes": ("int", False, 1, 16, None)},
    "ram": {**_COMMON_PART, "kind": _str(True, ("DDR4", "DDR5")), "capacity_gb": _num(True, 1)},
    "ssd": {**_COMMON_PART, "kind": _str(True, ("nvme", "ssd")), "capacity_gb": _num(True, 1),
            "read_mb_per_s": _num(True, 1)},
    "psu": {**_COMMON_PART, "watts": _num(True, 100, 5000)},
}


@lru_cache(maxsize=1)
def load_parts() -> tuple[Part, ...]:
    path = resource_path("parts.toml")
    data = read_toml(path)
    unknown = sorted(set(data) - set(_PART_SPECS))
    if unknown:
        raise BadInput(f"{path}: unknown table '{unknown[0]}' (expected: {', '.join(_PART_SPECS)})")
    out = []
    for kind, spec in _PART_SPECS.items():
        entries = data.get(kind, [])
        if not isinstance(entries, list):
            raise BadInput(f"{path}: key '{kind}': expected a list of [[{kind}]] tables, got {entries!r:.60}")
        for i, raw in enumerate(entries):
            v = validate_table(f"{path}: [[{kind}]] #{i + 1}", raw, spec)
            if v.get("price_usd") is None and v.get("price_cny") is None:
                raise BadInput(f"{path}: [[{kind}]] {v['id']}: give price_usd or price_cny")
            if v.get("price_cny") is not None and not (v.get("price_cny_source") and v.get("price_cny_as_of")):
                raise BadInput(f"{path}: [[{kind}]] {v['id']}: a price_cny needs price_cny_source and "
                               "price_cny_as_of (a domestic price, where and when it was read)")
            out.append(Part(
                kind=kind, id=v["id"], name=v["name"], price_usd=v.get("price_usd"),
                price_cny=v.get("price_cny"), price_kind=v["price_kind"], source=v["source"],
                as_of=v["as_of"], verified=v.get("verified", True), url=v.get("url", ""),
                notes=v.get("notes", ""), notes_zh=v.get("notes_zh", ""), name_zh=v.get("name_zh", ""),
                price_cny_source=v.get("price_cny_source", ""), price_cny_as_of=v.get("price_cny_as_of", ""),
                gpu=v.get("gpu"), required_psu_w=v.get("required_psu_w"),
                tdp_w=v.get("tdp_w"), slots=v.get("slots"), pcie_lanes=v.get("pcie_lanes"),
                capacity_gb=v.get("capacity_gb"), ram_kind=v.get("kind") if kind == "ram" else None,
                read_mb_per_s=v.get("read_mb_per_s"), watts=v.get("watts"),
                markets=_markets(f"{path}: [[{kind}]] {v['id']}", v.get("markets", ("global", "cn"))),
                cn_channel=v.get("cn_channel", "retail"),
            ))
    return tuple(out)


def _markets(where: str, markets: tuple[str, ...]) -> tuple[str, ...]:
    if not markets or any(m not in ("global", "cn") for m in markets):
        raise BadInput(f"{where}: key 'markets': expected a list of 'global' and/or 'cn'")
    return tuple(markets)


def parts_of(kind: str) -> tuple[Part, ...]:
    return tuple(p for p in load_parts() if p.kind == kind)


# resources/advice.toml's tables and keys. Every table also has `source` and `as_of`; `rough = true`
# marks a table of rules of thumb. An unknown table or key is an error (a typo must not be ignored).
# kinds: num (a number ≥ 0), int, str, bool, strlist, intlist, numtable / strtable (a table of them).
ADVICE_SCHEMA: dict[str, dict[str, str]] = {
    "general": {"usd_to_cny": "num", "cloud_for_cpu_hours": "num", "free_tier_max_weeks": "num",
                "tight_upgrade_max_price_share": "num",
                "free_tier_max_sessions": "num"},
    "readiness": {"good_min_share": "num"},
    "tweaks": {"grad_checkpointing_time_factor": "num", "lora_rank": "int",
               "max_seq_len_steps": "intlist", "min_saving_fraction": "num"},
    "bitsandbytes": {"min_compute_capability": "num"},  # its backends: factors.toml [support]
    "fused_loss": {"model_types": "strlist", "backends": "strlist", "min_compute_capability": "num"},
    "unsloth": {"model_types": "strlist", "backends": "strlist", "min_compute_capability": "num"},
    "qlora_caution": {"model_types": "strlist"},
    "speed_tweaks": {"packing_backends": "strlist", "packing_min_compute_capability": "num",
                     "time_factor_required": "num", "mixed_precision_time_factor_required": "num",
                     "max_batch_multiple": "int"},
    "data_loading": {"images_per_s_per_core": "num", "reference_image_size": "int", "reserve_cores": "int",
                     "serial_input_share": "frac"},
    "disk": {"random_read_mb_per_s": "numtable", "seq_read_mb_per_s": "numtable", "free_space_margin_gib": "num"},
    "pcie": {"gbps_per_lane": "numtable", "min_lanes_multi_gpu": "int"},
    "multi_gpu": {"scaling_efficiency": "numtable"},
    "thermal": {"throttle_temperature_c": "num"},
    "power": {"rest_of_system_w": "num", "max_sustained_load": "num"},
    "psu_required_w": {"*": "num"},  # a GPU name ("RTX 4090") → the vendor's required system power, W
    "rocm": {"supported_gfx": "strlist", "override": "strtable"},
    "torch_builds": {"index_url": "str", "rocm_variant": "str", "mps_min_macos": "str"},
}


def validate_advice(data: dict[str, Any], where: str) -> None:
    """Check advice.toml against ADVICE_SCHEMA: every table present with source and as_of, no unknown
    table or key, every value of its kind. BadInput names the file and the key."""
    unknown = sorted(set(data) - set(ADVICE_SCHEMA) - {"torch_build"})
    if unknown:
        raise BadInput(f"{where}: unknown table [{shown_key(unknown[0])}] "
                       f"(expected one of: {', '.join(sorted(ADVICE_SCHEMA))}, torch_build)")
    for name, spec in ADVICE_SCHEMA.items():
        table = data.get(name)
        if not isinstance(table, dict):
            raise BadInput(f"{where}: missing table [{name}]")
        for key in ("source", "as_of"):
            if not isinstance(table.get(key), str) or not table[key]:
                raise BadInput(f"{where}: table [{name}] needs a '{key}' string")
        for key, value in table.items():
            if key in ("source", "as_of"):
                continue
            kind = "bool" if key == "rough" else spec.get(key, spec.get("*"))
            if kind is None:
                raise BadInput(f"{where}: unknown key '{name}.{shown_key(key)}' "
                               f"(expected one of: {', '.join(sorted(spec))}, rough)")
            what, ok = VALUE_KINDS[kind]
            if not ok(value):
                raise BadInput(f"{where}: key '{name}.{shown_key(key)}': expected {what}, got {value!r:.60}")
        missing = sorted(k for k in spec if k != "*" and k not in table)
        if missing:
            raise BadInput(f"{where}: missing key '{name}.{missing[0]}' ({VALUE_KINDS[spec[missing[0]]][0]})")
    for key in ("random_read_mb_per_s", "seq_read_mb_per_s"):  # a disk of a kind not listed reads as "unknown"
        if "unknown" not in data["disk"][key]:
            raise BadInput(f"{where}: missing key 'disk.{key}.unknown' (a number ≥ 0)")
    builds = data.get("torch_build")
    if not isinstance(builds, list) or not builds:
        raise BadInput(f"{where}: expected one or more [[torch_build]] tables")


@lru_cache(maxsize=1)
def load_advice_factors() -> dict[str, Any]:
    """resources/advice.toml as a plain dict, validated against ADVICE_SCHEMA."""
    path = resource_path("advice.toml")
    data = read_toml(path)
    validate_advice(data, str(path))
    return data


@lru_cache(maxsize=1)
def torch_builds() -> tuple[TorchBuild, ...]:
    path = resource_path("advice.toml")
    spec = {"variant": _str(True), "cuda": _str(True), "min_cc": _num(True), "max_cc": _num(True),
            "min_driver_linux": _str(True), "min_driver_windows": _str(True), "recommend": _BOOL}
    out = []
    for i, raw in enumerate(load_advice_factors()["torch_build"]):
        v = validate_table(f"{path}: [[torch_build]] #{i + 1}", raw, spec)
        out.append(TorchBuild(**v))
    return tuple(out)


def factor(table: str, key: str) -> Any:
    """One number from advice.toml, e.g. factor('tweaks', 'grad_checkpointing_time_factor')."""
    data = load_advice_factors()
    try:
        return data[table][key]
    except KeyError:
        raise BadInput(f"{resource_path('advice.toml')}: missing key '{table}.{key}'") from None


def psu_required_w(gpu_name: str) -> float | None:
    """The vendor's required system power for a GPU, matched on its name ("NVIDIA GeForce RTX 4090")."""
    table = load_advice_factors()["psu_required_w"]
    name = " " + " ".join(gpu_name.lower().replace("geforce", " ").replace("nvidia", " ").split()) + " "
    best: tuple[int, float] | None = None
    for key, watts in table.items():
        if key in ("source", "as_of"):
            continue
        k = " " + key.lower() + " "
        if k in name and (best is None or len(k) > best[0]):
            best = (len(k), float(watts))
    return best[1] if best else None


def usd_to_cny(usd: float | None) -> float | None:
    return None if usd is None else usd * float(factor("general", "usd_to_cny"))


def cny_to_usd(cny: float | None) -> float | None:
    return None if cny is None else cny / float(factor("general", "usd_to_cny"))
