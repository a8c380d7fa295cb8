"""The fitted factors' identifiability (tests/core/fitted_factors.py; docs/accuracy.md 'Fitted factors'): a factor is
fitted only on calibration rows of several independent source groups, or says why not; a factor held at its prior
carries that prior in resources/factors.toml, so the estimate a user sees uses the value the documents name."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from gpucheck.catalog import read_toml  # noqa: E402
from gpucheck.estimate.factors import parse_factors  # noqa: E402
from gpucheck.evidence import load_evidence  # noqa: E402
from gpucheck.resources import resource_path  # noqa: E402
from tests.core import accuracy as A  # noqa: E402
from tests.core import refit as R  # noqa: E402

GROUP = {r.id: r.group for r in load_evidence()}


def test_a_fitted_factor_rests_on_several_source_groups_or_says_why() -> None:
    fitted = read_toml(resource_path("factors.toml"))["fitted"]
    for p in A.FIT:
        groups = {GROUP[i] for i in fitted[p.name]["fitted_on"]}
        assert len(groups) >= A.MIN_GROUPS or p.few_groups, (p.name, sorted(groups))


def test_a_held_factor_is_shipped_at_its_prior_with_a_reason() -> None:
    doc = read_toml(resource_path("factors.toml"))
    for p in A.FITTED:
        assert not (p.held and p.few_groups), p.name
        if p.held:
            for path in p.paths:
                assert A._get(doc, path) == pytest.approx(p.prior, rel=1e-3), (p.name, path)


def test_the_refit_never_moves_a_held_factor() -> None:
    """One calibration row that would pull every factor: the held ones stay at their priors."""
    rows = [r for r in load_evidence() if r.role == "calibration" and r.group == "lightning-ai"
            and not r.measured.is_memory][:2]
    _, values = R.refit(rows)
    for p in A.FITTED:
        if p.held:
            assert values[p.name] == pytest.approx(p.prior), p.name


def test_a_row_depends_on_a_factor_that_moves_it_only_far_from_its_prior() -> None:
    """Two MI210 BERT runs hide their kernel launches behind the GPU at launch_us's prior and at 2× it; at 3×, where the
    refit without Lambda's rows takes it, they do not. The refit recomputes a row on a factor's trial values only where
    the factor moves it, and the leave-one-source-out memo keys a row's estimate by those factors alone."""
    rows = [r for r in load_evidence() if r.id in ("rocmblog-ray-bert-base-2xmi210", "rocmblog-ray-bert-base-4xmi210")]
    memo = R._Memo()
    memo.learn(rows, *R._at_priors())
    launch = A.FIT.index(next(p for p in A.FIT if p.name == "dispatch.launch_us"))
    assert len(rows) == 2 and all(launch in memo.depends[r.id] for r in rows)


def test_the_leave_one_source_out_memo_fits_what_the_plain_refit_fits() -> None:
    """The refits without each group reuse each other's estimates (tests/core/refit.py _Memo): the fitted values
    are the plain refit's, for a refit and for a second one answered partly from the first one's estimates."""
    rows = [r for r in load_evidence() if r.role == "calibration" and not r.measured.is_memory
            and r.group in ("amd-rocm-blogs", "lucadiliello", "shivamshrirao")]
    plain, part = R.refit(rows)[1], R.refit(rows[1::2])[1]
    R._MEMO = R._Memo()
    try:
        R._MEMO.learn(rows, *R._at_priors())
        with_memo, part_memo = R.refit(rows)[1], R.refit(rows[1::2])[1]
    finally:
        R._MEMO = None
    assert with_memo == plain and part_memo == part
    assert any(with_memo[p.name] != p.prior for p in A.FIT)  # the fit moved: the memo answered, not a no-op


def test_a_trial_value_changes_the_factor_table_as_parsing_the_changed_file_would() -> None:
    """The refit sets a trial value in the parsed table instead of parsing factors.toml again for each of its
    thousands of trials: the table must be the one the changed file parses to, every other factor untouched."""
    doc, table = R._at_priors()
    for p in A.FITTED:
        value = max(p.lo, min(p.hi, p.prior * 0.8))
        A.set_fitted(doc, p, value)
        assert R._with_fitted(table, p, value) == parse_factors(doc, "refit"), p.name
        A.set_fitted(doc, p, p.prior)
