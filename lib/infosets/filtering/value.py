"""History values V(h) under a joint policy, exact or by seeded rollouts, for ``oh_hell``.

Solinas, Rebstock, Sturtevant, Buro, "History Filtering in Imperfect Information Games"
(arXiv 2311.14651), section 5.4: V(h) = sum_z P(h, z) u(z), the expected utility of the
terminal histories below h when every player follows the joint policy. Exact when the rest of
the game is small (at most ``exact_max_cards`` cards left per player), otherwise the mean of
seeded rollouts (its standard error is returned too). The public state must be in the play
phase (all bids made).
"""

from __future__ import annotations

from infosets.filtering.policies import (
    MADE_BID_BONUS,
    SoftmaxQPolicy,
    _status,
    beats,
    card_key,
    legal_cards,
)
from infosets.filtering.public_state import OhHellPublicState


class OhHellValue:
    """V(h) for player ``value_player`` at the end of a public state.

    Args:
      ps: the public state (play phase).
      policy: the joint policy.
      value_player: whose utility.
      exact_max_cards: exact expectation when each player has at most this many cards left.
      rollouts: rollouts per history otherwise.
    """

    def __init__(self, ps: OhHellPublicState, policy: SoftmaxQPolicy, value_player: int = 0,
                 exact_max_cards: int = 2, rollouts: int = 16, max_cache: int = 1 << 20):
        n = ps.num_players
        if len(ps.bids) != n:
            raise ValueError("public state: values need the play phase (all bids made)")
        if not 0 <= value_player < n:
            raise ValueError(f"value_player: {value_player} must be in [0, {n - 1}]")
        if rollouts < 1:
            raise ValueError(f"rollouts: {rollouts} must be >= 1")
        self.ps, self.policy, self.player = ps, policy, value_player
        self.rollouts = rollouts
        self.bid_of = [0] * n
        for pos, b in enumerate(ps.bids):
            self.bid_of[(ps.dealer + 1 + pos) % n] = b
        won = [0] * n
        played = [0] * n
        trick, leader = [], (ps.dealer + 1) % n
        win_card = win_player = None
        for i, (p, card, _led, _) in enumerate(ps.play_sequence()):
            pos = i % n
            if pos == 0:
                trick, leader, win_card, win_player = [], p, card, p
            elif beats(card, win_card, ps.trump_suit, ps.num_suits):
                win_card, win_player = card, p
            trick.append(card)
            played[p] |= 1 << card
            if pos == n - 1:
                won[win_player] += 1
                trick, leader = [], win_player
        self.won0 = tuple(won)
        self.played = tuple(played)
        self.trick0 = tuple(trick)
        self.leader0 = leader
        self.win0 = (win_card, win_player) if trick else (None, None)
        self.cards_left = ps.num_tricks - len(ps.plays) // n
        self._exact_max_cards = exact_max_cards
        self.exact = self.cards_left <= exact_max_cards
        self.max_cache = max_cache
        self.cache = {}
        self._decisions = {}  # (player, hand, trick, tricks won) -> (player, cards, probs)
        self._subgames = {}  # (hands, tricks won, leader) at a trick boundary -> value
        self._suits, self._trump, self._n = ps.num_suits, ps.trump_suit, n

    def fresh(self) -> OhHellValue:
        """The same value function with empty caches (for fair timing)."""
        return OhHellValue(self.ps, self.policy, self.player, self._exact_max_cards,
                           self.rollouts, self.max_cache)

    def _start(self, hands):
        remaining = [h & ~pl for h, pl in zip(hands, self.played)]
        return remaining

    def _utility(self, won) -> float:
        p = self.player
        return won[p] + (MADE_BID_BONUS if won[p] == self.bid_of[p] else 0)

    def value(self, hands, rand=None) -> float:
        """V(h) (exact) or a rollout mean; ``rand`` (random.Random) is needed for rollouts."""
        key = tuple(hands)
        hit = self.cache.get(key)
        if hit is not None:
            return hit
        remaining = self._start(hands)
        win_card, win_player = self.win0
        if self.exact:
            v = self._expect(remaining, list(self.won0), list(self.trick0), self.leader0,
                             win_card, win_player)
        else:
            if rand is None:
                raise ValueError("rand: rollouts need a seeded random.Random")
            v = sum(
                self._rollout(list(remaining), list(self.won0), list(self.trick0), self.leader0,
                              win_card, win_player, rand)
                for _ in range(self.rollouts)
            ) / self.rollouts
        if self.exact:
            if len(self.cache) >= self.max_cache:
                self.cache.clear()
            self.cache[key] = v
        return v

    def _decision(self, remaining, won, trick, leader, win_card):
        ps = self.ps
        n = ps.num_players
        pos = len(trick)
        p = (leader + pos) % n
        key = (p, remaining[p], tuple(trick), won[p])
        hit = self._decisions.get(key)
        if hit is not None:
            return hit
        if len(self._decisions) >= self.max_cache:
            self._decisions.clear()
        led = trick[0] % ps.num_suits if trick else None
        cards = legal_cards(remaining[p], led, ps.num_suits)
        status = _status(won[p], self.bid_of[p])
        keys = [card_key(pos, status, c, win_card, ps.trump_suit, ps.num_suits,
                         ps.num_cards_per_suit) for c in cards]
        out = self._decisions[key] = (p, cards, self.policy.probs(p, keys))
        return out

    def _after(self, p, card, won, trick, leader, win_card, win_player):
        suits = self._suits
        if not trick:
            win_card, win_player = card, p
        else:
            suit, ws = card % suits, win_card % suits
            if (suit == ws and card > win_card) or (suit == self._trump and ws != suit):
                win_card, win_player = card, p
        trick = trick + [card]
        if len(trick) == self._n:
            won = won[:]
            won[win_player] += 1
            return won, [], win_player, None, None
        return won, trick, leader, win_card, win_player

    def _expect(self, remaining, won, trick, leader, win_card, win_player) -> float:
        if not trick:
            # Trick boundary: the rest depends only on (hands, tricks won, leader); memoise.
            key = (tuple(remaining), tuple(won), leader)
            hit = self._subgames.get(key)
            if hit is not None:
                return hit
            if len(self._subgames) >= self.max_cache:
                self._subgames.clear()
            value = self._subgames[key] = self._expand(remaining, won, trick, leader, win_card,
                                                       win_player)
            return value
        return self._expand(remaining, won, trick, leader, win_card, win_player)

    def _expand(self, remaining, won, trick, leader, win_card, win_player) -> float:
        if not any(remaining):
            return self._utility(won)
        p, cards, probs = self._decision(remaining, won, trick, leader, win_card)
        total = 0.0
        for card, pr in zip(cards, probs):
            rem = remaining[:]
            rem[p] &= ~(1 << card)
            state = self._after(p, card, won, trick, leader, win_card, win_player)
            total += pr * self._expect(rem, *state)
        return total

    def _rollout(self, remaining, won, trick, leader, win_card, win_player, rand) -> float:
        while any(remaining):
            p, cards, probs = self._decision(remaining, won, trick, leader, win_card)
            u, acc, idx = rand.random(), 0.0, len(cards) - 1
            for i, pr in enumerate(probs):
                acc += pr
                if u < acc:
                    idx = i
                    break
            card = cards[idx]
            remaining[p] &= ~(1 << card)
            won, trick, leader, win_card, win_player = self._after(
                p, card, won, trick, leader, win_card, win_player)
        return self._utility(won)



