/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Every command of diskmeter-cli through the one option table: the table
 * itself sound, every option of every command taken in both "--opt value"
 * and "--opt=value" form, ranges enforced at both ends, each command's
 * --help holding exactly the options it parses (wrapped by the columns a
 * terminal shows), the commands' own lines (compare, show, merge, history,
 * sweep, sustained), and a mistyped command's suggestion. The run's own
 * line is tests/test-cli-options.c's.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "dm-backend.h"
#include "dm-cli-options.h"
#include "dm-cli-suggest.h"
#include "dm-test.h"
#include "dm-test-cli.h"

static const dm_cli_command all_commands[] = {
  DM_CLI_RUN, DM_CLI_COMPARE, DM_CLI_SHOW, DM_CLI_SWEEP, DM_CLI_SUSTAINED, DM_CLI_HISTORY,
  DM_CLI_MERGE, DM_CLI_FIRSTWRITE,
};
#define N_COMMANDS (sizeof all_commands / sizeof all_commands[0])

static const char *
command_label (dm_cli_command c)
{
  return c == DM_CLI_RUN ? "run" : dm_cli_command_name (c);
}

/* Parses command's line: the words given, then what the command needs
 * besides (its TARGET or files), so that only the words are on trial. */
static int
parse_cmd (dm_cli_command c, const char *const *words, int n_words)
{
  static const char *const target[] = { "/dev/sdz" };
  static const char *const two[] = { "a.json", "b.json", "--output=out.xlsx" };
  static const char *const one[] = { "a.json" };
  static const char *const export[] = { "export", "1", "out.xlsx" };
  const char *const *tail = target;
  int n_tail = 1;
  char *argv[MAX_ARGS];
  int argc = 0;

  if (c == DM_CLI_COMPARE || c == DM_CLI_MERGE)
    tail = two, n_tail = 3;
  else if (c == DM_CLI_SHOW)
    tail = one;
  else if (c == DM_CLI_HISTORY)
    tail = export, n_tail = 3;
  argv[argc++] = (char *) (c == DM_CLI_RUN ? "diskmeter-cli" : dm_cli_command_name (c));
  for (int i = 0; i < n_words && argc < MAX_ARGS - 1; i++)
    argv[argc++] = (char *) words[i];
  for (int i = 0; i < n_tail && argc < MAX_ARGS - 1; i++)
    argv[argc++] = (char *) tail[i];
  argv[argc] = NULL;
  spoil_why ();
  return dm_cli_parse_command (c, argc, argv, &o, why, sizeof why);
}

/* A value each row must take; NULL for a flag. Text, list and path rows
 * are named here: a new one without an example fails the test. */
static const char *
example (const dm_opt *opt, char *buf, size_t size)
{
  static const struct { const char *name, *value; } named[] = {
    { "modes", "read,mix" },          { "tests", "SEQ1M_Q8T1,rnd4k_q32t16" },
    { "qd", "1,4,32" },               { "threads", "1,2" },
    { "threshold", "us red>10000" },  { "output", "out.xlsx" },
    { "comment", "a=b, \"slot 2\"" }, { "tag", "vcpus=48 (HT)" }, { "compare-with", "/mnt/b" },
    { "concurrent", "/mnt/b" },
    { "destroy-data-on", "/dev/sdz" }, { "start-at", "+60" },
    { "sort", "B" },
    { "workload", "name=OLTP;block=8K;read=70;qd=8" }, { "profile-file", "oltp.ini" },
    { "latency-bound", "2ms" },       { "blocks", "4K,8K,...,8M" },
    { "headroom-p99", "2ms" },
  };
  switch (opt->kind)
    {
    case DM_OPT_FLAG: return NULL;
    case DM_OPT_UINT: snprintf (buf, size, "%.0f", opt->max); return buf;
    case DM_OPT_SECONDS: snprintf (buf, size, "%g", opt->max); return buf;
    case DM_OPT_SIZE: dm_size_format ((uint64_t) opt->min, buf, size); return buf;
    case DM_OPT_CHOICE: snprintf (buf, size, "%.*s", (int) strcspn (opt->choices, "|"),
                                  opt->choices);
      return buf;
    default: break;
    }
  if (!strcmp (opt->name, "backend"))
    {
      unsigned n;
      return dm_backends (&n)[n - 1]->name;
    }
  for (size_t i = 0; i < sizeof named / sizeof named[0]; i++)
    if (!strcmp (named[i].name, opt->name))
      return named[i].value;
  return "";
}

/* Parses --name[=]value in command c, with what the option needs beside it. */
static int
parse_option (dm_cli_command c, const dm_opt *opt, const char *value, bool joined)
{
  char one[256];
  const char *words[4];
  int n = 0;
  /* A sweep's rate curve is of one load, and its load goes with it. */
  bool curve = c == DM_CLI_SWEEP && (!strcmp (opt->name, "tests") || !strcmp (opt->name, "workload")
                                     || !strcmp (opt->name, "profile-file"));
  if (c == DM_CLI_SWEEP && !strcmp (opt->name, "tests"))
    value = "rnd4k_q32t1";
  if (!value)
    words[n++] = opt->short_name && !joined ? (snprintf (one, sizeof one, "-%c",
                                                         opt->short_name), one)
                                            : (snprintf (one, sizeof one, "--%s", opt->name), one);
  else if (joined)
    words[n++] = (snprintf (one, sizeof one, "--%s=%s", opt->name, value), one);
  else
    {
      words[n++] = (snprintf (one, sizeof one, "--%s", opt->name), one);
      words[n++] = value;
    }
  if (!strcmp (opt->name, "samples"))
    words[n++] = "--format=csv";
  if (curve)
    words[n++] = "--rates=curve";
  if (c == DM_CLI_SWEEP && !strcmp (opt->name, "rates"))
    words[n++] = "--tests=RND4K_Q32T1";
  /* A headroom is of one profile file; its bound goes with it. */
  if (c == DM_CLI_RUN && !strncmp (opt->name, "headroom", 8))
    {
      words[n++] = "--profile-file=app.ini";
      if (strcmp (opt->name, "headroom"))
        words[n++] = "--headroom";
    }
  return parse_cmd (c, words, n);
}

static void
test_table (void)
{
  size_t n;
  const dm_opt *t = dm_cli_option_table (&n);
  DM_CHECK (n > 40);
  for (size_t i = 0; i < n; i++)
    {
      DM_CHECK (t[i].name && t[i].help && t[i].group && t[i].commands);
      DM_CHECK (!(t[i].commands & ~DM_CLI_ALL_COMMANDS));
      if (t[i].kind == DM_OPT_CHOICE)
        DM_CHECK (t[i].choices != NULL);
      if (t[i].max > 0)
        DM_CHECK (t[i].min <= t[i].max);
      /* No command has two rows of one name: which would it parse? */
      for (size_t j = 0; j < i; j++)
        if (!strcmp (t[i].name, t[j].name) && (t[i].commands & t[j].commands))
          {
            fprintf (stderr, "two rows for --%s in one command\n", t[i].name);
            dm_test_case_failed = 1;
          }
    }
  for (size_t k = 0; k < N_COMMANDS; k++)
    {
      DM_CHECK (dm_cli_command_find (dm_cli_command_name (all_commands[k]))
                == (all_commands[k] == DM_CLI_RUN ? 0 : all_commands[k]));
      DM_CHECK (dm_opt_find (t, n, all_commands[k], "help", 4) != NULL);
    }
  DM_CHECK (dm_cli_command_find ("frobnicate") == 0);
}

/* Each option of each command, as "--opt VALUE" and "--opt=VALUE"; each
 * word of a choice; a flag alone. */
static void
test_both_forms (void)
{
  size_t n;
  const dm_opt *t = dm_cli_option_table (&n);
  for (size_t k = 0; k < N_COMMANDS; k++)
    for (size_t i = 0; i < n; i++)
      {
        dm_cli_command c = all_commands[k];
        char buf[64], word[64];
        if (!(t[i].commands & c))
          continue;
        const char *value = example (&t[i], buf, sizeof buf);
        if (value && !value[0] && t[i].kind != DM_OPT_CHOICE)
          {
            fprintf (stderr, "no example value for --%s\n", t[i].name);
            dm_test_case_failed = 1;
            continue;
          }
        for (int joined = 0; joined < 2; joined++)
          {
            /* Every word of a choice, each in both forms. */
            const char *p = t[i].kind == DM_OPT_CHOICE ? t[i].choices : NULL;
            do
              {
                if (p)
                  {
                    size_t len = strcspn (p, "|");
                    snprintf (word, sizeof word, "%.*s", (int) len, p);
                    value = word;
                    p = p[len] ? p + len + 1 : NULL;
                  }
                if (parse_option (c, &t[i], value, joined) != 0)
                  {
                    fprintf (stderr, "%s: --%s%s%s refused: %s\n", command_label (c), t[i].name,
                             value ? (joined ? "=" : " ") : "", value ? value : "", why);
                    dm_test_case_failed = 1;
                  }
              }
            while (p);
          }
      }
}

/* Numbers, sizes and durations: the range's ends taken, a step past
 * either end refused, with the option named. */
static void
test_ranges (void)
{
  size_t n;
  const dm_opt *t = dm_cli_option_table (&n);
  unsigned checked = 0;
  for (size_t k = 0; k < N_COMMANDS; k++)
    for (size_t i = 0; i < n; i++)
      {
        dm_cli_command c = all_commands[k];
        char lo[64], hi[64], below[64], above[64], name[64];
        bool has_below = true;
        if (!(t[i].commands & c) || t[i].max <= 0)
          continue;
        switch (t[i].kind)
          {
          case DM_OPT_UINT:
          case DM_OPT_LIST:
            snprintf (lo, sizeof lo, "%.0f", t[i].min);
            snprintf (hi, sizeof hi, "%.0f", t[i].max);
            snprintf (below, sizeof below, "%.0f", t[i].min - 1);
            snprintf (above, sizeof above, "%.0f", t[i].max + 1);
            has_below = t[i].min > 0;
            break;
          case DM_OPT_SECONDS:
            snprintf (lo, sizeof lo, "%g", t[i].min);
            snprintf (hi, sizeof hi, "%g", t[i].max);
            snprintf (below, sizeof below, "%g", t[i].min - 0.05);
            snprintf (above, sizeof above, "%g", t[i].max + 1);
            has_below = t[i].min > 0;
            break;
          case DM_OPT_SIZE:
            dm_size_format ((uint64_t) t[i].min, lo, sizeof lo);
            dm_size_format ((uint64_t) t[i].max, hi, sizeof hi);
            snprintf (below, sizeof below, "%.0f", t[i].min / 2);
            snprintf (above, sizeof above, "%.0f", t[i].max * 2);
            break;
          default: continue;
          }
        snprintf (name, sizeof name, "--%s", t[i].name);
        for (int joined = 0; joined < 2; joined++)
          {
            const char *ok[] = { lo, hi }, *bad[] = { below, above };
            for (int e = 0; e < 2; e++)
              {
                if (parse_option (c, &t[i], ok[e], joined) != 0)
                  {
                    fprintf (stderr, "%s: %s %s refused: %s\n", command_label (c), name, ok[e],
                             why);
                    dm_test_case_failed = 1;
                  }
                if ((e == 0 && !has_below))
                  continue;
                int err = parse_option (c, &t[i], bad[e], joined);
                if (err != -EINVAL || !strstr (why, name) || strchr (why, '\n'))
                  {
                    fprintf (stderr, "%s: %s %s: got %d \"%s\"\n", command_label (c), name,
                             bad[e], err, why);
                    dm_test_case_failed = 1;
                  }
                checked++;
              }
          }
      }
  DM_CHECK_INT (checked, >, 60);
}

/* Each command's --help against the table: every row of the command has
 * its option line, every option line names an option the command parses
 * (with the value the test gives it), no other --option is mentioned that
 * no command has, and lines fit a terminal and help2man. */
static void
test_help (void)
{
  size_t n;
  const dm_opt *t = dm_cli_option_table (&n);
  for (size_t k = 0; k < N_COMMANDS; k++)
    {
      dm_cli_command c = all_commands[k];
      const char *label = command_label (c);
      dm_buf help;
      dm_buf_init (&help);
      dm_cli_write_help (c, &help);
      DM_CHECK (help.data && !help.error);
      if (!help.data)
        continue;
      DM_CHECK (!strncmp (help.data, "Usage: diskmeter-cli", 20));

      for (size_t i = 0; i < n; i++)
        {
          char line[80], line_short[80];
          if (!(t[i].commands & c))
            continue;
          snprintf (line, sizeof line, "\n  --%s", t[i].name);
          snprintf (line_short, sizeof line_short, "\n  -%c, --%s", t[i].short_name, t[i].name);
          bool found = false;
          const char *want = t[i].short_name ? line_short : line;
          for (const char *p = help.data; !found && (p = strstr (p, want)); p++)
            {
              char after = p[strlen (want)];
              found = after == '=' || after == ' ' || after == '\n';
            }
          if (!found)
            {
              fprintf (stderr, "%s --help has no line for --%s\n", label, t[i].name);
              dm_test_case_failed = 1;
            }
        }

      for (const char *l = help.data; *l;)
        {
          size_t len = strcspn (l, "\n");
          if (len > 79)
            {
              fprintf (stderr, "%s --help: a line of %u columns: %.*s\n", label, (unsigned) len,
                       (int) len, l);
              dm_test_case_failed = 1;
            }
          /* An option line: "  --name=ARG  text" or "  -q, --name  text". */
          const char *p = l;
          while (*p == ' ')
            p++;
          if (p > l && p[0] == '-' && p < l + len)
            {
              if (p[1] != '-')
                p += 4;
              size_t name_len = strcspn (p + 2, "= \n");
              const dm_opt *opt = dm_opt_find (t, n, c, p + 2, name_len);
              char buf[64];
              if (!opt)
                {
                  fprintf (stderr, "%s --help lists %.*s, which it does not parse\n", label,
                           (int) name_len + 2, p);
                  dm_test_case_failed = 1;
                }
              else if (parse_option (c, opt, example (opt, buf, sizeof buf), true) != 0)
                {
                  fprintf (stderr, "%s --help lists --%s, refused: %s\n", label, opt->name, why);
                  dm_test_case_failed = 1;
                }
            }
          l += len + (l[len] == '\n');
        }

      /* Options named in prose belong to some command. */
      for (const char *p = help.data; (p = strstr (p, "--")); p += 2)
        {
          size_t name_len = strspn (p + 2, "abcdefghijklmnopqrstuvwxyz0123456789-");
          if (name_len && !dm_opt_find (t, n, DM_CLI_ALL_COMMANDS, p + 2, name_len))
            {
              fprintf (stderr, "%s --help mentions %.*s, an option of no command\n", label,
                       (int) name_len + 2, p);
              dm_test_case_failed = 1;
            }
        }
      dm_buf_free (&help);
    }
}

/* dm_opt_wrap counts the columns a terminal shows: a kanji takes two, an
 * umlaut one; Japanese breaks between characters but never before 。. */
static void
wrapped (const char *text, int first, int indent, const char *expected)
{
  dm_buf b;
  dm_buf_init (&b);
  dm_opt_wrap (&b, text, first, indent);
  DM_CHECK_STR (b.data ? b.data : "", expected);
  dm_buf_free (&b);
}

static void
test_wrap (void)
{
  /* English: at spaces only, as before. */
  wrapped ("one two three", 70, 2, "one two\n  three");
  wrapped ("one two three", 0, 2, "one two three");
  /* German: 2-byte letters are one column each, so 7 of them still fit
   * after column 70 (counted as bytes they would not). */
  wrapped ("x \xc3\xbc\xc3\xbc\xc3\xbc\xc3\xbc\xc3\xbc\xc3\xbc\xc3\xbc", 70, 2,
           "x \xc3\xbc\xc3\xbc\xc3\xbc\xc3\xbc\xc3\xbc\xc3\xbc\xc3\xbc");
  /* Japanese: 日本語の (8 columns) fits from 71 to 79, テ does not. */
  wrapped ("日本語のテキスト", 71, 2, "日本語の\n  テキスト");
  /* 。 never starts a line: it takes 語 with it to the next one. */
  wrapped ("日本語。次", 72, 2, "日本\n  語。次");
  /* Nor does a line end with an opening bracket: （既 goes on together. */
  wrapped ("日本（既定）", 72, 4, "日本\n    （既定）");
  /* A space between Latin and Japanese words is kept or becomes the break. */
  wrapped ("O_DIRECT なしで", 0, 2, "O_DIRECT なしで");
  wrapped ("abc O_DIRECT なしで", 68, 2, "abc\n  O_DIRECT なしで");
  /* The text's own line breaks are spaces, or nothing between kanji. */
  wrapped ("one\ntwo", 0, 0, "one two");
  wrapped ("日本\n語", 0, 0, "日本語");
  wrapped ("Ctrl-C\n日本", 0, 0, "Ctrl-C 日本");
  /* A stray byte is a character of its own, never half of one. */
  wrapped ("a\xe6" "b", 0, 0, "a\xe6" "b");
}

static void
test_compare (void)
{
  const char *w1[] = { "--unit=IOPS", "--sort", "b", "--format", "json", "--threshold",
                       "us red>10000", "--threshold=IOPS green>1" };
  DM_CHECK_INT (parse_cmd (DM_CLI_COMPARE, w1, 8), ==, 0);
  DM_CHECK_INT (o.unit, ==, DM_UNIT_IOPS);
  DM_CHECK_INT (o.sort, ==, 1);
  DM_CHECK_INT (o.format, ==, DM_FORMAT_JSON);
  DM_CHECK_INT (o.n_thresholds, ==, 2);
  DM_CHECK_INT (o.n_args, ==, 2);
  DM_CHECK_STR (o.args[1], "b.json");

  char *argv[] = { "compare", "a.json", "--format=xlsx", "b.json", NULL };
  DM_CHECK_INT (dm_cli_parse_command (DM_CLI_COMPARE, 4, argv, &o, why, sizeof why), ==, -EINVAL);
  DM_CHECK (strstr (why, "--output") != NULL);
  DM_CHECK_INT (dm_cli_parse_command (DM_CLI_COMPARE, 2, argv, &o, why, sizeof why), ==, -EINVAL);
  DM_CHECK (strstr (why, "two") != NULL);
  const char *w2[] = { "--sort=C" };
  DM_CHECK_INT (parse_cmd (DM_CLI_COMPARE, w2, 1), ==, -EINVAL);
  DM_CHECK (strstr (why, "--sort") != NULL);
  const char *w3[] = { "--unit=furlongs" };
  DM_CHECK_INT (parse_cmd (DM_CLI_COMPARE, w3, 1), ==, -EINVAL);
  DM_CHECK (strstr (why, "--unit") != NULL);
  const char *w4[] = { "--count=3" };
  DM_CHECK_INT (parse_cmd (DM_CLI_COMPARE, w4, 1), ==, -EINVAL);
  DM_CHECK (strstr (why, "--count") && strstr (why, "compare"));
}

static void
test_show_merge_history (void)
{
  const char *latency_json[] = { "--latency", "--format=json" };
  DM_CHECK_INT (parse_cmd (DM_CLI_SHOW, latency_json, 2), ==, -EINVAL);
  DM_CHECK (strstr (why, "--latency") != NULL);
  const char *samples[] = { "--samples" };
  DM_CHECK_INT (parse_cmd (DM_CLI_SHOW, samples, 1), ==, -EINVAL);
  DM_CHECK (strstr (why, "--samples") != NULL);
  const char *second[] = { "b.json" };
  DM_CHECK_INT (parse_cmd (DM_CLI_SHOW, second, 1), ==, -EINVAL);
  DM_CHECK (strstr (why, "one file") != NULL);
  const char *csv[] = { "--format", "CSV", "--output", "x.csv" };
  DM_CHECK_INT (parse_cmd (DM_CLI_SHOW, csv, 4), ==, 0);
  DM_CHECK_INT (o.format, ==, DM_FORMAT_CSV);
  DM_CHECK_STR (o.output, "x.csv");
  DM_CHECK_STR (o.args[0], "a.json");

  char *merge1[] = { "merge", "a.json", NULL };
  DM_CHECK_INT (dm_cli_parse_command (DM_CLI_MERGE, 2, merge1, &o, why, sizeof why), ==, -EINVAL);
  const char *pdf[] = { "--format=pdf" };
  DM_CHECK_INT (parse_cmd (DM_CLI_MERGE, pdf, 1), ==, -EINVAL);
  DM_CHECK (strstr (why, "--format") != NULL);

  struct { const char *argv[6]; int argc, want; const char *verb; } h[] = {
    { { "history" }, 1, 0, "list" },
    { { "history", "list" }, 2, 0, "list" },
    { { "history", "show", "2", "--format=json" }, 4, 0, "show" },
    { { "history", "--format", "csv", "export", "1", "f.csv" }, 6, 0, "export" },
    { { "history", "comment", "1", "--", "-fast disk-" }, 5, 0, "comment" },
    { { "history", "delete", "3" }, 3, 0, "delete" },
    { { "history", "show" }, 2, -EINVAL, NULL },
    { { "history", "show", "1", "--format=xlsx" }, 4, -EINVAL, NULL },
    { { "history", "erase", "1" }, 3, -EINVAL, NULL },
    { { "history", "export", "1", "2", "3" }, 5, -EINVAL, NULL },
  };
  for (size_t i = 0; i < sizeof h / sizeof h[0]; i++)
    {
      int err = dm_cli_parse_command (DM_CLI_HISTORY, h[i].argc, (char **) h[i].argv, &o, why,
                                      sizeof why);
      DM_CHECK_INT (err, ==, h[i].want);
      if (!err)
        DM_CHECK_STR (o.verb, h[i].verb);
      else
        DM_CHECK (why[0] && !strchr (why, '\n'));
    }
  DM_CHECK_STR (o.args[2], "2"); /* the last: too many arguments kept none past the 4th */
}

static void
test_sweep (void)
{
  /* A sweep's own defaults: one 3 s run after a 2 s warm-up, no pause. */
  DM_CHECK_INT (parse_cmd (DM_CLI_SWEEP, NULL, 0), ==, 0);
  DM_CHECK_INT (o.settings.count, ==, 1);
  DM_CHECK (o.settings.measure_s == 3 && o.settings.warmup_s == 2 && o.settings.interval_s == 0);
  DM_CHECK_INT (o.sweep.pattern, ==, DM_RND);
  DM_CHECK_INT (o.sweep.mode, ==, DM_MODE_READ);
  DM_CHECK_STR (o.target, "/dev/sdz");

  const char *w[] = { "--pattern=seq", "--block", "64K", "--qd=1,2,8", "--threads", "4,1",
                      "--latency-bound=2000", "--count=2", "--duration", "1", "--format=csv" };
  DM_CHECK_INT (parse_cmd (DM_CLI_SWEEP, w, 11), ==, 0);
  DM_CHECK_INT (o.sweep.pattern, ==, DM_SEQ);
  DM_CHECK_INT (o.sweep.block_size, ==, 64 * 1024);
  DM_CHECK_INT (o.sweep.n_queue_depths, ==, 3);
  DM_CHECK_INT (o.sweep.queue_depths[2], ==, 8);
  DM_CHECK_INT (o.sweep.n_threads, ==, 2);
  DM_CHECK_INT (o.sweep.threads[0], ==, 1);
  DM_CHECK (o.sweep.latency_bound_us == 2000);
  DM_CHECK_INT (o.settings.count, ==, 2);
  DM_CHECK (o.settings.measure_s == 1 && o.settings.warmup_s == 2);
  DM_CHECK_INT (o.format, ==, DM_FORMAT_CSV);

  /* --mix-read asks for mix unless a mode was named. */
  const char *mix[] = { "--mix-read=40" };
  DM_CHECK_INT (parse_cmd (DM_CLI_SWEEP, mix, 1), ==, 0);
  DM_CHECK_INT (o.sweep.mode, ==, DM_MODE_MIX);
  DM_CHECK_INT (o.settings.mix_read_percent, ==, 40);
  const char *mix_write[] = { "--mode", "write", "--mix-read=40" };
  DM_CHECK_INT (parse_cmd (DM_CLI_SWEEP, mix_write, 3), ==, 0);
  DM_CHECK_INT (o.sweep.mode, ==, DM_MODE_WRITE);
  const char *mix_flag[] = { "--mix" };
  DM_CHECK_INT (parse_cmd (DM_CLI_SWEEP, mix_flag, 1), ==, 0);
  DM_CHECK_INT (o.sweep.mode, ==, DM_MODE_MIX);

  /* A block sweep moves sequential transfers, as ATTO does, unless
   * --pattern says otherwise. */
  const char *blocks[] = { "--blocks", "4K,...,64K" };
  DM_CHECK_INT (parse_cmd (DM_CLI_SWEEP, blocks, 2), ==, 0);
  DM_CHECK_INT (o.sweep.pattern, ==, DM_SEQ);
  const char *blocks_rnd[] = { "--blocks", "4K,...,64K", "--pattern", "RND" };
  DM_CHECK_INT (parse_cmd (DM_CLI_SWEEP, blocks_rnd, 4), ==, 0);
  DM_CHECK_INT (o.sweep.pattern, ==, DM_RND);

  const char *refused[][2] = { { "--tests", "RND4K_Q1T1" }, { "--profile", "peak" },
                               { "--qd", "1,1024" }, { "--block", "3K" },
                               { "--threads", "0" }, { "--mode", "trim" },
                               { "--destroy-data-on", "/dev/sdy" } };
  for (size_t i = 0; i < sizeof refused / sizeof refused[0]; i++)
    {
      DM_CHECK_INT (parse_cmd (DM_CLI_SWEEP, refused[i], 2), ==, -EINVAL);
      DM_CHECK (strstr (why, refused[i][0]) != NULL);
    }
}

static void
test_sustained (void)
{
  DM_CHECK_INT (parse_cmd (DM_CLI_SUSTAINED, NULL, 0), ==, 0);
  DM_CHECK_INT (o.sustained.mode, ==, DM_MODE_WRITE);
  DM_CHECK (o.sustained.duration_s == 60 && o.sustained.sample_s == 0.5);
  DM_CHECK (o.span_free && !o.span_given && !o.progress);

  const char *w[] = { "--mode=read", "--pattern", "RND", "--block=64K", "--qd", "16",
                      "--threads=2", "--span", "256MiB", "--duration=10", "--sample", "0.1",
                      "--progress" };
  DM_CHECK_INT (parse_cmd (DM_CLI_SUSTAINED, w, 13), ==, 0);
  DM_CHECK_INT (o.sustained.mode, ==, DM_MODE_READ);
  DM_CHECK_INT (o.sustained.pattern, ==, DM_RND);
  DM_CHECK_INT (o.sustained.block_size, ==, 64 * 1024);
  DM_CHECK_INT (o.sustained.queue_depth, ==, 16);
  DM_CHECK_INT (o.sustained.threads, ==, 2);
  DM_CHECK_INT (o.sustained.span, ==, 256ull << 20);
  DM_CHECK (o.span_given && !o.span_free && o.progress);
  DM_CHECK (o.sustained.duration_s == 10);
  DM_CHECK (o.sustained.sample_s > 0.099 && o.sustained.sample_s < 0.101);
  const char *free_[] = { "--span=FREE" };
  DM_CHECK_INT (parse_cmd (DM_CLI_SUSTAINED, free_, 1), ==, 0);
  DM_CHECK (o.span_given && o.span_free);

  const char *refused[][2] = { { "--count", "3" }, { "--mode", "mix" }, { "--qd", "1,2" },
                               { "--span", "15MiB" }, { "--span", "20.5MiB" },
                               { "--sample", "20" }, { "--size", "1GiB" } };
  for (size_t i = 0; i < sizeof refused / sizeof refused[0]; i++)
    {
      DM_CHECK_INT (parse_cmd (DM_CLI_SUSTAINED, refused[i], 2), ==, -EINVAL);
      DM_CHECK (strstr (why, refused[i][0]) != NULL);
    }
}

/* first-write: RND4K and SEQ1M over 1 GiB, 30 s a pass, unless told. */
static void
test_firstwrite (void)
{
  DM_CHECK_INT (parse_cmd (DM_CLI_FIRSTWRITE, NULL, 0), ==, 0);
  DM_CHECK_INT (o.firstwrite.n_tests, ==, 2);
  DM_CHECK_INT (o.firstwrite.tests[0].pattern, ==, DM_RND);
  DM_CHECK_INT (o.firstwrite.tests[0].block_size, ==, 4096);
  DM_CHECK_INT (o.firstwrite.tests[1].block_size, ==, 1u << 20);
  DM_CHECK_INT (o.firstwrite.size, ==, 1ull << 30);
  DM_CHECK (o.firstwrite.duration_s == 30);

  const char *w[] = { "--tests", "RND8K_Q16T2", "--size", "64MiB", "--duration", "5",
                      "--format", "csv" };
  DM_CHECK_INT (parse_cmd (DM_CLI_FIRSTWRITE, w, 8), ==, 0);
  DM_CHECK_INT (o.firstwrite.n_tests, ==, 1);
  DM_CHECK_INT (o.firstwrite.tests[0].block_size, ==, 8192);
  DM_CHECK_INT (o.firstwrite.tests[0].threads, ==, 2);
  DM_CHECK_INT (o.firstwrite.size, ==, 64ull << 20);
  DM_CHECK (o.firstwrite.duration_s == 5 && o.format == DM_FORMAT_CSV);

  const char *refused[][2] = { { "--count", "3" }, { "--warmup", "1" }, { "--size", "15MiB" },
                               { "--tests", "RND4K_Q0T1" }, { "--precondition", "1" },
                               { "--destroy-data-on", "/dev/sdy" } };
  for (size_t i = 0; i < sizeof refused / sizeof refused[0]; i++)
    {
      DM_CHECK_INT (parse_cmd (DM_CLI_FIRSTWRITE, refused[i], 2), ==, -EINVAL);
      DM_CHECK (strstr (why, refused[i][0]) != NULL || strstr (why, "sdy") != NULL);
    }
}

/* A slip of the fingers is one edit, a swap of two letters too; a word
 * that is far from every name is suggested nothing. */
static void
test_suggest (void)
{
  static const char *const names[] = { "compare", "history", "sweep", "sustained", "show",
                                       "merge" };
  DM_CHECK_INT (dm_cli_edit_distance ("swep", 4, "sweep", 5), ==, 1);
  DM_CHECK_INT (dm_cli_edit_distance ("sewep", 5, "sweep", 5), ==, 1);
  DM_CHECK_INT (dm_cli_edit_distance ("SHOW", 4, "show", 4), ==, 0);
  DM_CHECK_STR (dm_cli_nearest ("swep", 4, names, 6), "sweep");
  DM_CHECK_STR (dm_cli_nearest ("histroy", 7, names, 6), "history");
  DM_CHECK_STR (dm_cli_nearest ("sustaned", 8, names, 6), "sustained");
  DM_CHECK (dm_cli_nearest ("data", 4, names, 6) == NULL);
  DM_CHECK (dm_cli_nearest ("t1", 2, names, 6) == NULL);
  DM_CHECK (dm_cli_nearest ("x", 1, names, 6) == NULL);
}

int
main (void)
{
  DM_RUN ("/app/cli-options/suggest", test_suggest);
  DM_RUN ("/app/cli-options/table", test_table);
  DM_RUN ("/app/cli-options/both-forms", test_both_forms);
  DM_RUN ("/app/cli-options/ranges", test_ranges);
  DM_RUN ("/app/cli-options/help", test_help);
  DM_RUN ("/app/cli-options/wrap", test_wrap);
  DM_RUN ("/app/cli-options/compare", test_compare);
  DM_RUN ("/app/cli-options/show-merge-history", test_show_merge_history);
  DM_RUN ("/app/cli-options/sweep", test_sweep);
  DM_RUN ("/app/cli-options/sustained", test_sustained);
  DM_RUN ("/app/cli-options/first-write", test_firstwrite);
  return dm_test_done ();
}
