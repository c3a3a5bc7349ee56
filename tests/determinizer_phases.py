"""Phase-by-phase audit of the determinizers (shared by tests/games/test_determinizer_audit.py).

Every game of the determinizer table is played, with a policy that reaches each of its
phases, to a decision in that phase. There a determinizer must (1) keep the player's
information state, (2) return a world whose ``history()`` replays to the same full state
string, and (3) return the true world no more often than chance allows.

Chance allows ``p0`` = the posterior probability of the true world. A sound upper bound
without enumerating: every world one swap of two hidden steps away from the real history,
accepted by the engine with the same view and the same weight, is exactly as likely as the
truth, so ``p0 <= 1 / (1 + number of such distinct worlds)`` (``truth_probability_bound``).
"""

from __future__ import annotations

import re

import numpy as np
import pyspiel

import infosets.games  # noqa: F401  (registers our games)
from infosets.games.history_replay import ReplayDeterminizer


def _strings(state):
    player = state.current_player()
    return [state.action_to_string(player, a) for a in state.legal_actions()]


def _field(state, name):
    match = re.search(rf"{name}:? *(\w+)", str(state))
    return match.group(1) if match else "?"


def _player_moves(state):
    return sum(1 for item in state.full_history() if item.player >= 0)


def _card_moves(state, first_card_move):
    return sum(1 for item in state.full_history() if item.player >= 0) - first_card_move


def _hearts(state):
    passes = 0 if _field(state, "Pass Direction") == "No" else 12
    if _player_moves(state) < passes:
        return "pass"
    return "last_trick" if _card_moves(state, passes) >= 48 else "play"


def _euchre(state):
    names = _strings(state)
    if "Alone" in names or "Partner" in names:
        return "go_alone"
    if "Pass" in names or any(n in ("Spades", "Hearts", "Diamonds", "Clubs") for n in names):
        return "bidding"
    # The dealer discards (after the upcard was ordered up) before the go-alone decision.
    decided = any(state.action_to_string(item.player, item.action) in ("Alone", "Partner")
                  for item in state.full_history() if item.player >= 0)
    return "play" if decided else "discard"


def _bridge(state):
    if "Pass" in _strings(state):
        return "auction"
    cards = sum(1 for item in state.full_history() if item.player >= 0 and item.action < 52)
    return "last_trick" if cards >= 48 else "play"


def _spades(state):
    if "Nil" in _strings(state):
        return "bidding"
    return "last_trick" if _card_moves(state, 4) >= 48 else "play"


def _betting_round(state):
    chance = sum(1 for item in state.full_history() if item.player < 0)
    return f"round{1 if chance <= state.get_game().num_players() else 2}"


def _leduc(state):
    return "round1" if sum(1 for i in state.full_history() if i.player < 0) <= 2 else "round2"


def _by_moves(bounds):
    def phase(state):
        moves = _player_moves(state)
        for label, upper in bounds:
            if moves < upper:
                return label
        return bounds[-1][0]
    return phase


def _sushi_go(state):
    round_, turn = int(_field(state, "round")), int(_field(state, "turn"))
    hand = len(re.findall(r"x(\d)", str(state).splitlines()[1]))
    if round_ > 0 and turn == 0:
        return "between_hands"
    return "round_end" if hand <= 1 else "in_round"


def _love_letter(state):
    deck = int(_field(state, "deck"))
    tokens = re.search(r"tokens \[([^\]]*)\]", str(state)).group(1)
    later = sum(int(t) for t in tokens.split(",")) > 0
    if deck <= 1:
        return "last_card"
    return "later_round" if later else "first_round"


def _exploding_kittens(state):
    return f"phase{_field(state, 'phase')}"


def _dominion(state):
    return "buy" if _field(state, "phase") == "1" else "action"


def _belote(state):
    trick = int(_field(state, "trick"))
    return "first_trick" if trick == 1 else ("last_tricks" if trick >= 13 else "mid_game")


def _gin_rummy(state):
    return _field(state, "Phase").lower()


def _skat(state):
    return _field(state, "Phase").lower()  # bidding, discarding (the skat), playing


def _oh_hell(state):
    return _field(state, "Phase").lower()


# -- policies ---------------------------------------------------------------------------------
def random_policy(state, rng):
    legal = state.legal_actions()
    return legal[int(rng.integers(len(legal)))]


def gin_policy(state, rng):
    """Knocks when it can, else discards to least deadwood: reaches the knock and layoff phases."""
    player = state.current_player()
    names = {a: state.action_to_string(player, a) for a in state.legal_actions()}
    knock = [a for a, n in names.items() if n.endswith("Knock")]
    if knock:
        return knock[0]
    if _field(state, "Phase") == "Discard":
        def deadwood(action):
            text = str(state.child(action))
            return int(re.search(rf"Player{player}: Deadwood=(\d+)", text).group(1))
        return min(names, key=deadwood)
    return random_policy(state, rng)


# game -> (phase function, phases to reach, policy)
SCENARIOS = {
    "hearts": (_hearts, ("pass", "play", "last_trick"), random_policy),
    "euchre": (_euchre, ("bidding", "go_alone", "discard", "play"), random_policy),
    "oh_hell(players=3)": (_oh_hell, ("bid", "play"), random_policy),
    # The default scores the auction by double-dummy analysis (no play phase): play it out.
    "bridge(use_double_dummy_result=false)": (_bridge, ("auction", "play", "last_trick"),
                                              random_policy),
    "gin_rummy": (_gin_rummy, ("firstupcard", "draw", "discard", "knock", "layoff"), gin_policy),
    "skat": (_skat, ("bidding", "discarding", "playing"), random_policy),
    "spades": (_spades, ("bidding", "play", "last_trick"), random_policy),
    "crazy_eights(players=3)": (_by_moves([("opening", 3), ("play", 10**6)]), ("opening", "play"),
                                random_policy),
    "go_fish": (_by_moves([("opening", 4), ("play", 10**6)]), ("opening", "play"), random_policy),
    "leduc_poker": (_leduc, ("round1", "round2"), random_policy),
    "kuhn_poker(players=3)": (_by_moves([("first_bet", 1), ("later", 10**6)]), ("first_bet", "later"),
                              random_policy),
    "universal_poker": (_betting_round, ("round1", "round2"), random_policy),
    "liars_dice": (_by_moves([("first_bid", 1), ("later_bid", 10**6)]), ("first_bid", "later_bid"),
                   random_policy),
    "phantom_ttt": (_by_moves([("opening", 2), ("midgame", 10**6)]), ("opening", "midgame"),
                    random_policy),
    "belote2p": (_belote, ("first_trick", "mid_game", "last_tricks"), random_policy),
    "trick_game": (_by_moves([("first_trick", 2), ("later", 10**6)]), ("first_trick", "later"),
                   random_policy),
    "sushi_go": (_sushi_go, ("in_round", "round_end", "between_hands"), random_policy),
    "love_letter": (_love_letter, ("first_round", "last_card", "later_round"), random_policy),
    "exploding_kittens": (_exploding_kittens, ("phase1", "phase2", "phase3"), random_policy),
    "virus": (_by_moves([("opening", 6), ("play", 10**6)]), ("opening", "play"), random_policy),
    "stratego": (_by_moves([("opening", 4), ("play", 10**6)]), ("opening", "play"), random_policy),
    "dominion": (_dominion, ("action", "buy"), random_policy),
}


def states_by_phase(name, seed, max_games=40, max_moves=400):
    """{phase: first decision state reached in that phase}, playing seeded games."""
    phase_of, phases, policy = SCENARIOS[name]
    game = pyspiel.load_game(name)
    rng = np.random.default_rng(seed)
    found = {}
    for _ in range(max_games):
        state = game.new_initial_state()
        moves = 0
        while not state.is_terminal() and moves < max_moves and len(found) < len(phases):
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                probs = np.array([p for _, p in outcomes])
                state.apply_action(outcomes[rng.choice(len(outcomes), p=probs / probs.sum())][0])
                continue
            phase = phase_of(state)
            # Skip a phase's first move sometimes, to see states inside it, not only at its start.
            if phase in phases and phase not in found and rng.random() < 0.5:
                found[phase] = state.clone()
            state.apply_action(policy(state, rng))
            moves += 1
        if len(found) == len(phases):
            break
    return found


def truth_probability_bound(state, player, limit=60, max_trials=300):
    """Upper bound on the posterior probability of the true world (see the module docstring).

    Returns (bound, number of equally likely alternative worlds found).
    """
    game = state.get_game()
    replay = ReplayDeterminizer(game, mode="chain")
    actions = [item.action for item in state.full_history()]
    target = replay._targets(state, actions, player)
    hidden = replay._hidden = replay._hidden_positions(actions, player)
    real = replay._replay(actions, player, target)
    truth = str(state)
    seen = {truth}
    # Candidates: one hidden step given another value, or two hidden values exchanged.
    candidates = [("swap", a, b) for i, a in enumerate(hidden) for b in hidden[i + 1:]
                  if actions[a] != actions[b]]
    prefix = game.new_initial_state()
    for pos, action in enumerate(actions):
        if pos in hidden:
            values = ([a for a, _ in prefix.chance_outcomes()] if prefix.is_chance_node()
                      else prefix.legal_actions())
            candidates += [("set", pos, value) for value in values if value != action]
        prefix.apply_action(action)
    order = np.random.default_rng(0).permutation(len(candidates))[:max_trials]
    for kind, a, b in (candidates[i] for i in order):
        if kind == "swap":
            swapped = replay._transpose(actions, actions[a], actions[b])
        else:
            swapped = list(actions)
            swapped[a] = b
        result = replay._replay(swapped, player, target)
        if result is None or abs(result[2] - real[2]) > 1e-9:
            continue
        seen.add(str(result[0]))
        if len(seen) > limit:
            break
    return 1.0 / len(seen), len(seen) - 1
