"""A tournament in Discord's words: the check-in button and its message, each stage's one post
(tables, then winners, then standings), and the champion's announcement."""

import discord

from bot.service.tournament.checkins import Closed, Stage, closes_words
from bot.service.tournament.rounds import Standings
from bot.service.tournament.runner import StageTable
from bot.store.tournaments import TournamentRow
from bot.ui.clicks import Clicked
from bot.ui.common import bot_of, guarded, said


def check_in_text(t: TournamentRow, stage: Stage, closes: str, done: int, asked: int) -> str:
    """The check-in message: what for, until when, and how many are in."""
    return (
        f"✅ **Check-in for {stage.words} of {said(t.name)}** is open until {closes}: press "
        f"*Check in* if you will play. Whoever has not checked in then is absent"
        + (" and an alternate takes their place" if stage.stage != "heat" else "")
        + f".\n**{done} of {asked}** checked in."
    )


def check_in_closed_text(closed: Closed) -> str:
    """The check-in message once closed (its button gone)."""
    return (
        f"☑️ **Check-in for {closed.stage.words} of {said(closed.tournament.name)}** is closed: "
        f"**{closed.done} of {closed.asked}** checked in. Whoever did not is absent from it."
    )


class CheckInButton(
    Clicked, discord.ui.DynamicItem[discord.ui.Button], template=r"pl:checkin:(?P<t>\d+)"
):
    """Under the check-in message: marks the person present for the tournament's next stage."""

    def __init__(self, tid: int) -> None:
        button: discord.ui.Button[discord.ui.View] = discord.ui.Button(
            label="Check in", style=discord.ButtonStyle.success, custom_id=f"pl:checkin:{tid}"
        )
        super().__init__(button)

    async def callback(self, interaction: discord.Interaction) -> None:
        async def act() -> None:
            tours = bot_of(interaction).tournaments
            tid = self.number("t")
            await tours.get(tid, interaction.guild_id or 0)
            t, stage, done, asked = await tours.check_in(tid, interaction.user.id)
            window = await tours.window(tid)
            assert window is not None
            closes = closes_words(window[1].closes_at)
            await interaction.response.edit_message(
                content=check_in_text(t, stage, closes, done, asked)
            )
            await interaction.followup.send(
                f"✅ You are checked in for {stage.words} of {said(t.name)}.", ephemeral=True
            )

        await guarded(interaction, act)


def check_in_view(tid: int) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(CheckInButton(tid))
    return view


def stage_post(t: TournamentRow, words: str, tables: list[StageTable], byes: list[str]) -> str:
    """A stage's one post: each table with its thread and players, then how it ended."""
    lines = [f"🏁 **{said(t.name)} · {words}**: {len(tables)} table(s)."]
    for row in tables:
        where = f"<#{row.thread_id}>" if row.thread_id else f"game #{row.game_id}"
        how = f"🏆 won by **{said(row.winner)}**" if row.winner else row.status
        lines.append(f"Table {row.table_no} ({where}): {', '.join(map(said, row.players))} — {how}")
    if byes:
        lines.append(f"Bye: {', '.join(map(said, byes))}")
    left = sum(1 for row in tables if not row.winner)
    lines.append(
        f"{left} table(s) still playing." if left else f"Every table of {words} has finished."
    )
    return "\n".join(lines)[:2000]


def format_words(t: TournamentRow) -> str:
    """The format as the creation post says it: "Swiss in pods of 4-5, 3 rounds"."""
    if t.format == "wbc":
        return f"{t.heats} heat(s), then a semifinal and a final"
    pods = "-".join(map(str, t.pods or []))
    kind = "Swiss" if t.format == "swiss" else "round robin"
    return f"{kind} in pods of {pods}, {t.heats} round(s)"


def standings_embed(t: TournamentRow, standings: Standings) -> discord.Embed:
    """The standings in words: every player's points and tiebreaks, then what each one means."""
    lines = []
    for i, row in enumerate(standings.rows, start=1):
        cells = " · ".join(f"{c} {v}" for c, v in zip(standings.columns, row.cells, strict=True))
        gone = " (withdrawn)" if row.withdrawn else ""
        lines.append(f"{i}. **{said(row.name)}**{gone} — {cells}")
    how = "\n".join(f"• {words}" for words in standings.words)
    embed = discord.Embed(
        title=f"{said(t.name)} — standings after round {standings.rounds_done} of {t.heats}",
        description=("\n".join(lines) + f"\n\n**Order**\n{how}")[:4000],
    )
    return embed


def standings_rows(
    t: TournamentRow, standings: Standings
) -> tuple[str, str, list[str], list[tuple[str, list[str]]]]:
    """The standings image's title, note, column headings and rows."""
    rows = [
        (row.name + (" (left)" if row.withdrawn else ""), list(row.cells)) for row in standings.rows
    ]
    note = f"After round {standings.rounds_done} of {t.heats}. " + "; ".join(standings.short)
    if any(row.withdrawn for row in standings.rows):
        note += "; (left): withdrew, the AI finished their seats"
    return f"{t.name}: standings", note, list(standings.columns), rows
