"""After the game, through the stand-in: the animated recap follows the results post (and never
holds it up), `/game recap` draws it again, and `/game coach` DMs a report for every game."""

from __future__ import annotations

import asyncio
import io
from random import Random

import pytest
from PIL import Image

import bot.delivery as delivery_module
from bot.app import GameBot
from bot.service.options import TableOptions
from tests.bot.conftest import Scene
from tests.bot.helpers import answer, refusal, wait

LIMIT = 10 * 1024 * 1024
"""Discord's upload limit."""
CONFIGS = {
    "railroad_ink": {},
    "powerline": {"variants": []},
    "power_grid": {},
    "propeller_islands": {},
}


async def _play(bot: GameBot, scene: Scene, name: str, before_end=None) -> int:
    """Ada against two AI seats, choosing the first legal step or a random move (a weak player,
    so the coach finds something); `before_end` runs once the game is under way."""
    svc, ada = bot.service, scene.ada
    table = await svc.open_table(
        name,
        scene.guild.id,
        scene.channel.id,
        ada.id,
        "Ada",
        CONFIGS[name],
        TableOptions(max_players=4),
    )
    gid = table.row.id
    for _ in range(2):
        await svc.add_ai(gid, ada.id, False)
    await svc.start(gid, ada.id, False)
    rng = Random(7)
    moves = 0
    while (table := await svc.table(gid)).row.status == "active":
        if moves == 3 and before_end is not None:
            await before_end(gid)
        moves += 1
        if table.hosted.planner is not None:
            plans = table.hosted.plans()
            draft = await svc.draft(gid, ada.id)
            while not draft.can_submit:
                draft = await svc.edit_draft(
                    gid, ada.id, add=plans.parse_key(draft.next_options[0][1])
                )
            await svc.submit(gid, ada.id)
        else:
            turn = await svc.turn(gid, ada.id)
            await svc.act(gid, ada.id, rng.choice(turn.legal))
    await bot.delivery.flush()
    return gid


def _posts(scene: Scene):
    return scene.server.messages(scene.channel)


@pytest.mark.parametrize("name", sorted(CONFIGS))
async def test_the_recap_follows_the_results_and_the_coach_reports(
    scene: Scene, bot: GameBot, name: str
) -> None:
    s, ada = scene.server, scene.ada

    async def too_early(gid: int) -> None:
        said = await refusal(s.slash(ada, scene.channel, "game coach", game=gid), ada)
        assert "has not ended" in said

    gid = await _play(bot, scene, name, too_early)
    await wait(
        lambda: any(a.filename.startswith("recap.") for m in _posts(scene) for a in m.attachments)
    )
    posts = _posts(scene)
    results = next(i for i, m in enumerate(posts) if "**Game over!**" in m.content)
    recap = next(i for i, m in enumerate(posts) if m.content.startswith("🎞️"))
    assert results < recap, "the recap follows the results"
    (file,) = posts[recap].attachments
    data = s.attachment_bytes(file)
    assert len(data) < LIMIT
    image = Image.open(io.BytesIO(data))
    table = await bot.service.table(gid)
    rounds = table.game.progress(table.state).round
    assert 2 <= image.n_frames <= 24 and image.n_frames >= min(rounds, 20)
    # The same width as every posted image: it reads at 390 px as they do.
    assert image.width >= 1000

    again = await answer(s.slash(ada, scene.channel, "game recap", game=gid))
    assert again.attachments and again.attachments[0].filename.startswith("recap.")

    sent = await answer(s.slash(ada, scene.channel, "game coach", game=gid))
    assert sent.ephemeral and "in your DMs" in sent.content
    report = [m for m in s.dms(ada) if "Coach for" in m.content]
    assert len(report) == 1
    text = "\n".join(m.content for m in s.dms(ada)[s.dms(ada).index(report[0]) :])
    assert "the AI's suggestions" in text and "It weighed" in text
    if name == "power_grid":
        assert "**Money round by round**" in text, "money revealed, now that the game is over"
    names = [a.filename for m in s.dms(ada) for a in m.attachments]
    if table.hosted.planner is not None and "**1. " in text:
        assert "1-yours.png" in names and "1-ai.png" in names
    other = await refusal(s.slash(scene.ben, scene.channel, "game coach", game=gid), scene.ben)
    assert "no seat" in other


async def test_a_slow_recap_does_not_hold_up_the_results(
    scene: Scene, bot: GameBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    drawn = delivery_module.recap_file
    seen: list[bool] = []

    async def slow(service, game_id):
        # When the recap starts drawing, the results are out already.
        seen.append(any("**Game over!**" in m.content for m in _posts(scene)))
        await asyncio.sleep(3)
        return await drawn(service, game_id)

    monkeypatch.setattr(delivery_module, "recap_file", slow)
    await _play(bot, scene, "railroad_ink")
    assert seen == [True]
    assert any(m.content.startswith("🎞️") for m in _posts(scene))
