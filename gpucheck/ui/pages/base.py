"""What every page shares: a scrollable body, a back-reference to the wizard, retranslation."""

from __future__ import annotations

from PySide6 import QtWidgets
from PySide6.QtCore import QSize, Qt, QTimer


class _Content(QtWidgets.QWidget):
    """A page's scrolled content. Its height follows its width (wrapped text), so it claims no minimum
    height: a page that fits the window shows no scroll bar, a longer one scrolls."""

    def minimumSizeHint(self) -> QSize:
        return QSize(super().minimumSizeHint().width(), 0)


class BasePage(QtWidgets.QWizardPage):
    """A page whose content scrolls when the window is small; subclasses fill `self.body`."""

    def __init__(self, wizard, parent=None):
        super().__init__(parent)
        self.wiz = wizard
        outer = QtWidgets.QVBoxLayout(self)
        outer.setContentsMargins(0, 0, 0, 0)
        self.scroll = QtWidgets.QScrollArea(self)
        self.scroll.setWidgetResizable(True)
        self.scroll.setFrameShape(QtWidgets.QFrame.Shape.NoFrame)
        self.scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.inner = _Content()
        self.body = QtWidgets.QVBoxLayout(self.inner)
        self.body.setContentsMargins(4, 4, 12, 4)
        self.body.setSpacing(10)
        self.scroll.setWidget(self.inner)
        outer.addWidget(self.scroll)
        self.built = False

    def _build(self) -> None:  # create the page's widgets (once, when first needed)
        pass

    def ensure_built(self) -> None:
        if not self.built:
            self.built = True
            self._build()
            self.retranslate()

    # a page that tells one story from its top (the machine, a job's details) opens at its top, never at the
    # scroll position of the machine or job shown before
    scroll_top_on_entry = False

    def initializePage(self) -> None:
        if not self.built:
            self.ensure_built()  # its retranslate() ends by showing the session's data: no second refresh
        else:
            self.refresh()
        if self.scroll_top_on_entry:
            self.scroll_to_top()

    def scroll_to_top(self) -> None:
        """At the top now, and again once the new content is laid out (its height may change the range)."""
        bar = self.scroll.verticalScrollBar()  # type: ignore[attr-defined]  # the QScrollArea, not QWidget.scroll
        bar.setValue(0)
        QTimer.singleShot(0, lambda: bar.setValue(0))

    @property
    def session(self):
        return self.wiz.session

    def is_live(self) -> bool:
        """Shown now or before: worth recomputing. Pages not reached yet compute when entered."""
        w = self.wiz
        pid = next((i for i in w.pageIds() if w.page(i) is self), None)
        return pid is not None and (w.currentId() == pid or w.hasVisitedPage(pid))

    def has_session_data(self) -> bool:
        """Built, with a scanned machine, and live (see is_live): `refresh` has something to show."""
        return self.built and self.session.machine is not None and self.is_live()

    def retranslate(self) -> None:
        """Set every text on the page again in the current language, then `refresh()` (a page with data to
        show). Each page overrides this (tests/ui/test_app_shell.py checks that none is left out)."""

    def refresh(self) -> None:  # show the session's current data
        pass
