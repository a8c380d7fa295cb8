"""Screenshots of every wizard page, in English and Chinese (and one in a dark palette), for the README.

Runs the real app on a real display server (X11; on a headless machine start `Xvfb :99 -screen 0
1600x1000x24 &` and set DISPLAY=:99), opened on a saved scan, and grabs the window with
QScreen.grabWindow into docs/screenshots/.

    DISPLAY=:99 .venv/bin/python docs/make_screenshots.py --build rtx3060-12gb-hdd-desktop --what-if rtx-4090
    DISPLAY=:99 .venv/bin/python docs/make_screenshots.py --machine my-scan.json
    # after "Try it for real": this PC (scanned now, a real trial in the given Python), the M1, the RTX 4060 laptop
    DISPLAY=:99 .venv/bin/python docs/make_screenshots.py --story --trial-python .venv-trial/bin/python
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

PAGES = ("1-welcome", "2-machine", "3-jobs", "4-details", "5-report")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    src = ap.add_mutually_exclusive_group(required=True)
    src.add_argument("--machine", help="a saved scan to open")
    src.add_argument("--build", metavar="NAME",
                     help="a recorded machine of tests/fixtures/build_machines.py, scanned again in each "
                          "language (so its findings read as a user of that language would see them)")
    src.add_argument("--story", action="store_true",
                     help="the after-a-trial set: this PC (scanned now), the M1 and the RTX 4060 WSL 2 laptop, "
                          "in English, Chinese and a dark palette, before and after \"Try it for real\"")
    ap.add_argument("--trial-python", help="--story: the Python (with PyTorch) for a real trial on this PC; "
                                           "without it the recorded trial result stands in")
    ap.add_argument("--job", help="workload id to pick on page 3 (default: the hardest that fits with tweaks)")
    ap.add_argument("--what-if", help="catalog GPU id for a 'what if' shot of page 4")
    ap.add_argument("--instead-job", default="llama3-8b-full",
                    help="a job that does not fit, for the 'what fits instead' shot of page 4 ('' for none)")
    ap.add_argument("--out", default=str(ROOT / "docs" / "screenshots"))
    ap.add_argument("--langs", default="en,zh_CN")
    ap.add_argument("--sizes", default="1280x860,800x600", help="window sizes, e.g. 1280x860,800x600")
    ap.add_argument("--regions", default="en=global,zh_CN=cn",
                    help="the region each language's shots are taken in (a Chinese reader in mainland China sees "
                         "domestic clouds first), e.g. en=global,zh_CN=cn")
    args = ap.parse_args()

    from PySide6.QtCore import QEventLoop, QTimer
    from PySide6.QtWidgets import QApplication

    from gpucheck.region import set_region
    from gpucheck.ui import app as ui_app

    qapp = ui_app.make_application([sys.argv[0]])
    qapp.setStyle("Fusion")  # the same look on any X server (no desktop theme under Xvfb)
    ui_app.add_bundled_fonts()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)

    def settle(ms: int = 250) -> None:
        loop = QEventLoop()
        QTimer.singleShot(ms, loop.quit)
        loop.exec()

    def grab(w, name: str) -> None:
        settle()
        screen = w.screen()
        pix = screen.grabWindow(w.winId())
        path = out / f"{name}.png"
        pix.save(str(path))
        print(path, pix.width(), "×", pix.height())

    def pick_job(w) -> None:
        s = w.session
        if args.job:
            if args.job.endswith((".json", ".toml")):  # a job file: imported as a user would (Import a job…)
                if w.jobs.import_file(args.job):
                    w.jobs.select(s.selected_id)
                return
            w.jobs.select(args.job)
            return
        chosen = None
        for wl in s.workloads():
            if s.verdict(wl.id) == "runs_with_tweaks":
                chosen = wl.id
        if chosen:
            w.jobs.select(chosen)

    import tempfile

    tmp = Path(tempfile.mkdtemp(prefix="gpucheck-shots-"))

    def machine_file(lang: str) -> str:
        if args.machine:
            return args.machine
        sys.path.insert(0, str(ROOT / "tests" / "fixtures"))
        from build_machines import MACHINES

        from gpucheck.i18n import use_language

        with tempfile.TemporaryDirectory() as d, use_language(lang):
            m = MACHINES[args.build](Path(d))
        (tmp / lang).mkdir(exist_ok=True)
        path = tmp / lang / f"{args.build}.json"
        path.write_text(m.to_json(), encoding="utf-8")
        return str(path)

    if args.story:
        return story_shots(args, qapp, out, settle, grab)

    sizes = [tuple(int(n) for n in x.split("x")) for x in args.sizes.split(",") if x]
    regions = dict(x.split("=", 1) for x in args.regions.split(",") if "=" in x)

    def scrolled(w, page, widget, name: str) -> None:
        """A second shot of a long page, scrolled down to `widget`."""
        settle(150)  # the page's layout is up to date before the widget's place is read
        page.scroll.ensureWidgetVisible(widget, 0, 0)
        bar = page.scroll.verticalScrollBar()
        bar.setValue(min(bar.maximum(), widget.mapTo(page.inner, widget.rect().topLeft()).y() - 8))
        grab(w, name)
        bar.setValue(0)

    def tag(width: int, height: int) -> str:
        """'' for the first (main) size, so the README's and docs/app.md's names stay; '800x600-' else."""
        return "" if (width, height) == sizes[0] else f"{width}x{height}-"

    for (width, height), lang in [(sz, lg) for sz in sizes for lg in args.langs.split(",") if lg]:
        size = tag(width, height)
        set_region(regions.get(lang))
        ui_app.set_app_language(lang)
        w = ui_app.create_window(None)
        w.resize(width, height)
        w.show()
        ui_app.after_show(qapp, w)
        w.open_machine_file(machine_file(lang))
        settle(400)
        grab(w, f"{lang}-{size}{PAGES[0]}")
        w.next()
        grab(w, f"{lang}-{size}{PAGES[1]}")
        w.next()
        w.jobs.table.scrollToTop()
        grab(w, f"{lang}-{size}{PAGES[2]}-nothing-chosen")
        pick_job(w)
        grab(w, f"{lang}-{size}{PAGES[2]}")
        w.next()
        grab(w, f"{lang}-{size}{PAGES[3]}")
        scrolled(w, w.details, w.details.options_box, f"{lang}-{size}{PAGES[3]}-options")
        scrolled(w, w.details, w.details.time_box, f"{lang}-{size}{PAGES[3]}-time")
        scrolled(w, w.details, w.details.cloud_box, f"{lang}-{size}{PAGES[3]}-cloud")
        if args.what_if:
            w.details.set_what_if(args.what_if)
            grab(w, f"{lang}-{size}{PAGES[3]}-what-if")
            w.details.set_what_if(None)
        if args.instead_job:  # a job that does not fit: what fits instead (another method, a smaller model)
            w.back()
            w.jobs.select(args.instead_job)
            w.next()
            scrolled(w, w.details, w.details.alt_box, f"{lang}-{size}{PAGES[3]}-instead")
        w.next()
        w.report.save(str(Path(tempfile.gettempdir()) / f"gpucheck-report-{lang}.pdf"))  # shows "Saved to …"
        grab(w, f"{lang}-{size}{PAGES[4]}")
        w.close()
        w.deleteLater()
        settle(50)

    # one page in a dark palette (what a user with a dark desktop theme sees)
    set_region(regions.get("en"))
    ui_app.set_app_language("en")
    qapp.setPalette(dark_palette())
    for width, height in sizes:
        size = tag(width, height)
        w = ui_app.create_window(None)
        w.resize(width, height)
        w.show()
        ui_app.after_show(qapp, w)
        w.open_machine_file(machine_file("en"))
        settle(300)
        w.next()
        grab(w, f"dark-{size}2-machine")
        w.next()
        pick_job(w)
        grab(w, f"dark-{size}3-jobs")
        w.next()
        grab(w, f"dark-{size}4-details")
        scrolled(w, w.details, w.details.options_box, f"dark-{size}4-details-options")
        w.close()
        w.deleteLater()
        settle(50)
    QApplication.processEvents()
    return 0


def dark_palette():
    """A dark desktop theme's palette (what a user with one sees)."""
    from PySide6.QtGui import QColor, QPalette

    dark = QPalette()
    for role, colour in ((QPalette.ColorRole.Window, "#202124"), (QPalette.ColorRole.WindowText, "#e8eaed"),
                         (QPalette.ColorRole.Base, "#2b2c2f"), (QPalette.ColorRole.AlternateBase, "#333438"),
                         (QPalette.ColorRole.Text, "#e8eaed"), (QPalette.ColorRole.Button, "#303134"),
                         (QPalette.ColorRole.ButtonText, "#e8eaed"), (QPalette.ColorRole.Mid, "#5f6368"),
                         (QPalette.ColorRole.Highlight, "#8ab4f8"), (QPalette.ColorRole.HighlightedText, "#202124"),
                         (QPalette.ColorRole.ToolTipBase, "#303134"), (QPalette.ColorRole.ToolTipText, "#e8eaed")):
        dark.setColor(role, QColor(colour))
    for role in (QPalette.ColorRole.Text, QPalette.ColorRole.ButtonText, QPalette.ColorRole.WindowText):
        dark.setColor(QPalette.ColorGroup.Disabled, role, QColor("#7f8389"))  # greyed-out controls read as such
    return dark


# --story: (name, recorded scan or None for this PC scanned now, the job whose memory RAM decides or '' , the
# job tried for real). The recorded trial (tests/fixtures/trial/results) ran on a CPU: on the Mac and the
# laptop it is what a CPU-only PyTorch measures, which the app shows beside the estimate without replacing the
# estimate for the GPU.
STORY = (("this-pc", None, "", "mnist-cnn"),
         ("m1", "m1-macbookair.json", "sdxl-lora", "mnist-cnn"),
         ("rtx4060-wsl2", "rtx4060-laptop-wsl2.json", "whisper-small-finetune", "mnist-cnn"))
STORY_LOOKS = (("en", False), ("zh_CN", False), ("en", True))  # (language, dark palette)


def story_shots(args, qapp, out, settle, grab) -> int:
    """This PC (scanned now), the M1 and the RTX 4060 laptop, in English, Chinese and dark: the jobs table
    (the limiting memory on the bar), the details page before "Try it for real", the trial under way (a real
    trial with --trial-python), and the page after it (the measured headline, chart, speed and time)."""
    import json

    from gpucheck.region import set_region
    from gpucheck.trial import TrialResult, run_trial
    from gpucheck.ui import app as ui_app

    def shot(w, name: str, this_pc: bool) -> None:
        """The set kept small: every page of this PC; for the recorded machines the jobs, the RAM-decided job,
        and the details before and after the trial."""
        if this_pc or not name.endswith(("-1-welcome", "-2-machine", "-after-top", "-3-jobs-after-trial")):
            grab(w, name)

    recorded = TrialResult.from_json(json.loads((ROOT / "tests" / "fixtures" / "trial" / "results" /
                                                 "mnist-cnn-ran-cpu.json").read_text(encoding="utf-8")))
    live: dict[str, object] = {}  # this PC's real trial, made once (English) and shown again in the other looks
    default_palette = qapp.palette()
    for lang, dark in STORY_LOOKS:
        look = ("dark" if dark else lang)
        set_region("cn" if lang == "zh_CN" else "global")
        ui_app.set_app_language(lang)
        qapp.setPalette(dark_palette() if dark else default_palette)
        for name, scan, ram_job, job in STORY:
            w = ui_app.create_window(None)
            w.resize(1280, 860)
            w.show()
            ui_app.after_show(qapp, w)
            settle(300)
            if scan is None:  # this PC: the real scan, as "Scan my PC" does it
                w.welcome.start_scan()
                for _ in range(600):
                    settle(100)
                    if not w.welcome.is_scanning():
                        break
            else:
                w.open_machine_file(str(ROOT / "tests" / "fixtures" / "machines" / scan))
            settle(300)
            prefix = f"story-{name}-{look}"
            if scan is None:
                shot(w, f"{prefix}-1-welcome", scan is None)
            w.next()
            shot(w, f"{prefix}-2-machine", scan is None)
            w.next()
            w.jobs.select(ram_job or job)
            shot(w, f"{prefix}-3-jobs", scan is None)
            if ram_job:  # RAM decides this job: the details header and memory say the same figures as the bar
                w.next()
                shot(w, f"{prefix}-4-details-ram", scan is None)
                w.back()
                w.jobs.select(job)
            w.next()
            panel = w.details.trial_panel
            shot(w, f"{prefix}-4-details-before", scan is None)
            w.details.scroll.ensureWidgetVisible(panel.run_button, 0, 200)
            if scan is None and args.trial_python:
                panel.set_python(args.trial_python)
            if scan is None and args.trial_python and "result" not in live:

                def run(workload, **kw):
                    live["result"] = run_trial(workload, **kw)
                    return live["result"]
                panel.run_fn = run
                panel.run_button.click()
                for _ in range(3000):  # a shot of the progress once the timed steps are under way
                    settle(100)
                    if panel.phase == "timing" and (panel._timing_left or 99) < 20:
                        shot(w, f"{prefix}-4-details-trial-running", True)
                        break
                    if not panel.is_running():
                        break
            else:
                result = live.get("result") if scan is None else recorded
                panel.run_fn = lambda workload, _r=result or recorded, **_kw: _r
                panel.run_button.click()
            for _ in range(3000):
                settle(100)
                if not panel.is_running():
                    break
            settle(400)
            shot(w, f"{prefix}-4-details-after-trial", scan is None)
            w.details.scroll_to_top()
            shot(w, f"{prefix}-4-details-after-top", scan is None)
            w.back()
            w.jobs.select(job)
            shot(w, f"{prefix}-3-jobs-after-trial", scan is None)
            w.close()
            w.deleteLater()
            settle(50)
    qapp.setPalette(default_palette)
    return 0


if __name__ == "__main__":
    sys.exit(main())
