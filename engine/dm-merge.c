/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The merge of a fleet run's reports. A merge is only meaningful for the
 * same tests with the same settings measured at the same time, so
 * everything else is refused with the offending file named; what remains
 * adds up exactly: figures per host summed, histograms per host added
 * bucket by bucket before any percentile is read. Each report is folded
 * in as it comes and dropped: what stays is a row per host and test, the
 * tests' histograms, and the few bytes that tell a run given twice.
 */
#include "dm-merge.h"
#include "dm-merge-private.h"
#include "dm-text.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dm-latency.h"
#include "dm-schedule.h"
#include "dm-units.h"

/* The first setting in which b differs from a, or NULL. */
static const char *
settings_differ (const dm_settings *a, const dm_settings *b)
{
  if (a->count != b->count)
    return "count";
  if (a->test_size != b->test_size)
    return "test size";
  if (a->measure_s != b->measure_s)
    return "measure time";
  if (a->interval_s != b->interval_s)
    return "interval";
  if (a->warmup_s != b->warmup_s)
    return "warm-up";
  if (a->data != b->data)
    return "data";
  if (a->mix_read_percent != b->mix_read_percent)
    return "Mix read share";
  if (a->buffered != b->buffered)
    return "buffered";
  if (a->write_through != b->write_through)
    return "write-through";
  return NULL;
}

static void
host_figures (const dm_result *res, dm_merge_host *h, dm_histogram *scratch)
{
  double mb = 0, iops = 0;
  for (unsigned k = 0; k < res->n_runs; k++)
    {
      mb += res->runs[k].mb_per_s;
      iops += res->runs[k].iops;
    }
  h->mb_per_s = res->n_runs ? mb / res->n_runs : 0;
  h->iops = res->n_runs ? iops / res->n_runs : 0;
  h->started_ms = res->started_ms;
  dm_histogram_reset (scratch);
  if (res->hist_read)
    dm_histogram_merge (scratch, res->hist_read);
  if (res->hist_write)
    dm_histogram_merge (scratch, res->hist_write);
  dm_latency_from_histogram (&h->latency, scratch);
}

/* min, max and coefficient of variation (population, %) of n values
 * taken every stride bytes. */
static void
spread (const double *v, size_t stride, unsigned n, double *min, double *max, double *cv)
{
  double sum = 0, sq = 0;
  *min = INFINITY;
  *max = -INFINITY;
  for (unsigned i = 0; i < n; i++)
    {
      double x = *(const double *) ((const char *) v + i * stride);
      sum += x;
      sq += x * x;
      if (x < *min)
        *min = x;
      if (x > *max)
        *max = x;
    }
  double mean = sum / n, var = sq / n - mean * mean;
  *cv = mean > 0 ? sqrt (var > 0 ? var : 0) / mean * 100 : 0;
}

/* The span a host measured a result over, in ms: from its schedule if it
 * ran scheduled, else the whole run's (seconds). */
static void
span_of (const dm_report *r, const dm_result *res, bool scheduled, int64_t *a, int64_t *b)
{
  if (scheduled)
    {
      *a = res->started_ms;
      *b = res->started_ms + (int64_t) llround (res->n_runs * r->settings.measure_s * 1000);
    }
  else
    {
      *a = r->started * 1000;
      *b = (r->finished > r->started ? r->finished : r->started + 1) * 1000;
    }
}

/* Where the hosts added so far still share a span of time, and the first
 * that did not, as a merge of them all at once would find it. */
typedef struct overlap {
  int64_t lo, hi;
  long    fail_host; /* -1 while they overlap */
  int64_t fail_at;   /* the start of that host's span */
} overlap;

static void
overlap_add (overlap *o, unsigned h, int64_t a, int64_t b)
{
  if (o->fail_host >= 0)
    return;
  if (h == 0 || a > o->lo)
    o->lo = a;
  if (h == 0 || b < o->hi)
    o->hi = b;
  if (o->lo >= o->hi)
    {
      o->fail_host = h;
      o->fail_at = a;
    }
}

typedef struct merge_test {
  char         name[32];  /* the first host's, as messages give it */
  dm_histogram read;      /* all hosts' reads */
  dm_histogram write;
  overlap      window;    /* of the scheduled runs */
} merge_test;

struct dm_merge_state {
  unsigned       flags;
  bool           refused;
  unsigned       cap;      /* hosts the arrays have room for */
  dm_settings    settings; /* the first host's */
  char           profile_hash[17]; /* the first host's profile of workloads, "" for tests */
  merge_test    *tests;    /* n_rows */
  dm_histogram  *hists;    /* behind rows[].hist, then one to work in */
  overlap        runs;     /* of the whole runs, for unscheduled hosts */
  _dm_merge_pool strings;  /* the hosts' texts and thresholds */
  _dm_merge_pool keys;     /* what tells each run apart, tagged with its host */
  dm_buf         key;      /* the key being made */
};

void
dm_merge_source_of (dm_merge_source *s, const dm_report *r, const char *name)
{
  *s = (dm_merge_source) {
    .name = name,
    .comment = r->comment,
    .profile = r->profile,
    .backend = r->backend,
    .status = r->status,
    .started = r->started,
    .settings = &r->settings,
    .target_path = r->target.path,
    .mount_point = r->target.mount_point,
    .filesystem = r->target.filesystem,
    .device = r->target.device,
    .model = r->target.model,
    .driver = r->target.driver,
    .size_bytes = r->target.size_bytes,
    .os = r->system.os,
    .kernel = r->system.kernel,
    .cpu_model = r->system.cpu_model,
    .logical_cpus = r->system.logical_cpus,
    .memory_bytes = r->system.memory_bytes,
    .thresholds = r->thresholds,
    .n_thresholds = r->n_thresholds,
    .tags = r->tags,
    .n_tags = r->n_tags,
  };
}

int
dm_merge_begin (dm_merge *m, unsigned flags)
{
  memset (m, 0, sizeof *m);
  m->state = calloc (1, sizeof *m->state);
  if (!m->state)
    return -ENOMEM;
  m->state->flags = flags;
  m->state->runs.fail_host = -1;
  m->scheduled = true;
  dm_buf_init (&m->state->key);
  return 0;
}

/* What tells a run from another host's: a report has no run id and no
 * host name, so it is when it ran, its test file's random name, its
 * system, and above all what it measured, which no two hosts repeat byte
 * for byte (on a block device the test file is the device on every host,
 * and a fleet's hosts may start in the same second). false if it cannot
 * equal any other (a figure that is not a number). */
static bool
run_key (const dm_report *r, dm_buf *k)
{
  dm_buf_clear (k);
  dm_buf_addn (k, (const char *) &r->started, sizeof r->started);
  dm_buf_addn (k, (const char *) &r->finished, sizeof r->finished);
  dm_buf_addn (k, r->test_file, strlen (r->test_file) + 1);
  dm_buf_addn (k, r->target.path, strlen (r->target.path) + 1);
  dm_buf_addn (k, r->system.kernel, strlen (r->system.kernel) + 1);
  dm_buf_addn (k, r->system.cpu_model, strlen (r->system.cpu_model) + 1);
  dm_buf_addn (k, (const char *) &r->n_results, sizeof r->n_results);
  for (unsigned i = 0; i < r->n_results; i++)
    {
      const dm_result *x = &r->results[i];
      dm_buf_addn (k, (const char *) &x->started_ms, sizeof x->started_ms);
      dm_buf_addn (k, (const char *) &x->n_runs, sizeof x->n_runs);
      for (unsigned j = 0; j < x->n_runs; j++)
        {
          /* Equal figures, as == sees them: -0 is 0, NaN equals nothing. */
          double mb = x->runs[j].mb_per_s == 0 ? 0 : x->runs[j].mb_per_s;
          if (isnan (mb))
            return false;
          dm_buf_addn (k, (const char *) &x->runs[j].bytes, sizeof x->runs[j].bytes);
          dm_buf_addn (k, (const char *) &x->runs[j].ios, sizeof x->runs[j].ios);
          dm_buf_addn (k, (const char *) &mb, sizeof mb);
        }
    }
  return true;
}

/* The first host's tests become the merge's rows. */
static int
start_rows (dm_merge *m, const dm_report *r)
{
  dm_merge_state *st = m->state;
  st->settings = r->settings;
  memcpy (st->profile_hash, r->profile_hash, sizeof st->profile_hash);
  m->n_rows = r->n_results;
  m->rows = calloc (m->n_rows ? m->n_rows : 1, sizeof *m->rows);
  st->tests = calloc (m->n_rows ? m->n_rows : 1, sizeof *st->tests);
  st->hists = malloc ((m->n_rows + 1) * sizeof *st->hists);
  if (!m->rows || !st->tests || !st->hists)
    return -ENOMEM;
  for (unsigned i = 0; i < m->n_rows; i++)
    {
      dm_merge_row *row = &m->rows[i];
      merge_test *t = &st->tests[i];
      const dm_result *ref = &r->results[i];
      row->spec = ref->spec;
      row->mode = ref->mode;
      row->read_percent = ref->read_percent;
      row->hist = &st->hists[i];
      dm_histogram_reset (row->hist);
      dm_histogram_reset (&t->read);
      dm_histogram_reset (&t->write);
      dm_spec_name (&ref->spec, t->name, sizeof t->name);
      t->window.fail_host = -1;
    }
  return 0;
}

/* Room for one more host in every row. */
static int
reserve_host (dm_merge *m)
{
  dm_merge_state *st = m->state;
  if (m->n_hosts < st->cap)
    return 0;
  unsigned cap = st->cap ? st->cap * 2 : 16;
  dm_merge_source *hosts = realloc (m->hosts, cap * sizeof *hosts);
  if (!hosts)
    return -ENOMEM;
  m->hosts = hosts;
  for (unsigned i = 0; i < m->n_rows; i++)
    {
      dm_merge_host *cells = realloc (m->rows[i].hosts, cap * sizeof *cells);
      if (!cells)
        return -ENOMEM;
      m->rows[i].hosts = cells;
    }
  st->cap = cap;
  return 0;
}

/* The host's texts, stored once in the pool: a kernel or CPU every host
 * shares costs one copy. */
static int
keep_source (dm_merge *m, const dm_report *r, const char *name)
{
  dm_merge_state *st = m->state;
  _dm_merge_pool *p = &st->strings;
  dm_merge_source *s = &m->hosts[m->n_hosts];
  const char **texts[] = { &s->comment, &s->profile, &s->backend, &s->target_path,
                           &s->mount_point, &s->filesystem, &s->device, &s->model,
                           &s->driver, &s->os, &s->kernel, &s->cpu_model };
  unsigned tag;
  dm_merge_source_of (s, r, name);
  s->settings = &st->settings;
  for (unsigned k = 0; k < sizeof texts / sizeof texts[0]; k++)
    if (!(*texts[k] = _dm_merge_pool_string (p, *texts[k])))
      return -ENOMEM;
  s->thresholds = _dm_merge_pool_add (p, r->thresholds, r->n_thresholds * sizeof *r->thresholds,
                                      0, &tag);
  /* The user's tags, a list stored once: a fleet's hosts that share
   * theirs ("site=lab") share one copy. */
  dm_tag tags[DM_TAGS_ALL_MAX];
  s->n_tags = dm_report_user_tags (r, tags);
  s->tags = _dm_merge_pool_add (p, tags, s->n_tags * sizeof *tags, 0, &tag);
  return s->thresholds && s->tags ? 0 : -ENOMEM;
}

/* The first host's tags every other host has with the same value. */
static int
common_tags (dm_merge *m)
{
  const dm_merge_source *first = &m->hosts[0];
  m->n_common_tags = 0;
  if (!first->n_tags)
    return 0;
  m->common_tags = malloc (first->n_tags * sizeof *m->common_tags);
  if (!m->common_tags)
    return -ENOMEM;
  for (unsigned k = 0; k < first->n_tags; k++)
    {
      bool all = true;
      for (unsigned h = 1; h < m->n_hosts && all; h++)
        {
          const char *v = dm_tags_get (m->hosts[h].tags, m->hosts[h].n_tags, first->tags[k].key);
          all = v && !strcmp (v, first->tags[k].value);
        }
      if (all)
        m->common_tags[m->n_common_tags++] = first->tags[k];
    }
  return 0;
}

bool
dm_merge_tag_common (const dm_merge *m, const dm_tag *tag)
{
  const char *v = dm_tags_get (m->common_tags, m->n_common_tags, tag->key);
  return v && !strcmp (v, tag->value);
}

/* The checks a report must pass, in the order a merge of every file at
 * once made them, so the reason given is the same. */
static int
check_host (dm_merge *m, const dm_report *r, const char *name, char *why, size_t why_size)
{
  dm_merge_state *st = m->state;
  const unsigned h = m->n_hosts;
  const char *first = h ? m->hosts[0].name : name;
  const char *diff;
  char name_a[32];

  if (r->status != DM_STATUS_COMPLETE)
    return dm_why (why, why_size, "%s: the run did not complete (%s%s%s)", name,
                   dm_status_name (r->status), r->error[0] ? ": " : "", r->error);
  if (h && !(st->flags & DM_MERGE_ALLOW_PROFILES) && strcmp (st->profile_hash, r->profile_hash))
    return dm_why (why, why_size, "%s: it ran another profile than %s (%s where %s has %s); "
                   "--allow-profiles merges it anyway", name, first,
                   r->profile_hash[0] ? r->profile_hash : "CrystalDiskMark's tests", first,
                   st->profile_hash[0] ? st->profile_hash : "CrystalDiskMark's tests");
  if (h && (diff = settings_differ (&st->settings, &r->settings)))
    return dm_why (why, why_size, "%s: its settings differ from %s's (%s)", name, first, diff);
  if (h && r->n_results != m->n_rows)
    return dm_why (why, why_size, "%s: it has %u tests where %s has %u", name, r->n_results,
                   first, m->n_rows);
  if (!h && start_rows (m, r) < 0)
    return dm_why (why, why_size, "out of memory");
  for (unsigned i = 0; i < r->n_results; i++)
    {
      const dm_result *res = &r->results[i];
      const dm_merge_row *ref = &m->rows[i];
      dm_spec_name (&res->spec, name_a, sizeof name_a);
      if (strcmp (name_a, st->tests[i].name) || res->mode != ref->mode
          || res->read_percent != ref->read_percent)
        return dm_why (why, why_size, "%s: its tests differ from %s's (%s %s where %s has %s %s)",
                       name, first, name_a, dm_mode_name (res->mode), first, st->tests[i].name,
                       dm_mode_name (ref->mode));
      if (res->status != DM_STATUS_COMPLETE || !res->n_runs)
        return dm_why (why, why_size, "%s: %s %s did not complete", name, name_a,
                       dm_mode_name (res->mode));
    }
  if (!(st->flags & DM_MERGE_ALLOW_DUPLICATES) && run_key (r, &st->key))
    {
      unsigned e;
      if (st->key.error
          || !_dm_merge_pool_add (&st->keys, st->key.data, st->key.len, h, &e))
        return dm_why (why, why_size, "out of memory");
      if (e != h)
        {
          char when[40];
          dm_time_format_ms (r->started * 1000, when, sizeof when);
          return dm_why (why, why_size,
                         "%s: the same run as %s (started %s, test file %s), which would count "
                         "one host twice; --allow-duplicates merges it anyway",
                         name, m->hosts[e].name, when, r->test_file[0] ? r->test_file : "unknown");
        }
    }
  return 0;
}

int
dm_merge_add (dm_merge *m, const dm_report *r, const char *name, char *why, size_t why_size)
{
  dm_merge_state *st = m->state;
  const unsigned h = m->n_hosts;

  if (!st || st->refused)
    {
      snprintf (why, why_size, "%s: the merge was already refused", name);
      return -EINVAL;
    }
  if (check_host (m, r, name, why, why_size) < 0)
    {
      st->refused = true;
      return -EINVAL;
    }
  if (reserve_host (m) < 0 || keep_source (m, r, name) < 0)
    {
      st->refused = true;
      return dm_why (why, why_size, "out of memory");
    }

  dm_histogram *scratch = &st->hists[m->n_rows];
  int64_t a, b;
  span_of (r, NULL, false, &a, &b);
  overlap_add (&st->runs, h, a, b);
  for (unsigned i = 0; i < m->n_rows; i++)
    {
      dm_merge_row *row = &m->rows[i];
      merge_test *t = &st->tests[i];
      const dm_result *res = &r->results[i];
      host_figures (res, &row->hosts[h], scratch);
      row->sum_mb_per_s += row->hosts[h].mb_per_s;
      row->sum_iops += row->hosts[h].iops;
      if (res->hist_read)
        dm_histogram_merge (&t->read, res->hist_read);
      if (res->hist_write)
        dm_histogram_merge (&t->write, res->hist_write);
      if (!res->started_ms)
        m->scheduled = false;
      span_of (r, res, true, &a, &b);
      overlap_add (&t->window, h, a, b);
    }
  m->n_hosts++;
  return 0;
}

int
dm_merge_end (dm_merge *m, char *why, size_t why_size)
{
  dm_merge_state *st = m->state;
  char when[40];

  if (!st || st->refused)
    {
      snprintf (why, why_size, "the merge was already refused");
      return -EINVAL;
    }
  st->refused = true; /* until it is complete */
  if (m->n_hosts < 2)
    return dm_why (why, why_size, "merge needs two result files or more");
  if (!m->n_rows)
    return dm_why (why, why_size, "%s: no results", m->hosts[0].name);

  /* The first test whose windows did not overlap, and in it the first
   * file that left none; unscheduled, the first file whose run did. */
  for (unsigned i = 0; i < m->n_rows && m->scheduled; i++)
    {
      const overlap *o = &st->tests[i].window;
      if (o->fail_host < 0)
        continue;
      dm_time_format_ms (o->fail_at, when, sizeof when);
      return dm_why (why, why_size,
                     "%s: its %s %s started at %s and did not overlap the other "
                     "hosts' (were the clocks or --start-at different?)",
                     m->hosts[o->fail_host].name, st->tests[i].name,
                     dm_mode_name (m->rows[i].mode), when);
    }
  if (!m->scheduled && st->runs.fail_host >= 0)
    {
      dm_time_format_ms (st->runs.fail_at, when, sizeof when);
      return dm_why (why, why_size, "%s: its run (from %s) did not overlap the other files' in time",
                     m->hosts[st->runs.fail_host].name, when);
    }

  for (unsigned i = 0; i < m->n_rows; i++)
    {
      dm_merge_row *row = &m->rows[i];
      merge_test *t = &st->tests[i];
      if (m->scheduled)
        {
          row->window_start_ms = t->window.lo;
          row->window_end_ms = t->window.hi;
        }
      dm_histogram_merge (row->hist, &t->read);
      dm_histogram_merge (row->hist, &t->write);
      dm_latency_from_histogram (&row->latency, row->hist);
      if (row->mode == DM_MODE_MIX)
        {
          dm_latency_from_histogram (&row->latency_read, &t->read);
          dm_latency_from_histogram (&row->latency_write, &t->write);
        }
      spread (&row->hosts[0].mb_per_s, sizeof row->hosts[0], m->n_hosts, &row->min_mb_per_s,
              &row->max_mb_per_s, &row->cv_mb_per_s);
      spread (&row->hosts[0].iops, sizeof row->hosts[0], m->n_hosts, &row->min_iops,
              &row->max_iops, &row->cv_iops);
    }
  if (common_tags (m) < 0)
    return dm_why (why, why_size, "out of memory");
  /* What only adding needed goes before the report is written. */
  free (st->tests);
  st->tests = NULL;
  _dm_merge_pool_clear (&st->keys);
  dm_buf_free (&st->key);
  st->refused = false;
  return 0;
}

int
dm_merge_build (dm_merge *m, const dm_report *const *reports, const char *const *names,
                unsigned n, unsigned flags, char *why, size_t why_size)
{
  int err;
  memset (m, 0, sizeof *m);
  if (n < 2)
    return dm_why (why, why_size, "merge needs two result files or more");
  if (dm_merge_begin (m, flags) < 0)
    return dm_why (why, why_size, "out of memory");
  for (unsigned h = 0; h < n; h++)
    if ((err = dm_merge_add (m, reports[h], names[h], why, why_size)) < 0)
      goto out;
  err = dm_merge_end (m, why, why_size);
out:
  if (err < 0)
    dm_merge_clear (m);
  return err;
}

void
dm_merge_clear (dm_merge *m)
{
  dm_merge_state *st = m->state;
  for (unsigned i = 0; i < m->n_rows && m->rows; i++)
    free (m->rows[i].hosts);
  free (m->rows);
  free (m->hosts);
  free (m->common_tags);
  if (st)
    {
      free (st->tests);
      free (st->hists);
      _dm_merge_pool_clear (&st->strings);
      _dm_merge_pool_clear (&st->keys);
      dm_buf_free (&st->key);
      free (st);
    }
  memset (m, 0, sizeof *m);
}
