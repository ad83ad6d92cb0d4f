"""The hosted games, one package each: `plugin` (the service's half, no Discord), `presenter`
(images and words), `cog` (the game's own slash commands) and, if it needs them, `controls`."""
