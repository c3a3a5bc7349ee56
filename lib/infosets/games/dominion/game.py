"""Dominion (Donald X. Vaccarino, 2008), base set, as an OpenSpiel game, short name ``dominion``.

One of the games of Ravichandran, Goodman and Lucas, "Evaluation of Perfect-Information
Monte Carlo Tree Search in Imperfect-Information Games"
(docs/papers/pimcts_aggregation.md), who ran TAG's Java version; PI-MCTS did worse than its baseline
there.

Rules (2-4 players): each player starts with 7 Coppers and 3 Estates, shuffled, and draws
5. A turn: an Action phase (1 action; play Action cards), a Buy phase (1 buy; treasures give
coins; buy one card per buy), then Clean-up (discard hand and play area, draw 5; an empty
deck is refilled by shuffling the discard pile). Supply: Copper, Silver, Gold, Estate,
Duchy, Province (8 Victory cards each with 2 players, 12 with more), Curse
(10 x (players - 1)), and the recommended "First Game" kingdom, 10 each: Cellar, Market,
Merchant, Militia, Mine, Moat, Remodel, Smithy, Village, Workshop. The game ends after a
turn in which the Provinces or any three supply piles ran out. Most victory points wins;
ties go to the player who took fewer turns; remaining ties share the win.

Modelling choices (documented simplifications):
* Treasures are played automatically at the start of the Buy phase (all of them).
* Moat is revealed automatically against Militia (always the better choice).
* Discard piles are public (as TAG shows them); hands and draw piles are not, and a draw
  pile's order is unknown to everyone: drawing is a chance node on its count vector, and an
  empty draw pile takes the discard pile as is (that is the shuffle).
* The game is also over after ``max_turns`` turns in total (parameter, default 200).
* Returns are win shares (see ``_tabletop``).
* Action ids: 0 = end (the Action phase, the Buy phase, a Cellar discard or an optional
  Mine trash); 1 + c = play card c; 18 + c = buy c; 35 + c = discard or trash c from hand;
  52 + c = gain c.

The rules are written once, in numba, in ``kernel.py`` (both engines run them); this module
holds what is not rules: the registration, the string views and tensors (reading the
kernel's state array), the public log, the world sampler and the history planning.

Hidden information and the determinizer: another player's hand and draw pile, except
cards publicly known to be in the hand (a treasure gained to hand by Mine, a revealed
Moat) until a card of that type leaves the hand, and the cards ``held`` in the hand from
before its owner's last reshuffle. ``held`` is kernel state and public: at a reshuffle the
draw pile was empty, so the hand was all the owner's cards outside the (public) discard
pile and play area; it takes the hand then, and a card leaving the hand lowers its type's
count (the earliest arrival leaves first). A card gained to hand by Mine counts too when
it is in the hand at the reshuffle: it is as public as the drawn ones, so ``held`` stays a
lower bound on the public hand cards (a count of draws, history_context's former rule,
missed it). ``resample`` is the one determinization law (the compiled ``nb_determinize``
draws the same worlds, draw for draw with a ``PCG32``): for every other player it keeps
``max(known, held)`` of each type in the hand and re-deals the rest of the hand uniformly
from those cards plus the draw pile, the Buy-phase mover's re-dealt cards holding no
treasure (all were played). What it does not do is reject placements that no history
consistent with the player's view deals (e.g. a hidden Moat that Militia would have
revealed, or no Action card in the hand of a mover in the Action phase): only
``sample_world`` (``_tabletop.sample_rebuilt_world``) draws those again, so its worlds are
uniform over the consistent placements and each is the state its own ``history()``
reaches.

Tensors (``_tabletop.Kernel``), rows indexed by seat; card vectors have 17 entries
(``CARD_NAMES`` order):
  player (n) one-hot; mover (n + 1): who moves, or chance; phase (11) one-hot;
  turn (1); actions, buys, coins (1 each); hand (17) own hand; play (17) play area;
  supply (17); trash (17); hand_sizes (n); known (n, 17) publicly known hand cards;
  draw_sizes (n); discards (n, 17).
public_log codes: a play, buy or gain (its action id); a Cellar discard of k cards
(NUM_ACTIONS + min(k, 31)); a Moat reveal (NUM_ACTIONS + 32).
The information-state tensor appends ``public_log`` (n + 1, LOG_CODES) where the game has
a public log (``_tabletop.TabletopObserver``).
"""

from __future__ import annotations

import numpy as np

from infosets.games import _tabletop as tt
from infosets.games.array_kernel import ArrayKernel
from infosets.games.dominion import kernel as dk
from infosets.games.dominion.kernel import (  # noqa: F401  (the game's constants, for its users)
    ACTION,
    ACTIONS,
    BUY,
    BUYING,
    CARD_NAMES,
    CELLAR,
    CELLAR_DROP,
    COINS,
    COPPER,
    COST,
    CURSE,
    DRAWING,
    DROP,
    DUCHY,
    END,
    ESTATE,
    GAIN,
    GOLD,
    HAND_SIZE,
    MARKET,
    MAX_PLAYERS,
    MERCHANT,
    MILITIA,
    MILITIA_DROP,
    MINE,
    MINE_GAIN,
    MINE_TRASH,
    MOAT,
    NUM_ACTIONS,
    NUM_TYPES,
    OVER,
    PLAY,
    PROVINCE,
    REMODEL,
    REMODEL_GAIN,
    REMODEL_TRASH,
    SILVER,
    SMITHY,
    TREASURES,
    VILLAGE,
    VP,
    WORKSHOP,
    WORKSHOP_GAIN,
)

GAME_NAME = "dominion"
NT = NUM_TYPES
_AFTER = {dk.AFTER_TURN: ("turn",), dk.AFTER_ACTION: ("action",)}


def _entry(code: int):
    """A log entry's move as the information state writes it: an action id, "moat" or
    "cellar<k>"."""
    if code == dk.MOAT_CODE:
        return "moat"
    if code >= dk.CELLAR_CODE:
        return f"cellar{code - dk.CELLAR_CODE}"
    return code


def _log_code(code: int) -> int:
    """A log entry's ``public_log`` code: its action id, NUM_ACTIONS + min(k, 31) for a Cellar
    discard of k cards, NUM_ACTIONS + 32 for a Moat reveal."""
    if code == dk.MOAT_CODE:
        return NUM_ACTIONS + 32
    if code >= dk.CELLAR_CODE:
        return NUM_ACTIONS + min(code - dk.CELLAR_CODE, 31)
    return code


def _zone(zone) -> str:
    return ",".join(f"{CARD_NAMES[c]}x{k}" for c, k in enumerate(zone) if k) or "-"


class DominionKernel(ArrayKernel):
    """A Dominion state: the kernel's array (``self.s``), played by its jitted rules; every
    zone a count vector, ``known`` and ``held`` (per player) count the hand cards publicly
    there (see the module docstring)."""

    __slots__ = ()
    RULES = dk
    NUM_ACTIONS = NUM_ACTIONS
    MAX_PLAYERS = MAX_PLAYERS
    REBUILDS_WORLDS = True  # sampled worlds replay from their history (_tabletop)
    CHECKS_EACH_MOVE = False  # the information state's public log covers every move

    def __init__(self, n: int, max_turns: int):
        super().__init__(dk.new_state(n, max_turns))

    # -- the array's fields, read-only (as Python values) --------------------------------
    n = property(lambda self: int(self.s[dk.H_N]))
    cur = property(lambda self: int(self.s[dk.H_CUR]))
    phase = property(lambda self: int(self.s[dk.H_PHASE]))
    actions = property(lambda self: int(self.s[dk.H_ACTIONS]))
    buys = property(lambda self: int(self.s[dk.H_BUYS]))
    coins = property(lambda self: int(self.s[dk.H_COINS]))
    merchants = property(lambda self: int(self.s[dk.H_MERCHANTS]))
    to_draw = property(lambda self: int(self.s[dk.H_TO_DRAW]))
    drawer = property(lambda self: int(self.s[dk.H_DRAWER]))
    victim = property(lambda self: int(self.s[dk.H_VICTIM]))
    mark = property(lambda self: int(self.s[dk.H_MARK]))
    dropped = property(lambda self: int(self.s[dk.H_DROPPED]))
    turns = property(lambda self: int(self.s[dk.H_TURNS]))
    max_turns = property(lambda self: int(self.s[dk.H_MAX_TURNS]))
    supply = property(lambda self: self.s[dk.SUPPLY : dk.SUPPLY + NT].tolist())
    trash = property(lambda self: self.s[dk.TRASH : dk.TRASH + NT].tolist())
    play = property(lambda self: self.s[dk.PLAYAREA : dk.PLAYAREA + NT].tolist())
    draw = property(lambda self: self._rows(dk.DRAW))
    hand = property(lambda self: self._rows(dk.HAND))
    discard = property(lambda self: self._rows(dk.DISCARD))
    known = property(lambda self: self._rows(dk.KNOWN))
    held = property(lambda self: self._rows(dk.HELD))

    @property
    def after(self) -> tuple:
        """What follows the current draws: ("deal", next player), ("turn",) or ("action",)."""
        after = int(self.s[dk.H_AFTER])
        return ("deal", int(self.s[dk.H_AFTER_ARG])) if after == dk.AFTER_DEAL else _AFTER[after]

    def _rows(self, base: int) -> list[list[int]]:
        flat = self.s[base : base + self.n * NT].tolist()
        return [flat[q * NT : (q + 1) * NT] for q in range(self.n)]

    def _log_entries(self) -> list[int]:
        s = self.s
        count = int(s[dk.H_NLOG])
        if count > dk.LOG_CAP:
            raise ValueError(f"state: the log has {count} entries, more than the array keeps ({dk.LOG_CAP})")
        return s[dk.LOG : dk.LOG + count].tolist()

    @property
    def log(self) -> list[tuple]:
        """The public log: (mover, action id) of a play, buy, trash, discard or gain; (mover,
        "moat") of a Moat reveal; (mover, "cellar<k>") of a Cellar discard of k cards."""
        return [(e // 1024, _entry(e % 1024)) for e in self._log_entries()]

    def _log_text(self) -> str:
        return ";".join(f"{e // 1024}:{_entry(e % 1024)}" for e in self._log_entries())

    def victory_points(self, p: int) -> int:
        return int(dk._victory_points(self.s, p))

    def chance_possible(self, action):
        return 0 <= action < NT and self.s[dk.DRAW + self.s[dk.H_DRAWER] * NT + action] > 0

    # -- information ---------------------------------------------------------------------
    # Tensor layout: see the module docstring.
    LOG_CODES = NUM_ACTIONS + 33

    def tensor_pieces(self, player):
        n, s = self.n, self.s
        hand, draw = self.hand, self.draw
        return [
            ("player", tt.one_hot(player, n)),
            ("mover", tt.mover_one_hot(self, n)),
            ("phase", tt.one_hot(self.phase, OVER + 1)),
            ("turn", np.asarray([self.turns], np.float32)),
            ("actions", np.asarray([self.actions], np.float32)),
            ("buys", np.asarray([self.buys], np.float32)),
            ("coins", np.asarray([self.coins], np.float32)),
            ("hand", np.asarray(hand[player], np.float32)),
            ("play", s[dk.PLAYAREA : dk.PLAYAREA + NT].astype(np.float32)),
            ("supply", s[dk.SUPPLY : dk.SUPPLY + NT].astype(np.float32)),
            ("trash", s[dk.TRASH : dk.TRASH + NT].astype(np.float32)),
            ("hand_sizes", np.asarray([sum(h) for h in hand], np.float32)),
            ("known", np.asarray(self.known, np.float32)),
            ("draw_sizes", np.asarray([sum(d) for d in draw], np.float32)),
            ("discards", np.asarray(self.discard, np.float32)),
        ]

    def log_codes(self):
        return [(e // 1024, _log_code(e % 1024)) for e in self._log_entries()]

    def _view(self, player: int) -> list[str]:
        hand, draw, known, discard = self.hand, self.draw, self.known, self.discard
        parts = [
            f"p{player} mover {self.current_player()} phase {self.phase} turn {self.turns} "
            f"actions {self.actions} buys {self.buys} coins {self.coins}",
            f"hand: {_zone(hand[player])}",
            f"play: {_zone(self.play)}",
            "supply " + ",".join(map(str, self.supply)),
            "trash " + ",".join(map(str, self.trash)),
        ]
        for q in range(self.n):
            parts.append(
                f"p{q} hand {sum(hand[q])} known {_zone(known[q])} "
                f"draw {sum(draw[q])} discard {_zone(discard[q])}"
            )
        return parts

    # -- worlds ----------------------------------------------------------------------------
    def resample(self, player, rng):
        """Re-deal, for every other player, the hand cards not publicly there uniformly from
        their hand plus draw pile (as the compiled ``nb_determinize``, draw for draw).

        A hand keeps its known cards and the cards ``held`` from before its owner's last
        reshuffle (``kept = max(known, held)`` per type: both are public lower bounds, which
        may count the same card, e.g. a revealed Moat); in the Buy phase the mover's
        treasures were all played, so treasures stay out of the mover's re-dealt cards (they
        go to the draw pile)."""
        k = self.copy()
        s = k.s
        hands, draws, known, held = self.hand, self.draw, self.known, self.held
        for q in range(k.n):
            if q == player:
                continue
            kept = [max(known[q][c], held[q][c]) for c in range(NT)]
            pool = [draws[q][c] + hands[q][c] - kept[c] for c in range(NT)]
            size = sum(hands[q]) - sum(kept)
            no_treasure = q == k.cur and k.phase == BUYING
            cards = tt.shuffled_cards(
                [0 if no_treasure and c in TREASURES else pool[c] for c in range(NT)], rng,
                bounded=True,  # a PCG32 swaps as nb_determinize's Fisher-Yates loop does
            )
            hand = kept[:]
            for c in cards[:size]:
                hand[c] += 1
            s[dk.HAND + q * NT : dk.HAND + (q + 1) * NT] = hand
            s[dk.DRAW + q * NT : dk.DRAW + (q + 1) * NT] = [pool[c] - hand[c] + kept[c] for c in range(NT)]
        return k

    def history_context(self, game, history):
        """From ``history`` replayed: the real kernel, the draws each player still holds as
        (step, card) lists (step None for a card gained to hand; a card leaving a hand takes
        away the earliest draw of its type still held), the cards each player holds from
        before their last reshuffle (the replayed kernel's ``held``) and the phase before each
        step and after the last."""
        real = game.new_kernel()
        s, n = real.s, real.n
        in_hand = [[] for _ in range(n)]
        phases = []
        hands = s[dk.HAND : dk.HAND + n * NT].tolist()
        for step, action in enumerate(history):
            phase = int(s[dk.H_PHASE])
            phases.append(phase)
            if phase == DRAWING:
                drawer = int(s[dk.H_DRAWER])
                in_hand[drawer].append((step, action))
                hands[drawer * NT + action] += 1
            real.apply(action)
            after = s[dk.HAND : dk.HAND + n * NT].tolist()
            if after != hands:
                _follow_hands(in_hand, hands, after)
            hands = after
        phases.append(real.phase)
        return real, in_hand, real.held, phases

    def replay_move(self, kernel, step, action, context):
        """An "end" of the Action phase or of an optional Mine trash is asked only while the
        hand holds a card to play or trash (and is not logged): the replay drops a real one
        the world's hand does not ask, and adds one where the world's hand asks it (also
        after the last step, where the real player is already past that phase)."""
        phases = context[3]
        asked = [] if action is None else [action]
        phase = kernel.phase
        if phase == phases[step]:
            return asked
        if action == END and phases[step] in (ACTION, MINE_TRASH):
            return []
        if phase in (ACTION, MINE_TRASH):
            return [END] + self.replay_move(_after_end(kernel), step, action, context)
        return asked

    def plan_history(self, game, history, player, context=None):
        """The real ``history`` with the latest draws of the cards each other player still
        holds rewritten to deal this (resampled) kernel's hands.

        Zones are count vectors, so the draws still held are found by replaying the real
        history (``history_context``). Each card type the world takes out of a hidden hand
        rewrites the latest draws of that type, which then deal the cards the world puts in.
        A rewrite reaching behind a reshuffle (whose pile was public) cannot replay, and the
        world is drawn again (``_tabletop.sample_rebuilt_world``).
        """
        real, in_hand, _, _ = context if context is not None else self.history_context(game, history)
        planned = list(history)
        hands, known = self.hand, self.known
        real_hands, real_known = real.hand, real.known
        for q in range(real.n):
            if q == player:
                continue
            out, put = [], []
            for c in range(NT):
                delta = (hands[q][c] - known[q][c]) - (real_hands[q][c] - real_known[q][c])
                if delta < 0:
                    steps = [e[0] for e in in_hand[q] if e[1] == c and e[0] is not None]
                    if len(steps) < -delta:
                        return None
                    out.extend(steps[delta:])
                put.extend([c] * max(delta, 0))
            for step, card in zip(sorted(out), put):
                planned[step] = card
        return planned

    def same_cards(self, other):
        return str(self) == str(other) and self.known == other.known

    def action_to_string(self, player, action):
        if player == tt.CHANCE:
            return f"draw {CARD_NAMES[action]}"
        if action == END:
            return "end"
        kind, c = divmod(action - 1, NT)
        return f"{('play', 'buy', 'discard/trash', 'gain')[kind]} {CARD_NAMES[c]}"

    def _state_line(self):
        return (
            f"mover {self.current_player()} phase {self.phase} turn {self.turns} "
            f"coins {self.coins} supply {self.supply}"
        )

    def _player_line(self, q):
        return f"p{q} hand {_zone(self.hand[q])} draw {_zone(self.draw[q])} discard {_zone(self.discard[q])}"

    def __str__(self):
        hand, draw, discard = self.hand, self.draw, self.discard  # read once for every line
        players = [
            f"p{q} hand {_zone(hand[q])} draw {_zone(draw[q])} discard {_zone(discard[q])}"
            for q in range(self.n)
        ]
        return "\n".join([self._state_line()] + players)


def _follow_hands(in_hand: list, before: list[int], after: list[int]) -> None:
    """Update each player's held draws (``history_context``) from the flat hand counts
    ``before`` a step to those ``after`` it: a card leaving a hand takes away the earliest
    entry of its type, a card joining it (a gain to hand) is an entry of step None."""
    for q, entries in enumerate(in_hand):
        for c in range(NT):
            delta = after[q * NT + c] - before[q * NT + c]
            for _ in range(-delta):
                entries.remove(next(e for e in entries if e[1] == c))
            entries.extend([(None, c)] * max(delta, 0))


def _after_end(kernel: DominionKernel) -> DominionKernel:
    after = kernel.copy()
    after.apply(END)
    return after


_DEFAULT_PLAYERS = 3
_DEFAULT_MAX_TURNS = 200
GAME_TYPE = tt.make_game_type(
    GAME_NAME,
    "Dominion (base, First Game kingdom)",
    2,
    4,
    {"players": _DEFAULT_PLAYERS, "max_turns": _DEFAULT_MAX_TURNS},
)


class DominionGame(tt.TabletopGame):
    """Dominion with 2-4 players (``players``, default 3) and a ``max_turns`` cap (default 200)."""

    def __init__(self, params=None):
        params = dict(params or {})
        n = tt.players_param(params, GAME_TYPE)
        max_turns = tt.int_param(params, "max_turns", _DEFAULT_MAX_TURNS, 1, 10_000)
        super().__init__(
            GAME_TYPE,
            params,
            num_players=n,
            num_distinct_actions=NUM_ACTIONS,
            max_chance_outcomes=NUM_TYPES,
            max_game_length=max_turns * 200 + 5 * n,
        )
        self.max_turns = max_turns

    def new_kernel(self):
        return DominionKernel(self.players, self.max_turns)


sample_world = tt.sample_world  # a world keeping ``player``'s information state


tt.register(GAME_TYPE, DominionGame)
