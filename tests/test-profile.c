/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The profiles must run exactly CrystalDiskMark 8's tests, in its order,
 * or Diskmeter's figures cannot be set beside a CrystalDiskMark screenshot.
 * The expected tables are written out here by name, independently of the
 * data in dm-profile.c.
 */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "dm-profile.h"
#include "dm-test.h"

#define RW (DM_MODE_BIT (DM_MODE_READ) | DM_MODE_BIT (DM_MODE_WRITE))

static void
check_specs (const char *profile, bool nvme, const char *const *want, unsigned n_want)
{
  const dm_profile *p = dm_profile_find (profile);
  unsigned n = 0;
  DM_CHECK (p != NULL);
  if (!p)
    return;
  const dm_spec *specs = dm_profile_specs (p, nvme, &n);
  if (n != n_want)
    {
      fprintf (stderr, "%s%s has %u tests, CrystalDiskMark 8 has %u\n", profile,
               nvme ? " (NVMe)" : "", n, n_want);
      dm_test_case_failed = 1;
      return;
    }
  for (unsigned i = 0; i < n; i++)
    {
      char name[32];
      dm_spec_name (&specs[i], name, sizeof name);
      if (strcmp (name, want[i]) != 0)
        {
          fprintf (stderr, "%s%s test %u is %s, CrystalDiskMark 8 runs %s\n", profile,
                   nvme ? " (NVMe)" : "", i + 1, name, want[i]);
          dm_test_case_failed = 1;
        }
    }
}

#define CHECK_SPECS(profile, nvme, ...)                                                    \
  do                                                                                     \
    {                                                                                    \
      static const char *const want_[] = { __VA_ARGS__ };                                \
      check_specs (profile, nvme, want_, sizeof want_ / sizeof want_[0]);                \
    }                                                                                    \
  while (0)

static void
test_default (void)
{
  CHECK_SPECS ("default", false, "SEQ1M_Q8T1", "SEQ1M_Q1T1", "RND4K_Q32T1", "RND4K_Q1T1");
  CHECK_SPECS ("default", true, "SEQ1M_Q8T1", "SEQ128K_Q32T1", "RND4K_Q32T16", "RND4K_Q1T1");
  DM_CHECK_INT (dm_profile_find ("default")->modes, ==, RW);
  DM_CHECK_STR (dm_profile_find ("default")->title, "Default");
}

static void
test_peak (void)
{
  CHECK_SPECS ("peak", false, "SEQ1M_Q8T1", "RND4K_Q32T1");
  CHECK_SPECS ("peak", true, "SEQ1M_Q8T1", "RND4K_Q32T16");
  DM_CHECK_INT (dm_profile_find ("peak")->modes, ==, RW);
  DM_CHECK_STR (dm_profile_find ("peak")->title, "Peak Performance");
}

static void
test_realworld (void)
{
  CHECK_SPECS ("realworld", false, "SEQ1M_Q1T1", "RND4K_Q1T1");
  CHECK_SPECS ("realworld", true, "SEQ1M_Q1T1", "RND4K_Q1T1");
  DM_CHECK_INT (dm_profile_find ("realworld")->modes, ==, RW);
  DM_CHECK_STR (dm_profile_find ("realworld")->title, "Real World Performance");
}

static void
test_demo (void)
{
  CHECK_SPECS ("demo", false, "SEQ1M_Q8T1");
  CHECK_SPECS ("demo", true, "SEQ1M_Q8T1");
  /* Demo reads and writes only; Mix is never part of a profile. */
  DM_CHECK_INT (dm_profile_find ("demo")->modes, ==, RW);
  DM_CHECK_STR (dm_profile_find ("demo")->title, "Demo");
}

/* CrystalDiskMark 9.0.1's Flash Memory preset (DiskMarkDlg.cpp,
 * SettingsQueuesThreads case 2, IsFlashMemoryMode): the Default tests at
 * MeasureTime 1 and IntervalTime 30. No other profile times itself. */
static void
test_flash (void)
{
  CHECK_SPECS ("flash", false, "SEQ1M_Q8T1", "SEQ1M_Q1T1", "RND4K_Q32T1", "RND4K_Q1T1");
  CHECK_SPECS ("flash", true, "SEQ1M_Q8T1", "SEQ1M_Q1T1", "RND4K_Q32T1", "RND4K_Q1T1");
  const dm_profile *p = dm_profile_find ("flash");
  DM_CHECK_STR (p->title, "Flash Memory");
  DM_CHECK_INT (p->modes, ==, RW);
  DM_CHECK (p->measure_s == 1.0 && p->interval_s == 30.0);
  DM_CHECK (dm_profile_find ("flash-memory") == p);
  DM_CHECK (dm_profile_find ("Flash") == p);
  static const char *const plain[] = { "default", "peak", "realworld", "demo" };
  for (unsigned i = 0; i < 4; i++)
    DM_CHECK (dm_profile_find (plain[i])->measure_s == 0 && dm_profile_find (plain[i])->interval_s == 0);
}

static void
test_find (void)
{
  unsigned n = 0;
  const dm_profile *list = dm_profile_list (&n);
  DM_CHECK_INT (n, ==, 5);
  /* Each listed profile is found by its name, and every table fits. */
  for (unsigned i = 0; i < n; i++)
    {
      DM_CHECK (dm_profile_find (list[i].name) == &list[i]);
      DM_CHECK (list[i].n_specs >= 1 && list[i].n_specs <= DM_PROFILE_MAX_SPECS);
      DM_CHECK (list[i].n_nvme >= 1 && list[i].n_nvme <= DM_PROFILE_MAX_SPECS);
      DM_CHECK (!(list[i].modes & DM_MODE_BIT (DM_MODE_MIX)));
    }
  DM_CHECK_STR (list[0].name, "default");

  DM_CHECK (dm_profile_find ("Peak") == dm_profile_find ("peak"));
  DM_CHECK (dm_profile_find ("real-world") == dm_profile_find ("realworld"));
  DM_CHECK (dm_profile_find ("REALWORLD") == dm_profile_find ("realworld"));

  DM_CHECK (dm_profile_find ("nope") == NULL);
  DM_CHECK (dm_profile_find ("") == NULL);
  DM_CHECK (dm_profile_find (NULL) == NULL);
  DM_CHECK (dm_profile_find ("defaults") == NULL);
  DM_CHECK (dm_profile_find ("def") == NULL);
  DM_CHECK (dm_profile_find ("nvme") == NULL);
}

int
main (void)
{
  DM_RUN ("/engine/profile/default", test_default);
  DM_RUN ("/engine/profile/peak", test_peak);
  DM_RUN ("/engine/profile/realworld", test_realworld);
  DM_RUN ("/engine/profile/demo", test_demo);
  DM_RUN ("/engine/profile/flash", test_flash);
  DM_RUN ("/engine/profile/find", test_find);
  return dm_test_done ();
}
