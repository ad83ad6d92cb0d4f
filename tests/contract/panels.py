"""A "your turn" panel explored offline as a person taps through it: every menu option and
button followed to the move it makes, without Discord or a database."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import UTC, datetime
from types import SimpleNamespace
from typing import Any

import discord

from bot.service.tables import Table, TurnView
from bot.store.repo import GameRow, SeatRow
from bot.ui.turns import ActButton, ActSelect, PanelBack, PanelClick, action_key, panel
from engine.core import Game


class Made(Exception):
    """The move a tap made (raised where the service would apply it)."""

    def __init__(self, action: dict[str, Any]) -> None:
        super().__init__(action)
        self.action = action


@dataclass
class _Service:
    tv: TurnView

    async def act(self, game_id: int, user_id: int, action: dict[str, Any], *rest: Any) -> Any:
        raise Made(action)

    async def fresh_turn(self, *args: Any) -> TurnView:
        return self.tv


@dataclass
class _Response:
    edited: dict[str, Any] = field(default_factory=dict)

    async def edit_message(self, **kwargs: Any) -> None:
        self.edited = kwargs

    async def send_message(self, *args: Any, **kwargs: Any) -> None:
        self.edited = kwargs

    async def defer(self, *args: Any, **kwargs: Any) -> None:
        return None

    def is_done(self) -> bool:
        return bool(self.edited)


class _Interaction:
    def __init__(self, tv: TurnView) -> None:
        self.client = SimpleNamespace(service=_Service(tv))
        self.user = SimpleNamespace(id=tv.table.seats[tv.seat].user_id)
        self.guild_id = None
        self.message = None
        self.response = _Response()
        self.extras: dict[str, Any] = {}
        self.id = 1


def turn_view(game: Game, state: Any, seat: int, players: int, turn: int = 1) -> TurnView:
    """A seat's turn as the service would give it, for a table that exists only here."""
    row = GameRow(
        id=1,
        game=game.name,
        guild_id=None,
        channel_id=1,
        thread_id=None,
        host_id=100,
        status="active",
        config={},
        options={"deadline_minutes": 60},
        seed=0,
        version=1,
        snapshot=None,
        deadline=datetime(2026, 1, 2, tzinfo=UTC),
        lobby_message_id=None,
        status_message_id=None,
    )
    seats = [
        SeatRow(1, s, 100 + s, f"P{s}", False, False, False, 0, False, 0, False)
        for s in range(players)
    ]
    table = Table(row, seats, state)
    legal = [a.model_dump(mode="json") for a in game.legal_actions(state, seat)]
    return TurnView(table, seat, turn, game.view(state, seat), legal)


async def _rebuilt(item: Any) -> Any:
    """The component as the bot reads it back from a click (its id's fields parsed)."""
    template: re.Pattern[str] = type(item).__discord_ui_compiled_template__
    match = template.fullmatch(item.item.custom_id)
    assert match is not None, item.item.custom_id
    return await type(item).from_custom_id(None, item.item, match)


Tap = tuple[str, str | None]
"""A tap on a panel: a component's custom id, and the option chosen in a menu (None: a button)."""


@dataclass
class Reach:
    """What a panel offers: each move with the fewest taps that make it."""

    paths: dict[str, list[Tap]] = field(default_factory=dict)

    def add(self, action: dict[str, Any], path: list[Tap]) -> None:
        key = action_key(action)
        if key not in self.paths or len(path) < len(self.paths[key]):
            self.paths[key] = path

    @property
    def taps(self) -> dict[str, int]:
        return {key: len(path) for key, path in self.paths.items()}


async def explore(tv: TurnView, depth: int = 3) -> Reach:
    """Every move the seat's panel leads to, tapping through its menus up to `depth` deep."""
    reach = Reach()
    await _explore(panel(tv), tv, depth, [], reach)
    return reach


async def _explore(
    view: discord.ui.View, tv: TurnView, depth: int, path: list[Tap], reach: Reach
) -> None:
    for item in view.children:
        custom_id = item.item.custom_id
        if isinstance(item, ActSelect):
            for option in item.item.options:
                if option.value != "-":
                    reach.add(item.move(option.value), [*path, (custom_id, option.value)])
        elif isinstance(item, ActButton):
            clicked = await _rebuilt(item)
            reach.add(clicked.move(clicked.fields["key"]), [*path, (custom_id, None)])
        elif isinstance(item, PanelBack) or depth == 0:
            continue
        elif isinstance(item, PanelClick):  # a step on the way to moves (pre-moves, Undo: none)
            values = (
                [o.value for o in item.item.options]
                if isinstance(item.item, discord.ui.Select)
                else [None]
            )
            for value in values:
                clicked = await _rebuilt(item)
                if value is not None:
                    clicked.item._values = [value]
                interaction = _Interaction(tv)
                tap = [*path, (custom_id, value)]
                try:
                    await clicked.clicked(interaction, tv)
                except Made as made:
                    reach.add(made.action, tap)
                    continue
                shown = interaction.response.edited.get("view")
                if isinstance(shown, discord.ui.View):
                    await _explore(shown, tv, depth - 1, tap, reach)
