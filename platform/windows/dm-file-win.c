/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The test file on Windows: a new, uniquely named file opened unbuffered and
 * overlapped with FILE_FLAG_DELETE_ON_CLOSE, so that the system removes it
 * when the last handle goes, even if Diskmeter is killed. Also raw devices
 * and the search for files left by older versions.
 */
#include "dm-win-private.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#define DM_SHARE_ALL (FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE)

static DWORD
open_flags (const dm_file_options *opt)
{
  DWORD flags = FILE_FLAG_OVERLAPPED;

  if (opt == NULL || opt->direct)
    flags |= FILE_FLAG_NO_BUFFERING;
  if (opt != NULL && opt->write_through)
    flags |= FILE_FLAG_WRITE_THROUGH;
  return flags;
}

/* Logical sector size of the volume that holds path: the unit that offsets,
 * lengths and buffer addresses of unbuffered I/O must be multiples of. */
static uint32_t
volume_sector_size (const wchar_t *path)
{
  wchar_t root[MAX_PATH + 1];
  DWORD spc, bps, nfree, total;

  if (GetVolumePathNameW (path, root, MAX_PATH + 1)
      && GetDiskFreeSpaceW (root, &spc, &bps, &nfree, &total)
      && bps >= 512 && (bps & (bps - 1)) == 0)
    return bps;
  return 4096; /* safe for every 512e and 4Kn disk */
}

static uint64_t
random_bits (unsigned attempt)
{
  LARGE_INTEGER c;
  uint64_t x;

  /* Uniqueness comes from CREATE_NEW; this only makes collisions rare. */
  QueryPerformanceCounter (&c);
  x = (uint64_t) c.QuadPart ^ ((uint64_t) GetCurrentProcessId () << 32)
      ^ ((uint64_t) GetCurrentThreadId () << 16) ^ ((uint64_t) attempt * 0x9e3779b97f4a7c15ull);
  x ^= x >> 30;
  x *= 0xbf58476d1ce4e5b9ull;
  x ^= x >> 27;
  x *= 0x94d049bb133111ebull;
  x ^= x >> 31;
  return x;
}

/* NTFS compresses a new file when its folder is compressed; a benchmark of
 * the compressor is not what the user asked for. Failure is harmless on a
 * filesystem without compression. */
static void
disable_compression (HANDLE h)
{
  BY_HANDLE_FILE_INFORMATION info;
  USHORT format = COMPRESSION_FORMAT_NONE;

  if (GetFileInformationByHandle (h, &info)
      && (info.dwFileAttributes & FILE_ATTRIBUTE_COMPRESSED) == 0)
    return;
  _dm_win_ioctl (h, FSCTL_SET_COMPRESSION, &format, sizeof format, NULL, 0, NULL);
}

static wchar_t *
join_name (const wchar_t *dir, const wchar_t *name)
{
  size_t dl = wcslen (dir), nl = wcslen (name);
  bool sep = dl > 0 && dir[dl - 1] != L'\\' && dir[dl - 1] != L'/';
  wchar_t *p = malloc ((dl + nl + 2) * sizeof *p);

  if (p == NULL)
    return NULL;
  memcpy (p, dir, dl * sizeof *p);
  if (sep)
    p[dl++] = L'\\';
  memcpy (p + dl, name, (nl + 1) * sizeof *p);
  return p;
}

int
dm_file_create_temp (const char *dir, const dm_file_options *opt,
                     dm_file **out, char *path, size_t path_size)
{
  static const char alphabet[] = "abcdefghijklmnopqrstuvwxyz0123456789";
  wchar_t *wdir = NULL, *wpath = NULL;
  dm_file *file = NULL;
  DWORD attr, flags = open_flags (opt);
  DWORD access = GENERIC_READ | GENERIC_WRITE | DELETE;
  HANDLE h = INVALID_HANDLE_VALUE;
  int ret = 0;

  *out = NULL;
  if ((ret = _dm_fault_check (DM_FAULT_CREATE)) < 0)
    return ret;
  wdir = _dm_win_path (dir, &ret);
  if (wdir == NULL)
    goto out;
  attr = GetFileAttributesW (wdir);
  if (attr == INVALID_FILE_ATTRIBUTES)
    {
      ret = _dm_win_error (GetLastError ());
      goto out;
    }
  if ((attr & FILE_ATTRIBUTE_DIRECTORY) == 0)
    {
      ret = -ENOTDIR;
      goto out;
    }

  for (unsigned attempt = 0; attempt < 100; attempt++)
    {
      uint64_t bits = random_bits (attempt);
      wchar_t name[32];
      DWORD e;

      wcscpy (name, L"diskmeter-XXXXXX.tmp");
      for (int i = 0; i < 6; i++, bits /= 36)
        name[10 + i] = (wchar_t) alphabet[bits % 36];
      free (wpath);
      wpath = join_name (wdir, name);
      if (wpath == NULL)
        {
          ret = -ENOMEM;
          goto out;
        }

      /* CREATE_NEW never opens an existing file, so a user's file that
       * happens to carry the name is never touched. The share mode lets
       * each worker open its own handle for its own completion port. */
      h = CreateFileW (wpath, access, DM_SHARE_ALL, NULL, CREATE_NEW,
                       FILE_ATTRIBUTE_NORMAL | FILE_ATTRIBUTE_NOT_CONTENT_INDEXED
                       | FILE_FLAG_DELETE_ON_CLOSE | flags, NULL);
      if (h != INVALID_HANDLE_VALUE)
        break;
      e = GetLastError ();
      if (e == ERROR_FILE_EXISTS || e == ERROR_ALREADY_EXISTS)
        continue;
      if ((flags & FILE_FLAG_NO_BUFFERING) && (e == ERROR_INVALID_PARAMETER || e == ERROR_NOT_SUPPORTED))
        {
          /* Tell "this filesystem cannot do unbuffered I/O" apart from any
           * other refusal: the same open without it must work. */
          h = CreateFileW (wpath, access, DM_SHARE_ALL, NULL, CREATE_NEW,
                           FILE_ATTRIBUTE_NORMAL | FILE_FLAG_DELETE_ON_CLOSE
                           | (flags & ~(DWORD) FILE_FLAG_NO_BUFFERING), NULL);
          if (h != INVALID_HANDLE_VALUE)
            {
              CloseHandle (h);
              h = INVALID_HANDLE_VALUE;
              ret = DM_E_NODIRECT;
              goto out;
            }
        }
      ret = _dm_win_error (e);
      goto out;
    }
  if (h == INVALID_HANDLE_VALUE)
    {
      ret = -EEXIST;
      goto out;
    }
  /* Where Linux unlinks the name, Windows already holds the delete: a
   * failure armed here closes (and so removes) the new file. */
  if ((ret = _dm_fault_check (DM_FAULT_UNLINK)) < 0)
    goto out;

  disable_compression (h);

  file = calloc (1, sizeof *file);
  if (file == NULL)
    {
      ret = -ENOMEM;
      goto out;
    }
  file->handle = h;
  file->access = access;
  file->flags = flags;
  file->sector_size = volume_sector_size (wpath);
  file->wpath = wpath;
  h = INVALID_HANDLE_VALUE;
  wpath = NULL;

  if (path != NULL)
    {
      ret = _dm_wide_to_utf8 (file->wpath, path, path_size);
      if (ret < 0)
        goto out;
    }
  *out = file;
  file = NULL;

out:
  if (h != INVALID_HANDLE_VALUE)
    CloseHandle (h);
  dm_file_close (file);
  free (wdir);
  free (wpath);
  return ret;
}

int
dm_file_open_device (const char *device, bool writable,
                     const dm_file_options *opt, dm_file **out)
{
  DISK_GEOMETRY_EX geometry;
  GET_LENGTH_INFORMATION length;
  wchar_t *wpath;
  dm_file *file = NULL;
  DWORD access = GENERIC_READ | (writable ? GENERIC_WRITE : 0);
  DWORD flags = open_flags (opt);
  HANDLE h;
  int ret = 0;

  *out = NULL;
  wpath = _dm_win_path (device, &ret);
  if (wpath == NULL)
    return ret;
  h = CreateFileW (wpath, access, FILE_SHARE_READ | FILE_SHARE_WRITE, NULL,
                   OPEN_EXISTING, flags, NULL);
  if (h == INVALID_HANDLE_VALUE)
    {
      ret = _dm_win_error (GetLastError ());
      goto out;
    }

  /* Windows refuses writes into a mounted volume; a volume the user gave
   * up for the test is locked and dismounted first. */
  if (writable && wcsncmp (wpath, L"\\\\.\\", 4) == 0 && wcschr (wpath + 4, L':') != NULL)
    {
      ret = _dm_win_ioctl (h, FSCTL_LOCK_VOLUME, NULL, 0, NULL, 0, NULL);
      if (ret == 0)
        ret = _dm_win_ioctl (h, FSCTL_DISMOUNT_VOLUME, NULL, 0, NULL, 0, NULL);
      if (ret < 0)
        {
          ret = -EBUSY;
          goto out;
        }
    }

  file = calloc (1, sizeof *file);
  if (file == NULL)
    {
      ret = -ENOMEM;
      goto out;
    }
  file->handle = h;
  file->access = access;
  file->flags = flags;
  file->is_device = true;
  file->sector_size = 512;
  h = INVALID_HANDLE_VALUE;
  if (_dm_win_ioctl (file->handle, IOCTL_DISK_GET_DRIVE_GEOMETRY_EX, NULL, 0,
                     &geometry, sizeof geometry, NULL) == 0
      && geometry.Geometry.BytesPerSector >= 512)
    file->sector_size = geometry.Geometry.BytesPerSector;
  if (_dm_win_ioctl (file->handle, IOCTL_DISK_GET_LENGTH_INFO, NULL, 0,
                     &length, sizeof length, NULL) == 0)
    file->device_size = (uint64_t) length.Length.QuadPart;
  file->wpath = wpath;
  wpath = NULL;
  *out = file;

out:
  if (h != INVALID_HANDLE_VALUE)
    CloseHandle (h);
  free (wpath);
  return ret;
}

HANDLE
_dm_file_reopen (dm_file *file, DWORD extra_flags, int *err)
{
  DWORD flags = (file->flags & ~(DWORD) FILE_FLAG_DELETE_ON_CLOSE) | extra_flags;
  HANDLE h;

  h = ReOpenFile (file->handle, file->access & ~(DWORD) DELETE, DM_SHARE_ALL, flags);
  if (h != INVALID_HANDLE_VALUE)
    return h;
  /* Older Wine lacks ReOpenFile; the path leads to the same file while
   * our first handle keeps it alive. */
  h = CreateFileW (file->wpath, file->access & ~(DWORD) DELETE,
                   file->is_device ? FILE_SHARE_READ | FILE_SHARE_WRITE : DM_SHARE_ALL,
                   NULL, OPEN_EXISTING, flags, NULL);
  if (h == INVALID_HANDLE_VALUE)
    *err = _dm_win_error (GetLastError ());
  return h;
}

int
dm_file_reserve (dm_file *file, uint64_t size)
{
  FILE_ALLOCATION_INFO alloc;
  FILE_END_OF_FILE_INFO eof;
  LARGE_INTEGER pos;
  int err = _dm_fault_check (DM_FAULT_RESERVE);

  if (err < 0)
    return err;
  if (file->is_device)
    return size <= file->device_size ? 0 : -ENOSPC;

  /* Allocation first, so that a full disk says so now and not halfway
   * through filling; then the end of file the engine writes up to. */
  alloc.AllocationSize.QuadPart = (LONGLONG) size;
  if (!SetFileInformationByHandle (file->handle, FileAllocationInfo, &alloc, sizeof alloc))
    {
      /* Filesystems without allocation control refuse; only "full" counts. */
      err = _dm_win_error (GetLastError ());
      if (err == -ENOSPC)
        return err;
    }
  eof.EndOfFile.QuadPart = (LONGLONG) size;
  if (SetFileInformationByHandle (file->handle, FileEndOfFileInfo, &eof, sizeof eof))
    return 0;
  pos.QuadPart = (LONGLONG) size;
  if (!SetFilePointerEx (file->handle, pos, NULL, FILE_BEGIN) || !SetEndOfFile (file->handle))
    return _dm_win_error (GetLastError ());
  return 0;
}

int
dm_file_write_at (dm_file *file, const void *buf, size_t len, uint64_t offset)
{
  const char *p = buf;
  HANDLE event;
  int ret = 0;

  event = CreateEventW (NULL, TRUE, FALSE, NULL);
  if (event == NULL)
    return _dm_win_error (GetLastError ());

  while (len > 0)
    {
      OVERLAPPED ov = { 0 };
      DWORD chunk = len > (1u << 30) ? (1u << 30) : (DWORD) len;
      DWORD done = 0;

      ov.Offset = (DWORD) offset;
      ov.OffsetHigh = (DWORD) (offset >> 32);
      ov.hEvent = event;
      if ((ret = _dm_fault_check (DM_FAULT_WRITE)) < 0)
        {
          if (ret == -EINTR || ret == -EAGAIN)
            {
              ret = 0;
              continue;
            }
          break;
        }
      if (_dm_fault_check (DM_FAULT_SHORT_WRITE) && chunk / 2 >= file->sector_size)
        chunk = (chunk / 2) & ~(file->sector_size - 1);
      if (!WriteFile (file->handle, p, chunk, NULL, &ov) && GetLastError () != ERROR_IO_PENDING)
        {
          ret = _dm_win_error (GetLastError ());
          break;
        }
      if (!GetOverlappedResult (file->handle, &ov, &done, TRUE))
        {
          ret = _dm_win_error (GetLastError ());
          break;
        }
      if (done == 0)
        {
          ret = DM_E_SHORT;
          break;
        }
      /* A short write is legal; the rest goes in the next round. */
      p += done;
      len -= done;
      offset += done;
    }
  CloseHandle (event);
  return ret;
}

/* NTFS has no copy-on-write to switch off (ReFS integrity streams are off
 * by default for new files). */
bool
dm_file_is_nocow (const dm_file *file)
{
  (void) file;
  return false;
}

int
dm_file_sync (dm_file *file)
{
  int err = _dm_fault_check (DM_FAULT_SYNC);

  if (err < 0)
    return err;
  if (!FlushFileBuffers (file->handle))
    return _dm_win_error (GetLastError ());
  return 0;
}

void
dm_file_close (dm_file *file)
{
  if (file == NULL)
    return;
  /* For a test file this is the delete: FILE_FLAG_DELETE_ON_CLOSE acts when
   * the last handle, this one after the workers' own, is closed. */
  if (file->handle != NULL && file->handle != INVALID_HANDLE_VALUE)
    CloseHandle (file->handle);
  free (file->wpath);
  free (file);
}

static int
write_all (HANDLE h, const void *data, size_t len)
{
  const char *p = data;
  while (len > 0)
    {
      DWORD chunk = len > (1u << 30) ? (1u << 30) : (DWORD) len, done = 0;

      if (!WriteFile (h, p, chunk, &done, NULL))
        return _dm_win_error (GetLastError ());
      if (done == 0)
        return -EIO;
      p += done;
      len -= done;
    }
  return 0;
}

/* NUL, CON, a COM port, a named pipe: written into as cmd's > would, never
 * created or replaced. */
static int
write_stream (const wchar_t *wpath, const void *data, size_t len)
{
  HANDLE h = CreateFileW (wpath, GENERIC_WRITE, FILE_SHARE_READ | FILE_SHARE_WRITE, NULL,
                          OPEN_EXISTING, 0, NULL);
  int ret;

  if (h == INVALID_HANDLE_VALUE)
    return _dm_win_error (GetLastError ());
  ret = write_all (h, data, len);
  CloseHandle (h);
  return ret;
}

/* A path in the device namespace that names a whole device rather than a
 * file on it: \\.\C:, \\.\PhysicalDrive0, \\?\Volume{...}. */
static bool
is_device_path (const wchar_t *w)
{
  if (wcsncmp (w, L"\\\\.\\", 4) != 0 && wcsncmp (w, L"\\\\?\\", 4) != 0)
    return false;
  return wcschr (w + 4, L'\\') == NULL;
}

/* A new file beside wpath, flushed, then put in its place: ReplaceFileW
 * over an existing file (old is not NULL), which keeps its security
 * descriptor, creation time, streams and attributes; a plain rename where
 * nothing was, which fails rather than replace a file that appeared in
 * the meantime. */
static int
replace_file (const wchar_t *wpath, const BY_HANDLE_FILE_INFORMATION *old, const void *data,
              size_t len)
{
  size_t n = wcslen (wpath);
  wchar_t *wtmp = malloc ((n + 32) * sizeof *wtmp);
  HANDLE h = INVALID_HANDLE_VALUE;
  bool created = false;
  int ret = 0;

  if (wtmp == NULL)
    return -ENOMEM;
  for (unsigned attempt = 0; attempt < 100; attempt++)
    {
      DWORD e;

      swprintf (wtmp, n + 32, L"%ls.%08x.part", wpath, (unsigned) random_bits (attempt));
      h = CreateFileW (wtmp, GENERIC_WRITE, 0, NULL, CREATE_NEW, FILE_ATTRIBUTE_NORMAL, NULL);
      if (h != INVALID_HANDLE_VALUE)
        {
          created = true;
          break;
        }
      e = GetLastError ();
      if (e != ERROR_FILE_EXISTS && e != ERROR_ALREADY_EXISTS)
        {
          ret = _dm_win_error (e);
          goto out;
        }
    }
  if (h == INVALID_HANDLE_VALUE)
    {
      ret = -EEXIST;
      goto out;
    }
  if ((ret = write_all (h, data, len)) < 0)
    goto out;
  if (!FlushFileBuffers (h))
    {
      ret = _dm_win_error (GetLastError ());
      goto out;
    }
  CloseHandle (h);
  h = INVALID_HANDLE_VALUE;

  if (old == NULL)
    {
      if (!MoveFileExW (wtmp, wpath, MOVEFILE_WRITE_THROUGH))
        ret = _dm_win_error (GetLastError ());
      goto out;
    }
  if (!ReplaceFileW (wpath, wtmp, NULL,
                     REPLACEFILE_IGNORE_MERGE_ERRORS | REPLACEFILE_IGNORE_ACL_ERRORS, NULL, NULL))
    {
      DWORD e = GetLastError ();
      /* Both leave the old file under its name, untouched; the usual cause
       * is a program that holds it open (Excel, with the last export). */
      ret = e == ERROR_UNABLE_TO_REMOVE_REPLACED || e == ERROR_UNABLE_TO_MOVE_REPLACEMENT
                ? -EBUSY
                : _dm_win_error (e);
      goto out;
    }
  created = false;
  /* ReplaceFileW carries the attributes over; where a filesystem or an
   * emulation does not, they are set again. */
  DWORD keep = old->dwFileAttributes
               & (FILE_ATTRIBUTE_HIDDEN | FILE_ATTRIBUTE_SYSTEM | FILE_ATTRIBUTE_ARCHIVE
                  | FILE_ATTRIBUTE_NOT_CONTENT_INDEXED);
  DWORD now = GetFileAttributesW (wpath);
  if (now != INVALID_FILE_ATTRIBUTES && (now & keep) != keep)
    SetFileAttributesW (wpath, now | keep);

out:
  if (h != INVALID_HANDLE_VALUE)
    CloseHandle (h);
  if (ret < 0 && created)
    DeleteFileW (wtmp);
  free (wtmp);
  return ret;
}

int
dm_file_replace_contents (const char *path, const void *data, size_t len)
{
  BY_HANDLE_FILE_INFORMATION info;
  wchar_t *wpath, *wreal = NULL;
  HANDLE h;
  DWORD type;
  int ret = 0;

  wpath = _dm_win_path (path, &ret);
  if (wpath == NULL)
    return ret;
  /* Opened to look at it, a pipe would be connected to and its instance
   * used up. */
  if (_wcsnicmp (wpath, L"\\\\.\\pipe\\", 9) == 0)
    {
      ret = write_stream (wpath, data, len);
      goto out;
    }

  /* What is there, without following a link and without opening it for
   * anything but its attributes (a disk opened so cannot be written). */
  h = CreateFileW (wpath, FILE_READ_ATTRIBUTES, DM_SHARE_ALL, NULL, OPEN_EXISTING,
                   FILE_FLAG_BACKUP_SEMANTICS | FILE_FLAG_OPEN_REPARSE_POINT, NULL);
  if (h == INVALID_HANDLE_VALUE)
    {
      DWORD e = GetLastError ();
      ret = e == ERROR_FILE_NOT_FOUND ? replace_file (wpath, NULL, data, len) : _dm_win_error (e);
      goto out;
    }
  type = GetFileType (h);
  if (type == FILE_TYPE_CHAR || type == FILE_TYPE_PIPE)
    {
      CloseHandle (h);
      ret = write_stream (wpath, data, len);
      goto out;
    }
  if (is_device_path (wpath))
    {
      CloseHandle (h);
      ret = DM_E_BLOCKDEV;
      goto out;
    }
  if (!GetFileInformationByHandle (h, &info))
    {
      ret = _dm_win_error (GetLastError ());
      CloseHandle (h);
      goto out;
    }
  CloseHandle (h);
  if (info.dwFileAttributes & FILE_ATTRIBUTE_DIRECTORY)
    {
      ret = -EISDIR;
      goto out;
    }
  /* The attributes of the name itself, never of what a link leads to; some
   * implementations (Wine) leave the reparse point out of the handle's. */
  DWORD own = GetFileAttributesW (wpath);
  if ((info.dwFileAttributes | (own != INVALID_FILE_ATTRIBUTES ? own : 0))
      & FILE_ATTRIBUTE_REPARSE_POINT)
    {
      /* A symbolic link stays: the file it leads to is the one replaced. */
      DWORD n;
      h = CreateFileW (wpath, FILE_READ_ATTRIBUTES, DM_SHARE_ALL, NULL, OPEN_EXISTING,
                       FILE_FLAG_BACKUP_SEMANTICS, NULL);
      if (h == INVALID_HANDLE_VALUE)
        {
          ret = _dm_win_error (GetLastError ());
          goto out;
        }
      n = GetFinalPathNameByHandleW (h, NULL, 0, FILE_NAME_NORMALIZED | VOLUME_NAME_DOS);
      if (n == 0 || !GetFileInformationByHandle (h, &info))
        ret = _dm_win_error (GetLastError ());
      else if ((wreal = malloc ((n + 1) * sizeof *wreal)) == NULL)
        ret = -ENOMEM;
      else if (!GetFinalPathNameByHandleW (h, wreal, n + 1, FILE_NAME_NORMALIZED | VOLUME_NAME_DOS))
        ret = _dm_win_error (GetLastError ());
      CloseHandle (h);
      if (ret < 0)
        goto out;
      if (info.dwFileAttributes & (FILE_ATTRIBUTE_DIRECTORY | FILE_ATTRIBUTE_REPARSE_POINT))
        {
          ret = info.dwFileAttributes & FILE_ATTRIBUTE_DIRECTORY ? -EISDIR : DM_E_NOTFILE;
          goto out;
        }
    }
  /* Read-only is the user's own "do not change this file", as cmd's >
   * and every editor take it. */
  if (info.dwFileAttributes & FILE_ATTRIBUTE_READONLY)
    ret = -EACCES;
  else
    ret = replace_file (wreal ? wreal : wpath, &info, data, len);

out:
  free (wreal);
  free (wpath);
  return ret;
}

int
dm_stale_files (const char *dir,
                void (*fn) (const char *path, uint64_t size, void *user),
                void *user)
{
  WIN32_FIND_DATAW found;
  wchar_t *wdir, *pattern;
  HANDLE find;
  int ret = 0;

  wdir = _dm_win_path (dir, &ret);
  if (wdir == NULL)
    return ret;
  pattern = join_name (wdir, L"diskmeter-*.tmp");
  if (pattern == NULL)
    {
      free (wdir);
      return -ENOMEM;
    }
  find = FindFirstFileExW (pattern, FindExInfoBasic, &found, FindExSearchNameMatch, NULL, 0);
  if (find == INVALID_HANDLE_VALUE)
    {
      DWORD e = GetLastError ();
      ret = e == ERROR_FILE_NOT_FOUND || e == ERROR_NO_MORE_FILES ? 0 : _dm_win_error (e);
      goto out;
    }
  do
    {
      char path[1100];
      wchar_t *wpath;

      if (found.dwFileAttributes & FILE_ATTRIBUTE_DIRECTORY)
        continue;
      wpath = join_name (wdir, found.cFileName);
      if (wpath == NULL)
        {
          ret = -ENOMEM;
          break;
        }
      if (_dm_wide_to_utf8 (wpath, path, sizeof path) == 0)
        fn (path, ((uint64_t) found.nFileSizeHigh << 32) | found.nFileSizeLow, user);
      free (wpath);
    }
  while (FindNextFileW (find, &found));
  FindClose (find);

out:
  free (pattern);
  free (wdir);
  return ret;
}
