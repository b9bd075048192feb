/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * What the Linux backends need to know about a dm_file.
 */
#pragma once

#include "dm-platform.h"

struct dm_file {
  int  fd;
  bool direct;
};
