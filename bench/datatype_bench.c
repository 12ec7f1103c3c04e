/*
 * Derived datatype benchmarks (plain MPI):
 *   memcpy          memcpy of the packed bytes (the yardstick)
 *   vector_pack     MPI_Pack of a vector of doubles, 8-byte blocks, stride 2
 *   vector_unpack   MPI_Unpack of the same
 *   indexed_pack    indexed doubles, blocks of 1..4, gaps of 1..3
 *   indexed_unpack
 *   struct_pack     struct {double; int; short; char} (15 of 16 bytes)
 *   struct_unpack
 *   resized_pack    MPI_Pack of n ints resized to an 8-byte extent, sent
 *                   as n elements (one 4-byte block per element)
 *   resized_unpack
 *   vector_bw       rank 0 sends the strided vector to rank 1 (MB/s of
 *                   data), window of 16 messages, then an ack
 * Sizes are packed bytes (1 KiB - 16 MiB); values are MB/s of packed data.
 * A line "RATIO <name> <bytes> <x>" gives pack speed / memcpy speed.
 * Usage: datatype_bench [-b NAMES] [-m MIN] [-M MAX] [-r REPS] [-t SECS]
 * bench-np: 2
 */
#include "bench.h"

#include <stddef.h>

#define BW_WINDOW 16

typedef struct {
    MPI_Datatype type;    /* one element covers `bytes` of data */
    char *data, *packed;
    int bytes, packed_size;
    int count;            /* elements of type (1 but for resized) */
    MPI_Comm comm;
    int rank;
} dt_bench_t;

static void do_memcpy(void *arg)
{
    dt_bench_t *b = arg;
    memcpy(b->packed, b->data, (size_t)b->bytes);
}

static void do_pack(void *arg)
{
    dt_bench_t *b = arg;
    int pos = 0;
    MPI_Pack(b->data, b->count, b->type, b->packed, b->packed_size, &pos, b->comm);
}

static void do_unpack(void *arg)
{
    dt_bench_t *b = arg;
    int pos = 0;
    MPI_Unpack(b->packed, b->packed_size, &pos, b->data, b->count, b->type,
               b->comm);
}

static void do_vector_bw(void *arg)
{
    dt_bench_t *b = arg;
    MPI_Request req[BW_WINDOW];
    if (b->rank > 1)
        return;
    for (int i = 0; i < BW_WINDOW; i++) {
        if (b->rank == 0)
            MPI_Isend(b->data, 1, b->type, 1, 3, b->comm, &req[i]);
        else
            MPI_Irecv(b->data, 1, b->type, 0, 3, b->comm, &req[i]);
    }
    MPI_Waitall(BW_WINDOW, req, MPI_STATUSES_IGNORE);
    if (b->rank == 0)
        MPI_Recv(NULL, 0, MPI_BYTE, 1, 4, b->comm, MPI_STATUS_IGNORE);
    else
        MPI_Send(NULL, 0, MPI_BYTE, 0, 4, b->comm);
}

/* Type holding `bytes` of data: kind 0 vector, 1 indexed, 2 struct;
 * kind 3 (resized int) is one element per int: the count does the work. */
static MPI_Datatype make_type(int kind, int bytes, size_t *span)
{
    MPI_Datatype t, e;
    int n = bytes / 8;
    if (kind == 0) {
        MPI_Type_vector(n, 1, 2, MPI_DOUBLE, &t);
        *span = (size_t)n * 16;
    } else if (kind == 1) {
        int *bl = malloc(sizeof(int) * (size_t)n), *d = malloc(sizeof(int) * (size_t)n);
        int k = 0, used = 0, at = 0;
        while (used < n) {
            bl[k] = 1 + k % 4 < n - used ? 1 + k % 4 : n - used;
            d[k] = at;
            at += bl[k] + 1 + k % 3;
            used += bl[k++];
        }
        MPI_Type_indexed(k, bl, d, MPI_DOUBLE, &t);
        *span = (size_t)at * 8;
        free(bl);
        free(d);
    } else if (kind == 3) {
        MPI_Type_create_resized(MPI_INT, 0, 8, &t);
        *span = (size_t)(bytes / 4) * 8;
    } else {
        struct s { double d; int i; short h; char c; };
        int bl[4] = {1, 1, 1, 1};
        MPI_Aint d[4] = {offsetof(struct s, d), offsetof(struct s, i),
                         offsetof(struct s, h), offsetof(struct s, c)};
        MPI_Datatype ty[4] = {MPI_DOUBLE, MPI_INT, MPI_SHORT, MPI_CHAR};
        MPI_Type_create_struct(4, bl, d, ty, &e);
        MPI_Type_contiguous(bytes / 15, e, &t);
        MPI_Type_free(&e);
        *span = (size_t)(bytes / 15) * sizeof(struct s);
    }
    MPI_Type_commit(&t);
    return t;
}

static void run(const bench_opts_t *o, const char *name, int kind,
                bench_fn_t fn, int want_ratio)
{
    dt_bench_t b;
    if (!bench_selected(o, name))
        return;
    b.comm = MPI_COMM_WORLD;
    b.rank = o->rank;
    for (size_t s = o->min_bytes; s <= o->max_bytes; s *= 2) {
        size_t span = s;
        b.bytes = (int)s;
        b.type = kind >= 0 ? make_type(kind, (int)s, &span) : MPI_BYTE;
        b.count = kind == 3 ? (int)s / 4 : 1;
        if (kind >= 0) {
            int sz;
            MPI_Type_size(b.type, &sz);
            b.bytes = sz * b.count;
        }
        b.data = bench_alloc(span);
        b.packed = bench_alloc((size_t)b.bytes);
        b.packed_size = b.bytes;
        double t = bench_time(o, b.comm, fn, &b);
        double bytes = (double)b.bytes * (fn == do_vector_bw ? BW_WINDOW : 1);
        bench_report(o, name, (size_t)b.bytes, t, bytes / t / 1e6, "MB/s");
        if (want_ratio) {
            double tm = bench_time(o, b.comm, do_memcpy, &b);
            if (o->rank == 0)
                printf("RATIO %s %d %.2f\n", name, b.bytes, tm / t);
        }
        free(b.data);
        free(b.packed);
        if (kind >= 0)
            MPI_Type_free(&b.type);
    }
}

int main(int argc, char **argv)
{
    bench_opts_t o;
    MPI_Init(&argc, &argv);
    bench_parse(argc, argv, &o, 1024, 16 << 20);
    if (o.min_bytes < 64)
        o.min_bytes = 64;
    run(&o, "memcpy", -1, do_memcpy, 0);
    run(&o, "vector_pack", 0, do_pack, 1);
    run(&o, "vector_unpack", 0, do_unpack, 1);
    run(&o, "indexed_pack", 1, do_pack, 1);
    run(&o, "indexed_unpack", 1, do_unpack, 1);
    run(&o, "struct_pack", 2, do_pack, 1);
    run(&o, "struct_unpack", 2, do_unpack, 1);
    run(&o, "resized_pack", 3, do_pack, 1);
    run(&o, "resized_unpack", 3, do_unpack, 1);
    if (o.size >= 2)
        run(&o, "vector_bw", 0, do_vector_bw, 0);
    MPI_Finalize();
    return 0;
}
