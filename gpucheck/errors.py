"""Errors a user can cause. The CLI turns BadInput into one line on stderr and exit code 2;
the GUI turns it into a dialog. Anything else is an internal error (exit 1, logged)."""


class BadInput(Exception):
    """Input the user gave us is wrong: a file, a name, a number. The message names what and why."""

    def named(self, name_of) -> str:  # noqa: ARG002 — a setting's error names it as the caller spells it
        """The message, with any training setting it names called `name_of(setting)` (the CLI: "--seq-len");
        gpucheck.estimate.BadSetting overrides it."""
        return str(self)


class UnknownName(BadInput):
    """A GPU or workload name that matched nothing; `suggestions` holds near matches."""

    def __init__(self, message: str, suggestions: tuple[str, ...] = ()):
        super().__init__(message)
        self.suggestions = suggestions


class AmbiguousName(UnknownName):
    """A GPU name that fits several catalog entries (or memory sizes): `suggestions` lists every candidate;
    none is picked."""
