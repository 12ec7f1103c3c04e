/* Large sends from one buffer again and again (lib/ucp_glue/hugepage.c
 * puts such buffers on huge pages): every round rewrites the buffer, and
 * the data, the bytes around each message in the same 2 MiB chunks, and
 * the receivers' buffers around what they received must all be right.
 * Ranks pair up (0-1, 2-3, ...); both of a pair send at once through
 * Isend, Send and Ssend (the request path), at offsets off 2 MiB
 * boundaries. */
#include "../mpitest.h"
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#define BUF (8u << 20)
#define ROUNDS 8
#define WINDOW 4

static unsigned char val(size_t i, int round, int who)
{
    return (unsigned char)(i * 7 + (i >> 12) + round * 31 + who * 101);
}

static void fill(unsigned char *b, int round, int who)
{
    for (size_t i = 0; i < BUF; i++)
        b[i] = val(i, round, who);
}

/* Bytes of b that differ from the pattern outside [off, off + len). */
static size_t outside_bad(const unsigned char *b, size_t off, size_t len,
                          int round, int who)
{
    size_t bad = 0;
    for (size_t i = 0; i < BUF; i++)
        if ((i < off || i >= off + len) && b[i] != val(i, round, who))
            bad++;
    return bad;
}

/* Bytes of r[off..off+len) that differ from the peer's pattern. */
static size_t inside_bad(const unsigned char *r, size_t off, size_t len,
                         int round, int peer)
{
    size_t bad = 0;
    for (size_t i = off; i < off + len; i++)
        bad += r[i] != val(i, round, peer);
    return bad;
}

int main(int argc, char **argv)
{
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int peer = rank ^ 1;
    if (peer < size) {
        unsigned char *s = malloc(BUF), *r = malloc(BUF);
        MT_CHECK(s != NULL && r != NULL, "cannot allocate 2 x %u bytes", BUF);
        for (int round = 0; round < ROUNDS; round++) {
            /* 1 MiB + a bit up to ~3 MiB, never starting on a boundary */
            size_t off = 4096 + (size_t)round * 65537 + 3;
            size_t len = (1u << 20) + (size_t)round * (300u << 10) + 5;
            MPI_Request q[2 * WINDOW];
            fill(s, round, rank);
            fill(r, round, rank);         /* what must stay around the data */
            for (int i = 0; i < WINDOW; i++)
                MPI_Irecv(r + off, (int)len, MPI_BYTE, peer, i,
                          MPI_COMM_WORLD, &q[i]);
            for (int i = 0; i < WINDOW; i++)
                MPI_Isend(s + off, (int)len, MPI_BYTE, peer, i,
                          MPI_COMM_WORLD, &q[WINDOW + i]);
            MT_CHECK_RC(MPI_Waitall(2 * WINDOW, q, MPI_STATUSES_IGNORE));
            MT_CHECK(inside_bad(r, off, len, round, peer) == 0,
                     "round %d: Isend data differs", round);
            /* blocking: the lower rank sends first */
            for (int i = 0; i < 2; i++) {
                int first = (rank < peer) == (i == 0);
                if (first && i == 0)
                    MPI_Send(s + off, (int)len, MPI_BYTE, peer, 9, MPI_COMM_WORLD);
                else if (first)
                    MPI_Ssend(s + off, (int)len, MPI_BYTE, peer, 9, MPI_COMM_WORLD);
                else
                    MPI_Recv(r + off, (int)len, MPI_BYTE, peer, 9,
                             MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            }
            MT_CHECK(inside_bad(r, off, len, round, peer) == 0,
                     "round %d: Send/Ssend data differs", round);
            MT_CHECK(outside_bad(r, off, len, round, rank) == 0,
                     "round %d: the receive buffer changed outside the message",
                     round);
            MT_CHECK(outside_bad(s, 0, 0, round, rank) == 0,
                     "round %d: the send buffer changed", round);
        }
        free(r);
        free(s);
    }
    return mt_finish();
}
