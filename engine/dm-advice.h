/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Advice from the facts: for a result whose queue never reached the disk
 * (host_bound, queue_not_held), one sentence naming the queue of the
 * machine's own controller or block layer that admits fewer I/Os than the
 * test asked, the setting administrators change, and where it is
 * documented. Every driver's entry lives in one table in dm-advice.c.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>

#include "dm-device.h"
#include "dm-platform.h"

typedef struct dm_advice {
  char sentence[240]; /* "Q32T16 asks for 512 I/Os; vmw_pvscsi admits 64 per disk here
                       * (its LUN queue_depth)"; "" when there is no advice */
  char setting[400];  /* what to change: a module parameter, a registry value */
  char source[240];   /* where that is documented */
} dm_advice;

/* The advice for a result flagged host_bound or queue_not_held, or whose
 * device's own queue (seen->queue_limit) is shorter than Q x T, when the
 * target's facts name a driver in the table and a queue of it smaller
 * than Q x T; of several such queues the smallest. False, with advice
 * emptied, for a result neither flagged nor limited, an unknown driver, a
 * queue the facts do not tell, or one that admits all that was asked. */
bool dm_advice_for (const dm_target_info *target, const dm_device_seen *seen,
                    const dm_device_ask *ask, dm_advice *advice);
