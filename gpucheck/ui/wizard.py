"""The wizard window: five pages, a language switch, and the session they share."""

from __future__ import annotations

from PySide6 import QtGui, QtWidgets
from PySide6.QtCore import QSize, Qt

from gpucheck.i18n import get_language, tr
from gpucheck.ui.session import Session

PAGE_WELCOME, PAGE_MACHINE, PAGE_JOBS, PAGE_DETAILS, PAGE_REPORT = range(5)
LANGUAGE_NAMES = {"en": "English", "zh_CN": "简体中文"}  # each in its own language, never translated


class Wizard(QtWidgets.QWizard):
    def __init__(self, parent=None):
        super().__init__(parent)
        self.setObjectName("gpucheckWizard")
        self.session = Session()
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
        lang_shortcut.triggered.connect(self.lang_button.showMenu)
        self.addAction(lang_shortcut)

        from gpucheck.ui.pages.details import DetailsPage
        from gpucheck.ui.pages.jobs import JobsPage
        from gpucheck.ui.pages.machine import MachinePage
        from gpucheck.ui.pages.report import ReportPage
        from gpucheck.ui.pages.welcome import WelcomePage

        self.welcome = WelcomePage(self)
        self.machine_page = MachinePage(self)
        self.jobs = JobsPage(self)
        self.details = DetailsPage(self)
        self.report = ReportPage(self)
        for pid, page in ((PAGE_WELCOME, self.welcome), (PAGE_MACHINE, self.machine_page),
                          (PAGE_JOBS, self.jobs), (PAGE_DETAILS, self.details), (PAGE_REPORT, self.report)):
            self.setPage(pid, page)
        self.setStartId(PAGE_WELCOME)
        self._fit_to_screen()
        self.retranslate()

    def pages(self):
        return [self.welcome, self.machine_page, self.jobs, self.details, self.report]

    def _fit_to_screen(self) -> None:
        want = QSize(1100, 760)
        screen = self.screen() or QtGui.QGuiApplication.primaryScreen()
        if screen is not None:
            avail = screen.availableGeometry().size()
            want = QSize(min(want.width(), avail.width() - 40), min(want.height(), avail.height() - 60))
        self.resize(want)

    # -- language -------------------------------------------------------------------------------------
    def retranslate(self) -> None:
        lang = get_language()
        self.setWindowTitle(tr("gpucheck — can my PC train this?"))
        self.setButtonText(QtWidgets.QWizard.WizardButton.BackButton, tr("< Back"))
        self.setButtonText(QtWidgets.QWizard.WizardButton.NextButton, tr("Next >"))
        self.setButtonText(QtWidgets.QWizard.WizardButton.FinishButton, tr("Close"))
        self.setButtonText(QtWidgets.QWizard.WizardButton.CustomButton1,
                           tr("Language: {name}", name=LANGUAGE_NAMES.get(lang, lang)))
        self.lang_button.setToolTip(tr("Switch the language (Ctrl+L)"))
        for code, act in self.lang_actions.items():
            act.setChecked(code == lang)
        for page in self.pages():
            page.retranslate()

    def switch_language(self, lang: str) -> None:
        from gpucheck.ui.app import set_app_language

        set_app_language(lang)
        self.session.language_changed()
        self.retranslate()

    # -- the machine ----------------------------------------------------------------------------------
    def set_machine(self, machine) -> None:
        self.session.set_machine(machine)
        if machine is not None:
            for page in self.pages()[1:]:
                page.refresh()

    def open_machine_file(self, path: str) -> bool:
        """Open a saved scan (or a JSON report): skip the scan and show it. Bad files → one clear message."""
        from gpucheck.errors import BadInput
        from gpucheck.machine import Machine
        from gpucheck.ui.app import show_bad_input

        try:
            machine = Machine.load(path)
        except BadInput as e:
            show_bad_input(self, tr("This file cannot be opened as a scan: {reason}", reason=str(e)),
                           tr("Cannot open the scan"))
            return False
        self.set_machine(machine)
        self.welcome.machine_loaded()
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
