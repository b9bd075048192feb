/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Study plans: the parser of the plan file and of the study's green/red
 * rules. The plan is the profile files' format (dm-profile-file.c): lines
 * of key = value under [sections], # and ; comments, a bad line refused
 * with its number and the reason. Settings go through the same parsers and
 * the same dm_settings_check as the command line's.
 */
#include "dm-study.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dm-platform.h"
#include "dm-profile.h"
#include "dm-text.h"
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

/* "SEQ1M", "rnd4k": a pattern and block without Q and T, into spec. */
static bool
parse_test_word (const char *word, dm_spec *spec)
{
  char full[48];
  if (strchr (word, '_') || strlen (word) > 20)
    return false;
  snprintf (full, sizeof full, "%s_Q1T1", word);
  return dm_spec_parse (full, spec, NULL, 0) == 0;
}

int
dm_study_rule_parse (const char *text, dm_study_rule *out, char *why, size_t why_size)
{
  dm_study_rule r;
  char rest[256];
  size_t o = 0;
  memset (&r, 0, sizeof r);
  if (!text || strlen (text) >= sizeof rest)
    return dm_why (why, why_size, "a threshold of at most %u bytes", (unsigned) sizeof rest - 1);
  /* The pattern-and-block word is taken out here; dm_threshold_parse reads
   * the rest, so the two kinds of rule mean the same words alike. */
  for (const char *p = text; *p;)
    {
      size_t sp = strspn (p, " \t");
      p += sp;
      size_t n = strcspn (p, " \t");
      if (!n)
        break;
      char word[64];
      dm_spec spec;
      if (n < sizeof word)
        {
          memcpy (word, p, n);
          word[n] = '\0';
          if (parse_test_word (word, &spec))
            {
              if (r.has_test)
                return dm_why (why, why_size, "'%s': a threshold names one test", text);
              r.has_test = r.any_qt = true;
              r.pattern = spec.pattern;
              r.block_size = spec.block_size;
              p += n;
              continue;
            }
        }
      if (o)
        rest[o++] = ' ';
      memcpy (rest + o, p, n);
      o += n;
      p += n;
    }
  rest[o] = '\0';
  if (dm_threshold_parse (rest, &r.t, why, why_size) < 0)
    return -EINVAL;
  if (r.t.has_spec)
    {
      if (r.has_test)
        return dm_why (why, why_size, "'%s': a threshold names one test", text);
      r.has_test = true;
      r.pattern = r.t.spec.pattern;
      r.block_size = r.t.spec.block_size;
    }
  *out = r;
  return 0;
}

unsigned
dm_study_rules_at (const dm_study_rule *rules, unsigned n, const dm_spec *tests,
                   unsigned n_tests, unsigned qd, unsigned threads, dm_threshold *out,
                   unsigned max)
{
  (void) tests, (void) n_tests;
  unsigned k = 0;
  for (unsigned i = 0; i < n && k < max; i++)
    {
      dm_threshold t = rules[i].t;
      if (rules[i].any_qt)
        {
          t.has_spec = true;
          t.spec.pattern = rules[i].pattern;
          t.spec.block_size = rules[i].block_size;
          t.spec.queue_depth = (uint16_t) qd;
          t.spec.threads = (uint16_t) threads;
        }
      out[k++] = t;
    }
  return k;
}

/* Calls line_fn for each line of text with its number, comments and
 * blanks taken out; stops at the first error. */
typedef int (*line_fn) (void *user, unsigned line_no, char *line, char *why, size_t ws);

static int
each_line (const char *text, size_t len, line_fn fn, void *user, unsigned *last,
           char *why, size_t why_size)
{
  unsigned line_no = 0;
  size_t pos = 0;
  char inner[320];
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
        return dm_why (why, why_size, "line %u: longer than %u bytes", line_no,
                       (unsigned) sizeof buf - 1);
      memcpy (buf, start, n_line);
      buf[n_line] = '\0';
      if (memchr (buf, '\0', n_line))
        return dm_why (why, why_size, "line %u: holds a NUL byte; this is not a text file",
                       line_no);
      if (!dm_utf8_valid (buf))
        return dm_why (why, why_size, "line %u: is not UTF-8", line_no);
      char *hash = strchr (buf, '#');
      if (hash)
        *hash = '\0';
      char *l = trim (buf);
      if (!*l || *l == ';')
        continue;
      if (fn (user, line_no, l, inner, sizeof inner) < 0)
        return dm_why (why, why_size, "line %u: %s", line_no, inner);
    }
  if (last)
    *last = line_no;
  return 0;
}

typedef struct rules_file {
  dm_study_rule *out;
  unsigned       max, n;
} rules_file;

static int
rule_line (void *user, unsigned line_no, char *l, char *why, size_t ws)
{
  rules_file *f = user;
  (void) line_no;
  if (f->n == f->max)
    return dm_why (why, ws, "more than %u thresholds", f->max);
  if (dm_study_rule_parse (l, &f->out[f->n], why, ws) < 0)
    return -EINVAL;
  f->n++;
  return 0;
}

int
dm_study_rules_load (const char *path, dm_study_rule *out, unsigned max, unsigned *n,
                     char *why, size_t why_size)
{
  char *data = NULL, inner[400];
  size_t len = 0;
  rules_file f = { out, max, *n };
  int err = dm_file_read_all (path, DM_STUDY_FILE_MAX, &data, &len);
  if (err < 0)
    return dm_why (why, why_size, "%s: %s", path,
                   err == -EFBIG ? "larger than a thresholds file can be" : dm_strerror (err));
  err = each_line (data, len, rule_line, &f, NULL, inner, sizeof inner);
  free (data);
  if (err < 0)
    return dm_why (why, why_size, "%s: %s", path, inner);
  *n = f.n;
  return 0;
}

/* --- The plan ------------------------------------------------------------- */

typedef struct parse {
  dm_study_plan *p;
  const char    *dir;
  bool           in_study, seen_study, has_profile, has_modes, has_warmup_steady;
  unsigned       line_no;         /* the line being read */
  unsigned       concurrent_line; /* where concurrent = yes was, for a late reason */
  dm_study_target *target;    /* the [target] section open, or NULL */
} parse;

static int
parse_list (const char *value, unsigned min, unsigned max, unsigned *out, unsigned *n,
            const char *key, char *why, size_t ws)
{
  char copy[256], inner[200];
  if (strlen (value) >= sizeof copy)
    return dm_why (why, ws, "%s: too long a list", key);
  snprintf (copy, sizeof copy, "%s", value);
  *n = 0;
  for (char *save = NULL, *w = strtok_r (copy, ", \t", &save); w;
       w = strtok_r (NULL, ", \t", &save))
    {
      unsigned v;
      if (*n == DM_STUDY_AXIS_MAX)
        return dm_why (why, ws, "%s: at most %u values", key, DM_STUDY_AXIS_MAX);
      if (dm_uint_parse (w, min, max, &v, inner, sizeof inner) < 0)
        return dm_why (why, ws, "%s: '%s' is not a whole number in %u..%u", key, w, min, max);
      for (unsigned i = 0; i < *n; i++)
        if (out[i] == v)
          return dm_why (why, ws, "%s: %u is there twice", key, v);
      out[(*n)++] = v;
    }
  if (!*n)
    return dm_why (why, ws, "%s: no value", key);
  return 0;
}

static void
add_test (dm_study_plan *p, const dm_spec *spec)
{
  for (unsigned i = 0; i < p->n_tests; i++)
    if (p->tests[i].pattern == spec->pattern && p->tests[i].block_size == spec->block_size)
      return;
  if (p->n_tests < DM_STUDY_TESTS_MAX)
    {
      p->tests[p->n_tests] = *spec;
      p->tests[p->n_tests].queue_depth = 1;
      p->tests[p->n_tests].threads = 1;
      p->n_tests++;
    }
}

static int
parse_tests (dm_study_plan *p, const char *value, char *why, size_t ws)
{
  char copy[256];
  if (strlen (value) >= sizeof copy)
    return dm_why (why, ws, "tests: too long a list");
  snprintf (copy, sizeof copy, "%s", value);
  p->n_tests = 0;
  for (char *save = NULL, *w = strtok_r (copy, ", \t", &save); w;
       w = strtok_r (NULL, ", \t", &save))
    {
      dm_spec spec;
      if (!parse_test_word (w, &spec))
        return dm_why (why, ws, "tests: '%s' is not a pattern and block such as SEQ1M or "
                       "RND4K (Q and T come from q and t)", w);
      if (p->n_tests == DM_STUDY_TESTS_MAX)
        return dm_why (why, ws, "tests: at most %u", DM_STUDY_TESTS_MAX);
      unsigned before = p->n_tests;
      add_test (p, &spec);
      if (p->n_tests == before)
        return dm_why (why, ws, "tests: %s is there twice", w);
    }
  if (!p->n_tests)
    return dm_why (why, ws, "tests: no test");
  return 0;
}

static int
add_tag (dm_tag *tags, unsigned *n, const char *value, char *why, size_t ws)
{
  dm_tag tag;
  if (dm_tag_parse (value, &tag, why, ws) < 0)
    return -EINVAL;
  if (!strcmp (tag.key, DM_STUDY_TAG_NAME) || !strcmp (tag.key, DM_STUDY_TAG_TARGET)
      || !strcmp (tag.key, DM_STUDY_TAG_CONCURRENT))
    return dm_why (why, ws, "tag: %s= is the study's own", tag.key);
  if (dm_tags_set (tags, n, DM_TAGS_MAX - 2, &tag) < 0)
    return dm_why (why, ws, "tag: more than %u tags", DM_TAGS_MAX - 2);
  return 0;
}

static bool
path_is_absolute (const char *path)
{
  return path[0] == '/' || path[0] == '\\'
         || (((path[0] | 0x20) >= 'a' && (path[0] | 0x20) <= 'z') && path[1] == ':');
}

static int
study_key (parse *ps, const char *key, const char *value, char *why, size_t ws)
{
  dm_study_plan *p = ps->p;
  char inner[200];
  if (!dm_ascii_casecmp (key, "name"))
    {
      if (!*value)
        return dm_why (why, ws, "name: empty");
      if (strlen (value) > DM_STUDY_NAME_MAX)
        return dm_why (why, ws, "name: at most %u bytes", DM_STUDY_NAME_MAX);
      for (const char *c = value; *c; c++)
        if ((unsigned char) *c < 0x20)
          return dm_why (why, ws, "name: holds a control character");
      snprintf (p->name, sizeof p->name, "%s", value);
      return 0;
    }
  if (!dm_ascii_casecmp (key, "tests"))
    {
      if (ps->has_profile)
        return dm_why (why, ws, "tests: the plan names a profile already; one of the two");
      return parse_tests (p, value, why, ws);
    }
  if (!dm_ascii_casecmp (key, "profile"))
    {
      const dm_profile *prof = dm_profile_find (value);
      unsigned n;
      if (p->n_tests)
        return dm_why (why, ws, "profile: the plan names tests already; one of the two");
      if (!prof)
        return dm_why (why, ws, "profile: no profile '%s' (default, peak, realworld, demo, "
                       "flash)", value);
      const dm_spec *specs = dm_profile_specs (prof, false, &n);
      for (unsigned i = 0; i < n; i++)
        add_test (p, &specs[i]);
      ps->has_profile = true;
      return 0;
    }
  if (!dm_ascii_casecmp (key, "modes"))
    {
      /* "read, write" as a person writes a list; --modes' parser takes
       * the words without the spaces. */
      char words[128];
      size_t k = 0;
      for (const char *c = value; *c && k + 1 < sizeof words; c++)
        if (*c != ' ' && *c != '\t')
          words[k++] = *c;
      words[k] = '\0';
      if (dm_modes_parse (words, &p->modes, inner, sizeof inner) < 0)
        return dm_why (why, ws, "modes: %s", inner);
      ps->has_modes = true;
      return 0;
    }
  if (!dm_ascii_casecmp (key, "q"))
    return parse_list (value, 1, DM_QUEUE_MAX, p->qd, &p->n_qd, "q", why, ws);
  if (!dm_ascii_casecmp (key, "t"))
    return parse_list (value, 1, DM_THREADS_MAX, p->threads, &p->n_threads, "t", why, ws);
  if (!dm_ascii_casecmp (key, "count"))
    {
      if (dm_uint_parse (value, DM_COUNT_MIN, DM_COUNT_MAX, &p->settings.count, inner,
                         sizeof inner) < 0)
        return dm_why (why, ws, "count: '%s' is not a whole number in %u..%u", value,
                       DM_COUNT_MIN, DM_COUNT_MAX);
      return 0;
    }
  if (!dm_ascii_casecmp (key, "size"))
    {
      if (dm_size_parse (value, &p->settings.test_size, inner, sizeof inner) < 0)
        return dm_why (why, ws, "size: %s", inner);
      return 0;
    }
  if (!dm_ascii_casecmp (key, "duration") || !dm_ascii_casecmp (key, "interval"))
    {
      double *d = !dm_ascii_casecmp (key, "duration") ? &p->settings.measure_s
                                                      : &p->settings.interval_s;
      if (dm_duration_parse (value, d, inner, sizeof inner) < 0)
        return dm_why (why, ws, "%s: %s", key, inner);
      return 0;
    }
  if (!dm_ascii_casecmp (key, "warmup"))
    {
      if (!dm_ascii_ncasecmp (value, "steady", 6))
        {
          if (dm_steady_parse (value, &p->settings, inner, sizeof inner) < 0)
            return dm_why (why, ws, "warmup: %s", inner);
          return 0;
        }
      p->settings.warmup_steady = false;
      if (dm_duration_parse (value, &p->settings.warmup_s, inner, sizeof inner) < 0)
        return dm_why (why, ws, "warmup: %s", inner);
      return 0;
    }
  if (!dm_ascii_casecmp (key, "mix-read"))
    {
      if (dm_uint_parse (value, DM_MIX_READ_MIN, DM_MIX_READ_MAX, &p->settings.mix_read_percent,
                         inner, sizeof inner) < 0)
        return dm_why (why, ws, "mix-read: '%s' is not a whole number in %u..%u", value,
                       DM_MIX_READ_MIN, DM_MIX_READ_MAX);
      return 0;
    }
  if (!dm_ascii_casecmp (key, "data"))
    {
      if (dm_data_parse (value, &p->settings.data) < 0)
        return dm_why (why, ws, "data: '%s' is neither random nor zeros", value);
      return 0;
    }
  if (!dm_ascii_casecmp (key, "tag"))
    return add_tag (p->tags, &p->n_tags, value, why, ws);
  if (!dm_ascii_casecmp (key, "concurrent"))
    {
      if (!dm_ascii_casecmp (value, "yes"))
        p->concurrent = true;
      else if (!dm_ascii_casecmp (value, "no"))
        p->concurrent = false;
      else
        return dm_why (why, ws, "concurrent: '%s' is neither yes nor no", value);
      ps->concurrent_line = p->concurrent ? ps->line_no : 0;
      return 0;
    }
  if (!dm_ascii_casecmp (key, "threshold"))
    {
      if (p->n_rules == DM_THRESHOLDS_MAX)
        return dm_why (why, ws, "threshold: more than %u", DM_THRESHOLDS_MAX);
      if (dm_study_rule_parse (value, &p->rules[p->n_rules], inner, sizeof inner) < 0)
        return dm_why (why, ws, "threshold: %s", inner);
      p->n_rules++;
      return 0;
    }
  if (!dm_ascii_casecmp (key, "thresholds"))
    {
      char path[1100], inner2[600];
      if (!*value)
        return dm_why (why, ws, "thresholds: no file named");
      if (!path_is_absolute (value) && ps->dir && ps->dir[0])
        snprintf (path, sizeof path, "%s%c%s", ps->dir, dm_dir_separator (), value);
      else
        snprintf (path, sizeof path, "%s", value);
      if (dm_study_rules_load (path, p->rules, DM_THRESHOLDS_MAX, &p->n_rules, inner2,
                               sizeof inner2) < 0)
        return dm_why (why, ws, "thresholds: %s", inner2);
      return 0;
    }
  return dm_why (why, ws, "'%s' is no key of [study] (name, tests, profile, modes, q, t, "
                 "count, size, duration, warmup, interval, mix-read, data, tag, threshold, "
                 "thresholds, concurrent)", key);
}

static int
target_key (parse *ps, const char *key, const char *value, char *why, size_t ws)
{
  dm_study_target *t = ps->target;
  if (!dm_ascii_casecmp (key, "path"))
    {
      if (!*value)
        return dm_why (why, ws, "path: empty");
      if (!path_is_absolute (value) && ps->dir && ps->dir[0])
        {
          if ((size_t) snprintf (t->path, sizeof t->path, "%s%c%s", ps->dir,
                                 dm_dir_separator (), value) >= sizeof t->path)
            return dm_why (why, ws, "path: too long");
        }
      else if ((size_t) snprintf (t->path, sizeof t->path, "%s", value) >= sizeof t->path)
        return dm_why (why, ws, "path: too long");
      return 0;
    }
  if (!dm_ascii_casecmp (key, "tag"))
    return add_tag (t->tags, &t->n_tags, value, why, ws);
  return dm_why (why, ws, "'%s' is no key of a [target] (path, tag)", key);
}

static int
end_target (parse *ps, char *why, size_t ws)
{
  if (ps->target && !ps->target->path[0])
    return dm_why (why, ws, "[target %s] has no path", ps->target->label);
  return 0;
}

static int
plan_line (void *user, unsigned line_no, char *l, char *why, size_t ws)
{
  parse *ps = user;
  dm_study_plan *p = ps->p;
  ps->line_no = line_no;
  if (*l == '[')
    {
      size_t k = strlen (l);
      if (l[k - 1] != ']')
        return dm_why (why, ws, "a section header ends with ]");
      if (end_target (ps, why, ws) < 0)
        return -EINVAL;
      l[k - 1] = '\0';
      char *name = trim (l + 1);
      ps->target = NULL;
      ps->in_study = false;
      if (!dm_ascii_casecmp (name, "study"))
        {
          if (ps->seen_study)
            return dm_why (why, ws, "[study] is there twice");
          ps->in_study = ps->seen_study = true;
          return 0;
        }
      if (!dm_ascii_casecmp (name, "target"))
        return dm_why (why, ws, "[target] needs a label ([target LSI C:])");
      if (dm_ascii_ncasecmp (name, "target", 6) || (name[6] != ' ' && name[6] != '\t'))
        return dm_why (why, ws, "[%s]: a section is [study] or [target LABEL]", name);
      char *label = trim (name + 6);
      if (!*label)
        return dm_why (why, ws, "[target] needs a label ([target LSI C:])");
      if (strlen (label) > DM_STUDY_LABEL_MAX)
        return dm_why (why, ws, "a target's label has at most %u bytes", DM_STUDY_LABEL_MAX);
      for (unsigned i = 0; i < p->n_targets; i++)
        if (!strcmp (p->targets[i].label, label))
          return dm_why (why, ws, "[target %s] is there twice", label);
      if (p->n_targets == DM_STUDY_TARGETS_MAX)
        return dm_why (why, ws, "more than %u targets", DM_STUDY_TARGETS_MAX);
      ps->target = &p->targets[p->n_targets++];
      snprintf (ps->target->label, sizeof ps->target->label, "%s", label);
      return 0;
    }
  char *eq = strchr (l, '=');
  if (!eq)
    return dm_why (why, ws, "'%s' is neither [section] nor key = value", l);
  if (!ps->in_study && !ps->target)
    return dm_why (why, ws, "'%s' comes before [study] or a [target]", l);
  *eq = '\0';
  char *key = trim (l), *value = trim (eq + 1);
  return ps->target ? target_key (ps, key, value, why, ws) : study_key (ps, key, value, why, ws);
}

int
dm_study_plan_parse (const char *text, size_t len, const char *dir, dm_study_plan *out,
                     char *why, size_t why_size)
{
  dm_study_plan *p = calloc (1, sizeof *p);
  parse ps = { p, dir, false, false, false, false, false, 0, 0, NULL };
  unsigned last = 0;
  char inner[320];
  if (!p)
    return dm_why (why, why_size, "out of memory");
  dm_settings_init (&p->settings);
  p->modes = DM_MODE_BIT (DM_MODE_READ) | DM_MODE_BIT (DM_MODE_WRITE);
  int err = each_line (text, len, plan_line, &ps, &last, why, why_size);
  if (!err && end_target (&ps, inner, sizeof inner) < 0)
    err = dm_why (why, why_size, "line %u: %s", last, inner);
  if (!err)
    {
      const char *missing = !ps.seen_study ? "no [study] section"
                            : !p->name[0]  ? "[study] has no name"
                            : !p->n_tests  ? "[study] names no tests (tests = SEQ1M, RND4K) "
                                             "and no profile"
                            : !p->n_qd     ? "[study] has no q (q = 1, 32)"
                            : !p->n_threads ? "[study] has no t (t = 1, 16)"
                            : !p->n_targets ? "no [target LABEL] section" : NULL;
      if (missing)
        err = dm_why (why, why_size, "%s", missing);
    }
  if (!err && dm_settings_check (&p->settings, inner, sizeof inner) < 0)
    err = dm_why (why, why_size, "%s", inner);
  /* The targets' tests start on one line, which a steady warm-up (each
   * target done when its own figures settle) cannot give: as the CLI's
   * --concurrent. And one folder twice would be one test file's two
   * runners fighting over it. */
  if (!err && p->concurrent && p->settings.warmup_steady)
    err = dm_why (why, why_size, "line %u: concurrent = yes does not go with warmup = steady",
                  ps.concurrent_line);
  for (unsigned i = 0; !err && p->concurrent && i < p->n_targets; i++)
    for (unsigned j = i + 1; !err && j < p->n_targets; j++)
      if (!strcmp (p->targets[i].path, p->targets[j].path))
        err = dm_why (why, why_size, "line %u: concurrent = yes, but [target %s] and "
                      "[target %s] have the same path", ps.concurrent_line,
                      p->targets[i].label, p->targets[j].label);
  if (!err)
    *out = *p;
  free (p);
  return err;
}

int
dm_study_plan_load (const char *path, dm_study_plan *out, char *why, size_t why_size)
{
  char *data = NULL, inner[400], dir[1024];
  size_t len = 0;
  int err = dm_file_read_all (path, DM_STUDY_FILE_MAX, &data, &len);
  if (err < 0)
    return dm_why (why, why_size, "%s: %s", path,
                   err == -EFBIG ? "larger than a study plan can be" : dm_strerror (err));
  /* The plan's folder: a relative thresholds file or path is beside it. */
  snprintf (dir, sizeof dir, "%s", path);
  char *slash = strrchr (dir, '/'), *back = strrchr (dir, '\\');
  if (back && (!slash || back > slash))
    slash = back;
  if (slash)
    *slash = '\0';
  else
    dir[0] = '\0';
  err = dm_study_plan_parse (data, len, dir, out, inner, sizeof inner);
  free (data);
  if (err < 0)
    return dm_why (why, why_size, "%s: %s", path, inner);
  return 0;
}

int
dm_study_plan_add_tags (dm_study_plan *plan, const dm_tag *tags, unsigned n)
{
  for (unsigned i = 0; i < n; i++)
    if (dm_tags_set (plan->tags, &plan->n_tags, DM_TAGS_MAX - 2, &tags[i]) < 0)
      return -E2BIG;
  return 0;
}
