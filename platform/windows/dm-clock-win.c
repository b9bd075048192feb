/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Time, threads, I/O memory and console interrupts on Windows. The clock is
 * QueryPerformanceCounter, the only Windows clock fine enough for a 4 KiB
 * read; threads are plain Win32 threads, so no pthreads DLL has to ship.
 */
#include "dm-win-private.h"

#include <errno.h>
#include <process.h>
#include <stdio.h>
#include <stdlib.h>

/* 100 ns intervals between 1601-01-01 (FILETIME) and 1970-01-01. */
#define DM_EPOCH_DIFF_100NS 116444736000000000ull

static volatile LONG64 qpc_frequency;

uint64_t
dm_clock_ns (void)
{
  LARGE_INTEGER now;
  uint64_t freq = (uint64_t) qpc_frequency;

  if (freq == 0)
    {
      LARGE_INTEGER f;
      QueryPerformanceFrequency (&f);
      freq = (uint64_t) f.QuadPart;
      qpc_frequency = (LONG64) freq;
    }
  QueryPerformanceCounter (&now);
  /* Split to keep counter * 1e9 from overflowing after a few days up. */
  return (uint64_t) now.QuadPart / freq * 1000000000ull
         + (uint64_t) now.QuadPart % freq * 1000000000ull / freq;
}

void
dm_sleep_ns (uint64_t ns)
{
  uint64_t ms = (ns + 999999) / 1000000;

  /* Sleep rounds up to the system tick, 15.6 ms by default. The engine's
   * short waits (workers waiting for the start signal) would start the
   * clock that long before the first I/O, so they yield instead. */
  if (ns < 2000000)
    {
      uint64_t end = dm_clock_ns () + ns;
      while (dm_clock_ns () < end)
        if (!SwitchToThread ())
          YieldProcessor ();
      return;
    }
  Sleep (ms >= INFINITE ? INFINITE - 1 : (DWORD) ms);
}

static uint64_t
filetime_100ns (const FILETIME *ft)
{
  return ((uint64_t) ft->dwHighDateTime << 32) | ft->dwLowDateTime;
}

uint64_t
dm_process_cpu_ns (void)
{
  FILETIME created, exited, kernel, user;

  if (!GetProcessTimes (GetCurrentProcess (), &created, &exited, &kernel, &user))
    return 0;
  return (filetime_100ns (&kernel) + filetime_100ns (&user)) * 100;
}

int64_t
dm_wall_time (void)
{
  FILETIME ft;

  GetSystemTimeAsFileTime (&ft);
  return (int64_t) ((filetime_100ns (&ft) - DM_EPOCH_DIFF_100NS) / 10000000ull);
}

void
dm_format_local_time (int64_t t, char *buf, size_t size)
{
  uint64_t v = (uint64_t) t * 10000000ull + DM_EPOCH_DIFF_100NS;
  FILETIME ft = { (DWORD) v, (DWORD) (v >> 32) };
  SYSTEMTIME utc, local;

  if (size == 0)
    return;
  if (!FileTimeToSystemTime (&ft, &utc)
      || !SystemTimeToTzSpecificLocalTime (NULL, &utc, &local))
    {
      buf[0] = '\0';
      return;
    }
  snprintf (buf, size, "%04u/%02u/%02u %02u:%02u:%02u",
            local.wYear, local.wMonth, local.wDay,
            local.wHour, local.wMinute, local.wSecond);
}

struct dm_thread {
  HANDLE handle;
  void *(*fn) (void *);
  void  *arg;
};

static unsigned __stdcall
thread_main (void *data)
{
  dm_thread *thread = data;

  thread->fn (thread->arg);
  return 0;
}

int
dm_thread_start (dm_thread **out, void *(*fn) (void *), void *arg)
{
  dm_thread *thread = calloc (1, sizeof *thread);
  uintptr_t h;

  if (thread == NULL)
    return -ENOMEM;
  thread->fn = fn;
  thread->arg = arg;
  /* _beginthreadex rather than CreateThread so the C runtime's per-thread
   * state (errno, strtok) is set up for the worker. */
  h = _beginthreadex (NULL, 0, thread_main, thread, 0, NULL);
  if (h == 0)
    {
      int ret = -errno;
      free (thread);
      return ret < 0 ? ret : -EAGAIN;
    }
  thread->handle = (HANDLE) h;
  *out = thread;
  return 0;
}

int
dm_thread_pin_self (unsigned cpu)
{
  /* One processor group: a worker pinned past 64 CPUs is refused rather
   * than wrapped onto another CPU. */
  if (cpu >= 8 * sizeof (DWORD_PTR))
    return -EINVAL;
  if (SetThreadAffinityMask (GetCurrentThread (), (DWORD_PTR) 1 << cpu) == 0)
    return -EINVAL;
  return 0;
}

void
dm_thread_join (dm_thread *thread)
{
  if (thread == NULL)
    return;
  WaitForSingleObject (thread->handle, INFINITE);
  CloseHandle (thread->handle);
  free (thread);
}

void *
dm_alloc_io (size_t size)
{
  /* VirtualAlloc hands out zeroed, page-aligned memory: exactly what
   * FILE_FLAG_NO_BUFFERING asks of a buffer. */
  if (size == 0)
    return NULL;
  return VirtualAlloc (NULL, size, MEM_COMMIT | MEM_RESERVE, PAGE_READWRITE);
}

void
dm_free_io (void *p, size_t size)
{
  if (p != NULL)
    VirtualFree (p, 0, MEM_RELEASE);
}

static void (*interrupt_fn) (void *user);
static void *interrupt_user;

static BOOL WINAPI
console_handler (DWORD event)
{
  void (*fn) (void *) = interrupt_fn;

  if (fn == NULL)
    return FALSE;
  fn (interrupt_user);
  switch (event)
    {
    case CTRL_CLOSE_EVENT:
    case CTRL_LOGOFF_EVENT:
    case CTRL_SHUTDOWN_EVENT:
      /* Windows ends the process as soon as this returns; a few seconds
       * let the runner stop, write what it has and close the test file.
       * The file goes away even if this is cut short (delete on close). */
      Sleep (3000);
      return TRUE;
    default:
      return TRUE;
    }
}

int
dm_interrupt_install (void (*fn) (void *user), void *user)
{
  interrupt_user = user;
  interrupt_fn = fn;
  if (!SetConsoleCtrlHandler (console_handler, TRUE))
    return _dm_win_error (GetLastError ());
  return 0;
}
