"""7 Wonders (Antoine Bauza, 2010) as TAG plays it, an OpenSpiel game, short name ``seven_wonders``.

7 Wonders is one of the TAG games of Ravichandran, Goodman and Lucas, "Evaluation of
Perfect-Information Monte Carlo Tree Search in Imperfect-Information Games"
(docs/papers/pimcts_aggregation.md), where PI-MCTS does worse than the baseline. Rules from the
published rulebook and TAG's ``games/wonders7`` (Wonders7ForwardModel and the actions);
the code and the card data (``_wonders7_cards``) are ours.

Rules: three players, each with a wonder board (dealt at random) producing one resource,
3 coins, and three ages. Each age deals 7 cards to every player; in each of 6 turns every
player chooses one card of their hand and either builds it (paying its coins and
resources, or free when they own the card it chains from), builds the next stage of their
wonder with it (paying the stage's resources; the card is put face down), or discards it
face down for 3 coins. The choices are revealed together and the hands pass to the left in
ages I and III (player i receives player i+1's hand) and to the right in age II. The 7th
card is discarded. Missing resources are bought from the two neighbours' brown and grey
cards and wonder resource, 2 coins each (1 for raw materials from the side of a trading
post, 1 for manufactured goods with the Marketplace); a player never builds two cards of
the same name. After each age, every player compares shields with both neighbours: +1/+3/+5
for more (age I/II/III), -1 for fewer. Score: military, coins // 3, wonder stages, blue
cards, age III yellow cards, guilds and science (sum of squares of each symbol count plus 7
per complete set; science wildcards take the best symbol). Most points wins, ties go to
most coins, remaining ties share the win (returns are win shares, constant sum 1).

Simplifications against TAG and the rulebook (each stated with its reason):

1. Three players only, the paper's count (``players`` is fixed at 3). At three players the
   21 cards of each age are all different, which this port's exact world sampler relies on;
   other counts need TAG's larger card lists with repeated cards.
2. Wonder boards use their A side (TAG draws side A or B at random).
3. The two wonder stages whose effect is a special action are built for their cost but
   have no effect: Olympia's stage 2 (build a card free once per age) and Halicarnassus's
   stage 2 (build a card from the discard pile). Modelling them needs extra decision phases.
4. The simultaneous choice is sequential with hidden choices (players 0, 1, 2 choose in
   turn, revealed together), as in TAG and our Sushi Go! port. All payments of a turn are
   computed from the state before the turn, then all coins move.
5. Trading always takes the cheapest purchase, found by search over the units that can pay
   (own production first, then the left neighbour, then the right); the player does not
   choose among equally cheap purchases. Yellow cards that give coins count the cards on
   the table after every choice of the turn is placed.
6. Hands are dealt in card-id order: each deal chance node draws the next card of a hand
   among the higher ids, with weights that make every 7-card hand equally likely (the same
   distribution as shuffling), so a hand is one history. The 5 guilds of age III are drawn
   the same way. Wonders are dealt one chance node per player.

Actions: ``kind * 68 + card`` with kind PLAY 0, STAGE 1, DISCARD 2 and ``card`` the card id
(``_wonders7_cards.CARDS``: 21 per age, then the 10 guilds). Chance outcomes: wonder ids
(0-6) at the start, then card ids.

Hidden information and worlds: a player sees their own hands, the cards built by everyone,
and what they themselves put face down. A hand passes around the table, so a player who
held it knows its content then, and afterwards knows it lost the cards played face up and
some unknown cards put face down. ``world_history`` redraws, age by age, every card
identity the player has not seen: face-down cards put by others, the content of hands not
seen, the cards dealt to others, the age III guilds, and the choices others made this turn
that are not yet revealed. It is uniform over the consistent histories (chance-weighted:
every consistent deal has the same probability): unseen cards are dealt uniformly into the
free places, a face-down card between two looks at the same hand is a uniform permutation
of the cards that vanished, and the hidden choices of this turn are drawn uniformly among
the chooser's legal moves with a rejection step (accept with probability legal moves / 3 *
hand size) so that hands with more legal moves weigh more, as in the count of worlds.

Tensors (n = 3 players, C = 68 cards, A = 3 * 68 actions). ``observation_tensor``:

    player [n]     one-hot of the observer         age [3], turn [6]   one-hot
    mover [n]      player to choose (zero at chance / terminal)
    hand [C]       the observer's hand             my_pick [A]   the observer's hidden choice
    picked [n]     who has chosen this turn        wonder [n, 7] wonder of each player
    stages [n, 4]  stages built (one-hot 0-3)      built [n, C]  cards built by each player
    coins [n] (/ 50), shields [n] (/ 20), military [n] (tokens, / 20)

``information_state_tensor`` adds the observer's perfect recall:

    seen_hands [3, 6, C]         the observer's hand at the start of every turn
    reveals [3, 6, n, 3 + C]     every revealed choice: kind one-hot, and the card when it
                                 was played face up or was the observer's own

Heuristic for PI-MCTS rollout cut-offs: ``heuristic(state)`` is TAG's ``PureScoreHeuristic``
(named by ``json/players/gameSpecific/Wonders7/Wonders7_3P.json``): each player's victory
points if the game were scored now, divided by 100 and clipped to [0, 1] (a fixed map;
TAG normalises by the range seen during the search); at a terminal state the returns.

The rules are written once, in ``kernel.py`` (numba, on an int64 array): ``WondersKernel`` is
an ``array_kernel.ArrayKernel`` playing them and reading the array for the string views,
tensors, public log, world sampler and heuristic, so the adapter, the Python reference engine
and the compiled engine play the same rules.
"""

from __future__ import annotations

import numpy as np

from infosets.games import _history_worlds as hw
from infosets.games import _tabletop as tt
from infosets.games.array_kernel import ArrayKernel
from infosets.games.seven_wonders import cards as wc
from infosets.games.seven_wonders import kernel as wk
from infosets.games.seven_wonders.kernel import DISCARD, HAND, NUM_ACTIONS, PLAY, STAGE, TURNS  # noqa: F401

GAME_NAME = "seven_wonders"
NUM_PLAYERS = wk.NP
KIND_NAMES = ("build", "stage", "discard")
NUM_CARDS = wc.NUM_CARDS
CARD_BY_NAME = {}
for _i, _card in enumerate(wc.CARDS):
    CARD_BY_NAME.setdefault(_card.name, []).append(_i)


def encode(kind: int, card: int) -> int:
    return kind * NUM_CARDS + card


def decode(action: int) -> tuple[int, int]:
    return divmod(action, NUM_CARDS)


def _hand_slice(p: int) -> slice:
    return slice(wk.HANDS + p * NUM_CARDS, wk.HANDS + (p + 1) * NUM_CARDS)


_LOG_CACHE: dict[bytes, list] = {}  # history bytes -> its decoded public log
_LOG_CACHE_SIZE = 4096


class WondersKernel(ArrayKernel):
    """A 7 Wonders state (3 players): the kernel's array (``self.s``), played by its jitted
    rules; the fields below read it (as Python values)."""

    __slots__ = ()
    RULES = wk
    NUM_ACTIONS = wk.NUM_ACTIONS
    MAX_PLAYERS = NUM_PLAYERS
    n = NUM_PLAYERS

    def __init__(self, n: int = NUM_PLAYERS):
        if n != NUM_PLAYERS:
            raise ValueError(f"players: 7 Wonders is played by {NUM_PLAYERS} here, got {n}")
        super().__init__(wk.new_state())

    def fresh(self) -> WondersKernel:
        return WondersKernel()

    # -- the array's fields, read-only ----------------------------------------------------
    age = property(lambda self: int(self.s[wk.AGE]))
    turn = property(lambda self: int(self.s[wk.TURN]))
    cur = property(lambda self: int(self.s[wk.CUR]))
    done = property(lambda self: bool(self.s[wk.DONE]))
    wonders = property(lambda self: self._seats(wk.WONDERS))
    coins = property(lambda self: self._seats(wk.COINS))
    stages = property(lambda self: self._seats(wk.STAGES))
    military = property(lambda self: self._seats(wk.MILITARY))
    pending = property(lambda self: self._seats(wk.PENDING))
    packet = property(lambda self: self._seats(wk.PACKET))
    deck = property(lambda self: np.flatnonzero(self.s[wk.DECK : wk.DECK + NUM_CARDS]).tolist())

    def _seats(self, base: int) -> list[int]:
        return self.s[base : base + NUM_PLAYERS].tolist()

    @property
    def hands(self) -> list[list[int]]:
        """Each player's hand, in card-id order."""
        return [np.flatnonzero(self.s[_hand_slice(p)]).tolist() for p in range(NUM_PLAYERS)]

    @property
    def built(self) -> list[list[int]]:
        """Each player's built cards, in building order."""
        s = self.s
        return [
            s[wk.BUILT + p * wk.MAXB : wk.BUILT + p * wk.MAXB + s[wk.NBUILT + p]].tolist()
            for p in range(NUM_PLAYERS)
        ]

    @property
    def history(self) -> list[int]:
        """Every action applied (chance outcomes included)."""
        return wk.array_history(self.s)

    def _entries(self) -> zip:
        """(action, meta) of every history entry (meta: kernel.py's META layout)."""
        s, hlen = self.s, int(self.s[wk.HLEN])
        return zip(s[wk.HIST : wk.HIST + hlen].tolist(), s[wk.META : wk.META + hlen].tolist())

    @property
    def records(self) -> list[tuple]:
        """("deal", age, index, packet, card) / ("guild", age, index, card) /
        ("move", age, index, turn, actor, packet, action), in history order."""
        out = []
        for i, (action, meta) in enumerate(self._entries()):
            kind, packet, age = meta & 7, (meta >> 3) & 7, meta >> 13
            if kind == wk.M_DEAL:
                out.append(("deal", age, i, packet, action))
            elif kind == wk.M_GUILD:
                out.append(("guild", age, i, action))
            elif kind == wk.M_MOVE:
                out.append(("move", age, i, (meta >> 6) & 15, (meta >> 10) & 7, packet, action))
        return out

    @property
    def log(self) -> list[tuple]:
        """The public log: ("w", player, wonder), ("d", packet, card), ("r", age, turn,
        choices), ("h", player, hand after the pass, age, turn), ("m", age, military).
        A function of the history, decoded once per history (a shared list: do not mutate)."""
        s = self.s
        key = s[wk.HIST : wk.HIST + s[wk.HLEN]].tobytes()
        log = _LOG_CACHE.get(key)
        if log is None:
            if len(_LOG_CACHE) >= _LOG_CACHE_SIZE:
                _LOG_CACHE.clear()
            log = _LOG_CACHE[key] = self._decode_log()
        return log

    def _decode_log(self) -> list[tuple]:
        out, contents, choices, dealt_age = [], [], [], 0
        for action, meta in self._entries():
            kind = meta & 7
            if kind == wk.M_MOVE:
                choices.append(((meta >> 3) & 7, action))
                if len(choices) == NUM_PLAYERS:
                    self._log_turn(out, contents, choices, meta >> 13, (meta >> 6) & 15)
                    choices = []
            elif kind == wk.M_DEAL:
                if meta >> 13 != dealt_age:
                    contents, dealt_age = [set() for _ in range(NUM_PLAYERS)], meta >> 13
                contents[(meta >> 3) & 7].add(action)
                out.append(("d", (meta >> 3) & 7, action))
            elif kind == wk.M_WONDER:
                out.append(("w", (meta >> 3) & 7, action))
        return out

    def _log_turn(self, out: list, contents: list, choices: list, age: int, turn: int) -> None:
        """The log entries of a resolved turn (the reveal, then the passed hands or the
        military tokens at the age's end); the chosen cards leave their packets."""
        out.append(("r", age, turn, tuple(action for _, action in choices)))
        for packet, action in choices:
            contents[packet].discard(action % NUM_CARDS)
        if turn + 1 < TURNS:
            step = -(turn + 1) if age == 2 else turn + 1  # the packet player p holds next
            for p in range(NUM_PLAYERS):
                out.append(("h", p, tuple(sorted(contents[(p + step) % NUM_PLAYERS])), age, turn + 1))
        else:
            base = wk.MILLOG + (age - 1) * NUM_PLAYERS
            out.append(("m", age, tuple(self.s[base : base + NUM_PLAYERS].tolist())))

    def scores(self) -> list[int]:
        """Victory points if the game were scored now."""
        return [int(wk._score(self.s, p)) for p in range(NUM_PLAYERS)]

    # -- information ---------------------------------------------------------------------
    def _names(self, cards) -> str:
        return ",".join(str(c) for c in sorted(cards)) or "-"

    def _view(self, player: int) -> list[str]:
        pending, wonders, stages = self.pending, self.wonders, self.stages
        coins, military, built = self.coins, self.military, self.built
        lines = [
            f"p{player} age {self.age} turn {self.turn} mover {self.current_player()}",
            f"hand: {self._names(self.hands[player])}",
            f"my pick: {pending[player]}",
        ]
        for q in range(NUM_PLAYERS):
            lines.append(
                f"p{q} wonder {wonders[q]} stages {stages[q]} coins "
                f"{coins[q]} military {military[q]} picked "
                f"{int(pending[q] >= 0)} built {self._names(built[q])}"
            )
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
        records = self.records
        while True:
            history = self._draw_cards(player, records, rng)
            result = self._draw_pending(player, records, history, rng)
            if result is not None:
                return result

    def _draw_cards(self, player: int, records: list, rng) -> list[int]:
        history = self.history
        for age in range(1, self.age + 1):
            self._draw_age(player, age, records, history, rng)
        return history

    def _draw_age(self, player: int, age: int, records: list, history: list[int], rng) -> None:
        """Redraw in ``history`` every card identity of ``age`` that ``player`` has not seen."""
        deals, guild_slots, moves = self._age_records(age, records)
        if not any(deals):
            return  # the age's deal has not started: nothing hidden yet
        if any(len(d) < HAND for d in deals):
            raise ValueError("state: worlds are drawn at decision or terminal nodes, not during a deal")
        finished = age < self.age or self.done
        resolved = TURNS if finished else self.turn
        begun = TURNS if finished else self.turn + 1
        known = set()  # cards of this age the player knows are in the deck
        world_initial = [[] for _ in range(self.n)]
        free_places = []  # (packet, history index or -1 for a hand place)
        exact_hidden = []  # (history indices, cards) to permute
        for k in range(self.n):
            self._packet_knowledge(
                player,
                age,
                k,
                deals[k],
                moves,
                resolved,
                begun,
                known,
                world_initial,
                free_places,
                exact_hidden,
            )
        self._fill_unseen(age, known, free_places, world_initial, history, rng)
        for hidden_idx, pool in exact_hidden:
            pool = list(pool)
            tt.shuffle_in_place(pool, rng)
            for index, card in zip(hidden_idx, pool):
                history[index] = card
        self._write_deals(player, age, deals, guild_slots, moves, resolved, world_initial, history)

    @staticmethod
    def _age_records(age: int, records: list) -> tuple[list, list, dict]:
        """The deals (per packet: (history index, card)), guild slots and moves of ``age``."""
        deals = [[] for _ in range(NUM_PLAYERS)]
        guild_slots = []
        moves = {}
        for rec in records:
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

    def _packet_knowledge(
        self,
        player: int,
        age: int,
        k: int,
        deal: list,
        moves: dict,
        resolved: int,
        begun: int,
        known: set,
        world_initial: list,
        free_places: list,
        exact_hidden: list,
    ) -> None:
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
                exact_hidden.append((hidden_idx, pool))  # draw injectively from pool

    def _fill_unseen(
        self, age: int, known: set, free_places: list, world_initial: list, history: list[int], rng
    ) -> None:
        """Deal the age's unseen cards (and unseen guilds in age III) uniformly into the
        free places."""
        unseen_fixed = [c for c in wc.AGE_CARDS[age] if c not in known]
        cards = unseen_fixed
        if age == 3:
            unseen_guilds = [c for c in wc.GUILD_IDS if c not in known]
            tt.shuffle_in_place(unseen_guilds, rng)
            cards = unseen_fixed + unseen_guilds[: len(free_places) - len(unseen_fixed)]
        if len(cards) != len(free_places):
            raise AssertionError("unseen cards do not match the free places")
        tt.shuffle_in_place(cards, rng)
        for (k, index), card in zip(free_places, cards):
            world_initial[k].append(card)
            if index >= 0:
                history[index] = card

    def _write_deals(
        self,
        player: int,
        age: int,
        deals: list,
        guild_slots: list,
        moves: dict,
        resolved: int,
        world_initial: list,
        history: list[int],
    ) -> None:
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

    def _draw_pending(self, player: int, records: list, history: list[int], rng) -> list[int] | None:
        pending = [
            (rec[2], rec[4])
            for rec in records
            if rec[0] == "move" and rec[1] == self.age and rec[3] == self.turn and not self.done
        ]
        start = pending[0][0] if pending else len(history)
        k = self.fresh()
        wk.nb_apply_history(k.s, np.asarray(history[:start], dtype=np.int64))
        for index, actor in pending:
            if actor == player:
                k.apply(self.history[index])
                continue
            legal = k.legal_actions()
            if rng.random() * 3 * int(k.s[_hand_slice(actor)].sum()) >= len(legal):
                return None
            k.apply(legal[min(int(rng.random() * len(legal)), len(legal) - 1)])
        return k.history

    def resample(self, player, rng):
        k = self.fresh()
        wk.nb_apply_history(k.s, np.asarray(self.world_history(player, rng), dtype=np.int64))
        return k

    # -- tensors -------------------------------------------------------------------------
    def tensor_pieces(self, perfect_recall: bool) -> list[tuple[str, tuple]]:
        n, c = NUM_PLAYERS, NUM_CARDS
        pieces = [
            ("player", (n,)),
            ("age", (3,)),
            ("turn", (TURNS,)),
            ("mover", (n,)),
            ("hand", (c,)),
            ("my_pick", (NUM_ACTIONS,)),
            ("picked", (n,)),
            ("wonder", (n, wc.NUM_WONDERS)),
            ("stages", (n, 4)),
            ("built", (n, c)),
            ("coins", (n,)),
            ("shields", (n,)),
            ("military", (n,)),
        ]
        if perfect_recall:
            pieces += [("seen_hands", (3, TURNS, c)), ("reveals", (3, TURNS, n, 3 + c))]
        return pieces

    def fill_tensor(self, player: int, perfect_recall: bool, views: dict) -> None:
        s = self.s
        age, turn, done = self.age, self.turn, self.done
        views["player"][player] = 1
        if 1 <= age <= 3 and not done:
            views["age"][age - 1] = 1
            views["turn"][min(turn, TURNS - 1)] = 1
        mover = self.current_player()
        if mover >= 0:
            views["mover"][mover] = 1
        views["hand"][:] = s[_hand_slice(player)]
        pending, wonders, stages, built = self.pending, self.wonders, self.stages, self.built
        if pending[player] >= 0:
            views["my_pick"][pending[player]] = 1
        for q in range(NUM_PLAYERS):
            views["picked"][q] = pending[q] >= 0
            if wonders[q] >= 0:
                views["wonder"][q, wonders[q]] = 1
            views["stages"][q, stages[q]] = 1
            views["built"][q, built[q]] = 1
            views["coins"][q] = s[wk.COINS + q] / 50.0
            views["shields"][q] = wk._shields(s, q) / 20.0 if wonders[q] >= 0 else 0.0
            views["military"][q] = s[wk.MILITARY + q] / 20.0
        if perfect_recall:
            self._fill_recall(player, views)

    def _fill_recall(self, player: int, views: dict) -> None:
        """The observer's hands at the start of every turn and every revealed choice."""
        seen = views["seen_hands"]
        for rec in self.records:
            if rec[0] == "deal" and rec[3] == player:
                seen[rec[1] - 1, 0, rec[4]] = 1
        for entry in self.log:
            if entry[0] == "h" and entry[1] == player:
                for c in entry[2]:
                    seen[entry[3] - 1, entry[4], c] = 1
            elif entry[0] == "r":
                _, age, turn, actions = entry
                for q, action in enumerate(actions):
                    kind, c = decode(action)
                    views["reveals"][age - 1, turn, q, kind] = 1
                    if kind == PLAY or q == player:
                        views["reveals"][age - 1, turn, q, 3 + c] = 1

    def action_to_string(self, player, action):
        if player == tt.CHANCE:
            if self.s[wk.QTYPE] == wk.Q_WONDER:
                return f"wonder {wc.WONDERS[action].name}"
            return f"deal {wc.CARDS[action].name}"
        kind, c = decode(action)
        return f"{KIND_NAMES[kind]} {wc.CARDS[c].name}"

    def _state_line(self):
        return (
            f"age {self.age} turn {self.turn} mover {self.current_player()} "
            f"history {','.join(map(str, self.history))}"
        )

    def _player_line(self, p):
        return (
            f"p{p} wonder {self.wonders[p]} hand {self.hands[p]} pick "
            f"{self.pending[p]} built {self.built[p]} stages {self.stages[p]} coins "
            f"{self.coins[p]} military {self.military[p]}"
        )


def heuristic(state) -> list[float]:
    """TAG's PureScoreHeuristic mapped to [0, 1] (see the module docstring): the kernel's
    ``nb_heuristic``.

    Args:
      state: a ``seven_wonders`` pyspiel state or its kernel.
    """
    kernel = getattr(state, "kernel", state)
    out = np.zeros(NUM_PLAYERS)
    wk.nb_heuristic(kernel.s, out)
    return out.tolist()


GAME_TYPE = hw.make_game_type(
    GAME_NAME, "7 Wonders (TAG rules, 3 players)", NUM_PLAYERS, NUM_PLAYERS, {"players": NUM_PLAYERS}
)


class SevenWondersGame(hw.HistoryGame):
    """7 Wonders for 3 players (``players`` must be 3)."""

    def __init__(self, params=None):
        params = dict(params or {})
        n = tt.players_param(params, GAME_TYPE)
        super().__init__(
            GAME_TYPE,
            params,
            num_players=n,
            num_distinct_actions=NUM_ACTIONS,
            max_chance_outcomes=NUM_CARDS,
            max_game_length=wk.MAX_HIST,
        )

    def new_kernel(self):
        return WondersKernel(self.players)


sample_world = hw.sample_world  # a world keeping ``player``'s information state


hw.register(GAME_TYPE, SevenWondersGame)
