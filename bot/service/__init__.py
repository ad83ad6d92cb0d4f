"""Sessions, seats, persistence and timers: the bot's logic, with no Discord imports."""
