/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * What each diskmeter-cli command is: its name, usage lines, what it does,
 * how many arguments it takes, and the --help text written from that and
 * the option table, so the help, the usage line and the checks share one
 * row per command.
 */
#include "dm-cli-options.h"

#include <string.h>

#include "dm-compare.h"
#include "dm-i18n.h"

/* What each command is, for its --help, its usage line and its checks. */
typedef struct command_info {
  dm_cli_command command;
  const char    *name;
  const char    *who;
  const char    *usage[6];  /* after the program and command; the first is the short form */
  const char    *summary;   /* for the plain run's list of commands */
  const char    *about;     /* wrapped */
  const char    *notes;     /* after the options, as written */
  unsigned       max_args;
} command_info;

static const char exit_statuses[] = N_ ("Exit status: 0 done, 1 failed, 2 bad usage, 130 cancelled.\n");

static const command_info commands[] = {
  { DM_CLI_RUN, "", "diskmeter-cli", { "[OPTIONS] TARGET" }, NULL,
    N_ ("Measures the folder or block device TARGET the way CrystalDiskMark does."),
    NULL, 1 },
  { DM_CLI_COMPARE, "compare", "diskmeter-cli compare", { "[OPTIONS] A.json B.json [C.json...]" },
    N_ ("saved runs side by side"),
    N_ ("Compares saved results with the first one, test by test."), NULL, DM_COMPARE_MAX },
  { DM_CLI_HISTORY, "history", "diskmeter-cli history",
    { "[list]", "show N [--format=text|json|csv]", "comment N TEXT",
      "export N FILE [--format=text|json|csv]", "export N[,M...] FILE.xlsx --format=xlsx",
      "delete N" },
    N_ ("the runs kept"),
    N_ ("N is the number in the list (1 = newest). Runs are saved automatically unless "
    "--no-history is given."), NULL, 4 },
  { DM_CLI_MERGE, "merge", "diskmeter-cli merge", { "[OPTIONS] A.json B.json [C.json...]" },
    N_ ("a fleet run's hosts added up"),
    N_ ("Adds up the results of hosts that ran the same tests with the same settings at the same "
    "time (diskmeter-cli --start-at): MB/s and IOPS summed over hosts, each host's own "
    "figures, the spread between hosts, and latency percentiles of all I/Os from the hosts' "
    "merged histograms."), NULL, DM_CLI_MAX_ARGS },
  { DM_CLI_SHOW, "show", "diskmeter-cli show", { "[OPTIONS] FILE" },
    N_ ("a saved run again, as text, JSON or CSV"),
    N_ ("Prints a saved run (a JSON report) again, as text, JSON or CSV; a sweep as diskmeter-cli "
    "sweep prints it, a sustained test as diskmeter-cli sustained does, a first-write probe as "
    "diskmeter-cli first-write does, a capture as diskmeter-cli capture does, a cache probe as "
    "diskmeter-cli cache-probe does, a headroom run as diskmeter-cli --headroom does."), NULL, 1 },
  { DM_CLI_SWEEP, "sweep", "diskmeter-cli sweep", { "[OPTIONS] TARGET" },
    N_ ("every QD x threads, with the knee"),
    N_ ("Measures one pattern at every queue depth x thread count and finds the knee: the "
    "lightest load past which throughput gains under 5% while latency rises."),
    N_ ("Combinations beyond 4 threads per logical CPU, 4096 I/Os in flight, 1 GiB of\n"
    "buffers, or more threads than blocks in the test size are left out, with a\n"
    "note. The estimated time is printed before the sweep starts. Ctrl-C stops it\n"
    "and keeps every combination already measured.\n"), 1 },
  { DM_CLI_SUSTAINED, "sustained", "diskmeter-cli sustained", { "[OPTIONS] TARGET" },
    N_ ("speed over time, the write-cache cliff"),
    N_ ("Writes (or reads) once through a test file as large as the span, until the span is "
    "covered or the duration is over, and shows the rate over time: where the rate fell below "
    "half of its opening rate for good (a write cache running out: the cliff), how much was "
    "written before, and the rates before and after."),
    N_ ("Ctrl-C stops it and keeps the samples so far; the test file is removed.\n"), 1 },
  { DM_CLI_FIRSTWRITE, "first-write", "diskmeter-cli first-write", { "[OPTIONS] TARGET" },
    N_ ("the penalty of a first write to a block against a rewrite"),
    N_ ("Writes the blocks of a new test file that nothing has written (space allocated, "
    "never filled), then the same blocks again, for each test, and reports both passes and the "
    "penalty: how many times longer a first write took. Thin and lazy-zeroed virtual disks, "
    "snapshots and copy-on-write layers pay it; the grid's filled test file hides it. In a "
    "folder the filesystem's own conversion of unwritten space is part of the first write; a "
    "whole device given with --destroy-data-on is measured alone, from its start."),
    N_ ("Ctrl-C stops it and keeps the passes finished; the test file is removed.\n"), 1 },
  { DM_CLI_CACHE_PROBE, "cache-probe", "diskmeter-cli cache-probe", { "[OPTIONS] TARGET" },
    N_ ("the host-cache ladder: where a cache below this VM ends"),
    N_ ("Measures RND4K Q32T1 and SEQ1M Q8T1 over working sets that double from --min up to "
    "--max (4 x this system's memory unless given, bounded by the free space), each set written "
    "whole first so a cache can hold it, and names the steps where the rate falls. The test "
    "file is O_DIRECT, so the guest's own page cache serves none of it: a step is a cache "
    "below this VM (the host's page cache, a controller's or an array's)."),
    N_ ("The estimate (sizes, bytes, time) is printed first. At the --time-limit, or on\n"
    "Ctrl-C, it stops with the sizes measured by then; each working set's test file\n"
    "is removed.\n"), 1 },
  { DM_CLI_STUDY, "study", "diskmeter-cli study",
    { "run PLAN [--tag KEY=VALUE] [--redo]",
      "show NAME [--format=text|json|csv|xlsx] [--output FILE] [--threshold RULE]" },
    N_ ("every scenario of a plan, resumable, and its sheet"),
    N_ ("run measures every target x Q x T scenario of a study plan, targets in turns, saving "
    "each finished scenario to the history under the study's name; run again, it goes on where "
    "it stopped, and under other tags (another vCPU layout) it adds their scenarios as new rows. "
    "show prints the sheet: a row per scenario, its tags, Q, T and figures coloured by the "
    "rules, and the scenarios green everywhere, ranked."),
    N_ ("Ctrl-C stops a run; the scenarios finished stay saved and the next run goes on\n"
    "from there.\n"), 2 },
  { DM_CLI_CAPTURE, "capture", "diskmeter-cli capture", { "[OPTIONS] TARGET --for DURATION" },
    N_ ("the load an application puts on a disk, as histograms and a profile"),
    N_ ("Records every request the kernel issues to the disk under the folder or device TARGET "
    "while your own application runs, and shows its shape per direction: request sizes, seek "
    "distance, requests outstanding at issue, latency at the disk and interarrival time, with "
    "the read share and the IOPS over time. It reads the kernel's block events (root or "
    "CAP_SYS_ADMIN); without them it says so and gives the disk counters' means instead."),
    N_ ("A partition is captured on its disk, so other partitions' requests count too.\n"
    "Ctrl-C ends the capture and prints what it has.\n"), 1 },
};

static const command_info *
command_info_of (dm_cli_command command)
{
  for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
    if (commands[i].command == command)
      return &commands[i];
  return &commands[0];
}

dm_cli_command
dm_cli_command_find (const char *name)
{
  for (size_t i = 1; name && i < sizeof commands / sizeof commands[0]; i++)
    if (!strcmp (commands[i].name, name))
      return commands[i].command;
  return 0;
}

const char *
dm_cli_command_name (dm_cli_command command)
{
  return command_info_of (command)->name;
}

const char *
dm_cli_command_who (dm_cli_command command)
{
  return command_info_of (command)->who;
}

unsigned
dm_cli_command_max_args (dm_cli_command command)
{
  return command_info_of (command)->max_args;
}

const char *
dm_cli_command_usage (dm_cli_command command)
{
  return command == DM_CLI_HISTORY ? "[list|show|comment|export|delete] [N] [FILE|TEXT] [OPTIONS]"
         : command == DM_CLI_STUDY ? "run PLAN | show NAME [OPTIONS]"
                                   : command_info_of (command)->usage[0];
}

void
dm_cli_write_help (dm_cli_command command, dm_buf *out)
{
  const command_info *c = command_info_of (command);

  for (int i = 0; i < 6 && c->usage[i]; i++)
    dm_buf_printf (out, "%s%s %s\n", i ? "       " : _("Usage: "), c->who, c->usage[i]);
  dm_opt_wrap (out, _(c->about), 0, 0);
  dm_buf_add (out, "\n\n");
  size_t n_opts;
  const dm_opt *opts = dm_cli_option_table (&n_opts);

  dm_opt_write_help (opts, n_opts, command, out);
  dm_buf_add (out, "\n");
  if (c->notes)
    {
      /* One paragraph, wrapped to the terminal as the options are: a
       * translation's own line breaks need not fit. */
      dm_opt_wrap (out, _(c->notes), 0, 0);
      dm_buf_add (out, "\n");
    }
  if (command == DM_CLI_RUN)
    {
      /* The other commands, one line each: the man page and shell
       * completion find them here. */
      dm_buf_add (out, _("Other commands (each with --help):\n"));
      for (size_t i = 1; i < sizeof commands / sizeof commands[0]; i++)
        {
          dm_buf_printf (out, "  %s %s\n%24s", commands[i].who, commands[i].usage[0], "");
          dm_opt_wrap (out, _(commands[i].summary), 24, 24);
          dm_buf_add (out, "\n");
        }
      dm_buf_add (out, "\n");
    }
  dm_buf_add (out, command & (DM_CLI_RUN | DM_CLI_SWEEP | DM_CLI_SUSTAINED | DM_CLI_FIRSTWRITE
                                | DM_CLI_STUDY | DM_CLI_CACHE_PROBE)
                     ? _(exit_statuses) : _("Exit status: 0 done, 1 failed, 2 bad usage.\n"));
}
