/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * What the system does with overlapped reads, without Diskmeter's engine in
 * the way: posts N reads of 4 KiB at once on one handle opened with
 * FILE_FLAG_OVERLAPPED | FILE_FLAG_NO_BUFFERING, then waits on a completion
 * port, and prints when each call returned, whether it returned at once
 * (TRUE) or pending, and when each completion came. On a device that
 * serves reads in parallel, N pending calls return at once and complete
 * together; a system that reads in the caller's thread returns each call
 * only once its read is done, one after the other.
 *
 *   wine-overlapped FILE [N]
 *
 * FILE must hold at least N x 64 KiB: read i is at i x 64 KiB. The last
 * line sums it up for a test: "posted N sync S span_ms T serial_ms U", S
 * being the reads already done when their call returned and U the time the
 * calls themselves took.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <windows.h>

#define BLOCK 4096
#define STRIDE (64 * 1024)
#define MAX_N 64

static double
ms_since (LARGE_INTEGER t0, LARGE_INTEGER freq)
{
  LARGE_INTEGER t;
  QueryPerformanceCounter (&t);
  return (double) (t.QuadPart - t0.QuadPart) * 1000.0 / (double) freq.QuadPart;
}

int
main (int argc, char **argv)
{
  static OVERLAPPED ov[MAX_N];
  LARGE_INTEGER freq, t0;
  unsigned n = argc > 2 ? (unsigned) atoi (argv[2]) : 4, sync = 0;
  char *buf;
  HANDLE file, port;

  if (argc < 2 || n == 0 || n > MAX_N)
    {
      fprintf (stderr, "usage: wine-overlapped FILE [N, 1..%d]\n", MAX_N);
      return 2;
    }
  file = CreateFileA (argv[1], GENERIC_READ, FILE_SHARE_READ | FILE_SHARE_WRITE, NULL,
                      OPEN_EXISTING, FILE_FLAG_OVERLAPPED | FILE_FLAG_NO_BUFFERING, NULL);
  if (file == INVALID_HANDLE_VALUE)
    {
      fprintf (stderr, "wine-overlapped: cannot open %s: error %lu\n", argv[1], GetLastError ());
      return 1;
    }
  port = CreateIoCompletionPort (file, NULL, 0, 1);
  /* NO_BUFFERING wants sector-aligned buffers: VirtualAlloc gives pages. */
  buf = VirtualAlloc (NULL, (SIZE_T) n * BLOCK, MEM_COMMIT | MEM_RESERVE, PAGE_READWRITE);
  if (port == NULL || buf == NULL)
    {
      fprintf (stderr, "wine-overlapped: no port or buffer: error %lu\n", GetLastError ());
      return 1;
    }
  QueryPerformanceFrequency (&freq);
  QueryPerformanceCounter (&t0);

  for (unsigned i = 0; i < n; i++)
    {
      /* Reads far apart, as RND4K's are: nothing to merge or read ahead. */
      ULONGLONG offset = (ULONGLONG) i * STRIDE;
      ov[i].Offset = (DWORD) offset;
      ov[i].OffsetHigh = (DWORD) (offset >> 32);
      BOOL ok = ReadFile (file, buf + (size_t) i * BLOCK, BLOCK, NULL, &ov[i]);
      DWORD err = ok ? 0 : GetLastError ();
      if (!ok && err != ERROR_IO_PENDING)
        {
          fprintf (stderr, "wine-overlapped: read %u refused: error %lu\n", i, err);
          return 1;
        }
      /* A read still pending says so in its OVERLAPPED until it is done:
       * one that says done as the call returns was done in the call. */
      bool was_done = HasOverlappedIoCompleted (&ov[i]);
      sync += ok || was_done;
      printf ("post %u returned %s, %s, at %.1f ms\n", i, ok ? "TRUE" : "pending",
              was_done ? "already done" : "not done yet", ms_since (t0, freq));
    }
  double posted = ms_since (t0, freq);

  for (unsigned got = 0; got < n; got++)
    {
      DWORD bytes;
      ULONG_PTR key;
      OVERLAPPED *done;
      if (!GetQueuedCompletionStatus (port, &bytes, &key, &done, 10000))
        {
          fprintf (stderr, "wine-overlapped: no completion: error %lu\n", GetLastError ());
          return 1;
        }
      printf ("done %u (%lu bytes) at %.1f ms\n", (unsigned) (done - ov), bytes,
              ms_since (t0, freq));
    }
  printf ("posted %u sync %u span_ms %.1f serial_ms %.1f\n", n, sync, ms_since (t0, freq), posted);
  CloseHandle (port);
  CloseHandle (file);
  return 0;
}
