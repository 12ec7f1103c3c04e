/*
 * MPI_Pack on one rank, MPI_PACKED over the wire, MPI_Unpack (or a
 * derived-type receive) on the other; external32 round trip between
 * ranks; a type freed while its nonblocking send and receive are in
 * flight stays usable until they complete.
 */
#include "../mpitest.h"

#include <string.h>

static int rank, size;

static void packed_exchange(void)
{
    int right = (rank + 1) % size, left = (rank + size - 1) % size;
    int ints[10], pos = 0, psize, n;
    double dbl[20];
    char buf[512], rbuf[512];
    MPI_Datatype v;
    MPI_Status st;

    for (int i = 0; i < 10; i++)
        ints[i] = rank * 100 + i;
    for (int i = 0; i < 20; i++)
        dbl[i] = rank + i / 4.0;
    MPI_Type_vector(5, 2, 4, MPI_DOUBLE, &v);     /* 10 of the 20 */
    MPI_Type_commit(&v);
    MPI_Pack_size(10, MPI_INT, MPI_COMM_WORLD, &psize);
    MPI_Pack_size(1, v, MPI_COMM_WORLD, &n);
    psize += n;
    MT_CHECK(psize == 40 + 80, "pack size %d", psize);
    MT_CHECK_RC(MPI_Pack(ints, 10, MPI_INT, buf, 512, &pos, MPI_COMM_WORLD));
    MT_CHECK_RC(MPI_Pack(dbl, 1, v, buf, 512, &pos, MPI_COMM_WORLD));
    MT_CHECK(pos == psize, "position %d", pos);
    MPI_Sendrecv(buf, pos, MPI_PACKED, right, 1, rbuf, 512, MPI_PACKED, left,
                 1, MPI_COMM_WORLD, &st);
    MPI_Get_count(&st, MPI_PACKED, &n);
    MT_CHECK(n == psize, "received %d packed bytes", n);
    int rints[10];
    double rdbl[20];
    memset(rdbl, 0, sizeof(rdbl));
    pos = 0;
    MT_CHECK_RC(MPI_Unpack(rbuf, n, &pos, rints, 10, MPI_INT, MPI_COMM_WORLD));
    MT_CHECK_RC(MPI_Unpack(rbuf, n, &pos, rdbl, 1, v, MPI_COMM_WORLD));
    for (int i = 0; i < 10; i++)
        MT_CHECK(rints[i] == left * 100 + i, "int %d = %d", i, rints[i]);
    for (int i = 0; i < 20; i++) {
        double want = i % 4 < 2 ? left + i / 4.0 : 0;
        MT_CHECK(rdbl[i] == want, "double %d = %g want %g", i, rdbl[i], want);
    }
    /* packed bytes received straight into the derived layout */
    MPI_Sendrecv(buf + 40, 80, MPI_PACKED, right, 2, rdbl, 1, v, left, 2,
                 MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MT_CHECK(rdbl[17] == left + 17 / 4.0, "direct: %g", rdbl[17]);
    MPI_Type_free(&v);
}

static void external32_exchange(void)
{
    int right = (rank + 1) % size, left = (rank + size - 1) % size;
    struct { long l; short s; long double ld; } in = {-5L - rank, 7, 0.25L},
        out;
    MPI_Datatype t;
    int bl[3] = {1, 1, 1};
    MPI_Aint d[3] = {offsetof(__typeof__(in), l), offsetof(__typeof__(in), s),
                     offsetof(__typeof__(in), ld)};
    MPI_Datatype ty[3] = {MPI_LONG, MPI_SHORT, MPI_LONG_DOUBLE};
    unsigned char buf[64], rbuf[64];
    MPI_Aint sz, pos = 0;

    MPI_Type_create_struct(3, bl, d, ty, &t);
    MPI_Type_commit(&t);
    MPI_Pack_external_size("external32", 1, t, &sz);
    MT_CHECK(sz == 4 + 2 + 16, "external32 size %ld", (long)sz);
    MT_CHECK_RC(MPI_Pack_external("external32", &in, 1, t, buf, 64, &pos));
    MT_CHECK(buf[0] == 0xff && buf[3] == (unsigned char)(-5 - rank),
             "long is big-endian 4 bytes: %02x %02x", buf[0], buf[3]);
    MPI_Sendrecv(buf, (int)pos, MPI_BYTE, right, 3, rbuf, 64, MPI_BYTE, left,
                 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    pos = 0;
    memset(&out, 0, sizeof(out));
    MT_CHECK_RC(MPI_Unpack_external("external32", rbuf, sz, &pos, &out, 1,
                                    t));
    MT_CHECK(out.l == -5L - left && out.s == 7 && out.ld == 0.25L,
             "external32 round trip: %ld %d %Lg", out.l, out.s, out.ld);
    MPI_Type_free(&t);
}

static void free_in_flight(void)
{
    int right = (rank + 1) % size, left = (rank + size - 1) % size;
    int n = 100000;
    int *src = malloc(sizeof(int) * 2 * (size_t)n);
    int *dst = calloc(2 * (size_t)n, sizeof(int));
    MPI_Datatype v, w;
    MPI_Request r[2];

    for (int i = 0; i < 2 * n; i++)
        src[i] = rank + i;
    MPI_Type_vector(n, 1, 2, MPI_INT, &v);
    MPI_Type_dup(v, &w);
    MPI_Type_commit(&v);
    MPI_Type_commit(&w);
    MPI_Irecv(dst, 1, w, left, 4, MPI_COMM_WORLD, &r[0]);
    MPI_Isend(src, 1, v, right, 4, MPI_COMM_WORLD, &r[1]);
    MPI_Type_free(&v);
    MPI_Type_free(&w);
    MT_CHECK(v == MPI_DATATYPE_NULL, "freed handle not nulled");
    /* scribble over freed-type memory candidates before completion */
    void *junk[64];
    for (int i = 0; i < 64; i++)
        junk[i] = calloc(1, 200);
    MPI_Waitall(2, r, MPI_STATUSES_IGNORE);
    for (int i = 0; i < 64; i++)
        free(junk[i]);
    for (int i = 0; i < 2 * n; i++) {
        int want = i % 2 ? 0 : left + i;
        if (dst[i] != want) {
            MT_CHECK(0, "dst[%d] = %d want %d", i, dst[i], want);
            break;
        }
    }
    free(src);
    free(dst);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    packed_exchange();
    external32_exchange();
    free_in_flight();
    return mt_finish();
}
