"""Finding a tournament and checking who may run it, shared by its stages and check-ins."""

from bot.service.errors import UserError
from bot.store.tournaments import TournamentRow, TournamentsRepo


async def tournament(store: TournamentsRepo, tid: int) -> TournamentRow:
    """The tournament, or a refusal naming the missing number."""
    t = await store.tournament(tid)
    if t is None:
        raise UserError(f"There is no tournament #{tid}.")
    return t


def organiser_only(t: TournamentRow, by: int, moderator: bool) -> None:
    """Refuse anyone but the organiser or a moderator."""
    if by != t.organiser_id and not moderator:
        raise UserError("Only the organiser or a moderator can do that.")
