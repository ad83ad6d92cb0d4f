"""Final standings: cities powered, then money, cities, highest plant (WBC); shared ranks."""

from tests.power_grid.helpers import G, edit, start


def over(players: list[dict]) -> object:
    state = start(len(players))
    for seat, fields in enumerate(players):
        state = edit(state, seat, **fields)
    state.phase = "over"
    return state


def rows(players: list[dict]) -> list[tuple]:
    return [
        (r["rank"], r["details"]["tiebreak_used"], r["details"]["powered"])
        for r in G.outcome(over(players))
    ]


A = ["Kiel", "Hamburg", "Lubeck"]
B = ["Berlin", "Halle", "Leipzig"]
C = ["Bremen", "Cuxhaven", "Kassel"]


def test_every_tiebreak() -> None:
    # Powered alone: 13 powers 1 city, 18 powers 2 (capped by cities).
    assert rows([{"plants": [13], "cities": A}, {"plants": [18], "cities": B}]) == [
        (2, None, 1),
        (1, None, 2),
    ]
    # Money breaks a tie on powered cities.
    pair = [{"plants": [18], "cities": A, "money": 5}, {"plants": [22], "cities": B, "money": 9}]
    assert rows(pair) == [(2, "money", 2), (1, "money", 2)]
    # Then cities.
    pair = [
        {"plants": [18], "cities": A, "money": 5},
        {"plants": [22], "cities": B[:2], "money": 5},
    ]
    assert rows(pair) == [(1, "cities", 2), (2, "cities", 2)]
    # Then the highest plant.
    pair = [{"plants": [18], "cities": A, "money": 5}, {"plants": [22], "cities": B, "money": 5}]
    assert rows(pair) == [(2, "highest_plant", 2), (1, "highest_plant", 2)]
    # Equal on every key (plants hold fuel, none stored): shared first place.
    trio = [
        {"plants": [4], "cities": A, "money": 5},
        {"plants": [4], "cities": B, "money": 5},
        {"plants": [18], "cities": C, "money": 1},
    ]
    assert rows(trio) == [(2, "shared", 0), (2, "shared", 0), (1, None, 2)]


def test_powered_uses_stored_fuel_and_hybrid_leftovers() -> None:
    # 4 (2 coal, 1 city) and 5 (hybrid, 2, 1 city) with 3 coal and 1 oil: both run.
    state = over([{"plants": [4, 5], "cities": A, "fuel": {"coal": 3, "oil": 1}}, {}])
    assert G.outcome(state)[0]["details"]["powered"] == 2
    state = over([{"plants": [4, 5], "cities": A, "fuel": {"coal": 3}}, {}])
    assert G.outcome(state)[0]["details"]["powered"] == 1
