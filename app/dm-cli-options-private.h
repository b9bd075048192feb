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
