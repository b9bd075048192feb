/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The names diskmeter-cli's commands call the Excel writer by. The writer
 * itself lives in export/ (dm-xlsx.h), shared with the window's History;
 * these forward to it unchanged.
 */
#pragma once

#include "dm-xlsx.h"

#define dm_cli_xlsx_available dm_xlsx_available

static inline int
dm_cli_xlsx_write_runs (const dm_report *const *runs, const char *const *labels, unsigned n,
                        const dm_threshold *rules, unsigned n_rules, const char *path,
                        char *why, size_t why_size)
{
  return dm_xlsx_write_runs (runs, labels, n, rules, n_rules, path, why, why_size);
}

static inline int
dm_cli_xlsx_write_merge (const dm_merge *m, const char *path, char *why, size_t why_size)
{
  return dm_xlsx_write_merge (m, path, why, why_size);
}
