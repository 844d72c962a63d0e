"""The text font of the phone-alone build: Roboto with the symbols it lacks, and a box for the rest.

Flutter's web client draws text with the Roboto that flet-web ships (Latin with its extensions,
Greek, Cyrillic, general punctuation). For a character no loaded font has, it downloads a Noto font
from its `fontFallbackBaseUrl`; the static build has none of them, so the request failed, and was
made again at every frame the text was on screen ("→" in "Převod Anna → Bořek", an emoji in a
player's name). So the build ships one font, in Roboto's place:
- Roboto as flet-web ships it;
- the arrows, mathematical operators and other symbols of KaTeX's Main font (shipped in flet-web
  too, for its maths control) that Roboto lacks, scaled to Roboto's size;
- every other character (emoji, scripts Roboto does not cover) mapped to one glyph, Roboto's box,
  by a "last resort" character map (format 13: many characters, one glyph). A text then never
  lacks a glyph, so Flutter never looks for another font: an emoji shows as a box, without any
  request.
Built with fontTools from the two fonts in the installed flet-web: no download, the same bytes at
every build.

The icon font, too, is cut down (`icon_font`): flet-web's MaterialIcons holds 8,600 icons (1.3 MB);
the build keeps the ones the app names (`ft.Icons.…`) and those Flutter's own widgets draw
(FRAMEWORK_ICONS), each at its code point.
"""
from __future__ import annotations

import io

#: Characters that are never drawn (controls, surrogates, non-characters): no glyph for them.
NOT_DRAWN = ((0x0000, 0x001F), (0x007F, 0x009F), (0xD800, 0xDFFF), (0xFDD0, 0xFDEF))
BOX = "companion.box"
#: Icons Flutter's Material widgets draw by themselves (the arrow of an expansion tile or a drop-down,
#: a back button, a text field's clear and reveal buttons, a date picker's, a check box's, ...).
FRAMEWORK_ICONS = (
    "access_time", "add", "arrow_back", "arrow_back_ios", "arrow_back_ios_new", "arrow_downward", "arrow_drop_down",
    "arrow_drop_up", "arrow_forward", "arrow_forward_ios", "arrow_upward", "calendar_today", "cancel", "check",
    "check_box", "check_box_outline_blank", "chevron_left", "chevron_right", "clear", "close", "date_range",
    "drag_handle", "edit", "edit_outlined", "error", "error_outline", "expand_less", "expand_more",
    "indeterminate_check_box", "info", "info_outline", "keyboard", "keyboard_arrow_down", "keyboard_arrow_left",
    "keyboard_arrow_right", "keyboard_arrow_up", "menu", "more_horiz", "more_vert", "radio_button_checked",
    "radio_button_unchecked", "remove", "schedule", "search", "visibility", "visibility_off", "warning")


def _not_drawn(code: int) -> bool:
    return any(low <= code <= high for low, high in NOT_DRAWN) or (code & 0xFFFE) == 0xFFFE


def text_font(roboto: bytes, katex: bytes) -> tuple[bytes, dict[str, int]]:
    """The font (WOFF2) and what it holds: characters with Roboto's glyphs, with KaTeX's, and
    characters drawn as a box."""
    from fontTools.pens.recordingPen import DecomposingRecordingPen
    from fontTools.pens.ttGlyphPen import TTGlyphPen
    from fontTools.ttLib import TTFont, newTable
    from fontTools.ttLib.scaleUpem import scale_upem
    from fontTools.ttLib.tables._c_m_a_p import CmapSubtable

    font = TTFont(io.BytesIO(roboto), recalcTimestamp=False)
    extra = TTFont(io.BytesIO(katex), recalcTimestamp=False)
    scale_upem(extra, font["head"].unitsPerEm)
    mapping = dict(font.getBestCmap())
    order = list(font.getGlyphOrder())
    glyf, hmtx = font["glyf"], font["hmtx"]
    shapes = extra.getGlyphSet()
    added = 0
    for code, name in sorted(extra.getBestCmap().items()):
        if code in mapping or code < 0x80:
            continue
        recording = DecomposingRecordingPen(shapes)
        shapes[name].draw(recording)
        pen = TTGlyphPen(None)
        recording.replay(pen)
        glyph = pen.glyph()
        new = f"katex.{name}"
        glyf[new] = glyph
        glyph.recalcBounds(glyf)
        hmtx[new] = (extra["hmtx"][name][0], getattr(glyph, "xMin", 0))
        order.append(new)
        mapping[code] = new
        added += 1
    glyf[BOX] = glyf[".notdef"]
    hmtx[BOX] = hmtx[".notdef"]
    order.append(BOX)
    font.setGlyphOrder(order)
    glyf.glyphOrder = order
    drawn = dict(mapping)
    boxes = 0
    for code in range(0x20, 0x110000):
        if code not in drawn and not _not_drawn(code):
            drawn[code] = BOX
            boxes += 1
    bmp = CmapSubtable.newSubtable(4)
    bmp.platformID, bmp.platEncID, bmp.language, bmp.cmap = 3, 1, 0, {c: g for c, g in mapping.items() if c <= 0xFFFF}
    every = CmapSubtable.newSubtable(13)
    every.platformID, every.platEncID, every.language, every.cmap = 3, 10, 0, drawn
    font["cmap"] = newTable("cmap")
    font["cmap"].tableVersion = 0
    font["cmap"].tables = [bmp, every]
    del font["hdmx"]  # device metrics per glyph, for the glyphs Roboto had: not needed by any browser
    font["maxp"].numGlyphs = len(order)
    font.flavor = "woff2"
    out = io.BytesIO()
    font.save(out)
    return out.getvalue(), {"Roboto": len(mapping) - added, "KaTeX Main": added, "box": boxes}


def icon_font(material: bytes, names: set[str]) -> bytes:
    """MaterialIcons (OpenType) with only the icons `names` (Flet's: `CHECK`, `BACKSPACE_OUTLINED`)
    and FRAMEWORK_ICONS, each at its code point. ValueError for a name the font does not have."""
    from fontTools import subset
    from fontTools.ttLib import TTFont

    font = TTFont(io.BytesIO(material), recalcTimestamp=False)
    codes = {glyph: code for code, glyph in font.getBestCmap().items()}
    wanted = {name.lower() for name in names} | set(FRAMEWORK_ICONS)
    glyphs = {name if name.endswith(("_outlined", "_rounded", "_sharp")) else f"{name}_baseline" for name in wanted}
    missing = sorted(glyph for glyph in glyphs if glyph not in codes)
    if missing:
        raise ValueError(f"not in MaterialIcons: {', '.join(missing)}")
    options = subset.Options()
    options.layout_features, options.name_IDs, options.notdef_outline = [], ["*"], True
    cutter = subset.Subsetter(options)
    cutter.populate(unicodes=[codes[glyph] for glyph in glyphs])
    cutter.subset(font)
    out = io.BytesIO()
    font.save(out)
    return out.getvalue()
