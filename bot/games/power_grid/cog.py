"""`/powergrid …`: open a game with the WBC house rules, and every move by slash command with
autocomplete of the legal values. Rules live in the engine."""

from typing import Any, Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot.app import GameBot
from bot.games.power_grid.controls import power_options, quantities
from bot.games.power_grid.words import plant_label
from bot.service.errors import UserError
from bot.service.options import TableOptions
from bot.ui.commands import DEADLINES, Deadline, game_choices, open_here
from bot.ui.turns import action_key, command_move, legal_moves, parse_action_key
from engine.power_grid.rules import RESOURCES

GAME = "power_grid"
Choice = app_commands.Choice


class PowerGrid(commands.GroupCog, group_name="powergrid", group_description="Play Power Grid"):
    def __init__(self, bot: GameBot) -> None:
        self.bot = bot

    async def _game_choices(
        self, interaction: discord.Interaction, current: str
    ) -> list[Choice[int]]:
        return await game_choices(self.bot, interaction, GAME, current)

    @app_commands.command(
        name="open", extras={"role": "host"}, description="Open a Power Grid game in this channel"
    )
    @app_commands.guild_only()
    @app_commands.describe(
        map="The map (default Germany)",
        max_players="Most seats (2–6)",
        hidden_money="WBC: each player's money is hidden from the others (default yes)",
        seat_order_bidding="WBC: bidding goes clockwise by seat, not in turn order (default yes)",
        regions="Regions in play, comma-separated (default: the players pick them in turn, WBC)",
        late_step3_refill="A Step 3 card drawn while building refills by Step 3 only next round",
        routes_through_unused_regions="Connections may pass through regions not in play",
        deadline="Time for each move (default 1 day)",
        rated="Count this game for the leaderboard (default yes)",
        thread="Play in a new thread of this channel",
    )
    async def open(
        self,
        interaction: discord.Interaction,
        map: Literal["germany", "usa"] = "germany",
        max_players: app_commands.Range[int, 2, 6] = 6,
        hidden_money: bool = True,
        seat_order_bidding: bool = True,
        regions: app_commands.Range[str, 1, 200] | None = None,
        late_step3_refill: bool = False,
        routes_through_unused_regions: bool = False,
        deadline: Deadline = "24 hours",
        rated: bool = True,
        thread: bool = False,
    ) -> None:
        config: dict[str, Any] = {
            "map": map,
            "hidden_money": hidden_money,
            "bid_order": "seat" if seat_order_bidding else "turn",
            "step3_refill": "late" if late_step3_refill else "rules",
            "routes_through_unused_regions": routes_through_unused_regions,
        }
        if regions:
            config["regions"] = [r.strip() for r in regions.split(",") if r.strip()]
        options = TableOptions(
            deadline_minutes=DEADLINES[deadline],
            max_players=max_players,
            rated=rated,
            thread=thread,
            reminders=1,
        )
        await open_here(self.bot, interaction, GAME, config, options)

    # ---- moves -------------------------------------------------------------------------------

    @app_commands.command(name="region", description="Pick a region to play in")
    async def region(
        self,
        interaction: discord.Interaction,
        region: app_commands.Range[str, 1, 30],
        game: int | None = None,
    ) -> None:
        await command_move(interaction, GAME, game, {"type": "pick_region", "region": region})

    @region.autocomplete("region")
    async def _regions(self, interaction: discord.Interaction, current: str) -> list[Choice[str]]:
        tv = await legal_moves(interaction, GAME)
        names = [a["region"] for a in tv.legal if a["type"] == "pick_region"] if tv else []
        return [Choice(name=r, value=r) for r in names if current.lower() in r.lower()][:25]

    @app_commands.command(name="auction", description="Open an auction for a plant with a bid")
    @app_commands.describe(
        plant="The plant to auction", bid="Your opening bid (at least its number)"
    )
    async def auction(
        self,
        interaction: discord.Interaction,
        plant: int,
        bid: app_commands.Range[int, 1, 500],
        game: int | None = None,
    ) -> None:
        await command_move(interaction, GAME, game, {"type": "open", "plant": plant, "bid": bid})

    @auction.autocomplete("plant")
    async def _plants(self, interaction: discord.Interaction, current: str) -> list[Choice[int]]:
        tv = await legal_moves(interaction, GAME)
        numbers = sorted({a["plant"] for a in tv.legal if a["type"] == "open"}) if tv else []
        return [Choice(name=plant_label(n), value=n) for n in numbers if current in str(n)][:25]

    @app_commands.command(name="bid", description="Raise the bid in the running auction")
    async def bid(
        self,
        interaction: discord.Interaction,
        amount: app_commands.Range[int, 1, 500],
        game: int | None = None,
    ) -> None:
        await command_move(interaction, GAME, game, {"type": "bid", "amount": amount})

    @bid.autocomplete("amount")
    async def _amounts(self, interaction: discord.Interaction, current: str) -> list[Choice[int]]:
        tv = await legal_moves(interaction, GAME)
        amounts = [a["amount"] for a in tv.legal if a["type"] == "bid"] if tv else []
        return [Choice(name=f"{n} Elektro", value=n) for n in amounts if current in str(n)][:25]

    @app_commands.command(name="pass", description="Pass: open no auction this round")
    async def pass_(self, interaction: discord.Interaction, game: int | None = None) -> None:
        await command_move(interaction, GAME, game, {"type": "pass"})

    @app_commands.command(name="drop", description="Drop out of the running auction")
    async def drop(self, interaction: discord.Interaction, game: int | None = None) -> None:
        await command_move(interaction, GAME, game, {"type": "drop"})

    @app_commands.command(name="discard", description="Discard a plant (you have one too many)")
    async def discard(
        self,
        interaction: discord.Interaction,
        choice: app_commands.Range[str, 1, 200],
        game: int | None = None,
    ) -> None:
        await command_move(interaction, GAME, game, parse_action_key(choice))

    @discard.autocomplete("choice")
    async def _discards(self, interaction: discord.Interaction, current: str) -> list[Choice[str]]:
        tv = await legal_moves(interaction, GAME)
        found = [a for a in tv.legal if a["type"] == "discard_plant"] if tv else []
        return [
            Choice(name=f"Discard plant {a['plant']}", value=action_key(a))
            for a in found
            if current in str(a["plant"])
        ][:25]

    @app_commands.command(name="buy", description="Buy resources (the price is shown as you type)")
    @app_commands.describe(resource="Which resource", quantity="How many (see the prices offered)")
    async def buy(
        self,
        interaction: discord.Interaction,
        resource: Literal["coal", "oil", "garbage", "uranium"],
        quantity: app_commands.Range[int, 1, 24],
        game: int | None = None,
    ) -> None:
        action = {"type": "buy", "resources": {resource: quantity}}
        await command_move(interaction, GAME, game, action)

    @buy.autocomplete("quantity")
    async def _quantities(
        self, interaction: discord.Interaction, current: str
    ) -> list[Choice[int]]:
        tv = await legal_moves(interaction, GAME)
        kind = getattr(interaction.namespace, "resource", None)
        if tv is None or kind not in RESOURCES:
            return []
        return [
            Choice(name=label, value=action["resources"][kind])
            for label, action in quantities(tv, kind)
        ][:25]

    @app_commands.command(name="build", description="Build in one or more cities (comma-separated)")
    @app_commands.describe(cities="Cities, e.g. “Berlin, Hamburg”; the suggestions are reachable")
    async def build(
        self,
        interaction: discord.Interaction,
        cities: app_commands.Range[str, 1, 300],
        game: int | None = None,
    ) -> None:
        names = [c.strip() for c in cities.split(",") if c.strip()]
        if not names:
            raise UserError("Name at least one city to build in.")
        await command_move(interaction, GAME, game, {"type": "build", "cities": names})

    @build.autocomplete("cities")
    async def _cities(self, interaction: discord.Interaction, current: str) -> list[Choice[str]]:
        tv = await legal_moves(interaction, GAME)
        reachable = [a["cities"][0] for a in tv.legal if a["type"] == "build"] if tv else []
        *chosen, typing = [c.strip() for c in current.split(",")] or [""]
        head = ", ".join(c for c in chosen if c)
        return [
            Choice(
                name=(f"{head}, {c}" if head else c)[:100], value=(f"{head}, {c}" if head else c)
            )
            for c in reachable
            if c not in chosen and typing.lower() in c.lower()
        ][:25]

    @app_commands.command(name="power", description="Power cities with your plants")
    @app_commands.describe(run="Which plants run (the best choice comes first)")
    async def power(
        self,
        interaction: discord.Interaction,
        run: app_commands.Range[str, 1, 200],
        game: int | None = None,
    ) -> None:
        await command_move(interaction, GAME, game, parse_action_key(run))

    @power.autocomplete("run")
    async def _runs(self, interaction: discord.Interaction, current: str) -> list[Choice[str]]:
        tv = await legal_moves(interaction, GAME)
        options = power_options(tv) if tv else []
        return [
            Choice(name=label[:100], value=action_key(action))
            for label, action in options
            if current.lower() in label.lower()
        ][:25]

    @app_commands.command(name="done", description="End your turn of buying or building")
    async def done(self, interaction: discord.Interaction, game: int | None = None) -> None:
        await command_move(interaction, GAME, game, {"type": "done"})

    for command in (region, auction, bid, pass_, drop, discard, buy, build, power, done):
        command.autocomplete("game")(_game_choices)
    del command


async def setup(bot: GameBot) -> None:
    await bot.add_cog(PowerGrid(bot))
