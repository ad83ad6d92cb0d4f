"""What the platform reads of an engine is what `engine.core.Game` names, for every registered
game: its shape of play, its progress, its player counts, and (for simultaneous play) planning."""

import pytest
from pydantic import TypeAdapter

from bot.service.hosting import hosted
from engine import registry
from engine.core import (
    CHANCE,
    Event,
    Outcome,
    Planning,
    Progress,
    Standing,
    planning,
    player_counts,
)
from tests.contract.games import GAMES, configs
from tests.contract.test_secrecy import play, replay

OUTCOMES = TypeAdapter(list[Outcome])
STANDINGS = TypeAdapter(list[Standing])


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
    fields = {k: v for k, v in configs(name)[0].items() if k == "players"}
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
    config = game.Config(**configs(name)[0])
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
    for seed, options in enumerate(configs(name)):
        config = game.Config(**options)
        steps = list(replay(game, config, play(game, config, seed)))
        for step in steps[len(steps) // 2 :: max(1, len(steps) // 6)]:
            rows = game.standings(step.after)
            assert sorted(r["seat"] for r in rows) == list(range(config.players))
            assert min(r["rank"] for r in rows) == 1
            assert all(r["note"] is None or isinstance(r["note"], str) for r in rows)
            assert all(set(r) == set(Standing.__annotations__) for r in rows), rows
            STANDINGS.validate_python(rows)


@pytest.mark.parametrize("name", GAMES)
def test_the_outcome_is_one_typed_row_per_seat(name: str) -> None:
    """The results table, tournaments and the words read these keys and no others."""
    game = registry.get(name)
    for seed, options in enumerate(configs(name)):
        config = game.Config(**options)
        state = list(replay(game, config, play(game, config, seed)))[-1].after
        rows = game.outcome(state)
        assert all(set(r) == set(Outcome.__annotations__) for r in rows), rows
        OUTCOMES.validate_python(rows)


@pytest.mark.parametrize("name", GAMES)
def test_what_a_move_did_is_events_that_survive_json(name: str) -> None:
    """`happened` reports every move of a turn-by-turn game as events (a simultaneous game's
    words come from its views), and each comes back the same from its JSON."""
    game = registry.get(name)
    config = game.Config(**configs(name)[0])
    told = 0
    for step in replay(game, config, play(game, config, 1)):
        events = game.happened(step.before, step.seat, step.action, step.after)
        assert isinstance(events, list)
        if game.dynamics == "sequential" and step.seat != CHANCE:
            assert events, step.action
        for event in events:
            assert isinstance(event, Event)
            assert type(event).model_validate(event.model_dump(mode="json")) == event
        told += len(events)
    assert (told > 0) == (game.dynamics == "sequential")
