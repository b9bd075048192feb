/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * diskmeter-cli: the headless front end for scripts and servers. main()
 * finds the command its first word names in the table below, or else runs
 * the plain run; each command has its own file, and what they share is in
 * dm-cli-common.c. A new command is a row here and a file of its own.
 */
#include <string.h>

#include "dm-cli-commands.h"
#include "dm-cli-common.h"
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
  { "show", dm_cli_show_main },
  { "merge", dm_cli_merge_main },
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
  return dm_cli_finish (command (argc, argv));
}
