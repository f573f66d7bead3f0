/* quote.h -- file names in messages, quoted as GNU cat and tee 9.1 do.  */

#ifndef SPLICECAT_QUOTE_H
#define SPLICECAT_QUOTE_H

/* Return NAME as coreutils' quotef shows it in "cat: NAME: reason": as is
   when the shell would read it back unchanged, else in shell quotes
   ('a b', "it's", 'a'$'\n''b').  The result is allocated with malloc
   (the caller frees it), or NULL when memory is short.  Depends on the
   LC_CTYPE locale, as coreutils does: which bytes are printable
   characters.  */
char *quote_name (char const *name);

#endif
