/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Option parsing for diskmeter-cli. Every value is checked completely here,
 * so a bad option ends with one line saying which and why, before anything
 * touches a disk.
 */
#include "dm-cli-options.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "dm-backend.h"
#include "dm-merge.h"
#include "dm-profile.h"
#include "dm-report.h"
#include "dm-units.h"

const char dm_cli_usage[] =
  "Usage: diskmeter-cli [OPTIONS] TARGET\n"
  "Measures the folder or block device TARGET the way CrystalDiskMark does.\n"
  "\n"
  "Tests:\n"
  "  --profile NAME       default, peak, realworld or demo (default: default)\n"
  "  --nvme               the profile's NVMe SSD preset\n"
  "  --mix                add the Mix column (reads and writes together)\n"
  "  --mix-read PERCENT   read share of Mix, 10..90 (default 70)\n"
  "  --modes LIST         columns to run: read,write,mix\n"
  "  --tests LIST         tests instead of the profile's, e.g. SEQ1M_Q8T1,RND4K_Q32T16\n"
  "Settings:\n"
  "  --count N            measured runs per test, best one counts, 1..9 (default 5)\n"
  "  --size SIZE          test file size, 16MiB..64GiB (default 1GiB)\n"
  "  --duration SEC       length of one measured run (default 5)\n"
  "  --interval SEC       pause between tests (default 5)\n"
  "  --warmup SEC         unscored run before each test (default 5)\n"
  "  --data random|zeros  test data (default random: incompressible)\n"
  "  --backend NAME       force io_uring or psync (default: best that works)\n"
  "  --buffered           run without O_DIRECT; results are marked cached\n"
  "  --write-through      ask the device not to cache writes (O_DSYNC)\n"
  "  --destroy-data-on DEVICE\n"
  "                       allow write tests on this block device, destroying its data\n"
  "Output:\n"
  "  --format text|json|csv   (default text, CrystalDiskMark's layout)\n"
  "  --output FILE        write the report to FILE (atomically) instead of stdout\n"
  "  --comment TEXT       a comment stored with the results\n"
  "  --quiet              no progress line\n"
  "  --no-history         do not keep this run in the history (diskmeter-cli history)\n"
  "  --threshold RULE     colour figures green or red, e.g. \"read RND4K_Q32T1 IOPS\n"
  "                       green>90000 red<50000\" or \"us red>10000\" (repeatable)\n"
  "  --latency            after the text report, each test's latency percentiles\n"
  "                       and the percent of I/Os per millisecond (0..23, 24+)\n"
  "  --sample SEC         the timeline's step: figures every SEC seconds of each\n"
  "                       test (0.1 to 10, default 0.5; in JSON as \"samples\")\n"
  "  --samples            with --format csv, one row per sample instead of per test\n"
  "  --compare-with TARGET_B\n"
  "                       measure TARGET_B too, test by test in turns with TARGET,\n"
  "                       and print the comparison (--format applies to it)\n"
  "  --list-targets       list the drives that can be measured (filesystems, then\n"
  "                       disks and partitions), then exit; --format json for JSON\n"
  "  --all-targets        with --list-targets, memory filesystems (tmpfs) too\n"
  "  --start-at TIME      prepare, then start the first measured run at TIME\n"
  "                       (2026-11-30T21:00:00Z or +SEC) and every later test on\n"
  "                       a fixed schedule from it, for hosts measured together\n"
  "  --help, --version\n"
  "\n"
  "Other commands (each with --help):\n"
  "  diskmeter-cli compare A.json B.json [C.json...]   saved runs side by side\n"
  "  diskmeter-cli history [list|show|comment|export|delete]   the runs kept\n"
  "  diskmeter-cli merge A.json B.json [C.json...]   a fleet run's hosts added up\n"
  "  diskmeter-cli show FILE       a saved run again, as text, JSON or CSV\n"
  "  diskmeter-cli sweep [OPTIONS] TARGET   every QD x threads, with the knee\n"
  "  diskmeter-cli sustained [OPTIONS] TARGET   speed over time, the write-cache cliff\n"
  "\n"
  "Exit status: 0 done, 1 failed, 2 bad usage, 130 cancelled.\n";

static int
parse_tests (const char *list, dm_cli_options *o, char *why, size_t why_size)
{
  const char *p = list;
  o->n_tests = 0;
  while (p && *p)
    {
      const char *end = strchr (p, ',');
      size_t n = end ? (size_t) (end - p) : strlen (p);
      char word[64], inner[200];
      if (n == 0 || n >= sizeof word)
        return dm_why (why, why_size, "--tests: '%s' is not a list of test names", list);
      if (o->n_tests == DM_CLI_MAX_TESTS)
        return dm_why (why, why_size, "--tests: at most %d tests", DM_CLI_MAX_TESTS);
      memcpy (word, p, n);
      word[n] = '\0';
      /* The spec parser's reason names the test; say which option too. */
      if (dm_spec_parse (word, &o->tests[o->n_tests], inner, sizeof inner) < 0)
        return dm_why (why, why_size, "--tests: %s", inner);
      o->n_tests++;
      p = end ? end + 1 : NULL;
    }
  if (!o->n_tests)
    return dm_why (why, why_size, "--tests needs at least one test name");
  return 0;
}

typedef enum {
  OPT_PROFILE, OPT_NVME, OPT_MIX, OPT_MIX_READ, OPT_MODES, OPT_TESTS, OPT_COUNT, OPT_SIZE,
  OPT_DURATION, OPT_INTERVAL, OPT_WARMUP, OPT_DATA, OPT_BACKEND, OPT_BUFFERED,
  OPT_WRITE_THROUGH, OPT_DESTROY, OPT_FORMAT, OPT_OUTPUT, OPT_COMMENT, OPT_QUIET,
  OPT_LIST_TARGETS, OPT_ALL_TARGETS, OPT_HELP, OPT_VERSION, OPT_COMPARE_WITH, OPT_NO_HISTORY,
  OPT_THRESHOLD,
  OPT_LATENCY,
  OPT_START_AT,
  OPT_SAMPLE,
  OPT_SAMPLES,
} opt_id;

static const struct {
  const char *name;
  opt_id      id;
  bool        value;
} options[] = {
  { "profile", OPT_PROFILE, true },       { "nvme", OPT_NVME, false },
  { "mix", OPT_MIX, false },              { "mix-read", OPT_MIX_READ, true },
  { "modes", OPT_MODES, true },           { "tests", OPT_TESTS, true },
  { "count", OPT_COUNT, true },           { "size", OPT_SIZE, true },
  { "duration", OPT_DURATION, true },     { "interval", OPT_INTERVAL, true },
  { "warmup", OPT_WARMUP, true },         { "data", OPT_DATA, true },
  { "backend", OPT_BACKEND, true },       { "buffered", OPT_BUFFERED, false },
  { "write-through", OPT_WRITE_THROUGH, false },
  { "destroy-data-on", OPT_DESTROY, true },
  { "format", OPT_FORMAT, true },         { "output", OPT_OUTPUT, true },
  { "comment", OPT_COMMENT, true },       { "quiet", OPT_QUIET, false },
  { "list-targets", OPT_LIST_TARGETS, false },
  { "all-targets", OPT_ALL_TARGETS, false },
  { "compare-with", OPT_COMPARE_WITH, true },
  { "no-history", OPT_NO_HISTORY, false },
  { "threshold", OPT_THRESHOLD, true },
  { "help", OPT_HELP, false },            { "version", OPT_VERSION, false },
  { "latency", OPT_LATENCY, false },
  { "start-at", OPT_START_AT, true },
  { "sample", OPT_SAMPLE, true },         { "samples", OPT_SAMPLES, false },
};

static int
apply (dm_cli_options *o, opt_id id, const char *name, const char *v, char *why, size_t ws)
{
  dm_settings *s = &o->settings;
  char inner[200];
  int err = 0;

  switch (id)
    {
    case OPT_PROFILE:
      if (!dm_profile_find (v))
        return dm_why (why, ws, "--profile: '%s' is not default, peak, realworld or demo", v);
      snprintf (o->profile, sizeof o->profile, "%s", dm_profile_find (v)->name);
      break;
    case OPT_NVME: o->nvme = true; break;
    case OPT_MIX: o->mix = true; break;
    case OPT_MIX_READ:
      err = dm_uint_parse (v, 10, 90, &s->mix_read_percent, inner, sizeof inner);
      o->mix = true;
      break;
    case OPT_MODES: err = dm_modes_parse (v, &o->modes, inner, sizeof inner); break;
    case OPT_TESTS: return parse_tests (v, o, why, ws);
    case OPT_COUNT: err = dm_uint_parse (v, DM_COUNT_MIN, DM_COUNT_MAX, &s->count, inner, sizeof inner); break;
    case OPT_SIZE:
      err = dm_size_parse (v, &s->test_size, inner, sizeof inner);
      if (!err && (s->test_size < DM_TEST_SIZE_MIN || s->test_size > DM_TEST_SIZE_MAX))
        return dm_why (why, ws, "--size: '%s' is out of range (16MiB to 64GiB)", v);
      if (!err && s->test_size % DM_BLOCK_MAX_ALIGN)
        return dm_why (why, ws, "--size: '%s' is not a whole number of MiB", v);
      break;
    case OPT_DURATION:
      err = dm_duration_parse (v, &s->measure_s, inner, sizeof inner);
      if (!err && (s->measure_s < 0.1 || s->measure_s > 3600))
        return dm_why (why, ws, "--duration: '%s' is out of range (0.1 to 3600 seconds)", v);
      break;
    case OPT_INTERVAL:
      err = dm_duration_parse (v, &s->interval_s, inner, sizeof inner);
      if (!err && s->interval_s > 3600)
        return dm_why (why, ws, "--interval: '%s' is out of range (0 to 3600 seconds)", v);
      break;
    case OPT_WARMUP:
      err = dm_duration_parse (v, &s->warmup_s, inner, sizeof inner);
      if (!err && s->warmup_s > 3600)
        return dm_why (why, ws, "--warmup: '%s' is out of range (0 to 3600 seconds)", v);
      break;
    case OPT_DATA:
      if (dm_data_parse (v, &s->data) < 0)
        return dm_why (why, ws, "--data: '%s' is not random or zeros", v);
      break;
    case OPT_BACKEND:
      {
        /* Only the backends built for this OS; whether one can run on this
         * machine is the engine's to find out. */
        unsigned n;
        const dm_backend *const *list = dm_backends (&n);
        char names[64] = "";
        bool known = false;
        for (unsigned i = 0; i < n; i++)
          {
            known |= !strcmp (v, list[i]->name);
            snprintf (names + strlen (names), sizeof names - strlen (names), "%s%s",
                      i ? ", " : "", list[i]->name);
          }
        if (!known)
          return dm_why (why, ws, "--backend: '%s' is not a backend here (%s)", v, names);
        snprintf (s->backend, sizeof s->backend, "%s", v);
        break;
      }
    case OPT_BUFFERED: s->buffered = true; break;
    case OPT_WRITE_THROUGH: s->write_through = true; break;
    case OPT_DESTROY:
      if (strlen (v) >= sizeof s->destroy_device || !*v)
        return dm_why (why, ws, "--destroy-data-on: '%s' is not a device path", v);
      snprintf (s->destroy_device, sizeof s->destroy_device, "%s", v);
      break;
    case OPT_FORMAT:
      if (!dm_ascii_casecmp (v, "text"))
        o->format = DM_FORMAT_TEXT;
      else if (!dm_ascii_casecmp (v, "json"))
        o->format = DM_FORMAT_JSON;
      else if (!dm_ascii_casecmp (v, "csv"))
        o->format = DM_FORMAT_CSV;
      else
        return dm_why (why, ws, "--format: '%s' is not text, json or csv", v);
      break;
    case OPT_OUTPUT:
      if (!*v)
        return dm_why (why, ws, "--output needs a file name");
      o->output = v;
      break;
    case OPT_COMMENT: o->comment = v; break;
    case OPT_COMPARE_WITH:
      if (!*v)
        return dm_why (why, ws, "--compare-with needs a second target");
      o->compare_with = v;
      break;
    case OPT_QUIET: o->quiet = true; break;
    case OPT_NO_HISTORY: o->no_history = true; break;
    case OPT_THRESHOLD:
      if (o->n_thresholds == sizeof o->thresholds / sizeof o->thresholds[0])
        return dm_why (why, ws, "--threshold: at most 16 rules");
      err = dm_threshold_parse (v, &o->thresholds[o->n_thresholds], inner, sizeof inner);
      if (!err)
        o->n_thresholds++;
      break;
    case OPT_LIST_TARGETS: o->list_targets = true; break;
    case OPT_ALL_TARGETS: o->all_targets = true; break;
    case OPT_HELP: o->help = true; break;
    case OPT_VERSION: o->version = true; break;
    case OPT_LATENCY: o->latency = true; break;
    case OPT_SAMPLE:
      err = dm_duration_parse (v, &o->sample_s, inner, sizeof inner);
      if (!err && !(o->sample_s >= DM_SAMPLE_MIN_S - 1e-9 && o->sample_s <= DM_SAMPLE_MAX_S + 1e-9))
        return dm_why (why, ws, "--sample: '%s' is out of range (0.1 to 10 seconds)", v);
      break;
    case OPT_SAMPLES: o->samples = true; break;
    case OPT_START_AT:
      {
        /* Checked here; "+SEC" is counted from when the run begins. */
        int64_t t;
        err = dm_start_at_parse (v, 0, &t, inner, sizeof inner);
        o->start_at = v;
      }
      break;
    }
  if (err < 0)
    return dm_why (why, ws, "--%s: %s", name, inner);
  return 0;
}

static int parse (int argc, char **argv, dm_cli_options *o, char *why, size_t why_size);

int
dm_cli_parse (int argc, char **argv, dm_cli_options *o, char *why, size_t why_size)
{
  int err = parse (argc, argv, o, why, why_size);
  /* Reasons quote what the user typed; a value with a newline or other
   * control character in it must not break the one-line message. */
  for (char *p = why; err < 0 && *p; p++)
    if ((unsigned char) *p < 0x20 || *p == 0x7f)
      *p = '?';
  return err;
}

static int
parse (int argc, char **argv, dm_cli_options *o, char *why, size_t why_size)
{
  bool only_args = false;

  memset (o, 0, sizeof *o);
  dm_settings_init (&o->settings);
  snprintf (o->profile, sizeof o->profile, "default");
  why[0] = '\0';

  for (int i = 1; i < argc; i++)
    {
      const char *arg = argv[i];
      if (only_args || arg[0] != '-' || !strcmp (arg, "-"))
        {
          if (o->target)
            return dm_why (why, why_size, "only one TARGET, got '%s' and '%s'", o->target, arg);
          o->target = arg;
          continue;
        }
      if (!strcmp (arg, "--"))
        {
          only_args = true;
          continue;
        }
      if (!strcmp (arg, "-h"))
        arg = "--help";
      if (!strcmp (arg, "-q"))
        arg = "--quiet";
      if (strncmp (arg, "--", 2) != 0)
        return dm_why (why, why_size, "unknown option '%s'", arg);

      const char *name = arg + 2, *eq = strchr (name, '=');
      size_t len = eq ? (size_t) (eq - name) : strlen (name);
      size_t k;
      for (k = 0; k < sizeof options / sizeof options[0]; k++)
        if (strlen (options[k].name) == len && !strncmp (options[k].name, name, len))
          break;
      if (k == sizeof options / sizeof options[0])
        return dm_why (why, why_size, "unknown option '%.*s'", (int) (len + 2), arg);
      const char *value = NULL;
      if (options[k].value)
        {
          if (eq)
            value = eq + 1;
          else if (i + 1 < argc)
            value = argv[++i];
          else
            return dm_why (why, why_size, "--%s needs a value", options[k].name);
        }
      else if (eq)
        return dm_why (why, why_size, "--%s takes no value", options[k].name);
      if (apply (o, options[k].id, options[k].name, value, why, why_size) < 0)
        return -EINVAL;
    }

  if (o->help || o->version || o->list_targets)
    return 0;
  if (!o->target)
    return dm_why (why, why_size, "no TARGET folder or device given");
  if (!*o->target)
    return dm_why (why, why_size, "TARGET is empty");
  if (o->settings.destroy_device[0] && strcmp (o->settings.destroy_device, o->target) != 0)
    return dm_why (why, why_size, "--destroy-data-on %s does not name the TARGET %s",
                 o->settings.destroy_device, o->target);
  if (o->compare_with && !strcmp (o->compare_with, o->target))
    return dm_why (why, why_size, "--compare-with names the same target as TARGET");
  if (o->compare_with && o->settings.destroy_device[0])
    return dm_why (why, why_size, "--compare-with and --destroy-data-on do not go together");
  if (o->compare_with && o->start_at)
    return dm_why (why, why_size, "--start-at and --compare-with do not go together");
  if (o->samples && o->format != DM_FORMAT_CSV)
    return dm_why (why, why_size, "--samples goes with --format csv (JSON carries the samples)");
  if (o->samples && o->compare_with)
    return dm_why (why, why_size, "--samples and --compare-with do not go together");
  if (o->modes && !(o->modes & DM_MODE_BIT (DM_MODE_MIX)) && o->mix)
    o->modes |= DM_MODE_BIT (DM_MODE_MIX);
  return 0;
}

const dm_spec *
dm_cli_specs (const dm_cli_options *o, unsigned *n, unsigned *modes)
{
  const dm_profile *p = dm_profile_find (o->profile);
  *modes = o->modes ? o->modes : p->modes | (o->mix ? DM_MODE_BIT (DM_MODE_MIX) : 0);
  if (o->n_tests)
    {
      *n = o->n_tests;
      return o->tests;
    }
  return dm_profile_specs (p, o->nvme, n);
}
