"""Baseline of benchmarks/bench_belote.py only: the Belote-only ISMCTS search loop as it was
before Boudier's ISMCTS (belote_ismcts) became options of the one IS-MCTS.

Not part of the library and not maintained: kept verbatim (minus its bot wrapper's extras) so
the benchmark can measure, in the same run, the speed of the search it replaced. The product
is ``infosets.search.belote_ismcts.BeloteISMCTSBot``.
"""

from __future__ import annotations

import math
import sys
from pathlib import Path

import numpy as np
import pyspiel

from infosets.core.rng import as_random

# The former Python rules this search ran on: the game now runs on its numba rules alone
# (``infosets.games.belote2p.position.Position`` reads their array), and the Python rules are
# frozen in tests/games/belote2p/oracle.py, loaded here by its path as the tests load it.
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "games"))
from oracle_checks import load_oracle  # noqa: E402

_oracle = load_oracle(str(Path(__file__).resolve().parents[1] / "tests" / "games" / "belote2p" / "oracle.py"))
BEATS, FOLLOW, NUM_TRICKS, POINTS = _oracle.BEATS, _oracle.FOLLOW, _oracle.NUM_TRICKS, _oracle.POINTS
TRUMP_MASK, KernelState = _oracle.TRUMP_MASK, _oracle.KernelState
cards_of, hand_exclusions = _oracle.cards_of, _oracle.hand_exclusions

# A tree node is a list [visits, reward_sum, avail, tried_mask, children{card: node}].
_VISITS, _REWARD, _AVAIL, _TRIED, _CHILDREN = range(5)


def _new_node() -> list:
    return [0, 0.0, 1, 0, {}]


def opponent_hand_exclusions(plays, player: int) -> int:
    """Cards the opponent of ``player`` provably no longer holds in hand (its revealed voids:
    off-suit, no trump when trumping was due, no overtrump); see ``rules.hand_exclusions``."""
    return hand_exclusions(plays, 1 - player)


class BeloteISMCTSBot(pyspiel.Bot):
    """ISMCTS for ``belote2p`` states (see the module docstring).

    Args:
      iterations: iterations per move (the paper: 500).
      exploration: UCB constant C on raw points (the paper: 82).
      rng: numpy Generator, SeedSequence or int seed (``infosets.core.rng``); the only randomness.
      inference: restrict the opponent's hand by its revealed voids (footnote 5).
    """

    def __init__(self, iterations: int = 500, exploration: float = 82.0, *, rng,
                 inference: bool = False):
        super().__init__()
        if not isinstance(iterations, (int, np.integer)) or iterations < 1:
            raise ValueError(f"iterations must be an int >= 1, got {iterations!r}")
        if not exploration >= 0:
            raise ValueError(f"exploration must be >= 0, got {exploration!r}")
        self.iterations = int(iterations)
        self.exploration = float(exploration)
        self.inference = bool(inference)
        self._rand = as_random(rng)
        self.last_root: list | None = None

    # -- pyspiel.Bot ----------------------------------------------------------------
    def step(self, state) -> int:
        excluded = opponent_hand_exclusions(state.plays, state.current_player()) \
            if self.inference else 0
        return self.choose(state.kernel, excluded)

    def restart_at(self, state):
        pass

    def inform_action(self, state, player_id, action):
        pass

    def provides_policy(self):
        return False

    # -- search ---------------------------------------------------------------------
    def choose(self, root_state: KernelState, excluded_from_opponent_hand: int = 0) -> int:
        """Run the search from the mover's view of ``root_state``; return the card."""
        legal = root_state.legal_mask()
        if legal & (legal - 1) == 0:
            return legal.bit_length() - 1
        root = self.search(root_state, excluded_from_opponent_hand)
        best = max(
            root[_CHILDREN].items(),
            key=lambda kv: (kv[1][_VISITS], kv[1][_REWARD] / max(kv[1][_VISITS], 1), -kv[0]),
        )
        return best[0]

    def search(self, root_state: KernelState, excluded_from_opponent_hand: int = 0) -> list:
        """Build the tree; returns the root node (children keyed by card)."""
        rnd = self._rand.random
        shuffle = self._rand.shuffle
        sample = self._rand.sample
        sqrt = math.sqrt
        log_of = [0.0] + [math.log(a) for a in range(1, self.iterations + 2)]  # avail <= it + 1
        c_explore = self.exploration
        follow, beats, points, trumps, n_tricks = FOLLOW, BEATS, POINTS, TRUMP_MASK, NUM_TRICKS
        me = root_state.to_move
        opp = 1 - me
        opp_hand_mask = root_state.hand[opp]
        n_opp_hand = opp_hand_mask.bit_count()
        unknown = cards_of(opp_hand_mask | root_state.down[0] | root_state.down[1])
        covered_tops = root_state.covered_tops()
        allowed = [c for c in unknown if not (excluded_from_opponent_hand >> c & 1)]
        infer = len(allowed) < len(unknown)
        if infer and len(allowed) < n_opp_hand:
            # Impossible evidence (cannot happen in a real game); fall back to no inference.
            infer = False
        root_under = root_state.under
        my_hand = root_state.hand[me]
        root_up = root_state.up
        r_leader, r_lead, r_to_move, r_trick = (
            root_state.leader, root_state.lead, root_state.to_move, root_state.trick)
        r_pts0, r_pts1 = root_state.points
        root = _new_node()
        # Plain determinizations: all permutations of the unseen cards drawn in one batch.
        if not infer and unknown:
            np_rng = np.random.default_rng(self._rand.getrandbits(64))
            perms = np_rng.permuted(np.tile(np.array(unknown), (self.iterations, 1)),
                                    axis=1).tolist()
        else:
            perms = [unknown] * self.iterations

        for it in range(self.iterations):
            # -- determinization
            under = root_under[:]
            if infer:
                opp_cards = sample(allowed, n_opp_hand)
                chosen = 0
                for c in opp_cards:
                    chosen |= 1 << c
                rest = [c for c in unknown if not (chosen >> c & 1)]
                shuffle(rest)
                opp_hand = chosen
            else:
                perm = perms[it]
                opp_hand = 0
                for c in perm[:n_opp_hand]:
                    opp_hand |= 1 << c
                rest = perm[n_opp_hand:]
            for top, c in zip(covered_tops, rest):
                under[top] = c
            # Playable cards per player: hand + face-up tops (a played top reveals its bottom).
            pl = [0, 0]
            pl[me] = my_hand | root_up[me]
            pl[opp] = opp_hand | root_up[opp]
            leader, lead, to_move, trick = r_leader, r_lead, r_to_move, r_trick
            pts = [r_pts0, r_pts1]

            # -- selection and expansion
            node = root
            path = []
            while trick < NUM_TRICKS:
                playable = pl[to_move]
                if lead < 0:
                    legal = playable
                else:
                    legal = (playable & FOLLOW[lead]) or (playable & TRUMP_MASK) or playable
                children = node[_CHILDREN]
                tried = legal & node[_TRIED]
                m = tried
                while m:
                    low = m & -m
                    children[low.bit_length() - 1][_AVAIL] += 1
                    m ^= low
                untried = legal & ~node[_TRIED]
                if untried:
                    n = untried.bit_count()
                    k = int(rnd() * n)
                    while k:
                        untried &= untried - 1
                        k -= 1
                    card = (untried & -untried).bit_length() - 1
                    child = _new_node()
                    children[card] = child
                    node[_TRIED] |= 1 << card
                    expanded = True
                else:
                    best_value = -1.0
                    card = -1
                    m = tried
                    while m:
                        low = m & -m
                        c = low.bit_length() - 1
                        ch = children[c]
                        visits = ch[_VISITS]
                        v = ch[_REWARD] / visits + c_explore * sqrt(log_of[ch[_AVAIL]] / visits)
                        if v > best_value:
                            best_value, card = v, c
                        m ^= low
                    child = children[card]
                    expanded = False
                path.append((child, to_move))
                # play the card (inline kernel rules; only pile tops have under >= 0)
                below = under[card]
                pl[to_move] ^= 1 << card
                if below >= 0:
                    pl[to_move] |= 1 << below
                if lead < 0:
                    lead = card
                    to_move = 1 - to_move
                else:
                    winner = to_move if BEATS[lead] >> card & 1 else leader
                    pts[winner] += POINTS[lead] + POINTS[card]
                    trick += 1
                    lead = -1
                    leader = to_move = winner
                node = child
                if expanded:
                    break

            # -- uniform random rollout, a whole trick per loop
            if lead >= 0 and trick < n_tricks:  # finish the trick in progress
                playable = pl[to_move]
                legal = (playable & follow[lead]) or (playable & trumps) or playable
                k = int(rnd() * legal.bit_count())
                while k:
                    legal &= legal - 1
                    k -= 1
                bit = legal & -legal
                card = bit.bit_length() - 1
                below = under[card]
                pl[to_move] ^= bit
                if below >= 0:
                    pl[to_move] |= 1 << below
                winner = to_move if beats[lead] >> card & 1 else leader
                pts[winner] += points[lead] + points[card]
                trick += 1
                to_move = winner
            while trick < n_tricks:
                # the leader plays any playable card
                legal = pl[to_move]
                k = int(rnd() * legal.bit_count())
                while k:
                    legal &= legal - 1
                    k -= 1
                bit = legal & -legal
                lead = bit.bit_length() - 1
                below = under[lead]
                pl[to_move] ^= bit
                if below >= 0:
                    pl[to_move] |= 1 << below
                # the follower obeys the duties
                follower = 1 - to_move
                playable = pl[follower]
                legal = (playable & follow[lead]) or (playable & trumps) or playable
                k = int(rnd() * legal.bit_count())
                while k:
                    legal &= legal - 1
                    k -= 1
                bit = legal & -legal
                card = bit.bit_length() - 1
                below = under[card]
                pl[follower] ^= bit
                if below >= 0:
                    pl[follower] |= 1 << below
                if beats[lead] >> card & 1:
                    to_move = follower
                pts[to_move] += points[lead] + points[card]
                trick += 1

            # -- backpropagation: each node scores its mover's card points
            for nd, mover in path:
                nd[_VISITS] += 1
                nd[_REWARD] += pts[mover]
        self.last_root = root
        return root

    def root_statistics(self) -> dict[int, tuple[int, float, int]]:
        """Per root card: (visits, mean reward, availability) of the last search."""
        if self.last_root is None:
            return {}
        return {c: (n[_VISITS], n[_REWARD] / max(n[_VISITS], 1), n[_AVAIL])
                for c, n in self.last_root[_CHILDREN].items()}
