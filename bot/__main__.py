"""Entry point of the main job: `python -m bot`."""

from bot.sandbox import main

main()
