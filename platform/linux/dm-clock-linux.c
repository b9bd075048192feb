/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Time, threads, memory and signals on Linux. CLOCK_MONOTONIC is read
 * through the vDSO, so dm_clock_ns costs no system call in the I/O loop.
 */
#include "dm-platform.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <time.h>

uint64_t
dm_clock_ns (void)
{
  struct timespec ts;
  clock_gettime (CLOCK_MONOTONIC, &ts);
  return (uint64_t) ts.tv_sec * 1000000000ull + (uint64_t) ts.tv_nsec;
}

void
dm_sleep_ns (uint64_t ns)
{
  struct timespec ts = { (time_t) (ns / 1000000000ull), (long) (ns % 1000000000ull) };
  while (nanosleep (&ts, &ts) < 0 && errno == EINTR)
    ;
}

uint64_t
dm_process_cpu_ns (void)
{
  struct timespec ts;
  if (clock_gettime (CLOCK_PROCESS_CPUTIME_ID, &ts) < 0)
    return 0;
  return (uint64_t) ts.tv_sec * 1000000000ull + (uint64_t) ts.tv_nsec;
}

int64_t
dm_wall_time (void)
{
  return (int64_t) time (NULL);
}

void
dm_format_local_time (int64_t t, char *buf, size_t size)
{
  time_t tt = (time_t) t;
  struct tm tm;
  if (!localtime_r (&tt, &tm) || !strftime (buf, size, "%Y/%m/%d %H:%M:%S", &tm))
    snprintf (buf, size, "-");
}

struct dm_thread {
  pthread_t id;
};

int
dm_thread_start (dm_thread **out, void *(*fn) (void *), void *arg)
{
  dm_thread *t = malloc (sizeof *t);
  if (!t)
    return -ENOMEM;
  int err = pthread_create (&t->id, NULL, fn, arg);
  if (err)
    {
      free (t);
      return -err;
    }
  *out = t;
  return 0;
}

int
dm_thread_pin_self (unsigned cpu)
{
  cpu_set_t set;
  if (cpu >= CPU_SETSIZE)
    return -EINVAL;
  CPU_ZERO (&set);
  CPU_SET (cpu, &set);
  int err = pthread_setaffinity_np (pthread_self (), sizeof set, &set);
  return err ? -err : 0;
}

void
dm_thread_join (dm_thread *t)
{
  if (!t)
    return;
  pthread_join (t->id, NULL);
  free (t);
}

/* Transparent huge pages come in this size on x86-64 and arm64 (4 KiB base
 * pages); elsewhere the advice is harmless. */
#define HUGE_PAGE (2u << 20)

/* Buffers of 256 KiB and more are mapped on huge-page boundaries, rounded
 * up to whole huge pages, and advised to use them, so each I/O buffer is
 * physically contiguous. That is not about the TLB: the disk controller
 * gets one scatter-gather segment per I/O instead of one per 4 KiB page. A virtio disk with a 256-entry queue
 * held one 1 MiB read at a time in 4 KiB pages (254 segments each, split in
 * two) and four or more in huge pages; SCSI HBAs (LSI Logic, pvscsi) limit
 * their segments the same way. Where the kernel has no huge page to give,
 * the same mapping works with small pages. */
#define HUGE_FROM (256u << 10)

static size_t
io_map_size (size_t size)
{
  /* Smaller buffers hold I/Os of a few pages, whose segments cost little;
   * they are not worth a huge page each. */
  if (size < HUGE_FROM)
    return size ? size : 1;
  return (size + HUGE_PAGE - 1) & ~(size_t) (HUGE_PAGE - 1);
}

void *
dm_alloc_io (size_t size)
{
  /* Anonymous mappings are page aligned and zeroed, as O_DIRECT and
   * io_uring's registered buffers want. */
  size_t len = io_map_size (size);
  if (len < HUGE_FROM)
    {
      void *p = mmap (NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
      return p == MAP_FAILED ? NULL : p;
    }
  /* Map a huge page more than needed, then give back the head and tail
   * that keep the rest from starting on a huge-page boundary. */
  char *raw = mmap (NULL, len + HUGE_PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
                    -1, 0);
  if (raw == MAP_FAILED)
    return NULL;
  char *p = (char *) (((uintptr_t) raw + HUGE_PAGE - 1) & ~(uintptr_t) (HUGE_PAGE - 1));
  if (p > raw)
    munmap (raw, (size_t) (p - raw));
  if (raw + len + HUGE_PAGE > p + len)
    munmap (p + len, (size_t) (raw + len + HUGE_PAGE - (p + len)));
  /* Before the first touch, so the first fault already takes a huge page. */
  madvise (p, len, MADV_HUGEPAGE);
  return p;
}

void
dm_free_io (void *p, size_t size)
{
  if (p)
    munmap (p, io_map_size (size));
}

static void (*interrupt_fn) (void *);
static void *interrupt_user;

static void
on_signal (int sig)
{
  (void) sig;
  if (interrupt_fn)
    interrupt_fn (interrupt_user);
}

int
dm_interrupt_install (void (*fn) (void *user), void *user)
{
  struct sigaction sa;
  interrupt_fn = fn;
  interrupt_user = user;
  memset (&sa, 0, sizeof sa);
  sa.sa_handler = on_signal;
  sigemptyset (&sa.sa_mask);
  if (sigaction (SIGINT, &sa, NULL) < 0 || sigaction (SIGTERM, &sa, NULL) < 0
      || sigaction (SIGHUP, &sa, NULL) < 0)
    return -errno;
  return 0;
}

int
dm_args_utf8 (int *argc, char ***argv)
{
  /* POSIX arguments are the bytes the user typed, UTF-8 in any sane locale. */
  (void) argc;
  (void) argv;
  return 0;
}

const char *
dm_strerror (int code)
{
  switch (code)
    {
    case DM_E_NODIRECT:  return "unbuffered I/O (O_DIRECT) is not supported here";
    case DM_E_SHORT:     return "the device moved no bytes (end of file or device)";
    case DM_E_NOBACKEND: return "no I/O backend works here";
    case DM_E_BLOCKDEV:  return "a block device, not a file";
    case DM_E_NOTFILE:   return "neither a file nor a stream to write into";
    case DM_E_NOUDISKS:  return "udisks2, which opens disks for users, is not running "
                                "(start it: systemctl start udisks2; or run as root)";
    case DM_E_NOLIBRARY: return "a shared library Diskmeter loads on first use is missing";
    case DM_E_NOLIBSYSTEMD:
      return "the disk needs root, or udisks2 asked through libsystemd.so.0, "
             "which cannot be loaded (install libsystemd0; or run as root)";
    case -ECANCELED:     return "cancelled";
    default:
      /* strerror's table is static and read-only in glibc, so sharing it
       * between threads is safe. */
      return code < 0 ? strerror (-code) : "no error";
    }
}
