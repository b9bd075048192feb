/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * diskmeter-cli's command line, parsed into a plain struct without side
 * effects, so the parser can be unit tested and fuzzed on its own.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>

#include "dm-settings.h"
#include "dm-spec.h"
#include "dm-threshold.h"

#define DM_CLI_MAX_TESTS 32

typedef enum { DM_FORMAT_TEXT, DM_FORMAT_JSON, DM_FORMAT_CSV } dm_format;

typedef struct dm_cli_options {
  dm_settings settings;
  char        profile[32];    /* "default" unless --profile */
  bool        nvme;
  bool        mix;            /* add the Mix column */
  unsigned    modes;          /* --modes, 0 = the profile's (plus mix) */
  dm_spec     tests[DM_CLI_MAX_TESTS];
  unsigned    n_tests;        /* --tests, 0 = the profile's */
  dm_format   format;
  const char *output;         /* NULL = stdout */
  const char *comment;
  const char *target;
  const char *compare_with;   /* second target, measured interleaved */
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
} dm_cli_options;

/* 0 on success; -EINVAL with a one-line reason in why for bad usage. */
int dm_cli_parse (int argc, char **argv, dm_cli_options *o, char *why, size_t why_size);

/* The specs and modes to run, from --tests/--modes or the profile. */
const dm_spec *dm_cli_specs (const dm_cli_options *o, unsigned *n, unsigned *modes);

extern const char dm_cli_usage[];
