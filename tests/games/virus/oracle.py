"""The former pure-Python Virus! kernel, frozen: an independent oracle for differential tests.

Rules, views, tensors, world sampler and history planning exactly as
``lib/infosets/games/virus/game.py``'s ``VirusKernel`` held them at commit
02c0326e2b81cb5f086f604c4fc3ab4620a825be, before the port ran on its numba rules
(``infosets.games.virus.kernel``) through ``infosets.games.array_kernel``. Do not edit:
``test_virus_oracle.py`` plays the live port against this code, so a change to the rules
shows up as a disagreement here.

Game: Virus! (Tranjis Games, 2015), as run by Ravichandran, Goodman and Lucas, "Evaluation of
Perfect-Information Monte Carlo Tree Search in Imperfect-Information Games"
(docs/papers/pimcts_aggregation.md); the rules and modelling choices are in the port's module
docstring.
"""

from __future__ import annotations

from bisect import bisect_right

import numpy as np

from infosets.games import _tabletop as tt

GAME_NAME = "virus"

RED, GREEN, BLUE, YELLOW, WILD = range(5)
COLOURS = ("red", "green", "blue", "yellow", "wild")
ORGAN, VIRUS, MEDICINE = 0, 5, 10          # card type = base + colour
THIEF, CONTAGION, TRANSPLANT, GLOVE, ERROR = range(15, 20)
NUM_TYPES = 20
DECK_COUNTS = (5, 5, 5, 5, 1, 4, 4, 4, 4, 1, 4, 4, 4, 4, 4, 3, 2, 3, 1, 1)
HAND = 3
MAX_PLAYERS = 6
MAX_ROUNDS = 100
ORGANS_TO_WIN = 4
NUM_SLOTS = 5


def _type_name(t: int) -> str:
    if t < VIRUS:
        return f"organ-{COLOURS[t]}"
    if t < MEDICINE:
        return f"virus-{COLOURS[t - VIRUS]}"
    if t < THIEF:
        return f"medicine-{COLOURS[t - MEDICINE]}"
    return ("organ-thief", "contagion", "transplant", "latex-glove", "medical-error")[t - THIEF]


# Action layout.
A_ORGAN = 0                                              # + colour
A_VIRUS = A_ORGAN + NUM_SLOTS                            # + (colour * MAXP + target) * 5 + slot
A_MEDICINE = A_VIRUS + NUM_SLOTS * MAX_PLAYERS * NUM_SLOTS   # + colour * 5 + slot
A_THIEF = A_MEDICINE + NUM_SLOTS * NUM_SLOTS             # + target * 5 + slot
A_TRANSPLANT = A_THIEF + MAX_PLAYERS * NUM_SLOTS         # + (mine * MAXP + target) * 5 + theirs
A_CONTAGION = A_TRANSPLANT + NUM_SLOTS * MAX_PLAYERS * NUM_SLOTS
A_GLOVE = A_CONTAGION + NUM_SLOTS * MAX_PLAYERS * NUM_SLOTS
A_ERROR = A_GLOVE + 1                                    # + target
A_DISCARD = A_ERROR + MAX_PLAYERS                        # + subset mask - 1 (1..7)
A_NEW_HAND = A_DISCARD + 7
NUM_ACTIONS = A_NEW_HAND + 1


def _triple(base: int, a: int, t: int, b: int) -> int:
    return base + (a * MAX_PLAYERS + t) * NUM_SLOTS + b


def _fits(colour: int, slot: int) -> bool:
    return colour == WILD or slot == WILD or colour == slot


def _viruses(organ: tuple) -> int:
    return sum(1 for c in organ if VIRUS <= c < MEDICINE)


def _immunised(organ: tuple) -> bool:
    return len(organ) == 2 and all(MEDICINE <= c < THIEF for c in organ)


_DISCARDS: dict[tuple, list[int]] = {}


def _discard_actions(hand: tuple) -> list[int]:
    """Discard actions of a sorted hand: one per distinct sub-multiset (cached)."""
    actions = _DISCARDS.get(hand)
    if actions is None:
        seen, actions = set(), []
        for mask in range(1, 1 << len(hand)):
            key = tuple(hand[i] for i in range(len(hand)) if mask >> i & 1)
            if key not in seen:
                seen.add(key)
                actions.append(A_DISCARD + mask - 1)
        _DISCARDS[hand] = actions
    return actions


class VirusKernel(tt.Kernel):
    """Whole Virus! state: bodies (public), hands as sorted lists, deck as counts.

    Bookkeeping for the determinization (no part of any view): ``epoch``, the reshuffles so
    far, and ``hand_epochs[p][i]``, the epoch of the draw of the card ``hands[p][i]`` (a
    hand is sorted by card, then epoch). A card leaving a hand is, among those of its type,
    the one of the earliest epoch (the first of its type in the hand)."""

    REBUILDS_WORLDS = True    # sampled worlds replay from their history (_tabletop)
    CHECKS_EACH_MOVE = False  # every move is logged (a discard by the cards it drops)

    VALUE_FIELDS = ("n", "cur", "turn", "done", "epoch")
    LIST_FIELDS = ("pool", "discard", "to_draw", "needs_hand", "log")
    NESTED_FIELDS = ("hands", "hand_epochs", "bodies")
    __slots__ = VALUE_FIELDS + LIST_FIELDS + NESTED_FIELDS

    def __init__(self, n: int):
        self.n = n
        self.pool = list(DECK_COUNTS)
        self.discard = [0] * NUM_TYPES
        self.hands = [[] for _ in range(n)]
        self.hand_epochs = [[] for _ in range(n)]   # aligned with ``hands``
        self.epoch = 0                               # reshuffles so far
        # bodies[p][slot]: None (no organ) or a tuple of the cards attached to the organ.
        self.bodies = [[None] * NUM_SLOTS for _ in range(n)]
        self.cur = 0
        self.to_draw = [HAND] * n       # cards still owed, dealt player by player
        self.turn = 0
        self.done = False
        self.needs_hand = [False] * n   # hit by a Latex Glove
        self.log = []

    # -- flow ---------------------------------------------------------------------------
    def is_terminal(self):
        return self.done

    def _drawer(self) -> int:
        for p in range(self.n):
            if self.to_draw[p]:
                return p
        return -1

    def current_player(self):
        if self.done:
            return tt.TERMINAL
        if self._drawer() >= 0:
            return tt.CHANCE
        return self.cur

    def chance_outcomes(self):
        return tt.count_outcomes(self.pool)

    def legal_actions(self):
        if self.done or self._drawer() >= 0:
            return []
        p = self.cur
        if self.needs_hand[p]:
            return [A_NEW_HAND]
        hand = self.hands[p]
        mine = self.bodies[p]
        others = [q for q in range(self.n) if q != p]
        actions = []
        for t in sorted(set(hand)):
            if t < VIRUS:
                if mine[t] is None:
                    actions.append(A_ORGAN + t)
            elif t < MEDICINE:
                colour = t - VIRUS
                for q in others:
                    for s, organ in enumerate(self.bodies[q]):
                        if organ is not None and _fits(colour, s) and not _immunised(organ):
                            actions.append(A_VIRUS + (colour * MAX_PLAYERS + q) * NUM_SLOTS + s)
            elif t < THIEF:
                colour = t - MEDICINE
                for s, organ in enumerate(mine):
                    if organ is not None and _fits(colour, s) and not _immunised(organ):
                        actions.append(A_MEDICINE + colour * NUM_SLOTS + s)
            elif t == THIEF:
                for q in others:
                    for s, organ in enumerate(self.bodies[q]):
                        if organ is not None and mine[s] is None and not _immunised(organ):
                            actions.append(A_THIEF + q * NUM_SLOTS + s)
            elif t == TRANSPLANT:
                for a, organ_a in enumerate(mine):
                    if organ_a is None or _immunised(organ_a):
                        continue
                    for q in others:
                        theirs = self.bodies[q]
                        for b, organ_b in enumerate(theirs):
                            if organ_b is None or _immunised(organ_b):
                                continue
                            if a == b or (mine[b] is None and theirs[a] is None):
                                actions.append(_triple(A_TRANSPLANT, a, q, b))
            elif t == CONTAGION:
                for a, organ_a in enumerate(mine):
                    if organ_a is None or not _viruses(organ_a):
                        continue
                    colour = next(c for c in organ_a if VIRUS <= c < MEDICINE) - VIRUS
                    for q in others:
                        for b, organ_b in enumerate(self.bodies[q]):
                            if organ_b == () and _fits(colour, b):
                                actions.append(_triple(A_CONTAGION, a, q, b))
            elif t == GLOVE:
                actions.append(A_GLOVE)
            else:
                actions.extend(A_ERROR + q for q in others)
        actions.extend(_discard_actions(tuple(hand)))
        actions.sort()
        return actions

    def apply(self, action):
        drawer = self._drawer()
        if drawer >= 0:
            self.pool[action] -= 1
            at = bisect_right(self.hands[drawer], action)   # after its type: latest epoch
            self.hands[drawer].insert(at, action)
            self.hand_epochs[drawer].insert(at, self.epoch)
            self.to_draw[drawer] -= 1
            self._settle()
            return
        p = self.cur
        if action == A_NEW_HAND:
            self.needs_hand[p] = False
            self.log.append((p, action))
            self.to_draw[p] = HAND
        elif action >= A_DISCARD:
            hand = self.hands[p]
            mask = action - A_DISCARD + 1
            dropped = [hand[i] for i in range(len(hand)) if mask >> i & 1]
            for c in dropped:
                self._take(p, c)
                self.discard[c] += 1
            self.log.append((p, "d" + ",".join(map(str, dropped))))
            self.to_draw[p] = len(dropped)
        else:
            self._play(p, action)
            self.log.append((p, action))
            self.to_draw[p] = HAND - len(self.hands[p])
        self._check_end()
        if not self.done:
            self.turn += 1
            self.cur = (p + 1) % self.n
            if self.turn >= MAX_ROUNDS * self.n:
                self.done = True
        self._settle()

    def _settle(self):
        """Reshuffle the discard pile into an empty deck; with no card anywhere, stop drawing."""
        if self.done or self._drawer() < 0 or sum(self.pool):
            return
        self.pool, self.discard = self.discard, [0] * NUM_TYPES
        if sum(self.pool):
            self.epoch += 1
        else:
            self.to_draw = [0] * self.n

    def _take(self, p: int, card: int):
        """One ``card`` leaves ``p``'s hand: of its type, the one of the earliest epoch."""
        i = self.hands[p].index(card)
        del self.hands[p][i]
        del self.hand_epochs[p][i]

    def _play(self, p: int, action: int):
        bodies = self.bodies
        if action < A_VIRUS:
            self._take(p, ORGAN + action)
            bodies[p][action] = ()
        elif action < A_MEDICINE:
            rest, s = divmod(action - A_VIRUS, NUM_SLOTS)
            colour, q = divmod(rest, MAX_PLAYERS)
            card = VIRUS + colour
            self._take(p, card)
            organ = bodies[q][s]
            if organ and not _viruses(organ):            # vaccinated: both cards go
                self.discard[organ[0]] += 1
                self.discard[card] += 1
                bodies[q][s] = ()
            elif organ:                                  # infected: the organ is destroyed
                for c in organ:
                    self.discard[c] += 1
                self.discard[card] += 1
                self.discard[ORGAN + s] += 1
                bodies[q][s] = None
            else:
                bodies[q][s] = (card,)
        elif action < A_THIEF:
            colour, s = divmod(action - A_MEDICINE, NUM_SLOTS)
            card = MEDICINE + colour
            self._take(p, card)
            organ = bodies[p][s]
            if organ and _viruses(organ):                # cure
                self.discard[organ[0]] += 1
                self.discard[card] += 1
                bodies[p][s] = ()
            else:
                bodies[p][s] = organ + (card,)
        elif action < A_TRANSPLANT:
            q, s = divmod(action - A_THIEF, NUM_SLOTS)
            self._take(p, THIEF)
            self.discard[THIEF] += 1
            bodies[p][s], bodies[q][s] = bodies[q][s], None
        elif action < A_CONTAGION:
            rest, b = divmod(action - A_TRANSPLANT, NUM_SLOTS)
            a, q = divmod(rest, MAX_PLAYERS)
            self._take(p, TRANSPLANT)
            self.discard[TRANSPLANT] += 1
            organ_a, organ_b = bodies[p][a], bodies[q][b]
            bodies[p][a] = None
            bodies[q][b] = None
            bodies[p][b] = organ_b
            bodies[q][a] = organ_a
        elif action < A_GLOVE:
            rest, b = divmod(action - A_CONTAGION, NUM_SLOTS)
            a, q = divmod(rest, MAX_PLAYERS)
            self._take(p, CONTAGION)
            self.discard[CONTAGION] += 1
            organ = bodies[p][a]
            virus = next(c for c in organ if VIRUS <= c < MEDICINE)
            bodies[p][a] = ()
            bodies[q][b] = (virus,)
        elif action == A_GLOVE:
            self._take(p, GLOVE)
            self.discard[GLOVE] += 1
            for q in range(self.n):
                if q != p:
                    for c in self.hands[q]:
                        self.discard[c] += 1
                    self.hands[q] = []
                    self.hand_epochs[q] = []
                    self.needs_hand[q] = True
        else:
            q = action - A_ERROR
            self._take(p, ERROR)
            self.discard[ERROR] += 1
            bodies[p], bodies[q] = bodies[q], bodies[p]

    def healthy_organs(self, p: int) -> int:
        return sum(1 for organ in self.bodies[p] if organ is not None and not _viruses(organ))

    def _check_end(self):
        if any(self.healthy_organs(p) >= ORGANS_TO_WIN for p in range(self.n)):
            self.done = True

    def returns(self):
        if not self.done:
            return [0.0] * self.n
        won = [self.healthy_organs(p) >= ORGANS_TO_WIN for p in range(self.n)]
        if not any(won):
            return [1.0 / self.n] * self.n
        return tt.win_shares([1 if w else 0 for w in won])

    # -- information ---------------------------------------------------------------------
    def _body_str(self, p: int) -> str:
        parts = []
        for s, organ in enumerate(self.bodies[p]):
            if organ is not None:
                parts.append(COLOURS[s] + "".join("+" + _type_name(c) for c in organ))
        return " ".join(parts) or "-"

    # Tensor layout: see the module docstring.
    LOG_CODES = NUM_ACTIONS + HAND

    def tensor_pieces(self, player):
        n = self.n
        organ = np.zeros((n, NUM_SLOTS), np.float32)
        attached = np.zeros((n, NUM_SLOTS, NUM_TYPES), np.float32)
        for q in range(n):
            for slot, cards in enumerate(self.bodies[q]):
                if cards is not None:
                    organ[q, slot] = 1
                    for c in cards:
                        attached[q, slot, c] += 1
        return [("player", tt.one_hot(player, n)),
                ("mover", tt.mover_one_hot(self, n)),
                ("turn", np.asarray([self.turn], np.float32)),
                ("deck", np.asarray([sum(self.pool)], np.float32)),
                ("hand", np.asarray(tt.list_to_counts(self.hands[player], NUM_TYPES), np.float32)),
                ("hand_sizes", np.asarray([len(h) for h in self.hands], np.float32)),
                ("glove", np.asarray(self.needs_hand, np.float32)),
                ("organ", organ),
                ("attached", attached),
                ("discard", np.asarray(self.discard, np.float32))]

    def log_codes(self):
        return [(p, entry if isinstance(entry, int) else NUM_ACTIONS + entry.count(","))
                for p, entry in self.log]

    def _view(self, player: int) -> list[str]:
        parts = [f"p{player} mover {self.current_player()} turn {self.turn} "
                 f"deck {sum(self.pool)}",
                 "hand: " + ",".join(_type_name(c) for c in self.hands[player])]
        for q in range(self.n):
            parts.append(f"p{q} cards {len(self.hands[q])}{' glove' if self.needs_hand[q] else ''}"
                         f" body {self._body_str(q)}")
        parts.append("discard " + ",".join(map(str, self.discard)))
        return parts

    def deal_hidden(self, player, rng):
        """The determinization law: new cards for the other players' hands and the deck.

        A card drawn before a reshuffle came from that (public) pile, so for each epoch ``e``
        in turn the hidden hand cards of epoch ``e`` are dealt back to those slots (hands in
        player order, each in hand order), one by one, uniformly without replacement
        (``tt.draw_index``); the last epoch's pile also holds the deck, whose rest is the new
        deck. Returns (cards, pool): ``cards[q][i]`` the card of slot ``hands[q][i]`` (the
        player's own: kept), ``pool`` the deck counts. ``nb_determinize`` draws the same."""
        cards = [hand[:] for hand in self.hands]
        for e in range(self.epoch + 1):
            slots = [(q, i) for q in range(self.n) if q != player
                     for i, held in enumerate(self.hand_epochs[q]) if held == e]
            left = tt.list_to_counts([self.hands[q][i] for q, i in slots], NUM_TYPES)
            if e == self.epoch:
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
        for q in range(k.n):
            pairs = sorted(zip(cards[q], self.hand_epochs[q]))
            k.hands[q] = [c for c, _ in pairs]
            k.hand_epochs[q] = [e for _, e in pairs]
        k.pool = pool
        return k

    def resample(self, player, rng):
        """A world for ``player``: the hidden cards dealt by ``deal_hidden`` (see the module
        docstring), uniformly over the placements the epochs allow."""
        return self._with_cards(*self.deal_hidden(player, rng))

    def history_context(self, game, history):
        """From ``history`` replayed (chance outcomes tagged with their step, ``tt.Drawn``):
        the draws each player still holds, as [step, card, epoch] lists aligned with the
        replayed kernel's ``hands`` (the kernel's ``hand_epochs``: how many reshuffles came
        before the draw), the number of epochs, and the cards each discard dropped (by step).
        ``resample_given`` leaves there the cards it dealt to those draws (key "dealt"),
        which ``plan_history`` writes into the history."""
        real = game.new_kernel()
        dropped = {}
        for step, action in enumerate(history):
            if real._drawer() >= 0:
                real.apply(tt.Drawn(action, step))
                continue
            if A_DISCARD <= action < A_NEW_HAND:
                hand = real.hands[real.cur]
                mask = action - A_DISCARD + 1
                dropped[step] = tuple(int(hand[i]) for i in range(len(hand)) if mask >> i & 1)
            real.apply(action)
        in_hand = [[[card.origin, int(card), e] for card, e in zip(real.hands[q], real.hand_epochs[q])]
                   for q in range(real.n)]
        return {"in_hand": in_hand, "epochs": real.epoch + 1, "dropped": dropped, "dealt": {}}

    def resample_given(self, player, rng, context):
        """``resample`` (the same draws), also leaving in context["dealt"] the card dealt to
        each hidden draw still held (by its step) for ``plan_history``."""
        cards, pool = self.deal_hidden(player, rng)
        in_hand = context["in_hand"]
        if [[entry[1] for entry in held] for held in in_hand] != self.hands:
            raise ValueError("context: not the history_context of this kernel's history")
        context["dealt"] = {in_hand[q][i][0]: card for q in range(self.n) if q != player
                            for i, card in enumerate(cards[q])}
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
        hand = kernel.hands[kernel.cur]
        for move in _discard_actions(tuple(hand)):
            mask = move - A_DISCARD + 1
            if tuple(hand[i] for i in range(len(hand)) if mask >> i & 1) == cards:
                return [move]
        return [action]

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
        return (f"mover {self.current_player()} turn {self.turn} pool {self.pool} "
                f"discard {self.discard}")

    def _player_line(self, p):
        return f"p{p} hand {self.hands[p]} body {self._body_str(p)}"
