/* The first c in d[lo, n) of a two- or four-byte str, or -1: eight UCS-2 units a step with SSE2 where the CPU
   has it, wmemchr for UCS-4 where wchar_t is four bytes; a plain loop otherwise (same answer). */
#ifndef WEBPRUNE_FIND_WIDE_H
#define WEBPRUNE_FIND_WIDE_H
#include <stddef.h>
#include <stdint.h>
#include <wchar.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

static inline ptrdiff_t find_u16(const uint16_t *d, ptrdiff_t lo, ptrdiff_t n, uint32_t c) {
    ptrdiff_t i = lo;
    if (c > 0xFFFF) return -1;
#if defined(__SSE2__)
    __m128i needle = _mm_set1_epi16((short)c);
    for (; i + 8 <= n; i += 8) {
        int mask = _mm_movemask_epi8(_mm_cmpeq_epi16(_mm_loadu_si128((const __m128i *)(d + i)), needle));
        if (mask) return i + (__builtin_ctz((unsigned)mask) >> 1);
    }
#endif
    for (; i < n; i++)
        if (d[i] == c) return i;
    return -1;
}

static inline ptrdiff_t find_u32(const uint32_t *d, ptrdiff_t lo, ptrdiff_t n, uint32_t c) {
    ptrdiff_t i;
    if (lo >= n) return -1;
    if (sizeof(wchar_t) == 4) {
        const wchar_t *hit = wmemchr((const wchar_t *)d + lo, (wchar_t)c, (size_t)(n - lo));
        return hit ? hit - (const wchar_t *)d : -1;
    }
    for (i = lo; i < n; i++)
        if (d[i] == c) return i;
    return -1;
}
#endif
