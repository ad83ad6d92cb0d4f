"""Power Grid's half of the platform that the service uses: moves in words, autopilot, options."""

from typing import Any

from bot.games.power_grid import words
from bot.service.hosting import Hosted
from data import load_text
from engine.power_grid import autopilot, coach, views
from engine.power_grid.auction import pass_refusal
from engine.power_grid.market import buyable
from engine.power_grid.state import State

ORDER = ("setup", "regions", "auction", "resources", "build", "bureaucracy", "over")
PREMOVES = {
    "auction": "Pass every auction this round",
    "auction_unless": "Pass every auction this round unless its plant is numbered at least",
    "resources": "Buy no resources this round",
    "fuel": "Buy the fuel my plants need this round",
    "bid": "Bid for me, up to",
}
"""Pre-moves by the phase they cover (their keys, or `PHASE_OF`); "bid" is a maximum bid in the
running auction, raised by the minimum for its owner at a person's pace."""
PHASE_OF = {"auction_unless": "auction", "fuel": "resources"}
"""The phase of the standing orders whose key is not their phase's."""


class PowerGridTurns:
    """Power Grid is played turn by turn (bureaucracy by everyone at once)."""

    premoves = PREMOVES
    paced: frozenset[str] = frozenset({"bid"})
    """A bid made at once every time would tell the others that a maximum answers for its
    owner; passing and buying nothing tell nothing by their speed."""

    def describe(self, before: Any, seat: int, action: dict[str, Any], after: Any) -> str:
        return words.describe(before, seat, action, after)

    def premove_scope(self, key: str, state: Any) -> Any:
        if key == "bid":  # the running auction, and no other
            return [state.round, "auction", state.auction.plant if state.auction else 0]
        key = PHASE_OF.get(key, key)
        # The phase's next occurrence: this round's if it has not ended yet, else the next one.
        later = ORDER.index(state.phase) > ORDER.index(key)
        return [state.round + 1 if later or state.round == 0 else state.round, key]

    def premove_refusal(self, key: str, state: State, seat: int, amount: int | None) -> str | None:
        """Why a pre-move set now could never be made: passing in round 1's auction (the rules
        forbid it), a phase of this round the seat is already done with, or a game over. Neither
        pre-move takes an amount."""
        if state.phase == "over":
            return "The game is over."
        if key == "bid":
            return _cap_refusal(state, seat, amount)
        if key == "auction_unless" and amount is None:
            return "Say the lowest plant number worth an auction to you."
        round_, _ = self.premove_scope(key, state)
        if PHASE_OF.get(key, key) == "auction":
            refusal = pass_refusal(round_)
            if refusal:
                return f"{refusal} Set this pre-move once round 1's auction is over."
        if round_ != state.round or state.phase != key:
            return None
        p = state.players[seat]
        if PHASE_OF.get(key, key) == "auction" and (p.bought or p.passed):
            done = "bought a plant" if p.bought else "passed"
            return f"You have {done} this round: no auction is left for you until the next."
        if PHASE_OF.get(key, key) == "resources" and _finished(state, seat):
            return "You have finished buying resources this round."
        return None

    def premove_action(
        self, key: str, scope: Any, state: Any, seat: int, amount: int | None
    ) -> dict[str, Any] | None:
        """Pass (or drop out) in this round's auction, or buy nothing; or raise by the minimum in
        the auction a maximum bid was set for, while the raise is within it and affordable."""
        if key == "bid":
            auction = state.auction
            if auction is None or scope != [state.round, "auction", auction.plant]:
                return None
            raise_ = auction.bid + 1
            if auction.turn != seat or amount is None or raise_ > amount:
                return None
            return {"type": "bid", "amount": raise_}
        if [state.round, state.phase] != scope or state.discard is not None:
            return None
        if key == "resources":
            return {"type": "done"}
        if key == "fuel":  # a full run of every plant, as the autopilot buys it, then done
            return autopilot.choose(views.view(state, seat), seat).model_dump(mode="json")
        if key == "auction_unless" and _worth(state, amount or 0):
            return None  # a plant worth the owner's own decision: the turn is theirs
        return {"type": "drop"} if state.auction else {"type": "pass"}


def _cap_refusal(state: State, seat: int, amount: int | None) -> str | None:
    """Why a maximum bid can't be set now: no auction, no amount, or one the bid has passed or
    the seat's money can't pay (the seat knows its own money)."""
    if state.auction is None:
        return "No auction is running: a maximum bid is for the plant on auction."
    if seat not in state.auction.bidders:
        return f"You are out of the auction for plant {state.auction.plant}."
    if amount is None:
        return "Say the most you would pay: a maximum bid takes an amount."
    if amount <= state.auction.bid:
        return f"The bid is already {state.auction.bid}: a maximum must be above it."
    money = state.players[seat].money
    if amount > money:
        return f"You have {money} Elektro: a maximum can't be more."
    return None


def _worth(state: State, least: int) -> bool:
    """Whether the auction at hand (the plant on auction, else the market open to bid on) has a
    plant numbered `least` or more."""
    if state.auction is not None:
        return state.auction.plant >= least
    return any(n >= least for n in buyable(state))


def _finished(state: State, seat: int) -> bool:
    """Whether the seat has had its turn in this phase of buying or building (reverse order)."""
    return len(state.order) - 1 - state.order.index(seat) < state.turn


PLUGIN = Hosted(
    name="power_grid",
    command="powergrid",
    measure="cities powered",
    measure_one="city powered",
    choose=autopilot.choose,
    # Measured by bench/ai_power_grid.py (see its docstring for the seeds and baselines).
    levels={
        "casual": (
            "Buys fuel for every plant and may end the game while behind; beats 3 "
            "simple bots 79 % of games."
        ),
        "standard": (
            "Never ends the game unless it wins; a greedy player beats three of it 0.5 % of games."
        ),
        "strong": (
            "Also bids hard against the leader; alone against three casual AIs it "
            "wins 82 % of games."
        ),
    },
    coach=coach.coach,
    options_in_words=words.options_in_words,
    rules=lambda: load_text("power_grid", "rules_summary.md"),
    turns=PowerGridTurns(),
    round_lines=words.round_lines,
    standings=words.standings_lines,
    # WBC 2019 (seed 003): money hidden, bidding clockwise by seat, regions picked by the
    # players in turn order (no `regions`); the map is the engine's default.
    tournament_config={"hidden_money": True, "bid_order": "seat"},
)
