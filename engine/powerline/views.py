"""What one seat (or a spectator) may see: everything public plus that seat's own draft plan."""

from typing import Any

from pydantic import TypeAdapter

from engine.core import Outcome
from engine.powerline import scoring
from engine.powerline.board import COLOR_INITIALS, COLORS, board_data, charts, layout, rules, tiles
from engine.powerline.planning import Draft, Seat, next_segments
from engine.powerline.state import PlayerState, RoundReport, State

_REPORT = TypeAdapter(RoundReport)


def _options(state: State, p: PlayerState, line: int) -> list[dict[str, Any]]:
    """Next segments of a line with the colours whose die fits them: what a player can build now."""
    if state.dice is None:
        return []
    lay = layout(p.board)
    ctx = Seat(lay, tuple(p.built), tuple(p.direction), (), 0, (), (), None)
    return [
        {"segment": s, "colors": [c for c in COLORS if state.dice[c] == lay.pips[line][s]]}
        for s in next_segments(ctx, Draft(), line)
    ]


def _seat(state: State, seat: int, viewer: int | None, standing: Outcome) -> dict[str, Any]:
    p = state.players[seat]
    lay = layout(p.board)
    covered = set(scoring.covered_stations(p, lay))
    plan = state.plans[seat]
    stations = board_data().stations
    return {
        "seat": seat,
        "board": p.board,
        "vp": p.vp,
        "rank": standing["rank"],
        "jokers": p.jokers,
        "energy": p.energy,
        "vacation": p.vacation,
        "chart": list(p.chart),
        "island_stacks": list(p.island_stacks),
        "island_tokens": p.island_tokens,
        "ledger": dict(p.ledger),
        "submitted": plan is not None,
        "plan": plan.model_dump(mode="json") if plan is not None and seat == viewer else None,
        "stations": [
            {
                "id": st.id,
                "type": st.type,
                "vp": st.vp,
                "pos": list(st.pos),
                "covered": s in covered,
            }
            for s, st in enumerate(stations)
        ],
        "lines": [
            {
                "id": line_id,
                "ends": [lay.station_ids[e] for e in lay.ends[i]],
                "pips": list(lay.pips[i]),
                "built": p.built[i],
                "direction": p.direction[i],
                "complete": p.built[i] == lay.length[i],
                "city_vp": lay.city_vp[i],
                "building": lay.building[i],
                "options": _options(state, p, i),
            }
            for i, line_id in enumerate(lay.line_ids)
        ],
        "unfinished_lines": scoring.unfinished_lines(p),
    }


def view(state: State, seat: int | None, standings: list[Outcome]) -> dict[str, Any]:
    """A JSON-ready picture of the game for `seat` (None: a spectator)."""
    r = rules()
    side = state.config.centre_side
    done = sum(1 for k in r.scoring_after if k < state.round or state.phase == "over")
    next_scoring = None if state.phase == "over" else done + 1
    chart = charts().blue if "construction_limits" in state.config.variants else charts().green
    return {
        "game": "powerline",
        "viewer": seat,
        "round": state.round,
        "rounds": r.rounds,
        "phase": state.phase,
        "over": state.phase == "over",
        "dice": dict(state.dice) if state.dice else None,
        "colors": list(COLORS),
        "color_initials": list(COLOR_INITIALS),
        "variants": sorted(state.config.variants),
        "vacation_tile": state.config.vacation_tile,
        "centre_side": side,
        "scoring_after": list(r.scoring_after),
        "next_scoring": next_scoring,
        "jokers_above_scoring": [
            n if i >= done else 0 for i, n in enumerate(r.jokers_above_scoring[side])
        ],
        "chart_columns": [
            {"workers": c.workers, "tiles": len(c.suns), "suns": list(c.suns), "lines": limit}
            for c, limit in zip(chart.columns, chart.line_limits, strict=True)
        ],
        "scoring_tiles": [
            {
                "letter": letter,
                "title": tiles()[letter].title,
                "colour": tiles()[letter].colour,
                "rows": [row.model_dump(mode="json") for row in tiles()[letter].rows],
                "next_pays": [
                    scoring.tile_pays(letter, next_scoring, p) if next_scoring else 0
                    for p in state.players
                ],
            }
            for letter in state.scoring_tiles
        ],
        "seats": [_seat(state, s, seat, standings[s]) for s in range(len(state.players))],
        "last_round": _REPORT.dump_python(state.last_round, mode="json")
        if state.last_round
        else None,
        "standings": standings,
    }
