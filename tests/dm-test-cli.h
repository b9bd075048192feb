/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * What the command-line tests share: the options a parse fills and the
 * reason it gives, set to a line of 'x' before each parse so that a
 * refusal which writes no reason shows as one.
 */
#pragma once

#include <string.h>

#include "dm-cli-options.h"

#define MAX_ARGS 32

static dm_cli_options o;
static char why[512];

static inline void
spoil_why (void)
{
  memset (why, 'x', sizeof why - 1);
  why[sizeof why - 1] = '\0';
}
