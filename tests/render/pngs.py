"""What every image test checks: a decodable 256-colour PNG, phone-wide, within Discord-friendly
size."""

import io

from PIL import Image

MAX_BYTES = 600 * 1024
EXOTIC = [
    "Ludmila Wattenberg-Kilowattsdóttir of the Northern Grid and the Southern Rails",
    "山田太郎",
    "Zoë 🎲⚡🚂",
    "Анастасия",
    "x" * 200,
    "",
    "\u202eevil\u202c \u0000 tab\there\nnewline",
]
"""Player names that have broken renderers: long, uncovered glyphs, empty, control characters."""


def decode(data: bytes) -> Image.Image:
    """The image in RGB: a palette image's indices mean nothing from one image to another."""
    return Image.open(io.BytesIO(data)).convert("RGB")


def check(data: bytes) -> Image.Image:
    """The decoded image (as RGB), after asserting the bars every image meets."""
    raw = Image.open(io.BytesIO(data))
    assert raw.format == "PNG" and raw.mode == "P"
    assert raw.width >= 1000 and raw.height >= 300
    assert len(data) <= MAX_BYTES
    return decode(data)
