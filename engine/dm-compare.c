/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Building, judging and writing comparisons of saved or fresh runs. The
 * neutral band comes from each run's spread over its own repetitions, so a
 * drive that varies 10% from run to run is not called faster for 5%.
 */
#include "dm-compare.h"
#include "dm-compare-private.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dm-gettext.h"
#include "dm-text.h"

/* Marks a phrase for xgettext (po/meson.build): the window shows it
 * translated, every export in English. */
#define R_(s) s

static const char *
words (const char *english, bool translate)
{
  return translate ? dm_gettext (english) : english;
}

const char *
dm_verdict_name (dm_verdict v)
{
  switch (v)
    {
    case DM_VERDICT_SAME:    return "same";
    case DM_VERDICT_BETTER:  return "better";
    case DM_VERDICT_WORSE:   return "worse";
    case DM_VERDICT_ONE_RUN: return "one-run";
    default:                 return "";
    }
}

const char *
dm_verdict_words (dm_verdict v, bool translate)
{
  switch (v)
    {
    case DM_VERDICT_SAME:    return words (R_ ("same"), translate);
    case DM_VERDICT_BETTER:  return words (R_ ("better"), translate);
    case DM_VERDICT_WORSE:   return words (R_ ("worse"), translate);
    case DM_VERDICT_ONE_RUN: return words (R_ ("no spread: one run"), translate);
    default:                 return "";
    }
}

/* A run's figure and the standard deviation of its repetitions, in the
 * unit. The figure is the best run, as the grid shows it, taken as saved:
 * the window compares runs it holds in memory, the CLI the same runs read
 * back, and both must print the same rows. */
static void
figure (const dm_result *res, dm_unit unit, double *value, double *spread)
{
  double sum = 0, sum_sq = 0;
  unsigned n = 0;
  *value = unit == DM_UNIT_GBPS ? dm_figure_as_saved (res->mb_per_s) / 1000
                                : dm_figure_as_saved (dm_result_value (res, unit));
  for (unsigned k = 0; k < res->n_runs; k++)
    {
      const dm_run *run = &res->runs[k];
      double v = unit == DM_UNIT_MBPS ? dm_figure_as_saved (run->mb_per_s)
                 : unit == DM_UNIT_GBPS ? dm_figure_as_saved (run->mb_per_s) / 1000
                 : dm_figure_as_saved (unit == DM_UNIT_IOPS ? run->iops : run->latency_us);
      sum += v;
      sum_sq += v * v;
      n++;
    }
  double var = n > 1 ? (sum_sq - sum * sum / n) / (n - 1) : 0;
  *spread = var > 0 ? sqrt (var) : 0;
}

dm_verdict
dm_compare_judge (double first, double first_spread, double value, double spread, dm_unit unit)
{
  if (!(first > 0) || !(value > 0))
    return DM_VERDICT_NONE;
  double band = 2 * sqrt (first_spread * first_spread + spread * spread);
  double diff = value - first;
  if (fabs (diff) <= band)
    return DM_VERDICT_SAME;
  bool higher_is_better = unit != DM_UNIT_US;
  return (diff > 0) == higher_is_better ? DM_VERDICT_BETTER : DM_VERDICT_WORSE;
}

/* Whether a result is the row's: a workload row by its name and shape, a
 * plain test by its test and mode (never a workload row standing in it). */
static bool
same_row (const dm_compare_row *row, const dm_result *res)
{
  if (row->shaped != res->shaped)
    return false;
  if (row->shaped)
    return dm_workload_equal (&row->workload, &res->workload);
  return row->mode == res->mode && dm_spec_equal (&row->spec, &res->spec);
}

static const dm_result *
find_done (const dm_report *r, const dm_compare_row *row)
{
  for (unsigned i = 0; i < r->n_results; i++)
    {
      const dm_result *res = &r->results[i];
      if (same_row (row, res))
        return res->status == DM_STATUS_COMPLETE && res->n_runs ? res : NULL;
    }
  return NULL;
}

void
dm_compare_row_name (const dm_compare_row *row, char *buf, size_t size)
{
  char label[32];
  if (row->shaped)
    {
      snprintf (buf, size, "%s", row->workload.name);
      return;
    }
  dm_spec_label (&row->spec, label, sizeof label);
  snprintf (buf, size, "%s %s", dm_mode_title (row->mode), label);
}

static bool
any_shaped (const dm_compare *c)
{
  for (unsigned r = 0; r < c->n_rows; r++)
    if (c->rows[r].shaped)
      return true;
  return false;
}

int
dm_compare_build (dm_compare *c, const dm_report *const *reports, const char *const *names,
                  unsigned n, dm_unit unit)
{
  memset (c, 0, sizeof *c);
  if (n < 2 || n > DM_COMPARE_MAX)
    return -EINVAL;
  c->n_runs = n;
  c->unit = unit;
  for (unsigned i = 0; i < n; i++)
    {
      c->runs[i] = reports[i];
      c->names[i] = names[i];
    }

  /* Rows: every test of any run, in the order they first appear. */
  unsigned cap = 0;
  for (unsigned i = 0; i < n; i++)
    cap += reports[i]->n_results;
  c->rows = calloc (cap ? cap : 1, sizeof *c->rows);
  if (!c->rows)
    return -ENOMEM;
  for (unsigned i = 0; i < n; i++)
    for (unsigned k = 0; k < reports[i]->n_results; k++)
      {
        const dm_result *res = &reports[i]->results[k];
        bool known = false;
        for (unsigned r = 0; r < c->n_rows && !known; r++)
          known = same_row (&c->rows[r], res);
        if (!known)
          {
            dm_compare_row *row = &c->rows[c->n_rows];
            row->spec = res->spec;
            row->mode = res->mode;
            row->shaped = res->shaped;
            if (res->shaped)
              row->workload = res->workload;
            row->order = c->n_rows;
            c->n_rows++;
          }
      }

  for (unsigned r = 0; r < c->n_rows; r++)
    {
      dm_compare_row *row = &c->rows[r];
      for (unsigned i = 0; i < n; i++)
        {
          dm_compare_cell *cell = &row->cells[i];
          const dm_result *res = find_done (reports[i], row);
          if (!res)
            continue;
          cell->present = true;
          cell->n_runs = res->n_runs;
          figure (res, unit, &cell->value, &cell->spread);
        }
      const dm_compare_cell *first = &row->cells[0];
      for (unsigned i = 1; i < n; i++)
        {
          dm_compare_cell *cell = &row->cells[i];
          if (!first->present || !cell->present || !(first->value > 0))
            continue;
          cell->diff_percent = (cell->value - first->value) / first->value * 100;
          cell->verdict = dm_compare_judge (first->value, first->spread, cell->value,
                                            cell->spread, unit);
          /* One run has no spread: a spread of 0 would call any difference
           * better or worse, and a single run's own noise is unknown. */
          if (cell->verdict != DM_VERDICT_NONE && (first->n_runs < 2 || cell->n_runs < 2))
            cell->verdict = DM_VERDICT_ONE_RUN;
        }
    }
  return 0;
}

void
dm_compare_set_thresholds (dm_compare *c, const dm_threshold *rules, unsigned n)
{
  for (unsigned r = 0; r < c->n_rows; r++)
    for (unsigned i = 0; i < c->n_runs; i++)
      {
        dm_compare_cell *cell = &c->rows[r].cells[i];
        cell->colour = cell->present ? dm_threshold_colour (rules, n, &c->rows[r].spec,
                                                            c->rows[r].mode, c->unit, cell->value)
                                     : DM_COLOUR_NONE;
      }
}

void
dm_compare_clear (dm_compare *c)
{
  free (c->rows);
  memset (c, 0, sizeof *c);
}

/* Sort key of a row: descending by a run's value, or the order in which
 * the rows were built (the first run's order, then what the others add). */
static double
sort_key (const dm_compare_row *row, int column)
{
  if (column < 0)
    return row->order;
  const dm_compare_cell *cell = &row->cells[column];
  return cell->present ? -cell->value : 1.0;
}

void
dm_compare_sort (dm_compare *c, int column)
{
  if (column >= (int) c->n_runs)
    column = -1;
  /* Insertion sort: stable, and comparisons have a few dozen rows. */
  for (unsigned i = 1; i < c->n_rows; i++)
    {
      dm_compare_row row = c->rows[i];
      double key = sort_key (&row, column);
      unsigned j = i;
      while (j > 0 && sort_key (&c->rows[j - 1], column) > key)
        {
          c->rows[j] = c->rows[j - 1];
          j--;
        }
      c->rows[j] = row;
    }
}

unsigned
dm_compare_where (const dm_compare *c, unsigned i, const char *shown,
                  const char *parts[DM_COMPARE_WHERE_MAX])
{
  const dm_report *r = c->runs[i];
  const char *all[DM_COMPARE_WHERE_MAX] = {
    r->target.path[0] ? r->target.path : c->names[i],
    r->target.filesystem, r->target.device, r->target.model,
  };
  unsigned n = 0;
  for (unsigned k = 0; k < DM_COMPARE_WHERE_MAX; k++)
    {
      bool again = !all[k] || !all[k][0] || (shown && !strcmp (all[k], shown));
      for (unsigned j = 0; j < n && !again; j++)
        again = !strcmp (parts[j], all[k]);
      if (!again)
        parts[n++] = all[k];
    }
  return n;
}

/* --- settings that differ ------------------------------------------------ */

/* A size as the issue of a comparison reads it, "1 GiB", "64 MiB". */
static void
spaced_size (uint64_t bytes, bool human, char *buf, size_t size)
{
  char raw[32];
  size_t k = 0;
  if (human)
    dm_size_human (bytes, raw, sizeof raw);
  else
    dm_size_format (bytes, raw, sizeof raw);
  while (raw[k] && (raw[k] == '.' || (raw[k] >= '0' && raw[k] <= '9')))
    k++;
  snprintf (buf, size, "%.*s%s%s", (int) k, raw, raw[k] ? " " : "", raw + k);
}

static void
seconds (double s, char *buf, size_t size)
{
  snprintf (buf, size, "%g s", s);
  for (char *p = buf; *p; p++)
    if (*p == ',')
      *p = '.';
}

static bool
has_mode (const dm_report *r, dm_mode mode)
{
  for (unsigned k = 0; k < r->n_results; k++)
    if (r->results[k].mode == mode && r->results[k].status == DM_STATUS_COMPLETE)
      return true;
  return false;
}

typedef enum {
  FACT_PROFILE, FACT_SIZE, FACT_COUNT, FACT_DURATION, FACT_INTERVAL, FACT_WARMUP, FACT_DATA,
  FACT_MIX, FACT_IO, FACT_WRITE_THROUGH, FACT_BACKEND, FACT_FILESYSTEM, FACT_QUEUE, FACT_OS,
  FACT_KERNEL, FACT_CPU, FACT_CPUS, FACT_MEMORY, N_FACTS
} fact;

/* What the line calls each fact. */
static const char *const fact_labels[N_FACTS] = {
  R_ ("profile"), R_ ("test size"), R_ ("count"), R_ ("duration"), R_ ("interval"),
  R_ ("warm-up"), R_ ("test data"), R_ ("Mix read share"), R_ ("I/O"), R_ ("write-through"),
  R_ ("backend"), R_ ("filesystem"), R_ ("device queue"), R_ ("OS"), R_ ("kernel"), R_ ("CPU"),
  R_ ("logical CPUs"), R_ ("memory"),
};

/* One run's value of a fact, false when the run does not know it (an
 * older report, a device without counters, a run without Mix). */
static bool
fact_value (const dm_report *r, fact f, bool translate, char *buf, size_t size)
{
  const dm_settings *s = &r->settings;
  buf[0] = '\0';
  switch (f)
    {
    case FACT_PROFILE:
      /* Workload rows: the profile they came from is their hash. */
      if (r->profile_hash[0])
        snprintf (buf, size, "%s %s", r->profile, r->profile_hash);
      else
        snprintf (buf, size, r->nvme ? "%s + NVMe" : "%s", r->profile);
      return r->profile[0] != '\0';
    case FACT_SIZE:
      spaced_size (s->test_size, false, buf, size);
      return s->test_size > 0;
    case FACT_COUNT:
      snprintf (buf, size, "%u", s->count);
      return s->count > 0;
    case FACT_DURATION:
      seconds (s->measure_s, buf, size);
      return s->measure_s > 0;
    case FACT_INTERVAL:
      seconds (s->interval_s, buf, size);
      return true;
    case FACT_WARMUP:
      seconds (s->warmup_s, buf, size);
      return true;
    case FACT_DATA:
      snprintf (buf, size, "%s", s->data == DM_DATA_ZEROS ? words (R_ ("zeros"), translate)
                                                          : words (R_ ("random"), translate));
      return true;
    case FACT_MIX:
      snprintf (buf, size, "%u%%", s->mix_read_percent);
      return has_mode (r, DM_MODE_MIX);
    case FACT_IO:
      snprintf (buf, size, "%s", s->buffered ? words (R_ ("buffered"), translate)
                                             : words (R_ ("direct"), translate));
      return true;
    case FACT_WRITE_THROUGH:
      snprintf (buf, size, "%s", s->write_through ? words (R_ ("on"), translate)
                                                  : words (R_ ("off"), translate));
      return true;
    case FACT_BACKEND:
      snprintf (buf, size, "%s", r->backend);
      return r->backend[0] != '\0';
    case FACT_FILESYSTEM:
      snprintf (buf, size, "%s", r->target.filesystem);
      return r->target.filesystem[0] != '\0';
    case FACT_QUEUE:
      /* The requests the device holds at once, as its counters found it. */
      for (unsigned k = 0; k < r->n_results; k++)
        if (r->results[k].device.queue_limit)
          {
            snprintf (buf, size, "%u", r->results[k].device.queue_limit);
            return true;
          }
      return false;
    case FACT_OS:
      snprintf (buf, size, "%s", r->system.os);
      return r->system.os[0] != '\0';
    case FACT_KERNEL:
      snprintf (buf, size, "%s", r->system.kernel);
      return r->system.kernel[0] != '\0';
    case FACT_CPU:
      snprintf (buf, size, "%s", r->system.cpu_model);
      return r->system.cpu_model[0] != '\0';
    case FACT_CPUS:
      snprintf (buf, size, "%u", r->system.logical_cpus);
      return r->system.logical_cpus > 0;
    case FACT_MEMORY:
      spaced_size (r->system.memory_bytes, true, buf, size);
      return r->system.memory_bytes > 0;
    default:
      return false;
    }
}

unsigned
dm_compare_write_differences (const dm_compare *c, bool translate, dm_buf *out)
{
  unsigned n = 0;
  for (int f = 0; f < N_FACTS; f++)
    {
      char first[160], value[160];
      bool known = fact_value (c->runs[0], f, translate, first, sizeof first), differ = false;
      for (unsigned i = 1; i < c->n_runs && known; i++)
        {
          known = fact_value (c->runs[i], f, translate, value, sizeof value);
          differ = differ || strcmp (first, value) != 0;
        }
      if (!known || !differ)
        continue;
      dm_buf_add (out, n++ ? "; " : words (R_ ("Different settings:"), translate));
      if (n == 1)
        dm_buf_add (out, " ");
      dm_buf_add (out, words (fact_labels[f], translate));
      for (unsigned i = 0; i < c->n_runs; i++)
        {
          fact_value (c->runs[i], f, translate, value, sizeof value);
          if (i)
            dm_buf_printf (out, " %s", words (R_ ("vs"), translate));
          dm_buf_add (out, " ");
          dm_text_add_shown (out, value);
        }
    }
  return n;
}

/* --- writers ------------------------------------------------------------- */

static void
run_line (dm_buf *b, const dm_compare *c, unsigned i)
{
  const dm_report *r = c->runs[i];
  const char *where[DM_COMPARE_WHERE_MAX];
  unsigned n = dm_compare_where (c, i, c->names[i], where), k = 0;
  char date[32];
  dm_format_local_time (r->started, date, sizeof date);
  /* Names, paths and comments as the text report shows them: one line,
   * each once (a live comparison's names are its paths). */
  dm_buf_printf (b, "  %c: ", 'A' + (i % 26));
  dm_text_add_shown (b, c->names[i]);
  dm_buf_printf (b, "  %s", date);
  if (k < n && where[k] == r->target.path)
    {
      dm_buf_add (b, "  ");
      dm_text_add_shown (b, where[k++]);
    }
  if (k < n)
    {
      dm_buf_add (b, "  [");
      for (; k < n; k++)
        {
          dm_text_add_shown (b, where[k]);
          dm_buf_add (b, k + 1 < n ? ", " : "]");
        }
    }
  if (r->comment[0])
    {
      dm_buf_add (b, "  \"");
      dm_text_add_shown (b, r->comment);
      dm_buf_add (b, "\"");
    }
  dm_buf_add (b, "\n");
  /* The user's tags under the run; which of all tags differ is the
   * "Different tags" line's. */
  dm_report_add_tags_line (b, r, "     Tags: ");
}

/* "-3.2% worse", "+0.4% no spread: one run"; "" with nothing to compare. */
static void
diff_text (const dm_compare_cell *cell, char *buf, size_t size)
{
  buf[0] = '\0';
  if (cell->verdict == DM_VERDICT_NONE)
    return;
  snprintf (buf, size, "%+.1f%% %s", cell->diff_percent, dm_verdict_words (cell->verdict, false));
  for (char *p = buf; *p; p++)
    if (*p == ',')
      *p = '.';
}

void
dm_compare_write_text (const dm_compare *c, dm_buf *b)
{
  const char *unit = dm_unit_name (c->unit);
  dm_buf_printf (b, "Diskmeter %s comparison of %u runs in %s (best run of each; "
                    "differences within twice the runs' spread are \"same\")\n",
                 DM_VERSION, c->n_runs, unit);
  for (unsigned i = 0; i < c->n_runs; i++)
    run_line (b, c, i);
  if (dm_compare_write_differences (c, false, b))
    dm_buf_add (b, "\n");
  if (dm_compare_write_tag_differences (c, false, b))
    dm_buf_add (b, "\n");
  dm_buf_add (b, "\n");
  /* The difference columns as wide as their longest text. */
  int width = 16;
  for (unsigned r = 0; r < c->n_rows; r++)
    for (unsigned i = 1; i < c->n_runs; i++)
      {
        char pct[64];
        diff_text (&c->rows[r].cells[i], pct, sizeof pct);
        width = (int) strlen (pct) > width ? (int) strlen (pct) : width;
      }
  dm_buf_printf (b, "%-22s", "Test");
  for (unsigned i = 0; i < c->n_runs; i++)
    {
      dm_buf_printf (b, " %12c", 'A' + (i % 26));
      if (i > 0)
        dm_buf_printf (b, " %*s", width, "vs A");
    }
  dm_buf_add (b, "\n");
  for (unsigned r = 0; r < c->n_rows; r++)
    {
      const dm_compare_row *row = &c->rows[r];
      char name[DM_WORKLOAD_NAME_MAX + 16];
      dm_compare_row_name (row, name, sizeof name);
      /* A workload's name is the user's: shown safely, padded by the
       * characters it has, not its bytes. */
      size_t before = b->len, chars = 0;
      dm_text_add_shown (b, name);
      for (size_t k = before; b->data && k < b->len; k++)
        chars += ((unsigned char) b->data[k] & 0xc0) != 0x80;
      for (; chars < 22; chars++)
        dm_buf_add (b, " ");
      for (unsigned i = 0; i < c->n_runs; i++)
        {
          const dm_compare_cell *cell = &row->cells[i];
          dm_buf_add (b, " ");
          if (cell->present)
            dm_buf_add_double (b, c->unit == DM_UNIT_GBPS ? "%12.3f" : "%12.2f", cell->value);
          else
            dm_buf_printf (b, "%12s", "-");
          if (cell->colour != DM_COLOUR_NONE)
            dm_buf_printf (b, " %-5s", dm_colour_name (cell->colour));
          if (i == 0)
            continue;
          char pct[64];
          diff_text (cell, pct, sizeof pct);
          dm_buf_printf (b, " %*s", width, pct);
        }
      dm_buf_add (b, "\n");
    }
  /* What each workload row ran: the shape it was matched by. */
  bool header = false;
  for (unsigned r = 0; r < c->n_rows; r++)
    if (c->rows[r].shaped)
      {
        char shape[DM_WORKLOAD_TEXT_MAX + 64];
        if (!header)
          dm_buf_add (b, "\nWorkloads, matched by name and shape:\n");
        header = true;
        dm_workload_describe (&c->rows[r].workload, shape, sizeof shape);
        dm_buf_add (b, "  ");
        dm_text_add_shown (b, c->rows[r].workload.name);
        dm_buf_add (b, ": ");
        dm_text_add_shown (b, shape);
        dm_buf_add (b, "\n");
      }
}

void
dm_compare_write_csv (const dm_compare *c, dm_buf *b)
{
  dm_buf_add (b, "test,mode,unit");
  for (unsigned i = 0; i < c->n_runs; i++)
    {
      dm_buf_add (b, ",");
      dm_buf_add_csv_field (b, c->names[i]);
      dm_buf_printf (b, ",%c_colour", 'A' + (i % 26));
      if (i > 0)
        {
          dm_buf_add (b, ",");
          dm_buf_printf (b, "%c_vs_A_percent,%c_verdict", 'A' + (i % 26), 'A' + (i % 26));
        }
    }
  /* Workload rows' own columns, last, and only where there are some. */
  bool shaped = any_shaped (c);
  if (shaped)
    dm_buf_add (b, ",workload,workload_canonical");
  /* The runs' tags, last, and only where a user gave some, so a CSV
   * without them stays as it was. Every row carries them, as a sheet's
   * filter wants. */
  dm_buf tags;
  dm_buf_init (&tags);
  bool tagged = dm_compare_csv_tags (c, b, &tags);
  dm_buf_add (b, "\r\n");
  for (unsigned r = 0; r < c->n_rows; r++)
    {
      const dm_compare_row *row = &c->rows[r];
      char name[32];
      dm_spec_name (&row->spec, name, sizeof name);
      dm_buf_printf (b, "%s,%s,%s", name, dm_mode_name (row->mode), dm_unit_name (c->unit));
      for (unsigned i = 0; i < c->n_runs; i++)
        {
          const dm_compare_cell *cell = &row->cells[i];
          dm_buf_add (b, ",");
          if (cell->present)
            dm_buf_add_double (b, "%.3f", cell->value);
          dm_buf_printf (b, ",%s", dm_colour_name (cell->colour));
          if (i == 0)
            continue;
          dm_buf_add (b, ",");
          if (cell->verdict != DM_VERDICT_NONE)
            dm_buf_add_double (b, "%.2f", cell->diff_percent);
          dm_buf_printf (b, ",%s", dm_verdict_name (cell->verdict));
        }
      if (shaped && row->shaped)
        {
          char canon[DM_WORKLOAD_TEXT_MAX];
          dm_workload_format (&row->workload, canon, sizeof canon);
          dm_buf_add (b, ",");
          dm_buf_add_csv_field (b, row->workload.name);
          dm_buf_add (b, ",");
          dm_buf_add_csv_field (b, canon);
        }
      else if (shaped)
        dm_buf_add (b, ",,");
      if (tagged && tags.data)
        dm_buf_add (b, tags.data);
      dm_buf_add (b, "\r\n");
    }
  dm_buf_free (&tags);
}

void
dm_compare_write_json (const dm_compare *c, dm_buf *b)
{
  char date[32];
  dm_buf_printf (b, "{\n  \"tool\": {\"name\": \"Diskmeter\", \"version\": \"%s\"},\n", DM_VERSION);
  dm_buf_printf (b, "  \"unit\": \"%s\",\n  \"runs\": [", dm_unit_name (c->unit));
  for (unsigned i = 0; i < c->n_runs; i++)
    {
      const dm_report *r = c->runs[i];
      dm_format_local_time (r->started, date, sizeof date);
      dm_buf_add (b, i ? ",\n    {\"name\": " : "\n    {\"name\": ");
      dm_buf_add_json_string (b, c->names[i]);
      dm_buf_add (b, ", \"date\": ");
      dm_buf_add_json_string (b, date);
      dm_buf_add (b, ", \"target\": ");
      dm_buf_add_json_string (b, r->target.path);
      dm_buf_add (b, ", \"filesystem\": ");
      dm_buf_add_json_string (b, r->target.filesystem);
      dm_buf_add (b, ", \"device\": ");
      dm_buf_add_json_string (b, r->target.device);
      dm_buf_add (b, ", \"model\": ");
      dm_buf_add_json_string (b, r->target.model);
      dm_buf_add (b, ", \"comment\": ");
      dm_buf_add_json_string (b, r->comment);
      dm_buf_add (b, ", \"tags\": ");
      dm_compare_json_tags (r, b);
      dm_buf_add (b, "}");
    }
  dm_buf_add (b, "\n  ],\n  \"different_settings\": ");
  dm_buf differ;
  dm_buf_init (&differ);
  if (dm_compare_write_differences (c, false, &differ) && differ.data)
    dm_buf_add_json_string (b, differ.data);
  else
    dm_buf_add (b, "null");
  dm_buf_free (&differ);
  dm_buf_add (b, ",\n  \"different_tags\": ");
  dm_compare_json_different_tags (c, b);
  dm_buf_add (b, ",\n  \"rows\": [");
  for (unsigned r = 0; r < c->n_rows; r++)
    {
      const dm_compare_row *row = &c->rows[r];
      char name[32];
      dm_spec_name (&row->spec, name, sizeof name);
      dm_buf_printf (b, "%s\n    {\"test\": \"%s\", \"mode\": \"%s\", ", r ? "," : "", name,
                     dm_mode_name (row->mode));
      if (row->shaped)
        {
          char canon[DM_WORKLOAD_TEXT_MAX];
          dm_workload_format (&row->workload, canon, sizeof canon);
          dm_buf_add (b, "\"workload\": ");
          dm_buf_add_json_string (b, row->workload.name);
          dm_buf_add (b, ", \"workload_canonical\": ");
          dm_buf_add_json_string (b, canon);
          dm_buf_add (b, ", ");
        }
      dm_buf_add (b, "\"cells\": [");
      for (unsigned i = 0; i < c->n_runs; i++)
        {
          const dm_compare_cell *cell = &row->cells[i];
          dm_buf_add (b, i ? ", " : "");
          if (!cell->present)
            {
              dm_buf_add (b, "null");
              continue;
            }
          dm_buf_add (b, "{\"value\": ");
          dm_buf_add_double (b, "%.3f", cell->value);
          dm_buf_add (b, ", \"spread\": ");
          dm_buf_add_double (b, "%.3f", cell->spread);
          dm_buf_printf (b, ", \"runs\": %u", cell->n_runs);
          if (cell->colour != DM_COLOUR_NONE)
            dm_buf_printf (b, ", \"colour\": \"%s\"", dm_colour_name (cell->colour));
          if (i > 0 && cell->verdict != DM_VERDICT_NONE)
            {
              dm_buf_add (b, ", \"diff_percent\": ");
              dm_buf_add_double (b, "%.2f", cell->diff_percent);
              dm_buf_printf (b, ", \"verdict\": \"%s\"", dm_verdict_name (cell->verdict));
            }
          dm_buf_add (b, "}");
        }
      dm_buf_add (b, "]}");
    }
  dm_buf_add (b, "\n  ]\n}\n");
}
