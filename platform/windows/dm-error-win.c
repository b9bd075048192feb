/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Win32 errors become the engine's errno-style codes here and nowhere else,
 * so the engine and the reports speak one language on every OS. Also the
 * UTF-8 <-> UTF-16 conversions every Win32 call with a path needs.
 */
#include "dm-win-private.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

/* Newer than some MinGW-w64 headers. */
#ifndef ERROR_DISK_QUOTA_EXCEEDED
#define ERROR_DISK_QUOTA_EXCEEDED 1295
#endif
#ifndef ERROR_OFFSET_ALIGNMENT_VIOLATION
#define ERROR_OFFSET_ALIGNMENT_VIOLATION 327
#endif

int
_dm_win_error (DWORD error)
{
  switch (error)
    {
    case ERROR_SUCCESS:
      return 0;
    case ERROR_FILE_NOT_FOUND:
    case ERROR_PATH_NOT_FOUND:
    case ERROR_INVALID_DRIVE:
    case ERROR_BAD_NETPATH:
    case ERROR_BAD_NET_NAME:
    case ERROR_BAD_PATHNAME:
    case ERROR_INVALID_NAME:
    case ERROR_UNRECOGNIZED_VOLUME:
      return -ENOENT;
    case ERROR_DIRECTORY:
      return -ENOTDIR;
    case ERROR_ACCESS_DENIED:
    case ERROR_INVALID_ACCESS:
    case ERROR_NETWORK_ACCESS_DENIED:
      return -EACCES;
    case ERROR_PRIVILEGE_NOT_HELD:
      return -EPERM;
    case ERROR_WRITE_PROTECT:
      return -EROFS;
    case ERROR_DISK_FULL:
    case ERROR_HANDLE_DISK_FULL:
    case ERROR_DISK_QUOTA_EXCEEDED:
      return -ENOSPC;
    case ERROR_FILE_EXISTS:
    case ERROR_ALREADY_EXISTS:
      return -EEXIST;
    case ERROR_SHARING_VIOLATION:
    case ERROR_LOCK_VIOLATION:
    case ERROR_BUSY:
    case ERROR_DRIVE_LOCKED:
      return -EBUSY;
    case ERROR_NOT_ENOUGH_MEMORY:
    case ERROR_OUTOFMEMORY:
    case ERROR_NO_SYSTEM_RESOURCES:
    case ERROR_WORKING_SET_QUOTA:
      return -ENOMEM;
    case ERROR_TOO_MANY_OPEN_FILES:
      return -EMFILE;
    case ERROR_FILENAME_EXCED_RANGE:
      return -ENAMETOOLONG;
    case ERROR_NO_UNICODE_TRANSLATION:
      return -EILSEQ;
    case ERROR_OPERATION_ABORTED:
      return -ECANCELED;
    case ERROR_SEM_TIMEOUT:
    case WAIT_TIMEOUT:
      return -ETIMEDOUT;
    case ERROR_INVALID_PARAMETER:
    case ERROR_INVALID_HANDLE:
    case ERROR_NEGATIVE_SEEK:
    case ERROR_OFFSET_ALIGNMENT_VIOLATION:
      return -EINVAL;
    case ERROR_NOT_SUPPORTED:
    case ERROR_INVALID_FUNCTION:
    case ERROR_CALL_NOT_IMPLEMENTED:
      return -ENOTSUP;
    case ERROR_DEV_NOT_EXIST:
    case ERROR_DEVICE_REMOVED:
    case ERROR_DEVICE_NOT_CONNECTED:
    case ERROR_NOT_READY:
      return -ENODEV;
    default:
      /* CRC errors, bad sectors, controller resets: the device failed. */
      return -EIO;
    }
}

int
_dm_nt_error (NTSTATUS status)
{
  return _dm_win_error (RtlNtStatusToDosError (status));
}

const char *
dm_strerror (int code)
{
  /* msvcrt's strerror knows only the errno values of 1990 and words them
   * its own way; the same failure should read the same in a report from
   * Windows as in one from Linux, so these are glibc's sentences. */
  switch (code)
    {
    case 0: return "no error";
    case DM_E_NODIRECT: return "unbuffered I/O (FILE_FLAG_NO_BUFFERING) is not supported here";
    case DM_E_SHORT: return "the device moved no bytes (end of file or device)";
    case DM_E_NOBACKEND: return "no I/O backend works here";
    case DM_E_BLOCKDEV: return "a block device, not a file";
    case DM_E_NOTFILE: return "neither a file nor a stream to write into";
    case -ECANCELED: return "cancelled";
    case -ENOENT: return "No such file or directory";
    case -ENOTDIR: return "Not a directory";
    case -EACCES: return "Permission denied";
    case -EPERM: return "Operation not permitted";
    case -EROFS: return "Read-only file system";
    case -ENOSPC: return "No space left on device";
    case -EEXIST: return "File exists";
    case -EBUSY: return "Device or resource busy";
    case -ENOMEM: return "Cannot allocate memory";
    case -EMFILE: return "Too many open files";
    case -ENAMETOOLONG: return "File name too long";
    case -EILSEQ: return "Invalid or incomplete multibyte or wide character";
    case -ETIMEDOUT: return "Connection timed out";
    case -EINVAL: return "Invalid argument";
    case -ENOTSUP: return "Operation not supported";
    case -ENODEV: return "No such device";
    case -EIO: return "Input/output error";
    case -EINTR: return "Interrupted system call";
    case -EAGAIN: return "Resource temporarily unavailable";
    default:
      break;
    }
  return code < 0 && code > -1000 ? strerror (-code) : "unknown error";
}

wchar_t *
_dm_utf8_to_wide (const char *s, int *err)
{
  int n = MultiByteToWideChar (CP_UTF8, MB_ERR_INVALID_CHARS, s, -1, NULL, 0);
  wchar_t *w;

  if (n <= 0)
    {
      *err = _dm_win_error (GetLastError ());
      return NULL;
    }
  w = malloc ((size_t) n * sizeof *w);
  if (w == NULL)
    {
      *err = -ENOMEM;
      return NULL;
    }
  MultiByteToWideChar (CP_UTF8, MB_ERR_INVALID_CHARS, s, -1, w, n);
  return w;
}

int
_dm_wide_to_utf8 (const wchar_t *w, char *buf, size_t size)
{
  int n;

  if (size == 0)
    return -ENAMETOOLONG;
  n = WideCharToMultiByte (CP_UTF8, 0, w, -1, buf, size > INT32_MAX ? INT32_MAX : (int) size,
                           NULL, NULL);
  if (n <= 0)
    {
      buf[0] = '\0';
      return GetLastError () == ERROR_INSUFFICIENT_BUFFER ? -ENAMETOOLONG : -EILSEQ;
    }
  return 0;
}

wchar_t *
_dm_win_path (const char *utf8, int *err)
{
  wchar_t *w, *full = NULL, *out = NULL;
  DWORD n;

  if (utf8 == NULL || utf8[0] == '\0')
    {
      *err = -ENOENT;
      return NULL;
    }
  w = _dm_utf8_to_wide (utf8, err);
  if (w == NULL)
    return NULL;

  /* "E:" alone is the current folder of drive E: to Win32; a user who types
   * it means the drive. */
  if (iswalpha (w[0]) && w[1] == L':' && w[2] == L'\0')
    {
      wchar_t *root = malloc (4 * sizeof *root);
      if (root == NULL)
        {
          *err = -ENOMEM;
          goto out;
        }
      root[0] = w[0];
      root[1] = L':';
      root[2] = L'\\';
      root[3] = L'\0';
      free (w);
      w = root;
    }

  /* Device and already prefixed paths are taken as they are. */
  if (wcsncmp (w, L"\\\\?\\", 4) == 0 || wcsncmp (w, L"\\\\.\\", 4) == 0)
    {
      out = w;
      w = NULL;
      goto out;
    }

  n = GetFullPathNameW (w, 0, NULL, NULL);
  if (n == 0)
    {
      *err = _dm_win_error (GetLastError ());
      goto out;
    }
  full = malloc ((n + 8) * sizeof *full);
  if (full == NULL)
    {
      *err = -ENOMEM;
      goto out;
    }
  n = GetFullPathNameW (w, n + 8, full, NULL);
  if (n == 0)
    {
      *err = _dm_win_error (GetLastError ());
      goto out;
    }

  /* Past MAX_PATH less room for "\diskmeter-XXXXXX.tmp", only the \\?\
   * form works on systems without the long path opt-in. */
  if (n + 24 >= MAX_PATH)
    {
      bool unc = full[0] == L'\\' && full[1] == L'\\';
      size_t len = wcslen (full);
      out = malloc ((len + 9) * sizeof *out);
      if (out == NULL)
        {
          *err = -ENOMEM;
          goto out;
        }
      if (unc)
        {
          wcscpy (out, L"\\\\?\\UNC\\");
          wcscat (out, full + 2);
        }
      else
        {
          wcscpy (out, L"\\\\?\\");
          wcscat (out, full);
        }
    }
  else
    {
      out = full;
      full = NULL;
    }

out:
  free (w);
  free (full);
  return out;
}

int
_dm_win_ioctl (HANDLE h, DWORD code, const void *in, DWORD in_size,
               void *out, DWORD out_size, DWORD *returned)
{
  OVERLAPPED ov = { 0 };
  DWORD got = 0;
  int ret = 0;

  /* An overlapped handle needs an OVERLAPPED and an event even here; the
   * handles passed in are never tied to a completion port. */
  ov.hEvent = CreateEventW (NULL, TRUE, FALSE, NULL);
  if (ov.hEvent == NULL)
    return _dm_win_error (GetLastError ());

  if (!DeviceIoControl (h, code, (void *) in, in_size, out, out_size, &got, &ov))
    {
      DWORD e = GetLastError ();
      if (e != ERROR_IO_PENDING || !GetOverlappedResult (h, &ov, &got, TRUE))
        ret = _dm_win_error (e == ERROR_IO_PENDING ? GetLastError () : e);
    }
  CloseHandle (ov.hEvent);
  if (returned != NULL)
    *returned = got;
  return ret;
}
