"""Playing Belote against the AI: the terminal prompt, the widget, the log, bad input."""

import io

import pytest

from infosets.games.belote2p import log as game_log
from infosets.games.belote2p.__main__ import main, play
from infosets.games.belote2p.play import Match, parse_seat
from infosets.games.belote2p.rules import card_name
from infosets.games.belote2p.widget import BeloteBoard


def _scripted(lines):
    """A fake ``input`` that answers from ``lines``, then from the match's first legal card."""
    queue = list(lines)
    state = {}

    def read(prompt=""):
        if queue:
            return queue.pop(0)
        match = state["match"]
        return card_name(match.legal_cards()[0])

    return read, state


def _illegal_but_known(match):
    """A card that exists but cannot be played now."""
    legal = set(match.legal_cards())
    return next(card_name(c) for c in range(32) if c not in legal)


def test_terminal_reprompts_on_bad_input_and_finishes(tmp_path):
    log = tmp_path / "games.log"
    match = Match(5, human_seat=0, iterations=20, log_path=log)
    match.run_ai()
    bad_card = _illegal_but_known(match)
    read, state = _scripted(["zz", "11H", "", "help", bad_card, "7 X", "  "])
    state["match"] = match
    out = io.StringIO()
    assert play(match, read, out) == 0
    text = out.getvalue()
    assert text.count("invalid:") == 4  # zz, 11H, the illegal card, 7 X
    assert "is unknown" in text and "cannot be played now" in text
    assert "playable:" in text and "game over" in text
    games = game_log.read_games(log)
    assert len(games) == 1
    assert games.loc[0, "ai_score"] == match.score()[1]
    assert games.loc[0, "ai_led_first"] == (match.state.first_leader == 1)
    assert games.loc[0, [f"trick_{i}" for i in range(1, 17)]].sum() == sum(
        1 for _, _, _, w in match.state.plays if w == 1)


def test_terminal_quits_cleanly_on_eof_and_quit():
    match = Match(1, human_seat=1, iterations=10)

    def eof(prompt=""):
        raise EOFError

    out = io.StringIO()
    assert play(match, eof, out) == 1 and "bye" in out.getvalue()
    match = Match(2, human_seat=0, iterations=10)
    assert play(match, lambda p="": "quit", io.StringIO()) == 1


def test_main_rejects_unknown_seat_and_impossible_deal(capsys):
    assert main(["play", "--seat", "7"], read=lambda p="": "quit") == 2
    assert "seat '7' is unknown" in capsys.readouterr().err
    assert main(["play", "--min-trumps", "9", "--seed", "1"], read=lambda p="": "quit") == 2
    err = capsys.readouterr().err.strip()
    assert "min_trumps" in err and "\n" not in err
    with pytest.raises(ValueError, match="seat"):
        parse_seat("north")


def test_widget_and_prompt_give_the_same_message_for_the_same_wrong_input():
    prompt_match = Match(9, human_seat=0, iterations=10)
    prompt_match.run_ai()
    board = BeloteBoard(Match(9, human_seat=0, iterations=10))
    bad = _illegal_but_known(prompt_match)
    for text in ["zz", "10X", bad]:
        expected = prompt_match.submit(text)
        assert expected and "\n" not in expected
        assert board.type_card(text) == expected
        assert expected in board.message.value
    # a legal click plays, then the AI answers: it is the human's turn again or the game ended
    before = len(board.match.state.plays)
    board.click(board.match.legal_cards()[0])
    assert len(board.match.state.plays) >= before + 1
    assert board.match.human_to_move() or board.match.is_over()
    enabled = [b.description for b in board.cards.children if not b.disabled]
    assert sorted(enabled) == sorted(card_name(c) for c in board.match.legal_cards())


def test_widget_headless_ai_plays_both_seats():
    board = BeloteBoard(Match(4, human_seat=None, iterations=10))
    assert board.match.is_over()
    assert "game over" in board.message.value
    assert len(board.match.history_lines()) == 16
    assert board.match.history_lines()[-1].startswith("R 16 :")


def test_log_round_trip_and_malformed_lines(tmp_path):
    path = tmp_path / "h.log"
    line = game_log.append_game(path, True, [1, 0] * 8, 97)
    assert line == "AABABABABABABABAB;97"
    with open(path, "a") as fh:
        fh.write("BAAAA;12\nnonsense\n")
    games = game_log.read_games(path)
    assert len(games) == 1 and games.attrs["skipped"] == 2
    assert path.read_text().startswith("#")
    with pytest.raises(ValueError, match="ai_score"):
        game_log.format_game(True, [1] * 16, 200)
    assert game_log.read_games(tmp_path / "missing.log").empty
