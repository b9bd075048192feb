/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * User and OS text in reports: UTF-8 boundaries, the escaped form the text
 * report, CSV and terminal show, the always-valid JSON string and its hex
 * twin, and sentences that keep their reason when they name a long path.
 * Every writer goes through here, so there is one rule to document.
 */
#include "dm-text.h"

#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

size_t
dm_utf8_char_len (const char *str, size_t n)
{
  const unsigned char *s = (const unsigned char *) str;
  if (!n)
    return 0;
  if (s[0] < 0x80)
    return 1;
  size_t len = (s[0] & 0xe0) == 0xc0 ? 2 : (s[0] & 0xf0) == 0xe0 ? 3 : (s[0] & 0xf8) == 0xf0 ? 4 : 0;
  if (!len || len > n)
    return 0;
  uint32_t cp = s[0] & (0x7f >> len);
  for (size_t i = 1; i < len; i++)
    {
      if ((s[i] & 0xc0) != 0x80)
        return 0;
      cp = (cp << 6) | (s[i] & 0x3f);
    }
  /* Overlong forms, surrogates and values past U+10FFFF are not UTF-8. */
  if ((len == 2 && cp < 0x80) || (len == 3 && cp < 0x800) || (len == 4 && cp < 0x10000)
      || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
    return 0;
  return len;
}

bool
dm_utf8_valid (const char *s)
{
  size_t n = strlen (s);
  for (size_t i = 0; i < n;)
    {
      size_t len = dm_utf8_char_len (s + i, n - i);
      if (!len)
        return false;
      i += len;
    }
  return true;
}

/* The longest prefix of s[0..n) of at most max bytes that ends on a
 * character boundary; a byte that is not UTF-8 is a character of its own. */
static size_t
boundary (const char *s, size_t n, size_t max)
{
  size_t i = 0;
  while (i < n)
    {
      size_t len = dm_utf8_char_len (s + i, n - i);
      if (!len)
        len = 1;
      if (i + len > max)
        break;
      i += len;
    }
  return i;
}

int
dm_text_copy (char *dst, size_t size, const char *src)
{
  if (!size)
    return -E2BIG;
  size_t n = strlen (src);
  size_t keep = n < size ? n : boundary (src, n, size - 1);
  memmove (dst, src, keep);
  dst[keep] = '\0';
  return keep == n ? 0 : -E2BIG;
}

/* The code point of a valid character of len bytes at s. */
static uint32_t
code_point (const unsigned char *s, size_t len)
{
  if (len == 1)
    return s[0];
  uint32_t cp = s[0] & (0x7f >> len);
  for (size_t i = 1; i < len; i++)
    cp = (cp << 6) | (s[i] & 0x3f);
  return cp;
}

/* Characters that would break a line, drive a terminal, or reorder what a
 * reader sees: C0, DEL, C1, and the bidirectional embeddings, overrides and
 * isolates (U+202A..U+202E, U+2066..U+2069). */
static bool
unsafe (uint32_t cp)
{
  return cp < 0x20 || (cp >= 0x7f && cp <= 0x9f) || (cp >= 0x202a && cp <= 0x202e)
         || (cp >= 0x2066 && cp <= 0x2069);
}

static void
add_shown (dm_buf *b, const char *s, bool keep_lines)
{
  size_t n = strlen (s);
  for (size_t i = 0; i < n;)
    {
      size_t len = dm_utf8_char_len (s + i, n - i);
      if (!len)
        {
          dm_buf_printf (b, "\\x%02x", (unsigned char) s[i]);
          i++;
          continue;
        }
      uint32_t cp = code_point ((const unsigned char *) s + i, len);
      if (keep_lines && (cp == '\n' || cp == '\r' || cp == '\t'))
        dm_buf_addn (b, s + i, 1);
      else if (cp == '\n')
        dm_buf_add (b, "\\n");
      else if (cp == '\r')
        dm_buf_add (b, "\\r");
      else if (cp == '\t')
        dm_buf_add (b, "\\t");
      else if (cp < 0x80 && unsafe (cp))
        dm_buf_printf (b, "\\x%02x", (unsigned) cp);
      else if (unsafe (cp))
        dm_buf_printf (b, "\\u%04x", (unsigned) cp);
      else
        {
          /* A run of plain characters in one piece. */
          size_t start = i;
          do
            {
              i += len;
              len = i < n ? dm_utf8_char_len (s + i, n - i) : 0;
            }
          while (len && !unsafe (code_point ((const unsigned char *) s + i, len)));
          dm_buf_addn (b, s + start, i - start);
          continue;
        }
      i += len;
    }
}

void
dm_text_add_shown (dm_buf *b, const char *s)
{
  add_shown (b, s, false);
}

void
dm_text_add_cell (dm_buf *b, const char *s)
{
  add_shown (b, s, true);
}

const char *
dm_text_shown (char *dst, size_t size, const char *s)
{
  dm_buf b;
  dm_buf_init (&b);
  dm_text_add_shown (&b, s);
  /* Out of memory: still nothing raw, only less. */
  dm_text_copy (dst, size, b.error ? "?" : b.data ? b.data : "");
  dm_buf_free (&b);
  return dst;
}

void
dm_text_add_json (dm_buf *b, const char *s)
{
  size_t n = strlen (s);
  dm_buf_add (b, "\"");
  for (size_t i = 0; i < n;)
    {
      size_t len = dm_utf8_char_len (s + i, n - i);
      if (!len)
        {
          /* The readable stand-in; the bytes go into KEY_bytes. */
          dm_buf_add (b, "\xef\xbf\xbd");
          i++;
          continue;
        }
      uint32_t cp = code_point ((const unsigned char *) s + i, len);
      switch (cp)
        {
        case '"':  dm_buf_add (b, "\\\""); break;
        case '\\': dm_buf_add (b, "\\\\"); break;
        case '\n': dm_buf_add (b, "\\n"); break;
        case '\r': dm_buf_add (b, "\\r"); break;
        case '\t': dm_buf_add (b, "\\t"); break;
        default:
          if (unsafe (cp))
            dm_buf_printf (b, "\\u%04x", (unsigned) cp);
          else
            dm_buf_addn (b, s + i, len);
        }
      i += len;
    }
  dm_buf_add (b, "\"");
}

void
dm_text_add_hex (dm_buf *b, const char *s)
{
  static const char digits[] = "0123456789abcdef";
  for (const unsigned char *p = (const unsigned char *) s; *p; p++)
    {
      char pair[2] = { digits[*p >> 4], digits[*p & 15] };
      dm_buf_addn (b, pair, 2);
    }
}

static int
hex_digit (char c)
{
  if (c >= '0' && c <= '9')
    return c - '0';
  if (c >= 'a' && c <= 'f')
    return c - 'a' + 10;
  if (c >= 'A' && c <= 'F')
    return c - 'A' + 10;
  return -1;
}

int
dm_text_from_hex (char *dst, size_t size, const char *hex)
{
  size_t n = strlen (hex), o = 0;
  if (n % 2 || !size)
    return -EINVAL;
  for (size_t i = 0; i < n; i += 2)
    {
      int hi = hex_digit (hex[i]), lo = hex_digit (hex[i + 1]);
      if (hi < 0 || lo < 0 || (hi | lo) == 0)
        return -EINVAL;
    }
  /* Decoded whole, then cut like any copy. */
  char tmp[256];
  dm_buf b;
  dm_buf_init (&b);
  for (size_t i = 0; i < n; i += 2)
    {
      tmp[o++] = (char) (hex_digit (hex[i]) << 4 | hex_digit (hex[i + 1]));
      if (o == sizeof tmp)
        {
          dm_buf_addn (&b, tmp, o);
          o = 0;
        }
    }
  dm_buf_addn (&b, tmp, o);
  if (b.error)
    {
      dm_buf_free (&b);
      return b.error;
    }
  dm_text_copy (dst, size, b.data ? b.data : "");
  dm_buf_free (&b);
  return 0;
}

const char *
dm_text_shorten (char *dst, size_t size, const char *s, size_t max)
{
  static const char ellipsis[] = "\xe2\x80\xa6"; /* … */
  const size_t el = sizeof ellipsis - 1;
  size_t n = strlen (s);
  if (!size)
    return dst;
  if (max > size - 1)
    max = size - 1;
  if (n <= max || max <= el)
    {
      dm_text_copy (dst, max + 1, s);
      return dst;
    }
  /* A third from the start, the rest from the end, each on a boundary:
   * "/srv/very/long/…/diskmeter-Ab12Cd.tmp". */
  size_t room = max - el;
  size_t head = boundary (s, n, room / 3);
  size_t tail_start = n - (room - head);
  /* Move the tail's start forward to the next character boundary. */
  while (tail_start < n && ((unsigned char) s[tail_start] & 0xc0) == 0x80)
    tail_start++;
  memmove (dst, s, head);
  memcpy (dst + head, ellipsis, el);
  memmove (dst + head + el, s + tail_start, n - tail_start);
  dst[head + el + (n - tail_start)] = '\0';
  return dst;
}

/* text with every place of path in it replaced by shown. */
static void
replace_all (dm_buf *out, const char *text, const char *path, const char *shown)
{
  size_t plen = strlen (path);
  const char *p = text, *hit;
  while ((hit = strstr (p, path)))
    {
      dm_buf_addn (out, p, (size_t) (hit - p));
      dm_buf_add (out, shown);
      p = hit + plen;
    }
  dm_buf_add (out, p);
}

int
dm_text_say (char *dst, size_t size, const char *path, const char *fmt, ...)
{
  va_list ap;
  va_start (ap, fmt);
  int err = dm_text_vsay (dst, size, path, fmt, ap);
  va_end (ap);
  return err;
}

int
dm_text_vsay (char *dst, size_t size, const char *path, const char *fmt, va_list ap)
{
  dm_buf full, fitted;
  va_list copy;
  int err = 0;

  if (!size)
    return -E2BIG;
  dm_buf_init (&full);
  dm_buf_init (&fitted);
  va_copy (copy, ap);
  dm_buf_vprintf (&full, fmt, copy);
  va_end (copy);
  if (full.error || !full.data)
    {
      /* Out of memory: the sentence as far as it fits, on a boundary. */
      vsnprintf (dst, size, fmt, ap);
      dm_text_copy (dst, size, dst);
      dm_buf_free (&full);
      return -E2BIG;
    }
  size_t plen = path ? strlen (path) : 0;
  if (full.len >= size && plen)
    {
      size_t hits = 0;
      for (const char *p = full.data; (p = strstr (p, path)); p += plen)
        hits++;
      size_t over = full.len - (size - 1);
      if (hits)
        {
          /* Each place gives up its share of what is too much. */
          size_t cut = (over + hits - 1) / hits;
          char shown[1200];
          dm_text_shorten (shown, sizeof shown, path, plen > cut ? plen - cut : 0);
          replace_all (&fitted, full.data, path, shown);
        }
    }
  if (fitted.len && !fitted.error)
    err = dm_text_copy (dst, size, fitted.data);
  else
    err = dm_text_copy (dst, size, full.data);
  dm_buf_free (&full);
  dm_buf_free (&fitted);
  return err;
}
