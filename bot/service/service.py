"""The game service: everything a person can do with a game, as transactions on the repository.
No Discord in here.

Every change runs in one database transaction that also queues what must be posted (the outbox),
so a command is acknowledged only after it is stored, and a crash never loses a report. The
service is one object made of the modules named for what they hold.
"""

from bot.service.deadlines import Deadlines
from bot.service.handover import HandOver
from bot.service.lobby import Lobby
from bot.service.outbox import Outbox
from bot.service.planning import Planning
from bot.service.recaps import Recaps
from bot.service.records import Records
from bot.service.tables import DraftView, Table, TurnView
from bot.service.turns import Turns

__all__ = ["DraftView", "Service", "Table", "TurnView"]


class Service(Lobby, Planning, Turns, Deadlines, HandOver, Records, Recaps, Outbox):
    """Everything a person can do with a game, as transactions on the repository."""
