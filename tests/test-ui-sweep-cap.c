/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The Sweep window's sentence for the throttle fingerprint, without a
 * display: a sweep held at 5000 IOPS with the device's queue short is
 * called capped with its evidence; a device's knee (rising to QD 4, its
 * queue not counted) is not, and the sentence says why.
 */
#include <string.h>

#include "dm-sweep.h"
#include "dm-sweep-cap-text.h"

static void
model (dm_report *r, double (*iops_at) (unsigned qd), double device_queue)
{
  static const unsigned qds[] = { 1, 2, 4, 8, 16 };
  dm_sweep_plan p;
  dm_settings s;
  char why[200];

  dm_settings_init (&s);
  s.test_size = 16ull << 20;
  dm_sweep_plan_init (&p);
  memcpy (p.queue_depths, qds, sizeof qds);
  p.n_queue_depths = 5;
  p.n_threads = 1;
  g_assert_cmpint (dm_sweep_report_init (r, &p, &s, 8, NULL, 0, why, sizeof why), ==, 0);
  for (unsigned i = 0; i < r->n_results; i++)
    {
      dm_result *res = &r->results[i];
      unsigned qd = res->spec.queue_depth;

      res->status = DM_STATUS_COMPLETE;
      res->iops = iops_at (qd);
      res->mb_per_s = res->iops * 4096 / 1e6;
      res->latency.mean = qd / res->iops * 1e6;
      res->latency.p99 = 2 * res->latency.mean;
      if (device_queue > 0)
        {
          dm_device_seen *d = &res->device;

          d->counted = true;
          d->seconds = 1;
          d->reads = (uint64_t) res->iops;
          d->read_bytes = d->counted_bytes = d->reads * 4096;
          d->avg_queue = device_queue;
          d->flags = dm_device_seen_flags (d, &(dm_device_ask) { 4096, qd, 1, 100 });
        }
    }
}

static double capped (unsigned qd) { (void) qd; return 5000; }
static double knee (unsigned qd) { return (qd < 4 ? qd : 4) / 0.010; }

static void
test_sentences (void)
{
  dm_report r;
  g_autofree char *cap = NULL, *none = NULL;
  g_autoptr (GString) summary = g_string_new ("Knee.");

  model (&r, capped, 0.2);
  cap = dm_sweep_cap_text (&r);
  g_assert_nonnull (strstr (cap, "Capped near 5000 IOPS by something outside this disk"));
  g_assert_nonnull (strstr (cap, "QD 1 × 1 to QD 16 × 1 within 0.0 %"));
  g_assert_nonnull (strstr (cap, "the device's own queue 0.2 of 16."));
  dm_sweep_cap_text_append (summary, &r);
  g_assert_true (g_str_has_prefix (summary->str, "Knee.  Capped near"));
  dm_sweep_cap_text_append (summary, NULL);
  g_assert_true (g_str_has_suffix (summary->str, "of 16."));
  dm_report_clear (&r);

  model (&r, knee, 0);
  none = dm_sweep_cap_text (&r);
  g_assert_cmpstr (none, ==, "No rate cap: throughput grew with the queue before it levelled off, "
                             "as at a device's knee.");
  dm_report_clear (&r);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/ui/sweep-cap/sentences", test_sentences);
  return g_test_run ();
}
