/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Recursive-descent JSON parser over an arena. Numbers are read by hand so
 * the process locale (a GUI may use a decimal comma) cannot change them.
 */
#include "dm-json.h"
#include "dm-text.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_DEPTH 64

typedef struct arena_block {
  struct arena_block *prev;
  size_t              used, size;
  _Alignas (16) unsigned char data[];
} arena_block;

typedef struct parser {
  const char  *p, *start, *end;
  arena_block *arena;
  int          depth;
  char        *why;
  size_t       why_size;
  bool         failed;
} parser;

static void *
arena_alloc (parser *ps, size_t n)
{
  n = (n + 15) & ~(size_t) 15;
  arena_block *b = ps->arena;
  if (!b || b->used + n > b->size)
    {
      size_t size = n > 65536 ? n : 65536;
      arena_block *nb = malloc (sizeof *nb + size);
      if (!nb)
        return NULL;
      nb->prev = b;
      nb->used = 0;
      nb->size = size;
      ps->arena = b = nb;
    }
  void *r = b->data + b->used;
  b->used += n;
  return r;
}

static void
arena_free (arena_block *b)
{
  while (b)
    {
      arena_block *prev = b->prev;
      free (b);
      b = prev;
    }
}

static bool
fail (parser *ps, const char *fmt, ...)
{
  if (ps->failed)
    return false;
  ps->failed = true;
  int line = 1, col = 1;
  for (const char *q = ps->start; q < ps->p && q < ps->end; q++)
    {
      if (*q == '\n')
        line++, col = 1;
      else
        col++;
    }
  char msg[160];
  va_list ap;
  va_start (ap, fmt);
  vsnprintf (msg, sizeof msg, fmt, ap);
  va_end (ap);
  /* Whatever was expected, running out of text means the file is cut
   * short, which is the more useful thing to tell. */
  if (ps->p >= ps->end)
    snprintf (msg, sizeof msg, "unexpected end of text");
  snprintf (ps->why, ps->why_size, "line %d, column %d: %s", line, col, msg);
  return false;
}

static void
skip_ws (parser *ps)
{
  while (ps->p < ps->end && (*ps->p == ' ' || *ps->p == '\t' || *ps->p == '\n' || *ps->p == '\r'))
    ps->p++;
}

static bool
literal (parser *ps, const char *word)
{
  size_t n = strlen (word), have = (size_t) (ps->end - ps->p);
  if (have < n && memcmp (ps->p, word, have) == 0)
    {
      ps->p = ps->end;
      return fail (ps, "unexpected end of text");
    }
  if (have < n || memcmp (ps->p, word, n) != 0)
    return fail (ps, "unexpected text");
  ps->p += n;
  return true;
}

static int
hex4 (const char *s)
{
  int v = 0;
  for (int i = 0; i < 4; i++)
    {
      char c = s[i];
      v <<= 4;
      if (c >= '0' && c <= '9')
        v |= c - '0';
      else if (c >= 'a' && c <= 'f')
        v |= c - 'a' + 10;
      else if (c >= 'A' && c <= 'F')
        v |= c - 'A' + 10;
      else
        return -1;
    }
  return v;
}

static char *
put_utf8 (char *o, uint32_t cp)
{
  if (cp < 0x80)
    *o++ = (char) cp;
  else if (cp < 0x800)
    {
      *o++ = (char) (0xc0 | (cp >> 6));
      *o++ = (char) (0x80 | (cp & 0x3f));
    }
  else if (cp < 0x10000)
    {
      *o++ = (char) (0xe0 | (cp >> 12));
      *o++ = (char) (0x80 | ((cp >> 6) & 0x3f));
      *o++ = (char) (0x80 | (cp & 0x3f));
    }
  else
    {
      *o++ = (char) (0xf0 | (cp >> 18));
      *o++ = (char) (0x80 | ((cp >> 12) & 0x3f));
      *o++ = (char) (0x80 | ((cp >> 6) & 0x3f));
      *o++ = (char) (0x80 | (cp & 0x3f));
    }
  return o;
}

static const char *
parse_string (parser *ps)
{
  /* ps->p is at the opening quote. The decoded string is never longer
   * than the source, so one allocation of the source length suffices. */
  const char *q = ++ps->p;
  while (q < ps->end && *q != '"')
    q += (*q == '\\' && q + 1 < ps->end) ? 2 : 1;
  if (q >= ps->end)
    {
      ps->p = ps->end;
      return fail (ps, "unterminated string"), NULL;
    }
  char *out = arena_alloc (ps, (size_t) (q - ps->p) + 1), *o = out;
  if (!out)
    return fail (ps, "out of memory"), NULL;
  while (*ps->p != '"')
    {
      unsigned char c = (unsigned char) *ps->p;
      if (c < 0x20)
        return fail (ps, "control character in a string"), NULL;
      if (c != '\\')
        {
          size_t n = dm_utf8_char_len (ps->p, (size_t) (ps->end - ps->p));
          if (!n)
            return fail (ps, "invalid UTF-8 in a string"), NULL;
          memcpy (o, ps->p, n);
          o += n;
          ps->p += n;
          continue;
        }
      ps->p++;
      switch (*ps->p++)
        {
        case '"': *o++ = '"'; break;
        case '\\': *o++ = '\\'; break;
        case '/': *o++ = '/'; break;
        case 'b': *o++ = '\b'; break;
        case 'f': *o++ = '\f'; break;
        case 'n': *o++ = '\n'; break;
        case 'r': *o++ = '\r'; break;
        case 't': *o++ = '\t'; break;
        case 'u':
          {
            int hi = ps->end - ps->p >= 4 ? hex4 (ps->p) : -1;
            if (hi < 0)
              return fail (ps, "bad \\u escape"), NULL;
            ps->p += 4;
            uint32_t cp = (uint32_t) hi;
            if (hi >= 0xd800 && hi <= 0xdbff)
              {
                int lo = ps->end - ps->p >= 6 && ps->p[0] == '\\' && ps->p[1] == 'u'
                             ? hex4 (ps->p + 2) : -1;
                if (lo < 0xdc00 || lo > 0xdfff)
                  return fail (ps, "unpaired surrogate in \\u escape"), NULL;
                ps->p += 6;
                cp = 0x10000 + (((uint32_t) hi - 0xd800) << 10) + ((uint32_t) lo - 0xdc00);
              }
            else if (hi >= 0xdc00 && hi <= 0xdfff)
              return fail (ps, "unpaired surrogate in \\u escape"), NULL;
            if (cp == 0)
              return fail (ps, "NUL character in a string"), NULL;
            o = put_utf8 (o, cp);
            break;
          }
        default:
          return fail (ps, "bad escape in a string"), NULL;
        }
    }
  ps->p++;
  *o = '\0';
  return out;
}

/* mant * 10^exp10, correctly rounded for the numbers reports hold. Powers
 * of ten up to 1e22 are exact doubles; pow (10, -3) is not exact in every C
 * runtime (MinGW's is one ulp off), so small exponents use the table. */
static double
scale10 (double mant, int exp10)
{
  static const double p10[] = {
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
    1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
  };
  if (exp10 >= 0 && exp10 <= 22)
    return mant * p10[exp10];
  if (exp10 < 0 && exp10 >= -22)
    return mant / p10[-exp10];
  return mant * pow (10.0, exp10);
}

static bool
parse_number (parser *ps, double *out)
{
  const char *s = ps->p;
  double mant = 0;
  int exp10 = 0, digits = 0;
  bool neg = false;
  if (s < ps->end && *s == '-')
    neg = true, s++;
  if (s >= ps->end || *s < '0' || *s > '9')
    return fail (ps, "bad number");
  if (*s == '0' && s + 1 < ps->end && s[1] >= '0' && s[1] <= '9')
    return fail (ps, "number with a leading zero");
  for (; s < ps->end && *s >= '0' && *s <= '9'; s++)
    {
      if (digits < 18)
        mant = mant * 10 + (*s - '0'), digits += mant > 0;
      else
        exp10++;
    }
  if (s < ps->end && *s == '.')
    {
      s++;
      if (s >= ps->end || *s < '0' || *s > '9')
        return fail (ps, "bad number");
      for (; s < ps->end && *s >= '0' && *s <= '9'; s++)
        if (digits < 18)
          mant = mant * 10 + (*s - '0'), exp10--, digits += mant > 0;
    }
  if (s < ps->end && (*s == 'e' || *s == 'E'))
    {
      s++;
      int sign = 1, e = 0;
      if (s < ps->end && (*s == '+' || *s == '-'))
        sign = *s++ == '-' ? -1 : 1;
      if (s >= ps->end || *s < '0' || *s > '9')
        return fail (ps, "bad exponent");
      for (; s < ps->end && *s >= '0' && *s <= '9'; s++)
        if (e < 10000)
          e = e * 10 + (*s - '0');
      exp10 += sign * e;
    }
  double v = scale10 (mant, exp10);
  if (!isfinite (v))
    return fail (ps, "number out of range");
  *out = neg ? -v : v;
  ps->p = s;
  return true;
}

static dm_json *parse_value (parser *ps);

static dm_json *
new_node (parser *ps, dm_json_type type)
{
  dm_json *n = arena_alloc (ps, sizeof *n);
  if (!n)
    return fail (ps, "out of memory"), NULL;
  memset (n, 0, sizeof *n);
  n->type = type;
  return n;
}

static dm_json *
parse_container (parser *ps, bool object)
{
  dm_json *node = new_node (ps, object ? DM_JSON_OBJECT : DM_JSON_ARRAY);
  dm_json **tail;
  if (!node)
    return NULL;
  if (++ps->depth > MAX_DEPTH)
    return fail (ps, "nested more than %d deep", MAX_DEPTH), NULL;
  tail = &node->child;
  ps->p++;
  skip_ws (ps);
  if (ps->p < ps->end && *ps->p == (object ? '}' : ']'))
    {
      ps->p++;
      ps->depth--;
      return node;
    }
  for (;;)
    {
      const char *key = NULL;
      skip_ws (ps);
      if (object)
        {
          if (ps->p >= ps->end || *ps->p != '"')
            return fail (ps, "expected a member name"), NULL;
          if (!(key = parse_string (ps)))
            return NULL;
          skip_ws (ps);
          if (ps->p >= ps->end || *ps->p != ':')
            return fail (ps, "expected ':'"), NULL;
          ps->p++;
        }
      dm_json *v = parse_value (ps);
      if (!v)
        return NULL;
      v->key = key;
      *tail = v;
      tail = &v->next;
      node->n++;
      skip_ws (ps);
      if (ps->p < ps->end && *ps->p == ',')
        {
          ps->p++;
          continue;
        }
      if (ps->p < ps->end && *ps->p == (object ? '}' : ']'))
        {
          ps->p++;
          ps->depth--;
          return node;
        }
      return fail (ps, object ? "expected ',' or '}'" : "expected ',' or ']'"), NULL;
    }
}

static dm_json *
parse_value (parser *ps)
{
  dm_json *n;
  skip_ws (ps);
  if (ps->p >= ps->end)
    return fail (ps, "unexpected end of text"), NULL;
  switch (*ps->p)
    {
    case '{': return parse_container (ps, true);
    case '[': return parse_container (ps, false);
    case '"':
      if (!(n = new_node (ps, DM_JSON_STRING)) || !(n->str = parse_string (ps)))
        return NULL;
      return n;
    case 't':
    case 'f':
      if (!(n = new_node (ps, DM_JSON_BOOL)))
        return NULL;
      n->boolean = *ps->p == 't';
      return literal (ps, n->boolean ? "true" : "false") ? n : NULL;
    case 'n':
      if (!(n = new_node (ps, DM_JSON_NULL)))
        return NULL;
      return literal (ps, "null") ? n : NULL;
    default:
      if (!(n = new_node (ps, DM_JSON_NUMBER)))
        return NULL;
      return parse_number (ps, &n->num) ? n : NULL;
    }
}

int
dm_json_parse (const char *text, size_t len, dm_json_doc *doc, char *why, size_t why_size)
{
  char dummy[8];
  parser ps = { text, text, text + len, NULL, 0, why ? why : dummy,
                why ? why_size : sizeof dummy, false };
  doc->root = NULL;
  doc->arena = NULL;
  /* A UTF-8 byte order mark, as some Windows editors write. */
  if (len >= 3 && !memcmp (text, "\xef\xbb\xbf", 3))
    ps.p += 3;
  dm_json *root = parse_value (&ps);
  if (root)
    {
      skip_ws (&ps);
      if (ps.p != ps.end)
        root = NULL, fail (&ps, "text after the end of the document");
    }
  if (!root)
    {
      arena_free (ps.arena);
      return -EINVAL;
    }
  doc->root = root;
  doc->arena = ps.arena;
  return 0;
}

void
dm_json_free (dm_json_doc *doc)
{
  arena_free (doc->arena);
  doc->arena = NULL;
  doc->root = NULL;
}

const dm_json *
dm_json_get (const dm_json *obj, const char *key)
{
  if (!obj || obj->type != DM_JSON_OBJECT)
    return NULL;
  for (const dm_json *m = obj->child; m; m = m->next)
    if (!strcmp (m->key, key))
      return m;
  return NULL;
}

const char *
dm_json_get_string (const dm_json *obj, const char *key, const char *fallback)
{
  const dm_json *v = dm_json_get (obj, key);
  return v && v->type == DM_JSON_STRING ? v->str : fallback;
}

double
dm_json_get_number (const dm_json *obj, const char *key, double fallback)
{
  const dm_json *v = dm_json_get (obj, key);
  return v && v->type == DM_JSON_NUMBER ? v->num : fallback;
}

bool
dm_json_get_bool (const dm_json *obj, const char *key, bool fallback)
{
  const dm_json *v = dm_json_get (obj, key);
  return v && v->type == DM_JSON_BOOL ? v->boolean : fallback;
}
