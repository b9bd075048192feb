/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * diskmeter-cli's command line, every command's, parsed into a plain struct
 * without side effects, so the parser can be unit tested and fuzzed on its
 * own. One option table (dm-cli-opt-table.h) holds every option of every
 * command and writes each command's --help.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>

#include "dm-buf.h"
#include "dm-cache-probe.h"
#include "dm-cli-opt-table.h"
#include "dm-firstwrite.h"
#include "dm-settings.h"
#include "dm-spec.h"
#include "dm-study.h"
#include "dm-sustained.h"
#include "dm-sweep.h"
#include "dm-tags.h"
#include "dm-threshold.h"
#include "dm-units.h"
#include "dm-workload.h"

#define DM_CLI_MAX_TESTS 32
#define DM_CLI_MAX_WORKLOADS 64
#define DM_CLI_MAX_PROFILE_FILES 8
/* --concurrent: targets besides TARGET (DM_CONCURRENT_MAX in all). */
#define DM_CLI_MAX_CONCURRENT 15
/* Files of merge: a fleet's hosts. 65,536 names are about what a Linux
 * command line holds (ARG_MAX, 2 MiB by default); the array is static and
 * only the pointers given are touched. */
#define DM_CLI_MAX_ARGS  65536

typedef enum { DM_FORMAT_TEXT, DM_FORMAT_JSON, DM_FORMAT_CSV, DM_FORMAT_XLSX } dm_format;

/* The commands, as bits of an option's dm_opt.commands. */
typedef enum {
  DM_CLI_RUN = 1u << 0,       /* diskmeter-cli [OPTIONS] TARGET */
  DM_CLI_COMPARE = 1u << 1,
  DM_CLI_SHOW = 1u << 2,
  DM_CLI_SWEEP = 1u << 3,
  DM_CLI_SUSTAINED = 1u << 4,
  DM_CLI_HISTORY = 1u << 5,
  DM_CLI_MERGE = 1u << 6,
  DM_CLI_STUDY = 1u << 7,
  DM_CLI_FIRSTWRITE = 1u << 8,
  DM_CLI_CAPTURE = 1u << 9,
  DM_CLI_CACHE_PROBE = 1u << 10,
} dm_cli_command;

#define DM_CLI_ALL_COMMANDS 0x7ffu

typedef struct dm_cli_options {
  dm_cli_command command;
  dm_settings settings;
  char        profile[32];    /* "default" unless --profile */
  bool        nvme;
  bool        mix;            /* add the Mix column */
  unsigned    modes;          /* --modes, 0 = the profile's (plus mix) */
  dm_spec     tests[DM_CLI_MAX_TESTS];
  unsigned    n_tests;        /* --tests, 0 = the profile's */
  /* --workload (repeatable) and --profile-file: workload rows instead of
   * the profile's tests, in the order given. */
  dm_workload workloads[DM_CLI_MAX_WORKLOADS];
  unsigned    n_workloads;
  const char *profile_files[DM_CLI_MAX_PROFILE_FILES];
  unsigned    n_profile_files;
  dm_format   format;
  const char *output;         /* NULL = stdout */
  const char *comment;
  dm_tag      tags[DM_TAGS_MAX]; /* --tag, repeatable; the last of a key wins */
  unsigned    n_tags;
  const char *target;
  const char *compare_with;   /* second target, measured interleaved */
  const char *concurrent[DM_CLI_MAX_CONCURRENT]; /* --concurrent: measured at the same moment */
  unsigned    n_concurrent;
  bool        quiet;
  bool        no_history;     /* do not save the run in the history */
  dm_threshold thresholds[16]; /* --threshold, repeatable */
  unsigned    n_thresholds;
  bool        latency;        /* --latency: percentile table and histogram after the text */
  const char *start_at;       /* --start-at TIME, checked; NULL = start at once */
  double      sample_s;       /* --sample SEC; 0 = DM_SAMPLE_DEFAULT_S */
  bool        samples;        /* --samples: CSV rows per sample */
  bool        help;
  bool        version;
  bool        list_targets;
  bool        all_targets;    /* --all-targets: tmpfs in the list too */
  /* --headroom: the profile file's rows at their rate, unbounded, and the
   * rate curve's points between (dm-headroom.h); the p99 bound given with
   * --headroom-p99, 0 = twice the p99 at the captured rate. */
  bool        headroom;
  double      headroom_p99_us;
  bool        count_given;    /* --count, --warmup: --headroom's shorter */
  bool        warmup_given;   /* defaults do not override them */

  /* Arguments that are not options, in order: TARGET (also in target),
   * the files of compare, merge and show, history's verb and its words. */
  const char *args[DM_CLI_MAX_ARGS];
  unsigned    n_args;

  /* merge */
  bool        allow_duplicates; /* --allow-duplicates: sum a run given twice */
  bool        allow_profiles;   /* --allow-profiles: sum different profiles of workloads */
  /* compare */
  dm_unit     unit;           /* --unit, MB/s unless given */
  int         sort;           /* --sort: run index, -1 = the file order */
  const char *sort_name;
  /* sweep */
  dm_sweep_plan sweep;
  bool        mode_given;     /* --mode or --mix: --mix-read does not override it */
  bool        duration_given; /* --duration, --interval: a profile's own times do not */
  bool        interval_given; /* override them (Flash Memory) */
  bool        pattern_given;  /* --pattern: a block sweep is sequential without it */
  bool        qd_given;       /* --qd, --threads: a block sweep's load, refused by a curve */
  bool        threads_given;
  bool        rates_given;    /* --rates curve */
  /* sustained */
  dm_sustained_plan sustained;
  bool        span_given;     /* --span */
  bool        span_free;      /* --span free, or no --span */
  bool        progress;       /* --progress: a line per sample on stderr */
  /* first-write: its tests from --tests, size and duration from the settings */
  dm_firstwrite_plan firstwrite;
  /* cache-probe */
  dm_cache_probe_plan probe;
  /* history */
  const char *verb;           /* list (default), show, comment, export, delete; study: run, show */
  /* study */
  dm_study_rule study_rules[DM_THRESHOLDS_MAX]; /* --threshold of study show */
  unsigned    n_study_rules;
  const char *thresholds_file; /* --thresholds FILE */
  bool        redo;           /* --redo: run finished scenarios again */
} dm_cli_options;

/* 0 on success; -EINVAL with a one-line reason in why for bad usage. The
 * plain run's command line (argv[0] is the program). */
int dm_cli_parse (int argc, char **argv, dm_cli_options *o, char *why, size_t why_size);

/* Any command's: argv[0] is the command's name ("sweep"), the options and
 * arguments follow. Each command's defaults are filled in first (a sweep's
 * 1 x 3 s run, a sustained test's 60 s), then what was given, then the
 * checks across options. 0 or -EINVAL with a one-line reason. */
int dm_cli_parse_command (dm_cli_command command, int argc, char **argv, dm_cli_options *o,
                          char *why, size_t why_size);

/* The command named name ("sweep"), or 0. */
dm_cli_command dm_cli_command_find (const char *name);
/* "sweep"; "" for the plain run. */
const char *dm_cli_command_name (dm_cli_command command);
/* "diskmeter-cli sweep", "diskmeter-cli". */
const char *dm_cli_command_who (dm_cli_command command);
/* The first usage line after the program: "[OPTIONS] TARGET". */
const char *dm_cli_command_usage (dm_cli_command command);
/* How many arguments after the options the command takes at most. */
unsigned dm_cli_command_max_args (dm_cli_command command);

/* command's --help: Usage lines, what it does, its options from the table
 * (grouped, with ranges and defaults), and the end notes. */
void dm_cli_write_help (dm_cli_command command, dm_buf *out);

/* The option table, for tests that hold it against --help. */
const dm_opt *dm_cli_option_table (size_t *n);

/* The specs and modes to run, from --tests/--modes or the profile. */
const dm_spec *dm_cli_specs (const dm_cli_options *o, unsigned *n, unsigned *modes);
/* Reads the --profile-file files into o->workloads, after any --workload
 * rows. 0, or -EINVAL with one line naming the file, the line and why. */
int dm_cli_load_profile_files (dm_cli_options *o, char *why, size_t why_size);
/* --tests LIST into o->tests (dm-cli-specs.c, as the two above). 0, or
 * -EINVAL with a one-line reason. */
int dm_cli_parse_tests (const char *list, dm_cli_options *o, char *why, size_t why_size);
