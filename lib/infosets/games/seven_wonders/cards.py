"""Card and wonder data of 7 Wonders for the ``seven_wonders`` port (3 players).

Data of the published base game (Antoine Bauza, 2010) as TAG's ``games/wonders7`` deals it
for three players (PI-MCTS study, docs/papers/pimcts_aggregation.md): 21 cards per age,
age III with 5 of the 10 guilds drawn at random. Wonder boards are the A sides.
"""

from __future__ import annotations

from typing import NamedTuple

WOOD, STONE, CLAY, ORE, GLASS, PAPYRUS, TEXTILE = range(7)
RESOURCE_NAMES = ("wood", "stone", "clay", "ore", "glass", "papyrus", "textile")
RAW = (WOOD, STONE, CLAY, ORE)
MANUFACTURED = (GLASS, PAPYRUS, TEXTILE)
BROWN, GREY, BLUE, YELLOW, RED, GREEN, PURPLE = range(7)
COLOR_NAMES = ("brown", "grey", "blue", "yellow", "red", "green", "purple")
COMPASS, GEAR, TABLET = range(3)


class Card(NamedTuple):
    name: str
    age: int                 # 1, 2, 3
    color: int
    coins: int               # coin cost
    cost: tuple              # resource units needed (resource ids, repeated)
    chain: tuple = ()        # names of cards that make this one free
    produce: tuple = ()      # production units: tuples of resource options
    vp: int = 0
    shields: int = 0
    science: int = -1        # COMPASS, GEAR, TABLET
    effect: str = ""         # yellow / purple effect key


def _c(*resources):
    return tuple(resources)


W, S, C, OR, G, P, T = WOOD, STONE, CLAY, ORE, GLASS, PAPYRUS, TEXTILE

AGE1 = (
    Card("Lumber Yard", 1, BROWN, 0, (), produce=((W,),)),
    Card("Stone Pit", 1, BROWN, 0, (), produce=((S,),)),
    Card("Clay Pool", 1, BROWN, 0, (), produce=((C,),)),
    Card("Ore Vein", 1, BROWN, 0, (), produce=((OR,),)),
    Card("Clay Pit", 1, BROWN, 1, (), produce=((C, OR),)),
    Card("Timber Yard", 1, BROWN, 1, (), produce=((S, W),)),
    Card("Loom", 1, GREY, 0, (), produce=((T,),)),
    Card("Glassworks", 1, GREY, 0, (), produce=((G,),)),
    Card("Press", 1, GREY, 0, (), produce=((P,),)),
    Card("Baths", 1, BLUE, 0, _c(S), vp=3),
    Card("Altar", 1, BLUE, 0, (), vp=2),
    Card("Theatre", 1, BLUE, 0, (), vp=2),
    Card("East Trading Post", 1, YELLOW, 0, (), effect="raw_right"),
    Card("West Trading Post", 1, YELLOW, 0, (), effect="raw_left"),
    Card("Marketplace", 1, YELLOW, 0, (), effect="manufactured"),
    Card("Stockade", 1, RED, 0, _c(W), shields=1),
    Card("Barracks", 1, RED, 0, _c(OR), shields=1),
    Card("Guard Tower", 1, RED, 0, _c(C), shields=1),
    Card("Apothecary", 1, GREEN, 0, _c(T), science=COMPASS),
    Card("Workshop", 1, GREEN, 0, _c(G), science=GEAR),
    Card("Scriptorium", 1, GREEN, 0, _c(P), science=TABLET),
)

AGE2 = (
    Card("Sawmill", 2, BROWN, 1, (), produce=((W,), (W,))),
    Card("Quarry", 2, BROWN, 1, (), produce=((S,), (S,))),
    Card("Foundry", 2, BROWN, 1, (), produce=((OR,), (OR,))),
    Card("Brickyard", 2, BROWN, 1, (), produce=((C,), (C,))),
    Card("Loom", 2, GREY, 0, (), produce=((T,),)),
    Card("Glassworks", 2, GREY, 0, (), produce=((G,),)),
    Card("Press", 2, GREY, 0, (), produce=((P,),)),
    Card("Aqueduct", 2, BLUE, 0, _c(S, S, S), ("Baths",), vp=5),
    Card("Temple", 2, BLUE, 0, _c(W, C, G), ("Altar",), vp=3),
    Card("Statue", 2, BLUE, 0, _c(OR, OR, W), ("Theatre",), vp=4),
    Card("Courthouse", 2, BLUE, 0, _c(C, C, T), ("Scriptorium",), vp=4),
    Card("Stables", 2, RED, 0, _c(C, W, OR), ("Apothecary",), shields=2),
    Card("Archery Range", 2, RED, 0, _c(W, W, OR), ("Workshop",), shields=2),
    Card("Walls", 2, RED, 0, _c(S, S, S), shields=2),
    Card("Dispensary", 2, GREEN, 0, _c(OR, OR, G), ("Apothecary",), science=COMPASS),
    Card("Laboratory", 2, GREEN, 0, _c(C, C, P), ("Workshop",), science=GEAR),
    Card("Library", 2, GREEN, 0, _c(S, S, T), ("Scriptorium",), science=TABLET),
    Card("School", 2, GREEN, 0, _c(W, P), science=TABLET),
    Card("Caravansery", 2, YELLOW, 0, _c(W, W), ("Marketplace",), produce=((W, S, C, OR),)),
    Card("Forum", 2, YELLOW, 0, _c(C, C), ("East Trading Post", "West Trading Post"),
         produce=((G, P, T),)),
    Card("Vineyard", 2, YELLOW, 0, (), effect="vineyard"),
)

AGE3 = (
    Card("Pantheon", 3, BLUE, 0, _c(C, C, OR, G, P, T), ("Temple",), vp=7),
    Card("Gardens", 3, BLUE, 0, _c(C, C, W), ("Statue",), vp=5),
    Card("Town Hall", 3, BLUE, 0, _c(S, S, OR, G), vp=6),
    Card("Palace", 3, BLUE, 0, _c(W, S, C, OR, G, P, T), vp=8),
    Card("Senate", 3, BLUE, 0, _c(W, W, S, OR), ("Library",), vp=6),
    Card("Haven", 3, YELLOW, 0, _c(W, OR, T), ("Forum",), effect="haven"),
    Card("Lighthouse", 3, YELLOW, 0, _c(S, G), ("Caravansery",), effect="lighthouse"),
    Card("Arena", 3, YELLOW, 0, _c(S, S, OR), ("Dispensary",), effect="arena"),
    Card("Fortifications", 3, RED, 0, _c(OR, OR, OR, S), ("Walls",), shields=3),
    Card("Arsenal", 3, RED, 0, _c(W, W, OR, T), shields=3),
    Card("Siege Workshop", 3, RED, 0, _c(C, C, C, W), ("Laboratory",), shields=3),
    Card("Lodge", 3, GREEN, 0, _c(C, C, P, T), ("Dispensary",), science=COMPASS),
    Card("Observatory", 3, GREEN, 0, _c(OR, OR, G, T), ("Laboratory",), science=GEAR),
    Card("University", 3, GREEN, 0, _c(W, W, P, G), ("Library",), science=TABLET),
    Card("Academy", 3, GREEN, 0, _c(S, S, S, G), ("School",), science=COMPASS),
    Card("Study", 3, GREEN, 0, _c(W, P, T), ("School",), science=GEAR),
)

GUILDS = (
    Card("Workers Guild", 3, PURPLE, 0, _c(OR, OR, C, S, W), effect="neighbours_brown"),
    Card("Craftsmen Guild", 3, PURPLE, 0, _c(OR, OR, S, S), effect="neighbours_grey"),
    Card("Traders Guild", 3, PURPLE, 0, _c(T, P, G), effect="neighbours_yellow"),
    Card("Philosophers Guild", 3, PURPLE, 0, _c(C, C, C, T, P), effect="neighbours_green"),
    Card("Spies Guild", 3, PURPLE, 0, _c(C, C, C, G), effect="neighbours_red"),
    Card("Magistrates Guild", 3, PURPLE, 0, _c(W, W, W, S, T), effect="neighbours_blue"),
    Card("Shipowners Guild", 3, PURPLE, 0, _c(W, W, W, G, P), effect="shipowners"),
    Card("Builders Guild", 3, PURPLE, 0, _c(S, S, C, C, G), effect="builders"),
    Card("Decorators Guild", 3, PURPLE, 0, _c(OR, OR, S, T), effect="decorators"),
    Card("Scientists Guild", 3, PURPLE, 0, _c(W, W, OR, OR, P), effect="science_choice"),
)

CARDS = AGE1 + AGE2 + AGE3 + GUILDS
NUM_CARDS = len(CARDS)
AGE_CARDS = {1: tuple(range(0, 21)), 2: tuple(range(21, 42)), 3: tuple(range(42, 58))}
GUILD_IDS = tuple(range(58, 68))
GUILDS_PER_GAME = 5


class Wonder(NamedTuple):
    name: str
    resource: int
    stage_costs: tuple       # per stage: resource units
    stage_effects: tuple     # per stage: ("vp", k) / ("shields", k) / ("coins", k) /
    #                          ("raw_choice",) / ("science_choice",) / ("none",)


WONDERS = (
    Wonder("Colossus of Rhodes", ORE, (_c(W, W), _c(C, C, C), _c(OR, OR, OR, OR)),
           (("vp", 3), ("shields", 2), ("vp", 7))),
    Wonder("Lighthouse of Alexandria", GLASS, (_c(S, S), _c(OR, OR), _c(G, G)),
           (("vp", 3), ("raw_choice",), ("vp", 7))),
    Wonder("Temple of Artemis in Ephesus", PAPYRUS, (_c(S, S), _c(W, W), _c(P, P)),
           (("vp", 3), ("coins", 9), ("vp", 7))),
    Wonder("Hanging Gardens of Babylon", CLAY, (_c(C, C), _c(W, W, W), _c(C, C, C, C)),
           (("vp", 3), ("science_choice",), ("vp", 7))),
    Wonder("Statue of Zeus in Olympia", WOOD, (_c(W, W), _c(S, S), _c(OR, OR)),
           (("vp", 3), ("none",), ("vp", 7))),
    Wonder("Mausoleum of Halicarnassus", TEXTILE, (_c(C, C), _c(OR, OR, OR), _c(T, T)),
           (("vp", 3), ("none",), ("vp", 7))),
    Wonder("Pyramids of Giza", STONE, (_c(S, S), _c(W, W, W), _c(S, S, S, S)),
           (("vp", 3), ("vp", 5), ("vp", 7))),
)
NUM_WONDERS = len(WONDERS)
