/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Sizes and durations as users type them ("1GiB", "512M", "2.5s", "500ms"),
 * and the conversions between the four units the grid can show. MB/s means
 * 1,000,000 bytes per second, as in CrystalDiskMark.
 */
#pragma once

#include <stddef.h>
#include <stdint.h>

/* "1GiB", "1G", "512MiB", "64k", "4096" (bytes). Binary multiples always;
 * "1GB", "64KB", which a report would read as powers of ten and fio as
 * powers of two, are refused with the binary spelling to write. */
int dm_size_parse (const char *text, uint64_t *out, char *why, size_t why_size);
/* 1073741824 -> "1GiB", 3221225472 -> "3GiB", 1610612736 -> "1536MiB". */
void dm_size_format (uint64_t bytes, char *buf, size_t size);

/* 3.2GiB, 812.5MiB, 40KiB: a size for people, rounded to one decimal. */
void dm_size_human (uint64_t bytes, char *buf, size_t size);

/* "5", "5s", "0.5", "500ms", "2m". Seconds, 0..86400. */
int dm_duration_parse (const char *text, double *seconds, char *why, size_t why_size);

/* A whole number in [min, max], nothing else. */
int dm_uint_parse (const char *text, unsigned min, unsigned max, unsigned *out,
                   char *why, size_t why_size);

typedef enum {
  DM_UNIT_MBPS,  /* MB/s: 1,000,000 bytes/s */
  DM_UNIT_GBPS,  /* GB/s: 1,000,000,000 bytes/s */
  DM_UNIT_IOPS,
  DM_UNIT_US,    /* mean latency, microseconds */
  DM_N_UNITS
} dm_unit;

const char *dm_unit_name (dm_unit unit); /* "MB/s", "GB/s", "IOPS", "us" */
int dm_unit_parse (const char *text, dm_unit *out);

/* Writes a one-line reason into why (which may be NULL) and returns
 * -EINVAL: the shape of every parser's refusal. */
int dm_why (char *why, size_t why_size, const char *fmt, ...) __attribute__ ((format (printf, 3, 4)));

/* Locale-independent ASCII comparison, for option values. */
int dm_ascii_casecmp (const char *a, const char *b);
int dm_ascii_ncasecmp (const char *a, const char *b, size_t n);

/* "2026-11-30T02:34:55Z" to seconds since the epoch; 0 if malformed. */
int64_t dm_parse_iso_time (const char *text);
