"""The former pure-Python Monopoly Deal kernel, frozen: an independent oracle for differential tests.

Rules, views, tensors, world sampler, heuristic and turn counter exactly as
``lib/infosets/games/monopoly_deal/game.py``'s ``MonopolyDealKernel`` held them at commit
6629b2542d3a509d1a1913db2c653d4658811995, before the port ran on its numba rules
(``infosets.games.monopoly_deal.kernel``) through ``infosets.games.array_kernel``. Do not edit:
``test_monopoly_deal_oracle.py`` plays the live port against this code, so a change to the
rules shows up as a disagreement here.

Game: Monopoly Deal (Hasbro, 2008), as run by Ravichandran, Goodman and Lucas, "Evaluation of
Perfect-Information Monte Carlo Tree Search in Imperfect-Information Games"
(docs/papers/pimcts_aggregation.md); the rules and modelling choices are in the port's module
docstring.
"""

from __future__ import annotations

from infosets.games import _history_worlds as hw
from infosets.games import _tabletop as tt

GAME_NAME = "monopoly_deal"

# Card types.
(
    M10,
    M5,
    M4,
    M3,
    M2,
    M1,
    PASS_GO,
    DOUBLE_RENT,
    BIRTHDAY,
    DEBT,
    SLY,
    FORCED,
    BREAKER,
    JSN,
    RENT_ANY,
    RENT_GB,
    RENT_BLB,
    RENT_PO,
    RENT_RU,
    RENT_RY,
    HOUSE,
    HOTEL,
) = range(22)
FIRST_PROPERTY = 22
BROWN, BLUE, GREEN, LBLUE, ORANGE, PINK, RAIL, RED, UTIL, YELLOW = range(10)
NUM_COLOURS = 10
FIRST_WILD = 32
W_MULTI, W_GB, W_BLB, W_PO, W_RG, W_RLB, W_RU, W_RY = range(32, 40)
NUM_TYPES = 40
NUM_KINDS = 9  # in a colour: plain, then the 8 wild types
CARD_NAMES = (
    "$10",
    "$5",
    "$4",
    "$3",
    "$2",
    "$1",
    "PassGo",
    "DoubleRent",
    "Birthday",
    "DebtCollector",
    "SlyDeal",
    "ForcedDeal",
    "DealBreaker",
    "JustSayNo",
    "RentAny",
    "RentGB",
    "RentBLB",
    "RentPO",
    "RentRU",
    "RentRY",
    "House",
    "Hotel",
    "Brown",
    "Blue",
    "Green",
    "LightBlue",
    "Orange",
    "Pink",
    "Railroad",
    "Red",
    "Utility",
    "Yellow",
    "WildMulti",
    "WildGB",
    "WildBLB",
    "WildPO",
    "WildRG",
    "WildRLB",
    "WildRU",
    "WildRY",
)
COLOUR_NAMES = CARD_NAMES[FIRST_PROPERTY:FIRST_WILD]
DECK_COUNTS = (
    (1, 2, 3, 3, 5, 6)
    + (10, 2, 3, 3, 3, 3, 2, 3, 3, 2, 2, 2, 2, 2, 3, 2)
    + (2, 2, 3, 3, 3, 3, 4, 3, 2, 3)
    + (2, 1, 1, 2, 1, 1, 1, 2)
)
VALUES = (
    (10, 5, 4, 3, 2, 1)
    + (1, 1, 2, 5, 3, 3, 5, 4, 1, 1, 1, 1, 1, 1, 3, 4)
    + (1, 4, 4, 1, 2, 2, 2, 3, 2, 3)
    + (0, 4, 1, 2, 4, 4, 2, 3)
)
WILD_COLOURS = {
    W_MULTI: tuple(range(NUM_COLOURS)),
    W_GB: (GREEN, BLUE),
    W_BLB: (BROWN, LBLUE),
    W_PO: (PINK, ORANGE),
    W_RG: (RAIL, GREEN),
    W_RLB: (RAIL, LBLUE),
    W_RU: (RAIL, UTIL),
    W_RY: (RED, YELLOW),
}
RENT_COLOURS = {
    RENT_GB: (GREEN, BLUE),
    RENT_BLB: (BROWN, LBLUE),
    RENT_PO: (PINK, ORANGE),
    RENT_RU: (RAIL, UTIL),
    RENT_RY: (RED, YELLOW),
}
PAIR_RENT = {c: card for card, cs in RENT_COLOURS.items() for c in cs}
SET_SIZE = (2, 2, 3, 3, 3, 3, 4, 3, 2, 3)
RENTS = (
    (1, 2),
    (3, 8),
    (2, 4, 7),
    (1, 2, 3),
    (1, 3, 5),
    (1, 2, 4),
    (1, 2, 3, 4),
    (2, 3, 6),
    (1, 2),
    (2, 4, 6),
)
NO_BUILDINGS = (RAIL, UTIL)
HAND_START, DRAW_PER_TURN, DRAW_EMPTY, PLAYS_PER_TURN, HAND_LIMIT, SETS_TO_WIN = 5, 2, 5, 3, 7, 3
BIRTHDAY_AMOUNT, DEBT_AMOUNT = 2, 5
MAX_PLAYERS = 5


def kind_type(colour: int, kind: int) -> int:
    """The card type of a property kind (0: the colour's plain property, 1-8: wilds)."""
    return FIRST_PROPERTY + colour if kind == 0 else FIRST_WILD + kind - 1


# Actions.
A_PLACE = 40  # 40 + colour: lay that colour's plain property
A_WILD = 50  # 50 + (wild - 32) * 10 + colour
A_PASS_GO = 130
A_RENT = 131  # 131 + colour, with the matching two-colour rent card
A_RENT_ANY = 141  # 141 + target * 10 + colour
A_BIRTHDAY = 191
A_DEBT = 192  # 192 + target
A_SLY = 197  # 197 + (target * 10 + colour) * 9 + kind
A_FORCED = 647  # 647 + (target * 10 + take colour) * 10 + give colour
A_BREAKER = 1147  # 1147 + target * 10 + colour
A_HOUSE, A_HOTEL = 1197, 1207  # + colour
A_END_TURN = 1217
A_JSN, A_ACCEPT = 1218, 1219
A_PAY_BANK = 1220  # + card type (< 22)
A_PAY_PROP = 1242  # + colour * 9 + kind
A_DISCARD = 1332  # + card type
NUM_ACTIONS = 1372

PLAY, RESPOND, PAY, DISCARD = range(4)
PHASE_CHANCE = 4
P_RENT, P_BIRTHDAY, P_DEBT, P_SLY, P_FORCED, P_BREAKER = range(6)


class MonopolyDealKernel(tt.Kernel):
    """Whole Monopoly Deal state: hands, banks and piles as count vectors."""

    VALUE_FIELDS = (
        "n",
        "cur",
        "phase",
        "plays_left",
        "turns",
        "max_turns",
        "done",
        "winner",
        "pending",
        "responder",
        "jsn",
        "payer",
        "debt",
        "drawer",
    )
    LIST_FIELDS = ("deck", "discard", "targets", "to_draw", "hist", "log")
    NESTED_FIELDS = ("hand", "live", "bank", "props", "houses", "hotels", "drawn", "used")
    __slots__ = VALUE_FIELDS + LIST_FIELDS + NESTED_FIELDS

    def __init__(self, n: int, max_turns: int):
        self.n = n
        self.cur = 0
        self.phase = PLAY
        self.plays_left = PLAYS_PER_TURN
        self.turns = 0
        self.max_turns = max_turns
        self.done = False
        self.winner = -1
        self.pending = None  # (kind, actor, args...) of the action card being resolved
        self.responder = -1  # who decides in the Just Say No exchange
        self.jsn = 0
        self.payer = -1
        self.debt = 0
        self.deck = list(DECK_COUNTS)
        self.discard = [0] * NUM_TYPES
        self.targets = []
        self.hist = []
        self.log = []
        self.hand = [[0] * NUM_TYPES for _ in range(n)]
        self.live = [[] for _ in range(n)]  # (card type, history index that drew it)
        self.bank = [[0] * NUM_TYPES for _ in range(n)]
        self.props = [[0] * (NUM_COLOURS * NUM_KINDS) for _ in range(n)]
        self.houses = [[0] * NUM_COLOURS for _ in range(n)]
        self.hotels = [[0] * NUM_COLOURS for _ in range(n)]
        self.drawn = [[0] * NUM_TYPES for _ in range(n)]
        self.used = [[0] * NUM_TYPES for _ in range(n)]  # played, banked or discarded
        self.to_draw = [HAND_START] * n + [DRAW_PER_TURN]
        self.drawer = 0

    # -- flow ---------------------------------------------------------------------------
    def is_terminal(self):
        return self.done

    def current_player(self):
        if self.done:
            return tt.TERMINAL
        if self.to_draw:
            return tt.CHANCE
        if self.phase == RESPOND:
            return self.responder
        if self.phase == PAY:
            return self.payer
        return self.cur

    def chance_outcomes(self):
        return tt.count_outcomes(self.deck) if self.to_draw else []

    def apply(self, action):
        self.hist.append(action)
        if self.to_draw:
            self._deal(action)
            if not self.to_draw and self.phase == PLAY and self.plays_left == 0:
                self._end_turn()  # a Pass Go played as the last card ends the turn
        elif self.phase == PLAY:
            self._play(action)
        elif self.phase == RESPOND:
            self._respond(action)
        elif self.phase == PAY:
            self._pay(action)
        else:
            self._discard(action)

    def _deal(self, card: int):
        count = self.to_draw[0]
        who = self.drawer if len(self.to_draw) == 1 else self.n - len(self.to_draw) + 1
        self.deck[card] -= 1
        self.hand[who][card] += 1
        self.drawn[who][card] += 1
        self.live[who].append((card, len(self.hist) - 1))
        if count > 1 and sum(self.deck):
            self.to_draw[0] = count - 1
        else:
            self.to_draw.pop(0)

    def _take_from_hand(self, p: int, card: int):
        self.hand[p][card] -= 1
        self.used[p][card] += 1
        live = self.live[p]
        for i, (c, _) in enumerate(live):
            if c == card:
                live.pop(i)
                return

    # -- legal actions ----------------------------------------------------------------------
    def legal_actions(self):
        if self.done or self.to_draw:
            return []
        if self.phase == RESPOND:
            return ([A_JSN] if self.hand[self.responder][JSN] else []) + [A_ACCEPT]
        if self.phase == PAY:
            return self._payment_options(self.payer)
        if self.phase == DISCARD:
            return [A_DISCARD + t for t in range(NUM_TYPES) if self.hand[self.cur][t]]
        return self._play_options(self.cur)

    def _payment_options(self, q: int) -> list[int]:
        acts = [A_PAY_BANK + t for t in range(FIRST_PROPERTY) if self.bank[q][t]]
        props = self.props[q]
        for c in range(NUM_COLOURS):
            for kind in range(NUM_KINDS):
                if props[c * NUM_KINDS + kind] and VALUES[kind_type(c, kind)]:
                    acts.append(A_PAY_PROP + c * NUM_KINDS + kind)
        return acts

    def count(self, q: int, c: int) -> int:
        return sum(self.props[q][c * NUM_KINDS : (c + 1) * NUM_KINDS])

    def complete(self, q: int, c: int) -> bool:
        return self.count(q, c) >= SET_SIZE[c]

    def complete_sets(self, q: int) -> int:
        return sum(1 for c in range(NUM_COLOURS) if self.complete(q, c))

    def rent(self, q: int, c: int) -> int:
        k = min(self.count(q, c), SET_SIZE[c])
        if not k:
            return 0
        value = RENTS[c][k - 1]
        if k == SET_SIZE[c]:
            value += 3 * self.houses[q][c] + 4 * self.hotels[q][c]
        return value

    def _first_kind(self, q: int, c: int) -> int:
        base = c * NUM_KINDS
        return next(k for k in range(NUM_KINDS) if self.props[q][base + k])

    def _play_options(self, p: int) -> list[int]:
        hand, n = self.hand[p], self.n
        others = [q for q in range(n) if q != p]
        acts = [t for t in range(FIRST_PROPERTY) if hand[t]]
        acts += [A_PLACE + c for c in range(NUM_COLOURS) if hand[FIRST_PROPERTY + c]]
        for w, colours in WILD_COLOURS.items():
            if hand[w]:
                acts += [A_WILD + (w - FIRST_WILD) * 10 + c for c in colours]
        mine = [c for c in range(NUM_COLOURS) if self.count(p, c)]
        if hand[PASS_GO]:
            acts.append(A_PASS_GO)
        acts += [A_RENT + c for c in mine if hand[PAIR_RENT[c]]]
        if hand[RENT_ANY]:
            acts += [A_RENT_ANY + q * 10 + c for q in others for c in mine]
        if hand[BIRTHDAY]:
            acts.append(A_BIRTHDAY)
        if hand[DEBT]:
            acts += [A_DEBT + q for q in others]
        open_mine = [c for c in mine if not self.complete(p, c)]
        for q in others:
            theirs = [c for c in range(NUM_COLOURS) if self.count(q, c)]
            loose = [c for c in theirs if not self.complete(q, c)]
            if hand[SLY]:
                acts += [
                    A_SLY + (q * 10 + c) * NUM_KINDS + k
                    for c in loose
                    for k in range(NUM_KINDS)
                    if self.props[q][c * NUM_KINDS + k]
                ]
            if hand[FORCED]:
                acts += [A_FORCED + (q * 10 + c) * 10 + g for c in loose for g in open_mine]
            if hand[BREAKER]:
                acts += [A_BREAKER + q * 10 + c for c in theirs if self.complete(q, c)]
        for c in range(NUM_COLOURS):
            if c in NO_BUILDINGS or not self.complete(p, c):
                continue
            if hand[HOUSE] and not self.houses[p][c]:
                acts.append(A_HOUSE + c)
            if hand[HOTEL] and self.houses[p][c] and not self.hotels[p][c]:
                acts.append(A_HOTEL + c)
        acts.append(A_END_TURN)
        return sorted(set(acts))

    # -- playing ------------------------------------------------------------------------------
    def _play(self, a: int):
        p = self.cur
        self.log.append(("play", p, a))
        if a == A_END_TURN:
            self._end_turn()
            return
        self.plays_left -= 1
        if a < FIRST_PROPERTY:
            self._take_from_hand(p, a)
            self.bank[p][a] += 1
        elif a < A_WILD:
            c = a - A_PLACE
            self._take_from_hand(p, FIRST_PROPERTY + c)
            self.props[p][c * NUM_KINDS] += 1
        elif a < A_PASS_GO:
            w, c = divmod(a - A_WILD, 10)
            self._take_from_hand(p, FIRST_WILD + w)
            self.props[p][c * NUM_KINDS + 1 + w] += 1
        elif a == A_PASS_GO:
            self._use(p, PASS_GO)
            if sum(self.deck):
                self.drawer = p
                self.to_draw.append(min(DRAW_PER_TURN, sum(self.deck)))
        elif a < A_RENT_ANY:
            c = a - A_RENT
            self._use(p, PAIR_RENT[c])
            self._start_pending((P_RENT, p, self.rent(p, c)), [q for q in self._order(p)])
            return
        elif a < A_BIRTHDAY:
            q, c = divmod(a - A_RENT_ANY, 10)
            self._use(p, RENT_ANY)
            self._start_pending((P_RENT, p, self.rent(p, c)), [q])
            return
        elif a == A_BIRTHDAY:
            self._use(p, BIRTHDAY)
            self._start_pending((P_BIRTHDAY, p, BIRTHDAY_AMOUNT), self._order(p))
            return
        elif a < A_SLY:
            self._use(p, DEBT)
            self._start_pending((P_DEBT, p, DEBT_AMOUNT), [a - A_DEBT])
            return
        elif a < A_FORCED:
            rest, kind = divmod(a - A_SLY, NUM_KINDS)
            q, c = divmod(rest, 10)
            self._use(p, SLY)
            self._start_pending((P_SLY, p, c, kind), [q])
            return
        elif a < A_BREAKER:
            rest, give = divmod(a - A_FORCED, 10)
            q, c = divmod(rest, 10)
            self._use(p, FORCED)
            self._start_pending((P_FORCED, p, c, give), [q])
            return
        elif a < A_HOUSE:
            q, c = divmod(a - A_BREAKER, 10)
            self._use(p, BREAKER)
            self._start_pending((P_BREAKER, p, c), [q])
            return
        elif a < A_HOTEL:
            self._take_from_hand(p, HOUSE)
            self.houses[p][a - A_HOUSE] = 1
        else:
            self._take_from_hand(p, HOTEL)
            self.hotels[p][a - A_HOTEL] = 1
        self._after_play()

    def _order(self, p: int) -> list[int]:
        return [(p + i) % self.n for i in range(1, self.n)]

    def _use(self, p: int, card: int):
        self._take_from_hand(p, card)
        self.discard[card] += 1

    def _start_pending(self, pending: tuple, targets: list[int]):
        self.pending = pending
        self.targets = targets
        self._next_target()

    def _next_target(self):
        if not self.targets:
            self.pending = None
            self.phase = PLAY
            self._after_play()
            return
        self.phase = RESPOND
        self.responder = self.targets[0]
        self.jsn = 0

    def _respond(self, a: int):
        q = self.targets[0]
        actor = self.pending[1]
        self.log.append(("respond", self.responder, a))
        if a == A_JSN:
            self._use(self.responder, JSN)
            self.jsn += 1
            self.responder = actor if self.responder == q else q
            return
        # Accepting: an even number of Just Say No leaves the action standing.
        if self.jsn % 2 == 0:
            self._resolve(q)
        else:
            self._target_done()

    def _target_done(self):
        self.targets.pop(0)
        self._next_target()

    def _resolve(self, q: int):
        kind, actor = self.pending[0], self.pending[1]
        if kind in (P_RENT, P_BIRTHDAY, P_DEBT):
            self.payer, self.debt = q, self.pending[2]
            self.phase = PAY
            self._check_payment_done()
            return
        if kind == P_SLY:
            c, k = self.pending[2], self.pending[3]
            self._move_prop(q, actor, c, k)
        elif kind == P_FORCED:
            c, give = self.pending[2], self.pending[3]
            self._move_prop(q, actor, c, self._first_kind(q, c))
            self._move_prop(actor, q, give, self._first_kind(actor, give))
        else:
            c = self.pending[2]
            base = c * NUM_KINDS
            for k in range(NUM_KINDS):
                self.props[actor][base + k] += self.props[q][base + k]
                self.props[q][base + k] = 0
            for b in (self.houses, self.hotels):
                b[actor][c] = max(b[actor][c], b[q][c])
                b[q][c] = 0
        self._target_done()

    def _move_prop(self, src: int, dst: int, c: int, kind: int):
        self.props[src][c * NUM_KINDS + kind] -= 1
        self.props[dst][c * NUM_KINDS + kind] += 1

    def _pay(self, a: int):
        q, r = self.payer, self.pending[1]
        self.log.append(("pay", q, a))
        if a < A_PAY_PROP:
            t = a - A_PAY_BANK
            self.bank[q][t] -= 1
            self.bank[r][t] += 1
            self.debt -= VALUES[t]
        else:
            c, kind = divmod(a - A_PAY_PROP, NUM_KINDS)
            self._move_prop(q, r, c, kind)
            self.debt -= VALUES[kind_type(c, kind)]
        self._check_payment_done()

    def _check_payment_done(self):
        if self.debt <= 0 or not self._payment_options(self.payer):
            self.payer, self.debt = -1, 0
            self._target_done()

    def _after_play(self):
        if self.phase != PLAY:
            return
        for q in range(self.n):
            if self.complete_sets(q) >= SETS_TO_WIN:
                self.done, self.winner = True, q
                self.log.append(("win", q))
                return
        if self.plays_left == 0 and not self.to_draw:
            self._end_turn()

    def _end_turn(self):
        if sum(self.hand[self.cur]) > HAND_LIMIT:
            self.phase = DISCARD
            return
        self._next_turn()

    def _discard(self, a: int):
        t = a - A_DISCARD
        self.log.append(("discard", self.cur, t))
        self._take_from_hand(self.cur, t)
        self.discard[t] += 1
        if sum(self.hand[self.cur]) <= HAND_LIMIT:
            self._next_turn()

    def _next_turn(self):
        self.turns += 1
        self.cur = (self.cur + 1) % self.n
        self.phase = PLAY
        self.plays_left = PLAYS_PER_TURN
        if self.turns >= self.max_turns or not sum(self.deck):
            self.done = True
            self.log.append(("cap", self.turns))
            return
        self.drawer = self.cur
        need = DRAW_EMPTY if not sum(self.hand[self.cur]) else DRAW_PER_TURN
        self.to_draw.append(min(need, sum(self.deck)))

    # -- scoring ----------------------------------------------------------------------------
    def assets(self, q: int) -> int:
        """Bank value plus the value of the properties laid."""
        props = sum(
            VALUES[kind_type(c, k)] * self.props[q][c * NUM_KINDS + k]
            for c in range(NUM_COLOURS)
            for k in range(NUM_KINDS)
        )
        return props + sum(v * b for v, b in zip(VALUES, self.bank[q]))

    def game_scores(self) -> list[float]:
        """Complete sets + assets / 100 per player (the heuristic's score)."""
        return [self.complete_sets(q) + self.assets(q) / 100 for q in range(self.n)]

    def returns(self):
        if not self.done:
            return [0.0] * self.n
        if self.winner >= 0:
            return [1.0 if q == self.winner else 0.0 for q in range(self.n)]
        return tt.win_shares([(self.complete_sets(q), self.assets(q)) for q in range(self.n)])

    # -- information ------------------------------------------------------------------------
    def _phase_name(self) -> str:
        if self.to_draw:
            return "draw"
        return ("play", "respond", "pay", "discard")[self.phase]

    def _view(self, player: int) -> list[str]:
        n = self.n
        parts = [
            f"p{player} turn {self.turns} player {self.cur} {self._phase_name()} "
            f"mover {self.current_player()} plays left {self.plays_left} deck {sum(self.deck)}",
            "hand: " + ",".join(f"{CARD_NAMES[t]}x{c}" for t, c in enumerate(self.hand[player]) if c),
            f"hand sizes {[sum(h) for h in self.hand]}",
            f"pending {self.pending} targets {self.targets} jsn {self.jsn} payer {self.payer} "
            f"debt {self.debt}",
            "discard: " + ",".join(f"{CARD_NAMES[t]}x{c}" for t, c in enumerate(self.discard) if c),
        ]
        for q in range(n):
            props = ",".join(
                f"{COLOUR_NAMES[i // NUM_KINDS]}{i % NUM_KINDS}x{c}" for i, c in enumerate(self.props[q]) if c
            )
            bank = ",".join(f"{CARD_NAMES[t]}x{c}" for t, c in enumerate(self.bank[q]) if c)
            parts.append(f"p{q} bank {bank} props {props} houses {self.houses[q]} hotels {self.hotels[q]}")
        return parts

    def _log_text(self):
        return ";".join(",".join(map(str, e)) for e in self.log)

    def information_state_string(self, player):
        mine = ",".join(str(c) for c, _ in sorted(self.live[player], key=lambda x: x[1]))
        drawn = ",".join(map(str, self.drawn[player]))
        return "\n".join(self._view(player) + [f"my drawn {drawn} live {mine}", f"log: {self._log_text()}"])

    def world_history(self, player: int, rng) -> list[int]:
        """The history with the unseen cards reshuffled into the opponents' live draw slots."""
        slots = [i for q in range(self.n) if q != player for _, i in self.live[q]]
        slots.sort()
        pool = list(self.deck)
        for q in range(self.n):
            if q != player:
                for t in range(NUM_TYPES):
                    pool[t] += self.hand[q][t]
        cards = tt.shuffled_cards(pool, rng)
        actions = self.hist[:]
        for i, card in zip(slots, cards):
            actions[i] = card
        return actions

    def resample(self, player, rng):
        k = MonopolyDealKernel(self.n, self.max_turns)
        for action in self.world_history(player, rng):
            k.apply(action)
        return k

    # -- tensors ------------------------------------------------------------------------------
    def tensor_pieces(self, perfect_recall: bool) -> list[tuple[str, tuple]]:
        n, T, P = self.n, NUM_TYPES, NUM_COLOURS * NUM_KINDS
        pieces = [
            ("player", (n,)),
            ("phase", (5,)),
            ("mover", (n,)),
            ("plays_left", (4,)),
            ("hand", (T,)),
            ("hand_sizes", (n,)),
            ("deck_size", (1,)),
            ("discard", (T,)),
            ("banks", (n, T)),
            ("properties", (n, P)),
            ("houses", (n, NUM_COLOURS)),
            ("hotels", (n, NUM_COLOURS)),
            ("pending", (6,)),
            ("actor", (n,)),
            ("target", (n,)),
            ("debt", (1,)),
            ("jsn", (1,)),
        ]
        if perfect_recall:
            pieces += [("my_draws", (T,)), ("used", (n, T))]
        return pieces

    def fill_tensor(self, player: int, perfect_recall: bool, d: dict) -> None:
        d["player"][player] = 1
        d["phase"][PHASE_CHANCE if self.to_draw else self.phase] = 1
        mover = self.current_player()
        if mover >= 0:
            d["mover"][mover] = 1
        d["plays_left"][self.plays_left] = 1
        d["hand"][:] = self.hand[player]
        d["deck_size"][0] = sum(self.deck)
        d["discard"][:] = self.discard
        for q in range(self.n):
            d["hand_sizes"][q] = sum(self.hand[q])
            d["banks"][q] = self.bank[q]
            d["properties"][q] = self.props[q]
            d["houses"][q] = self.houses[q]
            d["hotels"][q] = self.hotels[q]
        if self.pending is not None:
            d["pending"][self.pending[0]] = 1
            d["actor"][self.pending[1]] = 1
            if self.targets:
                d["target"][self.targets[0]] = 1
        d["debt"][0] = self.debt
        d["jsn"][0] = self.jsn
        if perfect_recall:
            d["my_draws"][:] = self.drawn[player]
            for q in range(self.n):
                d["used"][q] = self.used[q]

    def action_to_string(self, player, action):
        a = action
        if player == tt.CHANCE and a < NUM_TYPES:
            return f"draw {CARD_NAMES[a]}"
        if a < FIRST_PROPERTY:
            return f"bank {CARD_NAMES[a]}"
        if a < A_WILD:
            return f"lay {COLOUR_NAMES[a - A_PLACE]}"
        if a < A_PASS_GO:
            w, c = divmod(a - A_WILD, 10)
            return f"lay {CARD_NAMES[FIRST_WILD + w]} as {COLOUR_NAMES[c]}"
        if a == A_PASS_GO:
            return "pass go"
        if a < A_RENT_ANY:
            return f"rent {COLOUR_NAMES[a - A_RENT]}"
        if a < A_BIRTHDAY:
            q, c = divmod(a - A_RENT_ANY, 10)
            return f"wild rent {COLOUR_NAMES[c]} on p{q}"
        if a == A_BIRTHDAY:
            return "birthday"
        if a < A_SLY:
            return f"debt collector on p{a - A_DEBT}"
        if a < A_FORCED:
            rest, kind = divmod(a - A_SLY, NUM_KINDS)
            q, c = divmod(rest, 10)
            return f"sly deal p{q} {COLOUR_NAMES[c]} kind {kind}"
        if a < A_BREAKER:
            rest, give = divmod(a - A_FORCED, 10)
            q, c = divmod(rest, 10)
            return f"forced deal p{q} take {COLOUR_NAMES[c]} give {COLOUR_NAMES[give]}"
        if a < A_HOUSE:
            q, c = divmod(a - A_BREAKER, 10)
            return f"deal breaker p{q} {COLOUR_NAMES[c]}"
        if a < A_HOTEL:
            return f"house on {COLOUR_NAMES[a - A_HOUSE]}"
        if a < A_END_TURN:
            return f"hotel on {COLOUR_NAMES[a - A_HOTEL]}"
        if a == A_END_TURN:
            return "end turn"
        if a == A_JSN:
            return "just say no"
        if a == A_ACCEPT:
            return "accept"
        if a < A_PAY_PROP:
            return f"pay {CARD_NAMES[a - A_PAY_BANK]}"
        if a < A_DISCARD:
            c, kind = divmod(a - A_PAY_PROP, NUM_KINDS)
            return f"pay property {COLOUR_NAMES[c]} kind {kind}"
        return f"discard {CARD_NAMES[a - A_DISCARD]}"

    def _state_line(self):
        return (
            f"turn {self.turns} cur {self.cur} phase {self.phase} plays {self.plays_left} "
            f"to_draw {self.to_draw} deck {self.deck} discard {self.discard} "
            f"pending {self.pending} targets {self.targets} responder {self.responder} "
            f"jsn {self.jsn} payer {self.payer} debt {self.debt} done {self.done} "
            f"winner {self.winner}"
        )

    def _player_line(self, p):
        return (
            f"p{p} hand {self.hand[p]} live {self.live[p]} bank {self.bank[p]} "
            f"props {self.props[p]} houses {self.houses[p]} hotels {self.hotels[p]}"
        )


SCORE_SCALE = float(SETS_TO_WIN)


def heuristic(state) -> list[float]:
    """Value per player in [0, 1] for cutting a rollout short (pyspiel state or kernel).

    TAG's ``LeaderHeuristic`` (own score minus the best other score), the heuristic of its
    ``MonopolyDeal_HiBudget.json`` MCTS settings, on ``kernel.game_scores()`` (complete sets
    plus assets / 100), scaled by ``SCORE_SCALE`` (3 sets) into [0, 1]
    (``_history_worlds.leader_heuristic``). Terminal states give the returns.
    """
    kernel = getattr(state, "kernel", state)
    if kernel.is_terminal():
        return kernel.returns()
    return hw.leader_heuristic(kernel.game_scores(), SCORE_SCALE)


def turn_counter(state) -> int:
    """TAG's turn counter of a pyspiel state (or kernel): the turns ended so far, which changes
    exactly when an action ends the turn owner's turn (``infosets.games.kernels``, rollout
    termination END_TURN; twin ``kernel.nb_turn``)."""
    return getattr(state, "kernel", state).turns
