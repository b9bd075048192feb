/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Test names in CrystalDiskMark's form, {SEQ|RND}{size}_Q{n}T{n}, both ways,
 * and the labels the grid and the saved text use for them.
 */
#include "dm-spec.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "dm-units.h"

static const char *
read_uint (const char *p, uint64_t *out)
{
  uint64_t v = 0;
  const char *start = p;
  while (*p >= '0' && *p <= '9' && p - start < 9)
    v = v * 10 + (uint64_t) (*p++ - '0');
  if (p == start || (*p >= '0' && *p <= '9'))
    return NULL;
  *out = v;
  return p;
}

int
dm_spec_parse (const char *text, dm_spec *out, char *why, size_t why_size)
{
  static const char form[] = "use {SEQ|RND}{size}_Q{n}T{n}, e.g. SEQ1M_Q8T1 or RND4K_Q32T16";
  dm_spec s = { 0 };
  const char *p = text;
  uint64_t size, q, t;

  if (!p)
    return dm_why (why, why_size, "no test name given (%s)", form);
  if (!dm_ascii_ncasecmp (p, "SEQ", 3))
    s.pattern = DM_SEQ;
  else if (!dm_ascii_ncasecmp (p, "RND", 3))
    s.pattern = DM_RND;
  else
    return dm_why (why, why_size, "'%s' is not a test name (%s)", text, form);
  p += 3;
  if (!(p = read_uint (p, &size)))
    return dm_why (why, why_size, "'%s' has no block size (%s)", text, form);
  switch (*p)
    {
    case 'K': case 'k': size <<= 10; p++; break;
    case 'M': case 'm': size <<= 20; p++; break;
    default: return dm_why (why, why_size, "'%s' needs K or M after the block size (%s)", text, form);
    }
  if (*p == 'i' || *p == 'I')
    p++;
  if (*p == 'B' || *p == 'b')
    p++;
  if (*p++ != '_' || (*p != 'Q' && *p != 'q'))
    return dm_why (why, why_size, "'%s' is not a test name (%s)", text, form);
  p++;
  if (!(p = read_uint (p, &q)) || (*p != 'T' && *p != 't'))
    return dm_why (why, why_size, "'%s' has no queue depth (%s)", text, form);
  p++;
  if (!(p = read_uint (p, &t)) || *p)
    return dm_why (why, why_size, "'%s' has no thread count (%s)", text, form);
  if (size < DM_BLOCK_MIN || size > DM_BLOCK_MAX || (size & (size - 1)))
    return dm_why (why, why_size, "'%s': block size must be a power of two from 4KiB to 8MiB", text);
  if (q < 1 || q > DM_QUEUE_MAX)
    return dm_why (why, why_size, "'%s': queue depth must be 1 to %d", text, DM_QUEUE_MAX);
  if (t < 1 || t > DM_THREADS_MAX)
    return dm_why (why, why_size, "'%s': threads must be 1 to %d", text, DM_THREADS_MAX);
  s.block_size = (uint32_t) size;
  s.queue_depth = (uint16_t) q;
  s.threads = (uint16_t) t;
  *out = s;
  return 0;
}

void
dm_block_short (uint32_t block_size, char *buf, size_t size)
{
  if (block_size >= (1u << 20) && block_size % (1u << 20) == 0)
    snprintf (buf, size, "%uM", block_size >> 20);
  else
    snprintf (buf, size, "%uK", block_size >> 10);
}

static const char *
pattern_name (dm_pattern p)
{
  return p == DM_SEQ ? "SEQ" : "RND";
}

void
dm_spec_name (const dm_spec *spec, char *buf, size_t size)
{
  char b[16];
  dm_block_short (spec->block_size, b, sizeof b);
  snprintf (buf, size, "%s%s_Q%uT%u", pattern_name (spec->pattern), b,
            (unsigned) spec->queue_depth, (unsigned) spec->threads);
}

void
dm_spec_label (const dm_spec *spec, char *buf, size_t size)
{
  char b[16];
  dm_block_short (spec->block_size, b, sizeof b);
  snprintf (buf, size, "%s%s / Q%uT%u", pattern_name (spec->pattern), b,
            (unsigned) spec->queue_depth, (unsigned) spec->threads);
}

void
dm_spec_text_label (const dm_spec *spec, char *buf, size_t size)
{
  char b[16];
  dm_block_short (spec->block_size, b, sizeof b);
  strcat (b, "iB");
  snprintf (buf, size, "%s %7s (Q=%3u, T=%2u)", pattern_name (spec->pattern), b,
            (unsigned) spec->queue_depth, (unsigned) spec->threads);
}

bool
dm_spec_equal (const dm_spec *a, const dm_spec *b)
{
  return a->pattern == b->pattern && a->block_size == b->block_size
         && a->queue_depth == b->queue_depth && a->threads == b->threads;
}

static const char *const mode_names[DM_N_MODES] = { "read", "write", "mix" };
static const char *const mode_titles[DM_N_MODES] = { "Read", "Write", "Mix" };

const char *
dm_mode_name (dm_mode mode)
{
  return mode < DM_N_MODES ? mode_names[mode] : "?";
}

const char *
dm_mode_title (dm_mode mode)
{
  return mode < DM_N_MODES ? mode_titles[mode] : "?";
}

int
dm_mode_parse (const char *text, dm_mode *out)
{
  for (int m = 0; m < DM_N_MODES; m++)
    if (!dm_ascii_casecmp (text, mode_names[m]))
      {
        *out = (dm_mode) m;
        return 0;
      }
  return -EINVAL;
}

int
dm_modes_parse (const char *text, unsigned *mask, char *why, size_t why_size)
{
  unsigned m = 0;
  const char *p = text;
  while (p && *p)
    {
      const char *end = strchr (p, ',');
      size_t n = end ? (size_t) (end - p) : strlen (p);
      char word[16];
      dm_mode mode;
      if (n == 0 || n >= sizeof word)
        return dm_why (why, why_size, "'%s' is not a list of read, write, mix", text);
      memcpy (word, p, n);
      word[n] = '\0';
      if (dm_mode_parse (word, &mode) < 0)
        return dm_why (why, why_size, "'%s' is not a mode (read, write or mix)", word);
      m |= DM_MODE_BIT (mode);
      p = end ? end + 1 : NULL;
    }
  if (!m)
    return dm_why (why, why_size, "no mode given (read, write, mix)");
  *mask = m;
  return 0;
}
