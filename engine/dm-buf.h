/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A growable text buffer the report writers print into, so the same text can
 * go to a file, stdout or the clipboard.
 */
#pragma once

#include <stdarg.h>
#include <stddef.h>

typedef struct dm_buf {
  char  *data; /* always NUL terminated once anything was added */
  size_t len;
  size_t cap;
  int    error; /* sticky -ENOMEM */
} dm_buf;

void dm_buf_init (dm_buf *b);
void dm_buf_free (dm_buf *b);
void dm_buf_clear (dm_buf *b);
void dm_buf_add (dm_buf *b, const char *s);
void dm_buf_addn (dm_buf *b, const char *s, size_t n);
void dm_buf_printf (dm_buf *b, const char *fmt, ...) __attribute__ ((format (printf, 2, 3)));
void dm_buf_vprintf (dm_buf *b, const char *fmt, va_list ap);
/* Appends one number with a printf format for a double, always with a '.'
 * decimal point whatever the process locale; non-finite values print as 0. */
void dm_buf_add_double (dm_buf *b, const char *fmt, double v);
/* Appends s as a JSON string literal, quotes included, always valid UTF-8
 * whatever bytes s holds (dm_text_add_json). */
void dm_buf_add_json_string (dm_buf *b, const char *s);
/* Appends s as one CSV field: as a spreadsheet cell shows it
 * (dm_text_add_cell), quoted by RFC 4180 where it holds a comma, a quote
 * or a line break. Every CSV writer's text goes through it. */
void dm_buf_add_csv_field (dm_buf *b, const char *s);
