"""Monopoly Deal (Hasbro, 2008) as an OpenSpiel game, short name ``monopoly_deal``.

One of the games of Ravichandran, Goodman and Lucas, "Evaluation of Perfect-Information
Monte Carlo Tree Search in Imperfect-Information Games"
(docs/papers/pimcts_aggregation.md), who ran TAG's Java version (``games.monopolydeal``) with 3 players.
Rules follow the published game and TAG's card list and values; the code is ours. They are
written once, in ``kernel.py`` (numba, on an int64 state array, for both engines):
``MonopolyDealKernel`` is an ``array_kernel.ArrayKernel`` running them, and this module holds
the rest (registration, string views, tensors, the public log and the history kept beside the
array, the world sampler, the engine's conversions and the heuristic's entry point), reading
the array.

Cards (106): money 10x1, 5x2, 4x3, 3x3, 2x5, 1x6; actions Pass Go x10, Double the Rent x2,
It's My Birthday x3, Debt Collector x3, Sly Deal x3, Forced Deal x3, Deal Breaker x2, Just Say
No x3, wild rent x3, two-colour rents x2 each (green/blue, brown/light blue, pink/orange,
railroad/utility, red/yellow), House x3, Hotel x2; properties brown 2, blue 2, green 3, light
blue 3, orange 3, pink 3, railroad 4, red 3, utility 2, yellow 3; property wilds multicolour
x2, green/blue, brown/light blue, pink/orange x2, railroad/green, railroad/light blue,
railroad/utility, red/yellow x2. Bank values are TAG's (e.g. Debt Collector 5, wild rent 1).

Play (2-5 players, default 3): everyone is dealt 5 cards. On a turn the player draws 2 (5 with
an empty hand) and plays up to three cards: bank a money or action card, lay a property (a
wild names its colour), or play an action: Pass Go (draw 2), a rent card (every opponent pays
the rent of one of the player's colours; the wild rent makes one chosen player pay), It's My
Birthday (everyone pays 2), Debt Collector (one player pays 5), Sly Deal (take a property not
in a complete set), Forced Deal (swap one of yours for one of theirs, neither from a complete
set), Deal Breaker (take a complete set with its buildings), House/Hotel (on a complete set,
not railroads or utilities; a hotel needs a house). A targeted player may answer with Just Say
No, which the actor may answer with another, and so on. Payment: the payer chooses card by
card from bank and properties until the debt is covered (no change) or nothing is left;
property paid keeps its colour on the receiver's side. At the end of the turn the hand is
discarded down to 7. Three complete sets of different colours win at once. Rents per colour
and number of cards: brown 1/2, blue 3/8, green 2/4/7, light blue 1/2/3, orange 1/3/5, pink
1/2/4, railroad 1/2/3/4, red 2/3/6, utility 1/2, yellow 2/4/6; +3 house, +4 hotel.

Simplifications (documented):
* The game also ends when the draw pile is empty at the start of a turn, or after
  ``max_turns`` turns (default 100), instead of reshuffling the discards (TAG reshuffles); such
  games are shared by the most complete sets, then the highest bank plus property value.
* Double the Rent can only be banked. Wilds cannot be moved once laid; one set per colour
  (extra cards of a colour join it). Buildings stay with their colour and count only while it
  is complete; they cannot pay debts. The multicolour wild (value 0) cannot pay.
* Which card of a colour a Forced Deal or payment moves is fixed (the plain property first,
  then wilds in the order above); Sly Deal and payment name the card kind.
* Every targeted player gets a response node (legal: accept, plus Just Say No when held), so
  the existence of the node reveals nothing.
Returns: 1 to the winner (win shares on the caps, see ``_tabletop``).

Hidden information and the determinizer: the other hands and the draw pile. Every card an
opponent played, banked or discarded is public, so given the public history every allocation
of the unseen cards (opponents' hands and the draw pile) has the same number of consistent
deals: ``kernel.world_history`` shuffles the unseen cards uniformly into the draw slots that
fed the opponents' current hands (and the pile) and replays. The slot in which an opponent drew
a card it later played is kept from the real history (it changes no state).

Tensors (fixed shape per player count n; T = 40 card types, P = 90 = 10 colours x 9 kinds:
plain, multicolour, green/blue, brown/light blue, pink/orange, railroad/green, railroad/light
blue, railroad/utility, red/yellow): observation = player [n] | phase (play, respond, pay,
discard, chance) [5] | mover [n] | plays left [4] | my hand [T] | hand sizes [n] | draw pile
size [1] | discard pile [T] | banks [n, T] | properties [n, P] | houses [n, 10] | hotels
[n, 10] | pending action (rent, birthday, debt, sly, forced, breaker) [6] | actor [n] |
target [n] | debt left [1] | Just Say No count [1]. Information state = the observation | my
draws [T] (counts of every card drawn) | cards each player played, banked or discarded [n, T].

Compiled engine: the same array, without the history (``max_game_length`` bounds 46,000
actions at 3 players, far too many to copy per search iteration); its worlds refill the
opponents' live hand slots in place (``kernel.nb_determinize``). The adapter keeps the history
and the public log beside the array; ``kernel.kernel_for`` converts states and arrays, an array
finding its history and log in a small registry of the states converted (every world
determinized from a converted state shares its public log and its length).

Turn counter: ``turn_counter(state)`` is the number of turns ended (``turns``, the kernel's
``nb_turn``): a turn is up to
three plays (the responses and payments they cause inside it) and the discards after them, and
ends where TAG's ``MonopolyDealForwardModel._afterAction`` ends it (``endPlayerTurn``/``endRound``:
no plays left or the phase ended, nothing in progress, the hand discarded down). TAG's agent
for this game stops its rollouts at the end of a turn (``rolloutTermination`` END_TURN); the
counter is read only, so it changes no rule and no draw.

Heuristic: ``heuristic(state)`` is TAG's ``LeaderHeuristic`` (the setting of TAG's
``MonopolyDeal_HiBudget.json``) on our game score ``complete sets + (bank + property
value) / 100`` scaled by 3 sets into [0, 1]; returns at terminal states (the kernel's ``nb_heuristic``).
"""

from __future__ import annotations

from collections import OrderedDict

import numpy as np

from infosets.games import _history_worlds as hw
from infosets.games import _tabletop as tt
from infosets.games.array_kernel import ArrayKernel
from infosets.games.monopoly_deal import kernel as mk

GAME_NAME = "monopoly_deal"

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
COLOUR_NAMES = CARD_NAMES[mk.FIRST_PROPERTY : mk.FIRST_WILD]
_PHASE_NAMES = ("play", "respond", "pay", "discard")
_KIND_NAMES = [f"{COLOUR_NAMES[i // mk.NUM_KINDS]}{i % mk.NUM_KINDS}" for i in range(mk.NP)]
_NT, _NB, _NP, _PL, _PS = mk.NUM_TYPES, mk.NB, mk.NP, mk.PL, mk.PS


def _counts_text(counts: list[int]) -> str:
    return ",".join(f"{CARD_NAMES[t]}x{c}" for t, c in enumerate(counts) if c)


# (public hash, history length) -> (log, history) of the states converted for the engine lately
# (``MonopolyDealKernel.engine_array``): an array (a world determinized from one of them shares
# both) finds its log and history here (``MonopolyDealKernel.wrap``).
_CONVERTED: OrderedDict = OrderedDict()
_CONVERTED_SIZE = 512


class MonopolyDealKernel(ArrayKernel):
    """A Monopoly Deal state: the kernel's array (``self.s``), played by its jitted rules, with
    the history (``hist``) and the public log (``log``) kept beside it; the fields below read
    the array (as Python values; hands, banks and piles are count vectors)."""

    __slots__ = ("hist", "log")
    RULES = mk
    NUM_ACTIONS = mk.NUM_ACTIONS
    MAX_PLAYERS = mk.MAX_PLAYERS

    def __init__(self, n: int, max_turns: int):
        super().__init__(mk.new_state(n, max_turns))
        self.hist = []
        self.log = []

    @classmethod
    def wrap(cls, s: np.ndarray) -> MonopolyDealKernel:
        """The kernel holding state array ``s`` (not copied), its history and log those of the
        state converted with the same public log (``engine_array``); the history's live
        hand slots hold the array's cards. Unknown: the log is a placeholder
        ``("public", hash)``, the other history entries -1."""
        kernel = super().wrap(s)
        key = (int(s[mk.PUBHASH]), int(s[mk.HLEN]))
        entry = _CONVERTED.get(key)
        if entry is not None:
            _CONVERTED.move_to_end(key)
            kernel.log, kernel.hist = list(entry[0]), list(entry[1])
        else:
            kernel.log, kernel.hist = [("public", key[0])], [-1] * key[1]
        for live in kernel.live:
            for card, index in live:
                kernel.hist[index] = card
        return kernel

    def engine_array(self) -> np.ndarray:
        """A copy of the array for the compiled engine, the log and history remembered for
        ``wrap`` (``kernel.kernel_for``)."""
        s = self.s.copy()
        key = (int(s[mk.PUBHASH]), int(s[mk.HLEN]))
        _CONVERTED[key] = (list(self.log), list(self.hist))
        _CONVERTED.move_to_end(key)
        while len(_CONVERTED) > _CONVERTED_SIZE:
            _CONVERTED.popitem(last=False)
        return s

    def copy(self) -> MonopolyDealKernel:
        kernel = super().copy()
        kernel.hist = self.hist[:]
        kernel.log = self.log[:]
        return kernel

    clone = copy

    def apply(self, action: int) -> None:
        """Play ``action`` by the rules; record it and its public log entries."""
        s = self.s
        entry = None
        if not s[mk.NTD]:
            phase = s[mk.PHASE]
            if phase == mk.PLAY:
                entry = ("play", int(s[mk.CUR]), action)
            elif phase == mk.RESPOND:
                entry = ("respond", int(s[mk.RESP]), action)
            elif phase == mk.PAY:
                entry = ("pay", int(s[mk.PAYER]), action)
            else:
                entry = ("discard", int(s[mk.CUR]), action - mk.A_DISCARD)
        was_done = s[mk.DONE]
        self._apply(s, action)
        self.hist.append(action)
        if entry is not None:
            self.log.append(entry)
        if s[mk.DONE] and not was_done:
            winner = int(s[mk.WINNER])
            self.log.append(("win", winner) if winner >= 0 else ("cap", int(s[mk.TURNS])))

    apply_action = apply

    # -- the array's fields, read-only ------------------------------------------------------
    n = property(lambda self: int(self.s[mk.N]))
    cur = property(lambda self: int(self.s[mk.CUR]))
    phase = property(lambda self: int(self.s[mk.PHASE]))
    plays_left = property(lambda self: int(self.s[mk.PLAYS]))
    turns = property(lambda self: int(self.s[mk.TURNS]))
    max_turns = property(lambda self: int(self.s[mk.MAXT]))
    done = property(lambda self: bool(self.s[mk.DONE]))
    winner = property(lambda self: int(self.s[mk.WINNER]))
    responder = property(lambda self: int(self.s[mk.RESP]))
    jsn = property(lambda self: int(self.s[mk.JSNC]))
    payer = property(lambda self: int(self.s[mk.PAYER]))
    debt = property(lambda self: int(self.s[mk.DEBT_LEFT]))
    drawer = property(lambda self: int(self.s[mk.DRAWER]))
    deck = property(lambda self: self.s[mk.DECK : mk.DECK + _NT].tolist())
    discard = property(lambda self: self.s[mk.DISC : mk.DISC + _NT].tolist())
    to_draw = property(lambda self: self.s[mk.TD : mk.TD + self.s[mk.NTD]].tolist())
    targets = property(lambda self: self.s[mk.TG : mk.TG + self.s[mk.NTG]].tolist())
    hand = property(lambda self: self._rows(mk.O_HAND, _NT))
    used = property(lambda self: self._rows(mk.O_USED, _NT))  # played, banked or discarded
    props = property(lambda self: self._rows(mk.O_PROPS, _NP))
    houses = property(lambda self: self._rows(mk.O_HOUSES, mk.NUM_COLOURS))
    hotels = property(lambda self: self._rows(mk.O_HOTELS, mk.NUM_COLOURS))

    def _rows(self, offset: int, width: int) -> list[list[int]]:
        s = self.s
        return [s[_PL + _PS * q + offset : _PL + _PS * q + offset + width].tolist() for q in range(self.n)]

    @property
    def bank(self) -> list[list[int]]:
        return [row + [0] * (_NT - _NB) for row in self._rows(mk.O_BANK, _NB)]

    @property
    def drawn(self) -> list[list[int]]:
        """Every card drawn, per player (in hand or used since)."""
        return [[h + u for h, u in zip(hand, used)] for hand, used in zip(self.hand, self.used)]

    @property
    def live(self) -> list[list[tuple[int, int]]]:
        """Per player, the hand in draw order: (card type, history index that drew it)."""
        s, out = self.s, []
        for q in range(self.n):
            base = _PL + _PS * q
            m = s[base + mk.O_NLIVE]
            cards = s[base + mk.O_LIVE : base + mk.O_LIVE + m].tolist()
            out.append(list(zip(cards, s[base + mk.O_LIDX : base + mk.O_LIDX + m].tolist())))
        return out

    @property
    def pending(self) -> tuple | None:
        """(kind, actor, args...) of the action card being resolved, or None."""
        kind, actor, a2, a3 = self.s[mk.PKIND : mk.PA3 + 1].tolist()
        if kind < 0:
            return None
        return (kind, actor, a2, a3) if kind in (mk.P_SLY, mk.P_FORCED) else (kind, actor, a2)

    # -- scoring (views) --------------------------------------------------------------------
    def count(self, q: int, c: int) -> int:
        return int(mk._count(self.s, q, c))

    def complete(self, q: int, c: int) -> bool:
        return bool(mk._complete(self.s, q, c))

    def complete_sets(self, q: int) -> int:
        return int(mk._complete_sets(self.s, q))

    def rent(self, q: int, c: int) -> int:
        return int(mk._rent(self.s, q, c))

    def assets(self, q: int) -> int:
        """Bank value plus the value of the properties laid."""
        return int(mk._assets(self.s, q))

    def game_scores(self) -> list[float]:
        """Complete sets + assets / 100 per player (the heuristic's score)."""
        return [self.complete_sets(q) + self.assets(q) / 100 for q in range(self.n)]

    # -- information ------------------------------------------------------------------------
    def _phase_name(self) -> str:
        return "draw" if self.s[mk.NTD] else _PHASE_NAMES[self.phase]

    def _view(self, player: int, a: list[int] | None = None) -> list[str]:
        """The lines ``player`` sees now (``a``: the array's players' part as a list, read once)."""
        a = self._players_part() if a is None else a
        blocks = [a[_PL + _PS * q : _PL + _PS * (q + 1)] for q in range(a[mk.N])]
        hands = [block[mk.O_HAND : mk.O_HAND + _NT] for block in blocks]
        phase = "draw" if a[mk.NTD] else _PHASE_NAMES[a[mk.PHASE]]
        parts = [
            f"p{player} turn {a[mk.TURNS]} player {a[mk.CUR]} {phase} "
            f"mover {self.current_player()} plays left {a[mk.PLAYS]} deck {a[mk.DECKN]}",
            "hand: " + _counts_text(hands[player]),
            f"hand sizes {[sum(h) for h in hands]}",
            f"pending {self.pending} targets {a[mk.TG : mk.TG + a[mk.NTG]]} jsn {a[mk.JSNC]} "
            f"payer {a[mk.PAYER]} debt {a[mk.DEBT_LEFT]}",
            "discard: " + _counts_text(a[mk.DISC : mk.DISC + _NT]),
        ]
        for q, block in enumerate(blocks):
            props = block[mk.O_PROPS : mk.O_PROPS + _NP]
            laid = ",".join(f"{_KIND_NAMES[i]}x{c}" for i, c in enumerate(props) if c)
            parts.append(
                f"p{q} bank {_counts_text(block[mk.O_BANK : mk.O_BANK + _NB])} props {laid} "
                f"houses {block[mk.O_HOUSES : mk.O_HOUSES + mk.NUM_COLOURS]} "
                f"hotels {block[mk.O_HOTELS : mk.O_HOTELS + mk.NUM_COLOURS]}"
            )
        return parts

    def _log_text(self):
        return ";".join(",".join(map(str, e)) for e in self.log)

    def _players_part(self) -> list[int]:
        """The array up to the last player's block, as a list (views slice it)."""
        s = self.s
        return s[: _PL + _PS * s[mk.N]].tolist()

    def information_state_string(self, player):
        a = self._players_part()
        block = a[_PL + _PS * player : _PL + _PS * (player + 1)]
        m = block[mk.O_NLIVE]
        live = zip(block[mk.O_LIVE : mk.O_LIVE + m], block[mk.O_LIDX : mk.O_LIDX + m])
        mine = ",".join(str(c) for c, _ in sorted(live, key=lambda x: x[1]))
        hand, used = block[mk.O_HAND : mk.O_HAND + _NT], block[mk.O_USED : mk.O_USED + _NT]
        drawn = ",".join(str(h + u) for h, u in zip(hand, used))
        return "\n".join(
            self._view(player, a) + [f"my drawn {drawn} live {mine}", f"log: {self._log_text()}"]
        )

    def world_history(self, player: int, rng) -> list[int]:
        """The history with the unseen cards reshuffled into the opponents' live draw slots."""
        live, hands = self.live, self.hand
        slots = sorted(i for q in range(self.n) if q != player for _, i in live[q])
        pool = self.deck
        for q in range(self.n):
            if q != player:
                for t in range(mk.NUM_TYPES):
                    pool[t] += hands[q][t]
        cards = tt.shuffled_cards(pool, rng)
        actions = self.hist[:]
        for i, card in zip(slots, cards):
            actions[i] = card
        return actions

    def resample(self, player, rng):
        world = MonopolyDealKernel(self.n, self.max_turns)
        for action in self.world_history(player, rng):
            world.apply(action)
        return world

    # -- tensors ------------------------------------------------------------------------------
    def tensor_pieces(self, perfect_recall: bool) -> list[tuple[str, tuple]]:
        n, T, P = self.n, mk.NUM_TYPES, mk.NUM_COLOURS * mk.NUM_KINDS
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
            ("houses", (n, mk.NUM_COLOURS)),
            ("hotels", (n, mk.NUM_COLOURS)),
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
        s, n = self.s, self.n
        d["player"][player] = 1
        d["phase"][mk.PHASE_CHANCE if s[mk.NTD] else self.phase] = 1
        mover = self.current_player()
        if mover >= 0:
            d["mover"][mover] = 1
        d["plays_left"][self.plays_left] = 1
        hands = self.hand
        d["hand"][:] = hands[player]
        d["deck_size"][0] = s[mk.DECKN]
        d["discard"][:] = self.discard
        for q in range(n):
            base = _PL + _PS * q
            d["hand_sizes"][q] = sum(hands[q])
            d["banks"][q, :_NB] = s[base + mk.O_BANK : base + mk.O_BANK + _NB]
            d["properties"][q] = s[base + mk.O_PROPS : base + mk.O_PROPS + _NP]
            d["houses"][q] = s[base + mk.O_HOUSES : base + mk.O_HOUSES + mk.NUM_COLOURS]
            d["hotels"][q] = s[base + mk.O_HOTELS : base + mk.O_HOTELS + mk.NUM_COLOURS]
        if s[mk.PKIND] >= 0:
            d["pending"][s[mk.PKIND]] = 1
            d["actor"][s[mk.PACT]] = 1
            if s[mk.NTG]:
                d["target"][s[mk.TG]] = 1
        d["debt"][0] = self.debt
        d["jsn"][0] = self.jsn
        if perfect_recall:
            d["my_draws"][:] = self.drawn[player]
            for q, used in enumerate(self.used):
                d["used"][q] = used

    def action_to_string(self, player, action):
        a = action
        if player == tt.CHANCE and a < mk.NUM_TYPES:
            return f"draw {CARD_NAMES[a]}"
        if a < mk.FIRST_PROPERTY:
            return f"bank {CARD_NAMES[a]}"
        if a < mk.A_WILD:
            return f"lay {COLOUR_NAMES[a - mk.A_PLACE]}"
        if a < mk.A_PASS_GO:
            w, c = divmod(a - mk.A_WILD, 10)
            return f"lay {CARD_NAMES[mk.FIRST_WILD + w]} as {COLOUR_NAMES[c]}"
        if a == mk.A_PASS_GO:
            return "pass go"
        if a < mk.A_RENT_ANY:
            return f"rent {COLOUR_NAMES[a - mk.A_RENT]}"
        if a < mk.A_BIRTHDAY:
            q, c = divmod(a - mk.A_RENT_ANY, 10)
            return f"wild rent {COLOUR_NAMES[c]} on p{q}"
        if a == mk.A_BIRTHDAY:
            return "birthday"
        if a < mk.A_SLY:
            return f"debt collector on p{a - mk.A_DEBT}"
        return _targeted_action_string(a)

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


def _targeted_action_string(a: int) -> str:
    """``action_to_string`` of the actions from Sly Deal on (steals, buildings, responses,
    payments, discards)."""
    if a < mk.A_FORCED:
        rest, kind = divmod(a - mk.A_SLY, mk.NUM_KINDS)
        q, c = divmod(rest, 10)
        return f"sly deal p{q} {COLOUR_NAMES[c]} kind {kind}"
    if a < mk.A_BREAKER:
        rest, give = divmod(a - mk.A_FORCED, 10)
        q, c = divmod(rest, 10)
        return f"forced deal p{q} take {COLOUR_NAMES[c]} give {COLOUR_NAMES[give]}"
    if a < mk.A_HOUSE:
        q, c = divmod(a - mk.A_BREAKER, 10)
        return f"deal breaker p{q} {COLOUR_NAMES[c]}"
    if a < mk.A_HOTEL:
        return f"house on {COLOUR_NAMES[a - mk.A_HOUSE]}"
    if a < mk.A_END_TURN:
        return f"hotel on {COLOUR_NAMES[a - mk.A_HOTEL]}"
    if a == mk.A_END_TURN:
        return "end turn"
    if a == mk.A_JSN:
        return "just say no"
    if a == mk.A_ACCEPT:
        return "accept"
    if a < mk.A_PAY_PROP:
        return f"pay {CARD_NAMES[a - mk.A_PAY_BANK]}"
    if a < mk.A_DISCARD:
        c, kind = divmod(a - mk.A_PAY_PROP, mk.NUM_KINDS)
        return f"pay property {COLOUR_NAMES[c]} kind {kind}"
    return f"discard {CARD_NAMES[a - mk.A_DISCARD]}"


_DEFAULT_PLAYERS = 3
_DEFAULT_MAX_TURNS = 100
GAME_TYPE = hw.make_game_type(
    GAME_NAME,
    "Monopoly Deal",
    2,
    mk.MAX_PLAYERS,
    {"players": _DEFAULT_PLAYERS, "max_turns": _DEFAULT_MAX_TURNS},
)


class MonopolyDealGame(hw.HistoryGame):
    """Monopoly Deal with 2-5 players (``players``, default 3) and a turn cap ``max_turns``."""

    check_replay = True  # world_history rewrites the real history: the replay checks it

    def __init__(self, params=None):
        params = dict(params or {})
        n = tt.players_param(params, GAME_TYPE)
        max_turns = tt.int_param(params, "max_turns", _DEFAULT_MAX_TURNS, 1, 1000)
        cards = sum(mk.DECK_COUNTS)
        # Each turn: at most 3 plays, each with up to n-1 responses of alternating Just Say No
        # (3 in the game), payments of at most every card, the end of turn and the discards.
        per_turn = 3 * (1 + (n - 1) * 5 + cards) + 1 + cards
        super().__init__(
            GAME_TYPE,
            params,
            num_players=n,
            num_distinct_actions=mk.NUM_ACTIONS,
            max_chance_outcomes=mk.NUM_TYPES,
            max_game_length=cards + max_turns * per_turn,
        )
        self.max_turns = max_turns

    def new_kernel(self):
        return MonopolyDealKernel(self.players, self.max_turns)


def heuristic(state) -> list[float]:
    """Value per player in [0, 1] for cutting a rollout short (pyspiel state or kernel).

    TAG's ``LeaderHeuristic`` (own score minus the best other score), the heuristic of TAG's
    ``MonopolyDeal_HiBudget.json`` MCTS settings, on ``kernel.game_scores()`` (complete sets
    plus assets / 100), scaled by ``kernel.SCORE_SCALE`` (3 sets) into [0, 1]: the kernel's
    ``nb_heuristic``. Terminal states give the returns.
    """
    kernel = getattr(state, "kernel", state)
    out = np.zeros(kernel.n)
    mk.nb_heuristic(kernel.s, out)
    return out.tolist()


def turn_counter(state) -> int:
    """TAG's turn counter of a pyspiel state (or kernel): the turns ended so far, which changes
    exactly when an action ends the turn owner's turn (``infosets.games.kernels``, rollout
    termination END_TURN; the kernel's ``nb_turn``)."""
    return int(mk.nb_turn(getattr(state, "kernel", state).s))


sample_world = hw.sample_world  # a world keeping ``player``'s information state


hw.register(GAME_TYPE, MonopolyDealGame)
