"""The former pure-Python TAG Poker kernel, frozen: an independent oracle for differential tests.

Rules, hand ranking, views, tensors and world sampler exactly as
``lib/infosets/games/poker_tag/game.py``'s ``PokerKernel`` held them at commit
b9c84d05d5567215e17c8e660d83f16454b0c7e7, before the port ran on its numba rules
(``infosets.games.poker_tag.kernel``) through ``infosets.games.array_kernel``. Do not edit:
``test_poker_tag_oracle.py`` plays the live port against this code, so a change to the rules
shows up as a disagreement here.

Game: TAG's Poker (Texas Hold'em over several hands, GAIGResearch/TabletopGames
``games/poker``), as run by Ravichandran, Goodman and Lucas, "Evaluation of
Perfect-Information Monte Carlo Tree Search in Imperfect-Information Games"
(docs/papers/pimcts_aggregation.md); the rules and the differences from TAG are in the
port's module docstring.
"""

from __future__ import annotations

import math

from infosets.games import _tabletop as tt

GAME_NAME = "poker_tag"

FOLD, CHECK, CALL, BET, RAISE1, RAISE2, RAISE3, RAISE4, ALL_IN = range(9)
NUM_ACTIONS = 9
RAISE_MULTIPLIERS = (1, 2, 3, 4)
ACTION_NAMES = ("Fold", "Check", "Call", "Bet", "Raise x1", "Raise x2", "Raise x3", "Raise x4",
                "All in")
NUM_CARDS = 52
RANKS = "23456789TJQKA"
SUITS = "cdhs"
STREETS = ("preflop", "flop", "turn", "river")
BOARD_CARDS = (0, 3, 1, 1)   # cards dealt when each street starts
BOARD_SEAT = -1              # deal-queue marker for a board card


def card_name(card: int) -> str:
    return RANKS[card >> 2] + SUITS[card & 3]


def _straight_high(ranks: set) -> int:
    """Top rank of the best straight in a set of ranks (ace-low counts), or -1."""
    for high in range(12, 3, -1):
        if all(high - i in ranks for i in range(5)):
            return high
    if {12, 0, 1, 2, 3} <= ranks:
        return 3
    return -1


def hand_value(cards) -> tuple:
    """Standard Texas Hold'em value of the best five of ``cards`` (5-7 card ids); larger wins.

    Categories: 8 straight flush, 7 four of a kind, 6 full house, 5 flush, 4 straight,
    3 three of a kind, 2 two pair, 1 pair, 0 high card; then the tie-breaking ranks.
    """
    counts = [0] * 13
    by_suit = ([], [], [], [])
    for c in cards:
        counts[c >> 2] += 1
        by_suit[c & 3].append(c >> 2)
    flush = None
    for suited in by_suit:
        if len(suited) >= 5:
            high = _straight_high(set(suited))
            if high >= 0:
                return (8, high)
            flush = (5,) + tuple(sorted(suited, reverse=True)[:5])
    groups = sorted(((cnt, r) for r, cnt in enumerate(counts) if cnt), reverse=True)
    top_count, top_rank = groups[0]
    if top_count == 4:
        return (7, top_rank, max(r for _, r in groups[1:]))
    if top_count == 3 and groups[1][0] >= 2:
        return (6, top_rank, groups[1][1])
    if flush is not None:
        return flush
    high = _straight_high({r for _, r in groups})
    if high >= 0:
        return (4, high)
    if top_count == 3:
        return (3, top_rank) + tuple(sorted((r for _, r in groups[1:]), reverse=True)[:2])
    if top_count == 2 and groups[1][0] == 2:
        kicker = max(r for _, r in groups[2:])
        return (2, top_rank, groups[1][1], kicker)
    if top_count == 2:
        return (1, top_rank) + tuple(sorted((r for _, r in groups[1:]), reverse=True)[:3])
    return (0,) + tuple(r for _, r in groups[:5])


def max_hand_actions(n: int, total_money: int) -> int:
    """Bound on the betting moves of one hand (see the module docstring)."""
    aggressive = 4 + n + max(1, math.ceil(math.log2(max(total_money, 2))))
    return 4 * n + n * aggressive


class PokerKernel(tt.Kernel):
    """Whole TAG Poker state: stacks, this hand's bets and cards, and the full history."""

    VALUE_FIELDS = ("n", "max_hands", "start_money", "sb", "bb", "bet_size", "max_actions",
                    "hand", "street", "cur", "first", "small", "big", "bet_made", "runout",
                    "done")
    LIST_FIELDS = ("money", "bets", "folded", "allin", "out", "acted", "hole", "board",
                   "deck", "queue", "history", "log", "hole_slots", "shown", "hand_moves",
                   "hand_stacks")
    NESTED_FIELDS = ()
    __slots__ = VALUE_FIELDS + LIST_FIELDS + NESTED_FIELDS

    def __init__(self, n: int, max_hands: int = 10, start_money: int = 50, small_blind: int = 5,
                 big_blind: int = 10, bet: int = 5):
        self.n = n
        self.max_hands = max_hands
        self.start_money = start_money
        self.sb = small_blind
        self.bb = big_blind
        self.bet_size = bet
        self.max_actions = max_hand_actions(n, n * start_money)
        self.money = [start_money] * n
        self.out = [False] * n
        self.hand = 0
        self.first = 0
        self.done = False
        self.history = []      # every action applied (chance outcomes included)
        self.log = []          # (kind, who, value): see _log_text
        self.hole_slots = []   # (history index, hand, receiver) of every hole card dealt
        self.shown = []        # per hand: bitmask of players who showed their hole cards
        self.hand_stacks = []  # per hand: the stacks when it started
        self._start_hand()

    def fresh(self) -> PokerKernel:
        return PokerKernel(self.n, self.max_hands, self.start_money, self.sb, self.bb,
                           self.bet_size)

    # -- flow ---------------------------------------------------------------------------
    def _start_hand(self):
        n = self.n
        self.bets = [0] * n
        self.folded = [False] * n
        self.allin = [False] * n
        self.acted = [False] * n
        self.hole = [-1] * (2 * n)
        self.board = []
        self.deck = [True] * NUM_CARDS
        self.street = 0
        self.bet_made = False
        self.runout = False
        self.cur = -1
        self.small = -1
        self.big = -1
        self.hand_moves = []
        self.shown.append(0)
        self.hand_stacks.append(tuple(self.money))
        self.queue = [q for q in range(n) if not self.out[q] for _ in range(2)]

    def _next_in(self, seat: int, step: int) -> int:
        q = (seat + step) % self.n
        while self.out[q]:
            q = (q + step) % self.n
        return q

    def _can_bet(self, q: int) -> bool:
        return not (self.out[q] or self.folded[q] or self.allin[q])

    def is_terminal(self):
        return self.done

    def current_player(self):
        if self.done:
            return tt.TERMINAL
        if self.queue:
            return tt.CHANCE
        return self.cur

    def chance_outcomes(self):
        cards = [c for c in range(NUM_CARDS) if self.deck[c]]
        p = 1.0 / len(cards)
        return [(c, p) for c in cards]

    def legal_actions(self):
        if self.done or self.queue:
            return []
        p = self.cur
        top = max(self.bets)
        diff = top - self.bets[p]
        stack = self.money[p]
        others_can_bet = any(self._can_bet(q) for q in range(self.n) if q != p)
        actions = [FOLD]
        if diff > 0:
            if stack >= diff:
                actions.append(CALL)
                if others_can_bet:
                    actions.extend(RAISE1 + i for i, m in enumerate(RAISE_MULTIPLIERS)
                                   if stack >= diff + top * m)
        else:
            actions.append(CHECK)
            if not self.bet_made and others_can_bet and stack >= self.bet_size:
                actions.append(BET)
        actions.append(ALL_IN)
        return actions

    def apply(self, action):
        self.history.append(action)
        if self.queue:
            self._deal(action)
            return
        p = self.cur
        self.hand_moves.append((p, action))
        if len(self.hand_moves) > self.max_actions:
            raise AssertionError("max_hand_actions bound exceeded")
        self.log.append(("a", p, action))
        top = max(self.bets)
        if action == FOLD:
            self.folded[p] = True
        elif action == CALL:
            self._put(p, top - self.bets[p])
        elif action == BET:
            self._put(p, self.bet_size)
            self.bet_made = True
        elif RAISE1 <= action <= RAISE4:
            self._put(p, top + top * RAISE_MULTIPLIERS[action - RAISE1] - self.bets[p])
            self.bet_made = True
        elif action == ALL_IN:
            self._put(p, self.money[p])
            self.bet_made = True
        self.acted[p] = True
        if self.bets[p] > top:   # the highest bet went up: everybody else acts again
            for q in range(self.n):
                if q != p:
                    self.acted[q] = False
        self._advance(p)

    def _put(self, p: int, amount: int):
        self.money[p] -= amount
        self.bets[p] += amount
        if self.money[p] == 0:
            self.allin[p] = True

    def _deal(self, card: int):
        who = self.queue.pop(0)
        self.deck[card] = False
        if who == BOARD_SEAT:
            self.board.append(card)
            self.log.append(("b", -1, card))
        else:
            slot = 2 * who + (0 if self.hole[2 * who] < 0 else 1)
            self.hole[slot] = card
            self.hole_slots.append((len(self.history) - 1, self.hand, who))
            self.log.append(("h", who, card))
        if self.queue:
            return
        if self.small < 0:
            self._post_blinds()
        elif self.runout:
            self._end_street()
        else:
            self.cur = self._first_to_act(self.small)

    def _post_blinds(self):
        self.big = self._next_in(self.first, -1)
        self.small = self._next_in(self.big, -1)
        for seat, blind in ((self.small, self.sb), (self.big, self.bb)):
            self._put(seat, min(blind, self.money[seat]))
        self.cur = self.first       # acts first pre-flop, or the next player who can bet
        self._advance(None)

    def _first_to_act(self, seat: int) -> int:
        """``seat`` or the next player after it who can still bet (-1 if none)."""
        for i in range(self.n):
            q = (seat + i) % self.n
            if self._can_bet(q):
                return q
        return -1

    def _advance(self, mover):
        """After a move (or the blinds): next player, next street or the hand's end."""
        n = self.n
        contenders = [q for q in range(n) if not self.out[q] and not self.folded[q]]
        if len(contenders) == 1:
            self._settle(contenders, showdown=False)
            return
        top = max(self.bets)
        able = [q for q in contenders if not self.allin[q]]
        to_act = [q for q in able
                  if self.bets[q] < top or (not self.acted[q] and len(able) > 1)]
        if to_act:
            if mover is None:
                if self.cur not in to_act:
                    self.cur = self._next_waiting(self.cur, to_act)
                return
            self.cur = self._next_waiting(mover, to_act)
            return
        if len(able) <= 1:
            self.runout = True
        self._end_street()

    def _next_waiting(self, seat: int, waiting: list[int]) -> int:
        for i in range(1, self.n + 1):
            q = (seat + i) % self.n
            if q in waiting:
                return q
        raise AssertionError("nobody waiting")

    def _end_street(self):
        if self.street == 3:
            contenders = [q for q in range(self.n) if not self.out[q] and not self.folded[q]]
            self._settle(contenders, showdown=True)
            return
        self.street += 1
        self.bet_made = False
        self.acted = [False] * self.n
        self.cur = -1
        self.queue = [BOARD_SEAT] * BOARD_CARDS[self.street]

    def _settle(self, contenders: list[int], showdown: bool):
        """Pay the pots (side pots by contribution layer), then start the next hand."""
        n = self.n
        if showdown:
            values = {q: hand_value(self.board + self.hole[2 * q:2 * q + 2]) for q in contenders}
            mask = 0
            for q in contenders:
                mask |= 1 << q
                self.log.append(("s", q, tuple(self.hole[2 * q:2 * q + 2])))
            self.shown[-1] = mask
        levels = sorted({b for b in self.bets if b > 0})
        below = 0
        for level in levels:
            payers = [q for q in range(n) if self.bets[q] >= level]
            layer = sum(min(b, level) - min(b, below) for b in self.bets)
            eligible = [q for q in contenders if self.bets[q] >= level]
            if not eligible:
                for q in payers:          # nobody still in paid this layer: refund it
                    self.money[q] += level - below
            else:
                if showdown:
                    best = max(values[q] for q in eligible)
                    winners = [q for q in eligible if values[q] == best]
                else:
                    winners = eligible
                share, odd = divmod(layer, len(winners))
                for q in winners:
                    self.money[q] += share
                self.money[winners[0]] += odd
            below = level
        self.bets = [0] * n
        self.log.append(("e", -1, tuple(self.money)))
        for q in range(n):
            if self.money[q] == 0:
                self.out[q] = True
        self.hand += 1
        if self.hand >= self.max_hands or sum(not o for o in self.out) <= 1:
            self.done = True
            self.cur = -1
            return
        self.first = self._next_in(self.first, 1)
        self._start_hand()

    def returns(self):
        if not self.done:
            return [0.0] * self.n
        return tt.win_shares(self.money)

    # -- information ---------------------------------------------------------------------
    def _sees_hole(self, player: int, hand: int, who: int) -> bool:
        return who == player or bool(self.shown[hand] >> who & 1)

    def _view(self, player: int) -> list[str]:
        hole = self.hole[2 * player:2 * player + 2]
        return [
            f"p{player} hand {self.hand}/{self.max_hands} street "
            f"{STREETS[self.street] if not self.done else 'over'} mover {self.current_player()}",
            "hole: " + " ".join(card_name(c) for c in hole if c >= 0),
            "board: " + " ".join(card_name(c) for c in self.board),
            f"stacks {self.money} bets {self.bets} bet_made {int(self.bet_made)}",
            "folded " + "".join(str(int(f)) for f in self.folded)
            + " allin " + "".join(str(int(f)) for f in self.allin)
            + " out " + "".join(str(int(f)) for f in self.out)
            + " acted " + "".join(str(int(f)) for f in self.acted),
            f"first {self.first} small {self.small} big {self.big}",
        ]

    def information_state_string(self, player: int) -> str:
        entries = []
        hand = 0
        for kind, who, value in self.log:
            if kind == "a":
                entries.append(f"{who}:{ACTION_NAMES[value]}")
            elif kind == "b":
                entries.append(f"b:{card_name(value)}")
            elif kind == "h":
                entries.append(f"h{who}:{card_name(value) if who == player else '?'}")
            elif kind == "s":
                entries.append(f"s{who}:{''.join(card_name(c) for c in value)}")
            else:
                entries.append(f"end{hand}:{','.join(map(str, value))}")
                hand += 1
        return "\n".join(self._view(player) + ["log: " + ";".join(entries)])

    def world_history(self, player: int, rng) -> list[int]:
        """A uniform world for ``player`` as an action sequence (see module docstring)."""
        history = self.history[:]
        by_hand = {}
        for index, hand, who in self.hole_slots:
            by_hand.setdefault(hand, []).append((index, who))
        for hand, slots in by_hand.items():
            hidden = [i for i, who in slots if not self._sees_hole(player, hand, who)]
            if not hidden:
                continue
            hidden_set = set(hidden)
            seen = {history[i] for i, _ in slots if i not in hidden_set}
            seen.update(self._board_of_hand(hand))
            pool = [c for c in range(NUM_CARDS) if c not in seen]
            tt.shuffle_in_place(pool, rng)
            for i, card in zip(hidden, pool):
                history[i] = card
        return history

    def _board_of_hand(self, hand: int) -> list[int]:
        cards, h = [], 0
        for kind, _, value in self.log:
            if kind == "e":
                h += 1
            elif kind == "b" and h == hand:
                cards.append(value)
        return cards

    def resample(self, player, rng):
        k = self.fresh()
        for action in self.world_history(player, rng):
            k.apply(action)
        return k

    def tensor_pieces(self, perfect_recall: bool) -> list[tuple[str, tuple]]:
        n = self.n
        pieces = [("player", (n,)), ("hole", (NUM_CARDS,)), ("board", (NUM_CARDS,)),
                  ("street", (4,)), ("mover", (n,)), ("stack", (n,)), ("bet", (n,)),
                  ("folded", (n,)), ("all_in", (n,)), ("out", (n,)), ("acted", (n,)),
                  ("first", (n,)), ("small", (n,)), ("big", (n,)), ("hand", (1,)),
                  ("bet_made", (1,))]
        if perfect_recall:
            pieces += [("actions", (self.max_actions, n + NUM_ACTIONS)),
                       ("stacks", (self.max_hands, n))]
        return pieces

    def fill_tensor(self, player: int, perfect_recall: bool, views: dict) -> None:
        total = float(self.n * self.start_money)
        views["player"][player] = 1
        for c in self.hole[2 * player:2 * player + 2]:
            if c >= 0:
                views["hole"][c] = 1
        for c in self.board:
            views["board"][c] = 1
        if not self.done:
            views["street"][self.street] = 1
        mover = self.current_player()
        if mover >= 0:
            views["mover"][mover] = 1
        for q in range(self.n):
            views["stack"][q] = self.money[q] / total
            views["bet"][q] = self.bets[q] / total
            views["folded"][q] = self.folded[q]
            views["all_in"][q] = self.allin[q]
            views["out"][q] = self.out[q]
            views["acted"][q] = self.acted[q]
        if not self.done:
            views["first"][self.first] = 1
            if self.small >= 0:
                views["small"][self.small] = 1
                views["big"][self.big] = 1
        views["hand"][0] = self.hand / self.max_hands
        views["bet_made"][0] = self.bet_made
        if perfect_recall:
            moves = views["actions"]
            for i, (who, action) in enumerate(self.hand_moves):
                moves[i, who] = 1
                moves[i, self.n + action] = 1
            for h, stacks in enumerate(self.hand_stacks):
                views["stacks"][h] = [s / total for s in stacks]

    def action_to_string(self, player, action):
        if player == tt.CHANCE:
            return f"deal {card_name(action)}"
        return ACTION_NAMES[action]

    def _state_line(self):
        return (f"hand {self.hand} street {self.street} mover {self.current_player()} "
                f"board {' '.join(card_name(c) for c in self.board)} first {self.first} "
                f"history {','.join(map(str, self.history))}")

    def _player_line(self, p):
        hole = " ".join(card_name(c) for c in self.hole[2 * p:2 * p + 2] if c >= 0)
        return (f"p{p} hole {hole} stack {self.money[p]} bet {self.bets[p]} "
                f"folded {int(self.folded[p])} allin {int(self.allin[p])} out {int(self.out[p])}")


def heuristic(state) -> list[float]:
    """TAG's LeaderHeuristic for every player, in [0, 1] (see the module docstring).

    Args:
      state: a ``poker_tag`` pyspiel state or its kernel.
    """
    kernel = getattr(state, "kernel", state)
    if kernel.is_terminal():
        return kernel.returns()
    total = kernel.n * kernel.start_money
    money = kernel.money
    values = []
    for p in range(kernel.n):
        best_other = max(money[q] for q in range(kernel.n) if q != p)
        values.append(0.5 + (money[p] - best_other) / (2.0 * total))
    return values

