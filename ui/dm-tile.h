/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * One cell of the grid: a figure in large right-aligned digits over a meter
 * bar on CrystalDiskMark's logarithmic scale, drawn with GtkSnapshot.
 */
#pragma once

#include <gtk/gtk.h>

#include "dm-report.h"

G_BEGIN_DECLS

typedef enum
{
  DM_TILE_IDLE,     /* not being measured: a figure, or none yet */
  DM_TILE_RUNNING,  /* being measured now: figures are live */
  DM_TILE_DONE,
  DM_TILE_FAILED,
  DM_TILE_NOT_RUN,  /* a column or row this run leaves out: drawn empty */
} DmTileState;

#define DM_TYPE_TILE (dm_tile_get_type ())
G_DECLARE_FINAL_TYPE (DmTile, dm_tile, DM, TILE, GtkWidget)

GtkWidget *dm_tile_new         (void);
void       dm_tile_set_figure  (DmTile      *self,
                                const char  *digits,
                                double       fraction);
/* No figure yet: placeholder (the unit's 0) drawn in grey, the meter
 * empty. Two looks only: this one for a test that may still get a figure,
 * and DM_TILE_NOT_RUN's empty tile for one the run on screen left out. */
void       dm_tile_set_no_figure (DmTile    *self,
                                  const char *placeholder);
gboolean   dm_tile_get_has_figure (DmTile   *self);
void       dm_tile_set_state   (DmTile      *self,
                                DmTileState  state);
DmTileState dm_tile_get_state  (DmTile      *self);
const char *dm_tile_get_digits (DmTile      *self);
double     dm_tile_get_fraction (DmTile     *self);
void       dm_tile_set_description (DmTile     *self,
                                    const char *description);
const char *dm_tile_get_description (DmTile    *self);
/* A workload row's wide tile: its other figures ("15830 IOPS · p99
 * 1.23 ms", read and write apart, a rate not met), one a line in smaller
 * type left of the big figure. NULL, as plain tiles have, draws nothing. */
void       dm_tile_set_detail  (DmTile      *self,
                                const char  *detail);
const char *dm_tile_get_detail (DmTile      *self);
/* Marks the tile when the disk's own counters flagged res (a warning sign
 * in its corner and the "flagged" class) and says why in its tooltip and
 * spoken label; NULL, or a result without flags, clears the mark. */
void       dm_tile_set_device  (DmTile          *self,
                                const dm_result *res);
gboolean   dm_tile_get_flagged (DmTile          *self);
/* Each flag of res as a sentence ("Host bound: vda held …."), joined by
 * separator; NULL when res has none. */
char      *dm_tile_describe_flags (const dm_result *res,
                                   const char      *separator);

G_END_DECLS
