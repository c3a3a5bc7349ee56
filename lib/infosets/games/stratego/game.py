"""Stratego (Jacques Johan Mogendorff; Jumbo, 1961) as an OpenSpiel game, short name ``stratego``.

One of the games of Ravichandran, Goodman and Lucas, "Evaluation of Perfect-Information
Monte Carlo Tree Search in Imperfect-Information Games"
(docs/papers/pimcts_aggregation.md), who ran TAG's Java version with 2 players; it is one of the games
where hidden information persists longest.

Rules: a 10 x 10 board with two 2 x 2 lakes (columns 2-3 and 6-7, rows 4-5). Each player
has 40 pieces on their four home rows: Marshal 10 (x1), General 9 (x1), Colonel 8 (x2),
Major 7 (x3), Captain 6 (x4), Lieutenant 5 (x4), Sergeant 4 (x4), Miner 3 (x5), Scout 2
(x8), Spy 1 (x1), Bomb (x6), Flag (x1). Players alternate moving one piece one square
orthogonally (Scouts any distance along a free line, and may attack at its end); Bombs and
the Flag never move. Moving onto an enemy piece is an attack: both ranks are revealed, the
higher rank wins, equal ranks both die; the Spy wins when it attacks the Marshal; a Bomb
beats every attacker but a Miner; taking the Flag wins. A player with no move loses.

Modelling choices (documented simplifications):
* Setups are random: each home square gets its piece by a chance node drawn from the
  remaining piece counts (TAG picks one of a few fixed setups at random; real players
  choose).
* No two-square / more-square repetition rule; instead the game is a draw after
  ``max_moves`` moves in total (parameter, default 1000; TAG uses 2000 rounds).
* A Scout moving more than one square is revealed (its rank is then public).
* Returns are win shares (a draw gives 0.5 each; see ``_tabletop``). Action id =
  (square * 4 + direction) * 9 + distance - 1.

The rules are written once, in numba, in ``kernel.py`` (both engines run them); this module
holds what is not rules: the registration, the string views and tensors (reading the
kernel's state array), the world sampler and the history planning.

Hidden information: the ranks of the opponent's unrevealed pieces. Whether a piece has
moved is public (so it is neither Bomb nor Flag). ``resample`` deals the opponent's
unrevealed ranks uniformly over their unrevealed pieces subject to exactly that constraint
(Bombs and the Flag go only to pieces that never moved). The information-state string is
the player's current knowledge (board with own ranks, revealed ranks, moved marks, losses)
plus the move count; it does not list past positions. A sampled world is rebuilt from the
history that deals it (``_tabletop.sample_rebuilt_world``): the real history with each
piece's setup outcome replaced by its rank in the world (``plan_history``).

Tensors (``_tabletop.Kernel``), the observation tensor in order: player (2) one-hot;
mover (3): who moves, or chance; moves (1) moves played; placed (1) pieces set up;
board (30, 10, 10) planes by square (row, column): 0-11 player 0's pieces whose rank this
player sees, by rank; 12-23 the same for player 1; 24-25 pieces of player 0 / 1 whose rank
is hidden from this player; 26-27 those of them that have moved; 28 lakes; 29 empty
squares; lost (2, 12) captured pieces of each player by rank. The information-state tensor
is the observation tensor (no public log).
"""

from __future__ import annotations

import numpy as np

from infosets.games import _tabletop as tt
from infosets.games.array_kernel import ArrayKernel
from infosets.games.stratego import kernel as sk
from infosets.games.stratego.kernel import (  # noqa: F401  (the game's constants, for its users)
    BOMB,
    DIRECTIONS,
    EMPTY,
    FLAG,
    LAKE,
    LAKES,
    MARSHAL,
    MINER,
    NUM_ACTIONS,
    NUM_RANKS,
    NUM_SQUARES,
    PIECE_COUNTS,
    RAYS,
    SCOUT,
    SIZE,
    SPY,
    decode,
    encode,
)

GAME_NAME = "stratego"
RANK_CHARS = "F123456789MB"  # index = rank; 'M' = Marshal (10), 'B' = Bomb

# A square as a player sees it, coded as ``nb_infostate_key`` codes it: 0 lake, 1 empty,
# 2 + owner * 12 + rank a piece whose rank the player sees, 26 + 2 * owner + moved one it
# does not; ``_SHOWN`` its character in the views, ``_PLANE`` its board plane in the tensors.
_SHOWN = np.array(["~", "."] + list(RANK_CHARS) + list(RANK_CHARS.lower()) + ["?", "m", "!", "w"])
_PLANE = np.array([28, 29] + list(range(2 * NUM_RANKS)) + [24, 24, 25, 25])
_HIDDEN_MOVED = np.array([0] * (2 + 2 * NUM_RANKS) + [0, 1, 0, 1], np.float32)
_ROWS, _COLUMNS = np.divmod(np.arange(NUM_SQUARES), SIZE)


def _field(offset: int, doc: str) -> property:
    """A header field of the state array, read and written as an int."""
    return property(lambda k: int(k.s[offset]), lambda k, value: k.s.__setitem__(offset, value), doc=doc)


def _squares(offset: int, doc: str) -> property:
    """A per-square field of the state array (a view: writes go to the array)."""
    return property(lambda k: k.s[offset : offset + NUM_SQUARES], doc=doc)


class StrategoKernel(ArrayKernel):
    """A Stratego state array driven by its numba rules (see the module docstring)."""

    __slots__ = ()
    RULES = sk
    NUM_ACTIONS = NUM_ACTIONS
    MAX_PLAYERS = 2
    REBUILDS_WORLDS = True  # sampled worlds replay from their history (_tabletop)

    placed = _field(sk.H_PLACED, "Home squares filled so far (80 = set up).")
    cur = _field(sk.H_CUR, "The player to move once set up.")
    moves = _field(sk.H_MOVES, "Moves played.")
    max_moves = _field(sk.H_MAX, "Moves before a draw.")
    winner = _field(sk.H_WINNER, "The winner, -1 none.")
    owner = _squares(sk.OWNER, "Each square's owner (0, 1, EMPTY or LAKE).")
    rank = _squares(sk.RANK, "Each square's piece rank (0 on an empty square).")
    revealed = _squares(sk.REVEALED, "1 where a piece's rank is public.")
    moved = _squares(sk.MOVED, "1 where a piece has moved (public).")

    def __init__(self, max_moves: int):
        self.s = sk.new_state(max_moves)

    @property
    def n(self) -> int:
        return 2

    @property
    def done(self) -> bool:
        return bool(self.s[sk.H_DONE])

    @property
    def pool(self) -> np.ndarray:
        """Piece counts still to place (a view)."""
        return self.s[sk.POOL : sk.POOL + NUM_RANKS]

    @property
    def lost(self) -> np.ndarray:
        """Captured pieces of each player by rank, (2, 12) (a view)."""
        return self.s[sk.LOST : sk.LOST + 2 * NUM_RANKS].reshape(2, NUM_RANKS)

    # -- information ---------------------------------------------------------------------
    def _codes(self, player: int | None) -> np.ndarray:
        """Each square's code (see ``_SHOWN``) as ``player`` sees it (None: every rank shown)."""
        s = self.s
        owner = s[sk.OWNER : sk.OWNER + NUM_SQUARES]
        piece = owner >= 0
        shown = piece
        if player is not None:
            shown = (owner == player) | (s[sk.REVEALED : sk.REVEALED + NUM_SQUARES] == 1)
        codes = np.where(piece, 26 + 2 * owner + s[sk.MOVED : sk.MOVED + NUM_SQUARES], owner + 2)
        return np.where(piece & shown, 2 + owner * NUM_RANKS + s[sk.RANK : sk.RANK + NUM_SQUARES], codes)

    def _board(self, player: int | None) -> str:
        """The board, one character a square, a row a line, as ``player`` sees it."""
        chars = _SHOWN[self._codes(player)].reshape(SIZE, SIZE)
        return "\n".join("".join(row) for row in chars.tolist())

    def _lost_text(self) -> str:
        lost = self.s[sk.LOST : sk.LOST + 2 * NUM_RANKS].tolist()
        return f"lost {lost[:NUM_RANKS]} {lost[NUM_RANKS:]}"

    # Tensor layout: see the module docstring.
    def tensor_pieces(self, player):
        codes = self._codes(player)
        board = np.zeros((30, SIZE, SIZE), np.float32)
        board[_PLANE[codes], _ROWS, _COLUMNS] = 1
        hidden = codes >= 26
        board[_PLANE[codes[hidden]] + 2, _ROWS[hidden], _COLUMNS[hidden]] = _HIDDEN_MOVED[codes[hidden]]
        s = self.s
        return [
            ("player", tt.one_hot(player, 2)),
            ("mover", tt.mover_one_hot(self, 2)),
            ("moves", np.asarray([s[sk.H_MOVES]], np.float32)),
            ("placed", np.asarray([s[sk.H_PLACED]], np.float32)),
            ("board", board),
            ("lost", s[sk.LOST : sk.LOST + 2 * NUM_RANKS].reshape(2, NUM_RANKS).astype(np.float32)),
        ]

    def observation_string(self, player):
        s = self.s
        return (
            f"p{player} mover {self.current_player()} move {s[sk.H_MOVES]} placed {s[sk.H_PLACED]}\n"
            f"{self._board(player)}\n{self._lost_text()}"
        )

    def information_state_string(self, player):
        return self.observation_string(player)

    def action_to_string(self, player, action):
        if player == tt.CHANCE:
            return f"place {RANK_CHARS[action]}"
        src, direction, distance = decode(action)
        dst = sk.target(src, direction, distance)
        return f"{divmod(src, SIZE)}->{divmod(dst, SIZE)}"

    def __str__(self):
        return f"mover {self.current_player()} move {self.s[sk.H_MOVES]}\n" + self._board(None)

    # -- worlds ----------------------------------------------------------------------------
    def resample(self, player, rng):
        """Deal the opponent's unrevealed ranks uniformly; Bombs and Flag only on unmoved pieces
        (each piece's setup outcome follows its rank, so ``plan_history`` deals the world)."""
        k = self.copy()
        s, other = k.s, 1 - player
        owner = s[sk.OWNER : sk.OWNER + NUM_SQUARES].tolist()
        rank = s[sk.RANK : sk.RANK + NUM_SQUARES].tolist()
        if s[sk.H_PLACED] < sk.NUM_PIECES:
            # During setup only the opponent's placed pieces and the undealt rest are hidden.
            squares = [q for q in range(NUM_SQUARES) if owner[q] == other]
            ranks = [rank[q] for q in squares]
            placing_other = (s[sk.H_PLACED] < 40) == (other == 0)
            if placing_other:
                ranks += tt.counts_to_list(k.pool.tolist())
            tt.shuffle_in_place(ranks, rng)
            _set_ranks(s, squares, ranks)
            if placing_other:
                k.pool[:] = tt.list_to_counts(ranks[len(squares) :], NUM_RANKS)
            return k
        revealed, moved = k.revealed.tolist(), k.moved.tolist()
        hidden = [q for q in range(NUM_SQUARES) if owner[q] == other and not revealed[q]]
        ranks = [rank[q] for q in hidden]
        fixed = [r for r in ranks if r in (FLAG, BOMB)]
        mobile = [r for r in ranks if r not in (FLAG, BOMB)]
        unmoved = [q for q in hidden if not moved[q]]
        tt.shuffle_in_place(unmoved, rng)
        _set_ranks(s, unmoved, fixed)
        rest = unmoved[len(fixed) :] + [q for q in hidden if moved[q]]
        tt.shuffle_in_place(mobile, rng)
        _set_ranks(s, rest, mobile)
        return k

    def plan_history(self, game, history, player, context=None):
        """The history dealing this world: ``history`` with each piece's setup outcome
        replaced by the piece's rank here (the moves are the real ones)."""
        placed = int(self.s[sk.H_PLACED])
        return self.s[sk.PRANK : sk.PRANK + placed].tolist() + list(history[placed:])


def _set_ranks(s: np.ndarray, squares: list[int], ranks: list[int]) -> None:
    """Give the pieces on ``squares`` the ``ranks`` (pairwise, up to the shorter list), and
    their setup outcomes with them."""
    for q, r in zip(squares, ranks):
        s[sk.RANK + q] = r
        s[sk.PRANK + s[sk.PIECE + q]] = r


_DEFAULT_MAX_MOVES = 1000
GAME_TYPE = tt.make_game_type(GAME_NAME, "Stratego", 2, 2, {"players": 2, "max_moves": _DEFAULT_MAX_MOVES})


class StrategoGame(tt.TabletopGame):
    """Stratego for 2 players; ``max_moves`` (1..100000, default 1000) before a draw."""

    def __init__(self, params=None):
        params = dict(params or {})
        tt.players_param(params, GAME_TYPE)
        max_moves = tt.int_param(params, "max_moves", _DEFAULT_MAX_MOVES, 1, 100_000)
        super().__init__(
            GAME_TYPE,
            params,
            num_players=2,
            num_distinct_actions=NUM_ACTIONS,
            max_chance_outcomes=NUM_RANKS,
            max_game_length=max_moves + 80,
        )
        self.max_moves = max_moves

    def new_kernel(self):
        return StrategoKernel(self.max_moves)


sample_world = tt.sample_world  # a world keeping ``player``'s information state


tt.register(GAME_TYPE, StrategoGame)
