/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * libFuzzer target for diskmeter-cli's option parser: the input is split at
 * NUL bytes into an argument vector. Every outcome must be a parse or a
 * refusal with a one-line reason, never a crash.
 */
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

  dm_cli_options o;
  char why[320];
  if (dm_cli_parse (argc, argv, &o, why, sizeof why) < 0)
    {
      if (!why[0] || strchr (why, '\n'))
        abort ();
    }
  else if (!o.help && !o.version && !o.list_targets)
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
