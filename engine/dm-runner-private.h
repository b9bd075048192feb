/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * What the runner's files share and nobody else sees: the runner, its
 * workers and the counters they fill. dm-runner.c runs the job,
 * dm-runner-measure.c one test and its figures, dm-runner-worker.c the
 * workers' hot loop.
 */
#pragma once

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "dm-backend.h"
#include "dm-rng.h"
#include "dm-runner.h"
#include "dm-testfile.h"
#include "dm-workload.h"

#define NS_PER_S       1000000000ull
#define REAP_TIMEOUT   (50ull * 1000 * 1000)  /* how often a waiting worker looks at cancel */
#define MAX_RETRIES    1000                   /* per worker and run */
/* The most completions one reap takes before their next I/Os are sent.
 * A device that finishes a whole queue at once (a virtual disk's backend
 * answering each kick as one batch) would otherwise get its next Q
 * requests only after all Q were accounted for, and then all at once: a
 * lockstep that leaves it idle in every turn. Sent four at a time, the
 * first ones are back at the device while the rest are accounted for. On
 * this project's real disk (virtio) RND4K_Q32T1 write went from 0.83 of
 * fio's rate to 1.06 with it, and on a RAM loop from 200k to 330k IOPS,
 * with less CPU per I/O (README, "RND4K_Q32T1 write at default settings"). */
#define REAP_BATCH     4u
#define DRAIN_TIMEOUT  (100ull * 1000 * 1000) /* in-flight I/O we wait for after a cancel */
/* A device that answers no I/O for this long, or still holds I/O this long
 * after the test's last window, does not answer: the test fails then
 * rather than wait for it. The README promises this bound. */
#define STALL_S        5
#define STALL_TIMEOUT  (STALL_S * NS_PER_S)
/* The timeline's latency buckets: the histogram's, two at a time (32 per
 * power of two, a p99 within 1.6%), up to 2^35 ns; slower I/O counts in
 * the last. Sample memory past this bound asks for a longer step. */
#define SAMPLE_SHIFT   1
#define SAMPLE_TOP     ((35 - DM_HIST_SUB_BITS) * DM_HIST_SUB + DM_HIST_SUB - 1)
#define SAMPLE_BUCKETS ((SAMPLE_TOP >> SAMPLE_SHIFT) + 1)
#define SAMPLE_MEMORY  (512ull << 20)

struct dm_runner {
  dm_report        *report;
  char              target[1024];
  size_t            target_len;   /* as given: longer than target holds is refused */
  bool             *selected;  /* per result; NULL = all */
  dm_progress_fn    progress;
  void             *user;
  atomic_int        cancel;
  const dm_backend *backend;
  const dm_backend *forced;    /* set by tests */
  dm_testfile       tf;
  uint64_t          job_start;  /* for the time-left estimate */
  double            job_total;  /* estimated seconds of the whole job */
  double            job_done;   /* seconds of finished phases */
  int               current;    /* result being run, for progress */
  bool              ran_any;    /* a test ran since prepare: pause before the next */
  struct worker    *workers;    /* per thread, sized for the largest selected test */
  dm_histogram     *hists;      /* 2 per thread: reads, writes */
  dm_device_watch  *watch;      /* the disk's own counters; NULL where there are none */
  char              device_name[64];
  struct sample_slot *slots;    /* the timeline: per thread n_samples x dirs */
  unsigned          n_samples;  /* of the longest test */
  unsigned          dirs;       /* 2 when a Mix test is selected: reads, writes */
  uint64_t          sample_ns;
  bool              pass;       /* dm_runner_set_pass */
  bool              pass_fill;
  bool              pass_repeat; /* dm_runner_set_pass_repeat */
  uint64_t          pass_key;    /* the shuffle's key, new at each prepare */
  bool              pass_recorded; /* pass_issued holds the first pass's I/Os */
  dm_spec           pass_spec;   /* of the first pass */
  uint64_t         *pass_issued; /* per thread: I/Os the first pass issued */
  dm_sample         live;       /* the last closed sample, for progress */
  dm_start_gate_fn  gate;       /* dm_runner_set_start_gate; NULL: start at once */
  void             *gate_user;
  dm_workload_sampler sampler;  /* the workload row being run: built before its workers start */
  /* A steady warm-up: where measuring starts and ends, set by the runner
   * once the warm-up settles or reaches its limit; far in the future
   * until then. The workers read them once per batch, end first. */
  atomic_ullong     steady_measure;
  atomic_ullong     steady_end;
};

/* Where a steady warm-up's measuring begins before the runner knows. */
#define STEADY_FAR (UINT64_MAX / 4)

/* One sample of one worker (and one direction for Mix): counted like a
 * window, once per batch, plus a coarse latency histogram for its p99
 * that only the runner reads, after the worker has been joined. */
typedef struct sample_slot {
  atomic_ullong bytes;
  atomic_ullong ios;
  atomic_ullong latency_ns;
  uint32_t      buckets[SAMPLE_BUCKETS];
} sample_slot;

/* One measured window of one worker. Written only by its worker, once per
 * reaped batch; the runner reads it for live figures after the window has
 * closed and exactly after the worker has been joined. */
typedef struct window {
  atomic_ullong bytes;
  atomic_ullong ios;
  atomic_ullong latency_ns;  /* sum, for the run's mean latency */
} window;

typedef struct worker {
  dm_runner       *runner;
  const dm_result *result;

  /* What this thread does. */
  uint32_t         block;
  uint64_t         region_start; /* SEQ: this thread's part of the file */
  uint64_t         region_len;
  uint64_t         seq_pos;
  uint64_t         n_blocks;     /* RND: block-aligned offsets over the whole file */
  unsigned         read_percent;
  bool             stamp;        /* vary write buffers per I/O */
  uint64_t         stamp_seq;
  dm_rng           rng;

  /* A workload row (shaped): its own next_io, chosen per worker, so the
   * plain tests' path stays as it was. Sizes and offsets come from the
   * runner's sampler, made before the workers started. */
  bool             shaped;
  const dm_workload_sampler *sampler;
  unsigned         random_percent;
  uint64_t         file_size;
  uint64_t         seq_next;     /* where a sequential I/O continues: the last one's end */
  unsigned         flush_every;  /* writes between flushes; 0: none */
  unsigned         writes_since_flush; /* flush_every of them: a barrier, nothing more is sent */
  bool             flush_out;    /* the barrier's flush is in flight */
  dm_io          **parked;       /* slots held at the barrier until the flush is done */
  unsigned         n_parked;
  uint64_t         flushes;      /* completed in the measured windows */
  unsigned         compress_percent, dedupe_percent;
  bool             reducible;
  char            *dup_pool;     /* DUP_POOL blocks of 4 KiB that repeated blocks copy */
  /* An offered rate: each I/O has a time it is due, and its latency runs
   * from then, so a device that falls behind shows its backlog. */
  bool             rated;
  bool             rate_bytes;   /* MB/s: the schedule advances by bytes */
  double           interval_ns;  /* per I/O, or per byte */
  double           next_due;     /* ns of the clock */
  unsigned         affinity_cpu; /* pinned to this CPU when pin */
  bool             pin;

  /* Start line: all threads set up first, then run together. The I/O
   * flows without a break from the warm-up through every measured window,
   * as with fio's ramp time, so no window pays for a start-up. */
  atomic_int      *ready;
  atomic_int      *go;
  uint64_t         measure_ns;   /* start of the first window (end of warm-up) */
  uint64_t         window_ns;
  unsigned         n_windows;
  uint64_t         end_ns;       /* end of the last window */
  bool             steady;       /* both come from the runner's steady_* once it knows */
  atomic_ullong    warm_bytes;   /* a steady warm-up's bytes and I/Os so far, per batch */
  atomic_ullong    warm_ios;

  /* One pass: I/Os still to issue; 0 and passed once the share is done. */
  bool             pass;
  bool             passed;
  uint64_t         pass_left;
  uint64_t         pass_total;   /* I/Os of the share: issued = total - left */
  /* A shuffled pass (dm_runner_set_pass_repeat): the next index of the
   * shuffle this thread takes (its own, then every T-th), which the
   * permutation turns into a block of the n_blocks. */
  bool             shuffled;
  uint64_t         shuffle_next;
  uint64_t         shuffle_step;
  uint64_t         shuffle_mask; /* 2^k - 1, the smallest power of two >= n_blocks */
  unsigned         shuffle_shift;
  uint64_t         shuffle_key;

  /* What it measured. */
  window           win[DM_COUNT_MAX];
  sample_slot     *slots;        /* n_samples x dirs, from the runner */
  uint64_t         sample_ns;
  unsigned         dirs;         /* 2: Mix, reads and writes apart */
  uint64_t         last_ns;      /* last completion counted in a window */
  /* The first completion at or after each window boundary (0: none yet).
   * A window is timed between the completions that open and close it, so
   * that its I/Os and its time cover the same whole stretch of the
   * device's rhythm. */
  atomic_ullong    edge_ns[DM_COUNT_MAX + 1];
  unsigned         next_edge;    /* the boundary the next completion may pass */
  /* The disk's counters where the measured span opens and closes, read by
   * the first worker right after the reap that passed the edge: a device
   * that completes in bursts (a throttle's slice of 4 MiB) has then
   * counted exactly what that reap brought, where a reading by the runner
   * a moment later holds the rest of the burst too. NULL: not this one. */
  dm_device_watch *watch;
  dm_device_counters dev[2];
  uint64_t         dev_ns[2];
  atomic_bool      dev_read[2];
  uint64_t         n_slots;      /* samples of this test's measured time */
  uint64_t         sample;       /* the sample the next batch counts in */
  uint64_t         unscored;     /* bytes moved outside the windows */
  unsigned         retries;      /* EAGAIN/EINTR completions sent again */
  /* What the system held of the queue in the measured windows: I/Os it
   * had in flight times the time between batches (backend->held), and
   * that time. Their ratio is the queue it really kept, whatever the
   * worker had outstanding. */
  uint64_t         os_held_ns;
  uint64_t         os_span_ns;
  dm_histogram    *hist[2];      /* [0] reads, [1] writes: measured windows only */
  int              error;
  char             why[160];

  dm_thread       *thread;
  atomic_bool      stopped;      /* _dm_runner_worker_main is about to return */
} worker;

/* Whether the job was cancelled: one relaxed load, inline, as the hot
 * loop asks once per reaped batch. */
static inline bool
_dm_runner_cancelled (dm_runner *r)
{
  return atomic_load_explicit (&r->cancel, memory_order_relaxed) != 0;
}

/* Hands the front end a progress report: the job's fraction done and time
 * left from phase_fraction of a phase of phase_seconds (dm-runner.c). */
void _dm_runner_progress (dm_runner *r, dm_phase phase, unsigned run, double phase_fraction,
                          double phase_seconds);

/* One test of r into res with its T workers and their 2 x T histograms:
 * 0, -ECANCELED, or a negative code with res->error set
 * (dm-runner-measure.c). */
int _dm_runner_run_test (dm_runner *r, dm_result *res, worker *workers, dm_histogram *hists);

/* A worker thread's body: arg is its worker (dm-runner-worker.c). */
void *_dm_runner_worker_main (void *arg);
