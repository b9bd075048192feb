/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * What the files of platform/windows share and nobody else sees: the test
 * file's handle, the one translation from Win32 errors to the engine's
 * codes, and UTF-8 <-> UTF-16 path conversion.
 */
#pragma once

#ifndef WIN32_LEAN_AND_MEAN
#define WIN32_LEAN_AND_MEAN
#endif
#include <windows.h>
#include <winioctl.h>
#include <winternl.h>

#include <stdbool.h>
#include <stdint.h>

#include "dm-faults-private.h"
#include "dm-platform.h"

struct dm_file {
  HANDLE   handle;       /* opened FILE_FLAG_OVERLAPPED, never tied to a port */
  wchar_t *wpath;        /* to open it again if ReOpenFile is missing */
  DWORD    access;       /* GENERIC_* it was opened with */
  DWORD    flags;        /* FILE_FLAG_* it was opened with */
  uint32_t sector_size;  /* logical sector: unbuffered I/O alignment */
  uint64_t device_size;  /* bytes, for a device; 0 for a test file */
  bool     is_device;
};

/* The one place a Win32 error becomes an engine code (-ENOSPC, -EROFS...). */
int _dm_win_error (DWORD error);
/* The same for an NTSTATUS, as found in a completed OVERLAPPED. */
int _dm_nt_error (NTSTATUS status);

/* A malloc'd UTF-16 copy of a UTF-8 string, or NULL (*err set). */
wchar_t *_dm_utf8_to_wide (const char *s, int *err);
/* UTF-16 into buf as UTF-8; 0, -ENAMETOOLONG or -EILSEQ. */
int _dm_wide_to_utf8 (const wchar_t *w, char *buf, size_t size);
/* A path the user gave (UTF-8: "E:", "E:\\bench", "..\\x") as a malloc'd
 * absolute UTF-16 path; a bare drive letter means its root, as users mean
 * it. Long paths get the \\?\ prefix. NULL on error (*err set). */
wchar_t *_dm_win_path (const char *utf8, int *err);

/* A DeviceIoControl that works on overlapped and synchronous handles
 * alike. Returns 0 or an engine code. */
int _dm_win_ioctl (HANDLE h, DWORD code, const void *in, DWORD in_size,
                   void *out, DWORD out_size, DWORD *returned);

/* A new handle with its own file object, so that each worker's completion
 * port can own one (a file object belongs to at most one port). */
HANDLE _dm_file_reopen (dm_file *file, DWORD extra_flags, int *err);

/* A REG_SZ value of HKEY_LOCAL_MACHINE as UTF-8; 0 or a negative code. */
int _dm_win_reg_string (const wchar_t *key, const wchar_t *value, char *buf, size_t size);
/* Blanks and newlines off both ends, in place. */
void _dm_win_trim (char *s);

/* The hypervisor, the firmware's maker and product, sockets, cores,
 * threads and NUMA nodes into info (logical_cpus already set). */
void _dm_win_machine_facts (dm_system_info *info);
/* The adapter behind an open disk (or volume) handle: its miniport as
 * driver, "BUS (miniport)" as bus, its scatter-gather limit, and what
 * _dm_win_miniport_facts reads. Nothing is set that Windows does not say. */
void _dm_win_adapter_facts (HANDLE disk, const char *bus, dm_target_info *info);
/* What the registry says of a miniport (pvscsi, LSI_SAS, stornvme): the
 * controller's name, its DriverParameter, and for pvscsi the queue depth
 * set there as MaxQueueDepth. 0 or a negative code. */
int _dm_win_miniport_facts (const char *miniport, dm_target_info *info);
