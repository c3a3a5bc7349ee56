"""Exploding Kittens (Lee, Inman, Small, 2015) as an OpenSpiel game, short name ``exploding_kittens``.

One of the games of Ravichandran, Goodman and Lucas, "Evaluation of Perfect-Information
Monte Carlo Tree Search in Imperfect-Information Games"
(docs/papers/pimcts_aggregation.md), who ran TAG's Java version (deck sizes follow its parameters).

Rules (2-5 players): the base deck without kittens and defuses (Attack x4, Skip x4,
Favor x4, Shuffle x4, See the Future x5, Nope x5, five cat kinds x4) is shuffled and each
player is dealt 7 cards plus one Defuse; then players - 1 Exploding Kittens and the other
6 - players Defuses are shuffled into the deck. On a turn a player plays any number of
cards, then ends the turn by drawing. Any action card can be cancelled by a Nope, and a
Nope by another Nope. Attack: end the turn without drawing; the next player takes two
turns. Skip: end one turn without drawing. Favor: a player of your choice gives you a card
of their choice. Shuffle: shuffle the deck. See the Future: look at the top three cards.
Two cats of a kind: steal a random card from a player. Drawing a kitten without a Defuse
puts you out; with one, you discard the Defuse and put the kitten back in the deck at a
position of your choice, in secret. The last player left wins.

Modelling choices (documented simplifications):
* Nope windows are sequential: after an action card (or a Nope) every other player still
  in, in turn order, answers Nope or Pass (a player without a Nope can only pass, so the
  window reveals nothing); a Nope opens a new window for everyone but its player. An odd
  number of Nopes cancels the card.
* Only pairs of cats (no three-of-a-kind or five-different combos); Attack does not stack
  (the attacked player always owes two turns).
* The deck is a list of cards with fixed positions on top (cards someone has seen, or that
  a kitten was placed beneath) above an unordered remainder kept as a count vector; drawing
  from the remainder, stealing, and fixing positions are chance nodes. Shuffle returns
  every fixed card to the remainder, which is exactly a uniform shuffle.
* Returns are win shares (see ``_tabletop``).

The rules are written once, in numba, in ``kernel.py`` (both engines run them, with the game's
constants); this module holds what is not rules: the registration, the string views and
tensors (reading the kernel's state array), the public log and the world samplers.

Hidden information and the determinizer: every card in a hand or on the deck top carries
the set of players who know it. Knowledge is dropped where an observer could no longer tell
the cards apart (a public play of a type the observer knew, a favor or steal seen by
others, a kitten placed by someone else). ``resample`` keeps all cards the player knows and
deals the rest uniformly among the slots the player does not know, except that kittens only
go to the deck (no hand ever holds one); it keeps the real history's shape (the deck-top
length), and is what the kernel's ``nb_determinize`` mirrors. The pyspiel
determinizer (``sample_world``, ``resample_from_infostate``) samples whole histories instead
(``worlds.py``): where another player put a kitten back is redrawn, which
changes how many later draws are chance steps, and a world's ``history()`` rebuilds it. Each
player's starting Defuse is public knowledge.

Tensors (``_tabletop.Kernel``; rows indexed by seat), the observation tensor in order:
  player (n) one-hot; mover (n + 1): who moves, or chance; phase (9) one-hot;
  turns (1) turns left to play; pending (NUM_ACTIONS) the play waiting in a Nope window;
  nopes (1) Nopes played on it; hand (13) own card counts; alive (n); hand_sizes (n);
  known (n, 13) cards of other hands this player knows; deck (1) cards left;
  top (MAX_DECK, 13) one-hot of each deck-top card this player knows, by depth.
  discards (13).
public_log codes: the index of each entry's event in ``LOG_EVENTS``.
The information-state tensor appends ``public_log`` (n + 1, LOG_CODES) where the game has
a public log (``_tabletop.TabletopObserver``).
"""

from __future__ import annotations

import numpy as np

from infosets.games import _tabletop as tt
from infosets.games.array_kernel import ArrayKernel
from infosets.games.exploding_kittens import kernel as ekk
from infosets.games.exploding_kittens import worlds
from infosets.games.exploding_kittens.kernel import (  # noqa: F401  (the game's constants, for its users)
    ATTACK,
    BASE_COUNTS,
    CARD_NAMES,
    CAT_BASE,
    CATS,
    DEAL,
    DEFUSE,
    DRAW,
    DRAW_CHANCE,
    FAVOR,
    FAVOR_BASE,
    FILL,
    FUTURE,
    FUTURE_DEPTH,
    GIVE,
    GIVE_BASE,
    HAND_SIZE,
    KITTEN,
    LOG_EVENTS,
    MAIN,
    MAX_DECK,
    MAX_PLAYERS,
    NOPE,
    NOPE_WINDOW,
    NUM_ACTIONS,
    NUM_PHASES,
    NUM_TYPES,
    OVER,
    PASS,
    PLACE,
    PLACE_BASE,
    PLAY_ATTACK,
    PLAY_FUTURE,
    PLAY_NOPE,
    PLAY_SHUFFLE,
    PLAY_SKIP,
    SHUFFLE,
    SINGLE_PLAYS,
    SKIP,
    STEAL,
    TOTAL_DEFUSES,
)

GAME_NAME = "exploding_kittens"
_HAND_CAP, _HANDS, _SEEN, _HCOUNT = ekk.HAND_CAP, ekk.HANDS, ekk.SEEN, ekk.HCOUNT


def _header(index: int):
    return property(lambda self: int(self.s[index]))


class ExplodingKittensKernel(ArrayKernel):
    """A whole Exploding Kittens state: the kernel's array (``self.s``), played by its jitted
    rules; hands and deck top with visibility masks, the rest of the deck as counts."""

    __slots__ = ()
    RULES = ekk
    NUM_ACTIONS = NUM_ACTIONS
    MAX_PLAYERS = MAX_PLAYERS
    SAMPLES_HISTORIES = True  # worlds are re-simulated histories (worlds.py)

    def __init__(self, n: int):
        super().__init__(ekk.new_state(n))

    # -- the array's fields, read-only (as Python values) --------------------------------
    n = _header(ekk.H_N)
    phase = _header(ekk.H_PHASE)
    cur = _header(ekk.H_CUR)
    turns = _header(ekk.H_TURNS)
    to_deal = _header(ekk.H_TO_DEAL)
    actor = _header(ekk.H_ACTOR)  # favor asker / stealer
    victim = _header(ekk.H_VICTIM)  # favor giver / steal victim
    fill_to = _header(ekk.H_FILL_TO)  # deck-top length to fix by chance
    fill_then = _header(ekk.H_FILL_THEN)  # -1: see the future, else the kitten position
    pending = _header(ekk.H_PENDING)  # action card waiting for its Nope window to close
    nopes = _header(ekk.H_NOPES)  # Nopes played on it so far (odd: cancelled)
    pool = property(lambda self: self.s[ekk.POOL : ekk.POOL + NUM_TYPES].tolist())
    discards = property(lambda self: self.s[ekk.DISCARDS : ekk.DISCARDS + NUM_TYPES].tolist())
    alive = property(lambda self: [bool(x) for x in self.s[ekk.ALIVE : ekk.ALIVE + self.n]])
    top = property(lambda self: self.s[ekk.TOP : ekk.TOP + self.s[ekk.H_NTOP]].tolist())
    top_seen = property(lambda self: self.s[ekk.TOP_SEEN : ekk.TOP_SEEN + self.s[ekk.H_NTOP]].tolist())
    responders = property(lambda self: self.s[ekk.RESP : ekk.RESP + self.s[ekk.H_NRESP]].tolist())
    hands = property(lambda self: self._rows(_HANDS))
    seen = property(lambda self: self._rows(_SEEN))  # each hand card's knowledge bitmask

    def _rows(self, base: int) -> list[list[int]]:
        s = self.s
        lengths = s[ekk.HAND_LEN : ekk.HAND_LEN + s[ekk.H_N]].tolist()
        return [s[base + q * _HAND_CAP : base + q * _HAND_CAP + m].tolist() for q, m in enumerate(lengths)]

    @property
    def log(self) -> list[tuple[int, str]]:
        """The public log: (player, event) entries, event in ``LOG_EVENTS``."""
        return [(p, LOG_EVENTS[e]) for p, e in self.log_codes()]

    def deck_size(self) -> int:
        return int(ekk._deck_size(self.s))

    def chance_possible(self, action):
        s = self.s
        if not 0 <= action < NUM_TYPES:
            return False
        if s[ekk.H_PHASE] == STEAL:
            return s[_HCOUNT + s[ekk.H_VICTIM] * NUM_TYPES + action] > 0
        return s[ekk.POOL + action] > 0

    # -- information ---------------------------------------------------------------------
    def _view(self, player: int) -> list[str]:
        bit = 1 << player
        hands, seen, alive = self.hands, self.seen, self.alive
        parts = [
            f"p{player} mover {self.current_player()} phase {self.phase} turns {self.turns} "
            f"pending {self.pending} nopes {self.nopes}",
            "hand: " + ",".join(CARD_NAMES[c] for c in sorted(hands[player])),
        ]
        for q in range(self.n):
            if q == player:
                continue
            known = sorted(CARD_NAMES[c] for c, m in zip(hands[q], seen[q]) if m & bit)
            parts.append(f"p{q} {'in' if alive[q] else 'out'} {len(hands[q])} cards, known {known}")
        top = [CARD_NAMES[c] if m & bit else "?" for c, m in zip(self.top, self.top_seen)]
        while top and top[-1] == "?":
            top.pop()
        parts.append(f"deck {self.deck_size()} top {top}")
        parts.append("discards " + ",".join(map(str, self.discards)))
        return parts

    # Tensor layout: see the module docstring.
    LOG_CODES = len(LOG_EVENTS)

    def tensor_pieces(self, player):
        n, bit = self.n, 1 << player
        hands, seen = self.hands, self.seen
        known = np.zeros((n, NUM_TYPES), np.float32)
        for q in range(n):
            if q != player:
                for c, m in zip(hands[q], seen[q]):
                    if m & bit:
                        known[q, c] += 1
        top = np.zeros((MAX_DECK, NUM_TYPES), np.float32)
        for depth, (c, m) in enumerate(zip(self.top, self.top_seen)):
            if m & bit:
                top[depth, c] = 1
        return [
            ("player", tt.one_hot(player, n)),
            ("mover", tt.mover_one_hot(self, n)),
            ("phase", tt.one_hot(self.phase, NUM_PHASES)),
            ("turns", np.asarray([self.turns], np.float32)),
            ("pending", tt.one_hot(self.pending, NUM_ACTIONS)),
            ("nopes", np.asarray([self.nopes], np.float32)),
            ("hand", np.asarray(tt.list_to_counts(hands[player], NUM_TYPES), np.float32)),
            ("alive", np.asarray(self.alive, np.float32)),
            ("hand_sizes", np.asarray([len(h) for h in hands], np.float32)),
            ("known", known),
            ("deck", np.asarray([self.deck_size()], np.float32)),
            ("top", top),
            ("discards", np.asarray(self.discards, np.float32)),
        ]

    def log_codes(self):
        s = self.s
        return [divmod(x, 32) for x in s[ekk.LOG : ekk.LOG + s[ekk.H_NLOG]].tolist()]

    def _log_text(self):
        return ";".join(f"{p}{event}" for p, event in self.log)

    def resample(self, player, rng):
        """Keep the cards ``player`` knows; deal the others uniformly into unknown slots."""
        k = self.copy()
        s, bit = k.s, 1 << player
        hands, top = self.hands, self.top
        pool = self.pool
        hand_slots = tt.pool_unseen_cards(hands, self.seen, player, pool)
        top_slots = []
        for i, m in enumerate(self.top_seen):
            if not m & bit:
                pool[top[i]] += 1
                top_slots.append(i)
        # Kittens are never held (a drawn kitten explodes or goes back): hands get the
        # others, uniformly; the rest of the unknown cards go to the deck uniformly.
        kittens = pool[KITTEN]
        pool[KITTEN] = 0
        cards = tt.shuffled_cards(pool, rng)
        for (q, i), c in zip(hand_slots, cards):
            hands[q][i] = c
            s[_HANDS + q * _HAND_CAP + i] = c
        rest = cards[len(hand_slots) :] + [KITTEN] * kittens
        tt.shuffle_in_place(rest, rng)
        for i, c in zip(top_slots, rest):
            s[ekk.TOP + i] = c
        s[ekk.POOL : ekk.POOL + NUM_TYPES] = tt.list_to_counts(rest[len(top_slots) :], NUM_TYPES)
        for q, hand in enumerate(hands):  # the hand counts the rules keep beside the hands
            s[_HCOUNT + q * NUM_TYPES : _HCOUNT + (q + 1) * NUM_TYPES] = tt.list_to_counts(hand, NUM_TYPES)
        return k

    # -- worlds as histories (``worlds.py``; ``resample`` above is the compiled kernel's
    # twin and keeps the real deck-top length) ------------------------------------------------
    def history_context(self, game, history):
        return worlds.history_context(game, history, _is_draw, (KITTEN, DEFUSE), _card_move)

    def world_history(self, game, player, rng, context):
        """A history ``player`` cannot tell from the real one (``worlds.py``)."""
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


_DEFAULT_PLAYERS = 3
GAME_TYPE = tt.make_game_type(GAME_NAME, "Exploding Kittens", 2, MAX_PLAYERS, {"players": _DEFAULT_PLAYERS})


class ExplodingKittensGame(tt.TabletopGame):
    """Exploding Kittens with 2-5 players (parameter ``players``, default 3)."""

    def __init__(self, params=None):
        params = dict(params or {})
        n = tt.players_param(params, GAME_TYPE)
        super().__init__(
            GAME_TYPE,
            params,
            num_players=n,
            num_distinct_actions=NUM_ACTIONS,
            max_chance_outcomes=NUM_TYPES,
            max_game_length=4000,
        )

    def new_kernel(self):
        return ExplodingKittensKernel(self.players)


sample_world = tt.sample_world  # a sampled history keeping ``player``'s information state


tt.register(GAME_TYPE, ExplodingKittensGame)
