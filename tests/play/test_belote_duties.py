"""A refused Belote card names the duty that forbids it (issue 52, item 9): follow suit, trump,
over-trump, follow the trump lead; the reasons agree with the game's legal moves."""

import numpy as np
import pytest

from infosets.games.belote2p.kernel import legal_reply_mask
from infosets.games.belote2p.rules import card_name, mask_of, parse_card
from infosets.play.belote_duties import why_not
from infosets.play.belote_match import Match


def _why(card, playable, lead):
    return why_not(parse_card(card), mask_of(parse_card(c) for c in playable), parse_card(lead))


def test_must_follow_suit():
    assert _why("AS", ["7H", "AS"], "8H") == "you must follow suit: 8H was led and you have hearts"


def test_must_trump_without_the_led_suit():
    assert _why("AS", ["7C", "AS"], "8H") == (
        "you must trump: 8H was led, you have no hearts and you have clubs")


def test_must_over_trump_a_trump_lead():
    expected = "you must over-trump: 10C was led and you can play a higher trump"
    assert _why("7C", ["JC", "7C", "AS"], "10C") == expected  # a lower trump
    assert _why("AS", ["JC", "7C", "AS"], "10C") == expected  # no trump at all


def test_must_follow_the_trump_lead_without_a_higher_trump():
    assert _why("AS", ["7C", "AS"], "JC") == (
        "you must follow the trump lead: JC was led and you have clubs")


def test_an_allowed_or_missing_card_has_no_reason():
    with pytest.raises(ValueError, match="is allowed on 8H"):
        _why("AS", ["AS", "7D"], "8H")
    with pytest.raises(ValueError, match="may be led"):
        why_not(parse_card("AS"), mask_of([parse_card("AS")]), -1)
    with pytest.raises(ValueError, match="not among the player's playable cards"):
        _why("AS", ["7D"], "8H")


def test_a_reason_exactly_for_the_cards_the_game_refuses():
    rng = np.random.default_rng(0)
    for _ in range(2000):
        playable = int(rng.integers(1, 1 << 32))
        lead = int(rng.integers(32))
        playable &= ~(1 << lead)
        if not playable:
            continue
        legal = legal_reply_mask(playable, lead)
        for card in range(32):
            if not playable >> card & 1:
                continue
            if legal >> card & 1:
                with pytest.raises(ValueError):
                    why_not(card, playable, lead)
            else:
                assert why_not(card, playable, lead).startswith("you must ")


def test_the_match_says_which_duty_refused_the_card():
    """Was '(follow the rules)' without the rule. The first card is led by hand (no search),
    then the other seat is the human's."""
    for seed in range(40):
        match = Match(seed, human_seat=0, iterations=5)
        k = match.state.kernel
        responder = 1 - match.to_move()
        for lead in match.legal_cards():
            mine = k.playable(responder)
            refused = [c for c in range(32) if mine >> c & 1
                       and not legal_reply_mask(mine, lead) >> c & 1]
            if refused:
                match.state.apply_action(lead)
                match.human = responder
                message = match.submit(card_name(refused[0]))
                assert message.startswith(f"{card_name(refused[0])} cannot be played now (")
                assert f"({why_not(refused[0], mine, lead)}); playable: " in message
                assert match.to_move() == responder  # the card was not played
                return
    pytest.fail("no position with a refused card in 40 deals")
