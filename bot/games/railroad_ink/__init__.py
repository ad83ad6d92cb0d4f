"""Railroad Ink on Discord: everyone draws the same rolled routes, die by die, in DMs."""
