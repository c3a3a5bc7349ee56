"""The former pure-Python Exploding Kittens kernel, frozen: an independent oracle for differential tests.

Rules, views, tensors, resampler and the real-history reading of the world sampler exactly as
``lib/infosets/games/exploding_kittens/game.py``'s ``ExplodingKittensKernel`` (and
``worlds.history_context`` with its helpers) held them at commit
b9c84d05d5567215e17c8e660d83f16454b0c7e7, before the port ran on its numba rules
(``infosets.games.exploding_kittens.kernel``) through ``infosets.games.array_kernel``. Do not
edit: ``test_exploding_kittens_oracle.py`` plays the live port against this code, so a change
to the rules shows up as a disagreement here. Only ``history_context`` calls the frozen copy
below instead of the library's, and ``world_history`` the library's ``worlds.sample``.

Game: Exploding Kittens (Lee, Inman, Small, 2015), as run by Ravichandran, Goodman and Lucas,
"Evaluation of Perfect-Information Monte Carlo Tree Search in Imperfect-Information Games"
(docs/papers/pimcts_aggregation.md); the rules and modelling choices are in the port's module
docstring.
"""

from __future__ import annotations

import numpy as np

from infosets.games import _tabletop as tt

GAME_NAME = "exploding_kittens"

KITTEN, DEFUSE, ATTACK, SKIP, FAVOR, SHUFFLE, FUTURE = range(7)
CATS = tuple(range(7, 12))
NOPE = 12
NUM_TYPES = 13
CARD_NAMES = (
    "Kitten",
    "Defuse",
    "Attack",
    "Skip",
    "Favor",
    "Shuffle",
    "Future",
    "Tacocat",
    "Melon",
    "Beard",
    "Rainbow",
    "Furry",
    "Nope",
)
BASE_COUNTS = (0, 0, 4, 4, 4, 4, 5, 4, 4, 4, 4, 4, 5)
HAND_SIZE = 7
TOTAL_DEFUSES = 6
FUTURE_DEPTH = 3
MAX_PLAYERS = 5
MAX_DECK = sum(BASE_COUNTS) + TOTAL_DEFUSES + MAX_PLAYERS

# Actions.
DRAW, PLAY_ATTACK, PLAY_SKIP, PLAY_SHUFFLE, PLAY_FUTURE = range(5)
FAVOR_BASE = 5  # + target
CAT_BASE = FAVOR_BASE + MAX_PLAYERS  # + kind * MAX_PLAYERS + target
GIVE_BASE = CAT_BASE + len(CATS) * MAX_PLAYERS  # + card type
PLACE_BASE = GIVE_BASE + NUM_TYPES  # + position from the top
PASS = PLACE_BASE + MAX_DECK + 1  # let the pending card (or Nope) stand
PLAY_NOPE = PASS + 1
NUM_ACTIONS = PLAY_NOPE + 1
# The plays of one action card with no target: action -> (card, log entry).
SINGLE_PLAYS = {
    PLAY_ATTACK: (ATTACK, "attack"),
    PLAY_SKIP: (SKIP, "skip"),
    PLAY_SHUFFLE: (SHUFFLE, "shuffle"),
    PLAY_FUTURE: (FUTURE, "future"),
}

# Phases.
DEAL, MAIN, GIVE, PLACE, DRAW_CHANCE, STEAL, FILL, OVER, NOPE_WINDOW = range(9)
NUM_PHASES = 9
# Every entry the public log can hold (the information-state tensor counts them).
LOG_EVENTS = (
    tuple(event for _, event in SINGLE_PLAYS.values())
    + tuple(f"favor{q}" for q in range(MAX_PLAYERS))
    + tuple(f"steal{q}" for q in range(MAX_PLAYERS))
    + ("nope", "noped", "placed", "defused", "exploded")
)


class ExplodingKittensKernel(tt.Kernel):
    """Whole Exploding Kittens state: hands and deck top with visibility masks, rest as counts."""

    VALUE_FIELDS = (
        "n",
        "phase",
        "cur",
        "turns",
        "to_deal",
        "actor",
        "victim",
        "fill_to",
        "fill_then",
        "pending",
        "nopes",
    )
    LIST_FIELDS = ("pool", "top", "top_seen", "alive", "discards", "log", "responders")
    NESTED_FIELDS = ("hands", "seen")
    __slots__ = VALUE_FIELDS + LIST_FIELDS + NESTED_FIELDS
    SAMPLES_HISTORIES = True  # worlds are re-simulated histories (_exploding_kittens_worlds)

    def __init__(self, n: int):
        self.n = n
        self.phase = DEAL
        self.cur = 0
        self.turns = 1
        self.to_deal = n * HAND_SIZE
        self.pool = list(BASE_COUNTS)
        self.top = []
        self.top_seen = []
        self.hands = [[DEFUSE] for _ in range(n)]
        self.seen = [[(1 << n) - 1] for _ in range(n)]  # everyone knows each starts with one
        self.alive = [True] * n
        self.discards = [0] * NUM_TYPES
        self.actor = -1  # favor asker / stealer
        self.victim = -1  # favor giver / steal victim
        self.fill_to = 0  # deck-top length to fix by chance
        self.fill_then = -1  # -1: see the future, else the kitten position
        self.log = []
        self.pending = -1  # action card waiting for its Nope window to close
        self.nopes = 0  # Nopes played on it so far (odd: cancelled)
        self.responders = []  # players still to answer in the window

    # -- flow ---------------------------------------------------------------------------
    def deck_size(self) -> int:
        return len(self.top) + sum(self.pool)

    def is_terminal(self):
        return self.phase == OVER

    def current_player(self):
        phase = self.phase
        if phase == OVER:
            return tt.TERMINAL
        if phase in (DEAL, DRAW_CHANCE, STEAL, FILL):
            return tt.CHANCE
        if phase == GIVE:
            return self.victim
        if phase == NOPE_WINDOW:
            return self.responders[0]
        return self.cur

    def chance_outcomes(self):
        if self.phase == STEAL:
            return tt.count_outcomes(tt.list_to_counts(self.hands[self.victim], NUM_TYPES))
        return tt.count_outcomes(self.pool)

    def _targets(self) -> list[int]:
        return [q for q in range(self.n) if q != self.cur and self.alive[q] and self.hands[q]]

    def legal_actions(self):
        phase = self.phase
        if phase == MAIN:
            hand = self.hands[self.cur]
            actions = [DRAW]
            actions.extend(action for action, (card, _) in SINGLE_PLAYS.items() if card in hand)
            targets = self._targets()
            if FAVOR in hand:
                actions.extend(FAVOR_BASE + t for t in targets)
            for i, cat in enumerate(CATS):
                if hand.count(cat) >= 2:
                    actions.extend(CAT_BASE + i * MAX_PLAYERS + t for t in targets)
            return actions
        if phase == GIVE:
            return [GIVE_BASE + c for c in sorted(set(self.hands[self.victim]))]
        if phase == PLACE:
            return [PLACE_BASE + i for i in range(self.deck_size() + 1)]
        if phase == NOPE_WINDOW:
            return [PASS, PLAY_NOPE] if NOPE in self.hands[self.responders[0]] else [PASS]
        return []

    def apply(self, action):
        phase = self.phase
        if phase == DEAL:
            self.pool[action] -= 1
            p = (self.n * HAND_SIZE - self.to_deal) // HAND_SIZE
            self.hands[p].append(action)
            self.seen[p].append(1 << p)
            self.to_deal -= 1
            if not self.to_deal:
                self.pool[KITTEN] += self.n - 1
                self.pool[DEFUSE] += TOTAL_DEFUSES - self.n
                self.phase = MAIN
        elif phase == MAIN:
            self._main(action)
        elif phase == DRAW_CHANCE:
            self.pool[action] -= 1
            self._drawn(action, 1 << self.cur)
        elif phase == GIVE:
            self._move_card(self.victim, self.actor, action - GIVE_BASE)
            self.phase = MAIN
        elif phase == STEAL:
            self._move_card(self.victim, self.actor, action)
            self.phase = MAIN
        elif phase == FILL:
            self.pool[action] -= 1
            self.top.append(action)
            self.top_seen.append(0)
            if len(self.top) == self.fill_to:
                self._after_fill()
        elif phase == PLACE:
            self._place(action - PLACE_BASE)
        elif phase == NOPE_WINDOW:
            self._respond(action)

    def _main(self, action: int):
        p = self.cur
        if action == DRAW:
            if self.top:
                card, mask = self.top.pop(0), self.top_seen.pop(0)
                self._drawn(card, mask | (1 << p))
            else:
                self.phase = DRAW_CHANCE
            return
        if action in SINGLE_PLAYS:
            card, event = SINGLE_PLAYS[action]
            self._play(p, card)
            self.log.append((p, event))
        elif action < CAT_BASE:
            self._play(p, FAVOR)
            self.log.append((p, f"favor{action - FAVOR_BASE}"))
        else:
            kind, target = divmod(action - CAT_BASE, MAX_PLAYERS)
            self._play(p, CATS[kind])
            self._play(p, CATS[kind])
            self.log.append((p, f"steal{target}"))
        self.pending, self.nopes = action, 0
        self._open_window(p)

    def _open_window(self, last: int):
        """Every other player still in, in turn order after ``last``, may Nope."""
        order = [(last + i) % self.n for i in range(1, self.n)]
        self.responders = [q for q in order if self.alive[q]]
        self.phase = NOPE_WINDOW

    def _respond(self, action: int):
        q = self.responders.pop(0)
        if action == PLAY_NOPE:
            self._play(q, NOPE)
            self.log.append((q, "nope"))
            self.nopes += 1
            self._open_window(q)
            return
        if not self.responders:
            self.phase = MAIN
            if self.nopes % 2:
                self.log.append((self.cur, "noped"))
            else:
                self._resolve(self.pending)
            self.pending = -1

    def _resolve(self, action: int):
        """The effect of an action card whose Nope window closed without cancelling it."""
        p = self.cur
        if action == PLAY_ATTACK:
            self._next_player(turns=2)
        elif action == PLAY_SKIP:
            self._end_one_turn()
        elif action == PLAY_SHUFFLE:
            for c in self.top:
                self.pool[c] += 1
            self.top, self.top_seen = [], []
        elif action == PLAY_FUTURE:
            self._fill(min(FUTURE_DEPTH, self.deck_size()), -1)
        else:
            if action < CAT_BASE:
                target, phase = action - FAVOR_BASE, GIVE
            else:
                target, phase = (action - CAT_BASE) % MAX_PLAYERS, STEAL
            if self.hands[target]:  # a Nope may have emptied the target's hand
                self.actor, self.victim = p, target
                self.phase = phase

    def _fill(self, length: int, then: int):
        self.fill_to, self.fill_then = length, then
        if len(self.top) >= length:
            self._after_fill()
        else:
            self.phase = FILL

    def _after_fill(self):
        p = self.cur
        if self.fill_then < 0:
            for i in range(self.fill_to):
                self.top_seen[i] |= 1 << p
            self.phase = MAIN
            return
        keep = 1 << p  # only the placer can follow the deck now
        self.top_seen = [m & keep for m in self.top_seen]
        self.top.insert(self.fill_then, KITTEN)
        self.top_seen.insert(self.fill_then, keep)
        self._end_one_turn()

    def _place(self, position: int):
        self.log.append((self.cur, "placed"))
        self._fill(position, position)

    def _drawn(self, card: int, mask: int):
        p = self.cur
        if card == KITTEN:
            if DEFUSE in self.hands[p]:
                self._play(p, DEFUSE)
                self.log.append((p, "defused"))
                self.phase = PLACE
                return
            self.discards[KITTEN] += 1
            for c in self.hands[p]:
                self.discards[c] += 1
            self.hands[p], self.seen[p] = [], []
            self.alive[p] = False
            self.log.append((p, "exploded"))
            if sum(self.alive) == 1:
                self.phase = OVER
                return
            self._next_player(turns=1)
            return
        self.hands[p].append(card)
        self.seen[p].append(mask)
        self.phase = MAIN
        self._end_one_turn()

    def _end_one_turn(self):
        self.phase = MAIN
        self.turns -= 1
        if self.turns <= 0:
            self._next_player(turns=1)

    def _next_player(self, turns: int):
        q = (self.cur + 1) % self.n
        while not self.alive[q]:
            q = (q + 1) % self.n
        self.cur, self.turns, self.phase = q, turns, MAIN

    def _remove(self, q: int, card: int, watchers: int) -> int:
        """Take one ``card`` from q's hand; return its mask. ``watchers`` see which type went.

        A watcher who knew a copy of ``card`` now knows one copy fewer; anyone else forgets
        q's hand (they cannot tell which card left).
        """
        hand, seen = self.hands[q], self.seen[q]
        i = hand.index(card)
        mask = seen[i]
        hand.pop(i)
        seen.pop(i)
        everyone_else = ((1 << self.n) - 1) & ~(1 << q)
        for r in range(self.n):
            bit = 1 << r
            if not everyone_else & bit:
                continue
            if watchers & bit:
                if mask & bit:
                    continue
                for j, c in enumerate(hand):  # forget one known copy instead
                    if c == card and seen[j] & bit:
                        seen[j] &= ~bit
                        break
            else:
                for j in range(len(seen)):
                    seen[j] &= ~bit
        return mask

    def _play(self, q: int, card: int):
        self._remove(q, card, (1 << self.n) - 1)
        self.discards[card] += 1

    def _move_card(self, giver: int, taker: int, card: int):
        """A Favor's or a steal's ``card`` goes from giver to taker; only those two see it.

        The taker gets the giver's copy itself (the one ``_remove`` takes), not the action's
        value: equal as a card, and a card tagged with the step that dealt it (``tt.Drawn``,
        ``_exploding_kittens_worlds``) keeps its tag, so a world re-deals it where the
        sampling player did not see the move.
        """
        both = (1 << giver) | (1 << taker)
        hand = self.hands[giver]
        moved = hand[hand.index(card)]
        self._remove(giver, card, both)
        self.hands[taker].append(moved)
        self.seen[taker].append(both)

    def returns(self):
        if self.phase != OVER:
            return [0.0] * self.n
        return [1.0 if a else 0.0 for a in self.alive]

    # -- information ---------------------------------------------------------------------
    def _view(self, player: int) -> list[str]:
        bit = 1 << player
        parts = [
            f"p{player} mover {self.current_player()} phase {self.phase} turns {self.turns} "
            f"pending {self.pending} nopes {self.nopes}",
            "hand: " + ",".join(CARD_NAMES[c] for c in sorted(self.hands[player])),
        ]
        for q in range(self.n):
            if q == player:
                continue
            known = sorted(CARD_NAMES[c] for c, s in zip(self.hands[q], self.seen[q]) if s & bit)
            parts.append(f"p{q} {'in' if self.alive[q] else 'out'} {len(self.hands[q])} cards, known {known}")
        top = [CARD_NAMES[c] if s & bit else "?" for c, s in zip(self.top, self.top_seen)]
        while top and top[-1] == "?":
            top.pop()
        parts.append(f"deck {self.deck_size()} top {top}")
        parts.append("discards " + ",".join(map(str, self.discards)))
        return parts

    # Tensor layout: see the module docstring.
    LOG_CODES = len(LOG_EVENTS)

    def tensor_pieces(self, player):
        n, bit = self.n, 1 << player
        known = np.zeros((n, NUM_TYPES), np.float32)
        for q in range(n):
            if q != player:
                for c, s in zip(self.hands[q], self.seen[q]):
                    if s & bit:
                        known[q, c] += 1
        top = np.zeros((MAX_DECK, NUM_TYPES), np.float32)
        for depth, (c, s) in enumerate(zip(self.top, self.top_seen)):
            if s & bit:
                top[depth, c] = 1
        return [
            ("player", tt.one_hot(player, n)),
            ("mover", tt.mover_one_hot(self, n)),
            ("phase", tt.one_hot(self.phase, NUM_PHASES)),
            ("turns", np.asarray([self.turns], np.float32)),
            ("pending", tt.one_hot(self.pending, NUM_ACTIONS)),
            ("nopes", np.asarray([self.nopes], np.float32)),
            ("hand", np.asarray(tt.list_to_counts(self.hands[player], NUM_TYPES), np.float32)),
            ("alive", np.asarray(self.alive, np.float32)),
            ("hand_sizes", np.asarray([len(h) for h in self.hands], np.float32)),
            ("known", known),
            ("deck", np.asarray([self.deck_size()], np.float32)),
            ("top", top),
            ("discards", np.asarray(self.discards, np.float32)),
        ]

    def log_codes(self):
        return [(p, LOG_EVENTS.index(event)) for p, event in self.log]

    def _log_text(self):
        return ";".join(f"{p}{event}" for p, event in self.log)

    def resample(self, player, rng):
        """Keep the cards ``player`` knows; deal the others uniformly into unknown slots."""
        k = self.copy()
        bit = 1 << player
        pool = k.pool[:]
        hand_slots = tt.pool_unseen_cards(k.hands, k.seen, player, pool)
        top_slots = []
        for i, s in enumerate(k.top_seen):
            if not s & bit:
                pool[k.top[i]] += 1
                top_slots.append(i)
        # Kittens are never held (a drawn kitten explodes or goes back): hands get the
        # others, uniformly; the rest of the unknown cards go to the deck uniformly.
        kittens = pool[KITTEN]
        pool[KITTEN] = 0
        cards = tt.shuffled_cards(pool, rng)
        for (q, i), c in zip(hand_slots, cards):
            k.hands[q][i] = c
        rest = cards[len(hand_slots) :] + [KITTEN] * kittens
        tt.shuffle_in_place(rest, rng)
        for i, c in zip(top_slots, rest):
            k.top[i] = c
        k.pool = tt.list_to_counts(rest[len(top_slots) :], NUM_TYPES)
        return k

    # -- worlds as histories (``_exploding_kittens_worlds``; ``resample`` above is the
    # compiled kernel's twin and keeps the real deck-top length) ------------------------------
    def history_context(self, game, history):
        return history_context(game, history, _is_draw, (KITTEN, DEFUSE), _card_move)

    def world_history(self, game, player, rng, context):
        """A history ``player`` cannot tell from the real one (``_exploding_kittens_worlds``)."""
        from infosets.games.exploding_kittens import worlds as worlds

        return worlds.sample(game, context, player, rng, _hidden_move)

    def action_to_string(self, player, action):
        if player == tt.CHANCE:
            return f"chance {CARD_NAMES[action]}"
        if action < FAVOR_BASE:
            return ("Draw", "Attack", "Skip", "Shuffle", "See the Future")[action]
        if action < CAT_BASE:
            return f"Favor p{action - FAVOR_BASE}"
        if action < GIVE_BASE:
            kind, target = divmod(action - CAT_BASE, MAX_PLAYERS)
            return f"Pair {CARD_NAMES[CATS[kind]]} steal p{target}"
        if action < PLACE_BASE:
            return f"Give {CARD_NAMES[action - GIVE_BASE]}"
        if action == PASS:
            return "Pass"
        if action == PLAY_NOPE:
            return "Nope"
        return f"Place kitten at {action - PLACE_BASE}"

    def _state_line(self):
        return (
            f"phase {self.phase} cur {self.cur} turns {self.turns} top {self.top} "
            f"seen {self.top_seen} pool {self.pool}"
        )

    def _player_line(self, p):
        return f"p{p} {'in' if self.alive[p] else 'out'} hand {self.hands[p]} seen {self.seen[p]}"


def _is_draw(kernel: ExplodingKittensKernel, action: int) -> bool:
    return kernel.phase == MAIN and action == DRAW


def _card_move(kernel: ExplodingKittensKernel) -> tuple[int, int] | None:
    """(giver, taker) when the step now due moves a card between hands (the Give of a Favor,
    the chance step of a steal), else None."""
    if kernel.phase in (GIVE, STEAL):
        return kernel.victim, kernel.actor
    return None


def _hidden_move(kernel: ExplodingKittensKernel, player: int) -> bool:
    """Whether the move now due is a choice ``player`` cannot see: where another player puts a
    defused kitten back, or the card a Favor hands over between two other players."""
    if kernel.phase == PLACE:
        return kernel.cur != player
    return kernel.phase == GIVE and player not in (kernel.actor, kernel.victim)


# -- the real history read with tagged cards (frozen copy of the former worlds.py) ------------


def history_context(game, history: list[int], player_moves, kitten_defuse, card_move) -> dict:
    """What every attempt reads from the real history, computed once per sampled state.

    Keys: ``segments`` (the chance outcomes before the first player move, then per player
    move (step, mover, action, outcomes after it)); ``drawn`` (step of a Draw from the fixed
    top -> the card it gave, tagged); ``tagged`` (the real final kernel with each card tagged
    by the step that drew it, ``tt.Drawn``; a card moved between hands keeps its tag);
    ``ever`` (tag -> bitmask of the players who knew the card at some time: a card's
    knowledge mask may drop a player who saw it, e.g. a See the Future card once another
    player hid a kitten above it); ``events`` (every step where tagged cards left a hand, in
    order: ``("move", step, giver, taker, tag, hand, steal)`` for a Favor's Give or a steal
    (``steal``: whether ``step`` is the steal's chance step), ``("play", step, holder, tags,
    hand)`` for cards played or discarded; ``hand``: (tag, ``ever`` mask then) of each tagged
    card the hand held just before); ``views`` (step -> the information-state string of the
    mover there). ``player_moves(kernel, action)`` tells whether a move is a Draw;
    ``kitten_defuse`` the two card types dealt in after the opening (see the caller);
    ``card_move(kernel)`` (giver, taker) when the step now due moves a card between hands.
    """
    kernel = game.new_kernel()
    opening, segments, drawn, events, ever = [], [], {}, [], {}
    for step, action in enumerate(history):
        mover = kernel.current_player()
        chance = mover == tt.CHANCE
        if chance:
            (segments[-1][3] if segments else opening).append(action)
        else:
            segments.append((step, mover, action, []))
        move = card_move(kernel)
        before = [hand[:] for hand in kernel.hands]
        if not chance and player_moves(kernel, action):
            hands = [len(h) for h in kernel.hands]
            kernel.apply(action)
            drawn[step] = _last_drawn(kernel, hands, mover)
        else:
            kernel.apply(tt.Drawn(action, step) if chance else action)
        _record_events(kernel, before, step, move, chance, ever, events)
        _learn(kernel, ever)
    return {
        "opening": opening,
        "segments": segments,
        "drawn": drawn,
        "tagged": kernel,
        "ever": ever,
        "events": events,
        "views": {},
        "history": list(history),
        "kitten_defuse": kitten_defuse,
    }


def _record_events(
    kernel, before: list[list], step: int, move, chance: bool, ever: dict, events: list
) -> None:
    """Append to ``events`` the cards that left a hand at ``step`` (see ``history_context``):
    ``before`` holds the hands before the step, ``move`` the (giver, taker) of a card move."""

    def snapshot(hand):
        return tuple((c.origin, ever.get(c.origin, 0)) for c in hand if isinstance(c, tt.Drawn))

    if move is not None:
        giver, taker = move
        card = kernel.hands[taker][-1]  # the giver's own copy (``_move_card``)
        tag = card.origin if isinstance(card, tt.Drawn) else None  # None: a starting Defuse
        events.append(("move", step, giver, taker, tag, snapshot(before[giver]), chance))
        return
    for q, hand in enumerate(before):
        after = kernel.hands[q]
        if len(after) < len(hand):
            left = {id(c) for c in after}
            gone = tuple(c.origin for c in hand if id(c) not in left and isinstance(c, tt.Drawn))
            if gone:
                events.append(("play", step, q, gone, snapshot(hand)))


def _learn(kernel, ever: dict) -> None:
    """Add to ``ever`` the knowledge masks a step may have widened: the card just put at the
    end of a hand (dealt, drawn, moved) and the deck-top cards (See the Future)."""
    for hand, seen in zip(kernel.hands, kernel.seen):
        if hand and isinstance(hand[-1], tt.Drawn):
            ever[hand[-1].origin] = ever.get(hand[-1].origin, 0) | seen[-1]
    for card, mask in zip(kernel.top, kernel.top_seen):
        if mask and isinstance(card, tt.Drawn):
            ever[card.origin] = ever.get(card.origin, 0) | mask


def _last_drawn(kernel, hands_before: list[int], mover: int) -> int | None:
    """The card a Draw from the fixed top put in ``mover``'s hand, tagged with the step that
    fixed it (None: chance draws it)."""
    if len(kernel.hands[mover]) > hands_before[mover]:
        return kernel.hands[mover][-1]
    return None
