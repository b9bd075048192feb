/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * libFuzzer target for diskmeter-cli's option parser: the input is split at
 * NUL bytes into an argument vector, whose first word may name a command
 * (sweep, compare...) as on the real command line. Every outcome must be a
 * parse or a refusal with a one-line reason, never a crash; --help must
 * write its text.
 */
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "dm-cli-options.h"

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  char *copy = malloc (size + 1);
  char *argv[66];
  int argc = 1;
  if (!copy)
    return 0;
  memcpy (copy, data, size);
  copy[size] = '\0';
  argv[0] = (char *) "diskmeter-cli";
  for (char *p = copy; p <= copy + size && argc < 64; p += strlen (p) + 1)
    argv[argc++] = p;
  argv[argc] = NULL;

  static dm_cli_options o;
  char why[320];
  dm_cli_command command = argc > 1 ? dm_cli_command_find (argv[1]) : 0;
  int err = command ? dm_cli_parse_command (command, argc - 1, argv + 1, &o, why, sizeof why)
                    : dm_cli_parse (argc, argv, &o, why, sizeof why);
  if (err < 0)
    {
      if (err != -EINVAL || !why[0] || strchr (why, '\n'))
        abort ();
    }
  else if (o.help)
    {
      dm_buf help;
      dm_buf_init (&help);
      dm_cli_write_help (o.command, &help);
      if (help.error || !help.data || strncmp (help.data, "Usage: ", 7) != 0)
        abort ();
      dm_buf_free (&help);
    }
  else if (command && !o.version)
    {
      char check[200];
      if ((command & (DM_CLI_SWEEP | DM_CLI_SUSTAINED)) && !o.target)
        abort ();
      if ((command & (DM_CLI_COMPARE | DM_CLI_MERGE)) && o.n_args < 2)
        abort ();
      if (dm_settings_check (&o.settings, check, sizeof check) < 0)
        abort ();
    }
  else if (!o.version && !o.list_targets)
    {
      unsigned n, modes;
      const dm_spec *specs = dm_cli_specs (&o, &n, &modes);
      if (!specs || !n || !modes)
        abort ();
      char check[200];
      if (dm_settings_check (&o.settings, check, sizeof check) < 0)
        abort (); /* the parser let through something the engine refuses */
    }
  free (copy);
  return 0;
}
