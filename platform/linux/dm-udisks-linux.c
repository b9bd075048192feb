/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Reading a whole disk without root, as GNOME Disks does: when opening a
 * block device for reading is refused, udisks2 is asked to open it
 * (OpenForBenchmark), polkit decides whether this user may, and the
 * descriptor comes back over the system bus. Writes never go this way.
 * libsystemd is loaded on first use, not linked: it brings libgcrypt,
 * liblz4, libcap and others into every start of the window and the CLI,
 * which read a whole disk without root rarely, if ever.
 */
#include "config.h"
#include "dm-linux-private.h"

#include <errno.h>
#include <stdbool.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#ifdef DM_HAVE_SDBUS
#include <pthread.h>
#include <systemd/sd-bus.h>

#include "dm-library.h"
#endif

#ifdef DM_HAVE_SDBUS
#define UDISKS_NAME "org.freedesktop.UDisks2"

/* The sd-bus calls this file makes, resolved from libsystemd.so.0 (the
 * soname, which the Debian package depends on) the first time a disk is
 * opened through udisks2. The macros below keep the calls as they read. */
static struct
{
  int (*error_has_name) (const sd_bus_error *, const char *);
  int (*error_is_set) (const sd_bus_error *);
  void (*error_free) (sd_bus_error *);
  int (*call_method) (sd_bus *, const char *, const char *, const char *, const char *,
                      sd_bus_error *, sd_bus_message **, const char *, ...);
  int (*message_enter_container) (sd_bus_message *, char, const char *);
  int (*message_read) (sd_bus_message *, const char *, ...);
  sd_bus_message *(*message_unref) (sd_bus_message *);
  int (*open_system) (sd_bus **);
  int (*set_allow_interactive_authorization) (sd_bus *, int);
  sd_bus *(*flush_close_unref) (sd_bus *);
} sdbus;
static int sdbus_status = 1;  /* 1 until loaded, then 0 or DM_E_NOLIBSYSTEMD */
static pthread_once_t sdbus_once = PTHREAD_ONCE_INIT;

static void
sdbus_load (void)
{
  static const dm_library_symbol symbols[] = {
    { "sd_bus_error_has_name", offsetof (__typeof__ (sdbus), error_has_name) },
    { "sd_bus_error_is_set", offsetof (__typeof__ (sdbus), error_is_set) },
    { "sd_bus_error_free", offsetof (__typeof__ (sdbus), error_free) },
    { "sd_bus_call_method", offsetof (__typeof__ (sdbus), call_method) },
    { "sd_bus_message_enter_container", offsetof (__typeof__ (sdbus), message_enter_container) },
    { "sd_bus_message_read", offsetof (__typeof__ (sdbus), message_read) },
    { "sd_bus_message_unref", offsetof (__typeof__ (sdbus), message_unref) },
    { "sd_bus_open_system", offsetof (__typeof__ (sdbus), open_system) },
    { "sd_bus_set_allow_interactive_authorization",
      offsetof (__typeof__ (sdbus), set_allow_interactive_authorization) },
    { "sd_bus_flush_close_unref", offsetof (__typeof__ (sdbus), flush_close_unref) },
  };
  char why[256];

  /* The loader's own words (a file not found, a symbol missing) are not
   * printed from here: the caller says in one line why the disk was not
   * opened, from DM_E_NOLIBSYSTEMD. */
  sdbus_status = dm_library_load ("libsystemd.so.0", symbols,
                                  sizeof symbols / sizeof symbols[0], &sdbus, why, sizeof why)
                 < 0 ? DM_E_NOLIBSYSTEMD : 0;
}

#define sd_bus_error_has_name sdbus.error_has_name
#define sd_bus_error_is_set sdbus.error_is_set
#define sd_bus_error_free sdbus.error_free
#define sd_bus_call_method sdbus.call_method
#define sd_bus_message_enter_container sdbus.message_enter_container
#define sd_bus_message_read sdbus.message_read
#define sd_bus_message_unref sdbus.message_unref
#define sd_bus_open_system sdbus.open_system
#define sd_bus_set_allow_interactive_authorization sdbus.set_allow_interactive_authorization
#define sd_bus_flush_close_unref sdbus.flush_close_unref

/* Whether a failed call means udisks2 is not there to answer: no system
 * bus, or no one owning (or able to start) its name. The bus's own codes
 * (EHOSTUNREACH, ENXIO) would read as a network fault. */
static bool
udisks_missing (const sd_bus_error *error, int r)
{
  return sd_bus_error_has_name (error, SD_BUS_ERROR_SERVICE_UNKNOWN)
         || sd_bus_error_has_name (error, SD_BUS_ERROR_NAME_HAS_NO_OWNER)
         || sd_bus_error_has_name (error, SD_BUS_ERROR_NO_SERVER)
         || (!sd_bus_error_is_set (error) && (r == -EHOSTUNREACH || r == -ENXIO));
}

/* The udisks2 object of a device node; -ENODEV where udisks2 does not
 * know it, or a negative code from the bus. */
static int
udisks_object (sd_bus *bus, const char *device, char **path)
{
  sd_bus_error error = SD_BUS_ERROR_NULL;
  sd_bus_message *reply = NULL;
  const char *object = NULL;
  int r;

  r = sd_bus_call_method (bus, UDISKS_NAME, "/org/freedesktop/UDisks2/Manager",
                          UDISKS_NAME ".Manager", "ResolveDevice", &error, &reply,
                          "a{sv}a{sv}", 1, "path", "s", device, 0);
  if (r < 0)
    {
      if (udisks_missing (&error, r))
        r = DM_E_NOUDISKS;
      goto out;
    }
  r = sd_bus_message_enter_container (reply, 'a', "o");
  if (r >= 0)
    r = sd_bus_message_read (reply, "o", &object);
  if (r <= 0 || !object)
    r = -ENODEV;
  else if (!(*path = strdup (object)))
    r = -ENOMEM;
  else
    r = 0;
out:
  sd_bus_error_free (&error);
  sd_bus_message_unref (reply);
  return r;
}

/* A read-only descriptor for device from udisks2, with O_DIRECT as flags
 * ask; -EACCES where polkit says no, DM_E_NOUDISKS where udisks2 is not
 * there, DM_E_NOLIBSYSTEMD where libsystemd.so.0 cannot be loaded to ask,
 * another negative code from the bus. */
static int
udisks_open (const char *device, int flags)
{
  sd_bus_error error = SD_BUS_ERROR_NULL;
  sd_bus_message *reply = NULL;
  sd_bus *bus = NULL;
  char *object = NULL;
  int r, fd = -1;

  pthread_once (&sdbus_once, sdbus_load);
  if (sdbus_status < 0)
    return sdbus_status;
  r = sd_bus_open_system (&bus);
  if (r < 0)
    return DM_E_NOUDISKS; /* no system bus, so no udisks2 either */
  /* Lets polkit ask the user for a password where the desktop requires it. */
  sd_bus_set_allow_interactive_authorization (bus, 1);
  r = udisks_object (bus, device, &object);
  if (r < 0)
    goto out;
  r = sd_bus_call_method (bus, UDISKS_NAME, object, UDISKS_NAME ".Block", "OpenForBenchmark",
                          &error, &reply, "a{sv}", 1, "writable", "b", 0);
  if (r < 0)
    {
      if (sd_bus_error_has_name (&error, "org.freedesktop.UDisks2.Error.NotAuthorized")
          || sd_bus_error_has_name (&error, "org.freedesktop.UDisks2.Error.NotAuthorizedCanObtain")
          || sd_bus_error_has_name (&error, "org.freedesktop.UDisks2.Error.NotAuthorizedDismissed"))
        r = -EACCES;
      else if (udisks_missing (&error, r))
        r = DM_E_NOUDISKS;
      goto out;
    }
  r = sd_bus_message_read (reply, "h", &fd);
  if (r < 0)
    goto out;
  /* The descriptor belongs to the message: keep a copy. */
  fd = fcntl (fd, F_DUPFD_CLOEXEC, 3);
  if (fd < 0)
    {
      r = -errno;
      goto out;
    }
  /* udisks2 opens with O_DIRECT; a buffered run turns it off. */
  if (!(flags & O_DIRECT))
    fcntl (fd, F_SETFL, fcntl (fd, F_GETFL) & ~O_DIRECT);
  r = fd;
out:
  free (object);
  sd_bus_error_free (&error);
  sd_bus_message_unref (reply);
  sd_bus_flush_close_unref (bus);
  return r;
}
#endif

int
_dm_device_open (const char *device, int flags, bool writable)
{
  /* DM_UDISKS=only makes reads go through udisks2 even for a user who
   * could open the device itself: for tests, which run as root. */
  const char *mode = getenv ("DM_UDISKS");
  bool only = !writable && mode && !strcmp (mode, "only");
  int err;

  if (!only)
    {
      int fd = open (device, flags);
      if (fd >= 0)
        return fd;
      err = -errno;
      if (writable || (err != -EACCES && err != -EPERM))
        return err;
    }
  else
    err = -EACCES;
#ifdef DM_HAVE_SDBUS
  int fd = udisks_open (device, flags);
  if (fd >= 0)
    return fd;
  /* Without udisks2 the user is told what the kernel said; without
   * libsystemd, that udisks2 could not be asked, which a user can fix. */
  return fd == DM_E_NOLIBSYSTEMD || (fd != -EACCES && only) ? fd : err;
#else
  return err;
#endif
}
