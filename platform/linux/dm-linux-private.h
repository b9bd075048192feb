/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * What the Linux backends need to know about a dm_file.
 */
#pragma once

#include "dm-platform.h"

struct dm_file {
  int  fd;
  bool direct;
  bool nocow;  /* copy-on-write switched off before the first byte (btrfs) */
};

/* Non-zero (the code to fail with) when a test armed a fault at point. */
int _dm_fault_check (dm_fault_point point);
