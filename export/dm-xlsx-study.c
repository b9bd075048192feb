/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A study's workbook: the Study sheet, one row per scenario (Nr, target,
 * tags, Q, T, figures filled green or red by the rules, All green) under
 * a header with an autofilter, so "only the rows green everywhere" is one
 * click; and the Ranking sheet of those rows, best first.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dm-xlsx.h"
#include "dm-xlsx-book.h"

/* Excel shows µ where the engine's ASCII says us. */
static void
column_title (const dm_study_column *c, char *buf, size_t size)
{
  const char *us = strstr (c->title, "us");
  size_t n = strlen (c->title);
  if (c->unit == DM_UNIT_US && us && us == c->title + n - 2)
    snprintf (buf, size, "%.*s\xc2\xb5s", (int) (n - 2), c->title);
  else
    snprintf (buf, size, "%s", c->title);
}

static dm_unit
column_unit (const dm_study_column *c)
{
  /* CPU percent has one decimal, as latency does. */
  return c->kind == DM_STUDY_COL_CPU ? DM_UNIT_US : c->unit;
}

/* The scenario's own columns, from col on: target, tags, Q, T. */
static unsigned
scenario_cells (dm_xlsx_book *b, lxw_worksheet *ws, const dm_study_sheet *sh,
                const dm_study_row *row, unsigned r, unsigned col)
{
  dm_xlsx_book_text (ws, r, col++, row->target);
  for (unsigned t = 0; t < sh->n_tag_keys; t++)
    dm_xlsx_book_text (ws, r, col++, row->tag_values[t]);
  worksheet_write_number (ws, (lxw_row_t) r, (lxw_col_t) col++, row->qd, NULL);
  worksheet_write_number (ws, (lxw_row_t) r, (lxw_col_t) col++, row->threads, NULL);
  (void) b;
  return col;
}

static unsigned
scenario_heads (dm_xlsx_book *b, lxw_worksheet *ws, const dm_study_sheet *sh, unsigned col)
{
  lxw_format *h = dm_xlsx_book_head (b);
  worksheet_write_string (ws, 0, (lxw_col_t) col++, "Target", h);
  for (unsigned t = 0; t < sh->n_tag_keys; t++)
    worksheet_write_string (ws, 0, (lxw_col_t) col++, sh->tag_keys[t], h);
  worksheet_write_string (ws, 0, (lxw_col_t) col++, "Q", h);
  worksheet_write_string (ws, 0, (lxw_col_t) col++, "T", h);
  return col;
}

static unsigned
figure_heads (dm_xlsx_book *b, lxw_worksheet *ws, const dm_study_sheet *sh, unsigned col)
{
  char title[64];
  for (unsigned c = 0; c < sh->n_columns; c++)
    {
      column_title (&sh->columns[c], title, sizeof title);
      worksheet_write_string (ws, 0, (lxw_col_t) col++, title, dm_xlsx_book_head (b));
    }
  return col;
}

static unsigned
figure_cells (dm_xlsx_book *b, lxw_worksheet *ws, const dm_study_sheet *sh,
              const dm_study_row *row, unsigned r, unsigned col)
{
  for (unsigned c = 0; c < sh->n_columns; c++, col++)
    if (row->values[c] >= 0)
      worksheet_write_number (ws, (lxw_row_t) r, (lxw_col_t) col, row->values[c],
                              dm_xlsx_book_number (b, column_unit (&sh->columns[c]),
                                                   row->colours[c]));
  return col;
}

int
dm_xlsx_write_study (const dm_study_sheet *sh, const char *path, char *why, size_t why_size)
{
  dm_xlsx_book *b;
  int err = dm_xlsx_book_open (&b, why, why_size);
  if (err < 0)
    return err;
  lxw_workbook *wb = dm_xlsx_book_workbook (b);
  lxw_format *h = dm_xlsx_book_head (b);

  lxw_worksheet *ws = workbook_add_worksheet (wb, "Study");
  worksheet_write_string (ws, 0, 0, "Nr", h);
  unsigned col = scenario_heads (b, ws, sh, 1);
  unsigned first_figure = col;
  col = figure_heads (b, ws, sh, col);
  worksheet_write_string (ws, 0, (lxw_col_t) col, "All green", h);
  /* What the facts say limits a row's queue, where any row has advice. */
  bool any_advice = false;
  for (unsigned i = 0; i < sh->n_rows; i++)
    any_advice |= sh->rows[i].advice[0] != '\0';
  if (any_advice)
    worksheet_write_string (ws, 0, (lxw_col_t) (col + 1), "Advice", h);
  unsigned last = col + any_advice;
  for (unsigned i = 0; i < sh->n_rows; i++)
    {
      const dm_study_row *row = &sh->rows[i];
      unsigned r = i + 1;
      worksheet_write_number (ws, (lxw_row_t) r, 0, row->nr, NULL);
      col = scenario_cells (b, ws, sh, row, r, 1);
      col = figure_cells (b, ws, sh, row, r, col);
      worksheet_write_string (ws, (lxw_row_t) r, (lxw_col_t) col, row->all_green ? "yes" : "no",
                              NULL);
      if (row->advice[0])
        {
          char cell[700];
          snprintf (cell, sizeof cell, "%s. Change: %s", row->advice, row->advice_setting);
          dm_xlsx_book_text (ws, r, col + 1, cell);
        }
    }
  worksheet_autofilter (ws, 0, 0, (lxw_row_t) sh->n_rows, (lxw_col_t) last);
  worksheet_freeze_panes (ws, 1, 2);
  worksheet_set_column (ws, 0, 0, 5, NULL);
  worksheet_set_column (ws, 1, 1, 16, NULL);
  if (first_figure > 2)
    worksheet_set_column (ws, 2, (lxw_col_t) (first_figure - 1), 12, NULL);
  worksheet_set_column (ws, (lxw_col_t) first_figure, (lxw_col_t) last, 13, NULL);

  /* The rows green everywhere, best first (the score: each figure over
   * its column's best, averaged). */
  unsigned *order = calloc (sh->n_rows ? sh->n_rows : 1, sizeof *order);
  unsigned n_rank = order ? dm_study_sheet_rank (sh, order) : 0;
  lxw_worksheet *rk = workbook_add_worksheet (wb, "Ranking");
  worksheet_write_string (rk, 0, 0, "Rank", h);
  worksheet_write_string (rk, 0, 1, "Nr", h);
  col = scenario_heads (b, rk, sh, 2);
  worksheet_write_string (rk, 0, (lxw_col_t) col++, "Score", h);
  unsigned rank_figures = col;
  col = figure_heads (b, rk, sh, col);
  for (unsigned i = 0; i < n_rank; i++)
    {
      const dm_study_row *row = &sh->rows[order[i]];
      unsigned r = i + 1;
      worksheet_write_number (rk, (lxw_row_t) r, 0, i + 1, NULL);
      worksheet_write_number (rk, (lxw_row_t) r, 1, row->nr, NULL);
      unsigned c = scenario_cells (b, rk, sh, row, r, 2);
      worksheet_write_number (rk, (lxw_row_t) r, (lxw_col_t) c++, row->score,
                              dm_xlsx_book_number (b, DM_UNIT_MBPS, DM_COLOUR_NONE));
      figure_cells (b, rk, sh, row, r, c);
    }
  if (!n_rank)
    worksheet_write_string (rk, 1, 0, "No scenario is green everywhere.", NULL);
  worksheet_freeze_panes (rk, 1, 3);
  worksheet_set_column (rk, 2, 2, 16, NULL);
  worksheet_set_column (rk, (lxw_col_t) rank_figures, (lxw_col_t) (col ? col - 1 : 0), 13, NULL);
  free (order);
  return dm_xlsx_book_close (b, path, why, why_size);
}
