"""The former pure-Python Stratego kernel, frozen: an independent oracle for differential tests.

Rules, views, tensors and world sampler exactly as ``lib/infosets/games/stratego/game.py``'s
``StrategoKernel`` held them at commit 6629b25 (its history planning was ``_tabletop``'s
default, tracing each setup outcome through these fields), before the port ran on its numba
rules (``infosets.games.stratego.kernel``) through ``infosets.games.array_kernel``. Do not
edit: ``test_stratego_oracle.py`` plays the live port against this code, so a change to the
rules shows up as a disagreement here. Registration and the pyspiel game class stay in the
port; this module registers nothing.

Game: Stratego (Jacques Johan Mogendorff; Jumbo, 1961), as run by Ravichandran, Goodman and
Lucas, "Evaluation of Perfect-Information Monte Carlo Tree Search in Imperfect-Information
Games" (docs/papers/pimcts_aggregation.md); the rules and modelling choices are in the port's
module docstring.
"""

from __future__ import annotations

import numpy as np

from infosets.games import _tabletop as tt

GAME_NAME = "stratego"

SIZE = 10
NUM_SQUARES = SIZE * SIZE
FLAG, SPY, SCOUT, MINER = 0, 1, 2, 3
MARSHAL, BOMB = 10, 11
NUM_RANKS = 12
RANK_CHARS = "F123456789MB"  # index = rank; 'M' = Marshal (10), 'B' = Bomb
PIECE_COUNTS = (1, 1, 8, 5, 4, 4, 4, 3, 2, 1, 1, 6)
EMPTY, LAKE = -1, -2
LAKES = frozenset(r * SIZE + c for r in (4, 5) for c in (2, 3, 6, 7))
DIRECTIONS = ((1, 0), (-1, 0), (0, 1), (0, -1))  # (row, column) steps
NUM_ACTIONS = NUM_SQUARES * 4 * 9
HOME = (tuple(range(0, 40)), tuple(range(60, 100)))


def _ray(square: int, direction: int) -> tuple:
    """Squares from ``square`` along ``direction`` up to the board edge or a lake."""
    dr, dc = DIRECTIONS[direction]
    r, c = divmod(square, SIZE)
    out = []
    while True:
        r, c = r + dr, c + dc
        if not (0 <= r < SIZE and 0 <= c < SIZE) or r * SIZE + c in LAKES:
            return tuple(out)
        out.append(r * SIZE + c)


RAYS = tuple(tuple(_ray(s, d) for d in range(4)) for s in range(NUM_SQUARES))


def encode(square: int, direction: int, distance: int) -> int:
    return (square * 4 + direction) * 9 + distance - 1


def decode(action: int) -> tuple[int, int, int]:
    rest, d = divmod(action, 9)
    square, direction = divmod(rest, 4)
    return square, direction, d + 1


def _target(square: int, direction: int, distance: int) -> int:
    dr, dc = DIRECTIONS[direction]
    r, c = divmod(square, SIZE)
    return (r + dr * distance) * SIZE + c + dc * distance


class StrategoKernel(tt.Kernel):
    """Whole Stratego state on flat 100-square lists."""

    REBUILDS_WORLDS = True  # sampled worlds replay from their history (_tabletop)

    VALUE_FIELDS = ("placed", "cur", "moves", "max_moves", "winner", "done")
    LIST_FIELDS = ("owner", "rank", "revealed", "moved", "pool")
    NESTED_FIELDS = ("lost",)
    __slots__ = VALUE_FIELDS + LIST_FIELDS + NESTED_FIELDS

    def __init__(self, max_moves: int):
        self.owner = [LAKE if s in LAKES else EMPTY for s in range(NUM_SQUARES)]
        self.rank = [0] * NUM_SQUARES
        self.revealed = [0] * NUM_SQUARES
        self.moved = [0] * NUM_SQUARES
        self.placed = 0  # home squares filled so far (80 = set up)
        self.pool = list(PIECE_COUNTS)
        self.cur = 0
        self.moves = 0
        self.max_moves = max_moves
        self.winner = -1
        self.done = False
        self.lost = [[0] * NUM_RANKS, [0] * NUM_RANKS]  # captured pieces (public)

    # -- flow ---------------------------------------------------------------------------
    def is_terminal(self):
        return self.done

    def current_player(self):
        if self.done:
            return tt.TERMINAL
        if self.placed < 80:
            return tt.CHANCE
        return self.cur

    def chance_outcomes(self):
        return tt.count_outcomes(self.pool)

    def _moves_of(self, player: int, first_only: bool = False) -> list[int]:
        owner, rank = self.owner, self.rank
        enemy = 1 - player
        actions = []
        for s in range(NUM_SQUARES):
            if owner[s] != player or rank[s] == FLAG or rank[s] == BOMB:
                continue
            scout = rank[s] == SCOUT
            for d, ray in enumerate(RAYS[s]):
                base = (s * 4 + d) * 9
                for dist, t in enumerate(ray if scout else ray[:1]):
                    o = owner[t]
                    if o == EMPTY:
                        actions.append(base + dist)
                    elif o == enemy:
                        actions.append(base + dist)
                        break
                    else:
                        break
                if first_only and actions:
                    return actions
        return actions

    def legal_actions(self):
        if self.done or self.placed < 80:
            return []
        return self._moves_of(self.cur)

    def apply(self, action):
        if self.placed < 80:
            square = HOME[0][self.placed] if self.placed < 40 else HOME[1][self.placed - 40]
            self.owner[square] = 0 if self.placed < 40 else 1
            self.rank[square] = action
            self.pool[action] -= 1
            self.placed += 1
            if self.placed == 40:
                self.pool = list(PIECE_COUNTS)
            return
        src, direction, distance = decode(action)
        dst = _target(src, direction, distance)
        p = self.cur
        if self.owner[dst] == EMPTY:
            self._move(src, dst)
            if distance > 1:
                self.revealed[dst] = 1
        else:
            self._attack(src, dst)
        self.moves += 1
        if self.done:
            return
        self.cur = 1 - p
        if not self._moves_of(self.cur, first_only=True):
            self.done, self.winner = True, p
        elif self.moves >= self.max_moves:
            self.done = True

    def _move(self, src: int, dst: int):
        for arr in (self.owner, self.rank, self.revealed):
            arr[dst] = arr[src]
        self.moved[dst] = 1
        self.owner[src], self.revealed[src], self.moved[src] = EMPTY, 0, 0

    def _remove(self, square: int):
        self.lost[self.owner[square]][self.rank[square]] += 1
        self.owner[square], self.revealed[square], self.moved[square] = EMPTY, 0, 0

    def _attack(self, src: int, dst: int):
        a, d = self.rank[src], self.rank[dst]
        self.revealed[src] = self.revealed[dst] = 1
        if d == FLAG:
            self.done, self.winner = True, self.owner[src]
            self._remove(dst)
            self._move(src, dst)
            return
        if d == BOMB:
            attacker_wins = a == MINER
        elif a == SPY and d == MARSHAL:
            attacker_wins = True
        elif a == d:
            self._remove(src)
            self._remove(dst)
            return
        else:
            attacker_wins = a > d
        if attacker_wins:
            self._remove(dst)
            self._move(src, dst)
        else:
            self._remove(src)

    def returns(self):
        if not self.done:
            return [0.0, 0.0]
        if self.winner < 0:
            return [0.5, 0.5]
        return [1.0 if p == self.winner else 0.0 for p in range(2)]

    # -- information ---------------------------------------------------------------------
    def _board(self, player: int | None) -> str:
        """The board, one character a square, as ``player`` sees it (None: every rank shown)."""
        rows = []
        for r in range(SIZE):
            row = []
            for c in range(SIZE):
                s = r * SIZE + c
                o = self.owner[s]
                if o == LAKE:
                    row.append("~")
                elif o == EMPTY:
                    row.append(".")
                elif player is None or o == player or self.revealed[s]:
                    ch = RANK_CHARS[self.rank[s]]
                    row.append(ch if o == 0 else ch.lower())
                else:
                    row.append(("m" if self.moved[s] else "?") if o == 0 else ("w" if self.moved[s] else "!"))
            rows.append("".join(row))
        return "\n".join(rows)

    # Tensor layout: see the module docstring.
    def tensor_pieces(self, player):
        board = np.zeros((30, SIZE, SIZE), np.float32)
        for s in range(NUM_SQUARES):
            r, c = divmod(s, SIZE)
            o = self.owner[s]
            if o == LAKE:
                board[28, r, c] = 1
            elif o == EMPTY:
                board[29, r, c] = 1
            elif o == player or self.revealed[s]:
                board[o * NUM_RANKS + self.rank[s], r, c] = 1
            else:
                board[24 + o, r, c] = 1
                board[26 + o, r, c] = self.moved[s]
        return [
            ("player", tt.one_hot(player, 2)),
            ("mover", tt.mover_one_hot(self, 2)),
            ("moves", np.asarray([self.moves], np.float32)),
            ("placed", np.asarray([self.placed], np.float32)),
            ("board", board),
            ("lost", np.asarray(self.lost, np.float32)),
        ]

    def observation_string(self, player):
        return (
            f"p{player} mover {self.current_player()} move {self.moves} placed {self.placed}\n"
            f"{self._board(player)}\nlost {self.lost[0]} {self.lost[1]}"
        )

    def information_state_string(self, player):
        return self.observation_string(player)

    def resample(self, player, rng):
        """Deal the opponent's unrevealed ranks uniformly; Bombs and Flag only on unmoved pieces."""
        k = self.copy()
        other = 1 - player
        if k.placed < 80:
            # During setup only the opponent's placed pieces and the undealt rest are hidden.
            squares = [s for s in range(NUM_SQUARES) if k.owner[s] == other]
            ranks = [k.rank[s] for s in squares]
            placing_other = (k.placed < 40) == (other == 0)
            if placing_other:
                ranks += tt.counts_to_list(k.pool)
            tt.shuffle_in_place(ranks, rng)
            for s, r in zip(squares, ranks):
                k.rank[s] = r
            if placing_other:
                k.pool = [0] * NUM_RANKS
                for r in ranks[len(squares) :]:
                    k.pool[r] += 1
            return k
        hidden = [s for s in range(NUM_SQUARES) if k.owner[s] == other and not k.revealed[s]]
        ranks = [k.rank[s] for s in hidden]
        fixed = [r for r in ranks if r in (FLAG, BOMB)]
        mobile = [r for r in ranks if r not in (FLAG, BOMB)]
        unmoved = [s for s in hidden if not k.moved[s]]
        moved = [s for s in hidden if k.moved[s]]
        tt.shuffle_in_place(unmoved, rng)
        for s, r in zip(unmoved, fixed):
            k.rank[s] = r
        rest = unmoved[len(fixed) :] + moved
        tt.shuffle_in_place(mobile, rng)
        for s, r in zip(rest, mobile):
            k.rank[s] = r
        return k

    def action_to_string(self, player, action):
        if player == tt.CHANCE:
            return f"place {RANK_CHARS[action]}"
        src, direction, distance = decode(action)
        dst = _target(src, direction, distance)
        return f"{divmod(src, SIZE)}->{divmod(dst, SIZE)}"

    def __str__(self):
        return f"mover {self.current_player()} move {self.moves}\n" + self._board(None)
