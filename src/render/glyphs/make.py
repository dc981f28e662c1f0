#!/usr/bin/env python3
"""Writes glyphs.tsv: the outlines koma draws diagrams with, as SVG paths.

Diagrams must show their text on any machine, with or without CJK fonts, so
koma draws every character as a path. This script takes the outlines from
Noto Serif CJK JP Bold (piece names and rank numerals) and Noto Sans CJK JP
Regular (coordinates, titles, hands), both under the SIL Open Font License
1.1 (see OFL.txt), for the characters koma needs: every kanji named in
variants/*.md, the kanji numerals, and printable ASCII with a few more.

Run from the repository root after `apt-get install fonts-noto-cjk` and
`pip install fonttools`:

    python3 src/render/glyphs/make.py

Output: one glyph a line, `set<TAB>U+XXXX<TAB>advance<TAB>path`, in font
units (1000 per em), y pointing down, baseline at y = 0.
"""
import glob
import re
from fontTools.pens.svgPathPen import SVGPathPen
from fontTools.pens.transformPen import TransformPen
from fontTools.ttLib import TTCollection

SERIF = ('/usr/share/fonts/opentype/noto/NotoSerifCJK-Bold.ttc', 0)   # Noto Serif CJK JP Bold
SANS = ('/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc', 0)  # Noto Sans CJK JP Regular


def kanji_of_variants():
    chars = set()
    for path in glob.glob('variants/*.md'):
        for m in re.finditer(r'kanji:\s*"?([^",}\n]+)', open(path, encoding='utf-8').read()):
            chars.update(m.group(1).strip())
    return chars


def outline(font, ch):
    cmap = font.getBestCmap()
    name = cmap.get(ord(ch))
    if name is None:
        return None
    glyphs = font.getGlyphSet()
    pen = SVGPathPen(glyphs, ntos=lambda v: ('%d' % round(v)))
    glyphs[name].draw(TransformPen(pen, (1, 0, 0, -1, 0, 0)))
    return glyphs[name].width, pen.getCommands()


def main():
    numerals = set('一二三四五六七八九十')
    text = {chr(c) for c in range(0x20, 0x7f)} | set('ōŌū—–’×·') | numerals
    piece = kanji_of_variants() | numerals | {chr(c) for c in range(ord('A'), ord('Z') + 1)} | {'+'}
    lines = ['# Glyph outlines for koma\'s SVG diagrams, written by src/render/glyphs/make.py.',
             '# "piece": Noto Serif CJK JP Bold; "text": Noto Sans CJK JP Regular.',
             '# Copyright 2014-2021 Adobe (http://www.adobe.com/), with Reserved Font Name \'Source\';',
             '# SIL Open Font License 1.1 (OFL.txt). Units: 1000 per em, y down, baseline at 0.',
             '# set\tcodepoint\tadvance\tpath']
    for set_name, (path, index), chars in (('piece', SERIF, piece), ('text', SANS, text)):
        font = TTCollection(path).fonts[index]
        for ch in sorted(chars):
            o = outline(font, ch)
            if o is None:
                raise SystemExit(f'{ch!r} is not in {path}')
            lines.append(f'{set_name}\tU+{ord(ch):04X}\t{o[0]}\t{o[1]}')
    open('src/render/glyphs/glyphs.tsv', 'w', encoding='utf-8').write('\n'.join(lines) + '\n')
    print(f'{len(lines) - 5} glyphs written')


if __name__ == '__main__':
    main()
