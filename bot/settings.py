"""Settings from the environment and `.env` (see `.env.example`)."""

from pathlib import Path

from pydantic import Field, SecretStr, field_validator, model_validator
from pydantic_settings import BaseSettings, SettingsConfigDict


class Settings(BaseSettings):
    """Everything the bot reads from its environment."""

    model_config = SettingsConfigDict(
        env_file=".env", env_file_encoding="utf-8", extra="ignore", env_ignore_empty=True
    )

    discord_token: SecretStr | None = None
    """Empty: the main command plays the offline sandbox instead of connecting to Discord."""
    database: str = "bot.sqlite3"
    """A SQLite file (the embedded default), or a PostgreSQL URL `postgresql://user@host/db`
    that several bot processes can share."""
    shard_count: int | None = None
    """Gateway shards in all, across every process; empty: as many as Discord recommends, all
    in this process."""
    shard_ids: list[int] | None = None
    """The shards this process runs, e.g. `0,1`; empty: all of them."""
    discord_api_base: str | None = None
    """Only for the loopback stand-in, e.g. http://127.0.0.1:PORT/api/v10."""
    discord_gateway_url: str | None = None
    """Only for the loopback stand-in, e.g. ws://127.0.0.1:PORT/gateway."""
    dev_guild_id: int | None = None
    """Sync commands to this guild only (instant), instead of globally."""
    tick_seconds: float = 30.0
    """How often deadlines, reminders and undelivered posts are checked."""
    identify_seconds: float = Field(5.0, ge=0.0)
    """Discord's spacing of IDENTIFYs per bucket across every process (its rule: 5 s)."""
    lease_seconds: float = Field(15.0, ge=2.0)
    """How long a process holds a game's deliveries without renewing them: another process takes
    over the posts of one that crashed within this time, whatever the tick."""
    web_port: int | None = Field(None, ge=1, le=65535)
    """Serve the web companion (live game pages, replays, server pages) on this port; empty: no
    web server (the offline sandbox starts one anyway). Set it on one process of several, or on
    each with its own port behind one proxy: any process serves any game from the database."""
    web_host: str = "127.0.0.1"
    """The address the web server listens on; 0.0.0.0 for every interface (in a container)."""
    public_url: str | None = None
    """The address people reach the web companion at (behind a proxy, its public address);
    empty: http://localhost:WEB_PORT."""
    web_secret: SecretStr | None = None
    """The key that signs web links (HMAC); needed with WEB_PORT. Changing it voids old links."""
    guild_ready_seconds: float = Field(2.0, ge=0.0)
    """How long the gateway waits after READY for the servers' GUILD_CREATEs before the bot is
    ready (discord.py's 2 s); the stand-in sends them at once, so its bots wait 0.05 s."""
    log_level: str = "INFO"
    log_json: bool = False

    @field_validator("database", mode="before")
    @classmethod
    def _path(cls, value: object) -> object:
        return str(value) if isinstance(value, Path) else value

    @field_validator("shard_ids", mode="before")
    @classmethod
    def _ids(cls, value: object) -> object:
        """`SHARD_IDS=0,1` (or `1`) as well as a list."""
        if isinstance(value, int):
            return [value]
        if isinstance(value, str):
            return [int(part) for part in value.replace(" ", "").split(",") if part]
        return value

    @model_validator(mode="after")
    def _web(self) -> "Settings":
        if self.web_port is not None and self.web_secret is None:
            raise ValueError("WEB_PORT needs WEB_SECRET, the key that signs the pages' links")
        return self

    @property
    def web_url(self) -> str | None:
        """Where people reach the web companion, or None when there is none."""
        if self.web_port is None:
            return None
        return (self.public_url or f"http://localhost:{self.web_port}").rstrip("/")

    @model_validator(mode="after")
    def _shards(self) -> "Settings":
        if self.shard_ids is not None:
            if self.shard_count is None:
                raise ValueError("SHARD_IDS needs SHARD_COUNT (the shards in all, every process)")
            wrong = [i for i in self.shard_ids if not 0 <= i < self.shard_count]
            if wrong:
                raise ValueError(f"SHARD_IDS {wrong} are not below SHARD_COUNT {self.shard_count}")
        return self
