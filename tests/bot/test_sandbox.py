"""The README's main command without a token: the sandbox plays a whole game through the bot."""

import io

from PIL import Image

from bot import sandbox
from bot.settings import Settings


async def test_the_sandbox_plays_a_complete_game_and_writes_its_transcript(tmp_path):
    path = await sandbox.run(Settings(_env_file=None), tmp_path / "out")
    text = path.read_text("utf-8")
    assert "**Game over!**" in text
    # A summary per round: Powerline, Railroad Ink, then Ada's and Ben's Railroad Ink dailies.
    assert text.count("built.**") == 15 + 6 + 2 * 6
    assert text.count("daily is done") == 2
    assert "Finish today's Railroad Ink daily first" in text  # Ben, before he had played
    assert "**Railroad Ink daily — " in text and "is closed" in text
    assert "I can't send you DMs" in text  # Chloé, with DMs closed, was told in the channel
    assert "## DMs with Ada" in text and "## DMs with Ben" in text
    assert "Powerline leaderboard — this server" in text and "Recent games" in text
    assert "## #railroad-ink" in text and "Railroad Ink game #" in text
    images = sorted((path.parent / "images").iterdir())
    names = {p.name.split("-", 1)[1] for p in images}
    assert {
        "results.png",
        "summary.png",
        "round-1.png",
        "final-board.png",
        "leaderboard.png",
        "daily.png",
    } <= names
    for image in images:
        assert Image.open(io.BytesIO(image.read_bytes())).width >= 1000
