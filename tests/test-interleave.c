/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Two targets measured in turns: the tests really alternate (A1, B1, A2,
 * B2...), both reports complete, a cancel stops both, and no test file is
 * left in either folder.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "dm-interleave.h"
#include "dm-test-backend.h"
#include "dm-test.h"

typedef struct visit {
  char     who;
  int      result;
} visit;

static visit visits[64];
static unsigned n_visits;
static dm_runner *to_cancel[2];
static unsigned cancel_after = 0;

typedef struct tag {
  char who;
} tag;

static void
on_progress (void *user, const dm_progress *p)
{
  const tag *t = user;
  if (p->phase != DM_PHASE_DONE || n_visits >= 64)
    return;
  visits[n_visits].who = t->who;
  visits[n_visits].result = p->result_index;
  n_visits++;
  if (cancel_after && n_visits == cancel_after)
    {
      dm_runner_cancel (to_cancel[0]);
      dm_runner_cancel (to_cancel[1]);
    }
}

static void
count_file (const char *path, uint64_t size, void *user)
{
  (void) path;
  (void) size;
  ++*(int *) user;
}

static int
run_pair (dm_report *a, dm_report *b)
{
  static const char *const names[] = { "SEQ1M_Q8T1", "RND4K_Q32T1", "RND4K_Q1T1" };
  static tag ta = { 'A' }, tb = { 'B' };
  dm_settings s;
  dm_spec specs[3];
  dm_settings_init (&s);
  s.count = 1;
  s.test_size = 16ull << 20;
  s.measure_s = 0.1;
  s.warmup_s = 0;
  s.interval_s = 0;
  for (int i = 0; i < 3; i++)
    dm_spec_parse (names[i], &specs[i], NULL, 0);
  dm_report_init (a, &s, specs, 3, DM_MODE_BIT (DM_MODE_READ) | DM_MODE_BIT (DM_MODE_WRITE));
  dm_report_init (b, &s, specs, 3, DM_MODE_BIT (DM_MODE_READ) | DM_MODE_BIT (DM_MODE_WRITE));
  dm_test_backend_reset (NULL, 0);
  dm_runner *ra = dm_runner_new (a, "."), *rb = dm_runner_new (b, ".");
  dm_runner_set_backend (ra, &dm_test_backend);
  dm_runner_set_backend (rb, &dm_test_backend);
  dm_runner_set_progress (ra, on_progress, &ta);
  dm_runner_set_progress (rb, on_progress, &tb);
  to_cancel[0] = ra;
  to_cancel[1] = rb;
  n_visits = 0;
  int err = dm_interleave_run (ra, rb);
  dm_runner_free (ra);
  dm_runner_free (rb);
  int left = 0;
  dm_stale_files (".", count_file, &left);
  DM_CHECK_INT (left, ==, 0);
  return err;
}

static void
test_alternates (void)
{
  dm_report a, b;
  cancel_after = 0;
  DM_CHECK_INT (run_pair (&a, &b), ==, 0);
  DM_CHECK_INT (n_visits, ==, 12);
  for (unsigned k = 0; k < n_visits; k++)
    {
      DM_CHECK_INT (visits[k].who, ==, k % 2 ? 'B' : 'A');
      DM_CHECK_INT (visits[k].result, ==, (int) (k / 2));
    }
  DM_CHECK_STR (dm_status_name (a.status), "complete");
  DM_CHECK_STR (dm_status_name (b.status), "complete");
  for (unsigned i = 0; i < a.n_results; i++)
    DM_CHECK (a.results[i].mb_per_s > 0 && b.results[i].mb_per_s > 0);
  dm_report_clear (&a);
  dm_report_clear (&b);
}

static void
test_cancel_stops_both (void)
{
  dm_report a, b;
  cancel_after = 3; /* A1, B1, A2 done */
  DM_CHECK_INT (run_pair (&a, &b), ==, -ECANCELED);
  DM_CHECK_INT (n_visits, ==, 3);
  DM_CHECK_STR (dm_status_name (a.status), "cancelled");
  DM_CHECK_STR (dm_status_name (b.status), "cancelled");
  DM_CHECK_STR (dm_status_name (a.results[1].status), "complete");
  DM_CHECK_STR (dm_status_name (b.results[1].status), "pending");
  dm_report_clear (&a);
  dm_report_clear (&b);
}

int
main (void)
{
  DM_RUN ("/engine/interleave/alternates", test_alternates);
  DM_RUN ("/engine/interleave/cancel-stops-both", test_cancel_stops_both);
  return dm_test_done ();
}
