/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The profile file parser: sections and key = value lines, each handed to
 * the one per-key setter that --workload uses, so the two can never mean
 * different things. A bad line is refused with its number and the reason.
 */
#include "dm-profile-file.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dm-platform.h"
#include "dm-units.h"

static char *
trim (char *s)
{
  while (*s == ' ' || *s == '\t')
    s++;
  size_t n = strlen (s);
  while (n && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\r'))
    s[--n] = '\0';
  return s;
}

int
dm_profile_file_parse (const char *text, size_t len, dm_workload *out, unsigned max,
                       unsigned *n, char *why, size_t why_size)
{
  unsigned rows = 0, line_no = 0;
  size_t pos = 0;
  char inner[256];
  bool open = false;

  /* A UTF-8 byte order mark, as Windows editors write one. */
  if (len >= 3 && !memcmp (text, "\xef\xbb\xbf", 3))
    pos = 3;
  while (pos < len)
    {
      const char *start = text + pos;
      const char *nl = memchr (start, '\n', len - pos);
      size_t n_line = nl ? (size_t) (nl - start) : len - pos;
      char buf[1024];
      pos += n_line + (nl ? 1 : 0);
      line_no++;
      if (n_line >= sizeof buf)
        return dm_why (why, why_size, "line %u: longer than %u bytes", line_no, (unsigned) sizeof buf - 1);
      memcpy (buf, start, n_line);
      buf[n_line] = '\0';
      if (memchr (buf, '\0', n_line))
        return dm_why (why, why_size, "line %u: holds a NUL byte; this is not a profile file",
                       line_no);
      char *hash = strchr (buf, '#');
      if (hash)
        *hash = '\0';
      char *l = trim (buf);
      if (!*l || *l == ';')
        continue;
      if (*l == '[')
        {
          if (open && dm_workload_check (&out[rows - 1], inner, sizeof inner) < 0)
            return dm_why (why, why_size, "line %u: %s", line_no, inner);
          size_t k = strlen (l);
          if (l[k - 1] != ']')
            return dm_why (why, why_size, "line %u: a section header ends with ]", line_no);
          l[k - 1] = '\0';
          char *name = trim (l + 1);
          if (rows == max)
            return dm_why (why, why_size, "line %u: more than %u workloads", line_no, max);
          dm_workload_init (&out[rows]);
          if (dm_workload_set (&out[rows], "name", name, inner, sizeof inner) < 0)
            return dm_why (why, why_size, "line %u: %s", line_no, inner);
          for (unsigned i = 0; i < rows; i++)
            if (!strcmp (out[i].name, out[rows].name))
              return dm_why (why, why_size, "line %u: [%s] is there twice", line_no, name);
          rows++;
          open = true;
          continue;
        }
      char *eq = strchr (l, '=');
      if (!eq)
        return dm_why (why, why_size, "line %u: '%s' is neither [name] nor key = value",
                       line_no, l);
      if (!open)
        return dm_why (why, why_size, "line %u: '%s' comes before any [workload] section",
                       line_no, l);
      *eq = '\0';
      char *key = trim (l), *value = trim (eq + 1);
      if (!dm_ascii_casecmp (key, "name"))
        return dm_why (why, why_size, "line %u: a workload's name is its [section]", line_no);
      if (dm_workload_set (&out[rows - 1], key, value, inner, sizeof inner) < 0)
        return dm_why (why, why_size, "line %u: %s", line_no, inner);
    }
  if (!rows)
    return dm_why (why, why_size, "no [workload] section in it");
  if (dm_workload_check (&out[rows - 1], inner, sizeof inner) < 0)
    return dm_why (why, why_size, "line %u: %s", line_no, inner);
  *n = rows;
  return 0;
}

int
dm_profile_file_load (const char *path, dm_workload *out, unsigned max, unsigned *n,
                      char *why, size_t why_size)
{
  char *data = NULL, inner[320];
  size_t len = 0;
  int err = dm_file_read_all (path, DM_PROFILE_FILE_MAX, &data, &len);
  if (err < 0)
    return dm_why (why, why_size, "%s: %s", path,
                   err == -EFBIG ? "larger than a profile file can be" : dm_strerror (err))
           , err;
  err = dm_profile_file_parse (data, len, out, max, n, inner, sizeof inner);
  free (data);
  if (err < 0)
    return dm_why (why, why_size, "%s: %s", path, inner);
  return 0;
}
