/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A backend that passes I/O to the machine's real backend and tampers with
 * one completion: an error code, a short transfer, a request to retry, a
 * late arrival, or one that never arrives. The runner sees real I/O with
 * one fault in it.
 */
#pragma once

#include <stdint.h>

#include "dm-backend.h"

typedef enum {
  DM_TAMPER_NONE,
  DM_TAMPER_ERROR,  /* completion n carries code */
  DM_TAMPER_SHORT,  /* completion n moved half its bytes */
  DM_TAMPER_ZERO,   /* completion n moved no bytes */
  DM_TAMPER_RETRY,  /* completions n..n+count-1 ask for a retry (-EAGAIN) */
  DM_TAMPER_LATE,   /* completion n arrives delay_ns late */
  DM_TAMPER_NEVER,  /* completions n..n+count-1 never arrive (count 0: none from n on) */
} dm_tamper;

typedef struct dm_fault_config {
  dm_tamper what;
  uint64_t  nth;
  int32_t   code;
  unsigned  count;
  uint64_t  delay_ns;
} dm_fault_config;

extern const dm_backend dm_fault_backend;
void dm_fault_backend_setup (const dm_fault_config *config);
/* How many completions were tampered with. */
unsigned dm_fault_backend_hits (void);
