"""The shared drawing helpers that trade work for memory: remembered glyph masks and the
sampled 256-colour palette must give the picture that drawing afresh would."""

import io
import pickle

from PIL import Image, ImageChops, ImageDraw, ImageFont

from render.common import _font_path, font, palette, png, rounded

TEXTS = ("Powerline", "Round 7 of 12", "+3 VP", "Ada", "Ada")
POSITIONS = ((10, 12), (10.5, 60.25), (10.75, 108.5), (200.3, 12.9), (200.3, 60.1))


def _draw(fnt: ImageFont.FreeTypeFont) -> Image.Image:
    img = Image.new("RGB", (420, 170), (246, 242, 232))
    draw = ImageDraw.Draw(img)
    for text, xy in zip(TEXTS, POSITIONS, strict=True):
        draw.text(xy, text, font=fnt, fill=(34, 34, 38), anchor="la")
        draw.text(xy, text, font=fnt, fill=(204, 37, 41), stroke_width=2, stroke_fill=(0, 0, 0))
    return img


def _fresh(size: int) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(_font_path("DejaVuSans.ttf"), size)


def test_remembered_masks_draw_what_a_fresh_face_draws() -> None:
    remembering = font(30)
    first = _draw(remembering)
    again = _draw(remembering)  # every mask now comes from memory
    expected = _draw(_fresh(30))
    assert ImageChops.difference(first, expected).getbbox() is None
    assert ImageChops.difference(again, expected).getbbox() is None
    copied = _draw(pickle.loads(pickle.dumps(remembering)))
    assert ImageChops.difference(copied, expected).getbbox() is None


def test_a_mask_is_remembered_per_sub_pixel_offset() -> None:
    fnt = font(31)
    near = fnt.getmask2("Ada", "L", start=(0.0, 0.0))[0]
    assert fnt.getmask2("Ada", "L", start=(0.5, 0.0))[0] is not near
    assert fnt.getmask2("Ada", "L", start=(0.0, 0.0))[0] is near


def test_remembered_masks_stay_within_their_budget() -> None:
    fnt = font(32)
    for n in range(5000):
        fnt.getmask2(f"Player {n} built line {n % 7}", "L")
        kept = sum(w * h for w, h in (m[0].size for m in fnt._masks.values()))
        assert kept <= fnt.BUDGET
    assert fnt._masks


def test_palette_keeps_every_flat_colour_of_a_drawing() -> None:
    img = Image.new("RGB", (600, 400), (246, 242, 232))
    draw = ImageDraw.Draw(img)
    colours = [((37 * k) % 256, (91 * k) % 256, (53 * k) % 256) for k in range(1, 41)]
    for k, colour in enumerate(colours):
        # One-pixel lines, the hardest case for a sampled palette.
        draw.line((5 + k * 14, 10, 5 + k * 14, 390), fill=colour, width=1)
        draw.rectangle((5 + k * 14 + 3, 10, 5 + k * 14 + 9, 40), fill=colour)
    draw.text((20, 200), "Round 3", font=font(40), fill=(34, 34, 38))
    mapped = palette(img).convert("RGB")
    for x in range(5, 5 + 40 * 14, 14):
        original, kept = img.getpixel((x, 300)), mapped.getpixel((x, 300))
        assert max(abs(a - b) for a, b in zip(original, kept, strict=True)) <= 12, (original, kept)


def test_png_is_a_palette_image_of_the_same_size() -> None:
    img = _draw(font(30))
    decoded = Image.open(io.BytesIO(png(img)))
    assert decoded.mode == "P"
    assert decoded.size == img.size


def test_a_rounded_sprite_is_what_drawing_it_gives() -> None:
    shapes = [
        ((10.4, 12.7, 70.9, 61.2), 14, (255, 196, 0), None, 1),
        ((110.5, 12.5, 170.5, 72.5), 12, None, (34, 34, 38), 3),
        ((200.0, 10.0, 260.0, 40.0), 5, (96, 140, 96), (34, 34, 38), 2),
        ((-6.3, 80.2, 40.8, 130.6), 9, (0, 158, 115), (205, 198, 184), 2),
    ]
    drawn = Image.new("RGB", (300, 150), (246, 242, 232))
    pasted = drawn.copy()
    for _ in range(2):  # the second pass pastes remembered sprites
        for box, radius, fill, outline, width in shapes:
            ImageDraw.Draw(drawn).rounded_rectangle(
                box, radius=radius, fill=fill, outline=outline, width=width
            )
            rounded(ImageDraw.Draw(pasted), box, radius, fill, outline, width)
    assert ImageChops.difference(drawn, pasted).getbbox() is None
