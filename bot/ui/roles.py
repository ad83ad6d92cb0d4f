"""Giving a member a role as Discord allows it, with a sentence saying what came of it."""

import discord


def cannot_give(guild: discord.Guild, role: discord.Role) -> str | None:
    """Why the bot can't give `role` (Discord would refuse it), or None if it can."""
    if not guild.me.guild_permissions.manage_roles or role >= guild.me.top_role:
        return f"I couldn't give them {role.mention}: I need Manage Roles and a role above it."
    return None


async def give_role(guild: discord.Guild, role_id: int, user_id: int, reason: str) -> str:
    """Give `user_id` the role; a sentence to add to the announcement (" They now hold …")."""
    role = guild.get_role(role_id)
    if role is None:
        return " (The champion's role no longer exists.)"
    problem = cannot_give(guild, role)
    if problem is not None:
        return f" ({problem})"
    try:
        member = guild.get_member(user_id) or await guild.fetch_member(user_id)
        await member.add_roles(role, reason=reason)
    except discord.NotFound:
        return " (They have left the server, so nobody was given the role.)"
    return f" They now hold {role.mention}."
