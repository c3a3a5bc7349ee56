"""Smoke run of the belief_mixtures notebook through papermill; checks the numbers it wrote."""
import pytest

from infosets.claims import COLUMNS, VERDICTS
from infosets.experiments.run_notebooks import run_notebook
from infosets.papers import belief_mixtures as paper

pytestmark = pytest.mark.notebook


def test_belief_mixtures_smoke(tmp_path):
    # workers=1: serial, as quickstart_twice runs; no 2-process pool to start and no warm-up of
    # the numba engine of every game the paper module names
    run = run_notebook("belief_mixtures", tmp_path, workers=1)
    names = {p.name for p in run.files}
    assert {"tssr_vs_lambda.png", "best_responder_vs_lambda.png", "best_responder_heatmaps.png",
            "winrate_vs_lambda.png", "claims.csv", "best_responder_seat0.csv",
            "table1_readings.csv", "winrate_seat0.csv"} <= names
    claims = run.table("claims")
    assert list(claims.columns) == list(COLUMNS) and set(claims.verdict) <= set(VERDICTS)
    assert len(claims) >= 5
    table = run.table("best_responder_seat0")
    ours = table[(table.algo == "PIMC") & (table.game == "LP") & (table.source == "ours")].iloc[0]
    # Leduc PIMC at λ = 0 and λ = 1 agree with Table 1 (0.622, 1.611) within the protocol's noise.
    assert abs(ours["0"] - 0.622) < 0.05 and abs(ours["1"] - 1.611) < 0.05
    wins = run.table("winrate_seat0")
    assert ((wins.ci_low <= wins.win_pct) & (wins.win_pct <= wins.ci_high)).all()
    assert (wins.n == 6).all()
    readings = run.table("table1_readings")
    assert readings.closest.sum() == 1  # the 3-sided die: the 2-sided one is flat over λ
    assert readings.loc[readings.closest, "reading"].tolist() == ["3:reset-face:exact:uniform"]


def test_bad_reading_is_rejected():
    with pytest.raises(ValueError, match="readings"):
        paper.parse_reading("7:reset-face:exact:uniform")
