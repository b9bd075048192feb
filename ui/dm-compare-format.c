/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The text of one comparison cell. The difference is rounded to one decimal
 * and always signed, so "+0.0%" and "-0.0%" still tell which way it leaned.
 */
#include "dm-compare-format.h"

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
      return "same";
    case DM_VERDICT_NONE:
    default:
      return NULL;
    }
}
