/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * What the option parser's files share: the checks across the options of
 * one command that are too long to sit beside the table (dm-cli-check.c).
 */
#pragma once

#include <stddef.h>

#include "dm-cli-options.h"

/* Which kind of sweep the options ask for, and that they fit it: 0 or
 * -EINVAL with a one-line reason. */
int _dm_cli_check_sweep (dm_cli_options *o, char *why, size_t ws);
/* --headroom-p99 DURATION into o. 0 or -EINVAL with a one-line reason. */
int _dm_cli_parse_headroom_p99 (dm_cli_options *o, const char *text, char *why, size_t ws);
/* That --headroom has its load (one --profile-file) and nothing it does
 * not go with, and its shorter settings where none were given. 0 or
 * -EINVAL with a one-line reason; 0 at once without --headroom. */
int _dm_cli_check_headroom (dm_cli_options *o, char *why, size_t ws);
