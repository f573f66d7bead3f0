/* splicecat -- concatenate files to standard output, moving the bytes
   inside the kernel where it can.

   Behaves like `cat` without options: each FILE (or standard input for
   `-` or no operand) is copied, in order, byte for byte, to standard
   output; `--tee FILE` also copies everything to FILE, like `tee`.

   What differs from cat is how the bytes move.  For each operand one
   copy method is chosen before its first byte, from the kinds of the
   input and output descriptors:

     regular file -> regular file    copy_file_range, else sendfile
     either end a pipe               splice, directly
     neither end a pipe              splice through a pipe of our own,
                                     but read/write for a regular file
                                     of 8 KiB or less (SMALL_INPUT_MAX)
     pipe -> pipe with --tee         tee(2), then splice into the files
     anything else                   read/write with a 128 KiB buffer

   A method that the kernel refuses (ENOSYS, EINVAL, EXDEV, ...) hands
   over to the next one, but only before any byte has moved.  Once bytes
   have moved, an error ends the operand (or, on the output, the
   program), as cat 9.1 does around copy_file_range: falling back in the
   middle could drop or duplicate data once bytes are in flight.

   Every method returns one of three results: COPY_DONE, COPY_TRY_NEXT
   (nothing moved, try the next method), or COPY_FAILED (the error has
   already been reported).  Errors are reported once, where errno is
   fresh, as "splicecat: NAME: reason" with NAME quoted as cat quotes
   it; all errors on standard output go through stdout_failed.  With
   --tee, standard output failing is what it is to GNU tee: reported,
   dropped, and the tee files still get every byte.  The measurements
   behind the numbers below are in docs/splicecat.md, with the command.  */

#include <errno.h>
#include <fcntl.h>
#include <locale.h>
#include <poll.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sendfile.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "options.h"
#include "quote.h"

/* glibc wraps copy_file_range(2) from 2.27 on.  The wheels on PyPI are
   built against glibc 2.17 (manylinux2014, so that they install on
   RHEL 7 and Amazon Linux 2: docs/release.md), where the header has no
   wrapper: call the system call itself.  Kernel headers older than 4.5
   lack its number, hence the two we build for.  Any other build gets
   ENOSYS, which hands the file over to sendfile, as on a kernel < 4.5.  */
#ifdef __GLIBC__
# if !__GLIBC_PREREQ (2, 27)
#  ifndef __NR_copy_file_range
#   if defined __x86_64__
#    define __NR_copy_file_range 326
#   elif defined __aarch64__
#    define __NR_copy_file_range 285
#   endif
#  endif
static ssize_t
copy_file_range (int fd_in, off_t *off_in, int fd_out, off_t *off_out,
                 size_t len, unsigned int flags)
{
#  ifdef __NR_copy_file_range
  return syscall (__NR_copy_file_range, fd_in, off_in, fd_out, off_out, len,
                  flags);
#  else
  (void) fd_in, (void) off_in, (void) fd_out, (void) off_out, (void) len,
    (void) flags;
  errno = ENOSYS;
  return -1;
#  endif
}
# endif
#endif

/* 1 MiB: the pipe size we ask for, and the length of one splice or
   tee(2) call.  It is the default /proc/sys/fs/pipe-max-size, so an
   unprivileged process can have it.  shared/ANCHORS.md (2 GiB cached
   file, 2-core VM): file -> pipe spliced through a 1 MiB pipe ran 2.7x
   faster than cat 9.1 at 0.38x its CPU, through the default 64 KiB pipe
   only 1.3-1.8x; pipe -> file through 64 KiB was slower than cat.  */
enum { PIPE_WANT = 1 << 20 };

/* 128 KiB: the read/write buffer, the size coreutils' io_blksize gives
   cat 9.1, so the fallback moves bytes the way cat does.  It is a
   multiple of 4 KiB and page-aligned so that O_DIRECT outputs accept it.  */
enum { IO_BUFSIZE = 128 * 1024 };

/* 1 GiB: the length asked of one copy_file_range or sendfile call.  The
   kernel caps one call at 2 GiB - 4 KiB (MAX_RW_COUNT) anyway; a round
   1 GiB still copies most files in one call.  */
enum { BIG_CHUNK = 1 << 30 };

/* The 64 KiB pipe Linux gives by default, assumed if F_GETPIPE_SZ fails.  */
enum { PIPE_DEFAULT = 64 * 1024 };

/* Regular files of at most this many bytes always use read/write.  0:
   an empty file, or a /proc file whose size the kernel cannot tell
   (copy_file_range returns 0 or EXDEV on those); one read(2) settles
   it.  bench_splicecat.py --sweep raises it to time read/write against
   the kernel's methods (-DSPLICECAT_READ_WRITE_MAX=N).  */
#ifndef SPLICECAT_READ_WRITE_MAX
# define SPLICECAT_READ_WRITE_MAX 0
#endif
enum { READ_WRITE_MAX = SPLICECAT_READ_WRITE_MAX };

/* A regular file of at most this many bytes is not worth a pipe of our
   own: when neither end is a pipe (file -> /dev/null, tty, socket) it
   is copied with read/write.  In splicecat's CPU time, 301 alternating
   runs per sweep, read/write was cheaper for files of 1 B-8 KiB through
   our own pipe: by 7-9% per file with 1000 files per run (pipe2 +
   F_SETPIPE_SZ, then two splices and an empty one per file, against a
   read, a write and an empty read), and by 1-5% with one.  Into a pipe
   it is the other way: splicing 1000 such files used 7-18% less.  Into
   a file the two were within about 5% either way.  From 16 KiB the
   kernel's methods tie or win everywhere.  Rerun:
     python3 tests/benchmarks/bench_splicecat.py --sweep --rounds 301
   (tables in docs/splicecat.md, "Small inputs").  */
#ifndef SPLICECAT_SMALL_INPUT_MAX
# define SPLICECAT_SMALL_INPUT_MAX (8 * 1024)
#endif
enum { SMALL_INPUT_MAX = SPLICECAT_SMALL_INPUT_MAX };

enum copy_result { COPY_DONE, COPY_TRY_NEXT, COPY_FAILED };

/* The methods, in the order of the --stats lines.  */
enum method { M_COPY_FILE_RANGE, M_SENDFILE, M_SPLICE, M_TEE, M_READWRITE,
              M_COUNT };
static char const *const method_name[M_COUNT] = {
  "copy_file_range", "sendfile", "splice", "tee", "readwrite"
};

/* Bytes each method moved out of the inputs, and whether it finished an
   operand or moved any byte (an empty file still shows the method that
   read its end).  Printed by --stats.  */
static unsigned long long method_bytes[M_COUNT];
static bool method_used[M_COUNT];

/* One input operand: its descriptor, its name for messages ("-" for
   standard input), and its fstat.  */
struct input
{
  int fd;
  char const *name;
  struct stat st;
};

/* One --tee file.  SPLICE_OK: bytes reach it by splice, else by write.
   DEAD: an error was reported and it gets no more bytes, as in GNU tee.
   GOT: bytes written so far, to know whether a fallback is still safe.
   BY_READ: in the tee(2) path, gets the current chunk by write(2) from
   the bytes read out of the input pipe.  */
struct tee_file
{
  int fd;
  char const *name;
  bool splice_ok;
  bool dead;
  bool by_read;
  unsigned long long got;
};

/* Standard output, looked at once at startup.  */
static struct stat out_st;
static bool out_is_pipe;
static bool out_is_reg;
/* O_APPEND (on a non-pipe) or O_DIRECT: only write(2) is safe.  splice
   and sendfile say EINVAL and copy_file_range EBADF for O_APPEND, and
   splice fails on the unaligned tail of an O_DIRECT output after the
   aligned part has moved, which would be too late to fall back.  */
static bool out_write_only;
/* Whether the output pipe was raised yet: on the first kernel copy.  */
static bool out_raised;
/* With --tee only: standard output failed and gets no more bytes.  */
static bool out_dead;

static struct tee_file *tees;
static size_t n_tees;
static size_t n_live_tees;
/* The command line's choices (options.h).  */
static struct options opts;

static int exit_status = EXIT_SUCCESS;
static char *iobuf;

/* The pipe used to splice between two non-pipes, and the one used to
   give tee(2)'d bytes to a second tee file; created when first needed.  */
static int mid_pipe[2] = { -1, -1 };
static size_t mid_pipe_size;
static int dup_pipe[2] = { -1, -1 };
static size_t dup_pipe_size;

/* Print "splicecat: WHAT: REASON" and remember to exit 1.  */
static void
report (char const *what, char const *reason)
{
  fprintf (stderr, "%s: %s: %s\n", PROGRAM_NAME, what, reason);
  exit_status = EXIT_FAILURE;
}

/* Report REASON about the file NAME, quoted as cat and tee quote it
   ("splicecat: 'a b': No such file or directory").  */
static void
report_name (char const *name, char const *reason)
{
  char *quoted = quote_name (name);
  report (quoted ? quoted : name, reason);
  free (quoted);
}

/* Print one "splicecat: stats: METHOD BYTES bytes" line per method used,
   if --stats was given, then exit with STATUS.  */
static _Noreturn void
finish (int status)
{
  if (opts.stats)
    for (int m = 0; m < M_COUNT; m++)
      if (method_used[m])
        fprintf (stderr, "%s: stats: %s %llu bytes\n", PROGRAM_NAME,
                 method_name[m], method_bytes[m]);
  exit (status);
}

/* Standard output failed with ERRNUM.
   Without --tee, as cat: "splicecat: write error: No space left on
   device", exit 1 (an EPIPE gets here only when SIGPIPE is ignored; cat
   9.1 reports it too).
   With --tee, as GNU tee 9.1: "splicecat: 'standard output': REASON",
   except for EPIPE, which tee drops without a word; standard output gets
   no more bytes and the tee files go on, so that they get every byte.
   Returns only then: once no output is left, it exits as tee does.  */
static void
stdout_failed (int errnum)
{
  if (n_tees == 0)
    {
      report ("write error", strerror (errnum));
      finish (EXIT_FAILURE);
    }
  if (errnum != EPIPE)
    report_name ("standard output", strerror (errnum));
  out_dead = true;
  if (n_live_tees == 0)
    finish (exit_status);
}

/* Count N bytes as moved by method M.  */
static void
note_moved (enum method m, size_t n)
{
  method_bytes[m] += n;
  method_used[m] = true;
}

/* Whether ERRNUM, returned before any byte moved, means "this syscall
   cannot do this pair of descriptors" rather than a real I/O error:
   ENOSYS (old kernel, seccomp), EPERM (seccomp filters of some container
   runtimes), EINVAL (no splice support, a pipe given to copy_file_range),
   EOPNOTSUPP, EXDEV (copy_file_range across filesystems since 5.19),
   EBADF (copy_file_range on O_APPEND), ETXTBSY, ESPIPE; the list cat 9.1
   falls back on, plus ESPIPE.  A genuine error then comes again from
   read/write, which reports it.  */
static bool
is_unsupported (int errnum)
{
  return (errnum == ENOSYS || errnum == EPERM || errnum == EINVAL
          || errnum == EOPNOTSUPP || errnum == EXDEV || errnum == EBADF
          || errnum == ETXTBSY || errnum == ESPIPE);
}

/* Whether ERRNUM from a call that both reads and writes (copy_file_range,
   sendfile, a direct splice, tee(2)) can only come from the output side.
   Other errors (EIO, ...) are charged to the input operand, as cat does.  */
static bool
is_output_error (int errnum)
{
  return (errnum == EPIPE || errnum == ENOSPC || errnum == EDQUOT
          || errnum == EFBIG);
}

/* A call moving bytes from IN failed with ERRNUM after the point where
   falling back was allowed.  An input error is reported once and fails
   the operand.  An output error goes to stdout_failed, which exits
   unless --tee files are live; then only tee(2) can have failed, which
   consumed nothing, so read/write takes the rest to the files.  */
static enum copy_result
fail_operand (struct input const *in, int errnum)
{
  if (is_output_error (errnum))
    {
      stdout_failed (errnum);
      return COPY_TRY_NEXT;
    }
  report_name (in->name, strerror (errnum));
  return COPY_FAILED;
}

/* Wait until FD is ready for EVENTS (POLLIN or POLLOUT).  Used only
   after EAGAIN, which happens when an inherited descriptor is
   O_NONBLOCK; a hang-up or error also ends the wait, so that the retried
   call returns the end of file or the error instead of spinning.  */
static void
wait_fd (int fd, short events)
{
  struct pollfd p = { .fd = fd, .events = events };
  while (poll (&p, 1, -1) < 0 && errno == EINTR)
    continue;
}

/* After EAGAIN from a call that reads IN_FD and writes OUT_FD, wait
   until both may be ready: we cannot tell which side said EAGAIN.
   Regular files poll as always ready.  */
static void
wait_both (int in_fd, int out_fd)
{
  wait_fd (in_fd, POLLIN);
  wait_fd (out_fd, POLLOUT);
}

/* Grow the pipe FD to 1 MiB, or the largest size allowed below that, and
   return its size in bytes.  EPERM (above pipe-max-size, or past the
   user's pipe-user-pages quota) halves the request down to the current
   size; EBUSY and the rest keep the current size: a smaller pipe is
   slower, never wrong.  /proc/sys/fs/pipe-max-size is not read first:
   that cost 25-70 us of CPU per run (a build with and without it, 401
   alternating runs of a small file or stream into a pipe), most of the
   setup that made splicing small inputs dearer than read/write; a
   refused fcntl costs about 1 us.  */
static size_t
raise_pipe (int fd)
{
  int cur = fcntl (fd, F_GETPIPE_SZ);
  if (cur < 0)
    return PIPE_DEFAULT;
  for (int want = PIPE_WANT; want > cur; want /= 2)
    {
      int got = fcntl (fd, F_SETPIPE_SZ, want);
      if (0 <= got)
        return got;
      if (errno != EPERM)
        break;
    }
  return cur;
}

/* Return FD, moved above 2 if it is 0, 1 or 2: such a number is free only
   because a standard descriptor was closed when splicecat started, and a
   file or pipe of ours must never stand in for it (bytes meant for
   standard output would land in a --tee file).  As gnulib's fd_safer.
   Returns -1 with errno set if FD is -1 or cannot be moved.  */
static int
keep_off_stdio (int fd)
{
  if (0 <= fd && fd <= STDERR_FILENO)
    {
      int moved = fcntl (fd, F_DUPFD_CLOEXEC, STDERR_FILENO + 1);
      int err = errno;
      close (fd);
      errno = err;
      fd = moved;
    }
  return fd;
}

/* Create pipe P (if not yet) and raise it; store its size in *SIZE.
   Return false if no pipe can be had (EMFILE, ...): the caller then
   uses a method without it.  */
static bool
open_own_pipe (int p[2], size_t *size)
{
  if (0 <= p[0])
    return true;
  int fds[2];
  if (pipe2 (fds, O_CLOEXEC) < 0)
    return false;
  fds[0] = keep_off_stdio (fds[0]);
  fds[1] = keep_off_stdio (fds[1]);
  if (fds[0] < 0 || fds[1] < 0)
    {
      close (fds[0]);     /* close (-1) is a harmless EBADF */
      close (fds[1]);
      return false;
    }
  p[0] = fds[0];
  p[1] = fds[1];
  *size = raise_pipe (p[1]);
  return true;
}

/* Read up to N bytes from FD into BUF.  Return the count (0 at end of
   file), or -1 with errno set.  EINTR is retried; EAGAIN (inherited
   O_NONBLOCK) waits with poll and retries.  */
static ssize_t
safe_read (int fd, char *buf, size_t n)
{
  for (;;)
    {
      ssize_t r = read (fd, buf, n);
      if (0 <= r)
        return r;
      if (errno == EAGAIN)
        wait_fd (fd, POLLIN);
      else if (errno != EINTR)
        return -1;
    }
}

/* Write all N bytes of BUF to FD.  Return 0, or -1 with errno set.
   Short writes continue where they stopped; EINTR is retried; EAGAIN
   waits with poll; a zero return is ENOSPC, as in gnulib's full-write.
   An O_DIRECT descriptor that refuses an unaligned tail (EINVAL) gets
   O_DIRECT cleared and the write retried, as dd does.  */
static int
write_all (int fd, char const *buf, size_t n)
{
  while (0 < n)
    {
      ssize_t w = write (fd, buf, n);
      if (0 < w)
        {
          buf += w;
          n -= w;
          continue;
        }
      if (w == 0)
        errno = ENOSPC;
      else if (errno == EINTR)
        continue;
      else if (errno == EAGAIN)
        {
          wait_fd (fd, POLLOUT);
          continue;
        }
      else if (errno == EINVAL)
        {
          int fl = fcntl (fd, F_GETFL);
          if (0 <= fl && (fl & O_DIRECT)
              && fcntl (fd, F_SETFL, fl & ~O_DIRECT) == 0)
            continue;
          errno = EINVAL;
        }
      return -1;
    }
  return 0;
}

/* Whether a zero return, with nothing moved yet from the regular file IN,
   means "this call cannot read this file" rather than end of file: some
   pseudo-filesystems make copy_file_range return 0 although the file
   claims more bytes.  Pipes, sockets and ttys end at their first 0.  */
static bool
zero_means_fallback (struct input const *in)
{
  if (!S_ISREG (in->st.st_mode))
    return false;
  off_t pos = lseek (in->fd, 0, SEEK_CUR);
  return 0 <= pos && pos < in->st.st_size;
}

/* Tee files.  */

/* Stop writing to tee file T after an error: report REASON once, close
   it, and go on with the others and standard output, as GNU tee does;
   once no output is left, there is nothing more to do.  */
static void
tee_failed (struct tee_file *t, char const *reason)
{
  report_name (t->name, reason);
  close (t->fd);
  t->dead = true;
  n_live_tees--;
  if (out_dead && n_live_tees == 0)
    finish (exit_status);
}

/* Write N bytes of BUF with write(2) to every live tee file, or, if
   ONLY_BY_READ, to those marked by_read.  */
static void
write_tees (char const *buf, size_t n, bool only_by_read)
{
  for (size_t i = 0; i < n_tees; i++)
    {
      struct tee_file *t = &tees[i];
      if (t->dead || (only_by_read && !t->by_read))
        continue;
      if (write_all (t->fd, buf, n) < 0)
        tee_failed (t, strerror (errno));
      else
        t->got += n;
    }
}

/* Take exactly N bytes out of our own pipe PFD with read(2) and write
   them to TO_FD, or drop them if TO_FD is -1.  All N bytes leave the pipe
   even if a write fails, so that the pipe is empty for the next use.
   Return 0, or -1 with errno set to the first error.  */
static int
drain_by_read (int pfd, size_t n, int to_fd)
{
  int err = 0;
  while (0 < n)
    {
      ssize_t r = safe_read (pfd, iobuf, n < IO_BUFSIZE ? n : IO_BUFSIZE);
      if (r <= 0)
        {
          err = err ? err : r == 0 ? EIO : errno;
          break;
        }
      if (0 <= to_fd && !err && write_all (to_fd, iobuf, r) < 0)
        err = errno;
      n -= r;
    }
  errno = err;
  return err ? -1 : 0;
}

/* Splice up to N bytes from pipe FROM to TO, looping over short counts.
   Return the bytes moved; fewer than N means an error, with errno set.
   FROM holds at least N bytes, so a zero return means TO took nothing
   (ENOSPC, as for write).  */
static size_t
splice_exact (int from, int to, size_t n)
{
  size_t done = 0;
  while (done < n)
    {
      ssize_t r = splice (from, NULL, to, NULL, n - done, 0);
      if (0 < r)
        done += r;
      else if (r == 0)
        {
          errno = ENOSPC;
          break;
        }
      else if (errno == EAGAIN)
        wait_both (from, to);
      else if (errno != EINTR)
        break;
    }
  return done;
}

/* Put tee(2)'d bytes into a splice-mode tee file T that is not the last
   consumer: duplicate the N bytes at the head of the input pipe IN_FD
   into dup_pipe (without consuming them), then splice dup_pipe into T.
   Return false, with dup_pipe emptied, if tee(2) could not duplicate all
   N bytes: T must then get this chunk by read.  That happens when the
   input pipe grew after we measured it (a producer may raise it too) or
   tee(2) failed; dup_pipe holds as much as the input pipe did, and
   tee(2) copies buffer references until the output pipe is full.
   If T refuses splice before its first byte, it switches to write(2)
   with the bytes read back from dup_pipe.  dup_pipe is empty again
   when this returns.  */
static bool
tee_into_file_via_dup (int in_fd, struct tee_file *t, size_t n)
{
  ssize_t d;
  while ((d = tee (in_fd, dup_pipe[1], n, 0)) < 0
         && (errno == EINTR || errno == EAGAIN))
    if (errno == EAGAIN)
      wait_fd (in_fd, POLLIN);
  if (d < 0 || (size_t) d != n)
    {
      drain_by_read (dup_pipe[0], d < 0 ? 0 : d, -1);
      return false;
    }

  size_t done = splice_exact (dup_pipe[0], t->fd, n);
  t->got += done;
  if (done == n)
    return true;
  if (t->got == 0 && is_unsupported (errno))
    {
      t->splice_ok = false;
      if (drain_by_read (dup_pipe[0], n, t->fd) < 0)
        tee_failed (t, strerror (errno));
      else
        t->got += n;
      return true;
    }
  tee_failed (t, strerror (errno));
  drain_by_read (dup_pipe[0], n - done, -1);
  return true;
}

/* Decide how each live tee file gets the next chunk from an input pipe
   of IN_SIZE bytes, and return the file that consumes it from the input
   pipe with splice, or NULL if the chunk is to be read (and written to
   the files marked by_read).  A single splice-mode file is the consumer;
   with more, all but one go through dup_pipe, which must hold a whole
   input pipe; without such a dup_pipe, every file gets write(2).  */
static struct tee_file *
plan_tee_delivery (size_t in_size)
{
  size_t n_splice = 0;
  bool any_write_mode = false;
  for (size_t i = 0; i < n_tees; i++)
    if (!tees[i].dead)
      {
        n_splice += tees[i].splice_ok;
        any_write_mode |= !tees[i].splice_ok;
      }
  if (0 < n_splice && (any_write_mode || 2 <= n_splice)
      && !(open_own_pipe (dup_pipe, &dup_pipe_size)
           && in_size <= dup_pipe_size))
    {
      for (size_t i = 0; i < n_tees; i++)
        tees[i].splice_ok = false;
      any_write_mode = true;
    }

  struct tee_file *consumer = NULL;
  for (size_t i = 0; i < n_tees; i++)
    {
      tees[i].by_read = !tees[i].dead && !tees[i].splice_ok;
      if (!any_write_mode && !tees[i].dead && tees[i].splice_ok)
        consumer = &tees[i];
    }
  return consumer;
}

/* The N bytes at the head of the input pipe IN (of IN_SIZE bytes) were
   just tee(2)'d to standard output.  Give them to every live tee file
   and consume exactly those N bytes from IN, so the next tee(2) sees new
   bytes (see plan_tee_delivery).  Return 0, or -1 after reporting an
   error reading IN: the operand must then stop, since bytes left in IN
   would reach standard output twice.  */
static int
deliver_to_tees (struct input const *in, size_t in_size, size_t n)
{
  struct tee_file *consumer = plan_tee_delivery (in_size);
  bool any_by_read = false;
  for (size_t i = 0; i < n_tees; i++)
    {
      struct tee_file *t = &tees[i];
      if (!t->dead && !t->by_read && t != consumer
          && !tee_into_file_via_dup (in->fd, t, n))
        t->by_read = true;
      any_by_read |= !t->dead && t->by_read;
    }
  if (consumer && any_by_read)
    {
      /* Someone reads this chunk: the consumer gets it the same way.  */
      consumer->by_read = true;
      consumer = NULL;
    }

  size_t to_read = n;
  if (consumer)
    {
      size_t done = splice_exact (in->fd, consumer->fd, n);
      consumer->got += done;
      to_read = n - done;
      if (to_read != 0)
        {
          if (consumer->got == 0 && is_unsupported (errno))
            {
              /* Nothing consumed: it gets this chunk below.  */
              consumer->splice_ok = false;
              consumer->by_read = true;
            }
          else
            tee_failed (consumer, strerror (errno));
        }
    }

  while (0 < to_read)
    {
      ssize_t r = safe_read (in->fd, iobuf,
                             to_read < IO_BUFSIZE ? to_read : IO_BUFSIZE);
      if (r <= 0)
        {
          report_name (in->name, r == 0 ? "unexpected end of pipe"
                                        : strerror (errno));
          return -1;
        }
      write_tees (iobuf, r, true);
      to_read -= r;
    }
  return 0;
}

/* The copy methods, in the order copy_operand tries them.  */

/* Neither end is a pipe (file -> socket, socket -> file, file -> tty or
   /dev/null): splice up to a pipeful from IN_FD into our own mid_pipe,
   then all of it out to standard output, so that the pipe is empty
   again; two calls per MiB, no copy through user space.  Returns what a
   direct splice would: the bytes delivered, 0 at the end of the input,
   or -1 with errno from the input side.  The output side is handled
   here: if it refuses splice (/dev/full) while DELIVERED is false, no
   byte of the operand has reached it, so the bytes already in mid_pipe
   are written with read/write and -1 (EINVAL) hands over to that
   method; any other failure goes to stdout_failed.  */
static ssize_t
splice_via_mid_pipe (int in_fd, bool delivered)
{
  ssize_t n = splice (in_fd, NULL, mid_pipe[1], NULL, mid_pipe_size, 0);
  if (n <= 0)
    return n;
  for (size_t left = n; 0 < left; )
    {
      ssize_t w = splice (mid_pipe[0], NULL, STDOUT_FILENO, NULL, left, 0);
      int err = w == 0 ? ENOSPC : errno;
      if (0 < w)
        {
          left -= w;
          delivered = true;
        }
      else if (err == EAGAIN)
        wait_fd (STDOUT_FILENO, POLLOUT);
      else if (err != EINTR && !delivered && is_unsupported (err))
        {
          if (drain_by_read (mid_pipe[0], left, STDOUT_FILENO) < 0)
            stdout_failed (errno);
          note_moved (M_READWRITE, left);
          errno = EINVAL;
          return -1;
        }
      else if (err != EINTR)
        {
          stdout_failed (err);  /* exits: no --tee file is live here */
          return -1;
        }
    }
  return n;
}

/* One call that moves bytes from IN to standard output with method M;
   its return value.  DELIVERED: whether bytes of IN moved already.
   - copy_file_range, regular file -> regular file: the kernel copies page
     cache to page cache (or reflinks, on btrfs/XFS), as cp and cat 9.1
     do.  EXDEV across filesystems (ext4 -> tmpfs, since 5.19) and EBADF
     on O_APPEND hand over to the next method.
   - sendfile, regular file -> regular file where copy_file_range said
     EXDEV: sendfile has no same-filesystem rule (ext4 -> tmpfs works).
   - splice, when the input or the output is a pipe: file -> pipe passes
     page-cache references, no copy at all; pipe -> file copies once, in
     the kernel.  Through our own pipe when neither end is one.
   - tee(2), pipe -> pipe with --tee: duplicates the input pipe's buffers
     into standard output without consuming them; deliver_to_tees then
     gives the same bytes to the files and consumes them.  GNU tee moves
     8 KiB per read/write; shared/ANCHORS.md measured this 2-3x faster
     behind cat, 5-6x behind a splicing producer.  */
static ssize_t
move_once (enum method m, struct input const *in, bool delivered)
{
  switch (m)
    {
    case M_COPY_FILE_RANGE:
      return copy_file_range (in->fd, NULL, STDOUT_FILENO, NULL, BIG_CHUNK,
                              0);
    case M_SENDFILE:
      return sendfile (STDOUT_FILENO, in->fd, NULL, BIG_CHUNK);
    case M_TEE:
      return tee (in->fd, STDOUT_FILENO, PIPE_WANT, 0);
    default:
      if (!S_ISFIFO (in->st.st_mode) && !out_is_pipe)
        return splice_via_mid_pipe (in->fd, delivered);
      return splice (in->fd, NULL, STDOUT_FILENO, NULL, PIPE_WANT, 0);
    }
}

/* Copy IN to standard output with method M (see move_once) until a call
   returns 0, the end of the input (a pipe with no writer left, or end of
   file).  NULL offsets make the kernel use and advance the file offsets,
   as read/write would.  IN_PIPE_SIZE is the input pipe's size, for
   M_TEE.  This is the one place that decides what a call's error means:
   retry, wait, hand over to the next method, or fail.  */
static enum copy_result
copy_direct (struct input const *in, enum method m, size_t in_pipe_size)
{
  bool moved = false;
  for (;;)
    {
      ssize_t n = move_once (m, in, moved);
      if (0 < n)
        {
          note_moved (m, n);
          moved = true;
          if (m == M_TEE && deliver_to_tees (in, in_pipe_size, n) < 0)
            return COPY_FAILED;
        }
      else if (n == 0)
        {
          if (!moved && zero_means_fallback (in))
            return COPY_TRY_NEXT;
          method_used[m] = true;
          return COPY_DONE;
        }
      else if (errno == EINTR)
        continue;
      else if (errno == EAGAIN)
        wait_both (in->fd, STDOUT_FILENO);
      else if (!moved && is_unsupported (errno))
        return COPY_TRY_NEXT;
      else
        return fail_operand (in, errno);
    }
}

/* The method that always works: read into a 128 KiB buffer, write it all
   to standard output (unless it failed under --tee) and to each tee
   file.  Used for empty and /proc files, small files where neither end
   is a pipe, O_APPEND and O_DIRECT outputs, --tee unless both ends are
   pipes, and whenever the kernel refused the other methods.  */
static enum copy_result
copy_with_read_write (struct input const *in)
{
  for (;;)
    {
      ssize_t n = safe_read (in->fd, iobuf, IO_BUFSIZE);
      if (n < 0)
        {
          report_name (in->name, strerror (errno));
          return COPY_FAILED;
        }
      if (n == 0)
        {
          method_used[M_READWRITE] = true;
          return COPY_DONE;
        }
      if (!out_dead && write_all (STDOUT_FILENO, iobuf, n) < 0)
        stdout_failed (errno);
      write_tees (iobuf, n, false);
      note_moved (M_READWRITE, n);
    }
}

/* Copy IN with the kernel's methods, choosing from the kinds of both
   ends; COPY_TRY_NEXT if none of them applies (a small file would need
   a pipe of our own) or the kernel refused them all before the first
   byte.  With live --tee files only tee(2)
   applies, between two pipes; without, stdout_failed exits on an output
   error.  */
static enum copy_result
copy_in_kernel (struct input const *in)
{
  bool in_pipe = S_ISFIFO (in->st.st_mode);
  bool in_reg = S_ISREG (in->st.st_mode);
  size_t in_pipe_size = in_pipe ? raise_pipe (in->fd) : 0;
  if (out_is_pipe && !out_raised)
    {
      raise_pipe (STDOUT_FILENO);
      out_raised = true;
    }

  if (0 < n_live_tees)
    return (in_pipe && out_is_pipe
            ? copy_direct (in, M_TEE, in_pipe_size) : COPY_TRY_NEXT);
  enum copy_result r = COPY_TRY_NEXT;
  if (in_reg && out_is_reg)
    {
      r = copy_direct (in, M_COPY_FILE_RANGE, 0);
      if (r == COPY_TRY_NEXT)
        r = copy_direct (in, M_SENDFILE, 0);
    }
  bool small = in_reg && in->st.st_size <= SMALL_INPUT_MAX;
  if (r == COPY_TRY_NEXT
      && (in_pipe || out_is_pipe
          || (!small && open_own_pipe (mid_pipe, &mid_pipe_size))))
    r = copy_direct (in, M_SPLICE, 0);
  return r;
}

/* Copy the opened operand IN to standard output (and the tee files):
   with the kernel's methods where they can (not for outputs only
   write(2) handles, nor for regular files of READ_WRITE_MAX bytes or
   less), else, or when they hand over, with read/write.  Errors have
   been reported by the method that met them.  */
static void
copy_operand (struct input const *in)
{
  bool in_reg = S_ISREG (in->st.st_mode);
  if (in_reg)
    posix_fadvise (in->fd, 0, 0, POSIX_FADV_SEQUENTIAL);

  enum copy_result r = COPY_TRY_NEXT;
  if (!out_write_only && !out_dead
      && !(in_reg && in->st.st_size <= READ_WRITE_MAX))
    r = copy_in_kernel (in);
  if (r == COPY_TRY_NEXT)
    copy_with_read_write (in);
}

/* Whether IN is the regular file standard output writes to, with input
   left to read: copying it would never end or would read its own output.
   The same test as cat 9.1 ("input file is output file").  */
static bool
is_output_file (struct input const *in)
{
  return (out_is_reg
          && in->st.st_dev == out_st.st_dev && in->st.st_ino == out_st.st_ino
          && lseek (in->fd, 0, SEEK_CUR) < in->st.st_size);
}

/* Open each --tee file for writing, truncated or (--append) appended,
   mode 0666 less umask as for `tee`, on a descriptor above 2.  One that
   fails is reported and left out; the copy goes on, as GNU tee does.  */
static void
open_tees (void)
{
  for (size_t i = 0; i < n_tees; i++)
    {
      struct tee_file *t = &tees[i];
      int flags = (O_WRONLY | O_CREAT | O_CLOEXEC
                   | (opts.append ? O_APPEND : O_TRUNC));
      struct stat st;
      t->fd = keep_off_stdio (open (t->name, flags, 0666));
      if (t->fd < 0 || fstat (t->fd, &st) < 0)
        {
          report_name (t->name, strerror (errno));
          if (0 <= t->fd)
            close (t->fd);
          t->dead = true;
          continue;
        }
      n_live_tees++;
      if (S_ISFIFO (st.st_mode))
        raise_pipe (t->fd);
      /* splice into regular files and pipes only; O_APPEND gets EINVAL.  */
      t->splice_ok = ((S_ISREG (st.st_mode) && !opts.append)
                      || S_ISFIFO (st.st_mode));
    }
}

/* Look at standard output once: its kind and flags decide the methods.
   Closed or unusable: without --tee, fatal at once, as in cat 9.1
   ("splicecat: standard output: Bad file descriptor"); with --tee, GNU
   tee still writes its files, so the first write to it fails and is
   reported then, by stdout_failed.  */
static void
look_at_stdout (void)
{
  if (fstat (STDOUT_FILENO, &out_st) < 0)
    {
      if (n_tees == 0)
        {
          report ("standard output", strerror (errno));
          finish (EXIT_FAILURE);
        }
      memset (&out_st, 0, sizeof out_st);
      return;
    }
  out_is_pipe = S_ISFIFO (out_st.st_mode);
  out_is_reg = S_ISREG (out_st.st_mode);
  int out_flags = fcntl (STDOUT_FILENO, F_GETFL);
  out_write_only = (0 <= out_flags
                    && (((out_flags & O_APPEND) && !out_is_pipe)
                        || (out_flags & O_DIRECT)));
}

/* Copy the operand NAME ("-": standard input) to standard output: open,
   check, copy, close, reporting each error once.  */
static void
cat_operand (char const *name)
{
  struct input in = { .name = name };
  bool is_stdin = strcmp (name, "-") == 0;
  in.fd = (is_stdin ? STDIN_FILENO
           : keep_off_stdio (open (name, O_RDONLY | O_CLOEXEC)));
  if (in.fd < 0)
    {
      report_name (name, strerror (errno));
      return;
    }

  if (fstat (in.fd, &in.st) < 0)
    report_name (name, strerror (errno));
  else if (is_output_file (&in))
    report_name (name, "input file is output file");
  else
    copy_operand (&in);

  if (!is_stdin && close (in.fd) < 0)
    report_name (name, strerror (errno));
}

int
main (int argc, char **argv)
{
  /* LC_CTYPE only: quote_name needs to know which bytes are printable
     characters; messages stay in English, as splicecat's own are.  */
  setlocale (LC_CTYPE, "");
  opts.tee_names = calloc (argc, sizeof *opts.tee_names);
  tees = calloc (argc, sizeof *tees);
  iobuf = aligned_alloc (4096, IO_BUFSIZE);
  if (!opts.tee_names || !tees || !iobuf)
    {
      report ("error", strerror (errno));
      return EXIT_FAILURE;
    }
  int first = parse_options (argc, argv, &opts);
  for (n_tees = 0; n_tees < opts.n_tees; n_tees++)
    tees[n_tees].name = opts.tee_names[n_tees];

  look_at_stdout ();
  open_tees ();

  bool read_stdin = first == argc;
  if (first == argc)
    cat_operand ("-");
  for (int i = first; i < argc; i++)
    {
      read_stdin |= strcmp (argv[i], "-") == 0;
      cat_operand (argv[i]);
    }

  if (read_stdin && close (STDIN_FILENO) < 0)
    {
      report ("closing standard input", strerror (errno));
      finish (EXIT_FAILURE);
    }
  for (size_t i = 0; i < n_tees; i++)
    if (!tees[i].dead && close (tees[i].fd) < 0)
      report_name (tees[i].name, strerror (errno));
  /* A deferred write error (NFS, quota) shows up only at close.  EBADF:
     standard output was closed from the start and, under --tee, never
     written to; gnulib's close_stream ignores that too.  */
  if (!out_dead && close (STDOUT_FILENO) < 0 && errno != EBADF)
    stdout_failed (errno);
  finish (exit_status);
}
