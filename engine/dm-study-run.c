/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A study's scenarios, which of them the history holds already, and the
 * run of the others: one runner per scenario, each completed one saved as
 * soon as it ends, so a stop (Ctrl-C, a reboot) loses at most the one that
 * was running.
 */
#include "dm-study.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dm-concurrent.h"
#include "dm-history.h"
#include "dm-platform.h"
#include "dm-text.h"
#include "dm-units.h"

int
dm_study_scenarios (const dm_study_plan *plan, const dm_system_info *sys,
                    const dm_target_info *targets, dm_study_scenario **out, unsigned *n)
{
  unsigned total = plan->n_qd * plan->n_threads * plan->n_targets, k = 0;
  dm_study_scenario *s = calloc (total ? total : 1, sizeof *s);
  if (!s)
    return -ENOMEM;
  for (unsigned q = 0; q < plan->n_qd; q++)
    for (unsigned t = 0; t < plan->n_threads; t++)
      for (unsigned g = 0; g < plan->n_targets; g++)
        {
          const dm_study_target *tg = &plan->targets[g];
          dm_tag user[DM_TAGS_ALL_MAX], tag;
          unsigned n_user = 0;
          /* The plan's tags, then the target's over them, then the
           * study's own two, which no plan may set. */
          for (unsigned i = 0; i < plan->n_tags; i++)
            dm_tags_set (user, &n_user, DM_TAGS_MAX, &plan->tags[i]);
          for (unsigned i = 0; i < tg->n_tags; i++)
            if (dm_tags_set (user, &n_user, DM_TAGS_MAX, &tg->tags[i]) < 0)
              {
                free (s);
                return -E2BIG;
              }
          dm_tag_make (&tag, DM_STUDY_TAG_NAME, plan->name, NULL, 0);
          if (dm_tags_set (user, &n_user, DM_TAGS_MAX, &tag) < 0)
            {
              free (s);
              return -E2BIG;
            }
          dm_tag_make (&tag, DM_STUDY_TAG_TARGET, tg->label, NULL, 0);
          if (dm_tags_set (user, &n_user, DM_TAGS_MAX, &tag) < 0)
            {
              free (s);
              return -E2BIG;
            }
          /* A run with the others at once is another scenario than one
           * alone: it is not what resume or the sheet may take for it. */
          dm_tag_make (&tag, DM_STUDY_TAG_CONCURRENT, "yes", NULL, 0);
          if (plan->concurrent && dm_tags_set (user, &n_user, DM_TAGS_MAX, &tag) < 0)
            {
              free (s);
              return -E2BIG;
            }
          dm_study_scenario *sc = &s[k++];
          sc->target = g;
          sc->qd = plan->qd[q];
          sc->threads = plan->threads[t];
          sc->n_tags = dm_tags_effective (user, n_user, sys, targets ? &targets[g] : NULL,
                                          sc->tags);
        }
  *out = s;
  *n = k;
  return 0;
}

/* Whether every tag of a is in b with its value. The run's own probe may
 * have seen a fact the scenario's did not (the runner looks at the test
 * file's folder once it exists); a tag the scenario has and the run has
 * not, or another value (vcpus=16 after vcpus=48), makes another row. */
static bool
tags_within (const dm_tag *a, unsigned na, const dm_tag *b, unsigned nb)
{
  for (unsigned i = 0; i < na; i++)
    {
      const char *v = dm_tags_get (b, nb, a[i].key);
      if (!v || strcmp (v, a[i].value))
        return false;
    }
  return true;
}

static unsigned step_size (const dm_study_plan *plan, const dm_study_scenario *s, unsigned n,
                           unsigned first);

bool
dm_study_report_is (const dm_study_plan *plan, const dm_study_scenario *s, const dm_report *r)
{
  dm_tag tags[DM_TAGS_ALL_MAX];
  unsigned n = dm_report_tags (r, tags);
  const char *name = dm_tags_get (tags, n, DM_STUDY_TAG_NAME);
  const char *label = dm_tags_get (tags, n, DM_STUDY_TAG_TARGET);
  if (r->status != DM_STATUS_COMPLETE || !r->n_results || !name || strcmp (name, plan->name)
      || !label || strcmp (label, plan->targets[s->target].label))
    return false;
  /* A run made with the other targets at once is not one made alone (a
   * concurrent plan's scenarios have the tag, which the check below asks). */
  if (!plan->concurrent && dm_tags_get (tags, n, DM_STUDY_TAG_CONCURRENT))
    return false;
  for (unsigned i = 0; i < r->n_results; i++)
    if (r->results[i].spec.queue_depth != s->qd || r->results[i].spec.threads != s->threads)
      return false;
  return tags_within (s->tags, s->n_tags, tags, n);
}

unsigned
dm_study_mark_done (const dm_study_plan *plan, dm_study_scenario *s, unsigned n,
                    const dm_report *const *reports, const char *const *paths,
                    unsigned n_reports)
{
  unsigned done = 0;
  for (unsigned i = 0; i < n; i++)
    {
      for (unsigned k = 0; !s[i].done && k < n_reports; k++)
        if (dm_study_report_is (plan, &s[i], reports[k]))
          {
            s[i].done = true;
            snprintf (s[i].path, sizeof s[i].path, "%s", paths && paths[k] ? paths[k] : "");
          }
      done += s[i].done;
    }
  /* A concurrent step with a target missing is not done at all: it runs
   * again whole, its targets at one moment. */
  for (unsigned i = 0, k; plan->concurrent && i < n; i += k)
    {
      k = step_size (plan, s, n, i);
      unsigned in = 0;
      for (unsigned j = 0; j < k; j++)
        in += s[i + j].done;
      for (unsigned j = 0; in < k && j < k; j++)
        if (s[i + j].done)
          {
            s[i + j].done = false;
            s[i + j].path[0] = '\0';
            done--;
          }
    }
  return done;
}

/* --- Reading a study's saved runs ------------------------------------------ */

/* Whether len bytes of text hold needle (memmem is not everywhere). */
static bool
holds (const char *text, size_t len, const char *needle)
{
  size_t k = strlen (needle);
  for (size_t i = 0; k && i + k <= len; i++)
    if (text[i] == needle[0] && !memcmp (text + i, needle, k))
      return true;
  return false;
}

typedef struct study_files {
  const char  *dir;
  const char  *name;
  dm_report  **reports;
  char       **paths;
  unsigned     n, cap;
  int          err;
} study_files;

static void
add_file (const char *file, void *user)
{
  study_files *f = user;
  size_t len = strlen (file), n;
  char path[1200], *text = NULL, needle[DM_STUDY_NAME_MAX + 40];
  if (f->err < 0 || len < 6 || strcmp (file + len - 5, ".json"))
    return;
  snprintf (path, sizeof path, "%s%c%s", f->dir, dm_dir_separator (), file);
  if (dm_file_read_all (path, DM_REPORT_FILE_MAX, &text, &n) < 0)
    return;
  /* Most runs in a history are not this study's: a look for its tag
   * before the whole report is parsed. The JSON writer escapes only what
   * a name of ours cannot hold but '"' and '\\', which the full check
   * after the parse covers. */
  snprintf (needle, sizeof needle, "\"%s\"", DM_STUDY_TAG_NAME);
  bool maybe = holds (text, n, needle);
  dm_report *r = maybe ? calloc (1, sizeof *r) : NULL;
  char why[200];
  if (r && dm_report_load_json (r, text, n, why, sizeof why) == 0)
    {
      dm_tag tags[DM_TAGS_ALL_MAX];
      unsigned nt = dm_report_tags (r, tags);
      const char *v = dm_tags_get (tags, nt, DM_STUDY_TAG_NAME);
      if (v && (!f->name || !strcmp (v, f->name)))
        {
          if (f->n == f->cap)
            {
              unsigned cap = f->cap ? 2 * f->cap : 64;
              dm_report **rs = realloc (f->reports, cap * sizeof *rs);
              if (rs)
                f->reports = rs;
              char **ps = rs ? realloc (f->paths, cap * sizeof *ps) : NULL;
              if (ps)
                f->paths = ps;
              if (!rs || !ps)
                f->err = -ENOMEM;
              else
                f->cap = cap;
            }
          if (f->err == 0 && (f->paths[f->n] = malloc (strlen (path) + 1)))
            {
              strcpy (f->paths[f->n], path);
              f->reports[f->n++] = r;
              r = NULL;
            }
        }
    }
  if (r)
    {
      dm_report_clear (r);
      free (r);
    }
  free (text);
}

int
dm_study_files_load (const char *dir, const char *name, dm_report ***reports, char ***paths,
                     unsigned *n)
{
  char hist[1100];
  int err = 0;
  if (!dir)
    {
      if ((err = dm_history_dir (hist, sizeof hist)) < 0)
        return err;
      dir = hist;
    }
  study_files f = { dir, name, NULL, NULL, 0, 0, 0 };
  err = dm_list_files (dir, add_file, &f);
  if (err == 0)
    err = f.err;
  if (err < 0)
    {
      dm_study_files_free (f.reports, f.paths, f.n);
      return err;
    }
  *reports = f.reports;
  *paths = f.paths;
  *n = f.n;
  return 0;
}

void
dm_study_files_free (dm_report **reports, char **paths, unsigned n)
{
  for (unsigned i = 0; i < n; i++)
    {
      dm_report_clear (reports[i]);
      free (reports[i]);
      free (paths[i]);
    }
  free (reports);
  free (paths);
}

static int
mark_done_in (const char *dir, const dm_study_plan *plan, dm_study_scenario *s, unsigned n)
{
  dm_report **reports = NULL;
  char **paths = NULL;
  unsigned nr = 0;
  int err = dm_study_files_load (dir, plan->name, &reports, &paths, &nr);
  if (err < 0)
    return err;
  unsigned done = dm_study_mark_done (plan, s, n, (const dm_report *const *) reports,
                                      (const char *const *) paths, nr);
  dm_study_files_free (reports, paths, nr);
  return (int) done;
}

int
dm_study_mark_done_in_history (const dm_study_plan *plan, dm_study_scenario *s, unsigned n)
{
  return mark_done_in (NULL, plan, s, n);
}

int
dm_study_report_init (const dm_study_plan *plan, const dm_study_scenario *s, dm_report *r,
                      char *why, size_t why_size)
{
  dm_spec specs[DM_STUDY_TESTS_MAX];
  char comment[DM_STUDY_NAME_MAX + DM_STUDY_LABEL_MAX + 40];
  for (unsigned i = 0; i < plan->n_tests; i++)
    {
      specs[i] = plan->tests[i];
      specs[i].queue_depth = (uint16_t) s->qd;
      specs[i].threads = (uint16_t) s->threads;
    }
  int err = dm_report_init (r, &plan->settings, specs, plan->n_tests, plan->modes);
  if (err < 0)
    return dm_why (why, why_size, err == -ENOMEM ? "out of memory" : "no test to run"), err;
  /* The scenario's whole tag set, facts among them, as the user's: that
   * is the set its file keeps and a later run compares with. */
  memcpy (r->tags, s->tags, s->n_tags * sizeof *s->tags);
  r->n_tags = s->n_tags;
  r->n_thresholds = dm_study_rules_at (plan->rules, plan->n_rules, plan->tests, plan->n_tests,
                                       s->qd, s->threads, r->thresholds, DM_THRESHOLDS_MAX);
  snprintf (comment, sizeof comment, "%s: %s Q%u T%u", plan->name,
            plan->targets[s->target].label, s->qd, s->threads);
  dm_report_set_comment (r, comment);
  return 0;
}

double
dm_study_scenario_seconds (const dm_study_plan *plan)
{
  unsigned modes = 0;
  for (int m = 0; m < DM_N_MODES; m++)
    modes += (plan->modes & DM_MODE_BIT (m)) != 0;
  unsigned n = plan->n_tests * modes;
  const dm_settings *st = &plan->settings;
  double warm = st->warmup_steady ? DM_STEADY_WINDOW_S : st->warmup_s;
  double step = n * (warm + st->count * st->measure_s) + (n ? n - 1 : 0) * st->interval_s;
  /* A concurrent step's targets share its time. */
  return plan->concurrent && plan->n_targets > 1 ? step / plan->n_targets : step;
}

/* --- Running --------------------------------------------------------------- */

struct dm_study_run {
  const dm_study_plan     *plan;
  dm_study_scenario       *s;
  unsigned                 n;
  bool                     redo;
  dm_study_progress_fn     fn;
  void                    *user;
  const struct dm_backend *backend;
  char                     folder[1024];
  dm_runner *volatile      current;
  volatile sig_atomic_t    cancelled;
  char                     error[400];
  /* For the estimate: this run's scenarios so far and their time. */
  unsigned                 ran;
  double                   ran_s;
  unsigned                 index, done, left;
  dm_report               *report;
  /* The runner of the scenario before, freed only once the next one has
   * ended (or with the run): a cancel from another thread that read
   * current just before the scenario ended may still be using it. */
  dm_runner               *spent[DM_STUDY_TARGETS_MAX];
  unsigned                 n_spent;
};

dm_study_run *
dm_study_run_new (const dm_study_plan *plan, dm_study_scenario *scenarios, unsigned n,
                  bool redo)
{
  dm_study_run *run = calloc (1, sizeof *run);
  if (!run)
    return NULL;
  run->plan = plan;
  run->s = scenarios;
  run->n = n;
  run->redo = redo;
  return run;
}

void
dm_study_run_set_progress (dm_study_run *run, dm_study_progress_fn fn, void *user)
{
  run->fn = fn;
  run->user = user;
}

void
dm_study_run_set_backend (dm_study_run *run, const struct dm_backend *backend)
{
  run->backend = backend;
}

void
dm_study_run_set_folder (dm_study_run *run, const char *folder)
{
  snprintf (run->folder, sizeof run->folder, "%s", folder ? folder : "");
}

const char *
dm_study_run_error (const dm_study_run *run)
{
  return run->error;
}

void
dm_study_run_cancel (dm_study_run *run)
{
  run->cancelled = 1;
  dm_runner *r = run->current;
  if (r)
    dm_runner_cancel (r);
}

void
dm_study_run_free (dm_study_run *run)
{
  if (!run)
    return;
  for (unsigned k = 0; k < run->n_spent; k++)
    dm_runner_free (run->spent[k]);
  free (run);
}

/* The time the rest will take: this scenario's own estimate, then the
 * others at the mean this run has taken per scenario so far (the plan's
 * figure before the first one ends: it leaves out the test file's
 * preparing, which only a finished scenario shows). */
static double
seconds_left (const dm_study_run *run, double current_left, unsigned after)
{
  double each = run->ran ? run->ran_s / run->ran : dm_study_scenario_seconds (run->plan);
  /* A concurrent plan's scenarios go a step of all its targets at a time:
   * run->ran counts steps there. */
  if (run->plan->concurrent && run->plan->n_targets > 1)
    {
      if (!run->ran)
        each *= run->plan->n_targets;
      after /= run->plan->n_targets; /* left counts the running step whole */
    }
  return current_left + each * after;
}

static void
tell (dm_study_run *run, const dm_progress *step, bool finished, dm_status status,
      const char *saved)
{
  if (!run->fn)
    return;
  dm_study_progress p;
  memset (&p, 0, sizeof p);
  p.scenario = run->index;
  p.done = run->done;
  p.total = run->n;
  p.left = run->left;
  unsigned after = run->left ? run->left - (finished ? 0 : 1) : 0;
  p.seconds_left = seconds_left (run, step ? step->seconds_left : 0, after);
  p.step = step;
  p.finished = finished;
  p.status = status;
  p.saved_path = saved;
  p.report = run->report;
  run->fn (run->user, &p);
}

static void
on_step (void *user, const dm_progress *p)
{
  tell (user, p, false, DM_STATUS_RUNNING, NULL);
}

static int
save (dm_study_run *run, const dm_report *r, char *path, size_t size)
{
  if (!run->folder[0])
    return dm_history_save (r, path, size);
  dm_buf json;
  dm_buf_init (&json);
  dm_report_write_json (r, &json);
  int err = json.error;
  for (unsigned k = 1; !err && k < 100000; k++)
    {
      snprintf (path, size, "%s%cstudy-%05u.json", run->folder, dm_dir_separator (), k);
      err = dm_file_write_new (path, json.data, json.len);
      if (err != -EEXIST)
        break;
      err = 0;
    }
  dm_buf_free (&json);
  return err;
}

/* The end of a step of n: the step is scenarios first.. (in a concurrent
 * plan all the Q x T's targets, else one), each with its report. Saves
 * each completed one and tells of it. */
static void
step_end (dm_study_run *run, unsigned first, unsigned n, dm_report *r, int err, int *first_err)
{
  for (unsigned k = 0; k < n; k++)
    {
      dm_study_scenario *s = &run->s[first + k];
      char path[1100];
      const char *saved = NULL;
      run->index = first + k;
      run->report = &r[k];
      run->left--;
      if (err == 0 && r[k].status == DM_STATUS_COMPLETE)
        {
          int e = save (run, &r[k], path, sizeof path);
          if (e < 0)
            {
              snprintf (run->error, sizeof run->error, "cannot save the run of %s Q%u T%u: %s",
                        run->plan->targets[s->target].label, s->qd, s->threads,
                        dm_strerror (e));
              if (!*first_err)
                *first_err = e;
            }
          else
            {
              s->done = true;
              snprintf (s->path, sizeof s->path, "%s", path);
              saved = path;
              run->done++;
            }
        }
      else if (err == -ECANCELED || run->cancelled)
        *first_err = -ECANCELED;
      /* Of a step's targets, the one that failed has the reason; the
       * others were stopped with it. */
      else if (!*first_err && (n == 1 || r[k].status == DM_STATUS_FAILED))
        {
          *first_err = err ? err : -EIO;
          snprintf (run->error, sizeof run->error, "%s Q%u T%u: %s",
                    run->plan->targets[s->target].label, s->qd, s->threads,
                    r[k].error[0] ? r[k].error : "failed");
        }
      tell (run, NULL, true, r[k].status, saved);
      run->report = NULL;
    }
  if (err && err != -ECANCELED && !*first_err)
    {
      *first_err = err;
      snprintf (run->error, sizeof run->error, "Q%u T%u: %s", run->s[first].qd,
                run->s[first].threads, dm_strerror (err));
    }
}

/* How many scenarios from first make one step: in a concurrent plan, the
 * ones at first's Q x T that follow it (dm_study_scenarios puts a Q x T's
 * targets together), else one. */
static unsigned
step_size (const dm_study_plan *plan, const dm_study_scenario *s, unsigned n, unsigned first)
{
  unsigned k = 1;
  while (plan->concurrent && first + k < n && k < DM_CONCURRENT_MAX
         && s[first + k].qd == s[first].qd && s[first + k].threads == s[first].threads)
    k++;
  return k;
}

static bool
step_todo (const dm_study_run *run, unsigned first, unsigned n)
{
  for (unsigned k = 0; k < n; k++)
    if (run->redo || !run->s[first + k].done)
      return true;
  return false;
}

int
dm_study_run_go (dm_study_run *run)
{
  int first = 0;
  run->done = run->left = 0;
  for (unsigned i = 0, n; i < run->n; i += n)
    {
      n = step_size (run->plan, run->s, run->n, i);
      bool todo = step_todo (run, i, n);
      for (unsigned k = 0; k < n; k++)
        {
          run->left += todo;
          run->done += !todo; /* a step that runs again runs whole */
        }
    }
  dm_report *r = calloc (DM_STUDY_TARGETS_MAX, sizeof *r);
  if (!r)
    {
      snprintf (run->error, sizeof run->error, "out of memory");
      return -ENOMEM;
    }
  for (unsigned i = 0, n; i < run->n && !run->cancelled; i += n)
    {
      n = step_size (run->plan, run->s, run->n, i);
      if (!step_todo (run, i, n))
        continue;
      char why[320];
      dm_runner *runners[DM_STUDY_TARGETS_MAX] = { NULL };
      int err = 0;
      unsigned made = 0;
      for (; !err && made < n; made++)
        {
          const dm_study_scenario *s = &run->s[i + made];
          err = dm_study_report_init (run->plan, s, &r[made], why, sizeof why);
          if (err)
            break;
          runners[made] = dm_runner_new (&r[made], run->plan->targets[s->target].path);
          if (!runners[made])
            {
              err = -ENOMEM, snprintf (why, sizeof why, "out of memory");
              dm_report_clear (&r[made]);
              break;
            }
          /* One progress, the first target's: the others run on their
           * own threads, at the same pace. */
          dm_runner_set_progress (runners[made], made ? NULL : on_step, made ? NULL : run);
          if (run->backend)
            dm_runner_set_backend (runners[made], run->backend);
        }
      if (err)
        {
          snprintf (run->error, sizeof run->error, "%s", why);
          for (unsigned k = 0; k < made; k++)
            {
              dm_runner_free (runners[k]);
              dm_report_clear (&r[k]);
            }
          first = err;
          break;
        }
      run->index = i;
      run->report = &r[0];
      double t0 = (double) dm_clock_ns () / 1e9;
      tell (run, NULL, false, DM_STATUS_RUNNING, NULL);
      /* A cancel of the first runner stops them all (dm_concurrent_run
       * watches every one). */
      run->current = runners[0];
      if (run->cancelled)
        dm_runner_cancel (runners[0]);
      err = run->plan->concurrent ? dm_concurrent_run (runners, n) : dm_runner_run (runners[0]);
      run->current = NULL;
      for (unsigned k = 0; k < run->n_spent; k++)
        dm_runner_free (run->spent[k]);
      memcpy (run->spent, runners, n * sizeof *runners);
      run->n_spent = n;
      run->ran += run->plan->concurrent ? 1 : n; /* steps, which take the time */
      run->ran_s += (double) dm_clock_ns () / 1e9 - t0;
      step_end (run, i, n, r, err, &first);
      for (unsigned k = 0; k < n; k++)
        dm_report_clear (&r[k]);
    }
  free (r);
  if (run->cancelled)
    first = -ECANCELED;
  return first;
}
