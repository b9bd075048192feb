/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * What diskmeter-cli echoes of a user's or a file's text on the terminal
 * (a path, a comment, a loader's reason quoting the file) goes through
 * here, escaped as the text report shows it, so a file name with an
 * escape sequence or a newline cannot drive the terminal or forge a line.
 * Tables (history, --list-targets) cut and pad their cells here by the
 * columns a terminal gives each character, not by bytes.
 */
#include "dm-cli-common.h"

#include <stdint.h>
#include <string.h>

#include "dm-text.h"

const char *
dm_cli_shown (const char *s)
{
  /* A few at a time, for one message that names a file, a reason and
   * more; per thread, since progress lines come from the runner's. */
  static _Thread_local char ring[4][2400];
  static _Thread_local unsigned next;
  char *buf = ring[next++ % 4];
  return dm_text_shown (buf, sizeof ring[0], s ? s : "");
}

/* The columns a code point takes: two for East Asian wide and full-width
 * ones, none for a combining mark, else one. */
static int
columns_of (uint32_t c)
{
  if ((c >= 0x300 && c <= 0x36f) || (c >= 0x200b && c <= 0x200f))
    return 0;
  if ((c >= 0x1100 && c <= 0x115f) || (c >= 0x2e80 && c <= 0xa4cf && c != 0x303f)
      || (c >= 0xac00 && c <= 0xd7a3) || (c >= 0xf900 && c <= 0xfaff)
      || (c >= 0xfe30 && c <= 0xfe4f) || (c >= 0xff00 && c <= 0xff60)
      || (c >= 0xffe0 && c <= 0xffe6) || (c >= 0x1f300 && c <= 0x1faff)
      || (c >= 0x20000 && c <= 0x3fffd))
    return 2;
  return 1;
}

/* The code point at s[i], its length in *len; a byte that starts no
 * well-formed sequence is one column of its own. */
static uint32_t
code_point (const char *s, size_t n, size_t i, size_t *len)
{
  const unsigned char *u = (const unsigned char *) s + i;
  size_t l = dm_utf8_char_len (s + i, n - i);
  uint32_t c;
  if (l <= 1)
    {
      *len = 1;
      return u[0];
    }
  c = u[0] & (0x7fu >> l);
  for (size_t k = 1; k < l; k++)
    c = (c << 6) | (u[k] & 0x3f);
  *len = l;
  return c;
}

int
dm_cli_columns (const char *s)
{
  size_t n = strlen (s), len;
  int cols = 0;
  for (size_t i = 0; i < n; i += len)
    cols += columns_of (code_point (s, n, i, &len));
  return cols;
}

void
dm_cli_add_cell (dm_buf *out, const char *s, int width)
{
  size_t n = strlen (s), len, head = 0, tail = n;
  int cols = dm_cli_columns (s), used = 0;

  if (cols > width && width > 1)
    {
      /* A third from the start, the rest from the end, where a path keeps
       * the folder's own name: "/var/tmp/…/small". */
      int room = width - 1, head_cols = room / 3, tail_cols = room - head_cols, c;
      while (head < n && (c = columns_of (code_point (s, n, head, &len))) + used <= head_cols)
        {
          used += c;
          head += len;
        }
      head_cols = used;
      while (tail > head)
        {
          size_t start = tail - 1;
          while (start > head && ((unsigned char) s[start] & 0xc0) == 0x80)
            start--;
          c = columns_of (code_point (s, n, start, &len));
          if (used + c > head_cols + tail_cols)
            break;
          used += c;
          tail = start;
        }
      dm_buf_addn (out, s, head);
      dm_buf_add (out, "\xe2\x80\xa6"); /* … */
      dm_buf_add (out, s + tail);
      cols = used + 1;
    }
  else
    dm_buf_add (out, s);
  for (; cols < width; cols++)
    dm_buf_add (out, " ");
}
