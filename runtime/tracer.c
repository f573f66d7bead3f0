/* pipelint-tracer -- run a command and record every process it starts.

   Usage: pipelint-tracer --record FD [--mask HEX] [--shell NAME]...
                          -- COMMAND [ARG]...

   COMMAND runs with this program's standard input, output, error and
   environment, unchanged; the tracer writes nothing on them.  What it
   learns goes to descriptor FD, one line per event (the format is below
   and is read by pipelint/trace/record.py), and it exits with COMMAND's
   status: the exit code, or 128+N when a signal N killed it, as a shell
   reports it.

   How it watches: ptrace(2) with PTRACE_SEIZE and only the event options
   FORK, VFORK, CLONE, EXEC and EXIT.  There are no syscall stops, so a
   process that moves a gigabyte through a pipe never stops for us; each
   process stops about four times in its life (born, exec, exit, death),
   which costs tens of microseconds against the millisecond a fork and
   exec cost anyway (docs/trace.md has the measurement).  At each stop we
   read what the kernel still holds:

     fork    the parent's `line_number` when the parent is a bash whose
             dynamic symbol table exports it (bash exports its internals
             for loadable builtins): the script line being run
     exec    argv, the executable, fds 0 and 1, and for a shell (its
             name given by --shell) the working directory, which its
             script's path is relative to
     exit    /proc/PID/io (bytes read and written, pipes included), and
             for a process that never exec'd (a subshell) fds 0 and 1,
             before the kernel closes anything
     death   the status and the rusage wait4() gives the tracer

   About 30 system calls of the tracer per process in all; each /proc
   file costs an open, one read and a close (a short read of these
   files is their end).

   Nothing else changes for the command: no variable is added, no shell
   option is set, no descriptor leaks (the record descriptor is
   close-on-exec), signal dispositions are the ones pipelint was started
   with and the signal mask the one --mask gives (pipelint blocks the
   signals it waits for before starting us).  A signal sent to the
   tracer by another process (kill, a supervisor) is forwarded to
   COMMAND; one sent by the terminal (Ctrl-C, si_code SI_KERNEL) reached
   COMMAND's process group already and is not sent twice.

   When the kernel refuses ptrace (a seccomp profile, Yama scope 3), the
   command runs untraced and the record says why in one "N" line.

   A traced process gets no privileges from a set-user-ID or set-group-ID
   program it execs (the kernel ignores those bits under ptrace): `sudo`
   would fail.  So when an exec starts such a program, the tracer lets
   the execve return, points the process at one more execve of the same
   file with the same arguments and environment, and detaches: the
   program starts again, untraced, with its privileges (x86-64 and
   arm64; elsewhere it runs without them, and the record says so).  What
   it and its children cost is not measured: "U" says which.

   Record lines (fields separated by one space; byte strings escaped,
   every byte <= 0x20, 0x7f and '\\' as \xHH; T is nanoseconds since
   the B line, on CLOCK_MONOTONIC):
     V 1                                  format version
     B REALTIME_NS TICKS_PER_S            the start
     N T TEXT                             a note (ptrace refused, ...)
     S T PID                              COMMAND's process
     F T PARENT CHILD LINE                a new process; LINE: the parent
                                          bash's line_number, or -1
     H T PARENT TID                       a new thread of PARENT's process
     E T PID FD0 FD1 CWD EXE ARGV...      an exec (ARGV: one field each;
                                          "+" ends a list cut at 256 KiB;
                                          CWD "-" unless a shell)
     X T PID STATUS RCHAR WCHAR FD0 FD1   an exit stop (-1: unreadable; the
                                          fds "-" after an exec)
     D T PID WSTATUS UTIME_US STIME_US    a death seen by wait4
     U T PID REASON                       PID runs untraced from now on
                                          ("setuid": restarted untraced;
                                          "setuid-unprivileged": could not be)
     Z T STATUS                           COMMAND ended: its status as a
                                          shell reports it (128+N: signal N)
*/

#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/uio.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <sys/xattr.h>
#include <time.h>
#include <unistd.h>

/* 256 KiB of argv is kept per exec: enough to match any command a
   script writes; an xargs batch beyond it is cut (and marked).  */
enum { ARGV_MAX = 256 * 1024 };

/* The record is written through a 1 MiB stdio buffer: 10,000 processes
   make about 1.5 MB of record, so a few writes in all.  */
enum { RECORD_BUFFER = 1 << 20 };

static FILE *record;
static struct timespec started;
static pid_t command_pid;

/* The signals forwarded to COMMAND when another process sends them to
   the tracer.  */
static const int FORWARDED[] = { SIGHUP, SIGINT, SIGQUIT, SIGTERM, SIGUSR1, SIGUSR2 };

/* Report a failure of the tracer itself (never of COMMAND) on stderr.
   Used only before COMMAND starts: afterwards stderr is COMMAND's.  */
static void
fail (const char *what)
{
  fprintf (stderr, "pipelint-tracer: %s: %s\n", what, strerror (errno));
  exit (125);
}

static uint64_t
now_ns (void)
{
  struct timespec ts;
  clock_gettime (CLOCK_MONOTONIC, &ts);
  return (uint64_t) (ts.tv_sec - started.tv_sec) * 1000000000u + (uint64_t) ts.tv_nsec
         - (uint64_t) started.tv_nsec;
}

/* Write LEN bytes of S as one record field: bytes that would split the
   line or the fields, and the backslash, as \xHH.  */
static void
put_field (const char *s, size_t len)
{
  putc (' ', record);
  if (len == 0)
    fputs ("\\x", record);  /* an empty field: "\x" alone */
  for (size_t i = 0; i < len; i++)
    {
      unsigned char c = (unsigned char) s[i];
      if (c <= 0x20 || c == 0x7f || c == '\\')
        fprintf (record, "\\x%02x", c);
      else
        putc (c, record);
    }
}

/* Read a whole /proc file into BUF (at most SIZE - 1 bytes, NUL added);
   the length, or -1.  The files read here (cmdline, io, maps, status)
   give all they have to one read that asks for more: a short read is
   their end, and saves the read that would return 0.  */
static ssize_t
read_proc (const char *path, char *buf, size_t size)
{
  int fd = open (path, O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return -1;
  size_t got = 0;
  while (got < size - 1)
    {
      ssize_t n = read (fd, buf + got, size - 1 - got);
      if (n < 0 && errno == EINTR)
        continue;
      if (n <= 0)
        break;
      got += (size_t) n;
      if ((size_t) n < size - 1 - (got - (size_t) n))
        break;
    }
  close (fd);
  buf[got] = '\0';
  return (ssize_t) got;
}

/* The target of /proc/PID/NAME into TARGET (SIZE bytes, NUL added); its
   length, or -1.  */
static ssize_t
read_link (pid_t pid, const char *name, char *target, size_t size)
{
  char path[64];
  snprintf (path, sizeof path, "/proc/%d/%s", (int) pid, name);
  ssize_t n = readlink (path, target, size - 1);
  target[n < 0 ? 0 : n] = '\0';
  return n;
}

/* The target of /proc/PID/NAME as a record field ("-" when unreadable).  */
static void
put_link (pid_t pid, const char *name)
{
  char target[4096];
  ssize_t n = read_link (pid, name, target, sizeof target);
  if (n < 0)
    put_field ("-", 1);
  else
    put_field (target, (size_t) n);
}

/* The shells (--shell): their execs get their working directory read,
   and a look for bash's line_number.  */
static char **shells;
static int shell_count;

static bool
is_shell (const char *exe)
{
  const char *name = strrchr (exe, '/');
  name = name != NULL ? name + 1 : exe;
  for (int i = 0; i < shell_count; i++)
    if (strcmp (name, shells[i]) == 0)
      return true;
  return false;
}

/* ---- Where bash keeps the line it runs ---------------------------------

   bash exports its globals in its dynamic symbol table, for loadable
   builtins; `line_number` holds the line of the command being executed.
   Read at a fork, it is the line of the command the child runs: exact
   for functions, loops, `$(...)` and subshells, at the cost of one
   process_vm_readv of 4 bytes.  Shells that export no such symbol (dash)
   get -1, and pipelint matches their commands by their words instead.  */

struct symbol_cache
{
  dev_t dev;
  ino_t ino;
  uint64_t offset;  /* line_number's address minus the load bias; 0: none */
};
static struct symbol_cache symbols[16];
static unsigned symbols_used;

/* The offset of `line_number` in the ELF64 file FD (its st_value minus
   the lowest PT_LOAD address), or 0 when the file does not export it.  */
static uint64_t
line_number_offset (int fd)
{
  Elf64_Ehdr eh;
  if (pread (fd, &eh, sizeof eh, 0) != (ssize_t) sizeof eh || memcmp (eh.e_ident, ELFMAG, SELFMAG) != 0
      || eh.e_ident[EI_CLASS] != ELFCLASS64 || eh.e_shentsize != sizeof (Elf64_Shdr) || eh.e_shnum == 0
      || eh.e_shnum > 4096 || eh.e_phentsize != sizeof (Elf64_Phdr) || eh.e_phnum > 256)
    return 0;
  uint64_t lowest = UINT64_MAX;
  for (unsigned i = 0; i < eh.e_phnum; i++)
    {
      Elf64_Phdr ph;
      if (pread (fd, &ph, sizeof ph, (off_t) (eh.e_phoff + i * sizeof ph)) != (ssize_t) sizeof ph)
        return 0;
      if (ph.p_type == PT_LOAD && ph.p_vaddr < lowest)
        lowest = ph.p_vaddr & ~(uint64_t) 0xfff;
    }
  if (lowest == UINT64_MAX)
    return 0;
  uint64_t found = 0;
  for (unsigned i = 0; i < eh.e_shnum && found == 0; i++)
    {
      Elf64_Shdr sh, strtab;
      if (pread (fd, &sh, sizeof sh, (off_t) (eh.e_shoff + i * sizeof sh)) != (ssize_t) sizeof sh)
        return 0;
      if (sh.sh_type != SHT_DYNSYM || sh.sh_entsize != sizeof (Elf64_Sym) || sh.sh_link >= eh.e_shnum)
        continue;
      if (pread (fd, &strtab, sizeof strtab, (off_t) (eh.e_shoff + sh.sh_link * sizeof strtab))
          != (ssize_t) sizeof strtab)
        return 0;
      size_t count = sh.sh_size / sizeof (Elf64_Sym);
      for (size_t k = 0; k < count; k++)
        {
          Elf64_Sym sym;
          char name[sizeof "line_number"];
          if (pread (fd, &sym, sizeof sym, (off_t) (sh.sh_offset + k * sizeof sym)) != (ssize_t) sizeof sym)
            return 0;
          if (ELF64_ST_TYPE (sym.st_info) != STT_OBJECT || sym.st_size != sizeof (int) || sym.st_shndx == SHN_UNDEF
              || sym.st_name >= strtab.sh_size)
            continue;
          if (pread (fd, name, sizeof name, (off_t) (strtab.sh_offset + sym.st_name)) != (ssize_t) sizeof name)
            continue;
          if (memcmp (name, "line_number", sizeof name) == 0)
            {
              found = sym.st_value - lowest;
              break;
            }
        }
    }
  return found;
}

/* Where `line_number` lives in process PID, which just exec'd; 0: nowhere.
   The file is read once per executable (by device and inode); the load
   address comes from /proc/PID/maps, since bash is position-independent.  */
static uint64_t
line_number_address (pid_t pid)
{
  char path[64];
  snprintf (path, sizeof path, "/proc/%d/exe", (int) pid);
  int fd = open (path, O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return 0;
  struct stat st;
  if (fstat (fd, &st) != 0)
    {
      close (fd);
      return 0;
    }
  uint64_t offset = 0;
  unsigned i;
  for (i = 0; i < symbols_used; i++)
    if (symbols[i].dev == st.st_dev && symbols[i].ino == st.st_ino)
      break;
  if (i < symbols_used)
    offset = symbols[i].offset;
  else
    {
      offset = line_number_offset (fd);
      if (symbols_used < sizeof symbols / sizeof symbols[0])
        symbols[symbols_used++] = (struct symbol_cache) { st.st_dev, st.st_ino, offset };
    }
  close (fd);
  if (offset == 0)
    return 0;
  /* The first mapping of the executable at file offset 0 is its load base.  */
  char maps[8192];
  snprintf (path, sizeof path, "/proc/%d/maps", (int) pid);
  if (read_proc (path, maps, sizeof maps) <= 0)
    return 0;
  for (char *line = maps; *line; )
    {
      unsigned long start, file_offset, inode;
      if (sscanf (line, "%lx-%*x %*s %lx %*s %lu", &start, &file_offset, &inode) == 3 && inode == st.st_ino
          && file_offset == 0)
        return start + offset;
      char *next = strchr (line, '\n');
      if (next == NULL)
        break;
      line = next + 1;
    }
  return 0;
}

/* ---- What we know of each traced task ---------------------------------- */

struct task
{
  pid_t tid;
  pid_t tgid;        /* its process (itself for a process) */
  uint64_t line_at;  /* where its bash keeps line_number; 0: not a bash */
  bool announced;    /* its parent's fork event was recorded */
  bool held;         /* stopped at birth before that: resumed once it is */
  bool execd;        /* it exec'd: its fds were read then */
  bool restart;      /* stopped at its exec of a setuid program: restart it untraced at the syscall's exit */
  bool exited;       /* its exit stop was recorded */
  bool dead;         /* its death was seen: the pid may come back as a new task */
  bool used;
};

static struct task *tasks;
static size_t tasks_size;  /* a power of two */
static size_t tasks_used;

/* The entry of TID, or NULL.  A pointer into the table is good until the
   next add_task, which may move it.  */
static struct task *
find_task (pid_t tid)
{
  if (tasks_size == 0)
    return NULL;
  for (size_t i = (size_t) tid & (tasks_size - 1);; i = (i + 1) & (tasks_size - 1))
    {
      if (!tasks[i].used)
        return NULL;
      if (tasks[i].tid == tid)
        return &tasks[i];
    }
}

static struct task *add_task (pid_t tid);

static void
grow_tasks (void)
{
  struct task *old = tasks;
  size_t old_size = tasks_size;
  tasks_size = old_size ? old_size * 2 : 1024;
  tasks = calloc (tasks_size, sizeof *tasks);
  if (tasks == NULL)
    fail ("memory");
  tasks_used = 0;
  for (size_t i = 0; i < old_size; i++)
    if (old[i].used)
      *add_task (old[i].tid) = old[i];
  free (old);
}

/* The task TID, added (zeroed, its own process) if new.  A task's entry
   stays after its death, marked dead: the table holds one entry per pid
   the run used, and a pid that comes back is a new task (new_life).  */
static struct task *
add_task (pid_t tid)
{
  struct task *known = find_task (tid);
  if (known != NULL)
    return known;
  if ((tasks_used + 1) * 2 > tasks_size)
    grow_tasks ();
  size_t i = (size_t) tid & (tasks_size - 1);
  while (tasks[i].used)
    i = (i + 1) & (tasks_size - 1);
  tasks[i] = (struct task) { .tid = tid, .tgid = tid, .used = true };
  tasks_used++;
  return &tasks[i];
}

/* ---- Events ------------------------------------------------------------ */

static int
read_line_number (pid_t pid, uint64_t address)
{
  int line = -1;
  struct iovec local = { &line, sizeof line };
  struct iovec remote = { (void *) (uintptr_t) address, sizeof line };
  if (process_vm_readv (pid, &local, 1, &remote, 1, 0) != (ssize_t) sizeof line)
    return -1;
  return line;
}

/* TID as a task starting a new life: a pid seen dead before is reused.  */
static struct task *
new_life (pid_t tid)
{
  struct task *task = add_task (tid);
  if (task->dead)
    *task = (struct task) { .tid = tid, .tgid = tid, .used = true };
  return task;
}

/* PARENT stopped at a fork, vfork or clone event that made CHILD; a
   clone event may have made a thread.  */
static void
on_new_task (pid_t parent, pid_t child, bool clone)
{
  /* Copied out: adding the child may move the table.  */
  const struct task from = *add_task (parent);
  pid_t parent_process = from.tgid;
  bool thread = false;
  if (clone)
    {
      /* A thread shares its process's tgid; /proc/CHILD/status says which.  */
      char path[64], status[1024];
      snprintf (path, sizeof path, "/proc/%d/status", (int) child);
      if (read_proc (path, status, sizeof status) > 0)
        {
          char *tgid = strstr (status, "\nTgid:");
          thread = tgid != NULL && atoi (tgid + 6) == parent_process;
        }
    }
  struct task *task = new_life (child);
  task->tgid = thread ? parent_process : child;
  task->line_at = from.line_at;  /* the same image until it execs */
  task->announced = true;
  if (thread)
    fprintf (record, "H %llu %d %d\n", (unsigned long long) now_ns (), (int) parent_process, (int) child);
  else
    fprintf (record, "F %llu %d %d %d\n", (unsigned long long) now_ns (), (int) parent_process, (int) child,
             from.line_at ? read_line_number (parent, from.line_at) : -1);
  if (task->held)
    {
      task->held = false;
      ptrace (PTRACE_CONT, child, 0, 0);
    }
}

/* A new task's first stop: it runs once its parent's event is recorded,
   so that the record names every process's parent before its exec.  */
static void
on_birth (pid_t tid)
{
  struct task *task = new_life (tid);
  if (task->announced)
    ptrace (PTRACE_CONT, tid, 0, 0);
  else
    task->held = true;
}

/* PID stopped after a successful exec (FORMER: the thread that called it).  */
static void
on_exec (pid_t pid, pid_t former)
{
  if (former != pid)
    {
      struct task *old = find_task (former);
      if (old != NULL)
        old->exited = true;
    }
  struct task *task = add_task (pid);
  task->tgid = pid;
  task->exited = false;
  task->execd = true;
  char exe[4096];
  ssize_t exe_len = read_link (pid, "exe", exe, sizeof exe);
  bool shell = exe_len > 0 && is_shell (exe);
  task->line_at = shell ? line_number_address (pid) : 0;
  fprintf (record, "E %llu %d", (unsigned long long) now_ns (), (int) pid);
  put_link (pid, "fd/0");
  put_link (pid, "fd/1");
  if (shell)
    put_link (pid, "cwd");
  else
    put_field ("-", 1);
  put_field (exe_len < 0 ? "-" : exe, exe_len < 0 ? 1 : (size_t) exe_len);
  static char *argv;
  if (argv == NULL && (argv = malloc (ARGV_MAX + 1)) == NULL)
    fail ("memory");
  char path[64];
  snprintf (path, sizeof path, "/proc/%d/cmdline", (int) pid);
  ssize_t len = read_proc (path, argv, ARGV_MAX + 1);
  for (ssize_t at = 0; at < len; )
    {
      size_t word = strnlen (argv + at, (size_t) (len - at));
      put_field (argv + at, word);
      at += (ssize_t) word + 1;
    }
  if (len == ARGV_MAX)
    fputs (" +", record);
  putc ('\n', record);
}

/* PID stopped on its way out (exit_group or a signal), STATUS its wait
   status to be.  Its counters are final except for microseconds of
   teardown; its descriptors are still open.  */
static void
on_exit_stop (pid_t pid, unsigned long status)
{
  struct task *task = add_task (pid);
  if (task->exited)
    return;
  task->exited = true;
  char path[64], io[1024];
  long long rchar = -1, wchar = -1;
  snprintf (path, sizeof path, "/proc/%d/io", (int) pid);
  if (read_proc (path, io, sizeof io) > 0)
    {
      char *r = strstr (io, "rchar:"), *w = strstr (io, "wchar:");
      if (r != NULL && w != NULL)
        rchar = atoll (r + 6), wchar = atoll (w + 6);
    }
  fprintf (record, "X %llu %d %lu %lld %lld", (unsigned long long) now_ns (), (int) task->tgid, status, rchar, wchar);
  if (task->execd)
    fputs (" - -\n", record);  /* read at the exec: a program may close them before it exits */
  else
    {
      put_link (pid, "fd/0");
      put_link (pid, "fd/1");
      putc ('\n', record);
    }
}

static void
on_death (pid_t pid, int wstatus, const struct rusage *usage)
{
  struct task *task = find_task (pid);
  if (task != NULL)
    {
      task->dead = true;
      task->announced = false;
      if (task->tgid != pid)
        return;  /* a thread: its process's death counts */
    }
  fprintf (record, "D %llu %d %d %lld %lld\n", (unsigned long long) now_ns (), (int) pid, wstatus,
           (long long) usage->ru_utime.tv_sec * 1000000 + usage->ru_utime.tv_usec,
           (long long) usage->ru_stime.tv_sec * 1000000 + usage->ru_stime.tv_usec);
}

/* ---- Signals ----------------------------------------------------------- */

/* Forward a signal another process sent us; the terminal's (SI_KERNEL)
   reached the command's process group already.  kill is async-signal-safe.  */
static void
forward (int sig, siginfo_t *info, void *context)
{
  (void) context;
  if (info != NULL && info->si_code == SI_KERNEL)
    return;
  if (command_pid > 0)
    kill (command_pid, sig);
}

static void
catch_forwarded (void)
{
  struct sigaction action;
  memset (&action, 0, sizeof action);
  action.sa_sigaction = forward;
  action.sa_flags = SA_SIGINFO | SA_RESTART;
  sigemptyset (&action.sa_mask);
  for (size_t i = 0; i < sizeof FORWARDED / sizeof FORWARDED[0]; i++)
    sigaction (FORWARDED[i], &action, NULL);
}

/* ---- Set-user-ID programs ------------------------------------------------

   Under ptrace the kernel runs a set-user-ID program with the caller's
   credentials.  To keep `sudo` working, a process that exec'd one is made
   to exec it again untraced: at the exit of its execve (the next stop
   after PTRACE_EVENT_EXEC under PTRACE_SYSCALL) its registers are set for
   execve(AT_EXECFN, argv, envp) -- all three on the new stack, where the
   kernel put them -- its entry point is made a system call instruction,
   and it is detached.  The second execve starts the same program as the
   first, untraced, so the kernel grants what the file's mode grants.  */

/* Whether the program PID just exec'd would have gained privileges untraced. */
static bool
gains_privileges (pid_t pid)
{
  char path[64];
  snprintf (path, sizeof path, "/proc/%d/exe", (int) pid);
  struct stat st;
  if (stat (path, &st) != 0)
    return false;
  if ((st.st_mode & S_ISUID) && st.st_uid != geteuid ())
    return true;
  if ((st.st_mode & S_ISGID) && st.st_gid != getegid ())
    return true;
  /* File capabilities (ping's cap_net_raw) are granted on exec too; root has them all already.  */
  return geteuid () != 0 && getxattr (path, "security.capability", NULL, 0) > 0;
}

static bool
peek_word (pid_t pid, uint64_t address, uint64_t *word)
{
  struct iovec local = { word, sizeof *word };
  struct iovec remote = { (void *) (uintptr_t) address, sizeof *word };
  return process_vm_readv (pid, &local, 1, &remote, 1, 0) == (ssize_t) sizeof *word;
}

/* From the new stack at SP (argc, argv..., NULL, envp..., NULL, auxv):
   the addresses of argv, envp and the file name the kernel exec'd.  */
static bool
exec_arguments (pid_t pid, uint64_t sp, uint64_t *argv, uint64_t *envp, uint64_t *file)
{
  uint64_t argc, word = 1, at;
  if (!peek_word (pid, sp, &argc) || argc > (1u << 20))
    return false;
  *argv = sp + 8;
  *envp = *argv + 8 * (argc + 1);
  for (at = *envp; word != 0; at += 8)
    if (!peek_word (pid, at, &word))
      return false;
  for (uint64_t type = 1, value; type != AT_NULL; at += 16)
    {
      if (!peek_word (pid, at, &type) || !peek_word (pid, at + 8, &value))
        return false;
      if (type == AT_EXECFN)
        {
          *file = value;
          return true;
        }
    }
  return false;
}

#if defined(__x86_64__) || defined(__aarch64__)
# include <sys/user.h>
# define CAN_RESTART 1
#else
# define CAN_RESTART 0
#endif

/* PID is at the exit of an execve of a set-user-ID program: make it exec
   the program again and detach.  False if that could not be set up (it
   then runs on, traced and without the privileges).  */
static bool
restart_untraced (pid_t pid)
{
#if CAN_RESTART
# if defined(__x86_64__)
  struct user_regs_struct regs;
  if (ptrace (PTRACE_GETREGS, pid, 0, &regs) != 0)
    return false;
  uint64_t sp = regs.rsp, pc = regs.rip;
  uint64_t instruction = 0x050f, mask = 0xffff;  /* syscall */
# else
  struct user_pt_regs regs;
  struct iovec io = { &regs, sizeof regs };
  if (ptrace (PTRACE_GETREGSET, pid, (void *) NT_PRSTATUS, &io) != 0)
    return false;
  uint64_t sp = regs.sp, pc = regs.pc;
  uint64_t instruction = 0xd4000001, mask = 0xffffffff;  /* svc #0 */
# endif
  uint64_t argv, envp, file, code;
  if (!exec_arguments (pid, sp, &argv, &envp, &file) || !peek_word (pid, pc, &code))
    return false;
  if (ptrace (PTRACE_POKETEXT, pid, (void *) (uintptr_t) pc, (void *) (uintptr_t) ((code & ~mask) | instruction)) != 0)
    return false;
# if defined(__x86_64__)
  regs.rax = SYS_execve;
  regs.rdi = file;
  regs.rsi = argv;
  regs.rdx = envp;
  if (ptrace (PTRACE_SETREGS, pid, 0, &regs) != 0)
    return false;
# else
  regs.regs[8] = SYS_execve;
  regs.regs[0] = file;
  regs.regs[1] = argv;
  regs.regs[2] = envp;
  if (ptrace (PTRACE_SETREGSET, pid, (void *) NT_PRSTATUS, &io) != 0)
    return false;
# endif
  return ptrace (PTRACE_DETACH, pid, 0, 0) == 0;
#else
  (void) pid;
  return false;
#endif
}

/* ---- The run ----------------------------------------------------------- */

struct options
{
  int record_fd;
  sigset_t mask;  /* COMMAND's signal mask */
  char **command;
};

static struct options
parse_options (int argc, char **argv)
{
  struct options o = { .record_fd = -1 };
  sigemptyset (&o.mask);
  int i = 1;
  for (; i < argc; i++)
    {
      if (strcmp (argv[i], "--") == 0)
        {
          i++;
          break;
        }
      if (i + 1 >= argc)
        break;
      if (strcmp (argv[i], "--record") == 0)
        o.record_fd = atoi (argv[++i]);
      else if (strcmp (argv[i], "--shell") == 0)
        {
          char **more = realloc (shells, (size_t) (shell_count + 1) * sizeof *shells);
          if (more == NULL)
            fail ("memory");
          shells = more;
          shells[shell_count++] = argv[++i];
        }
      else if (strcmp (argv[i], "--mask") == 0)
        {
          unsigned long long bits = strtoull (argv[++i], NULL, 16);
          for (int sig = 1; sig <= 64 && sig < NSIG; sig++)
            if (bits & (1ULL << (sig - 1)))
              sigaddset (&o.mask, sig);
        }
      else
        break;
    }
  if (o.record_fd < 0 || i >= argc)
    {
      fputs ("usage: pipelint-tracer --record FD [--mask HEX] [--shell NAME]... -- COMMAND [ARG]...\n", stderr);
      exit (125);
    }
  o.command = argv + i;
  return o;
}

/* In the child: wait until the tracer has seized us (or given up), put
   back the signal mask pipelint was started with, and become COMMAND.
   The dispositions are the tracer's as it was started (its handlers are
   installed after the fork): what was ignored stays ignored.  */
static void
become_command (const struct options *o, int go)
{
  char byte;
  while (read (go, &byte, 1) < 0 && errno == EINTR)
    ;
  close (go);
  sigprocmask (SIG_SETMASK, &o->mask, NULL);
  execvp (o->command[0], o->command);
  /* As a shell says it: 127 not found, 126 found but not runnable.  */
  int code = errno == ENOENT ? 127 : 126;
  fprintf (stderr, "pipelint: %s: %s\n", o->command[0], strerror (errno));
  _exit (code);
}

static int
shell_status (int wstatus)
{
  if (WIFEXITED (wstatus))
    return WEXITSTATUS (wstatus);
  if (WIFSIGNALED (wstatus))
    return 128 + WTERMSIG (wstatus);
  return 125;
}

/* End as COMMAND ended: exit with its code, or die of its signal.  No
   core file of ours for a core-dumping signal (the command's, if the
   limits allowed one, was written already).  */
static void
end_like (int status)
{
  if (status > 128 && status < 128 + NSIG && status - 128 != SIGKILL && status - 128 != SIGSTOP)
    {
      int sig = status - 128;
      struct rlimit none = { 0, 0 };
      setrlimit (RLIMIT_CORE, &none);
      signal (sig, SIG_DFL);
      sigset_t only;
      sigemptyset (&only);
      sigaddset (&only, sig);
      sigprocmask (SIG_UNBLOCK, &only, NULL);
      raise (sig);
    }
  if (status == 128 + SIGKILL)
    raise (SIGKILL);
  exit (status & 0xff);
}

/* Wait for COMMAND untraced: the run ptrace was refused for.  */
static int
run_untraced (pid_t child, int *wstatus)
{
  struct rusage usage;
  while (wait4 (child, wstatus, 0, &usage) < 0)
    if (errno != EINTR)
      return 125;
  on_death (child, *wstatus, &usage);
  return shell_status (*wstatus);
}

/* Leave the tracees still running (a background job the script did not
   wait for) as they would run untraced: let each stop we have not
   handled go, with its signal, and detach.  The kernel detaches the rest
   when we exit.  */
static void
detach_the_rest (void)
{
  int wstatus;
  pid_t pid;
  while ((pid = waitpid (-1, &wstatus, WNOHANG | __WALL)) > 0)
    if (WIFSTOPPED (wstatus))
      {
        int sig = WSTOPSIG (wstatus);
        int event = wstatus >> 16;
        ptrace (PTRACE_DETACH, pid, 0, (void *) (uintptr_t) (event == 0 && sig != SIGTRAP ? sig : 0));
      }
}

/* Resume a stopped tracee; with SIG, deliver it.  */
static void
resume (pid_t pid, int sig)
{
  ptrace (PTRACE_CONT, pid, 0, (void *) (uintptr_t) sig);
}

static int
trace (pid_t child, int *child_status)
{
  for (;;)
    {
      int wstatus;
      struct rusage usage;
      pid_t pid = wait4 (-1, &wstatus, __WALL, &usage);
      if (pid < 0)
        {
          if (errno == EINTR)
            continue;
          return 125;  /* ECHILD: cannot happen while the child lives */
        }
      if (WIFEXITED (wstatus) || WIFSIGNALED (wstatus))
        {
          on_death (pid, wstatus, &usage);
          if (pid == child)
            {
              *child_status = wstatus;
              return shell_status (wstatus);
            }
          continue;
        }
      if (!WIFSTOPPED (wstatus))
        continue;
      int sig = WSTOPSIG (wstatus);
      int event = wstatus >> 16;
      unsigned long message = 0;
      switch (event)
        {
        case PTRACE_EVENT_FORK:
        case PTRACE_EVENT_VFORK:
        case PTRACE_EVENT_CLONE:
          if (ptrace (PTRACE_GETEVENTMSG, pid, 0, &message) == 0)
            on_new_task (pid, (pid_t) message, event == PTRACE_EVENT_CLONE);
          resume (pid, 0);
          break;
        case PTRACE_EVENT_EXEC:
          if (ptrace (PTRACE_GETEVENTMSG, pid, 0, &message) != 0)
            message = (unsigned long) pid;
          on_exec (pid, (pid_t) message);
          if (gains_privileges (pid))
            {
              if (CAN_RESTART)
                {
                  add_task (pid)->restart = true;
                  ptrace (PTRACE_SYSCALL, pid, 0, 0);  /* stop again at the execve's exit */
                  break;
                }
              fprintf (record, "U %llu %d setuid-unprivileged\n", (unsigned long long) now_ns (), (int) pid);
            }
          resume (pid, 0);
          break;
        case PTRACE_EVENT_EXIT:
          if (ptrace (PTRACE_GETEVENTMSG, pid, 0, &message) == 0)
            on_exit_stop (pid, message);
          resume (pid, 0);
          break;
        case PTRACE_EVENT_STOP:
          /* A new tracee's first stop (SIGTRAP), or a group-stop: stay
             stopped as the job control asked, without being resumed.  */
          if (sig == SIGSTOP || sig == SIGTSTP || sig == SIGTTIN || sig == SIGTTOU)
            ptrace (PTRACE_LISTEN, pid, 0, 0);
          else if (find_task (pid) == NULL || !find_task (pid)->announced || find_task (pid)->dead)
            on_birth (pid);
          else
            resume (pid, 0);
          break;
        default:
          if (sig == SIGTRAP && find_task (pid) != NULL && find_task (pid)->restart)
            {
              /* The exit of the execve of a set-user-ID program.  */
              find_task (pid)->restart = false;
              if (restart_untraced (pid))
                {
                  fprintf (record, "U %llu %d setuid\n", (unsigned long long) now_ns (), (int) pid);
                  find_task (pid)->dead = true;  /* gone from our view: its pid may come back */
                  break;
                }
              fprintf (record, "U %llu %d setuid-unprivileged\n", (unsigned long long) now_ns (), (int) pid);
              resume (pid, 0);
              break;
            }
          /* A signal on its way to the tracee: deliver it.  */
          resume (pid, sig);
          break;
        }
    }
}

int
main (int argc, char **argv)
{
  struct options o = parse_options (argc, argv);
  clock_gettime (CLOCK_MONOTONIC, &started);
  if (fcntl (o.record_fd, F_SETFD, FD_CLOEXEC) != 0)
    fail ("--record");
  record = fdopen (o.record_fd, "w");
  if (record == NULL)
    fail ("--record");
  setvbuf (record, NULL, _IOFBF, RECORD_BUFFER);
  struct timespec wall;
  clock_gettime (CLOCK_REALTIME, &wall);
  fprintf (record, "V 1\nB %lld %ld\n", (long long) wall.tv_sec * 1000000000LL + wall.tv_nsec, sysconf (_SC_CLK_TCK));

  int go[2];
  if (pipe2 (go, O_CLOEXEC) != 0)
    fail ("pipe");
  /* Signals arriving before the child exists are forwarded once it does.  */
  sigset_t all;
  sigfillset (&all);
  sigprocmask (SIG_BLOCK, &all, NULL);
  pid_t child = fork ();
  if (child < 0)
    fail ("fork");
  if (child == 0)
    {
      close (go[1]);
      become_command (&o, go[0]);
    }
  close (go[0]);
  command_pid = child;
  catch_forwarded ();
  sigset_t own;
  sigemptyset (&own);
  sigprocmask (SIG_SETMASK, &own, NULL);

  long options = PTRACE_O_TRACEFORK | PTRACE_O_TRACEVFORK | PTRACE_O_TRACECLONE | PTRACE_O_TRACEEXEC
                 | PTRACE_O_TRACEEXIT;
  bool traced = ptrace (PTRACE_SEIZE, child, 0, (void *) options) == 0;
  if (!traced)
    fprintf (record, "N %llu ptrace: %s\n", (unsigned long long) now_ns (), strerror (errno));
  add_task (child)->announced = true;
  fprintf (record, "S %llu %d\n", (unsigned long long) now_ns (), (int) child);
  fflush (record);
  if (write (go[1], "g", 1) != 1)
    fail ("pipe");
  close (go[1]);

  int wstatus = 0;
  int status = traced ? trace (child, &wstatus) : run_untraced (child, &wstatus);
  if (traced)
    detach_the_rest ();
  fprintf (record, "Z %llu %d\n", (unsigned long long) now_ns (), status);
  fclose (record);
  /* An exit code of 128+N is no death by signal N: only a death is one.  */
  if (WIFSIGNALED (wstatus))
    end_like (status);
  exit (status);
}
