"""TAG's Poker (Texas Hold'em over several hands) as an OpenSpiel game, short name ``poker_tag``.

Poker is one of the TAG games of Ravichandran, Goodman and Lucas, "Evaluation of
Perfect-Information Monte Carlo Tree Search in Imperfect-Information Games"
(docs/papers/pimcts_aggregation.md). It is the one game where they find PI-MCTS ahead of IS-MCTS, and
they name the reshuffle between hands as a cause. This port follows TAG's rules
(``games/poker`` in GAIGResearch/TabletopGames: PokerForwardModel, PokerGameState,
PokerGameParameters and the actions); the code is ours.

The rules are written once, in numba, in ``kernel.py`` (both engines run them, the Python
reference engine through ``array_kernel.ArrayKernel``); this module holds what is not rules:
the registration, the string views and tensors (reading the kernel's state array), the
public log and the world sampler (hands are ranked by the kernel's ``hand_code``).

Rules (TAG defaults, each a game parameter): 2-6 players (default 3), each starts with
``starting_money`` = 50 chips; blinds ``small_blind`` = 5 and ``big_blind`` = 10; a fixed
``bet`` = 5. A game is up to ``max_hands`` = 10 hands (TAG's ``maxRounds``), each with a
freshly shuffled 52-card deck: two hole cards to every player still in (player order), then
betting rounds pre-flop, flop (3 board cards), turn (1) and river (1). Seats: the first
player acts first pre-flop; the big blind is the seat before them and the small blind the
seat before that (heads-up the first player is the small blind). After the flop the small
blind (or the next player still able to bet) acts first. The first seat moves one player
still in the game to the left each hand. A player whose stack is empty after a hand is out;
the game ends after ``max_hands`` hands or when one player is left, and the players with
the most chips share the win.

Actions (ids): FOLD 0, CHECK 1, CALL 2, BET 3 (the fixed ``bet``), RAISE x1..x4 4-7 (first
match the highest bet B of the hand, then add B * multiplier: TAG's raiseMultipliers 1-4;
bets are counted over the whole hand, as in TAG), ALL_IN 8. Legal, as in TAG: facing a bet,
CALL if affordable and RAISE xm if affordable and some other player can still bet; with
nothing to call, CHECK, and BET if no bet was made in this betting round, some other player
can still bet and it is affordable; FOLD and ALL_IN always. Chance outcomes are card ids
``rank * 4 + suit`` (ranks 2..A, suits c d h s), one card per chance node, uniform over
the cards left in this hand's deck.

Differences from TAG (simplifications and fixes; each changes little of the game's shape):

1. Hand ranking is standard Texas Hold'em (best five of seven, kickers, ace-low straight).
   TAG's evaluator keeps the last five-card combination it tries instead of the best one
   and compares tied hands on their distinct card values.
2. When at most one player can still bet, the missing board cards are dealt and the hand
   goes to showdown. TAG ends the hand at once and ranks the cards dealt so far (e.g. two
   hole cards pre-flop).
3. A player facing a bet must still answer it although nobody else can bet (TAG ends the
   hand as soon as at most one player can bet, so an unanswered all-in is never called and
   its excess is not returned). Pots are settled as standard side pots: each contribution
   layer goes to the best hand among the players still in who paid into it; a layer nobody
   still in paid into goes back to its payers (TAG returns a pot without winners too).
   Split pots go in equal parts; the odd chips to the first winner in seat order.
4. A call or raise that empties a stack makes the player all-in (TAG leaves a player with
   zero chips able to act on later streets). An all-in for less than the highest bet does
   not reopen the betting; any bet that raises the highest bet makes every other player
   act again (TAG reopens on every all-in).
5. Only players still in the game are dealt cards (TAG deals to eliminated players too;
   their cards are never used, so the other cards' distribution is unchanged).
6. At showdown every player still in the hand shows their hole cards (the published rule;
   TAG's copies never reveal them, although the chips won reveal who had the best hand).
7. TAG's ``endMinMoney`` variant (stop at ``nWinMoney`` chips) is not offered.

Utilities: win shares by final chips (1 to the richest player, 1/k to each of k tied,
0 to the others; constant sum 1). ``kernel.money`` holds the stacks.

Hidden information and worlds: a player sees their own hole cards, the board and every
card shown at a showdown. A world redraws, in every hand played so far, the hole cards the
player has not seen, uniformly among the cards of that hand's deck the player has not seen
(hands are independent: the deck is reshuffled). Past betting is unchanged (legal betting
does not depend on cards). ``world_history`` returns that world as an action sequence, so
it rebuilds from its ``history()``.

Tensors (fixed shapes; n players, H = ``max_hands``, L = ``max_hand_actions``; chips are
divided by the total n * starting_money). ``observation_tensor``, in order:

    player [n]      one-hot of the observing player
    hole [52]       the observer's hole cards (card id)
    board [52]      board cards
    street [4]      pre-flop, flop, turn, river (one-hot; zero when the game is over)
    mover [n]       one-hot of the player to act (zero at chance and terminal nodes)
    stack [n]       chips behind
    bet [n]         chips put in this hand
    folded [n], all_in [n], out [n], acted [n]   flags of this hand / street
    first [n], small [n], big [n]                seat roles of this hand
    hand [1]        hands started / H
    bet_made [1]    1 when a bet was made in this betting round

``information_state_tensor`` is the observation followed by

    actions [L, n + 9]   this hand's betting moves in order: mover one-hot, action one-hot
    stacks [H, n]        every player's stack at the start of each hand so far

(cards shown at past showdowns are not in the tensor; the information-state string has
them). ``L`` bounds the moves of one hand (4n + n * (4 + n + log2(total chips)));
filling the tensor raises if it were exceeded.

Heuristic for PI-MCTS rollout cut-offs: ``heuristic(state)`` is TAG's ``LeaderHeuristic``
(named by ``json/players/gameSpecific/Poker/Poker_3+P.json``): a player's chips minus the
most chips of any other player, mapped to [0, 1] as 0.5 + gap / (2 * total chips); at a
terminal state it is the returns (TAG scales the gap by 1.5 there instead).
"""

from __future__ import annotations

import math

import numpy as np

from infosets.games import _history_worlds as hw
from infosets.games import _tabletop as tt
from infosets.games.array_kernel import ArrayKernel
from infosets.games.poker_tag import kernel as pk
from infosets.games.poker_tag.kernel import (  # noqa: F401  (the game's constants, for its users)
    ALL_IN,
    BET,
    CALL,
    CHECK,
    FOLD,
    MAXP,
    NUM_CARDS,
    RAISE1,
    RAISE2,
    RAISE3,
    RAISE4,
)

GAME_NAME = "poker_tag"
NUM_ACTIONS = 9
ACTION_NAMES = ("Fold", "Check", "Call", "Bet", "Raise x1", "Raise x2", "Raise x3", "Raise x4", "All in")
RANKS = "23456789TJQKA"
SUITS = "cdhs"
STREETS = ("preflop", "flop", "turn", "river")
MAX_PLAYERS = MAXP


def card_name(card: int) -> str:
    return RANKS[card >> 2] + SUITS[card & 3]


def max_hand_actions(n: int, total_money: int) -> int:
    """Bound on the betting moves of one hand (see the module docstring)."""
    aggressive = 4 + n + max(1, math.ceil(math.log2(max(total_money, 2))))
    return 4 * n + n * aggressive


def history_capacity(n: int, max_hands: int, start_money: int) -> int:
    """The longest history of a game (its ``max_game_length``): every hand dealt in full."""
    return max_hands * (2 * n + 5 + max_hand_actions(n, n * start_money))


def _flags(values) -> str:
    return "".join(str(int(f)) for f in values)


class PokerKernel(ArrayKernel):
    """A TAG Poker state: the kernel's array (``self.s``), played by its jitted rules; the
    fields below read it (as Python values)."""

    __slots__ = ()
    RULES = pk
    NUM_ACTIONS = pk.NUM_ACTIONS  # the longest legal list: a chance node over a full deck
    MAX_PLAYERS = MAX_PLAYERS

    def __init__(
        self,
        n: int,
        max_hands: int = 10,
        start_money: int = 50,
        small_blind: int = 5,
        big_blind: int = 10,
        bet: int = 5,
    ):
        super().__init__(
            pk.new_state(
                n,
                max_hands,
                start_money,
                small_blind,
                big_blind,
                bet,
                history_capacity(n, max_hands, start_money),
            )
        )

    def fresh(self) -> PokerKernel:
        """The initial state of this kernel's game."""
        return PokerKernel(self.n, self.max_hands, self.start_money, self.sb, self.bb, self.bet_size)

    # -- the array's fields, read-only ----------------------------------------------------
    n = property(lambda self: int(self.s[pk.N]))
    max_hands = property(lambda self: int(self.s[pk.MAXH]))
    start_money = property(lambda self: int(self.s[pk.START]))
    sb = property(lambda self: int(self.s[pk.SB]))
    bb = property(lambda self: int(self.s[pk.BB]))
    bet_size = property(lambda self: int(self.s[pk.BETSZ]))
    max_actions = property(lambda self: max_hand_actions(self.n, self.n * self.start_money))
    hand = property(lambda self: int(self.s[pk.HAND]))
    street = property(lambda self: int(self.s[pk.STREET]))
    cur = property(lambda self: int(self.s[pk.CUR]))
    first = property(lambda self: int(self.s[pk.FIRST]))
    small = property(lambda self: int(self.s[pk.SMALL]))
    big = property(lambda self: int(self.s[pk.BIG]))
    bet_made = property(lambda self: bool(self.s[pk.BETMADE]))
    runout = property(lambda self: bool(self.s[pk.RUNOUT]))
    done = property(lambda self: bool(self.s[pk.DONE]))
    money = property(lambda self: self._seats(pk.MONEY))
    bets = property(lambda self: self._seats(pk.BETS))
    folded = property(lambda self: [bool(x) for x in self._seats(pk.FOLDED)])
    allin = property(lambda self: [bool(x) for x in self._seats(pk.ALLIN)])
    out = property(lambda self: [bool(x) for x in self._seats(pk.OUT)])
    acted = property(lambda self: [bool(x) for x in self._seats(pk.ACTED)])
    hole = property(lambda self: self.s[pk.HOLE : pk.HOLE + 2 * self.n].tolist())
    board = property(lambda self: self.s[pk.BOARD : pk.BOARD + self.s[pk.NBOARD]].tolist())
    queue = property(lambda self: self.s[pk.QUEUE + self.s[pk.QHEAD] : pk.QUEUE + self.s[pk.QEND]].tolist())
    deck = property(lambda self: [bool(int(self.s[pk.DECK]) >> c & 1) for c in range(NUM_CARDS)])

    def _seats(self, base: int) -> list[int]:
        return self.s[base : base + self.n].tolist()

    def _entries(self) -> list[int]:
        """The history as the array holds it: ``action | kind << 8`` (kernel.py)."""
        start = self.s[pk.O_HIST]
        return self.s[start : start + self.s[pk.HLEN]].tolist()

    @property
    def history(self) -> list[int]:
        """Every action applied (chance outcomes included)."""
        return [e & 255 for e in self._entries()]

    @property
    def hands_started(self) -> int:
        return self.hand if self.done else self.hand + 1

    @property
    def shown(self) -> list[int]:
        """Per hand started: the bit mask of the players who showed their hole cards."""
        base = self.s[pk.O_SHOWN]
        return self.s[base : base + self.hands_started].tolist()

    @property
    def hole_slots(self) -> list[tuple[int, int, int]]:
        """(history index, hand, receiver) of every hole card dealt, in deal order."""
        s, slots = self.s, []
        for hand in range(self.hands_started):
            base = s[pk.O_HOLEPOS] + hand * 2 * MAXP
            positions = s[base : base + 2 * MAXP].tolist()
            slots += sorted((pos, hand, slot // 2) for slot, pos in enumerate(positions) if pos >= 0)
        return slots

    @property
    def hand_moves(self) -> list[tuple[int, int]]:
        """(mover, action) of the betting moves of this hand (the last hand once it is over)."""
        last = self.hands_started - 1
        start = self.s[self.s[pk.O_HEND] + last - 1] if last > 0 else 0
        return [(e >> 8, e & 255) for e in self._entries()[start:] if e >> 8 < pk.HOLE_KIND]

    @property
    def hand_stacks(self) -> list[tuple[int, ...]]:
        """Per hand started: every player's stack when it started."""
        s, n = self.s, self.n
        stacks = [(self.start_money,) * n]
        for hand in range(self.hands_started - 1):
            base = s[pk.O_ENDM] + hand * MAXP
            stacks.append(tuple(s[base : base + n].tolist()))
        return stacks

    def board_of_hand(self, hand: int) -> list[int]:
        base = self.s[pk.O_BOARDLOG] + hand * 5
        return [c for c in self.s[base : base + 5].tolist() if c >= 0]

    # -- information ---------------------------------------------------------------------
    def _view(self, player: int) -> list[str]:
        hole = self.s[pk.HOLE + 2 * player : pk.HOLE + 2 * player + 2].tolist()
        street = STREETS[self.street] if not self.done else "over"
        return [
            f"p{player} hand {self.hand}/{self.max_hands} street {street} mover {self.current_player()}",
            "hole: " + " ".join(card_name(c) for c in hole if c >= 0),
            "board: " + " ".join(card_name(c) for c in self.board),
            f"stacks {self.money} bets {self.bets} bet_made {int(self.bet_made)}",
            f"folded {_flags(self.folded)} allin {_flags(self.allin)} out {_flags(self.out)} "
            f"acted {_flags(self.acted)}",
            f"first {self.first} small {self.small} big {self.big}",
        ]

    def _log_entries(self, player: int) -> list[str]:
        """The public log as ``player`` reads it: bets, board cards, hole cards (the player's
        own named), and at each hand's end the cards shown and the stacks."""
        s, entries = self.s, []
        ends = s[s[pk.O_HEND] : s[pk.O_HEND] + self.hand].tolist()
        hand = 0
        for i, entry in enumerate(self._entries()):
            kind, action = entry >> 8, entry & 255
            if kind < pk.HOLE_KIND:
                entries.append(f"{kind}:{ACTION_NAMES[action]}")
            elif kind < pk.BOARD_KIND:
                who = kind - pk.HOLE_KIND
                entries.append(f"h{who}:{card_name(action) if who == player else '?'}")
            else:
                entries.append(f"b:{card_name(action)}")
            if hand < len(ends) and ends[hand] == i + 1:
                entries += self._hand_end(hand)
                hand += 1
        return entries

    def _hand_end(self, hand: int) -> list[str]:
        """The log entries closing ``hand``: the cards shown, then the stacks."""
        s, n = self.s, self.n
        shown, hist = int(s[s[pk.O_SHOWN] + hand]), s[pk.O_HIST]
        holepos = s[pk.O_HOLEPOS] + hand * 2 * MAXP
        entries = []
        for q in range(n):
            if shown >> q & 1:
                cards = (int(s[hist + s[holepos + 2 * q + k]]) & 255 for k in range(2))
                entries.append(f"s{q}:{''.join(card_name(c) for c in cards)}")
        endm = s[pk.O_ENDM] + hand * MAXP
        entries.append(f"end{hand}:{','.join(map(str, s[endm : endm + n].tolist()))}")
        return entries

    def information_state_string(self, player: int) -> str:
        return "\n".join(self._view(player) + ["log: " + ";".join(self._log_entries(player))])

    def world_history(self, player: int, rng) -> list[int]:
        """A uniform world for ``player`` as an action sequence (see module docstring)."""
        history = self.history
        shown = self.shown
        by_hand = {}
        for index, hand, who in self.hole_slots:
            by_hand.setdefault(hand, []).append((index, who))
        for hand, slots in by_hand.items():
            hidden = [i for i, who in slots if who != player and not shown[hand] >> who & 1]
            if not hidden:
                continue
            hidden_set = set(hidden)
            seen = {history[i] for i, _ in slots if i not in hidden_set}
            seen.update(self.board_of_hand(hand))
            pool = [c for c in range(NUM_CARDS) if c not in seen]
            tt.shuffle_in_place(pool, rng)
            for i, card in zip(hidden, pool):
                history[i] = card
        return history

    def resample(self, player, rng):
        world = self.fresh()
        pk.nb_apply_history(world.s, np.asarray(self.world_history(player, rng), dtype=np.int64))
        return world

    def tensor_pieces(self, perfect_recall: bool) -> list[tuple[str, tuple]]:
        n = self.n
        pieces = [("player", (n,)), ("hole", (NUM_CARDS,)), ("board", (NUM_CARDS,)), ("street", (4,)),
                  ("mover", (n,)), ("stack", (n,)), ("bet", (n,)), ("folded", (n,)), ("all_in", (n,)),
                  ("out", (n,)), ("acted", (n,)), ("first", (n,)), ("small", (n,)), ("big", (n,)),
                  ("hand", (1,)), ("bet_made", (1,))]  # fmt: skip
        if perfect_recall:
            pieces += [("actions", (self.max_actions, n + NUM_ACTIONS)), ("stacks", (self.max_hands, n))]
        return pieces

    def fill_tensor(self, player: int, perfect_recall: bool, views: dict) -> None:
        s, n = self.s, self.n
        total = float(n * self.start_money)
        views["player"][player] = 1
        for c in s[pk.HOLE + 2 * player : pk.HOLE + 2 * player + 2].tolist():
            if c >= 0:
                views["hole"][c] = 1
        views["board"][self.board] = 1
        done = self.done
        if not done:
            views["street"][self.street] = 1
        mover = self.current_player()
        if mover >= 0:
            views["mover"][mover] = 1
        for name, base in (("stack", pk.MONEY), ("bet", pk.BETS)):
            views[name][:] = [x / total for x in s[base : base + n].tolist()]
        for name, base in (("folded", pk.FOLDED), ("all_in", pk.ALLIN), ("out", pk.OUT), ("acted", pk.ACTED)):
            views[name][:] = s[base : base + n]
        if not done:
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
                moves[i, n + action] = 1
            for h, stacks in enumerate(self.hand_stacks):
                views["stacks"][h] = [x / total for x in stacks]

    def action_to_string(self, player, action):
        if player == tt.CHANCE:
            return f"deal {card_name(action)}"
        return ACTION_NAMES[action]

    def _state_line(self):
        return (
            f"hand {self.hand} street {self.street} mover {self.current_player()} "
            f"board {' '.join(card_name(c) for c in self.board)} first {self.first} "
            f"history {','.join(map(str, self.history))}"
        )

    def _player_line(self, p):
        hole = " ".join(card_name(c) for c in self.hole[2 * p : 2 * p + 2] if c >= 0)
        return (
            f"p{p} hole {hole} stack {self.money[p]} bet {self.bets[p]} "
            f"folded {int(self.folded[p])} allin {int(self.allin[p])} out {int(self.out[p])}"
        )


def heuristic(state) -> list[float]:
    """TAG's LeaderHeuristic for every player, in [0, 1] (see the module docstring): the
    kernel's ``nb_heuristic``.

    Args:
      state: a ``poker_tag`` pyspiel state or its kernel.
    """
    kernel = getattr(state, "kernel", state)
    out = np.zeros(kernel.n)
    pk.nb_heuristic(kernel.s, out)
    return out.tolist()


_DEFAULT_PLAYERS = 3
_PARAMS = {
    "players": _DEFAULT_PLAYERS,
    "max_hands": 10,
    "starting_money": 50,
    "small_blind": 5,
    "big_blind": 10,
    "bet": 5,
}
GAME_TYPE = hw.make_game_type(GAME_NAME, "TAG Poker (Texas Hold'em, several hands)", 2, MAX_PLAYERS, _PARAMS)


class PokerGame(hw.HistoryGame):
    """TAG Poker with 2-6 players (``players``, default 3) and TAG's default stakes."""

    def __init__(self, params=None):
        params = dict(params or {})
        n = tt.players_param(params, GAME_TYPE)
        self.max_hands = tt.int_param(params, "max_hands", 10, 1, 100)
        self.starting_money = tt.int_param(params, "starting_money", 50, 1, 10_000)
        self.small_blind = tt.int_param(params, "small_blind", 5, 1, 10_000)
        self.big_blind = tt.int_param(params, "big_blind", 10, self.small_blind, 10_000)
        self.bet = tt.int_param(params, "bet", 5, 1, 10_000)
        super().__init__(
            GAME_TYPE,
            params,
            num_players=n,
            num_distinct_actions=NUM_ACTIONS,
            max_chance_outcomes=NUM_CARDS,
            max_game_length=history_capacity(n, self.max_hands, self.starting_money),
        )

    def new_kernel(self):
        return PokerKernel(
            self.players, self.max_hands, self.starting_money, self.small_blind, self.big_blind, self.bet
        )


sample_world = hw.sample_world  # a world keeping ``player``'s information state


hw.register(GAME_TYPE, PokerGame)
