"""Pure game rules: no asyncio, Discord, Pillow or database in here."""
