/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A capture: what the disks under a target were asked to do while the
 * user's own application ran, as the vscsiStats histograms describe it
 * (per direction: request size, seek distance, outstanding requests at
 * issue, device latency, interarrival time), with the read share, the
 * IOPS over time and its bursts, and the workload row that reproduces the
 * shape. The summary is a plain struct, filled from the kernel's request
 * events (platform/dm-capture.h) or, where those cannot be read, from the
 * disk's counters alone; the text, JSON, CSV and profile writers, the JSON
 * loader and any window read the same struct.
 */
#pragma once

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "dm-buf.h"
#include "dm-capture-source.h"
#include "dm-histogram.h"
#include "dm-workload.h"

/* Sizes: log2 buckets by their upper end, <=512 B, 1K, 2K ... 8M, above. */
#define DM_CAPTURE_SIZES     16
/* Seek distance, signed, in log2 buckets of bytes on each side of 0:
 * [SIDE] is 0 (the request began where the previous one ended), [SIDE+k]
 * up to +2^(8+k) bytes ahead (k = 1: 512 B), [SIDE-k] as far back; the
 * outermost buckets hold everything beyond 1 TiB. */
#define DM_CAPTURE_SEEK_SIDE 32
#define DM_CAPTURE_SEEKS     (2 * DM_CAPTURE_SEEK_SIDE + 1)
/* Outstanding requests at issue, the new one counted: [d-1] for d, the
 * last for DEPTH_MAX and more. */
#define DM_CAPTURE_DEPTH_MAX 256
/* A request is sequential when it begins where one of the last RECENT
 * requests ended: several streams at once (threads, or reads next to
 * writes) each stay sequential, as their application meant them. */
#define DM_CAPTURE_RECENT    32
#define DM_CAPTURE_TICK_NS   100000000ull /* the timeline's step: 100 ms */
#define DM_CAPTURE_SECONDS_MAX 86400.0

enum { DM_CAPTURE_READS, DM_CAPTURE_WRITES, DM_CAPTURE_ALL, DM_CAPTURE_DIRS };

typedef enum {
  DM_CAPTURE_FROM_EVENTS,   /* every request, from the kernel's events */
  DM_CAPTURE_FROM_COUNTERS, /* the disk's counters: means only */
} dm_capture_from;

typedef struct dm_capture_dir {
  uint64_t     requests;
  uint64_t     bytes;
  uint64_t     sequential;    /* began where one of the last RECENT requests ended */
  uint64_t     sizes[DM_CAPTURE_SIZES];
  uint64_t     seeks[DM_CAPTURE_SEEKS];  /* from the end of the previous request of this
                                          * direction (all: of any) on the same disk */
  uint64_t     depths[DM_CAPTURE_DEPTH_MAX]; /* requests at the disk at issue, itself too */
  dm_histogram latency;       /* issue to completion, ns */
  dm_histogram interarrival;  /* issue to the next issue of this direction, ns */
} dm_capture_dir;

typedef struct dm_capture_state dm_capture_state;

typedef struct dm_capture {
  char            target[1024];  /* as the user named it */
  char            disk[64];      /* the disks captured: "sda", "sda+sdb" */
  char            note[320];     /* how the target maps to them, "" if itself */
  dm_capture_from from;
  char            from_why[320]; /* counters: why the events could not be read */
  int64_t         started;       /* wall clock, s */
  uint64_t        started_ns;    /* dm_clock_ns then: lines up with other monotonic logs */
  double          seconds;       /* how long it captured */
  bool            interrupted;   /* ended by Ctrl-C before its time */
  dm_capture_dir  dir[DM_CAPTURE_DIRS];
  uint64_t        other;         /* flushes, discards: no part of the shape */
  uint64_t        lost;          /* events the kernel dropped */
  uint64_t        unmatched;     /* completions of requests issued before the capture */
  uint64_t        in_flight;     /* issued, not complete when it ended */
  uint64_t        low, high;     /* bytes of the disk touched: the first and past the last */
  /* The disk's counters over the same time, read either way. */
  bool            counted;
  uint64_t        c_reads, c_writes, c_read_bytes, c_write_bytes;
  double          avg_queue;     /* requests at the disk, mean (iostat's aqu-sz) */
  double          busy_percent;
  double          await_ms;      /* mean time per request at the disk */
  /* Requests issued per 100 ms (completed, from counters): reads, writes. */
  uint32_t      (*ticks)[2];
  unsigned        n_ticks, cap_ticks;
  double          cpu_percent;   /* Diskmeter's own CPU while capturing, of one core */
  dm_capture_state *state;       /* only while capturing */
} dm_capture;

void dm_capture_init (dm_capture *c);
void dm_capture_clear (dm_capture *c);

/* Feeding: begin at t0 (dm_clock_ns), then events in time order; issues
 * from end_ns on are left out, completions still count. 0 or -ENOMEM. */
int  dm_capture_begin (dm_capture *c, uint64_t t0_ns);
void dm_capture_feed (dm_capture *c, const dm_capture_event *ev, size_t n, uint64_t end_ns);
/* Counters only: requests completed in tick k. 0 or -ENOMEM. */
int  dm_capture_add_tick (dm_capture *c, unsigned k, uint32_t reads, uint32_t writes);
void dm_capture_end (dm_capture *c, double seconds);

/* Captures the target for seconds (or until *cancel), from the events
 * where the platform can read them, else from the counters (saying why in
 * c->from_why). progress, if not NULL, is called about every 100 ms with
 * the seconds done. 0, or -errno with a one-line reason. */
int dm_capture_run (dm_capture *c, const char *target, double seconds, atomic_int *cancel,
                    void (*progress) (void *user, const dm_capture *c, double done),
                    void *user, char *why, size_t why_size);

/* Figures derived from the summary. */
typedef struct dm_capture_iops {
  unsigned samples;                     /* whole seconds */
  double   mean, p50, p95, peak;        /* IOPS per 1 s sample */
  unsigned bursts;                      /* runs of 100 ms at twice the mean or more */
  double   burst_longest_s, burst_peak; /* the longest, the busiest 100 ms as IOPS */
  double   burst_share;                 /* of the requests, in bursts */
} dm_capture_iops;
void   dm_capture_iops_get (const dm_capture *c, dm_capture_iops *out);
double dm_capture_depth_mean (const dm_capture_dir *d);
unsigned dm_capture_depth_median (const dm_capture_dir *d);
double dm_capture_read_share (const dm_capture *c);   /* percent of requests */
double dm_capture_random_share (const dm_capture_dir *d); /* percent not sequential */
/* Bucket labels: "4K", "+512K", "-1M", "0", ">8M". */
void   dm_capture_size_label (unsigned bucket, char *buf, size_t size);
void   dm_capture_seek_label (unsigned bucket, char *buf, size_t size);
uint64_t dm_capture_size_bucket_top (unsigned bucket);

/* The workload row of the captured shape: its sizes (bucket tops, 4K to
 * 8M), read and random shares, queue depth (the mean outstanding at
 * issue, rounded) and rate (the p95 of the 1 s IOPS). -EINVAL with a
 * reason when the counters alone were read or no request was seen. */
int  dm_capture_workload (const dm_capture *c, dm_workload *w, char *why, size_t why_size);

/* Writers (dm-capture-write.c) and the loader (dm-capture-load.c). */
/* A time histogram (latency, interarrival) in the bins the text, CSV and
 * the window's panels show: log2 bins of microseconds, <=1 us ... >2^20 us. */
#define DM_CAPTURE_TIME_BINS 22
void dm_capture_time_bins (const dm_histogram *h, uint64_t bins[DM_CAPTURE_TIME_BINS]);
/* Outstanding requests at issue in the bins the same three show: 1..8 one
 * each, then 9-16, 17-32 ... 129-255, 256+; and each bin's label. */
#define DM_CAPTURE_DEPTH_BINS 14
void dm_capture_depth_bins (const dm_capture_dir *d, uint64_t bins[DM_CAPTURE_DEPTH_BINS]);
void dm_capture_depth_label (unsigned bin, char *buf, size_t size);
void dm_capture_write_text (const dm_capture *c, dm_buf *out);
void dm_capture_write_json (const dm_capture *c, dm_buf *out);
void dm_capture_write_csv (const dm_capture *c, dm_buf *out);
/* A profile file whose one workload row is dm_capture_workload, the
 * capture's summary above it as comments. 0 or -EINVAL with a reason. */
int  dm_capture_write_profile (const dm_capture *c, dm_buf *out, char *why, size_t why_size);
/* Whether text is a capture's JSON; then reads it back into c (from
 * dm_capture_init). 1 not a capture, 0 read, -EINVAL with a reason. */
int  dm_capture_load_json (dm_capture *c, const char *text, size_t len, char *why,
                           size_t why_size);
