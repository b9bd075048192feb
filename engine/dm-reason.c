/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A stored English reason back to the sentence it was made from, and that
 * sentence's translation with the same names in it. The engine keeps
 * English in every report; only what a person reads is translated, here,
 * by matching the reason against the sentences the engine says. Each
 * "%s" (or %llu) of a sentence stands for any text, and a translation may
 * take them in another order ("%2$s").
 */
#include "dm-reason.h"

#include <stdbool.h>
#include <string.h>

#include "dm-buf.h"
#include "dm-gettext.h"
#include "dm-text.h"

/* Marks a sentence for xgettext (po/meson.build), translated at run time. */
#define R_(s) s

/* The engine's sentences, as dm-testfile.c and the CLI's checks before a
 * sustained run make them; the longer of two that share a start first. */
static const char *const sentences[] = {
  R_ ("not enough free space in %s for a %s test file: with the %s kept free for the "
      "filesystem's own use it needs %s, and %s is free"),
  R_ ("not enough free space in %s for a %s test file"),
  R_ ("not enough free space in %s: %s free, and %s of it stays free"),
  R_ ("%s does not exist"),
  R_ ("%s is neither a folder nor a block device"),
  R_ ("%s is on a read-only filesystem (%s)"),
  R_ ("%s refuses unbuffered I/O (O_DIRECT)"),
  R_ ("%s is too small to test"),
  R_ ("writing to %s would destroy the data on it; run read tests only, or pass "
      "--destroy-data-on %s to allow it"),
  R_ ("%s leads to %s, inside the system folder %s; a test file there is refused unless you "
      "give %s itself"),
  R_ ("the %s filesystem at %s refuses unbuffered I/O (O_DIRECT); --buffered runs anyway, "
      "with every result marked cached"),
  R_ ("no permission to create a file in %s"),
  R_ ("cannot use %s: %s"),
  R_ ("cannot open %s: %s"),
  R_ ("cannot create a test file in %s: %s"),
  R_ ("cannot reserve %s in %s: %s"),
  R_ ("writing the test file failed at %s: %s"),
  R_ ("flushing the test file failed: %s"),
  R_ ("out of memory for a %llu byte buffer"),
  R_ ("the sustained test writes only into a test file in a folder; --mode read measures "
      "the device %s"),
  R_ ("%s (%s) was left by an earlier run that crashed; it is not ours to delete"),
};

enum { MAX_ARGS = 8 };

typedef struct {
  const char *start[MAX_ARGS];
  size_t      len[MAX_ARGS];
  unsigned    n;
} captures;

/* The length of the conversion at fmt ("%s", "%llu", "%2$s"), 0 if none. */
static size_t
conversion (const char *fmt)
{
  size_t i = 1;
  if (fmt[0] != '%' || fmt[1] == '%')
    return 0;
  while (fmt[i] && strchr ("0123456789$.-+ #hlzjt", fmt[i]))
    i++;
  return fmt[i] ? i + 1 : 0;
}

/* Whether text matches fmt to its end, each conversion any text (the
 * shortest that lets the rest match). */
static bool
match (const char *fmt, const char *text, captures *c)
{
  for (;;)
    {
      size_t conv = conversion (fmt);
      if (conv)
        {
          unsigned k = c->n++;
          if (k >= MAX_ARGS)
            return false;
          for (const char *end = text;; end++)
            {
              c->start[k] = text;
              c->len[k] = (size_t) (end - text);
              if (end > text && match (fmt + conv, end, c))
                return true;
              c->n = k + 1;
              if (!*end)
                break;
            }
          c->n = k;
          return false;
        }
      if (fmt[0] == '%' && fmt[1] == '%')
        fmt++;
      if (*fmt != *text)
        return false;
      if (!*fmt)
        return true;
      fmt++;
      text++;
    }
}

const char *
dm_reason_shown (const char *english, char *buf, size_t size)
{
  if (!english || !size)
    return english;
  for (size_t i = 0; i < sizeof sentences / sizeof sentences[0]; i++)
    {
      captures c = { .n = 0 };
      const char *translated = dm_gettext (sentences[i]);
      unsigned next = 0;
      dm_buf out;

      if (translated == sentences[i] || !strcmp (translated, sentences[i]))
        continue;
      if (!match (sentences[i], english, &c))
        continue;
      dm_buf_init (&out);
      for (const char *p = translated; *p;)
        {
          size_t conv = conversion (p);
          if (!conv)
            {
              p += p[0] == '%' && p[1] == '%' ? 1 : 0;
              dm_buf_addn (&out, p, 1);
              p++;
              continue;
            }
          /* "%2$s" names its argument; a plain "%s" takes the next. */
          unsigned k = next++;
          if (p[1] >= '1' && p[1] <= '9' && p[2] == '$')
            k = (unsigned) (p[1] - '1');
          if (k < c.n)
            dm_buf_addn (&out, c.start[k], c.len[k]);
          p += conv;
        }
      if (out.error || !out.data)
        {
          dm_buf_free (&out);
          return english;
        }
      dm_text_copy (buf, size, out.data);
      dm_buf_free (&out);
      return buf;
    }
  return english;
}
