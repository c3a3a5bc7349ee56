"""Smoke run of the play_belote notebook: headless (the AI plays both seats), nothing logged."""

import pytest

from infosets.claims import COLUMNS, VERDICTS
from infosets.experiments.run_notebooks import run_notebook

pytestmark = pytest.mark.notebook


def test_play_belote_smoke(tmp_path):
    # workers=1: serial, as quickstart_twice runs; no 2-process pool to start and no warm-up of
    # the numba engine of every game the paper module names
    run = run_notebook("play_belote", tmp_path, workers=1)
    games = run.table("selfplay")
    assert len(games) == 1
    assert (games["score_0"] + games["score_1"] == 162).all()
    claims = run.table("claims")
    assert list(claims.columns) == list(COLUMNS) and set(claims["verdict"]) <= set(VERDICTS)
