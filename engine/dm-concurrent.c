/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Several targets at once on top of the runner's steps: one thread per
 * target for each step (prepare, then each test), a start line the tests
 * share, and this thread watching for a cancel or a failure to stop all.
 * The report's total and writers are dm-concurrent-report.c.
 */
#include "dm-concurrent.h"

#include <errno.h>
#include <stdatomic.h>
#include <stdlib.h>

#include "dm-runner-private.h"

#define GATE_POLL_NS  100000ull   /* a runner waiting at the start line */
#define WATCH_POLL_NS 10000000ull /* this thread, looking for a cancel */

/* The start line of one test: every runner's workers up (or its test
 * over before it got there), then one clock time for all. */
typedef struct gate {
  unsigned      n;
  atomic_uint   arrived;
  atomic_uint   left;   /* runners whose test ended without arriving */
  atomic_ullong t0;     /* 0 until the first to pass sets it */
  atomic_int    stop;   /* a cancel: nobody waits any more */
} gate;

/* One target's step, on its own thread. */
typedef struct lane {
  gate        *g;
  dm_runner   *runner;
  bool         prepare; /* this step prepares; otherwise it runs test index */
  unsigned     index;
  bool         pause;
  int          err;
  atomic_bool  arrived;
  atomic_bool  done;
  dm_thread   *thread;
} lane;

static uint64_t
gate_pass (void *user)
{
  lane *l = user;
  gate *g = l->g;
  atomic_store (&l->arrived, true);
  atomic_fetch_add (&g->arrived, 1);
  while (atomic_load (&g->arrived) + atomic_load (&g->left) < g->n && !atomic_load (&g->stop))
    dm_sleep_ns (GATE_POLL_NS);
  /* The first runner past the line sets the time; the others take it. */
  uint64_t none = 0;
  atomic_compare_exchange_strong (&g->t0, &none, dm_clock_ns ());
  return atomic_load (&g->t0);
}

static void *
lane_main (void *arg)
{
  lane *l = arg;
  l->err = l->prepare ? dm_runner_prepare (l->runner)
                      : dm_runner_run_result (l->runner, l->index, l->pause);
  if (!atomic_load (&l->arrived))
    atomic_fetch_add (&l->g->left, 1);
  atomic_store (&l->done, true);
  return NULL;
}

/* A real failure before a cancel: the reason the user needs first. */
static int
first_error (const lane *lanes, unsigned n)
{
  int err = 0;
  for (unsigned k = 0; k < n; k++)
    if (lanes[k].err < 0 && (err == 0 || (err == -ECANCELED && lanes[k].err != -ECANCELED)))
      err = lanes[k].err;
  return err;
}

/* One step on every target at once; its first error. */
static int
step (lane *lanes, unsigned n, gate *g, bool prepare, unsigned index, bool pause)
{
  atomic_store (&g->arrived, 0);
  atomic_store (&g->left, 0);
  atomic_store (&g->t0, 0);
  atomic_store (&g->stop, 0);
  for (unsigned k = 0; k < n; k++)
    {
      lane *l = &lanes[k];
      l->prepare = prepare;
      l->index = index;
      l->pause = pause;
      l->err = 0;
      atomic_store (&l->arrived, false);
      atomic_store (&l->done, false);
      l->thread = NULL;
      int err = dm_thread_start (&l->thread, lane_main, l);
      if (err < 0)
        {
          l->thread = NULL;
          l->err = err;
          atomic_fetch_add (&g->left, 1);
          atomic_store (&l->done, true);
        }
    }
  for (;;)
    {
      bool all = true, stop = false;
      for (unsigned k = 0; k < n; k++)
        {
          if (!atomic_load (&lanes[k].done))
            all = false;
          else if (lanes[k].err < 0)
            stop = true;
          if (_dm_runner_cancelled (lanes[k].runner))
            stop = true;
        }
      if (stop && !atomic_load (&g->stop))
        {
          atomic_store (&g->stop, 1);
          for (unsigned k = 0; k < n; k++)
            dm_runner_cancel (lanes[k].runner);
        }
      if (all)
        break;
      dm_sleep_ns (WATCH_POLL_NS);
    }
  for (unsigned k = 0; k < n; k++)
    if (lanes[k].thread)
      dm_thread_join (lanes[k].thread);
  return first_error (lanes, n);
}

int
dm_concurrent_run (dm_runner *const *runners, unsigned n)
{
  lane *lanes = calloc (n ? n : 1, sizeof *lanes);
  gate g = { .n = n };
  if (!lanes)
    {
      for (unsigned k = 0; k < n; k++)
        dm_runner_finish (runners[k], -ENOMEM);
      return -ENOMEM;
    }
  for (unsigned k = 0; k < n; k++)
    {
      lanes[k].g = &g;
      lanes[k].runner = runners[k];
      dm_runner_set_start_gate (runners[k], gate_pass, &lanes[k]);
    }

  int err = step (lanes, n, &g, true, 0, false);
  const dm_report *rep = dm_runner_get_report (runners[0]);
  bool ran = false;
  for (unsigned i = 0; !err && i < rep->n_results; i++)
    if (dm_runner_selected (runners[0], i))
      {
        err = step (lanes, n, &g, false, i, ran);
        ran = true;
      }

  /* Each target ends as it went: its own failure, or cancelled with the
   * rest when another target stopped the run. */
  for (unsigned k = 0; k < n; k++)
    {
      int own = lanes[k].err;
      if (!own && err)
        own = -ECANCELED;
      dm_runner_finish (runners[k], own);
      dm_runner_set_start_gate (runners[k], NULL, NULL);
    }
  free (lanes);
  return err;
}
