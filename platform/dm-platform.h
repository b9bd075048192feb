/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * What the engine needs from the operating system, apart from I/O itself:
 * a monotonic clock, threads, process CPU time, facts about the machine and
 * the target, and the test file's life cycle. Each OS implements this header
 * in its own folder (platform/linux, platform/windows); the engine never asks
 * which one it got. Every function returns 0 or a negative errno-style code.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Error codes beyond errno that the engine must tell apart. */
enum {
  DM_E_NODIRECT = -10001, /* the filesystem refuses unbuffered (O_DIRECT) I/O */
  DM_E_SHORT    = -10002, /* a transfer moved fewer bytes than asked */
  DM_E_NOBACKEND = -10003, /* no I/O backend works here */
  DM_E_BLOCKDEV = -10004, /* an output path names a disk, not a file */
  DM_E_NOTFILE  = -10005, /* an output path names a socket or the like */
  DM_E_NOUDISKS = -10006, /* a disk read through udisks2, which is not running */
  DM_E_NOLIBRARY = -10007, /* a library loaded on first use is missing (dm-library.h) */
  DM_E_NOLIBSYSTEMD = -10008, /* a disk read through udisks2, without libsystemd to ask */
};

/* Translate a negative code from any dm_ function into a sentence fragment. */
const char *dm_strerror (int code);

/* Monotonic nanoseconds; cheap enough to call once per reaped batch. */
uint64_t dm_clock_ns (void);
/* Sleep; the engine sleeps in short slices so that a cancel is seen soon. */
void dm_sleep_ns (uint64_t ns);
/* User plus system CPU time consumed by this process so far. */
uint64_t dm_process_cpu_ns (void);
/* Wall-clock seconds since the epoch, for the report's date. */
int64_t dm_wall_time (void);
/* Local date and time as "YYYY/MM/DD hh:mm:ss". */
void dm_format_local_time (int64_t t, char *buf, size_t size);

typedef struct dm_thread dm_thread;
int  dm_thread_start (dm_thread **out, void *(*fn) (void *), void *arg);
void dm_thread_join (dm_thread *thread);
/* Pins the calling thread to one logical CPU (0-based). 0 or a negative
 * code (-EINVAL for a CPU the machine does not have). */
int  dm_thread_pin_self (unsigned cpu);

/* Memory aligned for unbuffered I/O (page aligned), zeroed. */
void *dm_alloc_io (size_t size);
void  dm_free_io (void *p, size_t size);

typedef struct dm_system_info {
  char     os[128];        /* "Debian GNU/Linux 12 (bookworm)", "Windows Server 2022 [10.0 Build 20348]" */
  char     kernel[128];    /* "Linux 6.1.0-18-amd64 x86_64" */
  char     cpu_model[128]; /* as the CPU names itself */
  unsigned logical_cpus;   /* the vCPUs of a VM */
  uint64_t memory_bytes;
  /* Which machine a result came from, as a VM's user configures it: the
   * hypervisor, and the sockets x cores x threads the guest was given
   * (VMware's "cores per socket" changes what the guest schedules). */
  char     hypervisor[16];   /* "VMware", "KVM", "Hyper-V", "Xen", "none"; "" unknown */
  char     machine[128];     /* firmware's maker and product: "VMware, Inc. VMware7,1" */
  unsigned sockets;          /* 0 where unknown, as all four */
  unsigned cores_per_socket;
  unsigned threads_per_core;
  unsigned numa_nodes;
} dm_system_info;

int dm_system_info_get (dm_system_info *info);

/* The hypervisor named by CPUID leaf 0x40000000's vendor signature (12
 * characters, "VMwareVMware", "KVMKVMKVM\0\0\0", "Microsoft Hv"...):
 * "VMware", "KVM", "Hyper-V", "Xen", others by their names; NULL for a
 * signature Diskmeter does not know. */
const char *dm_hypervisor_from_signature (const char *signature);
/* The hypervisor from what the machine says of itself: CPUID's
 * hypervisor-present bit (leaf 1 ECX bit 31) and vendor signature (NULL
 * where there is no CPUID: not x86), and the firmware's (DMI, SMBIOS)
 * maker and product (NULL where unreadable). The firmware wins for KVM,
 * which may present Hyper-V's signature to Windows guests ("Microsoft Hv"
 * under QEMU). "none" for real hardware, "" where nothing tells. */
const char *dm_hypervisor_decide (bool cpuid_present, const char *signature,
                                  const char *sys_vendor, const char *product);
/* CPUID's view on x86: true with the 12-character signature (NUL
 * terminated) when the hypervisor bit is set; false on real hardware, and
 * false with *available = false where the CPU has no CPUID (not x86). */
bool dm_cpuid_hypervisor (char signature[13], bool *available);
/* The storage controller a driver drives, as a VM's settings name it:
 * "VMware PVSCSI" for vmw_pvscsi, "LSI Logic SAS" for mptsas, "NVMe" for
 * nvme, "virtio-blk", "Hyper-V storvsc"...; "" for a driver not known. */
const char *dm_controller_name (const char *driver);

typedef enum {
  DM_TARGET_LOCAL,     /* a filesystem on a fixed disk */
  DM_TARGET_REMOVABLE, /* USB sticks and cards, automounted under /run/media */
  DM_TARGET_NETWORK,   /* NFS, SMB: device holds server:/export or //server/share */
  DM_TARGET_FUSE,      /* user-space filesystem: its overhead is in every figure */
  DM_TARGET_DEVICE,    /* a whole disk or partition, read without a filesystem */
} dm_target_kind;

typedef struct dm_target_info {
  char     path[1024];      /* folder (or block device) as the user gave it */
  char     mount_point[1024];
  char     filesystem[32];  /* "ext4", "xfs", "nfs4", "NTFS" */
  char     device[256];     /* "/dev/sdb1", "\\\\.\\PhysicalDrive1" */
  char     model[128];      /* "VMware Virtual disk", "Samsung SSD 980" */
  char     driver[64];      /* "nvme", "vmw_pvscsi", "mptspi", bus type on Windows */
  uint64_t size_bytes;      /* of the filesystem or device */
  uint64_t free_bytes;      /* available to this user */
  uint32_t sector_size;     /* logical block size: I/O alignment */
  bool     is_block_device;
  bool     read_only;
  /* What a user calls the drive, as a file manager shows it. */
  dm_target_kind kind;
  char     label[128];      /* filesystem label, "" when it has none */
  char     bus[64];         /* "USB", "NVMe", "SATA", "virtio", "SCSI (mptspi)", "network" */
  bool     writable;        /* a test file can be created there (never for a device) */
  char     real_path[1024]; /* path with every link (junction) followed: what is really
                             * measured; "" if it could not be resolved */
  /* The disk's controller and the queue the OS keeps for it, which decide
   * what a queue depth of 32 really reaches (a partition: its disk's). 0
   * where the OS does not say. */
  char     controller[64];  /* dm_controller_name of driver: "VMware PVSCSI" */
  unsigned queue_depth;     /* what the OS queues at the disk: a SCSI LUN's queue_depth,
                             * else nr_requests (NVMe, virtio_blk) */
  unsigned host_queue;      /* a SCSI host adapter's can_queue, for all its disks */
  unsigned nr_requests;     /* the block layer's requests per hardware queue */
  unsigned hw_queues;       /* blk-mq hardware queues (NVMe, virtio: one per vCPU or fewer) */
  unsigned max_segments;    /* scatter-gather entries per request */
  char     driver_params[128]; /* the adapter driver's tuning (pvscsi's DriverParameter
                                * on Windows: "RequestRingPages=32,MaxQueueDepth=254") */
} dm_target_info;

/* Facts about a folder or block device the user named. -ENOENT, -ENOTDIR... */
int dm_target_probe (const char *path, dm_target_info *info);

/* For tests: the machine's and a disk's facts (driver, controller,
 * queues) read below root, a tree shaped like / with sys/class/block/DISK,
 * sys/class/dmi/id and sys/devices/system, as tests/data/sysfs-* hold.
 * CPUID is not asked. -ENOSYS on an OS without sysfs (Windows). */
int dm_facts_probe_root (const char *root, const char *disk, dm_system_info *sys,
                         dm_target_info *target);

/* Whether real_path (links followed, as in dm_target_info) lies in a
 * folder of the operating system itself: /etc, /usr, /boot, /proc, /sys
 * or /dev on Linux, the Windows folder (C:\Windows) on Windows. If so, that
 * folder is written to folder. */
bool dm_path_in_system_folder (const char *real_path, char *folder, size_t size);

/* The filesystems a user would pick as a target (no pseudo filesystems),
 * for the window's target chooser. Free with dm_target_list_free. */
int  dm_target_list (dm_target_info **out, unsigned *n);
enum {
  DM_TARGET_LIST_DEVICES = 1 << 0, /* add whole disks and partitions (kind device) */
  DM_TARGET_LIST_MEMORY  = 1 << 1, /* add tmpfs and other memory filesystems */
};
/* dm_target_list with DM_TARGET_LIST_* flags; flags 0 is dm_target_list. */
int  dm_target_list_full (dm_target_info **out, unsigned *n, unsigned flags);
void dm_target_list_free (dm_target_info *list);

/* What the block device under a target has done since it came up, as the
 * OS counts it (/sys/block/DEV/stat on Linux, IOCTL_DISK_PERFORMANCE on
 * Windows). Two readings taken around a measured run tell what the device
 * itself saw during it: whether the bytes Diskmeter counted reached it, and
 * how many requests it held at once. */
typedef struct dm_device_counters {
  uint64_t reads;       /* requests completed */
  uint64_t writes;
  uint64_t read_bytes;
  uint64_t write_bytes;
  uint64_t busy_ns;     /* time with at least one request at the device, summed over members */
  uint64_t queue_ns;    /* time each request spent at the device, summed: / elapsed = mean queue */
  unsigned members;     /* devices summed: 1, or the disks under a device-mapper or md device */
  unsigned queue_limit; /* requests the devices can hold at once (nr_requests), 0 unknown */
  /* queue_ns by direction: the time reads (writes) spent at the device,
   * summed, so that / reads is iostat's r_await. timed is false where the
   * OS keeps no such split. */
  bool     timed;
  uint64_t read_ns;
  uint64_t write_ns;
} dm_device_counters;

typedef struct dm_device_watch dm_device_watch;

/* Finds the block devices under a probed target: the disk of a partition,
 * the disks under device-mapper and md devices (summed), the device itself
 * for a block-device target, the volume on Windows. name gets what a report
 * shows ("vda", "sda+sdb"). -ENODEV with a reason in why when nothing can be
 * counted: a network or FUSE filesystem, memory, or an OS that keeps no
 * counters (Wine). */
int  dm_device_watch_open (const dm_target_info *target, dm_device_watch **out,
                           char *name, size_t name_size, char *why, size_t why_size);
/* The counters now; cheap enough to call around every measured run. */
int  dm_device_watch_read (dm_device_watch *watch, dm_device_counters *counters);
void dm_device_watch_close (dm_device_watch *watch);

/* The test file. It is created with a unique name that can never be an
 * existing file (diskmeter-XXXXXX.tmp, O_EXCL), and detached from its name
 * as early as the OS allows, so that not even a killed process leaves it
 * behind. */
typedef struct dm_file dm_file;

typedef struct dm_file_options {
  bool direct;         /* bypass the page cache (O_DIRECT / NO_BUFFERING) */
  bool write_through;  /* ask the device to skip its volatile cache */
} dm_file_options;

int dm_file_create_temp (const char *dir, const dm_file_options *opt,
                         dm_file **out, char *path, size_t path_size);
/* True when the test file was created with copy-on-write off (btrfs
 * NOCOW), so overwrites are measured in place; the report says so. */
bool dm_file_is_nocow (const dm_file *file);
/* Opens an existing block device; writes only with writable = true. */
int dm_file_open_device (const char *device, bool writable,
                         const dm_file_options *opt, dm_file **out);
/* Reserves size bytes (fallocate, SetEndOfFile) before anything is written. */
int dm_file_reserve (dm_file *file, uint64_t size);
/* Synchronous positioned write, used to fill the file before measuring. */
int dm_file_write_at (dm_file *file, const void *buf, size_t len, uint64_t offset);
int dm_file_sync (dm_file *file);
/* Closes and, for a test file, removes it. Safe on NULL. */
void dm_file_close (dm_file *file);

/* Writes an output file (report, CSV, workbook) where the user pointed, and
 * harms nothing else there. The path is UTF-8.
 * - Nothing there: a new file, through a temporary file in the same
 *   folder, flushed, then renamed to path.
 * - A file: replaced the same way, atomically; the new file keeps the old
 *   one's mode, owner where the process may keep it, and ACLs (Linux) or
 *   attributes and security (Windows, ReplaceFileW). A read-only file on
 *   Windows is refused (-EACCES), as cmd's > refuses it.
 * - A symbolic link: the link stays, the file it leads to is replaced.
 * - A pipe or a character device (/dev/stdout, /dev/null, a FIFO; NUL,
 *   CON): written into as a stream, never created or replaced; /dev/full
 *   gives -ENOSPC.
 * - A folder (-EISDIR), a disk, partition or volume (DM_E_BLOCKDEV:
 *   /dev/sda, \\.\C:), anything else (DM_E_NOTFILE): refused, untouched. */
int dm_file_replace_contents (const char *path, const void *data, size_t len);

/* Reads a whole (result) file of at most max bytes into a malloc'd buffer,
 * NUL terminated; -EFBIG past max. The path is UTF-8. */
int dm_file_read_all (const char *path, size_t max, char **data, size_t *len);

/* The folder for the user's own Diskmeter data (saved runs), created if
 * missing: $XDG_DATA_HOME/diskmeter (~/.local/share/diskmeter) on Linux,
 * %LOCALAPPDATA%\Diskmeter on Windows. */
int dm_data_dir (char *buf, size_t size);

/* The separator between folders in the paths Diskmeter shows its users:
 * '/' on Linux, '\\' on Windows (which takes either, but users read one). */
char dm_dir_separator (void);

/* Creates a folder and its parents where missing. */
int dm_ensure_dir (const char *path);

/* Creates path with these contents, failing with -EEXIST if anything by
 * that name exists already: saved runs are never overwritten. */
int dm_file_write_new (const char *path, const void *data, size_t len);

/* Removes a plain file (never a folder or a device). */
int dm_file_remove (const char *path);

/* Calls fn(name, user) for every plain file in dir, in no particular
 * order; names only, without the folder. */
int dm_list_files (const char *dir, void (*fn) (const char *name, void *user), void *user);

/* Calls fn(path, size, user) for every diskmeter-*.tmp in dir, the remains
 * of a crashed run of an older version or of another machine. */
int dm_stale_files (const char *dir,
                    void (*fn) (const char *path, uint64_t size, void *user),
                    void *user);

/* Calls fn(user) from a signal/console handler on Ctrl-C, SIGTERM, SIGHUP or
 * console close. fn must only do async-signal-safe work (set a flag). */
int dm_interrupt_install (void (*fn) (void *user), void *user);

/* Replaces main()'s arguments by UTF-8 ones, and has a console show UTF-8
 * output as text. Windows passes main() its arguments in the ANSI code page,
 * which turns a folder named "Prüfung-диск" into question marks; a no-op
 * where arguments are bytes already. Call it first thing in main(). */
int dm_args_utf8 (int *argc, char ***argv);

/* Test-only fault injection, in the manner of SQLite's replaceable system
 * calls: the nth next call (1 = the very next) of an operation fails with
 * code instead of reaching the OS; DM_FAULT_SHORT_WRITE makes it move half
 * its bytes. nth = 0 disarms. Production code never arms a fault. */
typedef enum {
  DM_FAULT_CREATE,      /* creating the test file */
  DM_FAULT_RESERVE,     /* reserving its space */
  DM_FAULT_WRITE,       /* a synchronous fill write */
  DM_FAULT_SHORT_WRITE, /* a fill write that moves half its bytes */
  DM_FAULT_SYNC,        /* flushing the filled file */
  DM_FAULT_UNLINK,      /* removing the test file's name */
  DM_N_FAULTS
} dm_fault_point;

void dm_fault_inject (dm_fault_point point, int code, unsigned nth);
