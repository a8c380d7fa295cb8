import os
import sys
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
os.environ.setdefault("GPUCHECK_LANG", "en")

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = Path(__file__).resolve().parent / "fixtures"
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

# CI runs the fuzzers with a fixed seed sequence so a submission's result does not depend on luck;
# developers' runs keep exploring new inputs.
try:
    from hypothesis import settings as _hyp_settings

    _hyp_settings.register_profile("ci", derandomize=True, print_blob=True)
    if os.environ.get("CI"):
        _hyp_settings.load_profile("ci")
except ImportError:  # hypothesis is a test extra
    pass
