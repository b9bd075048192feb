# SPDX-License-Identifier: GPL-3.0-or-later
#
# Reads the window's screenshots with Python's standard library only, so the
# GUI tests need no imaging package: "stats FILE" prints WIDTH HEIGHT COLOURS
# INK, "colours FILE R,G,B..." prints WIDTH HEIGHT INK and, for each colour,
# the number of pixels near it, "centre FILE R,G,B" prints the number of
# pixels near that colour and their mean x and y (where a mark was drawn),
# "bars FILE R,G,B" prints "TOP LEFT LENGTH" for each horizontal bar of that
# colour (at least 20 pixels long and 2 tall), top to bottom, left to right.
# "differ A B" prints "SAME" or the number of pixels that differ and the box
# around them, "N X0,Y0-X1,Y1", or "SIZE WxH WxH" when the sizes differ.
# "differ A B TOL" compares two renderings of one drawing (a PDF page and
# the screenshot, whose glyphs are smoothed apart): the mean colour of each
# 16x16 block, alpha left out, may differ by up to TOL (0..255) per
# channel; it prints "SAME" or the number of blocks over TOL, the worst
# difference and the box around them in pixels, "N WORST X0,Y0-X1,Y1".
# INK is the share of pixels unlike the most common one (the background).
# "tile-contrast FILE" finds the grid's first row of tiles (right of the
# first green row button) and prints the digits' colour, the tile's and
# their WCAG contrast ratio, the lowest over the tile's filled and plain
# parts: "R,G,B R,G,B RATIO".
import struct
import sys
import zlib
from collections import Counter


def read_png(path):
    with open(path, "rb") as f:
        data = f.read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise SystemExit("%s: not a PNG" % path)
    pos, idat, ihdr = 8, [], None
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            ihdr = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat.append(body)
        elif kind == b"IEND":
            break
        pos += 12 + length
    width, height, depth, colour, _, _, interlace = ihdr
    if depth != 8 or interlace != 0 or colour not in (2, 6):
        raise SystemExit("%s: unexpected PNG format %r" % (path, ihdr))
    bpp = 4 if colour == 6 else 3
    raw = zlib.decompress(b"".join(idat))
    stride = width * bpp
    prev = bytearray(stride)
    rows = []
    for y in range(height):
        start = y * (stride + 1)
        ftype = raw[start]
        line = bytearray(raw[start + 1:start + 1 + stride])
        if ftype == 1:
            for i in range(bpp, stride):
                line[i] = (line[i] + line[i - bpp]) & 0xFF
        elif ftype == 2:
            for i in range(stride):
                line[i] = (line[i] + prev[i]) & 0xFF
        elif ftype == 3:
            for i in range(stride):
                left = line[i - bpp] if i >= bpp else 0
                line[i] = (line[i] + ((left + prev[i]) >> 1)) & 0xFF
        elif ftype == 4:
            for i in range(stride):
                a = line[i - bpp] if i >= bpp else 0
                b = prev[i]
                c = prev[i - bpp] if i >= bpp else 0
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                pred = a if pa <= pb and pa <= pc else (b if pb <= pc else c)
                line[i] = (line[i] + pred) & 0xFF
        rows.append(bytes(line))
        prev = line
    return width, height, bpp, rows


# Pixels counted by their first `size` bytes: all channels, or RGB only when
# the alpha channel must not split one colour in two.
def count_pixels(rows, bpp, size):
    counts = Counter()
    for line in rows:
        for x in range(0, len(line), bpp):
            counts[line[x:x + size]] += 1
    return counts


def stats(path):
    width, height, bpp, rows = read_png(path)
    counts = count_pixels(rows, bpp, bpp)
    background = counts.most_common(1)[0][1]
    ink = 1.0 - background / float(width * height)
    print(width, height, len(counts), "%.4f" % ink)


def colours(path, *specs):
    width, height, bpp, rows = read_png(path)
    wanted = [tuple(int(v) for v in c.split(",")) for c in specs]
    counts = count_pixels(rows, bpp, 3)
    ink = 1.0 - counts.most_common(1)[0][1] / float(width * height)
    near = []
    for w in wanted:
        near.append(sum(n for px, n in counts.items()
                        if all(abs(px[i] - w[i]) <= 6 for i in range(3))))
    print(width, height, "%.4f" % ink, *near)


def centre(path, spec):
    width, height, bpp, rows = read_png(path)
    w = tuple(int(v) for v in spec.split(","))
    n = sx = sy = 0
    for y, line in enumerate(rows):
        for x in range(width):
            px = line[x * bpp:x * bpp + 3]
            if all(abs(px[i] - w[i]) <= 6 for i in range(3)):
                n += 1
                sx += x
                sy += y
    print(n, "%.1f" % (sx / n if n else -1), "%.1f" % (sy / n if n else -1))


def bars(path, spec):
    width, height, bpp, rows = read_png(path)
    w = tuple(int(v) for v in spec.split(","))
    near = lambda line, x: all(abs(line[x * bpp + i] - w[i]) <= 8 for i in range(3))
    found = []   # [top, left, length, last row, rows tall]
    for y, line in enumerate(rows):
        x = 0
        while x < width:
            if not near(line, x):
                x += 1
                continue
            start = x
            while x < width and near(line, x):
                x += 1
            if x - start < 20:
                continue
            for bar in found:
                if bar[3] == y - 1 and abs(bar[1] - start) <= 2:
                    bar[2] = max(bar[2], x - start)
                    bar[1] = min(bar[1], start)
                    bar[3] = y
                    bar[4] += 1
                    break
            else:
                found.append([y, start, x - start, y, 1])
    for top, left, length, _, tall in sorted(found):
        if tall >= 2:
            print(top, left, length)


def luminance(px):
    def channel(v):
        v /= 255.0
        return v / 12.92 if v <= 0.03928 else ((v + 0.055) / 1.055) ** 2.4
    return 0.2126 * channel(px[0]) + 0.7152 * channel(px[1]) + 0.0722 * channel(px[2])


def contrast(a, b):
    la, lb = luminance(a), luminance(b)
    return (max(la, lb) + 0.05) / (min(la, lb) + 0.05)


def tile_contrast(path):
    width, height, bpp, rows = read_png(path)
    green = (46, 139, 62)
    near = lambda px: all(abs(px[i] - green[i]) <= 12 for i in range(3))
    groups = []   # [first row, last row, rightmost x] of green buttons
    for y, line in enumerate(rows):
        xs = [x for x in range(width) if near(line[x * bpp:x * bpp + 3])]
        if len(xs) < 30:
            continue
        if groups and groups[-1][1] == y - 1:
            groups[-1][1] = y
            groups[-1][2] = max(groups[-1][2], xs[-1])
        else:
            groups.append([y, y, xs[-1]])
    if len(groups) < 2:
        raise SystemExit("%s: no row button found" % path)
    top, bottom, right = groups[1]
    window_bg = count_pixels(rows, bpp, 3).most_common(1)[0][0]
    band = [line[x * bpp:x * bpp + 3] for line in rows[top + (bottom - top) // 4:
                                                         bottom - (bottom - top) // 4]
            for x in range(right + 8, width - 8)]
    counts = Counter(band)
    # The digits: the commonest colour that stands out from the commonest
    # one (the meter's fill or the tile). Then the tile's backgrounds: the
    # common colours that are neither the digits nor the window. Digits
    # over an almost full meter cover more of the band than the tile's
    # unfilled end, so frequency alone cannot tell them from a background.
    fill = counts.most_common(1)[0][0]
    text = [px for px, n in counts.most_common()
            if px != window_bg and contrast(px, fill) >= 3][:1]
    if not text:
        raise SystemExit("%s: no digits found in the tiles" % path)
    text = text[0]
    backgrounds = [px for px, n in counts.most_common(5)
                   if px not in (window_bg, text) and n > 0.05 * len(band)][:2]
    if not backgrounds:
        raise SystemExit("%s: no tile found" % path)
    worst = min(backgrounds, key=lambda bg: contrast(text, bg))
    print(",".join(map(str, text)), ",".join(map(str, worst)), "%.2f" % contrast(text, worst))


def differ(path_a, path_b):
    wa, ha, bpp_a, rows_a = read_png(path_a)
    wb, hb, bpp_b, rows_b = read_png(path_b)
    if (wa, ha, bpp_a) != (wb, hb, bpp_b):
        print("SIZE %dx%d %dx%d" % (wa, ha, wb, hb))
        return
    n, box = 0, None
    for y, (ra, rb) in enumerate(zip(rows_a, rows_b)):
        if ra == rb:
            continue
        for x in range(wa):
            if ra[x * bpp_a:(x + 1) * bpp_a] != rb[x * bpp_a:(x + 1) * bpp_a]:
                n += 1
                if box is None:
                    box = [x, y, x, y]
                box = [min(box[0], x), min(box[1], y), max(box[2], x), max(box[3], y)]
    print("SAME" if n == 0 else "%d %d,%d-%d,%d" % (n, *box))


def differ_blocks(path_a, path_b, tolerance, size=16):
    wa, ha, bpp_a, rows_a = read_png(path_a)
    wb, hb, bpp_b, rows_b = read_png(path_b)
    if (wa, ha) != (wb, hb):
        print("SIZE %dx%d %dx%d" % (wa, ha, wb, hb))
        return
    n, worst, box = 0, 0.0, None
    for y0 in range(0, ha, size):
        y1 = min(y0 + size, ha)
        for x0 in range(0, wa, size):
            x1 = min(x0 + size, wa)
            sums = [0] * 6
            for y in range(y0, y1):
                ra, rb = rows_a[y], rows_b[y]
                for x in range(x0, x1):
                    for c in range(3):
                        sums[c] += ra[x * bpp_a + c]
                        sums[3 + c] += rb[x * bpp_b + c]
            count = (y1 - y0) * (x1 - x0)
            d = max(abs(sums[c] - sums[3 + c]) for c in range(3)) / float(count)
            worst = max(worst, d)
            if d > tolerance:
                n += 1
                if box is None:
                    box = [x0, y0, x1 - 1, y1 - 1]
                box = [min(box[0], x0), min(box[1], y0), max(box[2], x1 - 1), max(box[3], y1 - 1)]
    print("SAME" if n == 0 else "%d %.1f %d,%d-%d,%d" % (n, worst, *box))


def main(argv):
    if len(argv) == 3 and argv[1] == "stats":
        stats(argv[2])
    elif len(argv) >= 3 and argv[1] == "colours":
        colours(argv[2], *argv[3:])
    elif len(argv) == 4 and argv[1] == "centre":
        centre(argv[2], argv[3])
    elif len(argv) == 4 and argv[1] == "bars":
        bars(argv[2], argv[3])
    elif len(argv) == 4 and argv[1] == "differ":
        differ(argv[2], argv[3])
    elif len(argv) == 5 and argv[1] == "differ":
        differ_blocks(argv[2], argv[3], float(argv[4]))
    elif len(argv) == 3 and argv[1] == "tile-contrast":
        tile_contrast(argv[2])
    else:
        raise SystemExit("usage: png.py stats FILE | colours FILE R,G,B... | "
                         "centre FILE R,G,B | bars FILE R,G,B | differ A B [TOL] | tile-contrast FILE")


main(sys.argv)
