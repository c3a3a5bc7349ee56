"""Uniform deals of a trick-taking game consistent with one player's view, by exact counts.

The world samplers of ``oh_hell`` (``oh_hell_worlds``) and ``spades`` (``spades_worlds``), used
by PI-MCTS and IS-MCTS (Ravichandran, Goodman and Lucas, docs/papers/pimcts_aggregation.md)
through ``determinizers.sampler_for``. A game's reader turns an information state into a
``TrickDeal``: the history around the deal, the player's own cards, every card played and by
whom, and the suits each opponent is known to lack (its voids). ``TrickDeal`` then draws a deal
uniformly among those that fit, which is the chance-weighted posterior when every deal order is
equally likely and the opponents' bids and plays are public (no opponent model enters).

The unseen cards (neither the player's, nor otherwise shown, nor played) go to the opponents'
current hands and to an undealt rest (oh_hell deals only part of the deck; spades deals it all)
uniformly under the voids and the hand sizes: exact counts by dynamic programming over the
opponents that have a void, one at a time, on the unseen cards left per suit (computed once per
information state); opponents without a void and the undealt rest share what is left by a
uniform shuffle. Card ``i`` of the deal goes to player ``i % players`` (both games deal so): the
player's own cards keep their places, an opponent's initial hand (current hand and played cards)
fills its places in a random order.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from math import comb

import numpy as np


class TrickDeal:
    """What one information state fixes in a game dealt card ``i`` to player ``i % players``.

    Args:
      player: the seat whose view is kept.
      players: the number of seats.
      prefix: the history before the deal (kept as is).
      deal: the true deal (its unseen places are refilled).
      suffix: the history after the deal (kept as is).
      first_play: the index in the history of the first card played (a world's replay checks
        the legality of every action from there on).
      plays: (player, card) of every card played so far, in order.
      shown: cards the player saw besides its own and the plays (oh_hell's trump card).
      void: per seat, the suits it is known to lack in its current hand.
      num_cards, num_suits, suit_of: the deck.
    """

    def __init__(self, *, player: int, players: int, prefix: Sequence[int], deal: Sequence[int],
                 suffix: Sequence[int], first_play: int, plays: Sequence[tuple[int, int]],
                 shown: Sequence[int],
                 void: Sequence[set[int]], num_cards: int, num_suits: int,
                 suit_of: Callable[[int], int], game: str):
        self.player, self.players = player, players
        self.prefix, self.deal, self.suffix = list(prefix), list(deal), list(suffix)
        self.first_play = first_play
        dealt = len(self.deal)
        self.opponents = [q for q in range(players) if q != player]
        played_by = {q: [] for q in range(players)}
        for q, card in plays:
            played_by[q].append(card)
        self.played_by = played_by
        own = {self.deal[i] for i in range(player, dealt, players)}
        seen = own | set(shown) | {card for _, card in plays}
        unseen = [c for c in range(num_cards) if c not in seen]
        self.by_suit = [[c for c in unseen if suit_of(c) == s] for s in range(num_suits)]
        hand_size = dealt // players
        self.need = {q: hand_size - len(played_by[q]) for q in self.opponents}
        # Opponents with a void are dealt one at a time from the suits they may hold.
        self.limited = [q for q in self.opponents if void[q]]
        self.allowed = {q: [s for s in range(num_suits) if s not in void[q]] for q in self.limited}
        self.free = [q for q in self.opponents if not void[q]]
        self._memo: dict = {}
        if self._count(0, tuple(len(cards) for cards in self.by_suit)) == 0:
            raise RuntimeError(f"{game} worlds: no deal fits the player's view (a rule this "
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
            split = splits[weighted_index(weights, rng)]
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
        return [*self.prefix, *deal, *self.suffix]


def below(total: int, rng) -> int:
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


def weighted_index(weights: list[int], rng) -> int:
    """An index drawn with probability weights[i] / sum (exact integer weights)."""
    pick = below(sum(weights), rng)
    for i, w in enumerate(weights):
        if pick < w:
            return i
        pick -= w
    raise AssertionError("unreachable: pick < sum(weights)")
