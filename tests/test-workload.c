/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Workloads: the key=value words and their canonical form both ways, the
 * refusals with their reasons, profile files with the line a bad one is
 * refused at, the samplers against the laws they draw from (the size
 * split's weights, the hot zones, zipf's and pareto's heads), reports of
 * workload rows written, read and written again byte for byte, and merge
 * refusing two different profiles unless asked.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dm-merge.h"
#include "dm-profile-file.h"
#include "dm-runner.h"
#include "dm-test-backend.h"
#include "dm-test.h"
#include "dm-workload.h"

static void
test_canonical (void)
{
  static const char *const inputs[] = {
    "name=OLTP 8K 70/30;block=8K;read=70;random=100;distribution=hot:10/90;qd=8;threads=4",
    "name=split;bs=64K/20,4K/50,8K/30;read=100;distribution=zipf:1.2",
    "name=log;block=64K;read=0;random=0;sync=flush:1;qd=1",
    "name=rated;block=4K;read=50;rate=50MB/s;data=random;compress=40;dedupe=20;affinity=0,2-3",
    "name=vdi;block=4K/80,32K/20;read=20;distribution=pareto:0.2;rate=2000iops;affinity=spread",
  };
  for (size_t i = 0; i < sizeof inputs / sizeof inputs[0]; i++)
    {
      dm_workload w, again;
      char why[200] = "", a[DM_WORKLOAD_TEXT_MAX], b[DM_WORKLOAD_TEXT_MAX];
      DM_CHECK_INT (dm_workload_parse (inputs[i], &w, why, sizeof why), ==, 0);
      DM_CHECK_STR (why, "");
      dm_workload_format (&w, a, sizeof a);
      DM_CHECK_INT (dm_workload_parse (a, &again, why, sizeof why), ==, 0);
      dm_workload_format (&again, b, sizeof b);
      DM_CHECK_STR (a, b);
      DM_CHECK (dm_workload_equal (&w, &again));
    }
  dm_workload w;
  char text[DM_WORKLOAD_TEXT_MAX];
  DM_CHECK_INT (dm_workload_parse (inputs[0], &w, NULL, 0), ==, 0);
  dm_workload_format (&w, text, sizeof text);
  DM_CHECK_STR (text, "name=OLTP 8K 70/30;block=8K;read=70;random=100;distribution=hot:10/90;"
                "rate=none;sync=none;data=random;compress=0;dedupe=0;affinity=none;qd=8;threads=4");
  /* Sizes sorted, weights kept as given. */
  DM_CHECK_INT (dm_workload_parse (inputs[1], &w, NULL, 0), ==, 0);
  DM_CHECK_INT (w.n_sizes, ==, 3);
  DM_CHECK_INT (w.sizes[0], ==, 4096);
  DM_CHECK_INT (w.weights[2], ==, 20);
  /* SQLIO's sqlio -kW -s30 -frandom -o8 -b8 -LS -BN in one line. */
  dm_spec spec;
  char name[32];
  DM_CHECK_INT (dm_workload_parse ("name=SQLIO;block=8K;read=0;random=100;qd=8;threads=4",
                                   &w, NULL, 0), ==, 0);
  dm_workload_spec (&w, &spec);
  dm_spec_name (&spec, name, sizeof name);
  DM_CHECK_STR (name, "RND8K_Q8T4");
}

static void
test_refusals (void)
{
  static const struct { const char *text, *reason; } bad[] = {
    { "read=170", "read: " },
    { "block=5K", "block: 5K is not a power of two" },
    { "block=4K/50,4K/50", "named twice" },
    { "distribution=zipf:0", "zipf's theta" },
    { "distribution=pareto:1", "pareto's h" },
    { "distribution=hot:60/10:50/10", "more than 100%" },
    { "distribution=normal", "is not uniform" },
    { "sync=flush:0", "sync: " },
    { "rate=fast", "rate: " },
    { "read=0;data=zeros;compress=10", "zeros cannot" },
    { "sync=dsync", "sync applies to writes" },
    { "affinity=3-1", "bad range" },
    { "qd=0", "qd: " },
    { "bogus=1", "'bogus' is not a workload setting" },
    { "read", "is not key=value" },
  };
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
    {
      dm_workload w;
      char why[240] = "";
      DM_CHECK_INT (dm_workload_parse (bad[i].text, &w, why, sizeof why), ==, -EINVAL);
      if (!strstr (why, bad[i].reason))
        {
          fprintf (stderr, "'%s': reason '%s' lacks '%s'\n", bad[i].text, why, bad[i].reason);
          dm_test_case_failed = 1;
        }
    }
}

static void
test_profile_file (void)
{
  static const char good[] =
    "# OLTP, from the issue's shape\n"
    "[OLTP 8K 70/30]\n"
    "block = 8K      # the database page\n"
    "read = 70\n"
    "distribution = hot:10/90\n"
    "qd = 8\n"
    "threads = 4\n"
    "\n"
    "; the log\n"
    "[Database log]\r\n"
    "block = 64K\r\n"
    "read = 0\n"
    "random = 0\n"
    "sync = dsync\n";
  dm_workload rows[4];
  unsigned n = 0;
  char why[300] = "";
  DM_CHECK_INT (dm_profile_file_parse (good, strlen (good), rows, 4, &n, why, sizeof why), ==, 0);
  DM_CHECK_STR (why, "");
  DM_CHECK_INT (n, ==, 2);
  DM_CHECK_STR (rows[0].name, "OLTP 8K 70/30");
  DM_CHECK_INT (rows[0].threads, ==, 4);
  DM_CHECK_STR (rows[1].name, "Database log");
  DM_CHECK_INT (rows[1].sync, ==, DM_SYNC_DSYNC);
  /* The same words as --workload. */
  dm_workload w;
  DM_CHECK_INT (dm_workload_parse ("name=OLTP 8K 70/30;block=8K;read=70;distribution=hot:10/90;"
                                   "qd=8;threads=4", &w, NULL, 0), ==, 0);
  DM_CHECK (dm_workload_equal (&w, &rows[0]));

  static const struct { const char *text, *reason; } bad[] = {
    { "[a]\nblock = 8K\n\nread = 170\n", "line 4: read: " },
    { "# x\nread = 70\n[a]\n", "line 2: 'read = 70' comes before any [workload]" },
    { "[a]\nblock 8K\n", "line 2: 'block 8K' is neither" },
    { "[a]\n[a]\n", "line 2: [a] is there twice" },
    { "[a\n", "line 1: a section header ends with ]" },
    { "[a]\nname = b\n", "line 2: a workload's name is its [section]" },
    { "# nothing\n", "no [workload] section" },
    { "[a]\nsync = dsync\n", "line 2: a: sync applies to writes" },
  };
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
    {
      why[0] = '\0';
      DM_CHECK_INT (dm_profile_file_parse (bad[i].text, strlen (bad[i].text), rows, 4, &n, why,
                                           sizeof why), ==, -EINVAL);
      if (strncmp (why, bad[i].reason, strlen (bad[i].reason)) && !strstr (why, bad[i].reason))
        {
          fprintf (stderr, "profile %zu: reason '%s' lacks '%s'\n", i, why, bad[i].reason);
          dm_test_case_failed = 1;
        }
      DM_CHECK (!strchr (why, '\n'));
    }
}

/* Every profile file Diskmeter ships parses, and says where its shape
 * comes from. */
static void
test_shipped_profiles (void)
{
  static const char *const files[] = {
    "oltp.ini", "database-log.ini", "vdi.ini", "file-server.ini", "backup-restore.ini",
    "four-corners.ini", "hcibench-general-purpose.ini", "sqlio.ini",
  };
  const char *root = getenv ("DM_SOURCE_ROOT");
  if (!root)
    {
      printf ("# DM_SOURCE_ROOT unset: the shipped profiles are not read\n");
      return;
    }
  for (size_t i = 0; i < sizeof files / sizeof files[0]; i++)
    {
      char path[1024], why[400] = "";
      dm_workload rows[8];
      unsigned n = 0;
      snprintf (path, sizeof path, "%s/resources/profiles/%s", root, files[i]);
      if (dm_profile_file_load (path, rows, 8, &n, why, sizeof why) < 0 || !n)
        {
          fprintf (stderr, "%s: %s\n", files[i], why);
          dm_test_case_failed = 1;
        }
      FILE *f = fopen (path, "r");
      char line[256] = "";
      DM_CHECK (f && fgets (line, sizeof line, f) && line[0] == '#');
      if (f)
        fclose (f);
    }
}

static int
by_count_desc (const void *a, const void *b)
{
  unsigned x = *(const unsigned *) a, y = *(const unsigned *) b;
  return x < y ? 1 : x > y ? -1 : 0;
}

/* Draws n units and returns the share of the hottest k, sorted by count. */
static double
head_share (const dm_workload_sampler *s, unsigned draws, unsigned k)
{
  unsigned *counts = calloc (s->n_units, sizeof *counts);
  dm_rng rng;
  dm_rng_seed (&rng, 42);
  for (unsigned i = 0; i < draws; i++)
    {
      uint64_t u = dm_workload_draw_unit (s, &rng);
      if (u >= s->n_units)
        {
          free (counts);
          return -1;
        }
      counts[u]++;
    }
  qsort (counts, s->n_units, sizeof *counts, by_count_desc);
  uint64_t sum = 0;
  for (unsigned i = 0; i < k; i++)
    sum += counts[i];
  free (counts);
  return (double) sum / draws;
}

static void
test_samplers (void)
{
  dm_workload w;
  dm_workload_sampler s;
  dm_rng rng;
  const unsigned draws = 2000000;
  uint64_t file = 1000ull * 4096;

  /* The alias table gives each size its weight's share. */
  DM_CHECK_INT (dm_workload_parse ("block=4K/50,8K/30,64K/15,1M/5", &w, NULL, 0), ==, 0);
  DM_CHECK_INT (dm_workload_sampler_init (&s, &w, 64ull << 20), ==, 0);
  unsigned got[4] = { 0 };
  dm_rng_seed (&rng, 1);
  for (unsigned i = 0; i < draws; i++)
    {
      uint32_t size = dm_workload_draw_size (&s, &rng);
      got[size == 4096 ? 0 : size == 8192 ? 1 : size == 65536 ? 2 : 3]++;
    }
  const double want[4] = { 0.50, 0.30, 0.15, 0.05 };
  for (int i = 0; i < 4; i++)
    {
      double share = (double) got[i] / draws;
      if (fabs (share - want[i]) > 0.002)
        {
          fprintf (stderr, "size %d: share %.4f, want %.2f\n", i, share, want[i]);
          dm_test_case_failed = 1;
        }
    }

  /* hot:10/90: the zone at the file's start gets its share. */
  DM_CHECK_INT (dm_workload_parse ("distribution=hot:10/90", &w, NULL, 0), ==, 0);
  DM_CHECK_INT (dm_workload_sampler_init (&s, &w, file), ==, 0);
  unsigned hot = 0;
  dm_rng_seed (&rng, 2);
  for (unsigned i = 0; i < draws; i++)
    hot += dm_workload_draw_unit (&s, &rng) < 100;
  DM_CHECK (fabs ((double) hot / draws - 0.90) < 0.002);

  /* pareto:0.2: the hottest 20 % of the blocks get 80 % of the I/O. */
  DM_CHECK_INT (dm_workload_parse ("distribution=pareto:0.2", &w, NULL, 0), ==, 0);
  DM_CHECK_INT (dm_workload_sampler_init (&s, &w, file), ==, 0);
  double p = head_share (&s, draws, 200);
  fprintf (stderr, "# pareto:0.2: the hottest 20 %% get %.2f %%\n", 100 * p);
  DM_CHECK (fabs (p - 0.80) < 0.01);

  /* zipf:1.2: rank k's share is k^-1.2 over the sum, for the head. */
  DM_CHECK_INT (dm_workload_parse ("distribution=zipf:1.2", &w, NULL, 0), ==, 0);
  DM_CHECK_INT (dm_workload_sampler_init (&s, &w, file), ==, 0);
  double h = 0, head[3] = { 0 };
  for (unsigned k = 1; k <= 1000; k++)
    {
      h += pow (k, -1.2);
      if (k == 1)
        head[0] = h;
      if (k == 10)
        head[1] = h;
      if (k == 100)
        head[2] = h;
    }
  const unsigned ks[3] = { 1, 10, 100 };
  for (int i = 0; i < 3; i++)
    {
      double share = head_share (&s, draws, ks[i]), law = head[i] / h;
      fprintf (stderr, "# zipf:1.2: the hottest %u get %.3f %%, the law %.3f %%\n", ks[i],
               100 * share, 100 * law);
      DM_CHECK (fabs (share - law) < 0.02 * law);
    }
  /* zipf near 1, where the integral's closed form has its pole. */
  DM_CHECK_INT (dm_workload_parse ("distribution=zipf:1", &w, NULL, 0), ==, 0);
  DM_CHECK_INT (dm_workload_sampler_init (&s, &w, file), ==, 0);
  double h1 = 0;
  for (unsigned k = 1; k <= 1000; k++)
    h1 += 1.0 / k;
  DM_CHECK (fabs (head_share (&s, draws, 1) - 1 / h1) < 0.02 / h1);

  /* Uniform: every unit inside the file, the hottest 20 % near 20 %. */
  DM_CHECK_INT (dm_workload_parse ("distribution=uniform", &w, NULL, 0), ==, 0);
  DM_CHECK_INT (dm_workload_sampler_init (&s, &w, file), ==, 0);
  DM_CHECK (head_share (&s, draws, 200) < 0.21);
}

static int
run_workloads (dm_report *r, const char *const *texts, unsigned n)
{
  dm_settings s;
  dm_workload w[4];
  dm_settings_init (&s);
  s.count = 2;
  s.test_size = 16ull << 20;
  s.measure_s = 0.1;
  s.warmup_s = 0;
  s.interval_s = 0;
  for (unsigned i = 0; i < n; i++)
    if (dm_workload_parse (texts[i], &w[i], NULL, 0) < 0)
      return -EINVAL;
  if (dm_report_init_workloads (r, &s, w, n) < 0)
    return -ENOMEM;
  dm_test_backend_reset (NULL, 0);
  dm_runner *runner = dm_runner_new (r, ".");
  dm_runner_set_backend (runner, &dm_test_backend);
  int err = dm_runner_run (runner);
  dm_runner_free (runner);
  return err;
}

static const char *const profile_a[] = {
  "name=OLTP;block=8K;read=70;distribution=hot:10/90;qd=8;threads=2",
  "name=log;block=64K;read=0;random=0;sync=flush:4;rate=500iops;qd=1",
};

static void
test_report_round_trip (void)
{
  dm_report r, loaded;
  dm_buf a, b;
  char why[240] = "";
  DM_CHECK_INT (run_workloads (&r, profile_a, 2), ==, 0);
  DM_CHECK (r.profile_hash[0]);
  DM_CHECK (r.results[0].shaped && r.results[0].mode == DM_MODE_MIX);
  DM_CHECK (r.results[1].mode == DM_MODE_WRITE);
  DM_CHECK (r.results[1].flushes > 0);
  dm_buf_init (&a);
  dm_report_write_json (&r, &a);
  DM_CHECK (strstr (a.data, "\"workload\": \"name=OLTP;block=8K;read=70;"));
  DM_CHECK (strstr (a.data, "\"profile_hash\""));
  DM_CHECK_INT (dm_report_load_json (&loaded, a.data, a.len, why, sizeof why), ==, 0);
  DM_CHECK_STR (why, "");
  DM_CHECK_STR (loaded.profile_hash, r.profile_hash);
  DM_CHECK (loaded.results[0].shaped && dm_workload_equal (&loaded.results[0].workload,
                                                           &r.results[0].workload));
  DM_CHECK_INT (loaded.results[1].flushes, ==, r.results[1].flushes);
  dm_buf_init (&b);
  dm_report_write_json (&loaded, &b);
  DM_CHECK_INT (a.len, ==, b.len);
  DM_CHECK (a.len == b.len && !memcmp (a.data, b.data, a.len));
  /* And the text says what ran. */
  dm_buf t;
  dm_buf_init (&t);
  dm_report_write_text (&loaded, &t);
  DM_CHECK (strstr (t.data, "[Workloads]"));
  DM_CHECK (strstr (t.data, "Mode: 8K, 70% read, 100% random hot:10/90, Q8T2"));
  DM_CHECK (strstr (t.data, "sync flush:4"));
  DM_CHECK (strstr (t.data, "Rate: 500 IOPS offered"));
  DM_CHECK (!strstr (t.data, "[Read]"));
  dm_report_clear (&loaded);

  /* A hash that is not its rows', or a workload that is not its test's,
   * is refused. */
  char *edit = strdup (a.data);
  char *h = strstr (edit, r.profile_hash);
  h[0] = h[0] == '0' ? '1' : '0';
  DM_CHECK_INT (dm_report_load_json (&loaded, edit, strlen (edit), why, sizeof why), ==, -EINVAL);
  DM_CHECK (strstr (why, "profile_hash"));
  free (edit);
  edit = strdup (a.data);
  char *q = strstr (edit, ";qd=8;threads=2");
  q[4] = '4';
  DM_CHECK_INT (dm_report_load_json (&loaded, edit, strlen (edit), why, sizeof why), ==, -EINVAL);
  DM_CHECK (strstr (why, "does not match"));
  free (edit);

  dm_buf_free (&a);
  dm_buf_free (&b);
  dm_buf_free (&t);
  dm_report_clear (&r);
}

static void
test_plain_unchanged (void)
{
  dm_report r;
  dm_settings s;
  dm_spec spec;
  dm_buf j;
  dm_settings_init (&s);
  s.count = 1;
  s.test_size = 16ull << 20;
  s.measure_s = 0.1;
  s.warmup_s = 0;
  s.interval_s = 0;
  dm_spec_parse ("RND4K_Q32T1", &spec, NULL, 0);
  DM_CHECK_INT (dm_report_init (&r, &s, &spec, 1, DM_MODE_BIT (DM_MODE_READ)), ==, 0);
  dm_test_backend_reset (NULL, 0);
  dm_runner *runner = dm_runner_new (&r, ".");
  dm_runner_set_backend (runner, &dm_test_backend);
  DM_CHECK_INT (dm_runner_run (runner), ==, 0);
  dm_runner_free (runner);
  dm_buf_init (&j);
  dm_report_write_json (&r, &j);
  DM_CHECK (!strstr (j.data, "\"workload\":") && !strstr (j.data, "\"profile_hash\":"));
  DM_CHECK (!r.results[0].shaped);
  dm_buf_free (&j);
  dm_report_clear (&r);
}

static void
test_merge_profiles (void)
{
  static const char *const profile_b[] = {
    "name=OLTP;block=8K;read=70;distribution=hot:20/80;qd=8;threads=2",
    "name=log;block=64K;read=0;random=0;sync=flush:4;rate=500iops;qd=1",
  };
  dm_report a, b;
  char why[400] = "";
  DM_CHECK_INT (run_workloads (&a, profile_a, 2), ==, 0);
  DM_CHECK_INT (run_workloads (&b, profile_b, 2), ==, 0);
  DM_CHECK (strcmp (a.profile_hash, b.profile_hash));
  DM_CHECK (!dm_report_same_profile (&a, &b, why, sizeof why));
  DM_CHECK (strstr (why, "different profiles"));
  DM_CHECK (dm_report_same_profile (&a, &a, why, sizeof why));

  dm_merge m;
  DM_CHECK_INT (dm_merge_begin (&m, DM_MERGE_ALLOW_DUPLICATES), ==, 0);
  DM_CHECK_INT (dm_merge_add (&m, &a, "a.json", why, sizeof why), ==, 0);
  DM_CHECK_INT (dm_merge_add (&m, &b, "b.json", why, sizeof why), ==, -EINVAL);
  DM_CHECK (strstr (why, "another profile"));
  dm_merge_clear (&m);
  DM_CHECK_INT (dm_merge_begin (&m, DM_MERGE_ALLOW_DUPLICATES | DM_MERGE_ALLOW_PROFILES), ==, 0);
  DM_CHECK_INT (dm_merge_add (&m, &a, "a.json", why, sizeof why), ==, 0);
  DM_CHECK_INT (dm_merge_add (&m, &b, "b.json", why, sizeof why), ==, 0);
  dm_merge_clear (&m);
  dm_report_clear (&a);
  dm_report_clear (&b);
}

int
main (void)
{
  DM_RUN ("/engine/workload/canonical", test_canonical);
  DM_RUN ("/engine/workload/refusals", test_refusals);
  DM_RUN ("/engine/workload/profile-file", test_profile_file);
  DM_RUN ("/engine/workload/shipped-profiles", test_shipped_profiles);
  DM_RUN ("/engine/workload/samplers", test_samplers);
  DM_RUN ("/engine/workload/report-round-trip", test_report_round_trip);
  DM_RUN ("/engine/workload/plain-unchanged", test_plain_unchanged);
  DM_RUN ("/engine/workload/merge-profiles", test_merge_profiles);
  return dm_test_failures ? 1 : 0;
}
