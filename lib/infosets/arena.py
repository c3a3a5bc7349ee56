"""One arena for every tournament of the library (pimcts_aggregation, belote_ismcts,
belief_mixtures, history_filtering and the quickstart use it).

* ``play_game``: one game, the way OpenSpiel's ``evaluate_bots`` plays it (``restart_at`` on
  every bot first, ``inform_action`` to every other bot after each move, chance sampled from a
  seeded Generator), skipping forced moves (a single legal action is played without asking the
  bot) and timing every decision.
* ``duplicate_games``: duplicate play. Deal ``i`` of a label draws its chance outcomes from
  ``deal_seed(entropy, label, i)`` whichever agents sit down and whichever seat rotation is
  played, so every agent setting of a game meets the same seeded deals with seats rotated,
  and their scores can be compared pair by pair.
* ``summarize``: tidy rows per entrant with a Wilson 95% interval.

Command line: ``python -m infosets.arena GAME BOT BOT ... --deals N --seed S`` (bots:
``random``, ``olmcts:B``, ``ismcts:B``, ``pimcts:B:D[:aggregation]``).
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd
import pyspiel

from infosets import stats
from infosets.core.checks import check_callable, check_game, check_int
from infosets.core.rng import as_generator, named_child

BotFactory = Callable[[pyspiel.Game, int, np.random.Generator], pyspiel.Bot]


@dataclass(frozen=True)
class Entrant:
    """A named agent: ``make_bot(game, seat, rng)`` builds a fresh bot for one game."""

    name: str
    make_bot: BotFactory

    def __post_init__(self):
        if not isinstance(self.name, str):
            raise ValueError(f"name: must be a str, got {type(self.name).__name__}")
        check_callable(self.make_bot, "make_bot")


def deal_seed(entropy, label: str, deal: int) -> np.random.SeedSequence:
    """The seed of duplicate deal ``deal`` of ``label`` (e.g. a game string): a function of the
    root entropy (an int or a sequence of ints, as SeedSequence takes), the label and the deal
    index only, so every cell replays the same deals (``infosets.core.rng.named_child``)."""
    _check_entropy(entropy)
    _check_label(label)
    return named_child(np.random.SeedSequence(entropy), label, check_int(deal, "deal", lo=0))


def _check_entropy(entropy) -> None:
    """A root seed as SeedSequence takes it: an int >= 0 or a non-empty sequence of them. Not
    None: SeedSequence(None) draws fresh OS entropy, and the deals could not be replayed."""
    if entropy is None:
        raise ValueError("entropy: None would draw unseeded deals that cannot be replayed; "
                         "pass an int seed >= 0")
    if isinstance(entropy, (list, tuple, np.ndarray)):
        if len(entropy) == 0:
            raise ValueError("entropy: expected an int seed >= 0 or a non-empty sequence of them, got []")
        for i, word in enumerate(entropy):
            check_int(word, f"entropy[{i}]", lo=0)
        return
    check_int(entropy, "entropy", lo=0)


def _check_label(label) -> None:
    if not isinstance(label, str):
        raise ValueError(f"label: must be a str (e.g. the game string), got {label!r}")


def win_share(returns: Sequence[float], seat: int) -> float:
    """1 for a sole top return, 1/k when k players share it, 0 otherwise."""
    best = max(returns)
    if returns[seat] < best:
        return 0.0
    return 1.0 / sum(1 for r in returns if r == best)


def _restart(bot, state) -> None:
    try:
        bot.restart_at(state)
    except pyspiel.SpielError as err:          # a stateless C++-default bot: nothing to reset
        if "not implemented" not in str(err):
            raise


def _inform(bots, state, mover: int, action: int, skip: int | None) -> None:
    for i, bot in enumerate(bots):
        if i != skip:
            bot.inform_action(state, mover, action)


def play_game(game, bots: Sequence, rng: np.random.Generator, *, state=None,
              skip_forced: bool = True, on_decision: Callable[[dict], None] | None = None,
              clock: Callable[[], float] = time.process_time) -> dict:
    """Play one game; ``bots[p]`` moves for seat p; chance is sampled from ``rng``.

    ``state``: start here instead of ``game.new_initial_state()`` (e.g. a fixed deal).
    ``on_decision(info)`` is called after each searched decision with {"player", "action",
    "seconds", "move", "legal"}. Returns {"returns", "decisions" (searched), "forced",
    "seconds" (per seat, CPU time of its decisions), "state" (the terminal state)}.
    """
    if len(bots) != game.num_players():
        raise ValueError(f"bots: expected {game.num_players()} bots, got {len(bots)}")
    rng = as_generator(rng)
    state = game.new_initial_state() if state is None else state
    for bot in bots:
        _restart(bot, state)
    seconds = [0.0] * game.num_players()
    decisions = forced = move = 0
    while not state.is_terminal():
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes())
            p = np.asarray(probs, dtype=float)
            action = int(actions[rng.choice(len(actions), p=p / p.sum())])
            _inform(bots, state, pyspiel.PlayerId.CHANCE, action, None)
            state.apply_action(action)
            continue
        player = state.current_player()
        legal = state.legal_actions()
        if skip_forced and len(legal) == 1:
            action, skip = int(legal[0]), None
            forced += 1
        else:
            start = clock()
            action = int(bots[player].step(state))
            spent = clock() - start
            seconds[player] += spent
            decisions += 1
            skip = player
            if on_decision is not None:
                on_decision({"player": player, "action": action, "seconds": spent,
                             "move": move, "legal": len(legal)})
        _inform(bots, state, player, action, skip)
        state.apply_action(action)
        move += 1
    return {"returns": [float(r) for r in state.returns()], "decisions": decisions,
            "forced": forced, "seconds": seconds, "state": state}


def rotation(lineup: Sequence[Entrant], shift: int) -> list[Entrant]:
    """The lineup with every entrant moved ``shift`` seats on (seat s gets lineup[s - shift])."""
    n = len(lineup)
    return [lineup[(s - shift) % n] for s in range(n)]


def duplicate_games(game, lineup: Sequence[Entrant], deals: Sequence[int], *, entropy: int,
                    label: str, rotations: Sequence[int] | None = None,
                    make_state: Callable[[np.random.SeedSequence], object] | None = None,
                    on_decision: Callable[[dict], None] | None = None,
                    skip_forced: bool = True) -> list[dict]:
    """Duplicate play: each deal is played once per seat rotation of ``lineup``.

    Deal i's chance stream (and ``make_state``'s seed, when the deal is built outside the
    game's chance nodes) comes from ``deal_seed(entropy, label, i)`` alone; bot seeds from
    (deal, rotation, seat). Returns one tidy row per seat per game: deal, rotation, seat,
    entrant, return, score (win share), decisions, seconds, seconds_per_decision.

    Refused before any game: a simultaneous-move game, ``entropy=None`` (unseeded deals could
    not be replayed), a deal index or seat rotation that is not an int in range.
    """
    check_game(game)
    if len(lineup) != game.num_players():
        raise ValueError(f"lineup: expected {game.num_players()} entrants, got {len(lineup)}")
    for seat, entrant in enumerate(lineup):  # an Entrant, or anything with its two fields
        if not (isinstance(getattr(entrant, "name", None), str)
                and callable(getattr(entrant, "make_bot", None))):
            raise ValueError(f"lineup: seat {seat} must be an arena.Entrant (name, make_bot), "
                             f"got {type(entrant).__name__}")
    deals = _indices(deals, "deals")
    for deal in deals:
        check_int(deal, "deal", lo=0)
    _check_entropy(entropy)
    _check_label(label)
    if rotations is None:
        rotations = range(game.num_players())
    else:
        rotations = _indices(rotations, "rotations")
        for i, shift in enumerate(rotations):
            check_int(shift, f"rotations[{i}]", lo=0, hi=game.num_players() - 1)
    if make_state is not None:
        check_callable(make_state, "make_state")
    if on_decision is not None:
        check_callable(on_decision, "on_decision")
    rows = []
    for deal in deals:
        chance_seed, state_seed, bots_seed = deal_seed(entropy, label, deal).spawn(3)
        for shift in rotations:
            seated = rotation(lineup, shift)
            seeds = named_child(bots_seed, int(shift)).spawn(len(seated))
            bots = [e.make_bot(game, s, np.random.default_rng(seeds[s])) for s, e in enumerate(seated)]
            state = None if make_state is None else make_state(state_seed)
            hook = None
            if on_decision is not None:
                def hook(info, deal=deal, shift=shift, seated=seated):
                    on_decision({**info, "deal": deal, "rotation": shift,
                                 "entrant": seated[info["player"]].name})
            out = play_game(game, bots, np.random.default_rng(chance_seed), state=state,
                            skip_forced=skip_forced, on_decision=hook)
            for seat, entrant in enumerate(seated):
                rows.append({"deal": int(deal), "rotation": int(shift), "seat": seat,
                             "entrant": entrant.name, "return": out["returns"][seat],
                             "score": win_share(out["returns"], seat),
                             "decisions": out["decisions"], "seconds": out["seconds"][seat],
                             "players": game.num_players()})
    return rows


def _indices(values, name: str) -> list:
    """``values`` (a range, list, array...) as a list; a lone number or a string is refused."""
    if isinstance(values, (str, bytes)) or not isinstance(values, Iterable):
        raise ValueError(f"{name}: expected a sequence of indices (e.g. range(3)), got {values!r}")
    return list(values)


def summarize(rows, by: Sequence[str] = ("entrant",)) -> pd.DataFrame:
    """Win rate (win shares; ties split) with a Wilson 95% interval per group of ``by``."""
    frame = pd.DataFrame(rows)
    if frame.empty:
        raise ValueError("rows: no games to summarize")
    missing = [c for c in ("score", "return", "seconds") if c not in frame.columns]
    if missing:
        raise ValueError(f"rows: missing column(s) {missing} (rows as duplicate_games returns them)")
    by = (by,) if isinstance(by, str) else tuple(by)
    unknown = [c for c in by if c not in frame.columns]
    if not by or unknown:
        raise ValueError(f"by: expected column(s) of rows, got {list(by)!r} (columns: {list(frame.columns)})")
    out = []
    for key, sub in frame.groupby(list(by), sort=False):
        key = key if isinstance(key, tuple) else (key,)
        est = stats.win_rate(sub["score"].to_numpy())
        out.append({**dict(zip(by, key)), "win_rate": est.value, "lo": est.lo, "hi": est.hi,
                    "n": est.n, "mean_return": float(sub["return"].mean()),
                    "cpu_s_per_game": float(sub["seconds"].mean())})
    return pd.DataFrame(out)


# -- command line -------------------------------------------------------------------------------

def entrant_from_spec(spec: str) -> Entrant:
    """``random``, ``olmcts:B``, ``ismcts:B`` or ``pimcts:B:D[:aggregation]``."""
    from infosets.search.ismcts import ISMCTSBot
    from infosets.search.mcts import OLMCTSBot
    from infosets.search.pimcts import PIMCTSBot

    kind, *args = spec.split(":")
    try:
        if kind == "random":
            return Entrant(spec, lambda g, p, rng: pyspiel.make_uniform_random_bot(
                p, int(rng.integers(2**31 - 1))))
        budget = int(args[0])
        if kind == "olmcts":
            return Entrant(spec, lambda g, p, rng: OLMCTSBot(g, p, iterations=budget, rng=rng))
        if kind == "ismcts":
            return Entrant(spec, lambda g, p, rng: ISMCTSBot(g, p, iterations=budget, rng=rng))
        if kind == "pimcts":
            d, agg = int(args[1]), (args[2] if len(args) > 2 else "AverageValue")
            return Entrant(spec, lambda g, p, rng: PIMCTSBot(
                g, p, iterations=budget, determinizations=d, aggregation=agg, rng=rng))
    except (IndexError, ValueError) as err:
        raise ValueError(f"bot: cannot read {spec!r} ({err})") from None
    raise ValueError(f"bot: expected random, olmcts:B, ismcts:B or pimcts:B:D[:agg], got {spec!r}")


def main(argv: Sequence[str] | None = None) -> pd.DataFrame:
    """Play duplicate deals between the named bots and print the win-rate table."""
    import infosets.games  # noqa: F401  (registers our games)

    parser = argparse.ArgumentParser(prog="python -m infosets.arena", description=main.__doc__)
    parser.add_argument("game", help="OpenSpiel game string")
    parser.add_argument("bots", nargs="+", help="one per seat: random | olmcts:B | ismcts:B | "
                                                "pimcts:B:D[:aggregation]")
    parser.add_argument("--deals", type=int, required=True, help="duplicate deals (>= 1)")
    parser.add_argument("--seed", type=int, required=True, help="root seed")
    args = parser.parse_args(argv)
    if args.deals < 1:
        parser.error(f"--deals: expected >= 1, got {args.deals}")
    if args.seed < 0:
        parser.error(f"--seed: expected >= 0, got {args.seed}")
    from infosets.games.loading import load_game

    try:  # one line (close matches of a misspelt name), never OpenSpiel's list of every game
        game = check_game(load_game("game", args.game))
        lineup = [entrant_from_spec(s) for s in args.bots]
    except ValueError as err:  # GameLoadError is a ValueError
        parser.error(str(err))
    if len(lineup) != game.num_players():
        parser.error(f"bots: {args.game} needs {game.num_players()} bots, got {len(lineup)}")
    rows = duplicate_games(game, lineup, range(args.deals), entropy=args.seed, label=args.game)
    table = summarize(rows)
    print(table.to_string(index=False))
    return table


if __name__ == "__main__":
    main()
