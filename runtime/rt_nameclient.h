/* A client of ucmpi_nameserver (runtime/nameserver.c): mpiexec's name
 * service when the jobs share no machine, and the library's under a
 * launcher without one (srun). */
#ifndef UCMPI_RT_NAMECLIENT_H
#define UCMPI_RT_NAMECLIENT_H

#include <stddef.h>

/* The server's address (UCMPI_NAMESERVER, "host:port"), or NULL. */
const char *ucmpi_ns_address(void);
/* Asks the server at addr: op 'P' publish name=value, 'L' lookup (the
 * value into out), 'U' unpublish.  0 done; 1 the name is taken (P) or not
 * published (L, U); -1 with the reason in why (unreachable, bad answer). */
int ucmpi_ns_ask(const char *addr, char op, const char *name,
                 const char *value, char *out, size_t outlen, char *why,
                 size_t wlen);

#endif
