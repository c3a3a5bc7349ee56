"""Exact Oh Hell worlds: uniform deals consistent with one player's view.

Determinization for PI-MCTS and IS-MCTS on OpenSpiel's ``oh_hell`` (Ravichandran, Goodman and
Lucas, docs/papers/pimcts_aggregation.md). A world is drawn uniformly among the deals that
give ``player`` its information state, which is the chance-weighted posterior: every deal
order has the same chance probability, and the bids and cards the opponents played are public,
so no opponent model enters. ``OhHellWorlds`` replaces OpenSpiel's resampler, which
reshuffles only the cards truly in the opponents' hands, so a card never dealt never reaches
an opponent in a world (docs/paper_scale.md: the player learns which unseen cards are out of
play).

What the player knows, read from the history by OpenSpiel's rules (``oh_hell.cc``): the
number of tricks and the dealer (public chance), its own hand, the trump card (the card dealt
after the hands), every bid and every card played and by whom. A player who does not follow
the led suit holds none of it: its current hand lies in the other suits. Nothing else limits a
hand (no rule on leads or discards).

The unseen cards (neither the player's, nor the trump, nor played) go to the opponents'
current hands and to the undealt rest uniformly under those voids and the hand sizes: exact
counts by dynamic programming over the opponents that have a void, one at a time, on the
unseen cards left per suit (computed once per information state); opponents without a void
and the undealt rest share what is left by a uniform shuffle. The deal is dealt as OpenSpiel
deals it (card ``i`` of the deal to player ``i % players``): the player's own cards keep
their places, an opponent's initial hand (current hand and played cards) fills its places in
a random order. Each world is replayed with legality checks on the plays and its
information-state string compared, and redrawn if refused; the counts make that a guard, not
a filter (``refused`` counts it).
"""

from __future__ import annotations

from math import comb

import numpy as np
import pyspiel

from infosets.games.checked_worlds import CheckedWorlds

PRE_DEAL = 2  # chance steps before the deal: the number of tricks, the dealer


class _Plan:
    """What one information state fixes: the replay skeleton and the deal's constraints."""

    def __init__(self, state: pyspiel.State, player: int, num_suits: int, num_cards: int):
        history = state.history()
        full = state.full_history()
        players = state.num_players()
        self.player, self.players = player, players
        self.num_tricks = tricks = history[0]
        dealt = players * tricks
        self.deal = list(history[PRE_DEAL:PRE_DEAL + dealt])
        self.prefix = list(history[:PRE_DEAL])
        self.trump = history[PRE_DEAL + dealt]
        self.rest = list(history[PRE_DEAL + dealt + 1:])
        self.plays_start = len(self.prefix) + dealt + 1 + players  # after the bids
        plays = [(item.player, item.action) for item in full[self.plays_start:]]
        self.num_plays = len(plays)
        self.opponents = [q for q in range(players) if q != player]
        played_by = {q: [] for q in range(players)}
        void = {q: set() for q in range(players)}
        led = None
        for i, (q, card) in enumerate(plays):
            if i % players == 0:
                led = card % num_suits
            elif card % num_suits != led:
                void[q].add(led)
            played_by[q].append(card)
        self.played_by = played_by
        own = {self.deal[i] for i in range(player, dealt, players)}
        seen = own | {self.trump} | {card for _, card in plays}
        unseen = [c for c in range(num_cards) if c not in seen]
        self.by_suit = [[c for c in unseen if c % num_suits == s] for s in range(num_suits)]
        self.need = {q: tricks - len(played_by[q]) for q in self.opponents}
        # Opponents with a void are dealt one at a time from the suits they may hold.
        self.limited = [q for q in self.opponents if void[q]]
        self.allowed = {q: [s for s in range(num_suits) if s not in void[q]] for q in self.limited}
        self.free = [q for q in self.opponents if not void[q]]
        self._memo: dict = {}
        if self._count(0, tuple(len(cards) for cards in self.by_suit)) == 0:
            raise RuntimeError("oh_hell worlds: no deal fits the player's view (a rule this "
                               "sampler does not read?)")

    # -- exact counts ------------------------------------------------------------------------
    def num_deals(self) -> int:
        """How many assignments of the unseen cards (opponents' hands, undealt rest) fit."""
        total = self._count(0, tuple(len(cards) for cards in self.by_suit))
        pool = sum(len(cards) for cards in self.by_suit) - sum(self.need[q] for q in self.limited)
        for q in self.free:
            total *= comb(pool, self.need[q])
            pool -= self.need[q]
        return total

    def _splits(self, j, left):
        """Each way (cards per suit) to give limited opponent ``j`` its need from ``left``."""
        q = self.limited[j]
        suits = self.allowed[q]

        def rec(k, need, prefix):
            if k == len(suits) - 1:
                if need <= left[suits[k]]:
                    yield prefix + [need]
                return
            for a in range(min(need, left[suits[k]]) + 1):
                yield from rec(k + 1, need - a, prefix + [a])

        if not suits:
            if self.need[q] == 0:
                yield []
            return
        yield from rec(0, self.need[q], [])

    def _count(self, j, left) -> int:
        """Ways to deal limited opponents ``j``.. their needs from ``left`` (cards per suit);
        whatever is left then goes to the free opponents and the undealt rest, in a number of
        ways that does not depend on the split."""
        if j == len(self.limited):
            return 1
        q = self.limited[j]
        if j == len(self.limited) - 1:  # Vandermonde: any need-subset of the allowed cards
            return comb(sum(left[s] for s in self.allowed[q]), self.need[q])
        key = (j, left)
        if key not in self._memo:
            total = 0
            for split in self._splits(j, left):
                ways = 1
                after = list(left)
                for s, a in zip(self.allowed[q], split):
                    ways *= comb(left[s], a)
                    after[s] -= a
                total += ways * self._count(j + 1, tuple(after))
            self._memo[key] = total
        return self._memo[key]

    # -- draws -------------------------------------------------------------------------------
    def draw_history(self, rng: np.random.Generator) -> list[int]:
        """One uniform history consistent with the plan."""
        pools = [list(rng.permutation(cards)) for cards in self.by_suit]  # uniform per suit
        left = tuple(len(p) for p in pools)
        hands = {}
        for j, q in enumerate(self.limited):
            if j == len(self.limited) - 1:
                cards = [c for s in self.allowed[q] for c in pools[s]]
                picked = set(rng.permutation(len(cards))[:self.need[q]].tolist())
                hands[q] = [cards[i] for i in sorted(picked)]
                taken = set(hands[q])
                pools = [[c for c in p if c not in taken] for p in pools]
                break
            splits = list(self._splits(j, left))
            weights = []
            for split in splits:
                ways, after = 1, list(left)
                for s, a in zip(self.allowed[q], split):
                    ways *= comb(left[s], a)
                    after[s] -= a
                weights.append(ways * self._count(j + 1, tuple(after)))
            split = splits[_weighted_index(weights, rng)]
            hands[q] = []
            for s, a in zip(self.allowed[q], split):
                hands[q].extend(pools[s][:a])   # the pools are shuffled: a uniform a-subset
                pools[s] = pools[s][a:]
            left = tuple(len(p) for p in pools)
        rest = [c for p in pools for c in p]
        rest = [rest[i] for i in rng.permutation(len(rest))]
        for q in self.free:
            hands[q], rest = rest[:self.need[q]], rest[self.need[q]:]
        deal = list(self.deal)
        dealt = len(deal)
        for q in self.opponents:
            initial = [int(c) for c in hands[q]] + self.played_by[q]
            order = rng.permutation(initial)
            for k, i in enumerate(range(q, dealt, self.players)):
                deal[i] = int(order[k])
        return [*self.prefix, *deal, self.trump, *self.rest]


def _below(total: int, rng) -> int:
    """A uniform integer in [0, total), exact for any size (counts can pass 2**64)."""
    if total <= 2**62:
        return int(rng.integers(total))
    bits = total.bit_length()
    while True:
        value = 0
        for _ in range((bits + 63) // 64):
            value = (value << 64) | int(rng.bit_generator.random_raw())
        value >>= (64 - bits % 64) % 64
        if value < total:
            return value


def _weighted_index(weights: list[int], rng) -> int:
    """An index drawn with probability weights[i] / sum (exact integer weights)."""
    pick = _below(sum(weights), rng)
    for i, w in enumerate(weights):
        if pick < w:
            return i
        pick -= w
    raise AssertionError("unreachable: pick < sum(weights)")


class OhHellWorlds(CheckedWorlds):
    """``sampler(state, player, rng)`` for OpenSpiel's ``oh_hell``: exact, checked worlds."""

    GAME = "oh_hell"

    def __init__(self, game: pyspiel.Game, max_tries: int = 1000, cache_size: int = 16):
        super().__init__(game, max_tries, cache_size)
        params = game.get_parameters()
        self.num_suits = int(params.get("num_suits", 4))
        self.num_cards = self.num_suits * int(params.get("num_cards_per_suit", 13))

    def new_plan(self, state: pyspiel.State, player: int) -> _Plan:
        return _Plan(state, player, self.num_suits, self.num_cards)

    def first_play(self, plan: _Plan, history: list[int]) -> int:
        return plan.plays_start
