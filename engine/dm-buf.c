/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Growable text buffer for the report writers. An allocation failure is
 * remembered (error) rather than reported per call, so writers stay linear.
 */
#include "dm-buf.h"

#include "dm-text.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void
dm_buf_init (dm_buf *b)
{
  memset (b, 0, sizeof *b);
}

void
dm_buf_free (dm_buf *b)
{
  free (b->data);
  dm_buf_init (b);
}

void
dm_buf_clear (dm_buf *b)
{
  b->len = 0;
  if (b->data)
    b->data[0] = '\0';
}

static int
reserve (dm_buf *b, size_t extra)
{
  if (b->error)
    return b->error;
  if (b->len + extra + 1 <= b->cap)
    return 0;
  size_t cap = b->cap ? b->cap : 256;
  while (cap < b->len + extra + 1)
    cap *= 2;
  char *data = realloc (b->data, cap);
  if (!data)
    return b->error = -ENOMEM;
  b->data = data;
  b->cap = cap;
  return 0;
}

void
dm_buf_addn (dm_buf *b, const char *s, size_t n)
{
  if (reserve (b, n) < 0)
    return;
  memcpy (b->data + b->len, s, n);
  b->len += n;
  b->data[b->len] = '\0';
}

void
dm_buf_add (dm_buf *b, const char *s)
{
  dm_buf_addn (b, s, strlen (s));
}

void
dm_buf_vprintf (dm_buf *b, const char *fmt, va_list ap)
{
  va_list copy;
  va_copy (copy, ap);
  int n = vsnprintf (NULL, 0, fmt, copy);
  va_end (copy);
  if (n < 0 || reserve (b, (size_t) n) < 0)
    return;
  vsnprintf (b->data + b->len, (size_t) n + 1, fmt, ap);
  b->len += (size_t) n;
}

void
dm_buf_printf (dm_buf *b, const char *fmt, ...)
{
  va_list ap;
  va_start (ap, fmt);
  dm_buf_vprintf (b, fmt, ap);
  va_end (ap);
}

void
dm_buf_add_json_string (dm_buf *b, const char *s)
{
  dm_text_add_json (b, s);
}

void
dm_buf_add_csv_field (dm_buf *b, const char *text)
{
  dm_buf cell;
  dm_buf_init (&cell);
  dm_text_add_cell (&cell, text);
  const char *s = cell.error || !cell.data ? "" : cell.data;
  if (strpbrk (s, ",\"\r\n") == NULL)
    dm_buf_add (b, s);
  else
    {
      /* Quoted, with the quotes inside doubled. */
      dm_buf_add (b, "\"");
      for (const char *p = s, *q; *p; p = q)
        {
          q = strchr (p, '"');
          q = q ? q + 1 : p + strlen (p);
          dm_buf_addn (b, p, (size_t) (q - p));
          if (q[-1] == '"')
            dm_buf_add (b, "\"");
        }
      dm_buf_add (b, "\"");
    }
  dm_buf_free (&cell);
}

void
dm_buf_add_double (dm_buf *b, const char *fmt, double v)
{
  char tmp[64];
  if (!isfinite (v))
    v = 0;
  snprintf (tmp, sizeof tmp, fmt, v);
  /* A GUI process runs with the user's LC_NUMERIC, which may use a decimal
   * comma; reports are data and keep the point. */
  for (char *p = tmp; *p; p++)
    if (*p == ',')
      *p = '.';
  dm_buf_add (b, tmp);
}
