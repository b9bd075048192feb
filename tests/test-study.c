/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Study plans and their runs: a plan parses into what it says, and every
 * bad line is refused with its own number; scenarios come Q x T outer,
 * targets inner, with the study's tags; a run stopped after the fifth
 * scenario goes on with the other seven, never one twice; another tag set
 * makes new rows; the sheet's colours and ranking follow the rules.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dm-platform.h"
#include "dm-study.h"
#include "dm-test-backend.h"
#include "dm-test.h"

static const char good_plan[] =
  "# a study\n"
  "[study]\n"
  "name = controllers\n"
  "tests = SEQ1M, RND4K\n"
  "modes = read\n"
  "q = 1,32\n"
  "t = 1, 48   # comment\n"
  "count = 1\n"
  "size = 16MiB\n"
  "duration = 0.1\n"
  "warmup = 0\n"
  "interval = 0\n"
  "tag = vcpus=48 (HT)\n"
  "threshold = read RND4K IOPS green>90000 red<90000\n"
  "\n"
  "[target LSI C:]\n"
  "path = .\n"
  "tag = controller=lsi\n"
  "[target pvscsi E:]\n"
  "path = .\n"
  "[target NVMe F:]\n"
  "path = .\n";

static void
test_parse (void)
{
  static dm_study_plan p;
  char why[300] = "";
  DM_CHECK_INT (dm_study_plan_parse (good_plan, strlen (good_plan), NULL, &p, why, sizeof why),
                ==, 0);
  DM_CHECK_STR (why, "");
  DM_CHECK_STR (p.name, "controllers");
  DM_CHECK_INT (p.n_tests, ==, 2);
  DM_CHECK_INT (p.tests[0].pattern, ==, DM_SEQ);
  DM_CHECK_INT (p.tests[0].block_size, ==, 1u << 20);
  DM_CHECK_INT (p.tests[1].pattern, ==, DM_RND);
  DM_CHECK_INT (p.tests[1].block_size, ==, 4096);
  DM_CHECK_INT (p.modes, ==, DM_MODE_BIT (DM_MODE_READ));
  DM_CHECK_INT (p.n_qd, ==, 2);
  DM_CHECK_INT (p.qd[1], ==, 32);
  DM_CHECK_INT (p.n_threads, ==, 2);
  DM_CHECK_INT (p.threads[1], ==, 48);
  DM_CHECK_INT (p.settings.test_size, ==, 16u << 20);
  DM_CHECK (p.settings.measure_s == 0.1);
  DM_CHECK_INT (p.n_targets, ==, 3);
  DM_CHECK_STR (p.targets[0].label, "LSI C:");
  DM_CHECK_STR (p.targets[2].label, "NVMe F:");
  DM_CHECK_INT (p.targets[0].n_tags, ==, 1);
  DM_CHECK_STR (p.targets[0].tags[0].value, "lsi");
  DM_CHECK_INT (p.n_tags, ==, 1);
  DM_CHECK_STR (p.tags[0].value, "48 (HT)");
  DM_CHECK_INT (p.n_rules, ==, 1);
  DM_CHECK (p.rules[0].any_qt);

  /* A profile's tests, patterns and blocks once each. */
  static const char prof[] = "[study]\nname=x\nprofile=default\nq=1\nt=1\n[target a]\npath=/x\n";
  DM_CHECK_INT (dm_study_plan_parse (prof, strlen (prof), NULL, &p, why, sizeof why), ==, 0);
  DM_CHECK_INT (p.n_tests, ==, 2);
  DM_CHECK_INT (p.modes, ==, DM_MODE_BIT (DM_MODE_READ) | DM_MODE_BIT (DM_MODE_WRITE));
  static const char modes[] = "[study]\nname=x\ntests=RND4K\nmodes = read, mix\nq=1\nt=1\n"
                              "[target a]\npath=/x\n";
  DM_CHECK_INT (dm_study_plan_parse (modes, strlen (modes), NULL, &p, why, sizeof why), ==, 0);
  DM_CHECK_INT (p.modes, ==, DM_MODE_BIT (DM_MODE_READ) | DM_MODE_BIT (DM_MODE_MIX));
}

/* Each bad plan and the line its reason must name. */
static void
test_bad_lines (void)
{
  static const struct {
    const char *text;
    const char *reason; /* the start of the reason */
  } cases[] = {
    { "[study]\nname = a\nq = 1, 0\n", "line 3: q: '0' is not" },
    { "[study]\nname = a\nq = 1, 1\n", "line 3: q: 1 is there twice" },
    { "[study]\nname = a\n\n# c\nt = 65\n", "line 5: t: '65'" },
    { "[study]\nname = a\ntests = SEQ1M_Q8T1\n", "line 3: tests: 'SEQ1M_Q8T1' is not" },
    { "[study]\ntests = SEQ3M\n", "line 2: tests: 'SEQ3M'" },
    { "name = a\n", "line 1: 'name = a' comes before" },
    { "[study]\n[study]\n", "line 2: [study] is there twice" },
    { "[study]\nname = a\n[target]\n", "line 3: [target] needs a label" },
    { "[study]\nname = a\n[target x]\npath = /a\n[target x]\n", "line 5: [target x] is there twice" },
    { "[study]\nname = a\n[target x]\ntag = controller=lsi\n[target y]\n",
      "line 5: [target x] has no path" },
    { "[study]\nname = a\n[target x]\nspeed = 3\n", "line 4: 'speed' is no key of a [target]" },
    { "[study]\nname = a\nsize = 32MB\n", "line 3: size:" },
    { "[study]\nname = a\ncount = 10\n", "line 3: count:" },
    { "[study]\nname = a\nthreshold = read IOPS blue>3\n", "line 3: threshold:" },
    { "[study]\nname = a\ntag = study=b\n", "line 3: tag: study= is the study's own" },
    { "[study]\nname = a\nnonsense\n", "line 3: 'nonsense' is neither" },
    { "[study]\nname = a\n[other]\n", "line 3: [other]: a section is" },
    { "[study]\nname = a\ntests = SEQ1M\nprofile = default\n", "line 4: profile:" },
    { "[study]\nname = a\nthresholds = no-such-file.txt\n", "line 3: thresholds: " },
    { "[study]\nname = a\ntests = RND4K\nq = 1\nt = 1\n", "no [target LABEL] section" },
    { "[study]\nname = a\ntests = RND4K\nt = 1\n[target x]\npath = /a\n", "[study] has no q" },
    { "[target x]\npath = /a\n", "no [study] section" },
    { "[study]\nname = a\x01" "b\n", "line 2: name: holds a control" },
    { "[study]\nname = \xff\n", "line 2: is not UTF-8" },
    { "[study]\nname = a\nconcurrent = maybe\n", "line 3: concurrent: 'maybe' is neither" },
    { "[study]\nname = a\nconcurrent =\n", "line 3: concurrent: '' is neither" },
    { "[study]\nname = a\ntag = study.concurrent=no\n", "line 3: tag: study.concurrent= is" },
    { "[study]\nname = a\ntests = RND4K\nq = 1\nt = 1\nconcurrent = yes\nwarmup = steady\n"
      "[target x]\npath = /a\n", "line 6: concurrent = yes does not go with warmup = steady" },
    { "[study]\nname = a\ntests = RND4K\nq = 1\nt = 1\n\nconcurrent = YES\n"
      "[target x]\npath = /a\n[target y]\npath = /a\n",
      "line 7: concurrent = yes, but [target x] and [target y] have the same path" },
  };
  static dm_study_plan p;
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
    {
      char why[300] = "";
      int err = dm_study_plan_parse (cases[i].text, strlen (cases[i].text), NULL, &p, why,
                                     sizeof why);
      DM_CHECK_INT (err, ==, -EINVAL);
      if (strncmp (why, cases[i].reason, strlen (cases[i].reason)))
        {
          fprintf (stderr, "case %u: got \"%s\", want \"%s...\"\n", (unsigned) i, why,
                   cases[i].reason);
          dm_test_case_failed = 1;
        }
    }
}

static void
test_rules (void)
{
  dm_study_rule r;
  char why[200];
  dm_threshold t[4];
  dm_spec at;
  DM_CHECK_INT (dm_study_rule_parse ("read RND4K IOPS green>90000 red<90000", &r, why,
                                     sizeof why), ==, 0);
  DM_CHECK (r.any_qt && r.has_test && r.pattern == DM_RND && r.block_size == 4096);
  DM_CHECK_INT (dm_study_rules_at (&r, 1, NULL, 0, 32, 48, t, 4), ==, 1);
  dm_spec_parse ("RND4K_Q32T48", &at, NULL, 0);
  DM_CHECK_INT (dm_threshold_colour (t, 1, &at, DM_MODE_READ, DM_UNIT_IOPS, 95000), ==,
                DM_COLOUR_GREEN);
  DM_CHECK_INT (dm_threshold_colour (t, 1, &at, DM_MODE_READ, DM_UNIT_IOPS, 85000), ==,
                DM_COLOUR_RED);
  /* Not another test, not another column. */
  dm_spec_parse ("SEQ1M_Q32T48", &at, NULL, 0);
  DM_CHECK_INT (dm_threshold_colour (t, 1, &at, DM_MODE_READ, DM_UNIT_IOPS, 95000), ==,
                DM_COLOUR_NONE);
  dm_spec_parse ("RND4K_Q32T48", &at, NULL, 0);
  DM_CHECK_INT (dm_threshold_colour (t, 1, &at, DM_MODE_WRITE, DM_UNIT_IOPS, 95000), ==,
                DM_COLOUR_NONE);
  /* A full test name holds at its own Q and T only. */
  DM_CHECK_INT (dm_study_rule_parse ("RND4K_Q1T1 us red>500", &r, why, sizeof why), ==, 0);
  DM_CHECK (!r.any_qt && r.has_test);
  DM_CHECK_INT (dm_study_rule_parse ("read RND4K SEQ1M IOPS green>1", &r, why, sizeof why), ==,
                -EINVAL);
  DM_CHECK_INT (dm_study_rule_parse ("read RND4K green>1", &r, why, sizeof why), ==, -EINVAL);
}

static void
test_scenarios (void)
{
  static dm_study_plan p;
  char why[300];
  dm_system_info sys;
  dm_target_info tg[3];
  dm_study_scenario *s;
  unsigned n;
  memset (&sys, 0, sizeof sys);
  memset (tg, 0, sizeof tg);
  sys.logical_cpus = 8;
  snprintf (tg[1].controller, sizeof tg[1].controller, "pvscsi");
  DM_CHECK_INT (dm_study_plan_parse (good_plan, strlen (good_plan), NULL, &p, why, sizeof why),
                ==, 0);
  DM_CHECK_INT (dm_study_scenarios (&p, &sys, tg, &s, &n), ==, 0);
  DM_CHECK_INT (n, ==, 12);
  /* Targets inner: every Q x T visits all three before the next. */
  for (unsigned i = 0; i < n; i++)
    {
      DM_CHECK_INT (s[i].target, ==, i % 3);
      DM_CHECK_INT (s[i].qd, ==, i / 6 ? 32 : 1);
      DM_CHECK_INT (s[i].threads, ==, (i / 3) % 2 ? 48 : 1);
      DM_CHECK (!s[i].done);
    }
  DM_CHECK_STR (dm_tags_get (s[0].tags, s[0].n_tags, "study"), "controllers");
  DM_CHECK_STR (dm_tags_get (s[0].tags, s[0].n_tags, "study.target"), "LSI C:");
  /* The user's vcpus replaces the fact; the plan's controller the
   * target's; a fact the plan does not name stays. */
  DM_CHECK_STR (dm_tags_get (s[0].tags, s[0].n_tags, "vcpus"), "48 (HT)");
  DM_CHECK_STR (dm_tags_get (s[0].tags, s[0].n_tags, "controller"), "lsi");
  DM_CHECK_STR (dm_tags_get (s[1].tags, s[1].n_tags, "controller"), "pvscsi");
  DM_CHECK (dm_tags_get (s[2].tags, s[2].n_tags, "controller") == NULL);
  /* Not concurrent: no study.concurrent tag, so these runs are not those
   * of a plan that runs its targets at once. */
  DM_CHECK (dm_tags_get (s[0].tags, s[0].n_tags, "study.concurrent") == NULL);
  DM_CHECK (!p.concurrent);
  free (s);
}

/* --- A concurrent plan --------------------------------------------------- */

static const char concurrent_plan[] =
  "[study]\n"
  "name = together\n"
  "tests = SEQ128K\n"
  "modes = read\n"
  "q = 1, 2\n"
  "t = 1\n"
  "size = 16MiB\n"
  "duration = 0.1\n"
  "warmup = 0\n"
  "interval = 0\n"
  "concurrent = yes\n"
  "[target a]\n"
  "path = .\n"
  "[target b]\n"
  "path = test-study-runs\n";

static void
test_concurrent_parse (void)
{
  static dm_study_plan p;
  char why[300] = "";
  dm_system_info sys;
  dm_study_scenario *s;
  unsigned n;
  memset (&sys, 0, sizeof sys);
  DM_CHECK_INT (dm_study_plan_parse (concurrent_plan, strlen (concurrent_plan), NULL, &p, why,
                                     sizeof why), ==, 0);
  DM_CHECK_STR (why, "");
  DM_CHECK (p.concurrent);
  DM_CHECK_INT (dm_study_scenarios (&p, &sys, NULL, &s, &n), ==, 0);
  DM_CHECK_INT (n, ==, 4);
  for (unsigned i = 0; i < n; i++)
    {
      DM_CHECK_STR (dm_tags_get (s[i].tags, s[i].n_tags, "study.concurrent"), "yes");
      DM_CHECK_STR (dm_tags_get (s[i].tags, s[i].n_tags, "study"), "together");
    }
  free (s);
  static const char no[] = "[study]\nname = a\ntests = RND4K\nq = 1\nt = 1\n"
                           "concurrent = no\n[target x]\npath = /a\n[target y]\npath = /a\n";
  DM_CHECK_INT (dm_study_plan_parse (no, strlen (no), NULL, &p, why, sizeof why), ==, 0);
  DM_CHECK (!p.concurrent);
}

/* Steps by hand: runs of a concurrent plan marked done only where both
 * targets of the Q x T have one. */
static void
test_concurrent_steps (void)
{
  static dm_study_plan p;
  static dm_report r[3];
  char why[300];
  dm_system_info sys;
  dm_study_scenario *s;
  unsigned n;
  memset (&sys, 0, sizeof sys);
  DM_CHECK_INT (dm_study_plan_parse (concurrent_plan, strlen (concurrent_plan), NULL, &p, why,
                                     sizeof why), ==, 0);
  DM_CHECK_INT (dm_study_scenarios (&p, &sys, NULL, &s, &n), ==, 0);
  /* Q1: a and b; Q2: a only. */
  const unsigned which[3] = { 0, 1, 2 };
  const dm_report *rs[3];
  const char *paths[3] = { "q1a", "q1b", "q2a" };
  for (unsigned k = 0; k < 3; k++)
    {
      DM_CHECK_INT (dm_study_report_init (&p, &s[which[k]], &r[k], why, sizeof why), ==, 0);
      r[k].status = r[k].results[0].status = DM_STATUS_COMPLETE;
      rs[k] = &r[k];
    }
  DM_CHECK_INT (dm_study_mark_done (&p, s, n, rs, paths, 3), ==, 2);
  DM_CHECK (s[0].done && s[1].done && !s[2].done && !s[3].done);
  DM_CHECK_STR (s[1].path, "q1b");
  DM_CHECK_STR (s[2].path, "");
  /* The same runs, the plan not concurrent (and so without the tag): the
   * runs are another plan's, none done. */
  p.concurrent = false;
  free (s);
  DM_CHECK_INT (dm_study_scenarios (&p, &sys, NULL, &s, &n), ==, 0);
  DM_CHECK_INT (dm_study_mark_done (&p, s, n, rs, paths, 3), ==, 0);
  free (s);
  for (unsigned k = 0; k < 3; k++)
    dm_report_clear (&r[k]);
}

/* --- A run, stopped and resumed -------------------------------------------- */

static const char folder[] = "test-study-runs";

static void
remove_one (const char *name, void *user)
{
  char path[300];
  (void) user;
  snprintf (path, sizeof path, "%s%c%s", folder, dm_dir_separator (), name);
  dm_file_remove (path);
}

static void
empty_folder (void)
{
  dm_ensure_dir (folder);
  dm_list_files (folder, remove_one, NULL);
}

typedef struct watch {
  dm_study_run *run;
  unsigned      stop_after, finished, saved;
} watch;

static void
on_progress (void *user, const dm_study_progress *p)
{
  watch *w = user;
  if (!p->finished)
    return;
  w->finished++;
  w->saved += p->saved_path != NULL;
  if (w->stop_after && w->saved == w->stop_after)
    dm_study_run_cancel (w->run);
}

/* Runs the plan's scenarios not in the folder yet; returns the run's code. */
static int
run_plan (const dm_study_plan *p, const dm_system_info *sys, unsigned stop_after,
          unsigned *done_before, unsigned *ran)
{
  dm_study_scenario *s;
  unsigned n;
  dm_report **reports;
  char **paths;
  unsigned nr;
  DM_CHECK_INT (dm_study_scenarios (p, sys, NULL, &s, &n), ==, 0);
  DM_CHECK_INT (dm_study_files_load (folder, p->name, &reports, &paths, &nr), ==, 0);
  *done_before = dm_study_mark_done (p, s, n, (const dm_report *const *) reports,
                                     (const char *const *) paths, nr);
  dm_study_files_free (reports, paths, nr);
  watch w = { NULL, stop_after, 0, 0 };
  w.run = dm_study_run_new (p, s, n, false);
  dm_study_run_set_backend (w.run, &dm_test_backend);
  dm_study_run_set_folder (w.run, folder);
  dm_study_run_set_progress (w.run, on_progress, &w);
  dm_test_backend_reset (NULL, 0);
  int err = dm_study_run_go (w.run);
  dm_study_run_free (w.run);
  *ran = w.saved;
  free (s);
  return err;
}

static void
test_resume (void)
{
  static dm_study_plan p;
  static dm_study_sheet sheet;
  char why[300];
  dm_system_info sys;
  unsigned before, ran;
  memset (&sys, 0, sizeof sys);
  sys.logical_cpus = 8;
  empty_folder ();
  DM_CHECK_INT (dm_study_plan_parse (good_plan, strlen (good_plan), NULL, &p, why, sizeof why),
                ==, 0);
  /* 48 threads of the in-memory backend: one is enough for the logic. */
  p.threads[1] = 2;

  DM_CHECK_INT (run_plan (&p, &sys, 5, &before, &ran), ==, -ECANCELED);
  DM_CHECK_INT (before, ==, 0);
  DM_CHECK_INT (ran, ==, 5);
  DM_CHECK_INT (run_plan (&p, &sys, 0, &before, &ran), ==, 0);
  DM_CHECK_INT (before, ==, 5);
  DM_CHECK_INT (ran, ==, 7);
  /* Nothing left: the third run measures nothing. */
  DM_CHECK_INT (run_plan (&p, &sys, 0, &before, &ran), ==, 0);
  DM_CHECK_INT (before, ==, 12);
  DM_CHECK_INT (ran, ==, 0);

  dm_report **reports;
  char **paths;
  unsigned nr;
  DM_CHECK_INT (dm_study_files_load (folder, p.name, &reports, &paths, &nr), ==, 0);
  DM_CHECK_INT (nr, ==, 12);
  DM_CHECK_INT (dm_study_sheet_build (p.name, (const dm_report *const *) reports,
                                      (const char *const *) paths, nr, NULL, 0, &sheet, why,
                                      sizeof why), ==, 0);
  DM_CHECK_INT (sheet.n_rows, ==, 12);
  /* Twelve different scenarios, none twice. */
  for (unsigned i = 0; i < sheet.n_rows; i++)
    for (unsigned j = i + 1; j < sheet.n_rows; j++)
      DM_CHECK (strcmp (sheet.rows[i].target, sheet.rows[j].target)
                || sheet.rows[i].qd != sheet.rows[j].qd
                || sheet.rows[i].threads != sheet.rows[j].threads);
  /* Read of two tests x three units, the device's latency and the CPU;
   * and where the folder's disk timed its reads, its r_await and the part
   * above it. */
  bool timed = false;
  for (unsigned i = 0; i < nr; i++)
    for (unsigned j = 0; j < reports[i]->n_results; j++)
      timed = timed || reports[i]->results[j].device.split[DM_DEVICE_READ].guest_counted;
  DM_CHECK_INT (sheet.n_columns, ==, 2 * 3 + 2 + (timed ? 2 : 0));
  if (timed)
    DM_CHECK_STR (sheet.columns[7].title, "Device r_await us");
  DM_CHECK_STR (sheet.columns[3].title, "Read RND4K MB/s");
  DM_CHECK_STR (sheet.columns[4].title, "Read RND4K IOPS");
  dm_study_sheet_free (&sheet);
  dm_study_files_free (reports, paths, nr);

  /* After a reboot with another vCPU layout: the same plan, other tags,
   * twelve new rows beside the old ones. */
  dm_tag tag;
  dm_tag_make (&tag, "vcpus", "16", NULL, 0);
  DM_CHECK_INT (dm_study_plan_add_tags (&p, &tag, 1), ==, 0);
  DM_CHECK_INT (run_plan (&p, &sys, 0, &before, &ran), ==, 0);
  DM_CHECK_INT (before, ==, 0);
  DM_CHECK_INT (ran, ==, 12);
  DM_CHECK_INT (dm_study_files_load (folder, p.name, &reports, &paths, &nr), ==, 0);
  DM_CHECK_INT (nr, ==, 24);
  DM_CHECK_INT (dm_study_sheet_build (p.name, (const dm_report *const *) reports,
                                      (const char *const *) paths, nr, NULL, 0, &sheet, why,
                                      sizeof why), ==, 0);
  DM_CHECK_INT (sheet.n_rows, ==, 24);
  unsigned k = 0;
  while (k < sheet.n_tag_keys && strcmp (sheet.tag_keys[k], "vcpus"))
    k++;
  DM_CHECK (k < sheet.n_tag_keys);
  unsigned sixteen = 0;
  for (unsigned i = 0; k < sheet.n_tag_keys && i < sheet.n_rows; i++)
    sixteen += !strcmp (sheet.rows[i].tag_values[k], "16");
  DM_CHECK_INT (sixteen, ==, 12);
  dm_study_sheet_free (&sheet);
  dm_study_files_free (reports, paths, nr);
  /* Another study's name finds none of these. */
  DM_CHECK_INT (dm_study_files_load (folder, "other", &reports, &paths, &nr), ==, 0);
  DM_CHECK_INT (nr, ==, 0);
  dm_study_files_free (reports, paths, nr);
  empty_folder ();
}

/* A concurrent plan run, a target's run of one step lost, run again: the
 * whole step runs, and the sheet keeps the newer of the scenario's two. */
static void
test_concurrent_resume (void)
{
  static dm_study_plan p;
  static dm_study_sheet sheet;
  char why[300];
  dm_system_info sys;
  unsigned before, ran;
  memset (&sys, 0, sizeof sys);
  sys.logical_cpus = 8;
  empty_folder ();
  DM_CHECK_INT (dm_study_plan_parse (concurrent_plan, strlen (concurrent_plan), NULL, &p, why,
                                     sizeof why), ==, 0);
  DM_CHECK_INT (run_plan (&p, &sys, 0, &before, &ran), ==, 0);
  DM_CHECK_INT (before, ==, 0);
  DM_CHECK_INT (ran, ==, 4);

  dm_report **reports;
  char **paths;
  unsigned nr;
  DM_CHECK_INT (dm_study_files_load (folder, p.name, &reports, &paths, &nr), ==, 0);
  DM_CHECK_INT (nr, ==, 4);
  char lost[1200] = "", kept_q2a[1200] = "";
  for (unsigned i = 0; i < nr; i++)
    {
      dm_tag tags[DM_TAGS_ALL_MAX];
      unsigned nt = dm_report_tags (reports[i], tags);
      DM_CHECK_STR (dm_tags_get (tags, nt, "study.concurrent"), "yes");
      const char *label = dm_tags_get (tags, nt, "study.target");
      if (reports[i]->results[0].spec.queue_depth == 2 && label)
        snprintf (!strcmp (label, "b") ? lost : kept_q2a, sizeof lost, "%s", paths[i]);
    }
  dm_study_files_free (reports, paths, nr);
  DM_CHECK (lost[0] && kept_q2a[0]);
  DM_CHECK_INT (dm_file_remove (lost), ==, 0);

  /* Runs' times are whole seconds: the run again comes in a later one, as
   * it would after a stop. */
  dm_sleep_ns (1100000000ull);
  /* Q1 is done; Q2 has a alone, so both of Q2 run again. */
  DM_CHECK_INT (run_plan (&p, &sys, 0, &before, &ran), ==, 0);
  DM_CHECK_INT (before, ==, 2);
  DM_CHECK_INT (ran, ==, 2);
  DM_CHECK_INT (run_plan (&p, &sys, 0, &before, &ran), ==, 0);
  DM_CHECK_INT (before, ==, 4);
  DM_CHECK_INT (ran, ==, 0);

  DM_CHECK_INT (dm_study_files_load (folder, p.name, &reports, &paths, &nr), ==, 0);
  DM_CHECK_INT (nr, ==, 5);
  DM_CHECK_INT (dm_study_sheet_build (p.name, (const dm_report *const *) reports,
                                      (const char *const *) paths, nr, NULL, 0, &sheet, why,
                                      sizeof why), ==, 0);
  DM_CHECK_INT (sheet.n_rows, ==, 4);
  /* The old Q2 run of a is not a row: the newer one is. */
  for (unsigned i = 0; i < sheet.n_rows; i++)
    DM_CHECK (strcmp (sheet.rows[i].path, kept_q2a));
  /* The tag tells the sheet these ran together. */
  unsigned k = 0;
  while (k < sheet.n_tag_keys && strcmp (sheet.tag_keys[k], "study.concurrent"))
    k++;
  DM_CHECK (k < sheet.n_tag_keys);
  dm_study_sheet_free (&sheet);
  dm_study_files_free (reports, paths, nr);
  empty_folder ();
}

/* The sheet of hand-made runs: colours by the rules, green everywhere,
 * the ranking. */
static void
make_run (dm_report *r, const char *label, unsigned qd, double iops, int64_t started)
{
  dm_settings s;
  dm_spec spec;
  dm_tag tag;
  dm_settings_init (&s);
  dm_spec_parse ("RND4K_Q1T1", &spec, NULL, 0);
  spec.queue_depth = (uint16_t) qd;
  dm_report_init (r, &s, &spec, 1, DM_MODE_BIT (DM_MODE_READ));
  r->status = r->results[0].status = DM_STATUS_COMPLETE;
  r->results[0].iops = iops;
  r->results[0].mb_per_s = iops * 4096 / 1e6;
  r->results[0].latency_us = 1e6 * qd / iops;
  r->started = started;
  dm_tag_make (&tag, "study", "s", NULL, 0);
  dm_tags_set (r->tags, &r->n_tags, DM_TAGS_ALL_MAX, &tag);
  dm_tag_make (&tag, "study.target", label, NULL, 0);
  dm_tags_set (r->tags, &r->n_tags, DM_TAGS_ALL_MAX, &tag);
}

static void
test_sheet (void)
{
  static dm_report r[4];
  static dm_study_sheet sheet;
  dm_study_rule rule;
  char why[200];
  make_run (&r[0], "a", 1, 95000, 100);
  make_run (&r[1], "b", 1, 50000, 101);
  make_run (&r[2], "a", 4, 120000, 102);
  make_run (&r[3], "a", 1, 99000, 103); /* a again, newer: it replaces r[0] */
  const dm_report *rs[4] = { &r[0], &r[1], &r[2], &r[3] };
  DM_CHECK_INT (dm_study_rule_parse ("read RND4K IOPS green>90000 red<90000", &rule, why,
                                     sizeof why), ==, 0);
  DM_CHECK_INT (dm_study_sheet_build ("s", rs, NULL, 4, &rule, 1, &sheet, why, sizeof why), ==,
                0);
  DM_CHECK_INT (sheet.n_rows, ==, 3);
  DM_CHECK_INT (sheet.n_columns, ==, 5);
  DM_CHECK_STR (sheet.rows[0].target, "b");
  DM_CHECK_INT (sheet.rows[0].colours[1], ==, DM_COLOUR_RED);
  DM_CHECK (!sheet.rows[0].all_green);
  DM_CHECK_INT (sheet.rows[1].qd, ==, 4);
  DM_CHECK (sheet.rows[1].values[1] == 120000);
  DM_CHECK_INT (sheet.rows[1].colours[1], ==, DM_COLOUR_GREEN);
  DM_CHECK (sheet.rows[2].values[1] == 99000);
  DM_CHECK (sheet.rows[2].all_green);
  unsigned order[3];
  DM_CHECK_INT (dm_study_sheet_rank (&sheet, order), ==, 2);
  /* Q4's best IOPS and MB/s (1 each) but its 33.3 us against the best
   * 10.1 give (1 + 1 + 10.1/33.3) / 3 = 0.77; Q1's 99000 of 120000 IOPS
   * and MB/s and the best latency give (0.825 + 0.825 + 1) / 3 = 0.883. */
  DM_CHECK_INT (sheet.rows[order[0]].qd, ==, 1);
  DM_CHECK (sheet.rows[order[0]].score > 0.882 && sheet.rows[order[0]].score < 0.884);
  DM_CHECK (sheet.rows[order[1]].score > 0.76 && sheet.rows[order[1]].score < 0.78);
  dm_buf csv;
  dm_buf_init (&csv);
  dm_study_sheet_write_csv (&sheet, &csv);
  DM_CHECK (csv.data && strstr (csv.data, "\n1,b,1,1,204.80,50000,20.0,,0.0,,red,,,,no\n"));
  if (csv.data && !strstr (csv.data, "\n1,b,1,1,204.80,50000,20.0,,0.0,,red,,,,no\n"))
    fprintf (stderr, "%s", csv.data);
  dm_buf_free (&csv);
  dm_study_sheet_free (&sheet);
  /* No rule given now: the runs' own (none) colour nothing. */
  DM_CHECK_INT (dm_study_sheet_build ("s", rs, NULL, 4, NULL, 0, &sheet, why, sizeof why), ==, 0);
  DM_CHECK_INT (sheet.rows[0].colours[1], ==, DM_COLOUR_NONE);
  DM_CHECK (!sheet.rows[2].all_green);
  dm_study_sheet_free (&sheet);
  /* A rule with only a red limit asks only that no figure is red. */
  dm_study_rule two[2];
  DM_CHECK_INT (dm_study_rule_parse ("read RND4K IOPS green>90000 red<90000", &two[0], why,
                                     sizeof why), ==, 0);
  DM_CHECK_INT (dm_study_rule_parse ("us red>30", &two[1], why, sizeof why), ==, 0);
  DM_CHECK_INT (dm_study_sheet_build ("s", rs, NULL, 4, two, 2, &sheet, why, sizeof why), ==, 0);
  DM_CHECK (sheet.rows[2].all_green);  /* 10.1 us */
  DM_CHECK (!sheet.rows[1].all_green); /* 33.3 us: red */
  DM_CHECK_INT (sheet.rows[1].colours[2], ==, DM_COLOUR_RED);
  dm_study_sheet_free (&sheet);
  DM_CHECK_INT (dm_study_sheet_build ("t", rs, NULL, 4, NULL, 0, &sheet, why, sizeof why), ==,
                -ENOENT);
  for (int i = 0; i < 4; i++)
    dm_report_clear (&r[i]);
}

/* The sample plan and thresholds the package installs parse. */
static void
test_samples (void)
{
  static dm_study_plan p;
  char path[1200], why[600] = "";
  const char *root = getenv ("DM_SOURCE_ROOT");
  if (!root)
    return; /* run outside meson test: nothing to find them by */
  snprintf (path, sizeof path, "%s/resources/studies/controllers.plan", root);
  DM_CHECK_INT (dm_study_plan_load (path, &p, why, sizeof why), ==, 0);
  DM_CHECK_STR (why, "");
  DM_CHECK_INT (p.n_targets, ==, 3);
  DM_CHECK_INT (p.n_qd * p.n_threads * p.n_targets, ==, 12);
  DM_CHECK_INT (p.n_rules, ==, 7);
  DM_CHECK (p.rules[0].any_qt && p.rules[0].t.green == 90000 && p.rules[0].t.red == 90000);
}

int
main (void)
{
  DM_RUN ("/engine/study/parse", test_parse);
  DM_RUN ("/engine/study/bad-lines", test_bad_lines);
  DM_RUN ("/engine/study/rules", test_rules);
  DM_RUN ("/engine/study/scenarios", test_scenarios);
  DM_RUN ("/engine/study/resume", test_resume);
  DM_RUN ("/engine/study/concurrent-parse", test_concurrent_parse);
  DM_RUN ("/engine/study/concurrent-steps", test_concurrent_steps);
  DM_RUN ("/engine/study/concurrent-resume", test_concurrent_resume);
  DM_RUN ("/engine/study/sheet", test_sheet);
  DM_RUN ("/engine/study/samples", test_samples);
  return dm_test_done ();
}
