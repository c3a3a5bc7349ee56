"""Love Letter (Seiji Kanai, 2012) as an OpenSpiel game, short name ``love_letter``.

One of the games of Ravichandran, Goodman and Lucas, "Evaluation of Perfect-Information
Monte Carlo Tree Search in Imperfect-Information Games"
(docs/papers/pimcts_aggregation.md), who ran TAG's Java version.

Rules (the classic 16-card game, 2-4 players): Guard x5 (1), Priest x2 (2), Baron x2 (3),
Handmaid x2 (4), Prince x2 (5), King (6), Countess (7), Princess (8). One card is removed
face down; with 2 players three more are removed face up. Each player holds one card; on
their turn a player draws a card and plays one of the two:
* Guard: name a non-Guard card; the target is out if they hold it.
* Priest: look at the target's hand.          * Baron: compare hands; the lower is out.
* Handmaid: immune until your next turn.      * Prince: a player (maybe yourself) discards
  their hand and draws again (the removed card when the deck is empty); a discarded
  Princess puts them out.
* King: trade hands with the target.          * Countess: must be played when held with the
  King or a Prince.                           * Princess: playing it puts you out.
Targets are other players still in and not immune; with none, a targeting card is played
without effect (a Prince then targets yourself). The round ends when one player is left or
the deck is empty; the highest card wins, ties go to the higher sum of discards, remaining
ties share the win.

A game is a series of rounds: each round's winners (all tied winners) gain an affection
token and the first winner starts the next round; the game ends when someone holds
``tokens_to_win`` tokens (rule book and TAG: 7, 5, 4 for 2, 3, 4 players), and the players
with the most tokens share the win.

Modelling choices (documented simplifications):
* The face-down removed card is not a separate slot: the deck is a count vector and
  "deck size" is one less than it, so the removed card is simply the last card left.
* A move is one action: (card, target, guess) = ((card * 4) + target) * 8 + guess; an
  untargeted or no-effect play uses target = mover, guess = 0.
* Returns are win shares (see ``_tabletop``).

Hidden information and the determinizer: every card in a hand carries the set of players
who see it (``seen``: Priest, Baron tie, King, the owner). A card is known to an observer
until its owner plays a card of the same type (the observer cannot then tell which was kept).
The information-state string is the player's current knowledge plus the public log of plays.

The public record: each card in hand also carries what public outcomes imply about it
(TAG's sampler ignores them): ``allow``, the types it may be (a missed Guard guess excludes
the named type; a Baron's winner holds a higher card than the loser's, now discarded; a
player who played the King or a Prince does not hold the Countess); ``link``, its Baron tie
group (tied cards are of one type, so when one leaves a hand the others are of its type);
``views``, who would see it were it of type t (the same-type rule depends on the type).
They follow each card as the game moved it (King trades, the copy the owner played).

``resample`` keeps the cards the player has ever seen since they were drawn, deals the
others (unseen hands, the deck and the removed card) uniformly, redrawing until every card
fits its ``allow`` mask and tie group, and gives each dealt card the ``seen`` mask of its
type. These are exactly the placements the registered sampler (``sample_world``: a world
rebuilt from a history that keeps the player's information state at every move) accepts
(checked placement by placement), so its rebuild no longer rejects; the numba kernel's
``nb_determinize`` is the twin. A gap both share: a constraint stays with the copy the real
game kept, though the player cannot tell which copy its owner played. After a missed Guard
guess naming the King at q, q draws and plays a Guard: no world gives q the King, yet q
could have held a Guard, drawn the King and played the old Guard.

Tensors (``_tabletop.Kernel``; rows indexed by seat), the observation tensor in order:
  player (n) one-hot; mover (n + 1): who moves, or chance; deck (1) cards left;
  tokens (n); hand (8) own card counts; face_up (8) face-up removed cards; alive (n);
  immune (n); known (n, 8) the cards of other hands this player has seen;
  unknown (n) how many cards of each other hand this player has not seen;
  discards (n, 8) card counts of each discard pile.
public_log codes: each play (its action id), then its outcome (``LOG_OUTCOMES``); a
round's end gives one entry of no player per winner.
The information-state tensor appends ``public_log`` (n + 1, LOG_CODES) where the game has
a public log (``_tabletop.TabletopObserver``).
"""

from __future__ import annotations

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
# Deals a resampler draws before it gives up: never reached (the fewest accepted in 27,000
# random states x players, 2026-11-29, was 1 deal in 100).
MAX_DEALS = 1 << 24


def encode(card: int, target: int, guess: int = 0) -> int:
    """Action id of playing ``card`` at ``target`` (naming ``guess`` for a Guard)."""
    return (card * MAX_PLAYERS + target) * 8 + guess


def decode(action: int) -> tuple[int, int, int]:
    rest, guess = divmod(action, 8)
    card, target = divmod(rest, MAX_PLAYERS)
    return card, target, guess


class LoveLetterKernel(tt.Kernel):
    """Whole Love Letter state: hands with visibility bitmasks, deck as counts."""

    REBUILDS_WORLDS = True   # sampled worlds replay from their history (_tabletop)

    VALUE_FIELDS = ("n", "cur", "after_draw", "done", "tokens_to_win")
    LIST_FIELDS = ("tokens", "pool", "alive", "immune", "face_up", "queue", "log")
    # Parallel to ``hands``: ``seen`` (observer bitmask), ``allow`` (bitmask of the card types
    # the public outcomes leave possible), ``link`` (tie group: cards with one nonzero label
    # are of one type) and ``views`` (a tuple per card: the observer bitmask ``seen`` would
    # be were the card of type t). See "the public record" in the module docstring.
    NESTED_FIELDS = ("hands", "seen", "allow", "link", "views", "discards")
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
        self.allow = [[] for _ in range(n)]
        self.link = [[] for _ in range(n)]
        self.views = [[] for _ in range(n)]
        self.alive = [True] * n
        self.immune = [False] * n
        self.discards = [[] for _ in range(n)]
        self.face_up = []
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

    def _draw(self, player: int, card: int):
        self.pool[card] -= 1
        self.hands[player].append(card)
        self.seen[player].append(1 << player)
        self.allow[player].append(ANY_CARD)
        self.link[player].append(0)
        self.views[player].append((1 << player,) * NUM_TYPES)

    def _pop_card(self, q: int, i: int) -> int:
        """Take card ``i`` out of ``q``'s hand (to a discard pile): its type is public now,
        so every card tied to it (``link``) is of that type."""
        card = self.hands[q].pop(i)
        self.seen[q].pop(i)
        self.allow[q].pop(i)
        self.views[q].pop(i)
        label = self.link[q].pop(i)
        if label:
            for allow, link in zip(self.allow, self.link):
                for j, other in enumerate(link):
                    if other == label:
                        allow[j] &= 1 << card
        return card

    def _observe(self, q: int, bits: int):
        """``bits`` see ``q``'s (only) card."""
        self.seen[q][0] |= bits
        self.views[q][0] = tuple(v | bits for v in self.views[q][0])

    def _tie(self, p: int, q: int):
        """A Baron tie: ``p``'s and ``q``'s cards are of one type (one tie group)."""
        a, b = self.link[p][0], self.link[q][0]
        label = a or b or len(self.log) + 1     # a new label: unique (one log entry per play)
        for link in self.link:
            for j, other in enumerate(link):
                if other and other in (a, b):
                    link[j] = label
        self.link[p][0] = self.link[q][0] = label

    def apply(self, action):
        if self.queue:
            who = self.queue.pop(0)
            if who == FACE_UP:
                self.pool[action] -= 1
                self.face_up.append(action)
            else:
                self._draw(who, action)
            if not self.queue and self.after_draw is not None:
                self.after_draw = None
                self._end_turn()
            return
        self._play(*decode(action))

    def _play(self, card: int, target: int, guess: int):
        p = self.cur
        hand, seen = self.hands[p], self.seen[p]
        self._pop_card(p, len(hand) - 1 if hand[-1] == card else hand.index(card))
        if hand[0] == card:      # observers cannot tell which copy was kept
            seen[0] = 1 << p
        views = self.views[p][0]
        self.views[p][0] = views[:card] + (1 << p,) + views[card + 1:]
        if card == KING or card == PRINCE:      # legal only without the Countess
            self.allow[p][0] &= ~(1 << COUNTESS)
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
                self.allow[target][0] &= ~(1 << guess)
                outcome = "miss"
        elif card == PRIEST:
            self._observe(target, 1 << p)
        elif card == BARON:
            mine, theirs = hand[0], self.hands[target][0]
            if mine == theirs:
                self._observe(p, 1 << target)
                self._observe(target, 1 << p)
                self._tie(p, target)
                outcome = "tie"
            else:
                loser, winner = (p, target) if mine < theirs else (target, p)
                low = min(mine, theirs)
                self._eliminate(loser)
                self.allow[winner][0] &= ANY_CARD & ~((2 << low) - 1)   # higher than ``low``
                outcome = f"out{loser}"
        elif card == KING:
            for name in ("hands", "seen", "allow", "link", "views"):
                field = getattr(self, name)
                field[p], field[target] = field[target], field[p]
            both = (1 << p) | (1 << target)
            self._observe(p, both)
            self._observe(target, both)
        elif card == PRINCE:
            dropped = self._pop_card(target, len(self.hands[target]) - 1)
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
        while self.hands[q]:
            self.discards[q].append(self._pop_card(q, 0))

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

    def ever_seen(self, q: int, i: int) -> int:
        """Bitmask of the players who have seen ``q``'s card ``i`` since it was drawn: ``seen``
        forgets a look when the owner plays a card of the card's type, ``views[t]`` when the
        owner plays a t, and ``views[PRINCESS]`` never (playing the Princess puts one out)."""
        bits = 0
        for v in self.views[q][i]:
            bits |= v
        return bits

    def consistent(self) -> bool:
        """Whether every card in hand is of a type its public record allows and the cards of
        each tie group are of one type."""
        types = {}
        for hand, allow, link in zip(self.hands, self.allow, self.link):
            for c, a, label in zip(hand, allow, link):
                if not a >> c & 1 or (label and types.setdefault(label, c) != c):
                    return False
        return True

    def resample(self, player, rng):
        """Keep the cards ``player`` has ever seen; deal the others uniformly among the deals
        the public record allows (``consistent``, by rejection), with the ``seen`` masks
        those cards would have (``views``)."""
        k = self.copy()
        bit = 1 << player
        pool = k.pool[:]
        slots = [(q, i) for q in range(k.n) for i in range(len(k.hands[q]))
                 if not k.ever_seen(q, i) & bit]
        for q, i in slots:
            pool[k.hands[q][i]] += 1
        for _ in range(MAX_DEALS):
            cards = tt.shuffled_cards(pool, rng)
            for (q, i), c in zip(slots, cards):
                k.hands[q][i] = c
            if k.consistent():
                break
        else:
            raise RuntimeError("love_letter: no deal fits the public record (MAX_DEALS draws)")
        for q, i in slots:
            k.seen[q][i] = k.views[q][i][k.hands[q][i]]
        k.pool = tt.list_to_counts(cards[len(slots):], NUM_TYPES)
        return k

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


_DEFAULT_PLAYERS = 3
TOKENS_BY_PLAYERS = {2: 7, 3: 5, 4: 4}   # affection tokens to win, from the rule book
GAME_TYPE = tt.make_game_type(GAME_NAME, "Love Letter", 2, MAX_PLAYERS,
                              {"players": _DEFAULT_PLAYERS, "tokens_to_win": 0})


class LoveLetterGame(tt.TabletopGame):
    """Love Letter with 2-4 players (``players``, default 3).

    ``tokens_to_win`` (0-10): rounds are played until someone holds that many affection
    tokens; 0 (default) takes the rule book's 7/5/4 for 2/3/4 players; 1 is a single round.
    """

    def __init__(self, params=None):
        params = dict(params or {})
        n = tt.players_param(params, GAME_TYPE)
        tokens = tt.int_param(params, "tokens_to_win", 0, 0, 10) or TOKENS_BY_PLAYERS[n]
        super().__init__(GAME_TYPE, params, num_players=n, num_distinct_actions=NUM_ACTIONS,
                         max_chance_outcomes=NUM_TYPES,
                         max_game_length=3 * sum(DECK_COUNTS) * (n * (tokens - 1) + 1))
        self.tokens_to_win = tokens

    def new_kernel(self):
        return LoveLetterKernel(self.players, self.tokens_to_win)


sample_world = tt.sample_world  # a world keeping ``player``'s information state


tt.register(GAME_TYPE, LoveLetterGame)
