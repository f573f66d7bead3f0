/* options.h -- splicecat's command line.  */

#ifndef SPLICECAT_OPTIONS_H
#define SPLICECAT_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>

#define PROGRAM_NAME "splicecat"
#define PROGRAM_VERSION "0.1.0"

/* What the options asked for.  */
struct options
{
  char const **tee_names;       /* --tee FILE, in order: room for argc */
  size_t n_tees;
  bool append;                  /* -a, --append: open them O_APPEND */
  bool stats;                   /* --stats */
};

/* Parse the options in ARGV (ARGC words) into *OPTS, whose tee_names has
   room for ARGC names, and return the index of the first operand.
   --help, --version and every usage error exit here.  */
int parse_options (int argc, char **argv, struct options *opts);

#endif
