"""Settings from the environment and `.env` (see `.env.example`)."""

from pathlib import Path

from pydantic import SecretStr
from pydantic_settings import BaseSettings, SettingsConfigDict


class Settings(BaseSettings):
    """Everything the bot reads from its environment."""

    model_config = SettingsConfigDict(env_file=".env", env_file_encoding="utf-8", extra="ignore")

    discord_token: SecretStr | None = None
    """Empty: the main command plays the offline sandbox instead of connecting to Discord."""
    database: Path = Path("bot.sqlite3")
    discord_api_base: str | None = None
    """Only for the loopback stand-in, e.g. http://127.0.0.1:PORT/api/v10."""
    discord_gateway_url: str | None = None
    """Only for the loopback stand-in, e.g. ws://127.0.0.1:PORT/gateway."""
    dev_guild_id: int | None = None
    """Sync commands to this guild only (instant), instead of globally."""
    tick_seconds: float = 30.0
    """How often deadlines, reminders and undelivered posts are checked."""
    log_level: str = "INFO"
    log_json: bool = False
