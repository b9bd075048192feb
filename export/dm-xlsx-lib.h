/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The libxlsxwriter functions export/ calls, through one table: on Linux
 * the library (with minizip, libcrypto and zlib under it) is loaded when
 * the first workbook is written (dm-xlsx-lib-dl.c), not linked, so neither
 * the window nor the CLI maps it at start; the Windows build links it
 * statically and fills the table at build time (dm-xlsx-lib-linked.c).
 * The macros keep the calls as libxlsxwriter's documentation writes them.
 */
#pragma once

#include <stddef.h>
#include <xlsxwriter.h>

#define DM_XLSX_LIB_FUNCTIONS(X) \
  X (format_set_bg_color)        \
  X (format_set_bold)            \
  X (format_set_num_format)      \
  X (format_set_pattern)         \
  X (format_set_text_wrap)       \
  X (lxw_strerror)               \
  X (workbook_add_format)        \
  X (workbook_add_worksheet)     \
  X (workbook_close)             \
  X (workbook_new_opt)           \
  X (worksheet_autofilter)       \
  X (worksheet_freeze_panes)     \
  X (worksheet_set_column)       \
  X (worksheet_write_number)     \
  X (worksheet_write_string)

typedef struct dm_xlsx_lib {
#define DM_XLSX_LIB_FIELD(f) __typeof__ (f) *f;
  DM_XLSX_LIB_FUNCTIONS (DM_XLSX_LIB_FIELD)
#undef DM_XLSX_LIB_FIELD
} dm_xlsx_lib;

extern dm_xlsx_lib _dm_xlsx_lib;

/* Makes the table usable before a workbook is begun: 0, or a negative
 * code with a reason (the library cannot be loaded). */
int _dm_xlsx_lib_load (char *why, size_t why_size);

#define format_set_bg_color(...)    _dm_xlsx_lib.format_set_bg_color (__VA_ARGS__)
#define format_set_bold(...)        _dm_xlsx_lib.format_set_bold (__VA_ARGS__)
#define format_set_num_format(...)  _dm_xlsx_lib.format_set_num_format (__VA_ARGS__)
#define format_set_pattern(...)     _dm_xlsx_lib.format_set_pattern (__VA_ARGS__)
#define format_set_text_wrap(...)   _dm_xlsx_lib.format_set_text_wrap (__VA_ARGS__)
#define lxw_strerror(...)           _dm_xlsx_lib.lxw_strerror (__VA_ARGS__)
#define workbook_add_format(...)    _dm_xlsx_lib.workbook_add_format (__VA_ARGS__)
#define workbook_add_worksheet(...) _dm_xlsx_lib.workbook_add_worksheet (__VA_ARGS__)
#define workbook_close(...)         _dm_xlsx_lib.workbook_close (__VA_ARGS__)
#define workbook_new_opt(...)       _dm_xlsx_lib.workbook_new_opt (__VA_ARGS__)
#define worksheet_autofilter(...)   _dm_xlsx_lib.worksheet_autofilter (__VA_ARGS__)
#define worksheet_freeze_panes(...) _dm_xlsx_lib.worksheet_freeze_panes (__VA_ARGS__)
#define worksheet_set_column(...)   _dm_xlsx_lib.worksheet_set_column (__VA_ARGS__)
#define worksheet_write_number(...) _dm_xlsx_lib.worksheet_write_number (__VA_ARGS__)
#define worksheet_write_string(...) _dm_xlsx_lib.worksheet_write_string (__VA_ARGS__)
