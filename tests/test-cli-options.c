/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * diskmeter-cli's own command line (a run): CrystalDiskMark's defaults
 * when nothing is given, each option in both "--opt value" and
 * "--opt=value" form, flags, tests, modes and each profile's specs, and
 * every bad input refused before anything touches a disk with one line
 * that names the option at fault. Every command through the one option
 * table is tests/test-cli-commands.c's.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "dm-backend.h"
#include "dm-cli-options.h"
#include "dm-profile.h"
#include "dm-test.h"
#include "dm-test-cli.h"

/* Parses a NULL-terminated list of arguments after the program name. */
static int
parse (const char *first, ...)
{
  char *argv[MAX_ARGS];
  int argc = 0;
  va_list ap;

  argv[argc++] = (char *) "diskmeter-cli";
  va_start (ap, first);
  for (const char *a = first; a && argc < MAX_ARGS - 1; a = va_arg (ap, const char *))
    argv[argc++] = (char *) a;
  va_end (ap);
  argv[argc] = NULL;
  spoil_why ();
  return dm_cli_parse (argc, argv, &o, why, sizeof why);
}

#define PARSE(...) parse (__VA_ARGS__, (const char *) NULL)

#define CHECK_OK(...)                                                                      \
  do                                                                                       \
    {                                                                                      \
      int err_ = PARSE (__VA_ARGS__);                                                      \
      if (err_ != 0)                                                                       \
        {                                                                                  \
          fprintf (stderr, "%s:%d: refused (%d): %s\n", __FILE__, __LINE__, err_, why);   \
          dm_test_case_failed = 1;                                                         \
        }                                                                                  \
    }                                                                                      \
  while (0)

/* -EINVAL and one line that names what was wrong. */
#define CHECK_BAD(mention, ...)                                                            \
  do                                                                                       \
    {                                                                                      \
      int err_ = PARSE (__VA_ARGS__);                                                      \
      if (err_ != -EINVAL || !strstr (why, mention) || strchr (why, '\n'))                 \
        {                                                                                  \
          fprintf (stderr, "%s:%d: got %d \"%s\", want -EINVAL naming \"%s\"\n", __FILE__, \
                   __LINE__, err_, why, mention);                                          \
          dm_test_case_failed = 1;                                                         \
        }                                                                                  \
    }                                                                                      \
  while (0)

static void
test_defaults (void)
{
  CHECK_OK ("/mnt/data");
  DM_CHECK_STR (o.target, "/mnt/data");
  DM_CHECK_INT (o.settings.count, ==, 5);
  DM_CHECK_INT (o.settings.test_size, ==, 1ull << 30);
  DM_CHECK (o.settings.measure_s == 5);
  DM_CHECK (o.settings.interval_s == 5);
  DM_CHECK (o.settings.warmup_s == 5);
  DM_CHECK_INT (o.settings.data, ==, DM_DATA_RANDOM);
  DM_CHECK_INT (o.settings.mix_read_percent, ==, 70);
  DM_CHECK_STR (o.profile, "default");
  DM_CHECK (!o.nvme && !o.mix && !o.quiet && !o.help && !o.version && !o.list_targets);
  DM_CHECK (!o.settings.buffered && !o.settings.write_through);
  DM_CHECK_STR (o.settings.backend, "");
  DM_CHECK_STR (o.settings.destroy_device, "");
  DM_CHECK_INT (o.modes, ==, 0);
  DM_CHECK_INT (o.n_tests, ==, 0);
  DM_CHECK_INT (o.format, ==, DM_FORMAT_TEXT);
  DM_CHECK (o.output == NULL && o.comment == NULL);

  /* What the defaults run: CrystalDiskMark's Default, read and write. */
  unsigned n = 0, modes = 0;
  const dm_spec *specs = dm_cli_specs (&o, &n, &modes);
  const dm_profile *def = dm_profile_find ("default");
  DM_CHECK_INT (n, ==, 4);
  DM_CHECK_INT (modes, ==, DM_MODE_BIT (DM_MODE_READ) | DM_MODE_BIT (DM_MODE_WRITE));
  for (unsigned i = 0; i < n && i < 4; i++)
    DM_CHECK (dm_spec_equal (&specs[i], &def->specs[i]));
}

/* Each option with a value, given as "--opt value" and as "--opt=value". */
static void
test_values (void)
{
  for (int form = 0; form < 2; form++)
    {
#define OPT(name, value)                                                                   \
  if (form == 0)                                                                           \
    CHECK_OK ("--" name, value, "/mnt/data");                                              \
  else                                                                                     \
    CHECK_OK ("--" name "=" value, "/mnt/data")

      OPT ("profile", "peak");
      DM_CHECK_STR (o.profile, "peak");
      OPT ("profile", "Real-World");
      DM_CHECK_STR (o.profile, "realworld");
      OPT ("mix-read", "60");
      DM_CHECK_INT (o.settings.mix_read_percent, ==, 60);
      DM_CHECK (o.mix);
      OPT ("modes", "read,mix");
      DM_CHECK_INT (o.modes, ==, DM_MODE_BIT (DM_MODE_READ) | DM_MODE_BIT (DM_MODE_MIX));
      OPT ("tests", "SEQ1M_Q8T1,rnd4k_q32t16");
      DM_CHECK_INT (o.n_tests, ==, 2);
      OPT ("count", "3");
      DM_CHECK_INT (o.settings.count, ==, 3);
      OPT ("count", "9");
      DM_CHECK_INT (o.settings.count, ==, 9);
      OPT ("count", "1");
      DM_CHECK_INT (o.settings.count, ==, 1);
      OPT ("size", "4GiB");
      DM_CHECK_INT (o.settings.test_size, ==, 4ull << 30);
      OPT ("size", "16MiB");
      DM_CHECK_INT (o.settings.test_size, ==, 16ull << 20);
      OPT ("size", "64G");
      DM_CHECK_INT (o.settings.test_size, ==, 64ull << 30);
      OPT ("size", "1.5GiB");
      DM_CHECK_INT (o.settings.test_size, ==, 1536ull << 20);
      OPT ("duration", "2.5");
      DM_CHECK (o.settings.measure_s == 2.5);
      OPT ("duration", "500ms");
      DM_CHECK (o.settings.measure_s == 0.5);
      OPT ("interval", "0");
      DM_CHECK (o.settings.interval_s == 0);
      OPT ("interval", "1m");
      DM_CHECK (o.settings.interval_s == 60);
      OPT ("warmup", "1s");
      DM_CHECK (o.settings.warmup_s == 1);
      OPT ("data", "zeros");
      DM_CHECK_INT (o.settings.data, ==, DM_DATA_ZEROS);
      OPT ("data", "random");
      DM_CHECK_INT (o.settings.data, ==, DM_DATA_RANDOM);
      /* A backend this OS has (psync on Linux, iocp on Windows). */
      unsigned n_backends;
      const char *last = dm_backends (&n_backends)[n_backends - 1]->name;
      char joined[64];
      snprintf (joined, sizeof joined, "--backend=%s", last);
      if (form == 0)
        CHECK_OK ("--backend", last, "/mnt/data");
      else
        CHECK_OK (joined, "/mnt/data");
      DM_CHECK_STR (o.settings.backend, last);
      OPT ("format", "json");
      DM_CHECK_INT (o.format, ==, DM_FORMAT_JSON);
      OPT ("format", "csv");
      DM_CHECK_INT (o.format, ==, DM_FORMAT_CSV);
      OPT ("format", "text");
      DM_CHECK_INT (o.format, ==, DM_FORMAT_TEXT);
      OPT ("output", "report.json");
      DM_CHECK_STR (o.output, "report.json");
      OPT ("comment", "Samsung 980, \"slot 2\"");
      DM_CHECK_STR (o.comment, "Samsung 980, \"slot 2\"");
      OPT ("comment", "a=b");
      DM_CHECK_STR (o.comment, "a=b");
#undef OPT
      /* The target is the option's business only when it names it. */
      if (form == 0)
        CHECK_OK ("--destroy-data-on", "/dev/sdz", "/dev/sdz");
      else
        CHECK_OK ("/dev/sdz", "--destroy-data-on=/dev/sdz");
      DM_CHECK_STR (o.settings.destroy_device, "/dev/sdz");
      DM_CHECK_STR (o.target, "/dev/sdz");
    }

  /* A comment that looks like an option is still the comment. */
  CHECK_OK ("--comment", "--count", "/mnt/data");
  DM_CHECK_STR (o.comment, "--count");
  DM_CHECK_INT (o.settings.count, ==, 5);
}

static void
test_flags (void)
{
  CHECK_OK ("--nvme", "--mix", "--buffered", "--write-through", "--quiet", "/mnt/data");
  DM_CHECK (o.nvme && o.mix && o.settings.buffered && o.settings.write_through && o.quiet);
  CHECK_OK ("-q", "/mnt/data");
  DM_CHECK (o.quiet);

  /* These need no target. */
  CHECK_OK ("--help");
  DM_CHECK (o.help);
  CHECK_OK ("-h");
  DM_CHECK (o.help);
  CHECK_OK ("--version");
  DM_CHECK (o.version);
  CHECK_OK ("--list-targets");
  DM_CHECK (o.list_targets);

  /* After "--" everything is the target, even a leading dash. */
  CHECK_OK ("--", "-odd folder");
  DM_CHECK_STR (o.target, "-odd folder");
  CHECK_OK ("--quiet", "--", "--nvme");
  DM_CHECK_STR (o.target, "--nvme");
  DM_CHECK (!o.nvme);

  /* The last value given wins, as in most tools. */
  CHECK_OK ("--count", "2", "--count", "7", "/mnt/data");
  DM_CHECK_INT (o.settings.count, ==, 7);
}

static void
test_tests (void)
{
  static const char *const want[] = { "SEQ1M_Q8T1", "SEQ128K_Q32T1", "RND4K_Q32T16", "RND4K_Q1T1" };
  CHECK_OK ("--tests", "SEQ1M_Q8T1,seq128k_q32t1,RND4K_Q32T16,rnd4kib_q1t1", "/mnt/data");
  DM_CHECK_INT (o.n_tests, ==, 4);
  for (unsigned i = 0; i < o.n_tests && i < 4; i++)
    {
      char name[32];
      dm_spec_name (&o.tests[i], name, sizeof name);
      DM_CHECK_STR (name, want[i]);
    }
  /* --tests replaces the profile's list, in the order given. */
  unsigned n = 0, modes = 0;
  const dm_spec *specs = dm_cli_specs (&o, &n, &modes);
  DM_CHECK_INT (n, ==, 4);
  DM_CHECK (specs == o.tests);

  CHECK_OK ("--tests", "SEQ8M_Q512T64", "/mnt/data");
  DM_CHECK_INT (o.n_tests, ==, 1);
  DM_CHECK_INT (o.tests[0].block_size, ==, 8u << 20);
  DM_CHECK_INT (o.tests[0].queue_depth, ==, 512);
  DM_CHECK_INT (o.tests[0].threads, ==, 64);
}

static void
test_modes (void)
{
  unsigned n = 0, modes = 0;
  const unsigned R = DM_MODE_BIT (DM_MODE_READ), W = DM_MODE_BIT (DM_MODE_WRITE);
  const unsigned M = DM_MODE_BIT (DM_MODE_MIX);

  CHECK_OK ("--modes", "write", "/mnt/data");
  dm_cli_specs (&o, &n, &modes);
  DM_CHECK_INT (modes, ==, W);
  CHECK_OK ("--modes", "read,write,mix", "/mnt/data");
  dm_cli_specs (&o, &n, &modes);
  DM_CHECK_INT (modes, ==, R | W | M);
  CHECK_OK ("--mix", "/mnt/data");
  dm_cli_specs (&o, &n, &modes);
  DM_CHECK_INT (modes, ==, R | W | M);
  /* A Mix share means the user wants the Mix column. */
  CHECK_OK ("--mix-read", "80", "/mnt/data");
  dm_cli_specs (&o, &n, &modes);
  DM_CHECK_INT (modes, ==, R | W | M);
  DM_CHECK_INT (o.settings.mix_read_percent, ==, 80);
  CHECK_OK ("--modes", "read", "--mix-read", "30", "/mnt/data");
  dm_cli_specs (&o, &n, &modes);
  DM_CHECK_INT (modes, ==, R | M);
  CHECK_OK ("--mix", "--modes", "write", "/mnt/data");
  dm_cli_specs (&o, &n, &modes);
  DM_CHECK_INT (modes, ==, W | M);
}

static void
check_profile_specs (const char *profile, bool nvme, const char *const *want, unsigned n_want)
{
  unsigned n = 0, modes = 0;
  if (nvme)
    CHECK_OK ("--profile", profile, "--nvme", "/mnt/data");
  else
    CHECK_OK ("--profile", profile, "/mnt/data");
  const dm_spec *specs = dm_cli_specs (&o, &n, &modes);
  DM_CHECK_INT (n, ==, n_want);
  DM_CHECK_INT (modes, ==, DM_MODE_BIT (DM_MODE_READ) | DM_MODE_BIT (DM_MODE_WRITE));
  for (unsigned i = 0; i < n && i < n_want; i++)
    {
      char name[32];
      dm_spec_name (&specs[i], name, sizeof name);
      DM_CHECK_STR (name, want[i]);
    }
}

static void
test_specs (void)
{
  static const char *const def[] = { "SEQ1M_Q8T1", "SEQ1M_Q1T1", "RND4K_Q32T1", "RND4K_Q1T1" };
  static const char *const def_nvme[] = { "SEQ1M_Q8T1", "SEQ128K_Q32T1", "RND4K_Q32T16",
                                          "RND4K_Q1T1" };
  static const char *const peak[] = { "SEQ1M_Q8T1", "RND4K_Q32T1" };
  static const char *const peak_nvme[] = { "SEQ1M_Q8T1", "RND4K_Q32T16" };
  static const char *const real[] = { "SEQ1M_Q1T1", "RND4K_Q1T1" };
  static const char *const demo[] = { "SEQ1M_Q8T1" };

  check_profile_specs ("default", false, def, 4);
  check_profile_specs ("default", true, def_nvme, 4);
  check_profile_specs ("peak", false, peak, 2);
  check_profile_specs ("peak", true, peak_nvme, 2);
  check_profile_specs ("realworld", false, real, 2);
  check_profile_specs ("realworld", true, real, 2);
  check_profile_specs ("demo", false, demo, 1);

  /* Flash Memory: the Default tests, 1 s each and 30 s apart, unless the
   * user times them. */
  check_profile_specs ("flash", false, def, 4);
  CHECK_OK ("--profile", "flash", "/mnt/data");
  DM_CHECK (o.settings.measure_s == 1.0 && o.settings.interval_s == 30.0);
  CHECK_OK ("--profile", "flash", "--duration", "3", "/mnt/data");
  DM_CHECK (o.settings.measure_s == 3.0 && o.settings.interval_s == 30.0);
  CHECK_OK ("--interval", "0", "--profile", "flash", "/mnt/data");
  DM_CHECK (o.settings.measure_s == 1.0 && o.settings.interval_s == 0.0);
  CHECK_OK ("--profile", "default", "/mnt/data");
  DM_CHECK (o.settings.measure_s == 5.0 && o.settings.interval_s == 5.0);

  /* --tests wins over the profile and its NVMe preset. */
  unsigned n = 0, modes = 0;
  CHECK_OK ("--profile", "peak", "--nvme", "--tests", "RND4K_Q1T1", "/mnt/data");
  const dm_spec *specs = dm_cli_specs (&o, &n, &modes);
  DM_CHECK_INT (n, ==, 1);
  DM_CHECK (specs[0].pattern == DM_RND && specs[0].queue_depth == 1);
}

static void
test_bad (void)
{
  CHECK_BAD ("--frobnicate", "--frobnicate", "/mnt/data");
  CHECK_BAD ("--frobnicate", "--frobnicate=1", "/mnt/data");
  CHECK_BAD ("-x", "-x", "/mnt/data");
  CHECK_BAD ("--counts", "--counts", "3", "/mnt/data");
  CHECK_BAD ("--coun", "--coun", "3", "/mnt/data");
  CHECK_BAD ("did you mean --count?", "--coutn", "3", "/mnt/data");

  /* A value missing at the end of the line. */
  CHECK_BAD ("--count", "/mnt/data", "--count");
  CHECK_BAD ("--size", "/mnt/data", "--size");
  CHECK_BAD ("--tests", "/mnt/data", "--tests");
  /* A flag given a value. */
  CHECK_BAD ("--nvme", "--nvme=yes", "/mnt/data");
  CHECK_BAD ("--quiet", "--quiet=1", "/mnt/data");

  CHECK_BAD ("--count", "--count", "0", "/mnt/data");
  CHECK_BAD ("--count", "--count", "10", "/mnt/data");
  CHECK_BAD ("--count", "--count", "abc", "/mnt/data");
  CHECK_BAD ("--count", "--count=", "/mnt/data");
  CHECK_BAD ("--count", "--count", "-1", "/mnt/data");
  CHECK_BAD ("--count", "--count", "4294967301", "/mnt/data");

  CHECK_BAD ("--size", "--size", "1KiB", "/mnt/data");
  CHECK_BAD ("--size", "--size", "15MiB", "/mnt/data");
  CHECK_BAD ("--size", "--size", "128GiB", "/mnt/data");
  CHECK_BAD ("--size", "--size", "1.5MiB", "/mnt/data");
  CHECK_BAD ("--size", "--size", "1000000000", "/mnt/data");
  CHECK_BAD ("--size", "--size", "lots", "/mnt/data");
  CHECK_BAD ("--size", "--size=", "/mnt/data");

  CHECK_BAD ("--duration", "--duration", "0", "/mnt/data");
  CHECK_BAD ("--duration", "--duration", "-1", "/mnt/data");
  CHECK_BAD ("--duration", "--duration", "x", "/mnt/data");
  CHECK_BAD ("--duration", "--duration", "2h", "/mnt/data");
  CHECK_BAD ("--duration", "--duration", "3601", "/mnt/data");
  CHECK_BAD ("--interval", "--interval", "-1", "/mnt/data");
  CHECK_BAD ("--interval", "--interval", "3601", "/mnt/data");
  CHECK_BAD ("--warmup", "--warmup", "x", "/mnt/data");
  CHECK_BAD ("--warmup", "--warmup", "2h", "/mnt/data");

  CHECK_BAD ("--profile", "--profile", "nope", "/mnt/data");
  CHECK_BAD ("--profile", "--profile=", "/mnt/data");
  CHECK_BAD ("--format", "--format", "xml", "/mnt/data");
  CHECK_BAD ("--data", "--data", "ones", "/mnt/data");
  CHECK_BAD ("--mix-read", "--mix-read", "5", "/mnt/data");
  CHECK_BAD ("--mix-read", "--mix-read", "95", "/mnt/data");
  CHECK_BAD ("--mix-read", "--mix-read", "70%", "/mnt/data");
  CHECK_BAD ("--modes", "--modes", "read,erase", "/mnt/data");
  CHECK_BAD ("--modes", "--modes", "", "/mnt/data");
  CHECK_BAD ("--backend", "--backend", "", "/mnt/data");
  CHECK_BAD ("--backend", "--backend", "carrier-pigeon", "/mnt/data");
  CHECK_BAD ("--output", "--output", "", "/mnt/data");

  CHECK_BAD ("--tests", "--tests", "BAD", "/mnt/data");
  CHECK_BAD ("--tests", "--tests", "SEQ1M_Q8T1,SEQ3K_Q1T1", "/mnt/data");
  CHECK_BAD ("--tests", "--tests", "SEQ1M_Q8T1,,RND4K_Q1T1", "/mnt/data");
  CHECK_BAD ("--tests", "--tests", "RND4K_Q1T65", "/mnt/data");
  CHECK_BAD ("--tests", "--tests=", "/mnt/data");

  CHECK_BAD ("TARGET", "/mnt/a", "/mnt/b");
  CHECK_BAD ("TARGET", "--quiet");
  CHECK_BAD ("TARGET", "--count", "3");
  CHECK_BAD ("TARGET", "");
  CHECK_BAD ("--destroy-data-on", "--destroy-data-on", "/dev/sdb", "/dev/sdc");
  CHECK_BAD ("--destroy-data-on", "/dev/sdc", "--destroy-data-on=/dev/sdb");
  CHECK_BAD ("--destroy-data-on", "--destroy-data-on", "/dev/sdb", "/dev/sdb1");
  CHECK_BAD ("--destroy-data-on", "--destroy-data-on", "", "/dev/sdb");
}

int
main (void)
{
  DM_RUN ("/app/cli-options/defaults", test_defaults);
  DM_RUN ("/app/cli-options/values", test_values);
  DM_RUN ("/app/cli-options/flags", test_flags);
  DM_RUN ("/app/cli-options/tests", test_tests);
  DM_RUN ("/app/cli-options/modes", test_modes);
  DM_RUN ("/app/cli-options/specs", test_specs);
  DM_RUN ("/app/cli-options/bad", test_bad);
  return dm_test_done ();
}
