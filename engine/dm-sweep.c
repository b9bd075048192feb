/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Sweep plans, their bounds and order, and the analysis that finds a disk's
 * knee. The measuring is the runner's: a sweep is a report whose results are
 * the QD x T combinations, so every figure is taken exactly as in the grid.
 */
#include "dm-sweep.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dm-json.h"
#include "dm-sweep-cap.h"
#include "dm-units.h"
#include "dm-text.h"

void
dm_sweep_plan_init (dm_sweep_plan *p)
{
  memset (p, 0, sizeof *p);
  p->pattern = DM_RND;
  p->block_size = 4096;
  p->mode = DM_MODE_READ;
  for (unsigned q = 1; q <= 256; q *= 2)
    p->queue_depths[p->n_queue_depths++] = q;
  for (unsigned t = 1; t <= 16; t *= 2)
    p->threads[p->n_threads++] = t;
}

static int
cmp_unsigned (const void *a, const void *b)
{
  unsigned x = *(const unsigned *) a, y = *(const unsigned *) b;
  return x < y ? -1 : x > y;
}

int
dm_sweep_list_parse (const char *text, unsigned min, unsigned max, unsigned *out, unsigned *n,
                     char *why, size_t why_size)
{
  const char *p = text;
  unsigned count = 0;
  if (!text || !*text)
    return dm_why (why, why_size, "an empty list");
  while (p)
    {
      const char *end = strchr (p, ',');
      size_t len = end ? (size_t) (end - p) : strlen (p);
      char word[32], inner[160];
      if (len == 0 || len >= sizeof word)
        return dm_why (why, why_size, "'%s' is not a list of numbers like 1,2,4,8", text);
      memcpy (word, p, len);
      word[len] = '\0';
      unsigned v;
      if (dm_uint_parse (word, min, max, &v, inner, sizeof inner) < 0)
        return dm_why (why, why_size, "%s", inner);
      bool seen = false;
      for (unsigned i = 0; i < count; i++)
        seen |= out[i] == v;
      if (!seen)
        {
          if (count == DM_SWEEP_MAX_LIST)
            return dm_why (why, why_size, "at most %d values", DM_SWEEP_MAX_LIST);
          out[count++] = v;
        }
      p = end ? end + 1 : NULL;
    }
  qsort (out, count, sizeof *out, cmp_unsigned);
  *n = count;
  return 0;
}

static int
cmp_load (const void *a, const void *b)
{
  const dm_spec *x = a, *y = b;
  unsigned lx = (unsigned) x->queue_depth * x->threads, ly = (unsigned) y->queue_depth * y->threads;
  if (lx != ly)
    return lx < ly ? -1 : 1;
  return x->threads < y->threads ? -1 : x->threads > y->threads;
}

int
dm_sweep_report_init (dm_report *r, const dm_sweep_plan *p, const dm_settings *s,
                      unsigned logical_cpus, char *note, size_t note_size,
                      char *why, size_t why_size)
{
  dm_spec specs[DM_SWEEP_MAX_LIST * DM_SWEEP_MAX_LIST];
  unsigned n = 0, total = 0;
  unsigned drop_cpu = 0, drop_inflight = 0, drop_memory = 0, drop_size = 0;
  unsigned max_threads = DM_SWEEP_CPU_FACTOR * (logical_cpus ? logical_cpus : 1);
  char bs[16];

  memset (r, 0, sizeof *r);
  if (note && note_size)
    note[0] = '\0';
  if (p->block_size < DM_BLOCK_MIN || p->block_size > DM_BLOCK_MAX
      || (p->block_size & (p->block_size - 1)))
    return dm_why (why, why_size, "the block size must be a power of two from 4KiB to 8MiB");
  if (!p->n_queue_depths || !p->n_threads
      || p->n_queue_depths > DM_SWEEP_MAX_LIST || p->n_threads > DM_SWEEP_MAX_LIST)
    return dm_why (why, why_size, "a sweep needs 1 to %d queue depths and thread counts",
                   DM_SWEEP_MAX_LIST);
  if (p->mode >= DM_N_MODES)
    return dm_why (why, why_size, "the mode must be read, write or mix");

  for (unsigned i = 0; i < p->n_queue_depths; i++)
    for (unsigned k = 0; k < p->n_threads; k++)
      {
        unsigned qd = p->queue_depths[i], t = p->threads[k];
        total++;
        if (qd < 1 || qd > DM_QUEUE_MAX || t < 1 || t > DM_THREADS_MAX)
          return dm_why (why, why_size, "queue depths must be 1..%d and threads 1..%d",
                         DM_QUEUE_MAX, DM_THREADS_MAX);
        /* More threads than the CPUs can run measure the scheduler, and
         * more I/O in flight or buffer memory than this measures the
         * machine's memory, not the disk. */
        if (t > max_threads)
          drop_cpu++;
        else if ((uint64_t) qd * t > DM_SWEEP_MAX_INFLIGHT)
          drop_inflight++;
        else if ((uint64_t) qd * t * p->block_size > DM_SWEEP_MAX_BUFFERS)
          drop_memory++;
        else if ((uint64_t) p->block_size * t > s->test_size)
          drop_size++;
        else
          specs[n++] = (dm_spec) { p->pattern, p->block_size, (uint16_t) qd, (uint16_t) t };
      }

  dm_block_short (p->block_size, bs, sizeof bs);
  char reasons[400];
  reasons[0] = '\0';
  size_t used = 0;
#define REASON(count, ...)                                                                  \
  if (count && used < sizeof reasons)                                                      \
    {                                                                                      \
      used += (size_t) snprintf (reasons + used, sizeof reasons - used, "%s%u ",            \
                                 used ? "; " : "", count);                                 \
      if (used < sizeof reasons)                                                           \
        used += (size_t) snprintf (reasons + used, sizeof reasons - used, __VA_ARGS__);    \
    }
  REASON (drop_cpu, "with more than %u threads (%u x %u logical CPUs)", max_threads,
          DM_SWEEP_CPU_FACTOR, logical_cpus ? logical_cpus : 1);
  REASON (drop_inflight, "with more than %d I/Os in flight (QD x T)", DM_SWEEP_MAX_INFLIGHT);
  REASON (drop_memory, "needing more than 1 GiB of %s buffers (QD x T x block)", bs);
  REASON (drop_size, "with more threads than %s blocks fit in the test size", bs);
#undef REASON

  if (!n)
    return dm_why (why, why_size, "no combination can run here: %s", reasons);
  if (n < total && note && note_size)
    snprintf (note, note_size, "left out %u of %u combinations: %s", total - n, total, reasons);

  qsort (specs, n, sizeof *specs, cmp_load);
  int err = dm_report_init (r, s, specs, n, DM_MODE_BIT (p->mode));
  if (err < 0)
    {
      dm_why (why, why_size, "%s", err == -ENOMEM ? "out of memory" : "nothing to run");
      return err;
    }
  snprintf (r->profile, sizeof r->profile, "sweep");
  return 0;
}

double
dm_sweep_estimate_seconds (const dm_report *r)
{
  const dm_settings *s = &r->settings;
  if (!r->n_results)
    return 0;
  return r->n_results * (s->warmup_s + s->count * s->measure_s)
         + (r->n_results - 1) * s->interval_s;
}

static void
add_sorted (unsigned *list, unsigned *n, unsigned v)
{
  unsigned i = 0;
  while (i < *n && list[i] < v)
    i++;
  if (i < *n && list[i] == v)
    return;
  if (*n == DM_SWEEP_MAX_LIST)
    return;
  memmove (list + i + 1, list + i, (*n - i) * sizeof *list);
  list[i] = v;
  (*n)++;
}

void
dm_sweep_axes (const dm_report *r, unsigned *qds, unsigned *n_qds, unsigned *threads,
               unsigned *n_threads)
{
  *n_qds = *n_threads = 0;
  for (unsigned i = 0; i < r->n_results; i++)
    {
      add_sorted (qds, n_qds, r->results[i].spec.queue_depth);
      add_sorted (threads, n_threads, r->results[i].spec.threads);
    }
}

int
dm_sweep_find (const dm_report *r, unsigned queue_depth, unsigned threads)
{
  for (unsigned i = 0; i < r->n_results; i++)
    if (r->results[i].spec.queue_depth == queue_depth && r->results[i].spec.threads == threads)
      return (int) i;
  return -1;
}

static bool
usable (const dm_result *res)
{
  return res->status == DM_STATUS_COMPLETE && res->mb_per_s > 0;
}

static unsigned
load_of (const dm_result *res)
{
  return (unsigned) res->spec.queue_depth * res->spec.threads;
}

/* The knee and the best load are judged on figures as saved, so a saved
 * sweep read back (show, the window's Open) finds the same ones: figures
 * timed between completions differ in the sixth digit where a throttle
 * makes loads equal, and a choice made on that digit would not survive the
 * file. */
#define as_saved dm_figure_as_saved

typedef struct point {
  int      index;
  unsigned load;
  double   tput;
  double   p99;
  double   mean;
} point;

/* Latency rises from a to b by its tail or by its mean. Past saturation
 * Little's law makes the mean grow with every I/O added in flight, while
 * p99 can sit on a device's periodic stalls (a throttle's 100 ms slices)
 * and stay flat; either one growing is the cost of the extra load. */
static bool
latency_rises (const point *a, const point *b)
{
  return b->p99 > a->p99 || b->mean > a->mean;
}

static int
cmp_point (const void *a, const void *b)
{
  const point *x = a, *y = b;
  return x->load < y->load ? -1 : x->load > y->load;
}

int
dm_sweep_knee (const dm_report *r, int *index)
{
  point *pts = calloc (r->n_results ? r->n_results : 1, sizeof *pts);
  unsigned m = 0;
  int err = -ENOENT;
  if (!pts)
    return -ENOMEM;

  /* One point per load: where several QD x T give the same number of I/Os
   * in flight, the best of them shows what that load can do. */
  for (unsigned i = 0; i < r->n_results; i++)
    {
      const dm_result *res = &r->results[i];
      if (!usable (res))
        continue;
      unsigned k;
      for (k = 0; k < m && pts[k].load != load_of (res); k++)
        ;
      if (k == m)
        m++;
      else if (as_saved (res->mb_per_s) < pts[k].tput
               || (as_saved (res->mb_per_s) == pts[k].tput
                   && res->spec.threads >= r->results[pts[k].index].spec.threads))
        continue;
      pts[k] = (point) { (int) i, load_of (res), as_saved (res->mb_per_s),
                         as_saved (res->latency.p99), as_saved (res->latency.mean) };
    }
  qsort (pts, m, sizeof *pts, cmp_point);

  /* The whole rest of the curve is compared, not just the next step, so a
   * noisy dip followed by real gains is not taken for the knee. */
  for (unsigned i = 0; i + 1 < m; i++)
    {
      double best_after = 0;
      for (unsigned j = i + 1; j < m; j++)
        best_after = fmax (best_after, pts[j].tput);
      if (best_after >= pts[i].tput * (1 + DM_SWEEP_KNEE_GAIN))
        continue;
      if (latency_rises (&pts[i], &pts[i + 1]) && latency_rises (&pts[i], &pts[m - 1]))
        {
          *index = pts[i].index;
          err = 0;
        }
      break;
    }
  free (pts);
  return err;
}

int
dm_sweep_best_under (const dm_report *r, double bound_us, int *index)
{
  int best = -1;
  if (!(bound_us > 0))
    return -ENOENT;
  for (unsigned i = 0; i < r->n_results; i++)
    {
      const dm_result *res = &r->results[i];
      if (!usable (res) || as_saved (res->latency.p99) > bound_us)
        continue;
      double tput = as_saved (res->mb_per_s), best_tput = best < 0 ? 0
                                                 : as_saved (r->results[best].mb_per_s);
      if (best < 0 || tput > best_tput
          || (tput == best_tput
              && load_of (res) < load_of (&r->results[best])))
        best = (int) i;
    }
  if (best < 0)
    return -ENOENT;
  *index = best;
  return 0;
}

/* ---- writers ------------------------------------------------------------ */

static void
json_list (dm_buf *b, const char *key, const unsigned *v, unsigned n)
{
  dm_buf_printf (b, ",\n    \"%s\": [", key);
  for (unsigned i = 0; i < n; i++)
    dm_buf_printf (b, "%s%u", i ? ", " : "", v[i]);
  dm_buf_add (b, "]");
}

static void
json_point (dm_buf *b, const char *key, const dm_report *r, int err, int index)
{
  dm_buf_printf (b, ",\n    \"%s\": ", key);
  if (err < 0)
    {
      dm_buf_add (b, "null");
      return;
    }
  const dm_result *res = &r->results[index];
  dm_buf_printf (b, "{\"queue_depth\": %u, \"threads\": %u, \"mb_per_s\": ",
                 res->spec.queue_depth, res->spec.threads);
  dm_buf_add_double (b, "%.3f", res->mb_per_s);
  dm_buf_add (b, ", \"iops\": ");
  dm_buf_add_double (b, "%.3f", res->iops);
  dm_buf_add (b, ", \"p99_latency_us\": ");
  dm_buf_add_double (b, "%.3f", res->latency.p99);
  dm_buf_add (b, "}");
}

/* A JSON array of counts into list; entries that are no count in
 * [1, 65535] are left out, as a hand-edited file may have them. */
static unsigned
json_counts (const dm_json *array, unsigned *list)
{
  unsigned n = 0;
  if (!array || array->type != DM_JSON_ARRAY)
    return 0;
  for (const dm_json *e = array->child; e && n < DM_SWEEP_MAX_LIST; e = e->next)
    if (e->type == DM_JSON_NUMBER && e->num >= 1 && e->num <= 65535 && e->num == (unsigned) e->num)
      list[n++] = (unsigned) e->num;
  return n;
}

int
dm_sweep_plan_from_json (const dm_report *r, const char *text, size_t len, dm_sweep_plan *p)
{
  dm_json_doc doc = { 0 };
  char why[128];
  const dm_json *sweep;

  dm_sweep_plan_init (p);
  if (!r->n_results || dm_json_parse (text, len, &doc, why, sizeof why) < 0)
    return -ENOENT;
  sweep = dm_json_get (doc.root, "sweep");
  if (!sweep || sweep->type != DM_JSON_OBJECT)
    {
      dm_json_free (&doc);
      return -ENOENT;
    }
  p->pattern = r->results[0].spec.pattern;
  p->block_size = r->results[0].spec.block_size;
  p->mode = r->results[0].mode;
  double bound = dm_json_get_number (sweep, "latency_bound_us", 0);
  p->latency_bound_us = bound > 0 && bound < 1e12 ? bound : 0;
  const char *kind = dm_json_get_string (sweep, "kind", "qd");
  if (!strcmp (kind, "blocks") || !strcmp (kind, "rates"))
    {
      /* The sizes and modes as measured; the load is every result's. */
      p->kind = kind[0] == 'b' ? DM_SWEEP_BLOCKS : DM_SWEEP_RATES;
      p->n_blocks = dm_sweep_blocks_of (r, p->blocks, &p->modes);
      p->n_queue_depths = p->n_threads = 1;
      p->queue_depths[0] = r->results[0].spec.queue_depth;
      p->threads[0] = r->results[0].spec.threads;
      p->workload = r->results[0].workload;
      p->workload.rate_unit = DM_RATE_NONE;
      p->workload.rate = 0;
      dm_json_free (&doc);
      return 0;
    }
  p->n_queue_depths = json_counts (dm_json_get (sweep, "queue_depths"), p->queue_depths);
  p->n_threads = json_counts (dm_json_get (sweep, "threads"), p->threads);
  /* Lists lost to an edit come back from what was measured. */
  if (!p->n_queue_depths || !p->n_threads)
    dm_sweep_axes (r, p->queue_depths, &p->n_queue_depths, p->threads, &p->n_threads);
  dm_json_free (&doc);
  return 0;
}

void
dm_sweep_write_json (const dm_report *r, const dm_sweep_plan *p, dm_buf *b)
{
  unsigned qds[DM_SWEEP_MAX_LIST], ts[DM_SWEEP_MAX_LIST], n_qds, n_ts;
  int knee_index = -1, best_index = -1;
  double bound = p ? p->latency_bound_us : 0;

  /* The sweep member goes into the report's object, so readers of plain
   * reports read a sweep report as one. */
  if (!dm_report_write_json_open (r, b))
    return;
  dm_sweep_kind kind = p ? p->kind : dm_sweep_kind_of (r);
  if (kind == DM_SWEEP_BLOCKS)
    {
      dm_sweep_blocks_write_json (r, p, b);
      return;
    }
  if (kind == DM_SWEEP_RATES)
    {
      dm_sweep_curve_write_json (r, p, b);
      return;
    }

  if (p)
    {
      memcpy (qds, p->queue_depths, sizeof qds);
      memcpy (ts, p->threads, sizeof ts);
      n_qds = p->n_queue_depths;
      n_ts = p->n_threads;
    }
  else
    dm_sweep_axes (r, qds, &n_qds, ts, &n_ts);

  dm_buf_add (b, ",\n  \"sweep\": {\n    \"pattern\": ");
  dm_buf_add_json_string (b, r->n_results && r->results[0].spec.pattern == DM_SEQ ? "SEQ" : "RND");
  json_list (b, "queue_depths", qds, n_qds);
  json_list (b, "threads", ts, n_ts);
  dm_buf_add (b, ",\n    \"latency_bound_us\": ");
  if (bound > 0)
    dm_buf_add_double (b, "%.3f", bound);
  else
    dm_buf_add (b, "null");
  int knee_err = dm_sweep_knee (r, &knee_index);
  int best_err = dm_sweep_best_under (r, bound, &best_index);
  json_point (b, "knee", r, knee_err, knee_index);
  json_point (b, "best_under_bound", r, best_err, best_index);
  dm_sweep_cap cap;
  dm_sweep_cap_find (r, &cap);
  dm_sweep_cap_write_json (&cap, r, b);
  dm_buf_add (b, "\n  }\n}\n");
}

void
dm_sweep_write_csv (const dm_report *r, dm_buf *b)
{
  dm_sweep_kind kind = dm_sweep_kind_of (r);
  if (kind == DM_SWEEP_BLOCKS)
    {
      dm_sweep_blocks_write_csv (r, b);
      return;
    }
  if (kind == DM_SWEEP_RATES)
    {
      dm_sweep_curve_write_csv (r, b);
      return;
    }
  dm_buf_add (b, "qd,threads,mb_per_s,iops,mean_latency_us,p99_latency_us,cpu_percent,status");
  dm_report_csv_tags_header (r, b);
  dm_buf_add (b, "\n");
  for (unsigned i = 0; i < r->n_results; i++)
    {
      const dm_result *res = &r->results[i];
      bool figures = res->status == DM_STATUS_COMPLETE;
      const double v[] = { res->mb_per_s, res->iops, res->latency.mean, res->latency.p99,
                           res->cpu_percent };
      dm_buf_printf (b, "%u,%u", res->spec.queue_depth, res->spec.threads);
      for (unsigned k = 0; k < sizeof v / sizeof v[0]; k++)
        {
          dm_buf_add (b, ",");
          /* An empty cell, not a zero, for a combination without figures,
           * so a spreadsheet's averages and charts leave it out. */
          if (figures)
            dm_buf_add_double (b, "%.3f", v[k]);
        }
      dm_buf_printf (b, ",%s", dm_status_name (res->status));
      dm_report_csv_tags_fields (r, b);
      dm_buf_add (b, "\n");
    }
}

typedef enum { CELL_MBPS, CELL_IOPS, CELL_P99 } cell_kind;

static void
table (dm_buf *b, const dm_report *r, const char *title, cell_kind kind, int mark)
{
  unsigned qds[DM_SWEEP_MAX_LIST], ts[DM_SWEEP_MAX_LIST], n_qds, n_ts;
  dm_sweep_axes (r, qds, &n_qds, ts, &n_ts);
  dm_buf_printf (b, "\n%s\n  %6s", title, "QD \\ T");
  for (unsigned k = 0; k < n_ts; k++)
    dm_buf_printf (b, " %11u", ts[k]);
  dm_buf_add (b, "\n");
  for (unsigned i = 0; i < n_qds; i++)
    {
      dm_buf_printf (b, "  %6u", qds[i]);
      for (unsigned k = 0; k < n_ts; k++)
        {
          int idx = dm_sweep_find (r, qds[i], ts[k]);
          const dm_result *res = idx >= 0 ? &r->results[idx] : NULL;
          if (!res || res->status == DM_STATUS_PENDING || res->status == DM_STATUS_CANCELLED)
            dm_buf_printf (b, " %11s", "-");
          else if (res->status == DM_STATUS_FAILED)
            dm_buf_printf (b, " %11s", "FAILED");
          else
            {
              double v = kind == CELL_MBPS ? res->mb_per_s : kind == CELL_IOPS ? res->iops
                                                                               : res->latency.p99;
              dm_buf_add_double (b, kind == CELL_IOPS ? " %10.0f" : " %10.1f", v);
              dm_buf_add (b, idx == mark ? "*" : " ");
            }
        }
      dm_buf_add (b, "\n");
    }
}

static void
point_line (dm_buf *b, const dm_result *res)
{
  char name[32];
  dm_spec_name (&res->spec, name, sizeof name);
  dm_buf_printf (b, "Q%uT%u (%s): ", res->spec.queue_depth, res->spec.threads, name);
  /* dm_buf_add_double takes a number's format only: its decimal point fix
   * would turn any comma around it into a point. */
  dm_buf_add_double (b, "%.1f", res->mb_per_s);
  dm_buf_add (b, " MB/s, ");
  dm_buf_add_double (b, "%.0f", res->iops);
  dm_buf_add (b, " IOPS, p99 ");
  dm_buf_add_double (b, "%.1f", res->latency.p99);
  dm_buf_add (b, " us");
}

void
dm_sweep_write_text (const dm_report *r, const dm_sweep_plan *p, dm_buf *b)
{
  char bs[16], size[16];
  int knee = -1, best = -1;
  double bound = p ? p->latency_bound_us : 0;
  const dm_settings *s = &r->settings;

  if (!r->n_results)
    return;
  dm_sweep_kind kind = p ? p->kind : dm_sweep_kind_of (r);
  if (kind == DM_SWEEP_BLOCKS)
    {
      dm_sweep_blocks_write_text (r, b);
      return;
    }
  if (kind == DM_SWEEP_RATES)
    {
      dm_sweep_curve_write_text (r, p, b);
      return;
    }
  const dm_result *first = &r->results[0];
  dm_block_short (first->spec.block_size, bs, sizeof bs);
  dm_size_format (s->test_size, size, sizeof size);
  dm_buf_printf (b, "Diskmeter %s sweep: %s%s %s", DM_VERSION,
                 first->spec.pattern == DM_SEQ ? "SEQ" : "RND", bs, dm_mode_title (first->mode));
  if (first->mode == DM_MODE_MIX)
    dm_buf_printf (b, " (%u%% reads)", first->read_percent);
  dm_buf_printf (b, ", %u x ", s->count);
  dm_buf_add_double (b, "%g", s->measure_s);
  dm_buf_printf (b, " s per combination, test size %s\n", size);
  dm_sweep_write_target (r, b);

  int knee_err = dm_sweep_knee (r, &knee);
  table (b, r, "MB/s (rows: queue depth, columns: threads; * the knee)", CELL_MBPS, knee);
  table (b, r, "IOPS", CELL_IOPS, knee);
  table (b, r, "p99 latency (us)", CELL_P99, knee);

  dm_buf_add (b, "\nKnee: ");
  if (knee_err == 0)
    {
      point_line (b, &r->results[knee]);
      dm_buf_add (b, "; more load adds latency, not throughput\n");
    }
  else
    dm_buf_add (b, "none in this sweep (throughput still grows, or p99 does not rise)\n");
  if (bound > 0)
    {
      dm_buf_add (b, "Best with p99 <= ");
      dm_buf_add_double (b, "%.0f", bound);
      dm_buf_add (b, " us: ");
      if (dm_sweep_best_under (r, bound, &best) == 0)
        {
          point_line (b, &r->results[best]);
          dm_buf_add (b, "\n");
        }
      else
        dm_buf_add (b, "none\n");
    }
  dm_sweep_cap cap;
  dm_sweep_cap_find (r, &cap);
  dm_sweep_cap_write_text (&cap, r, b);
}

void
dm_sweep_write_target (const dm_report *r, dm_buf *b)
{
  dm_buf_add (b, "Target: ");
  dm_text_add_shown (b, r->target.path[0] ? r->target.path : "?");
  if (r->target.filesystem[0])
    {
      dm_buf_add (b, " (");
      dm_text_add_shown (b, r->target.filesystem);
      dm_buf_add (b, ")");
    }
  dm_buf_printf (b, ", backend %s, status %s\n", r->backend[0] ? r->backend : "?",
                 dm_status_name (r->status));
  dm_report_add_tags_line (b, r, "Tags: ");
}
