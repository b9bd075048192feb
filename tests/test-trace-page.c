/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The Linux capture's reader of tracefs ring pages, on a page laid out by
 * hand as the kernel's ring buffer writes one: short and long data events,
 * a time extend, an absolute time stamp, a discarded event and the padding
 * that ends the page. Each event must come out with its payload and the
 * time the deltas add up to; a page that lies about its length must not
 * be read past its end.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "dm-linux-private.h"
#include "dm-test.h"

static const dm_trace_page_layout layout = { .commit_offset = 8, .commit_size = 8,
                                             .data_offset = 16 };

typedef struct seen {
  unsigned n;
  uint64_t ts[8];
  size_t   size[8];
  unsigned first[8];
} seen;

static void
on_event (void *user, uint64_t ts, const unsigned char *data, size_t size)
{
  seen *s = user;
  if (s->n < 8)
    {
      s->ts[s->n] = ts;
      s->size[s->n] = size;
      s->first[s->n] = data[0];
    }
  s->n++;
}

static size_t
put_word (unsigned char *p, size_t off, uint32_t v)
{
  memcpy (p + off, &v, 4);
  return off + 4;
}

static size_t
build (unsigned char *page, size_t *used)
{
  size_t o = 16;
  uint64_t base = 1000000;
  memset (page, 0, 4096);
  memcpy (page, &base, 8);
  /* A data event of 3 words (12 bytes), 10 ns after the page's start. */
  o = put_word (page, o, 3u | 10u << 5);
  memset (page + o, 0xa1, 12), o += 12;
  /* A time extend of 2^27 + 5 ns. */
  o = put_word (page, o, 30u | 5u << 5);
  o = put_word (page, o, 1);
  /* A long event: type_len 0, its length (payload + 4) in the next word. */
  o = put_word (page, o, 0u | 7u << 5);
  o = put_word (page, o, 200 + 4);
  memset (page + o, 0xb2, 200), o += 200;
  /* A discarded event: padding with a delta, then the event's length
   * less its header word (16 bytes in all). */
  o = put_word (page, o, 29u | 3u << 5);
  o = put_word (page, o, 12);
  o += 8;
  /* An absolute time stamp: 2^27 * 4 + 9, then an event 1 ns later. */
  o = put_word (page, o, 31u | 9u << 5);
  o = put_word (page, o, 4);
  o = put_word (page, o, 1u | 1u << 5);
  page[o] = 0xc3, o += 4;
  *used = o - 16;
  /* The page's own padding to its end. */
  o = put_word (page, o, 29u);
  uint64_t commit = *used;
  memcpy (page + 8, &commit, 8);
  return o;
}

static void
test_events (void)
{
  unsigned char page[4096];
  size_t used;
  seen s = { 0 };
  build (page, &used);
  DM_CHECK_INT (_dm_trace_page_parse (&layout, page, sizeof page, on_event, &s), ==, 3);
  DM_CHECK_INT (s.n, ==, 3);
  DM_CHECK_INT (s.ts[0], ==, 1000010);
  DM_CHECK_INT (s.size[0], ==, 12);
  DM_CHECK_INT (s.first[0], ==, 0xa1);
  DM_CHECK_INT (s.ts[1], ==, 1000010 + (1u << 27) + 5 + 7);
  DM_CHECK_INT (s.size[1], ==, 200);
  DM_CHECK_INT (s.first[1], ==, 0xb2);
  DM_CHECK_INT (s.ts[2], ==, (4ull << 27) + 9 + 1);
  DM_CHECK_INT (s.size[2], ==, 4);
  DM_CHECK_INT (s.first[2], ==, 0xc3);
}

static void
test_lies (void)
{
  unsigned char page[4096];
  size_t used;
  seen s = { 0 };
  build (page, &used);
  /* A length word past the page's end stops the reading there. */
  uint32_t huge = 1u << 20;
  memcpy (page + 16 + 16 + 8 + 4, &huge, 4);
  DM_CHECK_INT (_dm_trace_page_parse (&layout, page, sizeof page, on_event, &s), ==, 1);
  /* The missed-events flags above the length are no part of it. */
  build (page, &used);
  uint64_t commit = used | 1ull << 31;
  memcpy (page + 8, &commit, 8);
  s.n = 0;
  DM_CHECK_INT (_dm_trace_page_parse (&layout, page, sizeof page, on_event, &s), ==, 3);
  /* A read shorter than the header gives nothing. */
  s.n = 0;
  DM_CHECK_INT (_dm_trace_page_parse (&layout, page, 12, on_event, &s), ==, 0);
}

int
main (void)
{
  DM_RUN ("/platform/linux/trace-page/events", test_events);
  DM_RUN ("/platform/linux/trace-page/lies", test_lies);
  return dm_test_done ();
}
