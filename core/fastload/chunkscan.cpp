// The chunk scan: 64 bytes at a time, a bit for each byte that is a quote, a backslash, a
// bracket or a "{"; the quotes' running parity says which bytes are inside strings (with no
// backslash, every quote opens or closes one). With no bracket in the chunk only objects nest,
// so an element of the chunk's array is a "{" outside strings at depth 0.

#include "fastload/chunkscan.h"

#include <cstdint>
#include <cstring>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace Core::FastLoad {
namespace {

struct Masks
{
    std::uint64_t quote = 0;
    std::uint64_t backslash = 0;
    std::uint64_t bracket = 0;
    std::uint64_t open = 0;  // "{"
    std::uint64_t close = 0; // "}"
};

// The bits of the 64 bytes at `p`.
Masks masksOf(const char *p)
{
    Masks m;
#if defined(__SSE2__)
    const __m128i b0 = _mm_loadu_si128(reinterpret_cast<const __m128i *>(p));
    const __m128i b1 = _mm_loadu_si128(reinterpret_cast<const __m128i *>(p + 16));
    const __m128i b2 = _mm_loadu_si128(reinterpret_cast<const __m128i *>(p + 32));
    const __m128i b3 = _mm_loadu_si128(reinterpret_cast<const __m128i *>(p + 48));
    const auto mask = [&](char c) {
        const __m128i want = _mm_set1_epi8(c);
        const auto bits = [&](const __m128i &b) {
            return std::uint64_t(std::uint32_t(_mm_movemask_epi8(_mm_cmpeq_epi8(b, want))));
        };
        return bits(b0) | bits(b1) << 16 | bits(b2) << 32 | bits(b3) << 48;
    };
    m.quote = mask('"');
    m.backslash = mask('\\');
    m.bracket = mask('[') | mask(']');
    m.open = mask('{');
    m.close = mask('}');
#else
    for (int i = 0; i < 64; ++i) {
        const std::uint64_t bit = std::uint64_t(1) << i;
        switch (p[i]) {
        case '"':
            m.quote |= bit;
            break;
        case '\\':
            m.backslash |= bit;
            break;
        case '[':
        case ']':
            m.bracket |= bit;
            break;
        case '{':
            m.open |= bit;
            break;
        case '}':
            m.close |= bit;
            break;
        default:
            break;
        }
    }
#endif
    return m;
}

// Bit i: the parity of the quotes at bits 0..i.
std::uint64_t prefixParity(std::uint64_t x)
{
    x ^= x << 1;
    x ^= x << 2;
    x ^= x << 4;
    x ^= x << 8;
    x ^= x << 16;
    x ^= x << 32;
    return x;
}

} // namespace

ChunkScan scanChunk(std::string_view text)
{
    ChunkScan scan;
    if (text.empty() || text.front() != '{')
        return scan;
    // the first object names its "do" before its first "}" (an object inside it before that
    // only makes the chunk outer: a guess that errs on the safe side)
    const std::size_t close = text.find('}');
    if (close == std::string_view::npos || text.substr(0, close).find("\"do\"") == text.npos)
        return scan;
    std::uint64_t inString = 0; // all ones while a string is open across blocks
    std::size_t objects = 0;
    std::size_t depth = 0;
    for (std::size_t at = 0; at < text.size(); at += 64) {
        const std::size_t left = text.size() - at;
        char tail[64];
        const char *p = text.data() + at;
        if (left < 64) { // the last bytes, with nothing after them that counts
            std::memset(tail, ' ', sizeof tail);
            std::memcpy(tail, p, left);
            p = tail;
        }
        const Masks m = masksOf(p);
        if (m.backslash) {
            scan.verdict = ChunkScan::Verdict::Unsure;
            return scan;
        }
        if (m.bracket)
            return scan;
        const std::uint64_t strings = prefixParity(m.quote) ^ inString;
        inString = (strings >> 63) ? ~std::uint64_t(0) : 0;
        // with no array in the chunk, only objects nest: an action is a "{" at depth 0
        const std::uint64_t opens = m.open & ~strings;
        for (std::uint64_t braces = (m.open | m.close) & ~strings; braces; braces &= braces - 1) {
            if (opens & braces & (~braces + 1)) { // (the lowest brace left)
                objects += depth == 0;
                ++depth;
            } else if (depth-- == 0) {
                return scan; // a "}" the chunk did not open
            }
        }
    }
    if (inString || depth) // a string or an object left open: not whole actions
        return scan;
    scan.verdict = ChunkScan::Verdict::Counted;
    scan.objects = objects;
    return scan;
}

} // namespace Core::FastLoad
