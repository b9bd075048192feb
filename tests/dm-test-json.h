/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A strict JSON reader written for the tests, so that a report any JSON
 * tool would choke on fails: RFC 8259's grammar exactly (no trailing
 * comma, no NaN, no lone surrogate, no overlong UTF-8, no duplicate
 * member), numbers converted by hand whatever the process locale, and a
 * member found by a dotted path. tests/test-report.c checks the reader
 * itself (/engine/report/json-validator). A header like tests/dm-test.h.
 */
#pragma once

#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef enum { J_NULL, J_BOOL, J_NUM, J_STR, J_ARR, J_OBJ } jtype;

typedef struct jval {
  jtype        type;
  bool         boolean;
  double       num;
  char        *str;   /* decoded string */
  char        *key;   /* member name inside an object */
  struct jval *kids;  /* array elements or object members */
  size_t       n_kids;
} jval;

typedef struct {
  const char *p;
  const char *start;
  const char *err;
  int         depth;
} jparser;

static bool jparse_value (jparser *ps, jval *out);

static bool json_quiet; /* while feeding the validator bad JSON on purpose */

static bool
jfail (jparser *ps, const char *what)
{
  if (!ps->err && !json_quiet)
    {
      ps->err = what;
      fprintf (stderr, "JSON: %s at byte %ld: \"%.30s\"\n", what, (long) (ps->p - ps->start),
               ps->p);
    }
  return false;
}

static void
jskip (jparser *ps)
{
  while (*ps->p == ' ' || *ps->p == '\t' || *ps->p == '\n' || *ps->p == '\r')
    ps->p++;
}

static void
jfree (jval *v)
{
  for (size_t i = 0; i < v->n_kids; i++)
    jfree (&v->kids[i]);
  free (v->kids);
  free (v->str);
  free (v->key);
  memset (v, 0, sizeof *v);
}

static int
hexval (char c)
{
  if (c >= '0' && c <= '9')
    return c - '0';
  if (c >= 'a' && c <= 'f')
    return c - 'a' + 10;
  if (c >= 'A' && c <= 'F')
    return c - 'A' + 10;
  return -1;
}

static bool
read_hex4 (jparser *ps, unsigned *out)
{
  unsigned v = 0;
  for (int i = 0; i < 4; i++)
    {
      int h = hexval (ps->p[i]);
      if (h < 0)
        return jfail (ps, "bad \\u escape");
      v = v * 16 + (unsigned) h;
    }
  ps->p += 4;
  *out = v;
  return true;
}

static size_t
put_utf8 (char *o, unsigned c)
{
  if (c < 0x80)
    return o[0] = (char) c, 1;
  if (c < 0x800)
    return o[0] = (char) (0xc0 | (c >> 6)), o[1] = (char) (0x80 | (c & 0x3f)), 2;
  if (c < 0x10000)
    return o[0] = (char) (0xe0 | (c >> 12)), o[1] = (char) (0x80 | ((c >> 6) & 0x3f)),
           o[2] = (char) (0x80 | (c & 0x3f)), 3;
  o[0] = (char) (0xf0 | (c >> 18));
  o[1] = (char) (0x80 | ((c >> 12) & 0x3f));
  o[2] = (char) (0x80 | ((c >> 6) & 0x3f));
  o[3] = (char) (0x80 | (c & 0x3f));
  return 4;
}

/* Length of the well-formed UTF-8 sequence at p (no overlongs, no
 * surrogates, nothing past U+10FFFF), or 0. */
static size_t
utf8_len (const unsigned char *p)
{
  unsigned c;
  size_t n;
  if (p[0] < 0x80)
    return 1;
  else if (p[0] >= 0xc2 && p[0] <= 0xdf)
    n = 2, c = p[0] & 0x1f;
  else if (p[0] >= 0xe0 && p[0] <= 0xef)
    n = 3, c = p[0] & 0x0f;
  else if (p[0] >= 0xf0 && p[0] <= 0xf4)
    n = 4, c = p[0] & 0x07;
  else
    return 0;
  for (size_t i = 1; i < n; i++)
    {
      if ((p[i] & 0xc0) != 0x80)
        return 0;
      c = (c << 6) | (p[i] & 0x3f);
    }
  if ((n == 3 && c < 0x800) || (n == 4 && (c < 0x10000 || c > 0x10ffff))
      || (c >= 0xd800 && c <= 0xdfff))
    return 0;
  return n;
}

static bool
jparse_string (jparser *ps, char **out)
{
  if (*ps->p != '"')
    return jfail (ps, "expected a string");
  ps->p++;
  /* Decoding never makes a string longer than its escaped form. */
  const char *end = ps->p;
  while (*end && *end != '"')
    end += (*end == '\\' && end[1]) ? 2 : 1;
  char *s = malloc ((size_t) (end - ps->p) + 1), *o = s;
  if (!s)
    return jfail (ps, "out of memory");
  for (;;)
    {
      unsigned char c = (unsigned char) *ps->p;
      if (c == '"')
        break;
      if (c < 0x20)
        {
          free (s);
          return jfail (ps, c ? "raw control character in a string" : "unterminated string");
        }
      if (c != '\\')
        {
          size_t n = utf8_len ((const unsigned char *) ps->p);
          if (!n)
            {
              free (s);
              return jfail (ps, "invalid UTF-8");
            }
          memcpy (o, ps->p, n);
          o += n;
          ps->p += n;
          continue;
        }
      ps->p++;
      char e = *ps->p++;
      switch (e)
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
            unsigned cp, lo;
            if (!read_hex4 (ps, &cp))
              {
                free (s);
                return false;
              }
            if (cp >= 0xdc00 && cp <= 0xdfff)
              {
                free (s);
                return jfail (ps, "lone low surrogate");
              }
            if (cp >= 0xd800 && cp <= 0xdbff)
              {
                if (ps->p[0] != '\\' || ps->p[1] != 'u')
                  {
                    free (s);
                    return jfail (ps, "lone high surrogate");
                  }
                ps->p += 2;
                if (!read_hex4 (ps, &lo) || lo < 0xdc00 || lo > 0xdfff)
                  {
                    free (s);
                    return jfail (ps, "bad surrogate pair");
                  }
                cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
              }
            if (cp == 0)
              {
                free (s);
                return jfail (ps, "NUL in a string");
              }
            o += put_utf8 (o, cp);
            break;
          }
        default:
          free (s);
          return jfail (ps, "bad escape");
        }
    }
  ps->p++;
  *o = '\0';
  *out = s;
  return true;
}

/* JSON's number grammar exactly, converted by hand so the process locale
 * cannot change what is read. */
static bool
jparse_number (jparser *ps, double *out)
{
  const char *p = ps->p;
  double sign = 1, v = 0;
  int exp10 = 0;
  if (*p == '-')
    sign = -1, p++;
  if (*p == '0')
    p++;
  else if (*p >= '1' && *p <= '9')
    while (*p >= '0' && *p <= '9')
      v = v * 10 + (*p++ - '0');
  else
    return jfail (ps, "bad number");
  if (*p == '.')
    {
      p++;
      if (!(*p >= '0' && *p <= '9'))
        return jfail (ps, "no digits after the decimal point");
      while (*p >= '0' && *p <= '9')
        {
          v = v * 10 + (*p++ - '0');
          exp10--;
        }
    }
  if (*p == 'e' || *p == 'E')
    {
      int esign = 1, e = 0;
      p++;
      if (*p == '+' || *p == '-')
        esign = *p++ == '-' ? -1 : 1;
      if (!(*p >= '0' && *p <= '9'))
        return jfail (ps, "no digits in the exponent");
      while (*p >= '0' && *p <= '9')
        {
          if (e < 10000)
            e = e * 10 + (*p - '0');
          p++;
        }
      exp10 += esign * e;
    }
  ps->p = p;
  *out = sign * v * pow (10, exp10);
  return true;
}

static bool
jpush (jparser *ps, jval *parent, jval *kid)
{
  jval *k = realloc (parent->kids, (parent->n_kids + 1) * sizeof *k);
  if (!k)
    return jfail (ps, "out of memory");
  parent->kids = k;
  parent->kids[parent->n_kids++] = *kid;
  return true;
}

static bool
jparse_container (jparser *ps, jval *out, bool object)
{
  char close = object ? '}' : ']';
  out->type = object ? J_OBJ : J_ARR;
  if (++ps->depth > 64)
    return jfail (ps, "nested too deep");
  ps->p++;
  jskip (ps);
  if (*ps->p == close)
    {
      ps->p++;
      ps->depth--;
      return true;
    }
  for (;;)
    {
      jval kid = { 0 };
      jskip (ps);
      if (object)
        {
          if (!jparse_string (ps, &kid.key))
            return false;
          for (size_t i = 0; i < out->n_kids; i++)
            if (!strcmp (out->kids[i].key, kid.key))
              {
                free (kid.key);
                return jfail (ps, "duplicate key");
              }
          jskip (ps);
          if (*ps->p != ':')
            {
              free (kid.key);
              return jfail (ps, "expected ':'");
            }
          ps->p++;
        }
      if (!jparse_value (ps, &kid) || !jpush (ps, out, &kid))
        {
          jfree (&kid);
          return false;
        }
      jskip (ps);
      if (*ps->p == ',')
        {
          ps->p++;
          continue;
        }
      if (*ps->p == close)
        {
          ps->p++;
          ps->depth--;
          return true;
        }
      return jfail (ps, object ? "expected ',' or '}'" : "expected ',' or ']'");
    }
}

static bool
jparse_value (jparser *ps, jval *out)
{
  jskip (ps);
  switch (*ps->p)
    {
    case '{': return jparse_container (ps, out, true);
    case '[': return jparse_container (ps, out, false);
    case '"':
      out->type = J_STR;
      return jparse_string (ps, &out->str);
    case 't':
    case 'f':
    case 'n':
      {
        static const char *const words[] = { "true", "false", "null" };
        for (int i = 0; i < 3; i++)
          if (!strncmp (ps->p, words[i], strlen (words[i])))
            {
              ps->p += strlen (words[i]);
              out->type = i == 2 ? J_NULL : J_BOOL;
              out->boolean = i == 0;
              return true;
            }
        return jfail (ps, "bad literal");
      }
    default:
      out->type = J_NUM;
      return jparse_number (ps, &out->num);
    }
}

/* The whole text must be exactly one JSON value. */
static bool
jparse (const char *text, jval *root)
{
  jparser ps = { text, text, NULL, 0 };
  memset (root, 0, sizeof *root);
  if (!jparse_value (&ps, root))
    {
      jfree (root);
      return false;
    }
  jskip (&ps);
  if (*ps.p)
    {
      jfail (&ps, "text after the value");
      jfree (root);
      return false;
    }
  return true;
}

/* Member by a dotted path, "target.path". */
static const jval *
jget (const jval *v, const char *path)
{
  char part[64];
  while (v && *path)
    {
      size_t n = strcspn (path, ".");
      if (n >= sizeof part || v->type != J_OBJ)
        return NULL;
      memcpy (part, path, n);
      part[n] = '\0';
      path += n + (path[n] == '.');
      const jval *found = NULL;
      for (size_t i = 0; i < v->n_kids; i++)
        if (!strcmp (v->kids[i].key, part))
          found = &v->kids[i];
      v = found;
    }
  return v;
}
