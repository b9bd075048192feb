/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The Windows platform layer against the real Win32 API (on Windows or under
 * Wine): the test file is created new, filled, moved through the IOCP
 * backend at queue depth 8 from two threads at once, reads back what was
 * written, and is gone after close; the volume's counters see the writes
 * (Wine keeps none and must say so). `--hold DIR` keeps a test file open
 * until interrupted, for the kill and Ctrl-C tests in windows-cli.sh.
 */
#include "dm-win-private.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#include "dm-backend.h"

#define DEPTH      8
#define BLOCK      (64u * 1024)
#define FILE_SIZE  (8ull << 20)
#define BLOCKS     (FILE_SIZE / BLOCK)

static int failures;

#define CHECK(cond, ...)                                                   \
  do                                                                       \
    {                                                                      \
      if (!(cond))                                                         \
        {                                                                  \
          printf ("  FAIL %s:%d: %s: ", __FILE__, __LINE__, #cond);        \
          printf (__VA_ARGS__);                                            \
          printf ("\n");                                                   \
          failures++;                                                      \
        }                                                                  \
    }                                                                      \
  while (0)

static bool
exists_utf8 (const char *path)
{
  int err = 0;
  wchar_t *w = _dm_utf8_to_wide (path, &err);
  bool ret = w != NULL && GetFileAttributesW (w) != INVALID_FILE_ATTRIBUTES;

  free (w);
  return ret;
}

static void
count_stale (const char *path, uint64_t size, void *user)
{
  (*(unsigned *) user)++;
}

/* Block b of the file holds this word everywhere, so a read that lands at
 * the wrong offset or returns stale data is caught. */
static uint32_t
block_word (unsigned b, unsigned pass)
{
  return 0x9e3779b9u * (b + 1) ^ (pass << 24);
}

static const dm_backend *
iocp_backend (void)
{
  unsigned n = 0;
  const dm_backend *const *list = dm_backends (&n);

  for (unsigned i = 0; i < n; i++)
    if (strcmp (list[i]->name, "iocp") == 0)
      return list[i];
  return NULL;
}

typedef struct {
  dm_file  *file;
  unsigned  first, last; /* blocks [first, last) of the file */
  bool      write;
  unsigned  pass;
  int       error;       /* first failure */
  unsigned  completed;
  unsigned  max_in_flight;
} worker_job;

/* Keeps DEPTH I/Os in flight over a range of blocks, the way the runner's
 * workers do, and checks every completion. */
static void *
worker (void *data)
{
  worker_job *job = data;
  const dm_backend *be = iocp_backend ();
  dm_queue_params params = { job->file, DEPTH, NULL, BLOCK };
  dm_io *ios[DEPTH], *done[DEPTH];
  dm_queue *q = NULL;
  unsigned next = job->first, in_flight = 0;
  int ret;

  params.buf_base = dm_alloc_io ((size_t) DEPTH * BLOCK);
  if (params.buf_base == NULL)
    {
      job->error = -ENOMEM;
      return NULL;
    }
  ret = be->open (&params, &q, ios);
  if (ret < 0)
    {
      job->error = ret;
      goto out;
    }

  for (unsigned i = 0; i < DEPTH && next < job->last; i++, next++)
    {
      dm_io *io = ios[i];
      io->offset = (uint64_t) next * BLOCK;
      io->len = BLOCK;
      io->write = job->write;
      io->t_submit = dm_clock_ns ();
      if (job->write)
        for (unsigned w = 0; w < BLOCK / 4; w++)
          ((uint32_t *) io->buf)[w] = block_word (next, job->pass);
      ret = be->prep (q, io);
      if (ret < 0)
        {
          job->error = ret;
          goto out;
        }
      in_flight++;
    }
  if (in_flight > job->max_in_flight)
    job->max_in_flight = in_flight;

  while (in_flight > 0)
    {
      int n = be->reap (q, done, DEPTH, 50000000);

      if (n < 0)
        {
          job->error = n;
          break;
        }
      for (int i = 0; i < n; i++)
        {
          dm_io *io = done[i];
          unsigned b = (unsigned) (io->offset / BLOCK);

          in_flight--;
          job->completed++;
          if (io->res != (int32_t) io->len && job->error == 0)
            job->error = io->res < 0 ? io->res : DM_E_SHORT;
          if (!io->write && io->res == (int32_t) io->len)
            for (unsigned w = 0; w < BLOCK / 4; w++)
              if (((uint32_t *) io->buf)[w] != block_word (b, job->pass))
                {
                  if (job->error == 0)
                    job->error = -EIO;
                  break;
                }
          if (next < job->last)
            {
              io->offset = (uint64_t) next * BLOCK;
              if (job->write)
                for (unsigned w = 0; w < BLOCK / 4; w++)
                  ((uint32_t *) io->buf)[w] = block_word (next, job->pass);
              next++;
              if (be->prep (q, io) == 0)
                in_flight++;
            }
        }
    }

out:
  if (q != NULL)
    be->close (q);
  dm_free_io (params.buf_base, (size_t) DEPTH * BLOCK);
  return NULL;
}

static void
test_clock (void)
{
  uint64_t a, b;

  printf ("/platform/windows/clock\n");
  a = dm_clock_ns ();
  dm_sleep_ns (20000000);
  b = dm_clock_ns ();
  CHECK (b > a && b - a >= 15000000 && b - a < 2000000000ull, "slept %llu ns",
         (unsigned long long) (b - a));
  /* Workers wait for the start signal in 100 us naps; a 15.6 ms system
   * tick there would be counted as run time. */
  a = dm_clock_ns ();
  dm_sleep_ns (100000);
  b = dm_clock_ns ();
  CHECK (b - a >= 100000 && b - a < 5000000, "a 100 us nap took %llu ns",
         (unsigned long long) (b - a));
  CHECK (dm_wall_time () > 1700000000, "wall time %lld", (long long) dm_wall_time ());
}

static void
test_system (void)
{
  dm_system_info info;
  dm_target_info *list = NULL;
  unsigned n = 0;
  bool have_c = false;
  int ret;

  printf ("/platform/windows/system-info\n");
  CHECK (dm_system_info_get (&info) == 0, "system info");
  printf ("  os: %s\n  kernel: %s\n  cpu: %s, %u logical, %llu MiB\n", info.os, info.kernel,
          info.cpu_model, info.logical_cpus, (unsigned long long) (info.memory_bytes >> 20));
  CHECK (strncmp (info.os, "Windows", 7) == 0 || strstr (info.os, "Windows") != NULL,
         "os %s", info.os);
  CHECK (strstr (info.os, "Build ") != NULL, "os %s has no build", info.os);
  CHECK (info.logical_cpus >= 1, "%u cpus", info.logical_cpus);
  CHECK (info.memory_bytes >= (64ull << 20), "%llu bytes", (unsigned long long) info.memory_bytes);
  CHECK (info.cpu_model[0] != '\0', "cpu model");

  printf ("/platform/windows/target-list\n");
  ret = dm_target_list (&list, &n);
  CHECK (ret == 0 && n >= 1, "ret %d, %u drives", ret, n);
  for (unsigned i = 0; i < n; i++)
    {
      printf ("  %s %s %s %llu/%llu MiB free, %u B sectors, [%s] [%s] [%s]\n",
              list[i].path, list[i].mount_point, list[i].filesystem,
              (unsigned long long) (list[i].free_bytes >> 20),
              (unsigned long long) (list[i].size_bytes >> 20), list[i].sector_size,
              list[i].device, list[i].model, list[i].driver);
      if (strcmp (list[i].path, "C:") == 0)
        have_c = true;
      CHECK (list[i].sector_size >= 512 && (list[i].sector_size & (list[i].sector_size - 1)) == 0,
             "%s sector size %u", list[i].path, list[i].sector_size);
    }
  CHECK (have_c, "drive C: is listed");
  dm_target_list_free (list);
}

/* The machine's facts as Windows (or Wine) gives them: the topology adds
 * up to the vCPUs, and a miniport's registry settings are read as the
 * registry holds them. Under Wine the test writes pvscsi's and LSI_SAS's
 * DriverParameter into its own prefix (build-aux/test-windows keeps it in
 * the build folder) and removes them after; on Windows it writes nothing
 * and reads what a pvscsi already there has. */
static bool
wine_registry (void)
{
  HMODULE ntdll = GetModuleHandleW (L"ntdll.dll");
  return ntdll != NULL && GetProcAddress (ntdll, "wine_get_version") != NULL;
}

/* Creates Services\NAME\Parameters\Device with its DriverParameter; false
 * (nothing written) where Services\NAME is there already. */
static bool
plant_miniport (const wchar_t *name, const wchar_t *params)
{
  wchar_t key[160];
  HKEY h;
  LSTATUS st;

  swprintf (key, 160, L"SYSTEM\\CurrentControlSet\\Services\\%ls", name);
  if (RegOpenKeyExW (HKEY_LOCAL_MACHINE, key, 0, KEY_READ, &h) == ERROR_SUCCESS)
    {
      RegCloseKey (h);
      return false;
    }
  wcscat (key, L"\\Parameters\\Device");
  if (RegCreateKeyExW (HKEY_LOCAL_MACHINE, key, 0, NULL, 0, KEY_WRITE, NULL, &h, NULL) != ERROR_SUCCESS)
    return false;
  st = params ? RegSetValueExW (h, L"DriverParameter", 0, REG_SZ, (const BYTE *) params,
                                (DWORD) ((wcslen (params) + 1) * sizeof *params))
              : ERROR_SUCCESS;
  RegCloseKey (h);
  return st == ERROR_SUCCESS;
}

static void
remove_miniport (const wchar_t *name)
{
  wchar_t key[160];
  swprintf (key, 160, L"SYSTEM\\CurrentControlSet\\Services\\%ls", name);
  RegDeleteTreeW (HKEY_LOCAL_MACHINE, key);
  RegDeleteKeyW (HKEY_LOCAL_MACHINE, key);
}

static void
test_facts (void)
{
  dm_system_info info;
  dm_target_info t;

  printf ("/platform/windows/machine-facts\n");
  CHECK (dm_system_info_get (&info) == 0, "system info");
  printf ("  hypervisor %s, machine '%s', %u sockets x %u cores x %u threads, %u NUMA nodes\n",
          info.hypervisor, info.machine, info.sockets, info.cores_per_socket,
          info.threads_per_core, info.numa_nodes);
  CHECK (info.sockets >= 1 && info.cores_per_socket >= 1 && info.threads_per_core >= 1,
         "topology %u x %u x %u", info.sockets, info.cores_per_socket, info.threads_per_core);
  CHECK (info.sockets * info.cores_per_socket * info.threads_per_core == info.logical_cpus,
         "%u x %u x %u is not the %u logical CPUs", info.sockets, info.cores_per_socket,
         info.threads_per_core, info.logical_cpus);
  CHECK (info.numa_nodes >= 1 && info.numa_nodes <= info.logical_cpus, "%u NUMA nodes",
         info.numa_nodes);
  CHECK (info.hypervisor[0] != '\0', "no hypervisor, not even none");

  printf ("/platform/windows/miniport-facts\n");
  if (!wine_registry ())
    {
      /* Windows: only what is there, and nothing invented where unset. */
      memset (&t, 0, sizeof t);
      CHECK (_dm_win_miniport_facts ("pvscsi", &t) == 0, "pvscsi");
      printf ("  pvscsi's DriverParameter here: '%s', queue depth %u\n", t.driver_params,
              t.queue_depth);
      CHECK (t.driver_params[0] || t.queue_depth == 0, "queue depth %u with no DriverParameter",
             t.queue_depth);
      return;
    }
  bool pv = plant_miniport (L"pvscsi", L"RequestRingPages=32,MaxQueueDepth=254");
  bool lsi = plant_miniport (L"LSI_SAS", L"MaxQueueDepth=99");
  bool nvme = plant_miniport (L"stornvme", NULL);
  CHECK (pv && lsi && nvme, "the test's keys could not be written (%d %d %d)", pv, lsi, nvme);
  memset (&t, 0, sizeof t);
  CHECK (_dm_win_miniport_facts ("pvscsi", &t) == 0, "pvscsi");
  CHECK (strcmp (t.controller, "VMware PVSCSI") == 0, "controller %s", t.controller);
  CHECK (strcmp (t.driver_params, "RequestRingPages=32,MaxQueueDepth=254") == 0,
         "DriverParameter '%s'", t.driver_params);
  CHECK (t.queue_depth == 254, "queue depth %u, MaxQueueDepth=254 in the registry", t.queue_depth);
  /* MaxQueueDepth is pvscsi's word; in another driver's settings it is
   * not known to mean the same, so no depth is claimed. */
  memset (&t, 0, sizeof t);
  CHECK (_dm_win_miniport_facts ("LSI_SAS", &t) == 0, "LSI_SAS");
  CHECK (strcmp (t.controller, "LSI Logic SAS") == 0, "controller %s", t.controller);
  CHECK (strcmp (t.driver_params, "MaxQueueDepth=99") == 0, "DriverParameter '%s'", t.driver_params);
  CHECK (t.queue_depth == 0, "queue depth %u claimed for LSI_SAS", t.queue_depth);
  /* No DriverParameter: the driver's defaults, which Windows does not tell. */
  memset (&t, 0, sizeof t);
  CHECK (_dm_win_miniport_facts ("stornvme", &t) == 0, "stornvme");
  CHECK (strcmp (t.controller, "NVMe") == 0 && !t.driver_params[0] && t.queue_depth == 0,
         "stornvme: '%s' '%s' %u", t.controller, t.driver_params, t.queue_depth);
  if (pv)
    remove_miniport (L"pvscsi");
  if (lsi)
    remove_miniport (L"LSI_SAS");
  if (nvme)
    remove_miniport (L"stornvme");
  /* With the key gone, DriverParameter's depth goes too. */
  memset (&t, 0, sizeof t);
  _dm_win_miniport_facts ("pvscsi", &t);
  CHECK (pv && !t.driver_params[0] && t.queue_depth == 0, "after removal: '%s' %u",
         t.driver_params, t.queue_depth);
}

static void
test_errors (const char *dir)
{
  char path[1024], file_path[1024];
  dm_file *file = NULL;
  dm_target_info info;
  HANDLE h;
  int err = 0, ret;
  wchar_t *w;

  printf ("/platform/windows/errors\n");
  CHECK (_dm_win_error (ERROR_DISK_FULL) == -ENOSPC, "disk full");
  CHECK (_dm_win_error (ERROR_WRITE_PROTECT) == -EROFS, "write protect");
  CHECK (_dm_win_error (ERROR_ACCESS_DENIED) == -EACCES, "access denied");
  CHECK (_dm_nt_error ((NTSTATUS) 0xC000007FL /* STATUS_DISK_FULL */) == -ENOSPC, "nt disk full");
  CHECK (strcmp (dm_strerror (-ENOSPC), "No space left on device") == 0, "%s", dm_strerror (-ENOSPC));

  snprintf (path, sizeof path, "%s\\does-not-exist", dir);
  ret = dm_file_create_temp (path, NULL, &file, file_path, sizeof file_path);
  CHECK (ret == -ENOENT && file == NULL, "missing folder: %d", ret);
  ret = dm_target_probe (path, &info);
  CHECK (ret == -ENOENT, "probe missing folder: %d", ret);

  /* A plain file is not a folder to put a test file in. */
  snprintf (path, sizeof path, "%s\\plain.txt", dir);
  w = _dm_utf8_to_wide (path, &err);
  h = CreateFileW (w, GENERIC_WRITE, 0, NULL, CREATE_ALWAYS, FILE_ATTRIBUTE_NORMAL, NULL);
  CHECK (h != INVALID_HANDLE_VALUE, "create plain file");
  CloseHandle (h);
  ret = dm_file_create_temp (path, NULL, &file, file_path, sizeof file_path);
  CHECK (ret == -ENOTDIR, "file as folder: %d", ret);
  CHECK (dm_target_probe (path, &info) == -ENOTDIR, "probe file as folder");
  DeleteFileW (w);
  free (w);
}

/* The first bytes of a file, "" if it cannot be read. */
static void
read_utf8 (const char *path, char *buf, size_t size)
{
  int err = 0;
  wchar_t *w = _dm_utf8_to_wide (path, &err);
  HANDLE h = w ? CreateFileW (w, GENERIC_READ, FILE_SHARE_READ, NULL, OPEN_EXISTING, 0, NULL)
               : INVALID_HANDLE_VALUE;
  DWORD got = 0;

  buf[0] = '\0';
  if (h != INVALID_HANDLE_VALUE)
    {
      if (ReadFile (h, buf, (DWORD) size - 1, &got, NULL))
        buf[got] = '\0';
      CloseHandle (h);
    }
  free (w);
}

static DWORD
attributes_utf8 (const char *path)
{
  int err = 0;
  wchar_t *w = _dm_utf8_to_wide (path, &err);
  DWORD a = w ? GetFileAttributesW (w) : INVALID_FILE_ATTRIBUTES;

  free (w);
  return a;
}

static bool
set_attributes_utf8 (const char *path, DWORD attributes)
{
  int err = 0;
  wchar_t *w = _dm_utf8_to_wide (path, &err);
  bool ok = w && SetFileAttributesW (w, attributes);

  free (w);
  return ok;
}

/* What dm_file_replace_contents may replace and what it must leave alone:
 * an existing file keeps its attributes, a read-only one and a folder are
 * refused, NUL is written into (never a file made of it), a whole volume
 * is refused, a symbolic link stays a link, and no part file is left. */
static void
test_replace_rules (const char *dir)
{
  char path[1024], other[1024], buf[64];
  DWORD a;
  int ret, err = 0;

  printf ("/platform/windows/replace-contents/keeps-attributes\n");
  snprintf (path, sizeof path, "%s\\hidden.json", dir);
  CHECK (dm_file_replace_contents (path, "old", 3) == 0, "first write");
  CHECK (set_attributes_utf8 (path, FILE_ATTRIBUTE_HIDDEN), "make it hidden");
  ret = dm_file_replace_contents (path, "new!", 4);
  CHECK (ret == 0, "replacing a hidden file: %d", ret);
  a = attributes_utf8 (path);
  CHECK (a != INVALID_FILE_ATTRIBUTES && (a & FILE_ATTRIBUTE_HIDDEN), "still hidden: 0x%lx",
         (unsigned long) a);
  read_utf8 (path, buf, sizeof buf);
  CHECK (strcmp (buf, "new!") == 0, "content %s", buf);

  printf ("/platform/windows/replace-contents/read-only\n");
  CHECK (set_attributes_utf8 (path, FILE_ATTRIBUTE_READONLY), "make it read-only");
  ret = dm_file_replace_contents (path, "other", 5);
  CHECK (ret == -EACCES, "a read-only file is refused: %d (%s)", ret, dm_strerror (ret));
  read_utf8 (path, buf, sizeof buf);
  CHECK (strcmp (buf, "new!") == 0, "content kept: %s", buf);
  a = attributes_utf8 (path);
  CHECK (a != INVALID_FILE_ATTRIBUTES && (a & FILE_ATTRIBUTE_READONLY), "still read-only: 0x%lx",
         (unsigned long) a);
  set_attributes_utf8 (path, FILE_ATTRIBUTE_NORMAL);
  dm_file_remove (path);

  printf ("/platform/windows/replace-contents/folder\n");
  snprintf (path, sizeof path, "%s\\folder", dir);
  CHECK (dm_ensure_dir (path) == 0, "make a folder");
  ret = dm_file_replace_contents (path, "x", 1);
  CHECK (ret == -EISDIR, "a folder is refused: %d (%s)", ret, dm_strerror (ret));
  a = attributes_utf8 (path);
  CHECK (a != INVALID_FILE_ATTRIBUTES && (a & FILE_ATTRIBUTE_DIRECTORY), "still a folder: 0x%lx",
         (unsigned long) a);
  {
    wchar_t *w = _dm_utf8_to_wide (path, &err);
    RemoveDirectoryW (w);
    free (w);
  }

  printf ("/platform/windows/replace-contents/devices\n");
  ret = dm_file_replace_contents ("NUL", "x", 1);
  CHECK (ret == 0, "NUL is written into: %d (%s)", ret, dm_strerror (ret));
  ret = dm_file_replace_contents ("\\\\.\\C:", "x", 1);
  CHECK (ret == DM_E_BLOCKDEV, "a volume is refused: %d (%s)", ret, dm_strerror (ret));

  printf ("/platform/windows/replace-contents/symlink\n");
  snprintf (path, sizeof path, "%s\\target.json", dir);
  snprintf (other, sizeof other, "%s\\link.json", dir);
  CHECK (dm_file_replace_contents (path, "old", 3) == 0, "the link's target");
  {
    wchar_t *wl = _dm_utf8_to_wide (other, &err), *wt = _dm_utf8_to_wide (path, &err);
    bool linked = wl && wt && CreateSymbolicLinkW (wl, wt, 0);
    if (!linked)
      printf ("  (no symbolic links here: error %lu; the link checks are left out)\n",
              (unsigned long) GetLastError ());
    else if ((a = attributes_utf8 (other)) == INVALID_FILE_ATTRIBUTES
             || !(a & FILE_ATTRIBUTE_REPARSE_POINT))
      printf ("  (a symbolic link here is no reparse point that reads back: 0x%lx; the link "
              "checks are left out)\n", (unsigned long) a);
    else
      {
        ret = dm_file_replace_contents (other, "via link", 8);
        CHECK (ret == 0, "writing through a link: %d (%s)", ret, dm_strerror (ret));
        a = attributes_utf8 (other);
        CHECK (a != INVALID_FILE_ATTRIBUTES && (a & FILE_ATTRIBUTE_REPARSE_POINT),
               "the link is still a link: 0x%lx", (unsigned long) a);
        read_utf8 (path, buf, sizeof buf);
        CHECK (strcmp (buf, "via link") == 0, "the link's target got it: %s", buf);
        DeleteFileW (wl);
      }
    DeleteFileW (wt);
    free (wl);
    free (wt);
  }

  {
    WIN32_FIND_DATAW fd;
    wchar_t *w;
    snprintf (path, sizeof path, "%s\\*.part", dir);
    w = _dm_utf8_to_wide (path, &err);
    HANDLE f = FindFirstFileW (w, &fd);
    CHECK (f == INVALID_HANDLE_VALUE, "no part file left: %ls", fd.cFileName);
    if (f != INVALID_HANDLE_VALUE)
      FindClose (f);
    free (w);
  }
}

static void
test_stale_and_replace (const char *dir)
{
  char path[1024], stale[1024];
  unsigned n = 0;
  HANDLE h;
  DWORD wrote = 0;
  int err = 0;
  wchar_t *w;

  printf ("/platform/windows/stale-files\n");
  snprintf (stale, sizeof stale, "%s\\diskmeter-abc123.tmp", dir);
  w = _dm_utf8_to_wide (stale, &err);
  h = CreateFileW (w, GENERIC_WRITE, 0, NULL, CREATE_NEW, FILE_ATTRIBUTE_NORMAL, NULL);
  CHECK (h != INVALID_HANDLE_VALUE, "create stale file");
  WriteFile (h, "123", 3, &wrote, NULL);
  CloseHandle (h);
  CHECK (dm_stale_files (dir, count_stale, &n) == 0 && n == 1, "%u stale files", n);
  DeleteFileW (w);
  free (w);

  printf ("/platform/windows/replace-contents\n");
  snprintf (path, sizeof path, "%s\\report.json", dir);
  CHECK (dm_file_replace_contents (path, "first", 5) == 0, "first write");
  CHECK (dm_file_replace_contents (path, "second!", 7) == 0, "replacing an existing file");
  {
    WIN32_FILE_ATTRIBUTE_DATA fa;
    char buf[16] = "";
    w = _dm_utf8_to_wide (path, &err);
    CHECK (GetFileAttributesExW (w, GetFileExInfoStandard, &fa) && fa.nFileSizeLow == 7, "size");
    h = CreateFileW (w, GENERIC_READ, FILE_SHARE_READ, NULL, OPEN_EXISTING, 0, NULL);
    ReadFile (h, buf, sizeof buf - 1, &wrote, NULL);
    CloseHandle (h);
    CHECK (strcmp (buf, "second!") == 0, "content %s", buf);
    DeleteFileW (w);
    free (w);
  }
  test_replace_rules (dir);
}

static void
test_file_and_iocp (const char *dir)
{
  dm_file_options opt = { .direct = true, .write_through = false };
  const dm_backend *be = iocp_backend ();
  char path[1100];
  dm_target_info info;
  dm_file *file = NULL;
  dm_thread *threads[2];
  worker_job jobs[2];
  unsigned stale = 0;
  void *buf;
  int ret;

  printf ("/platform/windows/target-probe\n");
  ret = dm_target_probe (dir, &info);
  CHECK (ret == 0, "probe %s: %d", dir, ret);
  printf ("  %s on %s (%s), %u B sectors, %llu MiB free\n", info.path, info.mount_point,
          info.filesystem, info.sector_size, (unsigned long long) (info.free_bytes >> 20));
  CHECK (info.sector_size >= 512, "sector size %u", info.sector_size);
  CHECK (info.free_bytes >= FILE_SIZE, "free %llu", (unsigned long long) info.free_bytes);
  CHECK (info.filesystem[0] != '\0', "filesystem");

  printf ("/platform/windows/test-file\n");
  CHECK (be != NULL && be->probe () == 0, "iocp backend present");
  if (be == NULL)
    return;
  ret = dm_file_create_temp (dir, &opt, &file, path, sizeof path);
  CHECK (ret == 0 && file != NULL, "create temp in %s: %d (%s)", dir, ret, dm_strerror (ret));
  if (file == NULL)
    return;
  printf ("  %s\n", path);
  CHECK (strncmp (path, dir, strlen (dir)) == 0 || strstr (path, "diskmeter-") != NULL, "path %s", path);
  CHECK (strstr (path, "\\diskmeter-") != NULL && strstr (path, ".tmp") != NULL, "name %s", path);
  CHECK (exists_utf8 (path), "test file exists while open");

  ret = dm_file_reserve (file, FILE_SIZE);
  CHECK (ret == 0, "reserve: %d", ret);
  buf = dm_alloc_io (1 << 20);
  CHECK (buf != NULL && ((uintptr_t) buf & 4095) == 0, "aligned buffer");
  for (uint64_t off = 0; off < FILE_SIZE; off += 1 << 20)
    {
      ret = dm_file_write_at (file, buf, 1 << 20, off);
      if (ret < 0)
        {
          CHECK (ret == 0, "fill at %llu: %d", (unsigned long long) off, ret);
          break;
        }
    }
  CHECK (dm_file_sync (file) == 0, "sync");
  dm_free_io (buf, 1 << 20);

  /* Two workers on two completion ports over one file, each Q=8: writes
   * first, then reads that must see exactly what was written. */
  for (int pass = 0; pass < 2; pass++)
    {
      printf ("/platform/windows/iocp/%s-q8t2\n", pass == 0 ? "write" : "read");
      for (int t = 0; t < 2; t++)
        {
          jobs[t] = (worker_job) { file, t * (BLOCKS / 2), (t + 1) * (BLOCKS / 2), pass == 0, 7, 0, 0, 0 };
          ret = dm_thread_start (&threads[t], worker, &jobs[t]);
          CHECK (ret == 0, "thread %d", t);
        }
      for (int t = 0; t < 2; t++)
        {
          dm_thread_join (threads[t]);
          CHECK (jobs[t].error == 0, "worker %d: %d (%s)", t, jobs[t].error, dm_strerror (jobs[t].error));
          CHECK (jobs[t].completed == BLOCKS / 2, "worker %d completed %u", t, jobs[t].completed);
          CHECK (jobs[t].max_in_flight == DEPTH, "worker %d had %u in flight", t, jobs[t].max_in_flight);
        }
    }

  printf ("/platform/windows/iocp/edge-cases\n");
  {
    dm_queue_params params = { file, DEPTH, dm_alloc_io ((size_t) DEPTH * BLOCK), BLOCK };
    dm_io *ios[DEPTH], *done[DEPTH];
    dm_queue *q = NULL;
    uint64_t t0;
    int n;

    ret = be->open (&params, &q, ios);
    CHECK (ret == 0, "open: %d", ret);
    if (ret == 0)
      {
        /* Nothing in flight: reap must come back, not hang. */
        t0 = dm_clock_ns ();
        n = be->reap (q, done, DEPTH, 50000000);
        CHECK (n == 0 && dm_clock_ns () - t0 < 1000000000ull, "idle reap %d", n);

        /* A read past the end moves nothing. */
        ios[0]->offset = FILE_SIZE + BLOCK;
        ios[0]->len = BLOCK;
        ios[0]->write = 0;
        be->prep (q, ios[0]);
        n = be->reap (q, done, DEPTH, 1000000000);
        CHECK (n == 1 && done[0] == ios[0] && done[0]->res == 0, "read past end: n %d res %d",
               n, n == 1 ? done[0]->res : 0);

        /* Closing with I/O in flight waits for it instead of freeing
         * memory the kernel still writes into. */
        for (unsigned i = 0; i < DEPTH; i++)
          {
            ios[i]->offset = (uint64_t) i * BLOCK;
            ios[i]->len = BLOCK;
            ios[i]->write = 0;
            be->prep (q, ios[i]);
          }
        be->close (q);
      }
    dm_free_io (params.buf_base, (size_t) DEPTH * BLOCK);
  }

  printf ("/platform/windows/test-file/removed-on-close\n");
  dm_file_close (file);
  CHECK (!exists_utf8 (path), "%s is gone", path);

  printf ("/platform/windows/test-file/write-through\n");
  opt.write_through = true;
  ret = dm_file_create_temp (dir, &opt, &file, path, sizeof path);
  CHECK (ret == 0, "create with write-through: %d", ret);
  if (ret == 0)
    {
      buf = dm_alloc_io (BLOCK);
      CHECK (dm_file_reserve (file, BLOCK) == 0, "reserve");
      CHECK (dm_file_write_at (file, buf, BLOCK, 0) == 0, "write");
      dm_free_io (buf, BLOCK);
      dm_file_close (file);
      CHECK (!exists_utf8 (path), "%s is gone", path);
    }
  CHECK (dm_stale_files (dir, count_stale, &stale) == 0 && stale == 0, "%u left", stale);
}

static bool
under_wine (void)
{
  HMODULE ntdll = GetModuleHandleW (L"ntdll.dll");

  return ntdll != NULL && GetProcAddress (ntdll, "wine_get_version") != NULL;
}

/* Wine keeps no disk counters: the watch must say so, never make numbers
 * up. On Windows the volume's counters must see what was written. */
static void
test_device_watch (const char *dir)
{
  dm_file_options opt = { .direct = true, .write_through = true };
  dm_device_counters before, after;
  dm_target_info info, bogus;
  dm_device_watch *watch = NULL;
  char name[64], why[256], path[1100];
  dm_file *file = NULL;
  void *buf;
  int ret;

  printf ("/platform/windows/device-watch/close-null\n");
  dm_device_watch_close (NULL);

  printf ("/platform/windows/device-watch/missing-device\n");
  memset (&bogus, 0, sizeof bogus);
  snprintf (bogus.path, sizeof bogus.path, "\\\\.\\PhysicalDrive4095");
  snprintf (bogus.device, sizeof bogus.device, "%s", bogus.path);
  bogus.is_block_device = true;
  ret = dm_device_watch_open (&bogus, &watch, name, sizeof name, why, sizeof why);
  printf ("  %d [%s] %s\n", ret, name, why);
  CHECK (ret == -ENODEV && watch == NULL && why[0] != '\0', "missing device: %d, %s", ret, why);
  CHECK (strcmp (name, "PhysicalDrive4095") == 0, "name %s", name);

  printf ("/platform/windows/device-watch\n");
  ret = dm_target_probe (dir, &info);
  CHECK (ret == 0, "probe %s: %d", dir, ret);
  if (ret < 0)
    return;
  memset (name, 'x', sizeof name);
  memset (why, 'x', sizeof why);
  ret = dm_device_watch_open (&info, &watch, name, sizeof name, why, sizeof why);
  CHECK (memchr (name, '\0', sizeof name) != NULL && memchr (why, '\0', sizeof why) != NULL,
         "name and why are strings");
  printf ("  %d [%s] %s\n", ret, name, why);
  if (under_wine ())
    {
      CHECK (ret == -ENODEV && watch == NULL, "Wine has no disk counters: %d", ret);
      CHECK (why[0] != '\0', "a reason is given");
      if (watch != NULL)
        dm_device_watch_close (watch);
      return;
    }

  CHECK (ret == 0 && watch != NULL, "open a watch on %s: %d (%s)", dir, ret, why);
  if (watch == NULL)
    return;
  CHECK (name[0] != '\0' && strlen (name) < 32, "name %s", name);
  CHECK (dm_device_watch_read (watch, &before) == 0, "first reading");
  CHECK (before.members == 1, "%u members", before.members);

  /* 4 MiB past the cache, to the volume. */
  ret = dm_file_create_temp (dir, &opt, &file, path, sizeof path);
  CHECK (ret == 0, "create: %d", ret);
  if (ret == 0)
    {
      buf = dm_alloc_io (1 << 20);
      memset (buf, 0x5a, 1 << 20);
      CHECK (dm_file_reserve (file, 4 << 20) == 0, "reserve");
      for (uint64_t off = 0; off < (4 << 20); off += 1 << 20)
        CHECK (dm_file_write_at (file, buf, 1 << 20, off) == 0, "write at %llu",
               (unsigned long long) off);
      CHECK (dm_file_sync (file) == 0, "sync");
      dm_free_io (buf, 1 << 20);
      dm_file_close (file);
    }
  dm_sleep_ns (50000000);
  CHECK (dm_device_watch_read (watch, &after) == 0, "second reading");
  printf ("  +%llu writes, +%llu bytes written, +%llu reads, busy +%llu us, queue +%llu us\n",
          (unsigned long long) (after.writes - before.writes),
          (unsigned long long) (after.write_bytes - before.write_bytes),
          (unsigned long long) (after.reads - before.reads),
          (unsigned long long) ((after.busy_ns - before.busy_ns) / 1000),
          (unsigned long long) ((after.queue_ns - before.queue_ns) / 1000));
  CHECK (after.writes > before.writes, "writes %llu -> %llu",
         (unsigned long long) before.writes, (unsigned long long) after.writes);
  CHECK (after.write_bytes >= before.write_bytes + (4 << 20), "bytes written %llu -> %llu",
         (unsigned long long) before.write_bytes, (unsigned long long) after.write_bytes);
  CHECK (after.reads >= before.reads && after.read_bytes >= before.read_bytes, "reads");
  CHECK (after.queue_ns > before.queue_ns, "queue %llu -> %llu",
         (unsigned long long) before.queue_ns, (unsigned long long) after.queue_ns);
  CHECK (after.busy_ns >= before.busy_ns, "busy %llu -> %llu",
         (unsigned long long) before.busy_ns, (unsigned long long) after.busy_ns);
  /* The write time apart, for w_await: the writes above took some. */
  CHECK (after.timed && after.write_ns > before.write_ns, "write time %llu -> %llu",
         (unsigned long long) before.write_ns, (unsigned long long) after.write_ns);
  dm_device_watch_close (watch);
}

/* Creates a test file, says where, and waits to be killed or interrupted. */
static volatile LONG interrupted;

static void
on_interrupt (void *user)
{
  InterlockedExchange (&interrupted, 1);
}

static int
hold (const char *dir)
{
  dm_file_options opt = { .direct = true };
  char path[1100];
  dm_file *file = NULL;
  int ret;

  dm_interrupt_install (on_interrupt, NULL);
  ret = dm_file_create_temp (dir, &opt, &file, path, sizeof path);
  if (ret < 0)
    {
      fprintf (stderr, "create: %s\n", dm_strerror (ret));
      return 1;
    }
  dm_file_reserve (file, 1 << 20);
  printf ("holding %s\n", path);
  fflush (stdout);
  for (int i = 0; i < 600 && !interrupted; i++)
    dm_sleep_ns (100000000);
  dm_file_close (file);
  printf (interrupted ? "interrupted\n" : "timed out\n");
  return interrupted ? 130 : 1;
}

int
main (int argc, char **argv)
{
  /* Every folder name goes through UTF-8, as the engine hands it over. */
  static const wchar_t sub[] = L"diskmeter-test-Pr\u00fcfung-\u0434\u0438\u0441\u043a-\u6e2c\u8a66";
  wchar_t tmp[MAX_PATH + 1], wdir[MAX_PATH + 64];
  char dir[1024];

  if (argc == 3 && strcmp (argv[1], "--hold") == 0)
    return hold (argv[2]);

  setvbuf (stdout, NULL, _IONBF, 0);
  test_clock ();
  test_system ();
  test_facts ();

  if (GetTempPathW (MAX_PATH + 1, tmp) == 0)
    {
      printf ("SKIP: no temporary folder\n");
      return 77;
    }
  swprintf (wdir, MAX_PATH + 64, L"%ls%ls-%lu", tmp, sub, (unsigned long) GetCurrentProcessId ());
  if (!CreateDirectoryW (wdir, NULL))
    {
      printf ("FAIL: cannot create the test folder (%lu)\n", (unsigned long) GetLastError ());
      return 1;
    }
  _dm_wide_to_utf8 (wdir, dir, sizeof dir);
  printf ("  folder %s\n", dir);

  test_errors (dir);
  test_stale_and_replace (dir);
  test_file_and_iocp (dir);
  test_device_watch (dir);

  if (!RemoveDirectoryW (wdir))
    {
      printf ("  FAIL: test folder not empty or not removable (%lu)\n", (unsigned long) GetLastError ());
      failures++;
    }
  printf (failures ? "%d checks failed\n" : "all passed\n", failures);
  return failures ? 1 : 0;
}
