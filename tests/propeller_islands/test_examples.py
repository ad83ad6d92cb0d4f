"""The spec's worked examples E1–E6 (§10)."""

from engine.core import CHANCE
from engine.propeller_islands import scoring
from engine.propeller_islands.components import tiles
from engine.propeller_islands.state import Cell, Task, Turn

from .helpers import G, edit, island, play, refused, setup, turn_state


def _offer(s, space: int, tile: str):
    s = s.copy()
    s.offer[space - 1] = tile
    return s


def test_e1_guild_links() -> None:
    s = turn_state(2, dice=[1, 1, 6, 6, 3])
    s = island(s, 0, [(1, 0, "10-3", None, {}), (0, 1, "04-2", None, {}), (2, 0, "12-1", None, {})])
    s = edit(s, 0, energy=9, steel=9, parts=9, hand=["I-12", "I-15", "I-01"])
    s = _offer(s, 12, "05-6")
    s = play(s, 0, {"type": "draft", "value": 1}, {"type": "claim", "space": 12, "at": [1, 1]})
    assert s.players[0].fame == 2
    s = play(s, 0, {"type": "complete", "card": "I-12"})
    assert s.tasks[-1].kind == "install" and s.tasks[-1].token == "BAN-I"
    s = play(s, 0, {"type": "install", "tile": [1, 1]}, {"type": "take", "stack": "I"})
    assert s.players[0].fame == 3
    # Seat 1 plays a quiet turn, then seat 0 again.
    s = play(s, 1, {"type": "draft", "value": 1}, {"type": "discard", "space": 1})
    if s.turn and s.turn.seat == 1:
        s = play(s, 1, {"type": "end_turn"})
    s = play(s, 0, {"type": "draft", "value": 6}, {"type": "activate"})
    s = play(s, 0, {"type": "use", "tile": [0, 0], "option": "resources"})
    s = play(s, 0, {"type": "complete", "card": "I-15"})
    s = play(s, 0, {"type": "install", "tile": [1, 0]}, {"type": "take", "stack": "I"})
    assert s.players[0].fame == 4
    cell = next(c for c in s.players[0].cells if (c.q, c.r) == (1, 0))
    assert cell.tokens == {"B": "BAN-S"}
    # A later claim by seat 0 of the Hotel 08-5 with a 6.
    s = _offer(s, 10, "08-5")
    s.turn = Turn(0, "act", 6, 6)
    s = play(s, 0, {"type": "claim", "space": 10, "at": [2, 1]})
    assert s.players[0].fame == 5


def test_e2_activation_chain_and_token_placement() -> None:
    s = turn_state(2, dice=[2, 2, 5, 5, 6])
    s = island(
        s,
        0,
        [
            (1, 0, "06-3", "ready", {"P": "PROD-P"}),
            (0, 1, "09-3", "ready", {}),
            (1, -1, "10-2", "ready", {}),
        ],
    )
    s = edit(s, 0, energy=2, steel=0, parts=0, hand=["I-06"])
    s = play(s, 0, {"type": "draft", "value": 2}, {"type": "adjust", "to": 3}, {"type": "activate"})
    assert (s.players[0].energy, s.turn.value) == (1, 3)
    refused(s, 0, {"type": "use", "tile": [1, -1]}, "costs 1 steel")
    s = play(s, 0, {"type": "use", "tile": [1, 0]})
    assert (s.players[0].energy, s.players[0].steel, s.players[0].parts) == (3, 0, 1)
    s = play(s, 0, {"type": "use", "tile": [0, 1]})
    assert (s.players[0].energy, s.players[0].steel, s.players[0].parts) == (1, 1, 2)
    s = play(s, 0, {"type": "use", "tile": [1, -1]})
    assert (s.players[0].energy, s.players[0].steel, s.players[0].parts) == (1, 0, 4)
    s = play(s, 0, {"type": "use", "tile": [0, 0], "option": "resources"})
    # Nothing is left to activate, so the activation ends by itself.
    assert s.turn.stage == "blueprint"
    assert (s.players[0].energy, s.players[0].steel, s.players[0].parts) == (2, 1, 4)
    s = play(s, 0, {"type": "complete", "card": "I-06"})
    assert (s.players[0].energy, s.players[0].steel, s.players[0].parts) == (1, 1, 2)
    refused(s, 0, {"type": "install", "tile": [1, 0]}, "already holds a production upgrade")
    targets = {tuple(a.tile) for a in G.legal_actions(s, 0) if a.type == "install"}
    assert targets == {(0, 1), (1, -1)}


def test_e3_number_landmarks() -> None:
    p = turn_state(2).players[0].copy()
    placed = ["07-1", "13-1", "12-1", "06-3", "09-3", "10-3", "05-5", "05-6", "08-5", "08-6"]
    p.cells = [Cell(0, 0, "01A", "ready")] + [Cell(i + 1, 0, t) for i, t in enumerate(placed)]
    p.cells.append(Cell(0, 1, "05-1", tokens={"W": "WILD"}))
    assert scoring.number_counts(p) == {1: 2, 2: 1, 3: 2, 4: 1, 5: 1, 6: 2}
    for tile, vp in (("21-1", 10), ("22-1", 5), ("23-1", 5)):
        cell = Cell(0, -1, tile)
        assert scoring.landmark_vp(p, cell) == vp


def test_e4_final_score() -> None:
    p = turn_state(2).players[0].copy()
    ring = [(1, 0), (-1, 0), (0, 1), (0, -1), (1, -1), (-1, 1)]
    theater = [
        Cell(10, 0, "17-1"),
        Cell(11, 0, "09-1"),
        Cell(9, 0, "06-1", tokens={"B": "BAN-C"}),
        Cell(10, 1, "13-3"),
        Cell(10, -1, "05-6", tokens={"B": "BAN-S"}),
        Cell(11, -1, "07-7"),
        Cell(9, 1, "02-1"),
    ]
    # Science banners: 09-1, 05-6 (+BAN-S), Laboratory, 16-1 and two more science tiles = 7.
    garden = [Cell(20, 0, "16-1"), *[Cell(20 + dq, dr, "05-1") for dq, dr in ring[:2]]]
    garden += [Cell(20 + dq, dr, "07-1") for dq, dr in ring[2:]]
    p.cells = [Cell(0, 0, "01A", "ready"), *theater, *garden, Cell(30, 0, "18-1")]
    p.fame, p.energy, p.steel, p.parts = 17, 8, 5, 3
    p.unused = ["PROD-E", "PROD-E"]
    p.completed = ["I-03", "I-14", "II-02", "II-12"]
    science = sum(1 for c in p.cells for g in scoring.banners(c) if g == "S")
    assert science == 7
    b = scoring.breakdown(p)
    assert b["landmarks"] == {"17-1": 10, "16-1": 5, "18-1": 8}
    assert (b["fame"], b["resources"], b["blueprints"], b["total"]) == (17, 8, 21, 69)


def test_e5_dock_chain_choice_of_order() -> None:
    s = turn_state(2, dice=[1, 1, 6, 6, 3])
    dock = [True] * 12
    for row, col in ((3, 1), (3, 2), (3, 3), (1, 4), (2, 4)):
        dock[(row - 1) * 4 + col - 1] = False
    s = island(s, 0, [(1, 0, "05-1", None, {}), (0, 1, "05-5", None, {})])
    s = edit(s, 0, dock=dock)
    s.tasks.append(Task("deploy", 0))
    s = play(s, 0, {"type": "deploy", "from": [3, 4], "to": [1, 0]})
    assert s.tasks[-1].kind == "rewards" and sorted(s.tasks[-1].lines) == ["C4", "R3"]
    refused(s, 0, {"type": "reward", "line": "C1"}, "Pick C4 or R3")
    s = play(s, 0, {"type": "reward", "line": "C4"})
    assert s.players[0].fame == 3
    assert s.tasks[-1].kind == "deploy"
    s = play(s, 0, {"type": "deploy", "from": [2, 1], "to": [0, 1]})
    assert not s.tasks and s.players[0].dock[0]
    assert s.players[0].fame == 3 and s.turn.stage == "draft"


def test_e5_r3_lost_without_housing() -> None:
    s = turn_state(2, dice=[1, 1, 6, 6, 3])
    dock = [True] * 12
    for i in (8, 9, 10, 3, 7):
        dock[i] = False
    s = island(s, 0, [(1, 0, "05-1", None, {})])
    s = edit(s, 0, dock=dock)
    s.tasks.append(Task("deploy", 0))
    s = play(
        s, 0, {"type": "deploy", "from": [3, 4], "to": [1, 0]}, {"type": "reward", "line": "R3"}
    )
    # R3 had nowhere to deploy, then C4 paid at once.
    assert not s.tasks and s.players[0].fame == 3


def test_e6_forge_reroll_and_wrap() -> None:
    s = setup(2)
    s = play(s, 1, {"type": "claim", "space": 12, "at": [1, 0]})
    s = play(s, 0, {"type": "claim", "space": 11, "at": [1, 0]})
    s = G.apply(s, CHANCE, {"type": "roll", "dice": [6, 6, 6, 6, 2]})
    assert s.dice_to_roll == 1 and G.view(s, None)["dice_to_roll"] == 1
    refused(s, CHANCE, {"type": "roll", "dice": [6, 3]}, "exactly 1 dice")
    s = G.apply(s, CHANCE, {"type": "roll", "dice": [6]})
    assert s.dice_to_roll == 1
    s = G.apply(s, CHANCE, {"type": "roll", "dice": [3]})
    assert s.forge == [0, 1, 1, 0, 0, 3] and s.phase == "turns"
    s = play(s, 0, {"type": "draft", "value": 6}, {"type": "adjust", "to": 1})
    reach = {a.space for a in G.legal_actions(s, 0) if a.type in ("claim", "discard")}
    assert reach == {12, 1, 2}
    assert tiles()["05-1"].number == 1
