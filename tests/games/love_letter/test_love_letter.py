"""Tests of the Love Letter port (lib/infosets/games/love_letter/game.py, on the rules of
kernel.py): rules by hand-worked examples, the adapter, and the world sampler (its record,
its worlds' independence from hidden history, exactness against brute force)."""

import itertools

import numpy as np
import oracle_checks as oc
import pyspiel
import pytest

import infosets.games  # noqa: F401
from infosets.games import _tabletop as tt
from infosets.games.love_letter import game as ll
from infosets.games.love_letter import kernel as lk
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

oracle = oc.load_oracle(__file__)
# The state's fields, as the oracle names them (the port reads them from its array).
FIELDS = oracle.LoveLetterKernel.__slots__


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


def _set_hands(k, hands):
    """Write ``hands`` into the kernel's array; each owner sees their cards, no one else does."""
    for p, hand in enumerate(hands):
        k.s[lk.HAND_LEN + p] = len(hand)
        for i, c in enumerate(hand):
            k.s[lk.HANDS + 2 * p + i] = c
            k.s[lk.SEEN + 2 * p + i] = 1 << p


def _kernel(hands, pool=None, n=3, cur=0, tokens_to_win=1):
    """A kernel at ``cur``'s decision with the given hands (each owner sees their cards),
    written into the array: it has no chance outcomes (``drawn``) to sample worlds from
    (``_dealt``)."""
    k = ll.LoveLetterKernel(n, tokens_to_win)
    k.s[lk.QUEUE_LEN] = 0
    _set_hands(k, hands)
    k.s[lk.CUR] = cur
    if pool is None:
        pool = list(ll.DECK_COUNTS)
        for h in hands:
            for c in h:
                pool[c] -= 1
    k.s[lk.POOL : lk.POOL + 8] = pool
    return k


def _dealt(draws, plays=(), n=3):
    """The kernel of a round (player 0 first) dealt by ``draws`` in order (each player's
    first card, then each turn's draw, as the queue asks) with the ``plays`` in between."""
    k = ll.LoveLetterKernel(n, 1)
    draws, plays = list(draws), list(plays)
    while draws or plays:
        k.apply(draws.pop(0) if k.queue else plays.pop(0))
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
    # After a Priest look the target's card is fixed in every world of the looker.
    k = _dealt([PR, K, B, G], [ll.encode(PR, 1)])
    for _ in range(50):
        world = k.resample(0, rng)
        assert world.hands[1] == [K]
        assert world.hands[0] == [G]


def test_resample_deals_only_worlds_the_rebuild_accepts():
    """``resample`` keeps the public record (Baron ties and wins, missed Guard guesses, the
    Countess rule, cards seen once and forgotten): every world it deals is one the registered
    sampler's check accepts (``rebuild_world``: its history keeps the player's information
    state at every move and deals its cards), with the ``seen`` masks that history gives, so
    that sampler never redraws. (Conversely, every consistent placement can be dealt:
    ``test_record_allows_exactly_the_consistent_placements``.)"""
    game = pyspiel.load_game("love_letter(players=4,tokens_to_win=1)")
    rng = np.random.default_rng(4)
    constrained = 0
    for _ in range(40):
        state = play_to_decision(game, rng, int(rng.integers(0, 14)))
        k, history = state.kernel, state.history()
        constrained += any(o in ("miss", "tie") or o.startswith("out") for *_, o in k.log)
        for player in range(4):
            for _ in range(5):
                world = k.resample(player, rng)
                rebuilt = tt.rebuild_world(game, history, world, player)
                assert rebuilt is not None, (history, player, world.hands)
                assert rebuilt.kernel.hands == world.hands and rebuilt.kernel.seen == world.seen
    assert constrained >= 10


def test_resample_at_every_decision():
    # 2 games (187 decisions), not 4: with the witness history not undoing a King's swap, a
    # Baron's loss or a Princess's discard (``witness``), the first game alone fails at 44 to
    # 112 of its sampled worlds
    check_resample_along_games(pyspiel.load_game("love_letter(players=4)"), seed=7, games=2)


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
    k.s[lk.TOKENS : lk.TOKENS + 3] = [1, 0, 1]
    k.s[lk.QUEUE_LEN] = 0
    _set_hands(k, [[G], [PR], [H, X]])
    k.s[lk.POOL : lk.POOL + 8] = [3, 1, 2, 1, 2, 1, 1, 0]
    k.apply(ll.encode(X, 2))                       # playing the Princess: player 2 is out
    k.s[lk.QUEUE_LEN] = 0
    k.s[lk.CUR] = 0
    _set_hands(k, [[G, G], [PR], []])
    k.apply(ll.encode(G, 1, PR))                   # hit: player 0 is the last one in
    assert k.is_terminal() and k.tokens == [2, 0, 1]
    assert k.returns() == [1.0, 0.0, 0.0]


# -- worlds depend on the sampling player's information state only ------------------------
# Two rounds p2 cannot tell apart (3 players, p0 first): p0's Guard misses p1 naming the
# King, then p1, holding a Baron and a Guard, plays a Guard at p2 (naming the Princess: a
# miss) and keeps the Baron; p2 draws the Countess. In KEPT_OLD p1 held the Baron and drew the
# Guard, in KEPT_DRAWN p1 held the Guard and drew the Baron. The samplers of f66bb4a kept
# the missed guess on the copy the real game kept: no world gave p1 the King after KEPT_OLD.
GUARD_MISS = [ll.encode(G, 1, K), ll.encode(G, 2, X)]
KEPT_OLD = [G, B, H, PR, G, C]
KEPT_DRAWN = [G, G, H, PR, B, C]
# After a Baron tie between p0 and p1 (two Guards), p1 plays a Guard at p2 (a miss): p1 drew a
# Handmaid and played the tied Guard (TIE_DROPPED) or drew a Guard (TIE_KEPT); p2 draws a
# Countess. The samplers of f66bb4a pinned p0's card to a Guard after TIE_DROPPED only.
BARON_TIE = [ll.encode(B, 1), ll.encode(G, 2, X)]
TIE_DROPPED = [B, G, H, G, H, C]
TIE_KEPT = [B, G, H, G, G, C]


def _state(game, draws, plays):
    """The pyspiel state of ``_dealt(draws, plays)``."""
    state = game.new_initial_state()
    draws, plays = list(draws), list(plays)
    while draws or plays:
        state.apply_action(draws.pop(0) if state.is_chance_node() else plays.pop(0))
    return state


def _fields(k):
    return {name: getattr(k, name) for name in FIELDS}


def _p1_holds_the_king(k):
    return k.hands[1] == [K]


def _p0_holds_no_guard(k):
    return k.hands[0] != [G]


@pytest.mark.parametrize("plays,first,second,who,rare", [
    (GUARD_MISS, KEPT_OLD, KEPT_DRAWN, 1, _p1_holds_the_king),
    (BARON_TIE, TIE_DROPPED, TIE_KEPT, 0, _p0_holds_no_guard)])
def test_worlds_do_not_depend_on_the_copy_kept(plays, first, second, who, rare):
    """The same seed gives the same world in two rounds p2 cannot tell apart (``resample``
    and the registered ``sample_world``), and the worlds the truth of one of them would have
    excluded occur: p1 holds the King after the missed guess; p0 holds another card than a
    Guard after the tie."""
    game = pyspiel.load_game("love_letter(players=3,tokens_to_win=1)")
    states = [_state(game, draws, plays) for draws in (first, second)]
    history = [[], []]
    for draws, record in zip((first, second), history):
        k = ll.LoveLetterKernel(3, 1)
        for action in _state(game, draws, plays).history():
            k.apply(action)
            record.append(k.information_state_string(2))
    assert history[0] == history[1]            # p2's information state, move by move
    assert states[0].kernel.hands[who] == states[1].kernel.hands[who]
    assert states[0].history() != states[1].history()
    found = 0
    for seed in range(300):
        a, b = (s.kernel.resample(2, np.random.default_rng(seed)) for s in states)
        assert _fields(a) == _fields(b), seed
        found += rare(a)
    assert found > 10
    for seed in range(20):
        a, b = (tt.sample_world(s, 2, np.random.default_rng(seed)) for s in states)
        assert str(a) == str(b) and a.history() == b.history(), seed


def _indistinguishable(game, state, player):
    """The states reached by ``state``'s history with two chance outcomes of its last round
    exchanged that ``player`` cannot tell from it (the same information state after every
    move): other hidden histories, found without any sampler."""
    history = state.history()
    views, steps, k = [], [], game.new_kernel()
    for step, action in enumerate(history):
        if k.current_player() == tt.CHANCE:
            if sum(k.pool) == sum(ll.DECK_COUNTS):      # a round's first card
                steps = []
            steps.append(step)
        k.apply(action)
        views.append(k.information_state_string(player))
    found = []
    for a, b in itertools.combinations(steps, 2):
        if history[a] == history[b]:
            continue
        other = list(history)
        other[a], other[b] = other[b], other[a]
        k = game.new_kernel()
        for step, action in enumerate(other):
            if (not k.queue and action not in k.legal_actions()) or (k.queue and not k.pool[action]):
                break
            k.apply(action)
            if k.information_state_string(player) != views[step]:
                break
        else:
            found.append(_state_of(game, other))
    return found


def _state_of(game, history):
    state = game.new_initial_state()
    for action in history:
        state.apply_action(action)
    return state


def assert_worlds_depend_on_the_information_state_only(sample, seed):
    """States the player cannot tell apart (``_indistinguishable``) give the same worlds seed
    for seed, whichever copies their histories kept; ``sample(state, player, seed)`` draws one
    world (a kernel object). Shared by the Python sampler's test and the kernel's."""
    rng = np.random.default_rng(seed)
    compared = 0
    for name in ("love_letter(players=4,tokens_to_win=1)", "love_letter(players=3,tokens_to_win=2)"):
        game = pyspiel.load_game(name)
        for _ in range(8):
            state = play_to_decision(game, rng, int(rng.integers(3, 14)))
            for player in range(game.num_players()):
                for other in _indistinguishable(game, state, player)[:4]:
                    for world_seed in range(2):
                        a, b = (sample(s, player, world_seed) for s in (state, other))
                        assert _fields(a) == _fields(b), (
                            state.history(), other.history(), player, world_seed)
                        compared += 1
    assert compared > 100


def test_worlds_depend_on_the_information_state_only():
    assert_worlds_depend_on_the_information_state_only(
        lambda state, player, seed: state.kernel.resample(player, np.random.default_rng(seed)),
        seed=21)


def _consistent_placements(game, state, player):
    """Every placement (hands) some history of ``state``'s round deals while keeping
    ``player``'s information state at every move: the round replayed breadth first over every
    chance outcome, keeping the states whose ``player`` view matches the real one (brute
    force, from the history alone: no record, no sampler)."""
    history, k, start = state.history(), game.new_kernel(), 0
    for step, action in enumerate(history):
        if k.current_player() == tt.CHANCE and sum(k.pool) == sum(ll.DECK_COUNTS):
            start = step                        # a round's first card
        k.apply(action)
    real = game.new_kernel()
    for action in history[:start]:
        real.apply(action)
    frontier = [real.copy()]
    for action in history[start:]:
        chance = real.current_player() == tt.CHANCE
        real.apply(action)
        view = real.information_state_string(player)
        found = {}
        for state in frontier:
            for a in ([c for c, _ in state.chance_outcomes()] if chance else [action]):
                if chance or a in state.legal_actions():
                    nxt = state.copy()
                    nxt.apply(a)
                    if nxt.information_state_string(player) == view:
                        found[str((nxt.hands, nxt.seen))] = nxt
        frontier = list(found.values())
    return {str(state.hands) for state in frontier}


def _placements_of_the_record(k, player):
    """Every placement of the cards ``player`` does not see that meets a case of the record
    (``game.record``: the kernel's ``_record``)."""
    record = ll.record(k.s, player)
    pool = k.pool[:]
    slots = tt.pool_unseen_cards(k.hands, k.seen, player, pool)
    found = set()
    for cards in itertools.product(range(ll.NUM_TYPES), repeat=len(slots)):
        if all(c <= p for c, p in zip(tt.list_to_counts(cards, ll.NUM_TYPES), pool)):
            hands = k.s[lk.HANDS : lk.HANDS + 8].copy()
            for (q, i), c in zip(slots, cards):
                hands[2 * q + i] = c
            if record.first_fit(k.s, hands) is not None:
                found.add(str([hands[2 * q : 2 * q + len(h)].tolist() for q, h in enumerate(k.hands)]))
    return found


def _after_a_tie(game, rng, plays_after):
    """A decision state of a round with a Baron tie followed by ``plays_after`` plays or more
    (random play, Barons played when held with probability 0.7)."""
    while True:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(tt.sample_chance(state.kernel, rng))
                continue
            log = state.kernel.log
            ties = [i for i, entry in enumerate(log) if entry[4] == "tie"]
            if ties and len(log) - ties[-1] > plays_after and rng.random() < 0.5:
                return state
            legal = state.legal_actions()
            barons = [a for a in legal if ll.decode(a)[0] == B]
            state.apply_action(barons[0] if barons and rng.random() < 0.7
                               else legal[rng.integers(len(legal))])


def test_record_allows_exactly_the_consistent_placements():
    """The placements meeting a case of the record are exactly those some history keeping the
    player's information state deals (brute force): the uniform deal among them is the
    uniform determinization, with no consistent world left out. States after Baron ties
    (whose tied cards' owners then played, splitting the cases) and random states."""
    rng = np.random.default_rng(5)
    game = pyspiel.load_game("love_letter(players=3,tokens_to_win=1)")
    states = [_after_a_tie(game, rng, int(rng.integers(1, 4))) for _ in range(12)]
    states += [play_to_decision(game, rng, int(rng.integers(2, 14))) for _ in range(12)]
    split = 0
    for state in states:
        for player in range(3):
            split += len(ll.record(state.kernel.s, player).masks) > 1
            assert (_placements_of_the_record(state.kernel, player)
                    == _consistent_placements(game, state, player)), (state.history(), player)
    assert split >= 5
