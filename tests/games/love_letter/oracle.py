"""The former pure-Python Love Letter kernel, frozen: an independent oracle for differential tests.

Rules, views, tensors and world sampler exactly as ``lib/infosets/games/love_letter/game.py``'s
``LoveLetterKernel`` held them at commit 02c0326e2b81cb5f086f604c4fc3ab4620a825be, before the port
ran on its numba rules (``infosets.games.love_letter.kernel``) through
``infosets.games.array_kernel``. Do not edit: ``test_love_letter_oracle.py`` plays the live port
against this code, so a change to the rules shows up as a disagreement here.

Game: Love Letter (Seiji Kanai, 2012), as run by Ravichandran, Goodman and Lucas,
"Evaluation of Perfect-Information Monte Carlo Tree Search in Imperfect-Information Games"
(docs/papers/pimcts_aggregation.md); the rules, modelling choices and the world sampler's
algorithm are in the port's module docstring.
"""

from __future__ import annotations

from collections import deque

import numpy as np

from infosets.games import _tabletop as tt

GAME_NAME = "love_letter"

GUARD, PRIEST, BARON, HANDMAID, PRINCE, KING, COUNTESS, PRINCESS = range(8)
NUM_TYPES = 8
CARD_NAMES = ("Guard", "Priest", "Baron", "Handmaid", "Prince", "King", "Countess", "Princess")
DECK_COUNTS = (5, 2, 2, 2, 2, 1, 1, 1)
MAX_PLAYERS = 4
NUM_ACTIONS = NUM_TYPES * MAX_PLAYERS * 8
FACE_UP = -2          # draw-queue marker: a face-up removed card (2 players)
TARGETED = (GUARD, PRIEST, BARON, KING)
# Outcomes written to the public log after a play (``out<p>``: a Baron eliminated p).
LOG_OUTCOMES = ("", "hit", "miss", "tie", "out", "redraw") + tuple(f"out{p}" for p in range(MAX_PLAYERS))
ANY_CARD = (1 << NUM_TYPES) - 1   # ``allow`` mask of a card no public outcome constrains
# Deals a resampler draws before it gives up: never reached (the fewest accepted by the
# record's cases in 2,250 random states x players was 1 deal in 15).
MAX_DEALS = 1 << 24


def encode(card: int, target: int, guess: int = 0) -> int:
    """Action id of playing ``card`` at ``target`` (naming ``guess`` for a Guard)."""
    return (card * MAX_PLAYERS + target) * 8 + guess


def decode(action: int) -> tuple[int, int, int]:
    rest, guess = divmod(action, 8)
    card, target = divmod(rest, MAX_PLAYERS)
    return card, target, guess


# How a play's mover kept a card, in a case of the record (``_Case.plays``): the old card
# (held before the draw) and the drawn one played (KEEP), the old one played (DROP), or
# either (FREE: the old card if its mask allows the kept type).
KEEP, DROP, FREE = 0, 1, 2


class _Case:
    """One case of what a player knows of the cards in hand (module docstring): a type mask
    and a tie label per card (``mask``, ``link``, parallel to the hands; cards with one
    nonzero label are of one type) and, per play of the round, how its mover's kept card
    came (``plays``: (code, the old card's mask))."""

    __slots__ = ("mask", "link", "plays", "ok")

    def __init__(self, n: int):
        self.mask = [[] for _ in range(n)]
        self.link = [[] for _ in range(n)]
        self.plays = []
        self.ok = True

    def copy(self) -> _Case:
        case = _Case(0)
        case.mask = [m[:] for m in self.mask]
        case.link = [m[:] for m in self.link]
        case.plays = self.plays[:]
        case.ok = self.ok
        return case

    def group(self, label: int) -> int:
        """The types the cards of tie group ``label`` may be."""
        bits = ANY_CARD
        for masks, links in zip(self.mask, self.link):
            for m, other in zip(masks, links):
                if other == label:
                    bits &= m
        return bits

    def feasible(self) -> bool:
        return self.ok and all(m and (not label or self.group(label))
                               for masks, links in zip(self.mask, self.link)
                               for m, label in zip(masks, links))

    def fits(self, hands) -> bool:
        """Whether the placement ``hands`` meets every mask and tie of this case."""
        types = {}
        for hand, masks, links in zip(hands, self.mask, self.link):
            for c, m, label in zip(hand, masks, links):
                if not m >> c & 1 or (label and types.setdefault(label, c) != c):
                    return False
        return True

    def pin_group(self, label: int, bits: int):
        """The cards of tie group ``label`` are of the types ``bits`` (the group dissolves)."""
        for masks, links in zip(self.mask, self.link):
            for j, other in enumerate(links):
                if other == label:
                    masks[j] &= bits
                    links[j] = 0

    def reveal(self, q: int, i: int, card: int):
        """``q``'s card ``i`` leaves the hand face up as ``card``: its tie group is of that type."""
        label = self.link[q].pop(i)
        self.ok &= bool(self.mask[q].pop(i) >> card & 1)
        if label:
            self.pin_group(label, 1 << card)

    def keep(self, p: int, card: int) -> list[_Case]:
        """``p`` (not the player) held an old card, drew one and played a ``card``: the cases
        for the card kept. The drawn card is any card; the old one's record is its mask and
        tie group. If the old card cannot be a ``card``, it was kept (KEEP). If it can and is
        in no tie group, the kept card may be either: any type (FREE). If it can and is tied,
        two cases: it was kept (the drawn ``card`` played; KEEP), or it was the ``card``
        played, so its group is of that type and the kept card is the drawn one (DROP)."""
        mask, label = self.mask[p][0], self.link[p][0]
        del self.mask[p][1], self.link[p][1]
        if not label:
            self.plays.append((FREE if mask >> card & 1 else KEEP, mask))
            if mask >> card & 1:
                self.mask[p][0] = ANY_CARD
            return [self]
        if not self.group(label) >> card & 1:
            self.plays.append((KEEP, mask))
            return [self]
        dropped = self.copy()
        dropped.mask[p][0], dropped.link[p][0] = ANY_CARD, 0
        dropped.pin_group(label, 1 << card)
        dropped.plays.append((DROP, mask))
        self.plays.append((KEEP, mask))
        return [self, dropped]

    def effects(self, k: LoveLetterKernel, player: int, p: int, card: int, target: int,
                guess: int, outcome: str, label: int):
        """The public outcome of ``p``'s play (and what ``player`` saw of it) after the kept
        card is settled; ``k`` is the real kernel after the play: its hidden cards are read
        only where ``player`` sees them, its discards (public) where a card is revealed."""
        if card in (KING, PRINCE):       # the Countess must be played beside them
            self.mask[p][0] &= ~(1 << COUNTESS)
        if target == p and card in TARGETED:
            return
        if card == GUARD:
            if outcome == "hit":
                self.reveal(target, 0, guess)
            else:
                self.mask[target][0] &= ~(1 << guess)
        elif card == PRIEST:
            if p == player:
                self.mask[target][0] &= 1 << k.hands[target][0]
        elif card == BARON:
            if outcome == "tie":
                if player in (p, target):
                    self.mask[p][0] &= 1 << k.hands[p][0]
                    self.mask[target][0] &= 1 << k.hands[target][0]
                else:
                    a, b = self.link[p][0], self.link[target][0]
                    for links in self.link:
                        for j, other in enumerate(links):
                            if other and other in (a, b):
                                links[j] = label
                    self.link[p][0] = self.link[target][0] = label
            else:
                loser = int(outcome[3:])
                low = k.discards[loser][-1]
                self.reveal(loser, 0, low)
                winner = target if loser == p else p
                self.mask[winner][0] &= ANY_CARD & ~((2 << low) - 1)   # higher than ``low``
        elif card == KING:
            for field in (self.mask, self.link):
                field[p], field[target] = field[target], field[p]
            if player in (p, target):
                self.mask[p][0] &= 1 << k.hands[p][0]
                self.mask[target][0] &= 1 << k.hands[target][0]
        elif card == PRINCE:
            self.reveal(target, 0, k.discards[target][-1])
        elif card == PRINCESS:
            self.reveal(p, 0, k.discards[p][-1])


class LoveLetterKernel(tt.Kernel):
    """Whole Love Letter state: hands with visibility bitmasks, deck as counts, and the
    round's chance outcomes (``drawn``), from which the sampler rebuilds what each player
    knows (module docstring)."""

    REBUILDS_WORLDS = True   # sampled worlds replay from their history (_tabletop)

    VALUE_FIELDS = ("n", "cur", "after_draw", "done", "tokens_to_win")
    # ``drawn``: the chance outcomes of the current round in order (face-up removed cards and
    # every card drawn into a hand); a world's ``drawn`` is the history that deals it.
    LIST_FIELDS = ("tokens", "pool", "alive", "immune", "face_up", "queue", "log", "drawn")
    NESTED_FIELDS = ("hands", "seen", "discards")   # ``seen``: observer bitmask per hand card
    __slots__ = VALUE_FIELDS + LIST_FIELDS + NESTED_FIELDS

    def __init__(self, n: int, tokens_to_win: int = 1):
        self.n = n
        self.tokens = [0] * n
        self.tokens_to_win = tokens_to_win
        self.done = False
        self.log = []
        self._start_round(0)

    def _start_round(self, first: int):
        n = self.n
        self.pool = list(DECK_COUNTS)
        self.hands = [[] for _ in range(n)]
        self.seen = [[] for _ in range(n)]      # bitmask of observers, parallel to hands
        self.alive = [True] * n
        self.immune = [False] * n
        self.discards = [[] for _ in range(n)]
        self.face_up = []
        self.drawn = []
        self.queue = ([FACE_UP] * 3 if n == 2 else []) + list(range(n)) + [first]
        self.cur = first
        self.after_draw = None                  # player whose turn ends after a Prince draw

    # -- flow ---------------------------------------------------------------------------
    def deck_size(self) -> int:
        return sum(self.pool) - 1

    def is_terminal(self):
        return self.done

    def current_player(self):
        if self.done:
            return tt.TERMINAL
        if self.queue:
            return tt.CHANCE
        return self.cur

    def chance_outcomes(self):
        return tt.count_outcomes(self.pool)

    def _targets(self, p: int) -> list[int]:
        return [q for q in range(self.n) if q != p and self.alive[q] and not self.immune[q]]

    def legal_actions(self):
        if self.done or self.queue:
            return []
        p = self.cur
        hand = self.hands[p]
        cards = sorted(set(hand))
        if COUNTESS in hand and (KING in hand or PRINCE in hand):
            cards = [COUNTESS]
        targets = self._targets(p)
        actions = []
        for c in cards:
            if c == GUARD:
                if targets:
                    actions.extend(encode(c, t, g) for t in targets for g in range(1, NUM_TYPES))
                else:
                    actions.append(encode(c, p))
            elif c in TARGETED:
                actions.extend(encode(c, t) for t in targets) if targets else actions.append(encode(c, p))
            elif c == PRINCE:
                actions.extend(encode(c, t) for t in sorted(targets + [p]))
            else:
                actions.append(encode(c, p))
        actions.sort()
        return actions

    def apply(self, action):
        if self.queue:
            who = self.queue.pop(0)
            self.pool[action] -= 1
            self.drawn.append(action)
            if who == FACE_UP:
                self.face_up.append(action)
            else:
                self.hands[who].append(action)
                self.seen[who].append(1 << who)
            if not self.queue and self.after_draw is not None:
                self.after_draw = None
                self._end_turn()
            return
        self._play(*decode(action))

    def _play(self, card: int, target: int, guess: int):
        p = self.cur
        hand, seen = self.hands[p], self.seen[p]
        i = len(hand) - 1 if hand[-1] == card else hand.index(card)   # the copy played
        hand.pop(i)
        seen.pop(i)
        if hand[0] == card:      # observers cannot tell which copy was kept
            seen[0] = 1 << p
        self.discards[p].append(card)
        self.immune[p] = False
        outcome = ""
        if target == p and card in TARGETED:
            pass  # no valid target: played without effect
        elif card == GUARD:
            if self.hands[target][0] == guess:
                self._eliminate(target)
                outcome = "hit"
            else:
                outcome = "miss"
        elif card == PRIEST:
            self.seen[target][0] |= 1 << p
        elif card == BARON:
            mine, theirs = hand[0], self.hands[target][0]
            if mine == theirs:
                seen[0] |= 1 << target
                self.seen[target][0] |= 1 << p
                outcome = "tie"
            else:
                loser = p if mine < theirs else target
                self._eliminate(loser)
                outcome = f"out{loser}"
        elif card == KING:
            both = (1 << p) | (1 << target)
            self.hands[p], self.hands[target] = self.hands[target], self.hands[p]
            self.seen[p], self.seen[target] = self.seen[target], self.seen[p]
            self.seen[p][0] |= both
            self.seen[target][0] |= both
        elif card == PRINCE:
            dropped = self.hands[target].pop()
            self.seen[target].pop()
            self.discards[target].append(dropped)
            if dropped == PRINCESS:
                self.alive[target] = False
                outcome = "out"
            else:
                self.log.append((p, card, target, guess, "redraw"))
                self.queue.append(target)
                self.after_draw = p
                return
        elif card == HANDMAID:
            self.immune[p] = True
        elif card == PRINCESS:
            self._eliminate(p)
        self.log.append((p, card, target, guess, outcome))
        self._end_turn()

    def _eliminate(self, q: int):
        self.alive[q] = False
        self.discards[q].extend(self.hands[q])
        self.hands[q] = []
        self.seen[q] = []

    def _end_turn(self):
        if sum(self.alive) == 1 or self.deck_size() <= 0:
            self._end_round()
            return
        q = (self.cur + 1) % self.n
        while not self.alive[q]:
            q = (q + 1) % self.n
        self.cur = q
        self.immune[q] = False
        self.queue.append(q)

    def round_winners(self) -> list[int]:
        """Players winning the round now: the last one in, else the highest card (ties:
        the higher sum of discards; remaining ties all win)."""
        keys = [(self.hands[p][0], sum(v + 1 for v in self.discards[p])) if self.alive[p]
                else (-1, -1) for p in range(self.n)]
        shares = tt.win_shares(keys, self.alive)
        return [p for p in range(self.n) if shares[p] > 0]

    def _end_round(self):
        winners = self.round_winners()
        for p in winners:
            self.tokens[p] += 1
        self.log.append((-1, 0, 0, 0, "round:" + ",".join(map(str, winners))))
        if max(self.tokens) >= self.tokens_to_win:
            self.done = True
            return
        self._start_round(winners[0])

    def returns(self):
        if not self.done:
            return [0.0] * self.n
        return tt.win_shares(self.tokens)

    # -- information ---------------------------------------------------------------------
    def _view(self, player: int) -> list[str]:
        bit = 1 << player
        parts = [f"p{player} mover {self.current_player()} deck {self.deck_size()} "
                 f"tokens {self.tokens}",
                 "hand: " + ",".join(CARD_NAMES[c] for c in sorted(self.hands[player])),
                 "face-up removed: " + ",".join(CARD_NAMES[c] for c in self.face_up)]
        for q in range(self.n):
            if q == player:
                continue
            known = [CARD_NAMES[c] for c, s in zip(self.hands[q], self.seen[q]) if s & bit]
            hidden = len(self.hands[q]) - len(known)
            parts.append(f"p{q} {'in' if self.alive[q] else 'out'}"
                         f"{' immune' if self.immune[q] else ''} holds {sorted(known)} +{hidden}?")
        parts.append("discards: " + " | ".join(",".join(CARD_NAMES[c] for c in d)
                                               for d in self.discards))
        return parts

    # Tensor layout: see the module docstring.
    LOG_CODES = NUM_ACTIONS + len(LOG_OUTCOMES) + MAX_PLAYERS

    def tensor_pieces(self, player):
        n, bit = self.n, 1 << player
        known = np.zeros((n, NUM_TYPES), np.float32)
        unknown = np.zeros(n, np.float32)
        discards = np.zeros((n, NUM_TYPES), np.float32)
        for q in range(n):
            for c in self.discards[q]:
                discards[q, c] += 1
            if q == player:
                continue
            for c, s in zip(self.hands[q], self.seen[q]):
                if s & bit:
                    known[q, c] += 1
                else:
                    unknown[q] += 1
        return [("player", tt.one_hot(player, n)),
                ("mover", tt.mover_one_hot(self, n)),
                ("deck", np.asarray([self.deck_size()], np.float32)),
                ("tokens", np.asarray(self.tokens, np.float32)),
                ("hand", np.asarray(tt.list_to_counts(self.hands[player], NUM_TYPES), np.float32)),
                ("face_up", np.asarray(tt.list_to_counts(self.face_up, NUM_TYPES), np.float32)),
                ("alive", np.asarray(self.alive, np.float32)),
                ("immune", np.asarray(self.immune, np.float32)),
                ("known", known),
                ("unknown", unknown),
                ("discards", discards)]

    def log_codes(self):
        codes = []
        for p, c, t, g, o in self.log:
            if p < 0:
                winners = o.split(":", 1)[1].split(",")
                codes += [(-1, NUM_ACTIONS + len(LOG_OUTCOMES) + int(w)) for w in winners]
            else:
                codes += [(p, encode(c, t, g)), (p, NUM_ACTIONS + LOG_OUTCOMES.index(o))]
        return codes

    def _log_text(self):
        return ";".join(o if p < 0 else f"{p}:{CARD_NAMES[c]}>{t}/{g}{o}"
                        for p, c, t, g, o in self.log)

    # -- worlds (module docstring) ---------------------------------------------------------
    def _steps(self, draws):
        """Replay the current round from its start with the chance outcomes ``draws`` and the
        round's plays (this kernel's log). Yields ``(kernel, event)`` after each step: event
        ``("draw", who)`` (``who``: FACE_UP for a face-up card) or ``("play", p, card, target,
        guess, outcome, before)``, ``before`` the mover's hand before the play."""
        if self.done:
            return
        start = len(self.log)
        while start and self.log[start - 1][0] >= 0:
            start -= 1
        k = self.copy()
        k.log = self.log[:start]
        k._start_round(self.log[start][0] if start < len(self.log) else self.cur)
        draws = list(draws)
        while len(k.drawn) < len(self.drawn) or len(k.log) < len(self.log):
            if k.queue:
                if len(k.drawn) == len(draws):
                    raise ValueError("love_letter: the round's draws do not replay its log")
                who = k.queue[0]
                k.apply(draws[len(k.drawn)])
                yield k, ("draw", who)
                continue
            if len(k.log) == len(self.log):
                raise ValueError("love_letter: the round's draws do not replay its log")
            p, card, target, guess, _ = self.log[len(k.log)]
            before = k.hands[p][:]
            k.apply(encode(card, target, guess))
            yield k, ("play", p, card, target, guess, k.log[-1][4], before)

    def _replay(self, draws) -> LoveLetterKernel:
        """This kernel with the current round dealt by ``draws`` instead (``_steps``)."""
        tail = deque(self._steps(draws), maxlen=1)  # only the last step is kept
        return tail[0][0] if tail else self.copy()

    def record(self, player: int) -> tuple[list[_Case], list[tuple]]:
        """What ``player`` knows of the cards in hand: the cases of the public record (one of
        which every consistent placement meets; module docstring) and the round's events
        (``_steps``, for ``witness``). Reads hidden cards only where ``player`` sees them."""
        cases, events = [_Case(self.n)], []
        for k, event in self._steps(self.drawn):
            events.append(event[:-1] if event[0] == "play" else event)
            if event[0] == "draw":
                who = event[1]
                if who != FACE_UP:
                    bits = 1 << k.hands[who][-1] if who == player else ANY_CARD
                    for case in cases:
                        case.mask[who].append(bits)
                        case.link[who].append(0)
                continue
            _, p, card, target, guess, outcome, before = event
            label = len(k.log)   # a new tie label: one per play, so unique
            split = []           # cases split off by a tied card (after the others)
            for case in cases:
                if p == player:      # the player knows which copy they played
                    played = 1 if before[1] == card else 0
                    case.reveal(p, played, card)
                    case.plays.append((KEEP if played else DROP, 0))
                else:
                    split.extend(case.keep(p, card)[1:])
            grown, cases = cases + split, []
            for case in grown:
                case.effects(k, player, p, card, target, guess, outcome, label)
                if case.feasible():
                    cases.append(case)
        return cases, events

    def witness(self, events, case: _Case, hands) -> list[int]:
        """The chance outcomes of a history of the current round that deals ``hands`` (a
        placement meeting ``case``), read backwards from the placement: each play's mover
        held the card kept and the card played, in the order ``case`` says (``KEEP``: the
        kept card was the old one; ``FREE``: the old one if its mask allows the kept type)."""
        hands = [h[:] for h in hands]
        discards = [d[:] for d in self.discards]
        face_up = self.face_up[:]
        plays = len(case.plays)
        draws = []
        for event in reversed(events):
            if event[0] == "draw":
                draws.append(face_up.pop() if event[1] == FACE_UP else hands[event[1]].pop())
                continue
            _, p, card, target, guess, outcome = event
            plays -= 1
            if target == p and card in TARGETED:
                pass
            elif card == KING:
                hands[p], hands[target] = hands[target], hands[p]
            elif card == PRINCE or (card == GUARD and outcome == "hit"):
                hands[target].append(discards[target].pop())
            elif card == BARON and outcome.startswith("out"):
                loser = int(outcome[3:])
                hands[loser].append(discards[loser].pop())
            elif card == PRINCESS:
                hands[p].append(discards[p].pop())
            discards[p].pop()    # the card played
            (kept,) = hands[p]
            code, mask = case.plays[plays]
            hands[p] = [kept, card] if code == KEEP or (code == FREE and mask >> kept & 1) else [card, kept]
        draws.reverse()
        return draws

    def resample(self, player, rng):
        """A world for ``player`` (module docstring, "Worlds"): the cards ``player`` does not
        see dealt uniformly among the placements some case of ``record`` allows (by
        rejection), then the round replayed from the history ``witness`` builds for it."""
        if self.done:
            return self.copy()
        cases, events = self.record(player)
        pool = self.pool[:]
        slots = tt.pool_unseen_cards(self.hands, self.seen, player, pool)
        allowed = [0] * len(slots)
        for case in cases:
            for j, (q, i) in enumerate(slots):
                allowed[j] |= case.mask[q][i]
        hands = [h[:] for h in self.hands]
        for _ in range(MAX_DEALS):
            cards = tt.shuffled_cards(pool, rng)
            if any(not a >> c & 1 for a, c in zip(allowed, cards)):
                continue
            for (q, i), c in zip(slots, cards):
                hands[q][i] = c
            case = next((case for case in cases if case.fits(hands)), None)
            if case is not None:
                break
        else:
            raise RuntimeError("love_letter: no deal fits the public record (MAX_DEALS draws)")
        world = self._replay(self.witness(events, case, hands))
        if world.hands != hands or world.log != self.log:
            raise AssertionError("love_letter: the witness history does not replay the record")
        return world

    def history_context(self, game, history):
        """The steps of ``history`` that are the chance outcomes of its last round."""
        k, steps = game.new_kernel(), []
        for step, action in enumerate(history):
            if k.current_player() == tt.CHANCE:
                if not k.drawn:
                    steps = []
                steps.append(step)
            k.apply(action)
        return steps

    def plan_history(self, game, history, player, context=None):
        """``history`` with the last round's chance outcomes replaced by this world's
        (``drawn``: the witness history ``resample`` dealt it with)."""
        steps = self.history_context(game, history) if context is None else context
        if len(steps) != len(self.drawn):
            return None
        planned = list(history)
        for step, card in zip(steps, self.drawn):
            planned[step] = int(card)
        return planned

    def same_cards(self, other):
        """Same cards in the same places (who has seen them and what the public record says
        of them is bookkeeping of the history: a rebuilt world has its own)."""
        return (self.hands == other.hands and self.pool == other.pool
                and self.face_up == other.face_up and self.discards == other.discards)

    def action_to_string(self, player, action):
        if player == tt.CHANCE:
            return f"draw {CARD_NAMES[action]}"
        card, target, guess = decode(action)
        if card == GUARD and guess:
            return f"Guard p{target} guess {CARD_NAMES[guess]}"
        if card in TARGETED + (PRINCE,):
            return f"{CARD_NAMES[card]} p{target}"
        return CARD_NAMES[card]

    def _state_line(self):
        return (f"mover {self.current_player()} deck {self.deck_size()} pool {self.pool} "
                f"face-up {self.face_up} tokens {self.tokens}")

    def _player_line(self, p):
        return (f"p{p} {'in' if self.alive[p] else 'out'} hand {self.hands[p]} "
                f"seen {self.seen[p]} immune {self.immune[p]} discards {self.discards[p]}")
