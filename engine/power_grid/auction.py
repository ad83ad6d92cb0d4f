"""Phase 2: opening, bidding, dropping, passing, the plant limit and the phase's end."""

from engine.core import IllegalAction
from engine.power_grid.actions import Bid, DiscardPlant, Open
from engine.power_grid.market import buyable, remove_lowest, settle, without
from engine.power_grid.rules import RESOURCES, STEP3, player_count
from engine.power_grid.scoring import excess
from engine.power_grid.state import Auction, State
from engine.power_grid.turns import chooser, player_order


def next_bidder(state: State, after: int, bidders: list[int]) -> int:
    """The next seat still in the auction after `after`, clockwise or in player order."""
    n = len(state.players)
    if state.config.bid_order == "seat":
        for i in range(after + 1, after + n + 1):
            if (s := i % n) in bidders:
                return s
    else:
        order = state.order
        at = order.index(after)
        for i in range(at + 1, at + n + 1):
            if (s := order[i % n]) in bidders:
                return s
    raise AssertionError("An auction's bidders include the seat that bid last or another.")


def open_auction(state: State, seat: int, action: Open) -> None:
    market = buyable(state)
    if action.plant not in market:
        listed = ", ".join(str(n) for n in market)
        raise IllegalAction(f"Plant {action.plant} is not for sale now: the plants are {listed}.")
    if action.bid < action.plant:
        raise IllegalAction(f"The opening bid for plant {action.plant} is at least {action.plant}.")
    if action.bid > state.players[seat].money:
        raise IllegalAction(
            f"You cannot bid {action.bid} Elektro: you have {state.players[seat].money}."
        )
    others = [
        s
        for s in state.order
        if s != seat and not state.players[s].bought and not state.players[s].passed
    ]
    if not others:
        buy_plant(state, seat, action.plant, action.bid)
        return
    bidders = [seat, *others]
    state.auction = Auction(
        action.plant, action.bid, seat, bidders, next_bidder(state, seat, bidders)
    )


def bid(state: State, seat: int, action: Bid) -> None:
    auction = state.auction
    assert auction is not None
    if action.amount <= auction.bid:
        raise IllegalAction(
            f"The bid on plant {auction.plant} is {auction.bid}: bid at least {auction.bid + 1}."
        )
    if action.amount > state.players[seat].money:
        money = state.players[seat].money
        raise IllegalAction(f"You cannot bid {action.amount} Elektro: you have {money}.")
    bidders = auction.bidders
    turn = next_bidder(state, seat, bidders)
    state.auction = Auction(auction.plant, action.amount, seat, bidders, turn)


def drop(state: State, seat: int) -> None:
    auction = state.auction
    assert auction is not None
    bidders = auction.bidders.copy()
    bidders.remove(seat)
    if len(bidders) == 1:
        buy_plant(state, auction.leader, auction.plant, auction.bid)
    else:
        turn = next_bidder(state, seat, bidders)
        state.auction = Auction(auction.plant, auction.bid, auction.leader, bidders, turn)


def pass_refusal(round_: int) -> str | None:
    """Why nobody may pass in this round's auction phase, if so: in round 1 every player buys a
    plant."""
    return "Nobody may pass in round 1: every player buys a plant." if round_ == 1 else None


def pass_turn(state: State, seat: int) -> None:
    reason = pass_refusal(state.round)
    if reason:
        raise IllegalAction(reason)
    state.own(seat).passed = True
    end_if_done(state)


def buy_plant(state: State, seat: int, plant: int, price: int) -> None:
    """The seat pays and takes the plant; the market refills; a discard may be owed."""
    p = state.own(seat)
    p.money -= price
    p.plants = sorted([*p.plants, plant])
    p.bought = True
    state.market = without(state.market, plant)
    state.auction = None
    settle(state)
    if len(p.plants) > player_count(state.config.players).max_plants_per_player:
        state.discard = seat
        state.new_plant = plant
        return
    end_if_done(state)


def discard_plant(state: State, seat: int, action: DiscardPlant) -> None:
    p = state.own(seat)
    if action.plant == state.new_plant:
        raise IllegalAction(f"You cannot discard plant {action.plant}: you just bought it.")
    if action.plant not in p.plants:
        raise IllegalAction(f"You do not own plant {action.plant}.")
    kept = [n for n in p.plants if n != action.plant]
    back = {r: action.return_.get(r, 0) for r in RESOURCES}
    for r in RESOURCES:
        if back[r] > p.fuel[r]:
            raise IllegalAction(f"You cannot return {back[r]} {r}: you have {p.fuel[r]}.")
    fuel = {r: p.fuel[r] - back[r] for r in RESOURCES}
    if excess(kept, fuel):
        raise IllegalAction("Your resources still do not fit on your remaining plants.")
    need = excess(kept, p.fuel)
    if sum(back.values()) > need:
        tokens = "1 token" if need == 1 else f"{need} tokens"
        raise IllegalAction(f"Return only what no longer fits: {tokens}.")
    p.plants = kept
    p.fuel = fuel
    state.supply = {r: k + back[r] for r, k in state.supply.items()}
    state.removed_in_play = [*state.removed_in_play, action.plant]
    state.discard = None
    state.new_plant = None
    end_if_done(state)


def end_if_done(state: State) -> None:
    """End the auction phase once every seat has bought or passed and no discard is owed."""
    if state.auction is not None or state.discard is not None or chooser(state) is not None:
        return
    if state.round > 1 and not any(p.bought for p in state.players):
        remove_lowest(state)
        settle(state)
    if STEP3 in state.market:
        state.market = without(state.market, STEP3)
        remove_lowest(state)
        state.step3_form = True
        state.step = 3
        settle(state)
    if state.round == 1:
        state.order = player_order(state)
    state.phase = "resources"
    state.turn = 0
