/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The workbook as dm-xlsx.c makes it (its scratch file in Diskmeter's own
 * folder, the number formats and fills, the C locale and the atomic
 * replace on close), for the other writers of export/, so every workbook
 * Diskmeter writes is made and put in place one way. libxlsxwriter builds
 * only.
 */
#pragma once

#include <stddef.h>
#include "dm-xlsx-lib.h"

#include "dm-threshold.h"
#include "dm-units.h"

typedef struct dm_xlsx_book dm_xlsx_book;

/* 0, or a negative errno with a reason. */
int dm_xlsx_book_open (dm_xlsx_book **out, char *why, size_t why_size);
lxw_workbook *dm_xlsx_book_workbook (dm_xlsx_book *book);
/* Bold, wrapped: a header cell. */
lxw_format *dm_xlsx_book_head (dm_xlsx_book *book);
/* A figure's format in unit (MB/s 0.00, IOPS 0, us 0.0), filled by colour. */
lxw_format *dm_xlsx_book_number (dm_xlsx_book *book, dm_unit unit, dm_colour colour);
/* A string cell, as the other sheets write them (control bytes escaped). */
void dm_xlsx_book_text (lxw_worksheet *ws, unsigned row, unsigned col, const char *s);
/* Writes the workbook and puts it at path whole; frees book either way. */
int dm_xlsx_book_close (dm_xlsx_book *book, const char *path, char *why, size_t why_size);
