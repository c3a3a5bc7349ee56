"""Virus! (Tranjis Games, 2015) as an OpenSpiel game, short name ``virus``.

One of the games of Ravichandran, Goodman and Lucas, "Evaluation of Perfect-Information
Monte Carlo Tree Search in Imperfect-Information Games"
(docs/papers/pimcts_aggregation.md), who ran TAG's Java version (2-6 players; the paper used 3).

Rules (68 cards): organs in four colours x5 plus a wild organ; viruses x4 per colour plus a
wild virus; medicines x4 per colour plus 4 wild medicines; treatments: Transplant x3, Organ
Thief x3, Contagion x2, Latex Glove x1, Medical Error x1. Each player holds 3 cards. On a
turn a player either plays one card or discards 1-3 cards, then draws back to 3 (the
discard pile is reshuffled into the deck when it runs out).
* Organ: add it to your body (no two organs of one colour; the wild organ is a fifth kind).
* Virus: on another player's organ of its colour (wild virus or wild organ: any): a
  vaccinated organ loses its medicine, an infected organ is destroyed, a healthy one is
  infected. Immunised organs (two medicines) cannot be targeted.
* Medicine: on your own organ of its colour (wild: any): cures an infection, vaccinates a
  healthy organ, immunises a vaccinated one.
* Transplant: swap one of your organs with another player's (neither immunised, no
  duplicate colour may result). Organ Thief: take another player's organ (not immunised) of
  a colour you lack. Medical Error: swap bodies with another player. Latex Glove: every
  other player discards their hand and, on their next turn, only draws a new one.
* Contagion: move a virus from one of your infected organs onto another player's healthy,
  unvaccinated organ it can infect (one virus per card, as in TAG).
The first player with four healthy organs (vaccinated and immunised count as healthy) wins.
After 100 rounds the game is a draw (as in TAG).

Modelling choices: drawing is a chance node per card from the deck's count vector (the deck
order is never seen by anyone); a discard is one action naming a subset of the sorted hand;
returns are win shares (a draw gives 1/n each; see ``_tabletop``).

The rules are written once, in numba, in ``kernel.py`` (both engines run them); this module
holds what is not rules: the registration, the string views and tensors (reading the
kernel's state array), the public log, the world sampler and the history planning.

Hidden information: only the hands. Everything on the table is public and no card in a
hand is ever shown. A card drawn before a reshuffle came from that pile (the public discard
pile of its time), so the kernel's array keeps, as bookkeeping outside every view and string, the
epoch of each hand card's draw (``hand_epochs``: the reshuffles before it; ``epoch``: the
reshuffles so far; a card leaving a hand is, of its type, the one of the earliest epoch).
``resample`` (law: ``deal_hidden``) deals each other player's hand card of an older epoch a
card among the hidden cards of its epoch, and those of the last epoch together with the
deck, uniformly over those placements; the compiled ``nb_determinize`` draws the same worlds
from the same PCG32 stream. ``sample_world`` rebuilds each such world from a history that
deals it (``resample_given``, ``_tabletop.sample_rebuilt_world``), so its ``history()``
reaches it.

Tensors (``_tabletop.Kernel``; rows indexed by seat), the observation tensor in order:
  player (n) one-hot; mover (n + 1): who moves, or chance; turn (1); deck (1) cards
  left; hand (20) own card counts; hand_sizes (n); glove (n) 1 where a Latex Glove
  left the player to draw a new hand; organ (n, 5) 1 where the body has that colour's
  organ; attached (n, 5, 20) counts of the cards on each organ; discard (20).
public_log codes: a play or new hand (its action id); a discard of k cards
(NUM_ACTIONS + k - 1).
The information-state tensor appends ``public_log`` (n + 1, LOG_CODES) where the game has
a public log (``_tabletop.TabletopObserver``).
"""

from __future__ import annotations

from bisect import bisect_right

import numpy as np

from infosets.games import _tabletop as tt
from infosets.games.array_kernel import ArrayKernel
from infosets.games.virus import kernel as vk
from infosets.games.virus.kernel import (  # noqa: F401  (the game's constants, for its users)
    A_CONTAGION,
    A_DISCARD,
    A_ERROR,
    A_GLOVE,
    A_MEDICINE,
    A_NEW_HAND,
    A_ORGAN,
    A_THIEF,
    A_TRANSPLANT,
    A_VIRUS,
    BLUE,
    CONTAGION,
    DECK_COUNTS,
    ERROR,
    GLOVE,
    GREEN,
    HAND,
    MAX_PLAYERS,
    MAX_ROUNDS,
    MEDICINE,
    NUM_ACTIONS,
    NUM_SLOTS,
    NUM_TYPES,
    ORGAN,
    ORGANS_TO_WIN,
    RED,
    THIEF,
    TRANSPLANT,
    VIRUS,
    WILD,
    YELLOW,
)

GAME_NAME = "virus"
COLOURS = ("red", "green", "blue", "yellow", "wild")
NT = NUM_TYPES


def _type_name(t: int) -> str:
    if t < VIRUS:
        return f"organ-{COLOURS[t]}"
    if t < MEDICINE:
        return f"virus-{COLOURS[t - VIRUS]}"
    if t < THIEF:
        return f"medicine-{COLOURS[t - MEDICINE]}"
    return ("organ-thief", "contagion", "transplant", "latex-glove", "medical-error")[t - THIEF]


def _log_tuple(code: int) -> tuple:
    """A log entry of the array as (mover, move): a move's action id, or for a discard
    ``"d"`` and the dropped cards joined by ``,``."""
    p, payload = divmod(code, vk.LOG_MOVER)
    if payload < NUM_ACTIONS:
        return (p, payload)
    rest, cards = payload - NUM_ACTIONS, []
    while rest:
        rest, c = divmod(rest, 21)
        cards.append(c - 1)
    return (p, "d" + ",".join(map(str, reversed(cards))))


class _Decoded(dict):
    """A log code's decoding, computed once per distinct code (a game has few of them)."""

    def __init__(self, decode):
        super().__init__()
        self.decode = decode

    def __missing__(self, code):
        value = self[code] = self.decode(code)
        return value


def _entry_text(code: int) -> str:
    """A log entry as the information state's log line writes it: ``mover:move``."""
    mover, move = _LOG_TUPLE[code]
    return f"{mover}:{move}"


def _entry_code(code: int) -> tuple[int, int]:
    """A log entry as the tensor's ``public_log`` counts it: (mover, action id), a discard of
    k cards as (mover, NUM_ACTIONS + k - 1)."""
    mover, move = _LOG_TUPLE[code]
    return mover, move if isinstance(move, int) else NUM_ACTIONS + move.count(",")


# A sorted hand's discard actions, by the cards each drops (filled by ``replay_move``).
_DISCARDS: dict[tuple, dict[tuple, int]] = {}
_LOG_TUPLE = _Decoded(_log_tuple)
_LOG_TEXT = _Decoded(_entry_text)
_LOG_CODE = _Decoded(_entry_code)


class VirusKernel(ArrayKernel):
    """A Virus! state: the kernel's array (``self.s``), played by its jitted rules.

    Bookkeeping for the determinization (no part of any view): ``epoch``, the reshuffles so
    far, and ``hand_epochs[p][i]``, the epoch of the draw of the card ``hands[p][i]`` (a
    hand is sorted by card, then epoch). A card leaving a hand is, among those of its type,
    the one of the earliest epoch (the first of its type in the hand)."""

    __slots__ = ()
    RULES = vk
    NUM_ACTIONS = NUM_ACTIONS
    MAX_PLAYERS = MAX_PLAYERS
    REBUILDS_WORLDS = True  # sampled worlds replay from their history (_tabletop)
    CHECKS_EACH_MOVE = False  # every move is logged (a discard by the cards it drops)

    def __init__(self, n: int):
        super().__init__(vk.new_state(n))

    # -- the array's fields, read-only (as Python values) --------------------------------
    n = property(lambda self: int(self.s[vk.N]))
    cur = property(lambda self: int(self.s[vk.CUR]))
    turn = property(lambda self: int(self.s[vk.TURN]))
    done = property(lambda self: bool(self.s[vk.DONE]))
    epoch = property(lambda self: int(self.s[vk.EPOCH]))
    pool = property(lambda self: self.s[vk.POOL : vk.POOL + NT].tolist())
    discard = property(lambda self: self.s[vk.DISCARD : vk.DISCARD + NT].tolist())
    to_draw = property(lambda self: self.s[vk.TO_DRAW : vk.TO_DRAW + self.n].tolist())
    needs_hand = property(lambda self: [bool(x) for x in self.s[vk.NEEDS_HAND : vk.NEEDS_HAND + self.n]])

    @property
    def hands(self) -> list[list[int]]:
        """Each player's hand, sorted by card (then epoch)."""
        return self._rows(vk.HANDS)

    @property
    def hand_epochs(self) -> list[list[int]]:
        """The epoch of each hand card's draw, aligned with ``hands``."""
        return self._rows(vk.HAND_EPOCH)

    def _rows(self, base: int) -> list[list[int]]:
        s = self.s
        return [s[base + HAND * p : base + HAND * p + s[vk.HAND_LEN + p]].tolist() for p in range(self.n)]

    @property
    def bodies(self) -> list[list[tuple | None]]:
        """``bodies[p][slot]``: None (no organ) or a tuple of the cards attached to the organ."""
        s, n = self.s, self.n
        lengths = s[vk.ORGAN_LEN : vk.ORGAN_LEN + NUM_SLOTS * n].tolist()
        cards = s[vk.ORGAN_CARDS : vk.ORGAN_CARDS + 2 * NUM_SLOTS * n].tolist()
        return [
            [
                None if lengths[i] < 0 else tuple(cards[2 * i : 2 * i + lengths[i]])
                for i in range(p * NUM_SLOTS, (p + 1) * NUM_SLOTS)
            ]
            for p in range(n)
        ]

    def _log_entries(self) -> list[int]:
        s = self.s
        return s[vk.LOG : vk.LOG + s[vk.LOG_LEN]].tolist()

    @property
    def log(self) -> list[tuple]:
        """The public log: (mover, action id) of a play or new hand, (mover, "d" + cards) of a
        discard."""
        return list(map(_LOG_TUPLE.__getitem__, self._log_entries()))

    def _log_text(self) -> str:
        return ";".join(map(_LOG_TEXT.__getitem__, self._log_entries()))

    def _drawer(self) -> int:
        return vk._drawer(self.s)

    def healthy_organs(self, p: int) -> int:
        return vk._healthy(self.s, p)

    def chance_possible(self, action):
        return 0 <= action < NT and self.s[vk.POOL + action] > 0

    # -- information ---------------------------------------------------------------------
    @staticmethod
    def _body_str(body) -> str:
        parts = []
        for s, organ in enumerate(body):
            if organ is not None:
                parts.append(COLOURS[s] + "".join("+" + _type_name(c) for c in organ))
        return " ".join(parts) or "-"

    # Tensor layout: see the module docstring.
    LOG_CODES = NUM_ACTIONS + HAND

    def tensor_pieces(self, player):
        n, bodies, hands = self.n, self.bodies, self.hands
        organ = np.zeros((n, NUM_SLOTS), np.float32)
        attached = np.zeros((n, NUM_SLOTS, NUM_TYPES), np.float32)
        for q in range(n):
            for slot, cards in enumerate(bodies[q]):
                if cards is not None:
                    organ[q, slot] = 1
                    for c in cards:
                        attached[q, slot, c] += 1
        return [
            ("player", tt.one_hot(player, n)),
            ("mover", tt.mover_one_hot(self, n)),
            ("turn", np.asarray([self.turn], np.float32)),
            ("deck", np.asarray([sum(self.pool)], np.float32)),
            ("hand", np.asarray(tt.list_to_counts(hands[player], NUM_TYPES), np.float32)),
            ("hand_sizes", np.asarray([len(h) for h in hands], np.float32)),
            ("glove", np.asarray(self.needs_hand, np.float32)),
            ("organ", organ),
            ("attached", attached),
            ("discard", np.asarray(self.discard, np.float32)),
        ]

    def log_codes(self):
        return list(map(_LOG_CODE.__getitem__, self._log_entries()))

    def _view(self, player: int) -> list[str]:
        hands, bodies, needs_hand = self.hands, self.bodies, self.needs_hand
        parts = [
            f"p{player} mover {self.current_player()} turn {self.turn} deck {sum(self.pool)}",
            "hand: " + ",".join(_type_name(c) for c in hands[player]),
        ]
        for q in range(self.n):
            glove = " glove" if needs_hand[q] else ""
            parts.append(f"p{q} cards {len(hands[q])}{glove} body {self._body_str(bodies[q])}")
        parts.append("discard " + ",".join(map(str, self.discard)))
        return parts

    # -- worlds ----------------------------------------------------------------------------
    def deal_hidden(self, player, rng):
        """The determinization law: new cards for the other players' hands and the deck.

        A card drawn before a reshuffle came from that (public) pile, so for each epoch ``e``
        in turn the hidden hand cards of epoch ``e`` are dealt back to those slots (hands in
        player order, each in hand order), one by one, uniformly without replacement
        (``tt.draw_index``); the last epoch's pile also holds the deck, whose rest is the new
        deck. Returns (cards, pool): ``cards[q][i]`` the card of slot ``hands[q][i]`` (the
        player's own: kept), ``pool`` the deck counts. ``nb_determinize`` draws the same."""
        n, hands, hand_epochs, epoch = self.n, self.hands, self.hand_epochs, self.epoch
        cards = [hand[:] for hand in hands]
        others = [q for q in range(n) if q != player]
        for e in range(epoch + 1):
            slots = [(q, i) for q in others for i, held in enumerate(hand_epochs[q]) if held == e]
            left = tt.list_to_counts([hands[q][i] for q, i in slots], NUM_TYPES)
            if e == epoch:
                left = [a + b for a, b in zip(left, self.pool)]
            total = sum(left)
            for q, i in slots:
                card = tt.draw_index(left, total, rng)
                left[card] -= 1
                total -= 1
                cards[q][i] = card
        return cards, left

    def _with_cards(self, cards, pool):
        """A copy holding ``cards`` (as ``deal_hidden``'s) and deck ``pool``, hands re-sorted."""
        k = self.copy()
        s, hand_epochs = k.s, self.hand_epochs
        for q in range(k.n):
            pairs = sorted(zip(cards[q], hand_epochs[q]))
            at = HAND * q
            s[vk.HANDS + at : vk.HANDS + at + len(pairs)] = [c for c, _ in pairs]
            s[vk.HAND_EPOCH + at : vk.HAND_EPOCH + at + len(pairs)] = [e for _, e in pairs]
        s[vk.POOL : vk.POOL + NT] = pool
        return k

    def resample(self, player, rng):
        """A world for ``player``: the hidden cards dealt by ``deal_hidden`` (see the module
        docstring), uniformly over the placements the epochs allow."""
        return self._with_cards(*self.deal_hidden(player, rng))

    def history_context(self, game, history):
        """From ``history`` replayed: the draws each player still holds, as [step, card,
        epoch] lists aligned with the replayed kernel's ``hands`` (the kernel's
        ``hand_epochs``: how many reshuffles came before the draw), the number of epochs, and
        the cards each discard dropped (by step). ``resample_given`` leaves there the cards
        it dealt to those draws (key "dealt"), which ``plan_history`` writes into the history.

        A draw's step is followed as the rules move hand cards: a drawn card goes after the
        cards of its type, a card leaving a hand is the first of its type (the earliest
        epoch), a Latex Glove empties the other hands."""
        real = game.new_kernel()
        s = real.s
        steps = [[] for _ in range(real.n)]  # the draw step of each hand card, aligned
        dropped = {}
        for step, action in enumerate(history):
            drawer = real._drawer()
            if drawer >= 0:
                at = bisect_right(real.hands[drawer], action)
                real.apply(action)
                steps[drawer].insert(at, step)
                continue
            p = int(s[vk.CUR])
            movers = range(real.n) if action == A_GLOVE else (p,)
            before = {q: real.hands[q] for q in movers}
            if A_DISCARD <= action < A_NEW_HAND:
                hand, mask = before[p], action - A_DISCARD + 1
                dropped[step] = tuple(hand[i] for i in range(len(hand)) if mask >> i & 1)
            real.apply(action)
            for q in movers:
                steps[q] = _kept_steps(before[q], real.hands[q], steps[q])
        hands, hand_epochs = real.hands, real.hand_epochs
        in_hand = [[[o, c, e] for o, c, e in zip(steps[q], hands[q], hand_epochs[q])] for q in range(real.n)]
        return {"in_hand": in_hand, "epochs": real.epoch + 1, "dropped": dropped, "dealt": {}}

    def resample_given(self, player, rng, context):
        """``resample`` (the same draws), also leaving in context["dealt"] the card dealt to
        each hidden draw still held (by its step) for ``plan_history``."""
        cards, pool = self.deal_hidden(player, rng)
        in_hand = context["in_hand"]
        if [[entry[1] for entry in held] for held in in_hand] != self.hands:
            raise ValueError("context: not the history_context of this kernel's history")
        context["dealt"] = {
            in_hand[q][i][0]: card for q in range(self.n) if q != player for i, card in enumerate(cards[q])
        }
        return self._with_cards(cards, pool)

    def plan_history(self, game, history, player, context=None):
        """The real ``history`` with each hidden draw dealing the card ``resample_given``
        dealt it (no context: the real history, for a world equal to the real state)."""
        planned = list(history)
        for step, card in (context or {}).get("dealt", {}).items():
            planned[step] = card
        return planned

    def replay_move(self, kernel, step, action, context):
        """A discard names places in the sorted hand: the replay drops the same cards."""
        if action is None:
            return []
        cards = context["dropped"].get(step)
        if cards is None:
            return [action]
        s = kernel.s
        p = int(s[vk.CUR])
        hand = tuple(kernel.hands[p])
        discards = _DISCARDS.get(hand)
        if discards is None:  # the rules' discards of this hand, by the cards each drops
            buf = self._actions
            moves = buf[: vk._legal_discards(s, p, buf, 0)].tolist()
            masks = [move - A_DISCARD + 1 for move in moves]
            drops = [tuple(c for i, c in enumerate(hand) if mask >> i & 1) for mask in masks]
            discards = _DISCARDS[hand] = dict(zip(drops, moves))
        return [discards.get(cards, action)]

    def same_cards(self, other):
        return str(self) == str(other) and self.pool == other.pool and self.hands == other.hands

    def action_to_string(self, player, action):
        if player == tt.CHANCE:
            return f"draw {_type_name(action)}"
        if action < A_VIRUS:
            return f"organ {COLOURS[action]}"
        if action < A_MEDICINE:
            rest, s = divmod(action - A_VIRUS, NUM_SLOTS)
            colour, q = divmod(rest, MAX_PLAYERS)
            return f"virus {COLOURS[colour]} on p{q} {COLOURS[s]}"
        if action < A_THIEF:
            colour, s = divmod(action - A_MEDICINE, NUM_SLOTS)
            return f"medicine {COLOURS[colour]} on {COLOURS[s]}"
        if action < A_TRANSPLANT:
            q, s = divmod(action - A_THIEF, NUM_SLOTS)
            return f"organ thief p{q} {COLOURS[s]}"
        if action < A_GLOVE:
            name = "transplant" if action < A_CONTAGION else "contagion"
            base = A_TRANSPLANT if action < A_CONTAGION else A_CONTAGION
            rest, b = divmod(action - base, NUM_SLOTS)
            a, q = divmod(rest, MAX_PLAYERS)
            return f"{name} my {COLOURS[a]} with p{q} {COLOURS[b]}"
        if action == A_GLOVE:
            return "latex glove"
        if action < A_DISCARD:
            return f"medical error with p{action - A_ERROR}"
        if action < A_NEW_HAND:
            return f"discard mask {action - A_DISCARD + 1}"
        return "draw a new hand"

    def _state_line(self):
        return f"mover {self.current_player()} turn {self.turn} pool {self.pool} discard {self.discard}"

    def _player_line(self, p):
        return f"p{p} hand {self.hands[p]} body {self._body_str(self.bodies[p])}"

    def __str__(self):
        hands, bodies = self.hands, self.bodies  # read once for every player's line
        players = [f"p{p} hand {hands[p]} body {self._body_str(bodies[p])}" for p in range(self.n)]
        return "\n".join([self._state_line()] + players)


def _kept_steps(before: list[int], after: list[int], steps: list[int]) -> list[int]:
    """The draw steps of the cards of hand ``after``, the hand ``before`` (with draw steps
    ``steps``) having lost cards: of each type, the first ones left (the rules' order)."""
    gone = tt.list_to_counts(before, NUM_TYPES)
    for c in after:
        gone[c] -= 1
    kept = []
    for card, step in zip(before, steps):
        if gone[card]:
            gone[card] -= 1
        else:
            kept.append(step)
    return kept


_DEFAULT_PLAYERS = 3
GAME_TYPE = tt.make_game_type(GAME_NAME, "Virus!", 2, MAX_PLAYERS, {"players": _DEFAULT_PLAYERS})


class VirusGame(tt.TabletopGame):
    """Virus! with 2-6 players (parameter ``players``, default 3)."""

    def __init__(self, params=None):
        params = dict(params or {})
        n = tt.players_param(params, GAME_TYPE)
        super().__init__(
            GAME_TYPE,
            params,
            num_players=n,
            num_distinct_actions=NUM_ACTIONS,
            max_chance_outcomes=NUM_TYPES,
            max_game_length=MAX_ROUNDS * n * (1 + HAND) + n * HAND,
        )

    def new_kernel(self):
        return VirusKernel(self.players)


sample_world = tt.sample_world  # a world keeping ``player``'s information state


tt.register(GAME_TYPE, VirusGame)
