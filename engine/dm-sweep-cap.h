/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The throttle fingerprint of a QD x T sweep. A rate cap set outside the
 * disk (a hypervisor's per-VM or datastore IOPS limit, a cloud volume's
 * tier, a block cgroup) gives the same throughput at every load while the
 * mean latency grows as Little's law says for a fixed rate, and the
 * device's own queue stays short because the I/Os wait above it. A device's
 * own knee holds the waiting I/Os in the device's queue instead. Analysis
 * over a report's results as saved, so a sweep read back from its file,
 * older ones too, gets the same verdict.
 */
#pragma once

#include <stdbool.h>

#include "dm-buf.h"
#include "dm-report.h"

#define DM_SWEEP_CAP_FLAT   0.10 /* every load of the flat run this close to its median, at least */
#define DM_SWEEP_CAP_POINTS 3    /* loads in the flat run, at least */
#define DM_SWEEP_CAP_SPAN   4    /* its heaviest load / its lightest, at least */
#define DM_SWEEP_CAP_LITTLE 0.25 /* |mean / (QD x T / rate) - 1| at every load of it, at most */

typedef enum {
  DM_CAP_FOUND,        /* capped by something outside the disk */
  DM_CAP_TOO_FEW,      /* fewer than 3 complete loads spanning 4 x */
  DM_CAP_NOT_FLAT,     /* no 3 heaviest loads spanning 4 x level off */
  DM_CAP_NOT_HELD,     /* the system did not keep the asked queue in flight */
  DM_CAP_NOT_LITTLE,   /* mean latency is not QD x T / rate */
  DM_CAP_DEVICE_QUEUE, /* the device's own queue held the load: its own limit */
  DM_CAP_GROWS_FIRST,  /* grows, then levels off, device not counted: a knee */
} dm_sweep_cap_verdict;
#define DM_N_CAP_VERDICTS 7

typedef struct dm_sweep_cap {
  dm_sweep_cap_verdict verdict;
  double   iops;           /* the rate: median over the flat run (0: none) */
  double   mb_per_s;
  int      first, last;    /* results of the flat run's lightest and heaviest load, -1 none */
  unsigned n_points;       /* loads in the flat run */
  double   spread;         /* the largest |IOPS - median| / median over it */
  double   little_error;   /* the worst |mean / (QD x T / iops) - 1| over it */
  double   latency_growth; /* mean latency at last / at first */
  bool     device_counted; /* last's device counters were read and saw the bytes */
  double   device_queue;   /* last's device mean queue (avg_queue) */
  unsigned load;           /* QD x T of last */
  bool     by_bytes;       /* blocks of 64 KiB or more: the rate in MB/s first */
} dm_sweep_cap;

/* The fingerprint of r's QD x T results; cap->verdict says whether it is
 * a cap and if not why. The flat run and its figures are filled in
 * whenever one was found, so a verdict against a cap shows its evidence. */
void dm_sweep_cap_find (const dm_report *r, dm_sweep_cap *cap);

/* "capped", "too_few_loads", "not_flat", "queue_not_held", "not_littles_law",
 * "device_queue", "grows_first": the names JSON carries. */
const char *dm_sweep_cap_verdict_name (dm_sweep_cap_verdict v);
/* The verdict as the text report says it, in English. */
const char *dm_sweep_cap_verdict_text (dm_sweep_cap_verdict v);

/* ,\n    "rate_cap": {...} for the sweep member of the JSON. */
void dm_sweep_cap_write_json (const dm_sweep_cap *cap, const dm_report *r, dm_buf *b);
/* The "Rate cap:" line and, where there is a flat run, its evidence. */
void dm_sweep_cap_write_text (const dm_sweep_cap *cap, const dm_report *r, dm_buf *b);
