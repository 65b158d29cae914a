#!/usr/bin/python3
"""The fonts the browser embeds in the PDFs it makes for Turkish, Chinese and Arabic (decision 038).

The PDFs' standard fonts (WinAnsi, about Latin-1) cannot draw ğ ş ı İ, Chinese or Arabic. These subsets of Noto
(SIL Open Font License 1.1, client/src/assets/pdf-fonts/OFL.txt) hold only what those PDFs draw, so a payer who asks
for a receipt fetches tens of kilobytes, not megabytes. The files are committed; run this again after changing the
PDFs' words in the zh-CN catalogs (their Chinese characters are read from there) or the character ranges below:

    apt-get install -y python3-fonttools fonts-noto-core fonts-noto-cjk   # Debian 12: fontTools 4.38, Noto 2020-12
    /usr/bin/python3 scripts/subset-pdf-fonts.py

Every output is TrueType (glyf): the CJK font's CFF outlines are converted to quadratic curves, since
@pdf-lib/fontkit 1.1.1 cannot write CID-keyed CFF. Composite glyphs are decomposed and hinting dropped.
"""
import json
import re
from pathlib import Path

from fontTools import subset
from fontTools.pens.cu2quPen import Cu2QuPen
from fontTools.pens.recordingPen import DecomposingRecordingPen
from fontTools.pens.ttGlyphPen import TTGlyphPen
from fontTools.ttLib import TTCollection, TTFont, newTable

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "client/src/assets/pdf-fonts"
NOTO = Path("/usr/share/fonts/truetype/noto")
NOTO_CJK = Path("/usr/share/fonts/opentype/noto")

# Latin-1, Latin Extended-A (Turkish ğ ş ı İ, Central European), Romanian ș ț, the typographic punctuation and
# spaces Intl writes (French digit groups use U+202F), the euro sign.
LATIN = (
    list(range(0x20, 0x7F))
    + list(range(0xA0, 0x180))
    + [0x218, 0x219, 0x21A, 0x21B, 0x2009, 0x2013, 0x2014, 0x2018, 0x2019, 0x201A, 0x201C, 0x201D, 0x201E]
    + [0x2022, 0x2026, 0x202F, 0x2039, 0x203A, 0x20AC, 0x2212]
)
# The Arabic letters, hamza forms, harakat, Arabic-Indic digits and punctuation, the letters Persian and Urdu
# names use most, the joiners and direction marks. The font's contextual forms and ligatures come with them.
ARABIC = (
    [0x20, 0xA0, 0x60C, 0x61B, 0x61F]
    + list(range(0x621, 0x63B))
    + list(range(0x640, 0x653))
    + list(range(0x660, 0x66E))
    + [0x670, 0x671, 0x67E, 0x686, 0x6A4, 0x6A9, 0x6AF, 0x6CC]
    + list(range(0x200C, 0x2010))
)
# The catalogs' words a PDF draws: the receipt's (pay.pdf.*), the payment poster's (merchant.poster.*), the reports
# PDF's (reports.pdf.*) and the status names it shares with the pages (pay.status.*).
PDF_KEYS = re.compile(r"^(pay\.pdf|pay\.status|merchant\.poster|reports\.pdf)\.")
# The hanzi Intl writes in zh-CN dates ("2026年1月5日"), which the PDFs print (the poster's, the report's).
DATE_HANZI = [ord(c) for c in "年月日"]
# CJK punctuation and full-width forms Chinese text uses around the catalogs' words and in names.
CJK_PUNCTUATION = list(range(0x3000, 0x3012)) + [0xFF01, 0xFF08, 0xFF09, 0xFF0C, 0xFF1A, 0xFF1B, 0xFF1F]


def chinese_words() -> list[int]:
    chars: set[int] = set()
    for catalog in (ROOT / "client/src/locales/zh-CN").glob("*.json"):
        for key, message in json.loads(catalog.read_text()).items():
            if PDF_KEYS.match(key):
                chars.update(ord(c) for c in re.sub(r"\{[^}]*\}", "", message))
    return sorted(chars)


def common_hanzi() -> list[int]:
    """GB 2312's 6,763 hanzi (level 1, the 3,755 most used, and level 2): the characters of nearly every Chinese
    business name and description."""
    chars = []
    for row in range(0xB0, 0xD8):
        for cell in range(0xA1, 0xFF):
            try:
                chars.append(ord(bytes([row, cell]).decode("gb2312")))
            except UnicodeDecodeError:
                pass
    return chars


def to_truetype(font: TTFont) -> None:
    """CFF outlines to TrueType glyf (cubic to quadratic curves, max error 1 unit), in place."""
    glyph_set = font.getGlyphSet()
    order = font.getGlyphOrder()
    glyf = newTable("glyf")
    glyf.glyphOrder = order
    glyf.glyphs = {}
    for name in order:
        pen = TTGlyphPen(None)
        glyph_set[name].draw(Cu2QuPen(pen, max_err=1.0, reverse_direction=True))
        glyf.glyphs[name] = pen.glyph()
    font["glyf"] = glyf
    font["loca"] = newTable("loca")
    font["head"].glyphDataFormat = 0
    maxp = font["maxp"]
    maxp.tableVersion = 0x00010000
    for field in (
        "maxZones maxTwilightPoints maxStorage maxFunctionDefs maxInstructionDefs maxStackElements "
        "maxSizeOfInstructions maxComponentElements maxPoints maxContours maxCompositePoints "
        "maxCompositeContours maxComponentDepth"
    ).split():
        setattr(maxp, field, 0)
    maxp.maxZones = 1
    post = font["post"]
    post.formatType = 2.0
    post.extraNames = []
    post.mapping = {}
    post.glyphOrder = order
    for tag in ("CFF ", "VORG"):
        if tag in font:
            del font[tag]
    font.sfntVersion = "\0\1\0\0"


def decompose(font: TTFont) -> None:
    """Composite glyphs (accented letters) drawn as outlines of their own."""
    glyf = font["glyf"]
    glyph_set = font.getGlyphSet()
    for name in font.getGlyphOrder():
        if glyf[name].isComposite():
            recording = DecomposingRecordingPen(glyph_set)
            glyph_set[name].draw(recording)
            pen = TTGlyphPen(None)
            recording.replay(pen)
            glyf[name] = pen.glyph()


def make(source: TTFont, unicodes: list[int], out: str, features: str, cff: bool = False) -> None:
    options = subset.Options()
    options.layout_features = [features] if features == "*" else []
    options.hinting = False
    options.desubroutinize = True
    options.name_IDs = [0, 1, 2, 3, 4, 5, 6, 13, 14]
    options.notdef_outline = True
    subsetter = subset.Subsetter(options)
    subsetter.populate(unicodes=unicodes)
    subsetter.subset(source)
    if cff:
        to_truetype(source)
    for tag in ("DSIG", "GDEF") if features != "*" else ("DSIG",):
        if tag in source:
            del source[tag]
    # Every glyph record an even number of bytes (4): @pdf-lib/fontkit's subsetter writes a short loca (offsets
    # halved) without padding the records it copies, so one odd-length record shifted every glyph after it.
    source["glyf"].padding = 4
    # The same files from the same sources: no save time in them.
    source.recalcTimestamp = False
    source.save(OUT / out)
    print(f"{out}: {(OUT / out).stat().st_size} bytes, {len(source.getGlyphOrder())} glyphs")


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    for weight in ("Regular", "Bold"):
        make(TTFont(NOTO / f"NotoSans-{weight}.ttf"), LATIN, f"noto-sans-latin-{weight.lower()}.ttf", "")
        make(TTFont(NOTO / f"NotoSansArabic-{weight}.ttf"), ARABIC, f"noto-sans-arabic-{weight.lower()}.ttf", "*")
    # Simplified Chinese is face 2 of the Noto Sans CJK collection. Its words and Latin in one small font; the
    # common hanzi in a second one, fetched only when a name or description holds a character the first lacks.
    words = chinese_words()
    print(f"Chinese words of the PDFs: {len(words)} characters")
    for weight in ("Regular", "Bold"):
        make(
            TTCollection(NOTO_CJK / f"NotoSansCJK-{weight}.ttc").fonts[2],
            LATIN + CJK_PUNCTUATION + DATE_HANZI + words,
            f"noto-sans-sc-words-{weight.lower()}.ttf",
            "",
            cff=True,
        )
    make(
        TTCollection(NOTO_CJK / "NotoSansCJK-Regular.ttc").fonts[2],
        CJK_PUNCTUATION + common_hanzi(),
        "noto-sans-sc-common-regular.ttf",
        "",
        cff=True,
    )


if __name__ == "__main__":
    main()
