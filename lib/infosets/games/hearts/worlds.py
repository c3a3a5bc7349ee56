"""Exact Hearts worlds: uniform deals and passes consistent with one player's view.

Determinization for PI-MCTS and IS-MCTS on OpenSpiel's ``hearts`` (Ravichandran, Goodman
and Lucas, docs/papers/pimcts_aggregation.md). A world is drawn uniformly among the pairs
(deal, passes the player did not see) that give ``player`` its information state, which is
the chance-weighted posterior when opponents choose their passes uniformly; the cards they
play are public, so no other opponent model enters. ``HeartsWorlds`` replaces OpenSpiel's
resampler, which keeps an opponent's unseen pass and ignores voids (docs/paper_scale.md).

What the player knows, read from the history by OpenSpiel's rules (``hearts.cc``):
* its own dealt hand and passes, the pass direction, who has passed so far, and, once every
  pass is made, the cards passed to it (in their order);
* every card played and by whom. A player who does not follow the led suit holds none of it;
  on the first trick a player who cannot follow and plays a heart or the queen of spades held
  nothing else (``no_pts_on_first_trick``); a player who leads a heart before hearts are
  broken held only hearts (and perhaps the queen of spades, ``can_lead_hearts_instead_of_qs``);
  the first leader held the two of clubs after the passes;
* where the cards it passed went.

Each such fact says an opponent's current hand lies inside a set of cards. The unseen cards
are dealt to the opponents' current hands uniformly under those sets and the hand sizes
(exact counts by dynamic programming over the cards grouped by who may hold them, computed
once per information state). The passes no one showed the player are then uniform subsets
of their receivers' post-pass cards, which makes every consistent (deal, passes) pair
equally likely. The world is built by replaying its history, so ``world.history()`` rebuilds
it; each world is checked (legal plays, the same information-state string) and redrawn if
refused, which the rules above make a guard, not a filter (``refused`` counts it).
"""

from __future__ import annotations

from math import factorial

import numpy as np
import pyspiel

from infosets.games.checked_worlds import CheckedWorlds

NUM_PLAYERS = 4
NUM_CARDS = 52
PASS_SIZE = 3
CLUBS, DIAMONDS, HEARTS, SPADES = 0, 1, 2, 3
TWO_OF_CLUBS = 0                      # OpenSpiel's card index: rank * 4 + suit
QUEEN_OF_SPADES = 10 * 4 + SPADES
ALL_CARDS = frozenset(range(NUM_CARDS))


def suit(card: int) -> int:
    return card % 4


def in_passing(state: pyspiel.State) -> bool:
    """Whether ``state`` (OpenSpiel's hearts) waits for a pass: its history is the pass
    direction (0: no passing), the 52 dealt cards, then the 12 passes, then the plays."""
    history = state.history()
    dealt = 1 + NUM_CARDS
    return (len(history) >= dealt and history[0] != 0
            and len(history) < dealt + NUM_PLAYERS * PASS_SIZE)


def _cards_of(suits) -> frozenset[int]:
    return frozenset(c for c in range(NUM_CARDS) if suit(c) in suits)


ONLY_HEARTS = _cards_of({HEARTS})
ONLY_POINTS = ONLY_HEARTS | {QUEEN_OF_SPADES}


class _Plan:
    """What one information state fixes: the replay skeleton and the deal's constraints."""

    def __init__(self, state: pyspiel.State, player: int, rules: dict):
        history = state.history()
        full = state.full_history()
        self.player = player
        self.pass_dir = history[0]
        self.deal = history[1:1 + NUM_CARDS]
        rest = history[1 + NUM_CARDS:]
        passing = self.pass_dir != 0
        num_passes = min(len(rest), NUM_PLAYERS * PASS_SIZE) if passing else 0
        self.passes_made = [max(0, min(PASS_SIZE, num_passes - PASS_SIZE * p))
                            for p in range(NUM_PLAYERS)]
        real_passes = [rest[PASS_SIZE * p:PASS_SIZE * p + self.passes_made[p]]
                       for p in range(NUM_PLAYERS)]
        self.plays = [(item.player, item.action) for item in full[1 + NUM_CARDS + num_passes:]]
        self.in_play = not passing or num_passes == NUM_PLAYERS * PASS_SIZE
        self.opponents = [p for p in range(NUM_PLAYERS) if p != player]
        self.dealt = {p: [self.deal[k] for k in range(p, NUM_CARDS, NUM_PLAYERS)]
                      for p in range(NUM_PLAYERS)}
        # Passes the player knows: its own, and once play starts the one it received.
        self.known_pass = {player: list(real_passes[player])}
        self.receiver = {p: (p + self.pass_dir) % NUM_PLAYERS for p in range(NUM_PLAYERS)}
        self.passer = {q: (q - self.pass_dir) % NUM_PLAYERS for q in range(NUM_PLAYERS)}
        if passing and self.in_play:
            self.known_pass[self.passer[player]] = list(real_passes[self.passer[player]])
        played_by = {p: [] for p in range(NUM_PLAYERS)}
        for p, card in self.plays:
            played_by[p].append(card)
        self.played_by = played_by
        own = set(self.dealt[player])
        if self.in_play and passing:
            own = (own - set(self.known_pass[player])) | set(self.known_pass[self.passer[player]])
        # Cards the player passed sit with their receiver (or were played by it).
        self.known_held = {p: set() for p in self.opponents}
        if passing and player != self.receiver[player]:
            r = self.receiver[player]
            self.known_held[r] = set(self.known_pass[player]) - set(played_by[r])
        if not self.in_play:
            # Passing: the opponents' dealt hands are unseen; nothing else is public.
            unknown = ALL_CARDS - set(self.dealt[player])
            self.need = {p: NUM_CARDS // NUM_PLAYERS for p in self.opponents}
            allowed = {p: set(unknown) for p in self.opponents}
        else:
            played = {c for _, c in self.plays}
            unknown = ALL_CARDS - own - played - set().union(*self.known_held.values())
            self.need = {p: NUM_CARDS // NUM_PLAYERS - len(played_by[p]) - len(self.known_held[p])
                         for p in self.opponents}
            allowed = {p: set(unknown) for p in self.opponents}
            for p, inside in _hand_limits(self.plays, rules, state.current_player()):
                if p != player:
                    allowed[p] &= inside
        self.classes = _classes(unknown, allowed, self.opponents)
        self.counts = _DealCounts([len(cards) for _, cards in self.classes],
                                  [mask for mask, _ in self.classes], self.opponents, self.need)
        if self.counts.total() == 0:
            raise RuntimeError("hearts worlds: no deal fits the player's view (a rule this "
                               "sampler does not read?)")

    def draw_history(self, rng: np.random.Generator) -> list[int]:
        """One uniform history consistent with the plan."""
        hands = self.counts.draw(self.classes, rng)           # opponents' unseen cards
        now = {p: set(hands[p]) | self.known_held[p] for p in self.opponents}
        passes = {p: list(c) for p, c in self.known_pass.items()}
        if not self.in_play:
            dealt = {p: set(hands[p]) for p in self.opponents}
            for p in self.opponents:
                if self.passes_made[p]:
                    passes[p] = _subset(sorted(dealt[p]), self.passes_made[p], rng)
        else:
            post = {p: now[p] | set(self.played_by[p]) for p in self.opponents}
            dealt = {}
            if self.pass_dir:
                for p in self.opponents:
                    if p not in passes:  # unseen: a uniform 3 of its receiver's cards
                        passes[p] = _subset(sorted(post[self.receiver[p]]), PASS_SIZE, rng)
                for p in self.opponents:
                    got = set(passes[self.passer[p]])
                    dealt[p] = (post[p] - got) | set(passes[p])
            else:
                dealt = post
        deal = list(self.deal)
        for p in self.opponents:
            order = rng.permutation(sorted(dealt[p]))
            for i, k in enumerate(range(p, NUM_CARDS, NUM_PLAYERS)):
                deal[k] = int(order[i])
        history = [self.pass_dir, *deal]
        for p in range(NUM_PLAYERS):
            history.extend(passes.get(p, [])[:self.passes_made[p]])
        history.extend(card for _, card in self.plays)
        return history


def _hand_limits(plays, rules: dict, mover: int):
    """(player, cards its current hand lies inside) for each public fact of the play so far.

    ``plays`` is [(player, card)] in order; hands only shrink, so a fact about a hand at one
    trick holds for the same hand now."""
    limits = []
    broken = not rules["must_break_hearts"]
    led = None
    for i, (p, card) in enumerate(plays):
        if i % NUM_PLAYERS == 0:
            if i > 0 and suit(card) == HEARTS and not broken:   # nothing else to lead
                limits.append((p, ONLY_POINTS if rules["can_lead_hearts_instead_of_qs"]
                               else ONLY_HEARTS))
            led = suit(card)
        elif suit(card) != led:                                  # void in the led suit
            limits.append((p, ALL_CARDS - _cards_of({led})))
            if (i < NUM_PLAYERS and rules["no_pts_on_first_trick"]
                    and (suit(card) == HEARTS or card == QUEEN_OF_SPADES)):
                limits.append((p, ONLY_POINTS))                  # no other card to discard
        if suit(card) == HEARTS or (rules["qs_breaks_hearts"] and card == QUEEN_OF_SPADES):
            broken = True
    # The first leader held the two of clubs after the passes (the mover, if none played).
    leader = plays[0][0] if plays else mover
    if TWO_OF_CLUBS not in {card for _, card in plays}:
        for p in range(NUM_PLAYERS):
            if p != leader:
                limits.append((p, ALL_CARDS - {TWO_OF_CLUBS}))
    return limits


def _classes(unknown, allowed, opponents):
    """The unknown cards grouped by which opponents may hold them: [(mask, sorted cards)]."""
    groups: dict[int, list[int]] = {}
    for card in sorted(unknown):
        mask = sum(1 << i for i, p in enumerate(opponents) if card in allowed[p])
        groups.setdefault(mask, []).append(card)
    return sorted(groups.items())


class _DealCounts:
    """Number of ways to deal the remaining classes for given remaining hand needs."""

    def __init__(self, sizes, masks, opponents, need):
        self.sizes, self.masks = sizes, masks
        self.need0 = tuple(need[p] for p in opponents)
        self.opponents = opponents
        self.memo: dict = {}
        self.choices: dict = {}  # (k, n0, n1) -> (splits, weights), kept across worlds

    def total(self) -> int:
        return self._count(0, self.need0[0], self.need0[1], self.need0[2])

    def _splits(self, k, n0, n1, n2):
        m, mask = self.sizes[k], self.masks[k]
        caps = [n0 if mask & 1 else 0, n1 if mask & 2 else 0, n2 if mask & 4 else 0]
        for a0 in range(min(caps[0], m) + 1):
            for a1 in range(min(caps[1], m - a0) + 1):
                a2 = m - a0 - a1
                if a2 <= caps[2]:
                    yield a0, a1, a2

    def _count(self, k, n0, n1, n2) -> int:
        if k == len(self.sizes):
            return int(n0 == n1 == n2 == 0)
        key = (k, n0, n1)
        if key not in self.memo:
            m = self.sizes[k]
            self.memo[key] = sum(
                factorial(m) // (factorial(a0) * factorial(a1) * factorial(a2))
                * self._count(k + 1, n0 - a0, n1 - a1, n2 - a2)
                for a0, a1, a2 in self._splits(k, n0, n1, n2))
        return self.memo[key]

    def _choice(self, k, n0, n1, n2):
        """The splits of class ``k`` among the needs left, each weighted by the deals it
        leaves: fixed per information state, so computed once and kept."""
        key = (k, n0, n1)
        if key not in self.choices:
            m = self.sizes[k]
            splits = list(self._splits(k, n0, n1, n2))
            weights = [factorial(m) // (factorial(a0) * factorial(a1) * factorial(a2))
                       * self._count(k + 1, n0 - a0, n1 - a1, n2 - a2)
                       for a0, a1, a2 in splits]
            self.choices[key] = splits, weights
        return self.choices[key]

    def draw(self, classes, rng):
        hands = {p: [] for p in self.opponents}
        n = list(self.need0)
        for k, (_, cards) in enumerate(classes):
            splits, weights = self._choice(k, *n)
            split = splits[_weighted_index(weights, rng)]
            order = rng.permutation(cards)
            start = 0
            for i, a in enumerate(split):
                hands[self.opponents[i]].extend(int(c) for c in order[start:start + a])
                start += a
                n[i] -= a
        return hands


def _weighted_index(weights: list[int], rng) -> int:
    """An index drawn with probability weights[i] / sum (exact integer weights)."""
    pick = int(rng.integers(sum(weights)))
    for i, w in enumerate(weights):
        if pick < w:
            return i
        pick -= w
    raise AssertionError("unreachable: pick < sum(weights)")


def _subset(cards, size, rng) -> list[int]:
    """A uniform ordered choice of ``size`` of ``cards``."""
    return [int(c) for c in rng.permutation(cards)[:size]]


class HeartsWorlds(CheckedWorlds):
    """``sampler(state, player, rng)`` for OpenSpiel's ``hearts``: exact, checked worlds."""

    GAME = "hearts"
    RULES = ("must_break_hearts", "no_pts_on_first_trick", "qs_breaks_hearts",
             "can_lead_hearts_instead_of_qs", "can_lead_any_club")

    def __init__(self, game: pyspiel.Game, max_tries: int = 1000, cache_size: int = 16):
        super().__init__(game, max_tries, cache_size)
        params = game.get_parameters()
        self.rules = {name: bool(params.get(name, False)) for name in self.RULES}

    def new_plan(self, state: pyspiel.State, player: int) -> _Plan:
        return _Plan(state, player, self.rules)

    def first_play(self, plan: _Plan, history: list[int]) -> int:
        return len(history) - len(plan.plays)
