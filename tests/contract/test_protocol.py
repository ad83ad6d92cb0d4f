"""What the platform reads of an engine is what `engine.core.Game` names, for every registered
game: its shape of play, its progress, its player counts, and (for simultaneous play) planning."""

import pytest

from bot.service.hosting import hosted
from engine import registry
from engine.core import Planning, Progress, planning, player_counts
from tests.contract.test_secrecy import SECRETS, play, replay

GAMES = registry.names()


@pytest.mark.parametrize("name", GAMES)
def test_the_shape_of_play_is_declared_and_matches_the_plug_in(name: str) -> None:
    game = registry.get(name)
    assert game.dynamics in ("simultaneous", "sequential")
    simultaneous = game.dynamics == "simultaneous"
    assert isinstance(game, Planning) == simultaneous
    plugin = hosted().get(name)
    if plugin is not None:
        assert (plugin.planner is not None) == simultaneous
        assert (plugin.turns is not None) != simultaneous
    if not simultaneous:
        with pytest.raises(Exception, match="played turn by turn"):
            planning(game)


@pytest.mark.parametrize("name", GAMES)
def test_player_counts_come_from_the_config_alone(name: str) -> None:
    game = registry.get(name)
    counts = player_counts(game)
    assert len(counts) >= 1
    fields = {k: v for k, v in SECRETS[name].configs[0].items() if k == "players"}
    assert fields["players"] in counts
    for outside in (counts.start - 1, counts.stop):
        with pytest.raises(ValueError):
            game.Config(players=outside)
    plugin = hosted().get(name)
    if plugin is not None:
        assert plugin.max_players == counts.stop - 1


@pytest.mark.parametrize("name", GAMES)
def test_progress_says_where_a_game_stands_at_every_step(name: str) -> None:
    """Rounds never go back, and the words name the round once the setup is over."""
    game = registry.get(name)
    config = game.Config(**SECRETS[name].configs[0])
    start = game.progress(game.new(config, 0))
    rounds = []
    for step in replay(game, config, play(game, config, 3)):
        now = game.progress(step.after)
        assert isinstance(now, Progress) and now.phase and now.words
        assert now.round >= (rounds[-1] if rounds else start.round)
        if not game.is_over(step.after) and now.round != start.round:
            assert f"round {now.round}" in now.words, now
        rounds.append(now.round)
    assert len(set(rounds)) >= 2


@pytest.mark.parametrize("name", GAMES)
def test_standings_of_a_running_game_rank_every_seat_and_name_a_hidden_tiebreak(name: str) -> None:
    game = registry.get(name)
    for seed, options in enumerate(SECRETS[name].configs):
        config = game.Config(**options)
        steps = list(replay(game, config, play(game, config, seed)))
        for step in steps[len(steps) // 2 :: max(1, len(steps) // 6)]:
            rows = game.standings(step.after)
            assert sorted(r["seat"] for r in rows) == list(range(config.players))
            assert min(r["rank"] for r in rows) == 1
            assert all(r["note"] is None or isinstance(r["note"], str) for r in rows)
