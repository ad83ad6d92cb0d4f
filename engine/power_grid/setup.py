"""Setup and the start of each round: the deck shuffle, the turn order, region picks."""

from functools import cache
from itertools import combinations

from engine.core import IllegalAction
from engine.power_grid.actions import PickRegion, Shuffle, TurnOrder
from engine.power_grid.config import Config
from engine.power_grid.market import settle
from engine.power_grid.rules import (
    DECK_TOP,
    INITIAL_MARKET,
    RESOURCES,
    START_MARKET,
    STEP3,
    contiguous,
    deck_plants,
    game_map,
    player_count,
    tables,
)
from engine.power_grid.state import PlayerState, State
from engine.power_grid.turns import player_order


def new_state(config: Config) -> State:
    """The table before the first chance action: starting market, full tracks, 50 Elektro each."""
    t = tables()
    return State(
        config=config,
        phase="setup",
        round=0,
        step=1,
        regions=[],
        first_order=[],
        order=[],
        market=list(START_MARKET),
        deck=[],
        removed_setup=[],
        removed_in_play=[],
        resources=dict(INITIAL_MARKET),
        supply={r: t.resource_supply_totals[r] - INITIAL_MARKET[r] for r in RESOURCES},  # type: ignore[index]
        houses={},
        players=[
            PlayerState(money=t.start_money, plants=[], fuel=dict.fromkeys(RESOURCES, 0), cities=[])
            for _ in range(config.players)
        ],
    )


def shuffle(state: State, action: Shuffle) -> None:
    """The setup shuffle (deck plus removed) or the reshuffle owed after the Step 3 card."""
    if state.shuffle_owed:
        if action.removed:
            raise IllegalAction("A reshuffle after the Step 3 card removes no plants.")
        if sorted(action.deck) != sorted(state.deck):
            raise IllegalAction("The reshuffle must hold exactly the plants left in the deck.")
        state.deck = list(action.deck)
        state.shuffle_owed = False
        settle(state)
        return
    plants = action.deck + action.removed
    if len(set(plants)) != len(plants):
        raise IllegalAction("The shuffle names a plant twice.")
    if sorted(plants) != deck_plants():
        raise IllegalAction("The shuffle must hold exactly plants 11, 12, 14–40, 42, 44, 46, 50.")
    need = player_count(state.config.players).plants_removed_original
    if len(action.removed) != need:
        raise IllegalAction(f"With {state.config.players} players {need} plants are removed.")
    state.deck = [DECK_TOP, *action.deck, STEP3]
    state.removed_setup = list(action.removed)


def turn_order(state: State, action: TurnOrder) -> None:
    if sorted(action.order) != list(range(state.config.players)):
        raise IllegalAction("The turn order must name every seat exactly once.")
    state.first_order = list(action.order)
    if state.config.regions is None:
        state.phase = "regions"
    else:
        state.regions = list(state.config.regions)
        start_round(state)


def pick_region(state: State, action: PickRegion) -> None:
    m = game_map(state.config.map)
    if action.region not in m.regions:
        raise IllegalAction(
            f"There is no “{action.region}” region on the {m.name} map: "
            f"its regions are {', '.join(m.regions)}."
        )
    if action.region in state.regions:
        raise IllegalAction(f"The {action.region} region is already picked.")
    picked = {*state.regions, action.region}
    if not completable(state.config, picked):
        raise IllegalAction(
            f"With {action.region} the regions in play could no longer be contiguous."
        )
    state.regions = [*state.regions, action.region]
    if len(state.regions) == player_count(state.config.players).regions_in_play:
        start_round(state)


def completable(config: Config, picked: set[str]) -> bool:
    """Whether some contiguous set of the required size holds every region picked so far."""
    return _completable(config.map, player_count(config.players).regions_in_play, frozenset(picked))


@cache
def _completable(map_name: str, need: int, picked: frozenset[str]) -> bool:
    rest = [r for r in game_map(map_name).regions if r not in picked]
    return any(
        contiguous(map_name, picked | set(more)) for more in combinations(rest, need - len(picked))
    )


def start_round(state: State) -> None:
    """A new round: player order, flags cleared, the auction phase open."""
    state.round += 1
    if state.step3_next == "round":
        state.step = 3
        state.step3_next = None
    state.order = list(state.first_order) if state.round == 1 else player_order(state)
    state.players = [PlayerState(p.money, p.plants, p.fuel, p.cities) for p in state.players]
    state.phase = "auction"
    state.turn = 0
