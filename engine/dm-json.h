/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A small strict JSON reader for Diskmeter's own result files: the whole
 * document is parsed into a tree in one arena, freed at once. It refuses
 * anything RFC 8259 refuses, nests at most 64 deep, and says where the text
 * went wrong, because result files come from disks, mail and chat.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>

typedef enum {
  DM_JSON_NULL,
  DM_JSON_BOOL,
  DM_JSON_NUMBER,
  DM_JSON_STRING,
  DM_JSON_ARRAY,
  DM_JSON_OBJECT,
} dm_json_type;

typedef struct dm_json dm_json;
struct dm_json {
  dm_json_type type;
  const char  *key;      /* member name, inside an object */
  const char  *str;      /* DM_JSON_STRING: UTF-8, NUL terminated */
  double       num;      /* DM_JSON_NUMBER */
  bool         boolean;  /* DM_JSON_BOOL */
  dm_json     *child;    /* first element or member */
  dm_json     *next;     /* next sibling */
  size_t       n;        /* number of elements or members */
};

typedef struct dm_json_doc {
  dm_json *root;
  void    *arena;
} dm_json_doc;

/* 0, or -EINVAL with "line L, column C: reason" in why. */
int  dm_json_parse (const char *text, size_t len, dm_json_doc *doc, char *why, size_t why_size);
void dm_json_free (dm_json_doc *doc);

/* Member of an object, or NULL. */
const dm_json *dm_json_get (const dm_json *obj, const char *key);
/* Typed member access with a fallback for absent or mistyped members. */
const char *dm_json_get_string (const dm_json *obj, const char *key, const char *fallback);
double      dm_json_get_number (const dm_json *obj, const char *key, double fallback);
bool        dm_json_get_bool (const dm_json *obj, const char *key, bool fallback);
