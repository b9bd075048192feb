/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The Study window's table as a model a GtkColumnView shows: one
 * DmStudyItem per row of the study's sheet (engine/dm-study.h), a sorter
 * for each of the table's columns and the "only all-green rows" filter.
 * No widget here, so the sorting and filtering are tested without a
 * display (tests/test-ui-study.c).
 */
#pragma once

#include <gtk/gtk.h>

#include "dm-study.h"

G_BEGIN_DECLS

#define DM_TYPE_STUDY_ITEM (dm_study_item_get_type ())
G_DECLARE_FINAL_TYPE (DmStudyItem, dm_study_item, DM, STUDY_ITEM, GObject)

/* A copy of the sheet's row. */
DmStudyItem        *dm_study_item_new  (const dm_study_row *row);
const dm_study_row *dm_study_item_row  (DmStudyItem        *item);

/* The table's columns, left to right: Nr, Target, the sheet's tag keys
 * whose value differs between rows, Q, T, then the sheet's figure
 * columns. */
typedef enum
{
  DM_STUDY_KEY_NR,
  DM_STUDY_KEY_TARGET,
  DM_STUDY_KEY_TAG,      /* index: into sheet->tag_keys */
  DM_STUDY_KEY_Q,
  DM_STUDY_KEY_T,
  DM_STUDY_KEY_VALUE,    /* index: into sheet->columns */
} DmStudyKey;

/* How many columns the table of sheet has, and the key of the i-th. */
guint       dm_study_model_n_columns (const dm_study_sheet *sheet);
void        dm_study_model_column    (const dm_study_sheet *sheet,
                                      guint                 i,
                                      DmStudyKey           *key,
                                      guint                *index);
/* Its title: "Nr", "Target", the tag key, "Q", "T", the column's title. */
char       *dm_study_model_title     (const dm_study_sheet *sheet,
                                      guint                 i);
/* The cell's text and, for a figure, its colour (else DM_COLOUR_NONE). */
char       *dm_study_model_cell      (const dm_study_sheet *sheet,
                                      const dm_study_row   *row,
                                      DmStudyKey            key,
                                      guint                 index,
                                      dm_colour            *colour);

/* Replaces store's items with one per row of sheet, in the sheet's order. */
void        dm_study_model_fill      (GListStore           *store,
                                      const dm_study_sheet *sheet);
/* Ascending by the column: numbers as numbers, text as text, a figure not
 * measured after every measured one; ties keep the sheet's order (Nr). */
GtkSorter  *dm_study_model_sorter    (DmStudyKey            key,
                                      guint                 index);
/* Keeps the rows whose every ruled cell is green (the sheet's all_green). */
GtkFilter  *dm_study_model_green_filter (void);

G_END_DECLS
