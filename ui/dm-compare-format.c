/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The text of one comparison cell and of the lines around the table. The
 * difference is rounded to one decimal and always signed, so "+0.0%" and
 * "-0.0%" still tell which way it leaned; what a difference rests on and
 * which settings differ are the engine's words, as diskmeter-cli says them.
 */
#include "dm-compare-format.h"
#include "dm-i18n-ui.h"

#include <math.h>

#include "dm-format.h"

char *
dm_compare_cell_format (const dm_compare_cell *cell,
                        dm_unit                unit,
                        gboolean               first)
{
  g_autofree char *value = NULL;
  char diff[32];

  if (!cell->present)
    return g_strdup ("–");
  value = dm_format_value (cell->value, unit);
  if (first || cell->verdict == DM_VERDICT_NONE || !isfinite (cell->diff_percent))
    return g_steal_pointer (&value);
  /* On screen, in the user's locale like the figure beside it. */
  g_snprintf (diff, sizeof diff, "%+.1f", cell->diff_percent);
  return g_strdup_printf ("%s  %s%%", value, diff);
}

double
dm_compare_cell_meter (const dm_compare_row *row,
                       unsigned              n_runs,
                       unsigned              i)
{
  double max = 0;

  for (unsigned k = 0; k < n_runs; k++)
    if (row->cells[k].present && isfinite (row->cells[k].value))
      max = MAX (max, row->cells[k].value);
  if (i >= n_runs || !row->cells[i].present || !isfinite (row->cells[i].value) || max <= 0)
    return 0;
  return CLAMP (row->cells[i].value / max, 0.0, 1.0);
}

const char *
dm_compare_cell_class (const dm_compare_cell *cell,
                       gboolean               first)
{
  if (first || !cell->present)
    return NULL;
  switch (cell->verdict)
    {
    case DM_VERDICT_BETTER:
      return "better";
    case DM_VERDICT_WORSE:
      return "worse";
    case DM_VERDICT_SAME:
    case DM_VERDICT_ONE_RUN:
      return "same";
    case DM_VERDICT_NONE:
    default:
      return NULL;
    }
}

const char *
dm_compare_cell_note (const dm_compare_cell *cell,
                      gboolean               first)
{
  if (first || !cell->present || cell->verdict != DM_VERDICT_ONE_RUN)
    return NULL;
  /* The engine's words, so the window and diskmeter-cli say the same. */
  return dm_verdict_words (cell->verdict, true);
}

char *
dm_compare_run_letter (unsigned i)
{
  return i < 26 ? g_strdup_printf ("%c", 'A' + i) : g_strdup_printf ("%u", i + 1);
}

char *
dm_compare_row_title (const dm_compare_row *row)
{
  char name[64];

  if (row->shaped)
    return g_utf8_make_valid (row->workload.name, -1);
  dm_spec_label (&row->spec, name, sizeof name);
  return g_strdup_printf ("%s %s", name, dm_mode_title (row->mode));
}

char *
dm_compare_row_shape (const dm_compare_row *row)
{
  char shape[DM_WORKLOAD_TEXT_MAX + 64];

  if (!row->shaped)
    return NULL;
  dm_workload_describe (&row->workload, shape, sizeof shape);
  return g_utf8_make_valid (shape, -1);
}

char *
dm_compare_cell_describe (const dm_compare *c,
                          unsigned          row,
                          unsigned          i)
{
  const dm_compare_row *r = &c->rows[row];
  const dm_compare_cell *cell = &r->cells[i];
  g_autofree char *letter = dm_compare_run_letter (i);
  g_autofree char *value = NULL;
  g_autofree char *title = dm_compare_row_title (r);
  GString *s = g_string_new (NULL);

  g_string_append_printf (s, "%s, %s: ", letter, title);
  if (!cell->present)
    {
      g_string_append (s, _("not measured"));
      return g_string_free (s, FALSE);
    }
  value = dm_format_value (cell->value, c->unit);
  g_string_append_printf (s, "%s %s", value, dm_unit_display_name (c->unit));
  if (i > 0 && cell->verdict != DM_VERDICT_NONE && isfinite (cell->diff_percent))
    {
      char diff[32];

      g_snprintf (diff, sizeof diff, "%+.1f%%", cell->diff_percent);
      /* TRANSLATORS: "-3.2% against A, worse" */
      g_string_append_printf (s, _(", %s against A, %s"), diff,
                              dm_verdict_words (cell->verdict, true));
    }
  return g_string_free (s, FALSE);
}

/* Valid UTF-8 for GTK: U+FFFD where a saved text's bytes are not. */
static void
append_shown (GString    *s,
              const char *text)
{
  g_autofree char *valid = g_utf8_make_valid (text, -1);

  g_string_append (s, valid);
}

char *
dm_compare_legend (const dm_compare *c)
{
  GString *legend = g_string_new (NULL);
  gboolean one_run = FALSE;

  /* Which run is which, in the words a screenshot needs: what was
   * measured (a RAM disk is not a disk), where and when. */
  for (unsigned i = 0; i < c->n_runs; i++)
    {
      const dm_report *run = c->runs[i];
      const char *where[DM_COMPARE_WHERE_MAX];
      unsigned n = dm_compare_where (c, i, NULL, where);
      g_autofree char *letter = dm_compare_run_letter (i);
      char date[64] = "";

      if (run->started)
        dm_format_local_time (run->started, date, sizeof date);
      g_string_append_printf (legend, "%s%s:", i ? "\n" : "", letter);
      for (unsigned k = 0; k < n; k++)
        {
          g_string_append (legend, k ? " · " : " ");
          append_shown (legend, where[k]);
        }
      if (date[0])
        g_string_append_printf (legend, " · %s", date);
      if (run->comment[0])
        {
          g_string_append (legend, " · “");
          append_shown (legend, run->comment);
          g_string_append (legend, "”");
        }
    }
  for (unsigned r = 0; r < c->n_rows; r++)
    for (unsigned i = 1; i < c->n_runs; i++)
      one_run = one_run || c->rows[r].cells[i].verdict == DM_VERDICT_ONE_RUN;
  if (c->n_runs > 1)
    {
      g_string_append_c (legend, '\n');
      g_string_append (legend, one_run
                       ? _("Green: better than A, red: worse, grey: within the runs' own spread "
                           "or no spread: one run. Bars: each figure against the largest in its row.")
                       : _("Green: better than A, red: worse, grey: within the runs' own spread. "
                           "Bars: each figure against the largest in its row."));
    }
  return g_string_free (legend, FALSE);
}

char *
dm_compare_settings_line (const dm_compare *c)
{
  dm_buf out;
  char *line = NULL;

  dm_buf_init (&out);
  /* The tags that differ on a line of their own under the settings':
   * often what the user compares (controller=pvscsi vs nvme). */
  unsigned n = dm_compare_write_differences (c, true, &out);
  size_t before = out.len;
  if (n)
    dm_buf_add (&out, "\n");
  if (dm_compare_write_tag_differences (c, true, &out))
    n++;
  else
    out.len = before;
  if (n && out.data && !out.error)
    line = g_utf8_make_valid (out.data, (gssize) out.len);
  dm_buf_free (&out);
  return line;
}
