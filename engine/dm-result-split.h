/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A row's reads and writes apart, for the exports and the text that show a
 * workload row (or a Mix test) to someone who asks what each direction
 * did: the row's figure, its best run as the grid shows it, shared out in
 * the proportions the measured runs moved bytes and I/Os in each
 * direction, so the two parts add up to the figure beside them.
 */
#pragma once

#include <stdbool.h>

#include "dm-report.h"

typedef struct dm_result_split {
  double read_mb_per_s;
  double read_iops;
  double write_mb_per_s;
  double write_iops;
  double read_share;    /* of the I/Os, 0..1 */
} dm_result_split;

/* The split of a result that ran. A pure read or write row is all one
 * direction. A Mix row's byte shares come from its timeline, its I/O
 * shares from its latency histograms (every measured I/O), each from the
 * other where one is missing and the row has a single block size. false
 * (and zeros) when the shares are unknown: a row that did not run, an
 * older report without a timeline, a size split with no timeline. */
bool dm_result_split_of (const dm_result *res, dm_result_split *out);
