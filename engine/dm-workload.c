/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Workloads: the key=value vocabulary, its canonical form and the samplers
 * the workers draw sizes and offsets from. The parsers take the same words
 * from the command line and from profile files; the canonical form is what
 * reports store, so a workload read back is the workload that ran.
 */
#include "dm-workload.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "dm-units.h"

void
dm_workload_init (dm_workload *w)
{
  memset (w, 0, sizeof *w);
  snprintf (w->name, sizeof w->name, "workload");
  w->sizes[0] = 4096;
  w->weights[0] = 1;
  w->n_sizes = 1;
  w->read_percent = 100;
  w->random_percent = 100;
  w->queue_depth = 1;
  w->threads = 1;
}

/* A decimal number without the locale: "1.2", "0.8", "2000". */
static int
parse_decimal (const char *text, double *out)
{
  double v = 0, scale = 1;
  const char *p = text;
  int digits = 0;
  for (; *p >= '0' && *p <= '9'; p++, digits++)
    v = v * 10 + (*p - '0');
  if (*p == '.')
    for (p++; *p >= '0' && *p <= '9'; p++, digits++)
      v += (*p - '0') * (scale /= 10);
  if (!digits || digits > 15)
    return -EINVAL;
  *out = v;
  return (int) (p - text);
}

static void
format_decimal (double v, char *buf, size_t size)
{
  snprintf (buf, size, "%.10g", v);
  /* %g follows LC_NUMERIC; the canonical form never does. */
  for (char *c = buf; *c; c++)
    if (*c == ',')
      *c = '.';
}

static int
parse_percent (const char *value, unsigned *out, const char *key, char *why, size_t why_size)
{
  char inner[96];
  size_t n = strlen (value);
  char tmp[16];
  if (n && value[n - 1] == '%' && n < sizeof tmp)
    {
      memcpy (tmp, value, n - 1);
      tmp[n - 1] = '\0';
      value = tmp;
    }
  if (dm_uint_parse (value, 0, 100, out, inner, sizeof inner) < 0)
    return dm_why (why, why_size, "%s: %s", key, inner);
  return 0;
}

static int
parse_sizes (dm_workload *w, const char *value, char *why, size_t why_size)
{
  dm_workload t = *w;
  const char *p = value;
  t.n_sizes = 0;
  while (*p)
    {
      const char *end = strchr (p, ',');
      size_t n = end ? (size_t) (end - p) : strlen (p);
      char word[32], inner[128];
      unsigned weight = 1;
      uint64_t size;
      if (!n || n >= sizeof word)
        return dm_why (why, why_size, "block: '%s' is not a size or a split such as 4K/50,64K/50", value);
      if (t.n_sizes == DM_WORKLOAD_SIZES)
        return dm_why (why, why_size, "block: at most %d sizes in a split", DM_WORKLOAD_SIZES);
      memcpy (word, p, n);
      word[n] = '\0';
      char *slash = strchr (word, '/');
      if (slash)
        {
          *slash = '\0';
          if (dm_uint_parse (slash + 1, 1, 10000, &weight, inner, sizeof inner) < 0)
            return dm_why (why, why_size, "block: the weight of %s: %s", word, inner);
        }
      if (dm_size_parse (word, &size, inner, sizeof inner) < 0)
        return dm_why (why, why_size, "block: %s", inner);
      if (size < DM_BLOCK_MIN || size > DM_BLOCK_MAX || (size & (size - 1)))
        return dm_why (why, why_size, "block: %s is not a power of two from 4KiB to 8MiB", word);
      /* Ascending and each once, so that the canonical form is one. */
      unsigned i = t.n_sizes;
      for (unsigned k = 0; k < t.n_sizes; k++)
        if (t.sizes[k] == size)
          return dm_why (why, why_size, "block: %s is named twice", word);
      while (i > 0 && t.sizes[i - 1] > size)
        {
          t.sizes[i] = t.sizes[i - 1];
          t.weights[i] = t.weights[i - 1];
          i--;
        }
      t.sizes[i] = (uint32_t) size;
      t.weights[i] = (uint16_t) weight;
      t.n_sizes++;
      p = end ? end + 1 : p + n;
      if (end && !*p)
        return dm_why (why, why_size, "block: '%s' ends with a comma", value);
    }
  if (!t.n_sizes)
    return dm_why (why, why_size, "block: no size given");
  *w = t;
  return 0;
}

static int
parse_distribution (dm_workload *w, const char *value, char *why, size_t why_size)
{
  static const char form[] = "uniform, zipf:THETA, pareto:H or hot:FILE%/IO%[:FILE%/IO%...]";
  double v;
  int n;
  if (!dm_ascii_casecmp (value, "uniform"))
    {
      w->dist = DM_DIST_UNIFORM;
      w->dist_param = 0;
      w->n_zones = 0;
      return 0;
    }
  if (!dm_ascii_ncasecmp (value, "zipf:", 5))
    {
      if ((n = parse_decimal (value + 5, &v)) < 0 || value[5 + n] || v <= 0 || v > 10)
        return dm_why (why, why_size, "distribution: zipf's theta must be above 0, at most 10 (zipf:1.2)");
      w->dist = DM_DIST_ZIPF;
      w->dist_param = v;
      w->n_zones = 0;
      return 0;
    }
  if (!dm_ascii_ncasecmp (value, "pareto:", 7))
    {
      if ((n = parse_decimal (value + 7, &v)) < 0 || value[7 + n] || v <= 0 || v >= 1)
        return dm_why (why, why_size, "distribution: pareto's h must be between 0 and 1 (pareto:0.2)");
      w->dist = DM_DIST_PARETO;
      w->dist_param = v;
      w->n_zones = 0;
      return 0;
    }
  if (!dm_ascii_ncasecmp (value, "hot:", 4))
    {
      const char *p = value + 4;
      unsigned zones = 0, file_sum = 0, io_sum = 0;
      uint8_t zf[DM_WORKLOAD_ZONES], zi[DM_WORKLOAD_ZONES];
      while (*p)
        {
          unsigned f = 0, io = 0;
          int used = 0;
          if (zones == DM_WORKLOAD_ZONES)
            return dm_why (why, why_size, "distribution: at most %d hot zones", DM_WORKLOAD_ZONES);
          if (sscanf (p, "%3u/%3u%n", &f, &io, &used) != 2 || f < 1 || f > 100 || io > 100)
            return dm_why (why, why_size, "distribution: '%s' is not %s", value, form);
          file_sum += f;
          io_sum += io;
          zf[zones] = (uint8_t) f;
          zi[zones] = (uint8_t) io;
          zones++;
          p += used;
          if (*p == ':' && p[1])
            p++;
          else if (*p)
            return dm_why (why, why_size, "distribution: '%s' is not %s", value, form);
        }
      if (!zones)
        return dm_why (why, why_size, "distribution: '%s' is not %s", value, form);
      if (file_sum > 100 || io_sum > 100)
        return dm_why (why, why_size, "distribution: the hot zones add up to more than 100%%");
      if (file_sum == 100 && io_sum != 100)
        return dm_why (why, why_size, "distribution: zones covering the whole file must get all the I/O");
      /* Zones that take all the I/O leave the rest of the file untouched,
       * as fio's zoned distribution allows. */
      w->dist = DM_DIST_HOT;
      w->dist_param = 0;
      w->n_zones = zones;
      memcpy (w->zone_file, zf, zones);
      memcpy (w->zone_io, zi, zones);
      return 0;
    }
  return dm_why (why, why_size, "distribution: '%s' is not %s", value, form);
}

static int
parse_rate (dm_workload *w, const char *value, char *why, size_t why_size)
{
  double v;
  int n;
  if (!dm_ascii_casecmp (value, "none") || !strcmp (value, "0"))
    {
      w->rate_unit = DM_RATE_NONE;
      w->rate = 0;
      return 0;
    }
  if ((n = parse_decimal (value, &v)) < 0 || v <= 0 || v > 1e9)
    return dm_why (why, why_size, "rate: '%s' is not a rate (2000, 2000iops or 50MB/s)", value);
  const char *unit = value + n;
  if (!*unit || !dm_ascii_casecmp (unit, "iops"))
    w->rate_unit = DM_RATE_IOPS;
  else if (!dm_ascii_casecmp (unit, "MB/s"))
    w->rate_unit = DM_RATE_MBPS;
  else
    return dm_why (why, why_size, "rate: '%s' is not a rate (2000, 2000iops or 50MB/s)", value);
  w->rate = v;
  return 0;
}

static int
parse_cpus (dm_workload *w, const char *value, char *why, size_t why_size)
{
  const char *p = value;
  unsigned n = 0;
  while (*p)
    {
      unsigned a, b;
      int used = 0;
      if (sscanf (p, "%4u%n", &a, &used) != 1)
        return dm_why (why, why_size, "affinity: '%s' is not none, spread or a list (0,2,4-7)", value);
      p += used;
      b = a;
      if (*p == '-')
        {
          if (sscanf (p + 1, "%4u%n", &b, &used) != 1 || b < a)
            return dm_why (why, why_size, "affinity: '%s' has a bad range", value);
          p += 1 + used;
        }
      for (unsigned c = a; c <= b; c++)
        {
          if (n == DM_WORKLOAD_CPUS || c > 4095)
            return dm_why (why, why_size, "affinity: at most %d CPUs, numbered below 4096",
                           DM_WORKLOAD_CPUS);
          w->cpus[n++] = (uint16_t) c;
        }
      if (*p == ',' && p[1])
        p++;
      else if (*p)
        return dm_why (why, why_size, "affinity: '%s' is not none, spread or a list (0,2,4-7)", value);
    }
  if (!n)
    return dm_why (why, why_size, "affinity: no CPU given");
  w->n_cpus = n;
  w->affinity = DM_AFFINITY_LIST;
  return 0;
}

int
dm_workload_set (dm_workload *w, const char *key, const char *value, char *why, size_t why_size)
{
  char inner[128];
  unsigned u;
  if (!key || !*key)
    return dm_why (why, why_size, "a setting has no name (name=value)");
  if (!value)
    value = "";
  if (!dm_ascii_casecmp (key, "name"))
    {
      size_t n = strlen (value);
      if (!n || n >= sizeof w->name)
        return dm_why (why, why_size, "name: 1 to %u characters", (unsigned) sizeof w->name - 1);
      if (strpbrk (value, ";=#[]\n\r\t\""))
        return dm_why (why, why_size, "name: '%s' may not hold ; = # [ ] quotes or tabs", value);
      memcpy (w->name, value, n + 1);
      return 0;
    }
  if (!dm_ascii_casecmp (key, "block") || !dm_ascii_casecmp (key, "bs"))
    return parse_sizes (w, value, why, why_size);
  if (!dm_ascii_casecmp (key, "read"))
    return parse_percent (value, &w->read_percent, "read", why, why_size);
  if (!dm_ascii_casecmp (key, "random"))
    return parse_percent (value, &w->random_percent, "random", why, why_size);
  if (!dm_ascii_casecmp (key, "distribution"))
    return parse_distribution (w, value, why, why_size);
  if (!dm_ascii_casecmp (key, "rate"))
    return parse_rate (w, value, why, why_size);
  if (!dm_ascii_casecmp (key, "sync"))
    {
      if (!dm_ascii_casecmp (value, "none"))
        w->sync = DM_SYNC_NONE, w->flush_every = 0;
      else if (!dm_ascii_casecmp (value, "dsync"))
        w->sync = DM_SYNC_DSYNC, w->flush_every = 0;
      else if (!dm_ascii_ncasecmp (value, "flush:", 6)
               && dm_uint_parse (value + 6, 1, 1000000, &u, inner, sizeof inner) == 0)
        w->sync = DM_SYNC_FLUSH, w->flush_every = u;
      else
        return dm_why (why, why_size, "sync: '%s' is not none, dsync or flush:N", value);
      return 0;
    }
  if (!dm_ascii_casecmp (key, "data"))
    {
      if (!dm_ascii_casecmp (value, "random"))
        w->data = DM_WDATA_RANDOM;
      else if (!dm_ascii_casecmp (value, "zeros"))
        w->data = DM_WDATA_ZEROS;
      else
        return dm_why (why, why_size, "data: '%s' is not random or zeros", value);
      return 0;
    }
  if (!dm_ascii_casecmp (key, "compress"))
    {
      if (parse_percent (value, &u, "compress", why, why_size) < 0)
        return -EINVAL;
      if (u > 95)
        return dm_why (why, why_size, "compress: at most 95");
      w->compress_percent = u;
      return 0;
    }
  if (!dm_ascii_casecmp (key, "dedupe"))
    {
      if (parse_percent (value, &u, "dedupe", why, why_size) < 0)
        return -EINVAL;
      if (u > 95)
        return dm_why (why, why_size, "dedupe: at most 95");
      w->dedupe_percent = u;
      return 0;
    }
  if (!dm_ascii_casecmp (key, "affinity"))
    {
      if (!dm_ascii_casecmp (value, "none"))
        w->affinity = DM_AFFINITY_NONE, w->n_cpus = 0;
      else if (!dm_ascii_casecmp (value, "spread"))
        w->affinity = DM_AFFINITY_SPREAD, w->n_cpus = 0;
      else
        return parse_cpus (w, value, why, why_size);
      return 0;
    }
  if (!dm_ascii_casecmp (key, "qd") || !dm_ascii_casecmp (key, "queue"))
    {
      if (dm_uint_parse (value, 1, DM_QUEUE_MAX, &u, inner, sizeof inner) < 0)
        return dm_why (why, why_size, "qd: %s", inner);
      w->queue_depth = (uint16_t) u;
      return 0;
    }
  if (!dm_ascii_casecmp (key, "threads"))
    {
      if (dm_uint_parse (value, 1, DM_THREADS_MAX, &u, inner, sizeof inner) < 0)
        return dm_why (why, why_size, "threads: %s", inner);
      w->threads = (uint16_t) u;
      return 0;
    }
  return dm_why (why, why_size, "'%s' is not a workload setting (name, block, read, random, "
                 "distribution, rate, sync, data, compress, dedupe, affinity, qd, threads)", key);
}

static void
trim (char *s)
{
  size_t n = strlen (s);
  while (n && (s[n - 1] == ' ' || s[n - 1] == '\t'))
    s[--n] = '\0';
  size_t k = strspn (s, " \t");
  memmove (s, s + k, n - k + 1);
}

int
dm_workload_parse (const char *text, dm_workload *w, char *why, size_t why_size)
{
  const char *p = text;
  dm_workload t;
  if (!text)
    return dm_why (why, why_size, "no workload given");
  dm_workload_init (&t);
  while (*p)
    {
      const char *end = strchr (p, ';');
      size_t n = end ? (size_t) (end - p) : strlen (p);
      char item[DM_WORKLOAD_TEXT_MAX];
      if (n >= sizeof item)
        return dm_why (why, why_size, "a workload setting is too long");
      memcpy (item, p, n);
      item[n] = '\0';
      p = end ? end + 1 : p + n;
      trim (item);
      if (!*item)
        continue;
      char *eq = strchr (item, '=');
      if (!eq)
        return dm_why (why, why_size, "'%s' is not key=value", item);
      *eq = '\0';
      trim (item);
      trim (eq + 1);
      if (dm_workload_set (&t, item, eq + 1, why, why_size) < 0)
        return -EINVAL;
    }
  if (dm_workload_check (&t, why, why_size) < 0)
    return -EINVAL;
  *w = t;
  return 0;
}

int
dm_workload_check (const dm_workload *w, char *why, size_t why_size)
{
  if (!w->n_sizes)
    return dm_why (why, why_size, "%s: no block size", w->name);
  if (w->data == DM_WDATA_ZEROS && (w->compress_percent || w->dedupe_percent))
    return dm_why (why, why_size, "%s: zeros cannot be made compressible or deduplicable; "
                   "use data=random with compress or dedupe", w->name);
  if (w->read_percent == 100 && w->sync != DM_SYNC_NONE)
    return dm_why (why, why_size, "%s: sync applies to writes, and it does none (read=100)",
                   w->name);
  if (w->rate_unit != DM_RATE_NONE && w->rate / w->threads < 0.5)
    return dm_why (why, why_size, "%s: a rate below half an I/O per second per thread", w->name);
  return 0;
}

static const char *
dist_word (dm_dist d)
{
  switch (d)
    {
    case DM_DIST_ZIPF: return "zipf";
    case DM_DIST_PARETO: return "pareto";
    case DM_DIST_HOT: return "hot";
    default: return "uniform";
    }
}

static void
format_dist (const dm_workload *w, char *buf, size_t size)
{
  char num[32];
  if (w->dist == DM_DIST_ZIPF || w->dist == DM_DIST_PARETO)
    {
      format_decimal (w->dist_param, num, sizeof num);
      snprintf (buf, size, "%s:%s", dist_word (w->dist), num);
    }
  else if (w->dist == DM_DIST_HOT)
    {
      size_t o = (size_t) snprintf (buf, size, "hot");
      for (unsigned z = 0; z < w->n_zones && o < size; z++)
        o += (size_t) snprintf (buf + o, size - o, ":%u/%u", w->zone_file[z], w->zone_io[z]);
    }
  else
    snprintf (buf, size, "uniform");
}

static void
format_sizes (const dm_workload *w, char *buf, size_t size, bool weights)
{
  size_t o = 0;
  buf[0] = '\0';
  for (unsigned i = 0; i < w->n_sizes && o < size; i++)
    {
      char b[16];
      dm_block_short (w->sizes[i], b, sizeof b);
      if (weights && w->n_sizes > 1)
        o += (size_t) snprintf (buf + o, size - o, "%s%s/%u", i ? "," : "", b, w->weights[i]);
      else
        o += (size_t) snprintf (buf + o, size - o, "%s%s", i ? "," : "", b);
    }
}

static void
format_rate (const dm_workload *w, char *buf, size_t size)
{
  char num[32];
  if (w->rate_unit == DM_RATE_NONE)
    {
      snprintf (buf, size, "none");
      return;
    }
  format_decimal (w->rate, num, sizeof num);
  snprintf (buf, size, "%s%s", num, w->rate_unit == DM_RATE_MBPS ? "MB/s" : "iops");
}

static void
format_sync (const dm_workload *w, char *buf, size_t size)
{
  if (w->sync == DM_SYNC_FLUSH)
    snprintf (buf, size, "flush:%u", w->flush_every);
  else
    snprintf (buf, size, "%s", w->sync == DM_SYNC_DSYNC ? "dsync" : "none");
}

static void
format_affinity (const dm_workload *w, char *buf, size_t size)
{
  if (w->affinity != DM_AFFINITY_LIST)
    {
      snprintf (buf, size, "%s", w->affinity == DM_AFFINITY_SPREAD ? "spread" : "none");
      return;
    }
  size_t o = 0;
  for (unsigned i = 0; i < w->n_cpus && o < size; i++)
    o += (size_t) snprintf (buf + o, size - o, "%s%u", i ? "," : "", w->cpus[i]);
}

void
dm_workload_format (const dm_workload *w, char *buf, size_t size)
{
  char sizes[160], dist[64], rate[48], sync[32], aff[320];
  format_sizes (w, sizes, sizeof sizes, true);
  format_dist (w, dist, sizeof dist);
  format_rate (w, rate, sizeof rate);
  format_sync (w, sync, sizeof sync);
  format_affinity (w, aff, sizeof aff);
  snprintf (buf, size, "name=%s;block=%s;read=%u;random=%u;distribution=%s;rate=%s;sync=%s;"
            "data=%s;compress=%u;dedupe=%u;affinity=%s;qd=%u;threads=%u",
            w->name, sizes, w->read_percent, w->random_percent, dist, rate, sync,
            w->data == DM_WDATA_ZEROS ? "zeros" : "random", w->compress_percent,
            w->dedupe_percent, aff, (unsigned) w->queue_depth, (unsigned) w->threads);
}

void
dm_workload_describe (const dm_workload *w, char *buf, size_t size)
{
  char sizes[160], dist[64], rate[48], sync[32], aff[320], data[48];
  format_sizes (w, sizes, sizeof sizes, true);
  format_dist (w, dist, sizeof dist);
  format_rate (w, rate, sizeof rate);
  format_sync (w, sync, sizeof sync);
  format_affinity (w, aff, sizeof aff);
  if (w->compress_percent || w->dedupe_percent)
    snprintf (data, sizeof data, "compress %u%%, dedupe %u%%", w->compress_percent,
              w->dedupe_percent);
  else
    snprintf (data, sizeof data, "%s", w->data == DM_WDATA_ZEROS ? "zeros" : "random");
  snprintf (buf, size, "%s, %u%% read, %u%% random %s, Q%uT%u, rate %s, sync %s, data %s, "
            "affinity %s", sizes, w->read_percent, w->random_percent, dist,
            (unsigned) w->queue_depth, (unsigned) w->threads, rate, sync, data, aff);
}

uint32_t
dm_workload_max_block (const dm_workload *w)
{
  return w->n_sizes ? w->sizes[w->n_sizes - 1] : DM_BLOCK_MIN;
}

uint32_t
dm_workload_min_block (const dm_workload *w)
{
  return w->n_sizes ? w->sizes[0] : DM_BLOCK_MIN;
}

void
dm_workload_spec (const dm_workload *w, dm_spec *spec)
{
  spec->pattern = w->random_percent >= 50 ? DM_RND : DM_SEQ;
  spec->block_size = dm_workload_max_block (w);
  spec->queue_depth = w->queue_depth;
  spec->threads = w->threads;
}

bool
dm_workload_equal (const dm_workload *a, const dm_workload *b)
{
  char x[DM_WORKLOAD_TEXT_MAX], y[DM_WORKLOAD_TEXT_MAX];
  dm_workload_format (a, x, sizeof x);
  dm_workload_format (b, y, sizeof y);
  return !strcmp (x, y);
}

void
dm_workload_hash_text (const char *text, size_t len, char out[17])
{
  uint64_t h = 0xcbf29ce484222325ull;
  for (size_t i = 0; i < len; i++)
    {
      h ^= (unsigned char) text[i];
      h *= 0x100000001b3ull;
    }
  snprintf (out, 17, "%016llx", (unsigned long long) h);
}

/* Zipf by rejection-inversion: H is the integral of h(x) = x^-theta, in a
 * form that stays exact where theta is near 1. */
static double
helper1 (double x) /* log1p(x)/x */
{
  return fabs (x) > 1e-8 ? log1p (x) / x : 1 - x * (0.5 - x * (1.0 / 3 - 0.25 * x));
}

static double
helper2 (double x) /* expm1(x)/x */
{
  return fabs (x) > 1e-8 ? expm1 (x) / x : 1 + x * 0.5 * (1 + x / 3 * (1 + 0.25 * x));
}

static double
zipf_h (double exp_, double x)
{
  return exp (-exp_ * log (x));
}

static double
zipf_H (double exp_, double x)
{
  double lx = log (x);
  return helper2 ((1 - exp_) * lx) * lx;
}

static double
zipf_H_inv (double exp_, double x)
{
  double t = x * (1 - exp_);
  if (t < -1)
    t = -1;
  return exp (helper1 (t) * x);
}

static uint64_t
gcd (uint64_t a, uint64_t b)
{
  while (b)
    {
      uint64_t t = a % b;
      a = b;
      b = t;
    }
  return a;
}

int
dm_workload_sampler_init (dm_workload_sampler *s, const dm_workload *w, uint64_t file_size)
{
  memset (s, 0, sizeof *s);
  s->unit = dm_workload_min_block (w);
  if (file_size < dm_workload_max_block (w))
    return -EINVAL;
  s->n_units = file_size / s->unit;
  s->dist = w->dist;

  /* Walker's alias table, built as Vose does: columns of equal width,
   * each split between its own size and one other. */
  unsigned n = w->n_sizes;
  double sum = 0, p[DM_WORKLOAD_SIZES];
  unsigned small[DM_WORKLOAD_SIZES], large[DM_WORKLOAD_SIZES], ns = 0, nl = 0;
  for (unsigned i = 0; i < n; i++)
    sum += w->weights[i];
  for (unsigned i = 0; i < n; i++)
    {
      s->size_value[i] = w->sizes[i];
      s->size_alias[i] = i;
      p[i] = w->weights[i] * n / sum;
      if (p[i] < 1)
        small[ns++] = i;
      else
        large[nl++] = i;
    }
  while (ns && nl)
    {
      unsigned l = small[--ns], g = large[nl - 1];
      s->size_cut[l] = (uint64_t) llround (p[l] * 4294967296.0);
      s->size_alias[l] = g;
      p[g] -= 1 - p[l];
      if (p[g] < 1)
        {
          nl--;
          small[ns++] = g;
        }
    }
  while (nl)
    s->size_cut[large[--nl]] = 1ull << 32;
  while (ns)
    s->size_cut[small[--ns]] = 1ull << 32;
  s->n_sizes = n;

  /* Ranks scatter over the file, as fio hashes its zipf and pareto
   * values: the hot blocks are spread, not the first ones. A multiplier
   * coprime to the number of units makes the scatter a permutation. */
  uint64_t mul = (uint64_t) (s->n_units * 0.6180339887) | 1;
  while (s->n_units > 1 && gcd (mul, s->n_units) != 1)
    mul += 2;
  s->permute_mul = mul % (s->n_units ? s->n_units : 1);
  if (!s->permute_mul)
    s->permute_mul = 1;
  s->permute_add = s->n_units / 3;

  if (w->dist == DM_DIST_ZIPF)
    {
      double e = w->dist_param, nn = (double) s->n_units;
      s->z_exp = e;
      s->z_hx1 = zipf_H (e, 1.5) - 1;
      s->z_hxn = zipf_H (e, nn + 0.5);
      s->z_s = 2 - zipf_H_inv (e, zipf_H (e, 2.5) - zipf_h (e, 2));
    }
  else if (w->dist == DM_DIST_PARETO)
    s->p_pow = log (w->dist_param) / log (1 - w->dist_param);
  else if (w->dist == DM_DIST_HOT)
    {
      uint64_t start = 0;
      unsigned io_sum = 0, file_sum = 0;
      for (unsigned z = 0; z < w->n_zones; z++)
        {
          uint64_t len = s->n_units * w->zone_file[z] / 100;
          if (!len)
            len = 1;
          s->zone_start[z] = start;
          s->zone_len[z] = len;
          start += len;
          io_sum += w->zone_io[z];
          file_sum += w->zone_file[z];
          s->zone_cum[z] = (uint32_t) ((uint64_t) io_sum * 4294967295ull / 100);
        }
      unsigned nz = w->n_zones;
      if (file_sum < 100 && io_sum < 100 && start < s->n_units)
        {
          s->zone_start[nz] = start;
          s->zone_len[nz] = s->n_units - start;
          s->zone_cum[nz] = 0xffffffffu;
          nz++;
        }
      else
        s->zone_cum[nz - 1] = 0xffffffffu;
      s->n_zones = nz;
    }
  return 0;
}

static inline uint64_t
permute (const dm_workload_sampler *s, uint64_t rank)
{
  return (uint64_t) (((unsigned __int128) rank * s->permute_mul + s->permute_add) % s->n_units);
}

uint64_t
dm_workload_draw_unit (const dm_workload_sampler *s, dm_rng *rng)
{
  switch (s->dist)
    {
    case DM_DIST_ZIPF:
      for (;;)
        {
          double u01 = (double) (dm_rng_next (rng) >> 11) * 0x1p-53;
          double u = s->z_hxn + u01 * (s->z_hx1 - s->z_hxn);
          double x = zipf_H_inv (s->z_exp, u);
          double kd = floor (x + 0.5);
          if (kd < 1)
            kd = 1;
          else if (kd > (double) s->n_units)
            kd = (double) s->n_units;
          if (kd - x <= s->z_s || u >= zipf_H (s->z_exp, kd + 0.5) - zipf_h (s->z_exp, kd))
            return permute (s, (uint64_t) kd - 1);
        }
    case DM_DIST_PARETO:
      {
        double u01 = (double) (dm_rng_next (rng) >> 11) * 0x1p-53;
        uint64_t rank = (uint64_t) ((double) s->n_units * pow (u01, s->p_pow));
        return permute (s, rank < s->n_units ? rank : s->n_units - 1);
      }
    case DM_DIST_HOT:
      {
        uint64_t x = dm_rng_next (rng);
        uint32_t pick = (uint32_t) (x >> 32);
        unsigned z = 0;
        while (z + 1 < s->n_zones && pick > s->zone_cum[z])
          z++;
        return s->zone_start[z] + dm_rng_below (rng, s->zone_len[z]);
      }
    default:
      return dm_rng_below (rng, s->n_units);
    }
}
