/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The arithmetic behind the grid, kept apart from widgets so that tests can
 * check it without a display: how a figure reads in each unit, how full the
 * meter bar is, which rows and columns a profile shows, and what assistive
 * technology hears for a tile.
 */
#pragma once

#include <glib.h>

#include "dm-profile.h"
#include "dm-report.h"
#include "dm-spec.h"
#include "dm-units.h"

G_BEGIN_DECLS

#define DM_GRID_MAX_ROWS DM_PROFILE_MAX_SPECS

typedef struct
{
  dm_spec  rows[DM_GRID_MAX_ROWS]; /* one per test, top to bottom */
  guint    n_rows;
  dm_mode  columns[DM_N_MODES];    /* Read, Write and, when enabled, Mix */
  guint    n_columns;
} DmGridLayout;

char   *dm_format_value       (double       value,
                               dm_unit      unit);
double  dm_meter_fraction     (double       mb_per_s);
/* How full a tile's meter is for value in unit (the figure beside it):
 * higher throughput or IOPS, or lower latency, is fuller; 0 for none. */
double  dm_meter_fraction_in  (double       value,
                               dm_unit      unit);
void    dm_grid_layout_init   (DmGridLayout *layout,
                               const dm_profile *profile,
                               gboolean     nvme,
                               gboolean     mix);
void    dm_grid_layout_custom (DmGridLayout *layout,
                               const dm_spec *specs,
                               guint        n_specs,
                               gboolean     mix);
guint   dm_grid_layout_modes  (const DmGridLayout *layout);
char   *dm_tile_describe      (const dm_spec *spec,
                               dm_mode      mode,
                               double       value,
                               dm_unit      unit,
                               gboolean     has_value);
const char *dm_unit_display_name (dm_unit unit);
char   *dm_format_seconds_left (double     seconds);
/* A latency for the latency detail's table: three significant digits in
 * µs, ms or s, trailing zeros kept ("1.70 ms", "27.4 µs"); "–" for none. */
char   *dm_format_latency_us  (double     us);

/* The "modes" setting (the modes action's state, --modes): "all", or a
 * list in diskmeter-cli's --modes form ("read", "write,mix"), as a
 * DM_MODE_BIT mask; FALSE with a sentence in why for anything else. */
gboolean  dm_modes_setting_parse  (const char     *text,
                                   guint          *mask,
                                   char           *why,
                                   gsize           why_size);
/* A mask in that form: "all" for every column, else "read,mix". */
char     *dm_modes_setting_format (guint           mask);

G_END_DECLS
