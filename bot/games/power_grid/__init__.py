"""Power Grid on Discord: turn by turn, auctions, resources, building and powering."""
