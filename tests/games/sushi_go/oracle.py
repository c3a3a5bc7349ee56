"""The former pure-Python Sushi Go! kernel, frozen: an independent oracle for differential tests.

Rules, views, tensors and world sampler exactly as ``lib/infosets/games/sushi_go/game.py``'s
``SushiGoKernel`` held them at commit 02c0326e2b81cb5f086f604c4fc3ab4620a825be, before the port
ran on its numba rules (``infosets.games.sushi_go.kernel``) through
``infosets.games.array_kernel``. Do not edit: ``test_sushi_go_oracle.py`` plays the live port
against this code, so a change to the rules shows up as a disagreement here.

Game: Sushi Go! (Phil Walker-Harding, 2013), as run by Ravichandran, Goodman and Lucas,
"Evaluation of Perfect-Information Monte Carlo Tree Search in Imperfect-Information Games"
(docs/papers/pimcts_aggregation.md); the rules and modelling choices are in the port's
module docstring.
"""

from __future__ import annotations

import numpy as np

from infosets.games import _tabletop as tt

GAME_NAME = "sushi_go"

TEMPURA, SASHIMI, DUMPLING, MAKI1, MAKI2, MAKI3, SALMON, SQUID, EGG, PUDDING, WASABI, CHOPSTICKS = range(12)
NUM_TYPES = 12
CARD_NAMES = ("tempura", "sashimi", "dumpling", "maki1", "maki2", "maki3", "salmon", "squid",
              "egg", "pudding", "wasabi", "chopsticks")
DECK_COUNTS = (14, 14, 14, 6, 12, 8, 10, 5, 5, 10, 6, 4)
HAND_SIZE = {2: 10, 3: 9, 4: 8, 5: 7}
NUM_ROUNDS = 3
NIGIRI_POINTS = {SALMON: 2, SQUID: 3, EGG: 1}
MAKI_ICONS = {MAKI1: 1, MAKI2: 2, MAKI3: 3}
DUMPLING_POINTS = (0, 1, 3, 6, 10, 15)
NUM_ACTIONS = NUM_TYPES + NUM_TYPES * NUM_TYPES  # singles, then ordered chopsticks pairs

# Table layout per player (counts for the current round).
T_TEMPURA, T_SASHIMI, T_DUMPLING, T_MAKI, T_NIGIRI, T_WASABI, T_CHOP = range(7)


def pair_action(first: int, second: int) -> int:
    """Action id of a chopsticks move playing ``first`` then ``second``."""
    return NUM_TYPES + first * NUM_TYPES + second


def _pair_allowed(first: int, second: int) -> bool:
    return first <= second or (first == WASABI and second in NIGIRI_POINTS)


def _split(points: int, k: int) -> int:
    return points // k


class SushiGoKernel(tt.Kernel):
    """Whole Sushi Go! state on count vectors."""

    REBUILDS_WORLDS = True   # sampled worlds replay from their history (_tabletop)
    CHECKS_EACH_MOVE = False  # the view and the revealed picks cover every earlier view

    VALUE_FIELDS = ("n", "hand_size", "round", "turn", "to_deal", "cur")
    LIST_FIELDS = ("deck", "pending", "puddings", "score", "log")
    NESTED_FIELDS = ("hands", "table")
    __slots__ = VALUE_FIELDS + LIST_FIELDS + NESTED_FIELDS

    def __init__(self, n: int):
        self.n = n
        self.hand_size = HAND_SIZE[n]
        self.round = 0
        self.turn = 0
        self.to_deal = n * self.hand_size
        self.cur = 0
        self.deck = list(DECK_COUNTS)
        self.hands = [[0] * NUM_TYPES for _ in range(n)]
        self.pending = [-1] * n
        self.table = [[0] * 7 for _ in range(n)]
        self.puddings = [0] * n
        self.score = [0] * n
        self.log = []  # revealed picks, one tuple per turn (public)

    # -- flow ---------------------------------------------------------------------------
    def is_terminal(self):
        return self.round >= NUM_ROUNDS

    def current_player(self):
        if self.round >= NUM_ROUNDS:
            return tt.TERMINAL
        if self.to_deal:
            return tt.CHANCE
        return self.cur

    def chance_outcomes(self):
        return tt.count_outcomes(self.deck)

    def chance_possible(self, action):
        return 0 <= action < NUM_TYPES and self.deck[action] > 0

    def legal_actions(self):
        if self.to_deal or self.round >= NUM_ROUNDS:
            return []
        hand = self.hands[self.cur]
        actions = [t for t in range(NUM_TYPES) if hand[t]]
        if self.table[self.cur][T_CHOP] and sum(hand) >= 2:
            for a in range(NUM_TYPES):
                if not hand[a]:
                    continue
                for b in range(NUM_TYPES):
                    if hand[b] and (a != b or hand[a] >= 2) and _pair_allowed(a, b):
                        actions.append(pair_action(a, b))
        actions.sort()
        return actions

    def apply(self, action):
        if self.to_deal:
            player = self.n - 1 - (self.to_deal - 1) // self.hand_size
            self.hands[player][action] += 1
            self.deck[action] -= 1
            self.to_deal -= 1
            return
        p = self.cur
        hand = self.hands[p]
        if action < NUM_TYPES:
            hand[action] -= 1
        else:
            a, b = divmod(action - NUM_TYPES, NUM_TYPES)
            hand[a] -= 1
            hand[b] -= 1
        self.pending[p] = action
        if p < self.n - 1:
            self.cur = p + 1
            return
        self._reveal()

    def _reveal(self):
        for p, action in enumerate(self.pending):
            if action < NUM_TYPES:
                self._place(p, action)
            else:
                a, b = divmod(action - NUM_TYPES, NUM_TYPES)
                self._place(p, a)
                self._place(p, b)
                self.table[p][T_CHOP] -= 1
                self.hands[p][CHOPSTICKS] += 1
        self.log.append(tuple(self.pending))
        self.pending = [-1] * self.n
        self.hands = [self.hands[-1]] + self.hands[:-1]  # player i's hand goes to i + 1
        self.cur = 0
        self.turn += 1
        if self.turn == self.hand_size:
            self._score_round()

    def _place(self, p: int, card: int):
        t = self.table[p]
        if card == TEMPURA:
            t[T_TEMPURA] += 1
        elif card == SASHIMI:
            t[T_SASHIMI] += 1
        elif card == DUMPLING:
            t[T_DUMPLING] += 1
        elif card in MAKI_ICONS:
            t[T_MAKI] += MAKI_ICONS[card]
        elif card in NIGIRI_POINTS:
            if t[T_WASABI]:
                t[T_WASABI] -= 1
                t[T_NIGIRI] += 3 * NIGIRI_POINTS[card]
            else:
                t[T_NIGIRI] += NIGIRI_POINTS[card]
        elif card == PUDDING:
            self.puddings[p] += 1
        elif card == WASABI:
            t[T_WASABI] += 1
        else:
            t[T_CHOP] += 1

    def _score_round(self):
        n = self.n
        for p in range(n):
            t = self.table[p]
            self.score[p] += (5 * (t[T_TEMPURA] // 2) + 10 * (t[T_SASHIMI] // 3)
                              + DUMPLING_POINTS[min(t[T_DUMPLING], 5)] + t[T_NIGIRI])
        maki = [t[T_MAKI] for t in self.table]
        top = max(maki)
        if top > 0:
            first = [p for p in range(n) if maki[p] == top]
            for p in first:
                self.score[p] += _split(6, len(first))
            if len(first) == 1:
                rest = [m for m in maki if 0 < m < top]
                if rest:
                    second_value = max(rest)
                    second = [p for p in range(n) if maki[p] == second_value]
                    for p in second:
                        self.score[p] += _split(3, len(second))
        self.table = [[0] * 7 for _ in range(n)]
        self.round += 1
        self.turn = 0
        if self.round < NUM_ROUNDS:
            self.to_deal = n * self.hand_size
        else:
            self._score_puddings()

    def _score_puddings(self):
        n = self.n
        most, fewest = max(self.puddings), min(self.puddings)
        if most == fewest:
            return
        top = [p for p in range(n) if self.puddings[p] == most]
        for p in top:
            self.score[p] += _split(6, len(top))
        if n > 2:
            bottom = [p for p in range(n) if self.puddings[p] == fewest]
            for p in bottom:
                self.score[p] -= _split(6, len(bottom))

    def scores(self) -> list[int]:
        """Points so far (round and pudding scoring included once they happened)."""
        return self.score[:]

    def returns(self):
        if not self.is_terminal():
            return [0.0] * self.n
        # Ties on points are broken by puddings, then shared.
        keys = [(self.score[p], self.puddings[p]) for p in range(self.n)]
        return tt.win_shares(keys)

    # -- information ---------------------------------------------------------------------
    def knows_hand(self, player: int, other: int) -> bool:
        """True when ``player`` has seen the hand ``other`` holds now (it passed through theirs)."""
        if self.to_deal:
            return player == other
        return (other - player) % self.n <= self.turn

    def _hand_str(self, hand) -> str:
        return "".join(f"{CARD_NAMES[t]}x{c} " for t, c in enumerate(hand) if c).strip() or "-"

    def _view(self, player: int) -> list[str]:
        parts = [f"p{player} round {self.round} turn {self.turn} mover {self.current_player()}",
                 f"hand: {self._hand_str(self.hands[player])}"]
        if self.pending[player] >= 0:
            parts.append(f"my pick: {self.action_to_string(player, self.pending[player])}")
        for q in range(self.n):
            if q == player:
                continue
            if self.knows_hand(player, q):
                hand = self.hands[q][:]
                if self.pending[q] >= 0:  # q's hidden pick is still somewhere in this hand
                    for c in self._action_cards(self.pending[q]):
                        hand[c] += 1
                parts.append(f"p{q} hand{self._pick_mark(q)}: {self._hand_str(hand)}")
            else:
                parts.append(f"p{q} hand: {sum(self.hands[q])} unknown{self._pick_mark(q)}")
        parts.append("tables: " + " | ".join(",".join(map(str, t)) for t in self.table))
        parts.append(f"puddings: {self.puddings} score: {self.score}")
        return parts

    def _pick_mark(self, q: int) -> str:
        # Taking two cards with chopsticks is announced, so the pick's size is public.
        if self.pending[q] < 0:
            return ""
        return " +pick" if self.pending[q] < NUM_TYPES else " +chopsticks pick"

    @staticmethod
    def _action_cards(action: int) -> tuple:
        if action < NUM_TYPES:
            return (action,)
        return divmod(action - NUM_TYPES, NUM_TYPES)

    # Tensor layout: see the module docstring.
    LOG_CODES = NUM_ACTIONS

    def tensor_pieces(self, player):
        n = self.n
        hands = np.zeros((n, NUM_TYPES), np.float32)
        known = np.zeros(n, np.float32)
        picks = np.zeros((n, 3), np.float32)
        for q in range(n):
            if q != player and self.knows_hand(player, q):
                known[q] = 1
                hands[q] = self.hands[q]
                if self.pending[q] >= 0:
                    for c in self._action_cards(self.pending[q]):
                        hands[q, c] += 1
            if self.pending[q] >= 0:
                picks[q, 1 if self.pending[q] < NUM_TYPES else 2] = 1
            else:
                picks[q, 0] = 1
        my_pick = np.zeros(NUM_TYPES, np.float32)
        if self.pending[player] >= 0:
            for c in self._action_cards(self.pending[player]):
                my_pick[c] += 1
        return [("player", tt.one_hot(player, n)),
                ("mover", tt.mover_one_hot(self, n)),
                ("round", tt.one_hot(self.round, NUM_ROUNDS + 1)),
                ("turn", tt.one_hot(self.turn, self.hand_size + 1)),
                ("hand", np.asarray(self.hands[player], np.float32)),
                ("my_pick", my_pick),
                ("hand_known", known),
                ("hands", hands),
                ("hand_sizes", np.asarray([sum(h) for h in self.hands], np.float32)),
                ("pick", picks),
                ("tables", np.asarray(self.table, np.float32)),
                ("puddings", np.asarray(self.puddings, np.float32)),
                ("scores", np.asarray(self.score, np.float32))]

    def log_codes(self):
        return [(q, action) for picks in self.log for q, action in enumerate(picks)]

    LOG_LABEL = "revealed"

    def _log_text(self):
        return ";".join(",".join(map(str, picks)) for picks in self.log)

    def resample(self, player, rng):
        """Keep what ``player`` has seen; deal the unseen cards uniformly into unseen slots."""
        k = self.copy()
        n = self.n
        pool = list(k.deck)
        unknown = [q for q in range(n) if q != player and not k.knows_hand(player, q)]
        sizes = {}
        for q in unknown:
            hand = k.hands[q]
            if k.pending[q] >= 0:
                for c in self._action_cards(k.pending[q]):
                    hand[c] += 1
            sizes[q] = sum(hand)
            for t in range(NUM_TYPES):
                pool[t] += hand[t]
        cards = tt.shuffled_cards(pool, rng)
        pos = 0
        for q in unknown:
            k.hands[q] = tt.list_to_counts(cards[pos:pos + sizes[q]], NUM_TYPES)
            pos += sizes[q]
        k.deck = tt.list_to_counts(cards[pos:], NUM_TYPES)
        # Hidden picks already made this turn: uniform over the picker's legal moves of the
        # same size (a chopsticks move is announced).
        for q in range(n):
            if q == player or k.pending[q] < 0:
                continue
            if q not in sizes:
                for c in self._action_cards(k.pending[q]):
                    k.hands[q][c] += 1
            saved_cur = k.cur
            k.cur = q
            pair = k.pending[q] >= NUM_TYPES
            legal = [a for a in k.legal_actions() if (a >= NUM_TYPES) == pair]
            k.cur = saved_cur
            action = legal[min(int(rng.random() * len(legal)), len(legal) - 1)]
            for c in self._action_cards(action):
                k.hands[q][c] -= 1
            k.pending[q] = action
        return k

    def plan_history(self, game, history, player, context=None):
        """The real ``history`` with this round's deal and this turn's hidden picks rewritten
        to deal this (resampled) kernel's cards.

        Hands are count vectors, so a card cannot be traced to its draw; instead the hand
        dealt to each seat this round is read back from the hand it has become: the hand
        seat ``q`` holds at turn t was dealt to seat q - t, and since then lost the revealed
        picks of this round (a chopsticks pick put chopsticks back). A dealt hand the world
        leaves unchanged keeps its real order of draws, a changed one is dealt sorted.
        """
        n, size = self.n, self.hand_size
        start = self.round * 2 * n * size          # first deal step of this round
        planned = list(history)
        dealt_steps = len(history) - start if self.to_deal else n * size
        dealt_steps = min(dealt_steps, n * size)
        turns = self.log[len(self.log) - self.turn:] if self.turn else []
        for q in range(n):
            hand = self.hands[q][:]
            if self.pending[q] >= 0:
                for c in self._action_cards(self.pending[q]):
                    hand[c] += 1
            seat = (q - self.turn) % n                   # the seat this hand was dealt to
            for s, picks in enumerate(turns):
                action = picks[(seat + s) % n]
                for c in self._action_cards(action):
                    hand[c] += 1
                if action >= NUM_TYPES:
                    hand[CHOPSTICKS] -= 1
            if min(hand) < 0:
                return None
            lo = start + seat * size
            hi = min(start + (seat + 1) * size, start + dealt_steps)
            real = history[lo:hi] if hi > lo else []
            if sum(hand) != len(real):
                return None
            if tt.list_to_counts(real, NUM_TYPES) != hand:
                planned[lo:hi] = tt.counts_to_list(hand)
        if not self.to_deal:                              # this turn's hidden picks
            first = start + n * size + self.turn * n
            for q in range(n):
                if self.pending[q] >= 0:
                    planned[first + q] = self.pending[q]
        return planned

    def same_cards(self, other):
        return str(self) == str(other) and self.deck == other.deck

    def action_to_string(self, player, action):
        if player == tt.CHANCE:
            return f"deal {CARD_NAMES[action]}"
        if action < NUM_TYPES:
            return f"pick {CARD_NAMES[action]}"
        a, b = divmod(action - NUM_TYPES, NUM_TYPES)
        return f"chopsticks {CARD_NAMES[a]}+{CARD_NAMES[b]}"

    def _state_line(self):
        return f"round {self.round} turn {self.turn} mover {self.current_player()} deck {sum(self.deck)}"

    def _player_line(self, p):
        return (f"p{p} hand {self._hand_str(self.hands[p])} pick {self.pending[p]} "
                f"table {self.table[p]} pudding {self.puddings[p]} score {self.score[p]}")
