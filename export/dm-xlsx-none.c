/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The Excel writer of a build without libxlsxwriter (the library is
 * optional): every call is refused with a reason, and callers (the CLI's
 * --format xlsx, the History's Excel export) can ask first.
 */
#include <errno.h>
#include <stdio.h>

#include "dm-xlsx.h"

const bool dm_xlsx_available = false;

static int
unavailable (char *why, size_t why_size)
{
  snprintf (why, why_size, "this Diskmeter was built without Excel support (libxlsxwriter)");
  return -ENOTSUP;
}

int
dm_xlsx_write_runs (const dm_report *const *runs, const char *const *labels, unsigned n,
                    const dm_threshold *rules, unsigned n_rules, const char *path, char *why,
                    size_t why_size)
{
  (void) runs, (void) labels, (void) n, (void) rules, (void) n_rules, (void) path;
  return unavailable (why, why_size);
}

int
dm_xlsx_write_merge (const dm_merge *m, const char *path, char *why, size_t why_size)
{
  (void) m, (void) path;
  return unavailable (why, why_size);
}

int
dm_xlsx_write_study (const dm_study_sheet *sheet, const char *path, char *why, size_t why_size)
{
  (void) sheet, (void) path;
  return unavailable (why, why_size);
}
