/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The test sets of CrystalDiskMark 8: Default, Peak, Real World and Demo,
 * each with its NVMe preset, and CrystalDiskMark 9's Flash Memory preset. A profile is only a list of specs and the
 * columns it shows; the runner knows nothing about profiles.
 */
#pragma once

#include <stdbool.h>

#include "dm-spec.h"

#define DM_PROFILE_MAX_SPECS 4

typedef struct dm_profile {
  const char *name;   /* "default", "peak", "realworld", "demo" */
  const char *title;  /* "Default", "Peak Performance", ... */
  dm_spec     specs[DM_PROFILE_MAX_SPECS];
  unsigned    n_specs;
  dm_spec     nvme[DM_PROFILE_MAX_SPECS];
  unsigned    n_nvme;
  unsigned    modes; /* DM_MODE_BIT mask of the columns (Mix is added by the user) */
  /* A profile that times its tests itself (0: the settings' own): Flash
   * Memory measures 1 s and rests 30 s between tests, so that a USB stick
   * or an SD card cools down and its cache drains. A --duration or
   * --interval the user gives still wins. */
  double      measure_s;
  double      interval_s;
} dm_profile;

const dm_profile *dm_profile_find (const char *name);
const dm_profile *dm_profile_list (unsigned *n);
/* The name a person reads for a profile's key, the Profile menu's word:
 * "default" is "Default", "custom" "Custom"; an unknown key is itself.
 * Files and options keep the key; every front end shows this. */
const char *dm_profile_title_of (const char *name);
/* The specs to run: the NVMe preset or the normal one. */
const dm_spec *dm_profile_specs (const dm_profile *profile, bool nvme, unsigned *n);
