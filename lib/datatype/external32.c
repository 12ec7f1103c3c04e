/* external32 conversion of a packed native stream (big-endian; long 4 bytes, long
 * double a 16-byte quad), by runs of basic elements from the type signature. */
#include "dt.h"

#include <float.h>
#include <string.h>

typedef struct {
    const char *in;
    char *out;
    int to_ext;               /* native -> external32, else the reverse */
} conv_t;

static void swap_copy(char *dst, const char *src, int n)
{
    for (int i = 0; i < n; i++)
        dst[i] = src[n - 1 - i];
}

static uint64_t load_be64(const char *p)
{
    uint64_t v = 0;
    for (int i = 0; i < 8; i++)
        v = v << 8 | (uint8_t)p[i];
    return v;
}

static void store_be64(char *p, uint64_t v)
{
    for (int i = 7; i >= 0; i--, v >>= 8)
        p[i] = (char)(v & 0xff);
}

/* x87 80-bit extended (in a 16-byte long double) <-> binary128 */
static void ldbl_to_quad(char *dst, const char *src)
{
#if LDBL_MANT_DIG == 64
    uint64_t m;
    uint16_t se;
    memcpy(&m, src, 8);
    memcpy(&se, src + 8, 2);
    store_be64(dst, (uint64_t)se << 48 | (m & 0x7fffffffffffffffull) >> 15);
    store_be64(dst + 8, (m & 0x7fff) << 49);
#else
    swap_copy(dst, src, 16);
#endif
}

static void quad_to_ldbl(char *dst, const char *src)
{
#if LDBL_MANT_DIG == 64
    uint64_t hi = load_be64(src), lo = load_be64(src + 8);
    uint16_t se = (uint16_t)(hi >> 48);
    uint64_t m = (hi & 0xffffffffffffull) << 15 | lo >> 49;
    if (se & 0x7fff)
        m |= 1ull << 63;     /* explicit integer bit of normal numbers */
    memset(dst, 0, sizeof(long double));
    memcpy(dst, &m, 8);
    memcpy(dst + 8, &se, 2);
#else
    swap_copy(dst, src, 16);
#endif
}

static void conv_run(void *arg, MPI_Datatype basic, MPI_Count n)
{
    conv_t *c = arg;
    ucmpi_dt_impl_t *im = ucmpi_dt_impl(basic);
    int ns = (int)basic->size, es = im->ext32_size, unit = im->ext32_unit;
    int parts = ns / unit;

    for (MPI_Count i = 0; i < n; i++) {
        const char *s = c->in;
        char *d = c->out;
        for (int k = 0; k < parts; k++) {
            int nu = c->to_ext ? unit : es / parts;   /* bytes read */
            int ou = c->to_ext ? es / parts : unit;   /* bytes written */
            switch (im->ext32_conv) {
            case UCMPI_X32_LONG:
            case UCMPI_X32_ULONG: {
                if (c->to_ext) {
                    uint64_t v;
                    memcpy(&v, s, 8);
                    char tmp[8];
                    store_be64(tmp, v);
                    memcpy(d, tmp + 4, 4);
                } else {
                    uint32_t v = (uint32_t)(uint8_t)s[0] << 24 |
                                 (uint32_t)(uint8_t)s[1] << 16 |
                                 (uint32_t)(uint8_t)s[2] << 8 | (uint8_t)s[3];
                    int64_t w = im->ext32_conv == UCMPI_X32_LONG
                                    ? (int64_t)(int32_t)v : (int64_t)v;
                    memcpy(d, &w, 8);
                }
                break;
            }
            case UCMPI_X32_LDBL:
                if (c->to_ext)
                    ldbl_to_quad(d, s);
                else
                    quad_to_ldbl(d, s);
                break;
            default:
                swap_copy(d, s, unit);
            }
            s += nu;
            d += ou;
        }
        c->in = s;
        c->out = d;
    }
}

void ucmpi_dt_ext32_convert(MPI_Datatype dt, MPI_Count count, const void *in,
                            void *out, int to_ext)
{
    conv_t c = {.in = in, .out = out, .to_ext = to_ext};
    ucmpi_dt_signature_walk(dt, count, conv_run, &c);
}
