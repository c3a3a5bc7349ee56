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

The rules are written once, in numba, in ``kernel.py`` (both engines run them); this module
holds what is not rules: the registration, the string views and tensors (reading the
kernel's state array), the public log and the world sampler.

Hidden information: every card in a hand carries the set of players who see it (``seen``:
Priest, Baron tie, King, the owner). A card is known to an observer until its owner plays a
card of the same type (the observer cannot then tell which was kept). The information-state
string is the player's current knowledge plus the public log of plays; the kernel also keeps
the round's chance outcomes (``drawn``), from which the sampler rebuilds what a player knows.

Worlds (``resample``, and the compiled engine's ``kernel.nb_determinize``: one algorithm, the
kernel's ``_record`` and ``_witness``, drawn from a Python rng here and a PCG32 stream there).
For the sampling player i, the cards in hand i does not see are dealt again, uniformly (each
physical card alike) among the placements consistent with what i knows; the cards i sees
stay. What i knows of the cards in hand is rebuilt by replaying the round (``record``) from the
public log, i's own cards and what i saw, never from a card i did not see, so a world depends
only on i's information state (i's views, move by move). Per hand card, i's knowledge is a type
mask and a tie group, moved with the card by a King trade:
* allow (mask): a card i holds or sees (Priest, Baron tie or King with i) is of its type; a
  missed Guard guess excludes the named type; a Baron's winner holds a higher card than the
  loser's (now face up); the card kept beside a King or a Prince played is not the Countess.
* the card kept after a play: its owner held an old card X, drew Y (any card) and played a
  T. Unless T is i's own play (i knows which copy it played), i cannot tell which was kept.
  If X's mask excludes T, X was kept: it keeps its mask and tie group. If X may be a T and is
  in no tie group, the kept card may be X (X's mask) or Y (anything): its mask is every type.
  This is the same rule as ``seen``: a card is known until a card of its type is played.
* link (Baron tie group): a tie i takes part in pins both cards (i sees the other); a tie
  between two others links their cards (one type). A card leaving a hand face up (Prince,
  elimination) pins its group to its type. After a tied card's owner plays a T the group may
  be, two cases: X was kept (it stays in the group) or X was the T played (the group is of
  type T and the kept card is Y, any type). Each case is a conjunction of masks and groups;
  ``record`` keeps the list of cases (rows of masks, tie labels and play codes), and a
  placement is consistent when it meets one. (Few: a case splits only when a tied card may have
  been dropped, and the group then dissolves in the new case; two Barons give at most two ties
  a round, so a case drops at most two groups, at two of the at most 14 plays after the first
  tie: at most 1 + 14 + 91 = 106 cases. Measured: at most 5 in 2,250 random states x players.)
* views (who else sees each card): not a mask of its own. A world is the round replayed
  from a history dealing it (``witness``: read backwards from the placement, each kept card
  is the old one whenever the case allows, so others keep what they saw when they can), so
  its ``seen`` masks are that history's and ``sample_world`` rebuilds it exactly
  (``plan_history``: the real history with the round's chance outcomes replaced).
This is exact: every placement meeting a case is dealt by a history keeping i's information
state at every move, and conversely (tests: tests/games/love_letter/). The law is the standard
uniform determinization over placements, not the posterior over histories (which would
weight each placement by the ways its cards could have been drawn and played).

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

from functools import cache

import numpy as np

from infosets.games import _tabletop as tt
from infosets.games.array_kernel import ArrayKernel
from infosets.games.love_letter import kernel as lk
from infosets.games.love_letter.kernel import (  # noqa: F401  (the cards and ids, named from here too)
    ANY_CARD,
    BARON,
    CARD_NAMES,
    COUNTESS,
    DECK_COUNTS_LIST,
    GUARD,
    HANDMAID,
    KING,
    LOG_OUTCOMES,
    MAX_DEALS,
    MAX_PLAYERS,
    NUM_ACTIONS,
    NUM_TYPES,
    PRIEST,
    PRINCE,
    PRINCESS,
    TARGETED,
    decode,
    encode,
)

GAME_NAME = "love_letter"
DECK_COUNTS = DECK_COUNTS_LIST
FACE_UP = lk.FACE_UP_MARK  # draw-queue mark: a face-up removed card (2 players)


@cache  # a game has few distinct entries; the views read the log at every move
def _log_tuple(code: int) -> tuple:
    """A log entry of the array as (mover, card, target, guess, outcome); a round's end is
    (-1, 0, 0, 0, "round:<winners>")."""
    if code < 0:
        return (-1, 0, 0, 0, "round:" + ",".join(str(p) for p in range(MAX_PLAYERS) if -code >> p & 1))
    rest, outcome = divmod(code, 16)
    p, action = divmod(rest, NUM_ACTIONS)
    return (p, *decode(action), LOG_OUTCOMES[outcome])


class LoveLetterKernel(ArrayKernel):
    """A Love Letter state: the kernel's array (``self.s``), played by its jitted rules."""

    __slots__ = ()
    RULES = lk
    NUM_ACTIONS = NUM_ACTIONS
    MAX_PLAYERS = MAX_PLAYERS
    REBUILDS_WORLDS = True  # sampled worlds replay from their history (_tabletop)

    def __init__(self, n: int, tokens_to_win: int = 1):
        super().__init__(lk.new_state(n, tokens_to_win))

    # -- the array's fields, read-only (as Python values) --------------------------------
    def fields(self) -> Fields:
        """Every field of the state, read from the array at once (what the views read)."""
        return Fields(self.s)

    n = property(lambda self: int(self.s[lk.N]))
    cur = property(lambda self: int(self.s[lk.CUR]))
    done = property(lambda self: bool(self.s[lk.DONE]))
    tokens_to_win = property(lambda self: int(self.s[lk.TOKENS_TO_WIN]))
    after_draw = property(lambda self: self.fields().after_draw)
    tokens = property(lambda self: self.fields().tokens)
    pool = property(lambda self: self.s[lk.POOL : lk.POOL + NUM_TYPES].tolist())
    alive = property(lambda self: self.fields().alive)
    immune = property(lambda self: self.fields().immune)
    face_up = property(lambda self: self.fields().face_up)
    queue = property(lambda self: self.fields().queue)
    drawn = property(lambda self: self.fields().drawn)
    hands = property(lambda self: self.fields().hands)
    seen = property(lambda self: self.fields().seen)
    discards = property(lambda self: self.fields().discards)
    log = property(lambda self: self.fields().log, doc="The public log, one tuple per entry.")

    def deck_size(self) -> int:
        return int(self.s[lk.POOL : lk.POOL + NUM_TYPES].sum()) - 1

    def chance_possible(self, action):
        return 0 <= action < NUM_TYPES and self.s[lk.POOL + action] > 0

    # -- information -----------------------------------------------------------------------
    def information_state_string(self, player: int) -> str:
        f = self.fields()  # read once for the view and the log
        return "\n".join(self._view(player, f) + [f"{self.LOG_LABEL}: {_log_text(f.log_codes())}"])

    def _view(self, player: int, f: Fields | None = None) -> list[str]:
        f = self.fields() if f is None else f
        bit = 1 << player
        parts = [
            f"p{player} mover {self.current_player()} deck {f.deck_size()} tokens {f.tokens}",
            "hand: " + ",".join(CARD_NAMES[c] for c in sorted(f.hands[player])),
            "face-up removed: " + ",".join(CARD_NAMES[c] for c in f.face_up),
        ]
        for q in range(f.n):
            if q == player:
                continue
            known = [CARD_NAMES[c] for c, s in zip(f.hands[q], f.seen[q]) if s & bit]
            hidden = len(f.hands[q]) - len(known)
            parts.append(
                f"p{q} {'in' if f.alive[q] else 'out'}"
                f"{' immune' if f.immune[q] else ''} holds {sorted(known)} +{hidden}?"
            )
        parts.append("discards: " + " | ".join(",".join(CARD_NAMES[c] for c in d) for d in f.discards))
        return parts

    # Tensor layout: see the module docstring.
    LOG_CODES = NUM_ACTIONS + len(LOG_OUTCOMES) + MAX_PLAYERS

    def tensor_pieces(self, player):
        f = self.fields()
        n, bit = f.n, 1 << player
        known = np.zeros((n, NUM_TYPES), np.float32)
        unknown = np.zeros(n, np.float32)
        discards = np.zeros((n, NUM_TYPES), np.float32)
        for q in range(n):
            for c in f.discards[q]:
                discards[q, c] += 1
            if q == player:
                continue
            for c, s in zip(f.hands[q], f.seen[q]):
                if s & bit:
                    known[q, c] += 1
                else:
                    unknown[q] += 1
        return [
            ("player", tt.one_hot(player, n)),
            ("mover", tt.mover_one_hot(self, n)),
            ("deck", np.asarray([f.deck_size()], np.float32)),
            ("tokens", np.asarray(f.tokens, np.float32)),
            ("hand", np.asarray(tt.list_to_counts(f.hands[player], NUM_TYPES), np.float32)),
            ("face_up", np.asarray(tt.list_to_counts(f.face_up, NUM_TYPES), np.float32)),
            ("alive", np.asarray(f.alive, np.float32)),
            ("immune", np.asarray(f.immune, np.float32)),
            ("known", known),
            ("unknown", unknown),
            ("discards", discards),
        ]

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
        return _log_text(self.fields().log_codes())

    # -- worlds (module docstring) ---------------------------------------------------------
    def _replay(self, draws) -> LoveLetterKernel:
        """This kernel with the current round dealt by ``draws`` instead: the round replayed
        from its start with those chance outcomes and the round's plays (the log's)."""
        s = self.s
        t = s.copy()
        start = _round_start(s)
        t[lk.LOG_LEN] = start
        lk._rehash_log(t)
        lk._start_round(t, int(s[lk.CUR]) if start == s[lk.LOG_LEN] else _mover(s[lk.LOG + start]))
        while t[lk.DRAW_LEN] < s[lk.DRAW_LEN] or t[lk.LOG_LEN] < s[lk.LOG_LEN]:
            if t[lk.QUEUE_LEN] > 0:
                if t[lk.DRAW_LEN] >= len(draws):
                    raise ValueError("love_letter: the round's draws do not replay its log")
                lk.nb_apply_action(t, int(draws[t[lk.DRAW_LEN]]))
            elif t[lk.LOG_LEN] < s[lk.LOG_LEN]:
                lk.nb_apply_action(t, int(s[lk.LOG + t[lk.LOG_LEN]] // 16 % NUM_ACTIONS))
            else:
                raise ValueError("love_letter: the round's draws do not replay its log")
        return self.wrap(t)

    def resample(self, player, rng):
        """A world for ``player`` (module docstring, "Worlds"): the cards ``player`` does not
        see dealt uniformly among the placements some case of the record allows (by
        rejection: the unseen cards and the pool shuffled together by ``tt.shuffled_cards``,
        the first ones dealt into the unseen slots in order), then the round replayed from
        the history the kernel's ``_witness`` builds for it."""
        if self.s[lk.DONE]:
            return self.copy()
        s, f = self.s, self.fields()
        rec = record(s, player)
        pool = f.pool[:]
        slots = tt.pool_unseen_cards(f.hands, f.seen, player, pool)
        allowed = [int(np.bitwise_or.reduce(rec.masks[:, 2 * q + i])) for q, i in slots]
        hands = s[lk.HANDS : lk.HANDS + 2 * MAX_PLAYERS].copy()
        for _ in range(MAX_DEALS):
            cards = tt.shuffled_cards(pool, rng)
            if any(not a >> c & 1 for a, c in zip(allowed, cards)):
                continue
            for (q, i), c in zip(slots, cards):
                hands[2 * q + i] = c
            case = rec.first_fit(s, hands)
            if case is not None:
                break
        else:
            raise RuntimeError("love_letter: no deal fits the public record (MAX_DEALS draws)")
        world = self._replay(rec.witness(s, case, hands))
        w = world.fields()
        placed = [hands[2 * q : 2 * q + len(h)].tolist() for q, h in enumerate(f.hands)]
        if w.hands != placed or world.log != f.log:
            raise AssertionError("love_letter: the witness history does not replay the record")
        return world

    def history_context(self, game, history):
        """The steps of ``history`` that are the chance outcomes of its last round."""
        k, steps = game.new_kernel(), []
        for step, action in enumerate(history):
            if k.current_player() == tt.CHANCE:
                if not k.s[lk.DRAW_LEN]:
                    steps = []
                steps.append(step)
            k.apply(action)
        return steps

    def plan_history(self, game, history, player, context=None):
        """``history`` with the last round's chance outcomes replaced by this world's
        (``drawn``: the witness history ``resample`` dealt it with)."""
        steps = self.history_context(game, history) if context is None else context
        drawn = self.drawn
        if len(steps) != len(drawn):
            return None
        planned = list(history)
        for step, card in zip(steps, drawn):
            planned[step] = int(card)
        return planned

    def same_cards(self, other):
        """Same cards in the same places (who has seen them and what the public record says
        of them is bookkeeping of the history: a rebuilt world has its own)."""
        a, b = self.fields(), other.fields()
        return a.hands == b.hands and a.pool == b.pool and a.face_up == b.face_up and a.discards == b.discards

    def action_to_string(self, player, action):
        if player == tt.CHANCE:
            return f"draw {CARD_NAMES[action]}"
        card, target, guess = decode(action)
        if card == GUARD and guess:
            return f"Guard p{target} guess {CARD_NAMES[guess]}"
        if card in TARGETED + (PRINCE,):
            return f"{CARD_NAMES[card]} p{target}"
        return CARD_NAMES[card]

    def __str__(self):
        f = self.fields()
        lines = [
            f"mover {self.current_player()} deck {f.deck_size()} pool {f.pool} "
            f"face-up {f.face_up} tokens {f.tokens}"
        ]
        lines += [
            f"p{p} {'in' if f.alive[p] else 'out'} hand {f.hands[p]} "
            f"seen {f.seen[p]} immune {f.immune[p]} discards {f.discards[p]}"
            for p in range(f.n)
        ]
        return "\n".join(lines)


class Fields:
    """The fields of a state array as Python values, read at once (``LoveLetterKernel.fields``),
    by the lengths the array keeps (slots past them are stale): n, cur, after_draw (None:
    no Prince draw pending), done, tokens_to_win, tokens, pool (8 counts), alive, immune,
    face_up, queue, drawn (the round's chance outcomes), hands, seen (observer bitmask per
    hand card), discards (in order), and log (one tuple per entry, ``_log_tuple``)."""

    __slots__ = (
        "n",
        "cur",
        "after_draw",
        "done",
        "tokens_to_win",
        "tokens",
        "pool",
        "alive",
        "immune",
        "face_up",
        "queue",
        "drawn",
        "hands",
        "seen",
        "discards",
        "_log_codes",
    )

    def __init__(self, s: np.ndarray):
        v = s[: lk.LOG].tolist()
        n = self.n = v[lk.N]
        self.cur, self.done, self.tokens_to_win = v[lk.CUR], bool(v[lk.DONE]), v[lk.TOKENS_TO_WIN]
        self.after_draw = None if v[lk.AFTER_DRAW] < 0 else v[lk.AFTER_DRAW]
        self.tokens = v[lk.TOKENS : lk.TOKENS + n]
        self.pool = v[lk.POOL : lk.POOL + NUM_TYPES]
        self.alive = [bool(x) for x in v[lk.ALIVE : lk.ALIVE + n]]
        self.immune = [bool(x) for x in v[lk.IMMUNE : lk.IMMUNE + n]]
        self.face_up = v[lk.FACE_UP : lk.FACE_UP + v[lk.FACE_UP_LEN]]
        self.queue = v[lk.QUEUE : lk.QUEUE + v[lk.QUEUE_LEN]]
        self.drawn = v[lk.DRAWN : lk.DRAWN + v[lk.DRAW_LEN]]
        lengths = v[lk.HAND_LEN : lk.HAND_LEN + n]
        self.hands = [v[lk.HANDS + 2 * p : lk.HANDS + 2 * p + lengths[p]] for p in range(n)]
        self.seen = [v[lk.SEEN + 2 * p : lk.SEEN + 2 * p + lengths[p]] for p in range(n)]
        self.discards = [
            v[lk.DISCARDS + lk.MAX_DISCARDS * p : lk.DISCARDS + lk.MAX_DISCARDS * p + v[lk.DISC_LEN + p]]
            for p in range(n)
        ]
        self._log_codes = s[lk.LOG : lk.LOG + v[lk.LOG_LEN]]

    @property
    def log(self) -> list[tuple]:
        """The public log, one tuple per entry (read when asked)."""
        return [_log_tuple(code) for code in self._log_codes.tolist()]

    def log_codes(self) -> list[int]:
        """The public log as the array codes it (``kernel``'s module docstring)."""
        return self._log_codes.tolist()

    def deck_size(self) -> int:
        return sum(self.pool) - 1


def _log_text(codes) -> str:
    """The public log's text, entries joined by ``;`` (``codes``: the array's log codes)."""
    return ";".join([_entry_text(code) for code in codes])


@cache
def _entry_text(code: int) -> str:
    p, c, t, g, o = _log_tuple(code)
    return o if p < 0 else f"{p}:{CARD_NAMES[c]}>{t}/{g}{o}"


def _mover(code) -> int:
    return int(code) // 16 // NUM_ACTIONS


def _round_start(s: np.ndarray) -> int:
    """The log index of the current round's first entry."""
    start = int(s[lk.LOG_LEN])
    while start > 0 and s[lk.LOG + start - 1] >= 0:
        start -= 1
    return start


class Record:
    """What a player knows of the cards in hand (module docstring, "Worlds"), as the kernel's
    ``_record`` fills it: per case, a type mask per hand slot (``masks``, slot ``2 q + i``),
    a tie label per slot (``links``) and a code per play of the round (``plays``: KEEP,
    DROP or FREE in the low two bits, the old card's mask above); ``events`` the round's
    draws and plays (``kernel.DRAW_EVENT``), ``start`` the round's first log index."""

    __slots__ = ("masks", "links", "plays", "events", "start")

    def __init__(self, s: np.ndarray, player: int):
        cap = lk.CASE_CAP
        cm, cl = np.zeros((cap, 2 * MAX_PLAYERS), np.int64), np.zeros((cap, 2 * MAX_PLAYERS), np.int64)
        cp = np.zeros((cap, lk.PLAY_CAP), np.int64)
        events, hl = np.zeros(lk.EVENT_CAP, np.int64), np.zeros(MAX_PLAYERS, np.int64)
        scratch = np.zeros(lk.SCRATCH, np.int64)
        nc, ne, self.start = lk._record(s, scratch, player, cm, cl, cp, events, hl, np.zeros(cap, np.int64))
        self.masks, self.links, self.plays = cm[:nc], cl[:nc], cp[:nc]
        self.events = events[:ne]

    def fits(self, s: np.ndarray, case: int, hands: np.ndarray) -> bool:
        """Whether the placement ``hands`` (slot ``2 q + i``) meets case ``case``."""
        return bool(lk._fits_case(self.masks, self.links, case, hands, s, int(s[lk.N])))

    def first_fit(self, s: np.ndarray, hands: np.ndarray) -> int | None:
        """The first case the placement ``hands`` meets, None if none does."""
        return next((c for c in range(len(self.masks)) if self.fits(s, c, hands)), None)

    def witness(self, s: np.ndarray, case: int, hands: np.ndarray) -> list[int]:
        """The chance outcomes of a history of the round dealing ``hands`` (kernel ``_witness``,
        read backwards by case ``case``'s play codes)."""
        draws = np.zeros(lk.MAX_DRAWN, np.int64)
        work = [np.zeros(2 * MAX_PLAYERS, np.int64) for _ in range(4)]
        lengths = [np.zeros(MAX_PLAYERS, np.int64) for _ in range(2)]
        plays = np.ascontiguousarray(self.plays)
        lk._witness(s, self.start, self.events, len(self.events), plays, case, hands, draws, *work, *lengths)
        return draws[: s[lk.DRAW_LEN]].tolist()


def record(s: np.ndarray, player: int) -> Record:
    """``player``'s record of the round of state array ``s`` (``Record``)."""
    return Record(s, player)


_DEFAULT_PLAYERS = 3
TOKENS_BY_PLAYERS = {2: 7, 3: 5, 4: 4}  # affection tokens to win, from the rule book
GAME_TYPE = tt.make_game_type(
    GAME_NAME, "Love Letter", 2, MAX_PLAYERS, {"players": _DEFAULT_PLAYERS, "tokens_to_win": 0}
)


class LoveLetterGame(tt.TabletopGame):
    """Love Letter with 2-4 players (``players``, default 3).

    ``tokens_to_win`` (0-10): rounds are played until someone holds that many affection
    tokens; 0 (default) takes the rule book's 7/5/4 for 2/3/4 players; 1 is a single round.
    """

    def __init__(self, params=None):
        params = dict(params or {})
        n = tt.players_param(params, GAME_TYPE)
        tokens = tt.int_param(params, "tokens_to_win", 0, 0, 10) or TOKENS_BY_PLAYERS[n]
        super().__init__(
            GAME_TYPE,
            params,
            num_players=n,
            num_distinct_actions=NUM_ACTIONS,
            max_chance_outcomes=NUM_TYPES,
            max_game_length=3 * sum(DECK_COUNTS) * (n * (tokens - 1) + 1),
        )
        self.tokens_to_win = tokens

    def new_kernel(self):
        return LoveLetterKernel(self.players, self.tokens_to_win)


sample_world = tt.sample_world  # a world keeping ``player``'s information state


tt.register(GAME_TYPE, LoveLetterGame)
