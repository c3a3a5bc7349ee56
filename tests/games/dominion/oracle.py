"""The frozen pure-Python Dominion rules: the former ``DominionKernel`` of
``lib/infosets/games/dominion/game.py`` (commit b9c84d0), kept verbatim as an independent oracle
for the differential tests (``test_dominion_oracle.py``). Do not edit: the port's rules are its
numba kernel (``lib/infosets/games/dominion/kernel.py``); this file only checks them.

The game is Dominion (Donald X. Vaccarino, 2008), base set, as ported for Ravichandran, Goodman
and Lucas, "Evaluation of Perfect-Information Monte Carlo Tree Search in Imperfect-Information
Games" (docs/papers/pimcts_aggregation.md); the rules and modelling choices are described in
the port's module docstring.
"""

from __future__ import annotations

import numpy as np

from infosets.games import _tabletop as tt

GAME_NAME = "dominion"

(
    COPPER,
    SILVER,
    GOLD,
    ESTATE,
    DUCHY,
    PROVINCE,
    CURSE,
    CELLAR,
    MARKET,
    MERCHANT,
    MILITIA,
    MINE,
    MOAT,
    REMODEL,
    SMITHY,
    VILLAGE,
    WORKSHOP,
) = range(17)
NUM_TYPES = 17
CARD_NAMES = (
    "Copper",
    "Silver",
    "Gold",
    "Estate",
    "Duchy",
    "Province",
    "Curse",
    "Cellar",
    "Market",
    "Merchant",
    "Militia",
    "Mine",
    "Moat",
    "Remodel",
    "Smithy",
    "Village",
    "Workshop",
)
COST = (0, 3, 6, 2, 5, 8, 0, 2, 5, 3, 4, 5, 2, 4, 4, 3, 3)
COINS = (1, 2, 3, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
VP = (0, 0, 0, 1, 3, 6, -1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
TREASURES = (COPPER, SILVER, GOLD)
ACTIONS = tuple(range(CELLAR, NUM_TYPES))
END, PLAY, BUY, DROP, GAIN = 0, 1, 1 + NUM_TYPES, 1 + 2 * NUM_TYPES, 1 + 3 * NUM_TYPES
NUM_ACTIONS = 1 + 4 * NUM_TYPES
HAND_SIZE = 5

# Phases.
(
    ACTION,
    BUYING,
    CELLAR_DROP,
    MILITIA_DROP,
    MINE_TRASH,
    MINE_GAIN,
    REMODEL_TRASH,
    REMODEL_GAIN,
    WORKSHOP_GAIN,
    DRAWING,
    OVER,
) = range(11)


def _supply(n: int) -> list[int]:
    victory = 8 if n == 2 else 12
    supply = [60 - 7 * n, 40, 30, victory, victory, victory, 10 * (n - 1)]
    return supply + [10] * len(ACTIONS)


class DominionKernel(tt.Kernel):
    """Whole Dominion state: every zone a count vector; ``known`` and ``held`` (per player)
    count the hand cards publicly there (see the module docstring)."""

    REBUILDS_WORLDS = True  # sampled worlds replay from their history (_tabletop)
    CHECKS_EACH_MOVE = False  # the information state's public log covers every move

    VALUE_FIELDS = (
        "n",
        "cur",
        "phase",
        "actions",
        "buys",
        "coins",
        "merchants",
        "to_draw",
        "drawer",
        "after",
        "victim",
        "mark",
        "dropped",
        "turns",
        "max_turns",
    )
    LIST_FIELDS = ("supply", "trash", "play", "log")
    NESTED_FIELDS = ("draw", "hand", "discard", "known", "held")
    __slots__ = VALUE_FIELDS + LIST_FIELDS + NESTED_FIELDS

    def __init__(self, n: int, max_turns: int):
        self.n = n
        self.supply = _supply(n)
        self.trash = [0] * NUM_TYPES
        start = [0] * NUM_TYPES
        start[COPPER], start[ESTATE] = 7, 3
        self.draw = [start[:] for _ in range(n)]
        self.hand = [[0] * NUM_TYPES for _ in range(n)]
        self.discard = [[0] * NUM_TYPES for _ in range(n)]
        self.play = [0] * NUM_TYPES  # the current player's play area
        self.known = [[0] * NUM_TYPES for _ in range(n)]  # publicly known hand cards
        self.held = [[0] * NUM_TYPES for _ in range(n)]  # hand cards from before a reshuffle
        self.cur = 0
        self.actions, self.buys, self.coins, self.merchants = 1, 1, 0, 0
        self.victim = -1
        self.mark = 0  # cost of the trashed card (Mine, Remodel)
        self.dropped = 0  # cards discarded to Cellar
        self.turns = 0
        self.max_turns = max_turns
        self.log = []
        # Opening hands: player 0 first, then the others; then player 0's turn.
        self.phase = DRAWING
        self.drawer, self.to_draw = 0, HAND_SIZE
        self.after = ("deal", 1)

    # -- flow ---------------------------------------------------------------------------
    def is_terminal(self):
        return self.phase == OVER

    def current_player(self):
        if self.phase == OVER:
            return tt.TERMINAL
        if self.phase == DRAWING:
            return tt.CHANCE
        if self.phase == MILITIA_DROP:
            return self.victim
        return self.cur

    def chance_outcomes(self):
        return tt.count_outcomes(self.draw[self.drawer])

    def _gains_up_to(self, cost: int, treasure_only: bool = False) -> list[int]:
        kinds = TREASURES if treasure_only else range(NUM_TYPES)
        return [GAIN + c for c in kinds if self.supply[c] and COST[c] <= cost]

    def chance_possible(self, action):
        return 0 <= action < NUM_TYPES and self.draw[self.drawer][action] > 0

    def legal_actions(self):
        phase = self.phase
        if phase == ACTION:
            hand = self.hand[self.cur]
            return [END] + [PLAY + c for c in ACTIONS if hand[c]]
        if phase == BUYING:
            return [END] + [BUY + c for c in range(NUM_TYPES) if self.supply[c] and COST[c] <= self.coins]
        if phase == CELLAR_DROP:
            hand = self.hand[self.cur]
            return [END] + [DROP + c for c in range(NUM_TYPES) if hand[c]]
        if phase == MILITIA_DROP:
            hand = self.hand[self.victim]
            return [DROP + c for c in range(NUM_TYPES) if hand[c]]
        if phase == MINE_TRASH:
            hand = self.hand[self.cur]
            return [END] + [DROP + c for c in TREASURES if hand[c]]
        if phase == REMODEL_TRASH:
            hand = self.hand[self.cur]
            return [DROP + c for c in range(NUM_TYPES) if hand[c]]
        if phase == MINE_GAIN:
            return self._gains_up_to(self.mark + 3, treasure_only=True)
        if phase == REMODEL_GAIN:
            return self._gains_up_to(self.mark + 2)
        if phase == WORKSHOP_GAIN:
            return self._gains_up_to(4)
        return []

    def apply(self, action):
        phase = self.phase
        if phase == DRAWING:
            self.draw[self.drawer][action] -= 1
            self.hand[self.drawer][action] += 1
            self.to_draw -= 1
            self._continue_drawing()
            return
        p = self.cur
        if phase == ACTION:
            if action == END:
                self._start_buying()
            else:
                self._play_action(action - PLAY)
        elif phase == BUYING:
            if action == END:
                self._cleanup()
            else:
                c = action - BUY
                self.supply[c] -= 1
                self.discard[p][c] += 1
                self.coins -= COST[c]
                self.buys -= 1
                self.log.append((p, action))
                if not self.buys:
                    self._cleanup()
        elif phase == CELLAR_DROP:
            if action == END:
                self.log.append((p, f"cellar{self.dropped}"))
                self._draw_then(p, self.dropped, ("action",))
            else:
                self._leave_hand(p, action - DROP, self.discard[p])
                self.dropped += 1
        elif phase == MILITIA_DROP:
            q = self.victim
            self._leave_hand(q, action - DROP, self.discard[q])
            self.log.append((q, action))
            if sum(self.hand[q]) <= 3:
                self._next_militia_victim(q + 1)
        elif phase in (MINE_TRASH, REMODEL_TRASH):
            if action == END:
                self._resume_actions()
            else:
                c = action - DROP
                self._leave_hand(p, c, self.trash)
                self.log.append((p, action))
                self.mark = COST[c]
                gain_phase = MINE_GAIN if phase == MINE_TRASH else REMODEL_GAIN
                self.phase = gain_phase
                if not self.legal_actions():
                    self._resume_actions()
        else:  # a gain
            c = action - GAIN
            self.supply[c] -= 1
            self.log.append((p, action))
            if phase == MINE_GAIN:
                self.hand[p][c] += 1
                self.known[p][c] += 1
            else:
                self.discard[p][c] += 1
            self._resume_actions()

    def _leave_hand(self, q: int, c: int, destination: list[int]):
        self.hand[q][c] -= 1
        destination[c] += 1
        if self.known[q][c]:
            self.known[q][c] -= 1
        if self.held[q][c]:
            self.held[q][c] -= 1

    def _play_action(self, c: int):
        p = self.cur
        self._leave_hand(p, c, self.play)
        self.actions -= 1
        self.log.append((p, PLAY + c))
        draws = 0
        if c == CELLAR:
            self.actions += 1
            self.dropped = 0
            self.phase = CELLAR_DROP
            return
        if c == MARKET:
            draws, self.actions, self.buys, self.coins = 1, self.actions + 1, self.buys + 1, self.coins + 1
        elif c == MERCHANT:
            draws, self.actions = 1, self.actions + 1
            self.merchants += 1
        elif c == MILITIA:
            self.coins += 2
            self._next_militia_victim(0)
            return
        elif c == MINE:
            self.phase = MINE_TRASH
            if not any(self.hand[p][t] for t in TREASURES):
                self._resume_actions()
            return
        elif c == REMODEL:
            self.phase = REMODEL_TRASH
            if not sum(self.hand[p]):
                self._resume_actions()
            return
        elif c == WORKSHOP:
            self.phase = WORKSHOP_GAIN
            if not self.legal_actions():
                self._resume_actions()
            return
        elif c == MOAT:
            draws = 2
        elif c == SMITHY:
            draws = 3
        elif c == VILLAGE:
            draws, self.actions = 1, self.actions + 2
        self._draw_then(p, draws, ("action",))

    def _next_militia_victim(self, start: int):
        for q in range(start, self.n):
            if q == self.cur or sum(self.hand[q]) <= 3:
                continue
            if self.hand[q][MOAT]:
                self.known[q][MOAT] = max(self.known[q][MOAT], 1)
                self.log.append((q, "moat"))
                continue
            self.victim = q
            self.phase = MILITIA_DROP
            return
        self.victim = -1
        self._resume_actions()

    def _resume_actions(self):
        p = self.cur
        if self.actions and any(self.hand[p][c] for c in ACTIONS):
            self.phase = ACTION
        else:
            self._start_buying()

    def _start_buying(self):
        p = self.cur
        hand = self.hand[p]
        for c in TREASURES:
            if hand[c]:
                self.coins += COINS[c] * hand[c]
                self.play[c] += hand[c]
                hand[c] = 0
                self.known[p][c] = 0
                self.held[p][c] = 0
        if self.play[SILVER]:
            self.coins += self.merchants
        self.phase = BUYING

    def _draw_then(self, player: int, count: int, after: tuple):
        self.drawer, self.to_draw, self.after = player, count, after
        self.phase = DRAWING
        self._continue_drawing()

    def _continue_drawing(self):
        q = self.drawer
        if self.to_draw and not sum(self.draw[q]):
            if sum(self.discard[q]):  # the hand now is public: all cards but the pile's
                self.held[q] = self.hand[q][:]
            self.draw[q], self.discard[q] = self.discard[q], [0] * NUM_TYPES  # shuffle
        if self.to_draw and sum(self.draw[q]):
            self.phase = DRAWING
            return
        self.to_draw = 0
        after = self.after
        if after[0] == "deal":
            nxt = after[1]
            if nxt < self.n:
                self._draw_then(nxt, HAND_SIZE, ("deal", nxt + 1))
            else:
                self._begin_turn()
        elif after[0] == "turn":
            self._begin_turn()
        else:
            self._resume_actions()

    def _cleanup(self):
        p = self.cur
        for c in range(NUM_TYPES):
            self.discard[p][c] += self.hand[p][c] + self.play[c]
        self.hand[p] = [0] * NUM_TYPES
        self.known[p] = [0] * NUM_TYPES
        self.held[p] = [0] * NUM_TYPES
        self.play = [0] * NUM_TYPES
        self.turns += 1
        empty = sum(1 for s in self.supply if s == 0)
        if not self.supply[PROVINCE] or empty >= 3 or self.turns >= self.max_turns:
            self.phase = OVER
            return
        self.cur = (p + 1) % self.n
        self._draw_then(p, HAND_SIZE, ("turn",))

    def _begin_turn(self):
        self.actions, self.buys, self.coins, self.merchants = 1, 1, 0, 0
        self._resume_actions()

    def victory_points(self, p: int) -> int:
        total = 0
        for zone in (self.draw[p], self.hand[p], self.discard[p]):
            total += sum(VP[c] * zone[c] for c in (ESTATE, DUCHY, PROVINCE, CURSE))
        if p == self.cur:
            total += sum(VP[c] * self.play[c] for c in (ESTATE, DUCHY, PROVINCE, CURSE))
        return total

    def returns(self):
        if self.phase != OVER:
            return [0.0] * self.n
        # Fewer turns taken breaks ties: players after the last mover took one turn fewer.
        last = (self.turns - 1) % self.n
        keys = [(self.victory_points(p), 1 if p > last else 0) for p in range(self.n)]
        return tt.win_shares(keys)

    # -- information ---------------------------------------------------------------------
    @staticmethod
    def _zone(zone) -> str:
        return ",".join(f"{CARD_NAMES[c]}x{k}" for c, k in enumerate(zone) if k) or "-"

    # Tensor layout: see the module docstring.
    LOG_CODES = NUM_ACTIONS + 33

    def tensor_pieces(self, player):
        n = self.n
        return [
            ("player", tt.one_hot(player, n)),
            ("mover", tt.mover_one_hot(self, n)),
            ("phase", tt.one_hot(self.phase, OVER + 1)),
            ("turn", np.asarray([self.turns], np.float32)),
            ("actions", np.asarray([self.actions], np.float32)),
            ("buys", np.asarray([self.buys], np.float32)),
            ("coins", np.asarray([self.coins], np.float32)),
            ("hand", np.asarray(self.hand[player], np.float32)),
            ("play", np.asarray(self.play, np.float32)),
            ("supply", np.asarray(self.supply, np.float32)),
            ("trash", np.asarray(self.trash, np.float32)),
            ("hand_sizes", np.asarray([sum(h) for h in self.hand], np.float32)),
            ("known", np.asarray(self.known, np.float32)),
            ("draw_sizes", np.asarray([sum(d) for d in self.draw], np.float32)),
            ("discards", np.asarray(self.discard, np.float32)),
        ]

    def log_codes(self):
        codes = []
        for p, entry in self.log:
            if isinstance(entry, int):
                codes.append((p, entry))
            elif entry == "moat":
                codes.append((p, NUM_ACTIONS + 32))
            else:
                codes.append((p, NUM_ACTIONS + min(int(entry[len("cellar") :]), 31)))
        return codes

    def _view(self, player: int) -> list[str]:
        parts = [
            f"p{player} mover {self.current_player()} phase {self.phase} turn {self.turns} "
            f"actions {self.actions} buys {self.buys} coins {self.coins}",
            f"hand: {self._zone(self.hand[player])}",
            f"play: {self._zone(self.play)}",
            "supply " + ",".join(map(str, self.supply)),
            "trash " + ",".join(map(str, self.trash)),
        ]
        for q in range(self.n):
            parts.append(
                f"p{q} hand {sum(self.hand[q])} known {self._zone(self.known[q])} "
                f"draw {sum(self.draw[q])} discard {self._zone(self.discard[q])}"
            )
        return parts

    def resample(self, player, rng):
        """Re-deal, for every other player, the hand cards not publicly there uniformly from
        their hand plus draw pile (as the compiled ``nb_determinize``, draw for draw).

        A hand keeps its known cards and the cards ``held`` from before its owner's last
        reshuffle (``kept = max(known, held)`` per type: both are public lower bounds, which
        may count the same card, e.g. a revealed Moat); in the Buy phase the mover's
        treasures were all played, so treasures stay out of the mover's re-dealt cards (they
        go to the draw pile)."""
        k = self.copy()
        for q in range(k.n):
            if q == player:
                continue
            kept = [max(k.known[q][c], k.held[q][c]) for c in range(NUM_TYPES)]
            pool = [k.draw[q][c] + k.hand[q][c] - kept[c] for c in range(NUM_TYPES)]
            size = sum(k.hand[q]) - sum(kept)
            no_treasure = q == k.cur and k.phase == BUYING
            cards = _shuffled_cards(
                [0 if no_treasure and c in TREASURES else pool[c] for c in range(NUM_TYPES)], rng
            )
            k.hand[q] = kept[:]
            for c in cards[:size]:
                k.hand[q][c] += 1
            k.draw[q] = [pool[c] - k.hand[q][c] + kept[c] for c in range(NUM_TYPES)]
        return k

    def history_context(self, game, history):
        """From ``history`` replayed: the real kernel, the draws each player still holds as
        (step, card) lists (step None for a card gained to hand; a card leaving a hand takes
        away the earliest draw of its type still held), the cards each player holds from
        before their last reshuffle (the replayed kernel's ``held``, one implementation: it
        counts a card gained to hand that was in the hand at the reshuffle, as public as a
        drawn one, which the draws alone would miss) and the phase before each step and
        after the last."""
        real = game.new_kernel()
        in_hand = [[] for _ in range(real.n)]
        phases = []
        for step, action in enumerate(history):
            phases.append(real.phase)
            before = [hand[:] for hand in real.hand]
            if real.phase == DRAWING:
                in_hand[real.drawer].append((step, action))
                before[real.drawer][action] += 1
            real.apply(action)
            for q in range(real.n):
                if before[q] == real.hand[q]:
                    continue
                for c in range(NUM_TYPES):
                    delta = real.hand[q][c] - before[q][c]
                    for _ in range(-delta):
                        in_hand[q].remove(next(e for e in in_hand[q] if e[1] == c))
                    in_hand[q].extend([(None, c)] * max(delta, 0))
        phases.append(real.phase)
        return real, in_hand, [held[:] for held in real.held], phases

    def replay_move(self, kernel, step, action, context):
        """An "end" of the Action phase or of an optional Mine trash is asked only while the
        hand holds a card to play or trash (and is not logged): the replay drops a real one
        the world's hand does not ask, and adds one where the world's hand asks it (also
        after the last step, where the real player is already past that phase)."""
        phases = context[3]
        asked = [] if action is None else [action]
        if kernel.phase == phases[step]:
            return asked
        if action == END and phases[step] in (ACTION, MINE_TRASH):
            return []
        if kernel.phase in (ACTION, MINE_TRASH):
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
        for q in range(real.n):
            if q == player:
                continue
            out, put = [], []
            for c in range(NUM_TYPES):
                delta = (self.hand[q][c] - self.known[q][c]) - (real.hand[q][c] - real.known[q][c])
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
        kind, c = divmod(action - 1, NUM_TYPES)
        return f"{('play', 'buy', 'discard/trash', 'gain')[kind]} {CARD_NAMES[c]}"

    def _state_line(self):
        return (
            f"mover {self.current_player()} phase {self.phase} turn {self.turns} "
            f"coins {self.coins} supply {self.supply}"
        )

    def _player_line(self, q):
        return (
            f"p{q} hand {self._zone(self.hand[q])} draw {self._zone(self.draw[q])} "
            f"discard {self._zone(self.discard[q])}"
        )


def _shuffled_cards(counts: list[int], rng) -> list[int]:
    """The cards of a count vector in uniformly random order. A ``PCG32`` (the compiled
    engine's generator, with ``bounded``) swaps as ``nb_determinize``'s Fisher-Yates loop does
    (``rng_bounded(i + 1)``), so both give the same world for the same seed; any other rng
    shuffles by ``tt.shuffled_cards``."""
    if not hasattr(rng, "bounded"):
        return tt.shuffled_cards(counts, rng)
    cards = tt.counts_to_list(counts)
    for i in range(len(cards) - 1, 0, -1):
        j = rng.bounded(i + 1)
        cards[i], cards[j] = cards[j], cards[i]
    return cards


def _after_end(kernel: DominionKernel) -> DominionKernel:
    after = kernel.copy()
    after.apply(END)
    return after
