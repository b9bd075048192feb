/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Every completed or cancelled run is kept as its JSON report in the user's
 * data folder, never overwritten, so this week can be compared with last
 * week. The history lists them with their headline figures, and can rename
 * a run's comment, export or delete one; a file that will not load is
 * listed with its reason and left alone.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "dm-report.h"

typedef struct dm_history_entry {
  char      path[1100];
  char      name[128];        /* file name inside the history folder */
  bool      ok;               /* loaded; else error says why */
  char      error[200];
  int64_t   started;
  dm_status status;
  char      target[256];
  char      device[128];
  char      model[128];
  char      profile[32];
  char      comment[200];
  /* The user's tags (dm_report_user_tags), "key=value, key=value" shown
   * safely, cut at a character boundary; "" without. */
  char      tags[256];
  double    seq_read_mb_s;    /* headline: best SEQ read, MB/s (0 if none) */
  double    seq_write_mb_s;
  double    rnd_read_iops;    /* headline: best RND read, IOPS */
  double    rnd_write_iops;
  /* A run of workload rows (profile "workloads"): how many, their names
   * in order with ", " between (cut at a character boundary), and the
   * profile's hash; 0 and "" for CrystalDiskMark's tests, whose headline
   * figures are above (a workload row has none of those). */
  unsigned  n_workloads;
  char      workloads[256];
  char      profile_hash[17];
} dm_history_entry;

/* The profile as the listing names it: "Workloads" for workload rows,
 * else the profile's title ("Default", "Custom"), in English. */
const char *dm_history_profile_title (const dm_history_entry *e);

/* The history folder, created if missing. */
int dm_history_dir (char *buf, size_t size);

/* Saves a report under a new name (date, time and target), never over an
 * existing file; the path used is returned in path. */
int dm_history_save (const dm_report *report, char *path, size_t path_size);

/* The saved runs, newest first. Free with dm_history_free. */
int  dm_history_list (dm_history_entry **entries, unsigned *n);
void dm_history_free (dm_history_entry *entries);

/* Loads a saved run (any path, not only in the history). */
int dm_history_load (const char *path, dm_report *report, char *why, size_t why_size);

/* Changes the comment of a saved run in place (atomically). */
int dm_history_set_comment (const char *path, const char *comment, char *why, size_t why_size);

/* Deletes a saved run; only .json files inside the history folder. */
int dm_history_delete (const char *path);
