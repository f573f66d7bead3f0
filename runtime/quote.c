/* quote.c -- file names in messages, quoted as GNU cat and tee 9.1 do.

   coreutils prints a file name in a diagnostic with quotef: gnulib's
   "shell-escape" quoting, plus ':' (a colon in the name would make
   "cat: a:b: reason" ambiguous).  Users grep for those messages and
   scripts parse them, so splicecat prints names the same way.  The
   forms, checked against /usr/bin/cat and /usr/bin/tee by
   tests/splicecat/test_splicecat_messages.py:

     name          the shell would read it back unchanged: as is
     'a b'         a shell-special character ($, *, space, :, ...)
     "it's"        an apostrophe, and otherwise only characters that need
                   no escape inside double quotes either
     'it'\''s$'    an apostrophe among other specials
     'a'$'\n''b'   a control character or a byte that is no printable
                   character in the locale: $'...' with \n, \t, ... or
                   \ooo (octal) per byte

   Characters are decoded with mbrtowc in the LC_CTYPE locale, as gnulib
   does: in C.UTF-8 'é' is printable and stays as is; in the C locale its
   two bytes are shown as $'\303\251'.  */

#include "quote.h"

#include <ctype.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>
#include <wctype.h>

/* What one character of a name asks of the quoting.  */
struct name_char
{
  size_t len;          /* bytes of the name it spans */
  bool needs_quotes;   /* the shell would not read it back as is */
  bool double_ok;      /* may stand unescaped inside "..." */
  bool escaped;        /* shown as $'...' escapes, byte by byte */
};

/* Bytes that may only be the first byte of a multibyte character:
   a later byte that equals one of these ASCII specials fools old
   shells (in encodings such as Big5 and GBK, not UTF-8), so gnulib
   quotes such names.  */
static char const fooling_bytes[] = "[\\^`|";

/* Classify a character that is not plain ASCII punctuation or
   alphanumeric: '@', a control character, or a multibyte one, at NAME
   (N bytes left).  */
static struct name_char
classify_other (char const *name, size_t n)
{
  struct name_char c = { .len = 1 };
  bool printable;
  if (MB_CUR_MAX == 1)
    printable = isprint ((unsigned char) *name) != 0;
  else
    {
      mbstate_t state;
      memset (&state, 0, sizeof state);
      wchar_t w;
      size_t r = mbrtowc (&w, name, n, &state);
      if (r == (size_t) -2)        /* incomplete at the end: all escaped */
        c.len = n;
      printable = r < (size_t) -2 && iswprint (w);
      if (printable)
        {
          c.len = r;
          for (size_t j = 1; j < r; j++)
            if (strchr (fooling_bytes, name[j]))
              c.needs_quotes = true;
        }
    }
  c.double_ok = printable;
  c.escaped = !printable;
  c.needs_quotes |= !printable;
  return c;
}

/* Classify the character at NAME + I, NAME being LEN bytes long (no
   null byte among them, so strchr never matches the terminator).  The
   classes are gnulib's: which characters are special to the shell
   (some only at the start, or alone), which are safe anywhere.  */
static struct name_char
classify (char const *name, size_t i, size_t len)
{
  unsigned char b = name[i];
  struct name_char c = { .len = 1 };
  if (isascii (b) && (isalnum (b) || strchr ("%+,-./]_", b)))
    c.double_ok = true;
  else if (b == '#' || b == '~')           /* a comment, a home: at start */
    c.needs_quotes = c.double_ok = i == 0;
  else if (b == '{' || b == '}')           /* brace expansion: alone */
    c.needs_quotes = c.double_ok = len == 1;
  else if (b == ' ' || b == ':' || b == '\'')
    c.needs_quotes = c.double_ok = true;
  else if (strchr ("!\"$&()*;<=>?[\\^`|", b))
    c.needs_quotes = true;
  else if (strchr ("\a\b\f\n\r\t\v", b))
    c.needs_quotes = c.escaped = true;
  else
    c = classify_other (name + i, len - i);
  return c;
}

/* Append the $'...' escape of byte B to *OUT: \n, \t, ... where C has a
   letter for it, else \ooo.  */
static void
put_escape (char **out, unsigned char b)
{
  static char const controls[] = "\a\b\f\n\r\t\v";
  static char const letters[] = "abfnrtv";
  char const *p = strchr (controls, b);
  *(*out)++ = '\\';
  if (p)
    *(*out)++ = letters[p - controls];
  else
    {
      *(*out)++ = '0' + (b >> 6);
      *(*out)++ = '0' + ((b >> 3) & 7);
      *(*out)++ = '0' + (b & 7);
    }
}

/* Append S (N bytes) to *OUT.  */
static void
put (char **out, char const *s, size_t n)
{
  memcpy (*out, s, n);
  *out += n;
}

/* Write NAME (LEN bytes) in single quotes to OUT: an apostrophe becomes
   '\'' and a run of escaped characters goes into a $'...' piece, as in
   'a'$'\n''b'.  Returns the end of what was written.  */
static char *
put_single_quoted (char *out, char const *name, size_t len)
{
  bool in_dollar = false;      /* inside a $'...' piece */
  *out++ = '\'';
  for (size_t i = 0; i < len; )
    {
      struct name_char c = classify (name, i, len);
      if (name[i] == '\'')
        {
          put (&out, "'\\''", 4);   /* closes either piece, reopens '...' */
          in_dollar = false;
        }
      else if (c.escaped)
        {
          if (!in_dollar)
            put (&out, "'$'", 3);
          in_dollar = true;
          for (size_t j = 0; j < c.len; j++)
            put_escape (&out, name[i + j]);
        }
      else
        {
          if (in_dollar)
            put (&out, "''", 2);
          in_dollar = false;
          put (&out, name + i, c.len);
        }
      i += c.len;
    }
  *out++ = '\'';
  return out;
}

char *
quote_name (char const *name)
{
  size_t len = strlen (name);
  bool needs_quotes = len == 0, double_ok = true, apostrophe = false;
  for (size_t i = 0; i < len; )
    {
      struct name_char c = classify (name, i, len);
      needs_quotes |= c.needs_quotes;
      double_ok &= c.double_ok;
      apostrophe |= name[i] == '\'';
      i += c.len;
    }

  /* Each byte takes at most 7: "'$'" opening a piece and a \ooo escape;
     plus the two quotes and the terminating null.  */
  char *quoted = malloc (7 * len + 3);
  if (!quoted)
    return NULL;
  char *end = quoted;
  if (!needs_quotes)
    put (&end, name, len);
  else if (apostrophe && double_ok)
    {
      *end++ = '"';
      put (&end, name, len);
      *end++ = '"';
    }
  else
    end = put_single_quoted (end, name, len);
  *end = '\0';
  return quoted;
}
