/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * What the volume under a target did during a measured run, from the
 * counters Windows keeps for every disk and volume (IOCTL_DISK_PERFORMANCE,
 * the source of Performance Monitor's LogicalDisk counters). The volume is
 * opened with no access rights, so no administrator is needed; a network
 * drive, Wine and a Windows whose counters are off give a reason instead.
 */
#include "dm-win-private.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

struct dm_device_watch {
  HANDLE   handle;
  /* ReadCount and WriteCount are 32 bits and wrap after 4 G requests (an
   * hour at a million IOPS); readings are widened here so that a delta
   * across a wrap stays right. */
  uint32_t last_reads, last_writes;
  /* QueryTime - IdleTime of the last reading, 100 ns units, and when it
   * was taken on the monotonic clock. */
  int64_t  last_busy;
  uint64_t last_clock;
  uint64_t reads, writes, busy_ns;
};

static int
refuse (char *why, size_t why_size, const char *format, ...)
{
  va_list ap;

  if (why != NULL && why_size > 0)
    {
      va_start (ap, format);
      vsnprintf (why, why_size, format, ap);
      va_end (ap);
    }
  return -ENODEV;
}

static HANDLE
open_no_access (const wchar_t *path)
{
  /* No GENERIC_READ: IOCTL_DISK_PERFORMANCE is FILE_ANY_ACCESS, and a
   * volume opened for reading would need an administrator. */
  return CreateFileW (path, 0, FILE_SHARE_READ | FILE_SHARE_WRITE, NULL, OPEN_EXISTING, 0, NULL);
}

/* The volume device under a folder, opened; its root in root. The same
 * way dm_target_probe finds it. */
static HANDLE
open_volume (const wchar_t *wpath, wchar_t *root, bool *remote, int *err)
{
  wchar_t volume[MAX_PATH + 1];
  HANDLE h = INVALID_HANDLE_VALUE;

  *err = 0;
  *remote = false;
  if (!GetVolumePathNameW (wpath, root, MAX_PATH))
    {
      *err = _dm_win_error (GetLastError ());
      return INVALID_HANDLE_VALUE;
    }
  if (root[0] != L'\0' && root[wcslen (root) - 1] != L'\\')
    wcscat (root, L"\\");
  if (GetDriveTypeW (root) == DRIVE_REMOTE)
    {
      *remote = true;
      return INVALID_HANDLE_VALUE;
    }
  if (GetVolumeNameForVolumeMountPointW (root, volume, MAX_PATH + 1))
    {
      /* Without its last backslash the name is the volume device. */
      size_t n = wcslen (volume);
      if (n > 0 && volume[n - 1] == L'\\')
        volume[n - 1] = L'\0';
      h = open_no_access (volume);
    }
  if (h == INVALID_HANDLE_VALUE && iswalpha (root[0]) && root[1] == L':')
    {
      wchar_t dev[8] = L"\\\\.\\X:";
      dev[4] = root[0];
      h = open_no_access (dev);
    }
  if (h == INVALID_HANDLE_VALUE)
    *err = _dm_win_error (GetLastError ());
  return h;
}

/* What a report calls the device: "E:" for a drive, the folder a volume
 * is mounted on otherwise, "PhysicalDrive1" for a device. */
static void
short_name (const wchar_t *path, char *name, size_t name_size)
{
  wchar_t w[MAX_PATH + 1];
  char utf8[MAX_PATH * 3 + 1];
  size_t n;

  if (name == NULL || name_size == 0)
    return;
  if (wcsncmp (path, L"\\\\.\\", 4) == 0 || wcsncmp (path, L"\\\\?\\", 4) == 0)
    path += 4;
  snprintf (name, name_size, "?");
  if (wcslen (path) > MAX_PATH)
    return;
  wcscpy (w, path);
  n = wcslen (w);
  if (n > 1 && w[n - 1] == L'\\')
    w[n - 1] = L'\0';
  if (_dm_wide_to_utf8 (w, utf8, sizeof utf8) == 0)
    snprintf (name, name_size, "%s", utf8);
}

static int
query (HANDLE h, DISK_PERFORMANCE *perf)
{
  DWORD got = 0;
  int ret;

  memset (perf, 0, sizeof *perf);
  ret = _dm_win_ioctl (h, IOCTL_DISK_PERFORMANCE, NULL, 0, perf, sizeof *perf, &got);
  if (ret == 0 && got < offsetof (DISK_PERFORMANCE, StorageDeviceNumber))
    ret = -EIO;
  return ret;
}

static int64_t
busy_100ns (const DISK_PERFORMANCE *perf)
{
  /* QueryTime is a timestamp, IdleTime the idle time summed since the
   * counters started: their difference grows by exactly the busy time
   * between two readings, which is all that is ever used of it. */
  return perf->QueryTime.QuadPart - perf->IdleTime.QuadPart;
}

int
dm_device_watch_open (const dm_target_info *target, dm_device_watch **out,
                      char *name, size_t name_size, char *why, size_t why_size)
{
  wchar_t *wpath, root[MAX_PATH + 1];
  dm_device_watch *watch;
  DISK_PERFORMANCE perf;
  bool remote = false;
  HANDLE h;
  int ret = 0;

  *out = NULL;
  root[0] = L'\0';
  if (name != NULL && name_size > 0)
    name[0] = '\0';
  if (why != NULL && why_size > 0)
    why[0] = '\0';

  wpath = _dm_win_path (target->is_block_device && target->device[0] != '\0'
                        ? target->device : target->path, &ret);
  if (wpath == NULL)
    return refuse (why, why_size, "cannot name the device: %s", dm_strerror (ret));

  if (target->is_block_device)
    {
      h = open_no_access (wpath);
      if (h == INVALID_HANDLE_VALUE)
        ret = _dm_win_error (GetLastError ());
      short_name (wpath, name, name_size);
    }
  else
    {
      h = open_volume (wpath, root, &remote, &ret);
      short_name (root, name, name_size);
    }
  free (wpath);

  if (remote)
    return refuse (why, why_size, "a network drive: no disk counters here");
  if (h == INVALID_HANDLE_VALUE)
    return refuse (why, why_size, "cannot open the %s: %s",
                   target->is_block_device ? "device" : "volume", dm_strerror (ret));

  /* Asked once here, so that a volume without counters is refused now
   * rather than failing around every run. */
  ret = query (h, &perf);
  if (ret < 0)
    {
      CloseHandle (h);
      /* Counters that are switched off answer STATUS_UNSUCCESSFUL (an
       * I/O error here); Wine answers ERROR_NOT_SUPPORTED. */
      return refuse (why, why_size, "the %s keeps no performance counters "
                     "(IOCTL_DISK_PERFORMANCE: %s%s)",
                     target->is_block_device ? "device" : "volume", dm_strerror (ret),
                     ret == -EIO ? "; `diskperf -y` turns them on" : "");
    }

  watch = calloc (1, sizeof *watch);
  if (watch == NULL)
    {
      CloseHandle (h);
      return -ENOMEM;
    }
  watch->handle = h;
  watch->last_reads = perf.ReadCount;
  watch->last_writes = perf.WriteCount;
  watch->last_busy = busy_100ns (&perf);
  watch->last_clock = dm_clock_ns ();
  watch->reads = perf.ReadCount;
  watch->writes = perf.WriteCount;
  *out = watch;
  return 0;
}

int
dm_device_watch_read (dm_device_watch *watch, dm_device_counters *counters)
{
  DISK_PERFORMANCE perf;
  int64_t busy;
  uint64_t now, busy_ns;
  int ret;

  memset (counters, 0, sizeof *counters);
  ret = query (watch->handle, &perf);
  if (ret < 0)
    return ret;
  now = dm_clock_ns ();

  watch->reads += (uint32_t) (perf.ReadCount - watch->last_reads);
  watch->writes += (uint32_t) (perf.WriteCount - watch->last_writes);
  watch->last_reads = perf.ReadCount;
  watch->last_writes = perf.WriteCount;

  /* QueryTime is the system time: setting the clock back would make busy
   * time negative, setting it forward would make it longer than the time
   * that passed. Neither can be true of a disk. */
  busy = busy_100ns (&perf);
  busy_ns = busy > watch->last_busy ? (uint64_t) (busy - watch->last_busy) * 100 : 0;
  if (busy_ns > now - watch->last_clock)
    busy_ns = now - watch->last_clock;
  watch->busy_ns += busy_ns;
  watch->last_busy = busy;
  watch->last_clock = now;

  counters->reads = watch->reads;
  counters->writes = watch->writes;
  counters->read_bytes = (uint64_t) perf.BytesRead.QuadPart;
  counters->write_bytes = (uint64_t) perf.BytesWritten.QuadPart;
  counters->busy_ns = watch->busy_ns;
  /* The time every request spent at the volume, summed: its growth over
   * elapsed time is Performance Monitor's "Avg. Disk Queue Length". */
  counters->queue_ns = ((uint64_t) perf.ReadTime.QuadPart + (uint64_t) perf.WriteTime.QuadPart) * 100;
  /* The same two apart, over ReadCount and WriteCount: Performance
   * Monitor's "Avg. Disk sec/Read" and "sec/Write", iostat's awaits. */
  counters->read_ns = (uint64_t) perf.ReadTime.QuadPart * 100;
  counters->write_ns = (uint64_t) perf.WriteTime.QuadPart * 100;
  counters->timed = true;
  counters->members = 1;
  return 0;
}

void
dm_device_watch_close (dm_device_watch *watch)
{
  if (watch == NULL)
    return;
  /* No IOCTL_DISK_PERFORMANCE_OFF: the counters are shared with
   * Performance Monitor and everyone else reading them. */
  CloseHandle (watch->handle);
  free (watch);
}
