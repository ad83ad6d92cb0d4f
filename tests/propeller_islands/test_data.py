"""The component data matches the spec's invariants (§3.4, §4)."""

from collections import Counter

from engine.propeller_islands.components import blueprints, rules, tile_types, tiles


def test_tile_counts_by_category_and_number() -> None:
    cats = Counter(tile_types()[t.type].category for t in tiles().values())
    assert len(tiles()) == 70
    assert cats == {"depot": 10, "guild": 32, "hub": 18, "landmark": 10}
    numbers = Counter(t.number for t in tiles().values() if t.number)
    assert numbers == dict.fromkeys(range(1, 7), 8)
    assert sorted(t.id for t in tiles().values() if t.wild) == ["08-6", "11-4"]


def test_banners_hubs_and_slots() -> None:
    assert Counter(t.banner for t in tiles().values() if t.banner) == {"I": 14, "S": 14, "C": 14}
    assert Counter(t.hub for t in tiles().values() if t.hub) == {"I": 10, "S": 9, "C": 9}
    slots = Counter(k for t in tiles().values() for k in t.slots)
    assert slots == {"P": 37, "B": 33, "W": 23}
    for t in tiles().values():
        if "W" in t.slots:
            assert t.number is not None
        if tile_types()[t.type].category == "hub":
            assert "B" in t.slots


def test_blueprints_and_tokens() -> None:
    levels = Counter(b.level for b in blueprints().values())
    assert levels == {"I": 21, "II": 17}
    tokens = Counter(b.token for b in blueprints().values())
    assert sum(tokens.values()) == 38
    for token, info in rules().tokens.items():
        assert tokens[token] == info.copies
    assert blueprints()["I-06"].model_dump() == {
        "id": "I-06",
        "level": "I",
        "energy": 1,
        "steel": 0,
        "parts": 2,
        "token": "PROD-S",
        "vp": 2,
    }
