/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The study's sheet: one row per finished scenario with its tags, Q, T and
 * figures, coloured by the rules, and the ranking of the rows that are
 * green everywhere; as text, CSV and JSON (the workbook is in export/).
 */
#include "dm-study.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dm-text.h"
#include "dm-units.h"

static const dm_unit sheet_units[3] = { DM_UNIT_MBPS, DM_UNIT_IOPS, DM_UNIT_US };

static const dm_result *
find_result (const dm_report *r, const dm_spec *test, dm_mode mode)
{
  for (unsigned i = 0; i < r->n_results; i++)
    {
      const dm_result *res = &r->results[i];
      if (res->mode == mode && res->spec.pattern == test->pattern
          && res->spec.block_size == test->block_size && res->status == DM_STATUS_COMPLETE)
        return res;
    }
  return NULL;
}

/* Whether a rule with a green limit speaks of this figure: such a figure
 * must be green for its row to be green everywhere (one between the green
 * and the red limit is not). A rule with only a red limit asks only that
 * the figure is not red. */
static bool
covered (const dm_threshold *rules, unsigned n, const dm_spec *spec, bool has_mode,
         dm_mode mode, dm_unit unit)
{
  for (unsigned i = 0; i < n; i++)
    {
      const dm_threshold *t = &rules[i];
      if (t->unit != unit || (t->has_mode && (!has_mode || t->mode != mode))
          || (t->has_spec && (!spec || !dm_spec_equal (&t->spec, spec))) || !t->has_green)
        continue;
      return true;
    }
  return false;
}

/* The device's own mean latency over the scenario's tests, by Little's
 * law from its counters (iostat's await: the mean queue over the requests
 * per second), in us; -1 where no counters were read. */
static double
device_us (const dm_report *r)
{
  double queue_s = 0, requests = 0;
  for (unsigned i = 0; i < r->n_results; i++)
    {
      const dm_device_seen *d = &r->results[i].device;
      if (!d->counted || d->seconds <= 0)
        continue;
      queue_s += d->avg_queue * d->seconds;
      requests += (double) (d->reads + d->writes);
    }
  return requests > 0 ? queue_s / requests * 1e6 : -1;
}

/* One direction's await, or the part above the device (guest), over the
 * scenario's tests: each test's weighed by the requests the device
 * completed in it, so that the two still add up to the request-weighed
 * mean. -1 where no test counted them. The sheet's cells are never below
 * 0 (that is "not measured"): a part above the device of a microsecond
 * below 0 is the two clocks' noise, shown as 0; the report keeps it. */
static double
split_us (const dm_report *r, unsigned dir, bool guest)
{
  double sum = 0, requests = 0;
  for (unsigned i = 0; i < r->n_results; i++)
    {
      const dm_device_seen *d = &r->results[i].device;
      const dm_device_split *s = &d->split[dir];
      double n = (double) (dir == DM_DEVICE_READ ? d->reads : d->writes);
      if (!s->guest_counted || n <= 0)
        continue;
      sum += (guest ? s->guest_us : s->await_us) * n;
      requests += n;
    }
  return requests > 0 ? fmax (0, sum / requests) : -1;
}

/* The await and guest columns of a direction, where any run counted it. */
static void
add_split_columns (dm_study_sheet *sh, const dm_report *const *runs, unsigned n)
{
  for (unsigned dir = 0; dir < 2; dir++)
    {
      bool any = false;
      for (unsigned i = 0; i < n && !any; i++)
        any = split_us (runs[i], dir, false) >= 0;
      for (unsigned g = 0; any && g < 2; g++)
        {
          dm_study_column *c = &sh->columns[sh->n_columns++];
          c->kind = g ? DM_STUDY_COL_GUEST : DM_STUDY_COL_AWAIT;
          c->mode = dir == DM_DEVICE_READ ? DM_MODE_READ : DM_MODE_WRITE;
          c->unit = DM_UNIT_US;
          if (g)
            snprintf (c->title, sizeof c->title, "Guest %s us", dir ? "write" : "read");
          else
            snprintf (c->title, sizeof c->title, "Device %s us", dm_device_await_name (dir));
        }
    }
}

static double
cpu_percent (const dm_report *r)
{
  double sum = 0;
  unsigned n = 0;
  for (unsigned i = 0; i < r->n_results; i++)
    if (r->results[i].status == DM_STATUS_COMPLETE)
      {
        sum += r->results[i].cpu_percent;
        n++;
      }
  return n ? sum / n : -1;
}

static void
add_column (dm_study_sheet *sh, const dm_spec *test, dm_mode mode, dm_unit unit)
{
  dm_study_column *c = &sh->columns[sh->n_columns++];
  char name[16];
  c->kind = DM_STUDY_COL_FIGURE;
  c->test = *test;
  c->mode = mode;
  c->unit = unit;
  dm_block_short (test->block_size, name, sizeof name);
  snprintf (c->title, sizeof c->title, "%s %s%s %s", dm_mode_title (mode),
            test->pattern == DM_SEQ ? "SEQ" : "RND", name, dm_unit_name (unit));
}

/* A scenario's identity among the runs: its tags (the study's among them)
 * and Q x T. */
static bool
same_scenario (const dm_report *a, const dm_report *b)
{
  dm_tag ta[DM_TAGS_ALL_MAX], tb[DM_TAGS_ALL_MAX];
  unsigned na = dm_report_tags (a, ta), nb = dm_report_tags (b, tb);
  if (na != nb || a->results[0].spec.queue_depth != b->results[0].spec.queue_depth
      || a->results[0].spec.threads != b->results[0].spec.threads)
    return false;
  for (unsigned i = 0; i < na; i++)
    {
      const char *v = dm_tags_get (tb, nb, ta[i].key);
      if (!v || strcmp (v, ta[i].value))
        return false;
    }
  return true;
}

/* The order the runs were made in. Times are whole seconds, and short
 * scenarios share one: then Q, T and the label, so the order is the same
 * every time the sheet is shown. */
static int
by_start (const void *x, const void *y)
{
  const dm_report *a = *(const dm_report *const *) x, *b = *(const dm_report *const *) y;
  if (a->started != b->started)
    return a->started < b->started ? -1 : 1;
  if (a->finished != b->finished)
    return a->finished < b->finished ? -1 : 1;
  if (a->results[0].spec.queue_depth != b->results[0].spec.queue_depth)
    return a->results[0].spec.queue_depth < b->results[0].spec.queue_depth ? -1 : 1;
  if (a->results[0].spec.threads != b->results[0].spec.threads)
    return a->results[0].spec.threads < b->results[0].spec.threads ? -1 : 1;
  return strcmp (a->comment, b->comment);
}

int
dm_study_sheet_build (const char *name, const dm_report *const *reports,
                      const char *const *paths, unsigned n, const dm_study_rule *rules,
                      unsigned n_rules, dm_study_sheet *out, char *why, size_t why_size)
{
  dm_study_sheet *sh = out;
  memset (sh, 0, sizeof *sh);
  snprintf (sh->name, sizeof sh->name, "%s", name);
  const dm_report **use = calloc (n ? n : 1, sizeof *use);
  const char **use_path = calloc (n ? n : 1, sizeof *use_path);
  unsigned k = 0;
  if (!use || !use_path)
    {
      free (use), free (use_path);
      return dm_why (why, why_size, "out of memory"), -ENOMEM;
    }
  /* The study's complete runs, one per scenario: of two, the newer. */
  for (unsigned i = 0; i < n; i++)
    {
      const dm_report *r = reports[i];
      dm_tag tags[DM_TAGS_ALL_MAX];
      unsigned nt = dm_report_tags (r, tags);
      const char *v = dm_tags_get (tags, nt, DM_STUDY_TAG_NAME);
      if (!v || strcmp (v, name) || r->status != DM_STATUS_COMPLETE || !r->n_results)
        continue;
      unsigned j = 0;
      while (j < k && !same_scenario (use[j], r))
        j++;
      if (j == k)
        k++;
      else if (use[j]->started > r->started)
        continue;
      use[j] = r;
      use_path[j] = paths ? paths[i] : NULL;
    }
  if (!k)
    {
      free (use), free (use_path);
      return dm_why (why, why_size, "no finished scenario of a study '%s' in the history", name),
             -ENOENT;
    }
  /* Rows in the order they ran; paths follow their reports. */
  const dm_report **sorted = calloc (k, sizeof *sorted);
  const char **sorted_path = calloc (k, sizeof *sorted_path);
  sh->rows = calloc (k, sizeof *sh->rows);
  if (!sorted || !sorted_path || !sh->rows)
    {
      free (use), free (use_path), free (sorted), free (sorted_path), free (sh->rows);
      sh->rows = NULL;
      return dm_why (why, why_size, "out of memory"), -ENOMEM;
    }
  memcpy (sorted, use, k * sizeof *sorted);
  qsort (sorted, k, sizeof *sorted, by_start);
  for (unsigned i = 0; i < k; i++)
    for (unsigned j = 0; j < k; j++)
      if (use[j] == sorted[i])
        sorted_path[i] = use_path[j];

  /* The columns: every test and mode any row has, Read, Write, Mix. */
  dm_spec tests[DM_STUDY_TESTS_MAX];
  unsigned n_tests = 0, modes = 0;
  for (unsigned i = 0; i < k; i++)
    for (unsigned j = 0; j < sorted[i]->n_results; j++)
      {
        const dm_result *res = &sorted[i]->results[j];
        unsigned t = 0;
        while (t < n_tests && !(tests[t].pattern == res->spec.pattern
                                && tests[t].block_size == res->spec.block_size))
          t++;
        if (t == n_tests && n_tests < DM_STUDY_TESTS_MAX)
          tests[n_tests++] = res->spec;
        modes |= DM_MODE_BIT (res->mode);
      }
  for (int m = 0; m < DM_N_MODES; m++)
    if (modes & DM_MODE_BIT (m))
      for (unsigned t = 0; t < n_tests; t++)
        {
          bool any = false;
          for (unsigned i = 0; i < k && !any; i++)
            any = find_result (sorted[i], &tests[t], (dm_mode) m) != NULL;
          for (unsigned u = 0; any && u < 3; u++)
            add_column (sh, &tests[t], (dm_mode) m, sheet_units[u]);
        }
  sh->columns[sh->n_columns].kind = DM_STUDY_COL_DEVICE_US;
  sh->columns[sh->n_columns].unit = DM_UNIT_US;
  snprintf (sh->columns[sh->n_columns++].title, sizeof sh->columns[0].title, "Device us");
  add_split_columns (sh, sorted, k);
  sh->columns[sh->n_columns].kind = DM_STUDY_COL_CPU;
  snprintf (sh->columns[sh->n_columns++].title, sizeof sh->columns[0].title, "CPU %%");

  /* The tag keys, as first met; the study's own two are the sheet's name
   * and its Target column. */
  for (unsigned i = 0; i < k; i++)
    {
      dm_tag tags[DM_TAGS_ALL_MAX];
      unsigned nt = dm_report_tags (sorted[i], tags);
      for (unsigned t = 0; t < nt; t++)
        {
          if (!strcmp (tags[t].key, DM_STUDY_TAG_NAME) || !strcmp (tags[t].key, DM_STUDY_TAG_TARGET))
            continue;
          unsigned j = 0;
          while (j < sh->n_tag_keys && strcmp (sh->tag_keys[j], tags[t].key))
            j++;
          if (j == sh->n_tag_keys && j < DM_TAGS_ALL_MAX)
            snprintf (sh->tag_keys[sh->n_tag_keys++], sizeof sh->tag_keys[0], "%s", tags[t].key);
        }
    }

  for (unsigned i = 0; i < k; i++)
    {
      const dm_report *r = sorted[i];
      dm_study_row *row = &sh->rows[i];
      dm_tag tags[DM_TAGS_ALL_MAX];
      unsigned nt = dm_report_tags (r, tags);
      const char *label = dm_tags_get (tags, nt, DM_STUDY_TAG_TARGET);
      row->nr = i + 1;
      dm_text_copy (row->target, sizeof row->target, label ? label : r->target.path);
      row->qd = r->results[0].spec.queue_depth;
      row->threads = r->results[0].spec.threads;
      row->started = r->started;
      snprintf (row->path, sizeof row->path, "%s", sorted_path[i] ? sorted_path[i] : "");
      for (unsigned j = 0; j < r->n_results && !row->advice[0]; j++)
        if (r->results[j].advice.sentence[0])
          {
            dm_text_copy (row->advice, sizeof row->advice, r->results[j].advice.sentence);
            dm_text_copy (row->advice_setting, sizeof row->advice_setting,
                          r->results[j].advice.setting);
          }
      for (unsigned t = 0; t < sh->n_tag_keys; t++)
        {
          const char *v = dm_tags_get (tags, nt, sh->tag_keys[t]);
          snprintf (row->tag_values[t], sizeof row->tag_values[t], "%s", v ? v : "");
        }
      /* The rules asked for now, else those the run was saved with. */
      dm_threshold own[DM_THRESHOLDS_MAX];
      const dm_threshold *th = r->thresholds;
      unsigned n_th = r->n_thresholds;
      if (n_rules)
        {
          n_th = dm_study_rules_at (rules, n_rules, NULL, 0, row->qd, row->threads, own,
                                    DM_THRESHOLDS_MAX);
          th = own;
        }
      unsigned n_covered = 0, n_green = 0, n_red = 0;
      for (unsigned c = 0; c < sh->n_columns; c++)
        {
          const dm_study_column *col = &sh->columns[c];
          double v = -1;
          dm_colour colour = DM_COLOUR_NONE;
          bool cov = false;
          if (col->kind == DM_STUDY_COL_FIGURE)
            {
              dm_spec at = col->test;
              at.queue_depth = (uint16_t) row->qd;
              at.threads = (uint16_t) row->threads;
              const dm_result *res = find_result (r, &col->test, col->mode);
              if (res)
                {
                  v = dm_figure_as_saved (dm_result_value (res, col->unit));
                  colour = dm_threshold_colour (th, n_th, &at, col->mode, col->unit, v);
                  cov = covered (th, n_th, &at, true, col->mode, col->unit);
                }
            }
          else if (col->kind == DM_STUDY_COL_DEVICE_US)
            {
              v = device_us (r);
              if (v >= 0)
                v = dm_figure_as_saved (v);
              /* Only a rule on latency as such, no test's or column's,
               * speaks of the device's. */
              dm_threshold plain[DM_THRESHOLDS_MAX];
              unsigned np = 0;
              for (unsigned t = 0; t < n_th; t++)
                if (!th[t].has_mode && !th[t].has_spec)
                  plain[np++] = th[t];
              if (v >= 0)
                {
                  colour = dm_threshold_colour (plain, np, &col->test, DM_MODE_READ,
                                                DM_UNIT_US, v);
                  cov = covered (plain, np, NULL, false, DM_MODE_READ, DM_UNIT_US);
                }
            }
          else if (col->kind == DM_STUDY_COL_AWAIT || col->kind == DM_STUDY_COL_GUEST)
            {
              v = split_us (r, col->mode == DM_MODE_WRITE, col->kind == DM_STUDY_COL_GUEST);
              if (v >= 0)
                v = dm_figure_as_saved (v);
            }
          else
            {
              v = cpu_percent (r);
              if (v >= 0)
                v = dm_figure_as_saved (v);
            }
          row->values[c] = v;
          row->colours[c] = colour;
          n_covered += cov;
          n_green += cov && colour == DM_COLOUR_GREEN;
          n_red += colour == DM_COLOUR_RED;
        }
      row->all_green = n_covered && n_green == n_covered && !n_red;
    }
  sh->n_rows = k;

  /* The score: each figure over the column's best (the best over it for
   * latency), averaged over the row's figures. */
  for (unsigned c = 0; c < sh->n_columns; c++)
    {
      if (sh->columns[c].kind != DM_STUDY_COL_FIGURE)
        continue;
      double best = -1;
      bool low = sh->columns[c].unit == DM_UNIT_US;
      for (unsigned i = 0; i < k; i++)
        {
          double v = sh->rows[i].values[c];
          if (v > 0 && (best < 0 || (low ? v < best : v > best)))
            best = v;
        }
      for (unsigned i = 0; i < k; i++)
        {
          double v = sh->rows[i].values[c];
          if (v > 0 && best > 0)
            sh->rows[i].score += low ? best / v : v / best;
        }
    }
  for (unsigned i = 0; i < k; i++)
    {
      unsigned figures = 0;
      for (unsigned c = 0; c < sh->n_columns; c++)
        figures += sh->columns[c].kind == DM_STUDY_COL_FIGURE && sh->rows[i].values[c] > 0;
      if (figures)
        sh->rows[i].score /= figures;
    }
  free (use), free (use_path), free (sorted), free (sorted_path);
  return 0;
}

int
dm_study_sheet_load (const char *name, const dm_study_rule *rules, unsigned n_rules,
                     dm_study_sheet *out, char *why, size_t why_size)
{
  dm_report **reports = NULL;
  char **paths = NULL;
  unsigned n = 0;
  int err = dm_study_files_load (NULL, name, &reports, &paths, &n);
  if (err < 0)
    return dm_why (why, why_size, "cannot read the history: %s", dm_strerror (err)), err;
  err = dm_study_sheet_build (name, (const dm_report *const *) reports,
                              (const char *const *) paths, n, rules, n_rules, out, why,
                              why_size);
  dm_study_files_free (reports, paths, n);
  return err;
}

void
dm_study_sheet_free (dm_study_sheet *sheet)
{
  free (sheet->rows);
  sheet->rows = NULL;
  sheet->n_rows = 0;
}

/* Whether row a ranks before row b: the higher score, then the lower Nr. */
static bool
ranks_before (const dm_study_row *a, const dm_study_row *b)
{
  return a->score != b->score ? a->score > b->score : a->nr < b->nr;
}

unsigned
dm_study_sheet_rank (const dm_study_sheet *sheet, unsigned *order)
{
  unsigned n = 0;
  /* An insertion sort: a study has tens of rows, and qsort would need the
   * sheet in a global to compare them, which two threads could not share. */
  for (unsigned i = 0; i < sheet->n_rows; i++)
    if (sheet->rows[i].all_green)
      {
        unsigned k = n++;
        while (k && ranks_before (&sheet->rows[i], &sheet->rows[order[k - 1]]))
          {
            order[k] = order[k - 1];
            k--;
          }
        order[k] = i;
      }
  return n;
}

/* --- Writers ---------------------------------------------------------------- */

static void
add_value (dm_buf *out, const dm_study_column *c, double v)
{
  if (v < 0)
    return;
  if (c->kind == DM_STUDY_COL_CPU)
    dm_buf_add_double (out, "%.1f", v);
  else
    dm_buf_add_double (out, c->unit == DM_UNIT_MBPS ? "%.2f" : c->unit == DM_UNIT_IOPS ? "%.0f"
                                                                                          : "%.1f", v);
}

void
dm_study_sheet_write_csv (const dm_study_sheet *sh, dm_buf *out)
{
  dm_buf_add (out, "nr,target");
  for (unsigned t = 0; t < sh->n_tag_keys; t++)
    {
      dm_buf_add (out, ",");
      dm_buf_add_csv_field (out, sh->tag_keys[t]);
    }
  dm_buf_add (out, ",q,t");
  for (unsigned c = 0; c < sh->n_columns; c++)
    {
      dm_buf_add (out, ",");
      dm_buf_add_csv_field (out, sh->columns[c].title);
    }
  for (unsigned c = 0; c < sh->n_columns; c++)
    {
      char h[64];
      snprintf (h, sizeof h, "%s colour", sh->columns[c].title);
      dm_buf_add (out, ",");
      dm_buf_add_csv_field (out, h);
    }
  /* The advice column only where a row has advice, so sheets without
   * any read as before. */
  bool any_advice = false;
  for (unsigned i = 0; i < sh->n_rows; i++)
    any_advice |= sh->rows[i].advice[0] != '\0';
  dm_buf_add (out, any_advice ? ",all_green,advice,advice_setting\n" : ",all_green\n");
  for (unsigned i = 0; i < sh->n_rows; i++)
    {
      const dm_study_row *row = &sh->rows[i];
      dm_buf_printf (out, "%u,", row->nr);
      dm_buf_add_csv_field (out, row->target);
      for (unsigned t = 0; t < sh->n_tag_keys; t++)
        {
          dm_buf_add (out, ",");
          dm_buf_add_csv_field (out, row->tag_values[t]);
        }
      dm_buf_printf (out, ",%u,%u", row->qd, row->threads);
      for (unsigned c = 0; c < sh->n_columns; c++)
        {
          dm_buf_add (out, ",");
          add_value (out, &sh->columns[c], row->values[c]);
        }
      for (unsigned c = 0; c < sh->n_columns; c++)
        dm_buf_printf (out, ",%s", dm_colour_name (row->colours[c]));
      dm_buf_printf (out, ",%s", row->all_green ? "yes" : "no");
      if (any_advice)
        {
          dm_buf_add (out, ",");
          dm_buf_add_csv_field (out, row->advice);
          dm_buf_add (out, ",");
          dm_buf_add_csv_field (out, row->advice_setting);
        }
      dm_buf_add (out, "\n");
    }
}

void
dm_study_sheet_write_json (const dm_study_sheet *sh, dm_buf *out)
{
  unsigned *order = calloc (sh->n_rows ? sh->n_rows : 1, sizeof *order);
  unsigned n_rank = order ? dm_study_sheet_rank (sh, order) : 0;
  dm_buf_add (out, "{\n  \"study\": ");
  dm_buf_add_json_string (out, sh->name);
  dm_buf_add (out, ",\n  \"tag_keys\": [");
  for (unsigned t = 0; t < sh->n_tag_keys; t++)
    {
      dm_buf_add (out, t ? ", " : "");
      dm_buf_add_json_string (out, sh->tag_keys[t]);
    }
  dm_buf_add (out, "],\n  \"columns\": [");
  for (unsigned c = 0; c < sh->n_columns; c++)
    {
      dm_buf_add (out, c ? ", " : "");
      dm_buf_add_json_string (out, sh->columns[c].title);
    }
  dm_buf_add (out, "],\n  \"rows\": [");
  for (unsigned i = 0; i < sh->n_rows; i++)
    {
      const dm_study_row *row = &sh->rows[i];
      dm_buf_printf (out, "%s\n    {\"nr\": %u, \"target\": ", i ? "," : "", row->nr);
      dm_buf_add_json_string (out, row->target);
      dm_buf_add (out, ", \"tags\": {");
      for (unsigned t = 0; t < sh->n_tag_keys; t++)
        {
          dm_buf_add (out, t ? ", " : "");
          dm_buf_add_json_string (out, sh->tag_keys[t]);
          dm_buf_add (out, ": ");
          dm_buf_add_json_string (out, row->tag_values[t]);
        }
      dm_buf_printf (out, "}, \"q\": %u, \"t\": %u, \"values\": {", row->qd, row->threads);
      for (unsigned c = 0; c < sh->n_columns; c++)
        {
          dm_buf_add (out, c ? ", " : "");
          dm_buf_add_json_string (out, sh->columns[c].title);
          dm_buf_add (out, ": ");
          if (row->values[c] < 0)
            dm_buf_add (out, "null");
          else
            dm_buf_add_double (out, "%.3f", row->values[c]);
        }
      dm_buf_add (out, "}, \"colours\": {");
      for (unsigned c = 0, first = 1; c < sh->n_columns; c++)
        if (row->colours[c])
          {
            dm_buf_add (out, first ? "" : ", ");
            first = 0;
            dm_buf_add_json_string (out, sh->columns[c].title);
            dm_buf_printf (out, ": \"%s\"", dm_colour_name (row->colours[c]));
          }
      dm_buf_printf (out, "}, \"all_green\": %s, \"score\": ", row->all_green ? "true" : "false");
      dm_buf_add_double (out, "%.4f", row->score);
      if (row->advice[0])
        {
          dm_buf_add (out, ", \"advice\": ");
          dm_buf_add_json_string (out, row->advice);
          dm_buf_add (out, ", \"advice_setting\": ");
          dm_buf_add_json_string (out, row->advice_setting);
        }
      dm_buf_add (out, ", \"file\": ");
      dm_buf_add_json_string (out, row->path);
      dm_buf_add (out, "}");
    }
  dm_buf_add (out, "\n  ],\n  \"ranking\": [");
  for (unsigned i = 0; i < n_rank; i++)
    dm_buf_printf (out, "%s%u", i ? ", " : "", sh->rows[order[i]].nr);
  dm_buf_add (out, "]\n}\n");
  free (order);
}

void
dm_study_sheet_write_text (const dm_study_sheet *sh, dm_buf *out)
{
  unsigned *order = calloc (sh->n_rows ? sh->n_rows : 1, sizeof *order);
  unsigned n_rank = order ? dm_study_sheet_rank (sh, order) : 0;
  dm_buf_add (out, "Study: ");
  dm_text_add_shown (out, sh->name);
  dm_buf_printf (out, " (%u scenarios)\n", sh->n_rows);
  /* Tags every row has alike once above, those that tell rows apart on
   * each row. */
  bool alike[DM_TAGS_ALL_MAX];
  bool any_alike = false;
  for (unsigned t = 0; t < sh->n_tag_keys; t++)
    {
      alike[t] = true;
      for (unsigned i = 1; i < sh->n_rows; i++)
        alike[t] &= !strcmp (sh->rows[i].tag_values[t], sh->rows[0].tag_values[t]);
      if (alike[t] && sh->n_rows && sh->rows[0].tag_values[t][0])
        {
          dm_buf_add (out, any_alike ? "  " : "Tags of every row: ");
          dm_buf_printf (out, "%s=", sh->tag_keys[t]);
          dm_text_add_shown (out, sh->rows[0].tag_values[t]);
          any_alike = true;
        }
    }
  dm_buf_add (out, any_alike ? "\n\n" : "\n");
  for (unsigned i = 0; i < sh->n_rows; i++)
    {
      const dm_study_row *row = &sh->rows[i];
      dm_buf_printf (out, "%3u  ", row->nr);
      dm_text_add_shown (out, row->target);
      dm_buf_printf (out, "  Q%u T%u", row->qd, row->threads);
      for (unsigned t = 0; t < sh->n_tag_keys; t++)
        if (row->tag_values[t][0] && !alike[t])
          {
            dm_buf_printf (out, "  %s=", sh->tag_keys[t]);
            dm_text_add_shown (out, row->tag_values[t]);
          }
      dm_buf_add (out, row->all_green ? "  [all green]\n" : "\n");
      for (unsigned c = 0; c < sh->n_columns; c++)
        {
          if (row->values[c] < 0)
            continue;
          dm_buf_printf (out, "       %-24s ", sh->columns[c].title);
          add_value (out, &sh->columns[c], row->values[c]);
          if (row->colours[c])
            dm_buf_printf (out, "  %s", dm_colour_name (row->colours[c]));
          dm_buf_add (out, "\n");
        }
      if (row->advice[0])
        {
          dm_buf_add (out, "       Advice: ");
          dm_text_add_shown (out, row->advice);
          dm_buf_add (out, "\n         change: ");
          dm_text_add_shown (out, row->advice_setting);
          dm_buf_add (out, "\n");
        }
    }
  dm_buf_add (out, "\nGreen everywhere, best first:");
  if (!n_rank)
    dm_buf_add (out, " none");
  dm_buf_add (out, "\n");
  for (unsigned i = 0; i < n_rank; i++)
    {
      const dm_study_row *row = &sh->rows[order[i]];
      dm_buf_printf (out, "%3u. Nr %u  ", i + 1, row->nr);
      dm_text_add_shown (out, row->target);
      dm_buf_printf (out, "  Q%u T%u  score ", row->qd, row->threads);
      dm_buf_add_double (out, "%.3f", row->score);
      dm_buf_add (out, "\n");
    }
  free (order);
}
