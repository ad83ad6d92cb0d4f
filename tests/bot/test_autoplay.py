"""`python -m bot autoplay`: a whole autopilot game of any registered game in the terminal."""

import argparse

import pytest

from bot import autoplay
from engine import registry


def _args(*argv: str) -> argparse.Namespace:
    parser = argparse.ArgumentParser()
    autoplay.add_arguments(parser)
    return parser.parse_args(list(argv))


@pytest.mark.parametrize(
    ("argv", "players"),
    [
        (("--game", "railroad_ink", "--variant", "power_grid"), 1),
        (("--game", "propeller_islands", "--players", "2"), 2),
        (
            (
                "--game",
                "power_grid",
            ),
            2,
        ),
    ],
)
def test_every_game_plays_to_its_end_and_prints_the_standings(argv, players):
    args = _args(*argv, "--seed", "5")
    config = autoplay.config_of(args)
    lines: list[str] = []
    result = autoplay.play_any(args.game, config, 5, out=lines.append)
    assert lines[0].startswith(f"{registry.get(args.game).title}, {players} autopilot seat(s)")
    assert any(line.startswith("Round 2") for line in lines)
    winner = min(result, key=lambda r: (r["rank"], r["seat"]))
    name = autoplay.NAMES[winner["seat"]]
    assert lines[-1].startswith(f"Final standings: 1. {name} {winner['score']:g}")
    assert sorted(r["seat"] for r in result) == list(range(players))
    # The same seed plays the same game.
    again: list[str] = []
    autoplay.play_any(args.game, config, 5, out=again.append)
    assert again == lines


def test_powerline_variants_and_railroad_expansions_reach_their_configs():
    assert autoplay.config_of(_args("--variant", "contracts")).variants == {"contracts"}
    with pytest.raises(SystemExit, match="Choose a game with --game"):
        autoplay.config_of(_args("--players", "2"))
    railroad = autoplay.config_of(_args("--game", "railroad_ink", "--variant", "street_lamps"))
    assert railroad.expansions == {"street_lamps"}


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (("--game", "power_grid", "--players", "1"), "Power Grid: Input should be greater than"),
        (("--game", "propeller_islands", "--variant", "contracts"), "has no variant contracts"),
        (("--game", "railroad_ink", "--variant", "contracts"), "has no variant contracts"),
    ],
)
def test_wrong_options_say_what_is_wrong(argv, message):
    with pytest.raises(SystemExit, match=message):
        autoplay.config_of(_args(*argv))


def test_hosted_games_print_each_round_in_the_words_of_their_summaries(capsys):
    autoplay.main(_args("--game", "powerline", "--players", "2", "--seed", "3"))
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "Powerline, 2 autopilot seat(s), seed 3: Ada, Ben"
    assert sum(line.startswith("Round ") for line in out) == 15
    assert out[1] == "Round 1" and out[2].startswith("  Ada: ") and out[2].endswith(" VP")
    assert out[-1].startswith("Final standings: 1. ") and out[-1].endswith(" VP")
