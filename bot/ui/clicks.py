"""What a click on a restart-proof component carries (its custom id's fields, a select's values),
read inside `guarded`: whatever the bot could not have drawn is refused in words."""

import json
import re
from collections.abc import Sequence
from typing import Any, Self

import discord

from bot.errors import quote
from bot.service.errors import UserError
from bot.ui.common import guarded

NUMBER = re.compile(r"-?[0-9]{1,20}")
"""A whole number as the bot writes one in a custom id (its size is checked once it is read)."""
LARGEST = 2**63 - 1
"""The largest number the database keeps (game ids, and servers' ids for a scope)."""


def json_object(text: str) -> dict[str, Any] | None:
    """`text` read as a JSON object; None if it is not one."""
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        return None
    return data if isinstance(data, dict) else None


class Clicked:
    """Mixed in before `discord.ui.DynamicItem`: `from_custom_id` only keeps the matched strings
    (in `fields`), and the callback reads them with the methods below."""

    item: Any
    fields: dict[str, str]

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item, match: re.Match[str], /
    ) -> Self:
        self = cls.__new__(cls)
        if not isinstance(self, discord.ui.DynamicItem):
            raise TypeError(f"{cls.__name__} must mix Clicked into a discord.ui.DynamicItem")
        discord.ui.DynamicItem.__init__(self, item)
        self.fields = {name: text for name, text in match.groupdict().items() if text is not None}
        return self

    def damaged(self, why: str) -> UserError:
        """The refusal of a component the bot did not draw this way (forged, or outdated)."""
        kind = "menu" if isinstance(self.item, discord.ui.Select) else "button"
        return UserError(
            f"That {kind} is out of date or damaged: {why}. Use the newest one the bot sent you."
        )

    def number(self, name: str, largest: int = LARGEST) -> int:
        """The custom id's field `name` as a whole number (a game, a turn, a page)."""
        return self.whole(self.fields.get(name, ""), name, largest)

    def whole(self, text: str, what: str, largest: int = LARGEST) -> int:
        """`text` (a field or a chosen value) as the whole number that `what` names."""
        if NUMBER.fullmatch(text) is None:
            raise self.damaged(f"the {what} “{quote(text)}” is not a number")
        if abs(int(text)) > largest:
            raise self.damaged(f"the {what} {text} is out of range")
        return int(text)

    def move(self, text: str) -> dict[str, Any]:
        """A move written as JSON (a button's key, a select's value)."""
        data = json_object(text)
        if data is None:
            raise self.damaged(f"“{quote(text)}” is not a move")
        return data

    def choices(self) -> list[str]:
        """The values chosen in this select, each one among the options it offers."""
        if not isinstance(self.item, discord.ui.Select):
            raise self.damaged("it is not a menu")
        offered = {option.value for option in self.item.options}
        values = list(self.item.values)
        if not values:
            raise self.damaged("nothing was chosen")
        odd = [value for value in values if value not in offered]
        if odd:
            raise self.damaged(f"“{quote(str(odd[0]))}” is not one of its choices")
        return values

    def choice(self) -> str:
        """The one value chosen in this select, among its options."""
        values = self.choices()
        if len(values) != 1:
            raise self.damaged(f"it takes one choice, not {len(values)}")
        return values[0]


def stray(known: Sequence[type[discord.ui.DynamicItem[Any]]]) -> type[discord.ui.DynamicItem[Any]]:
    """The component for every custom id that none of `known` matches (a version of the bot
    that drew it is gone, or it is forged): it answers privately, where discord.py is silent."""
    # Group names repeat across templates, and one pattern may name a group once.
    templates = [item.__discord_ui_compiled_template__.pattern for item in known]
    others = "|".join(re.sub(r"\(\?P<\w+>", "(?:", template) for template in templates)
    unknown = rf"(?s)(?!(?:{others})\Z).+"

    class Stray(Clicked, discord.ui.DynamicItem[discord.ui.Button], template=unknown):
        async def callback(self, interaction: discord.Interaction) -> None:
            await guarded(interaction, self.refuse)

        async def refuse(self) -> None:
            raise self.damaged("the bot no longer knows it")

    return Stray
