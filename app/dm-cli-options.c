/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Option parsing for diskmeter-cli. Every value is checked completely here,
 * so a bad option ends with one line saying which and why, before anything
 * touches a disk.
 */
#include "dm-cli-options.h"
#include "dm-cli-options-private.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "dm-backend.h"
#include "dm-i18n.h"
#include "dm-compare.h"
#include "dm-merge.h"
#include "dm-schedule.h"
#include "dm-profile.h"
#include "dm-profile-file.h"
#include "dm-report.h"
#include "dm-units.h"

typedef enum {
  OPT_PROFILE, OPT_NVME, OPT_MIX, OPT_MIX_READ, OPT_MODES, OPT_TESTS, OPT_COUNT, OPT_SIZE,
  OPT_DURATION, OPT_INTERVAL, OPT_WARMUP, OPT_PRECONDITION, OPT_DATA, OPT_BACKEND, OPT_BUFFERED,
  OPT_WRITE_THROUGH, OPT_DESTROY, OPT_FORMAT, OPT_OUTPUT, OPT_COMMENT, OPT_TAG, OPT_QUIET,
  OPT_LIST_TARGETS, OPT_ALL_TARGETS, OPT_HELP, OPT_VERSION, OPT_COMPARE_WITH, OPT_CONCURRENT, OPT_NO_HISTORY,
  OPT_THRESHOLD, OPT_LATENCY, OPT_START_AT, OPT_SAMPLE, OPT_SAMPLES,
  OPT_WORKLOAD, OPT_PROFILE_FILE, OPT_HEADROOM, OPT_HEADROOM_P99,
  /* merge */
  OPT_ALLOW_DUPLICATES, OPT_ALLOW_PROFILES,
  /* compare */
  OPT_UNIT, OPT_SORT,
  /* sweep and sustained */
  OPT_PATTERN, OPT_BLOCK, OPT_MODE, OPT_QD_LIST, OPT_THREADS_LIST, OPT_LATENCY_BOUND, OPT_BLOCKS, OPT_RATES,
  OPT_SWEEP_TESTS,
  OPT_QD, OPT_THREADS, OPT_SPAN, OPT_PROGRESS,
  /* cache-probe */
  OPT_PROBE_MIN, OPT_PROBE_MAX, OPT_TIME_LIMIT,
  /* study */
  OPT_STUDY_RULE, OPT_THRESHOLDS, OPT_REDO,
} opt_id;

#define RUN       DM_CLI_RUN
#define COMPARE   DM_CLI_COMPARE
#define SHOW      DM_CLI_SHOW
#define SWEEP     DM_CLI_SWEEP
#define SUSTAINED DM_CLI_SUSTAINED
#define HISTORY   DM_CLI_HISTORY
#define MERGE     DM_CLI_MERGE
#define STUDY     DM_CLI_STUDY
#define FIRSTWRITE DM_CLI_FIRSTWRITE
#define PROBE     DM_CLI_CACHE_PROBE
#define MEASURE   (RUN | SWEEP | SUSTAINED | FIRSTWRITE | PROBE)
#define CAPTURE   DM_CLI_CAPTURE

/* Every option of every command. An option that means something else in
 * another command (sweep's --qd LIST, sustained's --qd N) or has another
 * default there has a row of its own; no two rows of a command share a
 * name (test-cli-options checks). Rows of a command appear in its --help
 * in this order, under the heading of their group. */
static const dm_opt table[] = {
  /* The plain run's tests. */
  { .name = "profile", .kind = DM_OPT_CHOICE, .choices = "default|peak|realworld|demo|flash",
    .flags = DM_OPT_ALIASES, .commands = RUN, .id = OPT_PROFILE, .group = N_ ("Tests"),
    .help = N_ ("CrystalDiskMark's test set; flash: the Default tests for 1 s each, 30 s apart, "
                "as CrystalDiskMark 9's Flash Memory preset"), .def = "default" },
  { .name = "nvme", .kind = DM_OPT_FLAG, .commands = RUN, .id = OPT_NVME, .group = N_ ("Tests"),
    .help = N_ ("the profile's NVMe SSD preset") },
  { .name = "mix", .kind = DM_OPT_FLAG, .commands = RUN, .id = OPT_MIX, .group = N_ ("Tests"),
    .help = N_ ("add the Mix column (reads and writes together)") },
  { .name = "mix-read", .kind = DM_OPT_UINT, .arg = "PERCENT", .min = 10, .max = 90,
    .commands = RUN, .id = OPT_MIX_READ, .group = N_ ("Tests"),
    .help = N_ ("read share of Mix; implies --mix"), .def = "70" },
  { .name = "modes", .kind = DM_OPT_LIST, .arg = "LIST", .commands = RUN, .id = OPT_MODES,
    .group = N_ ("Tests"), .help = N_ ("columns to run, of read,write,mix"), .def = N_ ("the profile's") },
  { .name = "tests", .kind = DM_OPT_LIST, .arg = "LIST", .commands = RUN, .id = OPT_TESTS,
    .group = N_ ("Tests"),
    .help = N_ ("tests instead of the profile's, e.g. SEQ1M_Q8T1,RND4K_Q32T16 (block 4KiB..8MiB, "
            "Q 1..512, T 1..64)") },
  { .name = "workload", .kind = DM_OPT_STRING, .arg = "KEY=VALUE;...", .flags = DM_OPT_REPEAT,
    .commands = RUN, .id = OPT_WORKLOAD, .group = N_ ("Tests"),
    .help = N_ ("a workload row instead of the profile's tests, e.g. "
            "\"name=OLTP;block=8K;read=70;qd=8\" (keys: name, block, read, random, distribution, "
            "rate, sync, data, compress, dedupe, affinity, qd, threads); repeatable") },
  { .name = "profile-file", .kind = DM_OPT_PATH, .arg = "FILE", .flags = DM_OPT_REPEAT,
    .commands = RUN, .id = OPT_PROFILE_FILE, .group = N_ ("Tests"),
    .help = N_ ("run the workloads of a profile file ([name] sections of key = value lines)") },
  { .name = "headroom", .kind = DM_OPT_FLAG, .commands = RUN, .id = OPT_HEADROOM,
    .group = N_ ("Tests"),
    .help = N_ ("with --profile-file (a capture's): each row at its rate=, then unbounded, then at "
                "shares of that maximum; says how far the disk is from the load") },
  { .name = "headroom-p99", .kind = DM_OPT_STRING, .arg = "DURATION", .commands = RUN,
    .id = OPT_HEADROOM_P99, .group = N_ ("Tests"), .def = N_ ("twice the p99 at the rate"),
    .help = N_ ("with --headroom, the p99 latency the highest rate must stay under (2ms, 500us)") },

  /* A sweep's load. */
  { .name = "pattern", .kind = DM_OPT_CHOICE, .choices = "SEQ|RND", .commands = SWEEP,
    .id = OPT_PATTERN, .group = N_ ("Sweep"), .help = N_ ("sequential or random"), .def = "RND" },
  { .name = "block", .kind = DM_OPT_SIZE, .arg = "SIZE", .min = DM_BLOCK_MIN, .max = DM_BLOCK_MAX,
    .flags = DM_OPT_POW2, .commands = SWEEP, .id = OPT_BLOCK, .group = N_ ("Sweep"),
    .help = N_ ("block size, a power of two"), .def = "4KiB" },
  { .name = "mode", .kind = DM_OPT_CHOICE, .choices = "read|write|mix", .commands = SWEEP,
    .id = OPT_MODE, .group = N_ ("Sweep"), .help = N_ ("what each I/O does"), .def = "read" },
  { .name = "mix", .kind = DM_OPT_FLAG, .commands = SWEEP, .id = OPT_MIX, .group = N_ ("Sweep"),
    .help = N_ ("the same as --mode=mix") },
  { .name = "mix-read", .kind = DM_OPT_UINT, .arg = "PERCENT", .min = 10, .max = 90,
    .commands = SWEEP, .id = OPT_MIX_READ, .group = N_ ("Sweep"),
    .help = N_ ("read share of mix; implies --mode=mix"), .def = "70" },
  { .name = "qd", .kind = DM_OPT_LIST, .arg = "LIST", .min = 1, .max = DM_QUEUE_MAX,
    .commands = SWEEP, .id = OPT_QD_LIST, .group = N_ ("Sweep"),
    .help = N_ ("queue depths per thread"), .def = "1,2,4,8,16,32,64,128,256" },
  { .name = "threads", .kind = DM_OPT_LIST, .arg = "LIST", .min = 1, .max = DM_THREADS_MAX,
    .commands = SWEEP, .id = OPT_THREADS_LIST, .group = N_ ("Sweep"), .help = N_ ("thread counts"),
    .def = "1,2,4,8,16" },
  { .name = "latency-bound", .kind = DM_OPT_STRING, .arg = "DURATION", .commands = SWEEP,
    .id = OPT_LATENCY_BOUND, .group = N_ ("Sweep"),
    .help = N_ ("also name the fastest load (or rate) whose p99 latency stays under DURATION "
            "(2ms, 500us; a bare number is microseconds)") },
  { .name = "blocks", .kind = DM_OPT_LIST, .arg = "LIST", .commands = SWEEP, .id = OPT_BLOCKS,
    .group = N_ ("Sweep"),
    .help = N_ ("sweep block sizes instead, as ATTO Disk Benchmark does, e.g. 4K,8K,...,8M, at "
            "one --qd and --threads (default Q4T1), reads and writes unless --mode") },
  { .name = "rates", .kind = DM_OPT_CHOICE, .choices = "curve", .commands = SWEEP, .id = OPT_RATES,
    .group = N_ ("Sweep"),
    /* xgettext:no-c-format */
    .help = N_ ("curve: the load's maximum, then offered rates at 10, 50, 70, 80, 90 and 100% "
            "of it, as vdbench's iorate=curve; the load is --tests, --workload or --profile-file") },
  { .name = "tests", .kind = DM_OPT_LIST, .arg = "NAME", .commands = SWEEP, .id = OPT_SWEEP_TESTS,
    .group = N_ ("Sweep"), .help = N_ ("--rates curve: one test, e.g. RND4K_Q32T1, in --mode") },
  { .name = "workload", .kind = DM_OPT_STRING, .arg = "KEY=VALUE;...", .commands = SWEEP,
    .id = OPT_WORKLOAD, .group = N_ ("Sweep"),
    .help = N_ ("--rates curve: a workload row without rate=, e.g. \"block=8K;read=70;qd=8\"") },
  { .name = "profile-file", .kind = DM_OPT_PATH, .arg = "FILE", .commands = SWEEP,
    .id = OPT_PROFILE_FILE, .group = N_ ("Sweep"),
    .help = N_ ("--rates curve: a profile file with one workload row") },

  /* A sustained test's load. */
  { .name = "mode", .kind = DM_OPT_CHOICE, .choices = "write|read", .commands = SUSTAINED,
    .id = OPT_MODE, .group = N_ ("Sustained"),
    .help = N_ ("write the span, or fill it and read it back"), .def = "write" },
  { .name = "pattern", .kind = DM_OPT_CHOICE, .choices = "SEQ|RND", .commands = SUSTAINED,
    .id = OPT_PATTERN, .group = N_ ("Sustained"), .help = N_ ("sequential or random"), .def = "SEQ" },
  { .name = "block", .kind = DM_OPT_SIZE, .arg = "SIZE", .min = DM_BLOCK_MIN, .max = DM_BLOCK_MAX,
    .flags = DM_OPT_POW2, .commands = SUSTAINED, .id = OPT_BLOCK, .group = N_ ("Sustained"),
    .help = N_ ("block size, a power of two"), .def = "1MiB" },
  { .name = "qd", .kind = DM_OPT_UINT, .arg = "N", .min = 1, .max = DM_QUEUE_MAX,
    .commands = SUSTAINED, .id = OPT_QD, .group = N_ ("Sustained"), .help = N_ ("queue depth per thread"),
    .def = "8" },
  { .name = "threads", .kind = DM_OPT_UINT, .arg = "N", .min = 1, .max = DM_THREADS_MAX,
    .commands = SUSTAINED, .id = OPT_THREADS, .group = N_ ("Sustained"), .help = N_ ("threads"),
    .def = "1" },
  { .name = "span", .kind = DM_OPT_SIZE, .arg = "SIZE|free", .choices = "free",
    .min = DM_TEST_SIZE_MIN, .max = DM_TEST_SIZE_MAX, .step = DM_BLOCK_MAX_ALIGN,
    .commands = SUSTAINED, .id = OPT_SPAN, .group = N_ ("Sustained"),
    /* xgettext:no-c-format */
    .help = N_ ("test file size, whole MiB; free (the default for write) is all free space but "
            "max(1 GiB, 5% of the filesystem), at most 64GiB; read defaults to 4GiB or less") },
  { .name = "duration", .kind = DM_OPT_SECONDS, .arg = "SEC", .min = 0.1, .max = 3600,
    .commands = SUSTAINED, .id = OPT_DURATION, .group = N_ ("Sustained"),
    .help = N_ ("at most this long"), .def = "60" },
  { .name = "sample", .kind = DM_OPT_SECONDS, .arg = "SEC", .min = DM_SAMPLE_MIN_S,
    .max = DM_SAMPLE_MAX_S, .commands = SUSTAINED, .id = OPT_SAMPLE, .group = N_ ("Sustained"),
    .help = N_ ("the timeline's step"), .def = "0.5" },
  { .name = "progress", .kind = DM_OPT_FLAG, .commands = SUSTAINED, .id = OPT_PROGRESS,
    .group = N_ ("Sustained"), .help = N_ ("print each sample on stderr as it closes (for scripts)") },

  /* The first-write probe's tests. */
  { .name = "tests", .kind = DM_OPT_LIST, .arg = "LIST", .commands = FIRSTWRITE, .id = OPT_TESTS,
    .group = N_ ("First write"), .def = "RND4K_Q32T1,SEQ1M_Q8T1",
    .help = N_ ("tests to run, each over a new test file: its first write, then its rewrite") },
  { .name = "duration", .kind = DM_OPT_SECONDS, .arg = "SEC", .min = 0.1, .max = 3600,
    .commands = FIRSTWRITE, .id = OPT_DURATION, .group = N_ ("First write"),
    .help = N_ ("each pass at most this long; a rewrite repeats the blocks written"), .def = "30" },
  /* A capture: what the disk under TARGET is asked while it runs. */
  { .name = "for", .kind = DM_OPT_SECONDS, .arg = "DURATION", .min = 1, .max = 86400,
    .commands = CAPTURE, .id = OPT_DURATION, .group = N_ ("Capture"),
    .help = N_ ("how long to capture (90, 5m); Ctrl-C ends it sooner with what it has") },
  { .name = "profile-file", .kind = DM_OPT_PATH, .arg = "FILE", .commands = CAPTURE,
    .id = OPT_PROFILE_FILE, .group = N_ ("Capture"),
    .help = N_ ("also write a profile file with the captured shape, for --profile-file") },
  { .name = "format", .kind = DM_OPT_CHOICE, .choices = "text|json|csv", .commands = CAPTURE,
    .id = OPT_FORMAT, .group = N_ ("Capture"), .def = "text",
    .help = N_ ("text: a summary and the histograms; json: all of it, for show; csv: a figure a row") },
  /* The cache probe's ladder. */
  { .name = "mode", .kind = DM_OPT_CHOICE, .choices = "read|write", .commands = PROBE,
    .id = OPT_MODE, .group = N_ ("Cache probe"),
    .help = N_ ("read each working set after writing it whole, or write it again"), .def = "read" },
  { .name = "min", .kind = DM_OPT_SIZE, .arg = "SIZE", .min = DM_TEST_SIZE_MIN,
    .max = DM_TEST_SIZE_MAX, .step = DM_BLOCK_MAX_ALIGN, .commands = PROBE, .id = OPT_PROBE_MIN,
    .group = N_ ("Cache probe"), .help = N_ ("the smallest working set, whole MiB"), .def = "64MiB" },
  { .name = "max", .kind = DM_OPT_SIZE, .arg = "SIZE", .min = DM_TEST_SIZE_MIN,
    .max = DM_TEST_SIZE_MAX, .step = DM_BLOCK_MAX_ALIGN, .commands = PROBE, .id = OPT_PROBE_MAX,
    .group = N_ ("Cache probe"),
    .help = N_ ("the largest working set (the sets double up to it; the free space bounds it)"),
    .def = N_ ("4 x memory") },
  { .name = "time-limit", .kind = DM_OPT_SECONDS, .arg = "DURATION", .min = 1, .max = 86400,
    .commands = PROBE, .id = OPT_TIME_LIMIT, .group = N_ ("Cache probe"),
    .help = N_ ("stop after this long (600, 10m), with the sizes measured by then"),
    .def = "10m" },
  { .name = "duration", .kind = DM_OPT_SECONDS, .arg = "SEC", .min = 0.1, .max = 3600,
    .commands = PROBE, .id = OPT_DURATION, .group = N_ ("Cache probe"),
    .help = N_ ("each test's measured run"), .def = "2" },
  { .name = "warmup", .kind = DM_OPT_SECONDS, .arg = "SEC", .min = 0, .max = 3600,
    .commands = PROBE, .id = OPT_WARMUP, .group = N_ ("Cache probe"),
    .help = N_ ("unscored run before each test"), .def = "0.5" },

  /* Settings of every measuring command. */
  { .name = "count", .kind = DM_OPT_UINT, .arg = "N", .min = DM_COUNT_MIN, .max = DM_COUNT_MAX,
    .commands = RUN, .id = OPT_COUNT, .group = N_ ("Settings"),
    .help = N_ ("measured runs per test; the best one counts"), .def = "5" },
  { .name = "count", .kind = DM_OPT_UINT, .arg = "N", .min = DM_COUNT_MIN, .max = DM_COUNT_MAX,
    .commands = SWEEP, .id = OPT_COUNT, .group = N_ ("Settings"),
    .help = N_ ("measured runs per combination; the best one counts"), .def = "1" },
  { .name = "size", .kind = DM_OPT_SIZE, .arg = "SIZE", .min = DM_TEST_SIZE_MIN,
    .max = DM_TEST_SIZE_MAX, .step = DM_BLOCK_MAX_ALIGN, .commands = RUN | SWEEP | FIRSTWRITE,
    .id = OPT_SIZE,
    .group = N_ ("Settings"), .help = N_ ("test file size, whole MiB"), .def = "1GiB" },
  { .name = "duration", .kind = DM_OPT_SECONDS, .arg = "SEC", .min = 0.1, .max = 3600,
    .commands = RUN, .id = OPT_DURATION, .group = N_ ("Settings"),
    .help = N_ ("length of one measured run"), .def = "5" },
  { .name = "duration", .kind = DM_OPT_SECONDS, .arg = "SEC", .min = 0.1, .max = 3600,
    .commands = SWEEP, .id = OPT_DURATION, .group = N_ ("Settings"),
    .help = N_ ("length of one measured run"), .def = "3" },
  { .name = "interval", .kind = DM_OPT_SECONDS, .arg = "SEC", .min = 0, .max = 3600,
    .commands = RUN, .id = OPT_INTERVAL, .group = N_ ("Settings"), .help = N_ ("pause between tests"),
    .def = "5" },
  { .name = "interval", .kind = DM_OPT_SECONDS, .arg = "SEC", .min = 0, .max = 3600,
    .commands = SWEEP, .id = OPT_INTERVAL, .group = N_ ("Settings"),
    .help = N_ ("pause between combinations"), .def = "0" },
  { .name = "warmup", .kind = DM_OPT_SECONDS, .arg = "SEC|steady[:MARGIN[:LIMIT]]", .min = 0,
    .max = 3600, .choices = "steady", .commands = RUN, .id = OPT_WARMUP, .group = N_ ("Settings"),
    .help = N_ ("unscored run before each test; steady: until the last 5 s of 0.5 s samples lie "
            "within MARGIN percent of their mean (default 10), at most LIMIT seconds (default 60)"),
    .def = "5" },
  { .name = "precondition", .kind = DM_OPT_UINT, .arg = "N", .min = 0, .max = DM_PRECONDITION_MAX,
    .commands = RUN, .id = OPT_PRECONDITION, .group = N_ ("Settings"),
    .help = N_ ("write the whole test file N times, sequentially, before the first test, so that "
            "an SSD or a thin disk is measured in its steady state"), .def = "0" },
  { .name = "warmup", .kind = DM_OPT_SECONDS, .arg = "SEC", .min = 0, .max = 3600,
    .commands = SWEEP, .id = OPT_WARMUP, .group = N_ ("Settings"),
    .help = N_ ("unscored run before each combination"), .def = "2" },
  { .name = "data", .kind = DM_OPT_CHOICE, .choices = "random|zeros", .flags = DM_OPT_ALIASES,
    .commands = MEASURE, .id = OPT_DATA, .group = N_ ("Settings"),
    .help = N_ ("test data; random is incompressible"), .def = "random" },
  { .name = "backend", .kind = DM_OPT_STRING, .arg = "NAME", .commands = MEASURE,
    .id = OPT_BACKEND, .group = N_ ("Settings"),
    .help = N_ ("the I/O backend, one built for this system: io_uring or psync on Linux, iocp on "
            "Windows"), .def = N_ ("the best that works") },
  { .name = "buffered", .kind = DM_OPT_FLAG, .commands = MEASURE, .id = OPT_BUFFERED,
    .group = N_ ("Settings"), .help = N_ ("run without O_DIRECT; results are marked cached") },
  { .name = "write-through", .kind = DM_OPT_FLAG, .commands = MEASURE, .id = OPT_WRITE_THROUGH,
    .group = N_ ("Settings"), .help = N_ ("ask the device not to cache writes (O_DSYNC)") },
  { .name = "destroy-data-on", .kind = DM_OPT_PATH, .arg = "DEVICE",
    .commands = RUN | SWEEP | FIRSTWRITE,
    .id = OPT_DESTROY, .group = N_ ("Settings"),
    .help = N_ ("allow write tests on this block device, the TARGET, destroying its data") },

  /* Where figures go. */
  { .name = "format", .kind = DM_OPT_CHOICE, .choices = "text|json|csv", .commands = RUN,
    .id = OPT_FORMAT, .group = N_ ("Output"), .help = N_ ("text is CrystalDiskMark's layout"),
    .def = "text" },
  { .name = "format", .kind = DM_OPT_CHOICE, .choices = "text|json|csv", .commands = SWEEP,
    .id = OPT_FORMAT, .group = N_ ("Output"),
    .help = N_ ("text: QD x T tables of MB/s, IOPS and p99 latency; json: the full report plus a "
            "\"sweep\" object; csv: one row per combination"), .def = "text" },
  { .name = "format", .kind = DM_OPT_CHOICE, .choices = "text|json|csv", .commands = SUSTAINED,
    .id = OPT_FORMAT, .group = N_ ("Output"),
    .help = N_ ("text: a summary and a chart; json: the report plus a \"sustained\" object; csv: "
            "one row per sample"), .def = "text" },
  { .name = "format", .kind = DM_OPT_CHOICE, .choices = "text|json|csv", .commands = FIRSTWRITE,
    .id = OPT_FORMAT, .group = N_ ("Output"), .def = "text",
    .help = N_ ("json: the report plus a \"first_write\" object; csv: one row per pass") },
  { .name = "format", .kind = DM_OPT_CHOICE, .choices = "text|json|csv", .commands = PROBE,
    .id = OPT_FORMAT, .group = N_ ("Output"),
    .help = N_ ("text: the rates per working set and the steps; json: the report plus a "
            "\"cache_probe\" object; csv: one row per working set and test"), .def = "text" },
  { .name = "format", .kind = DM_OPT_CHOICE, .choices = "text|json|csv", .commands = SHOW,
    .id = OPT_FORMAT, .group = N_ ("Output"), .help = N_ ("as the run was printed"), .def = "text" },
  { .name = "format", .kind = DM_OPT_CHOICE, .choices = "text|csv|json|xlsx",
    .commands = COMPARE | MERGE, .id = OPT_FORMAT, .group = N_ ("Output"),
    .help = N_ ("xlsx, an Excel workbook, needs --output"), .def = "text" },
  { .name = "format", .kind = DM_OPT_CHOICE, .choices = "text|json|csv|xlsx",
    .commands = HISTORY, .id = OPT_FORMAT, .group = N_ ("Output"),
    .help = N_ ("for show and export; xlsx is for export only"), .def = "text" },
  { .name = "output", .kind = DM_OPT_PATH, .arg = "FILE",
    .commands = MEASURE | COMPARE | SHOW | MERGE | CAPTURE, .id = OPT_OUTPUT, .group = N_ ("Output"),
    .help = N_ ("write to FILE instead of stdout: a file is replaced whole, a FIFO or device "
                "written into") },
  { .name = "allow-duplicates", .kind = DM_OPT_FLAG, .commands = MERGE,
    .id = OPT_ALLOW_DUPLICATES, .group = N_ ("Output"),
    .help = N_ ("merge a run given twice (the same file or a copy: the same start, test file "
            "and figures) as two hosts instead of refusing it") },
  { .name = "allow-profiles", .kind = DM_OPT_FLAG, .commands = MERGE | COMPARE,
    .id = OPT_ALLOW_PROFILES, .group = N_ ("Output"),
    .help = N_ ("merge or compare runs of different profiles of workloads (refused otherwise)") },
  { .name = "unit", .kind = DM_OPT_CHOICE, .choices = "MB/s|GB/s|IOPS|us",
    .flags = DM_OPT_ALIASES, .commands = COMPARE, .id = OPT_UNIT, .group = N_ ("Output"),
    .help = N_ ("the figure to compare"), .def = "MB/s" },
  { .name = "sort", .kind = DM_OPT_STRING, .arg = "RUN", .commands = COMPARE, .id = OPT_SORT,
    .group = N_ ("Output"), .help = N_ ("sort rows by run A, B, C... (highest first)") },
  { .name = "threshold", .kind = DM_OPT_STRING, .arg = "RULE", .flags = DM_OPT_REPEAT,
    .commands = RUN, .id = OPT_THRESHOLD, .group = N_ ("Output"),
    .help = N_ ("colour figures green or red, e.g. \"read RND4K_Q32T1 IOPS green>90000 "
            "red<50000\" or \"us red>10000\"") },
  { .name = "threshold", .kind = DM_OPT_STRING, .arg = "RULE", .flags = DM_OPT_REPEAT,
    .commands = COMPARE, .id = OPT_THRESHOLD, .group = N_ ("Output"),
    .help = N_ ("colour cells, e.g. \"read IOPS green>90000 red<50000\""),
    .def = N_ ("the rules saved with the first run") },
  { .name = "comment", .kind = DM_OPT_STRING, .arg = "TEXT", .commands = MEASURE,
    .id = OPT_COMMENT, .group = N_ ("Output"), .help = N_ ("a comment stored with the results") },
  { .name = "tag", .kind = DM_OPT_STRING, .arg = "KEY=VALUE", .flags = DM_OPT_REPEAT,
    .commands = MEASURE, .id = OPT_TAG, .group = N_ ("Output"),
    .help = N_ ("a label kept with the results (key of a-z 0-9 _ . -, value up to 128 bytes); "
            "replaces the fact of that name Diskmeter tags itself, e.g. \"vcpus=48 (HT)\"") },
  { .name = "quiet", .short_name = 'q', .kind = DM_OPT_FLAG, .commands = MEASURE | CAPTURE,
    .id = OPT_QUIET, .group = N_ ("Output"), .help = N_ ("no estimate or progress line") },
  { .name = "no-history", .kind = DM_OPT_FLAG, .commands = RUN, .id = OPT_NO_HISTORY,
    .group = N_ ("Output"), .help = N_ ("do not keep this run in the history (diskmeter-cli history)") },
  { .name = "no-history", .kind = DM_OPT_FLAG, .commands = SWEEP | SUSTAINED | FIRSTWRITE | PROBE,
    .id = OPT_NO_HISTORY, .group = N_ ("Output"),
    .help = N_ ("taken for scripts that give it to every run; this command keeps no history") },
  { .name = "latency", .kind = DM_OPT_FLAG, .commands = RUN | SHOW, .id = OPT_LATENCY,
    .group = N_ ("Output"),
    .help = N_ ("after the text report, each test's latency percentiles and the percent of I/Os "
            "per millisecond (0..23, 24+)") },
  { .name = "sample", .kind = DM_OPT_SECONDS, .arg = "SEC", .min = DM_SAMPLE_MIN_S,
    .max = DM_SAMPLE_MAX_S, .commands = RUN, .id = OPT_SAMPLE, .group = N_ ("Output"),
    .help = N_ ("the timeline's step: figures every SEC seconds of each test (in JSON as "
            "\"samples\")"), .def = "0.5" },
  { .name = "samples", .kind = DM_OPT_FLAG, .commands = RUN | SHOW, .id = OPT_SAMPLES,
    .group = N_ ("Output"), .help = N_ ("with --format=csv, one row per sample instead of per test") },
  { .name = "compare-with", .kind = DM_OPT_PATH, .arg = "TARGET_B", .commands = RUN,
    .id = OPT_COMPARE_WITH, .group = N_ ("Output"),
    .help = N_ ("measure TARGET_B too, test by test in turns with TARGET, and print the comparison "
            "(--format applies to it)") },
  { .name = "concurrent", .kind = DM_OPT_PATH, .arg = "TARGET_B", .flags = DM_OPT_REPEAT,
    .commands = RUN, .id = OPT_CONCURRENT, .group = N_ ("Output"),
    .help = N_ ("measure TARGET_B too, each test on every target at the same moment, and "
            "print each target's figures and their total") },
  { .name = "list-targets", .kind = DM_OPT_FLAG, .commands = RUN, .id = OPT_LIST_TARGETS,
    .group = N_ ("Output"),
    .help = N_ ("list the drives that can be measured (filesystems, then disks and partitions), "
            "then exit; --format=json for JSON") },
  { .name = "all-targets", .kind = DM_OPT_FLAG, .commands = RUN, .id = OPT_ALL_TARGETS,
    .group = N_ ("Output"), .help = N_ ("with --list-targets, memory filesystems (tmpfs) too") },
  { .name = "start-at", .kind = DM_OPT_STRING, .arg = "TIME", .commands = RUN,
    .id = OPT_START_AT, .group = N_ ("Output"),
    .help = N_ ("prepare, then start the first measured run at TIME (2026-11-30T21:00:00Z or +SEC) "
            "and every later test on a fixed schedule from it, for hosts measured together; "
            "TIME is in the future and at most a day ahead, as +SEC is at most 86400") },

  /* A study: its plan says what to measure; these say what to show. */
  { .name = "redo", .kind = DM_OPT_FLAG, .commands = STUDY, .id = OPT_REDO,
    .group = N_ ("Study"),
    .help = N_ ("run: measure the scenarios already finished again too (the sheet keeps the "
                "newer run)") },
  { .name = "tag", .kind = DM_OPT_STRING, .arg = "KEY=VALUE", .flags = DM_OPT_REPEAT,
    .commands = STUDY, .id = OPT_TAG, .group = N_ ("Study"),
    .help = N_ ("run: a tag of every scenario, over the plan's; another tag set makes new rows, "
                "e.g. \"vcpus=48 (HT)\"") },
  { .name = "threshold", .kind = DM_OPT_STRING, .arg = "RULE", .flags = DM_OPT_REPEAT,
    .commands = STUDY, .id = OPT_STUDY_RULE, .group = N_ ("Study"),
    .help = N_ ("show: colour by this rule instead of the saved ones, e.g. \"read RND4K IOPS "
                "green>90000 red<90000\" (a test without _QnTn holds at every Q and T)") },
  { .name = "thresholds", .kind = DM_OPT_PATH, .arg = "FILE", .commands = STUDY,
    .id = OPT_THRESHOLDS, .group = N_ ("Study"),
    .help = N_ ("show: the rules of a file, one a line, instead of the saved ones") },
  { .name = "format", .kind = DM_OPT_CHOICE, .choices = "text|json|csv|xlsx", .commands = STUDY,
    .id = OPT_FORMAT, .group = N_ ("Study"),
    .help = N_ ("show: the sheet as text, JSON, CSV or an Excel workbook (needs --output)"),
    .def = "text" },
  { .name = "output", .kind = DM_OPT_PATH, .arg = "FILE", .commands = STUDY, .id = OPT_OUTPUT,
    .group = N_ ("Study"), .help = N_ ("show: write to FILE instead of stdout") },
  { .name = "quiet", .short_name = 'q', .kind = DM_OPT_FLAG, .commands = STUDY, .id = OPT_QUIET,
    .group = N_ ("Study"), .help = N_ ("run: no estimate or progress lines") },

  { .name = "help", .short_name = 'h', .kind = DM_OPT_FLAG, .commands = DM_CLI_ALL_COMMANDS,
    .id = OPT_HELP, .group = N_ ("Other"), .help = N_ ("print this help and exit") },
  { .name = "version", .kind = DM_OPT_FLAG, .commands = DM_CLI_ALL_COMMANDS, .id = OPT_VERSION,
    .group = N_ ("Other"), .help = N_ ("print the version and exit") },
};

const dm_opt *
dm_cli_option_table (size_t *n)
{
  *n = sizeof table / sizeof table[0];
  return table;
}

static int
set_option (void *user, const dm_opt *opt, const dm_opt_value *v, char *why, size_t ws)
{
  dm_cli_options *o = user;
  dm_settings *s = &o->settings;
  const char *t = v->text;
  bool sweep = o->command == DM_CLI_SWEEP;
  char inner[200];
  int err = 0;

  switch ((opt_id) opt->id)
    {
    case OPT_PROFILE:
      if (!dm_profile_find (t))
        return dm_why (why, ws, _ ("--profile: '%s' is not default, peak, realworld, demo or flash"), t);
      snprintf (o->profile, sizeof o->profile, "%s", dm_profile_find (t)->name);
      break;
    case OPT_NVME: o->nvme = true; break;
    case OPT_MIX:
      o->mix = true;
      if (sweep)
        {
          o->sweep.mode = DM_MODE_MIX;
          o->mode_given = true;
        }
      break;
    case OPT_MIX_READ:
      s->mix_read_percent = v->u;
      o->mix = true;
      break;
    case OPT_MODES: err = dm_modes_parse (t, &o->modes, inner, sizeof inner); break;
    case OPT_TESTS: return dm_cli_parse_tests (t, o, why, ws);
    case OPT_WORKLOAD:
      if (o->n_workloads == DM_CLI_MAX_WORKLOADS)
        return dm_why (why, ws, _ ("--workload: at most %d workloads"), DM_CLI_MAX_WORKLOADS);
      if (dm_workload_parse (t, &o->workloads[o->n_workloads], inner, sizeof inner) < 0)
        return dm_why (why, ws, _ ("--workload: %s"), inner);
      o->n_workloads++;
      break;
    case OPT_PROFILE_FILE:
      /* Read when the run starts (dm_cli_load_profile_files), after every
       * option is known, so that --help never opens a file. */
      if (o->n_profile_files == DM_CLI_MAX_PROFILE_FILES)
        return dm_why (why, ws, _ ("--profile-file: at most %d files"), DM_CLI_MAX_PROFILE_FILES);
      o->profile_files[o->n_profile_files++] = t;
      break;
    case OPT_COUNT: s->count = v->u; o->count_given = true; break;
    case OPT_SIZE: s->test_size = v->size; break;
    case OPT_DURATION: s->measure_s = v->seconds; o->duration_given = true; break;
    case OPT_INTERVAL: s->interval_s = v->seconds; o->interval_given = true; break;
    case OPT_WARMUP:
      o->warmup_given = true;
      if (v->choice >= 0)
        {
          if (dm_steady_parse (t, s, inner, sizeof inner) < 0)
            return dm_why (why, ws, _ ("--%s: %s"), "warmup", inner);
        }
      else
        {
          s->warmup_s = v->seconds;
          s->warmup_steady = false;
        }
      break;
    case OPT_PRECONDITION: s->precondition = v->u; break;
    case OPT_DATA:
      if (dm_data_parse (t, &s->data) < 0)
        return dm_why (why, ws, _ ("--data: '%s' is not random or zeros"), t);
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
            known |= !strcmp (t, list[i]->name);
            snprintf (names + strlen (names), sizeof names - strlen (names), "%s%s",
                      i ? ", " : "", list[i]->name);
          }
        if (!known)
          return dm_why (why, ws, _ ("--backend: '%s' is not a backend here (%s)"), t, names);
        snprintf (s->backend, sizeof s->backend, "%s", t);
        break;
      }
    case OPT_BUFFERED: s->buffered = true; break;
    case OPT_WRITE_THROUGH: s->write_through = true; break;
    case OPT_DESTROY:
      if (strlen (t) >= sizeof s->destroy_device)
        return dm_why (why, ws, _ ("--destroy-data-on: '%s' is not a device path"), t);
      snprintf (s->destroy_device, sizeof s->destroy_device, "%s", t);
      break;
    case OPT_FORMAT:
      /* The row's choices were checked; each command has its own. */
      o->format = !dm_ascii_casecmp (t, "json")   ? DM_FORMAT_JSON
                  : !dm_ascii_casecmp (t, "csv")  ? DM_FORMAT_CSV
                  : !dm_ascii_casecmp (t, "xlsx") ? DM_FORMAT_XLSX
                                                  : DM_FORMAT_TEXT;
      break;
    case OPT_OUTPUT: o->output = t; break;
    case OPT_COMMENT:
      /* Refused rather than cut: the user sees the limit before a run,
       * not a saved run that lost the end of its comment. */
      if (strlen (t) > DM_REPORT_COMMENT_MAX)
        {
          snprintf (inner, sizeof inner, _ ("a comment keeps at most %d bytes; this one has %u"),
                    DM_REPORT_COMMENT_MAX, (unsigned) strlen (t));
          return dm_why (why, ws, "--%s: %s", "comment", inner);
        }
      o->comment = t;
      break;
    case OPT_TAG:
      {
        /* Refused before the run, as a comment too long is: a label the
         * results could not keep would be lost after the measuring. */
        dm_tag tag;
        if (dm_tag_parse (t, &tag, inner, sizeof inner) < 0)
          return dm_why (why, ws, "--%s: %s", "tag", inner);
        if (dm_tags_set (o->tags, &o->n_tags, DM_TAGS_MAX, &tag) < 0)
          {
            snprintf (inner, sizeof inner, "at most %d tags", DM_TAGS_MAX);
            return dm_why (why, ws, "--%s: %s", "tag", inner);
          }
        break;
      }
    case OPT_COMPARE_WITH: o->compare_with = t; break;
    case OPT_CONCURRENT:
      if (o->n_concurrent == DM_CLI_MAX_CONCURRENT)
        {
          /* Not yet in the catalogues: the lead merges them. */
          snprintf (why, ws, "--concurrent: at most %d targets besides TARGET",
                    DM_CLI_MAX_CONCURRENT);
          return -EINVAL;
        }
      o->concurrent[o->n_concurrent++] = t;
      break;
    case OPT_QUIET: o->quiet = true; break;
    case OPT_NO_HISTORY: o->no_history = true; break;
    case OPT_THRESHOLD:
      if (o->n_thresholds == sizeof o->thresholds / sizeof o->thresholds[0])
        return dm_why (why, ws, _ ("--threshold: at most 16 rules"));
      err = dm_threshold_parse (t, &o->thresholds[o->n_thresholds], inner, sizeof inner);
      if (!err)
        o->n_thresholds++;
      break;
    case OPT_LIST_TARGETS: o->list_targets = true; break;
    case OPT_ALL_TARGETS: o->all_targets = true; break;
    case OPT_HELP: o->help = true; break;
    case OPT_VERSION: o->version = true; break;
    case OPT_LATENCY: o->latency = true; break;
    case OPT_SAMPLE: o->sample_s = v->seconds; break;
    case OPT_SAMPLES: o->samples = true; break;
    case OPT_ALLOW_DUPLICATES: o->allow_duplicates = true; break;
    case OPT_ALLOW_PROFILES: o->allow_profiles = true; break;
    case OPT_START_AT:
      {
        /* Checked here against the clock, before anything touches the
         * disk: a TIME already past would be missed only after the test
         * file was filled. "+SEC" is counted from when the run begins. */
        int64_t at;
        err = dm_start_at_parse (t, dm_wall_ms (), &at, inner, sizeof inner);
        o->start_at = t;
      }
      break;
    case OPT_UNIT:
      if (dm_unit_parse (t, &o->unit) < 0)
        return dm_why (why, ws, _ ("--unit: '%s' is not MB/s, GB/s, IOPS or us"), t);
      break;
    case OPT_SORT:
      if (strlen (t) != 1 || (t[0] | 0x20) < 'a' || (t[0] | 0x20) > 'z')
        return dm_why (why, ws, _ ("--sort: '%s' is not a run letter (A, B, C...)"), t);
      o->sort = (t[0] | 0x20) - 'a';
      o->sort_name = t;
      break;
    case OPT_PATTERN:
      *(sweep ? &o->sweep.pattern : &o->sustained.pattern) = v->choice == 0 ? DM_SEQ : DM_RND;
      o->pattern_given = true;
      break;
    case OPT_BLOCK:
      *(sweep ? &o->sweep.block_size : &o->sustained.block_size) = (uint32_t) v->size;
      break;
    case OPT_MODE:
      dm_mode_parse (t, sweep                                  ? &o->sweep.mode
                        : o->command == DM_CLI_CACHE_PROBE ? &o->probe.mode
                                                           : &o->sustained.mode);
      o->mode_given = true;
      break;
    case OPT_QD_LIST:
      o->qd_given = true;
      err = dm_sweep_list_parse (t, (unsigned) opt->min, (unsigned) opt->max,
                                 o->sweep.queue_depths, &o->sweep.n_queue_depths, inner,
                                 sizeof inner);
      break;
    case OPT_THREADS_LIST:
      o->threads_given = true;
      err = dm_sweep_list_parse (t, (unsigned) opt->min, (unsigned) opt->max, o->sweep.threads,
                                 &o->sweep.n_threads, inner, sizeof inner);
      break;
    case OPT_LATENCY_BOUND:
      return dm_sweep_bound_parse (t, &o->sweep.latency_bound_us, why, ws);
    case OPT_HEADROOM: o->headroom = true; break;
    case OPT_HEADROOM_P99: return _dm_cli_parse_headroom_p99 (o, t, why, ws);
    case OPT_BLOCKS:
      o->sweep.kind = DM_SWEEP_BLOCKS;
      return dm_sweep_blocks_parse (t, o->sweep.blocks, &o->sweep.n_blocks, why, ws);
    case OPT_RATES: o->rates_given = true; break;
    case OPT_SWEEP_TESTS:
      err = dm_cli_parse_tests (t, o, why, ws);
      if (!err && o->n_tests != 1)
        return dm_why (why, ws, _ ("--tests: a rate curve is of one test"));
      return err;
    case OPT_QD: o->sustained.queue_depth = v->u; break;
    case OPT_THREADS: o->sustained.threads = v->u; break;
    case OPT_SPAN:
      o->span_given = true;
      o->span_free = v->choice == 0;
      if (!o->span_free)
        o->sustained.span = v->size;
      break;
    case OPT_PROGRESS: o->progress = true; break;
    case OPT_PROBE_MIN: o->probe.min = v->size; break;
    case OPT_PROBE_MAX: o->probe.max = v->size; break;
    case OPT_TIME_LIMIT: o->probe.time_limit_s = v->seconds; break;
    case OPT_STUDY_RULE:
      if (o->n_study_rules == DM_THRESHOLDS_MAX)
        return dm_why (why, ws, _ ("--threshold: at most %d rules"), DM_THRESHOLDS_MAX);
      err = dm_study_rule_parse (t, &o->study_rules[o->n_study_rules], inner, sizeof inner);
      if (!err)
        o->n_study_rules++;
      break;
    case OPT_THRESHOLDS: o->thresholds_file = t; break;
    case OPT_REDO: o->redo = true; break;
    }
  if (err < 0)
    return dm_why (why, ws, _ ("--%s: %s"), opt->name, inner);
  return 0;
}

static int
on_arg (void *user, const char *arg, char *why, size_t ws)
{
  dm_cli_options *o = user;
  if (o->n_args == dm_cli_command_max_args (o->command))
    switch (o->command)
      {
      case DM_CLI_COMPARE:
        return dm_why (why, ws, _ ("at most %d files, got more at '%s'"), DM_COMPARE_MAX, arg);
      case DM_CLI_MERGE: return dm_why (why, ws, _ ("at most %d files"), DM_CLI_MAX_ARGS);
      case DM_CLI_SHOW:
        return dm_why (why, ws, _ ("one file at a time (diskmeter-cli compare shows several)"));
      case DM_CLI_HISTORY:
      case DM_CLI_STUDY: return dm_why (why, ws, _ ("too many arguments"));
      default:
        return dm_why (why, ws, _ ("only one TARGET, got '%s' and '%s'"), o->args[0], arg);
      }
  o->args[o->n_args++] = arg;
  if (o->command & (MEASURE | CAPTURE))
    o->target = arg;
  return 0;
}

static int
check_target (const dm_cli_options *o, char *why, size_t ws)
{
  if (!o->target)
    return dm_why (why, ws, _ ("no TARGET folder or device given"));
  if (!*o->target)
    return dm_why (why, ws, _ ("TARGET is empty"));
  if (o->settings.destroy_device[0] && strcmp (o->settings.destroy_device, o->target) != 0)
    return dm_why (why, ws, _ ("--destroy-data-on %s does not name the TARGET %s"),
                   o->settings.destroy_device, o->target);
  return 0;
}

/* What only the whole command line can tell. */
static int
check_command (dm_cli_options *o, char *why, size_t ws)
{
  int err;
  if (o->help || o->version)
    return 0;
  switch (o->command)
    {
    case DM_CLI_RUN:
      if (o->list_targets)
        return 0;
      /* A profile that times its own tests (Flash Memory), unless the
       * user gave the times or other tests. */
      if (!o->n_tests && !o->n_workloads && !o->n_profile_files)
        {
          const dm_profile *p = dm_profile_find (o->profile);
          if (p && p->measure_s > 0 && !o->duration_given)
            o->settings.measure_s = p->measure_s;
          if (p && p->interval_s > 0 && !o->interval_given)
            o->settings.interval_s = p->interval_s;
        }
      if ((err = check_target (o, why, ws)) < 0)
        return err;
      if ((err = _dm_cli_check_headroom (o, why, ws)) < 0)
        return err;
      if (o->compare_with && !strcmp (o->compare_with, o->target))
        return dm_why (why, ws, _ ("--compare-with names the same target as TARGET"));
      if (o->compare_with && o->settings.destroy_device[0])
        return dm_why (why, ws, _ ("--compare-with and --destroy-data-on do not go together"));
      if (o->compare_with && o->start_at)
        return dm_why (why, ws, _ ("--start-at and --compare-with do not go together"));
      /* --start-at plans each test from a warm-up of known length. */
      if (o->start_at && o->settings.warmup_steady)
        return dm_why (why, ws, _ ("--%s: %s"), "start-at",
                       "does not go with --warmup steady");
      if (o->samples && o->format != DM_FORMAT_CSV)
        return dm_why (why, ws, _ ("--samples goes with --format csv (JSON carries the samples)"));
      if (o->samples && o->compare_with)
        return dm_why (why, ws, _ ("--samples and --compare-with do not go together"));
      if (o->modes && !(o->modes & DM_MODE_BIT (DM_MODE_MIX)) && o->mix)
        o->modes |= DM_MODE_BIT (DM_MODE_MIX);
      /* A workload's read share is part of it: it has no columns. */
      if ((o->n_workloads || o->n_profile_files) && (o->n_tests || o->modes || o->mix))
        return dm_why (why, ws, _ ("--workload and --profile-file run workload rows; --tests, "
                                   "--modes and --mix do not go with them"));
      return 0;
    case DM_CLI_SWEEP:
      if (o->mix && !o->mode_given)
        o->sweep.mode = DM_MODE_MIX; /* --mix-read alone asks for mix, as in a plain run */
      if ((err = _dm_cli_check_sweep (o, why, ws)) < 0)
        return err;
      return check_target (o, why, ws);
    case DM_CLI_FIRSTWRITE:
      if (o->n_tests > DM_FIRSTWRITE_MAX_TESTS)
        return dm_why (why, ws, _ ("--tests: at most %d tests"), DM_FIRSTWRITE_MAX_TESTS);
      for (unsigned i = 0; i < o->n_tests; i++)
        o->firstwrite.tests[i] = o->tests[i];
      if (o->n_tests)
        o->firstwrite.n_tests = o->n_tests;
      o->firstwrite.size = o->settings.test_size;
      o->firstwrite.duration_s = o->settings.measure_s;
      return check_target (o, why, ws);
    case DM_CLI_CAPTURE:
      if (!o->duration_given)
        return dm_why (why, ws, _ ("--for DURATION: how long to capture"));
      if (o->n_profile_files > 1)
        return dm_why (why, ws, _ ("--profile-file: one file"));
      return check_target (o, why, ws);
    case DM_CLI_SUSTAINED:
      o->sustained.duration_s = o->settings.measure_s;
      if (o->sample_s > 0)
        o->sustained.sample_s = o->sample_s;
      return check_target (o, why, ws);
    case DM_CLI_CACHE_PROBE:
      o->probe.measure_s = o->settings.measure_s;
      o->probe.warmup_s = o->settings.warmup_s;
      if (o->settings.buffered)
        return dm_why (why, ws, _ ("--buffered: the cache probe needs O_DIRECT, so that no "
                                   "step is the guest's own page cache"));
      if (o->probe.max && o->probe.max < o->probe.min)
        return dm_why (why, ws, _ ("--max is under --min"));
      return check_target (o, why, ws);
    case DM_CLI_COMPARE:
      if (o->n_args < 2)
        return dm_why (why, ws, _ ("needs at least two result files"));
      if (o->sort >= (int) o->n_args)
        return dm_why (why, ws, _ ("--sort: there is no run %s"), o->sort_name);
      break;
    case DM_CLI_MERGE:
      if (o->n_args < 2)
        return dm_why (why, ws, _ ("merge needs two result files or more"));
      break;
    case DM_CLI_SHOW:
      if (!o->n_args)
        return dm_why (why, ws, _ ("which file?"));
      if (o->latency && o->format != DM_FORMAT_TEXT)
        return dm_why (why, ws, _ ("--latency goes with the text format (JSON and CSV carry it "
                                "already)"));
      if (o->samples && o->format != DM_FORMAT_CSV)
        return dm_why (why, ws, _ ("--samples goes with --format csv (JSON carries the samples)"));
      return 0;
    case DM_CLI_HISTORY:
      {
        static const char *const verbs[] = { "list", "show", "comment", "export", "delete" };
        static const unsigned words[] = { 0, 1, 2, 2, 1 };
        size_t k;
        o->verb = o->n_args ? o->args[0] : "list";
        for (k = 0; k < 5 && strcmp (o->verb, verbs[k]); k++)
          ;
        if (k == 5)
          return dm_why (why, ws, _ ("unknown verb '%s' (list, show, comment, export, delete)"),
                         o->verb);
        if ((o->n_args ? o->n_args - 1 : 0) != words[k])
          return dm_why (why, ws, _ ("wrong number of arguments for %s"), o->verb);
        if (o->format == DM_FORMAT_XLSX && k != 3)
          return dm_why (why, ws, _ ("--format xlsx is for export"));
        if (k == 2 && strlen (o->args[2]) > DM_REPORT_COMMENT_MAX)
          return dm_why (why, ws, _ ("a comment keeps at most %d bytes; this one has %u"),
                         DM_REPORT_COMMENT_MAX, (unsigned) strlen (o->args[2]));
        return 0;
      }
    case DM_CLI_STUDY:
      o->verb = o->n_args ? o->args[0] : "";
      if (!o->n_args)
        return dm_why (why, ws, _ ("run PLAN or show NAME?"));
      if (strcmp (o->verb, "run") && strcmp (o->verb, "show"))
        return dm_why (why, ws, _ ("unknown verb '%s' (run PLAN, show NAME)"), o->verb);
      if (o->n_args != 2)
        return dm_why (why, ws, !strcmp (o->verb, "run") ? _ ("which plan? (study run PLAN)")
                                                         : _ ("which study? (study show NAME)"));
      if (!strcmp (o->verb, "run")
          && (o->output || o->format != DM_FORMAT_TEXT || o->n_study_rules || o->thresholds_file))
        return dm_why (why, ws, _ ("study run takes its output and rules from the plan; "
                                   "--format, --output and --threshold are for study show"));
      if (!strcmp (o->verb, "show") && (o->redo || o->n_tags))
        return dm_why (why, ws, _ ("--redo and --tag are for study run"));
      break;
    }
  if (o->format == DM_FORMAT_XLSX && !o->output)
    return dm_why (why, ws, _ ("--format xlsx writes a file: give it with --output"));
  return 0;
}

static void
init_command (dm_cli_command command, dm_cli_options *o)
{
  dm_settings *s = &o->settings;
  memset (o, 0, sizeof *o);
  o->command = command;
  dm_settings_init (s);
  snprintf (o->profile, sizeof o->profile, "default");
  o->unit = DM_UNIT_MBPS;
  o->sort = -1;
  dm_sweep_plan_init (&o->sweep);
  dm_sustained_plan_init (&o->sustained);
  o->span_free = true;
  if (command == DM_CLI_SWEEP)
    {
      /* Shorter than a plain run's 5 x 5 s: a sweep runs dozens of
       * combinations and wants the shape of the curve. */
      s->count = 1;
      s->measure_s = 3;
      s->warmup_s = 2;
      s->interval_s = 0;
    }
  if (command == DM_CLI_SUSTAINED)
    s->measure_s = o->sustained.duration_s;
  dm_firstwrite_plan_init (&o->firstwrite);
  if (command == DM_CLI_FIRSTWRITE)
    s->measure_s = o->firstwrite.duration_s;
  dm_cache_probe_plan_init (&o->probe);
  if (command == DM_CLI_CACHE_PROBE)
    {
      s->measure_s = o->probe.measure_s;
      s->warmup_s = o->probe.warmup_s;
    }
}

int
dm_cli_parse_command (dm_cli_command command, int argc, char **argv, dm_cli_options *o,
                      char *why, size_t why_size)
{
  const dm_opt_parser p = {
    .table = table, .n_table = sizeof table / sizeof table[0], .command = command,
    .who = dm_cli_command_who (command), .set = set_option, .arg = on_arg, .user = o,
  };
  int err;

  init_command (command, o);
  why[0] = '\0';
  err = dm_opt_parse (&p, argc, argv, why, why_size);
  if (!err)
    err = check_command (o, why, why_size);
  /* Reasons quote what the user typed; a value with a newline or other
   * control character in it must not break the one-line message. */
  for (char *c = why; err < 0 && *c; c++)
    if ((unsigned char) *c < 0x20 || *c == 0x7f)
      *c = '?';
  return err;
}

int
dm_cli_parse (int argc, char **argv, dm_cli_options *o, char *why, size_t why_size)
{
  return dm_cli_parse_command (DM_CLI_RUN, argc, argv, o, why, why_size);
}
