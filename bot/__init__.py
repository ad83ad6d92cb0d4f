"""The Discord adapter and its services (the offline sandbox until the bot lands)."""
