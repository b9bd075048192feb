/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * What every OS folder's file operations ask of the test-only fault
 * injection (dm-faults.c): whether a test armed a fault for the operation
 * they are about to make.
 */
#pragma once

#include "dm-platform.h"

/* 0, or the code to fail with when a test armed a fault at point (the
 * nth call since it was armed). */
int _dm_fault_check (dm_fault_point point);
