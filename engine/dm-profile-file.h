/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Profile files: workloads a person writes, edits and shares, in an
 * INI-like text as fio's job files and CrystalDiskMark's settings are.
 * Each [section] is one workload row named by its header; its lines are
 * the same key = value words as --workload takes. # and ; start comments.
 */
#pragma once

#include <stddef.h>

#include "dm-workload.h"

#define DM_PROFILE_FILE_ROWS 64
#define DM_PROFILE_FILE_MAX  (1u << 20) /* bytes: a profile, not a data file */

/* Parses text into up to max workloads. 0, or -EINVAL with one line,
 * "line N: reason", in why. */
int dm_profile_file_parse (const char *text, size_t len, dm_workload *out, unsigned max,
                           unsigned *n, char *why, size_t why_size);
/* Reads and parses a file (UTF-8 path); the reason names the file. */
int dm_profile_file_load (const char *path, dm_workload *out, unsigned max, unsigned *n,
                          char *why, size_t why_size);
