/*
 * ucmpi - MPI over UCX.  Public C interface (MPI-4.1 semantics).
 *
 * Handles are pointers to opaque ucmpi objects; predefined handles are the
 * addresses of library objects.  Every MPI_X is also available as PMPI_X.
 * A function is declared here only once it is implemented.
 */
#ifndef UCMPI_MPI_H
#define UCMPI_MPI_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define MPI_VERSION    4
#define MPI_SUBVERSION 1
#define UCMPI_VERSION  "0.1.0"

/* ------------------------------------------------------------------ */
/* Basic types and handles                                            */
/* ------------------------------------------------------------------ */
typedef intptr_t  MPI_Aint;
typedef long long MPI_Offset;
typedef long long MPI_Count;
typedef int       MPI_Fint;

typedef struct ucmpi_comm_s       *MPI_Comm;
typedef struct ucmpi_group_s      *MPI_Group;
typedef struct ucmpi_datatype_s   *MPI_Datatype;
typedef struct ucmpi_op_s         *MPI_Op;
typedef struct ucmpi_request_s    *MPI_Request;
typedef struct ucmpi_errhandler_s *MPI_Errhandler;
typedef struct ucmpi_info_s       *MPI_Info;
typedef struct ucmpi_win_s        *MPI_Win;
typedef struct ucmpi_request_s    *MPI_Message;
typedef struct ucmpi_session_s    *MPI_Session;

typedef struct MPI_Status {
    int MPI_SOURCE;
    int MPI_TAG;
    int MPI_ERROR;
    /* implementation fields: received bytes and cancellation */
    int ucmpi_cancelled;
    MPI_Count ucmpi_count;
} MPI_Status;

#define MPI_STATUS_IGNORE   ((MPI_Status *)0)
#define MPI_STATUSES_IGNORE ((MPI_Status *)0)
#define MPI_ARGV_NULL       ((char **)0)
#define MPI_ARGVS_NULL      ((char ***)0)
#define MPI_ERRCODES_IGNORE ((int *)0)

/* ------------------------------------------------------------------ */
/* Constants                                                          */
/* ------------------------------------------------------------------ */
#define MPI_SUCCESS          0
#define MPI_ANY_SOURCE      (-1)
#define MPI_PROC_NULL       (-2)
#define MPI_ROOT            (-3)
#define MPI_ANY_TAG         (-1)
#define MPI_UNDEFINED       (-32766)
#define MPI_KEYVAL_INVALID  (-1)
#define MPI_BSEND_OVERHEAD   128
#define MPI_DIST_GRAPH       3
#define MPI_GRAPH            2
#define MPI_CART             1
#define MPI_UNWEIGHTED      ((int *)1)
#define MPI_WEIGHTS_EMPTY   ((int *)2)

#define MPI_BOTTOM          ((void *)0)
#define MPI_IN_PLACE        ((void *)1)
#define MPI_BUFFER_AUTOMATIC ((void *)2)

#define MPI_MAX_PROCESSOR_NAME         256
#define MPI_MAX_ERROR_STRING           512
#define MPI_MAX_OBJECT_NAME            128
#define MPI_MAX_INFO_KEY               255
#define MPI_MAX_INFO_VAL              1024
#define MPI_MAX_LIBRARY_VERSION_STRING 8192
#define MPI_MAX_PORT_NAME             1024
#define MPI_MAX_DATAREP_STRING         128
#define MPI_MAX_PSET_NAME_LEN          512
#define MPI_MAX_STRINGTAG_LEN          256

/* results of *_compare */
#define MPI_IDENT     0
#define MPI_CONGRUENT 1
#define MPI_SIMILAR   2
#define MPI_UNEQUAL   3

/* thread levels */
#define MPI_THREAD_SINGLE     0
#define MPI_THREAD_FUNNELED   1
#define MPI_THREAD_SERIALIZED 2
#define MPI_THREAD_MULTIPLE   3

/* Comm_split_type */
#define MPI_COMM_TYPE_SHARED      1
#define MPI_COMM_TYPE_HW_UNGUIDED 2
#define MPI_COMM_TYPE_HW_GUIDED   3
#define MPI_COMM_TYPE_RESOURCE_GUIDED 4

/* datatype combiners */
enum {
    MPI_COMBINER_NAMED = 1,
    MPI_COMBINER_DUP,
    MPI_COMBINER_CONTIGUOUS,
    MPI_COMBINER_VECTOR,
    MPI_COMBINER_HVECTOR,
    MPI_COMBINER_INDEXED,
    MPI_COMBINER_HINDEXED,
    MPI_COMBINER_INDEXED_BLOCK,
    MPI_COMBINER_HINDEXED_BLOCK,
    MPI_COMBINER_STRUCT,
    MPI_COMBINER_SUBARRAY,
    MPI_COMBINER_DARRAY,
    MPI_COMBINER_F90_REAL,
    MPI_COMBINER_F90_COMPLEX,
    MPI_COMBINER_F90_INTEGER,
    MPI_COMBINER_RESIZED,
    MPI_COMBINER_VALUE_INDEX
};

/* subarray / darray */
#define MPI_ORDER_C             56
#define MPI_ORDER_FORTRAN       57
#define MPI_DISTRIBUTE_BLOCK    121
#define MPI_DISTRIBUTE_CYCLIC   122
#define MPI_DISTRIBUTE_NONE     123
#define MPI_DISTRIBUTE_DFLT_DARG (-49767)

#define MPI_TYPECLASS_REAL    1
#define MPI_TYPECLASS_INTEGER 2
#define MPI_TYPECLASS_COMPLEX 3

/* error classes */
#define MPI_ERR_BUFFER                 1
#define MPI_ERR_COUNT                  2
#define MPI_ERR_TYPE                   3
#define MPI_ERR_TAG                    4
#define MPI_ERR_COMM                   5
#define MPI_ERR_RANK                   6
#define MPI_ERR_REQUEST                7
#define MPI_ERR_ROOT                   8
#define MPI_ERR_GROUP                  9
#define MPI_ERR_OP                    10
#define MPI_ERR_TOPOLOGY              11
#define MPI_ERR_DIMS                  12
#define MPI_ERR_ARG                   13
#define MPI_ERR_UNKNOWN               14
#define MPI_ERR_TRUNCATE              15
#define MPI_ERR_OTHER                 16
#define MPI_ERR_INTERN                17
#define MPI_ERR_PENDING               18
#define MPI_ERR_IN_STATUS             19
#define MPI_ERR_ACCESS                20
#define MPI_ERR_AMODE                 21
#define MPI_ERR_ASSERT                22
#define MPI_ERR_BAD_FILE              23
#define MPI_ERR_BASE                  24
#define MPI_ERR_CONVERSION            25
#define MPI_ERR_DISP                  26
#define MPI_ERR_DUP_DATAREP           27
#define MPI_ERR_FILE_EXISTS           28
#define MPI_ERR_FILE_IN_USE           29
#define MPI_ERR_FILE                  30
#define MPI_ERR_INFO_KEY              31
#define MPI_ERR_INFO_NOKEY            32
#define MPI_ERR_INFO_VALUE            33
#define MPI_ERR_INFO                  34
#define MPI_ERR_IO                    35
#define MPI_ERR_KEYVAL                36
#define MPI_ERR_LOCKTYPE              37
#define MPI_ERR_NAME                  38
#define MPI_ERR_NO_MEM                39
#define MPI_ERR_NOT_SAME              40
#define MPI_ERR_NO_SPACE              41
#define MPI_ERR_NO_SUCH_FILE          42
#define MPI_ERR_PORT                  43
#define MPI_ERR_QUOTA                 44
#define MPI_ERR_READ_ONLY             45
#define MPI_ERR_RMA_CONFLICT          46
#define MPI_ERR_RMA_SYNC              47
#define MPI_ERR_SERVICE               48
#define MPI_ERR_SIZE                  49
#define MPI_ERR_SPAWN                 50
#define MPI_ERR_UNSUPPORTED_DATAREP   51
#define MPI_ERR_UNSUPPORTED_OPERATION 52
#define MPI_ERR_WIN                   53
#define MPI_ERR_RMA_RANGE             54
#define MPI_ERR_RMA_ATTACH            55
#define MPI_ERR_RMA_SHARED            56
#define MPI_ERR_RMA_FLAVOR            57
#define MPI_ERR_SESSION               58
#define MPI_ERR_PROC_ABORTED          59
#define MPI_ERR_VALUE_TOO_LARGE       60
#define MPI_ERR_ERRHANDLER            61
#define MPI_ERR_PROC_FAILED           62
#define MPI_ERR_REVOKED               63
/* MPI_T error classes (returned by MPI_T_ functions only) */
#define MPI_T_ERR_MEMORY              64
#define MPI_T_ERR_NOT_INITIALIZED     65
#define MPI_T_ERR_CANNOT_INIT         66
#define MPI_T_ERR_INVALID_INDEX       67
#define MPI_T_ERR_INVALID_ITEM        68
#define MPI_T_ERR_INVALID_HANDLE      69
#define MPI_T_ERR_OUT_OF_HANDLES      70
#define MPI_T_ERR_OUT_OF_SESSIONS     71
#define MPI_T_ERR_INVALID_SESSION     72
#define MPI_T_ERR_CVAR_SET_NOT_NOW    73
#define MPI_T_ERR_CVAR_SET_NEVER      74
#define MPI_T_ERR_PVAR_NO_STARTSTOP   75
#define MPI_T_ERR_PVAR_NO_WRITE       76
#define MPI_T_ERR_PVAR_NO_ATOMIC      77
#define MPI_T_ERR_INVALID_NAME        78
#define MPI_T_ERR_INVALID             79
#define MPI_T_ERR_NOT_SUPPORTED       80
/* fault tolerance (ULFM, mpi-ext.h: MPIX_ERR_PROC_FAILED_PENDING) */
#define MPI_ERR_PROC_FAILED_PENDING   81
#define MPI_ERR_LASTCODE              81

/* predefined attribute keyvals */
#define MPI_TAG_UB            1
#define MPI_HOST              2
#define MPI_IO                3
#define MPI_WTIME_IS_GLOBAL   4
#define MPI_UNIVERSE_SIZE     5
#define MPI_APPNUM            6
#define MPI_LASTUSEDCODE      7
#define MPI_WIN_BASE          8
#define MPI_WIN_SIZE          9
#define MPI_WIN_DISP_UNIT    10
#define MPI_WIN_CREATE_FLAVOR 11
#define MPI_WIN_MODEL        12

/* RMA */
#define MPI_MODE_NOCHECK    1024
#define MPI_MODE_NOSTORE    2048
#define MPI_MODE_NOPUT      4096
#define MPI_MODE_NOPRECEDE  8192
#define MPI_MODE_NOSUCCEED 16384
#define MPI_LOCK_EXCLUSIVE   234
#define MPI_LOCK_SHARED      235
#define MPI_WIN_FLAVOR_CREATE   1
#define MPI_WIN_FLAVOR_ALLOCATE 2
#define MPI_WIN_FLAVOR_DYNAMIC  3
#define MPI_WIN_FLAVOR_SHARED   4
#define MPI_WIN_SEPARATE        1
#define MPI_WIN_UNIFIED         2

/* ------------------------------------------------------------------ */
/* Predefined objects (defined in the library)                        */
/* ------------------------------------------------------------------ */
extern struct ucmpi_comm_s ucmpi_comm_world, ucmpi_comm_self;
extern struct ucmpi_group_s ucmpi_group_empty;
extern struct ucmpi_errhandler_s ucmpi_errors_are_fatal, ucmpi_errors_return,
    ucmpi_errors_abort;
extern struct ucmpi_info_s ucmpi_info_env;
extern struct ucmpi_request_s ucmpi_message_no_proc;

#define MPI_COMM_NULL       ((MPI_Comm)0)
#define MPI_GROUP_NULL      ((MPI_Group)0)
#define MPI_DATATYPE_NULL   ((MPI_Datatype)0)
#define MPI_OP_NULL         ((MPI_Op)0)
#define MPI_REQUEST_NULL    ((MPI_Request)0)
#define MPI_ERRHANDLER_NULL ((MPI_Errhandler)0)
#define MPI_INFO_NULL       ((MPI_Info)0)
#define MPI_WIN_NULL        ((MPI_Win)0)
#define MPI_SESSION_NULL    ((MPI_Session)0)
#define MPI_MESSAGE_NULL    ((MPI_Message)0)

#define MPI_COMM_WORLD        (&ucmpi_comm_world)
#define MPI_COMM_SELF         (&ucmpi_comm_self)
#define MPI_GROUP_EMPTY       (&ucmpi_group_empty)
#define MPI_ERRORS_ARE_FATAL  (&ucmpi_errors_are_fatal)
#define MPI_ERRORS_RETURN     (&ucmpi_errors_return)
#define MPI_ERRORS_ABORT      (&ucmpi_errors_abort)
#define MPI_INFO_ENV          (&ucmpi_info_env)
#define MPI_MESSAGE_NO_PROC   (&ucmpi_message_no_proc)

/* Predefined datatypes: object ucmpi_dt_<name> for MPI_<NAME>. */
#define UCMPI_DT(name) (&ucmpi_dt_##name)
extern struct ucmpi_datatype_s
    ucmpi_dt_char, ucmpi_dt_signed_char, ucmpi_dt_unsigned_char, ucmpi_dt_byte,
    ucmpi_dt_wchar, ucmpi_dt_short, ucmpi_dt_unsigned_short, ucmpi_dt_int,
    ucmpi_dt_unsigned, ucmpi_dt_long, ucmpi_dt_unsigned_long,
    ucmpi_dt_long_long, ucmpi_dt_unsigned_long_long, ucmpi_dt_float,
    ucmpi_dt_double, ucmpi_dt_long_double, ucmpi_dt_c_bool,
    ucmpi_dt_int8_t, ucmpi_dt_int16_t, ucmpi_dt_int32_t, ucmpi_dt_int64_t,
    ucmpi_dt_uint8_t, ucmpi_dt_uint16_t, ucmpi_dt_uint32_t, ucmpi_dt_uint64_t,
    ucmpi_dt_aint, ucmpi_dt_count, ucmpi_dt_offset,
    ucmpi_dt_c_float_complex, ucmpi_dt_c_double_complex,
    ucmpi_dt_c_long_double_complex, ucmpi_dt_packed,
    ucmpi_dt_float_int, ucmpi_dt_double_int, ucmpi_dt_long_int, ucmpi_dt_2int,
    ucmpi_dt_short_int, ucmpi_dt_long_double_int,
    ucmpi_dt_cxx_bool, ucmpi_dt_cxx_float_complex, ucmpi_dt_cxx_double_complex,
    ucmpi_dt_cxx_long_double_complex,
    ucmpi_dt_integer, ucmpi_dt_real, ucmpi_dt_double_precision,
    ucmpi_dt_complex, ucmpi_dt_double_complex, ucmpi_dt_logical,
    ucmpi_dt_character, ucmpi_dt_2integer, ucmpi_dt_2real,
    ucmpi_dt_2double_precision, ucmpi_dt_integer1, ucmpi_dt_integer2,
    ucmpi_dt_integer4, ucmpi_dt_integer8, ucmpi_dt_real4, ucmpi_dt_real8,
    ucmpi_dt_real16, ucmpi_dt_complex8, ucmpi_dt_complex16, ucmpi_dt_complex32,
    ucmpi_dt_integer16;

#define MPI_CHAR                 UCMPI_DT(char)
#define MPI_SIGNED_CHAR          UCMPI_DT(signed_char)
#define MPI_UNSIGNED_CHAR        UCMPI_DT(unsigned_char)
#define MPI_BYTE                 UCMPI_DT(byte)
#define MPI_WCHAR                UCMPI_DT(wchar)
#define MPI_SHORT                UCMPI_DT(short)
#define MPI_UNSIGNED_SHORT       UCMPI_DT(unsigned_short)
#define MPI_INT                  UCMPI_DT(int)
#define MPI_UNSIGNED             UCMPI_DT(unsigned)
#define MPI_LONG                 UCMPI_DT(long)
#define MPI_UNSIGNED_LONG        UCMPI_DT(unsigned_long)
#define MPI_LONG_LONG_INT        UCMPI_DT(long_long)
#define MPI_LONG_LONG            UCMPI_DT(long_long)
#define MPI_UNSIGNED_LONG_LONG   UCMPI_DT(unsigned_long_long)
#define MPI_FLOAT                UCMPI_DT(float)
#define MPI_DOUBLE               UCMPI_DT(double)
#define MPI_LONG_DOUBLE          UCMPI_DT(long_double)
#define MPI_C_BOOL               UCMPI_DT(c_bool)
#define MPI_INT8_T               UCMPI_DT(int8_t)
#define MPI_INT16_T              UCMPI_DT(int16_t)
#define MPI_INT32_T              UCMPI_DT(int32_t)
#define MPI_INT64_T              UCMPI_DT(int64_t)
#define MPI_UINT8_T              UCMPI_DT(uint8_t)
#define MPI_UINT16_T             UCMPI_DT(uint16_t)
#define MPI_UINT32_T             UCMPI_DT(uint32_t)
#define MPI_UINT64_T             UCMPI_DT(uint64_t)
#define MPI_AINT                 UCMPI_DT(aint)
#define MPI_COUNT                UCMPI_DT(count)
#define MPI_OFFSET               UCMPI_DT(offset)
#define MPI_C_COMPLEX            UCMPI_DT(c_float_complex)
#define MPI_C_FLOAT_COMPLEX      UCMPI_DT(c_float_complex)
#define MPI_C_DOUBLE_COMPLEX     UCMPI_DT(c_double_complex)
#define MPI_C_LONG_DOUBLE_COMPLEX UCMPI_DT(c_long_double_complex)
#define MPI_PACKED               UCMPI_DT(packed)
#define MPI_FLOAT_INT            UCMPI_DT(float_int)
#define MPI_DOUBLE_INT           UCMPI_DT(double_int)
#define MPI_LONG_INT             UCMPI_DT(long_int)
#define MPI_2INT                 UCMPI_DT(2int)
#define MPI_SHORT_INT            UCMPI_DT(short_int)
#define MPI_LONG_DOUBLE_INT      UCMPI_DT(long_double_int)
#define MPI_CXX_BOOL             UCMPI_DT(cxx_bool)
#define MPI_CXX_FLOAT_COMPLEX    UCMPI_DT(cxx_float_complex)
#define MPI_CXX_DOUBLE_COMPLEX   UCMPI_DT(cxx_double_complex)
#define MPI_CXX_LONG_DOUBLE_COMPLEX UCMPI_DT(cxx_long_double_complex)
#define MPI_INTEGER              UCMPI_DT(integer)
#define MPI_REAL                 UCMPI_DT(real)
#define MPI_DOUBLE_PRECISION     UCMPI_DT(double_precision)
#define MPI_COMPLEX              UCMPI_DT(complex)
#define MPI_DOUBLE_COMPLEX       UCMPI_DT(double_complex)
#define MPI_LOGICAL              UCMPI_DT(logical)
#define MPI_CHARACTER            UCMPI_DT(character)
#define MPI_2INTEGER             UCMPI_DT(2integer)
#define MPI_2REAL                UCMPI_DT(2real)
#define MPI_2DOUBLE_PRECISION    UCMPI_DT(2double_precision)
#define MPI_INTEGER1             UCMPI_DT(integer1)
#define MPI_INTEGER2             UCMPI_DT(integer2)
#define MPI_INTEGER4             UCMPI_DT(integer4)
#define MPI_INTEGER8             UCMPI_DT(integer8)
#define MPI_INTEGER16            UCMPI_DT(integer16)
#define MPI_REAL4                UCMPI_DT(real4)
#define MPI_REAL8                UCMPI_DT(real8)
#define MPI_REAL16               UCMPI_DT(real16)
#define MPI_COMPLEX8             UCMPI_DT(complex8)
#define MPI_COMPLEX16            UCMPI_DT(complex16)
#define MPI_COMPLEX32            UCMPI_DT(complex32)

/* Predefined reduction operations: object ucmpi_op_<name>. */
extern struct ucmpi_op_s ucmpi_op_max, ucmpi_op_min, ucmpi_op_sum,
    ucmpi_op_prod, ucmpi_op_land, ucmpi_op_band, ucmpi_op_lor, ucmpi_op_bor,
    ucmpi_op_lxor, ucmpi_op_bxor, ucmpi_op_minloc, ucmpi_op_maxloc,
    ucmpi_op_replace, ucmpi_op_no_op;
#define MPI_MAX     (&ucmpi_op_max)
#define MPI_MIN     (&ucmpi_op_min)
#define MPI_SUM     (&ucmpi_op_sum)
#define MPI_PROD    (&ucmpi_op_prod)
#define MPI_LAND    (&ucmpi_op_land)
#define MPI_BAND    (&ucmpi_op_band)
#define MPI_LOR     (&ucmpi_op_lor)
#define MPI_BOR     (&ucmpi_op_bor)
#define MPI_LXOR    (&ucmpi_op_lxor)
#define MPI_BXOR    (&ucmpi_op_bxor)
#define MPI_MINLOC  (&ucmpi_op_minloc)
#define MPI_MAXLOC  (&ucmpi_op_maxloc)
#define MPI_REPLACE (&ucmpi_op_replace)
#define MPI_NO_OP   (&ucmpi_op_no_op)

/* ------------------------------------------------------------------ */
/* Callback types                                                     */
/* ------------------------------------------------------------------ */
typedef void MPI_User_function(void *invec, void *inoutvec, int *len,
                               MPI_Datatype *datatype);
typedef int MPI_Comm_copy_attr_function(MPI_Comm oldcomm, int comm_keyval,
                                        void *extra_state,
                                        void *attribute_val_in,
                                        void *attribute_val_out, int *flag);
typedef int MPI_Comm_delete_attr_function(MPI_Comm comm, int comm_keyval,
                                          void *attribute_val,
                                          void *extra_state);
typedef int MPI_Type_copy_attr_function(MPI_Datatype oldtype,
                                        int type_keyval, void *extra_state,
                                        void *attribute_val_in,
                                        void *attribute_val_out, int *flag);
typedef int MPI_Type_delete_attr_function(MPI_Datatype datatype,
                                          int type_keyval,
                                          void *attribute_val,
                                          void *extra_state);
typedef int MPI_Win_copy_attr_function(MPI_Win oldwin, int win_keyval,
                                       void *extra_state,
                                       void *attribute_val_in,
                                       void *attribute_val_out, int *flag);
typedef int MPI_Win_delete_attr_function(MPI_Win win, int win_keyval,
                                         void *attribute_val,
                                         void *extra_state);
typedef MPI_Comm_copy_attr_function MPI_Copy_function;
typedef MPI_Comm_delete_attr_function MPI_Delete_function;
typedef void MPI_Comm_errhandler_function(MPI_Comm *, int *, ...);
typedef void MPI_Win_errhandler_function(MPI_Win *, int *, ...);
typedef void MPI_Session_errhandler_function(MPI_Session *, int *, ...);
typedef MPI_Comm_errhandler_function MPI_Handler_function;
typedef int MPI_Grequest_query_function(void *extra_state,
                                        MPI_Status *status);
typedef int MPI_Grequest_free_function(void *extra_state);
typedef int MPI_Grequest_cancel_function(void *extra_state, int complete);

/* ================================================================== */
/* Prototypes, one section per area.  Each area edits only its own    */
/* section; every MPI_X has its PMPI_X twin.                          */
/* ================================================================== */

/* ---- section: core (init, errors, status, requests, p2p) ---- */
int MPI_Init(int *argc, char ***argv);
int PMPI_Init(int *argc, char ***argv);
int MPI_Init_thread(int *argc, char ***argv, int required, int *provided);
int PMPI_Init_thread(int *argc, char ***argv, int required, int *provided);
int MPI_Initialized(int *flag);
int PMPI_Initialized(int *flag);
int MPI_Finalized(int *flag);
int PMPI_Finalized(int *flag);
int MPI_Finalize(void);
int PMPI_Finalize(void);
int MPI_Abort(MPI_Comm comm, int errorcode);
int PMPI_Abort(MPI_Comm comm, int errorcode);
int MPI_Query_thread(int *provided);
int PMPI_Query_thread(int *provided);
int MPI_Is_thread_main(int *flag);
int PMPI_Is_thread_main(int *flag);
double MPI_Wtime(void);
double PMPI_Wtime(void);
double MPI_Wtick(void);
double PMPI_Wtick(void);
int MPI_Get_processor_name(char *name, int *resultlen);
int PMPI_Get_processor_name(char *name, int *resultlen);
int MPI_Get_version(int *version, int *subversion);
int PMPI_Get_version(int *version, int *subversion);
int MPI_Get_library_version(char *version, int *resultlen);
int PMPI_Get_library_version(char *version, int *resultlen);
int MPI_Error_string(int errorcode, char *string, int *resultlen);
int PMPI_Error_string(int errorcode, char *string, int *resultlen);
int MPI_Error_class(int errorcode, int *errorclass);
int PMPI_Error_class(int errorcode, int *errorclass);
int MPI_Add_error_class(int *errorclass);
int PMPI_Add_error_class(int *errorclass);
int MPI_Add_error_code(int errorclass, int *errorcode);
int PMPI_Add_error_code(int errorclass, int *errorcode);
int MPI_Add_error_string(int errorcode, const char *string);
int PMPI_Add_error_string(int errorcode, const char *string);
int MPI_Remove_error_class(int errorclass);
int PMPI_Remove_error_class(int errorclass);
int MPI_Remove_error_code(int errorcode);
int PMPI_Remove_error_code(int errorcode);
int MPI_Remove_error_string(int errorcode);
int PMPI_Remove_error_string(int errorcode);
int MPI_Comm_rank(MPI_Comm comm, int *rank);
int PMPI_Comm_rank(MPI_Comm comm, int *rank);
int MPI_Comm_size(MPI_Comm comm, int *size);
int PMPI_Comm_size(MPI_Comm comm, int *size);
int MPI_Send(const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm);
int PMPI_Send(const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm);
int MPI_Ssend(const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm);
int PMPI_Ssend(const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm);
int MPI_Rsend(const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm);
int PMPI_Rsend(const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm);
int MPI_Bsend(const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm);
int PMPI_Bsend(const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm);
int MPI_Isend(const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm, MPI_Request *request);
int PMPI_Isend(const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm, MPI_Request *request);
int MPI_Issend(const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm, MPI_Request *request);
int PMPI_Issend(const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm, MPI_Request *request);
int MPI_Irsend(const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm, MPI_Request *request);
int PMPI_Irsend(const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm, MPI_Request *request);
int MPI_Ibsend(const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm, MPI_Request *request);
int PMPI_Ibsend(const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm, MPI_Request *request);
int MPI_Recv(void *buf, int count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm, MPI_Status *status);
int PMPI_Recv(void *buf, int count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm, MPI_Status *status);
int MPI_Irecv(void *buf, int count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm, MPI_Request *request);
int PMPI_Irecv(void *buf, int count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm, MPI_Request *request);
int MPI_Sendrecv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, int dest, int sendtag, void *recvbuf, int recvcount, MPI_Datatype recvtype, int source, int recvtag, MPI_Comm comm, MPI_Status *status);
int PMPI_Sendrecv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, int dest, int sendtag, void *recvbuf, int recvcount, MPI_Datatype recvtype, int source, int recvtag, MPI_Comm comm, MPI_Status *status);
int MPI_Sendrecv_replace(void *buf, int count, MPI_Datatype datatype, int dest, int sendtag, int source, int recvtag, MPI_Comm comm, MPI_Status *status);
int PMPI_Sendrecv_replace(void *buf, int count, MPI_Datatype datatype, int dest, int sendtag, int source, int recvtag, MPI_Comm comm, MPI_Status *status);
int MPI_Probe(int source, int tag, MPI_Comm comm, MPI_Status *status);
int PMPI_Probe(int source, int tag, MPI_Comm comm, MPI_Status *status);
int MPI_Iprobe(int source, int tag, MPI_Comm comm, int *flag, MPI_Status *status);
int PMPI_Iprobe(int source, int tag, MPI_Comm comm, int *flag, MPI_Status *status);
int MPI_Mprobe(int source, int tag, MPI_Comm comm, MPI_Message *message, MPI_Status *status);
int PMPI_Mprobe(int source, int tag, MPI_Comm comm, MPI_Message *message, MPI_Status *status);
int MPI_Improbe(int source, int tag, MPI_Comm comm, int *flag, MPI_Message *message, MPI_Status *status);
int PMPI_Improbe(int source, int tag, MPI_Comm comm, int *flag, MPI_Message *message, MPI_Status *status);
int MPI_Mrecv(void *buf, int count, MPI_Datatype datatype, MPI_Message *message, MPI_Status *status);
int PMPI_Mrecv(void *buf, int count, MPI_Datatype datatype, MPI_Message *message, MPI_Status *status);
int MPI_Imrecv(void *buf, int count, MPI_Datatype datatype, MPI_Message *message, MPI_Request *request);
int PMPI_Imrecv(void *buf, int count, MPI_Datatype datatype, MPI_Message *message, MPI_Request *request);
int MPI_Send_init(const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm, MPI_Request *request);
int PMPI_Send_init(const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm, MPI_Request *request);
int MPI_Ssend_init(const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm, MPI_Request *request);
int PMPI_Ssend_init(const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm, MPI_Request *request);
int MPI_Rsend_init(const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm, MPI_Request *request);
int PMPI_Rsend_init(const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm, MPI_Request *request);
int MPI_Bsend_init(const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm, MPI_Request *request);
int PMPI_Bsend_init(const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm, MPI_Request *request);
int MPI_Recv_init(void *buf, int count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm, MPI_Request *request);
int PMPI_Recv_init(void *buf, int count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm, MPI_Request *request);
int MPI_Start(MPI_Request *request);
int PMPI_Start(MPI_Request *request);
int MPI_Startall(int count, MPI_Request array_of_requests[]);
int PMPI_Startall(int count, MPI_Request array_of_requests[]);
int MPI_Buffer_attach(void *buffer, int size);
int PMPI_Buffer_attach(void *buffer, int size);
int MPI_Buffer_detach(void *buffer_addr, int *size);
int PMPI_Buffer_detach(void *buffer_addr, int *size);
int MPI_Wait(MPI_Request *request, MPI_Status *status);
int PMPI_Wait(MPI_Request *request, MPI_Status *status);
int MPI_Test(MPI_Request *request, int *flag, MPI_Status *status);
int PMPI_Test(MPI_Request *request, int *flag, MPI_Status *status);
int MPI_Waitall(int count, MPI_Request array_of_requests[], MPI_Status array_of_statuses[]);
int PMPI_Waitall(int count, MPI_Request array_of_requests[], MPI_Status array_of_statuses[]);
int MPI_Testall(int count, MPI_Request array_of_requests[], int *flag, MPI_Status array_of_statuses[]);
int PMPI_Testall(int count, MPI_Request array_of_requests[], int *flag, MPI_Status array_of_statuses[]);
int MPI_Waitany(int count, MPI_Request array_of_requests[], int *index, MPI_Status *status);
int PMPI_Waitany(int count, MPI_Request array_of_requests[], int *index, MPI_Status *status);
int MPI_Testany(int count, MPI_Request array_of_requests[], int *index, int *flag, MPI_Status *status);
int PMPI_Testany(int count, MPI_Request array_of_requests[], int *index, int *flag, MPI_Status *status);
int MPI_Waitsome(int incount, MPI_Request array_of_requests[], int *outcount, int array_of_indices[], MPI_Status array_of_statuses[]);
int PMPI_Waitsome(int incount, MPI_Request array_of_requests[], int *outcount, int array_of_indices[], MPI_Status array_of_statuses[]);
int MPI_Testsome(int incount, MPI_Request array_of_requests[], int *outcount, int array_of_indices[], MPI_Status array_of_statuses[]);
int PMPI_Testsome(int incount, MPI_Request array_of_requests[], int *outcount, int array_of_indices[], MPI_Status array_of_statuses[]);
int MPI_Request_free(MPI_Request *request);
int PMPI_Request_free(MPI_Request *request);
int MPI_Request_get_status(MPI_Request request, int *flag, MPI_Status *status);
int PMPI_Request_get_status(MPI_Request request, int *flag, MPI_Status *status);
int MPI_Cancel(MPI_Request *request);
int PMPI_Cancel(MPI_Request *request);
int MPI_Test_cancelled(const MPI_Status *status, int *flag);
int PMPI_Test_cancelled(const MPI_Status *status, int *flag);
int MPI_Status_set_cancelled(MPI_Status *status, int flag);
int PMPI_Status_set_cancelled(MPI_Status *status, int flag);
int MPI_Pcontrol(const int level, ...);
int PMPI_Pcontrol(const int level, ...);
int MPI_Grequest_start(MPI_Grequest_query_function *query_fn, MPI_Grequest_free_function *free_fn, MPI_Grequest_cancel_function *cancel_fn, void *extra_state, MPI_Request *request);
int PMPI_Grequest_start(MPI_Grequest_query_function *query_fn, MPI_Grequest_free_function *free_fn, MPI_Grequest_cancel_function *cancel_fn, void *extra_state, MPI_Request *request);
int MPI_Grequest_complete(MPI_Request request);
int PMPI_Grequest_complete(MPI_Request request);
int MPI_Status_set_source(MPI_Status *status, int source);
int PMPI_Status_set_source(MPI_Status *status, int source);
int MPI_Status_set_tag(MPI_Status *status, int tag);
int PMPI_Status_set_tag(MPI_Status *status, int tag);
int MPI_Status_set_error(MPI_Status *status, int err);
int PMPI_Status_set_error(MPI_Status *status, int err);
int MPI_Status_get_source(const MPI_Status *status, int *source);
int PMPI_Status_get_source(const MPI_Status *status, int *source);
int MPI_Status_get_tag(const MPI_Status *status, int *tag);
int PMPI_Status_get_tag(const MPI_Status *status, int *tag);
int MPI_Status_get_error(const MPI_Status *status, int *err);
int PMPI_Status_get_error(const MPI_Status *status, int *err);
int MPI_Alloc_mem(MPI_Aint size, MPI_Info info, void *baseptr);
int PMPI_Alloc_mem(MPI_Aint size, MPI_Info info, void *baseptr);
int MPI_Free_mem(void *base);
int PMPI_Free_mem(void *base);
int MPI_Isendrecv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, int dest, int sendtag, void *recvbuf, int recvcount, MPI_Datatype recvtype, int source, int recvtag, MPI_Comm comm, MPI_Request *request);
int PMPI_Isendrecv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, int dest, int sendtag, void *recvbuf, int recvcount, MPI_Datatype recvtype, int source, int recvtag, MPI_Comm comm, MPI_Request *request);
int MPI_Isendrecv_replace(void *buf, int count, MPI_Datatype datatype, int dest, int sendtag, int source, int recvtag, MPI_Comm comm, MPI_Request *request);
int PMPI_Isendrecv_replace(void *buf, int count, MPI_Datatype datatype, int dest, int sendtag, int source, int recvtag, MPI_Comm comm, MPI_Request *request);
int MPI_Request_get_status_any(int count, MPI_Request array_of_requests[], int *index, int *flag, MPI_Status *status);
int PMPI_Request_get_status_any(int count, MPI_Request array_of_requests[], int *index, int *flag, MPI_Status *status);
int MPI_Request_get_status_all(int count, MPI_Request array_of_requests[], int *flag, MPI_Status array_of_statuses[]);
int PMPI_Request_get_status_all(int count, MPI_Request array_of_requests[], int *flag, MPI_Status array_of_statuses[]);
int MPI_Request_get_status_some(int incount, MPI_Request array_of_requests[], int *outcount, int array_of_indices[], MPI_Status array_of_statuses[]);
int PMPI_Request_get_status_some(int incount, MPI_Request array_of_requests[], int *outcount, int array_of_indices[], MPI_Status array_of_statuses[]);
int MPI_Buffer_attach_c(void *buffer, MPI_Count size);
int PMPI_Buffer_attach_c(void *buffer, MPI_Count size);
int MPI_Buffer_detach_c(void *buffer_addr, MPI_Count *size);
int PMPI_Buffer_detach_c(void *buffer_addr, MPI_Count *size);
int MPI_Buffer_flush(void);
int PMPI_Buffer_flush(void);
int MPI_Buffer_iflush(MPI_Request *request);
int PMPI_Buffer_iflush(MPI_Request *request);
int MPI_Comm_attach_buffer(MPI_Comm comm, void *buffer, int size);
int PMPI_Comm_attach_buffer(MPI_Comm comm, void *buffer, int size);
int MPI_Comm_attach_buffer_c(MPI_Comm comm, void *buffer, MPI_Count size);
int PMPI_Comm_attach_buffer_c(MPI_Comm comm, void *buffer, MPI_Count size);
int MPI_Comm_detach_buffer(MPI_Comm comm, void *buffer_addr, int *size);
int PMPI_Comm_detach_buffer(MPI_Comm comm, void *buffer_addr, int *size);
int MPI_Comm_detach_buffer_c(MPI_Comm comm, void *buffer_addr, MPI_Count *size);
int PMPI_Comm_detach_buffer_c(MPI_Comm comm, void *buffer_addr, MPI_Count *size);
int MPI_Comm_flush_buffer(MPI_Comm comm);
int PMPI_Comm_flush_buffer(MPI_Comm comm);
int MPI_Comm_iflush_buffer(MPI_Comm comm, MPI_Request *request);
int PMPI_Comm_iflush_buffer(MPI_Comm comm, MPI_Request *request);
int MPI_Session_attach_buffer(MPI_Session session, void *buffer, int size);
int PMPI_Session_attach_buffer(MPI_Session session, void *buffer, int size);
int MPI_Session_attach_buffer_c(MPI_Session session, void *buffer,
                                MPI_Count size);
int PMPI_Session_attach_buffer_c(MPI_Session session, void *buffer,
                                 MPI_Count size);
int MPI_Session_detach_buffer(MPI_Session session, void *buffer_addr,
                              int *size);
int PMPI_Session_detach_buffer(MPI_Session session, void *buffer_addr,
                               int *size);
int MPI_Session_detach_buffer_c(MPI_Session session, void *buffer_addr,
                                MPI_Count *size);
int PMPI_Session_detach_buffer_c(MPI_Session session, void *buffer_addr,
                                 MPI_Count *size);
int MPI_Session_flush_buffer(MPI_Session session);
int PMPI_Session_flush_buffer(MPI_Session session);
int MPI_Session_iflush_buffer(MPI_Session session, MPI_Request *request);
int PMPI_Session_iflush_buffer(MPI_Session session, MPI_Request *request);
/* large-count point-to-point */
int MPI_Send_c(const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm);
int PMPI_Send_c(const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm);
int MPI_Ssend_c(const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm);
int PMPI_Ssend_c(const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm);
int MPI_Rsend_c(const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm);
int PMPI_Rsend_c(const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm);
int MPI_Bsend_c(const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm);
int PMPI_Bsend_c(const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm);
int MPI_Isend_c(const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm, MPI_Request *request);
int PMPI_Isend_c(const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm, MPI_Request *request);
int MPI_Issend_c(const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm, MPI_Request *request);
int PMPI_Issend_c(const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm, MPI_Request *request);
int MPI_Irsend_c(const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm, MPI_Request *request);
int PMPI_Irsend_c(const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm, MPI_Request *request);
int MPI_Ibsend_c(const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm, MPI_Request *request);
int PMPI_Ibsend_c(const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm, MPI_Request *request);
int MPI_Recv_c(void *buf, MPI_Count count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm, MPI_Status *status);
int PMPI_Recv_c(void *buf, MPI_Count count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm, MPI_Status *status);
int MPI_Irecv_c(void *buf, MPI_Count count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm, MPI_Request *request);
int PMPI_Irecv_c(void *buf, MPI_Count count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm, MPI_Request *request);
int MPI_Sendrecv_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, int dest, int sendtag, void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, int source, int recvtag, MPI_Comm comm, MPI_Status *status);
int PMPI_Sendrecv_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, int dest, int sendtag, void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, int source, int recvtag, MPI_Comm comm, MPI_Status *status);
int MPI_Sendrecv_replace_c(void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int sendtag, int source, int recvtag, MPI_Comm comm, MPI_Status *status);
int PMPI_Sendrecv_replace_c(void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int sendtag, int source, int recvtag, MPI_Comm comm, MPI_Status *status);
int MPI_Isendrecv_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, int dest, int sendtag, void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, int source, int recvtag, MPI_Comm comm, MPI_Request *request);
int PMPI_Isendrecv_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, int dest, int sendtag, void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, int source, int recvtag, MPI_Comm comm, MPI_Request *request);
int MPI_Isendrecv_replace_c(void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int sendtag, int source, int recvtag, MPI_Comm comm, MPI_Request *request);
int PMPI_Isendrecv_replace_c(void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int sendtag, int source, int recvtag, MPI_Comm comm, MPI_Request *request);
int MPI_Send_init_c(const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm, MPI_Request *request);
int PMPI_Send_init_c(const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm, MPI_Request *request);
int MPI_Ssend_init_c(const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm, MPI_Request *request);
int PMPI_Ssend_init_c(const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm, MPI_Request *request);
int MPI_Rsend_init_c(const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm, MPI_Request *request);
int PMPI_Rsend_init_c(const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm, MPI_Request *request);
int MPI_Bsend_init_c(const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm, MPI_Request *request);
int PMPI_Bsend_init_c(const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm, MPI_Request *request);
int MPI_Recv_init_c(void *buf, MPI_Count count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm, MPI_Request *request);
int PMPI_Recv_init_c(void *buf, MPI_Count count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm, MPI_Request *request);
int MPI_Mrecv_c(void *buf, MPI_Count count, MPI_Datatype datatype, MPI_Message *message, MPI_Status *status);
int PMPI_Mrecv_c(void *buf, MPI_Count count, MPI_Datatype datatype, MPI_Message *message, MPI_Status *status);
int MPI_Imrecv_c(void *buf, MPI_Count count, MPI_Datatype datatype, MPI_Message *message, MPI_Request *request);
int PMPI_Imrecv_c(void *buf, MPI_Count count, MPI_Datatype datatype, MPI_Message *message, MPI_Request *request);
/* Fortran handles and statuses (lib/handle_f.c) */
#define MPI_F_STATUS_SIZE 6
#define MPI_F_SOURCE      0
#define MPI_F_TAG         1
#define MPI_F_ERROR       2
typedef struct {
    MPI_Fint MPI_SOURCE, MPI_TAG, MPI_ERROR;
    MPI_Fint ucmpi_internal[3];
} MPI_F08_status;
MPI_Fint MPI_Request_c2f(MPI_Request request);
MPI_Fint PMPI_Request_c2f(MPI_Request request);
MPI_Request MPI_Request_f2c(MPI_Fint request);
MPI_Request PMPI_Request_f2c(MPI_Fint request);
MPI_Fint MPI_Message_c2f(MPI_Message message);
MPI_Fint PMPI_Message_c2f(MPI_Message message);
MPI_Message MPI_Message_f2c(MPI_Fint message);
MPI_Message PMPI_Message_f2c(MPI_Fint message);
MPI_Fint MPI_Comm_c2f(MPI_Comm comm);
MPI_Fint PMPI_Comm_c2f(MPI_Comm comm);
MPI_Comm MPI_Comm_f2c(MPI_Fint comm);
MPI_Comm PMPI_Comm_f2c(MPI_Fint comm);
MPI_Fint MPI_Type_c2f(MPI_Datatype datatype);
MPI_Fint PMPI_Type_c2f(MPI_Datatype datatype);
MPI_Datatype MPI_Type_f2c(MPI_Fint datatype);
MPI_Datatype PMPI_Type_f2c(MPI_Fint datatype);
MPI_Fint MPI_Group_c2f(MPI_Group group);
MPI_Fint PMPI_Group_c2f(MPI_Group group);
MPI_Group MPI_Group_f2c(MPI_Fint group);
MPI_Group PMPI_Group_f2c(MPI_Fint group);
MPI_Fint MPI_Op_c2f(MPI_Op op);
MPI_Fint PMPI_Op_c2f(MPI_Op op);
MPI_Op MPI_Op_f2c(MPI_Fint op);
MPI_Op PMPI_Op_f2c(MPI_Fint op);
MPI_Fint MPI_Win_c2f(MPI_Win win);
MPI_Fint PMPI_Win_c2f(MPI_Win win);
MPI_Win MPI_Win_f2c(MPI_Fint win);
MPI_Win PMPI_Win_f2c(MPI_Fint win);
MPI_Fint MPI_Info_c2f(MPI_Info info);
MPI_Fint PMPI_Info_c2f(MPI_Info info);
MPI_Info MPI_Info_f2c(MPI_Fint info);
MPI_Info PMPI_Info_f2c(MPI_Fint info);
MPI_Fint MPI_Errhandler_c2f(MPI_Errhandler errhandler);
MPI_Fint PMPI_Errhandler_c2f(MPI_Errhandler errhandler);
MPI_Errhandler MPI_Errhandler_f2c(MPI_Fint errhandler);
MPI_Errhandler PMPI_Errhandler_f2c(MPI_Fint errhandler);
MPI_Fint MPI_Session_c2f(MPI_Session session);
MPI_Fint PMPI_Session_c2f(MPI_Session session);
MPI_Session MPI_Session_f2c(MPI_Fint session);
MPI_Session PMPI_Session_f2c(MPI_Fint session);
int MPI_Status_c2f(const MPI_Status *c_status, MPI_Fint *f_status);
int PMPI_Status_c2f(const MPI_Status *c_status, MPI_Fint *f_status);
int MPI_Status_f2c(const MPI_Fint *f_status, MPI_Status *c_status);
int PMPI_Status_f2c(const MPI_Fint *f_status, MPI_Status *c_status);
int MPI_Status_c2f08(const MPI_Status *c_status, MPI_F08_status *f08_status);
int PMPI_Status_c2f08(const MPI_Status *c_status, MPI_F08_status *f08_status);
int MPI_Status_f082c(const MPI_F08_status *f08_status, MPI_Status *c_status);
int PMPI_Status_f082c(const MPI_F08_status *f08_status, MPI_Status *c_status);
int MPI_Status_f2f08(const MPI_Fint *f_status, MPI_F08_status *f08_status);
int PMPI_Status_f2f08(const MPI_Fint *f_status, MPI_F08_status *f08_status);
int MPI_Status_f082f(const MPI_F08_status *f08_status, MPI_Fint *f_status);
int PMPI_Status_f082f(const MPI_F08_status *f08_status, MPI_Fint *f_status);
/* Sessions (MPI-4): process sets mpi://WORLD and mpi://SELF */
int MPI_Session_init(MPI_Info info, MPI_Errhandler errhandler,
                     MPI_Session *session);
int PMPI_Session_init(MPI_Info info, MPI_Errhandler errhandler,
                      MPI_Session *session);
int MPI_Session_finalize(MPI_Session *session);
int PMPI_Session_finalize(MPI_Session *session);
int MPI_Session_get_num_psets(MPI_Session session, MPI_Info info,
                              int *npset_names);
int PMPI_Session_get_num_psets(MPI_Session session, MPI_Info info,
                               int *npset_names);
int MPI_Session_get_nth_pset(MPI_Session session, MPI_Info info, int n,
                             int *pset_len, char *pset_name);
int PMPI_Session_get_nth_pset(MPI_Session session, MPI_Info info, int n,
                              int *pset_len, char *pset_name);
int MPI_Session_get_info(MPI_Session session, MPI_Info *info_used);
int PMPI_Session_get_info(MPI_Session session, MPI_Info *info_used);
int MPI_Session_get_pset_info(MPI_Session session, const char *pset_name,
                              MPI_Info *info);
int PMPI_Session_get_pset_info(MPI_Session session, const char *pset_name,
                               MPI_Info *info);
int MPI_Group_from_session_pset(MPI_Session session, const char *pset_name,
                                MPI_Group *newgroup);
int PMPI_Group_from_session_pset(MPI_Session session, const char *pset_name,
                                 MPI_Group *newgroup);
int MPI_Session_create_errhandler(MPI_Session_errhandler_function *fn,
                                  MPI_Errhandler *errhandler);
int PMPI_Session_create_errhandler(MPI_Session_errhandler_function *fn,
                                   MPI_Errhandler *errhandler);
int MPI_Session_set_errhandler(MPI_Session session, MPI_Errhandler errhandler);
int PMPI_Session_set_errhandler(MPI_Session session,
                                MPI_Errhandler errhandler);
int MPI_Session_get_errhandler(MPI_Session session,
                               MPI_Errhandler *errhandler);
int PMPI_Session_get_errhandler(MPI_Session session,
                                MPI_Errhandler *errhandler);
int MPI_Session_call_errhandler(MPI_Session session, int errorcode);
int PMPI_Session_call_errhandler(MPI_Session session, int errorcode);

/* Partitioned point-to-point (MPI-4.1 chapter 4) */
int MPI_Psend_init(const void *buf, int partitions, MPI_Count count,
                   MPI_Datatype datatype, int dest, int tag, MPI_Comm comm,
                   MPI_Info info, MPI_Request *request);
int PMPI_Psend_init(const void *buf, int partitions, MPI_Count count,
                    MPI_Datatype datatype, int dest, int tag, MPI_Comm comm,
                    MPI_Info info, MPI_Request *request);
int MPI_Precv_init(void *buf, int partitions, MPI_Count count,
                   MPI_Datatype datatype, int source, int tag, MPI_Comm comm,
                   MPI_Info info, MPI_Request *request);
int PMPI_Precv_init(void *buf, int partitions, MPI_Count count,
                    MPI_Datatype datatype, int source, int tag, MPI_Comm comm,
                    MPI_Info info, MPI_Request *request);
int MPI_Pready(int partition, MPI_Request request);
int PMPI_Pready(int partition, MPI_Request request);
int MPI_Pready_range(int partition_low, int partition_high,
                     MPI_Request request);
int PMPI_Pready_range(int partition_low, int partition_high,
                      MPI_Request request);
int MPI_Pready_list(int length, const int array_of_partitions[],
                    MPI_Request request);
int PMPI_Pready_list(int length, const int array_of_partitions[],
                     MPI_Request request);
int MPI_Parrived(MPI_Request request, int partition, int *flag);
int PMPI_Parrived(MPI_Request request, int partition, int *flag);

/* ---- end section: core ---- */

/* ---- section: datatype ---- */
int MPI_Type_contiguous(int count, MPI_Datatype oldtype, MPI_Datatype
    *newtype);
int PMPI_Type_contiguous(int count, MPI_Datatype oldtype, MPI_Datatype
    *newtype);
int MPI_Type_vector(int count, int blocklength, int stride, MPI_Datatype
    oldtype, MPI_Datatype *newtype);
int PMPI_Type_vector(int count, int blocklength, int stride, MPI_Datatype
    oldtype, MPI_Datatype *newtype);
int MPI_Type_create_hvector(int count, int blocklength, MPI_Aint stride,
    MPI_Datatype oldtype, MPI_Datatype *newtype);
int PMPI_Type_create_hvector(int count, int blocklength, MPI_Aint stride,
    MPI_Datatype oldtype, MPI_Datatype *newtype);
int MPI_Type_indexed(int count, const int array_of_blocklengths[], const int
    array_of_displacements[], MPI_Datatype oldtype, MPI_Datatype *newtype);
int PMPI_Type_indexed(int count, const int array_of_blocklengths[], const int
    array_of_displacements[], MPI_Datatype oldtype, MPI_Datatype *newtype);
int MPI_Type_create_hindexed(int count, const int array_of_blocklengths[],
    const MPI_Aint array_of_displacements[], MPI_Datatype oldtype,
    MPI_Datatype *newtype);
int PMPI_Type_create_hindexed(int count, const int array_of_blocklengths[],
    const MPI_Aint array_of_displacements[], MPI_Datatype oldtype,
    MPI_Datatype *newtype);
int MPI_Type_create_indexed_block(int count, int blocklength, const int
    array_of_displacements[], MPI_Datatype oldtype, MPI_Datatype *newtype);
int PMPI_Type_create_indexed_block(int count, int blocklength, const int
    array_of_displacements[], MPI_Datatype oldtype, MPI_Datatype *newtype);
int MPI_Type_create_hindexed_block(int count, int blocklength, const MPI_Aint
    array_of_displacements[], MPI_Datatype oldtype, MPI_Datatype *newtype);
int PMPI_Type_create_hindexed_block(int count, int blocklength, const MPI_Aint
    array_of_displacements[], MPI_Datatype oldtype, MPI_Datatype *newtype);
int MPI_Type_create_struct(int count, const int array_of_blocklengths[], const
    MPI_Aint array_of_displacements[], const MPI_Datatype array_of_types[],
    MPI_Datatype *newtype);
int PMPI_Type_create_struct(int count, const int array_of_blocklengths[],
    const MPI_Aint array_of_displacements[], const MPI_Datatype
    array_of_types[], MPI_Datatype *newtype);
int MPI_Type_create_subarray(int ndims, const int array_of_sizes[], const int
    array_of_subsizes[], const int array_of_starts[], int order, MPI_Datatype
    oldtype, MPI_Datatype *newtype);
int PMPI_Type_create_subarray(int ndims, const int array_of_sizes[], const int
    array_of_subsizes[], const int array_of_starts[], int order, MPI_Datatype
    oldtype, MPI_Datatype *newtype);
int MPI_Type_create_darray(int size, int rank, int ndims, const int
    array_of_gsizes[], const int array_of_distribs[], const int
    array_of_dargs[], const int array_of_psizes[], int order, MPI_Datatype
    oldtype, MPI_Datatype *newtype);
int PMPI_Type_create_darray(int size, int rank, int ndims, const int
    array_of_gsizes[], const int array_of_distribs[], const int
    array_of_dargs[], const int array_of_psizes[], int order, MPI_Datatype
    oldtype, MPI_Datatype *newtype);
int MPI_Type_create_resized(MPI_Datatype oldtype, MPI_Aint lb, MPI_Aint
    extent, MPI_Datatype *newtype);
int PMPI_Type_create_resized(MPI_Datatype oldtype, MPI_Aint lb, MPI_Aint
    extent, MPI_Datatype *newtype);
int MPI_Type_dup(MPI_Datatype oldtype, MPI_Datatype *newtype);
int PMPI_Type_dup(MPI_Datatype oldtype, MPI_Datatype *newtype);
int MPI_Type_commit(MPI_Datatype *datatype);
int PMPI_Type_commit(MPI_Datatype *datatype);
int MPI_Type_free(MPI_Datatype *datatype);
int PMPI_Type_free(MPI_Datatype *datatype);
int MPI_Type_get_envelope(MPI_Datatype datatype, int *num_integers, int
    *num_addresses, int *num_datatypes, int *combiner);
int PMPI_Type_get_envelope(MPI_Datatype datatype, int *num_integers, int
    *num_addresses, int *num_datatypes, int *combiner);
int MPI_Type_get_contents(MPI_Datatype datatype, int max_integers, int
    max_addresses, int max_datatypes, int array_of_integers[], MPI_Aint
    array_of_addresses[], MPI_Datatype array_of_datatypes[]);
int PMPI_Type_get_contents(MPI_Datatype datatype, int max_integers, int
    max_addresses, int max_datatypes, int array_of_integers[], MPI_Aint
    array_of_addresses[], MPI_Datatype array_of_datatypes[]);
int MPI_Type_set_name(MPI_Datatype datatype, const char *type_name);
int PMPI_Type_set_name(MPI_Datatype datatype, const char *type_name);
int MPI_Type_get_name(MPI_Datatype datatype, char *type_name, int *resultlen);
int PMPI_Type_get_name(MPI_Datatype datatype, char *type_name, int
    *resultlen);
int MPI_Type_size(MPI_Datatype datatype, int *size);
int PMPI_Type_size(MPI_Datatype datatype, int *size);
int MPI_Type_size_x(MPI_Datatype datatype, MPI_Count *size);
int PMPI_Type_size_x(MPI_Datatype datatype, MPI_Count *size);
int MPI_Type_size_c(MPI_Datatype datatype, MPI_Count *size);
int PMPI_Type_size_c(MPI_Datatype datatype, MPI_Count *size);
int MPI_Type_get_extent(MPI_Datatype datatype, MPI_Aint *lb, MPI_Aint
    *extent);
int PMPI_Type_get_extent(MPI_Datatype datatype, MPI_Aint *lb, MPI_Aint
    *extent);
int MPI_Type_get_extent_x(MPI_Datatype datatype, MPI_Count *lb, MPI_Count
    *extent);
int PMPI_Type_get_extent_x(MPI_Datatype datatype, MPI_Count *lb, MPI_Count
    *extent);
int MPI_Type_get_extent_c(MPI_Datatype datatype, MPI_Count *lb, MPI_Count
    *extent);
int PMPI_Type_get_extent_c(MPI_Datatype datatype, MPI_Count *lb, MPI_Count
    *extent);
int MPI_Type_get_true_extent(MPI_Datatype datatype, MPI_Aint *true_lb,
    MPI_Aint *true_extent);
int PMPI_Type_get_true_extent(MPI_Datatype datatype, MPI_Aint *true_lb,
    MPI_Aint *true_extent);
int MPI_Type_get_true_extent_x(MPI_Datatype datatype, MPI_Count *true_lb,
    MPI_Count *true_extent);
int PMPI_Type_get_true_extent_x(MPI_Datatype datatype, MPI_Count *true_lb,
    MPI_Count *true_extent);
int MPI_Type_get_true_extent_c(MPI_Datatype datatype, MPI_Count *true_lb,
    MPI_Count *true_extent);
int PMPI_Type_get_true_extent_c(MPI_Datatype datatype, MPI_Count *true_lb,
    MPI_Count *true_extent);
int MPI_Type_match_size(int typeclass, int size, MPI_Datatype *datatype);
int PMPI_Type_match_size(int typeclass, int size, MPI_Datatype *datatype);
int MPI_Get_count(const MPI_Status *status, MPI_Datatype datatype, int
    *count);
int PMPI_Get_count(const MPI_Status *status, MPI_Datatype datatype, int
    *count);
int MPI_Get_count_c(const MPI_Status *status, MPI_Datatype datatype, MPI_Count
    *count);
int PMPI_Get_count_c(const MPI_Status *status, MPI_Datatype datatype,
    MPI_Count *count);
int MPI_Get_elements(const MPI_Status *status, MPI_Datatype datatype, int
    *count);
int PMPI_Get_elements(const MPI_Status *status, MPI_Datatype datatype, int
    *count);
int MPI_Get_elements_x(const MPI_Status *status, MPI_Datatype datatype,
    MPI_Count *count);
int PMPI_Get_elements_x(const MPI_Status *status, MPI_Datatype datatype,
    MPI_Count *count);
int MPI_Get_elements_c(const MPI_Status *status, MPI_Datatype datatype,
    MPI_Count *count);
int PMPI_Get_elements_c(const MPI_Status *status, MPI_Datatype datatype,
    MPI_Count *count);
int MPI_Status_set_elements(MPI_Status *status, MPI_Datatype datatype, int
    count);
int PMPI_Status_set_elements(MPI_Status *status, MPI_Datatype datatype, int
    count);
int MPI_Status_set_elements_x(MPI_Status *status, MPI_Datatype datatype,
    MPI_Count count);
int PMPI_Status_set_elements_x(MPI_Status *status, MPI_Datatype datatype,
    MPI_Count count);
int MPI_Get_address(const void *location, MPI_Aint *address);
int PMPI_Get_address(const void *location, MPI_Aint *address);
MPI_Aint MPI_Aint_add(MPI_Aint base, MPI_Aint disp);
MPI_Aint PMPI_Aint_add(MPI_Aint base, MPI_Aint disp);
MPI_Aint MPI_Aint_diff(MPI_Aint addr1, MPI_Aint addr2);
MPI_Aint PMPI_Aint_diff(MPI_Aint addr1, MPI_Aint addr2);
int MPI_Type_create_subarray_c(int ndims, const MPI_Count array_of_sizes[],
    const MPI_Count array_of_subsizes[], const MPI_Count array_of_starts[],
    int order, MPI_Datatype oldtype, MPI_Datatype *newtype);
int PMPI_Type_create_subarray_c(int ndims, const MPI_Count array_of_sizes[],
    const MPI_Count array_of_subsizes[], const MPI_Count array_of_starts[],
    int order, MPI_Datatype oldtype, MPI_Datatype *newtype);
int MPI_Type_create_darray_c(int size, int rank, int ndims, const MPI_Count
    array_of_gsizes[], const int array_of_distribs[], const int
    array_of_dargs[], const int array_of_psizes[], int order, MPI_Datatype
    oldtype, MPI_Datatype *newtype);
int PMPI_Type_create_darray_c(int size, int rank, int ndims, const MPI_Count
    array_of_gsizes[], const int array_of_distribs[], const int
    array_of_dargs[], const int array_of_psizes[], int order, MPI_Datatype
    oldtype, MPI_Datatype *newtype);
int MPI_Type_get_value_index(MPI_Datatype value_type, MPI_Datatype index_type,
    MPI_Datatype *pair_type);
int PMPI_Type_get_value_index(MPI_Datatype value_type, MPI_Datatype
    index_type, MPI_Datatype *pair_type);
int MPI_Type_contiguous_c(MPI_Count count, MPI_Datatype oldtype, MPI_Datatype
    *newtype);
int PMPI_Type_contiguous_c(MPI_Count count, MPI_Datatype oldtype, MPI_Datatype
    *newtype);
int MPI_Type_vector_c(MPI_Count count, MPI_Count blocklength, MPI_Count
    stride, MPI_Datatype oldtype, MPI_Datatype *newtype);
int PMPI_Type_vector_c(MPI_Count count, MPI_Count blocklength, MPI_Count
    stride, MPI_Datatype oldtype, MPI_Datatype *newtype);
int MPI_Type_create_hvector_c(MPI_Count count, MPI_Count blocklength,
    MPI_Count stride, MPI_Datatype oldtype, MPI_Datatype *newtype);
int PMPI_Type_create_hvector_c(MPI_Count count, MPI_Count blocklength,
    MPI_Count stride, MPI_Datatype oldtype, MPI_Datatype *newtype);
int MPI_Type_indexed_c(MPI_Count count, const MPI_Count
    array_of_blocklengths[], const MPI_Count array_of_displacements[],
    MPI_Datatype oldtype, MPI_Datatype *newtype);
int PMPI_Type_indexed_c(MPI_Count count, const MPI_Count
    array_of_blocklengths[], const MPI_Count array_of_displacements[],
    MPI_Datatype oldtype, MPI_Datatype *newtype);
int MPI_Type_create_hindexed_c(MPI_Count count, const MPI_Count
    array_of_blocklengths[], const MPI_Count array_of_displacements[],
    MPI_Datatype oldtype, MPI_Datatype *newtype);
int PMPI_Type_create_hindexed_c(MPI_Count count, const MPI_Count
    array_of_blocklengths[], const MPI_Count array_of_displacements[],
    MPI_Datatype oldtype, MPI_Datatype *newtype);
int MPI_Type_create_indexed_block_c(MPI_Count count, MPI_Count blocklength,
    const MPI_Count array_of_displacements[], MPI_Datatype oldtype,
    MPI_Datatype *newtype);
int PMPI_Type_create_indexed_block_c(MPI_Count count, MPI_Count blocklength,
    const MPI_Count array_of_displacements[], MPI_Datatype oldtype,
    MPI_Datatype *newtype);
int MPI_Type_create_hindexed_block_c(MPI_Count count, MPI_Count blocklength,
    const MPI_Count array_of_displacements[], MPI_Datatype oldtype,
    MPI_Datatype *newtype);
int PMPI_Type_create_hindexed_block_c(MPI_Count count, MPI_Count blocklength,
    const MPI_Count array_of_displacements[], MPI_Datatype oldtype,
    MPI_Datatype *newtype);
int MPI_Type_create_struct_c(MPI_Count count, const MPI_Count
    array_of_blocklengths[], const MPI_Count array_of_displacements[], const
    MPI_Datatype array_of_types[], MPI_Datatype *newtype);
int PMPI_Type_create_struct_c(MPI_Count count, const MPI_Count
    array_of_blocklengths[], const MPI_Count array_of_displacements[], const
    MPI_Datatype array_of_types[], MPI_Datatype *newtype);
int MPI_Type_create_resized_c(MPI_Datatype oldtype, MPI_Count lb, MPI_Count
    extent, MPI_Datatype *newtype);
int PMPI_Type_create_resized_c(MPI_Datatype oldtype, MPI_Count lb, MPI_Count
    extent, MPI_Datatype *newtype);
int MPI_Type_get_envelope_c(MPI_Datatype datatype, MPI_Count *num_integers,
    MPI_Count *num_addresses, MPI_Count *num_large_counts, MPI_Count
    *num_datatypes, int *combiner);
int PMPI_Type_get_envelope_c(MPI_Datatype datatype, MPI_Count *num_integers,
    MPI_Count *num_addresses, MPI_Count *num_large_counts, MPI_Count
    *num_datatypes, int *combiner);
int MPI_Type_get_contents_c(MPI_Datatype datatype, MPI_Count max_integers,
    MPI_Count max_addresses, MPI_Count max_large_counts, MPI_Count
    max_datatypes, int array_of_integers[], MPI_Aint array_of_addresses[],
    MPI_Count array_of_large_counts[], MPI_Datatype array_of_datatypes[]);
int PMPI_Type_get_contents_c(MPI_Datatype datatype, MPI_Count max_integers,
    MPI_Count max_addresses, MPI_Count max_large_counts, MPI_Count
    max_datatypes, int array_of_integers[], MPI_Aint array_of_addresses[],
    MPI_Count array_of_large_counts[], MPI_Datatype array_of_datatypes[]);
int MPI_Status_set_elements_c(MPI_Status *status, MPI_Datatype datatype,
    MPI_Count count);
int PMPI_Status_set_elements_c(MPI_Status *status, MPI_Datatype datatype,
    MPI_Count count);
int MPI_Type_create_f90_real(int p, int r, MPI_Datatype *newtype);
int PMPI_Type_create_f90_real(int p, int r, MPI_Datatype *newtype);
int MPI_Type_create_f90_complex(int p, int r, MPI_Datatype *newtype);
int PMPI_Type_create_f90_complex(int p, int r, MPI_Datatype *newtype);
int MPI_Type_create_f90_integer(int r, MPI_Datatype *newtype);
int PMPI_Type_create_f90_integer(int r, MPI_Datatype *newtype);
int MPI_Pack(const void *inbuf, int incount, MPI_Datatype datatype, void
    *outbuf, int outsize, int *position, MPI_Comm comm);
int PMPI_Pack(const void *inbuf, int incount, MPI_Datatype datatype, void
    *outbuf, int outsize, int *position, MPI_Comm comm);
int MPI_Pack_c(const void *inbuf, MPI_Count incount, MPI_Datatype datatype,
    void *outbuf, MPI_Count outsize, MPI_Count *position, MPI_Comm comm);
int PMPI_Pack_c(const void *inbuf, MPI_Count incount, MPI_Datatype datatype,
    void *outbuf, MPI_Count outsize, MPI_Count *position, MPI_Comm comm);
int MPI_Unpack(const void *inbuf, int insize, int *position, void *outbuf, int
    outcount, MPI_Datatype datatype, MPI_Comm comm);
int PMPI_Unpack(const void *inbuf, int insize, int *position, void *outbuf,
    int outcount, MPI_Datatype datatype, MPI_Comm comm);
int MPI_Unpack_c(const void *inbuf, MPI_Count insize, MPI_Count *position,
    void *outbuf, MPI_Count outcount, MPI_Datatype datatype, MPI_Comm comm);
int PMPI_Unpack_c(const void *inbuf, MPI_Count insize, MPI_Count *position,
    void *outbuf, MPI_Count outcount, MPI_Datatype datatype, MPI_Comm comm);
int MPI_Pack_size(int incount, MPI_Datatype datatype, MPI_Comm comm, int
    *size);
int PMPI_Pack_size(int incount, MPI_Datatype datatype, MPI_Comm comm, int
    *size);
int MPI_Pack_size_c(MPI_Count incount, MPI_Datatype datatype, MPI_Comm comm,
    MPI_Count *size);
int PMPI_Pack_size_c(MPI_Count incount, MPI_Datatype datatype, MPI_Comm comm,
    MPI_Count *size);
int MPI_Pack_external(const char datarep[], const void *inbuf, int incount,
    MPI_Datatype datatype, void *outbuf, MPI_Aint outsize, MPI_Aint
    *position);
int PMPI_Pack_external(const char datarep[], const void *inbuf, int incount,
    MPI_Datatype datatype, void *outbuf, MPI_Aint outsize, MPI_Aint
    *position);
int MPI_Unpack_external(const char datarep[], const void *inbuf, MPI_Aint
    insize, MPI_Aint *position, void *outbuf, int outcount, MPI_Datatype
    datatype);
int PMPI_Unpack_external(const char datarep[], const void *inbuf, MPI_Aint
    insize, MPI_Aint *position, void *outbuf, int outcount, MPI_Datatype
    datatype);
int MPI_Pack_external_size(const char datarep[], int incount, MPI_Datatype
    datatype, MPI_Aint *size);
int PMPI_Pack_external_size(const char datarep[], int incount, MPI_Datatype
    datatype, MPI_Aint *size);
int MPI_Pack_external_c(const char datarep[], const void *inbuf,
    MPI_Count incount, MPI_Datatype datatype, void *outbuf, MPI_Count outsize,
    MPI_Count *position);
int PMPI_Pack_external_c(const char datarep[], const void *inbuf,
    MPI_Count incount, MPI_Datatype datatype, void *outbuf, MPI_Count outsize,
    MPI_Count *position);
int MPI_Unpack_external_c(const char datarep[], const void *inbuf,
    MPI_Count insize, MPI_Count *position, void *outbuf, MPI_Count outcount,
    MPI_Datatype datatype);
int PMPI_Unpack_external_c(const char datarep[], const void *inbuf,
    MPI_Count insize, MPI_Count *position, void *outbuf, MPI_Count outcount,
    MPI_Datatype datatype);
int MPI_Pack_external_size_c(const char datarep[], MPI_Count incount,
    MPI_Datatype datatype, MPI_Count *size);
int PMPI_Pack_external_size_c(const char datarep[], MPI_Count incount,
    MPI_Datatype datatype, MPI_Count *size);
/* ---- end section: datatype ---- */

/* ---- section: comm (groups, comms, attrs, info, topo, errhandlers) ---- */
/* Predefined attribute callbacks (real functions of the library). */
int ucmpi_comm_null_copy_fn(MPI_Comm, int, void *, void *, void *, int *);
int ucmpi_comm_dup_fn(MPI_Comm, int, void *, void *, void *, int *);
int ucmpi_comm_null_delete_fn(MPI_Comm, int, void *, void *);
int ucmpi_type_null_copy_fn(MPI_Datatype, int, void *, void *, void *, int *);
int ucmpi_type_dup_fn(MPI_Datatype, int, void *, void *, void *, int *);
int ucmpi_type_null_delete_fn(MPI_Datatype, int, void *, void *);
int ucmpi_win_null_copy_fn(MPI_Win, int, void *, void *, void *, int *);
int ucmpi_win_dup_fn(MPI_Win, int, void *, void *, void *, int *);
int ucmpi_win_null_delete_fn(MPI_Win, int, void *, void *);
#define MPI_COMM_NULL_COPY_FN   ucmpi_comm_null_copy_fn
#define MPI_COMM_DUP_FN         ucmpi_comm_dup_fn
#define MPI_COMM_NULL_DELETE_FN ucmpi_comm_null_delete_fn
#define MPI_TYPE_NULL_COPY_FN   ucmpi_type_null_copy_fn
#define MPI_TYPE_DUP_FN         ucmpi_type_dup_fn
#define MPI_TYPE_NULL_DELETE_FN ucmpi_type_null_delete_fn
#define MPI_WIN_NULL_COPY_FN    ucmpi_win_null_copy_fn
#define MPI_WIN_DUP_FN          ucmpi_win_dup_fn
#define MPI_WIN_NULL_DELETE_FN  ucmpi_win_null_delete_fn
#define MPI_NULL_COPY_FN        ucmpi_comm_null_copy_fn
#define MPI_DUP_FN              ucmpi_comm_dup_fn
#define MPI_NULL_DELETE_FN      ucmpi_comm_null_delete_fn

/* attributes */
int MPI_Comm_create_keyval(MPI_Comm_copy_attr_function *comm_copy_attr_fn,
                           MPI_Comm_delete_attr_function *comm_delete_attr_fn,
                           int *comm_keyval, void *extra_state);
int PMPI_Comm_create_keyval(MPI_Comm_copy_attr_function *comm_copy_attr_fn,
                            MPI_Comm_delete_attr_function *comm_delete_attr_fn,
                            int *comm_keyval, void *extra_state);
int MPI_Comm_free_keyval(int *comm_keyval);
int PMPI_Comm_free_keyval(int *comm_keyval);
int MPI_Comm_set_attr(MPI_Comm comm, int comm_keyval, void *attribute_val);
int PMPI_Comm_set_attr(MPI_Comm comm, int comm_keyval, void *attribute_val);
int MPI_Comm_get_attr(MPI_Comm comm, int comm_keyval, void *attribute_val,
                      int *flag);
int PMPI_Comm_get_attr(MPI_Comm comm, int comm_keyval, void *attribute_val,
                       int *flag);
int MPI_Comm_delete_attr(MPI_Comm comm, int comm_keyval);
int PMPI_Comm_delete_attr(MPI_Comm comm, int comm_keyval);
int MPI_Keyval_create(MPI_Copy_function *copy_fn,
                      MPI_Delete_function *delete_fn, int *keyval,
                      void *extra_state);
int PMPI_Keyval_create(MPI_Copy_function *copy_fn,
                       MPI_Delete_function *delete_fn, int *keyval,
                       void *extra_state);
int MPI_Keyval_free(int *keyval);
int PMPI_Keyval_free(int *keyval);
int MPI_Attr_put(MPI_Comm comm, int keyval, void *attribute_val);
int PMPI_Attr_put(MPI_Comm comm, int keyval, void *attribute_val);
int MPI_Attr_get(MPI_Comm comm, int keyval, void *attribute_val, int *flag);
int PMPI_Attr_get(MPI_Comm comm, int keyval, void *attribute_val, int *flag);
int MPI_Attr_delete(MPI_Comm comm, int keyval);
int PMPI_Attr_delete(MPI_Comm comm, int keyval);
int MPI_Type_create_keyval(MPI_Type_copy_attr_function *type_copy_attr_fn,
                           MPI_Type_delete_attr_function *type_delete_attr_fn,
                           int *type_keyval, void *extra_state);
int PMPI_Type_create_keyval(MPI_Type_copy_attr_function *type_copy_attr_fn,
                            MPI_Type_delete_attr_function *type_delete_attr_fn,
                            int *type_keyval, void *extra_state);
int MPI_Type_free_keyval(int *type_keyval);
int PMPI_Type_free_keyval(int *type_keyval);
int MPI_Type_set_attr(MPI_Datatype datatype, int type_keyval,
                      void *attribute_val);
int PMPI_Type_set_attr(MPI_Datatype datatype, int type_keyval,
                       void *attribute_val);
int MPI_Type_get_attr(MPI_Datatype datatype, int type_keyval,
                      void *attribute_val, int *flag);
int PMPI_Type_get_attr(MPI_Datatype datatype, int type_keyval,
                       void *attribute_val, int *flag);
int MPI_Type_delete_attr(MPI_Datatype datatype, int type_keyval);
int PMPI_Type_delete_attr(MPI_Datatype datatype, int type_keyval);
int MPI_Win_create_keyval(MPI_Win_copy_attr_function *win_copy_attr_fn,
                          MPI_Win_delete_attr_function *win_delete_attr_fn,
                          int *win_keyval, void *extra_state);
int PMPI_Win_create_keyval(MPI_Win_copy_attr_function *win_copy_attr_fn,
                           MPI_Win_delete_attr_function *win_delete_attr_fn,
                           int *win_keyval, void *extra_state);
int MPI_Win_free_keyval(int *win_keyval);
int PMPI_Win_free_keyval(int *win_keyval);
int MPI_Win_set_attr(MPI_Win win, int win_keyval, void *attribute_val);
int PMPI_Win_set_attr(MPI_Win win, int win_keyval, void *attribute_val);
int MPI_Win_get_attr(MPI_Win win, int win_keyval, void *attribute_val,
                     int *flag);
int PMPI_Win_get_attr(MPI_Win win, int win_keyval, void *attribute_val,
                      int *flag);
int MPI_Win_delete_attr(MPI_Win win, int win_keyval);
int PMPI_Win_delete_attr(MPI_Win win, int win_keyval);

/* info */
int MPI_Info_create(MPI_Info *info);
int PMPI_Info_create(MPI_Info *info);
int MPI_Info_create_env(int argc, char *argv[], MPI_Info *info);
int PMPI_Info_create_env(int argc, char *argv[], MPI_Info *info);
int MPI_Info_free(MPI_Info *info);
int PMPI_Info_free(MPI_Info *info);
int MPI_Info_dup(MPI_Info info, MPI_Info *newinfo);
int PMPI_Info_dup(MPI_Info info, MPI_Info *newinfo);
int MPI_Info_set(MPI_Info info, const char *key, const char *value);
int PMPI_Info_set(MPI_Info info, const char *key, const char *value);
int MPI_Info_delete(MPI_Info info, const char *key);
int PMPI_Info_delete(MPI_Info info, const char *key);
int MPI_Info_get(MPI_Info info, const char *key, int valuelen, char *value,
                 int *flag);
int PMPI_Info_get(MPI_Info info, const char *key, int valuelen, char *value,
                  int *flag);
int MPI_Info_get_valuelen(MPI_Info info, const char *key, int *valuelen,
                          int *flag);
int PMPI_Info_get_valuelen(MPI_Info info, const char *key, int *valuelen,
                           int *flag);
int MPI_Info_get_string(MPI_Info info, const char *key, int *buflen,
                        char *value, int *flag);
int PMPI_Info_get_string(MPI_Info info, const char *key, int *buflen,
                         char *value, int *flag);
int MPI_Info_get_nkeys(MPI_Info info, int *nkeys);
int PMPI_Info_get_nkeys(MPI_Info info, int *nkeys);
int MPI_Info_get_nthkey(MPI_Info info, int n, char *key);
int PMPI_Info_get_nthkey(MPI_Info info, int n, char *key);
/* groups */
int MPI_Group_size(MPI_Group group, int *size);
int PMPI_Group_size(MPI_Group group, int *size);
int MPI_Group_rank(MPI_Group group, int *rank);
int PMPI_Group_rank(MPI_Group group, int *rank);
int MPI_Group_free(MPI_Group *group);
int PMPI_Group_free(MPI_Group *group);
int MPI_Group_incl(MPI_Group group, int n, const int ranks[], MPI_Group
                   *newgroup);
int PMPI_Group_incl(MPI_Group group, int n, const int ranks[], MPI_Group
                    *newgroup);
int MPI_Group_excl(MPI_Group group, int n, const int ranks[], MPI_Group
                   *newgroup);
int PMPI_Group_excl(MPI_Group group, int n, const int ranks[], MPI_Group
                    *newgroup);
int MPI_Group_range_incl(MPI_Group group, int n, int ranges[][3], MPI_Group
                         *newgroup);
int PMPI_Group_range_incl(MPI_Group group, int n, int ranges[][3], MPI_Group
                          *newgroup);
int MPI_Group_range_excl(MPI_Group group, int n, int ranges[][3], MPI_Group
                         *newgroup);
int PMPI_Group_range_excl(MPI_Group group, int n, int ranges[][3], MPI_Group
                          *newgroup);
int MPI_Group_union(MPI_Group group1, MPI_Group group2, MPI_Group *newgroup);
int PMPI_Group_union(MPI_Group group1, MPI_Group group2, MPI_Group *newgroup);
int MPI_Group_intersection(MPI_Group group1, MPI_Group group2, MPI_Group
                           *newgroup);
int PMPI_Group_intersection(MPI_Group group1, MPI_Group group2, MPI_Group
                            *newgroup);
int MPI_Group_difference(MPI_Group group1, MPI_Group group2, MPI_Group
                         *newgroup);
int PMPI_Group_difference(MPI_Group group1, MPI_Group group2, MPI_Group
                          *newgroup);
int MPI_Group_translate_ranks(MPI_Group group1, int n, const int ranks1[],
                              MPI_Group group2, int ranks2[]);
int PMPI_Group_translate_ranks(MPI_Group group1, int n, const int ranks1[],
                               MPI_Group group2, int ranks2[]);
int MPI_Group_compare(MPI_Group group1, MPI_Group group2, int *result);
int PMPI_Group_compare(MPI_Group group1, MPI_Group group2, int *result);
int MPI_Comm_group(MPI_Comm comm, MPI_Group *group);
int PMPI_Comm_group(MPI_Comm comm, MPI_Group *group);

/* communicators */
int MPI_Comm_dup(MPI_Comm comm, MPI_Comm *newcomm);
int PMPI_Comm_dup(MPI_Comm comm, MPI_Comm *newcomm);
int MPI_Comm_dup_with_info(MPI_Comm comm, MPI_Info info, MPI_Comm *newcomm);
int PMPI_Comm_dup_with_info(MPI_Comm comm, MPI_Info info, MPI_Comm *newcomm);
int MPI_Comm_idup(MPI_Comm comm, MPI_Comm *newcomm, MPI_Request *request);
int PMPI_Comm_idup(MPI_Comm comm, MPI_Comm *newcomm, MPI_Request *request);
int MPI_Comm_idup_with_info(MPI_Comm comm, MPI_Info info, MPI_Comm *newcomm,
                            MPI_Request *request);
int PMPI_Comm_idup_with_info(MPI_Comm comm, MPI_Info info, MPI_Comm *newcomm,
                             MPI_Request *request);
int MPI_Comm_create(MPI_Comm comm, MPI_Group group, MPI_Comm *newcomm);
int PMPI_Comm_create(MPI_Comm comm, MPI_Group group, MPI_Comm *newcomm);
int MPI_Comm_create_group(MPI_Comm comm, MPI_Group group, int tag, MPI_Comm
                          *newcomm);
int PMPI_Comm_create_group(MPI_Comm comm, MPI_Group group, int tag, MPI_Comm
                           *newcomm);
int MPI_Comm_split(MPI_Comm comm, int color, int key, MPI_Comm *newcomm);
int PMPI_Comm_split(MPI_Comm comm, int color, int key, MPI_Comm *newcomm);
int MPI_Comm_split_type(MPI_Comm comm, int split_type, int key, MPI_Info info,
                        MPI_Comm *newcomm);
int PMPI_Comm_split_type(MPI_Comm comm, int split_type, int key, MPI_Info info,
                         MPI_Comm *newcomm);
int MPI_Get_hw_resource_info(MPI_Info *hw_info);
int PMPI_Get_hw_resource_info(MPI_Info *hw_info);
int MPI_Comm_free(MPI_Comm *comm);
int PMPI_Comm_free(MPI_Comm *comm);
int MPI_Comm_disconnect(MPI_Comm *comm);
int PMPI_Comm_disconnect(MPI_Comm *comm);
int MPI_Comm_get_parent(MPI_Comm *parent);
int PMPI_Comm_get_parent(MPI_Comm *parent);
int MPI_Comm_spawn(const char *command, char *argv[], int maxprocs,
                   MPI_Info info, int root, MPI_Comm comm,
                   MPI_Comm *intercomm, int array_of_errcodes[]);
int PMPI_Comm_spawn(const char *command, char *argv[], int maxprocs,
                    MPI_Info info, int root, MPI_Comm comm,
                    MPI_Comm *intercomm, int array_of_errcodes[]);
int MPI_Comm_spawn_multiple(int count, char *array_of_commands[],
                            char **array_of_argv[],
                            const int array_of_maxprocs[],
                            const MPI_Info array_of_info[], int root,
                            MPI_Comm comm, MPI_Comm *intercomm,
                            int array_of_errcodes[]);
int PMPI_Comm_spawn_multiple(int count, char *array_of_commands[],
                             char **array_of_argv[],
                             const int array_of_maxprocs[],
                             const MPI_Info array_of_info[], int root,
                             MPI_Comm comm, MPI_Comm *intercomm,
                             int array_of_errcodes[]);
int MPI_Publish_name(const char *service_name, MPI_Info info,
                     const char *port_name);
int PMPI_Publish_name(const char *service_name, MPI_Info info,
                      const char *port_name);
int MPI_Unpublish_name(const char *service_name, MPI_Info info,
                       const char *port_name);
int PMPI_Unpublish_name(const char *service_name, MPI_Info info,
                        const char *port_name);
int MPI_Lookup_name(const char *service_name, MPI_Info info, char *port_name);
int PMPI_Lookup_name(const char *service_name, MPI_Info info,
                     char *port_name);
int MPI_Comm_join(int fd, MPI_Comm *intercomm);
int PMPI_Comm_join(int fd, MPI_Comm *intercomm);
int MPI_Open_port(MPI_Info info, char *port_name);
int PMPI_Open_port(MPI_Info info, char *port_name);
int MPI_Close_port(const char *port_name);
int PMPI_Close_port(const char *port_name);
int MPI_Comm_accept(const char *port_name, MPI_Info info, int root,
                    MPI_Comm comm, MPI_Comm *newcomm);
int PMPI_Comm_accept(const char *port_name, MPI_Info info, int root,
                     MPI_Comm comm, MPI_Comm *newcomm);
int MPI_Comm_connect(const char *port_name, MPI_Info info, int root,
                     MPI_Comm comm, MPI_Comm *newcomm);
int PMPI_Comm_connect(const char *port_name, MPI_Info info, int root,
                      MPI_Comm comm, MPI_Comm *newcomm);
int MPI_Comm_compare(MPI_Comm comm1, MPI_Comm comm2, int *result);
int PMPI_Comm_compare(MPI_Comm comm1, MPI_Comm comm2, int *result);
int MPI_Comm_set_name(MPI_Comm comm, const char *comm_name);
int PMPI_Comm_set_name(MPI_Comm comm, const char *comm_name);
int MPI_Comm_get_name(MPI_Comm comm, char *comm_name, int *resultlen);
int PMPI_Comm_get_name(MPI_Comm comm, char *comm_name, int *resultlen);
int MPI_Comm_set_info(MPI_Comm comm, MPI_Info info);
int PMPI_Comm_set_info(MPI_Comm comm, MPI_Info info);
int MPI_Comm_get_info(MPI_Comm comm, MPI_Info *info_used);
int PMPI_Comm_get_info(MPI_Comm comm, MPI_Info *info_used);
int MPI_Comm_test_inter(MPI_Comm comm, int *flag);
int PMPI_Comm_test_inter(MPI_Comm comm, int *flag);
int MPI_Comm_remote_size(MPI_Comm comm, int *size);
int PMPI_Comm_remote_size(MPI_Comm comm, int *size);
int MPI_Comm_remote_group(MPI_Comm comm, MPI_Group *group);
int PMPI_Comm_remote_group(MPI_Comm comm, MPI_Group *group);
int MPI_Comm_create_from_group(MPI_Group group, const char *stringtag,
                               MPI_Info info, MPI_Errhandler errhandler,
                               MPI_Comm *newcomm);
int PMPI_Comm_create_from_group(MPI_Group group, const char *stringtag,
                                MPI_Info info, MPI_Errhandler errhandler,
                                MPI_Comm *newcomm);
int MPI_Intercomm_create_from_groups(MPI_Group local_group, int local_leader,
                                     MPI_Group remote_group,
                                     int remote_leader, const char *stringtag,
                                     MPI_Info info, MPI_Errhandler errhandler,
                                     MPI_Comm *newintercomm);
int PMPI_Intercomm_create_from_groups(MPI_Group local_group, int local_leader,
                                      MPI_Group remote_group,
                                      int remote_leader, const char *stringtag,
                                      MPI_Info info, MPI_Errhandler errhandler,
                                      MPI_Comm *newintercomm);
int MPI_Intercomm_create(MPI_Comm local_comm, int local_leader, MPI_Comm
                         peer_comm, int remote_leader, int tag, MPI_Comm
                         *newintercomm);
int PMPI_Intercomm_create(MPI_Comm local_comm, int local_leader, MPI_Comm
                          peer_comm, int remote_leader, int tag, MPI_Comm
                          *newintercomm);
int MPI_Intercomm_merge(MPI_Comm intercomm, int high, MPI_Comm *newintracomm);
int PMPI_Intercomm_merge(MPI_Comm intercomm, int high, MPI_Comm *newintracomm);

/* error handlers */
int MPI_Comm_create_errhandler(MPI_Comm_errhandler_function
                               *comm_errhandler_fn, MPI_Errhandler
                               *errhandler);
int PMPI_Comm_create_errhandler(MPI_Comm_errhandler_function
                                *comm_errhandler_fn, MPI_Errhandler
                                *errhandler);
int MPI_Comm_set_errhandler(MPI_Comm comm, MPI_Errhandler errhandler);
int PMPI_Comm_set_errhandler(MPI_Comm comm, MPI_Errhandler errhandler);
int MPI_Comm_get_errhandler(MPI_Comm comm, MPI_Errhandler *errhandler);
int PMPI_Comm_get_errhandler(MPI_Comm comm, MPI_Errhandler *errhandler);
int MPI_Comm_call_errhandler(MPI_Comm comm, int errorcode);
int PMPI_Comm_call_errhandler(MPI_Comm comm, int errorcode);
int MPI_Win_create_errhandler(MPI_Win_errhandler_function *win_errhandler_fn,
                              MPI_Errhandler *errhandler);
int PMPI_Win_create_errhandler(MPI_Win_errhandler_function *win_errhandler_fn,
                               MPI_Errhandler *errhandler);
int MPI_Win_set_errhandler(MPI_Win win, MPI_Errhandler errhandler);
int PMPI_Win_set_errhandler(MPI_Win win, MPI_Errhandler errhandler);
int MPI_Win_get_errhandler(MPI_Win win, MPI_Errhandler *errhandler);
int PMPI_Win_get_errhandler(MPI_Win win, MPI_Errhandler *errhandler);
int MPI_Win_call_errhandler(MPI_Win win, int errorcode);
int PMPI_Win_call_errhandler(MPI_Win win, int errorcode);
int MPI_Errhandler_free(MPI_Errhandler *errhandler);
int PMPI_Errhandler_free(MPI_Errhandler *errhandler);

/* topologies */
int MPI_Cart_create(MPI_Comm comm_old, int ndims, const int dims[], const int
                    periods[], int reorder, MPI_Comm *comm_cart);
int PMPI_Cart_create(MPI_Comm comm_old, int ndims, const int dims[], const int
                     periods[], int reorder, MPI_Comm *comm_cart);
int MPI_Cart_coords(MPI_Comm comm, int rank, int maxdims, int coords[]);
int PMPI_Cart_coords(MPI_Comm comm, int rank, int maxdims, int coords[]);
int MPI_Cart_rank(MPI_Comm comm, const int coords[], int *rank);
int PMPI_Cart_rank(MPI_Comm comm, const int coords[], int *rank);
int MPI_Cart_shift(MPI_Comm comm, int direction, int disp, int *rank_source,
                   int *rank_dest);
int PMPI_Cart_shift(MPI_Comm comm, int direction, int disp, int *rank_source,
                    int *rank_dest);
int MPI_Cart_sub(MPI_Comm comm, const int remain_dims[], MPI_Comm *newcomm);
int PMPI_Cart_sub(MPI_Comm comm, const int remain_dims[], MPI_Comm *newcomm);
int MPI_Cart_map(MPI_Comm comm, int ndims, const int dims[], const int
                 periods[], int *newrank);
int PMPI_Cart_map(MPI_Comm comm, int ndims, const int dims[], const int
                  periods[], int *newrank);
int MPI_Cart_get(MPI_Comm comm, int maxdims, int dims[], int periods[], int
                 coords[]);
int PMPI_Cart_get(MPI_Comm comm, int maxdims, int dims[], int periods[], int
                  coords[]);
int MPI_Cartdim_get(MPI_Comm comm, int *ndims);
int PMPI_Cartdim_get(MPI_Comm comm, int *ndims);
int MPI_Dims_create(int nnodes, int ndims, int dims[]);
int PMPI_Dims_create(int nnodes, int ndims, int dims[]);
int MPI_Graph_create(MPI_Comm comm_old, int nnodes, const int index[], const
                     int edges[], int reorder, MPI_Comm *comm_graph);
int PMPI_Graph_create(MPI_Comm comm_old, int nnodes, const int index[], const
                      int edges[], int reorder, MPI_Comm *comm_graph);
int MPI_Graphdims_get(MPI_Comm comm, int *nnodes, int *nedges);
int PMPI_Graphdims_get(MPI_Comm comm, int *nnodes, int *nedges);
int MPI_Graph_get(MPI_Comm comm, int maxindex, int maxedges, int index[], int
                  edges[]);
int PMPI_Graph_get(MPI_Comm comm, int maxindex, int maxedges, int index[], int
                   edges[]);
int MPI_Graph_neighbors_count(MPI_Comm comm, int rank, int *nneighbors);
int PMPI_Graph_neighbors_count(MPI_Comm comm, int rank, int *nneighbors);
int MPI_Graph_neighbors(MPI_Comm comm, int rank, int maxneighbors, int
                        neighbors[]);
int PMPI_Graph_neighbors(MPI_Comm comm, int rank, int maxneighbors, int
                         neighbors[]);
int MPI_Graph_map(MPI_Comm comm, int nnodes, const int index[], const int
                  edges[], int *newrank);
int PMPI_Graph_map(MPI_Comm comm, int nnodes, const int index[], const int
                   edges[], int *newrank);
int MPI_Dist_graph_create(MPI_Comm comm_old, int n, const int sources[], const
                          int degrees[], const int destinations[], const int
                          weights[], MPI_Info info, int reorder, MPI_Comm
                          *comm_dist_graph);
int PMPI_Dist_graph_create(MPI_Comm comm_old, int n, const int sources[], const
                           int degrees[], const int destinations[], const int
                           weights[], MPI_Info info, int reorder, MPI_Comm
                           *comm_dist_graph);
int MPI_Dist_graph_create_adjacent(MPI_Comm comm_old, int indegree, const int
                                   sources[], const int *sourceweights, int
                                   outdegree, const int destinations[], const
                                   int *destweights, MPI_Info info, int
                                   reorder, MPI_Comm *comm_dist_graph);
int PMPI_Dist_graph_create_adjacent(MPI_Comm comm_old, int indegree, const int
                                    sources[], const int *sourceweights, int
                                    outdegree, const int destinations[], const
                                    int *destweights, MPI_Info info, int
                                    reorder, MPI_Comm *comm_dist_graph);
int MPI_Dist_graph_neighbors_count(MPI_Comm comm, int *indegree, int
                                   *outdegree, int *weighted);
int PMPI_Dist_graph_neighbors_count(MPI_Comm comm, int *indegree, int
                                    *outdegree, int *weighted);
int MPI_Dist_graph_neighbors(MPI_Comm comm, int maxindegree, int sources[], int
                             sourceweights[], int maxoutdegree, int
                             destinations[], int *destweights);
int PMPI_Dist_graph_neighbors(MPI_Comm comm, int maxindegree, int sources[],
                              int *sourceweights, int maxoutdegree, int
                              destinations[], int *destweights);
int MPI_Topo_test(MPI_Comm comm, int *status);
int PMPI_Topo_test(MPI_Comm comm, int *status);
/* ---- end section: comm ---- */

/* ---- section: coll (collectives, ops) ---- */
/* collA: barrier, bcast, reduce, allreduce, reduce_scatter(_block), scan, exscan */
int MPI_Barrier(MPI_Comm comm);
int PMPI_Barrier(MPI_Comm comm);
int MPI_Ibarrier(MPI_Comm comm, MPI_Request *request);
int PMPI_Ibarrier(MPI_Comm comm, MPI_Request *request);
int MPI_Barrier_init(MPI_Comm comm, MPI_Info info, MPI_Request *request);
int PMPI_Barrier_init(MPI_Comm comm, MPI_Info info, MPI_Request *request);
int MPI_Bcast(void *buffer, int count, MPI_Datatype datatype, int root,
    MPI_Comm comm);
int PMPI_Bcast(void *buffer, int count, MPI_Datatype datatype, int root,
    MPI_Comm comm);
int MPI_Ibcast(void *buffer, int count, MPI_Datatype datatype, int root,
    MPI_Comm comm, MPI_Request *request);
int PMPI_Ibcast(void *buffer, int count, MPI_Datatype datatype, int root,
    MPI_Comm comm, MPI_Request *request);
int MPI_Bcast_init(void *buffer, int count, MPI_Datatype datatype, int root,
    MPI_Comm comm, MPI_Info info, MPI_Request *request);
int PMPI_Bcast_init(void *buffer, int count, MPI_Datatype datatype, int root,
    MPI_Comm comm, MPI_Info info, MPI_Request *request);
int MPI_Reduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype
    datatype, MPI_Op op, int root, MPI_Comm comm);
int PMPI_Reduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype
    datatype, MPI_Op op, int root, MPI_Comm comm);
int MPI_Ireduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype
    datatype, MPI_Op op, int root, MPI_Comm comm, MPI_Request *request);
int PMPI_Ireduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype
    datatype, MPI_Op op, int root, MPI_Comm comm, MPI_Request *request);
int MPI_Reduce_init(const void *sendbuf, void *recvbuf, int count,
    MPI_Datatype datatype, MPI_Op op, int root, MPI_Comm comm, MPI_Info info,
    MPI_Request *request);
int PMPI_Reduce_init(const void *sendbuf, void *recvbuf, int count,
    MPI_Datatype datatype, MPI_Op op, int root, MPI_Comm comm, MPI_Info info,
    MPI_Request *request);
int MPI_Allreduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype
    datatype, MPI_Op op, MPI_Comm comm);
int PMPI_Allreduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype
    datatype, MPI_Op op, MPI_Comm comm);
int MPI_Iallreduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype
    datatype, MPI_Op op, MPI_Comm comm, MPI_Request *request);
int PMPI_Iallreduce(const void *sendbuf, void *recvbuf, int count,
    MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Request *request);
int MPI_Allreduce_init(const void *sendbuf, void *recvbuf, int count,
    MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Info info,
    MPI_Request *request);
int PMPI_Allreduce_init(const void *sendbuf, void *recvbuf, int count,
    MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Info info,
    MPI_Request *request);
int MPI_Reduce_scatter(const void *sendbuf, void *recvbuf, const int
    recvcounts[], MPI_Datatype datatype, MPI_Op op, MPI_Comm comm);
int PMPI_Reduce_scatter(const void *sendbuf, void *recvbuf, const int
    recvcounts[], MPI_Datatype datatype, MPI_Op op, MPI_Comm comm);
int MPI_Ireduce_scatter(const void *sendbuf, void *recvbuf, const int
    recvcounts[], MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Request
    *request);
int PMPI_Ireduce_scatter(const void *sendbuf, void *recvbuf, const int
    recvcounts[], MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Request
    *request);
int MPI_Reduce_scatter_init(const void *sendbuf, void *recvbuf, const int
    recvcounts[], MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Info
    info, MPI_Request *request);
int PMPI_Reduce_scatter_init(const void *sendbuf, void *recvbuf, const int
    recvcounts[], MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Info
    info, MPI_Request *request);
int MPI_Reduce_scatter_block(const void *sendbuf, void *recvbuf, int
    recvcount, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm);
int PMPI_Reduce_scatter_block(const void *sendbuf, void *recvbuf, int
    recvcount, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm);
int MPI_Ireduce_scatter_block(const void *sendbuf, void *recvbuf, int
    recvcount, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Request
    *request);
int PMPI_Ireduce_scatter_block(const void *sendbuf, void *recvbuf, int
    recvcount, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Request
    *request);
int MPI_Reduce_scatter_block_init(const void *sendbuf, void *recvbuf, int
    recvcount, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Info info,
    MPI_Request *request);
int PMPI_Reduce_scatter_block_init(const void *sendbuf, void *recvbuf, int
    recvcount, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Info info,
    MPI_Request *request);
int MPI_Scan(const void *sendbuf, void *recvbuf, int count, MPI_Datatype
    datatype, MPI_Op op, MPI_Comm comm);
int PMPI_Scan(const void *sendbuf, void *recvbuf, int count, MPI_Datatype
    datatype, MPI_Op op, MPI_Comm comm);
int MPI_Iscan(const void *sendbuf, void *recvbuf, int count, MPI_Datatype
    datatype, MPI_Op op, MPI_Comm comm, MPI_Request *request);
int PMPI_Iscan(const void *sendbuf, void *recvbuf, int count, MPI_Datatype
    datatype, MPI_Op op, MPI_Comm comm, MPI_Request *request);
int MPI_Scan_init(const void *sendbuf, void *recvbuf, int count, MPI_Datatype
    datatype, MPI_Op op, MPI_Comm comm, MPI_Info info, MPI_Request *request);
int PMPI_Scan_init(const void *sendbuf, void *recvbuf, int count, MPI_Datatype
    datatype, MPI_Op op, MPI_Comm comm, MPI_Info info, MPI_Request *request);
int MPI_Exscan(const void *sendbuf, void *recvbuf, int count, MPI_Datatype
    datatype, MPI_Op op, MPI_Comm comm);
int PMPI_Exscan(const void *sendbuf, void *recvbuf, int count, MPI_Datatype
    datatype, MPI_Op op, MPI_Comm comm);
int MPI_Iexscan(const void *sendbuf, void *recvbuf, int count, MPI_Datatype
    datatype, MPI_Op op, MPI_Comm comm, MPI_Request *request);
int PMPI_Iexscan(const void *sendbuf, void *recvbuf, int count, MPI_Datatype
    datatype, MPI_Op op, MPI_Comm comm, MPI_Request *request);
int MPI_Exscan_init(const void *sendbuf, void *recvbuf, int count,
    MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Info info,
    MPI_Request *request);
int PMPI_Exscan_init(const void *sendbuf, void *recvbuf, int count,
    MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Info info,
    MPI_Request *request);
/* collA: large-count forms */
int MPI_Bcast_c(void *buffer, MPI_Count count, MPI_Datatype datatype, int
    root, MPI_Comm comm);
int PMPI_Bcast_c(void *buffer, MPI_Count count, MPI_Datatype datatype, int
    root, MPI_Comm comm);
int MPI_Ibcast_c(void *buffer, MPI_Count count, MPI_Datatype datatype, int
    root, MPI_Comm comm, MPI_Request *request);
int PMPI_Ibcast_c(void *buffer, MPI_Count count, MPI_Datatype datatype, int
    root, MPI_Comm comm, MPI_Request *request);
int MPI_Bcast_init_c(void *buffer, MPI_Count count, MPI_Datatype datatype, int
    root, MPI_Comm comm, MPI_Info info, MPI_Request *request);
int PMPI_Bcast_init_c(void *buffer, MPI_Count count, MPI_Datatype datatype,
    int root, MPI_Comm comm, MPI_Info info, MPI_Request *request);
int MPI_Reduce_c(const void *sendbuf, void *recvbuf, MPI_Count count,
    MPI_Datatype datatype, MPI_Op op, int root, MPI_Comm comm);
int PMPI_Reduce_c(const void *sendbuf, void *recvbuf, MPI_Count count,
    MPI_Datatype datatype, MPI_Op op, int root, MPI_Comm comm);
int MPI_Ireduce_c(const void *sendbuf, void *recvbuf, MPI_Count count,
    MPI_Datatype datatype, MPI_Op op, int root, MPI_Comm comm, MPI_Request
    *request);
int PMPI_Ireduce_c(const void *sendbuf, void *recvbuf, MPI_Count count,
    MPI_Datatype datatype, MPI_Op op, int root, MPI_Comm comm, MPI_Request
    *request);
int MPI_Reduce_init_c(const void *sendbuf, void *recvbuf, MPI_Count count,
    MPI_Datatype datatype, MPI_Op op, int root, MPI_Comm comm, MPI_Info info,
    MPI_Request *request);
int PMPI_Reduce_init_c(const void *sendbuf, void *recvbuf, MPI_Count count,
    MPI_Datatype datatype, MPI_Op op, int root, MPI_Comm comm, MPI_Info info,
    MPI_Request *request);
int MPI_Allreduce_c(const void *sendbuf, void *recvbuf, MPI_Count count,
    MPI_Datatype datatype, MPI_Op op, MPI_Comm comm);
int PMPI_Allreduce_c(const void *sendbuf, void *recvbuf, MPI_Count count,
    MPI_Datatype datatype, MPI_Op op, MPI_Comm comm);
int MPI_Iallreduce_c(const void *sendbuf, void *recvbuf, MPI_Count count,
    MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Request *request);
int PMPI_Iallreduce_c(const void *sendbuf, void *recvbuf, MPI_Count count,
    MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Request *request);
int MPI_Allreduce_init_c(const void *sendbuf, void *recvbuf, MPI_Count count,
    MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Info info,
    MPI_Request *request);
int PMPI_Allreduce_init_c(const void *sendbuf, void *recvbuf, MPI_Count count,
    MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Info info,
    MPI_Request *request);
int MPI_Reduce_scatter_c(const void *sendbuf, void *recvbuf, const MPI_Count
    recvcounts[], MPI_Datatype datatype, MPI_Op op, MPI_Comm comm);
int PMPI_Reduce_scatter_c(const void *sendbuf, void *recvbuf, const MPI_Count
    recvcounts[], MPI_Datatype datatype, MPI_Op op, MPI_Comm comm);
int MPI_Ireduce_scatter_c(const void *sendbuf, void *recvbuf, const MPI_Count
    recvcounts[], MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Request
    *request);
int PMPI_Ireduce_scatter_c(const void *sendbuf, void *recvbuf, const MPI_Count
    recvcounts[], MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Request
    *request);
int MPI_Reduce_scatter_init_c(const void *sendbuf, void *recvbuf, const
    MPI_Count recvcounts[], MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
    MPI_Info info, MPI_Request *request);
int PMPI_Reduce_scatter_init_c(const void *sendbuf, void *recvbuf, const
    MPI_Count recvcounts[], MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
    MPI_Info info, MPI_Request *request);
int MPI_Reduce_scatter_block_c(const void *sendbuf, void *recvbuf, MPI_Count
    recvcount, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm);
int PMPI_Reduce_scatter_block_c(const void *sendbuf, void *recvbuf, MPI_Count
    recvcount, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm);
int MPI_Ireduce_scatter_block_c(const void *sendbuf, void *recvbuf, MPI_Count
    recvcount, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Request
    *request);
int PMPI_Ireduce_scatter_block_c(const void *sendbuf, void *recvbuf, MPI_Count
    recvcount, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Request
    *request);
int MPI_Reduce_scatter_block_init_c(const void *sendbuf, void *recvbuf,
    MPI_Count recvcount, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
    MPI_Info info, MPI_Request *request);
int PMPI_Reduce_scatter_block_init_c(const void *sendbuf, void *recvbuf,
    MPI_Count recvcount, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
    MPI_Info info, MPI_Request *request);
int MPI_Scan_c(const void *sendbuf, void *recvbuf, MPI_Count count,
    MPI_Datatype datatype, MPI_Op op, MPI_Comm comm);
int PMPI_Scan_c(const void *sendbuf, void *recvbuf, MPI_Count count,
    MPI_Datatype datatype, MPI_Op op, MPI_Comm comm);
int MPI_Iscan_c(const void *sendbuf, void *recvbuf, MPI_Count count,
    MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Request *request);
int PMPI_Iscan_c(const void *sendbuf, void *recvbuf, MPI_Count count,
    MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Request *request);
int MPI_Scan_init_c(const void *sendbuf, void *recvbuf, MPI_Count count,
    MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Info info,
    MPI_Request *request);
int PMPI_Scan_init_c(const void *sendbuf, void *recvbuf, MPI_Count count,
    MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Info info,
    MPI_Request *request);
int MPI_Exscan_c(const void *sendbuf, void *recvbuf, MPI_Count count,
    MPI_Datatype datatype, MPI_Op op, MPI_Comm comm);
int PMPI_Exscan_c(const void *sendbuf, void *recvbuf, MPI_Count count,
    MPI_Datatype datatype, MPI_Op op, MPI_Comm comm);
int MPI_Iexscan_c(const void *sendbuf, void *recvbuf, MPI_Count count,
    MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Request *request);
int PMPI_Iexscan_c(const void *sendbuf, void *recvbuf, MPI_Count count,
    MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Request *request);
int MPI_Exscan_init_c(const void *sendbuf, void *recvbuf, MPI_Count count,
    MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Info info,
    MPI_Request *request);
int PMPI_Exscan_init_c(const void *sendbuf, void *recvbuf, MPI_Count count,
    MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Info info,
    MPI_Request *request);
/* end collA */
/* reduction operations (lib/coll/op*.c) */
typedef void MPI_User_function_c(void *invec, void *inoutvec, MPI_Count *len,
                                 MPI_Datatype *datatype);
int MPI_Op_create(MPI_User_function *user_fn, int commute, MPI_Op *op);
int PMPI_Op_create(MPI_User_function *user_fn, int commute, MPI_Op *op);
int MPI_Op_create_c(MPI_User_function_c *user_fn, int commute, MPI_Op *op);
int PMPI_Op_create_c(MPI_User_function_c *user_fn, int commute, MPI_Op *op);
int MPI_Op_free(MPI_Op *op);
int PMPI_Op_free(MPI_Op *op);
int MPI_Op_commutative(MPI_Op op, int *commute);
int PMPI_Op_commutative(MPI_Op op, int *commute);
int MPI_Reduce_local(const void *inbuf, void *inoutbuf, int count,
                     MPI_Datatype datatype, MPI_Op op);
int PMPI_Reduce_local(const void *inbuf, void *inoutbuf, int count,
                      MPI_Datatype datatype, MPI_Op op);
int MPI_Reduce_local_c(const void *inbuf, void *inoutbuf, MPI_Count count,
                       MPI_Datatype datatype, MPI_Op op);
int PMPI_Reduce_local_c(const void *inbuf, void *inoutbuf, MPI_Count count,
                        MPI_Datatype datatype, MPI_Op op);
/* end of reduction operations */
/* collB: gather, scatter, allgather, alltoall (+v, w) */
int MPI_Gather(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
    void *recvbuf, int recvcount, MPI_Datatype recvtype, int root,
    MPI_Comm comm);
int PMPI_Gather(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
    void *recvbuf, int recvcount, MPI_Datatype recvtype, int root,
    MPI_Comm comm);
int MPI_Igather(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
    void *recvbuf, int recvcount, MPI_Datatype recvtype, int root,
    MPI_Comm comm, MPI_Request *request);
int PMPI_Igather(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
    void *recvbuf, int recvcount, MPI_Datatype recvtype, int root,
    MPI_Comm comm, MPI_Request *request);
int MPI_Gather_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
    void *recvbuf, int recvcount, MPI_Datatype recvtype, int root,
    MPI_Comm comm, MPI_Info info, MPI_Request *request);
int PMPI_Gather_init(const void *sendbuf, int sendcount,
    MPI_Datatype sendtype, void *recvbuf, int recvcount,
    MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info info,
    MPI_Request *request);
int MPI_Gatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
    void *recvbuf, const int recvcounts[], const int displs[],
    MPI_Datatype recvtype, int root, MPI_Comm comm);
int PMPI_Gatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
    void *recvbuf, const int recvcounts[], const int displs[],
    MPI_Datatype recvtype, int root, MPI_Comm comm);
int MPI_Igatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
    void *recvbuf, const int recvcounts[], const int displs[],
    MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request *request);
int PMPI_Igatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
    void *recvbuf, const int recvcounts[], const int displs[],
    MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request *request);
int MPI_Gatherv_init(const void *sendbuf, int sendcount,
    MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
    const int displs[], MPI_Datatype recvtype, int root, MPI_Comm comm,
    MPI_Info info, MPI_Request *request);
int PMPI_Gatherv_init(const void *sendbuf, int sendcount,
    MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
    const int displs[], MPI_Datatype recvtype, int root, MPI_Comm comm,
    MPI_Info info, MPI_Request *request);
int MPI_Scatter(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
    void *recvbuf, int recvcount, MPI_Datatype recvtype, int root,
    MPI_Comm comm);
int PMPI_Scatter(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
    void *recvbuf, int recvcount, MPI_Datatype recvtype, int root,
    MPI_Comm comm);
int MPI_Iscatter(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
    void *recvbuf, int recvcount, MPI_Datatype recvtype, int root,
    MPI_Comm comm, MPI_Request *request);
int PMPI_Iscatter(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
    void *recvbuf, int recvcount, MPI_Datatype recvtype, int root,
    MPI_Comm comm, MPI_Request *request);
int MPI_Scatter_init(const void *sendbuf, int sendcount,
    MPI_Datatype sendtype, void *recvbuf, int recvcount,
    MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info info,
    MPI_Request *request);
int PMPI_Scatter_init(const void *sendbuf, int sendcount,
    MPI_Datatype sendtype, void *recvbuf, int recvcount,
    MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info info,
    MPI_Request *request);
int MPI_Scatterv(const void *sendbuf, const int sendcounts[],
    const int displs[], MPI_Datatype sendtype, void *recvbuf, int recvcount,
    MPI_Datatype recvtype, int root, MPI_Comm comm);
int PMPI_Scatterv(const void *sendbuf, const int sendcounts[],
    const int displs[], MPI_Datatype sendtype, void *recvbuf, int recvcount,
    MPI_Datatype recvtype, int root, MPI_Comm comm);
int MPI_Iscatterv(const void *sendbuf, const int sendcounts[],
    const int displs[], MPI_Datatype sendtype, void *recvbuf, int recvcount,
    MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request *request);
int PMPI_Iscatterv(const void *sendbuf, const int sendcounts[],
    const int displs[], MPI_Datatype sendtype, void *recvbuf, int recvcount,
    MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request *request);
int MPI_Scatterv_init(const void *sendbuf, const int sendcounts[],
    const int displs[], MPI_Datatype sendtype, void *recvbuf, int recvcount,
    MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info info,
    MPI_Request *request);
int PMPI_Scatterv_init(const void *sendbuf, const int sendcounts[],
    const int displs[], MPI_Datatype sendtype, void *recvbuf, int recvcount,
    MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info info,
    MPI_Request *request);
int MPI_Allgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
    void *recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm);
int PMPI_Allgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
    void *recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm);
int MPI_Iallgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
    void *recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm,
    MPI_Request *request);
int PMPI_Iallgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
    void *recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm,
    MPI_Request *request);
int MPI_Allgather_init(const void *sendbuf, int sendcount,
    MPI_Datatype sendtype, void *recvbuf, int recvcount,
    MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
    MPI_Request *request);
int PMPI_Allgather_init(const void *sendbuf, int sendcount,
    MPI_Datatype sendtype, void *recvbuf, int recvcount,
    MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
    MPI_Request *request);
int MPI_Allgatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
    void *recvbuf, const int recvcounts[], const int displs[],
    MPI_Datatype recvtype, MPI_Comm comm);
int PMPI_Allgatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
    void *recvbuf, const int recvcounts[], const int displs[],
    MPI_Datatype recvtype, MPI_Comm comm);
int MPI_Iallgatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
    void *recvbuf, const int recvcounts[], const int displs[],
    MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request);
int PMPI_Iallgatherv(const void *sendbuf, int sendcount,
    MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
    const int displs[], MPI_Datatype recvtype, MPI_Comm comm,
    MPI_Request *request);
int MPI_Allgatherv_init(const void *sendbuf, int sendcount,
    MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
    const int displs[], MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
    MPI_Request *request);
int PMPI_Allgatherv_init(const void *sendbuf, int sendcount,
    MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
    const int displs[], MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
    MPI_Request *request);
int MPI_Alltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
    void *recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm);
int PMPI_Alltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
    void *recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm);
int MPI_Ialltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
    void *recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm,
    MPI_Request *request);
int PMPI_Ialltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
    void *recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm,
    MPI_Request *request);
int MPI_Alltoall_init(const void *sendbuf, int sendcount,
    MPI_Datatype sendtype, void *recvbuf, int recvcount,
    MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
    MPI_Request *request);
int PMPI_Alltoall_init(const void *sendbuf, int sendcount,
    MPI_Datatype sendtype, void *recvbuf, int recvcount,
    MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
    MPI_Request *request);
int MPI_Alltoallv(const void *sendbuf, const int sendcounts[],
    const int sdispls[], MPI_Datatype sendtype, void *recvbuf,
    const int recvcounts[], const int rdispls[], MPI_Datatype recvtype,
    MPI_Comm comm);
int PMPI_Alltoallv(const void *sendbuf, const int sendcounts[],
    const int sdispls[], MPI_Datatype sendtype, void *recvbuf,
    const int recvcounts[], const int rdispls[], MPI_Datatype recvtype,
    MPI_Comm comm);
int MPI_Ialltoallv(const void *sendbuf, const int sendcounts[],
    const int sdispls[], MPI_Datatype sendtype, void *recvbuf,
    const int recvcounts[], const int rdispls[], MPI_Datatype recvtype,
    MPI_Comm comm, MPI_Request *request);
int PMPI_Ialltoallv(const void *sendbuf, const int sendcounts[],
    const int sdispls[], MPI_Datatype sendtype, void *recvbuf,
    const int recvcounts[], const int rdispls[], MPI_Datatype recvtype,
    MPI_Comm comm, MPI_Request *request);
int MPI_Alltoallv_init(const void *sendbuf, const int sendcounts[],
    const int sdispls[], MPI_Datatype sendtype, void *recvbuf,
    const int recvcounts[], const int rdispls[], MPI_Datatype recvtype,
    MPI_Comm comm, MPI_Info info, MPI_Request *request);
int PMPI_Alltoallv_init(const void *sendbuf, const int sendcounts[],
    const int sdispls[], MPI_Datatype sendtype, void *recvbuf,
    const int recvcounts[], const int rdispls[], MPI_Datatype recvtype,
    MPI_Comm comm, MPI_Info info, MPI_Request *request);
int MPI_Alltoallw(const void *sendbuf, const int sendcounts[],
    const int sdispls[], const MPI_Datatype sendtypes[], void *recvbuf,
    const int recvcounts[], const int rdispls[],
    const MPI_Datatype recvtypes[], MPI_Comm comm);
int PMPI_Alltoallw(const void *sendbuf, const int sendcounts[],
    const int sdispls[], const MPI_Datatype sendtypes[], void *recvbuf,
    const int recvcounts[], const int rdispls[],
    const MPI_Datatype recvtypes[], MPI_Comm comm);
int MPI_Ialltoallw(const void *sendbuf, const int sendcounts[],
    const int sdispls[], const MPI_Datatype sendtypes[], void *recvbuf,
    const int recvcounts[], const int rdispls[],
    const MPI_Datatype recvtypes[], MPI_Comm comm, MPI_Request *request);
int PMPI_Ialltoallw(const void *sendbuf, const int sendcounts[],
    const int sdispls[], const MPI_Datatype sendtypes[], void *recvbuf,
    const int recvcounts[], const int rdispls[],
    const MPI_Datatype recvtypes[], MPI_Comm comm, MPI_Request *request);
int MPI_Alltoallw_init(const void *sendbuf, const int sendcounts[],
    const int sdispls[], const MPI_Datatype sendtypes[], void *recvbuf,
    const int recvcounts[], const int rdispls[],
    const MPI_Datatype recvtypes[], MPI_Comm comm, MPI_Info info,
    MPI_Request *request);
int PMPI_Alltoallw_init(const void *sendbuf, const int sendcounts[],
    const int sdispls[], const MPI_Datatype sendtypes[], void *recvbuf,
    const int recvcounts[], const int rdispls[],
    const MPI_Datatype recvtypes[], MPI_Comm comm, MPI_Info info,
    MPI_Request *request);
/* collB: neighbor collectives */
int MPI_Neighbor_allgather(const void *sendbuf, int sendcount,
    MPI_Datatype sendtype, void *recvbuf, int recvcount,
    MPI_Datatype recvtype, MPI_Comm comm);
int PMPI_Neighbor_allgather(const void *sendbuf, int sendcount,
    MPI_Datatype sendtype, void *recvbuf, int recvcount,
    MPI_Datatype recvtype, MPI_Comm comm);
int MPI_Ineighbor_allgather(const void *sendbuf, int sendcount,
    MPI_Datatype sendtype, void *recvbuf, int recvcount,
    MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request);
int PMPI_Ineighbor_allgather(const void *sendbuf, int sendcount,
    MPI_Datatype sendtype, void *recvbuf, int recvcount,
    MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request);
int MPI_Neighbor_allgather_init(const void *sendbuf, int sendcount,
    MPI_Datatype sendtype, void *recvbuf, int recvcount,
    MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
    MPI_Request *request);
int PMPI_Neighbor_allgather_init(const void *sendbuf, int sendcount,
    MPI_Datatype sendtype, void *recvbuf, int recvcount,
    MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
    MPI_Request *request);
int MPI_Neighbor_allgatherv(const void *sendbuf, int sendcount,
    MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
    const int displs[], MPI_Datatype recvtype, MPI_Comm comm);
int PMPI_Neighbor_allgatherv(const void *sendbuf, int sendcount,
    MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
    const int displs[], MPI_Datatype recvtype, MPI_Comm comm);
int MPI_Ineighbor_allgatherv(const void *sendbuf, int sendcount,
    MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
    const int displs[], MPI_Datatype recvtype, MPI_Comm comm,
    MPI_Request *request);
int PMPI_Ineighbor_allgatherv(const void *sendbuf, int sendcount,
    MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
    const int displs[], MPI_Datatype recvtype, MPI_Comm comm,
    MPI_Request *request);
int MPI_Neighbor_allgatherv_init(const void *sendbuf, int sendcount,
    MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
    const int displs[], MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
    MPI_Request *request);
int PMPI_Neighbor_allgatherv_init(const void *sendbuf, int sendcount,
    MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
    const int displs[], MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
    MPI_Request *request);
int MPI_Neighbor_alltoall(const void *sendbuf, int sendcount,
    MPI_Datatype sendtype, void *recvbuf, int recvcount,
    MPI_Datatype recvtype, MPI_Comm comm);
int PMPI_Neighbor_alltoall(const void *sendbuf, int sendcount,
    MPI_Datatype sendtype, void *recvbuf, int recvcount,
    MPI_Datatype recvtype, MPI_Comm comm);
int MPI_Ineighbor_alltoall(const void *sendbuf, int sendcount,
    MPI_Datatype sendtype, void *recvbuf, int recvcount,
    MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request);
int PMPI_Ineighbor_alltoall(const void *sendbuf, int sendcount,
    MPI_Datatype sendtype, void *recvbuf, int recvcount,
    MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request);
int MPI_Neighbor_alltoall_init(const void *sendbuf, int sendcount,
    MPI_Datatype sendtype, void *recvbuf, int recvcount,
    MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
    MPI_Request *request);
int PMPI_Neighbor_alltoall_init(const void *sendbuf, int sendcount,
    MPI_Datatype sendtype, void *recvbuf, int recvcount,
    MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
    MPI_Request *request);
int MPI_Neighbor_alltoallv(const void *sendbuf, const int sendcounts[],
    const int sdispls[], MPI_Datatype sendtype, void *recvbuf,
    const int recvcounts[], const int rdispls[], MPI_Datatype recvtype,
    MPI_Comm comm);
int PMPI_Neighbor_alltoallv(const void *sendbuf, const int sendcounts[],
    const int sdispls[], MPI_Datatype sendtype, void *recvbuf,
    const int recvcounts[], const int rdispls[], MPI_Datatype recvtype,
    MPI_Comm comm);
int MPI_Ineighbor_alltoallv(const void *sendbuf, const int sendcounts[],
    const int sdispls[], MPI_Datatype sendtype, void *recvbuf,
    const int recvcounts[], const int rdispls[], MPI_Datatype recvtype,
    MPI_Comm comm, MPI_Request *request);
int PMPI_Ineighbor_alltoallv(const void *sendbuf, const int sendcounts[],
    const int sdispls[], MPI_Datatype sendtype, void *recvbuf,
    const int recvcounts[], const int rdispls[], MPI_Datatype recvtype,
    MPI_Comm comm, MPI_Request *request);
int MPI_Neighbor_alltoallv_init(const void *sendbuf, const int sendcounts[],
    const int sdispls[], MPI_Datatype sendtype, void *recvbuf,
    const int recvcounts[], const int rdispls[], MPI_Datatype recvtype,
    MPI_Comm comm, MPI_Info info, MPI_Request *request);
int PMPI_Neighbor_alltoallv_init(const void *sendbuf, const int sendcounts[],
    const int sdispls[], MPI_Datatype sendtype, void *recvbuf,
    const int recvcounts[], const int rdispls[], MPI_Datatype recvtype,
    MPI_Comm comm, MPI_Info info, MPI_Request *request);
int MPI_Neighbor_alltoallw(const void *sendbuf, const int sendcounts[],
    const MPI_Aint sdispls[], const MPI_Datatype sendtypes[], void *recvbuf,
    const int recvcounts[], const MPI_Aint rdispls[],
    const MPI_Datatype recvtypes[], MPI_Comm comm);
int PMPI_Neighbor_alltoallw(const void *sendbuf, const int sendcounts[],
    const MPI_Aint sdispls[], const MPI_Datatype sendtypes[], void *recvbuf,
    const int recvcounts[], const MPI_Aint rdispls[],
    const MPI_Datatype recvtypes[], MPI_Comm comm);
int MPI_Ineighbor_alltoallw(const void *sendbuf, const int sendcounts[],
    const MPI_Aint sdispls[], const MPI_Datatype sendtypes[], void *recvbuf,
    const int recvcounts[], const MPI_Aint rdispls[],
    const MPI_Datatype recvtypes[], MPI_Comm comm, MPI_Request *request);
int PMPI_Ineighbor_alltoallw(const void *sendbuf, const int sendcounts[],
    const MPI_Aint sdispls[], const MPI_Datatype sendtypes[], void *recvbuf,
    const int recvcounts[], const MPI_Aint rdispls[],
    const MPI_Datatype recvtypes[], MPI_Comm comm, MPI_Request *request);
int MPI_Neighbor_alltoallw_init(const void *sendbuf, const int sendcounts[],
    const MPI_Aint sdispls[], const MPI_Datatype sendtypes[], void *recvbuf,
    const int recvcounts[], const MPI_Aint rdispls[],
    const MPI_Datatype recvtypes[], MPI_Comm comm, MPI_Info info,
    MPI_Request *request);
int PMPI_Neighbor_alltoallw_init(const void *sendbuf, const int sendcounts[],
    const MPI_Aint sdispls[], const MPI_Datatype sendtypes[], void *recvbuf,
    const int recvcounts[], const MPI_Aint rdispls[],
    const MPI_Datatype recvtypes[], MPI_Comm comm, MPI_Info info,
    MPI_Request *request);
/* end collB */
/* large-count neighbor collectives (lib/coll/large_count_neighbor.c) */
int MPI_Neighbor_allgather_c(const void *sendbuf, MPI_Count sendcount,
    MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount, MPI_Datatype
    recvtype, MPI_Comm comm);
int PMPI_Neighbor_allgather_c(const void *sendbuf, MPI_Count sendcount,
    MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount, MPI_Datatype
    recvtype, MPI_Comm comm);
int MPI_Ineighbor_allgather_c(const void *sendbuf, MPI_Count sendcount,
    MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount, MPI_Datatype
    recvtype, MPI_Comm comm, MPI_Request *request);
int PMPI_Ineighbor_allgather_c(const void *sendbuf, MPI_Count sendcount,
    MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount, MPI_Datatype
    recvtype, MPI_Comm comm, MPI_Request *request);
int MPI_Neighbor_allgather_init_c(const void *sendbuf, MPI_Count sendcount,
    MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount, MPI_Datatype
    recvtype, MPI_Comm comm, MPI_Info info, MPI_Request *request);
int PMPI_Neighbor_allgather_init_c(const void *sendbuf, MPI_Count sendcount,
    MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount, MPI_Datatype
    recvtype, MPI_Comm comm, MPI_Info info, MPI_Request *request);
int MPI_Neighbor_allgatherv_c(const void *sendbuf, MPI_Count sendcount,
    MPI_Datatype sendtype, void *recvbuf, const MPI_Count recvcounts[], const
    MPI_Aint displs[], MPI_Datatype recvtype, MPI_Comm comm);
int PMPI_Neighbor_allgatherv_c(const void *sendbuf, MPI_Count sendcount,
    MPI_Datatype sendtype, void *recvbuf, const MPI_Count recvcounts[], const
    MPI_Aint displs[], MPI_Datatype recvtype, MPI_Comm comm);
int MPI_Ineighbor_allgatherv_c(const void *sendbuf, MPI_Count sendcount,
    MPI_Datatype sendtype, void *recvbuf, const MPI_Count recvcounts[], const
    MPI_Aint displs[], MPI_Datatype recvtype, MPI_Comm comm, MPI_Request
    *request);
int PMPI_Ineighbor_allgatherv_c(const void *sendbuf, MPI_Count sendcount,
    MPI_Datatype sendtype, void *recvbuf, const MPI_Count recvcounts[], const
    MPI_Aint displs[], MPI_Datatype recvtype, MPI_Comm comm, MPI_Request
    *request);
int MPI_Neighbor_allgatherv_init_c(const void *sendbuf, MPI_Count sendcount,
    MPI_Datatype sendtype, void *recvbuf, const MPI_Count recvcounts[], const
    MPI_Aint displs[], MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
    MPI_Request *request);
int PMPI_Neighbor_allgatherv_init_c(const void *sendbuf, MPI_Count sendcount,
    MPI_Datatype sendtype, void *recvbuf, const MPI_Count recvcounts[], const
    MPI_Aint displs[], MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
    MPI_Request *request);
int MPI_Neighbor_alltoall_c(const void *sendbuf, MPI_Count sendcount,
    MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount, MPI_Datatype
    recvtype, MPI_Comm comm);
int PMPI_Neighbor_alltoall_c(const void *sendbuf, MPI_Count sendcount,
    MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount, MPI_Datatype
    recvtype, MPI_Comm comm);
int MPI_Ineighbor_alltoall_c(const void *sendbuf, MPI_Count sendcount,
    MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount, MPI_Datatype
    recvtype, MPI_Comm comm, MPI_Request *request);
int PMPI_Ineighbor_alltoall_c(const void *sendbuf, MPI_Count sendcount,
    MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount, MPI_Datatype
    recvtype, MPI_Comm comm, MPI_Request *request);
int MPI_Neighbor_alltoall_init_c(const void *sendbuf, MPI_Count sendcount,
    MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount, MPI_Datatype
    recvtype, MPI_Comm comm, MPI_Info info, MPI_Request *request);
int PMPI_Neighbor_alltoall_init_c(const void *sendbuf, MPI_Count sendcount,
    MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount, MPI_Datatype
    recvtype, MPI_Comm comm, MPI_Info info, MPI_Request *request);
int MPI_Neighbor_alltoallv_c(const void *sendbuf, const MPI_Count
    sendcounts[], const MPI_Aint sdispls[], MPI_Datatype sendtype, void
    *recvbuf, const MPI_Count recvcounts[], const MPI_Aint rdispls[],
    MPI_Datatype recvtype, MPI_Comm comm);
int PMPI_Neighbor_alltoallv_c(const void *sendbuf, const MPI_Count
    sendcounts[], const MPI_Aint sdispls[], MPI_Datatype sendtype, void
    *recvbuf, const MPI_Count recvcounts[], const MPI_Aint rdispls[],
    MPI_Datatype recvtype, MPI_Comm comm);
int MPI_Ineighbor_alltoallv_c(const void *sendbuf, const MPI_Count
    sendcounts[], const MPI_Aint sdispls[], MPI_Datatype sendtype, void
    *recvbuf, const MPI_Count recvcounts[], const MPI_Aint rdispls[],
    MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request);
int PMPI_Ineighbor_alltoallv_c(const void *sendbuf, const MPI_Count
    sendcounts[], const MPI_Aint sdispls[], MPI_Datatype sendtype, void
    *recvbuf, const MPI_Count recvcounts[], const MPI_Aint rdispls[],
    MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request);
int MPI_Neighbor_alltoallv_init_c(const void *sendbuf, const MPI_Count
    sendcounts[], const MPI_Aint sdispls[], MPI_Datatype sendtype, void
    *recvbuf, const MPI_Count recvcounts[], const MPI_Aint rdispls[],
    MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info, MPI_Request
    *request);
int PMPI_Neighbor_alltoallv_init_c(const void *sendbuf, const MPI_Count
    sendcounts[], const MPI_Aint sdispls[], MPI_Datatype sendtype, void
    *recvbuf, const MPI_Count recvcounts[], const MPI_Aint rdispls[],
    MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info, MPI_Request
    *request);
int MPI_Neighbor_alltoallw_c(const void *sendbuf, const MPI_Count
    sendcounts[], const MPI_Aint sdispls[], const MPI_Datatype sendtypes[],
    void *recvbuf, const MPI_Count recvcounts[], const MPI_Aint rdispls[],
    const MPI_Datatype recvtypes[], MPI_Comm comm);
int PMPI_Neighbor_alltoallw_c(const void *sendbuf, const MPI_Count
    sendcounts[], const MPI_Aint sdispls[], const MPI_Datatype sendtypes[],
    void *recvbuf, const MPI_Count recvcounts[], const MPI_Aint rdispls[],
    const MPI_Datatype recvtypes[], MPI_Comm comm);
int MPI_Ineighbor_alltoallw_c(const void *sendbuf, const MPI_Count
    sendcounts[], const MPI_Aint sdispls[], const MPI_Datatype sendtypes[],
    void *recvbuf, const MPI_Count recvcounts[], const MPI_Aint rdispls[],
    const MPI_Datatype recvtypes[], MPI_Comm comm, MPI_Request *request);
int PMPI_Ineighbor_alltoallw_c(const void *sendbuf, const MPI_Count
    sendcounts[], const MPI_Aint sdispls[], const MPI_Datatype sendtypes[],
    void *recvbuf, const MPI_Count recvcounts[], const MPI_Aint rdispls[],
    const MPI_Datatype recvtypes[], MPI_Comm comm, MPI_Request *request);
int MPI_Neighbor_alltoallw_init_c(const void *sendbuf, const MPI_Count
    sendcounts[], const MPI_Aint sdispls[], const MPI_Datatype sendtypes[],
    void *recvbuf, const MPI_Count recvcounts[], const MPI_Aint rdispls[],
    const MPI_Datatype recvtypes[], MPI_Comm comm, MPI_Info info, MPI_Request
    *request);
int PMPI_Neighbor_alltoallw_init_c(const void *sendbuf, const MPI_Count
    sendcounts[], const MPI_Aint sdispls[], const MPI_Datatype sendtypes[],
    void *recvbuf, const MPI_Count recvcounts[], const MPI_Aint rdispls[],
    const MPI_Datatype recvtypes[], MPI_Comm comm, MPI_Info info, MPI_Request
    *request);
/* large-count forms of the data-movement collectives */
int MPI_Gather_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype
    sendtype, void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, int
    root, MPI_Comm comm);
int PMPI_Gather_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype
    sendtype, void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, int
    root, MPI_Comm comm);
int MPI_Igather_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype
    sendtype, void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, int
    root, MPI_Comm comm, MPI_Request *request);
int PMPI_Igather_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype
    sendtype, void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, int
    root, MPI_Comm comm, MPI_Request *request);
int MPI_Gather_init_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype
    sendtype, void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, int
    root, MPI_Comm comm, MPI_Info info, MPI_Request *request);
int PMPI_Gather_init_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype
    sendtype, void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, int
    root, MPI_Comm comm, MPI_Info info, MPI_Request *request);
int MPI_Gatherv_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype
    sendtype, void *recvbuf, const MPI_Count recvcounts[], const MPI_Aint
    displs[], MPI_Datatype recvtype, int root, MPI_Comm comm);
int PMPI_Gatherv_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype
    sendtype, void *recvbuf, const MPI_Count recvcounts[], const MPI_Aint
    displs[], MPI_Datatype recvtype, int root, MPI_Comm comm);
int MPI_Igatherv_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype
    sendtype, void *recvbuf, const MPI_Count recvcounts[], const MPI_Aint
    displs[], MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request
    *request);
int PMPI_Igatherv_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype
    sendtype, void *recvbuf, const MPI_Count recvcounts[], const MPI_Aint
    displs[], MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request
    *request);
int MPI_Gatherv_init_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype
    sendtype, void *recvbuf, const MPI_Count recvcounts[], const MPI_Aint
    displs[], MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info info,
    MPI_Request *request);
int PMPI_Gatherv_init_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype
    sendtype, void *recvbuf, const MPI_Count recvcounts[], const MPI_Aint
    displs[], MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info info,
    MPI_Request *request);
int MPI_Scatter_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype
    sendtype, void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, int
    root, MPI_Comm comm);
int PMPI_Scatter_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype
    sendtype, void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, int
    root, MPI_Comm comm);
int MPI_Iscatter_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype
    sendtype, void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, int
    root, MPI_Comm comm, MPI_Request *request);
int PMPI_Iscatter_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype
    sendtype, void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, int
    root, MPI_Comm comm, MPI_Request *request);
int MPI_Scatter_init_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype
    sendtype, void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, int
    root, MPI_Comm comm, MPI_Info info, MPI_Request *request);
int PMPI_Scatter_init_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype
    sendtype, void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, int
    root, MPI_Comm comm, MPI_Info info, MPI_Request *request);
int MPI_Scatterv_c(const void *sendbuf, const MPI_Count sendcounts[], const
    MPI_Aint displs[], MPI_Datatype sendtype, void *recvbuf, MPI_Count
    recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm);
int PMPI_Scatterv_c(const void *sendbuf, const MPI_Count sendcounts[], const
    MPI_Aint displs[], MPI_Datatype sendtype, void *recvbuf, MPI_Count
    recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm);
int MPI_Iscatterv_c(const void *sendbuf, const MPI_Count sendcounts[], const
    MPI_Aint displs[], MPI_Datatype sendtype, void *recvbuf, MPI_Count
    recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request
    *request);
int PMPI_Iscatterv_c(const void *sendbuf, const MPI_Count sendcounts[], const
    MPI_Aint displs[], MPI_Datatype sendtype, void *recvbuf, MPI_Count
    recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request
    *request);
int MPI_Scatterv_init_c(const void *sendbuf, const MPI_Count sendcounts[],
    const MPI_Aint displs[], MPI_Datatype sendtype, void *recvbuf, MPI_Count
    recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info info,
    MPI_Request *request);
int PMPI_Scatterv_init_c(const void *sendbuf, const MPI_Count sendcounts[],
    const MPI_Aint displs[], MPI_Datatype sendtype, void *recvbuf, MPI_Count
    recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info info,
    MPI_Request *request);
int MPI_Allgather_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype
    sendtype, void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype,
    MPI_Comm comm);
int PMPI_Allgather_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype
    sendtype, void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype,
    MPI_Comm comm);
int MPI_Iallgather_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype
    sendtype, void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype,
    MPI_Comm comm, MPI_Request *request);
int PMPI_Iallgather_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype
    sendtype, void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype,
    MPI_Comm comm, MPI_Request *request);
int MPI_Allgather_init_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype
    sendtype, void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype,
    MPI_Comm comm, MPI_Info info, MPI_Request *request);
int PMPI_Allgather_init_c(const void *sendbuf, MPI_Count sendcount,
    MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount, MPI_Datatype
    recvtype, MPI_Comm comm, MPI_Info info, MPI_Request *request);
int MPI_Allgatherv_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype
    sendtype, void *recvbuf, const MPI_Count recvcounts[], const MPI_Aint
    displs[], MPI_Datatype recvtype, MPI_Comm comm);
int PMPI_Allgatherv_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype
    sendtype, void *recvbuf, const MPI_Count recvcounts[], const MPI_Aint
    displs[], MPI_Datatype recvtype, MPI_Comm comm);
int MPI_Iallgatherv_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype
    sendtype, void *recvbuf, const MPI_Count recvcounts[], const MPI_Aint
    displs[], MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request);
int PMPI_Iallgatherv_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype
    sendtype, void *recvbuf, const MPI_Count recvcounts[], const MPI_Aint
    displs[], MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request);
int MPI_Allgatherv_init_c(const void *sendbuf, MPI_Count sendcount,
    MPI_Datatype sendtype, void *recvbuf, const MPI_Count recvcounts[], const
    MPI_Aint displs[], MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
    MPI_Request *request);
int PMPI_Allgatherv_init_c(const void *sendbuf, MPI_Count sendcount,
    MPI_Datatype sendtype, void *recvbuf, const MPI_Count recvcounts[], const
    MPI_Aint displs[], MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
    MPI_Request *request);
int MPI_Alltoall_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype
    sendtype, void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype,
    MPI_Comm comm);
int PMPI_Alltoall_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype
    sendtype, void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype,
    MPI_Comm comm);
int MPI_Ialltoall_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype
    sendtype, void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype,
    MPI_Comm comm, MPI_Request *request);
int PMPI_Ialltoall_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype
    sendtype, void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype,
    MPI_Comm comm, MPI_Request *request);
int MPI_Alltoall_init_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype
    sendtype, void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype,
    MPI_Comm comm, MPI_Info info, MPI_Request *request);
int PMPI_Alltoall_init_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype
    sendtype, void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype,
    MPI_Comm comm, MPI_Info info, MPI_Request *request);
int MPI_Alltoallv_c(const void *sendbuf, const MPI_Count sendcounts[], const
    MPI_Aint sdispls[], MPI_Datatype sendtype, void *recvbuf, const MPI_Count
    recvcounts[], const MPI_Aint rdispls[], MPI_Datatype recvtype, MPI_Comm
    comm);
int PMPI_Alltoallv_c(const void *sendbuf, const MPI_Count sendcounts[], const
    MPI_Aint sdispls[], MPI_Datatype sendtype, void *recvbuf, const MPI_Count
    recvcounts[], const MPI_Aint rdispls[], MPI_Datatype recvtype, MPI_Comm
    comm);
int MPI_Ialltoallv_c(const void *sendbuf, const MPI_Count sendcounts[], const
    MPI_Aint sdispls[], MPI_Datatype sendtype, void *recvbuf, const MPI_Count
    recvcounts[], const MPI_Aint rdispls[], MPI_Datatype recvtype, MPI_Comm
    comm, MPI_Request *request);
int PMPI_Ialltoallv_c(const void *sendbuf, const MPI_Count sendcounts[], const
    MPI_Aint sdispls[], MPI_Datatype sendtype, void *recvbuf, const MPI_Count
    recvcounts[], const MPI_Aint rdispls[], MPI_Datatype recvtype, MPI_Comm
    comm, MPI_Request *request);
int MPI_Alltoallv_init_c(const void *sendbuf, const MPI_Count sendcounts[],
    const MPI_Aint sdispls[], MPI_Datatype sendtype, void *recvbuf, const
    MPI_Count recvcounts[], const MPI_Aint rdispls[], MPI_Datatype recvtype,
    MPI_Comm comm, MPI_Info info, MPI_Request *request);
int PMPI_Alltoallv_init_c(const void *sendbuf, const MPI_Count sendcounts[],
    const MPI_Aint sdispls[], MPI_Datatype sendtype, void *recvbuf, const
    MPI_Count recvcounts[], const MPI_Aint rdispls[], MPI_Datatype recvtype,
    MPI_Comm comm, MPI_Info info, MPI_Request *request);
int MPI_Alltoallw_c(const void *sendbuf, const MPI_Count sendcounts[], const
    MPI_Aint sdispls[], const MPI_Datatype sendtypes[], void *recvbuf, const
    MPI_Count recvcounts[], const MPI_Aint rdispls[], const MPI_Datatype
    recvtypes[], MPI_Comm comm);
int PMPI_Alltoallw_c(const void *sendbuf, const MPI_Count sendcounts[], const
    MPI_Aint sdispls[], const MPI_Datatype sendtypes[], void *recvbuf, const
    MPI_Count recvcounts[], const MPI_Aint rdispls[], const MPI_Datatype
    recvtypes[], MPI_Comm comm);
int MPI_Ialltoallw_c(const void *sendbuf, const MPI_Count sendcounts[], const
    MPI_Aint sdispls[], const MPI_Datatype sendtypes[], void *recvbuf, const
    MPI_Count recvcounts[], const MPI_Aint rdispls[], const MPI_Datatype
    recvtypes[], MPI_Comm comm, MPI_Request *request);
int PMPI_Ialltoallw_c(const void *sendbuf, const MPI_Count sendcounts[], const
    MPI_Aint sdispls[], const MPI_Datatype sendtypes[], void *recvbuf, const
    MPI_Count recvcounts[], const MPI_Aint rdispls[], const MPI_Datatype
    recvtypes[], MPI_Comm comm, MPI_Request *request);
int MPI_Alltoallw_init_c(const void *sendbuf, const MPI_Count sendcounts[],
    const MPI_Aint sdispls[], const MPI_Datatype sendtypes[], void *recvbuf,
    const MPI_Count recvcounts[], const MPI_Aint rdispls[], const MPI_Datatype
    recvtypes[], MPI_Comm comm, MPI_Info info, MPI_Request *request);
int PMPI_Alltoallw_init_c(const void *sendbuf, const MPI_Count sendcounts[],
    const MPI_Aint sdispls[], const MPI_Datatype sendtypes[], void *recvbuf,
    const MPI_Count recvcounts[], const MPI_Aint rdispls[], const MPI_Datatype
    recvtypes[], MPI_Comm comm, MPI_Info info, MPI_Request *request);
/* ---- end section: coll ---- */

/* ---- section: rma ---- */
int MPI_Win_create(void *base, MPI_Aint size, int disp_unit, MPI_Info info,
    MPI_Comm comm, MPI_Win *win);
int PMPI_Win_create(void *base, MPI_Aint size, int disp_unit, MPI_Info info,
    MPI_Comm comm, MPI_Win *win);
int MPI_Win_allocate(MPI_Aint size, int disp_unit, MPI_Info info, MPI_Comm
    comm, void *baseptr, MPI_Win *win);
int PMPI_Win_allocate(MPI_Aint size, int disp_unit, MPI_Info info, MPI_Comm
    comm, void *baseptr, MPI_Win *win);
int MPI_Win_allocate_shared(MPI_Aint size, int disp_unit, MPI_Info info,
    MPI_Comm comm, void *baseptr, MPI_Win *win);
int PMPI_Win_allocate_shared(MPI_Aint size, int disp_unit, MPI_Info info,
    MPI_Comm comm, void *baseptr, MPI_Win *win);
int MPI_Win_shared_query(MPI_Win win, int rank, MPI_Aint *size, int *disp_unit,
    void *baseptr);
int PMPI_Win_shared_query(MPI_Win win, int rank, MPI_Aint *size, int
    *disp_unit, void *baseptr);
int MPI_Win_create_dynamic(MPI_Info info, MPI_Comm comm, MPI_Win *win);
int PMPI_Win_create_dynamic(MPI_Info info, MPI_Comm comm, MPI_Win *win);
int MPI_Win_attach(MPI_Win win, void *base, MPI_Aint size);
int PMPI_Win_attach(MPI_Win win, void *base, MPI_Aint size);
int MPI_Win_detach(MPI_Win win, const void *base);
int PMPI_Win_detach(MPI_Win win, const void *base);
int MPI_Win_free(MPI_Win *win);
int PMPI_Win_free(MPI_Win *win);
int MPI_Win_get_group(MPI_Win win, MPI_Group *group);
int PMPI_Win_get_group(MPI_Win win, MPI_Group *group);
int MPI_Win_set_name(MPI_Win win, const char *win_name);
int PMPI_Win_set_name(MPI_Win win, const char *win_name);
int MPI_Win_get_name(MPI_Win win, char *win_name, int *resultlen);
int PMPI_Win_get_name(MPI_Win win, char *win_name, int *resultlen);
int MPI_Win_set_info(MPI_Win win, MPI_Info info);
int PMPI_Win_set_info(MPI_Win win, MPI_Info info);
int MPI_Win_get_info(MPI_Win win, MPI_Info *info_used);
int PMPI_Win_get_info(MPI_Win win, MPI_Info *info_used);
int MPI_Put(const void *origin_addr, int origin_count, MPI_Datatype
    origin_datatype, int target_rank, MPI_Aint target_disp, int target_count,
    MPI_Datatype target_datatype, MPI_Win win);
int PMPI_Put(const void *origin_addr, int origin_count, MPI_Datatype
    origin_datatype, int target_rank, MPI_Aint target_disp, int target_count,
    MPI_Datatype target_datatype, MPI_Win win);
int MPI_Get(void *origin_addr, int origin_count, MPI_Datatype origin_datatype,
    int target_rank, MPI_Aint target_disp, int target_count, MPI_Datatype
    target_datatype, MPI_Win win);
int PMPI_Get(void *origin_addr, int origin_count, MPI_Datatype origin_datatype,
    int target_rank, MPI_Aint target_disp, int target_count, MPI_Datatype
    target_datatype, MPI_Win win);
int MPI_Accumulate(const void *origin_addr, int origin_count, MPI_Datatype
    origin_datatype, int target_rank, MPI_Aint target_disp, int target_count,
    MPI_Datatype target_datatype, MPI_Op op, MPI_Win win);
int PMPI_Accumulate(const void *origin_addr, int origin_count, MPI_Datatype
    origin_datatype, int target_rank, MPI_Aint target_disp, int target_count,
    MPI_Datatype target_datatype, MPI_Op op, MPI_Win win);
int MPI_Get_accumulate(const void *origin_addr, int origin_count, MPI_Datatype
    origin_datatype, void *result_addr, int result_count, MPI_Datatype
    result_datatype, int target_rank, MPI_Aint target_disp, int target_count,
    MPI_Datatype target_datatype, MPI_Op op, MPI_Win win);
int PMPI_Get_accumulate(const void *origin_addr, int origin_count, MPI_Datatype
    origin_datatype, void *result_addr, int result_count, MPI_Datatype
    result_datatype, int target_rank, MPI_Aint target_disp, int target_count,
    MPI_Datatype target_datatype, MPI_Op op, MPI_Win win);
int MPI_Fetch_and_op(const void *origin_addr, void *result_addr, MPI_Datatype
    datatype, int target_rank, MPI_Aint target_disp, MPI_Op op, MPI_Win win);
int PMPI_Fetch_and_op(const void *origin_addr, void *result_addr, MPI_Datatype
    datatype, int target_rank, MPI_Aint target_disp, MPI_Op op, MPI_Win win);
int MPI_Compare_and_swap(const void *origin_addr, const void *compare_addr,
    void *result_addr, MPI_Datatype datatype, int target_rank, MPI_Aint
    target_disp, MPI_Win win);
int PMPI_Compare_and_swap(const void *origin_addr, const void *compare_addr,
    void *result_addr, MPI_Datatype datatype, int target_rank, MPI_Aint
    target_disp, MPI_Win win);
int MPI_Rput(const void *origin_addr, int origin_count, MPI_Datatype
    origin_datatype, int target_rank, MPI_Aint target_disp, int target_count,
    MPI_Datatype target_datatype, MPI_Win win, MPI_Request *request);
int PMPI_Rput(const void *origin_addr, int origin_count, MPI_Datatype
    origin_datatype, int target_rank, MPI_Aint target_disp, int target_count,
    MPI_Datatype target_datatype, MPI_Win win, MPI_Request *request);
int MPI_Rget(void *origin_addr, int origin_count, MPI_Datatype origin_datatype,
    int target_rank, MPI_Aint target_disp, int target_count, MPI_Datatype
    target_datatype, MPI_Win win, MPI_Request *request);
int PMPI_Rget(void *origin_addr, int origin_count, MPI_Datatype
    origin_datatype, int target_rank, MPI_Aint target_disp, int target_count,
    MPI_Datatype target_datatype, MPI_Win win, MPI_Request *request);
int MPI_Raccumulate(const void *origin_addr, int origin_count, MPI_Datatype
    origin_datatype, int target_rank, MPI_Aint target_disp, int target_count,
    MPI_Datatype target_datatype, MPI_Op op, MPI_Win win, MPI_Request
    *request);
int PMPI_Raccumulate(const void *origin_addr, int origin_count, MPI_Datatype
    origin_datatype, int target_rank, MPI_Aint target_disp, int target_count,
    MPI_Datatype target_datatype, MPI_Op op, MPI_Win win, MPI_Request
    *request);
int MPI_Rget_accumulate(const void *origin_addr, int origin_count, MPI_Datatype
    origin_datatype, void *result_addr, int result_count, MPI_Datatype
    result_datatype, int target_rank, MPI_Aint target_disp, int target_count,
    MPI_Datatype target_datatype, MPI_Op op, MPI_Win win, MPI_Request
    *request);
int PMPI_Rget_accumulate(const void *origin_addr, int origin_count,
    MPI_Datatype origin_datatype, void *result_addr, int result_count,
    MPI_Datatype result_datatype, int target_rank, MPI_Aint target_disp, int
    target_count, MPI_Datatype target_datatype, MPI_Op op, MPI_Win win,
    MPI_Request *request);
int MPI_Win_fence(int assert, MPI_Win win);
int PMPI_Win_fence(int assert, MPI_Win win);
int MPI_Win_post(MPI_Group group, int assert, MPI_Win win);
int PMPI_Win_post(MPI_Group group, int assert, MPI_Win win);
int MPI_Win_start(MPI_Group group, int assert, MPI_Win win);
int PMPI_Win_start(MPI_Group group, int assert, MPI_Win win);
int MPI_Win_complete(MPI_Win win);
int PMPI_Win_complete(MPI_Win win);
int MPI_Win_wait(MPI_Win win);
int PMPI_Win_wait(MPI_Win win);
int MPI_Win_test(MPI_Win win, int *flag);
int PMPI_Win_test(MPI_Win win, int *flag);
int MPI_Win_lock(int lock_type, int rank, int assert, MPI_Win win);
int PMPI_Win_lock(int lock_type, int rank, int assert, MPI_Win win);
int MPI_Win_unlock(int rank, MPI_Win win);
int PMPI_Win_unlock(int rank, MPI_Win win);
int MPI_Win_lock_all(int assert, MPI_Win win);
int PMPI_Win_lock_all(int assert, MPI_Win win);
int MPI_Win_unlock_all(MPI_Win win);
int PMPI_Win_unlock_all(MPI_Win win);
int MPI_Win_flush(int rank, MPI_Win win);
int PMPI_Win_flush(int rank, MPI_Win win);
int MPI_Win_flush_all(MPI_Win win);
int PMPI_Win_flush_all(MPI_Win win);
int MPI_Win_flush_local(int rank, MPI_Win win);
int PMPI_Win_flush_local(int rank, MPI_Win win);
int MPI_Win_flush_local_all(MPI_Win win);
int PMPI_Win_flush_local_all(MPI_Win win);
int MPI_Win_sync(MPI_Win win);
int PMPI_Win_sync(MPI_Win win);
int MPI_Put_c(const void *origin_addr, MPI_Count origin_count,
    MPI_Datatype origin_datatype, int target_rank, MPI_Aint target_disp,
    MPI_Count target_count, MPI_Datatype target_datatype, MPI_Win win);
int PMPI_Put_c(const void *origin_addr, MPI_Count origin_count,
    MPI_Datatype origin_datatype, int target_rank, MPI_Aint target_disp,
    MPI_Count target_count, MPI_Datatype target_datatype, MPI_Win win);
int MPI_Get_c(void *origin_addr, MPI_Count origin_count,
    MPI_Datatype origin_datatype, int target_rank, MPI_Aint target_disp,
    MPI_Count target_count, MPI_Datatype target_datatype, MPI_Win win);
int PMPI_Get_c(void *origin_addr, MPI_Count origin_count,
    MPI_Datatype origin_datatype, int target_rank, MPI_Aint target_disp,
    MPI_Count target_count, MPI_Datatype target_datatype, MPI_Win win);
int MPI_Rput_c(const void *origin_addr, MPI_Count origin_count,
    MPI_Datatype origin_datatype, int target_rank, MPI_Aint target_disp,
    MPI_Count target_count, MPI_Datatype target_datatype, MPI_Win win,
    MPI_Request *request);
int PMPI_Rput_c(const void *origin_addr, MPI_Count origin_count,
    MPI_Datatype origin_datatype, int target_rank, MPI_Aint target_disp,
    MPI_Count target_count, MPI_Datatype target_datatype, MPI_Win win,
    MPI_Request *request);
int MPI_Rget_c(void *origin_addr, MPI_Count origin_count,
    MPI_Datatype origin_datatype, int target_rank, MPI_Aint target_disp,
    MPI_Count target_count, MPI_Datatype target_datatype, MPI_Win win,
    MPI_Request *request);
int PMPI_Rget_c(void *origin_addr, MPI_Count origin_count,
    MPI_Datatype origin_datatype, int target_rank, MPI_Aint target_disp,
    MPI_Count target_count, MPI_Datatype target_datatype, MPI_Win win,
    MPI_Request *request);
int MPI_Accumulate_c(const void *origin_addr, MPI_Count origin_count,
    MPI_Datatype origin_datatype, int target_rank, MPI_Aint target_disp,
    MPI_Count target_count, MPI_Datatype target_datatype, MPI_Op op,
    MPI_Win win);
int PMPI_Accumulate_c(const void *origin_addr, MPI_Count origin_count,
    MPI_Datatype origin_datatype, int target_rank, MPI_Aint target_disp,
    MPI_Count target_count, MPI_Datatype target_datatype, MPI_Op op,
    MPI_Win win);
int MPI_Raccumulate_c(const void *origin_addr, MPI_Count origin_count,
    MPI_Datatype origin_datatype, int target_rank, MPI_Aint target_disp,
    MPI_Count target_count, MPI_Datatype target_datatype, MPI_Op op,
    MPI_Win win, MPI_Request *request);
int PMPI_Raccumulate_c(const void *origin_addr, MPI_Count origin_count,
    MPI_Datatype origin_datatype, int target_rank, MPI_Aint target_disp,
    MPI_Count target_count, MPI_Datatype target_datatype, MPI_Op op,
    MPI_Win win, MPI_Request *request);
int MPI_Get_accumulate_c(const void *origin_addr, MPI_Count origin_count,
    MPI_Datatype origin_datatype, void *result_addr, MPI_Count result_count,
    MPI_Datatype result_datatype, int target_rank, MPI_Aint target_disp,
    MPI_Count target_count, MPI_Datatype target_datatype, MPI_Op op,
    MPI_Win win);
int PMPI_Get_accumulate_c(const void *origin_addr, MPI_Count origin_count,
    MPI_Datatype origin_datatype, void *result_addr, MPI_Count result_count,
    MPI_Datatype result_datatype, int target_rank, MPI_Aint target_disp,
    MPI_Count target_count, MPI_Datatype target_datatype, MPI_Op op,
    MPI_Win win);
int MPI_Rget_accumulate_c(const void *origin_addr, MPI_Count origin_count,
    MPI_Datatype origin_datatype, void *result_addr, MPI_Count result_count,
    MPI_Datatype result_datatype, int target_rank, MPI_Aint target_disp,
    MPI_Count target_count, MPI_Datatype target_datatype, MPI_Op op,
    MPI_Win win, MPI_Request *request);
int PMPI_Rget_accumulate_c(const void *origin_addr, MPI_Count origin_count,
    MPI_Datatype origin_datatype, void *result_addr, MPI_Count result_count,
    MPI_Datatype result_datatype, int target_rank, MPI_Aint target_disp,
    MPI_Count target_count, MPI_Datatype target_datatype, MPI_Op op,
    MPI_Win win, MPI_Request *request);
int MPI_Win_shared_query_c(MPI_Win win, int rank, MPI_Aint *size,
    MPI_Aint *disp_unit, void *baseptr);
int PMPI_Win_shared_query_c(MPI_Win win, int rank, MPI_Aint *size,
    MPI_Aint *disp_unit, void *baseptr);
int MPI_Win_create_c(void *base, MPI_Aint size, MPI_Aint disp_unit,
    MPI_Info info, MPI_Comm comm, MPI_Win *win);
int PMPI_Win_create_c(void *base, MPI_Aint size, MPI_Aint disp_unit,
    MPI_Info info, MPI_Comm comm, MPI_Win *win);
int MPI_Win_allocate_c(MPI_Aint size, MPI_Aint disp_unit, MPI_Info info,
    MPI_Comm comm, void *baseptr, MPI_Win *win);
int PMPI_Win_allocate_c(MPI_Aint size, MPI_Aint disp_unit, MPI_Info info,
    MPI_Comm comm, void *baseptr, MPI_Win *win);
int MPI_Win_allocate_shared_c(MPI_Aint size, MPI_Aint disp_unit,
    MPI_Info info, MPI_Comm comm, void *baseptr, MPI_Win *win);
int PMPI_Win_allocate_shared_c(MPI_Aint size, MPI_Aint disp_unit,
    MPI_Info info, MPI_Comm comm, void *baseptr, MPI_Win *win);
/* ---- end section: rma ---- */

/* ---- section: mpit (tool information interface, MPI-4.1 ch. 15) ---- */
typedef struct ucmpi_mpit_enum_s          *MPI_T_enum;
typedef struct ucmpi_mpit_cvar_handle_s   *MPI_T_cvar_handle;
typedef struct ucmpi_mpit_pvar_handle_s   *MPI_T_pvar_handle;
typedef struct ucmpi_mpit_pvar_session_s  *MPI_T_pvar_session;
typedef struct ucmpi_mpit_event_reg_s     *MPI_T_event_registration;
typedef struct ucmpi_mpit_event_inst_s    *MPI_T_event_instance;

#define MPI_T_ENUM_NULL               ((MPI_T_enum)0)
#define MPI_T_CVAR_HANDLE_NULL        ((MPI_T_cvar_handle)0)
#define MPI_T_PVAR_HANDLE_NULL        ((MPI_T_pvar_handle)0)
#define MPI_T_PVAR_ALL_HANDLES        ((MPI_T_pvar_handle)1)
#define MPI_T_PVAR_SESSION_NULL       ((MPI_T_pvar_session)0)
#define MPI_T_EVENT_REGISTRATION_NULL ((MPI_T_event_registration)0)

enum {
    MPI_T_VERBOSITY_USER_BASIC = 1, MPI_T_VERBOSITY_USER_DETAIL,
    MPI_T_VERBOSITY_USER_ALL, MPI_T_VERBOSITY_TUNER_BASIC,
    MPI_T_VERBOSITY_TUNER_DETAIL, MPI_T_VERBOSITY_TUNER_ALL,
    MPI_T_VERBOSITY_MPIDEV_BASIC, MPI_T_VERBOSITY_MPIDEV_DETAIL,
    MPI_T_VERBOSITY_MPIDEV_ALL
};
enum {
    MPI_T_BIND_NO_OBJECT = 1, MPI_T_BIND_MPI_COMM, MPI_T_BIND_MPI_DATATYPE,
    MPI_T_BIND_MPI_ERRHANDLER, MPI_T_BIND_MPI_FILE, MPI_T_BIND_MPI_GROUP,
    MPI_T_BIND_MPI_OP, MPI_T_BIND_MPI_REQUEST, MPI_T_BIND_MPI_WIN,
    MPI_T_BIND_MPI_MESSAGE, MPI_T_BIND_MPI_INFO, MPI_T_BIND_MPI_SESSION
};
enum {
    MPI_T_SCOPE_CONSTANT = 1, MPI_T_SCOPE_READONLY, MPI_T_SCOPE_LOCAL,
    MPI_T_SCOPE_GROUP, MPI_T_SCOPE_GROUP_EQ, MPI_T_SCOPE_ALL,
    MPI_T_SCOPE_ALL_EQ
};
enum {
    MPI_T_PVAR_CLASS_STATE = 1, MPI_T_PVAR_CLASS_LEVEL, MPI_T_PVAR_CLASS_SIZE,
    MPI_T_PVAR_CLASS_PERCENTAGE, MPI_T_PVAR_CLASS_HIGHWATERMARK,
    MPI_T_PVAR_CLASS_LOWWATERMARK, MPI_T_PVAR_CLASS_COUNTER,
    MPI_T_PVAR_CLASS_AGGREGATE, MPI_T_PVAR_CLASS_TIMER,
    MPI_T_PVAR_CLASS_GENERIC
};
typedef enum MPI_T_cb_safety {
    MPI_T_CB_REQUIRE_NONE = 0, MPI_T_CB_REQUIRE_MPI_RESTRICTED,
    MPI_T_CB_REQUIRE_THREAD_SAFE, MPI_T_CB_REQUIRE_ASYNC_SIGNAL_SAFE
} MPI_T_cb_safety;
typedef enum MPI_T_source_order {
    MPI_T_SOURCE_ORDERED = 0, MPI_T_SOURCE_UNORDERED
} MPI_T_source_order;

typedef void MPI_T_event_cb_function(MPI_T_event_instance event_instance,
    MPI_T_event_registration event_registration, MPI_T_cb_safety cb_safety,
    void *user_data);
typedef void MPI_T_event_free_cb_function(
    MPI_T_event_registration event_registration, MPI_T_cb_safety cb_safety,
    void *user_data);
typedef void MPI_T_event_dropped_cb_function(MPI_Count count,
    MPI_T_event_registration event_registration, int source_index,
    MPI_T_cb_safety cb_safety, void *user_data);

int MPI_T_init_thread(int required, int *provided);
int PMPI_T_init_thread(int required, int *provided);
int MPI_T_finalize(void);
int PMPI_T_finalize(void);
int MPI_T_enum_get_info(MPI_T_enum enumtype, int *num, char *name, int
    *name_len);
int PMPI_T_enum_get_info(MPI_T_enum enumtype, int *num, char *name, int
    *name_len);
int MPI_T_enum_get_item(MPI_T_enum enumtype, int indx, int *value, char *name,
    int *name_len);
int PMPI_T_enum_get_item(MPI_T_enum enumtype, int indx, int *value, char
    *name, int *name_len);
int MPI_T_cvar_get_num(int *num_cvar);
int PMPI_T_cvar_get_num(int *num_cvar);
int MPI_T_cvar_get_info(int cvar_index, char *name, int *name_len, int
    *verbosity, MPI_Datatype *datatype, MPI_T_enum *enumtype, char *desc, int
    *desc_len, int *bind, int *scope);
int PMPI_T_cvar_get_info(int cvar_index, char *name, int *name_len, int
    *verbosity, MPI_Datatype *datatype, MPI_T_enum *enumtype, char *desc, int
    *desc_len, int *bind, int *scope);
int MPI_T_cvar_get_index(const char *name, int *cvar_index);
int PMPI_T_cvar_get_index(const char *name, int *cvar_index);
int MPI_T_cvar_handle_alloc(int cvar_index, void *obj_handle, MPI_T_cvar_handle
    *handle, int *count);
int PMPI_T_cvar_handle_alloc(int cvar_index, void *obj_handle,
    MPI_T_cvar_handle *handle, int *count);
int MPI_T_cvar_handle_free(MPI_T_cvar_handle *handle);
int PMPI_T_cvar_handle_free(MPI_T_cvar_handle *handle);
int MPI_T_cvar_read(MPI_T_cvar_handle handle, void *buf);
int PMPI_T_cvar_read(MPI_T_cvar_handle handle, void *buf);
int MPI_T_cvar_write(MPI_T_cvar_handle handle, const void *buf);
int PMPI_T_cvar_write(MPI_T_cvar_handle handle, const void *buf);
int MPI_T_pvar_get_num(int *num_pvar);
int PMPI_T_pvar_get_num(int *num_pvar);
int MPI_T_pvar_get_info(int pvar_index, char *name, int *name_len, int
    *verbosity, int *var_class, MPI_Datatype *datatype, MPI_T_enum *enumtype,
    char *desc, int *desc_len, int *bind, int *readonly, int *continuous, int
    *atomic);
int PMPI_T_pvar_get_info(int pvar_index, char *name, int *name_len, int
    *verbosity, int *var_class, MPI_Datatype *datatype, MPI_T_enum *enumtype,
    char *desc, int *desc_len, int *bind, int *readonly, int *continuous, int
    *atomic);
int MPI_T_pvar_get_index(const char *name, int var_class, int *pvar_index);
int PMPI_T_pvar_get_index(const char *name, int var_class, int *pvar_index);
int MPI_T_pvar_session_create(MPI_T_pvar_session *session);
int PMPI_T_pvar_session_create(MPI_T_pvar_session *session);
int MPI_T_pvar_session_free(MPI_T_pvar_session *session);
int PMPI_T_pvar_session_free(MPI_T_pvar_session *session);
int MPI_T_pvar_handle_alloc(MPI_T_pvar_session session, int pvar_index, void
    *obj_handle, MPI_T_pvar_handle *handle, int *count);
int PMPI_T_pvar_handle_alloc(MPI_T_pvar_session session, int pvar_index, void
    *obj_handle, MPI_T_pvar_handle *handle, int *count);
int MPI_T_pvar_handle_free(MPI_T_pvar_session session, MPI_T_pvar_handle
    *handle);
int PMPI_T_pvar_handle_free(MPI_T_pvar_session session, MPI_T_pvar_handle
    *handle);
int MPI_T_pvar_start(MPI_T_pvar_session session, MPI_T_pvar_handle handle);
int PMPI_T_pvar_start(MPI_T_pvar_session session, MPI_T_pvar_handle handle);
int MPI_T_pvar_stop(MPI_T_pvar_session session, MPI_T_pvar_handle handle);
int PMPI_T_pvar_stop(MPI_T_pvar_session session, MPI_T_pvar_handle handle);
int MPI_T_pvar_read(MPI_T_pvar_session session, MPI_T_pvar_handle handle, void
    *buf);
int PMPI_T_pvar_read(MPI_T_pvar_session session, MPI_T_pvar_handle handle, void
    *buf);
int MPI_T_pvar_write(MPI_T_pvar_session session, MPI_T_pvar_handle handle,
    const void *buf);
int PMPI_T_pvar_write(MPI_T_pvar_session session, MPI_T_pvar_handle handle,
    const void *buf);
int MPI_T_pvar_reset(MPI_T_pvar_session session, MPI_T_pvar_handle handle);
int PMPI_T_pvar_reset(MPI_T_pvar_session session, MPI_T_pvar_handle handle);
int MPI_T_pvar_readreset(MPI_T_pvar_session session, MPI_T_pvar_handle handle,
    void *buf);
int PMPI_T_pvar_readreset(MPI_T_pvar_session session, MPI_T_pvar_handle handle,
    void *buf);
int MPI_T_category_get_num(int *num_cat);
int PMPI_T_category_get_num(int *num_cat);
int MPI_T_category_get_info(int cat_index, char *name, int *name_len, char
    *desc, int *desc_len, int *num_cvars, int *num_pvars, int *num_categories);
int PMPI_T_category_get_info(int cat_index, char *name, int *name_len, char
    *desc, int *desc_len, int *num_cvars, int *num_pvars, int *num_categories);
int MPI_T_category_get_num_events(int cat_index, int *num_events);
int PMPI_T_category_get_num_events(int cat_index, int *num_events);
int MPI_T_category_get_index(const char *name, int *cat_index);
int PMPI_T_category_get_index(const char *name, int *cat_index);
int MPI_T_category_get_cvars(int cat_index, int len, int indices[]);
int PMPI_T_category_get_cvars(int cat_index, int len, int indices[]);
int MPI_T_category_get_pvars(int cat_index, int len, int indices[]);
int PMPI_T_category_get_pvars(int cat_index, int len, int indices[]);
int MPI_T_category_get_events(int cat_index, int len, int indices[]);
int PMPI_T_category_get_events(int cat_index, int len, int indices[]);
int MPI_T_category_get_categories(int cat_index, int len, int indices[]);
int PMPI_T_category_get_categories(int cat_index, int len, int indices[]);
int MPI_T_category_changed(int *update_number);
int PMPI_T_category_changed(int *update_number);
int MPI_T_source_get_num(int *num_sources);
int PMPI_T_source_get_num(int *num_sources);
int MPI_T_source_get_info(int source_index, char *name, int *name_len, char
    *desc, int *desc_len, MPI_T_source_order *ordering, MPI_Count
    *ticks_per_second, MPI_Count *max_ticks, MPI_Info *info);
int PMPI_T_source_get_info(int source_index, char *name, int *name_len, char
    *desc, int *desc_len, MPI_T_source_order *ordering, MPI_Count
    *ticks_per_second, MPI_Count *max_ticks, MPI_Info *info);
int MPI_T_source_get_timestamp(int source_index, MPI_Count *timestamp);
int PMPI_T_source_get_timestamp(int source_index, MPI_Count *timestamp);
int MPI_T_event_get_num(int *num_events);
int PMPI_T_event_get_num(int *num_events);
int MPI_T_event_get_info(int event_index, char *name, int *name_len, int
    *verbosity, MPI_Datatype array_of_datatypes[], MPI_Aint
    array_of_displacements[], int *num_elements, MPI_T_enum *enumtype, MPI_Info
    *info, char *desc, int *desc_len, int *bind);
int PMPI_T_event_get_info(int event_index, char *name, int *name_len, int
    *verbosity, MPI_Datatype array_of_datatypes[], MPI_Aint
    array_of_displacements[], int *num_elements, MPI_T_enum *enumtype, MPI_Info
    *info, char *desc, int *desc_len, int *bind);
int MPI_T_event_get_index(const char *name, int *event_index);
int PMPI_T_event_get_index(const char *name, int *event_index);
int MPI_T_event_handle_alloc(int event_index, void *obj_handle, MPI_Info info,
    MPI_T_event_registration *event_registration);
int PMPI_T_event_handle_alloc(int event_index, void *obj_handle, MPI_Info info,
    MPI_T_event_registration *event_registration);
int MPI_T_event_handle_set_info(MPI_T_event_registration event_registration,
    MPI_Info info);
int PMPI_T_event_handle_set_info(MPI_T_event_registration event_registration,
    MPI_Info info);
int MPI_T_event_handle_get_info(MPI_T_event_registration event_registration,
    MPI_Info *info_used);
int PMPI_T_event_handle_get_info(MPI_T_event_registration event_registration,
    MPI_Info *info_used);
int MPI_T_event_register_callback(MPI_T_event_registration event_registration,
    MPI_T_cb_safety cb_safety, MPI_Info info, void *user_data,
    MPI_T_event_cb_function *event_cb_function);
int PMPI_T_event_register_callback(MPI_T_event_registration event_registration,
    MPI_T_cb_safety cb_safety, MPI_Info info, void *user_data,
    MPI_T_event_cb_function *event_cb_function);
int MPI_T_event_callback_set_info(MPI_T_event_registration event_registration,
    MPI_T_cb_safety cb_safety, MPI_Info info);
int PMPI_T_event_callback_set_info(MPI_T_event_registration event_registration,
    MPI_T_cb_safety cb_safety, MPI_Info info);
int MPI_T_event_callback_get_info(MPI_T_event_registration event_registration,
    MPI_T_cb_safety cb_safety, MPI_Info *info_used);
int PMPI_T_event_callback_get_info(MPI_T_event_registration event_registration,
    MPI_T_cb_safety cb_safety, MPI_Info *info_used);
int MPI_T_event_handle_free(MPI_T_event_registration event_registration, void
    *user_data, MPI_T_event_free_cb_function *free_cb_function);
int PMPI_T_event_handle_free(MPI_T_event_registration event_registration, void
    *user_data, MPI_T_event_free_cb_function *free_cb_function);
int MPI_T_event_set_dropped_handler(MPI_T_event_registration
    event_registration, MPI_T_event_dropped_cb_function *dropped_cb_function);
int PMPI_T_event_set_dropped_handler(MPI_T_event_registration
    event_registration, MPI_T_event_dropped_cb_function *dropped_cb_function);
int MPI_T_event_read(MPI_T_event_instance event_instance, int element_index,
    void *buffer);
int PMPI_T_event_read(MPI_T_event_instance event_instance, int element_index,
    void *buffer);
int MPI_T_event_copy(MPI_T_event_instance event_instance, void *buffer);
int PMPI_T_event_copy(MPI_T_event_instance event_instance, void *buffer);
int MPI_T_event_get_timestamp(MPI_T_event_instance event_instance, MPI_Count
    *event_timestamp);
int PMPI_T_event_get_timestamp(MPI_T_event_instance event_instance, MPI_Count
    *event_timestamp);
int MPI_T_event_get_source(MPI_T_event_instance event_instance, int
    *source_index);
int PMPI_T_event_get_source(MPI_T_event_instance event_instance, int
    *source_index);
/* ---- end section: mpit ---- */

/* ---- section: io (MPI-IO, MPI-4.1 ch. 14) ---- */
typedef struct ucmpi_file_s *MPI_File;
#define MPI_FILE_NULL ((MPI_File)0)
typedef void MPI_File_errhandler_function(MPI_File *, int *, ...);

/* access modes (bit flags) */
#define MPI_MODE_CREATE            1
#define MPI_MODE_RDONLY            2
#define MPI_MODE_WRONLY            4
#define MPI_MODE_RDWR              8
#define MPI_MODE_DELETE_ON_CLOSE  16
#define MPI_MODE_UNIQUE_OPEN      32
#define MPI_MODE_EXCL             64
#define MPI_MODE_APPEND          128
#define MPI_MODE_SEQUENTIAL      256

#define MPI_SEEK_SET 600
#define MPI_SEEK_CUR 602
#define MPI_SEEK_END 604
#define MPI_DISPLACEMENT_CURRENT (-54278278)

/* ROMIO's names for I/O requests, which programs written for MPICH and
 * Open MPI use: plain MPI requests here */
#define MPIO_Request      MPI_Request
#define MPIO_REQUEST_NULL MPI_REQUEST_NULL
#define MPIO_Wait         MPI_Wait
#define MPIO_Test         MPI_Test

int MPI_File_open(MPI_Comm comm, const char *filename, int amode, MPI_Info
    info, MPI_File *fh);
int PMPI_File_open(MPI_Comm comm, const char *filename, int amode, MPI_Info
    info, MPI_File *fh);
int MPI_File_close(MPI_File *fh);
int PMPI_File_close(MPI_File *fh);
int MPI_File_delete(const char *filename, MPI_Info info);
int PMPI_File_delete(const char *filename, MPI_Info info);
int MPI_File_set_size(MPI_File fh, MPI_Offset size);
int PMPI_File_set_size(MPI_File fh, MPI_Offset size);
int MPI_File_preallocate(MPI_File fh, MPI_Offset size);
int PMPI_File_preallocate(MPI_File fh, MPI_Offset size);
int MPI_File_get_size(MPI_File fh, MPI_Offset *size);
int PMPI_File_get_size(MPI_File fh, MPI_Offset *size);
int MPI_File_get_group(MPI_File fh, MPI_Group *group);
int PMPI_File_get_group(MPI_File fh, MPI_Group *group);
int MPI_File_get_amode(MPI_File fh, int *amode);
int PMPI_File_get_amode(MPI_File fh, int *amode);
int MPI_File_set_info(MPI_File fh, MPI_Info info);
int PMPI_File_set_info(MPI_File fh, MPI_Info info);
int MPI_File_get_info(MPI_File fh, MPI_Info *info_used);
int PMPI_File_get_info(MPI_File fh, MPI_Info *info_used);
int MPI_File_sync(MPI_File fh);
int PMPI_File_sync(MPI_File fh);
int MPI_File_get_type_extent(MPI_File fh, MPI_Datatype datatype, MPI_Aint
    *extent);
int PMPI_File_get_type_extent(MPI_File fh, MPI_Datatype datatype, MPI_Aint
    *extent);
int MPI_File_get_type_extent_c(MPI_File fh, MPI_Datatype datatype, MPI_Count
    *extent);
int PMPI_File_get_type_extent_c(MPI_File fh, MPI_Datatype datatype, MPI_Count
    *extent);
int MPI_File_set_view(MPI_File fh, MPI_Offset disp, MPI_Datatype etype,
    MPI_Datatype filetype, const char *datarep, MPI_Info info);
int PMPI_File_set_view(MPI_File fh, MPI_Offset disp, MPI_Datatype etype,
    MPI_Datatype filetype, const char *datarep, MPI_Info info);
int MPI_File_get_view(MPI_File fh, MPI_Offset *disp, MPI_Datatype *etype,
    MPI_Datatype *filetype, char *datarep);
int PMPI_File_get_view(MPI_File fh, MPI_Offset *disp, MPI_Datatype *etype,
    MPI_Datatype *filetype, char *datarep);
int MPI_File_seek(MPI_File fh, MPI_Offset offset, int whence);
int PMPI_File_seek(MPI_File fh, MPI_Offset offset, int whence);
int MPI_File_get_position(MPI_File fh, MPI_Offset *offset);
int PMPI_File_get_position(MPI_File fh, MPI_Offset *offset);
int MPI_File_get_byte_offset(MPI_File fh, MPI_Offset offset, MPI_Offset *disp);
int PMPI_File_get_byte_offset(MPI_File fh, MPI_Offset offset, MPI_Offset
    *disp);
int MPI_File_set_atomicity(MPI_File fh, int flag);
int PMPI_File_set_atomicity(MPI_File fh, int flag);
int MPI_File_get_atomicity(MPI_File fh, int *flag);
int PMPI_File_get_atomicity(MPI_File fh, int *flag);
int MPI_File_create_errhandler(MPI_File_errhandler_function
    *file_errhandler_fn, MPI_Errhandler *errhandler);
int PMPI_File_create_errhandler(MPI_File_errhandler_function
    *file_errhandler_fn, MPI_Errhandler *errhandler);
int MPI_File_set_errhandler(MPI_File file, MPI_Errhandler errhandler);
int PMPI_File_set_errhandler(MPI_File file, MPI_Errhandler errhandler);
int MPI_File_get_errhandler(MPI_File file, MPI_Errhandler *errhandler);
int PMPI_File_get_errhandler(MPI_File file, MPI_Errhandler *errhandler);
int MPI_File_call_errhandler(MPI_File fh, int errorcode);
int PMPI_File_call_errhandler(MPI_File fh, int errorcode);
MPI_Fint MPI_File_c2f(MPI_File file);
MPI_Fint PMPI_File_c2f(MPI_File file);
MPI_File MPI_File_f2c(MPI_Fint file);
MPI_File PMPI_File_f2c(MPI_Fint file);
int MPI_File_read(MPI_File fh, void *buf, int count, MPI_Datatype datatype,
    MPI_Status *status);
int PMPI_File_read(MPI_File fh, void *buf, int count, MPI_Datatype datatype,
    MPI_Status *status);
int MPI_File_read_c(MPI_File fh, void *buf, MPI_Count count, MPI_Datatype
    datatype, MPI_Status *status);
int PMPI_File_read_c(MPI_File fh, void *buf, MPI_Count count, MPI_Datatype
    datatype, MPI_Status *status);
int MPI_File_read_all(MPI_File fh, void *buf, int count, MPI_Datatype datatype,
    MPI_Status *status);
int PMPI_File_read_all(MPI_File fh, void *buf, int count, MPI_Datatype
    datatype, MPI_Status *status);
int MPI_File_read_all_c(MPI_File fh, void *buf, MPI_Count count, MPI_Datatype
    datatype, MPI_Status *status);
int PMPI_File_read_all_c(MPI_File fh, void *buf, MPI_Count count, MPI_Datatype
    datatype, MPI_Status *status);
int MPI_File_read_at(MPI_File fh, MPI_Offset offset, void *buf, int count,
    MPI_Datatype datatype, MPI_Status *status);
int PMPI_File_read_at(MPI_File fh, MPI_Offset offset, void *buf, int count,
    MPI_Datatype datatype, MPI_Status *status);
int MPI_File_read_at_c(MPI_File fh, MPI_Offset offset, void *buf, MPI_Count
    count, MPI_Datatype datatype, MPI_Status *status);
int PMPI_File_read_at_c(MPI_File fh, MPI_Offset offset, void *buf, MPI_Count
    count, MPI_Datatype datatype, MPI_Status *status);
int MPI_File_read_at_all(MPI_File fh, MPI_Offset offset, void *buf, int count,
    MPI_Datatype datatype, MPI_Status *status);
int PMPI_File_read_at_all(MPI_File fh, MPI_Offset offset, void *buf, int count,
    MPI_Datatype datatype, MPI_Status *status);
int MPI_File_read_at_all_c(MPI_File fh, MPI_Offset offset, void *buf, MPI_Count
    count, MPI_Datatype datatype, MPI_Status *status);
int PMPI_File_read_at_all_c(MPI_File fh, MPI_Offset offset, void *buf,
    MPI_Count count, MPI_Datatype datatype, MPI_Status *status);
int MPI_File_iread(MPI_File fh, void *buf, int count, MPI_Datatype datatype,
    MPI_Request *request);
int PMPI_File_iread(MPI_File fh, void *buf, int count, MPI_Datatype datatype,
    MPI_Request *request);
int MPI_File_iread_c(MPI_File fh, void *buf, MPI_Count count, MPI_Datatype
    datatype, MPI_Request *request);
int PMPI_File_iread_c(MPI_File fh, void *buf, MPI_Count count, MPI_Datatype
    datatype, MPI_Request *request);
int MPI_File_iread_all(MPI_File fh, void *buf, int count, MPI_Datatype
    datatype, MPI_Request *request);
int PMPI_File_iread_all(MPI_File fh, void *buf, int count, MPI_Datatype
    datatype, MPI_Request *request);
int MPI_File_iread_all_c(MPI_File fh, void *buf, MPI_Count count, MPI_Datatype
    datatype, MPI_Request *request);
int PMPI_File_iread_all_c(MPI_File fh, void *buf, MPI_Count count, MPI_Datatype
    datatype, MPI_Request *request);
int MPI_File_iread_at(MPI_File fh, MPI_Offset offset, void *buf, int count,
    MPI_Datatype datatype, MPI_Request *request);
int PMPI_File_iread_at(MPI_File fh, MPI_Offset offset, void *buf, int count,
    MPI_Datatype datatype, MPI_Request *request);
int MPI_File_iread_at_c(MPI_File fh, MPI_Offset offset, void *buf, MPI_Count
    count, MPI_Datatype datatype, MPI_Request *request);
int PMPI_File_iread_at_c(MPI_File fh, MPI_Offset offset, void *buf, MPI_Count
    count, MPI_Datatype datatype, MPI_Request *request);
int MPI_File_iread_at_all(MPI_File fh, MPI_Offset offset, void *buf, int count,
    MPI_Datatype datatype, MPI_Request *request);
int PMPI_File_iread_at_all(MPI_File fh, MPI_Offset offset, void *buf, int
    count, MPI_Datatype datatype, MPI_Request *request);
int MPI_File_iread_at_all_c(MPI_File fh, MPI_Offset offset, void *buf,
    MPI_Count count, MPI_Datatype datatype, MPI_Request *request);
int PMPI_File_iread_at_all_c(MPI_File fh, MPI_Offset offset, void *buf,
    MPI_Count count, MPI_Datatype datatype, MPI_Request *request);
int MPI_File_read_shared(MPI_File fh, void *buf, int count, MPI_Datatype
    datatype, MPI_Status *status);
int PMPI_File_read_shared(MPI_File fh, void *buf, int count, MPI_Datatype
    datatype, MPI_Status *status);
int MPI_File_read_shared_c(MPI_File fh, void *buf, MPI_Count count,
    MPI_Datatype datatype, MPI_Status *status);
int PMPI_File_read_shared_c(MPI_File fh, void *buf, MPI_Count count,
    MPI_Datatype datatype, MPI_Status *status);
int MPI_File_read_ordered(MPI_File fh, void *buf, int count, MPI_Datatype
    datatype, MPI_Status *status);
int PMPI_File_read_ordered(MPI_File fh, void *buf, int count, MPI_Datatype
    datatype, MPI_Status *status);
int MPI_File_read_ordered_c(MPI_File fh, void *buf, MPI_Count count,
    MPI_Datatype datatype, MPI_Status *status);
int PMPI_File_read_ordered_c(MPI_File fh, void *buf, MPI_Count count,
    MPI_Datatype datatype, MPI_Status *status);
int MPI_File_iread_shared(MPI_File fh, void *buf, int count, MPI_Datatype
    datatype, MPI_Request *request);
int PMPI_File_iread_shared(MPI_File fh, void *buf, int count, MPI_Datatype
    datatype, MPI_Request *request);
int MPI_File_iread_shared_c(MPI_File fh, void *buf, MPI_Count count,
    MPI_Datatype datatype, MPI_Request *request);
int PMPI_File_iread_shared_c(MPI_File fh, void *buf, MPI_Count count,
    MPI_Datatype datatype, MPI_Request *request);
int MPI_File_read_all_begin(MPI_File fh, void *buf, int count, MPI_Datatype
    datatype);
int PMPI_File_read_all_begin(MPI_File fh, void *buf, int count, MPI_Datatype
    datatype);
int MPI_File_read_at_all_begin(MPI_File fh, MPI_Offset offset, void *buf, int
    count, MPI_Datatype datatype);
int PMPI_File_read_at_all_begin(MPI_File fh, MPI_Offset offset, void *buf, int
    count, MPI_Datatype datatype);
int MPI_File_read_ordered_begin(MPI_File fh, void *buf, int count, MPI_Datatype
    datatype);
int PMPI_File_read_ordered_begin(MPI_File fh, void *buf, int count,
    MPI_Datatype datatype);
int MPI_File_read_all_begin_c(MPI_File fh, void *buf, MPI_Count count,
    MPI_Datatype datatype);
int PMPI_File_read_all_begin_c(MPI_File fh, void *buf, MPI_Count count,
    MPI_Datatype datatype);
int MPI_File_read_at_all_begin_c(MPI_File fh, MPI_Offset offset, void *buf,
    MPI_Count count, MPI_Datatype datatype);
int PMPI_File_read_at_all_begin_c(MPI_File fh, MPI_Offset offset, void *buf,
    MPI_Count count, MPI_Datatype datatype);
int MPI_File_read_ordered_begin_c(MPI_File fh, void *buf, MPI_Count count,
    MPI_Datatype datatype);
int PMPI_File_read_ordered_begin_c(MPI_File fh, void *buf, MPI_Count count,
    MPI_Datatype datatype);
int MPI_File_read_all_end(MPI_File fh, void *buf, MPI_Status *status);
int PMPI_File_read_all_end(MPI_File fh, void *buf, MPI_Status *status);
int MPI_File_read_at_all_end(MPI_File fh, void *buf, MPI_Status *status);
int PMPI_File_read_at_all_end(MPI_File fh, void *buf, MPI_Status *status);
int MPI_File_read_ordered_end(MPI_File fh, void *buf, MPI_Status *status);
int PMPI_File_read_ordered_end(MPI_File fh, void *buf, MPI_Status *status);
int MPI_File_write(MPI_File fh, const void *buf, int count, MPI_Datatype
    datatype, MPI_Status *status);
int PMPI_File_write(MPI_File fh, const void *buf, int count, MPI_Datatype
    datatype, MPI_Status *status);
int MPI_File_write_c(MPI_File fh, const void *buf, MPI_Count count,
    MPI_Datatype datatype, MPI_Status *status);
int PMPI_File_write_c(MPI_File fh, const void *buf, MPI_Count count,
    MPI_Datatype datatype, MPI_Status *status);
int MPI_File_write_all(MPI_File fh, const void *buf, int count, MPI_Datatype
    datatype, MPI_Status *status);
int PMPI_File_write_all(MPI_File fh, const void *buf, int count, MPI_Datatype
    datatype, MPI_Status *status);
int MPI_File_write_all_c(MPI_File fh, const void *buf, MPI_Count count,
    MPI_Datatype datatype, MPI_Status *status);
int PMPI_File_write_all_c(MPI_File fh, const void *buf, MPI_Count count,
    MPI_Datatype datatype, MPI_Status *status);
int MPI_File_write_at(MPI_File fh, MPI_Offset offset, const void *buf, int
    count, MPI_Datatype datatype, MPI_Status *status);
int PMPI_File_write_at(MPI_File fh, MPI_Offset offset, const void *buf, int
    count, MPI_Datatype datatype, MPI_Status *status);
int MPI_File_write_at_c(MPI_File fh, MPI_Offset offset, const void *buf,
    MPI_Count count, MPI_Datatype datatype, MPI_Status *status);
int PMPI_File_write_at_c(MPI_File fh, MPI_Offset offset, const void *buf,
    MPI_Count count, MPI_Datatype datatype, MPI_Status *status);
int MPI_File_write_at_all(MPI_File fh, MPI_Offset offset, const void *buf, int
    count, MPI_Datatype datatype, MPI_Status *status);
int PMPI_File_write_at_all(MPI_File fh, MPI_Offset offset, const void *buf, int
    count, MPI_Datatype datatype, MPI_Status *status);
int MPI_File_write_at_all_c(MPI_File fh, MPI_Offset offset, const void *buf,
    MPI_Count count, MPI_Datatype datatype, MPI_Status *status);
int PMPI_File_write_at_all_c(MPI_File fh, MPI_Offset offset, const void *buf,
    MPI_Count count, MPI_Datatype datatype, MPI_Status *status);
int MPI_File_iwrite(MPI_File fh, const void *buf, int count, MPI_Datatype
    datatype, MPI_Request *request);
int PMPI_File_iwrite(MPI_File fh, const void *buf, int count, MPI_Datatype
    datatype, MPI_Request *request);
int MPI_File_iwrite_c(MPI_File fh, const void *buf, MPI_Count count,
    MPI_Datatype datatype, MPI_Request *request);
int PMPI_File_iwrite_c(MPI_File fh, const void *buf, MPI_Count count,
    MPI_Datatype datatype, MPI_Request *request);
int MPI_File_iwrite_all(MPI_File fh, const void *buf, int count, MPI_Datatype
    datatype, MPI_Request *request);
int PMPI_File_iwrite_all(MPI_File fh, const void *buf, int count, MPI_Datatype
    datatype, MPI_Request *request);
int MPI_File_iwrite_all_c(MPI_File fh, const void *buf, MPI_Count count,
    MPI_Datatype datatype, MPI_Request *request);
int PMPI_File_iwrite_all_c(MPI_File fh, const void *buf, MPI_Count count,
    MPI_Datatype datatype, MPI_Request *request);
int MPI_File_iwrite_at(MPI_File fh, MPI_Offset offset, const void *buf, int
    count, MPI_Datatype datatype, MPI_Request *request);
int PMPI_File_iwrite_at(MPI_File fh, MPI_Offset offset, const void *buf, int
    count, MPI_Datatype datatype, MPI_Request *request);
int MPI_File_iwrite_at_c(MPI_File fh, MPI_Offset offset, const void *buf,
    MPI_Count count, MPI_Datatype datatype, MPI_Request *request);
int PMPI_File_iwrite_at_c(MPI_File fh, MPI_Offset offset, const void *buf,
    MPI_Count count, MPI_Datatype datatype, MPI_Request *request);
int MPI_File_iwrite_at_all(MPI_File fh, MPI_Offset offset, const void *buf, int
    count, MPI_Datatype datatype, MPI_Request *request);
int PMPI_File_iwrite_at_all(MPI_File fh, MPI_Offset offset, const void *buf,
    int count, MPI_Datatype datatype, MPI_Request *request);
int MPI_File_iwrite_at_all_c(MPI_File fh, MPI_Offset offset, const void *buf,
    MPI_Count count, MPI_Datatype datatype, MPI_Request *request);
int PMPI_File_iwrite_at_all_c(MPI_File fh, MPI_Offset offset, const void *buf,
    MPI_Count count, MPI_Datatype datatype, MPI_Request *request);
int MPI_File_write_shared(MPI_File fh, const void *buf, int count, MPI_Datatype
    datatype, MPI_Status *status);
int PMPI_File_write_shared(MPI_File fh, const void *buf, int count,
    MPI_Datatype datatype, MPI_Status *status);
int MPI_File_write_shared_c(MPI_File fh, const void *buf, MPI_Count count,
    MPI_Datatype datatype, MPI_Status *status);
int PMPI_File_write_shared_c(MPI_File fh, const void *buf, MPI_Count count,
    MPI_Datatype datatype, MPI_Status *status);
int MPI_File_write_ordered(MPI_File fh, const void *buf, int count,
    MPI_Datatype datatype, MPI_Status *status);
int PMPI_File_write_ordered(MPI_File fh, const void *buf, int count,
    MPI_Datatype datatype, MPI_Status *status);
int MPI_File_write_ordered_c(MPI_File fh, const void *buf, MPI_Count count,
    MPI_Datatype datatype, MPI_Status *status);
int PMPI_File_write_ordered_c(MPI_File fh, const void *buf, MPI_Count count,
    MPI_Datatype datatype, MPI_Status *status);
int MPI_File_iwrite_shared(MPI_File fh, const void *buf, int count,
    MPI_Datatype datatype, MPI_Request *request);
int PMPI_File_iwrite_shared(MPI_File fh, const void *buf, int count,
    MPI_Datatype datatype, MPI_Request *request);
int MPI_File_iwrite_shared_c(MPI_File fh, const void *buf, MPI_Count count,
    MPI_Datatype datatype, MPI_Request *request);
int PMPI_File_iwrite_shared_c(MPI_File fh, const void *buf, MPI_Count count,
    MPI_Datatype datatype, MPI_Request *request);
int MPI_File_write_all_begin(MPI_File fh, const void *buf, int count,
    MPI_Datatype datatype);
int PMPI_File_write_all_begin(MPI_File fh, const void *buf, int count,
    MPI_Datatype datatype);
int MPI_File_write_at_all_begin(MPI_File fh, MPI_Offset offset, const void
    *buf, int count, MPI_Datatype datatype);
int PMPI_File_write_at_all_begin(MPI_File fh, MPI_Offset offset, const void
    *buf, int count, MPI_Datatype datatype);
int MPI_File_write_ordered_begin(MPI_File fh, const void *buf, int count,
    MPI_Datatype datatype);
int PMPI_File_write_ordered_begin(MPI_File fh, const void *buf, int count,
    MPI_Datatype datatype);
int MPI_File_write_all_begin_c(MPI_File fh, const void *buf, MPI_Count count,
    MPI_Datatype datatype);
int PMPI_File_write_all_begin_c(MPI_File fh, const void *buf, MPI_Count count,
    MPI_Datatype datatype);
int MPI_File_write_at_all_begin_c(MPI_File fh, MPI_Offset offset, const void
    *buf, MPI_Count count, MPI_Datatype datatype);
int PMPI_File_write_at_all_begin_c(MPI_File fh, MPI_Offset offset, const void
    *buf, MPI_Count count, MPI_Datatype datatype);
int MPI_File_write_ordered_begin_c(MPI_File fh, const void *buf, MPI_Count
    count, MPI_Datatype datatype);
int PMPI_File_write_ordered_begin_c(MPI_File fh, const void *buf, MPI_Count
    count, MPI_Datatype datatype);
int MPI_File_write_all_end(MPI_File fh, const void *buf, MPI_Status *status);
int PMPI_File_write_all_end(MPI_File fh, const void *buf, MPI_Status *status);
int MPI_File_write_at_all_end(MPI_File fh, const void *buf, MPI_Status
    *status);
int PMPI_File_write_at_all_end(MPI_File fh, const void *buf, MPI_Status
    *status);
int MPI_File_write_ordered_end(MPI_File fh, const void *buf, MPI_Status
    *status);
int PMPI_File_write_ordered_end(MPI_File fh, const void *buf, MPI_Status
    *status);
int MPI_File_seek_shared(MPI_File fh, MPI_Offset offset, int whence);
int PMPI_File_seek_shared(MPI_File fh, MPI_Offset offset, int whence);
int MPI_File_get_position_shared(MPI_File fh, MPI_Offset *offset);
int PMPI_File_get_position_shared(MPI_File fh, MPI_Offset *offset);
/* ---- end section: io ---- */

#ifdef __cplusplus
}
#endif
#endif /* UCMPI_MPI_H */
