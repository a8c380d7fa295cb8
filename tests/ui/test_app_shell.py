"""The app around the pages: unexpected errors, language switch, palettes, size, keyboard."""

from __future__ import annotations

import sys

from PySide6.QtCore import QSize, Qt
from PySide6.QtGui import QColor, QPalette
from PySide6.QtWidgets import QApplication, QLabel, QPushButton, QWizard

from gpucheck import i18n
from tests.ui.conftest import MACHINES


def test_unexpected_exception_becomes_dialog_and_log(wizard, dialogs, qtbot):
    """An exception escaping a slot: a dialog says so, the traceback is in the log, the app goes on."""
    from gpucheck.logs import log_file
    from gpucheck.ui.app import error_hook

    sys.excepthook = error_hook

    def bad_slot():
        raise ZeroDivisionError("a bug in a slot")

    wizard.welcome.open_button.clicked.disconnect()
    wizard.welcome.open_button.clicked.connect(bad_slot)
    wizard.welcome.open_button.click()  # PySide6 hands the exception to sys.excepthook
    qtbot.waitUntil(lambda: len(dialogs) == 1, timeout=3000)
    box = dialogs[0]
    assert box.objectName() == "errorDialog"
    assert str(log_file()) in box.informativeText()
    assert "ZeroDivisionError: a bug in a slot" in log_file().read_text(encoding="utf-8")
    assert "a bug in a slot" in box.detailedText()
    # still running: a saved scan opens and the wizard moves on
    assert wizard.open_machine_file(str(MACHINES[0]))
    wizard.next()
    assert wizard.currentPage() is wizard.machine_page


def test_user_error_is_a_warning_without_traceback(wizard, dialogs, qtbot):
    from gpucheck.errors import BadInput
    from gpucheck.logs import log_file
    from gpucheck.ui.app import error_hook

    try:
        raise BadInput("report.xyz: unknown report type")
    except BadInput as e:
        error_hook(type(e), e, e.__traceback__)
    assert dialogs[0].objectName() == "badInputDialog"
    assert dialogs[0].text() == "report.xyz: unknown report type"
    assert not log_file().exists()  # the user's mistake is not a bug


def test_language_switch_retranslates_live(wizard):
    wizard.open_machine_file(str(MACHINES[0]))
    wizard.next()
    english_title = wizard.machine_page.title()
    wizard.switch_language("zh_CN")
    assert i18n.get_language() == "zh_CN"
    assert wizard.lang_actions["zh_CN"].isChecked()
    # every text is set again from the one catalog
    assert wizard.windowTitle() == i18n.translate("Can my PC train this?", "zh_CN")
    assert wizard.machine_page.title() == i18n.translate("Your machine", "zh_CN")
    assert wizard.machine_page.title() != english_title
    assert wizard.welcome.scan_button.text() == i18n.translate("Scan my PC", "zh_CN")
    assert wizard.machine_page.copy_button.text() == i18n.translate("Copy to clipboard", "zh_CN")
    wizard.switch_language("en")
    assert wizard.machine_page.title() == english_title


def test_qt_own_strings_follow_the_language(wizard):
    """Qt's own dialog buttons come from qtbase_zh_CN.qm."""
    wizard.switch_language("zh_CN")
    assert QApplication.translate("QPlatformTheme", "Cancel") == "取消"
    wizard.switch_language("en")
    assert QApplication.translate("QPlatformTheme", "Cancel") == "Cancel"


def _dark_palette() -> QPalette:
    p = QPalette()
    for role, colour in ((QPalette.ColorRole.Window, "#202124"), (QPalette.ColorRole.WindowText, "#e8eaed"),
                         (QPalette.ColorRole.Base, "#2b2c2f"), (QPalette.ColorRole.Text, "#e8eaed"),
                         (QPalette.ColorRole.Button, "#303134"), (QPalette.ColorRole.ButtonText, "#e8eaed"),
                         (QPalette.ColorRole.Mid, "#5f6368")):
        p.setColor(role, QColor(colour))
    return p


def test_dark_palette_uses_readable_colours(wizard, qtbot):
    from gpucheck.ui.widgets import theme

    app = QApplication.instance()
    old = app.palette()
    try:
        app.setPalette(_dark_palette())
        qtbot.wait(20)
        assert theme.is_dark()
        for verdict in ("runs", "runs_with_tweaks", "too_slow", "does_not_fit"):
            bg = theme.verdict_colour(verdict)
            fg = theme.text_on(bg)
            # WCAG-style luminance gap between a badge and its text
            assert abs(bg.lightnessF() - fg.lightnessF()) > 0.35, verdict
            # a dark palette gets the light variant of each colour
            assert bg.lightnessF() > 0.45, verdict
        wizard.open_machine_file(str(MACHINES[0]))
        wizard.next()
        img = wizard.grab().toImage()
        assert QColor(img.pixel(5, img.height() // 2)).lightnessF() < 0.3  # the page really is dark
    finally:
        app.setPalette(old)
    assert not theme.is_dark()


def _clipped_buttons(widget) -> list[str]:
    out = []
    for b in widget.findChildren(QPushButton):
        if b.isVisible() and b.width() < b.sizeHint().width() - 1:
            out.append(b.text())
    return out


def _clipped_labels(widget) -> list[str]:
    out = []
    for lab in widget.findChildren(QLabel):
        if not lab.isVisible() or not lab.text() or lab.wordWrap() or lab.pixmap() is not None and not lab.text():
            continue
        if lab.width() < lab.sizeHint().width() - 1:
            out.append(lab.text())
    return out


def test_fits_1280x800_in_both_languages(wizard, qtbot):
    """At 1280×800 no page needs more room than the screen, and no button or one-line label is cut."""
    wizard.open_machine_file(str(MACHINES[0]))
    for lang in ("en", "zh_CN"):
        wizard.switch_language(lang)
        wizard.restart()
        wizard.resize(1280 - 40, 800 - 60)
        for _ in range(5):  # every page
            qtbot.wait(10)
            hint = wizard.minimumSizeHint()
            assert hint.width() <= 1240 and hint.height() <= 740, (lang, wizard.currentId(), hint)
            assert _clipped_buttons(wizard) == [], (lang, wizard.currentId())
            assert _clipped_labels(wizard) == [], (lang, wizard.currentId())
            wizard.next()


def test_default_size_and_keyboard(wizard, qtbot):
    assert wizard.size() == QSize(1100, 760) or wizard.size().width() <= 1100  # shrinks on small screens
    wizard.open_machine_file(str(MACHINES[0]))
    # the buttons are reachable and the default button moves the wizard on with Enter
    qtbot.keyClick(wizard, Qt.Key.Key_Return)
    assert wizard.currentPage() is wizard.machine_page
    assert wizard.button(QWizard.WizardButton.BackButton).isEnabled()
    # Escape never closes the window and loses the scan
    qtbot.keyClick(wizard, Qt.Key.Key_Escape)
    assert wizard.isVisible() and wizard.session.machine is not None
    assert wizard.lang_button.menu() is not None


def test_every_page_sets_its_own_texts_on_a_language_switch():
    """A page that did not override retranslate() would keep its old language after Ctrl+L."""
    from gpucheck.ui.pages import details, jobs, machine, report, welcome
    from gpucheck.ui.pages.base import BasePage

    pages = (welcome.WelcomePage, machine.MachinePage, jobs.JobsPage, details.DetailsPage, report.ReportPage)
    for cls in pages:
        assert cls.retranslate is not BasePage.retranslate, f"{cls.__name__} does not retranslate its texts"
