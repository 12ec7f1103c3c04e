/* Recorded by the stub ucmpi_error() of datatype_stubs.c. */
#ifndef DATATYPE_STUBS_H
#define DATATYPE_STUBS_H
extern int dt_stub_last_code;
extern char dt_stub_last_msg[512];
#endif
