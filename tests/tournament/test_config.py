"""A tournament's table config: the game's house rules by default, the organiser's options over
them ("hidden_money=false, map=usa"), and one-sentence refusals that name the wrong option."""

import pytest

from bot.service.errors import UserError
from bot.service.hosting import Hosted, hosting
from bot.service.tournament.config import check_config, parse_options, tournament_config

PYDANTIC = ("Input should", "validation error", "Value error", "pydantic", "type=")


def refusal(game: str, options: str) -> str:
    with pytest.raises(UserError) as caught:
        tournament_config(game, options)
    text = str(caught.value)
    assert not any(word in text for word in PYDANTIC), text
    assert text.endswith(".") and text.count(". ") == 0, text  # one sentence
    return text


def test_values_are_booleans_whole_numbers_or_text() -> None:
    assert parse_options("hidden_money=false, map=usa") == {"hidden_money": False, "map": "usa"}
    assert parse_options(" a = Yes ,b=no,c=TRUE, d=-3, e=+4, f=2.5, g='turn' ,") == {
        "a": True,
        "b": False,
        "c": True,
        "d": -3,
        "e": 4,
        "f": "2.5",
        "g": "turn",
    }
    assert parse_options(None) == parse_options("") == parse_options(" , ") == {}


@pytest.mark.parametrize("text", ["hidden_money", "=usa", "map=", "map=usa, seat"])
def test_an_option_without_name_and_value_is_refused(text: str) -> None:
    with pytest.raises(UserError, match=r"^Write each option as name=value, separated by commas"):
        parse_options(text)


def test_an_option_given_twice_is_refused() -> None:
    with pytest.raises(UserError, match="“map” is given twice"):
        parse_options("map=usa, map=germany")


def test_power_grid_tables_play_the_wbc_house_rules_by_default() -> None:
    plugin = hosting("power_grid")
    assert plugin.tournament_config == {"hidden_money": True, "bid_order": "seat"}
    config = tournament_config("power_grid", None)
    assert config == {"hidden_money": True, "bid_order": "seat"}  # regions: picked by players
    words = plugin.options_in_words(config)
    assert "Money: hidden (WBC)" in words and "Bidding: clockwise by seat (WBC)" in words
    assert "Regions: picked by the players in turn order (WBC)" in words
    assert "Map: Germany" in words
    # Other games have no house rules of their own for tournaments.
    assert tournament_config("powerline", "") == {}


def test_the_organisers_options_go_over_the_house_rules() -> None:
    config = tournament_config("power_grid", "hidden_money=no, map=USA, step3_refill=late")
    assert config == {
        "hidden_money": False,
        "bid_order": "seat",
        "map": "usa",  # a choice in another case is the choice
        "step3_refill": "late",
    }
    words = hosting("power_grid").options_in_words(config)
    assert "Money: open" in words and "Map: USA" in words
    assert tournament_config("power_grid", "bid_order=turn")["bid_order"] == "turn"


@pytest.mark.parametrize(
    ("options", "expected"),
    [
        ("map=mars", "map=mars is not an option: it is one of germany or usa."),
        ("bid_order=clockwise", "bid_order=clockwise is not an option: it is one of seat or turn."),
        ("hidden_money=maybe", "hidden_money=maybe is not an option: it is true or false."),
        ("hidden_money=1", "hidden_money=1 is not an option: it is true or false."),
        (
            "money=hidden",
            "“money” is not an option of Power Grid; its options are map, regions, bid_order, "
            "hidden_money, step3_refill, routes_through_unused_regions.",
        ),
        (
            "players=5",
            "“players” is not an option: each table seats the players the heat gives it.",
        ),
        (
            "regions=north",
            "regions=north is not an option: it takes a list or another kind of value, which "
            "these options can't give.",
        ),
    ],
)
def test_wrong_options_are_refused_in_one_sentence(options: str, expected: str) -> None:
    assert refusal("power_grid", options) == expected


def test_other_games_options_are_checked_by_their_engine() -> None:
    assert tournament_config("powerline", "vacation_tile=no") == {"vacation_tile": False}
    assert refusal("powerline", "contract_draw=all") == (
        "contract_draw=all is not an option: it is one of by_colour or any."
    )


def test_options_that_fail_only_at_some_table_size_are_refused() -> None:
    # A rule between an option and the table size: checked at every size a tournament seats.
    plugin = Hosted(
        name="propeller_islands",
        command="propeller",
        measure="points",
        choose=lambda view, seat, budget=None: None,
        options_in_words=lambda config: [],
        rules=lambda: "",
    )
    assert plugin.max_players == 4  # the engine's Config.players bound
    check_config(plugin, {"character_deal": 1})
    with pytest.raises(UserError) as caught:
        check_config(plugin, {"character_deal": 2})
    assert str(caught.value) == (
        "Those options don't work together at a table of 4: dealing two characters each works "
        "with 2 or 3 players only."
    )
    with pytest.raises(
        UserError, match=r"^character_deal=3 is not an option: it is one of 1 or 2\.$"
    ):
        check_config(plugin, {"character_deal": 3})


def test_a_tournament_of_a_game_not_hosted_is_refused() -> None:
    with pytest.raises(UserError, match="There is no game “chess” on this bot"):
        tournament_config("chess", None)
