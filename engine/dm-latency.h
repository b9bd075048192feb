/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Latency detail computed from a result's histograms: the percentile table,
 * SQLIO's histogram (percent of I/Os per millisecond, 0..23 and 24+), and
 * counts over any bucket edges the window's chart wants, e.g. log-spaced
 * ones. Counts between edges are split within a histogram bucket as if its
 * samples were spread evenly, so they are as exact as the histogram.
 */
#pragma once

#include <stdint.h>

#include "dm-buf.h"
#include "dm-histogram.h"
#include "dm-report.h"

/* SQLIO's columns: 0, 1, ..., 23 ms and a last one for 24 ms and longer. */
#define DM_LATENCY_MS_BUCKETS 25

/* min, mean, max, stdev and p50..p99.99 in microseconds; all zero for an
 * empty histogram. */
void dm_latency_from_histogram (dm_latency *l, const dm_histogram *h);

/* How many samples lie below ns (interpolated inside the bucket holding ns). */
double dm_latency_count_below (const dm_histogram *h, double ns);

/* Percent of the samples per millisecond: percent[k] holds [k, k+1) ms,
 * the last column everything from 24 ms on. All zero for an empty histogram. */
void dm_latency_per_ms (const dm_histogram *h, double percent[DM_LATENCY_MS_BUCKETS]);

/* Log-spaced edges in ns for a chart: per_decade edges per power of ten
 * (1, 2, 5 or 10 give round numbers), from the edge at or below min_ns to
 * the first edge above max_ns. Writes at most max_edges and returns how
 * many it wrote (at least 2 when max_edges >= 2), or 0 if max_edges < 2. */
unsigned dm_latency_log_edges (uint64_t min_ns, uint64_t max_ns, unsigned per_decade,
                               double *edges, unsigned max_edges);

/* counts[i] = samples in [edges[i], edges[i+1]), for i < n_edges - 1.
 * Samples outside the edges are not counted. */
void dm_latency_chart (const dm_histogram *h, const double *edges, unsigned n_edges,
                       double *counts);

/* For each result that ran: its percentile table and SQLIO histogram, reads
 * and writes apart for Mix. */
void dm_report_write_latency (const dm_report *r, dm_buf *out);
