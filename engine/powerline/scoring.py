"""The three scorings, the end penalty, ranks and the solo title."""

from engine.powerline.board import Layout, Measure, layout, rules, tiles
from engine.powerline.state import PlayerState


def complete_lines(p: PlayerState, lay: Layout) -> list[int]:
    return [i for i, n in enumerate(lay.length) if p.built[i] == n]


def covered_stations(p: PlayerState, lay: Layout) -> list[int]:
    """Stations all of whose lines are complete: each holds a power station tile."""
    return [
        s
        for s, lines in enumerate(lay.station_lines)
        if all(p.built[i] == lay.length[i] for i in lines)
    ]


def measure(m: Measure, p: PlayerState) -> int:
    """How many of the pieces a scoring tile counts this player has."""
    lay = layout(p.board)
    match m.kind:
        case "supplied_cities":
            return sum(1 for i in complete_lines(p, lay) if m.building in (None, lay.building[i]))
        case "covered_stations":
            return sum(
                1
                for s in covered_stations(p, lay)
                if m.types is None or lay.station_type[s] in m.types
            )
        case "sun_jokers":
            return p.jokers
        case "emptied_columns":
            return int(all(p.chart[c - 1] == 0 for c in m.columns))
        case "line_tokens":
            return p.built[lay.line_index[m.line or ""]]
        case "wind_hydro":
            kinds = [lay.station_type[s] for s in covered_stations(p, lay)]
            wind, hydro = kinds.count("wind"), kinds.count("hydro")
            if wind and hydro:
                return 3 if wind + hydro >= 3 else 2
            return 1 if wind or hydro else 0
        case "island_tokens":
            return p.island_tokens + sum(p.island_stacks)


def tile_pays(letter: str, scoring: int, p: PlayerState) -> int:
    """VP that tile `letter` pays this player at scoring number `scoring` (1..3)."""
    tile = tiles()[letter]
    return tile.rows[scoring - 1].pays(measure(tile.measure, p))


def unfinished_lines(p: PlayerState) -> int:
    lay = layout(p.board)
    return sum(1 for i, n in enumerate(lay.length) if 0 < p.built[i] < n)


def end_penalty(unfinished: int) -> int:
    """VP lost at the end for this many started but unfinished lines (1, 3, 6, 10, then +5 each)."""
    table = rules().end_penalty
    if unfinished < len(table):
        return table[unfinished]
    return table[-1] + (unfinished - len(table) + 1) * rules().end_penalty_each_further


def solo_title(vp: int) -> str:
    return [t.title for t in rules().solo_titles if vp >= t.min][-1]
