"""The former pure-Python Colt Express kernel, frozen: an independent oracle for differential tests.

Rules, views, tensors, world sampler and heuristic exactly as
``lib/infosets/games/colt_express/game.py``'s ``ColtExpressKernel`` held them at commit
02c0326e2b81cb5f086f604c4fc3ab4620a825be, before the port ran on its numba rules
(``infosets.games.colt_express.kernel``) through ``infosets.games.array_kernel``. Do not edit:
``test_colt_express_oracle.py`` plays the live port against this code, so a change to the
rules shows up as a disagreement here.

Game: Colt Express (Christophe Raimbault, 2014), as run by Ravichandran, Goodman and Lucas,
"Evaluation of Perfect-Information Monte Carlo Tree Search in Imperfect-Information Games"
(docs/papers/pimcts_aggregation.md); the rules and modelling choices are in the port's module
docstring.
"""

from __future__ import annotations

from infosets.games import _history_worlds as hw
from infosets.games import _tabletop as tt

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


class ColtExpressKernel(tt.Kernel):
    """Whole Colt Express state; card and loot collections are count vectors."""

    VALUE_FIELDS = ("n", "phase", "round", "card", "sched_i", "marshal", "spare_box", "done")
    LIST_FIELDS = ("chars", "car", "roof", "bullets_left", "purse_pool", "sched", "pile",
                   "queue", "used_cards", "round_decks", "hist", "tags", "log")
    NESTED_FIELDS = ("deck", "hand", "ploot", "loot", "draws")
    __slots__ = VALUE_FIELDS + LIST_FIELDS + NESTED_FIELDS

    def __init__(self, n: int):
        self.n = n
        self.phase = PLAN
        self.round = 0
        self.card = -1
        self.sched_i = 0
        self.marshal = n
        self.spare_box = 1
        self.done = False
        self.chars = [-1] * n
        self.car = [p % 2 for p in range(n)]
        self.roof = [0] * n
        self.bullets_left = [BULLETS] * n
        self.purse_pool = list(PURSE_POOL)
        self.sched = []        # planning steps of this round: mover, turn index, turn type
        self.pile = []         # (owner, card type, face down, history index)
        self.queue = ([(CH_CHARACTER, p) for p in range(n)] + [(CH_CAR, c) for c in range(n)]
                      + [(CH_ROUND, 0)])
        self.used_cards = []
        self.round_decks = []  # per round: each bandit's whole deck when it was shuffled
        self.hist = []         # every applied action (chance included)
        self.tags = []         # parallel to hist: None (public) or (kind, player, round)
        self.log = []          # public record
        self.deck = [list(START_CARDS) for _ in range(n)]
        self.hand = [[0] * NUM_CARD_TYPES for _ in range(n)]
        self.ploot = [[1, 0, 0, 0, 0, 0, 0, 0] for _ in range(n)]
        self.loot = [[0] * NUM_LOOT for _ in range(2 * (n + 1))]
        self.loot[2 * n][STRONGBOX] = 1
        self.draws = [[] for _ in range(n)]   # (round, card type) dealt or drawn, per bandit

    # -- flow ---------------------------------------------------------------------------
    def is_terminal(self):
        return self.done

    def current_player(self):
        if self.done:
            return tt.TERMINAL
        if self.queue:
            return tt.CHANCE
        if self.phase == PLAN:
            return self.sched[self.sched_i][0]
        return self.pile[0][0]

    def chance_outcomes(self):
        if not self.queue:
            return []
        kind, who = self.queue[0]
        if kind == CH_CHARACTER:
            free = [c for c in range(6) if c not in self.chars]
            return [(c, 1 / len(free)) for c in free]
        if kind == CH_CAR:
            used = self._used_configs()
            free = [c for c in range(len(CAR_CONFIGS)) if c not in used]
            return [(c, 1 / len(free)) for c in free]
        if kind == CH_PURSE:
            return tt.count_outcomes(self.purse_pool)
        if kind == CH_ROUND:
            if self.round < NUM_ROUNDS - 1:
                free = [c for c in range(NUM_REGULAR) if c not in self.used_cards]
                return [(c, 1 / len(free)) for c in free]
            return [(c, 1 / 3) for c in range(3)]
        return tt.count_outcomes(self.deck[who])

    def _used_configs(self):
        return [self.log[i][2] for i in range(len(self.log)) if self.log[i][0] == "car"]

    def legal_actions(self):
        if self.done or self.queue:
            return []
        p = self.current_player()
        if self.phase == PLAN:
            hand = self.hand[p]
            actions = [t for t in range(PLAYABLE) if hand[t]]
            if sum(self.deck[p]) or not actions:
                actions.append(DRAW)
            return actions
        return self._resolve_options(p, self.pile[0][1])

    def _resolve_options(self, p: int, card: int) -> list[int]:
        car, roof, n = self.car[p], self.roof[p], self.n
        if card == SIDEWAYS:
            reach = ROOF_MOVE if roof else 1
            return [MOVE_TO + c for c in range(max(0, car - reach), min(n, car + reach) + 1)
                    if c != car]
        if card == VERTICAL:
            return [CLIMB]
        if card == MARSHAL:
            return [MARSHAL_TO + c for c in (self.marshal - 1, self.marshal + 1) if 0 <= c <= n]
        if card == ROB:
            spot = self.loot[2 * car + roof]
            return [ROB_KIND + k for k in range(NUM_LOOT) if spot[k]] or [ROB_NOTHING]
        if card == PUNCH:
            targets = self._spare_belle([q for q in range(n) if q != p and self.car[q] == car
                                         and self.roof[q] == roof])
            actions = []
            for q in targets:
                drops = [k for k in range(NUM_LOOT) if self.ploot[q][k]] or [NO_DROP]
                for forward in (0, 1):
                    if 0 <= car + (1 if forward else -1) <= n:
                        actions.extend(punch_action(q, forward, k) for k in drops)
            return sorted(actions) or [PUNCH_NOBODY]
        targets = self._spare_belle(self._shot_targets(p))
        return [SHOOT_AT + q for q in targets] or [SHOOT_NOBODY]

    def _spare_belle(self, targets: list[int]) -> list[int]:
        if len(targets) > 1:
            return sorted(q for q in targets if self.chars[q] != BELLE)
        return sorted(targets)

    def _shot_targets(self, p: int) -> list[int]:
        car, roof, n = self.car[p], self.roof[p], self.n
        others = [q for q in range(n) if q != p]
        targets = []
        if roof:
            for step in (-1, 1):
                c = car + step
                while 0 <= c <= n:
                    seen = [q for q in others if self.car[q] == c and self.roof[q]]
                    if seen:
                        targets += seen
                        break
                    c += step
        else:
            targets += [q for q in others if abs(self.car[q] - car) == 1 and not self.roof[q]]
        if self.chars[p] == TUCO:
            targets += [q for q in others if self.car[q] == car and self.roof[q] != roof]
        return targets

    def apply(self, action):
        self.hist.append(action)
        if self.queue:
            self._apply_chance(action)
        elif self.phase == PLAN:
            self._plan(action)
        else:
            self._resolve(action)
        self._settle()

    def _apply_chance(self, outcome: int):
        kind, who = self.queue.pop(0)
        tag = None
        if kind == CH_CHARACTER:
            self.chars[who] = outcome
            self.log.append(("character", who, outcome))
        elif kind == CH_CAR:
            purses, jewels = CAR_CONFIGS[outcome]
            self.loot[2 * who][JEWEL] += jewels
            self.log.append(("car", who, outcome))
            self.queue[0:0] = [(CH_PURSE, who)] * purses
        elif kind == CH_PURSE:
            self.purse_pool[outcome] -= 1
            self.loot[2 * who][outcome] += 1
            self.log.append(("purse", who, outcome))
        elif kind == CH_ROUND:
            self._start_round(outcome if self.round < NUM_ROUNDS - 1 else NUM_REGULAR + outcome)
        else:
            self.deck[who][outcome] -= 1
            self.hand[who][outcome] += 1
            self.draws[who].append((self.round, outcome))
            tag = (T_DRAW, who, self.round)
        self.tags.append(tag)

    def _start_round(self, card: int):
        n = self.n
        self.card = card
        self.used_cards.append(card)
        self.log.append(("round", self.round, card))
        first = self.round % n
        turns = (TURNS_SMALL if n <= 4 else TURNS_LARGE)[card]
        self.sched = []
        for t, kind in enumerate(turns):
            step = -1 if kind == REVERSE else 1
            for i in range(n):
                p = (first + step * i) % n
                self.sched += [(p, t, kind)] * (2 if kind == DOUBLE else 1)
        self.sched_i = 0
        self.phase = PLAN
        for p in range(n):
            self.deck[p] = [d + h for d, h in zip(self.deck[p], self.hand[p])]
            self.hand[p] = [0] * NUM_CARD_TYPES
        self.round_decks.append(tuple(tuple(d) for d in self.deck))
        for p in range(n):
            self.queue += [(CH_DRAW, p)] * (HAND_SIZE + (DOC_EXTRA if self.chars[p] == DOC else 0))

    def _plan(self, action: int):
        p, turn, kind = self.sched[self.sched_i]
        if action == DRAW:
            count = min(CARDS_PER_DRAW, sum(self.deck[p]))
            self.queue += [(CH_DRAW, p)] * count
            self.log.append(("draw", p, count))
            self.tags.append(None)
        else:
            self.hand[p][action] -= 1
            hidden = kind == HIDDEN or (self.chars[p] == GHOST and turn == 0)
            self.pile.append((p, action, hidden, len(self.hist) - 1))
            self.log.append(("play", p, -1 if hidden else action, len(self.hist) - 1))
            self.tags.append((T_HIDDEN if hidden else T_FACE_UP, p, self.round))
        self.sched_i += 1
        if self.sched_i == len(self.sched):
            self.phase = RESOLVE

    def _settle(self):
        """After a move: end the rounds whose piles are empty once no chance node is pending."""
        while not self.queue and not self.done and self.phase == RESOLVE and not self.pile:
            self._round_event()
            self.round += 1
            if self.round == NUM_ROUNDS:
                self.done = True
            else:
                self.queue.append((CH_ROUND, self.round))

    # -- resolving cards ------------------------------------------------------------------
    def _neutral_bullet(self, q: int):
        self.deck[q][BULLET] += 1

    def _enter(self, q: int, car: int, roof: int):
        """Put bandit ``q`` at (car, roof); inside the marshal's car they are shot to the roof."""
        if not roof and car == self.marshal:
            self._neutral_bullet(q)
            roof = 1
        self.car[q], self.roof[q] = car, roof

    def _resolve(self, action: int):
        p, card, hidden, _ = self.pile.pop(0)
        self.deck[p][card] += 1
        self.tags.append(None)
        self.log.append(("resolve", p, card, action))
        if MOVE_TO <= action < CLIMB:
            self._enter(p, action - MOVE_TO, self.roof[p])
        elif action == CLIMB:
            self._enter(p, self.car[p], 1 - self.roof[p])
        elif MARSHAL_TO <= action < ROB_KIND:
            self._move_marshal(action - MARSHAL_TO)
        elif ROB_KIND <= action < ROB_NOTHING:
            k = action - ROB_KIND
            self.loot[2 * self.car[p] + self.roof[p]][k] -= 1
            self.ploot[p][k] += 1
        elif PUNCH_BASE <= action < PUNCH_NOBODY:
            q, forward, dropped = _decode_punch(action)
            spot = 2 * self.car[q] + self.roof[q]
            if dropped != NO_DROP:
                self.ploot[q][dropped] -= 1
                if self.chars[p] == CHEYENNE and dropped < JEWEL:
                    self.ploot[p][dropped] += 1
                else:
                    self.loot[spot][dropped] += 1
            self._enter(q, self.car[q] + (1 if forward else -1), self.roof[q])
        elif SHOOT_AT <= action < SHOOT_NOBODY:
            q = action - SHOOT_AT
            if self.bullets_left[p] > 0:
                self.bullets_left[p] -= 1
                self.deck[q][BULLET] += 1
            if self.chars[p] == DJANGO and self.car[q] != self.car[p]:
                dest = self.car[q] + (1 if self.car[q] > self.car[p] else -1)
                if 0 <= dest <= self.n:
                    self._enter(q, dest, self.roof[q])

    def _move_marshal(self, car: int):
        self.marshal = car
        for q in range(self.n):
            if self.car[q] == car and not self.roof[q]:
                self._neutral_bullet(q)
                self.roof[q] = 1

    def _round_event(self):
        n, card = self.n, self.card
        on_roof = [q for q in range(n) if self.roof[q]]
        if card == 0:      # Angry Marshal
            for q in on_roof:
                if self.car[q] == self.marshal:
                    self._neutral_bullet(q)
            if self.marshal > 0:
                self._move_marshal(self.marshal - 1)
        elif card == 1:    # Braking
            for q in on_roof:
                self.car[q] = min(self.car[q] + 1, n)
        elif card == 3:    # Passenger Rebellion
            for q in range(n):
                if not self.roof[q]:
                    self._neutral_bullet(q)
        elif card == 4:    # Swivel Arm
            for q in on_roof:
                self.car[q] = 0
        elif card == 5:    # Take It All
            if self.spare_box:
                self.spare_box = 0
                self.loot[2 * self.marshal][STRONGBOX] += 1
        elif card == 7:    # Marshal's Revenge
            for q in on_roof:
                if self.car[q] == self.marshal:
                    purses = [k for k in range(JEWEL) if self.ploot[q][k]]
                    if purses:
                        self.ploot[q][purses[0]] -= 1
        elif card == 8:    # Hostage
            for q in range(n):
                if self.car[q] == n:
                    self.ploot[q][HOSTAGE_REWARD_KIND] += 1
        elif card == 9:    # Pick Pocket
            for q in range(n):
                spot = 2 * self.car[q] + self.roof[q]
                alone = all(2 * self.car[r] + self.roof[r] != spot for r in range(n) if r != q)
                purses = [k for k in range(JEWEL) if self.loot[spot][k]]
                if alone and purses:
                    self.loot[spot][purses[-1]] -= 1
                    self.ploot[q][purses[-1]] += 1

    # -- scoring ----------------------------------------------------------------------------
    def bullet_cards(self, q: int) -> int:
        """Bullet cards bandit ``q`` has received (public)."""
        return self.deck[q][BULLET] + self.hand[q][BULLET] + sum(
            1 for o, c, _, _ in self.pile if o == q and c == BULLET)

    def best_shooters(self) -> list[int]:
        fewest = min(self.bullets_left)
        return [q for q in range(self.n) if self.bullets_left[q] == fewest]

    def scores(self) -> list[int]:
        """Dollars: loot, plus the shooter reward to the best shooters once the game is over."""
        out = [sum(c * v for c, v in zip(self.ploot[q], LOOT_VALUES)) for q in range(self.n)]
        if self.done:
            for q in self.best_shooters():
                out[q] += SHOOTER_REWARD
        return out

    def returns(self):
        if not self.done:
            return [0.0] * self.n
        scores = self.scores()
        return tt.win_shares([(scores[q], -self.bullet_cards(q)) for q in range(self.n)])

    # -- information ------------------------------------------------------------------------
    def _sees_card(self, player: int, entry) -> bool:
        return entry[0] == player or not entry[2]

    def _view(self, player: int) -> list[str]:
        n = self.n
        phase = "plan" if self.phase == PLAN else "resolve"
        card = ROUND_CARD_NAMES[self.card] if self.card >= 0 else "-"
        turn = (f" turn {self.sched[self.sched_i][1]}" if self.phase == PLAN and self.sched
                and self.sched_i < len(self.sched) else "")
        parts = [f"p{player} round {self.round} {card} {phase}{turn} mover {self.current_player()}",
                 "characters: " + ",".join(CHARACTER_NAMES[c] if c >= 0 else "?" for c in self.chars),
                 "spots: " + " ".join(f"{self.car[q]}{'r' if self.roof[q] else 'i'}"
                                      for q in range(n)) + f" marshal {self.marshal}",
                 f"bullets left {self.bullets_left} received "
                 f"{[self.bullet_cards(q) for q in range(n)]}",
                 "train loot: " + " | ".join(",".join(map(str, spot)) for spot in self.loot),
                 "bandit loot: " + " | ".join(",".join(map(str, lt)) for lt in self.ploot),
                 "hand: " + ",".join(map(str, self.hand[player])),
                 f"hand sizes {[sum(h) for h in self.hand]} deck sizes {[sum(d) for d in self.deck]}",
                 "pile: " + " ".join(f"{o}:{CARD_NAMES[c] if self._sees_card(player, e) else '?'}"
                                     f"{'*' if e[2] else ''}"
                                     for e in self.pile for o, c in [e[:2]])]
        return parts

    LOG_LABEL = "log"

    def _log_text(self):
        return ";".join(",".join(map(str, entry)) for entry in self.log)

    def information_state_string(self, player):
        mine = ",".join(f"{r}:{c}" for r, c in self.draws[player])
        return "\n".join(self._view(player) + [f"my draws: {mine}", f"log: {self._log_text()}"])

    # -- determinization --------------------------------------------------------------------
    def world_history(self, player: int, rng) -> list[int]:
        """The history with every outcome hidden from ``player`` redrawn (module docstring)."""
        blocks: dict[tuple[int, int], list[int]] = {}
        for i, tag in enumerate(self.tags):
            if tag is not None and tag[1] != player:
                blocks.setdefault((tag[1], tag[2]), []).append(i)
        pending = {e[3] for e in self.pile}
        revealed = {i for i, t in enumerate(self.tags)
                    if t is not None and t[0] == T_HIDDEN and i not in pending}
        actions = self.hist[:]
        for (q, r), indices in blocks.items():
            self._redraw_block(actions, indices, self.round_decks[r][q], revealed, rng)
        return actions

    def _redraw_block(self, actions, indices, deck, revealed, rng):
        """Redraw one opponent's draws and unrevealed face-down cards of one round, in place."""
        for _ in range(MAX_REJECTIONS):
            pool = list(deck)
            hand = [0] * NUM_CARD_TYPES
            drawn = {}
            for i in indices:
                kind = self.tags[i][0]
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

    def resample(self, player, rng):
        """A kernel rebuilt from ``world_history`` (keeps ``player``'s information state)."""
        k = ColtExpressKernel(self.n)
        for action in self.world_history(player, rng):
            k.apply(action)
        return k

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
                    card = self.hist[entry[3]]    # own face-down card, or resolved since
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


LEADER_SCALE = 5000.0   # dollars; TAG's ColtExpressHeuristic normalises loot by maxLoot = 5000


def heuristic(state) -> list[float]:
    """Value per player in [0, 1] for cutting a rollout short (pyspiel state or kernel).

    TAG's ``LeaderHeuristic`` (own game score minus the best other score), the heuristic of
    its ``ColtExpress_3P.json`` MCTS settings, on the dollars of ``kernel.scores()`` with the
    shooter reward counted in proportion to the rounds played (TAG's ``getGameScore``), scaled
    by ``LEADER_SCALE`` into [0, 1] (``_history_worlds.leader_heuristic``). Terminal states give
    the returns.
    """
    kernel = getattr(state, "kernel", state)
    if kernel.is_terminal():
        return kernel.returns()
    scores = [float(s) for s in kernel.scores()]
    progress = kernel.round / NUM_ROUNDS
    for q in kernel.best_shooters():
        scores[q] += SHOOTER_REWARD * progress
    return hw.leader_heuristic(scores, LEADER_SCALE)


