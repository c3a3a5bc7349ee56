"""Sushi Go! (Phil Walker-Harding, 2013) as an OpenSpiel game, short name ``sushi_go``.

One of the games of Ravichandran, Goodman and Lucas, "Evaluation of Perfect-Information
Monte Carlo Tree Search in Imperfect-Information Games"
(docs/papers/pimcts_aggregation.md), who ran TAG's Java version with 3 and 5 players.

Rules (the published base game): 108 cards: tempura x14, sashimi x14, dumpling x14, maki
rolls with 1/2/3 icons x6/x12/x8, salmon/squid/egg nigiri x10/x5/x5, pudding x10, wasabi
x6, chopsticks x4. Three rounds; each round every player is dealt 10/9/8/7 cards (2/3/4/5
players). Each turn every player picks one card of their hand, the picks are revealed
together, and the hands pass to the next player (player i gives to i+1). A player with
chopsticks on the table may take two cards instead and puts the chopsticks back into the
hand. A nigiri goes onto an unused wasabi (triple points). Round scoring: maki most icons 6
and second 3 (ties split, rounded down; a tie for first gives no second), tempura 5 per
pair, sashimi 10 per three, dumplings 1/3/6/10/15, nigiri 1/2/3. Puddings are kept and
scored at the end: most +6, fewest -6 (ties split; no penalty with 2 players; nothing when
all tie). Highest score wins; ties go to most puddings; remaining ties share the win.

The rules are written once, in numba, in ``kernel.py`` (both engines run them); this module
holds what is not rules: the registration, the string views and tensors (reading the
kernel's state array), the public log and the world sampler.

Modelling choices (documented simplifications):
* Simultaneous picks are sequential hidden picks: players 0..n-1 choose in turn and the
  choices stay hidden until the last one, then all are revealed (as in TAG).
* Dealing is a chance node per card whose outcome is the card type, drawn from the count
  vector of the undealt deck (the deck order is not state).
* A chopsticks move is one action naming the two card types in play order (type1 <= type2,
  plus wasabi before a nigiri). Using chopsticks is announced (public); the cards are not.
* Returns are win shares (see ``_tabletop``); ``kernel.scores()`` gives the points.
* Action ids: card type t (0..11) picks one card; ``kernel.pair_action(a, b)`` plays a then b with
  chopsticks.

Hidden information: other players' hands that have not yet passed through the player's
hands this round (player p knows q's hand iff (q - p) mod n <= turn), the current turn's
hidden picks, and the undealt deck. With 3 players everything is known from the third turn
of each round, which is the paper's argument for PI-MCTS doing poorly at 3 players.

Tensors (``_tabletop.Kernel``; rows indexed by seat), the observation tensor in order:
  player (n) one-hot; mover (n + 1): who moves, or chance; round (4) one-hot, 3 = over;
  turn (hand size + 1) one-hot; hand (12) own card counts; my_pick (12) cards of the own
  hidden pick; hand_known (n) 1 where the hand's content is known; hands (n, 12) the
  known hands as the view shows them (a known player's hidden pick is back in the hand);
  hand_sizes (n) cards held; pick (n, 3) one-hot none / one card / chopsticks pick;
  tables (n, 7) the T_* counts; puddings (n); scores (n).
public_log codes: the revealed pick (action id) of each player each turn.
The information-state tensor appends ``public_log`` (n + 1, LOG_CODES) where the game has
a public log (``_tabletop.TabletopObserver``).
"""

from __future__ import annotations

import numpy as np

from infosets.games import _tabletop as tt
from infosets.games.array_kernel import ArrayKernel
from infosets.games.sushi_go import kernel as sk
from infosets.games.sushi_go.kernel import HAND_SIZE, NUM_ACTIONS, NUM_ROUNDS, NUM_TYPES

GAME_NAME = "sushi_go"
CARD_NAMES = (
    "tempura",
    "sashimi",
    "dumpling",
    "maki1",
    "maki2",
    "maki3",
    "salmon",
    "squid",
    "egg",
    "pudding",
    "wasabi",
    "chopsticks",
)
NT, SLOTS = NUM_TYPES, sk.TABLE_SLOTS


def _action_cards(action: int) -> tuple:
    """The card types a pick plays (one, or a chopsticks pair in play order)."""
    if action < NT:
        return (action,)
    return divmod(action - NT, NT)


class SushiGoKernel(ArrayKernel):
    """A Sushi Go! state: the kernel's array (``self.s``), played by its jitted rules."""

    __slots__ = ()
    RULES = sk
    NUM_ACTIONS = NUM_ACTIONS
    MAX_PLAYERS = sk.MAX_PLAYERS
    REBUILDS_WORLDS = True  # sampled worlds replay from their history (_tabletop)
    CHECKS_EACH_MOVE = False  # the view and the revealed picks cover every earlier view

    def __init__(self, n: int):
        super().__init__(sk.new_state(n))

    # -- the array's fields, read-only (as Python values) --------------------------------
    def fields(self) -> Fields:
        """Every field of the state, read from the array at once (what the views read)."""
        return Fields(self.s)

    n = property(lambda self: int(self.s[sk.N]))
    hand_size = property(lambda self: int(self.s[sk.HAND_LEN]))
    round = property(lambda self: int(self.s[sk.ROUND]))
    turn = property(lambda self: int(self.s[sk.TURN]))
    to_deal = property(lambda self: int(self.s[sk.TO_DEAL]))
    cur = property(lambda self: int(self.s[sk.CUR]))
    deck = property(lambda self: self.s[sk.DECK : sk.DECK + NT].tolist())
    hands = property(lambda self: self.fields().hands)
    pending = property(lambda self: self.s[sk.PENDING : sk.PENDING + self.n].tolist())
    table = property(lambda self: self.fields().table)
    puddings = property(lambda self: self.s[sk.PUDDINGS : sk.PUDDINGS + self.n].tolist())
    score = property(lambda self: self.s[sk.SCORE : sk.SCORE + self.n].tolist())
    log = property(lambda self: self.fields().log, doc="The revealed picks, one tuple per turn.")

    def scores(self) -> list[int]:
        """Points so far (round and pudding scoring included once they happened)."""
        return self.score

    def chance_possible(self, action):
        return 0 <= action < NT and self.s[sk.DECK + action] > 0

    _action_cards = staticmethod(_action_cards)

    # -- information -------------------------------------------------------------------------
    def knows_hand(self, player: int, other: int) -> bool:
        """True when ``player`` has seen the hand ``other`` holds now (it passed through theirs)."""
        return self.fields().knows_hand(player, other)

    @staticmethod
    def _hand_str(hand) -> str:
        return "".join(f"{CARD_NAMES[t]}x{c} " for t, c in enumerate(hand) if c).strip() or "-"

    def information_state_string(self, player: int) -> str:
        f = self.fields()  # read once for the view and the log
        return "\n".join(self._view(player, f) + [f"{self.LOG_LABEL}: {_log_text(f)}"])

    def _view(self, player: int, f: Fields | None = None) -> list[str]:
        f = self.fields() if f is None else f
        shown = f.shown_hands(player)
        pending = f.pending
        parts = [
            f"p{player} round {f.round} turn {f.turn} mover {self.current_player()}",
            f"hand: {self._hand_str(f.hands[player])}",
        ]
        if pending[player] >= 0:
            parts.append(f"my pick: {self.action_to_string(player, pending[player])}")
        for q in range(f.n):
            if q == player:
                continue
            mark = _pick_mark(pending[q])
            if shown[q] is not None:
                parts.append(f"p{q} hand{mark}: {self._hand_str(shown[q])}")
            else:
                parts.append(f"p{q} hand: {sum(f.hands[q])} unknown{mark}")
        parts.append("tables: " + " | ".join(",".join(map(str, t)) for t in f.table))
        parts.append(f"puddings: {f.puddings} score: {f.score}")
        return parts

    # Tensor layout: see the module docstring.
    LOG_CODES = NUM_ACTIONS

    def tensor_pieces(self, player):
        f = self.fields()
        n, pending = f.n, f.pending
        shown = f.shown_hands(player)
        hands = np.zeros((n, NT), np.float32)
        known = np.zeros(n, np.float32)
        picks = np.zeros((n, 3), np.float32)
        for q in range(n):
            if shown[q] is not None:
                known[q] = 1
                hands[q] = shown[q]
            picks[q, 0 if pending[q] < 0 else (1 if pending[q] < NT else 2)] = 1
        my_pick = np.zeros(NT, np.float32)
        if pending[player] >= 0:
            for c in _action_cards(pending[player]):
                my_pick[c] += 1
        return [
            ("player", tt.one_hot(player, n)),
            ("mover", tt.mover_one_hot(self, n)),
            ("round", tt.one_hot(f.round, NUM_ROUNDS + 1)),
            ("turn", tt.one_hot(f.turn, f.hand_size + 1)),
            ("hand", np.asarray(f.hands[player], np.float32)),
            ("my_pick", my_pick),
            ("hand_known", known),
            ("hands", hands),
            ("hand_sizes", np.asarray([sum(h) for h in f.hands], np.float32)),
            ("pick", picks),
            ("tables", np.asarray(f.table, np.float32)),
            ("puddings", np.asarray(f.puddings, np.float32)),
            ("scores", np.asarray(f.score, np.float32)),
        ]

    def log_codes(self):
        return [(q, action) for picks in self.fields().log for q, action in enumerate(picks)]

    LOG_LABEL = "revealed"

    def _log_text(self):
        return _log_text(self.fields())

    # -- worlds ------------------------------------------------------------------------------
    def resample(self, player, rng):
        """Keep what ``player`` has seen; deal the unseen cards uniformly into unseen slots.

        The hands ``player`` has not seen (their owners' hidden picks put back) and the deck
        are shuffled together (``tt.shuffled_cards``) and dealt back, each hand keeping its
        size; then every other hidden pick of this turn is redrawn uniformly (one
        ``rng.random()``) among its picker's legal picks of the same size (one card, or a
        chopsticks pair: that size is public). ``kernel.nb_determinize`` draws the same law
        from a PCG32 stream.
        """
        k = self.copy()
        s, n = k.s, k.n
        hands = s[sk.HANDS : sk.HANDS + n * NT].reshape(n, NT)  # views into the array
        pending = s[sk.PENDING : sk.PENDING + n]
        pool = s[sk.DECK : sk.DECK + NT].tolist()
        unknown = [q for q in range(n) if q != player and not k.knows_hand(player, q)]
        sizes = {}
        for q in unknown:
            if pending[q] >= 0:
                for c in _action_cards(int(pending[q])):
                    hands[q, c] += 1
            sizes[q] = int(hands[q].sum())
            pool = [a + b for a, b in zip(pool, hands[q].tolist())]
        cards = tt.shuffled_cards(pool, rng)
        pos = 0
        for q in unknown:
            hands[q] = tt.list_to_counts(cards[pos : pos + sizes[q]], NT)
            pos += sizes[q]
        s[sk.DECK : sk.DECK + NT] = tt.list_to_counts(cards[pos:], NT)
        buf = np.zeros(NUM_ACTIONS, np.int64)
        for q in range(n):
            picked = int(pending[q])
            if q == player or picked < 0:
                continue
            if q not in sizes:
                for c in _action_cards(picked):
                    hands[q, c] += 1
            legal = [a for a in buf[: sk._player_actions(s, q, buf)].tolist() if (a >= NT) == (picked >= NT)]
            action = legal[min(int(rng.random() * len(legal)), len(legal) - 1)]
            for c in _action_cards(action):
                hands[q, c] -= 1
            pending[q] = action
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
        start = self.round * 2 * n * size  # first deal step of this round
        planned = list(history)
        dealt_steps = len(history) - start if self.to_deal else n * size
        dealt_steps = min(dealt_steps, n * size)
        f = self.fields()
        hands, pending, log = f.hands, f.pending, f.log
        turns = log[len(log) - self.turn :] if self.turn else []
        for q in range(n):
            hand = hands[q]
            if pending[q] >= 0:
                for c in _action_cards(pending[q]):
                    hand[c] += 1
            seat = (q - self.turn) % n  # the seat this hand was dealt to
            for s, picks in enumerate(turns):
                action = picks[(seat + s) % n]
                for c in _action_cards(action):
                    hand[c] += 1
                if action >= NT:
                    hand[sk.CHOPSTICKS] -= 1
            if min(hand) < 0:
                return None
            lo = start + seat * size
            hi = min(start + (seat + 1) * size, start + dealt_steps)
            real = history[lo:hi] if hi > lo else []
            if sum(hand) != len(real):
                return None
            if tt.list_to_counts(real, NT) != hand:
                planned[lo:hi] = tt.counts_to_list(hand)
        if not self.to_deal:  # this turn's hidden picks
            first = start + n * size + self.turn * n
            for q in range(n):
                if pending[q] >= 0:
                    planned[first + q] = pending[q]
        return planned

    def same_cards(self, other):
        return str(self) == str(other) and self.deck == other.deck

    def action_to_string(self, player, action):
        if player == tt.CHANCE:
            return f"deal {CARD_NAMES[action]}"
        if action < NT:
            return f"pick {CARD_NAMES[action]}"
        a, b = divmod(action - NT, NT)
        return f"chopsticks {CARD_NAMES[a]}+{CARD_NAMES[b]}"

    def __str__(self):
        f = self.fields()
        lines = [f"round {f.round} turn {f.turn} mover {self.current_player()} deck {sum(f.deck)}"]
        lines += [
            f"p{p} hand {self._hand_str(f.hands[p])} pick {f.pending[p]} "
            f"table {f.table[p]} pudding {f.puddings[p]} score {f.score[p]}"
            for p in range(f.n)
        ]
        return "\n".join(lines)


class Fields:
    """The fields of a state array as Python values, read at once (``SushiGoKernel.fields``):
    n, hand_size, round, turn, to_deal, cur, deck (12 counts), hands (n x 12 counts),
    pending (n hidden picks, -1 for none), table (n x 7 ``T_*`` counts), puddings, score, and
    log (the revealed picks, one n-tuple per turn)."""

    __slots__ = (
        "n",
        "hand_size",
        "round",
        "turn",
        "to_deal",
        "cur",
        "deck",
        "hands",
        "pending",
        "table",
        "puddings",
        "score",
        "_log_rows",
    )

    def __init__(self, s: np.ndarray):
        v = s[: sk.LOG].tolist()
        n = self.n = v[sk.N]
        self.hand_size, self.round, self.turn = v[sk.HAND_LEN], v[sk.ROUND], v[sk.TURN]
        self.to_deal, self.cur = v[sk.TO_DEAL], v[sk.CUR]
        self.deck = v[sk.DECK : sk.DECK + NT]
        self.hands = [v[sk.HANDS + q * NT : sk.HANDS + (q + 1) * NT] for q in range(n)]
        self.pending = v[sk.PENDING : sk.PENDING + n]
        self.table = [v[sk.TABLE + q * SLOTS : sk.TABLE + (q + 1) * SLOTS] for q in range(n)]
        self.puddings = v[sk.PUDDINGS : sk.PUDDINGS + n]
        self.score = v[sk.SCORE : sk.SCORE + n]
        self._log_rows = s[sk.LOG : sk.LOG + v[sk.LOG_LEN] * sk.MAX_PLAYERS]

    @property
    def log(self) -> list[tuple]:
        """The revealed picks, one n-tuple per turn (read when asked: the views need none)."""
        rows, n = self._log_rows.tolist(), self.n
        return [tuple(rows[i : i + n]) for i in range(0, len(rows), sk.MAX_PLAYERS)]

    def knows_hand(self, player: int, other: int) -> bool:
        if self.to_deal:
            return player == other
        return (other - player) % self.n <= self.turn

    def shown_hands(self, player: int) -> list:
        """Each other hand as ``player`` sees it (a known player's hidden pick back in the
        hand), None where unseen (and for ``player``)."""
        shown = []
        for q, hand in enumerate(self.hands):
            if q == player or not self.knows_hand(player, q):
                shown.append(None)
                continue
            hand = hand[:]
            if self.pending[q] >= 0:  # q's hidden pick is still somewhere in this hand
                for c in _action_cards(self.pending[q]):
                    hand[c] += 1
            shown.append(hand)
        return shown


def _log_text(f: Fields) -> str:
    """The revealed picks, a turn's picks joined by ``,`` and turns by ``;``."""
    return ";".join(",".join(map(str, picks)) for picks in f.log)


def _pick_mark(pending: int) -> str:
    # Taking two cards with chopsticks is announced, so the pick's size is public.
    if pending < 0:
        return ""
    return " +pick" if pending < NT else " +chopsticks pick"


_DEFAULT_PLAYERS = 3
GAME_TYPE = tt.make_game_type(GAME_NAME, "Sushi Go!", 2, 5, {"players": _DEFAULT_PLAYERS})


class SushiGoGame(tt.TabletopGame):
    """Sushi Go! with 2-5 players (parameter ``players``, default 3)."""

    def __init__(self, params=None):
        params = dict(params or {})
        n = tt.players_param(params, GAME_TYPE)
        hand = HAND_SIZE[n]
        super().__init__(
            GAME_TYPE,
            params,
            num_players=n,
            num_distinct_actions=NUM_ACTIONS,
            max_chance_outcomes=NUM_TYPES,
            max_game_length=NUM_ROUNDS * (n * hand + n * hand),
        )

    def new_kernel(self):
        return SushiGoKernel(self.players)


sample_world = tt.sample_world  # a world keeping ``player``'s information state


tt.register(GAME_TYPE, SushiGoGame)
