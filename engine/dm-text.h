/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The text a user or the OS hands Diskmeter (a comment, a path, a device
 * model, an error that names a file) and the one set of rules for writing
 * it: cut only at a UTF-8 character boundary, shown with control
 * characters and bytes that are not UTF-8 escaped, kept byte-exact in JSON
 * (README, "Text in the reports"), and a path shortened in the middle, not
 * a sentence cut before its reason.
 */
#pragma once

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>

#include "dm-buf.h"

/* Length of the valid UTF-8 character at s (at most n bytes), or 0 where s
 * starts no valid character (a stray byte, an overlong form, a surrogate,
 * a value past U+10FFFF, or a character cut short). */
size_t dm_utf8_char_len (const char *s, size_t n);
bool   dm_utf8_valid (const char *s);

/* Copies src into dst of size bytes. Where it does not fit, it is cut at
 * the last character boundary that fits (a byte that is not UTF-8 counts
 * as one character), never inside a character. 0, or -E2BIG if cut. */
int dm_text_copy (char *dst, size_t size, const char *src);

/* Appends s as the text report, CSV and terminal show it: valid text as it
 * is, and as visible escapes what would break a line or drive a terminal:
 * C0 controls and DEL ("\n", "\t", "\x1b"), C1 controls and the Unicode
 * bidirectional overrides ("\u009b", "\u202e"), and each byte that is not
 * UTF-8 ("\xff"). A backslash stays a backslash (Windows paths), so the
 * shown form reads well but is not reversible; the JSON keeps the bytes. */
void dm_text_add_shown (dm_buf *b, const char *s);
/* Appends s as a spreadsheet cell shows it: as shown, but newlines,
 * carriage returns and tabs kept (the workbook's cells). */
void dm_text_add_cell (dm_buf *b, const char *s);
/* The same as dm_text_add_shown into a fixed buffer (cut at a boundary); returns dst. */
const char *dm_text_shown (char *dst, size_t size, const char *s);

/* Appends s as a JSON string literal, quotes included, that is always
 * valid UTF-8: each byte that is not UTF-8 becomes U+FFFD, controls, DEL,
 * C1 and the bidirectional overrides become \uXXXX escapes. */
void dm_text_add_json (dm_buf *b, const char *s);

/* Lowercase hex of every byte of s (the JSON's "KEY_bytes" member). */
void dm_text_add_hex (dm_buf *b, const char *s);
/* Decodes hex into dst (NUL terminated, cut at a boundary like
 * dm_text_copy). 0, or -EINVAL if hex is not an even number of hex digits
 * or encodes a NUL byte. */
int  dm_text_from_hex (char *dst, size_t size, const char *hex);

/* Copies s into dst, at most max bytes long (and fitting dst): if longer,
 * its start and its end joined by "…", each cut at a character boundary,
 * with more of the end kept, where a file's name is. Returns dst. */
const char *dm_text_shorten (char *dst, size_t size, const char *s, size_t max);

/* Formats a sentence that names path into dst so that all of it fits:
 * where the whole would not, every place path appears in it is shortened
 * in the middle (dm_text_shorten) instead of the end of the sentence, the
 * reason, being cut. 0, or -E2BIG if even so it had to be cut. */
int dm_text_say (char *dst, size_t size, const char *path, const char *fmt, ...)
  __attribute__ ((format (printf, 4, 5)));
int dm_text_vsay (char *dst, size_t size, const char *path, const char *fmt, va_list ap)
  __attribute__ ((format (printf, 4, 0)));
