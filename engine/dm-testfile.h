/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The target as the runner sees it: a test file of its own in a folder, or a
 * block device the user named. Checks come first (free space, permission,
 * O_DIRECT, the block-device guard), so a refused run writes nothing.
 */
#pragma once

#include <stdatomic.h>
#include <stdbool.h>

#include "dm-report.h"

typedef struct dm_testfile {
  dm_file *file;
  uint64_t size;      /* bytes the tests may use */
  uint32_t alignment; /* offsets and lengths are multiples of this */
} dm_testfile;

/* Opens or creates the target for the report's settings; need_write says
 * whether any selected test writes. Fills report->target and, for a test
 * file, report->test_file. On error returns a negative code with a
 * one-line reason in report->error and leaves nothing behind. */
int dm_testfile_open (dm_testfile *tf, dm_report *report, const char *target, bool need_write);

/* Writes the whole file with the settings' data. Calls progress(fraction)
 * now and then; returns -ECANCELED when *cancel becomes set. */
int dm_testfile_fill (dm_testfile *tf, dm_report *report, atomic_int *cancel,
                      void (*progress) (void *user, double fraction), void *user);

void dm_testfile_close (dm_testfile *tf);
