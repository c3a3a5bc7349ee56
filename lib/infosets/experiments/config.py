"""Validated experiment configs: presets from notebooks/params plus overrides (all papers).

``load(slug, preset, seed=..., overrides=...)`` reads ``notebooks/params/<slug>.<preset>.yaml``,
checks every key against the paper module's ``SCHEMA`` (names, types, ranges), applies and
checks the overrides, and only then computes derived values. Every error is a one-line
``ConfigError`` naming the offending parameter, raised before any compute.

A float parameter must be a finite number (NaN and infinities are refused, YAML's ``.nan``
and ``.inf`` included). A game parameter (``Param(..., game=True)``) must name a registered
game (a misspelt name gets its close matches) that loads; ``accept=`` adds what the paper
module can run: a function of one value returning ``None`` when it is fine, else the
one-line reason (``parsed_by(parse)`` makes one of a parser).
"""

from __future__ import annotations

import hashlib
import importlib
import json
import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

PRESETS = ("smoke", "default", "paper", "full", "tag")
# Every paper has these; ``full`` (the whole grid of a paper, sized for a Dask cluster) exists
# only where the paper preset leaves part of the paper's grid out (docs/paper_scale.md), and
# ``tag`` only for pimcts_aggregation (the paper's games played by TAG's own agents, a staged
# rerun: docs/tag_agents.md section 10).
REQUIRED_PRESETS = ("smoke", "default", "paper")
_KINDS = {int: "int", float: "float", str: "str", bool: "bool", list: "list", dict: "dict"}


class ConfigError(ValueError):
    """A bad parameter. The message is one line and names the parameter."""

    def __init__(self, message: str):
        super().__init__(" ".join(str(message).split()))  # one line, whatever the cause said


def repo_root() -> Path:
    """The checkout root (``$INFOSETS_ROOT`` or the folder above ``lib/``)."""
    env = os.environ.get("INFOSETS_ROOT")
    return Path(env) if env else Path(__file__).resolve().parents[3]


def data_root() -> Path:
    """This machine's result store (``$INFOSETS_DATA_DIR`` or ``data/`` in the checkout)."""
    env = os.environ.get("INFOSETS_DATA_DIR")
    return Path(env) if env else repo_root() / "data"


def params_dir() -> Path:
    return repo_root() / "notebooks" / "params"


@dataclass(frozen=True)
class Param:
    """One parameter: its kind, allowed values and a one-line doc."""

    kind: type
    doc: str = ""
    lo: float | None = None
    hi: float | None = None
    choices: tuple | list | None = None
    item: type | None = None
    min_len: int | None = None
    game: bool = False
    optional: bool = False
    accept: Callable[[Any], str | None] | None = None

    def _range(self) -> str:
        if self.choices is not None:
            return f"one of {list(self.choices)}"
        lo = "-inf" if self.lo is None else self.lo
        hi = "inf" if self.hi is None else self.hi
        return f"in [{lo}, {hi}]"

    def _scalar(self, name: str, kind: type, value: Any) -> Any:
        if kind is float and isinstance(value, int) and not isinstance(value, bool):
            value = float(value)
        if kind is int and isinstance(value, float) and value.is_integer():
            value = int(value)
        if not isinstance(value, kind) or (kind is not bool and isinstance(value, bool)):
            raise ConfigError(
                f"{name}: expected {_KINDS.get(kind, kind.__name__)}, "
                f"got {type(value).__name__} {value!r}"
            )
        if kind is float:
            from infosets.core.checks import check_real  # local, as pyspiel: config imports light

            try:
                check_real(value, name)  # NaN passes no range check, so it is refused first
            except ValueError as exc:
                raise ConfigError(str(exc)) from None
        if self.choices is not None and value not in self.choices:
            raise ConfigError(f"{name}: {value!r} is not allowed; expected {self._range()}")
        if kind in (int, float):
            if (self.lo is not None and value < self.lo) or (
                self.hi is not None and value > self.hi
            ):
                raise ConfigError(f"{name}: {value!r} is out of range; expected {self._range()}")
        if self.game:
            _check_game(name, value)
        if self.accept is not None:
            reason = self.accept(value)
            if reason:
                raise ConfigError(f"{name}: {reason}")
        return value

    def check(self, name: str, value: Any) -> Any:
        """Return the normalised value, or raise a one-line ConfigError."""
        if value is None:
            if self.optional:
                return None
            raise ConfigError(f"{name}: a value is required ({self.doc or self._range()})")
        if self.kind is list:
            if not isinstance(value, (list, tuple)):
                raise ConfigError(f"{name}: expected a list, got {type(value).__name__} {value!r}")
            if self.min_len is not None and len(value) < self.min_len:
                raise ConfigError(f"{name}: needs at least {self.min_len} item(s), got {len(value)}")
            if self.item is None:
                return list(value)
            return [self._scalar(f"{name}[{i}]", self.item, v) for i, v in enumerate(value)]
        if self.kind is dict:
            if not isinstance(value, Mapping):
                raise ConfigError(f"{name}: expected a mapping, got {type(value).__name__}")
            if self.item is None:
                return dict(value)
            return {k: self._scalar(f"{name}[{k!r}]", self.item, v) for k, v in value.items()}
        return self._scalar(name, self.kind, value)


def load_game(name: str, game_string: str):
    """``pyspiel.load_game`` or a one-line ConfigError naming ``name``: an unknown game
    gets its close matches (never OpenSpiel's list of every game). The check is
    ``infosets.games.loading.load_game``; its ``GameLoadError`` becomes a ConfigError with
    the same message."""
    from infosets.games import loading  # local, as pyspiel: config imports light

    try:
        return loading.load_game(name, game_string)
    except loading.GameLoadError as exc:
        raise ConfigError(str(exc)) from None


def _check_game(name: str, game_string: str) -> None:
    load_game(name, game_string)


def parsed_by(parse: Callable[[Any], Any]) -> Callable[[Any], str | None]:
    """An ``accept`` check of a parser raising ``ValueError("field: reason")`` on a bad value:
    the reason (the parser's field name dropped: the ConfigError names the parameter, e.g.
    ``states[0]``), or None when it parses."""
    def accept(value: Any) -> str | None:
        try:
            parse(value)
        except ValueError as exc:
            message = " ".join(str(exc).split())
            head, sep, reason = message.partition(": ")
            return reason if sep and head.isidentifier() else message
        return None
    return accept


def game_named(*short_names: str) -> Callable[[str], str | None]:
    """An ``accept`` check: the game's short name is one of ``short_names``."""
    def accept(game_string: str) -> str | None:
        if game_string.split("(", 1)[0].strip() not in short_names:
            return f"{game_string!r} cannot run here; expected a game among {list(short_names)}"
        return None
    return accept


@dataclass(frozen=True)
class Schema:
    """A paper's parameters; ``derive(values)`` returns values computed after overrides."""

    params: dict[str, Param]
    derive: Callable[[dict], dict] | None = None


class Config(Mapping):
    """A validated config: item and attribute access; ``values`` is a plain dict."""

    def __init__(self, slug: str, preset: str, seed: int, values: dict, derived: tuple = ()):
        self.slug, self.preset, self.seed = slug, preset, seed
        self.values = dict(values)
        self.derived_keys = tuple(derived)

    def __getitem__(self, key):
        return self.values[key]

    def __iter__(self):
        return iter(self.values)

    def __len__(self):
        return len(self.values)

    def __getattr__(self, key):
        try:
            return self.__dict__["values"][key]
        except KeyError:
            raise AttributeError(f"config of {self.__dict__.get('slug')!r} has no {key!r}") from None

    def to_json(self) -> dict:
        return {"slug": self.slug, "preset": self.preset, "seed": self.seed, "values": self.values}

    def digest(self) -> str:
        """Hash of what determines the results: slug, seed and values (not the preset name)."""
        payload = json.dumps(
            {"slug": self.slug, "seed": self.seed, "values": self.values},
            sort_keys=True, default=str,
        )
        return hashlib.sha256(payload.encode()).hexdigest()

    def __repr__(self):
        return f"Config({self.slug!r}, preset={self.preset!r}, seed={self.seed}, {self.values})"


def schema_for(slug: str) -> Schema:
    """The ``SCHEMA`` of ``infosets.papers.<slug>``."""
    if not isinstance(slug, str) or not slug.isidentifier():
        raise ConfigError(f"slug: {slug!r} is not a paper slug")
    try:
        module = importlib.import_module(f"infosets.papers.{slug}")
    except ModuleNotFoundError as exc:
        if exc.name == f"infosets.papers.{slug}":
            raise ConfigError(f"slug: unknown paper {slug!r}; see lib/infosets/papers/") from None
        raise
    schema = getattr(module, "SCHEMA", None)
    if not isinstance(schema, Schema):
        raise ConfigError(f"slug: infosets.papers.{slug} defines no SCHEMA")
    return schema


def presets_of(slug: str) -> list[str]:
    """The presets ``slug`` has a file for, in ``PRESETS`` order."""
    return [p for p in PRESETS if (params_dir() / f"{slug}.{p}.yaml").is_file()]


def read_preset(slug: str, preset: str) -> dict:
    if preset not in PRESETS:
        raise ConfigError(f"preset: unknown preset {preset!r}; expected one of {list(PRESETS)}")
    path = params_dir() / f"{slug}.{preset}.yaml"
    if not path.exists():
        if preset not in REQUIRED_PRESETS:
            why = {"full": "its paper preset already runs the whole grid",
                   "tag": "only pimcts_aggregation has one"}[preset]
            raise ConfigError(f"preset: {slug} has no {preset} preset (no file {path.name}); {why}")
        raise ConfigError(f"preset: no file {path.name} in {path.parent}")
    try:
        with open(path) as fh:
            data = yaml.safe_load(fh) or {}
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f" at line {mark.line + 1}" if mark else ""
        raise ConfigError(f"preset: {path.name} is malformed YAML{where} "
                          f"({getattr(exc, 'problem', None) or type(exc).__name__})") from None
    if not isinstance(data, dict):
        raise ConfigError(f"preset: {path.name} must hold a mapping of parameters")
    return data


def validate(schema: Schema, values: Mapping, source: str) -> dict:
    out = {}
    for key, value in values.items():
        if key not in schema.params:
            known = ", ".join(sorted(schema.params))
            raise ConfigError(f"{key}: unknown parameter in {source} (known: {known})")
        out[key] = schema.params[key].check(key, value)
    return out


def parse_overrides(text: str) -> dict:
    """Overrides given as YAML text (``{games: [kuhn_poker], eval_games: 10}``), as from a
    command line; malformed YAML is a one-line ConfigError naming ``overrides``."""
    try:
        data = yaml.safe_load(text)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f" at line {mark.line + 1}, column {mark.column + 1}" if mark else ""
        problem = getattr(exc, "problem", None) or type(exc).__name__
        raise ConfigError(f"overrides: malformed YAML{where} ({problem}): {text!r}") from None
    if data is None:
        return {}
    if not isinstance(data, Mapping):
        raise ConfigError(f"overrides: expected a YAML mapping such as '{{eval_games: 10}}', "
                          f"got {type(data).__name__} {data!r}")
    return dict(data)


def load(slug: str, preset: str = "default", *, seed: int = 0,
         overrides: Mapping | str | None = None) -> Config:
    """Load, validate and derive a paper's config. Raises ConfigError (one line).

    ``overrides`` is a mapping of parameters, or the same as YAML text."""
    if not isinstance(seed, int) or isinstance(seed, bool) or seed < 0:
        raise ConfigError(f"seed: expected an int >= 0, got {seed!r}")
    if isinstance(overrides, str):
        overrides = parse_overrides(overrides)
    if overrides is not None and not isinstance(overrides, Mapping):
        raise ConfigError(f"overrides: expected a mapping, got {type(overrides).__name__}")
    schema = schema_for(slug)
    values = validate(schema, read_preset(slug, preset), f"{slug}.{preset}.yaml")
    missing = sorted(set(schema.params) - set(values))
    if missing:
        raise ConfigError(f"{missing[0]}: missing from {slug}.{preset}.yaml")
    values.update(validate(schema, dict(overrides or {}), "overrides"))
    derived = schema.derive(dict(values)) if schema.derive else {}
    clash = sorted(set(derived) & set(schema.params))
    if clash:
        raise ConfigError(f"{clash[0]}: derived value clashes with a parameter")
    values.update(derived)
    return Config(slug, preset, seed, values, tuple(derived))

