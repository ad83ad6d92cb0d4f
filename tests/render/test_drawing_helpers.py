"""The shared drawing helpers that trade work for memory: remembered glyph masks and widths,
palette canvases and the sampled 256-colour palette must give the picture that drawing afresh
in RGB would."""

import io
import pickle

from PIL import Image, ImageChops, ImageDraw, ImageFont

from render.common import (
    BACKGROUND,
    COVERAGE,
    INK,
    MIN_TEXT,
    PANEL,
    Swatches,
    _font_path,
    canvas,
    fit,
    font,
    palette,
    png,
    printable,
    rounded,
)
from tests.render.coverage import listing

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


def _decoded(img: Image.Image) -> Image.Image:
    return Image.open(io.BytesIO(png(img))).convert("RGB")


def test_a_canvas_keeps_every_flat_colour_exactly() -> None:
    img, draw = canvas(600, 400)
    colours = [((37 * k) % 256, (91 * k) % 256, (53 * k) % 256) for k in range(1, 41)]
    for k, colour in enumerate(colours):
        draw.line((5 + k * 14, 10, 5 + k * 14, 390), fill=colour, width=1)
        draw.ellipse((5 + k * 14, 40, 15 + k * 14, 50), fill=colour, outline=INK)
    got = _decoded(img)
    for k, colour in enumerate(colours):
        assert got.getpixel((5 + k * 14, 300)) == colour
        assert got.getpixel((10 + k * 14, 45)) == colour
    assert got.getpixel((599, 399)) == BACKGROUND


def _text_both_ways(under: list[tuple[int, tuple[int, int, int]]]) -> tuple[Image.Image, ...]:
    """Words drawn over bands of colour (x where each band starts, its colour) on a palette
    canvas and on an RGB image."""
    rgb = Image.new("RGB", (420, 170), BACKGROUND)
    img, draw = canvas(420, 170)
    for d in (ImageDraw.Draw(rgb), draw):
        for x, colour in under:
            d.rectangle((x, 0, 419, 169), fill=colour)
        for text, xy in zip(TEXTS, POSITIONS, strict=True):
            d.text(xy, text, font=font(30), fill=INK)
            d.text((xy[0], xy[1] + 30), text, font=font(24), fill=(204, 37, 41))
        d.text((150, 140), "Essen", font=font(24), fill=PANEL, stroke_width=3, stroke_fill=INK)
    return rgb, _decoded(img)


def test_text_on_a_canvas_is_anti_aliased_like_text_on_rgb() -> None:
    for under in ([], [(120, (86, 180, 233)), (260, PANEL)]):
        rgb, drawn = _text_both_ways(under)
        diff = ImageChops.difference(rgb, drawn).convert("L")
        # Edges keep up to STEPS levels: each pixel within half a level of the true blend.
        assert max(v for v, n in enumerate(diff.histogram()) if n) <= 16, under


def test_a_full_palette_gives_new_colours_the_nearest() -> None:
    img, draw = canvas(256, 300)
    colours = [(i, (i * 97) % 256, (i * 59) % 256) for i in range(255)]
    for i, colour in enumerate(colours):  # with the background, every index taken
        draw.point((i, 0), fill=colour)
    r, g, b = colours[100]
    draw.rectangle((0, 200, 255, 299), fill=(r + 2, g - 1, b + 1))
    assert len(Image.open(io.BytesIO(png(img))).getpalette() or []) == 3 * 256
    assert _decoded(img).getpixel((100, 250)) == colours[100]


def test_canvases_sharing_swatches_paste_as_drawn() -> None:
    swatches = Swatches()
    part, part_draw = canvas(100, 60, PANEL, swatches)
    part_draw.rectangle((10, 10, 50, 50), fill=(0, 158, 115))
    part_draw.text((55, 20), "Ada", font=font(24), fill=INK)
    img, draw = canvas(300, 200, swatches=swatches)
    draw.rectangle((0, 0, 299, 40), fill=(213, 94, 0))
    img.paste(part, (20, 50))
    got = _decoded(img)
    assert got.getpixel((40, 70)) == (0, 158, 115)
    assert got.getpixel((25, 55)) == PANEL
    assert got.getpixel((10, 10)) == (213, 94, 0)
    assert got.getpixel((10, 100)) == BACKGROUND


def test_a_wide_outline_is_what_imagedraw_draws() -> None:
    hexagon = [
        (60.3, 10.0),
        (105.5, 36.2),
        (105.5, 88.7),
        (60.3, 114.9),
        (15.1, 88.7),
        (15.1, 36.2),
    ]
    rgb = Image.new("RGB", (130, 130), BACKGROUND)
    ImageDraw.Draw(rgb).polygon(hexagon, fill=PANEL, outline=INK, width=3)
    img, draw = canvas(130, 130)
    draw.polygon(hexagon, fill=PANEL, outline=INK, width=3)
    assert ImageChops.difference(rgb, _decoded(img)).getbbox() is None


def test_fit_cuts_at_the_longest_prefix_that_fits() -> None:
    fnt = font(24)
    for text in ("Ludmila Wattenberg-Kilowattsdóttir of the Northern Grid", "x" * 70, "Ada"):
        for width in (40, 120, 300):
            cut = fit(text, fnt, width)
            assert fnt.getlength(cut) <= width or cut == "…"
            if cut != text:
                longer = text[: len(cut.rstrip("…").rstrip()) + 1] + "…"
                assert fnt.getlength(longer) > width or longer.rstrip("…") == text


def test_sizes_below_the_smallest_share_its_face() -> None:
    assert font(12) is font(MIN_TEXT) is font(20)
    assert font(12, bold=True) is not font(12)


def test_the_coverage_file_lists_what_the_fonts_draw() -> None:
    assert COVERAGE.read_text("ascii") == listing(), "run python -m tests.render.coverage"
    assert printable("Zoë 山田 🎲\tx") == "Zoë ?? ? x"
