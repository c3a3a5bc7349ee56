"""Colt Express (Christophe Raimbault, 2014) as an OpenSpiel game, short name ``colt_express``.

One of the games of Ravichandran, Goodman and Lucas, "Evaluation of Perfect-Information
Monte Carlo Tree Search in Imperfect-Information Games"
(docs/papers/pimcts_aggregation.md), who ran TAG's Java version (``games.coltexpress``) with 3 players.
The rules follow TAG's implementation and the published rule book; the code is ours. They
are written once, in ``kernel.py`` (numba, on an int64 state array, for both engines):
``ColtExpressKernel`` is an ``array_kernel.ArrayKernel`` running them, and this module holds
the rest (registration, string views, tensors, the public log, the world sampler and the
heuristic's entry point), reading the array.

Rules as modelled. Each bandit (2-6 players, default 3) owns 10 action cards: move sideways
x2, move vertical x2, punch, move marshal, shoot x2, rob x2, plus the bullet cards they are
shot with (bullets cannot be played). The train is one car per player (a random distinct
loot configuration each: 1, 2 or 3 purses; a purse and a jewel; 4 purses and a jewel; 3
jewels; purse values drawn from 250x8, 300..500 x2 each) and the locomotive (a 1000
strongbox and the marshal). Car 0 is the caboose, car n the locomotive. Bandits start inside
car 0 (even players) or car 1 (odd), each with a 250 purse and 6 bullets. Characters are
dealt at random: Ghost (may play his first card of a round face down), Cheyenne (a punched
purse goes to her), Django (his shots push the target one car away), Tuco (shoots through the
roof), Doc (draws 7 cards, not 6), Belle (cannot be punched or shot when another target is
available).

Five rounds: four regular round cards drawn from seven (Angry Marshal, Braking, Bridge,
Passenger Rebellion, Swivel Arm, Take It All, Tunnel) and one train-station card (Marshal's
Revenge, Hostage, Pick Pocket); each card lists its turns (normal, hidden, double, reverse;
the 2-4 and 5-6 player sequences are TAG's). A round:
* *Schemin'*: every bandit shuffles all their cards and draws 6 (Doc 7). In each turn the
  bandits, from the round's first player (player ``round mod n``; reverse turns go the other
  way; double turns play twice in a row), either play an action card onto the shared pile
  (face up; face down in hidden turns, and Ghost's first card) or draw 3 cards.
* *Stealin'*: the pile is resolved first-played first; the owner chooses how: move sideways
  (inside: one car; roof: 1-3 cars), move vertically (inside <-> roof), move the marshal to an
  adjacent car, rob one loot item at their spot, punch a bandit at their spot (who drops a
  chosen loot item there and is knocked into an adjacent car), or shoot a visible bandit
  (inside: the adjacent cars' insides; roof: the nearest occupied roof each way; the shooter
  spends a bullet and the target gets a bullet card). Entering the marshal's car inside, or
  the marshal entering a car, gives a neutral bullet and sends the bandit to the roof.
* The round card's event then happens (Angry Marshal: shoots the bandits on his roof and
  moves toward the caboose; Braking: roof bandits move one car forward; Passenger Rebellion:
  every bandit inside gets a neutral bullet; Swivel Arm: roof bandits go to the caboose roof;
  Take It All: the marshal drops the second strongbox in his car; Marshal's Revenge: roof
  bandits at the marshal's car lose their cheapest purse; Hostage: bandits at the locomotive
  get 250; Pick Pocket: a bandit alone at a spot takes the best purse there).
Score: loot value plus 1000 to the best shooters (fewest bullets left, ties all get it; if
nobody shot, everybody). Returns are win shares (see ``_tabletop``), ties broken by fewer
bullet cards received, remaining ties shared. ``kernel.scores()`` gives the dollars.

Simplifications against the rule book and TAG (documented):
* Loot values are public: purse values are drawn by a public chance node at setup (rule book:
  bags face down, a purse's value known to its holder only; TAG also hides them from the
  other players' forward models). So robbing and punching name the loot item (kind and
  value) instead of taking a random one of a type, as TAG does.
* Every round the whole deck (hand, played cards, deck) is reshuffled before the draw (rule
  book); TAG puts cards back on top of the deck without shuffling.
* Descending into the marshal's car triggers the marshal (rule book); TAG checks only sideways
  moves and punches. Django's push also moves roof targets (TAG: inside targets only).
* Neutral bullets are unlimited (13 in the box), as in TAG. No character drafting (TAG: none).
* Pick Pocket takes the best purse automatically (the rule book's "may" is always taken).
* A turn of the planning phase is one decision; a resolved card is one decision even with a
  single option (OpenSpiel needs a legal action there).

Hidden information and the determinizer. Hidden: each bandit's hand and deck order (the
composition of hand + deck is public: starting cards and bullets are public events), the
face-down cards on the pile until resolved, and each player's private draw log. The world
sampler (``kernel.world_history``) keeps everything ``player`` saw and redraws, for every
opponent and every round independently, that opponent's draws and unrevealed face-down cards
by rejection: the deck is dealt in chance order, each face-up play must be in hand, each
face-down card is a uniformly chosen playable type in hand (accepted with probability
1/#playable types when its type has since been revealed). The target distribution is thus
the chance probability of the deals times a uniform choice among playable types for each
face-down card, restricted to histories that replay legally with the same view; the other
choices of the opponents carry no weight (like TAG, opponent moves are not treated as
evidence about their hands). Everything is visible from the third round of resolving on
except the current hand, so, as the paper argues, hidden information resolves quickly.

Tensors (fixed shape per player count n; C = n + 1 cars; S = 5n planning steps per round):
observation = player [n] | phase (plan, resolve) [2] | round [5] | round card [10] |
turn in card [5] | turn type (normal, hidden, double, reverse) [4] | mover [n] |
characters [n, 6] | bandit spots [n, C, 2] (inside, roof) | marshal [C] | bullets left / 6 [n] |
bullet cards received [n] | loot at spots [C, 2, 8] (counts per kind: purses 250..500,
jewel, strongbox) | bandits' loot [n, 8] | my hand [7] | my deck [7] | hand sizes [n] |
deck sizes [n] | pile [S, n + 8] (owner one-hot, card type one-hot 0-5, unknown, face down).
information state = the observation | planning record [5, S, n + 8] (mover one-hot, card type
one-hot or unknown, drew cards) | my draws [5, 7] (cards dealt and drawn to me per round).

Heuristic: ``heuristic(state)`` is TAG's ``LeaderHeuristic`` (the setting of TAG's
``ColtExpress_3P.json`` MCTS player) on ``kernel.scores()``, scaled by 5000 dollars into
[0, 1] (the kernel's ``nb_heuristic``); the returns at a terminal state.
"""

from __future__ import annotations

import numpy as np

from infosets.games import _history_worlds as hw
from infosets.games import _tabletop as tt
from infosets.games.array_kernel import ArrayKernel
from infosets.games.colt_express import kernel as ck

GAME_NAME = "colt_express"

# Action cards.
SIDEWAYS, VERTICAL, PUNCH, MARSHAL, SHOOT, ROB, BULLET = range(7)
NUM_CARD_TYPES = 7
PLAYABLE = 6
CARD_NAMES = ("sideways", "vertical", "punch", "marshal", "shoot", "rob", "bullet")
START_CARDS = (2, 2, 1, 1, 2, 2, 0)
HAND_SIZE, DOC_EXTRA, CARDS_PER_DRAW, ROOF_MOVE = 6, 1, 3, 3
BULLETS = 6
SHOOTER_REWARD = 1000
HOSTAGE_REWARD_KIND = 0   # a 250 purse

# Characters.
GHOST, CHEYENNE, DJANGO, TUCO, DOC, BELLE = range(6)
CHARACTER_NAMES = ("Ghost", "Cheyenne", "Django", "Tuco", "Doc", "Belle")

# Loot kinds: purses 250..500, jewel, strongbox.
NUM_LOOT = 8
JEWEL, STRONGBOX = 6, 7
LOOT_VALUES = (250, 300, 350, 400, 450, 500, 500, 1000)
LOOT_NAMES = ("purse250", "purse300", "purse350", "purse400", "purse450", "purse500", "jewel",
              "strongbox")
PURSE_POOL = (8, 2, 2, 2, 2, 2)
CAR_CONFIGS = ((1, 0), (2, 0), (3, 0), (1, 1), (4, 1), (0, 3))   # (purses, jewels)

# Round cards: regular 0-6, station 7-9. Turn types.
NORMAL, HIDDEN, DOUBLE, REVERSE = range(4)
N, H, D, R = NORMAL, HIDDEN, DOUBLE, REVERSE
ROUND_CARD_NAMES = ("Angry Marshal", "Braking", "Bridge", "Passenger Rebellion", "Swivel Arm",
                    "Take It All", "Tunnel", "Marshal's Revenge", "Hostage", "Pick Pocket")
TURNS_SMALL = ((N, N, H, R), (N, H, N, H), (N, D, N), (N, N, H, N, N), (N, H, N, N),
               (N, H, D, R), (N, H, N, H, N), (N, N, H, N), (N, N, H, N), (N, N, H, N))
TURNS_LARGE = ((N, N, R), (N, H, H, H), (N, D), (N, H, N, R), (N, H, N), (N, D, R),
               (N, H, N, H), (N, N, H, N), (N, N, H, N), (N, N, H, N))
NUM_REGULAR, NUM_ROUND_CARDS, NUM_ROUNDS, MAX_TURNS = 7, 10, 5, 5
STEPS_PER_PLAYER = 5      # most planning steps a bandit has in one round (any card above)

# Chance kinds.
CH_CHARACTER, CH_CAR, CH_PURSE, CH_ROUND, CH_DRAW = range(5)
MAX_CHANCE_OUTCOMES = 7

# Player actions.
DRAW = PLAYABLE                      # 0-5: play that card type; 6: draw cards
MAX_CARS = 7
MOVE_TO = 7                          # 7 + car
CLIMB = 14                           # move vertical
MARSHAL_TO = 15                      # 15 + car
ROB_KIND = 22                        # 22 + loot kind
ROB_NOTHING = 30
PUNCH_BASE = 31                      # 31 + ((target * 2 + forward) * 9 + dropped kind or 8)
PUNCH_NOBODY = 139
SHOOT_AT = 140                       # 140 + target
SHOOT_NOBODY = 146
NUM_ACTIONS = 147
NO_DROP = NUM_LOOT

PLAN, RESOLVE = 0, 1

# History tags (what of an applied action is private): (kind, player, round).
T_DRAW, T_FACE_UP, T_HIDDEN = range(3)
MAX_REJECTIONS = 200_000


def punch_action(target: int, forward: bool, dropped: int) -> int:
    """Action id of punching ``target`` toward the locomotive (``forward``) or the caboose."""
    return PUNCH_BASE + (target * 2 + int(forward)) * 9 + dropped


def _decode_punch(action: int) -> tuple[int, int, int]:
    rest, dropped = divmod(action - PUNCH_BASE, 9)
    target, forward = divmod(rest, 2)
    return target, forward, dropped


def _entry(e: int) -> tuple[int, int, int, int, int]:
    """A history entry of the array: (action, record kind, bandit, round, extra) (kernel.py)."""
    return e & 255, (e >> 8) & 15, (e >> 12) & 15, (e >> 16) & 15, e >> 20


_TAG_OF_KIND = {ck.K_DEAL: T_DRAW, ck.K_UP: T_FACE_UP, ck.K_HIDDEN: T_HIDDEN}
_LOG_NAMES = {ck.K_CHAR: "character", ck.K_CAR: "car", ck.K_PURSE: "purse"}


def _log_entry(i: int, action: int, kind: int, who: int, rnd: int, extra: int) -> tuple | None:
    """The public log's entry for history entry ``i`` (None for a private deal)."""
    if kind in _LOG_NAMES:
        return (_LOG_NAMES[kind], who, action)
    if kind == ck.K_ROUND:
        return ("round", rnd, extra)
    if kind == ck.K_DRAW:
        return ("draw", who, extra)
    if kind == ck.K_UP:
        return ("play", who, action, i)
    if kind == ck.K_HIDDEN:
        return ("play", who, -1, i)
    if kind == ck.K_RESOLVE:
        return ("resolve", who, extra, action)
    return None


def _redraw_block(tags, actions, indices, deck, revealed, rng):
    """Redraw one opponent's draws and unrevealed face-down cards of one round, in place."""
    for _ in range(MAX_REJECTIONS):
        pool = list(deck)
        hand = [0] * NUM_CARD_TYPES
        drawn = {}
        for i in indices:
            kind = tags[i][0]
            if kind == T_DRAW:
                t = tt.draw_index(pool, sum(pool), rng)
                pool[t] -= 1
                hand[t] += 1
                drawn[i] = t
                continue
            if kind == T_FACE_UP:
                t = actions[i]
                if not hand[t]:
                    break
            else:
                playable = [c for c in range(PLAYABLE) if hand[c]]
                if not playable:
                    break
                t = playable[min(int(rng.random() * len(playable)), len(playable) - 1)]
                if i in revealed:
                    if t != actions[i]:
                        break
                else:
                    drawn[i] = t
            hand[t] -= 1
        else:
            for i, t in drawn.items():
                actions[i] = t
            return
    raise RuntimeError("colt_express: no consistent world found (rejection limit reached)")


# A history entry's log text (a play's without its history index) and whether it takes one:
# decoded once per distinct entry.
_LOG_TEXT: dict[int, tuple[str, bool]] = {}


def _decoded_log_text(e: int) -> tuple[str, bool]:
    """History entry ``e``'s log text (a play's ends before its history index) and whether it
    takes the index (kept in ``_LOG_TEXT``)."""
    entry = _log_entry(-1, *_entry(e))
    indexed = entry is not None and entry[0] == "play"
    text = "" if entry is None else ",".join(map(str, entry[:3] if indexed else entry))
    known = _LOG_TEXT[e] = (text + "," if indexed else text, indexed)
    return known


class ColtExpressKernel(ArrayKernel):
    """A Colt Express state: the kernel's array (``self.s``), played by its jitted rules; the
    fields below read it (as Python values; card and loot collections are count vectors)."""

    __slots__ = ()
    RULES = ck
    NUM_ACTIONS = NUM_ACTIONS
    MAX_PLAYERS = ck.MAXP

    def __init__(self, n: int):
        super().__init__(ck.new_state(n))

    # -- the array's fields, read-only ------------------------------------------------------
    n = property(lambda self: int(self.s[ck.N]))
    phase = property(lambda self: int(self.s[ck.PHASE]))
    round = property(lambda self: int(self.s[ck.ROUND]))
    card = property(lambda self: int(self.s[ck.CARD]))
    sched_i = property(lambda self: int(self.s[ck.SCHED_I]))
    marshal = property(lambda self: int(self.s[ck.MARSHAL]))
    spare_box = property(lambda self: int(self.s[ck.SPARE]))
    done = property(lambda self: bool(self.s[ck.DONE]))
    chars = property(lambda self: self._per_bandit(ck.CHARS))
    car = property(lambda self: self._per_bandit(ck.CAR))
    roof = property(lambda self: self._per_bandit(ck.ROOF))
    bullets_left = property(lambda self: self._per_bandit(ck.BLEFT))
    purse_pool = property(lambda self: self.s[ck.PPOOL : ck.PPOOL + len(PURSE_POOL)].tolist())
    deck = property(lambda self: self._rows(ck.DECK, NUM_CARD_TYPES, self.n))
    hand = property(lambda self: self._rows(ck.HAND, NUM_CARD_TYPES, self.n))
    ploot = property(lambda self: self._rows(ck.PLOOT, NUM_LOOT, self.n))
    loot = property(lambda self: self._rows(ck.LOOT, NUM_LOOT, 2 * (self.n + 1)))

    def _per_bandit(self, base: int) -> list[int]:
        return self.s[base : base + self.n].tolist()

    def _rows(self, base: int, width: int, count: int) -> list[list[int]]:
        return self.s[base : base + width * count].reshape(count, width).tolist()

    @property
    def sched(self) -> list[tuple[int, int, int]]:
        """This round's planning steps: (mover, turn index, turn type)."""
        rows = self._rows(ck.SCHED, 3, int(self.s[ck.SCHED_LEN]))
        return [tuple(row) for row in rows]

    @property
    def pile(self) -> list[tuple[int, int, bool, int]]:
        """The cards still to resolve: (owner, card type, face down, history index)."""
        s = self.s
        rows = s[ck.PILE + 4 * s[ck.PHEAD] : ck.PILE + 4 * s[ck.PEND]].reshape(-1, 4).tolist()
        return [(o, c, bool(h), i) for o, c, h, i in rows]

    @property
    def queue(self) -> list[tuple[int, int]]:
        """Pending chance nodes: (kind, bandit); a round card's names the round."""
        s, out = self.s, []
        for j in range(int(s[ck.QLEN])):
            kind, who = divmod(int(s[ck.QUEUE + (s[ck.QHEAD] + j) % ck.QCAP]), 8)
            out.append((kind, self.round if kind == CH_ROUND else who))
        return out

    def _entries(self) -> list[tuple[int, int, int, int, int]]:
        s = self.s
        return [_entry(e) for e in s[ck.HIST : ck.HIST + s[ck.HLEN]].tolist()]

    @property
    def hist(self) -> list[int]:
        """Every action applied (chance outcomes included)."""
        s = self.s
        return [e & 255 for e in s[ck.HIST : ck.HIST + s[ck.HLEN]].tolist()]

    history = hist

    @property
    def tags(self) -> list[tuple[int, int, int] | None]:
        """Parallel to ``hist``: None (public) or (T_* kind, bandit, round) of a private action."""
        return [
            (_TAG_OF_KIND[kind], who, rnd) if kind in _TAG_OF_KIND else None
            for _, kind, who, rnd, _ in self._entries()
        ]

    @property
    def log(self) -> list[tuple]:
        """The public record: characters, cars, purses, rounds, draws, plays, resolutions."""
        entries = (_log_entry(i, *e) for i, e in enumerate(self._entries()))
        return [e for e in entries if e is not None]

    @property
    def used_cards(self) -> list[int]:
        """The round cards drawn so far, in order."""
        return [extra for _, kind, _, _, extra in self._entries() if kind == ck.K_ROUND]

    @property
    def draws(self) -> list[list[tuple[int, int]]]:
        """Per bandit: (round, card type) of every card dealt or drawn to them."""
        out = [[] for _ in range(self.n)]
        for action, kind, who, rnd, _ in self._entries():
            if kind == ck.K_DEAL:
                out[who].append((rnd, action))
        return out

    @property
    def round_decks(self) -> list[tuple[tuple[int, ...], ...]]:
        """Per round started: each bandit's whole deck when it was shuffled."""
        n, s = self.n, self.s
        rounds = len(self.used_cards)
        rows = s[ck.RDECK : ck.RDECK + 6 * NUM_CARD_TYPES * rounds].reshape(rounds, 6, NUM_CARD_TYPES)
        return [tuple(tuple(d) for d in r[:n].tolist()) for r in rows]

    # -- scoring (views) --------------------------------------------------------------------
    def bullet_cards(self, q: int) -> int:
        """Bullet cards bandit ``q`` has received (public; bullets are never played)."""
        s = self.s
        return int(s[ck.DECK + 7 * q + BULLET] + s[ck.HAND + 7 * q + BULLET])

    def best_shooters(self) -> list[int]:
        left = self.bullets_left
        return [q for q in range(self.n) if left[q] == min(left)]

    def scores(self) -> list[int]:
        """Dollars: loot, plus the shooter reward to the best shooters once the game is over."""
        out = [sum(c * v for c, v in zip(loot, LOOT_VALUES)) for loot in self.ploot]
        if self.done:
            for q in self.best_shooters():
                out[q] += SHOOTER_REWARD
        return out

    # -- information ------------------------------------------------------------------------
    def _sees_card(self, player: int, entry) -> bool:
        return entry[0] == player or not entry[2]

    def _view(self, player: int) -> list[str]:
        n, s = self.n, self.s
        fields = s[: ck.RDECK].tolist()  # one read of the header and the regions read here
        phase_id, sched_i = fields[ck.PHASE], fields[ck.SCHED_I]
        phase = "plan" if phase_id == PLAN else "resolve"
        card = ROUND_CARD_NAMES[fields[ck.CARD]] if fields[ck.CARD] >= 0 else "-"
        turn = (f" turn {fields[ck.SCHED + 3 * sched_i + 1]}"
                if phase_id == PLAN and sched_i < fields[ck.SCHED_LEN] else "")
        chars, cars, roofs = (fields[base : base + n] for base in (ck.CHARS, ck.CAR, ck.ROOF))
        hands = [fields[ck.HAND + 7 * q : ck.HAND + 7 * q + 7] for q in range(n)]
        decks = [fields[ck.DECK + 7 * q : ck.DECK + 7 * q + 7] for q in range(n)]
        received = [decks[q][BULLET] + hands[q][BULLET] for q in range(n)]
        loot = (fields[ck.LOOT + 8 * i : ck.LOOT + 8 * i + 8] for i in range(2 * (n + 1)))
        ploot = (fields[ck.PLOOT + 8 * q : ck.PLOOT + 8 * q + 8] for q in range(n))
        pile = (fields[ck.PILE + 4 * j : ck.PILE + 4 * j + 3]
                for j in range(fields[ck.PHEAD], fields[ck.PEND]))
        parts = [f"p{player} round {fields[ck.ROUND]} {card} {phase}{turn} mover {self.current_player()}",
                 "characters: " + ",".join(CHARACTER_NAMES[c] if c >= 0 else "?" for c in chars),
                 "spots: " + " ".join(f"{cars[q]}{'r' if roofs[q] else 'i'}"
                                      for q in range(n)) + f" marshal {fields[ck.MARSHAL]}",
                 f"bullets left {fields[ck.BLEFT : ck.BLEFT + n]} received {received}",
                 "train loot: " + " | ".join(",".join(map(str, spot)) for spot in loot),
                 "bandit loot: " + " | ".join(",".join(map(str, lt)) for lt in ploot),
                 "hand: " + ",".join(map(str, hands[player])),
                 f"hand sizes {[sum(h) for h in hands]} deck sizes {[sum(d) for d in decks]}",
                 "pile: " + " ".join(f"{o}:{CARD_NAMES[c] if o == player or not h else '?'}"
                                     f"{'*' if h else ''}" for o, c, h in pile)]
        return parts

    LOG_LABEL = "log"

    def _log_text(self):
        s = self.s
        entries = s[ck.HIST : ck.HIST + s[ck.HLEN]]
        public = np.flatnonzero((entries >> 8) & 15 != ck.K_DEAL)  # a deal is no log entry
        parts = []
        for i, e in zip(public.tolist(), entries[public].tolist()):
            text, indexed = _LOG_TEXT.get(e) or _decoded_log_text(e)
            parts.append(text + str(i) if indexed else text)
        return ";".join(parts)

    def information_state_string(self, player):
        s = self.s
        entries = s[ck.HIST : ck.HIST + s[ck.HLEN]]
        deals = entries[(entries >> 8) & 255 == ck.K_DEAL | player << 4]  # kind, then bandit
        mine = ",".join(f"{rnd}:{action}" for rnd, action in zip(((deals >> 16) & 15).tolist(),
                                                                 (deals & 255).tolist()))
        return "\n".join(self._view(player) + [f"my draws: {mine}", f"log: {self._log_text()}"])

    # -- determinization --------------------------------------------------------------------
    def world_history(self, player: int, rng) -> list[int]:
        """The history with every outcome hidden from ``player`` redrawn (module docstring)."""
        tags = self.tags
        blocks: dict[tuple[int, int], list[int]] = {}
        for i, tag in enumerate(tags):
            if tag is not None and tag[1] != player:
                blocks.setdefault((tag[1], tag[2]), []).append(i)
        pending = {e[3] for e in self.pile}
        revealed = {i for i, t in enumerate(tags) if t is not None and t[0] == T_HIDDEN and i not in pending}
        actions = self.hist
        round_decks = self.round_decks
        for (q, r), indices in blocks.items():
            _redraw_block(tags, actions, indices, round_decks[r][q], revealed, rng)
        return actions

    def resample(self, player, rng):
        """A kernel rebuilt from ``world_history`` (keeps ``player``'s information state)."""
        world = ColtExpressKernel(self.n)
        ck.nb_apply_history(world.s, np.asarray(self.world_history(player, rng), dtype=np.int64))
        return world

    # -- tensors ------------------------------------------------------------------------------
    def tensor_pieces(self, perfect_recall: bool) -> list[tuple[str, tuple]]:
        n, cars, steps = self.n, self.n + 1, STEPS_PER_PLAYER * self.n
        pieces = [("player", (n,)), ("phase", (2,)), ("round", (NUM_ROUNDS,)),
                  ("round_card", (NUM_ROUND_CARDS,)), ("turn", (MAX_TURNS,)),
                  ("turn_type", (4,)), ("mover", (n,)), ("characters", (n, 6)),
                  ("spots", (n, cars, 2)), ("marshal", (cars,)), ("bullets_left", (n,)),
                  ("bullet_cards", (n,)), ("train_loot", (cars, 2, NUM_LOOT)),
                  ("bandit_loot", (n, NUM_LOOT)), ("hand", (NUM_CARD_TYPES,)),
                  ("deck", (NUM_CARD_TYPES,)), ("hand_sizes", (n,)), ("deck_sizes", (n,)),
                  ("pile", (steps, n + 8))]
        if perfect_recall:
            pieces += [("planning", (NUM_ROUNDS, steps, n + 8)),
                       ("my_draws", (NUM_ROUNDS, NUM_CARD_TYPES))]
        return pieces

    def fill_tensor(self, player: int, perfect_recall: bool, d: dict) -> None:
        n = self.n
        d["player"][player] = 1
        mover = self.current_player()
        if self.card >= 0:
            d["phase"][self.phase] = 1
            d["round_card"][self.card] = 1
            if self.phase == PLAN and self.sched_i < len(self.sched):
                _, turn, kind = self.sched[self.sched_i]
                d["turn"][turn] = 1
                d["turn_type"][kind] = 1
        if not self.done:
            d["round"][self.round] = 1
        if mover >= 0:
            d["mover"][mover] = 1
        for q in range(n):
            if self.chars[q] >= 0:
                d["characters"][q, self.chars[q]] = 1
            d["spots"][q, self.car[q], self.roof[q]] = 1
            d["bullets_left"][q] = self.bullets_left[q] / BULLETS
            d["bullet_cards"][q] = self.bullet_cards(q)
            d["bandit_loot"][q] = self.ploot[q]
            d["hand_sizes"][q] = sum(self.hand[q])
            d["deck_sizes"][q] = sum(self.deck[q])
        d["marshal"][self.marshal] = 1
        for spot, counts in enumerate(self.loot):
            d["train_loot"][spot // 2, spot % 2] = counts
        d["hand"][:] = self.hand[player]
        d["deck"][:] = self.deck[player]
        for i, entry in enumerate(self.pile):
            owner, card, hidden, _ = entry
            d["pile"][i, owner] = 1
            d["pile"][i, n + (card if self._sees_card(player, entry) else PLAYABLE)] = 1
            d["pile"][i, n + 7] = float(hidden)
        if not perfect_recall:
            return
        pending = {e[3] for e in self.pile}
        hist = self.hist
        step = [0] * NUM_ROUNDS
        rnd = 0
        for entry in self.log:
            if entry[0] == "round":
                rnd = entry[1]
            elif entry[0] in ("play", "draw"):
                row = d["planning"][rnd, step[rnd]]
                step[rnd] += 1
                row[entry[1]] = 1
                if entry[0] == "draw":
                    row[n + 7] = 1
                    continue
                card = entry[2]
                if card < 0 and (entry[1] == player or entry[3] not in pending):
                    card = hist[entry[3]]    # own face-down card, or resolved since
                row[n + (card if card >= 0 else PLAYABLE)] = 1
        for r, card in self.draws[player]:
            d["my_draws"][r, card] += 1

    def action_to_string(self, player, action):
        if player == tt.CHANCE:
            return f"chance {action}"
        if action < PLAYABLE:
            return f"play {CARD_NAMES[action]}"
        if action == DRAW:
            return "draw cards"
        if action < CLIMB:
            return f"move to car {action - MOVE_TO}"
        if action == CLIMB:
            return "move vertically"
        if action < ROB_KIND:
            return f"marshal to car {action - MARSHAL_TO}"
        if action < ROB_NOTHING:
            return f"rob {LOOT_NAMES[action - ROB_KIND]}"
        if action == ROB_NOTHING:
            return "rob nothing"
        if action < PUNCH_NOBODY:
            q, forward, dropped = _decode_punch(action)
            drop = "nothing" if dropped == NO_DROP else LOOT_NAMES[dropped]
            return f"punch p{q} {'forward' if forward else 'back'} dropping {drop}"
        if action == PUNCH_NOBODY:
            return "punch nobody"
        if action < SHOOT_NOBODY:
            return f"shoot p{action - SHOOT_AT}"
        return "shoot nobody"

    def _state_line(self):
        return (f"round {self.round} card {self.card} phase {self.phase} step {self.sched_i} "
                f"mover {self.current_player()} marshal {self.marshal} pile {self.pile} "
                f"train {self.loot} queue {self.queue[:1]} hist {len(self.hist)}")

    def _player_line(self, p):
        return (f"p{p} {self.chars[p]} at {self.car[p]}/{self.roof[p]} hand {self.hand[p]} "
                f"deck {self.deck[p]} loot {self.ploot[p]} bullets {self.bullets_left[p]}")


_DEFAULT_PLAYERS = 3
GAME_TYPE = hw.make_game_type(GAME_NAME, "Colt Express", 2, 6, {"players": _DEFAULT_PLAYERS})


def _max_game_length(n: int) -> int:
    setup = 2 * n + 4 * n
    steps = STEPS_PER_PLAYER * n
    per_round = 1 + n * (HAND_SIZE + DOC_EXTRA) + steps * (2 + CARDS_PER_DRAW)
    return setup + NUM_ROUNDS * per_round


class ColtExpressGame(hw.HistoryGame):
    """Colt Express with 2-6 players (parameter ``players``, default 3, as in the paper)."""

    check_replay = True  # world_history rewrites the real history: the replay checks it

    def __init__(self, params=None):
        params = dict(params or {})
        n = tt.players_param(params, GAME_TYPE)
        super().__init__(GAME_TYPE, params, num_players=n, num_distinct_actions=NUM_ACTIONS,
                         max_chance_outcomes=MAX_CHANCE_OUTCOMES,
                         max_game_length=_max_game_length(n))

    def new_kernel(self):
        return ColtExpressKernel(self.players)


LEADER_SCALE = 5000.0   # dollars; TAG's ColtExpressHeuristic normalises loot by maxLoot = 5000


def heuristic(state) -> list[float]:
    """Value per player in [0, 1] for cutting a rollout short (pyspiel state or kernel).

    TAG's ``LeaderHeuristic`` (own game score minus the best other score), the heuristic of
    its ``ColtExpress_3P.json`` MCTS settings, on the dollars of ``kernel.scores()`` with the
    shooter reward counted in proportion to the rounds played (TAG's ``getGameScore``), scaled
    by ``LEADER_SCALE`` into [0, 1]: the kernel's ``nb_heuristic``. Terminal states give the
    returns.
    """
    kernel = getattr(state, "kernel", state)
    out = np.zeros(kernel.n)
    ck.nb_heuristic(kernel.s, out)
    return out.tolist()


sample_world = hw.sample_world  # a world keeping ``player``'s information state


hw.register(GAME_TYPE, ColtExpressGame)
