/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The tests a command line asks for: --tests parsed into specs, the
 * profile's own otherwise, and the workload rows of --profile-file read
 * once every option is known. Apart from the option table's file, which
 * they would make too long to read.
 */
#include "dm-cli-options.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "dm-i18n.h"
#include "dm-profile.h"
#include "dm-profile-file.h"
#include "dm-units.h"

int
dm_cli_parse_tests (const char *list, dm_cli_options *o, char *why, size_t why_size)
{
  const char *p = list;
  o->n_tests = 0;
  while (p && *p)
    {
      const char *end = strchr (p, ',');
      size_t n = end ? (size_t) (end - p) : strlen (p);
      char word[64], inner[200];
      if (n == 0 || n >= sizeof word)
        return dm_why (why, why_size, _ ("--tests: '%s' is not a list of test names"), list);
      if (o->n_tests == DM_CLI_MAX_TESTS)
        return dm_why (why, why_size, _ ("--tests: at most %d tests"), DM_CLI_MAX_TESTS);
      memcpy (word, p, n);
      word[n] = '\0';
      /* The spec parser's reason names the test; say which option too. */
      if (dm_spec_parse (word, &o->tests[o->n_tests], inner, sizeof inner) < 0)
        return dm_why (why, why_size, _ ("--tests: %s"), inner);
      o->n_tests++;
      p = end ? end + 1 : NULL;
    }
  if (!o->n_tests)
    return dm_why (why, why_size, _ ("--tests needs at least one test name"));
  return 0;
}

int
dm_cli_load_profile_files (dm_cli_options *o, char *why, size_t why_size)
{
  for (unsigned i = 0; i < o->n_profile_files; i++)
    {
      unsigned got = 0;
      char reason[400];
      if (dm_profile_file_load (o->profile_files[i], o->workloads + o->n_workloads,
                                DM_CLI_MAX_WORKLOADS - o->n_workloads, &got, reason,
                                sizeof reason) < 0)
        return dm_why (why, why_size, _ ("--profile-file: %s"), reason);
      o->n_workloads += got;
    }
  /* A reason quotes the file; a control character in it stays one line. */
  return 0;
}

const dm_spec *
dm_cli_specs (const dm_cli_options *o, unsigned *n, unsigned *modes)
{
  const dm_profile *p = dm_profile_find (o->profile);
  *modes = o->modes ? o->modes : p->modes | (o->mix ? DM_MODE_BIT (DM_MODE_MIX) : 0);
  if (o->n_tests)
    {
      *n = o->n_tests;
      return o->tests;
    }
  return dm_profile_specs (p, o->nvme, n);
}
