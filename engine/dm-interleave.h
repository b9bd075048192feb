/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Two targets measured in turns (A's test 1, B's test 1, A's test 2, ...),
 * so that whatever drifts meanwhile (a neighbour VM, the array's cache, the
 * time of day) hits both alike. Both reports must hold the same tests.
 */
#pragma once

#include "dm-runner.h"

/* Prepares both targets, runs every selected result of a then b in turns
 * with the interval between any two tests, and finishes both. Returns the
 * first error (-ECANCELED when either was cancelled). */
int dm_interleave_run (dm_runner *a, dm_runner *b);

/* The order in which dm_interleave_run visits (runner, result) pairs, for
 * tests and estimates: fills up to max pairs and returns how many. */
unsigned dm_interleave_order (dm_runner *a, dm_runner *b, unsigned *which, unsigned *index,
                              unsigned max);
