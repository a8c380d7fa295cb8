"""The wizard window: five pages, a language switch, and the session they share.

The window opens with its first page only: pages 2–5 and the session (estimates, advice, reports,
catalogs) are created when first needed — the end of a scan, an opened file, a test reading `jobs` —
so that the window appears fast (docs/performance.md). Their modules are deferred imports
(gpucheck/lazy.py); `pages()` and the page properties create them."""

from __future__ import annotations

from PySide6 import QtGui, QtWidgets
from PySide6.QtCore import QSize, Qt, QTimer

from gpucheck.errors import BadInput
from gpucheck.i18n import N_, get_language, tr
from gpucheck.lazy import lazy_import
from gpucheck.region import REGIONS, get_region, set_region
from gpucheck.ui.dialogs import show_bad_input
from gpucheck.ui.languages import LANGUAGE_NAMES, next_language, set_app_language
from gpucheck.ui.pages.welcome import WelcomePage

machine_mod = lazy_import("gpucheck.machine")
session_mod = lazy_import("gpucheck.ui.session")
machine_page_mod = lazy_import("gpucheck.ui.pages.machine")
jobs_page_mod = lazy_import("gpucheck.ui.pages.jobs")
details_page_mod = lazy_import("gpucheck.ui.pages.details")
report_page_mod = lazy_import("gpucheck.ui.pages.report")

REGION_NAMES = {"cn": N_("Region: mainland China (domestic clouds and mirrors)"),
                "global": N_("Region: outside mainland China")}
PAGE_WELCOME, PAGE_MACHINE, PAGE_JOBS, PAGE_DETAILS, PAGE_REPORT = range(5)
# The smallest window in which every page still works (settings, buttons, tables): 800×600 screens.
MIN_WIDTH, MIN_HEIGHT = 760, 540


class Wizard(QtWidgets.QWizard):
    def __init__(self, scan_fn, parent=None):
        """`scan_fn(on_progress=, on_partial=, cancel=, deep=)` → Machine scans the PC (injected)."""
        super().__init__(parent)
        self.setObjectName("gpucheckWizard")
        self.scan_fn = scan_fn
        self._session = None  # created on first use (see the module's docstring)
        self._later: dict | None = None  # pages 2–5, created on first use
        self.setOption(QtWidgets.QWizard.WizardOption.NoBackButtonOnStartPage, True)
        self.setOption(QtWidgets.QWizard.WizardOption.NoCancelButton, True)
        self.setOption(QtWidgets.QWizard.WizardOption.HaveCustomButton1, True)
        self.setOption(QtWidgets.QWizard.WizardOption.HaveHelpButton, False)
        self.setWindowFlag(Qt.WindowType.WindowMinMaxButtonsHint, True)

        # the language switch: a button on the wizard's button row, with a menu
        self.lang_button = QtWidgets.QPushButton(self)
        self.lang_button.setObjectName("languageButton")
        self.lang_menu = QtWidgets.QMenu(self.lang_button)
        self.lang_group = QtGui.QActionGroup(self)
        self.lang_group.setExclusive(True)
        self.lang_actions: dict[str, QtGui.QAction] = {}
        for code, name in LANGUAGE_NAMES.items():
            act = QtGui.QAction(name, self)
            act.setCheckable(True)
            act.setData(code)
            act.triggered.connect(lambda _checked=False, c=code: self.switch_language(c))
            self.lang_group.addAction(act)
            self.lang_menu.addAction(act)
            self.lang_actions[code] = act
        # the region (separate from the language): which clouds, shops and mirrors the advice names
        self.lang_menu.addSeparator()
        self.region_group = QtGui.QActionGroup(self)
        self.region_group.setExclusive(True)
        self.region_actions: dict[str, QtGui.QAction] = {}
        for code in REGIONS:
            act = QtGui.QAction(self)
            act.setCheckable(True)
            act.setData(code)
            act.triggered.connect(lambda _checked=False, c=code: self.switch_region(c))
            self.region_group.addAction(act)
            self.lang_menu.addAction(act)
            self.region_actions[code] = act
        self.lang_button.setMenu(self.lang_menu)
        self.setButton(QtWidgets.QWizard.WizardButton.CustomButton1, self.lang_button)
        self.setButtonLayout([
            QtWidgets.QWizard.WizardButton.CustomButton1,
            QtWidgets.QWizard.WizardButton.Stretch,
            QtWidgets.QWizard.WizardButton.BackButton,
            QtWidgets.QWizard.WizardButton.NextButton,
            QtWidgets.QWizard.WizardButton.FinishButton,
        ])
        lang_shortcut = QtGui.QAction(self)
        lang_shortcut.setShortcut(QtGui.QKeySequence("Ctrl+L"))
        lang_shortcut.setShortcutContext(Qt.ShortcutContext.WindowShortcut)
        lang_shortcut.triggered.connect(lambda: self.switch_language(next_language(get_language())))
        self.addAction(lang_shortcut)

        self.welcome = WelcomePage(self)
        self.setPage(PAGE_WELCOME, self.welcome)
        self.setStartId(PAGE_WELCOME)
        self._fit_to_screen()
        self.retranslate()

    # -- pages 2–5 and the session: created on first use -------------------------------------------
    @property
    def session(self):
        if self._session is None:
            self._session = session_mod.Session()
        return self._session

    @property
    def machine(self):
        """The scanned (or opened) machine, None before; does not create the session."""
        return None if self._session is None else self._session.machine

    def _later_pages(self) -> dict:
        if self._later is None:
            self._later = {PAGE_MACHINE: machine_page_mod.MachinePage(self), PAGE_JOBS: jobs_page_mod.JobsPage(self),
                           PAGE_DETAILS: details_page_mod.DetailsPage(self),
                           PAGE_REPORT: report_page_mod.ReportPage(self)}
            for pid, page in self._later.items():
                self.setPage(pid, page)
                page.retranslate()
        return self._later

    @property
    def machine_page(self):
        return self._later_pages()[PAGE_MACHINE]

    @property
    def jobs(self):
        return self._later_pages()[PAGE_JOBS]

    @property
    def details(self):
        return self._later_pages()[PAGE_DETAILS]

    @property
    def report(self):
        return self._later_pages()[PAGE_REPORT]

    def pages(self):
        return [self.welcome, *self._later_pages().values()]

    def nextId(self) -> int:  # noqa: N802 (Qt's name)
        if self._later is None and self.currentId() == PAGE_WELCOME:
            return PAGE_MACHINE  # a "Next" button from the start, although page 2 is created later
        return super().nextId()

    def validateCurrentPage(self) -> bool:  # noqa: N802 (Qt's name)
        self._show_busy()  # the next page computes (the first time: every job's estimate) before it shows
        self._later_pages()  # Next: the page it leads to exists
        return super().validateCurrentPage()

    def _show_busy(self) -> None:
        """A busy cue while the next page computes: the wait cursor and "Working…" on Next, until the event
        loop runs again (the page is then shown)."""
        nxt = self.button(QtWidgets.QWizard.WizardButton.NextButton)
        if QtWidgets.QApplication.overrideCursor() is None:
            QtWidgets.QApplication.setOverrideCursor(Qt.CursorShape.WaitCursor)
            QTimer.singleShot(0, self._end_busy)
        nxt.setText(tr("Working…"))
        nxt.repaint()  # painted now: the work that follows keeps the event loop busy

    def _end_busy(self) -> None:
        QtWidgets.QApplication.restoreOverrideCursor()
        self.setButtonText(QtWidgets.QWizard.WizardButton.NextButton, tr("Next >"))

    def focus_next(self) -> None:
        """Enter goes on (Next), not back to the button just used (e.g. "Open a saved scan…")."""
        nxt = self.button(QtWidgets.QWizard.WizardButton.NextButton)
        if isinstance(nxt, QtWidgets.QPushButton):
            nxt.setDefault(True)
        nxt.setFocus(Qt.FocusReason.OtherFocusReason)

    def _fit_to_screen(self) -> None:
        self.setMinimumSize(MIN_WIDTH, MIN_HEIGHT)
        want = QSize(1100, 760)
        screen = self.screen() or QtGui.QGuiApplication.primaryScreen()
        if screen is not None:
            avail = screen.availableGeometry().size()
            want = QSize(max(MIN_WIDTH, min(want.width(), avail.width() - 40)),
                         max(MIN_HEIGHT, min(want.height(), avail.height() - 60)))
        self.resize(want)

    # -- language -------------------------------------------------------------------------------------
    def retranslate(self) -> None:
        lang = get_language()
        # the system adds the app's name (" — gpucheck") to the title bar: not said twice
        self.setWindowTitle(tr("Can my PC train this?"))
        self.setButtonText(QtWidgets.QWizard.WizardButton.BackButton, tr("< Back"))
        self.setButtonText(QtWidgets.QWizard.WizardButton.NextButton, tr("Next >"))
        self.setButtonText(QtWidgets.QWizard.WizardButton.FinishButton, tr("Close"))
        self.setButtonText(QtWidgets.QWizard.WizardButton.CustomButton1,
                           tr("Language: {name}", name=LANGUAGE_NAMES.get(lang, lang)))
        self.lang_button.setToolTip(tr("Switch the language (Ctrl+L switches to the next one)"))
        for code, act in self.lang_actions.items():
            act.setChecked(code == lang)
        region = get_region()
        for code, act in self.region_actions.items():
            act.setText(tr(REGION_NAMES[code]))
            act.setChecked(code == region)
        for page in (self.welcome, *(self._later or {}).values()):
            page.retranslate()

    def switch_language(self, lang: str) -> None:
        set_app_language(lang)
        self.session.language_changed()
        self.retranslate()

    def switch_region(self, region: str) -> None:
        """Advice for readers in mainland China or elsewhere (cloud offers, shop prices, download mirrors)."""
        set_region(region)
        self.session.language_changed()  # the advice is made again, for the new region
        self.retranslate()

    # -- the machine ----------------------------------------------------------------------------------
    def set_machine(self, machine) -> None:
        self.session.set_machine(machine)
        if machine is not None:
            for page in self.pages()[1:]:
                page.refresh()

    def open_machine_file(self, path: str) -> bool:
        """Open a saved scan (or a JSON report): skip the scan and show it. Bad files → one clear message."""
        try:
            machine = machine_mod.Machine.load(path)
        except BadInput as e:
            show_bad_input(self, tr("This file cannot be opened as a scan: {reason}", reason=str(e)),
                           tr("Cannot open the scan"))
            return False
        self.set_machine(machine)
        self.welcome.machine_loaded()
        self.focus_next()
        return True

    def start_over(self) -> None:
        self.session.reset()
        self.welcome.machine_loaded() if self.session.machine is not None else None
        self.restart()

    # -- keyboard: Escape cancels a running scan; it never closes the window (and loses the scan) ----------
    def keyPressEvent(self, event) -> None:
        if event.key() == Qt.Key.Key_Escape:
            if self.welcome.is_scanning():
                self.welcome.cancel_scan()
            event.accept()
            return
        super().keyPressEvent(event)

    def closeEvent(self, event) -> None:
        if self.welcome.is_scanning():
            self.welcome.cancel_scan()
        super().closeEvent(event)
