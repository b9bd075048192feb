/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Excel workbooks written with libxlsxwriter: figures as real numbers the
 * user can chart, cells filled green or red by the same thresholds the grid
 * and the JSON use, frozen headers and readable widths. The workbook is
 * written beside the destination, then put in place whole, so a reader
 * never sees half a file.
 */
#include <errno.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "dm-xlsx.h"
#include "dm-xlsx-book.h"
#include "dm-platform.h"
#include "dm-result-split.h"
#include "dm-schedule.h"
#include "dm-text.h"
#include "dm-units.h"

const bool dm_xlsx_available = true;

/* Excel's own "Good" and "Bad" cell fills. */
#define GREEN_FILL 0xC6EFCE
#define RED_FILL   0xFFC7CE

typedef struct book {
  lxw_workbook *wb;
  lxw_format   *head;
  lxw_format   *num[3][3]; /* [unit MB/s, IOPS, us][none, green, red] */
  char          tmp[1200];
  char          dir[1100];  /* the scratch folder, for as long as the workbook */
} book;

static const char *const unit_formats[3] = { "0.00", "0", "0.0" };

/* big: rows go to scratch files in Diskmeter's folder as they are
 * written, not into memory, for a fleet of thousands of hosts (each row is
 * then written in order, and texts are kept in their cells rather than in
 * one shared table, a slightly larger file). */
static int
book_open (book *b, bool big, char *why, size_t why_size)
{
  char *dir = b->dir;
  int err;
  memset (b, 0, sizeof *b);
  if ((err = _dm_xlsx_lib_load (why, why_size)) < 0)
    return err;
  /* libxlsxwriter writes its file by name, with fopen("wb"); only then
   * is the workbook put at the user's path, by the platform's rules for
   * output files (a file replaced atomically, a stream such as
   * /dev/stdout written into). So the scratch file is Diskmeter's own, in
   * its own folder: nothing beside the user's path is created or
   * truncated, and a path in a folder such as /dev needs no room for it.
   * The name is first made ours, created new and empty, so no link
   * planted there is followed. */
  if ((err = dm_data_dir (dir, sizeof b->dir)) < 0)
    {
      snprintf (why, why_size, "no folder for the workbook's scratch file: %s",
                dm_strerror (err));
      return err;
    }
  err = -EEXIST;
  for (unsigned k = 1; k < 100 && err == -EEXIST; k++)
    {
      if ((size_t) snprintf (b->tmp, sizeof b->tmp, "%s%cexport-%u.xlsx.part", dir,
                             dm_dir_separator (), k) >= sizeof b->tmp)
        {
          snprintf (why, why_size, "the file name is too long");
          return -ENAMETOOLONG;
        }
      err = dm_file_write_new (b->tmp, "", 0);
    }
  if (err < 0)
    {
      snprintf (why, why_size, "cannot create %s: %s", b->tmp, dm_strerror (err));
      return err;
    }
  lxw_workbook_options options = { .constant_memory = big, .tmpdir = big ? dir : NULL };
  b->wb = workbook_new_opt (b->tmp, &options);
  if (!b->wb)
    {
      remove (b->tmp);
      snprintf (why, why_size, "cannot create %s", b->tmp);
      return -EIO;
    }
  b->head = workbook_add_format (b->wb);
  format_set_bold (b->head);
  format_set_text_wrap (b->head);
  for (int u = 0; u < 3; u++)
    for (int c = 0; c < 3; c++)
      {
        lxw_format *f = workbook_add_format (b->wb);
        format_set_num_format (f, unit_formats[u]);
        if (c)
          {
            format_set_pattern (f, LXW_PATTERN_SOLID);
            format_set_bg_color (f, c == DM_COLOUR_GREEN ? GREEN_FILL : RED_FILL);
          }
        b->num[u][c] = f;
      }
  return 0;
}

static int
book_close (book *b, const char *path, char *why, size_t why_size)
{
  /* libxlsxwriter prints every number into the file here, with printf,
   * which follows LC_NUMERIC. The window runs in the user's locale, whose
   * decimal separator may be a comma, and Excel takes "41,5" in a cell for
   * no number at all: the C locale while the file is written. */
  char numeric[128] = "";
  const char *current = setlocale (LC_NUMERIC, NULL);
  if (current && strcmp (current, "C") && strcmp (current, "POSIX"))
    {
      snprintf (numeric, sizeof numeric, "%s", current);
      setlocale (LC_NUMERIC, "C");
    }
  lxw_error e = workbook_close (b->wb);
  if (numeric[0])
    setlocale (LC_NUMERIC, numeric);
  if (e != LXW_NO_ERROR)
    {
      remove (b->tmp);
      snprintf (why, why_size, "%s", lxw_strerror (e));
      return -EIO;
    }
  /* Put in place by the platform's own atomic replace, not rename(): on
   * Windows that refuses to overwrite an earlier export, and it takes the
   * path as UTF-8. A workbook of even 64 runs is a few hundred KiB. */
  char *data = NULL;
  size_t len = 0;
  int err = dm_file_read_all (b->tmp, 64u << 20, &data, &len);
  remove (b->tmp);
  if (err >= 0)
    err = dm_file_replace_contents (path, data, len);
  free (data);
  if (err < 0)
    snprintf (why, why_size, "%s", dm_strerror (err));
  return err < 0 ? err : 0;
}

static void
header (book *b, lxw_worksheet *ws, lxw_col_t col, const char *text)
{
  worksheet_write_string (ws, 0, col, text, b->head);
}

/* A string cell, empty strings left empty. The workbook's XML takes only
 * UTF-8 without control characters, so a comment or path holds its other
 * bytes as the CSV shows them ("\xff", "\x1b"), or Excel would refuse
 * the whole file. */
static void
text (lxw_worksheet *ws, lxw_row_t row, lxw_col_t col, const char *s)
{
  if (!s || !*s)
    return;
  dm_buf cell;
  dm_buf_init (&cell);
  dm_text_add_cell (&cell, s);
  worksheet_write_string (ws, row, col, cell.error || !cell.data ? "?" : cell.data, NULL);
  dm_buf_free (&cell);
}

/* ---- runs side by side ----------------------------------------------------- */

/* The tests of all runs, in the order they first appear. */
static unsigned
collect_tests (const dm_report *const *runs, unsigned n, dm_spec *specs, unsigned max)
{
  unsigned k = 0;
  for (unsigned i = 0; i < n; i++)
    for (unsigned j = 0; j < runs[i]->n_results; j++)
      {
        const dm_spec *s = &runs[i]->results[j].spec;
        if (runs[i]->results[j].shaped)
          continue; /* on the Workloads sheet */
        unsigned t = 0;
        while (t < k && memcmp (&specs[t], s, sizeof *s))
          t++;
        if (t == k && k < max)
          specs[k++] = *s;
      }
  return k;
}

static const dm_unit sheet_units[3] = { DM_UNIT_MBPS, DM_UNIT_IOPS, DM_UNIT_US };

/* A plain test's result: a workload row standing in the same test is not
 * it (it has a sheet of its own). */
static const dm_result *
find_plain (const dm_report *r, const dm_spec *spec, dm_mode mode)
{
  for (unsigned i = 0; i < r->n_results; i++)
    if (!r->results[i].shaped && r->results[i].mode == mode
        && dm_spec_equal (&r->results[i].spec, spec))
      return &r->results[i];
  return NULL;
}

static void
mode_sheet (book *b, dm_mode mode, const dm_report *const *runs, const char *const *labels,
            unsigned n, const dm_spec *specs, unsigned n_specs, const dm_threshold *rules,
            unsigned n_rules)
{
  lxw_worksheet *ws = workbook_add_worksheet (b->wb, dm_mode_title (mode));
  char name[32], head[64];

  header (b, ws, 0, "Run");
  for (unsigned t = 0; t < n_specs; t++)
    for (int u = 0; u < 3; u++)
      {
        dm_spec_name (&specs[t], name, sizeof name);
        snprintf (head, sizeof head, "%s %s", name,
                  sheet_units[u] == DM_UNIT_US ? "\xc2\xb5s" : dm_unit_name (sheet_units[u]));
        header (b, ws, (lxw_col_t) (1 + 3 * t + u), head);
      }
  for (unsigned i = 0; i < n; i++)
    {
      const dm_report *r = runs[i];
      lxw_row_t row = (lxw_row_t) (1 + i);
      text (ws, row, 0, labels[i]);
      /* Limits given on the command line win; else each run's own. */
      const dm_threshold *use = n_rules ? rules : r->thresholds;
      unsigned n_use = n_rules ? n_rules : r->n_thresholds;
      for (unsigned t = 0; t < n_specs; t++)
        {
          const dm_result *res = find_plain (r, &specs[t], mode);
          if (!res || res->status != DM_STATUS_COMPLETE)
            continue;
          for (int u = 0; u < 3; u++)
            {
              double v = dm_result_value (res, sheet_units[u]);
              dm_colour c = dm_threshold_colour (use, n_use, &res->spec, mode, sheet_units[u], v);
              worksheet_write_number (ws, row, (lxw_col_t) (1 + 3 * t + u), v, b->num[u][c]);
            }
        }
    }
  worksheet_set_column (ws, 0, 0, 28, NULL);
  if (n_specs)
    worksheet_set_column (ws, 1, (lxw_col_t) (3 * n_specs), 13, NULL);
  worksheet_freeze_panes (ws, 1, 1);
}

/* Workload rows, a row per run and workload: what it was (name, the mode
 * line, the canonical form that reads back), its figures and reads and
 * writes apart (adding up to its figure), its percentiles, flushes, rate
 * offered and reached, and the profile's hash, so two runs' rows of the
 * same profile line up by name. */
static void
workloads_sheet (book *b, const dm_report *const *runs, const char *const *labels, unsigned n)
{
  static const char *const heads[] = {
    "Run", "Workload", "Shape", "Canonical", "Status", "MB/s", "IOPS", "Read MB/s",
    "Read IOPS", "Write MB/s", "Write IOPS", "p50 \xc2\xb5s", "p99 \xc2\xb5s",
    "p99.9 \xc2\xb5s", "Read p99 \xc2\xb5s", "Write p99 \xc2\xb5s", "Flushes", "Rate offered",
    "Rate unit", "Rate reached", "Rate met", "Profile hash",
  };
  lxw_worksheet *ws = workbook_add_worksheet (b->wb, "Workloads");
  const lxw_col_t n_heads = (lxw_col_t) (sizeof heads / sizeof heads[0]);
  lxw_row_t row = 1;
  for (lxw_col_t c = 0; c < n_heads; c++)
    header (b, ws, c, heads[c]);
  for (unsigned i = 0; i < n; i++)
    for (unsigned j = 0; j < runs[i]->n_results; j++)
      {
        const dm_result *res = &runs[i]->results[j];
        const dm_workload *w = &res->workload;
        char shape[DM_WORKLOAD_TEXT_MAX + 64];
        dm_result_split split;
        lxw_col_t c = 0;
        if (!res->shaped)
          continue;
        text (ws, row, c++, labels[i]);
        text (ws, row, c++, w->name);
        dm_workload_describe (w, shape, sizeof shape);
        text (ws, row, c++, shape);
        dm_workload_format (w, shape, sizeof shape);
        text (ws, row, c++, shape);
        text (ws, row, c++, dm_status_name (res->status));
        if (res->status == DM_STATUS_COMPLETE && res->n_runs)
          {
            bool have = dm_result_split_of (res, &split);
            const double v[] = { res->mb_per_s, res->iops, split.read_mb_per_s,
                                 split.read_iops, split.write_mb_per_s, split.write_iops };
            const int unit[] = { 0, 1, 0, 1, 0, 1 };
            for (unsigned k = 0; k < 6; k++, c++)
              if (k < 2 || have)
                worksheet_write_number (ws, row, c, v[k], b->num[unit[k]][0]);
            worksheet_write_number (ws, row, c++, res->latency.p50, b->num[2][0]);
            worksheet_write_number (ws, row, c++, res->latency.p99, b->num[2][0]);
            worksheet_write_number (ws, row, c++, res->latency.p99_9, b->num[2][0]);
            if (res->mode == DM_MODE_MIX)
              {
                worksheet_write_number (ws, row, c, res->latency_read.p99, b->num[2][0]);
                worksheet_write_number (ws, row, c + 1, res->latency_write.p99, b->num[2][0]);
              }
            c += 2;
            if (w->sync == DM_SYNC_FLUSH)
              worksheet_write_number (ws, row, c, (double) res->flushes, NULL);
            c++;
            if (w->rate_unit != DM_RATE_NONE)
              {
                double reached;
                bool met = dm_result_rate_met (res, &reached);
                worksheet_write_number (ws, row, c, w->rate, NULL);
                text (ws, row, c + 1, w->rate_unit == DM_RATE_IOPS ? "IOPS" : "MB/s");
                worksheet_write_number (ws, row, c + 2, reached,
                                        b->num[w->rate_unit == DM_RATE_IOPS ? 1 : 0][0]);
                text (ws, row, c + 3, met ? "yes" : "no");
              }
            c += 4;
          }
        else
          c += 16;
        text (ws, row, c++, runs[i]->profile_hash);
        row++;
      }
  worksheet_set_column (ws, 0, 1, 24, NULL);
  worksheet_set_column (ws, 2, 3, 40, NULL);
  worksheet_set_column (ws, 4, n_heads - 1, 12, NULL);
  worksheet_set_column (ws, n_heads - 1, n_heads - 1, 18, NULL);
  worksheet_freeze_panes (ws, 1, 2);
}

/* A row per run: for compared runs each report's own, for a merge the
 * hosts the merge kept (dm_merge_source). */
static void
settings_sheet (book *b, const dm_merge_source *runs, unsigned n)
{
  lxw_worksheet *ws = workbook_add_worksheet (b->wb, "Settings");
  static const char *const heads[] = {
    "Run", "Comment", "Started (UTC)", "Status", "Profile", "Count", "Test size (bytes)",
    "Measure (s)", "Interval (s)", "Warm-up (s)", "Data", "Mix read %", "Buffered",
    "Write-through", "Backend", "Target", "Mount point", "Filesystem", "Device", "Model",
    "Driver", "Size (bytes)", "OS", "Kernel", "CPU", "Logical CPUs", "Memory (bytes)",
    "Thresholds",
  };
  const lxw_col_t n_heads = (lxw_col_t) (sizeof heads / sizeof heads[0]);
  for (lxw_col_t c = 0; c < n_heads; c++)
    header (b, ws, c, heads[c]);
  /* A column per key of the runs' tags, after the fixed ones, as the
   * CSV's tag_KEY: what a filter or a pivot table groups the runs by. */
  enum { KEYS = 64 };
  const char *keys[KEYS];
  unsigned n_keys = 0;
  for (unsigned i = 0; i < n; i++)
    for (unsigned k = 0; k < runs[i].n_tags && n_keys < KEYS; k++)
      {
        bool seen = false;
        for (unsigned j = 0; j < n_keys && !seen; j++)
          seen = !strcmp (keys[j], runs[i].tags[k].key);
        if (!seen)
          {
            char head[DM_TAG_KEY_MAX + 8];
            snprintf (head, sizeof head, "tag_%s", runs[i].tags[k].key);
            header (b, ws, (lxw_col_t) (n_heads + n_keys), head);
            keys[n_keys++] = runs[i].tags[k].key;
          }
      }
  for (unsigned i = 0; i < n; i++)
    {
      const dm_merge_source *r = &runs[i];
      const dm_settings *s = r->settings;
      lxw_row_t row = (lxw_row_t) (1 + i);
      char when[40], rules[1200] = "";
      lxw_col_t c = 0;
      dm_time_format_ms (r->started * 1000, when, sizeof when);
      when[19] = '\0'; /* to the second: the run's start is kept to the second */
      text (ws, row, c++, r->name);
      text (ws, row, c++, r->comment);
      text (ws, row, c++, when);
      text (ws, row, c++, dm_status_name (r->status));
      text (ws, row, c++, r->profile);
      worksheet_write_number (ws, row, c++, s->count, NULL);
      worksheet_write_number (ws, row, c++, (double) s->test_size, NULL);
      worksheet_write_number (ws, row, c++, s->measure_s, NULL);
      worksheet_write_number (ws, row, c++, s->interval_s, NULL);
      worksheet_write_number (ws, row, c++, s->warmup_s, NULL);
      text (ws, row, c++, dm_data_name (s->data));
      worksheet_write_number (ws, row, c++, s->mix_read_percent, NULL);
      text (ws, row, c++, s->buffered ? "yes" : "no");
      text (ws, row, c++, s->write_through ? "yes" : "no");
      text (ws, row, c++, r->backend);
      text (ws, row, c++, r->target_path);
      text (ws, row, c++, r->mount_point);
      text (ws, row, c++, r->filesystem);
      text (ws, row, c++, r->device);
      text (ws, row, c++, r->model);
      text (ws, row, c++, r->driver);
      worksheet_write_number (ws, row, c++, (double) r->size_bytes, NULL);
      text (ws, row, c++, r->os);
      text (ws, row, c++, r->kernel);
      text (ws, row, c++, r->cpu_model);
      worksheet_write_number (ws, row, c++, r->logical_cpus, NULL);
      worksheet_write_number (ws, row, c++, (double) r->memory_bytes, NULL);
      for (unsigned k = 0; k < r->n_thresholds; k++)
        {
          char rule[160];
          dm_threshold_format (&r->thresholds[k], rule, sizeof rule);
          if (strlen (rules) + strlen (rule) + 3 < sizeof rules)
            {
              if (k)
                strcat (rules, "; ");
              strcat (rules, rule);
            }
        }
      text (ws, row, c++, rules);
      for (unsigned j = 0; j < n_keys; j++)
        {
          const char *v = dm_tags_get (r->tags, r->n_tags, keys[j]);
          if (v)
            text (ws, row, (lxw_col_t) (n_heads + j), v);
        }
    }
  worksheet_set_column (ws, 0, 1, 28, NULL);
  worksheet_set_column (ws, 2, 2, 20, NULL);
  worksheet_set_column (ws, 3, n_heads - 1, 14, NULL);
  worksheet_freeze_panes (ws, 1, 1);
}

int
dm_xlsx_write_runs (const dm_report *const *runs, const char *const *labels, unsigned n,
                    const dm_threshold *rules, unsigned n_rules, const char *path, char *why,
                    size_t why_size)
{
  dm_spec specs[256];
  book b;
  dm_merge_source *sources = calloc (n ? n : 1, sizeof *sources);
  if (!sources)
    {
      snprintf (why, why_size, "%s", dm_strerror (-ENOMEM));
      return -ENOMEM;
    }
  int err = book_open (&b, false, why, why_size);
  if (err < 0)
    {
      free (sources);
      return err;
    }
  unsigned n_specs = collect_tests (runs, n, specs, 256);
  for (int mode = DM_MODE_READ; mode <= DM_MODE_MIX; mode++)
    {
      bool any = false;
      for (unsigned i = 0; i < n && !any; i++)
        for (unsigned j = 0; j < runs[i]->n_results && !any; j++)
          any = runs[i]->results[j].mode == (dm_mode) mode && !runs[i]->results[j].shaped;
      if (any)
        mode_sheet (&b, (dm_mode) mode, runs, labels, n, specs, n_specs, rules, n_rules);
    }
  bool shaped = false;
  for (unsigned i = 0; i < n && !shaped; i++)
    for (unsigned j = 0; j < runs[i]->n_results && !shaped; j++)
      shaped = runs[i]->results[j].shaped;
  if (shaped)
    workloads_sheet (&b, runs, labels, n);
  /* The user's tags, not every tag a loaded file kept: the facts have
   * columns of their own. */
  dm_tag (*tags)[DM_TAGS_ALL_MAX] = calloc (n ? n : 1, sizeof *tags);
  for (unsigned i = 0; i < n; i++)
    {
      dm_merge_source_of (&sources[i], runs[i], labels[i]);
      sources[i].n_tags = tags ? dm_report_user_tags (runs[i], tags[i]) : 0;
      sources[i].tags = tags ? tags[i] : NULL;
    }
  settings_sheet (&b, sources, n);
  free (tags);
  free (sources);
  return book_close (&b, path, why, why_size);
}

/* ---- a merged fleet report ------------------------------------------------ */

/* A host's tags in one cell, "key=value; key=value" as the CSV has them. */
static void
host_tags (lxw_worksheet *ws, lxw_row_t row, lxw_col_t col, const dm_merge_source *h)
{
  dm_buf one;
  if (!h->n_tags)
    return;
  dm_buf_init (&one);
  dm_tags_add_text (&one, h->tags, h->n_tags, "; ");
  if (one.data && !one.error)
    text (ws, row, col, one.data);
  dm_buf_free (&one);
}

int
dm_xlsx_write_merge (const dm_merge *m, const char *path, char *why, size_t why_size)
{
  static const char *const fleet_heads[] = {
    "Test", "Mode", "Hosts", "Sum MB/s", "Sum IOPS", "p50 \xc2\xb5s", "p90 \xc2\xb5s",
    "p99 \xc2\xb5s", "p99.9 \xc2\xb5s", "p99.99 \xc2\xb5s", "Max \xc2\xb5s", "Min MB/s",
    "Max MB/s", "CV MB/s %", "Min IOPS", "Max IOPS", "CV IOPS %",
  };
  static const char *const host_heads[] = {
    "Test", "Mode", "Host", "Comment", "MB/s", "IOPS", "p50 \xc2\xb5s", "p99 \xc2\xb5s",
    "p99.9 \xc2\xb5s", "Max \xc2\xb5s", "Started (UTC)", "Tags",
  };
  char name[32], when[40];
  book b;
  /* Up to the 256 hosts a merge once took, the workbook is as it was. */
  int err = book_open (&b, m->n_hosts > 256, why, why_size);
  if (err < 0)
    return err;

  lxw_worksheet *ws = workbook_add_worksheet (b.wb, "Fleet");
  for (lxw_col_t c = 0; c < sizeof fleet_heads / sizeof fleet_heads[0]; c++)
    header (&b, ws, c, fleet_heads[c]);
  for (unsigned i = 0; i < m->n_rows; i++)
    {
      const dm_merge_row *row = &m->rows[i];
      lxw_row_t r = (lxw_row_t) (1 + i);
      const double v[] = { row->sum_mb_per_s, row->sum_iops, row->latency.p50,
                           row->latency.p90, row->latency.p99, row->latency.p99_9,
                           row->latency.p99_99, row->latency.max, row->min_mb_per_s,
                           row->max_mb_per_s, row->cv_mb_per_s, row->min_iops, row->max_iops,
                           row->cv_iops };
      const int unit[] = { 0, 1, 2, 2, 2, 2, 2, 2, 0, 0, 0, 1, 1, 0 };
      dm_spec_name (&row->spec, name, sizeof name);
      text (ws, r, 0, name);
      text (ws, r, 1, dm_mode_title (row->mode));
      worksheet_write_number (ws, r, 2, m->n_hosts, NULL);
      for (unsigned k = 0; k < sizeof v / sizeof v[0]; k++)
        worksheet_write_number (ws, r, (lxw_col_t) (3 + k), v[k], b.num[unit[k]][0]);
    }
  /* The tags every host shares, once, a row below the sums. */
  if (m->n_common_tags)
    {
      dm_merge_source common = { .tags = m->common_tags, .n_tags = m->n_common_tags };
      text (ws, (lxw_row_t) (m->n_rows + 2), 0, "Tags of every host");
      host_tags (ws, (lxw_row_t) (m->n_rows + 2), 3, &common);
    }
  worksheet_set_column (ws, 0, 0, 16, NULL);
  worksheet_set_column (ws, 1, 2, 8, NULL);
  worksheet_set_column (ws, 3, 16, 12, NULL);
  worksheet_freeze_panes (ws, 1, 2);

  ws = workbook_add_worksheet (b.wb, "Hosts");
  for (lxw_col_t c = 0; c < sizeof host_heads / sizeof host_heads[0]; c++)
    header (&b, ws, c, host_heads[c]);
  lxw_row_t r = 1;
  for (unsigned i = 0; i < m->n_rows; i++)
    for (unsigned h = 0; h < m->n_hosts; h++, r++)
      {
        const dm_merge_row *row = &m->rows[i];
        const dm_merge_host *c = &row->hosts[h];
        const double v[] = { c->mb_per_s, c->iops, c->latency.p50, c->latency.p99,
                             c->latency.p99_9, c->latency.max };
        const int unit[] = { 0, 1, 2, 2, 2, 2 };
        dm_spec_name (&row->spec, name, sizeof name);
        text (ws, r, 0, name);
        text (ws, r, 1, dm_mode_title (row->mode));
        text (ws, r, 2, m->hosts[h].name);
        text (ws, r, 3, m->hosts[h].comment);
        for (unsigned k = 0; k < sizeof v / sizeof v[0]; k++)
          worksheet_write_number (ws, r, (lxw_col_t) (4 + k), v[k], b.num[unit[k]][0]);
        if (c->started_ms)
          {
            dm_time_format_ms (c->started_ms, when, sizeof when);
            text (ws, r, 10, when);
          }
        host_tags (ws, r, 11, &m->hosts[h]);
      }
  worksheet_set_column (ws, 0, 0, 16, NULL);
  worksheet_set_column (ws, 1, 1, 8, NULL);
  worksheet_set_column (ws, 2, 3, 24, NULL);
  worksheet_set_column (ws, 4, 9, 12, NULL);
  worksheet_set_column (ws, 10, 11, 26, NULL);
  worksheet_freeze_panes (ws, 1, 3);

  /* Every host's settings, target and system, as for compared runs. */
  settings_sheet (&b, m->hosts, m->n_hosts);
  return book_close (&b, path, why, why_size);
}

/* ---- for the other sheets of export/ (dm-xlsx-book.h) ----------------------- */

struct dm_xlsx_book {
  book b;
};

int
dm_xlsx_book_open (dm_xlsx_book **out, char *why, size_t why_size)
{
  dm_xlsx_book *x = calloc (1, sizeof *x);
  if (!x)
    return snprintf (why, why_size, "out of memory"), -ENOMEM;
  int err = book_open (&x->b, false, why, why_size);
  if (err < 0)
    {
      free (x);
      return err;
    }
  *out = x;
  return 0;
}

lxw_workbook *
dm_xlsx_book_workbook (dm_xlsx_book *x)
{
  return x->b.wb;
}

lxw_format *
dm_xlsx_book_head (dm_xlsx_book *x)
{
  return x->b.head;
}

lxw_format *
dm_xlsx_book_number (dm_xlsx_book *x, dm_unit unit, dm_colour colour)
{
  int u = unit == DM_UNIT_IOPS ? 1 : unit == DM_UNIT_US ? 2 : 0;
  return x->b.num[u][colour];
}

void
dm_xlsx_book_text (lxw_worksheet *ws, unsigned row, unsigned col, const char *s)
{
  text (ws, (lxw_row_t) row, (lxw_col_t) col, s);
}

int
dm_xlsx_book_close (dm_xlsx_book *x, const char *path, char *why, size_t why_size)
{
  int err = book_close (&x->b, path, why, why_size);
  free (x);
  return err;
}
