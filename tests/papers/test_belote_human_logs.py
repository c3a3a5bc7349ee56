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


def test_a_game_is_never_glued_onto_a_last_line_without_its_newline(tmp_path):
    """2026-11-28: a log whose last line lacked its newline (edited by hand) got the next game
    glued onto it, and both games were then skipped as malformed."""
    path = tmp_path / "mine.txt"
    path.write_text("AABABABABABABABAB;97")  # no final newline
    game_log.append_game(path, False, [0] * 16, 20)
    games = game_log.read_games(path)
    assert games.attrs["skipped"] == 0 and list(games["ai_score"]) == [97, 20]
    crlf = tmp_path / "crlf.txt"
    crlf.write_bytes(b"AABABABABABABABAB;97\r\nBBBBBBBBBBBBBBBBB;0")
    game_log.append_game(crlf, True, [1] * 16, 162)
    assert list(game_log.read_games(crlf)["ai_score"]) == [97, 0, 162]
    assert crlf.read_bytes().endswith(b"BBBBBBBBBBBBBBBBB;0\r\nAAAAAAAAAAAAAAAAA;162\r\n")


def test_an_append_is_atomic_and_keeps_the_file_mode(tmp_path, monkeypatch):
    """A disk that fails halfway through the write leaves the log as it was (the old in-place
    append left half a line, which the next game was glued onto), and the log keeps its
    permissions."""
    import builtins
    import os

    path = tmp_path / "mine.txt"
    game_log.append_game(path, True, [1, 0] * 8, 97)
    os.chmod(path, 0o640)
    before = path.read_bytes()
    real_open = builtins.open

    class HalfWritten:
        """A file whose first write stores half its data, then fails as a full disk does."""

        def __init__(self, handle):
            self.handle = handle

        def write(self, data):
            self.handle.write(data[: len(data) // 2])
            self.handle.flush()
            raise OSError(28, "No space left on device")

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            self.handle.close()

    def failing_open(file, mode="r", *args, **kwargs):
        handle = real_open(file, mode, *args, **kwargs)
        return HalfWritten(handle) if ("w" in mode or "a" in mode) else handle

    monkeypatch.setattr(builtins, "open", failing_open)
    with pytest.raises(OSError):
        game_log.append_game(path, False, [0] * 16, 20)
    monkeypatch.undo()
    assert path.read_bytes() == before
    assert [p.name for p in tmp_path.iterdir()] == ["mine.txt"]  # no temporary file left
    game_log.append_game(path, False, [0] * 16, 20)
    assert os.stat(path).st_mode & 0o777 == 0o640
    assert list(game_log.read_games(path)["ai_score"]) == [97, 20]
