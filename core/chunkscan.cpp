// The chunk scan: 64 bytes at a time, a bit for each byte that is a quote, a backslash, a
// bracket or a "{"; the quotes' running parity says which bytes are inside strings (with no
// backslash, every quote opens or closes one). An element of the chunk's array starts at a "{"
// outside strings that opens the chunk or follows a comma; a "{" after a colon is an object
// inside an action.

#include "chunkscan.h"

#include <cstdint>
#include <cstring>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace Core::ScenarioFormat {
namespace {

struct Masks
{
    std::uint64_t quote = 0;
    std::uint64_t backslash = 0;
    std::uint64_t bracket = 0;
    std::uint64_t brace = 0;
};

// The bits of the 64 bytes at `p`.
Masks masksOf(const char *p)
{
    Masks m;
#if defined(__SSE2__)
    const auto mask = [](const __m128i *bytes, char c) {
        const __m128i want = _mm_set1_epi8(c);
        std::uint64_t out = 0;
        for (int i = 0; i < 4; ++i)
            out |= std::uint64_t(std::uint32_t(_mm_movemask_epi8(_mm_cmpeq_epi8(bytes[i], want))))
                   << (16 * i);
        return out;
    };
    __m128i bytes[4];
    for (int i = 0; i < 4; ++i)
        bytes[i] = _mm_loadu_si128(reinterpret_cast<const __m128i *>(p + 16 * i));
    m.quote = mask(bytes, '"');
    m.backslash = mask(bytes, '\\');
    m.bracket = mask(bytes, '[') | mask(bytes, ']');
    m.brace = mask(bytes, '{');
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
            m.brace |= bit;
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

bool isSpace(char c)
{
    return c == ' ' || c == '\n' || c == '\r' || c == '\t';
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
        for (std::uint64_t braces = m.brace & ~strings; braces; braces &= braces - 1) {
            std::size_t i = at + std::size_t(__builtin_ctzll(braces));
            while (i > 0 && isSpace(text[i - 1]))
                --i;
            if (i == 0 || text[i - 1] == ',')
                ++objects;
        }
    }
    if (inString) // a string left open: not whole actions
        return scan;
    scan.verdict = ChunkScan::Verdict::Counted;
    scan.objects = objects;
    return scan;
}

} // namespace Core::ScenarioFormat
