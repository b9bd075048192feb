/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Prints the words bash completion offers for diskmeter-cli's values that
 * --help does not spell out: the profiles and their tests (from the
 * engine's own tables) and the columns. Run at build time; its output
 * heads the installed completion file, so the lists cannot drift.
 */
#include <stdio.h>

#include "dm-profile.h"
#include "dm-spec.h"

static void
print_tests (const dm_spec *specs, unsigned n, const dm_spec **seen, unsigned *n_seen)
{
  for (unsigned i = 0; i < n; i++)
    {
      char name[32];
      unsigned j;

      for (j = 0; j < *n_seen; j++)
        if (dm_spec_equal (seen[j], &specs[i]))
          break;
      if (j < *n_seen)
        continue;
      dm_spec_name (&specs[i], name, sizeof name);
      printf ("%s%s", *n_seen ? " " : "", name);
      seen[(*n_seen)++] = &specs[i];
    }
}

int
main (void)
{
  unsigned n_profiles, n_seen = 0;
  const dm_profile *profiles = dm_profile_list (&n_profiles);
  const dm_spec *seen[64 * 2 * DM_PROFILE_MAX_SPECS];

  if (n_profiles > 64)
    return 1;
  printf ("_dm_cli_profiles='");
  for (unsigned i = 0; i < n_profiles; i++)
    printf ("%s%s", i ? " " : "", profiles[i].name);
  printf ("'\n_dm_cli_tests='");
  for (unsigned i = 0; i < n_profiles; i++)
    {
      print_tests (profiles[i].specs, profiles[i].n_specs, seen, &n_seen);
      print_tests (profiles[i].nvme, profiles[i].n_nvme, seen, &n_seen);
    }
  printf ("'\n_dm_cli_modes='");
  for (int m = 0; m < DM_N_MODES; m++)
    printf ("%s%s", m ? " " : "", dm_mode_name ((dm_mode) m));
  printf ("'\n");
  return ferror (stdout) ? 1 : 0;
}
