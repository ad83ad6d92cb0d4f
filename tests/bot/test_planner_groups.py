"""Every legal placement is reachable by clicking, even when they are more than 25."""

from bot.app import GameBot
from bot.ui.planning import GroupSelect, PlannerSelect, group_view, planner_view
from engine.powerline import autopilot
from tests.bot.conftest import Scene
from tests.bot.helpers import started_game


def _offered(view) -> set[str]:
    return {
        o.value
        for item in view.children
        if isinstance(item, PlannerSelect)
        for o in item.item.options
    }


async def test_more_than_25_placements_are_grouped_by_colour(scene: Scene, bot: GameBot) -> None:
    svc, big = bot.service, 0
    for attempt in range(3):
        channel = (
            scene.channel if attempt == 0 else scene.server.add_channel(scene.guild, f"g{attempt}")
        )
        game = await started_game(scene.server, bot, channel, scene.ada)
        while (table := await svc.table(game.gid)).row.status == "active":
            draft = await svc.draft(game.gid, scene.ada.id)
            keys = {key for _, key in draft.next_options}
            view = planner_view(draft)
            groups = [i for i in view.children if isinstance(i, GroupSelect)]
            if len(keys) <= 25:
                assert not groups and _offered(view) == keys
            else:
                big += 1
                (group,) = groups
                reached = set()
                for option in group.item.options:
                    shown = group_view(draft, option.value)
                    assert all(
                        len(s.item.options) <= 25
                        for s in shown.children
                        if isinstance(s, PlannerSelect)
                    )
                    reached |= _offered(shown)
                assert reached == keys, "every legal placement is one group and one click away"
            plan = autopilot.choose(table.game.view(table.state, 0), 0)
            await svc.edit_draft(game.gid, scene.ada.id, clear=True)
            for p in plan.placements:
                await svc.edit_draft(game.gid, scene.ada.id, add=p.model_dump(mode="json"))
            if plan.vacation:
                await svc.edit_draft(game.gid, scene.ada.id, vacation=True)
            await svc.submit(game.gid, scene.ada.id)
        if big:
            break
    assert big, "no round offered more than 25 placements to check"
