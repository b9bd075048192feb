/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * diskmeter-cli's subcommands besides the plain run: each has its own
 * file, options and usage, and returns the process exit status.
 */
#pragma once

#include <stdbool.h>

#include "dm-report.h"

/* diskmeter-cli compare A.json B.json [C.json...] */
int dm_cli_compare_main (int argc, char **argv);
/* diskmeter-cli history [list|show|comment|export|delete] */
int dm_cli_history_main (int argc, char **argv);
/* diskmeter-cli sweep [OPTIONS] TARGET */
int dm_cli_sweep_main (int argc, char **argv);
/* diskmeter-cli sustained [OPTIONS] TARGET */
int dm_cli_sustained_main (int argc, char **argv);
/* diskmeter-cli merge A.json B.json [C.json...] [--format text|json|csv|xlsx] */
int dm_cli_merge_main (int argc, char **argv);
/* diskmeter-cli show FILE [--format text|json|csv] [--latency] [--output FILE] */
int dm_cli_show_main (int argc, char **argv);

/* A report as text (with the latency table if asked), JSON or CSV, to
 * stdout or atomically to file. 0 or -errno. */
int dm_cli_write_report (const dm_report *r, const char *format, bool latency, const char *file);
