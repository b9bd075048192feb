/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The option table's parser and help writer (see dm-cli-opt-table.h). Values
 * are checked here by their kind and range, so a setter only ever sees a
 * number, size or duration that fits; what a value means is the setter's.
 */
#include "dm-cli-opt-table.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "dm-cli-suggest.h"
#include "dm-i18n.h"
#include "dm-units.h"

/* Index of text among the '|'-separated words, any case, or -1. */
static int
choice_index (const char *choices, const char *text)
{
  const char *p = choices;
  size_t len = strlen (text);
  for (int i = 0; p && *p; i++)
    {
      const char *end = strchr (p, '|');
      size_t n = end ? (size_t) (end - p) : strlen (p);
      if (n == len && !dm_ascii_ncasecmp (p, text, n))
        return i;
      p = end ? end + 1 : NULL;
    }
  return -1;
}

/* "text, json or csv" from "text|json|csv". */
static void
choices_text (const char *choices, char *buf, size_t size)
{
  const char *p = choices;
  buf[0] = '\0';
  while (p && *p)
    {
      const char *end = strchr (p, '|');
      size_t n = end ? (size_t) (end - p) : strlen (p), used = strlen (buf);
      snprintf (buf + used, size - used, "%s%.*s", !used ? "" : end ? ", " : " or ", (int) n, p);
      p = end ? end + 1 : NULL;
    }
}

void
dm_opt_range_text (const dm_opt *o, char *buf, size_t size)
{
  char a[32], b[32];
  buf[0] = '\0';
  if (o->max <= 0)
    return;
  switch (o->kind)
    {
    case DM_OPT_UINT: snprintf (buf, size, "%.0f..%.0f", o->min, o->max); break;
    case DM_OPT_LIST: snprintf (buf, size, _("each %.0f..%.0f"), o->min, o->max); break;
    case DM_OPT_SECONDS: snprintf (buf, size, "%g..%g s", o->min, o->max); break;
    case DM_OPT_SIZE:
      dm_size_format ((uint64_t) o->min, a, sizeof a);
      dm_size_format ((uint64_t) o->max, b, sizeof b);
      snprintf (buf, size, "%s..%s", a, b);
      break;
    default: break;
    }
}

const dm_opt *
dm_opt_find (const dm_opt *table, size_t n, unsigned command, const char *name, size_t len)
{
  for (size_t k = 0; k < n; k++)
    if ((table[k].commands & command) && strlen (table[k].name) == len
        && !strncmp (table[k].name, name, len))
      return &table[k];
  return NULL;
}

int
dm_opt_check (const dm_opt *o, dm_opt_value *v, char *why, size_t ws)
{
  char inner[200], a[32], b[32];
  const char *t = v->text;
  int err;

  v->choice = -1;
  switch (o->kind)
    {
    case DM_OPT_FLAG:
    case DM_OPT_STRING:
    case DM_OPT_LIST:
      return 0;
    case DM_OPT_PATH:
      if (!*t)
        return dm_why (why, ws, _ ("--%s needs a non-empty %s"), o->name, o->arg ? o->arg : "value");
      return 0;
    case DM_OPT_UINT:
      err = dm_uint_parse (t, (unsigned) o->min, (unsigned) o->max, &v->u, inner, sizeof inner);
      break;
    case DM_OPT_CHOICE:
      v->choice = choice_index (o->choices, t);
      if (v->choice < 0 && !(o->flags & DM_OPT_ALIASES))
        {
          choices_text (o->choices, inner, sizeof inner);
          return dm_why (why, ws, _ ("--%s: '%.200s' is not %s"), o->name, t, inner);
        }
      return 0;
    case DM_OPT_SIZE:
      if (o->choices && (v->choice = choice_index (o->choices, t)) >= 0)
        return 0;
      err = dm_size_parse (t, &v->size, inner, sizeof inner);
      if (err < 0)
        break;
      dm_size_format ((uint64_t) o->min, a, sizeof a);
      dm_size_format ((uint64_t) o->max, b, sizeof b);
      if ((o->flags & DM_OPT_POW2)
          && (v->size < o->min || v->size > o->max || (v->size & (v->size - 1))))
        return dm_why (why, ws, _ ("--%s: '%.200s' is not a power of two from %s to %s"), o->name, t,
                       a, b);
      if (v->size < o->min || v->size > o->max)
        return dm_why (why, ws, _ ("--%s: '%.200s' is out of range (%s to %s)"), o->name, t, a, b);
      if (o->step && v->size % o->step)
        {
          dm_size_format (o->step, a, sizeof a);
          return dm_why (why, ws, _ ("--%s: '%.200s' is not a whole number of %s"), o->name, t,
                         a[0] == '1' ? a + 1 : a);
        }
      return 0;
    case DM_OPT_SECONDS:
      /* A word of choices, alone or with ":more" that the setter reads
       * (--warmup steady:10:60); the duration is then none. */
      if (o->choices)
        {
          const char *colon = strchr (t, ':');
          size_t n = colon ? (size_t) (colon - t) : strlen (t);
          char word[32];
          if (n < sizeof word)
            {
              memcpy (word, t, n);
              word[n] = '\0';
              if ((v->choice = choice_index (o->choices, word)) >= 0)
                {
                  v->seconds = -1;
                  return 0;
                }
            }
        }
      err = dm_duration_parse (t, &v->seconds, inner, sizeof inner);
      /* Decimal input such as 0.1 may land a hair off the bound. */
      if (!err && o->max > 0 && !(v->seconds >= o->min - 1e-9 && v->seconds <= o->max + 1e-9))
        return dm_why (why, ws, _ ("--%s: '%.200s' is out of range (%g to %g seconds)"), o->name, t,
                       o->min, o->max);
      if (!err && (v->seconds < 0 || !isfinite (v->seconds)))
        return dm_why (why, ws, _ ("--%s: '%.200s' is not a duration"), o->name, t);
      break;
    default:
      return dm_why (why, ws, _ ("--%s: unknown kind of value"), o->name);
    }
  if (err < 0)
    return dm_why (why, ws, _ ("--%s: %s"), o->name, inner);
  return 0;
}

int
dm_opt_parse (const dm_opt_parser *p, int argc, char **argv, char *why, size_t ws)
{
  bool only_args = false;

  for (int i = 1; i < argc; i++)
    {
      const char *arg = argv[i];
      const dm_opt *o = NULL;
      dm_opt_value v;
      int err;

      if (only_args || arg[0] != '-' || !strcmp (arg, "-"))
        {
          if ((err = p->arg (p->user, arg, why, ws)) < 0)
            return err;
          continue;
        }
      if (!strcmp (arg, "--"))
        {
          only_args = true;
          continue;
        }
      memset (&v, 0, sizeof v);
      if (arg[1] != '-')
        {
          /* -q: the short names in the table, alone. */
          for (size_t k = 0; arg[1] && !arg[2] && k < p->n_table; k++)
            if (p->table[k].short_name == arg[1] && (p->table[k].commands & p->command))
              o = &p->table[k];
          if (!o)
            return dm_why (why, ws, _ ("unknown option '%.200s'"), arg);
        }
      else
        {
          const char *name = arg + 2, *eq = strchr (name, '=');
          size_t len = eq ? (size_t) (eq - name) : strlen (name);
          o = dm_opt_find (p->table, p->n_table, p->command, name, len);
          if (!o && dm_opt_find (p->table, p->n_table, ~0u, name, len))
            return dm_why (why, ws, _ ("--%.*s is not an option of %s (see %s --help)"), (int) len,
                           name, p->who, p->who);
          if (!o)
            return dm_cli_unknown_option (p, name, len, why, ws);
          if (eq && o->kind == DM_OPT_FLAG)
            return dm_why (why, ws, _ ("--%s takes no value"), o->name);
          v.text = eq ? eq + 1 : NULL;
        }
      if (o->kind != DM_OPT_FLAG && !v.text)
        {
          /* The next argument is the value, even one that starts with a
           * dash: --comment "-fast disk" is a comment. */
          if (i + 1 >= argc)
            return dm_why (why, ws, _ ("--%s needs a value"), o->name);
          v.text = argv[++i];
        }
      if ((err = dm_opt_check (o, &v, why, ws)) < 0)
        return err;
      if ((err = p->set (p->user, o, &v, why, ws)) < 0)
        return err;
    }
  return 0;
}

/* ---- wrapping by the columns a terminal shows ----------------------------- */

/* The code point at p and its length in bytes. A byte that does not start
 * a well-formed sequence counts as one character of its own, so a broken
 * string still wraps instead of being cut inside a sequence. */
static unsigned
utf8_next (const char *p, uint32_t *cp)
{
  const unsigned char *s = (const unsigned char *) p;
  unsigned n = s[0] < 0xc0 ? 1 : s[0] < 0xe0 ? 2 : s[0] < 0xf0 ? 3 : 4;
  uint32_t c = n == 1 ? s[0] : s[0] & (0x7fu >> n);
  for (unsigned i = 1; i < n; i++)
    {
      if ((s[i] & 0xc0) != 0x80)
        {
          *cp = s[0];
          return 1;
        }
      c = c << 6 | (s[i] & 0x3f);
    }
  *cp = c;
  return n;
}

/* East Asian wide and full-width characters take two columns (kanji, kana,
 * hangul, full-width punctuation), the rest one: enough for the languages
 * --help is translated into. Counting bytes instead made German lines
 * short and Japanese ones half again as wide as the terminal. */
static bool
is_wide (uint32_t c)
{
  return (c >= 0x1100 && c <= 0x115f) || (c >= 0x2e80 && c <= 0x303e)
         || (c >= 0x3041 && c <= 0x33ff) || (c >= 0x3400 && c <= 0x4dbf)
         || (c >= 0x4e00 && c <= 0x9fff) || (c >= 0xa000 && c <= 0xa4cf)
         || (c >= 0xac00 && c <= 0xd7a3) || (c >= 0xf900 && c <= 0xfaff)
         || (c >= 0xfe30 && c <= 0xfe4f) || (c >= 0xff00 && c <= 0xff60)
         || (c >= 0xffe0 && c <= 0xffe6) || (c >= 0x20000 && c <= 0x3fffd);
}

static bool
in_list (uint32_t c, const uint32_t *list, size_t n)
{
  for (size_t i = 0; i < n; i++)
    if (list[i] == c)
      return true;
  return false;
}

/* Japanese and Chinese text breaks between any two characters, except that
 * a line never starts with a closing mark nor ends with an opening one. */
static bool
may_break_between (uint32_t before, uint32_t after)
{
  static const uint32_t closing[] = { ',', '.', ':', ';', ')', ']', '!', '?', '%',
                                      0x3001, 0x3002, 0x300d, 0x300f, 0x3011, 0x3015,
                                      0x30fb, 0x30fc, 0xff01, 0xff09, 0xff0c, 0xff0e,
                                      0xff1a, 0xff1b, 0xff1f };
  static const uint32_t opening[] = { '(', '[', 0x300c, 0x300e, 0x3010, 0x3014, 0xff08 };
  return (is_wide (before) || is_wide (after))
         && !in_list (after, closing, sizeof closing / sizeof closing[0])
         && !in_list (before, opening, sizeof opening / sizeof opening[0]);
}

void
dm_opt_wrap (dm_buf *out, const char *text, int first, int indent)
{
  int col = first;
  bool line_start = true;
  uint32_t last = 0;
  for (const char *p = text; *p;)
    {
      bool space = false, newline = false;
      while (*p == ' ' || *p == '\n')
        {
          space |= *p == ' ';
          newline |= *p == '\n';
          p++;
        }
      if (!*p)
        break;
      /* A line break of the text is a space between words, and nothing
       * between Japanese or Chinese characters. */
      uint32_t next;
      utf8_next (p, &next);
      if (newline && !space)
        space = !(is_wide (last) && is_wide (next));
      /* The next piece no line may break inside: up to a space, or to a
       * place where a wide character allows a break. */
      const char *end = p;
      int width = 0;
      uint32_t prev = 0;
      while (*end && *end != ' ' && *end != '\n')
        {
          uint32_t c;
          unsigned n = utf8_next (end, &c);
          if (end > p && may_break_between (prev, c))
            break;
          width += is_wide (c) ? 2 : 1;
          prev = c;
          end += n;
        }
      if (!line_start && col + (space ? 1 : 0) + width > 79)
        {
          dm_buf_printf (out, "\n%*s", indent, "");
          col = indent;
          line_start = true;
        }
      if (!line_start && space)
        {
          dm_buf_add (out, " ");
          col++;
        }
      dm_buf_addn (out, p, (size_t) (end - p));
      last = prev;
      col += width;
      line_start = false;
      p = end;
    }
}

/* The column where option texts begin, as in most GNU tools' --help. */
#define HELP_COLUMN 24

static void
write_option (const dm_opt *o, dm_buf *out)
{
  char left[128], range[64], text[512];
  size_t used;

  if (o->short_name)
    snprintf (left, sizeof left, "  -%c, --%s", o->short_name, o->name);
  else
    snprintf (left, sizeof left, "  --%s", o->name);
  used = strlen (left);
  if (o->kind != DM_OPT_FLAG)
    snprintf (left + used, sizeof left - used, "=%s",
              o->kind == DM_OPT_CHOICE || !o->arg ? o->choices : o->arg);

  dm_opt_range_text (o, range, sizeof range);
  snprintf (text, sizeof text, "%s", _(o->help));
  if (range[0] || o->def || (o->flags & DM_OPT_REPEAT))
    {
      /* A default in words ("the profile's") is translated; one the user
       * would type ("text", "4KiB") is not. */
      const char *def = o->def && strchr (o->def, ' ') ? _(o->def) : o->def;
      used = strlen (text);
      snprintf (text + used, sizeof text - used, " (%s%s%s%s%s%s)", range,
                range[0] && def ? ", " : "", def ? _("default: ") : "", def ? def : "",
                (range[0] || def) && (o->flags & DM_OPT_REPEAT) ? ", " : "",
                o->flags & DM_OPT_REPEAT ? _("repeatable") : "");
    }

  dm_buf_add (out, left);
  if ((int) strlen (left) > HELP_COLUMN - 2)
    dm_buf_printf (out, "\n%*s", HELP_COLUMN, "");
  else
    dm_buf_printf (out, "%*s", HELP_COLUMN - (int) strlen (left), "");
  dm_opt_wrap (out, text, HELP_COLUMN, HELP_COLUMN);
  dm_buf_add (out, "\n");
}

void
dm_opt_write_help (const dm_opt *table, size_t n, unsigned command, dm_buf *out)
{
  for (size_t g = 0; g < n; g++)
    {
      /* Each heading once, where the first of its rows is. */
      bool seen = false;
      if (!(table[g].commands & command))
        continue;
      for (size_t k = 0; k < g && !seen; k++)
        seen = (table[k].commands & command) && !strcmp (table[k].group, table[g].group);
      if (seen)
        continue;
      dm_buf_printf (out, "%s:\n", _(table[g].group));
      for (size_t k = g; k < n; k++)
        if ((table[k].commands & command) && !strcmp (table[k].group, table[g].group))
          write_option (&table[k], out);
    }
}
