/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * diskmeter-cli: the headless front end for scripts and servers. main()
 * finds the command its first word names in the table below, or else runs
 * the plain run; each command has its own file, and what they share is in
 * dm-cli-common.c. A new command is a row here and a file of its own.
 * A first word that is no command and no file but near a command's name
 * is a slip of the fingers, said as such rather than taken for a TARGET.
 */
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "dm-cli-commands.h"
#include "dm-cli-common.h"
#include "dm-cli-suggest.h"
#include "dm-i18n.h"
#include "dm-platform.h"

static const struct {
  const char *name;
  int (*main) (int argc, char **argv);
} commands[] = {
  { "compare", dm_cli_compare_main },
  { "history", dm_cli_history_main },
  { "sweep", dm_cli_sweep_main },
  { "sustained", dm_cli_sustained_main },
  { "first-write", dm_cli_firstwrite_main },
  { "cache-probe", dm_cli_cache_probe_main },
  { "show", dm_cli_show_main },
  { "merge", dm_cli_merge_main },
  { "study", dm_cli_study_main },
  { "capture", dm_cli_capture_main },
};

int
main (int argc, char **argv)
{
  int (*command) (int argc, char **argv) = dm_cli_run_main;

  /* On Windows main() gets the ANSI code page; target folders may have
   * names in any script. */
  dm_args_utf8 (&argc, &argv);
  dm_i18n_init ();
  for (size_t i = 0; argc > 1 && i < sizeof commands / sizeof commands[0]; i++)
    if (!strcmp (argv[1], commands[i].name))
      {
        command = commands[i].main;
        argc--;
        argv++;
        break;
      }
  if (command == dm_cli_run_main && argc > 1 && argv[1][0] != '-')
    {
      const char *names[sizeof commands / sizeof commands[0]];
      const char *near;
      struct stat st;
      for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        names[i] = commands[i].name;
      near = dm_cli_nearest (argv[1], strlen (argv[1]), names, sizeof names / sizeof names[0]);
      if (near && stat (argv[1], &st) < 0)
        {
          char why[300];
          snprintf (why, sizeof why, _ ("no command '%.200s'; did you mean %s?"), argv[1], near);
          return dm_cli_finish (dm_cli_usage_error (DM_CLI_RUN, why));
        }
    }
  return dm_cli_finish (command (argc, argv));
}
