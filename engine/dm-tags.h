/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Tags: KEY=VALUE pairs a run is labelled with (--tag), so that runs of
 * many VMs can be told apart and grouped later: "host=esx07",
 * "controller=pvscsi", "vcpus=48 (HT)". Diskmeter offers the machine's and
 * the target's facts as tags of its own (hypervisor=, vcpus=, controller=,
 * queue_depth=...); a user's tag of the same key takes their place.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>

#include "dm-platform.h"

#define DM_TAG_KEY_MAX   32  /* [a-z0-9_.-]{1,32} */
#define DM_TAG_VALUE_MAX 128 /* bytes of UTF-8 */
#define DM_TAGS_MAX      32  /* a user's tags per run */
/* A user's tags and the facts offered as tags, at most. */
#define DM_TAGS_ALL_MAX  (DM_TAGS_MAX + 16)

typedef struct dm_tag {
  char key[DM_TAG_KEY_MAX + 1];
  char value[DM_TAG_VALUE_MAX + 1];
} dm_tag;

/* Whether a key is 1 to 32 of a-z, 0-9, '_', '.', '-'. */
bool dm_tag_key_valid (const char *key);
/* Checks a key and a value (valid UTF-8 of at most 128 bytes) and stores
 * them in tag; -EINVAL with a one-line reason. */
int  dm_tag_make (dm_tag *tag, const char *key, const char *value, char *why, size_t why_size);
/* Parses "KEY=VALUE" (the value may be empty and may hold '='). */
int  dm_tag_parse (const char *text, dm_tag *tag, char *why, size_t why_size);
/* Sets tag in a list of *n: a key already there gets the new value (the
 * last --tag wins), a new one is appended. -E2BIG past max. */
int  dm_tags_set (dm_tag *tags, unsigned *n, unsigned max, const dm_tag *tag);
/* The value of key in a list, NULL when it is not there. */
const char *dm_tags_get (const dm_tag *tags, unsigned n, const char *key);

/* The tags a report shows and keeps: the facts Diskmeter knows as tags
 * (hypervisor, vcpus, sockets, cores_per_socket, threads_per_core,
 * numa_nodes, controller, driver, queue_depth, host_queue, nr_requests,
 * hw_queues, max_segments; only those known), each replaced by the user's
 * tag of that key, then the user's other tags in their order. Writing this
 * list and reading it back as a user's tags gives the same list again.
 * out holds DM_TAGS_ALL_MAX; returns how many it got. */
unsigned dm_tags_effective (const dm_tag *user, unsigned n_user, const dm_system_info *sys,
                            const dm_target_info *target, dm_tag *out);
/* Whether a tag is one of the facts offered as tags with the fact's own
 * value: not the user's word, so the text report, which shows the facts
 * in lines of their own, leaves it out. */
bool dm_tag_is_fact (const dm_tag *tag, const dm_system_info *sys, const dm_target_info *target);

/* Whether a key is one of the facts Diskmeter offers as tags. */
bool dm_tag_key_is_fact (const char *key);
/* Parses a list of KEY=VALUE separated by commas or newlines (the
 * window's Tags field), blanks around each item and empty items left out;
 * a later key replaces an earlier one. -EINVAL with the first bad item's
 * one-line reason, -E2BIG past max. */
int dm_tags_parse_list (const char *text, dm_tag *tags, unsigned *n, unsigned max, char *why,
                        size_t why_size);

typedef struct dm_report dm_report;
typedef struct dm_buf    dm_buf;
/* Gives a report the user's tags (at most DM_TAGS_MAX are kept). */
void     dm_report_set_tags (dm_report *r, const dm_tag *tags, unsigned n);
/* The report's tags that are the user's word: dm_report_tags less the
 * facts that carry their own value (a fact the user overrode stays).
 * out holds DM_TAGS_ALL_MAX; returns how many. */
unsigned dm_report_user_tags (const dm_report *r, dm_tag *out);
/* "key=value, key=value": tags shown as text reports show any text,
 * sep between them. */
void     dm_tags_add_text (dm_buf *b, const dm_tag *tags, unsigned n, const char *sep);
/* "<lead>key=value, ...\n" for a report's user tags; nothing without. */
void     dm_report_add_tags_line (dm_buf *b, const dm_report *r, const char *lead);
/* A CSV's tag columns, last and only for a report with tags of the
 * user's: ",tag_KEY" for each, then the values on every row, so a sheet
 * filters or pivots by them and a CSV without tags stays as it was. */
void     dm_report_csv_tags_header (const dm_report *r, dm_buf *b);
void     dm_report_csv_tags_fields (const dm_report *r, dm_buf *b);
