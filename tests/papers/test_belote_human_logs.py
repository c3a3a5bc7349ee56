"""The paper's human games, recomputed from the author's raw logs (data/belote_human_logs/)."""

from __future__ import annotations

import pytest

from infosets.experiments.config import repo_root
from infosets.games.belote2p import log as game_log
from infosets.papers import belote_human_games as humans

# The paper's Section VI / Fig. 6 numbers (trick win percentages, rounded).
PAPER_TRICK_WIN_PCT = (40, 41, 49, 46, 57, 56, 54, 59, 49, 56, 48, 57, 60, 73, 78, 71)


@pytest.fixture(scope="module")
def games():
    return humans.published_games(repo_root())


def test_published_logs_give_the_papers_counts(games):
    assert len(games) == 63
    assert sorted(games["source"].unique()) == ["logs.txt", "logsAB.txt", "logsCL.txt",
                                                "logsLM.txt", "logsOS.txt"]
    table = humans.summary(games, "human").set_index("statistic")
    assert round(table.loc["above_81", "value"] * 63) == 43
    assert table.loc["mean_score", "value"] == pytest.approx(92.14, abs=0.005)
    assert table.loc["mean_score_ai_first", "n"] == 29
    assert table.loc["mean_score_ai_first", "value"] == pytest.approx(97.31, abs=0.005)
    assert table.loc["mean_score_opponent_first", "n"] == 34
    assert table.loc["mean_score_opponent_first", "value"] == pytest.approx(87.74, abs=0.005)
    gap = table.loc["first_leader_gap"]
    assert gap["value"] == pytest.approx(97.31 - 87.74, abs=0.01)
    assert gap["lo"] < 0 < gap["hi"]  # the paper's +9.6 is not significant at 95%


def test_trick_win_rates_reproduce_fig6(games):
    rates = humans.trick_win_rates(games, "human")
    assert [round(100 * r) for r in rates["win_rate"]] == list(PAPER_TRICK_WIN_PCT)
    assert ((rates["lo"] <= rates["win_rate"]) & (rates["win_rate"] <= rates["hi"])).all()
    assert (rates["n"] == 63).all()


def test_own_games_are_written_in_the_published_format(tmp_path):
    path = tmp_path / "mine.txt"
    line = game_log.append_game(path, True, [1, 0] * 8, 97)
    assert line == "AABABABABABABABAB;97"
    published = (repo_root() / humans.LOG_FOLDER / "logs.txt").read_text().splitlines()[0]
    assert game_log.parse_line(published)["ai_score"] == 80
    mine = game_log.read_games(path)
    assert mine.loc[0, "ai_led_first"] and mine.loc[0, "trick_1"] == 1
    assert humans.summary(mine, "me").set_index("statistic").loc["mean_score", "value"] == 97


def test_malformed_records_are_named(tmp_path):
    (tmp_path / "bad.txt").write_text("AAAA;12\n")
    with pytest.raises(ValueError, match="bad.txt: 1 malformed"):
        game_log.read_folder(tmp_path)
    with pytest.raises(ValueError, match="POINTS"):
        game_log.parse_line("A" * 17 + ";200")
    with pytest.raises(ValueError, match="ai_score"):
        game_log.format_game(True, [1] * 16, 200)
