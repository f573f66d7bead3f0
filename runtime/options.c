/* options.c -- splicecat's command line: the options of cat and tee that
   make sense for a copier that never changes a byte.

   Accepted: splicecat's own (--tee, --stats), POSIX cat's -u and POSIX
   tee's -a and -i.  Refused by name, with the reason, rather than as
   "unrecognized": GNU cat's formatting options (they change the bytes)
   and GNU tee's -p and --output-error (splicecat always does what tee
   does without them).  getopt_long permutes, so options may follow
   operands, unambiguous prefixes work, and "--" ends the options.  */

#include "options.h"

#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Exit successfully after --help or --version, unless writing their text
   failed (splicecat --version >/dev/full reports ENOSPC, as cat does).  */
static _Noreturn void
exit_after_text (void)
{
  if (fclose (stdout) != 0)
    {
      fprintf (stderr, "%s: write error: %s\n", PROGRAM_NAME,
               strerror (errno));
      exit (EXIT_FAILURE);
    }
  exit (EXIT_SUCCESS);
}

/* Print the usage message and exit with STATUS.  */
static _Noreturn void
usage (int status)
{
  if (status != EXIT_SUCCESS)
    fprintf (stderr, "Try '%s --help' for more information.\n",
             PROGRAM_NAME);
  else
    printf ("\
Usage: %s [OPTION]... [FILE]...\n\
Concatenate FILE(s) to standard output, like cat, moving the bytes\n\
inside the kernel (copy_file_range, sendfile, splice, tee) where it can.\n\
\n\
With no FILE, or when FILE is -, read standard input.\n\
\n\
      --tee=FILE   also copy everything to FILE (may be repeated), like tee\n\
  -a, --append     open --tee files for appending, not truncating\n\
  -i, --ignore-interrupts  ignore the interrupt signal (SIGINT), like tee -i\n\
  -u               (ignored; POSIX cat's unbuffered output is the default)\n\
      --stats      at exit, print bytes moved per method to stderr:\n\
                     %s: stats: METHOD BYTES bytes\n\
      --help       display this help and exit\n\
      --version    output version information and exit\n\
\n\
cat's formatting options (-A, -n, ...) and tee's -p and --output-error\n\
are refused: splicecat copies bytes unchanged, and a --tee file or\n\
standard output that fails is reported and dropped, as tee does.\n\
\n\
Examples:\n\
  %s a b c | consumer        Copy a, b and c into a pipe, zero-copy.\n\
  producer | %s --tee log | consumer\n\
                             Keep a copy of a stream in log.\n",
            PROGRAM_NAME, PROGRAM_NAME, PROGRAM_NAME, PROGRAM_NAME);
  if (status == EXIT_SUCCESS)
    exit_after_text ();
  exit (status);
}

/* Refuse cat's or tee's option C (given as --LONG_NAME, or as -C if
   LONG_NAME is NULL) with a one-line reason and the usage hint; exit 1.  */
static _Noreturn void
refuse_option (int c, char const *long_name)
{
  char option[64];
  if (long_name)
    snprintf (option, sizeof option, "--%s", long_name);
  else
    snprintf (option, sizeof option, "-%c", c);
  if (c == 'p')
    fprintf (stderr, "%s: tee's option '%s' is not supported: a failing "
             "output is reported and dropped, as by tee without it\n",
             PROGRAM_NAME, option);
  else
    fprintf (stderr, "%s: cat's option '%s' changes the bytes; %s copies "
             "them unchanged\n", PROGRAM_NAME, option, PROGRAM_NAME);
  usage (EXIT_FAILURE);
}

int
parse_options (int argc, char **argv, struct options *opts)
{
  enum { HELP = 256, STATS, TEE, VERSION };
  static struct option const long_options[] = {
    { "append", no_argument, NULL, 'a' },
    { "help", no_argument, NULL, HELP },
    { "ignore-interrupts", no_argument, NULL, 'i' },
    { "stats", no_argument, NULL, STATS },
    { "tee", required_argument, NULL, TEE },
    { "version", no_argument, NULL, VERSION },
    /* Known only to be refused by name.  */
    { "number", no_argument, NULL, 'n' },
    { "number-nonblank", no_argument, NULL, 'b' },
    { "output-error", optional_argument, NULL, 'p' },
    { "show-all", no_argument, NULL, 'A' },
    { "show-ends", no_argument, NULL, 'E' },
    { "show-nonprinting", no_argument, NULL, 'v' },
    { "show-tabs", no_argument, NULL, 'T' },
    { "squeeze-blank", no_argument, NULL, 's' },
    { NULL, 0, NULL, 0 }
  };

  /* getopt's own messages ("unrecognized option '--x'") name argv[0];
     make that the program name, not the path it was run by.  */
  argv[0] = (char *) PROGRAM_NAME;
  for (;;)
    {
      int index = -1;
      int c = getopt_long (argc, argv, "aiuAbeEnstTvp", long_options, &index);
      switch (c)
        {
        case -1:
          return optind;
        case 'a':
          opts->append = true;
          break;
        case 'i':
          signal (SIGINT, SIG_IGN);
          break;
        case 'u':
          break;
        case HELP:
          usage (EXIT_SUCCESS);
        case STATS:
          opts->stats = true;
          break;
        case TEE:
          opts->tee_names[opts->n_tees++] = optarg;
          break;
        case VERSION:
          printf ("%s %s\n", PROGRAM_NAME, PROGRAM_VERSION);
          exit_after_text ();
        case '?':               /* getopt has said what was wrong */
          usage (EXIT_FAILURE);
        default:
          refuse_option (c, index < 0 ? NULL : long_options[index].name);
        }
    }
}
