"""What every image test checks: a decodable RGB PNG, phone-wide, within Discord-friendly size."""

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
    img = Image.open(io.BytesIO(data))
    img.load()
    return img


def check(data: bytes) -> Image.Image:
    """The decoded image, after asserting the bars every image meets."""
    img = decode(data)
    assert img.format == "PNG" and img.mode == "RGB"
    assert img.width >= 1000 and img.height >= 300
    assert len(data) <= MAX_BYTES
    return img
