"""The former pure-Python 7 Wonders kernel, frozen: an independent oracle for differential tests.

Rules, views, tensors, log and world sampler exactly as
``lib/infosets/games/seven_wonders/game.py``'s ``WondersKernel`` held them at commit
b9c84d05d5567215e17c8e660d83f16454b0c7e7, before the port ran on its numba rules
(``infosets.games.seven_wonders.kernel``) through ``infosets.games.array_kernel``. Do not edit:
``test_seven_wonders_oracle.py`` plays the live port against this code, so a change to the
rules shows up as a disagreement here.

Game: 7 Wonders (Antoine Bauza, 2010) as TAG plays it (GAIGResearch/TabletopGames
``games/wonders7``), one of the games of Ravichandran, Goodman and Lucas, "Evaluation of
Perfect-Information Monte Carlo Tree Search in Imperfect-Information Games"
(docs/papers/pimcts_aggregation.md); the rules and the differences from TAG are in the
port's module docstring.
"""

from __future__ import annotations

import math
from functools import cache

from infosets.games import _tabletop as tt
from infosets.games.seven_wonders import cards as wc

GAME_NAME = "seven_wonders"
NUM_PLAYERS = 3
HAND = 7
TURNS = 6
PLAY, STAGE, DISCARD = range(3)
KIND_NAMES = ("build", "stage", "discard")
NUM_CARDS = wc.NUM_CARDS
NUM_ACTIONS = 3 * NUM_CARDS
START_COINS = 3
DISCARD_COINS = 3
MILITARY_WIN = {1: 1, 2: 3, 3: 5}
CARD_BY_NAME = {}
for _i, _card in enumerate(wc.CARDS):
    CARD_BY_NAME.setdefault(_card.name, []).append(_i)


def encode(kind: int, card: int) -> int:
    return kind * NUM_CARDS + card


def decode(action: int) -> tuple[int, int]:
    return divmod(action, NUM_CARDS)


def _sorted_draw_outcomes(pool: list[int], previous: int, slots: int) -> list[tuple[int, float]]:
    """Next card of a sorted uniform ``slots``-subset of ``pool`` after ``previous``."""
    above = [c for c in pool if c > previous]
    total = math.comb(len(above), slots)
    out = []
    for i, c in enumerate(above):
        ways = math.comb(len(above) - i - 1, slots - 1)
        if ways:
            out.append((c, ways / total))
    return out


@cache
def _science_points(compass: int, gear: int, tablet: int, wild: int) -> int:
    if wild == 0:
        return compass * compass + gear * gear + tablet * tablet + 7 * min(compass, gear, tablet)
    return max(_science_points(compass + 1, gear, tablet, wild - 1),
               _science_points(compass, gear + 1, tablet, wild - 1),
               _science_points(compass, gear, tablet + 1, wild - 1))


def _cheapest(need: tuple, groups: tuple) -> tuple | None:
    """Cheapest way to cover ``need`` (resource units) with unit groups.

    ``groups``: ((options, side, count, price per resource), ...) with side 0 own (price 0),
    1 left, 2 right. Returns (total, paid to left, paid to right) or None.
    """
    counts = [g[2] for g in groups]
    best = [None]

    def search(i, cost, left, right):
        if best[0] is not None and cost >= best[0][0]:
            return
        if i == len(need):
            best[0] = (cost, left, right)
            return
        r = need[i]
        for j, (options, side, _, price) in enumerate(groups):
            if counts[j] and r in options:
                counts[j] -= 1
                p = price[r]
                search(i + 1, cost + p, left + (p if side == 1 else 0),
                       right + (p if side == 2 else 0))
                counts[j] += 1
    search(0, 0, 0, 0)
    return best[0]


class WondersKernel(tt.Kernel):
    """Whole 7 Wonders state (3 players) with its history and knowledge records."""

    VALUE_FIELDS = ("n", "age", "turn", "cur", "done")
    LIST_FIELDS = ("wonders", "coins", "stages", "military", "pending", "packet", "queue",
                   "deck", "history", "log", "records", "discards")
    NESTED_FIELDS = ("hands", "built")
    __slots__ = VALUE_FIELDS + LIST_FIELDS + NESTED_FIELDS

    def __init__(self, n: int = NUM_PLAYERS):
        self.n = n
        self.age = 0
        self.turn = 0
        self.cur = 0
        self.done = False
        self.wonders = [-1] * n
        self.coins = [START_COINS] * n
        self.stages = [0] * n
        self.military = [0] * n
        self.pending = [-1] * n
        self.packet = list(range(n))
        self.hands = [[] for _ in range(n)]
        self.built = [[] for _ in range(n)]
        self.discards = []
        self.deck = []
        self.history = []
        self.log = []
        # ("deal", age, index, packet, card) / ("guild", age, index, card) /
        # ("move", age, index, turn, actor, packet, action)
        self.records = []
        self.queue = [("W", p) for p in range(n)]

    def fresh(self) -> WondersKernel:
        return WondersKernel(self.n)

    # -- flow ---------------------------------------------------------------------------
    def is_terminal(self):
        return self.done

    def current_player(self):
        if self.done:
            return tt.TERMINAL
        if self.queue:
            return tt.CHANCE
        return self.cur

    def chance_outcomes(self):
        item = self.queue[0]
        if item[0] == "W":
            free = [w for w in range(wc.NUM_WONDERS) if w not in self.wonders]
            return [(w, 1.0 / len(free)) for w in free]
        if item[0] == "G":
            picked = [c for c in self.deck if c in wc.GUILD_IDS]
            pool = [c for c in wc.GUILD_IDS if c not in picked]
            return _sorted_draw_outcomes(pool, max(picked, default=-1), item[1])
        _, packet, slots = item
        hand = self.hands[packet]
        return _sorted_draw_outcomes(self.deck, max(hand, default=-1), slots)

    def apply(self, action):
        index = len(self.history)
        self.history.append(action)
        if self.queue:
            item = self.queue.pop(0)
            if item[0] == "W":
                self.wonders[item[1]] = action
                self.log.append(("w", item[1], action))
            elif item[0] == "G":
                self.deck.append(action)
                self.records.append(("guild", self.age, index, action))
            else:
                self.hands[item[1]].append(action)
                self.deck.remove(action)
                self.records.append(("deal", self.age, index, item[1], action))
                self.log.append(("d", item[1], action))
            if not self.queue:
                if self.age == 0:
                    self._start_age(1)
                elif self.deck and len(self.hands[self.n - 1]) < HAND:
                    self._queue_deal()
            return
        p = self.cur
        self.pending[p] = action
        self.records.append(("move", self.age, index, self.turn, p, self.packet[p], action))
        if p < self.n - 1:
            self.cur = p + 1
        else:
            self._resolve()

    def _start_age(self, age: int):
        self.age = age
        self.turn = 0
        self.cur = 0
        self.packet = list(range(self.n))
        self.hands = [[] for _ in range(self.n)]
        self.deck = list(wc.AGE_CARDS[age])
        if age == 3:
            self.queue = [("G", wc.GUILDS_PER_GAME - i) for i in range(wc.GUILDS_PER_GAME)]
        else:
            self._queue_deal()

    def _queue_deal(self):
        self.deck.sort()
        self.queue = [("D", p, HAND - i) for p in range(self.n) for i in range(HAND)]

    # -- production and costs ----------------------------------------------------------
    def _units(self, p: int, sellable: bool) -> list[tuple]:
        units = [(wc.WONDERS[self.wonders[p]].resource,)]
        for c in self.built[p]:
            card = wc.CARDS[c]
            if card.produce and (not sellable or card.color in (wc.BROWN, wc.GREY)):
                units.extend(card.produce)
        if not sellable and self._stage_effect(p, "raw_choice"):
            units.append(wc.RAW)
        return units

    def _stage_effect(self, p: int, key: str) -> bool:
        effects = wc.WONDERS[self.wonders[p]].stage_effects[:self.stages[p]]
        return any(e[0] == key for e in effects)

    def _has_effect(self, p: int, effect: str) -> bool:
        return any(wc.CARDS[c].effect == effect for c in self.built[p])

    def cheapest_payment(self, p: int, cost: tuple) -> tuple | None:
        """(coins to pay for resources, to left, to right) for ``cost``, or None if impossible."""
        if not cost:
            return (0, 0, 0)
        n = self.n
        left, right = (p - 1) % n, (p + 1) % n
        need = list(cost)
        flexible = []
        for unit in self._units(p, sellable=False):
            if len(unit) == 1 and unit[0] in need:
                need.remove(unit[0])
            elif len(unit) > 1:
                flexible.append(unit)
        if not need:
            return (0, 0, 0)
        manufactured = 1 if self._has_effect(p, "manufactured") else 2
        price_left = [1 if self._has_effect(p, "raw_left") else 2] * 4 + [manufactured] * 3
        price_right = [1 if self._has_effect(p, "raw_right") else 2] * 4 + [manufactured] * 3
        groups = {}
        for side, units, price in ((0, flexible, (0,) * 7),
                                   (1, self._units(left, sellable=True), tuple(price_left)),
                                   (2, self._units(right, sellable=True), tuple(price_right))):
            for unit in units:
                if any(r in need for r in unit):
                    key = (unit, side, price)
                    groups[key] = groups.get(key, 0) + 1
        ordered = tuple((u, s, k, pr) for (u, s, pr), k in groups.items())
        return _cheapest(tuple(sorted(need)), ordered)

    def _owns_name(self, p: int, name: str) -> bool:
        return any(wc.CARDS[c].name == name for c in self.built[p])

    def _play_price(self, p: int, card_id: int) -> tuple | None:
        """Coins for building ``card_id`` (total, to left, to right), or None if impossible."""
        card = wc.CARDS[card_id]
        if self._owns_name(p, card.name):
            return None
        if any(self._owns_name(p, name) for name in card.chain):
            return (0, 0, 0)
        trade = self.cheapest_payment(p, card.cost)
        if trade is None or trade[0] + card.coins > self.coins[p]:
            return None
        return (trade[0] + card.coins, trade[1], trade[2])

    def _stage_price(self, p: int) -> tuple | None:
        if self.stages[p] >= 3:
            return None
        trade = self.cheapest_payment(p, wc.WONDERS[self.wonders[p]].stage_costs[self.stages[p]])
        if trade is None or trade[0] > self.coins[p]:
            return None
        return trade

    def legal_actions(self):
        if self.done or self.queue:
            return []
        p = self.cur
        stage_ok = self._stage_price(p) is not None
        actions = []
        for c in self.hands[p]:
            if self._play_price(p, c) is not None:
                actions.append(encode(PLAY, c))
            if stage_ok:
                actions.append(encode(STAGE, c))
            actions.append(encode(DISCARD, c))
        actions.sort()
        return actions

    def _resolve(self):
        n = self.n
        prices = []
        for p in range(n):
            kind, c = decode(self.pending[p])
            prices.append(self._play_price(p, c) if kind == PLAY else
                          self._stage_price(p) if kind == STAGE else (0, 0, 0))
        for p in range(n):
            kind, c = decode(self.pending[p])
            total, to_left, to_right = prices[p]
            self.coins[p] -= total
            self.coins[(p - 1) % n] += to_left
            self.coins[(p + 1) % n] += to_right
            self.hands[p].remove(c)
            if kind == PLAY:
                self.built[p].append(c)
            elif kind == STAGE:
                effect = wc.WONDERS[self.wonders[p]].stage_effects[self.stages[p]]
                self.stages[p] += 1
                if effect[0] == "coins":
                    self.coins[p] += effect[1]
            else:
                self.coins[p] += DISCARD_COINS
                self.discards.append(c)
        for p in range(n):
            kind, c = decode(self.pending[p])
            if kind == PLAY:
                self.coins[p] += self._yellow_coins(p, wc.CARDS[c].effect)
        self.log.append(("r", self.age, self.turn, tuple(self.pending)))
        self.pending = [-1] * n
        self.cur = 0
        self.turn += 1
        if self.turn < TURNS:
            self._pass_hands()
        else:
            self._end_age()

    def _yellow_coins(self, p: int, effect: str) -> int:
        if effect == "vineyard":
            return sum(self._count(q, wc.BROWN) for q in (p, (p - 1) % self.n, (p + 1) % self.n))
        if effect == "haven":
            return self._count(p, wc.BROWN)
        if effect == "lighthouse":
            return self._count(p, wc.YELLOW)
        if effect == "arena":
            return 3 * self.stages[p]
        return 0

    def _count(self, p: int, color: int) -> int:
        return sum(wc.CARDS[c].color == color for c in self.built[p])

    def _pass_hands(self):
        n = self.n
        step = -1 if self.age == 2 else 1    # ages I, III: player i receives i + 1's hand
        self.hands = [self.hands[(i + step) % n] for i in range(n)]
        self.packet = [self.packet[(i + step) % n] for i in range(n)]
        for p in range(n):
            self.log.append(("h", p, tuple(sorted(self.hands[p])), self.age, self.turn))

    def _end_age(self):
        n = self.n
        for p in range(n):
            self.discards.extend(self.hands[p])
            self.hands[p] = []
        shields = [self._shields(p) for p in range(n)]
        for p in range(n):
            for q in ((p - 1) % n, (p + 1) % n):
                if shields[p] > shields[q]:
                    self.military[p] += MILITARY_WIN[self.age]
                elif shields[p] < shields[q]:
                    self.military[p] -= 1
        self.log.append(("m", self.age, tuple(self.military)))
        if self.age == 3:
            self.done = True
            self.cur = -1
            return
        self._start_age(self.age + 1)

    def _shields(self, p: int) -> int:
        total = sum(wc.CARDS[c].shields for c in self.built[p])
        for effect in wc.WONDERS[self.wonders[p]].stage_effects[:self.stages[p]]:
            if effect[0] == "shields":
                total += effect[1]
        return total

    # -- scoring -------------------------------------------------------------------------
    def scores(self) -> list[int]:
        """Victory points if the game were scored now."""
        return [self._score(p) for p in range(self.n)]

    def _score(self, p: int) -> int:
        n = self.n
        left, right = (p - 1) % n, (p + 1) % n
        total = self.military[p] + self.coins[p] // 3
        wonder = wc.WONDERS[self.wonders[p]] if self.wonders[p] >= 0 else None
        science = [0, 0, 0]
        wild = 0
        if wonder is not None:
            for effect in wonder.stage_effects[:self.stages[p]]:
                if effect[0] == "vp":
                    total += effect[1]
                elif effect[0] == "science_choice":
                    wild += 1
        for c in self.built[p]:
            card = wc.CARDS[c]
            total += card.vp
            if card.science >= 0:
                science[card.science] += 1
            effect = card.effect
            if effect == "haven":
                total += self._count(p, wc.BROWN)
            elif effect == "lighthouse":
                total += self._count(p, wc.YELLOW)
            elif effect == "arena":
                total += self.stages[p]
            elif effect.startswith("neighbours_"):
                color = wc.COLOR_NAMES.index(effect.split("_")[1])
                per = 2 if color == wc.GREY else 1
                total += per * (self._count(left, color) + self._count(right, color))
            elif effect == "shipowners":
                total += sum(self._count(p, col) for col in (wc.BROWN, wc.GREY, wc.PURPLE))
            elif effect == "builders":
                total += self.stages[p] + self.stages[left] + self.stages[right]
            elif effect == "decorators":
                total += 7 if self.stages[p] == 3 else 0
            elif effect == "science_choice":
                wild += 1
        return total + _science_points(science[0], science[1], science[2], wild)

    def returns(self):
        if not self.done:
            return [0.0] * self.n
        return tt.win_shares([(s, self.coins[p]) for p, s in enumerate(self.scores())])

    # -- information ---------------------------------------------------------------------
    def _names(self, cards) -> str:
        return ",".join(str(c) for c in sorted(cards)) or "-"

    def _view(self, player: int) -> list[str]:
        lines = [f"p{player} age {self.age} turn {self.turn} mover {self.current_player()}",
                 f"hand: {self._names(self.hands[player])}",
                 f"my pick: {self.pending[player]}"]
        for q in range(self.n):
            lines.append(f"p{q} wonder {self.wonders[q]} stages {self.stages[q]} coins "
                         f"{self.coins[q]} military {self.military[q]} picked "
                         f"{int(self.pending[q] >= 0)} built {self._names(self.built[q])}")
        return lines

    def information_state_string(self, player: int) -> str:
        entries = []
        for entry in self.log:
            kind = entry[0]
            if kind == "w":
                entries.append(f"w{entry[1]}:{entry[2]}")
            elif kind == "d":
                entries.append(f"d{entry[1]}:{entry[2] if entry[1] == player else '?'}")
            elif kind == "h":
                if entry[1] == player:
                    entries.append(f"h:{self._names(entry[2])}")
            elif kind == "r":
                moves = []
                for q, action in enumerate(entry[3]):
                    k, c = decode(action)
                    moves.append(f"{KIND_NAMES[k]}{c if k == PLAY or q == player else '?'}")
                entries.append(f"r{entry[1]}.{entry[2]}:" + "/".join(moves))
            else:
                entries.append(f"m{entry[1]}:{','.join(map(str, entry[2]))}")
        return "\n".join(self._view(player) + ["log: " + ";".join(entries)])

    def _holder(self, age: int, packet: int, turn: int) -> int:
        return (packet + turn) % self.n if age == 2 else (packet - turn) % self.n

    def world_history(self, player: int, rng) -> list[int]:
        """A uniform consistent world for ``player`` (see the module docstring)."""
        while True:
            history = self._draw_cards(player, rng)
            result = self._draw_pending(player, history, rng)
            if result is not None:
                return result

    def _draw_cards(self, player: int, rng) -> list[int]:
        history = self.history[:]
        for age in range(1, self.age + 1):
            self._draw_age(player, age, history, rng)
        return history

    def _draw_age(self, player: int, age: int, history: list[int], rng) -> None:
        """Redraw in ``history`` every card identity of ``age`` that ``player`` has not seen."""
        deals, guild_slots, moves = self._age_records(age)
        if not any(deals):
            return                      # the age's deal has not started: nothing hidden yet
        if any(len(d) < HAND for d in deals):
            raise ValueError("state: worlds are drawn at decision or terminal nodes, not "
                             "during a deal")
        finished = age < self.age or self.done
        resolved = TURNS if finished else self.turn
        begun = TURNS if finished else self.turn + 1
        known = set()                   # cards of this age the player knows are in the deck
        world_initial = [[] for _ in range(self.n)]
        free_places = []                # (packet, history index or -1 for a hand place)
        exact_hidden = []               # (history indices, cards) to permute
        for k in range(self.n):
            self._packet_knowledge(player, age, k, deals[k], moves, resolved, begun, known,
                                   world_initial, free_places, exact_hidden)
        self._fill_unseen(age, known, free_places, world_initial, history, rng)
        for hidden_idx, pool in exact_hidden:
            pool = list(pool)
            tt.shuffle_in_place(pool, rng)
            for index, card in zip(hidden_idx, pool):
                history[index] = card
        self._write_deals(player, age, deals, guild_slots, moves, resolved, world_initial, history)

    def _age_records(self, age: int) -> tuple[list, list, dict]:
        """The deals (per packet: (history index, card)), guild slots and moves of ``age``."""
        deals = [[] for _ in range(self.n)]
        guild_slots = []
        moves = {}
        for rec in self.records:
            if rec[1] != age:
                continue
            if rec[0] == "deal":
                deals[rec[3]].append((rec[2], rec[4]))
            elif rec[0] == "guild":
                guild_slots.append(rec[2])
            else:
                _, _, index, turn, actor, packet, action = rec
                moves[(packet, turn)] = (index, actor, action)
        return deals, guild_slots, moves

    def _packet_knowledge(self, player: int, age: int, k: int, deal: list, moves: dict,
                          resolved: int, begun: int, known: set, world_initial: list,
                          free_places: list, exact_hidden: list) -> None:
        """What ``player`` knows of packet ``k``: the cards it was seen with, its free places
        and the face-down cards between two looks (appended to the last four arguments)."""
        initial = [c for _, c in deal]
        content = list(initial)
        contents = {}
        for t in range(begun):
            contents[t] = list(content)
            if t < resolved:
                content.remove(decode(moves[(k, t)][2])[1])
        holds = [t for t in range(begun) if self._holder(age, k, t) == player]
        if k == player:
            world_initial[k] = initial[:]
        first = holds[0] if holds else begun
        # Before the first look: face-up plays are known, face-down cards are free.
        before = []
        for t in range(min(first, resolved)):
            index, actor, action = moves[(k, t)]
            kind, card = decode(action)
            if kind == PLAY or actor == player:
                known.add(card)
                before.append(card)
            else:
                free_places.append((k, index))
        if not holds:
            world_initial[k] = before
            hidden_count = sum(1 for kk, _ in free_places if kk == k)
            left = HAND - len(before) - hidden_count
            free_places.extend((k, -1) for _ in range(left))
            return
        seen = contents[first]
        known.update(seen)
        if k != player:
            world_initial[k] = before + seen
        # Between and after looks.
        for i, h in enumerate(holds):
            if h >= resolved:
                break
            mine = decode(moves[(k, h)][2])[1]
            known.add(mine)
            end = holds[i + 1] if i + 1 < len(holds) else None
            stop = end if end is not None else resolved
            pool = [c for c in contents[h] if c != mine]
            hidden_idx = []
            for t in range(h + 1, min(stop, resolved)):
                index, actor, action = moves[(k, t)]
                kind, card = decode(action)
                if kind == PLAY:
                    known.add(card)
                    pool.remove(card)
                else:
                    hidden_idx.append(index)
            if end is not None:
                vanished = [c for c in pool if c not in contents[end]]
                exact_hidden.append((hidden_idx, vanished))
            else:
                exact_hidden.append((hidden_idx, pool))   # draw injectively from pool

    def _fill_unseen(self, age: int, known: set, free_places: list, world_initial: list,
                     history: list[int], rng) -> None:
        """Deal the age's unseen cards (and unseen guilds in age III) uniformly into the
        free places."""
        unseen_fixed = [c for c in wc.AGE_CARDS[age] if c not in known]
        cards = unseen_fixed
        if age == 3:
            unseen_guilds = [c for c in wc.GUILD_IDS if c not in known]
            tt.shuffle_in_place(unseen_guilds, rng)
            cards = unseen_fixed + unseen_guilds[:len(free_places) - len(unseen_fixed)]
        if len(cards) != len(free_places):
            raise AssertionError("unseen cards do not match the free places")
        tt.shuffle_in_place(cards, rng)
        for (k, index), card in zip(free_places, cards):
            world_initial[k].append(card)
            if index >= 0:
                history[index] = card

    def _write_deals(self, player: int, age: int, deals: list, guild_slots: list, moves: dict,
                     resolved: int, world_initial: list, history: list[int]) -> None:
        """Write the world's deals (card-id order), age III guilds and face-down actions."""
        for k in range(self.n):
            slots = [i for i, _ in deals[k]]
            dealt = sorted(world_initial[k])
            for index, card in zip(slots, dealt):
                history[index] = card
        if age == 3 and guild_slots:
            guilds = sorted(c for k in range(self.n) for c in world_initial[k] if c in wc.GUILD_IDS)
            for index, card in zip(guild_slots, guilds):
                history[index] = card
        # Face-down card ids live in the action ids: rewrite them with their kind.
        for (_packet, t), (index, actor, action) in moves.items():
            if t < resolved and actor != player and decode(action)[0] != PLAY:
                history[index] = encode(decode(action)[0], history[index])

    def _draw_pending(self, player: int, history: list[int], rng) -> list[int] | None:
        pending = [(rec[2], rec[4]) for rec in self.records
                   if rec[0] == "move" and rec[1] == self.age and rec[3] == self.turn
                   and not self.done]
        start = pending[0][0] if pending else len(history)
        k = self.fresh()
        for action in history[:start]:
            k.apply(action)
        for index, actor in pending:
            if actor == player:
                k.apply(self.history[index])
                continue
            legal = k.legal_actions()
            if rng.random() * 3 * len(k.hands[actor]) >= len(legal):
                return None
            k.apply(legal[min(int(rng.random() * len(legal)), len(legal) - 1)])
        return k.history

    def resample(self, player, rng):
        k = self.fresh()
        for action in self.world_history(player, rng):
            k.apply(action)
        return k

    # -- tensors -------------------------------------------------------------------------
    def tensor_pieces(self, perfect_recall: bool) -> list[tuple[str, tuple]]:
        n, c = self.n, NUM_CARDS
        pieces = [("player", (n,)), ("age", (3,)), ("turn", (TURNS,)), ("mover", (n,)),
                  ("hand", (c,)), ("my_pick", (NUM_ACTIONS,)), ("picked", (n,)),
                  ("wonder", (n, wc.NUM_WONDERS)), ("stages", (n, 4)), ("built", (n, c)),
                  ("coins", (n,)), ("shields", (n,)), ("military", (n,))]
        if perfect_recall:
            pieces += [("seen_hands", (3, TURNS, c)), ("reveals", (3, TURNS, n, 3 + c))]
        return pieces

    def fill_tensor(self, player: int, perfect_recall: bool, views: dict) -> None:
        views["player"][player] = 1
        if 1 <= self.age <= 3 and not self.done:
            views["age"][self.age - 1] = 1
            views["turn"][min(self.turn, TURNS - 1)] = 1
        mover = self.current_player()
        if mover >= 0:
            views["mover"][mover] = 1
        for c in self.hands[player]:
            views["hand"][c] = 1
        if self.pending[player] >= 0:
            views["my_pick"][self.pending[player]] = 1
        for q in range(self.n):
            views["picked"][q] = self.pending[q] >= 0
            if self.wonders[q] >= 0:
                views["wonder"][q, self.wonders[q]] = 1
            views["stages"][q, self.stages[q]] = 1
            for c in self.built[q]:
                views["built"][q, c] = 1
            views["coins"][q] = self.coins[q] / 50.0
            views["shields"][q] = self._shields(q) / 20.0 if self.wonders[q] >= 0 else 0.0
            views["military"][q] = self.military[q] / 20.0
        if not perfect_recall:
            return
        seen = views["seen_hands"]
        for rec in self.records:
            if rec[0] == "deal" and rec[3] == player:
                seen[rec[1] - 1, 0, rec[4]] = 1
        for entry in self.log:
            if entry[0] == "h" and entry[1] == player:
                for c in entry[2]:
                    seen[entry[3] - 1, entry[4], c] = 1
        for entry in self.log:
            if entry[0] != "r":
                continue
            _, age, turn, actions = entry
            for q, action in enumerate(actions):
                kind, c = decode(action)
                views["reveals"][age - 1, turn, q, kind] = 1
                if kind == PLAY or q == player:
                    views["reveals"][age - 1, turn, q, 3 + c] = 1

    def action_to_string(self, player, action):
        if player == tt.CHANCE:
            if self.queue and self.queue[0][0] == "W":
                return f"wonder {wc.WONDERS[action].name}"
            return f"deal {wc.CARDS[action].name}"
        kind, c = decode(action)
        return f"{KIND_NAMES[kind]} {wc.CARDS[c].name}"

    def _state_line(self):
        return (f"age {self.age} turn {self.turn} mover {self.current_player()} "
                f"history {','.join(map(str, self.history))}")

    def _player_line(self, p):
        return (f"p{p} wonder {self.wonders[p]} hand {sorted(self.hands[p])} pick "
                f"{self.pending[p]} built {self.built[p]} stages {self.stages[p]} coins "
                f"{self.coins[p]} military {self.military[p]}")


def heuristic(state) -> list[float]:
    """TAG's PureScoreHeuristic mapped to [0, 1] (see the module docstring).

    Args:
      state: a ``seven_wonders`` pyspiel state or its kernel.
    """
    kernel = getattr(state, "kernel", state)
    if kernel.is_terminal():
        return kernel.returns()
    if min(kernel.wonders) < 0:
        return [0.0] * kernel.n
    return [max(0.0, min(1.0, s / 100.0)) for s in kernel.scores()]
