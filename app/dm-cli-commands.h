/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * diskmeter-cli's subcommands besides the plain run: each has its own
 * file, options and usage, and returns the process exit status.
 */
#pragma once

/* diskmeter-cli compare A.json B.json [C.json...] */
int dm_cli_compare_main (int argc, char **argv);
/* diskmeter-cli history [list|show|comment|export|delete] */
int dm_cli_history_main (int argc, char **argv);
/* diskmeter-cli sweep [OPTIONS] TARGET */
int dm_cli_sweep_main (int argc, char **argv);
