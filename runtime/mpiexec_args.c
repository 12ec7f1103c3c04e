/*
 * mpiexec command line: options, then the command (a program, a script or a
 * wrapper such as `valgrind ./prog`) with its own arguments.
 */
#define _GNU_SOURCE
#include "config.h"
#include "mpiexec.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char usage[] =
    "Usage: mpiexec [options] [--] command [arguments] [: -n N command ...]\n"
    "Runs N copies of command on this node as one MPI job (PMIx server inside);\n"
    "commands after ':' join the job (MPMD; MPI_APPNUM numbers them).\n"
    "\n"
    "  -n, -np N              number of processes (default 1); more than the\n"
    "                         cores is allowed (oversubscription)\n"
    "  --bind-to core|none    bind each rank to a core (default: core, or none\n"
    "                         when oversubscribed)\n"
    "  --tag-output           prefix each output line with [rank]\n"
    "  -x VAR[=value]         export VAR (with our value, or the given one)\n"
    "  --env VAR=value        set VAR in every rank\n"
    "  --wdir DIR             the ranks' working directory (also after ':')\n"
    "  --universe-size N      MPI_UNIVERSE_SIZE, processes MPI_Comm_spawn may\n"
    "                         usefully add up to (default: $MPIEXEC_UNIVERSE_SIZE,\n"
    "                         else the larger of N and the online CPUs)\n"
    "  --nameserver HOST:PORT MPI_Publish_name/MPI_Lookup_name through that\n"
    "                         ucmpi_nameserver, shared with jobs on other\n"
    "                         machines (default: $UCMPI_NAMESERVER; without\n"
    "                         one, names are shared by this machine's jobs)\n"
    "  --timeout SECONDS      end the job after SECONDS, exit 124, saying which\n"
    "                         MPI call each rank was blocked in\n"
    "                         (default: $MPIEXEC_TIMEOUT, none if unset)\n"
    "  --profile FILE.html    at MPI_Finalize write a picture of the job's\n"
    "                         communication there (and FILE.json); sets\n"
    "                         UCMPI_PROFILE in every rank\n"
    "  --oversubscribe        accepted for compatibility (always allowed)\n"
    "  --disable-auto-cleanup a rank that fails ends only itself: the others\n"
    "                         go on and see MPI_ERR_PROC_FAILED when they\n"
    "                         talk to it (also --enable-recovery); every\n"
    "                         rank is told of the failure at once\n"
    "  --with-ft ulfm         fault tolerance (ULFM, mpi-ext.h): implies\n"
    "                         --disable-auto-cleanup\n"
    "  --ft-stop-timeout SEC  with --disable-auto-cleanup: a rank stopped\n"
    "                         (SIGSTOP, SIGTSTP) for SEC seconds is declared\n"
    "                         failed: killed, and the others told (default:\n"
    "                         $MPIEXEC_FT_STOP_TIMEOUT, else 3; 0: never)\n"
    "  -v, --verbose          report launch time and each rank's exit\n"
    "  -h, --help             this text;  -V, --version: version\n"
    "\n"
    "stdin goes to rank 0 (others read /dev/null). The exit status is that of the\n"
    "first rank that failed: its exit code, 128+signal if it was killed, the\n"
    "code given to MPI_Abort; 124 on timeout; 128+signal if mpiexec was\n"
    "interrupted. A rank that crashes, or exits without finalizing while others\n"
    "still run (or without MPI_Init while others start MPI), ends the whole job\n"
    "(unless --disable-auto-cleanup; MPI_Abort always does).\n"
    "All ranks run on this node: unless UCX_TLS is set, the ranks get\n"
    "UCX_TLS=^tcp (shared memory and the rest, not TCP) for a faster start;\n"
    "the library then also leaves posix shared memory out where SysV works.\n";

static int bad_usage(const char *fmt, const char *arg)
{
    fprintf(stderr, "mpiexec: ");
    fprintf(stderr, fmt, arg);
    fprintf(stderr, "\n(mpiexec --help lists the options)\n");
    return 1;
}

static int parse_count(const char *s, int *out)
{
    char *end;
    long v = strtol(s, &end, 10);

    if (*s == '\0' || *end != '\0' || v < 1 || v > 100000)
        return -1;
    *out = (int)v;
    return 0;
}

static int parse_seconds(const char *s, double *out)
{
    char *end;
    double v = strtod(s, &end);

    if (*s == '\0' || *end != '\0' || v < 0)
        return -1;
    *out = v;
    return 0;
}

static int add_env(mx_args_t *args, const char *spec)
{
    char *entry;

    if (spec[0] == '=' || spec[0] == '\0')
        return -1;
    if (strchr(spec, '=') != NULL) {
        entry = strdup(spec);
    } else {
        const char *v = getenv(spec);
        if (v == NULL)
            return 0;                /* exporting an unset variable: nothing to do */
        if (asprintf(&entry, "%s=%s", spec, v) < 0)
            entry = NULL;
    }
    if (entry == NULL)
        return -1;
    args->env = realloc(args->env, (args->nenv + 2) * sizeof(char *));
    if (args->env == NULL)
        return -1;
    args->env[args->nenv++] = entry;
    args->env[args->nenv] = NULL;
    return 0;
}

/* "--opt=value" or "--opt value": the value, advancing *i; NULL if missing */
static const char *opt_value(int argc, char **argv, int *i, const char *name)
{
    size_t n = strlen(name);

    if (strncmp(argv[*i], name, n) == 0 && argv[*i][n] == '=')
        return argv[*i] + n + 1;
    if (strcmp(argv[*i], name) != 0)
        return NULL;
    if (*i + 1 >= argc)
        return "";
    return argv[++*i];
}

static int is_opt(const char *arg, const char *name)
{
    size_t n = strlen(name);
    return strncmp(arg, name, n) == 0 && (arg[n] == '\0' || arg[n] == '=');
}

/* MPMD: "cmd args : -n N cmd args : ..." (each ":" becomes the end of
 * the command before it); np becomes the sum of the apps' counts. */
static int split_apps(int argc, char **argv, int i, mx_args_t *args)
{
    args->napps = 1;
    args->app_np[0] = args->np;
    args->app_argv[0] = &argv[i];
    for (; i < argc; i++) {
        if (strcmp(argv[i], ":") != 0)
            continue;
        int k = args->napps, np = 1;
        argv[i] = NULL;
        if (k == MX_MAX_APPS)
            return bad_usage("more than %s commands", "64");
        if (i + 2 < argc && (!strcmp(argv[i + 1], "-n") ||
                             !strcmp(argv[i + 1], "-np"))) {
            if (parse_count(argv[i + 2], &np) != 0)
                return bad_usage("bad process count '%s'", argv[i + 2]);
            i += 2;
        }
        if (i + 2 < argc && !strcmp(argv[i + 1], "--wdir")) {
            args->app_wdir[k] = argv[i + 2];
            i += 2;
        }
        if (i + 1 >= argc || !strcmp(argv[i + 1], ":"))
            return bad_usage("%s", "no command after ':'");
        args->app_np[k] = np;
        args->app_argv[k] = &argv[i + 1];
        args->np += np;
        args->napps++;
    }
    return 0;
}

int mx_parse_args(int argc, char **argv, mx_args_t *args, int *exit_code)
{
    const char *v;
    int i;

    memset(args, 0, sizeof(*args));
    args->np = 1;
    args->bind = MX_BIND_AUTO;
    *exit_code = MX_EXIT_USAGE;
    if ((v = getenv("MPIEXEC_TIMEOUT")) != NULL && parse_seconds(v, &args->timeout) != 0)
        return bad_usage("bad MPIEXEC_TIMEOUT '%s'", v);
    args->ft_stopped = 3.0;
    if ((v = getenv("MPIEXEC_FT_STOP_TIMEOUT")) != NULL &&
        parse_seconds(v, &args->ft_stopped) != 0)
        return bad_usage("bad MPIEXEC_FT_STOP_TIMEOUT '%s'", v);
    if ((v = getenv("MPIEXEC_UNIVERSE_SIZE")) != NULL && parse_count(v, &args->universe) != 0)
        return bad_usage("bad MPIEXEC_UNIVERSE_SIZE '%s'", v);
    for (i = 1; i < argc && argv[i][0] == '-'; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--")) {
            i++;
            break;
        } else if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            fputs(usage, stdout);
            *exit_code = 0;
            return 1;
        } else if (!strcmp(a, "-V") || !strcmp(a, "--version")) {
            printf("mpiexec (%s) %s\n", PACKAGE_NAME, PACKAGE_VERSION);
            *exit_code = 0;
            return 1;
        } else if (is_opt(a, "-n") || is_opt(a, "-np") || is_opt(a, "--np") || is_opt(a, "-c")) {
            v = opt_value(argc, argv, &i, is_opt(a, "-n") ? "-n" : is_opt(a, "-c") ? "-c"
                          : is_opt(a, "-np") ? "-np" : "--np");
            if (parse_count(v, &args->np) != 0)
                return bad_usage("bad process count '%s'", v);
        } else if (is_opt(a, "--bind-to")) {
            v = opt_value(argc, argv, &i, "--bind-to");
            if (!strcmp(v, "core"))
                args->bind = MX_BIND_CORE;
            else if (!strcmp(v, "none"))
                args->bind = MX_BIND_NONE;
            else
                return bad_usage("--bind-to takes core or none, not '%s'", v);
        } else if (!strcmp(a, "--tag-output")) {
            args->tag_output = 1;
        } else if (is_opt(a, "-x") || is_opt(a, "--env")) {
            v = opt_value(argc, argv, &i, is_opt(a, "-x") ? "-x" : "--env");
            if ((!strcmp(a, "--env") && strchr(v, '=') == NULL) || add_env(args, v) != 0)
                return bad_usage("bad environment setting '%s'", v);
        } else if (is_opt(a, "--wdir")) {
            args->app_wdir[0] = opt_value(argc, argv, &i, "--wdir");
        } else if (is_opt(a, "--universe-size")) {
            v = opt_value(argc, argv, &i, "--universe-size");
            if (parse_count(v, &args->universe) != 0)
                return bad_usage("bad --universe-size '%s'", v);
        } else if (is_opt(a, "--nameserver")) {
            v = opt_value(argc, argv, &i, "--nameserver");
            if (strchr(v, ':') == NULL)
                return bad_usage("bad --nameserver '%s' (host:port)", v);
            args->nameserver = v;
        } else if (is_opt(a, "--timeout")) {
            v = opt_value(argc, argv, &i, "--timeout");
            if (parse_seconds(v, &args->timeout) != 0)
                return bad_usage("bad --timeout '%s' (seconds)", v);
        } else if (is_opt(a, "--profile")) {
            char *e = NULL;
            v = opt_value(argc, argv, &i, "--profile");
            if (v[0] == '\0' || asprintf(&e, "UCMPI_PROFILE=%s", v) < 0 ||
                add_env(args, e) != 0)
                return bad_usage("bad --profile '%s'", v);
            free(e);
        } else if (!strcmp(a, "--oversubscribe")) {
            continue;
        } else if (!strcmp(a, "--disable-auto-cleanup") || !strcmp(a, "-disable-auto-cleanup") ||
                   !strcmp(a, "--enable-recovery")) {
            args->keep_going = 1;
        } else if (is_opt(a, "--with-ft") || is_opt(a, "-with-ft")) {
            v = opt_value(argc, argv, &i, is_opt(a, "--with-ft") ? "--with-ft" : "-with-ft");
            if (strcmp(v, "ulfm") != 0 && strcmp(v, "mpi") != 0)
                return bad_usage("--with-ft takes ulfm (or mpi), not '%s'", v);
            args->keep_going = 1;
        } else if (is_opt(a, "--ft-stop-timeout")) {
            v = opt_value(argc, argv, &i, "--ft-stop-timeout");
            if (parse_seconds(v, &args->ft_stopped) != 0)
                return bad_usage("bad --ft-stop-timeout '%s' (seconds)", v);
        } else if (!strcmp(a, "-v") || !strcmp(a, "--verbose")) {
            args->verbose = 1;
        } else {
            return bad_usage("unknown option '%s'", a);
        }
    }
    if (i >= argc)
        return bad_usage("%s", "no command to run");
    args->argv = &argv[i];
    return split_apps(argc, argv, i, args);
}

void mx_args_free(mx_args_t *args)
{
    for (int i = 0; i < args->nenv; i++)
        free(args->env[i]);
    free(args->env);
    args->env = NULL;
    args->nenv = 0;
}
