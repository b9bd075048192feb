/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Building, judging and writing comparisons of saved or fresh runs. The
 * neutral band comes from each run's spread over its own repetitions, so a
 * drive that varies 10% from run to run is not called faster for 5%.
 */
#include "dm-compare.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dm-text.h"

const char *
dm_verdict_name (dm_verdict v)
{
  switch (v)
    {
    case DM_VERDICT_SAME:   return "same";
    case DM_VERDICT_BETTER: return "better";
    case DM_VERDICT_WORSE:  return "worse";
    default:                return "";
    }
}

/* A run's figure and the standard deviation of its repetitions, in the
 * unit. The figure is the best run, as the grid shows it. */
static void
figure (const dm_result *res, dm_unit unit, double *value, double *spread)
{
  double sum = 0, sum_sq = 0;
  unsigned n = 0;
  *value = dm_result_value (res, unit);
  for (unsigned k = 0; k < res->n_runs; k++)
    {
      const dm_run *run = &res->runs[k];
      double v = unit == DM_UNIT_MBPS ? run->mb_per_s
                 : unit == DM_UNIT_GBPS ? run->mb_per_s / 1000
                 : unit == DM_UNIT_IOPS ? run->iops : run->latency_us;
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

static const dm_result *
find_done (const dm_report *r, const dm_spec *spec, dm_mode mode)
{
  const dm_result *res = dm_report_find (r, spec, mode);
  return res && res->status == DM_STATUS_COMPLETE && res->n_runs ? res : NULL;
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
          known = c->rows[r].mode == res->mode && dm_spec_equal (&c->rows[r].spec, &res->spec);
        if (!known)
          {
            c->rows[c->n_rows].spec = res->spec;
            c->rows[c->n_rows].mode = res->mode;
            c->rows[c->n_rows].order = c->n_rows;
            c->n_rows++;
          }
      }

  for (unsigned r = 0; r < c->n_rows; r++)
    {
      dm_compare_row *row = &c->rows[r];
      for (unsigned i = 0; i < n; i++)
        {
          dm_compare_cell *cell = &row->cells[i];
          const dm_result *res = find_done (reports[i], &row->spec, row->mode);
          if (!res)
            continue;
          cell->present = true;
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

static void
run_line (dm_buf *b, const dm_compare *c, unsigned i)
{
  const dm_report *r = c->runs[i];
  char date[32];
  dm_format_local_time (r->started, date, sizeof date);
  /* Names, paths and comments as the text report shows them: one line. */
  dm_buf_printf (b, "  %c: ", 'A' + (i % 26));
  dm_text_add_shown (b, c->names[i]);
  dm_buf_printf (b, "  %s  ", date);
  dm_text_add_shown (b, r->target.path);
  dm_buf_add (b, "  [");
  dm_text_add_shown (b, r->target.filesystem);
  if (r->target.device[0])
    {
      dm_buf_add (b, ", ");
      dm_text_add_shown (b, r->target.device);
    }
  if (r->target.model[0])
    {
      dm_buf_add (b, ", ");
      dm_text_add_shown (b, r->target.model);
    }
  dm_buf_add (b, "]");
  if (r->comment[0])
    {
      dm_buf_add (b, "  \"");
      dm_text_add_shown (b, r->comment);
      dm_buf_add (b, "\"");
    }
  dm_buf_add (b, "\n");
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
  dm_buf_add (b, "\n");
  dm_buf_printf (b, "%-22s", "Test");
  for (unsigned i = 0; i < c->n_runs; i++)
    {
      dm_buf_printf (b, " %12c", 'A' + (i % 26));
      if (i > 0)
        dm_buf_printf (b, " %16s", "vs A");
    }
  dm_buf_add (b, "\n");
  for (unsigned r = 0; r < c->n_rows; r++)
    {
      const dm_compare_row *row = &c->rows[r];
      char name[48], label[32];
      dm_spec_label (&row->spec, label, sizeof label);
      snprintf (name, sizeof name, "%s %s", dm_mode_title (row->mode), label);
      dm_buf_printf (b, "%-22s", name);
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
          if (cell->verdict == DM_VERDICT_NONE)
            dm_buf_printf (b, " %16s", "");
          else
            {
              char pct[32];
              snprintf (pct, sizeof pct, "%+.1f%% %s", cell->diff_percent,
                        dm_verdict_name (cell->verdict));
              for (char *p = pct; *p; p++)
                if (*p == ',')
                  *p = '.';
              dm_buf_printf (b, " %16s", pct);
            }
        }
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
      dm_buf_add (b, "\r\n");
    }
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
      dm_buf_add (b, ", \"model\": ");
      dm_buf_add_json_string (b, r->target.model);
      dm_buf_add (b, ", \"comment\": ");
      dm_buf_add_json_string (b, r->comment);
      dm_buf_add (b, "}");
    }
  dm_buf_add (b, "\n  ],\n  \"rows\": [");
  for (unsigned r = 0; r < c->n_rows; r++)
    {
      const dm_compare_row *row = &c->rows[r];
      char name[32];
      dm_spec_name (&row->spec, name, sizeof name);
      dm_buf_printf (b, "%s\n    {\"test\": \"%s\", \"mode\": \"%s\", \"cells\": [", r ? "," : "",
                     name, dm_mode_name (row->mode));
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
