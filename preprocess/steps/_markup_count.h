/* How many bytes of p[0..n) equal a and b: SSE2 (every x86-64) 16 bytes at a time, else one at a time. */
#include <stddef.h>
#include <stdint.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

static void count_two_bytes(const unsigned char *p, size_t n, unsigned char a, unsigned char b,
                            size_t *count_a, size_t *count_b) {
    size_t i = 0, ca = 0, cb = 0;
#if defined(__SSE2__)
    const __m128i va = _mm_set1_epi8((char)a), vb = _mm_set1_epi8((char)b), zero = _mm_setzero_si128();
    while (i + 16 <= n) {
        __m128i acc_a = zero, acc_b = zero;
        size_t stop = i + 16 * 255 < n ? i + 16 * 255 : n;  /* a byte counter holds 255 */
        for (; i + 16 <= stop; i += 16) {
            __m128i v = _mm_loadu_si128((const __m128i *)(p + i));
            acc_a = _mm_sub_epi8(acc_a, _mm_cmpeq_epi8(v, va));
            acc_b = _mm_sub_epi8(acc_b, _mm_cmpeq_epi8(v, vb));
        }
        __m128i sa = _mm_sad_epu8(acc_a, zero), sb = _mm_sad_epu8(acc_b, zero);
        ca += (size_t)_mm_cvtsi128_si32(sa) + (size_t)_mm_extract_epi16(sa, 4);
        cb += (size_t)_mm_cvtsi128_si32(sb) + (size_t)_mm_extract_epi16(sb, 4);
    }
#endif
    for (; i < n; i++) {
        ca += p[i] == a;
        cb += p[i] == b;
    }
    *count_a = ca;
    *count_b = cb;
}
