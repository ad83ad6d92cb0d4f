"""Tournament logic after the WBC 2019 format of seed 003, for any game; no I/O, no asyncio.
(Swiss and round robin in pods live in `points`, `swiss` and `round_robin`; the service's
side, with check-in and withdrawals, in `runner`, `rounds` and `checkins`.)

Heats, then a semifinal of five tables, then a final of the five semifinal winners plus a
sixth player. A game reports per seat a rank, a primary measure (cities powered, VP) and a
secondary one (money, station tiles). Every figure carries its arithmetic. Readings of the seed:

Tables (`form_tables`): fewest 3-player tables first (only 3 and 7 players need one; 6 and 11
as well without 6-player tables), then as many 5s as possible, then 6s in place of 4s when
allowed. So 6 → [6] (or [3, 3]), 7 → [4, 3], 8 → [4, 4], 11 → [6, 5] (or [4, 4, 3]),
16 → [6, 5, 5] (or [4, 4, 4, 4]). Fewer than 3 players is an error.

Margin of victory: outright (primary ahead of second place) is primary ÷ second's primary,
"14 / 12 = 1.167"; a win on tiebreak (equal primaries) is (secondary − second's) ÷ 1000,
"(27 − 11) / 1000 = 0.016". A second place on 0 makes an outright margin infinite.

Margin of defeat, higher is closer: own primary ÷ the winner's ("12 / 14 = 0.857"). Level on
primary and lost on tiebreak it is that ratio, 1 ("12 / 12 = 1.000"), and the secondary the
winner was ahead by ("27 − 11 = 16") orders level finishes, less behind first, before any later
key. So a finish level on cities powered is closer than any finish behind on them, as the game
itself ranks cities powered before money (the seed's "how close the finish was to the winner");
an earlier reading, 1 − (27 − 11) ÷ 1000 = 0.984, put a level finish $70 behind (0.930) below
15 of 16 elsewhere (0.938). A player's best heat counts, so a close 3rd can outrank a distant
2nd at another table. The seed's game reports cities powered as primary and money as secondary.

Seeding of winners (`seed_semifinal`), in order: win in first heat entered (lowest heat number
played); most wins; win in second heat entered; win in third; margin of victory of the first
win (chronological); the second-best game, which is the second win's margin for multiple
winners and otherwise the best margin of defeat, a winner who entered one heat having none and
ranking after those who entered two or more; the secondary ratio (winner ÷ second place) in the
first win; the first win's table size, larger first; average finish over all heats entered,
lower first; then a high roll. Ties among alternates mirror this: best margin of defeat, the
second-best game's margin of defeat (one game ranks after two), secondary ratio (own ÷ winner's)
in the best game, its table size, a roll. Values are compared unrounded; 3 decimals are shown.

Rolls: asked only of players tied on every key, re-rolled while they tie, and returned so
`replay` can reproduce the order. Absent players are left out before anything is ranked.

Semifinal size (`semifinal_size`): 25 present (winners plus alternates) → five 5-player tables
(the top 25 winners if more); otherwise five 4-player tables, so 21–24 winners without enough
alternates play 20. Below 20 it scales down: as many 4-player tables as fit (at most 5), made
5-player when everyone still gets a seat (15 → 3×5, 16 → 4×4, 12 → 3×4); under 4 is an error.

Final (`final_field`): the semifinal winners, then the non-winner with the highest margin of
defeat, ties as for alternates.

Table config (`config.tournament_config`): the hosted game's `tournament_config` (for the
seed's game its house rules: money hidden, bidding clockwise by seat, regions picked by the
players), the organiser's options over it, checked by the engine at every table size; every
stage plays that one config (the seed's maps by stage are the organiser's to set).
"""

from .margins import average_finish, margin_of_defeat, margin_of_victory
from .models import HeatGame, Margin, SeatResult
from .seeding import (
    Entry,
    Roll,
    Seeding,
    Tiebreak,
    final_field,
    rank_alternates,
    replay,
    seed_semifinal,
    semifinal_size,
)
from .tables import assign_tables, form_tables

__all__ = [
    "Entry",
    "HeatGame",
    "Margin",
    "Roll",
    "SeatResult",
    "Seeding",
    "Tiebreak",
    "assign_tables",
    "average_finish",
    "final_field",
    "form_tables",
    "margin_of_defeat",
    "margin_of_victory",
    "rank_alternates",
    "replay",
    "seed_semifinal",
    "semifinal_size",
]
