/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * An in-memory I/O backend for tests: it completes I/O without touching a
 * disk, records every offset it is given, and can be told to fail, to
 * transfer short, to be slow, to complete in bursts, to give each I/O a
 * service time of its own, or to never complete, so the runner's answers
 * to each of those can be checked without a broken device.
 */
#pragma once

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "dm-backend.h"
#include "dm-histogram.h"

typedef struct dm_test_record {
  uint64_t    offset;
  uint32_t    len;
  uint8_t     write;
  uint8_t     queue; /* which worker queue (thread) it came from, mod 256 */
  uint64_t    head;  /* first 8 bytes of the buffer, for writes */
  const void *buf;   /* where the data was to go or come from */
} dm_test_record;

typedef struct dm_test_backend_config {
  uint64_t fail_after;   /* the n-th I/O (1-based) completes with fail_code; 0 = never */
  int32_t  fail_code;    /* e.g. -EIO */
  bool     short_io;     /* the n-th I/O moves half its bytes instead of failing */
  bool     zero_io;      /* the n-th I/O moves no bytes (end of file) */
  bool     hang;         /* I/O never completes */
  uint64_t latency_ns;   /* each reap sleeps this long before completing */
  uint64_t slice_ns;     /* a throttle's slices: slice_ios queued I/Os are done */
  unsigned slice_ios;    /* per queue at the start of each slice_ns of the clock */
  int      open_error;   /* open() fails with this code */
  uint64_t wobble_ns;    /* added to latency_ns in every other wobble_period_ns of the clock */
  uint64_t wobble_period_ns;
  /* Each I/O its own service, counted from its prep: slot s takes
   * service_ns[s % 2] (even slots [0], odd ones [1]). A reap waits for the
   * first I/O due and returns every one due by then, so a batch holds I/Os
   * prepped at different times with different services. Both 0 = off. */
  uint64_t service_ns[2];
} dm_test_backend_config;

/* What the backend itself saw of the I/O it served: per slot parity, how
 * many completed and the sum of their times from prep to completion, read
 * on the backend's own clock. The truth a runner's latency must match. */
typedef struct dm_test_served {
  uint64_t ios[2];
  uint64_t busy_ns[2];
  uint64_t first_prep; /* dm_clock_ns() of the first prep since the reset */
  uint64_t last_done;  /* and of the last completion */
} dm_test_served;

extern const dm_backend dm_test_backend;

/* Resets the counters and the record buffer (cap entries, 0 = none). */
void dm_test_backend_reset (const dm_test_backend_config *config, uint64_t cap);
dm_test_record *dm_test_backend_records (uint64_t *n);
uint64_t dm_test_backend_ios (void);
/* dm_clock_ns() of every completion, in the order the backend made them
 * (as many as the record buffer holds), and of the last close. */
const uint64_t *dm_test_backend_completed_at (uint64_t *n);
uint64_t dm_test_backend_closed_at (void);
/* Flushes prepped, and how many I/Os were prepped while a flush was in
 * flight or a flush while other I/O was: a barrier has both at 0. */
uint64_t dm_test_backend_flushes (void);
uint64_t dm_test_backend_beside_flush (void);
/* The I/O that short_io cut in half, as it was prepped; false if none. */
bool dm_test_backend_cut (dm_test_record *out);
void dm_test_backend_served (dm_test_served *out);
/* Every served I/O's time from prep to completion, of the queues closed
 * since the reset. */
const dm_histogram *dm_test_backend_truth (void);
