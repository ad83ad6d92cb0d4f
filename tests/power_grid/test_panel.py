"""Power Grid's "your turn" panel, explored offline: every bid of any amount, Pass and Drop
whenever legal, and a build of several cities priced and made in a few taps."""

import re
from types import SimpleNamespace
from typing import Any

import discord
import pytest

from bot.games.power_grid.controls import BuildButton, CitySelect, panel, spans
from bot.service.errors import UserError
from bot.service.tables import TurnView
from bot.ui.turns import action_key
from engine.power_grid.state import State
from tests.contract.panels import Made, explore, turn_view
from tests.power_grid.helpers import G, act, edit, finish_phase, play_round1, start


def _tv(state: State, seat: int) -> TurnView:
    return turn_view(G, state, seat, len(state.players))


class _Response:
    def __init__(self) -> None:
        self.edited: dict[str, Any] = {}

    async def edit_message(self, **kwargs: Any) -> None:
        self.edited = kwargs

    def is_done(self) -> bool:
        return bool(self.edited)


class _Service:
    async def act(self, game_id: int, user_id: int, action: dict[str, Any], *rest: Any) -> None:
        raise Made(action)


def _interaction() -> Any:
    return SimpleNamespace(
        client=SimpleNamespace(service=_Service()),
        user=SimpleNamespace(id=100),
        response=_Response(),
        message=None,
        extras={},
        id=1,
    )


async def _tap(item: Any, tv: TurnView, values: list[str] | None = None) -> Any:
    """Click `item` as the bot reads a click back (its id's fields parsed, the values chosen);
    the view it answers with."""
    match = re.fullmatch(type(item).__discord_ui_compiled_template__, item.item.custom_id)
    assert match is not None
    clicked = await type(item).from_custom_id(None, item.item, match)
    if values is not None:
        clicked.item._values = values
    interaction = _interaction()
    await clicked.clicked(interaction, tv)
    return interaction.response.edited


def _auction(money: int) -> State:
    """Round 1, seat 0 opened plant 3 at 3, seat 1 (with `money`) to raise."""
    return edit(act(start(3), 0, "open", plant=3, bid=3), 1, money=money)


def test_amounts_are_cut_into_at_most_a_select_of_ranges() -> None:
    assert spans(list(range(1, 31))) == [(1, 25), (26, 30)]
    assert spans(list(range(1, 626))) == [(n, n + 24) for n in range(1, 626, 25)]
    assert spans(list(range(1, 1001))) == [(1, 625), (626, 1000)]


@pytest.mark.parametrize(("money", "most"), [(200, 2), (1000, 3)])
async def test_every_raise_is_reachable(money: int, most: int) -> None:
    tv = _tv(_auction(money), 1)
    taps = (await explore(tv)).taps
    bids = [a for a in tv.legal if a["type"] == "bid"]
    assert len(bids) == money - 3
    assert all(taps[action_key(a)] <= (1 if a["amount"] < 29 else most) for a in bids)
    assert taps[action_key({"type": "drop"})] == 1


async def test_every_opening_bid_is_reachable() -> None:
    tv = _tv(edit(start(3), 0, money=300), 0)
    taps = (await explore(tv)).taps
    opens = [a for a in tv.legal if a["type"] == "open"]
    assert len(opens) == sum(300 - n + 1 for n in (3, 4, 5, 6))
    assert all(taps[action_key(a)] <= 3 for a in opens)


async def test_drop_is_offered_when_the_seat_cannot_raise() -> None:
    tv = _tv(_auction(3), 1)
    assert tv.legal == [{"type": "drop"}]
    assert (await explore(tv)).taps == {action_key({"type": "drop"}): 1}


async def test_pass_is_offered_when_no_plant_is_affordable() -> None:
    state = play_round1(start(3))
    chooser = min(G.to_act(state))
    tv = _tv(edit(state, chooser, money=2), chooser)
    assert tv.legal == [{"type": "pass"}]
    assert (await explore(tv)).taps == {action_key({"type": "pass"}): 1}


def _building(money: int) -> tuple[State, int]:
    state = start(3)
    while state.phase != "build":
        seat = min(G.to_act(state))
        state = act(state, seat, "open", plant=state.market[0], bid=state.market[0])
        while state.auction is not None:
            state = act(state, state.auction.turn, "drop")
        state = finish_phase(state) if state.phase == "resources" else state
    seat = min(G.to_act(state))
    return edit(state, seat, money=money), seat


def _cities(view: discord.ui.View) -> CitySelect:
    return next(item for item in view.children if isinstance(item, CitySelect))


async def test_three_cities_are_built_in_two_taps_with_their_prices_shown() -> None:
    state, seat = _building(200)
    tv = _tv(state, seat)
    select = _cities(panel(tv))
    assert "200 Elektro" in (select.item.placeholder or "")
    assert select.item.max_values > 1
    labels = {o.label.split(":")[0]: (o.label, o.value) for o in select.item.options}
    assert labels["Berlin"][0] == "Berlin: 10 Elektro (0 to connect + 10 house)"
    chosen = ["Berlin", "Frankfurt-O", "Halle"]
    shown = await _tap(select, tv, [labels[c][1] for c in chosen])
    (button,) = [i for i in shown["view"].children if isinstance(i, BuildButton)]
    # Berlin 10; Frankfurt-O 6 + 10; Halle via Berlin 17 + 10.
    assert button.item.label == "Build these for 53 Elektro"
    assert "53 Elektro (23 to connect + 30 for houses)" in shown["content"]
    assert "147 of your 200 Elektro would be left" in shown["content"]
    with pytest.raises(Made) as made:
        await _tap(button, tv)
    assert made.value.action == {"type": "build", "cities": ["Berlin", "Frankfurt-O", "Halle"]}


async def test_a_set_the_seat_cannot_pay_for_is_refused_with_its_total() -> None:
    state, seat = _building(30)
    tv = _tv(state, seat)
    select = _cities(panel(tv))
    values = {o.label.split(":")[0]: o.value for o in select.item.options}
    with pytest.raises(UserError) as refused:
        await _tap(select, tv, [values["Berlin"], values["Frankfurt-O"], values["Halle"]])
    assert refused.value.message == (
        "Building in Berlin, Frankfurt-O and Halle costs 53 Elektro; you have 30."
    )


async def test_every_city_is_offered_when_more_than_a_select_holds() -> None:
    state = start(6)
    while state.phase != "build":
        seat = min(G.to_act(state))
        state = act(state, seat, "open", plant=state.market[0], bid=state.market[0])
        while state.auction is not None:
            state = act(state, state.auction.turn, "drop")
        state = finish_phase(state) if state.phase == "resources" else state
    seat = min(G.to_act(state))
    tv = _tv(state, seat)
    builds = [a for a in tv.legal if a["type"] == "build"]
    assert len(builds) > 25
    taps = (await explore(tv)).taps
    assert all(taps[action_key(a)] <= 3 for a in builds)


async def test_every_way_to_power_is_offered_when_hybrid_mixes_make_many() -> None:
    state = finish_phase(_building(50)[0])
    assert state.phase == "bureaucracy"
    cities = ["Berlin", "Halle", "Leipzig", "Erfurt", "Magdeburg", "Dresden", "Frankfurt-O"]
    # Three coal/oil hybrids burning 2 each: every subset with every mix is a way to power.
    rich = edit(state, 0, plants=[5, 12, 21], fuel={"coal": 6, "oil": 6}, cities=cities)
    tv = _tv(rich, 0)
    powers = [a for a in tv.legal if a["type"] == "power"]
    assert len(powers) > 25
    taps = (await explore(tv)).taps
    assert all(taps[action_key(a)] <= 2 for a in powers)
