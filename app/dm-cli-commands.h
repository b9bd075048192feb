/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * diskmeter-cli's subcommands besides the plain run: each has its own
 * file and returns the process exit status; their options are rows of the
 * one option table (dm-cli-options.c), parsed by dm_cli_start.
 */
#pragma once

#include <stdbool.h>

#include "dm-cli-options.h"
#include "dm-report.h"

/* Parses command's line into o through the option table. -1 to go on;
 * otherwise the exit status to return at once: 2 after a one-line reason
 * for bad usage, 0 after --help or --version. */
int dm_cli_start (dm_cli_command command, int argc, char **argv, dm_cli_options *o);

/* diskmeter-cli compare A.json B.json [C.json...] */
int dm_cli_compare_main (int argc, char **argv);
/* diskmeter-cli history [list|show|comment|export|delete] */
int dm_cli_history_main (int argc, char **argv);
/* diskmeter-cli sweep [OPTIONS] TARGET */
int dm_cli_sweep_main (int argc, char **argv);
/* diskmeter-cli sustained [OPTIONS] TARGET */
int dm_cli_sustained_main (int argc, char **argv);
/* diskmeter-cli merge [OPTIONS] A.json B.json [C.json...] */
int dm_cli_merge_main (int argc, char **argv);
/* diskmeter-cli show [OPTIONS] FILE */
int dm_cli_show_main (int argc, char **argv);

/* Sends buf to file, by the platform's rules for output files (a stream
 * such as /dev/stdout written into, a file replaced atomically), or to
 * stdout when file is NULL, flushed. 0 or -errno: -ENOSPC for a full disk,
 * never a vaguer code in its place. */
int dm_cli_emit (const dm_buf *buf, const char *file);

/* The exit status, after the last check of stdout: a write that failed
 * unseen (a line printed with printf) or a failing close turns a success
 * into 1, with one line saying why. Every command's status passes here. */
int dm_cli_finish (int status);

/* s as the terminal may show it: controls and bytes that are not UTF-8
 * escaped (dm_text_shown). Valid until the fourth call after, per thread. */
const char *dm_cli_shown (const char *s);

/* A report as text (with the latency table if asked), JSON or CSV, to
 * stdout or atomically to file. 0 or -errno. */
int dm_cli_write_report (const dm_report *r, dm_format format, bool latency, const char *file);
