/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * diskmeter-cli's commands, the rows of the dispatcher's table
 * (diskmeter-cli.c): each has its own file and returns the process exit
 * status; their options are rows of the one option table
 * (dm-cli-options.c), and what they share is in dm-cli-common.h.
 */
#pragma once

/* diskmeter-cli [OPTIONS] TARGET: the plain run, argv[0] the program */
int dm_cli_run_main (int argc, char **argv);
/* The plain run with --headroom (dm-cli-headroom.c), its options parsed. */
struct dm_cli_job;
int dm_cli_headroom_main (struct dm_cli_job *job);
/* The others get argv[0] their own name. */
/* diskmeter-cli compare A.json B.json [C.json...] */
int dm_cli_compare_main (int argc, char **argv);
/* diskmeter-cli history [list|show|comment|export|delete] */
int dm_cli_history_main (int argc, char **argv);
/* diskmeter-cli sweep [OPTIONS] TARGET */
int dm_cli_sweep_main (int argc, char **argv);
/* diskmeter-cli sustained [OPTIONS] TARGET */
int dm_cli_sustained_main (int argc, char **argv);
/* diskmeter-cli first-write [OPTIONS] TARGET */
int dm_cli_firstwrite_main (int argc, char **argv);
/* diskmeter-cli cache-probe [OPTIONS] TARGET */
int dm_cli_cache_probe_main (int argc, char **argv);
/* diskmeter-cli merge [OPTIONS] A.json B.json [C.json...] */
int dm_cli_merge_main (int argc, char **argv);
/* diskmeter-cli show [OPTIONS] FILE */
int dm_cli_show_main (int argc, char **argv);
/* diskmeter-cli study run PLAN | show NAME */
int dm_cli_study_main (int argc, char **argv);
/* diskmeter-cli capture [OPTIONS] TARGET --for DURATION */
int dm_cli_capture_main (int argc, char **argv);
