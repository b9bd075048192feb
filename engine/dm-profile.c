/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * CrystalDiskMark 8's profiles and their NVMe presets, as data, and
 * CrystalDiskMark 9's Flash Memory preset: the Default tests (SEQ1M Q8T1,
 * SEQ1M Q1T1, RND4K Q32T1, RND4K Q1T1) measured for 1 s each with 30 s
 * between them (CrystalDiskMark 9.0.1, DiskMarkDlg.cpp,
 * SettingsQueuesThreads case 2 and IsFlashMemoryMode).
 */
#include "dm-profile.h"

#include <stddef.h>

#include "dm-units.h"

#define SEQ(kib, q, t) { DM_SEQ, (kib) * 1024u, q, t }
#define RND(kib, q, t) { DM_RND, (kib) * 1024u, q, t }
#define RW   (DM_MODE_BIT (DM_MODE_READ) | DM_MODE_BIT (DM_MODE_WRITE))

static const dm_profile profiles[] = {
  { "default", "Default",
    { SEQ (1024, 8, 1), SEQ (1024, 1, 1), RND (4, 32, 1), RND (4, 1, 1) }, 4,
    { SEQ (1024, 8, 1), SEQ (128, 32, 1), RND (4, 32, 16), RND (4, 1, 1) }, 4, RW },
  { "peak", "Peak Performance",
    { SEQ (1024, 8, 1), RND (4, 32, 1) }, 2,
    { SEQ (1024, 8, 1), RND (4, 32, 16) }, 2, RW },
  { "realworld", "Real World Performance",
    { SEQ (1024, 1, 1), RND (4, 1, 1) }, 2,
    { SEQ (1024, 1, 1), RND (4, 1, 1) }, 2, RW },
  { "demo", "Demo",
    { SEQ (1024, 8, 1) }, 1,
    { SEQ (1024, 8, 1) }, 1, RW },
  { "flash", "Flash Memory",
    { SEQ (1024, 8, 1), SEQ (1024, 1, 1), RND (4, 32, 1), RND (4, 1, 1) }, 4,
    { SEQ (1024, 8, 1), SEQ (1024, 1, 1), RND (4, 32, 1), RND (4, 1, 1) }, 4, RW, 1.0, 30.0 },
};

const dm_profile *
dm_profile_list (unsigned *n)
{
  *n = sizeof profiles / sizeof profiles[0];
  return profiles;
}

const dm_profile *
dm_profile_find (const char *name)
{
  if (!name)
    return NULL;
  for (size_t i = 0; i < sizeof profiles / sizeof profiles[0]; i++)
    if (!dm_ascii_casecmp (name, profiles[i].name))
      return &profiles[i];
  if (!dm_ascii_casecmp (name, "real-world") || !dm_ascii_casecmp (name, "real_world"))
    return dm_profile_find ("realworld");
  if (!dm_ascii_casecmp (name, "flash-memory") || !dm_ascii_casecmp (name, "flashmemory"))
    return dm_profile_find ("flash");
  return NULL;
}

const char *
dm_profile_title_of (const char *name)
{
  const dm_profile *p = dm_profile_find (name);

  if (p)
    return p->title;
  if (!name || !*name || !dm_ascii_casecmp (name, "custom"))
    return "Custom";
  return name;
}

const dm_spec *
dm_profile_specs (const dm_profile *profile, bool nvme, unsigned *n)
{
  *n = nvme ? profile->n_nvme : profile->n_specs;
  return nvme ? profile->nvme : profile->specs;
}
