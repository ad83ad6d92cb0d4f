"""How reliable a person is: over their last games that ended, those they moved on time in and
finished, in words for lobbies, /stats and a host's minimum."""

from collections.abc import Iterable
from dataclasses import dataclass

from bot.store.repo import Repo, ResultsRepo

WINDOW = 20
"""How many of a person's last games that ended count."""
NEWCOMER = 3
"""Below this many counted games a person is new: no figure is shown or held against them."""


@dataclass(frozen=True, slots=True)
class Reliability:
    """A person's last games that ended (at most `WINDOW`), and how they went."""

    games: int
    timed_out: int
    """Games in which the autopilot moved for them at least once (their time ran out)."""
    left: int
    """Games they left (or were removed from)."""
    reliable: int
    """Games with neither."""

    @property
    def new(self) -> bool:
        return self.games < NEWCOMER

    @property
    def percent(self) -> int:
        """The share of reliable games, in whole percent (rounded down)."""
        return self.reliable * 100 // self.games if self.games else 100

    def meets(self, minimum: int) -> bool:
        """Whether a table asking for `minimum` percent takes this person (a newcomer always)."""
        return self.new or self.percent >= minimum

    def words(self) -> str:
        """ "reliable in 18 of 20 games (2 timed out, 0 left)"."""
        if not self.games:
            return "no finished games yet"
        games = "game" if self.games == 1 else "games"
        return (
            f"reliable in {self.reliable} of {self.games} {games} "
            f"({self.timed_out} timed out, {self.left} left)"
        )

    def short(self) -> str:
        """ "90% reliable", or "new player" for a newcomer (the lobby's seat lines)."""
        return "new player" if self.new else f"{self.percent}% reliable"


async def reliability_of(repo: Repo, users: Iterable[int]) -> dict[int, Reliability]:
    """Each person's reliability, in one query (inside the caller's reading or transaction)."""
    wanted = sorted(set(users))
    found = await ResultsRepo(repo).reliability(wanted, WINDOW)
    return {u: Reliability(*found.get(u, (0, 0, 0, 0))) for u in wanted}
