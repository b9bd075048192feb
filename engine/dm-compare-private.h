/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The tags' parts of a comparison's writers (dm-compare-tags.c), shared
 * with dm-compare.c only.
 */
#pragma once

#include "dm-compare.h"

/* A run's tags as a JSON object: every tag, the facts among them, as the
 * run's own file has them. */
void dm_compare_json_tags (const dm_report *r, dm_buf *b);
/* {"controller": ["pvscsi", "nvme"], ...}: the tags that differ, each
 * run's value in order, null for none. */
void dm_compare_json_different_tags (const dm_compare *c, dm_buf *b);
/* When a run has tags of the user's: adds the header's columns
 * ",A_tags,B_tags,...,different_tags" to header and the fields every row
 * ends with to row, and returns true; false and nothing added without. */
bool dm_compare_csv_tags (const dm_compare *c, dm_buf *header, dm_buf *row);
