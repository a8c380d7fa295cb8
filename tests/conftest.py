import os
import sys
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
os.environ.setdefault("GPUCHECK_LANG", "en")
os.environ.setdefault("GPUCHECK_REGION", "global")  # advice for outside mainland China unless a test says so

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = Path(__file__).resolve().parent / "fixtures"
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

# The fuzzers are deterministic by default: a fixed seed sequence, so a second run of the same commit
# gives the same result. Exploring new inputs is opted into: HYPOTHESIS_PROFILE=explore (more examples,
# a fresh random seed each run; a failure prints the blob that reproduces it).
try:
    from hypothesis import settings as _hyp_settings

    _hyp_settings.register_profile("default", derandomize=True, database=None, print_blob=True)
    _hyp_settings.register_profile("explore", derandomize=False, print_blob=True, max_examples=500)
    _hyp_settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))
except ImportError:  # hypothesis is a test extra
    pass


try:
    import pytest

    @pytest.fixture(autouse=True)
    def _calibration_store(tmp_path_factory, monkeypatch):
        """Each test has its own, empty calibration store (never the user's data folder): a trial one test
        runs must not calibrate the estimates another test checks."""
        monkeypatch.setenv("GPUCHECK_CALIBRATION_DIR", str(tmp_path_factory.mktemp("calibration")))

    @pytest.fixture(autouse=True)
    def _language_and_region():
        """A command a test runs with --lang zh_CN or --region cn sets the process's language and region, as a
        user's command does: each test starts in English, outside mainland China, whatever ran before it."""
        from gpucheck.i18n import set_language
        from gpucheck.region import set_region

        yield
        set_language("en")
        set_region(None)
except ImportError:  # pragma: no cover
    pass
