/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Studies: which controller, queue and vCPU layout serves a VM best is a
 * grid of scenarios, not one run. A study plan (a text file in the profile
 * files' INI-like format) names targets with labels ("LSI C:", "pvscsi
 * E:"), the tests, the Q and T values to cross them with, the settings and
 * the green/red rules. Each scenario (one target at one Q x T under the
 * machine's tags) is one run of the plan's tests, saved to the history as
 * it finishes with the tag study=NAME; so running the plan again goes on
 * where it stopped, and on a machine whose tags differ (another vCPU
 * layout after a reboot, another --tag) adds that tag set's scenarios as
 * new rows. The sheet is one row per finished scenario: its tags, Q, T,
 * the tests' figures, the device's mean latency and the CPU use, each cell
 * coloured by the rules.
 *
 * A plan:
 *
 *   [study]
 *   name = controllers        # the history's study=NAME tag
 *   tests = SEQ1M, RND4K      # patterns and blocks (or profile = default)
 *   modes = read, write       # read, write, mix (default read, write)
 *   q = 1, 32                 # queue depths per thread
 *   t = 1, 48                 # threads
 *   count = 1                 # measured runs per test, as --count
 *   size = 1GiB               # --size; duration, warmup, interval: seconds
 *   tag = vcpus=48 (HT)       # a tag of every scenario (repeatable)
 *   threshold = read RND4K IOPS green>90000 red<90000    # repeatable
 *   thresholds = limits.txt   # a file of threshold lines, beside the plan
 *   concurrent = no           # yes: each Q x T runs all targets at once
 *
 *   [target LSI C:]           # one section per target, in this order
 *   path = C:\
 *   tag = controller=lsi      # this target's tags (repeatable)
 *
 * A threshold's test may name a pattern and block alone (RND4K): it then
 * holds at every Q and T. Scenarios run with Q x T outer and the targets
 * inner, so that drift over the hours hits every target alike.
 *
 * With concurrent = yes each Q x T is one step: all the targets run it at
 * the same instant (dm_concurrent_run, one runner per target), as when
 * they share a path (an HBA, a datastore) whose total is the question.
 * Each target's run is still its scenario's, saved with the tag
 * study.concurrent=yes besides the others. A step counts as done only
 * when all its targets are: if some are missing, the whole step runs
 * again, since figures of another moment are not its figures, and the
 * sheet keeps the newer run of each scenario.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "dm-buf.h"
#include "dm-report.h"
#include "dm-runner.h"
#include "dm-settings.h"
#include "dm-spec.h"
#include "dm-tags.h"
#include "dm-threshold.h"

#define DM_STUDY_NAME_MAX     64  /* bytes of UTF-8 */
#define DM_STUDY_LABEL_MAX    64
#define DM_STUDY_TARGETS_MAX  16
#define DM_STUDY_TESTS_MAX    8
#define DM_STUDY_AXIS_MAX     16  /* values of q and of t */
#define DM_STUDY_COLUMNS_MAX  (DM_STUDY_TESTS_MAX * DM_N_MODES * 3 + 6)
#define DM_STUDY_FILE_MAX     (1u << 20)

/* The tags each scenario's saved run carries besides the plan's own: the
 * study's name and the target's label. */
#define DM_STUDY_TAG_NAME   "study"
#define DM_STUDY_TAG_TARGET "study.target"
/* ... and, in a plan with concurrent = yes, this one with value yes. */
#define DM_STUDY_TAG_CONCURRENT "study.concurrent"

/* A green/red rule of a study: a dm_threshold whose test, if it names one,
 * may be a pattern and block only (RND4K), meaning every Q and T. */
typedef struct dm_study_rule {
  dm_threshold t;          /* t.has_spec false when the rule names no test */
  bool         has_test;   /* names a pattern and block */
  bool         any_qt;     /* ... without _QnTn: every Q and T */
  dm_pattern   pattern;
  uint32_t     block_size;
} dm_study_rule;

/* "read RND4K IOPS green>90000 red<90000" (or a full test name, or none):
 * 0, or -EINVAL with a one-line reason. */
int dm_study_rule_parse (const char *text, dm_study_rule *out, char *why, size_t why_size);
/* The rules as plain dm_threshold for one Q x T (a pattern-and-block rule
 * becomes that test at Q x T), as the scenario's saved run keeps them.
 * Fills up to max; returns how many. */
unsigned dm_study_rules_at (const dm_study_rule *rules, unsigned n, const dm_spec *tests,
                            unsigned n_tests, unsigned qd, unsigned threads, dm_threshold *out,
                            unsigned max);
/* A file of rules, one a line, # and ; start comments: 0, or -EINVAL with
 * "FILE: line N: reason". */
int dm_study_rules_load (const char *path, dm_study_rule *out, unsigned max, unsigned *n,
                         char *why, size_t why_size);

typedef struct dm_study_target {
  char     label[DM_STUDY_LABEL_MAX + 1];  /* "LSI C:" */
  char     path[1024];                     /* folder or device, UTF-8 */
  dm_tag   tags[DM_TAGS_MAX];              /* this target's own tags */
  unsigned n_tags;
} dm_study_target;

typedef struct dm_study_plan {
  char            name[DM_STUDY_NAME_MAX + 1];
  dm_settings     settings;        /* count, size, duration, warmup, interval... */
  dm_spec         tests[DM_STUDY_TESTS_MAX]; /* pattern and block; Q, T unused */
  unsigned        n_tests;
  unsigned        modes;           /* DM_MODE_BIT mask */
  unsigned        qd[DM_STUDY_AXIS_MAX], n_qd;
  unsigned        threads[DM_STUDY_AXIS_MAX], n_threads;
  dm_study_target targets[DM_STUDY_TARGETS_MAX];
  unsigned        n_targets;
  dm_tag          tags[DM_TAGS_MAX]; /* every scenario's (tag = lines in [study]) */
  unsigned        n_tags;
  dm_study_rule   rules[DM_THRESHOLDS_MAX];
  unsigned        n_rules;
  bool            concurrent;      /* each Q x T's targets at one instant */
} dm_study_plan;

/* Parses a plan. dir is the plan's folder, for a relative thresholds =
 * file (NULL: the current folder). 0, or -EINVAL with "line N: reason". */
int dm_study_plan_parse (const char *text, size_t len, const char *dir, dm_study_plan *out,
                         char *why, size_t why_size);
/* Reads and parses a plan file; the reason names the file. */
int dm_study_plan_load (const char *path, dm_study_plan *out, char *why, size_t why_size);
/* Adds tags given on the command line (--tag) to every scenario; a key the
 * plan has gets the new value. 0 or -E2BIG. */
int dm_study_plan_add_tags (dm_study_plan *plan, const dm_tag *tags, unsigned n);

/* --- Scenarios -------------------------------------------------------- */

typedef struct dm_study_scenario {
  unsigned target;           /* into plan->targets */
  unsigned qd, threads;
  /* The tags its run is saved with, as dm_report_tags gives them: the
   * machine's and target's facts, replaced by the plan's, the target's
   * and the command line's tags, and the study's two. A saved run is this
   * scenario when it has every one of these tags with its value (a fact
   * its runner saw beyond them does not count), and the same Q and T. */
  dm_tag   tags[DM_TAGS_ALL_MAX];
  unsigned n_tags;
  bool     done;             /* a completed run of it is in the history */
  char     path[1100];       /* that run's file, when done */
} dm_study_scenario;

/* Every scenario of the plan on this machine, in the order they run (Q x
 * T outer, targets inner), none done yet. sys is this machine's facts and
 * targets[i] the probe of plan->targets[i] (dm_target_probe; a target that
 * cannot be probed may be left zeroed: it gets the machine's facts only).
 * *out is malloc'ed, free() it. 0, -ENOMEM, or -E2BIG when the plan's and
 * a target's tags are more than a run keeps. */
int dm_study_scenarios (const dm_study_plan *plan, const dm_system_info *sys,
                        const dm_target_info *targets, dm_study_scenario **out, unsigned *n);

/* Whether a loaded run is scenario s of the plan: complete, with the
 * scenario's every tag (study, target label, facts, the user's) and Q x T. */
bool dm_study_report_is (const dm_study_plan *plan, const dm_study_scenario *s,
                         const dm_report *r);
/* Marks done the scenarios of which a completed run is among reports
 * (paths[i] is reports[i]'s file, or NULL). In a concurrent plan, a Q x
 * T step of which some target is not done has none of its scenarios
 * marked done: the whole step runs again. Returns how many are done. */
unsigned dm_study_mark_done (const dm_study_plan *plan, dm_study_scenario *s, unsigned n,
                             const dm_report *const *reports, const char *const *paths,
                             unsigned n_reports);
/* The same against the history folder: loads the saved runs tagged with
 * the study's name. Returns how many are done, or a negative errno. */
int dm_study_mark_done_in_history (const dm_study_plan *plan, dm_study_scenario *s, unsigned n);

/* The runs tagged study=name (any study when name is NULL) in a folder,
 * the history when dir is NULL; files that are not reports are passed
 * over. *reports and *paths hold *n each; free with dm_study_files_free.
 * 0 or a negative errno. */
int  dm_study_files_load (const char *dir, const char *name, dm_report ***reports,
                          char ***paths, unsigned *n);
void dm_study_files_free (dm_report **reports, char **paths, unsigned n);

/* Sets up r (empty, as dm_report_init does) for scenario s: the plan's
 * tests at s's Q x T in the plan's modes, its settings, the scenario's
 * tags as the user's, the rules at that Q x T, and the comment "NAME:
 * LABEL Q1 T32". 0 or -EINVAL/-ENOMEM with a reason. */
int dm_study_report_init (const dm_study_plan *plan, const dm_study_scenario *s, dm_report *r,
                          char *why, size_t why_size);
/* Seconds a scenario is planned to take (tests x (warm-up + count x
 * duration + interval)), without preparing the test file; in a concurrent
 * plan, its share of its step's (that over the targets), so that N
 * scenarios still take N times it. */
double dm_study_scenario_seconds (const dm_study_plan *plan);

/* --- Running ------------------------------------------------------------- */

typedef struct dm_study_progress {
  unsigned           scenario;     /* index into the list being run */
  unsigned           done, total;  /* scenarios done (before and now) of the list */
  unsigned           left;         /* scenarios still to run, this one included */
  double             seconds_left; /* estimate for the rest of the study */
  const dm_progress *step;         /* the runner's, within the scenario; NULL between */
  /* A scenario just ended: status and, when saved, the history file. */
  bool               finished;
  dm_status          status;
  const char        *saved_path;
  const dm_report   *report;       /* the scenario's run, while it runs or just ended */
} dm_study_progress;

/* Called on the running thread; copy what you need. */
typedef void (*dm_study_progress_fn) (void *user, const dm_study_progress *p);

typedef struct dm_study_run dm_study_run;

/* A run of the scenarios not done (and the done ones too if redo), which
 * it marks done as it saves them. plan and scenarios must outlive it. */
dm_study_run *dm_study_run_new (const dm_study_plan *plan, dm_study_scenario *scenarios,
                                unsigned n, bool redo);
void dm_study_run_set_progress (dm_study_run *run, dm_study_progress_fn fn, void *user);
/* Tests: every scenario's runner uses this backend. */
struct dm_backend;
void dm_study_run_set_backend (dm_study_run *run, const struct dm_backend *backend);
/* Tests: where finished runs go instead of the history (a folder). */
void dm_study_run_set_folder (dm_study_run *run, const char *folder);
/* Blocks: runs each scenario on its target, saving each completed one
 * (in a concurrent plan, each step's scenarios at once, by
 * dm_concurrent_run, a step with any scenario to do all of them).
 * A failed scenario is told through progress and the study goes on; the
 * return is 0 when all completed, -ECANCELED when cancelled (the finished
 * ones stay saved, the one running is not), else the first error. Its
 * reason: dm_study_run_error. */
int  dm_study_run_go (dm_study_run *run);
const char *dm_study_run_error (const dm_study_run *run);
/* From any thread or a signal handler: stop within 250 ms. */
void dm_study_run_cancel (dm_study_run *run);
void dm_study_run_free (dm_study_run *run);

/* --- The sheet ----------------------------------------------------------- */

typedef enum {
  DM_STUDY_COL_FIGURE,       /* a test's figure: spec, mode, unit */
  DM_STUDY_COL_DEVICE_US,    /* the device's mean latency (its own counters), us */
  DM_STUDY_COL_CPU,          /* CPU use of the run, percent of all logical CPUs */
  DM_STUDY_COL_AWAIT,        /* the device's r_await (mode Read) or w_await (Write), us */
  DM_STUDY_COL_GUEST,        /* Diskmeter's mean less that await: above the device, us */
} dm_study_col_kind;

typedef struct dm_study_column {
  dm_study_col_kind kind;
  dm_spec           test;    /* pattern and block (FIGURE) */
  dm_mode           mode;
  dm_unit           unit;    /* MB/s, IOPS or us */
  char              title[48]; /* "Read SEQ1M MB/s", "Device us", "CPU %" */
} dm_study_column;

typedef struct dm_study_row {
  unsigned  nr;              /* 1-based, in the order the runs were made */
  char      target[DM_STUDY_LABEL_MAX + 1];
  unsigned  qd, threads;
  /* The value of each of the sheet's tag keys ("" where this row has none). */
  char      tag_values[DM_TAGS_ALL_MAX][DM_TAG_VALUE_MAX + 1];
  double    values[DM_STUDY_COLUMNS_MAX];  /* < 0: not measured */
  dm_colour colours[DM_STUDY_COLUMNS_MAX];
  /* No cell red, and every cell a rule with a green limit covers green
   * (at least one). */
  bool      all_green;
  double    score;           /* for the ranking: see dm_study_sheet_rank */
  int64_t   started;
  char      path[1100];      /* the run's file */
  /* What the facts say limits the scenario's queue and what to change
   * (the first of its results with advice, dm_advice); "" for none. */
  char      advice[240];
  char      advice_setting[400];
} dm_study_row;

typedef struct dm_study_sheet {
  char            name[DM_STUDY_NAME_MAX + 1];
  /* The tags that tell rows apart: every key any row has, but the study's
   * own two, in the order first met. */
  char            tag_keys[DM_TAGS_ALL_MAX][DM_TAG_KEY_MAX + 1];
  unsigned        n_tag_keys;
  dm_study_column columns[DM_STUDY_COLUMNS_MAX];
  unsigned        n_columns;
  dm_study_row   *rows;
  unsigned        n_rows;
} dm_study_sheet;

/* The sheet of a study's runs (those of reports tagged study=name and
 * complete; of one scenario given twice, the newer). Cells are coloured by
 * rules when n_rules > 0, else by each run's saved thresholds. 0, or
 * -ENOENT ("no study NAME in ...") or -ENOMEM with a reason. */
int dm_study_sheet_build (const char *name, const dm_report *const *reports,
                          const char *const *paths, unsigned n, const dm_study_rule *rules,
                          unsigned n_rules, dm_study_sheet *out, char *why, size_t why_size);
/* The same from the history folder. */
int dm_study_sheet_load (const char *name, const dm_study_rule *rules, unsigned n_rules,
                         dm_study_sheet *out, char *why, size_t why_size);
void dm_study_sheet_free (dm_study_sheet *sheet);

/* The all-green rows, best first, as indexes into sheet->rows: score is
 * the mean over the row's figure columns of its value over the column's
 * best (for us, the best over its value), so 1.0 is best everywhere.
 * order holds n_rows; returns how many. */
unsigned dm_study_sheet_rank (const dm_study_sheet *sheet, unsigned *order);

/* The sheet as text (the tags all rows share once, then each row with
 * the tags that tell it apart and its figures, then the ranking), CSV (a
 * header row, then one per row: nr,target,<tags>,q,t,<columns>, each
 * column's colour, all_green) or JSON (study, tag_keys, columns, rows with
 * tags, values, colours, all_green, score and file; ranking as Nr). */
void dm_study_sheet_write_text (const dm_study_sheet *sheet, dm_buf *out);
void dm_study_sheet_write_csv (const dm_study_sheet *sheet, dm_buf *out);
void dm_study_sheet_write_json (const dm_study_sheet *sheet, dm_buf *out);
