/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A table-driven command-line parser, in the way of fio's option table: each
 * option is one row (name, kind of value, range, help, the commands that
 * take it), and the same rows both check what the user typed and write the
 * --help text, so the two cannot disagree.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "dm-buf.h"

typedef enum {
  DM_OPT_FLAG,    /* no value: --quiet */
  DM_OPT_UINT,    /* a whole number in [min, max] */
  DM_OPT_SIZE,    /* bytes as "1GiB", in [min, max], a multiple of step; or a word of choices */
  DM_OPT_SECONDS, /* "5", "500ms", "2m", in [min, max] */
  DM_OPT_CHOICE,  /* one word of choices ("text|json|csv"), any case */
  DM_OPT_LIST,    /* comma-separated; the setter checks each item, in [min, max] if set */
  DM_OPT_STRING,  /* any text, the empty one too */
  DM_OPT_PATH,    /* a file, folder or device name: not empty */
} dm_opt_kind;

enum {
  DM_OPT_POW2 = 1 << 0,    /* SIZE: a power of two */
  DM_OPT_ALIASES = 1 << 1, /* CHOICE: the setter also takes other spellings */
  DM_OPT_REPEAT = 1 << 2,  /* may be given more than once, each adds */
};

typedef struct dm_opt {
  const char *name;     /* "count" for --count */
  char        short_name; /* 'q' for -q, or 0 */
  dm_opt_kind kind;
  const char *arg;      /* the value's name in --help: "N", "SIZE"; CHOICE: NULL (the choices) */
  double      min, max; /* UINT, SIZE, SECONDS, LIST items; max 0 = no range */
  uint64_t    step;     /* SIZE: a multiple of this, or 0 */
  const char *choices;  /* CHOICE, SIZE: words separated by '|' */
  unsigned    flags;    /* DM_OPT_POW2... */
  unsigned    commands; /* bit mask of the commands that take it */
  int         id;       /* what the setter does with it */
  const char *group;    /* heading in --help */
  const char *help;     /* what it does, one or two sentences, wrapped by the help writer */
  const char *def;      /* the default as --help shows it, or NULL */
} dm_opt;

typedef struct dm_opt_value {
  const char *text;     /* as typed (NULL for a flag) */
  unsigned    u;        /* UINT */
  uint64_t    size;     /* SIZE */
  double      seconds;  /* SECONDS */
  int         choice;   /* CHOICE, SIZE: index in choices, or -1 */
} dm_opt_value;

/* Called for each option in the order given: 0, or -EINVAL with a reason. */
typedef int (*dm_opt_set_fn) (void *user, const dm_opt *opt, const dm_opt_value *v, char *why,
                              size_t why_size);
/* Called for each argument that is not an option. */
typedef int (*dm_opt_arg_fn) (void *user, const char *arg, char *why, size_t why_size);

typedef struct dm_opt_parser {
  const dm_opt *table;
  size_t        n_table;
  unsigned      command;  /* the bit of the command being parsed */
  const char   *who;      /* "diskmeter-cli sweep", for "--x is not an option of ..." */
  dm_opt_set_fn set;
  dm_opt_arg_fn arg;
  void         *user;
} dm_opt_parser;

/* Parses argv[1..argc-1]: "--name VALUE", "--name=VALUE", "-q", "--" (the
 * rest are arguments) and arguments, which may come in any order. 0, or
 * -EINVAL with a one-line reason naming the option in why. */
int dm_opt_parse (const dm_opt_parser *p, int argc, char **argv, char *why, size_t why_size);

/* Checks v->text against the row's kind and range and fills in v (the
 * window's command line checks its shared options so): 0, or -EINVAL
 * with a one-line reason naming the option. */
int dm_opt_check (const dm_opt *opt, dm_opt_value *v, char *why, size_t why_size);

/* The row for --name in command, or NULL. */
const dm_opt *dm_opt_find (const dm_opt *table, size_t n, unsigned command, const char *name,
                           size_t len);

/* The option lines of command's --help, grouped under their headings in
 * the table's order: "  --count=N    text (1..9, default 5)". */
void dm_opt_write_help (const dm_opt *table, size_t n, unsigned command, dm_buf *out);

/* The range as --help shows it ("1..9", "16MiB..64GiB"), or "" if none. */
void dm_opt_range_text (const dm_opt *opt, char *buf, size_t size);

/* Appends text to out, wrapped at 79 columns as a terminal shows them (a
 * kanji takes two), each line indented by indent spaces except the first
 * (which starts at column first). Breaks at spaces, and between the
 * characters of Japanese or Chinese text, which has none; the text's own
 * line breaks count as spaces. */
void dm_opt_wrap (dm_buf *out, const char *text, int first, int indent);
