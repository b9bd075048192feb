/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * libxlsxwriter loaded when the first workbook is begun (dm-xlsx-lib.h):
 * by the soname of the headers it was built with, the package the Debian
 * control file depends on by hand. Loaded once per process, from
 * whichever thread writes first.
 */
#include <pthread.h>
#include <stdio.h>

#include "dm-library.h"
#include "dm-xlsx-lib.h"

#define SONAME "libxlsxwriter.so." LXW_SOVERSION

dm_xlsx_lib _dm_xlsx_lib;

static int load_status;
static char load_why[300];
static pthread_once_t load_once = PTHREAD_ONCE_INIT;

static void
load (void)
{
#define DM_XLSX_LIB_SYMBOL(f) { #f, offsetof (dm_xlsx_lib, f) },
  static const dm_library_symbol symbols[] = { DM_XLSX_LIB_FUNCTIONS (DM_XLSX_LIB_SYMBOL) };
#undef DM_XLSX_LIB_SYMBOL
  char why[256];

  load_status = dm_library_load (SONAME, symbols, sizeof symbols / sizeof symbols[0],
                                 &_dm_xlsx_lib, why, sizeof why);
  if (load_status < 0)
    snprintf (load_why, sizeof load_why, "Excel workbooks need %s (install libxlsxwriter%s): %s",
              SONAME, LXW_SOVERSION, why);
}

int
_dm_xlsx_lib_load (char *why, size_t why_size)
{
  pthread_once (&load_once, load);
  if (load_status < 0)
    snprintf (why, why_size, "%s", load_why);
  return load_status;
}
