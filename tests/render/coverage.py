"""The characters every shipped face draws, as render/fonts/coverage.txt lists them: read there
so that drawing never loads fontTools (megabytes in every drawing worker).

Regenerate after changing the fonts: .venv/bin/python -m tests.render.coverage
"""

from fontTools.ttLib import TTFont

from render.common import COVERAGE, FONTS

FACES = ("DejaVuSans.ttf", "DejaVuSans-Bold.ttf", "DejaVuSansCondensed.ttf")
"""The faces whose common characters count as covered (they share DejaVu Sans's repertoire)."""


def listing() -> str:
    """Code points the faces all map, as inclusive hexadecimal ranges, one a line."""
    maps = [set(TTFont(FONTS / face, lazy=True).getBestCmap()) for face in FACES]
    ranges: list[list[int]] = []
    for code in sorted(set.intersection(*maps)):
        if ranges and code == ranges[-1][1] + 1:
            ranges[-1][1] = code
        else:
            ranges.append([code, code])
    return "".join(f"{start:04X}-{end:04X}\n" for start, end in ranges)


def main() -> None:
    COVERAGE.write_text(listing(), "ascii")
    print(f"wrote {COVERAGE}")


if __name__ == "__main__":
    main()
