"""Monopoly Deal's turn counter (``game.turn_counter``, kernel ``nb_turn``): the optional part of the
kernel contract (infosets.games.kernels) that TAG's END_TURN rollouts read (issue 56,
docs/tag_agents.md section 3; TAG's ``MonopolyDealForwardModel._afterAction``): a turn is up to
three plays with the responses and payments inside it, then the discards; the counter changes
exactly when an action ends it, in both twins."""

import random

import pyspiel

import infosets.games  # noqa: F401  (registers monopoly_deal)
from infosets.games import _tabletop as tt
from infosets.games.monopoly_deal import game as md
from infosets.games.monopoly_deal import kernel as mk


def _kernel(hands, n=3):
    """Player 0 to play with the given hands (card -> count); the deck holds the rest (the
    array written directly)."""
    k = md.MonopolyDealKernel(n, 100)
    s = k.s
    s[mk.NTD] = 0
    s[mk.TD : mk.TD + mk.MAXP + 1] = 0
    for p, h in enumerate(hands):
        base = mk.PL + mk.PS * p
        for card, c in h.items():
            s[base + mk.O_HAND + card] += c
            s[mk.DECK + card] -= c
            s[mk.DECKN] -= c
            for _ in range(c):
                m = s[base + mk.O_NLIVE]
                s[base + mk.O_LIVE + m], s[base + mk.O_LIDX + m] = card, -1
                s[base + mk.O_NLIVE] = m + 1
    return k


def _counters(k):
    return md.turn_counter(k), int(mk.nb_turn(k.s))


def test_a_turn_ends_with_the_last_payment_of_its_third_play():
    """P0 banks twice, then charges rent on its complete red set: the responses and payments of
    P1 and P2 are inside P0's turn, which the last payment ends (P1 then draws)."""
    k = _kernel([{mk.M1: 2, mk.RENT_RY: 1}, {}, {}])
    k.s[mk.PL + mk.O_PROPS + mk.RED * mk.NUM_KINDS] = 3
    k.s[mk.PL + mk.PS * 1 + mk.O_BANK + mk.M5] = 1
    k.s[mk.PL + mk.PS * 2 + mk.O_BANK + mk.M1] = 1
    seen = []
    for action in (mk.M1, mk.M1, mk.A_RENT + mk.RED, mk.A_ACCEPT, mk.A_PAY_BANK + mk.M5, mk.A_ACCEPT):
        k.apply(action)
        seen.append(_counters(k))
    assert seen == [(0, 0)] * 6 and k.current_player() == 2
    k.apply(mk.A_PAY_BANK + mk.M1)  # P2's last card: the debt is settled as far as it can be
    assert _counters(k) == (1, 1) and k.cur == 1 and k.current_player() == tt.CHANCE


def test_discards_are_inside_the_turn():
    k = _kernel([{mk.M1: 9}, {}, {}])
    k.apply(mk.A_END_TURN)
    assert k.phase == mk.DISCARD and _counters(k) == (0, 0)
    k.apply(mk.A_DISCARD + mk.M1)
    assert _counters(k) == (0, 0)
    k.apply(mk.A_DISCARD + mk.M1)
    assert _counters(k) == (1, 1) and k.cur == 1


def _chance(rnd, state):
    outcomes = state.chance_outcomes()
    return rnd.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0]


def test_random_games_both_twins_change_exactly_when_the_turn_owner_changes():
    """Along random games (2-4 players): the Python counter equals the kernel's on the array
    played alongside; it moves by one exactly when an action passes the turn (the turn owner
    changes, or the turn cap ends the game; a draw passes it when a Pass Go was the third play)."""
    rnd, ends = random.Random(5), 0
    for players in (2, 3, 4):
        game = pyspiel.load_game(f"monopoly_deal(players={players},max_turns=12)")
        for _ in range(3):
            state, array = game.new_initial_state(), mk.new_state(players, 12)
            while not state.is_terminal():
                before, owner = md.turn_counter(state), state.kernel.cur
                action = _chance(rnd, state) if state.is_chance_node() else rnd.choice(state.legal_actions())
                state.apply_action(action)
                mk.nb_apply_action(array, action)
                now = md.turn_counter(state)
                assert int(mk.nb_turn(array)) == now
                passed = state.kernel.cur != owner or (state.is_terminal() and state.kernel.winner < 0)
                assert now - before == (1 if passed else 0), (players, state.kernel.log[-3:])
                ends += now - before
    assert ends > 20
