"""Frameworks found without importing them and judged against the GPU; the power-supply estimate."""

from __future__ import annotations

import sys

import pytest

from tests.conftest import FIXTURES

sys.path.insert(0, str(FIXTURES))
from build_machines import fake_torch  # noqa: E402
from replay import FakePsutil  # noqa: E402

from gpucheck.machine import Cpu, Framework, Gpu, Power  # noqa: E402
from gpucheck.probe import power, software  # noqa: E402
from gpucheck.probe.base import Sources  # noqa: E402


def nv(cc: str, name: str = "GPU") -> Gpu:
    return Gpu(name=name, vendor="nvidia", backend="cuda", compute_capability=cc, is_primary_compute=True,
               is_discrete=True)


def test_torch_version_py_is_read_not_imported(tmp_path):
    site = fake_torch(tmp_path, "2.3.1+cu121", "12.1", None)
    (fw,) = software.find_frameworks((str(site),))
    assert (fw.name, fw.version, fw.cuda_version, fw.rocm_version, fw.variant) == ("torch", "2.3.1+cu121", "12.1",
                                                                                  None, "cu121")
    assert "torch" not in sys.modules  # the fake has no code: importing it would have failed


def test_no_frameworks_in_an_empty_environment(tmp_path):
    assert software.find_frameworks((str(tmp_path),)) == ()


def test_cpu_only_wheel_cannot_use_nvidia_gpu():
    fw = Framework(name="torch", version="2.3.1+cpu", variant="cpu")
    j = software.judge(fw, (nv("8.6", "NVIDIA GeForce RTX 3060"),), "linux", "12.4")
    assert j.can_use_gpu is False and "CPU-only" in j.reason


@pytest.mark.parametrize("cc,cuda,ok", [
    ("9.0", "11.7", False),   # Hopper needs CUDA 11.8 (CUDA 11.8 release notes: first with sm_90)
    ("9.0", "11.8", True),
    ("12.0", "12.6", False),  # Blackwell GeForce (sm_120) needs CUDA 12.8
    ("12.0", "12.8", True),
    ("8.6", "11.0", False),   # sm_86 arrived in CUDA 11.1
])
def test_cuda_build_vs_compute_capability(cc, cuda, ok):
    fw = Framework(name="torch", version="x", cuda_version=cuda)
    assert software.judge(fw, (nv(cc),), "linux", "13.0").can_use_gpu is ok


def test_driver_older_than_the_build():
    fw = Framework(name="torch", version="2.5.1+cu124", cuda_version="12.4")
    j = software.judge(fw, (nv("8.6"),), "linux", "11.7")
    assert j.can_use_gpu is False and "update the NVIDIA driver" in j.reason


def test_rocm_and_apple():
    amd = Gpu(name="RX 7900 XT", vendor="amd", backend="rocm", is_primary_compute=True)
    assert software.judge(Framework(name="torch", version="2.3.1+rocm6.0", rocm_version="6.0"), (amd,), "linux",
                          None).can_use_gpu is True
    assert software.judge(Framework(name="torch", version="2.3.1+cu121", cuda_version="12.1"), (amd,), "linux",
                          None).can_use_gpu is False
    m1 = Gpu(name="Apple M1", vendor="apple", backend="metal", is_primary_compute=True)
    assert software.judge(Framework(name="torch", version="2.5.1"), (m1,), "darwin", None).can_use_gpu is True


def test_no_gpu_means_no_gpu_use():
    j = software.judge(Framework(name="torch", version="2.5.1+cu124", cuda_version="12.4"), (), "linux", None)
    assert j.can_use_gpu is False


# -- power -------------------------------------------------------------------------------------------

def test_psu_estimate_matches_nvidia_recommendation_for_rtx4090():
    # NVIDIA's RTX 4090 spec page: 450 W graphics card power, 850 W required system power.
    gpu = Gpu(name="NVIDIA GeForce RTX 4090", vendor="nvidia", backend="cuda", power_limit_w=450.0, is_discrete=True)
    p, findings = power.estimate(Power(is_laptop=False), (gpu,), Cpu(vendor="intel", sockets=1))
    assert p.recommended_psu_w == 850
    assert p.estimated_peak_system_w == 450 + 125 + 100
    assert "Estimated" in p.notes[0] and any(f.code == "power.psu_estimate" for f in findings)


def test_laptop_has_no_psu_recommendation():
    gpu = Gpu(name="GTX 1660 Ti", vendor="nvidia", backend="cuda", power_limit_w=80.0, is_discrete=True)
    p, _ = power.estimate(Power(is_laptop=True), (gpu,), Cpu(vendor="intel"))
    assert p.recommended_psu_w is None and p.gpu_power_limit_w_total == 80.0


def test_battery_and_chassis(tmp_path):
    (tmp_path / "sys/class/dmi/id").mkdir(parents=True)
    (tmp_path / "sys/class/dmi/id/chassis_type").write_text("10\n")  # SMBIOS: Notebook
    ps = FakePsutil(logical=1, physical=1, ram=1, battery=(40, 3600, False))
    p = power.probe(Sources(system="linux", root=tmp_path, ps=ps)).power
    assert p.is_laptop is True and p.on_battery is True and p.battery_percent == 40.0
    (tmp_path / "sys/class/dmi/id/chassis_type").write_text("3\n")  # Desktop
    p = power.probe(Sources(system="linux", root=tmp_path, ps=FakePsutil(logical=1, physical=1, ram=1))).power
    assert p.is_laptop is False and p.on_battery is False


def test_real_cpu_wheel_version_py(tmp_path):
    """torch/version.py exactly as the official 2.13.0+cpu wheel installs it (tests/fixtures/SOURCES.md)."""
    real = (FIXTURES / "recorded/torch/torch-2.13.0+cpu.version.py").read_text()
    info = software.parse_torch_version_py(real)
    assert info["__version__"] == "2.13.0+cpu" and info["cuda"] is None and info["hip"] is None
    site = tmp_path / "site"
    (site / "torch").mkdir(parents=True)
    (site / "torch/version.py").write_text(real)
    (site / "torch-2.13.0+cpu.dist-info").mkdir()
    (site / "torch-2.13.0+cpu.dist-info/METADATA").write_text("Metadata-Version: 2.1\nName: torch\nVersion: 2.13.0+cpu\n")
    (fw,) = software.find_frameworks((str(site),))
    assert fw.variant == "cpu" and fw.cuda_version is None
    judged = software.judge(fw, (nv("8.9", "NVIDIA GeForce RTX 4090"),), "linux", "12.6")
    assert judged.can_use_gpu is False and "CPU-only" in judged.reason


def test_installed_app_finds_pytorch_in_the_users_conda_env(tmp_path, monkeypatch):
    """A frozen gpucheck (installer build) has no PyTorch of its own: it must find the one the user
    trains with — here in a Miniconda env — and read its CUDA version without importing it."""
    home = tmp_path / "home"
    env_site = home / "miniconda3" / "envs" / "train" / "lib" / "python3.11" / "site-packages"
    env_site.parent.mkdir(parents=True)
    made = fake_torch(tmp_path / "made", "2.4.0+cu124", "12.4", None)
    made.rename(env_site)
    monkeypatch.setattr(sys, "frozen", True, raising=False)
    src = Sources(system="linux", env={"HOME": str(home)}, python_version="3.11.9")
    (fw,) = software.probe(src).software.frameworks
    assert (fw.version, fw.cuda_version) == ("2.4.0+cu124", "12.4")
    assert str(env_site) in (fw.location or "")


def test_active_virtualenv_is_searched_first(tmp_path):
    found = {str(tmp_path / "venv/lib/python3.12/site-packages"), str(tmp_path / "h/.local/lib/python3.10/site-packages")}
    dirs = software.user_site_dirs("linux", {"VIRTUAL_ENV": str(tmp_path / "venv")}, str(tmp_path / "h"),
                                   lambda pat: [p for p in found if __import__("fnmatch").fnmatch(p, pat)])
    assert dirs[0].startswith(str(tmp_path / "venv")) and len(dirs) == 2
