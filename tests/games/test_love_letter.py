"""Tests of the Love Letter port (lib/infosets/games/love_letter.py)."""

import numpy as np
import pyspiel
import pytest

import infosets.games  # noqa: F401
from infosets.games import _tabletop as tt
from infosets.games import love_letter as ll
from tabletop_checks import (
    check_adapter_agrees_with_kernel,
    check_errors,
    check_kernel_is_a_search_state,
    check_resample_along_games,
    check_resample_keeps_infostate,
    chi_square_pvalue,
    play_to_decision,
)

G, PR, B, H, P, K, C, X = range(8)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_sim(players):
    game = pyspiel.load_game(f"love_letter(players={players})")
    pyspiel.random_sim_test(game, num_sims=5, serialize=True, verbose=False)


def test_adapter_agrees_with_kernel():
    check_adapter_agrees_with_kernel(pyspiel.load_game("love_letter"), seed=1, games=40)


@pytest.mark.parametrize("players", [2, 4])
def test_resample_keeps_infostate(players):
    check_resample_keeps_infostate(pyspiel.load_game(f"love_letter(players={players})"),
                                   seed=2, states=40)


def test_errors():
    check_errors("love_letter", bad_players=[1, 5])


def _owners_see_their_hands(k):
    """The fields parallel to hands set by hand: each owner sees their cards, no one else
    does, and no public outcome constrains them."""
    k.seen = [[1 << p] * len(h) for p, h in enumerate(k.hands)]
    k.allow = [[ll.ANY_CARD] * len(h) for h in k.hands]
    k.link = [[0] * len(h) for h in k.hands]
    k.views = [[(1 << p,) * ll.NUM_TYPES] * len(h) for p, h in enumerate(k.hands)]


def _kernel(hands, pool=None, n=3, cur=0, tokens_to_win=1):
    """A kernel at ``cur``'s decision with the given hands (each owner sees their cards)."""
    k = ll.LoveLetterKernel(n, tokens_to_win)
    k.queue = []
    k.hands = [list(h) for h in hands]
    _owners_see_their_hands(k)
    k.cur = cur
    if pool is None:
        pool = list(ll.DECK_COUNTS)
        for h in hands:
            for c in h:
                pool[c] -= 1
    k.pool = pool
    return k


def test_countess_must_be_played_with_king_or_prince():
    k = _kernel([[C, K], [G], [G]])
    assert {ll.decode(a)[0] for a in k.legal_actions()} == {C}
    k = _kernel([[C, G], [G], [G]])
    assert {ll.decode(a)[0] for a in k.legal_actions()} == {C, G}


def test_guard_baron_prince_king_effects():
    k = _kernel([[G, B], [PR], [H]])
    k.apply(ll.encode(G, 1, PR))
    assert not k.alive[1] and k.discards[1] == [PR]
    assert k.queue == [2]                          # player 2 draws next
    k = _kernel([[B, K], [P], [H]])
    k.apply(ll.encode(B, 1))
    assert not k.alive[1] and k.alive[0]           # King 6 beats Prince 5
    k = _kernel([[P, G], [X], [H]])
    k.apply(ll.encode(P, 1))
    assert not k.alive[1]                          # a discarded Princess is out
    k = _kernel([[K, G], [H], [PR]])
    k.apply(ll.encode(K, 2))
    assert k.hands[0] == [PR] and k.hands[2] == [G]
    assert k.seen[0][0] == k.seen[2][0] == 0b101   # both traders know both cards


def test_handmaid_protects_until_next_turn():
    k = _kernel([[H, G], [G], [G]])
    k.apply(ll.encode(H, 0))
    assert k.immune[0]
    k.apply(G)                                     # player 1 draws a Guard
    assert all(ll.decode(a)[1] != 0 for a in k.legal_actions())


def test_deck_out_highest_card_wins():
    pool = [0] * 8
    pool[G] = 2                                    # one deck card plus the removed card
    k = _kernel([[H, B], [PR], [K]], pool=pool)
    k.apply(ll.encode(B, 1))                       # Baron 3 vs Priest 2: player 1 out
    k.apply(G)                                     # player 2 draws the last deck card
    k.apply(ll.encode(G, 0, PR))                   # misses; the deck is empty
    assert k.is_terminal() and k.alive == [True, False, True]
    assert k.returns() == [0.0, 0.0, 1.0]          # King 6 beats Handmaid 4


def test_known_card_forgotten_when_owner_plays_same_type():
    k = _kernel([[PR, H], [G], [B]])
    k.apply(ll.encode(PR, 1))
    assert k.seen[1][0] & 1                        # player 0 saw player 1's Guard
    k.apply(G)                                     # player 1 draws a second Guard
    k.apply(ll.encode(G, 2, K))                    # plays a Guard: which one is unknown
    assert not k.seen[1][0] & 1


def test_priest_knowledge_kept_by_resample_and_hidden_cards_uniform():
    game = pyspiel.load_game("love_letter")
    rng = np.random.default_rng(3)
    state = play_to_decision(game, rng, 0)
    player = state.current_player()
    mine = state.kernel.hands[player]
    unseen = np.array(ll.DECK_COUNTS, dtype=float)
    for c in mine:
        unseen[c] -= 1
    other = (player + 1) % 3
    counts = np.zeros(8, dtype=int)
    for _ in range(3000):
        counts[ll.sample_world(state, player, rng).kernel.hands[other][0]] += 1
    assert chi_square_pvalue(counts, unseen / unseen.sum()) > 1e-3
    # After a Priest look the target's card is fixed in every world of the looker (a kernel
    # built by hand has no history to rebuild a pyspiel world from: its resampler is checked).
    k = _kernel([[PR, G], [K], [B]])
    k.apply(ll.encode(PR, 1))
    for _ in range(50):
        world = k.resample(0, rng)
        assert world.hands[1] == [K]
        assert world.hands[0] == [G]


def test_resample_deals_only_worlds_the_rebuild_accepts():
    """``resample`` keeps the public record (Baron ties and wins, missed Guard guesses, the
    Countess rule, cards seen once and forgotten): every world it deals is one the registered
    sampler's check accepts (``rebuild_world``: a history keeping the player's information
    state at every move deals its cards), with the ``seen`` masks that history gives, so that
    sampler never redraws. (Conversely, the numba twin's worlds have the law of placements
    dealt uniformly and kept when the check accepts: test_love_letter_kernel.py.)"""
    game = pyspiel.load_game("love_letter(players=4,tokens_to_win=1)")
    rng = np.random.default_rng(4)
    constrained = 0
    for _ in range(40):
        state = play_to_decision(game, rng, int(rng.integers(0, 14)))
        k, history = state.kernel, state.history()
        constrained += any(a != ll.ANY_CARD for allow in k.allow for a in allow)
        for player in range(4):
            for _ in range(5):
                world = k.resample(player, rng)
                rebuilt = tt.rebuild_world(game, history, world, player)
                assert rebuilt is not None, (history, player, world.hands)
                assert rebuilt.kernel.hands == world.hands and rebuilt.kernel.seen == world.seen
    assert constrained >= 10


def test_resample_at_every_decision():
    check_resample_along_games(pyspiel.load_game("love_letter(players=4)"), seed=7, games=4)


def test_kernel_is_a_search_state():
    check_kernel_is_a_search_state(pyspiel.load_game("love_letter"), seed=8)


def test_rounds_until_affection_tokens():
    assert pyspiel.load_game("love_letter").tokens_to_win == 5
    assert pyspiel.load_game("love_letter(players=2)").tokens_to_win == 7
    assert pyspiel.load_game("love_letter(tokens_to_win=1)").tokens_to_win == 1
    with pytest.raises(ValueError, match="tokens_to_win"):
        pyspiel.load_game("love_letter(tokens_to_win=11)")
    pool = [0] * 8
    pool[G] = 2
    k = _kernel([[H, B], [PR], [K]], pool=pool, tokens_to_win=2)
    k.apply(ll.encode(B, 1))
    k.apply(G)
    k.apply(ll.encode(G, 0, PR))                   # deck out: player 2 (King) wins the round
    assert not k.is_terminal() and k.tokens == [0, 0, 1]
    assert k.cur == 2 and k.alive == [True] * 3 and sum(k.pool) == 16
    assert k.current_player() == pyspiel.PlayerId.CHANCE      # a fresh deal
    k.tokens = [1, 0, 1]
    k.queue = []
    k.hands = [[G], [PR], [H, X]]
    _owners_see_their_hands(k)
    k.pool = [3, 1, 2, 1, 2, 1, 1, 0]
    k.apply(ll.encode(X, 2))                       # playing the Princess: player 2 is out
    k.queue = []
    k.cur = 0
    k.hands[0].append(G)
    _owners_see_their_hands(k)
    k.apply(ll.encode(G, 1, PR))                   # hit: player 0 is the last one in
    assert k.is_terminal() and k.tokens == [2, 0, 1]
    assert k.returns() == [1.0, 0.0, 0.0]
