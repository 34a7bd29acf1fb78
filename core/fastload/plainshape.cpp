// An action read in the plain shape (plainshape.h). tst_scenariofilecheck_parts compares reading in
// chunks with reading alone, which never takes this path, and reads some sixty actions in and
// near the shape both ways.

#include "fastload/plainshape.h"

#include "scenariofilekeys.h"
#include "scenariofilevalues.h"

#include <algorithm>

namespace Core::FastLoad {
namespace {

using namespace ScenarioFormat;

// The kind of action the token (a string and the whitespace after it) names, spelled without
// escapes.
bool plainKind(std::string_view raw, ActionKind &out)
{
    const std::string_view token = withoutTrailingSpace(raw);
    const auto is = [&](std::string_view quoted, ActionKind k) {
        if (token != quoted)
            return false;
        out = k;
        return true;
    };
    switch (token.size()) {
    case 9:
        return is("\"acquire\"", ActionKind::Acquire) || is("\"release\"", ActionKind::Release);
    case 7:
        return is("\"write\"", ActionKind::Write) || is("\"pause\"", ActionKind::Pause);
    case 6:
        return is("\"read\"", ActionKind::Read);
    default:
        return false;
    }
}

// A number of up to 16 digits without a leading zero (or a lone 0), then only whitespace: what
// readNumber() reads as that integer, and integer() takes as a tick (2^53 has 16).
bool plainTick(std::string_view token, Tick &out)
{
    const char *p = token.data();
    const char *end = p + token.size();
    Tick n = 0;
    if (p < end && *p == '0') {
        ++p;
    } else {
        const char *last = p + std::min<std::ptrdiff_t>(end - p, 16);
        if (p == last || *p < '1' || *p > '9')
            return false;
        while (p < last && *p >= '0' && *p <= '9')
            n = n * 10 + Tick(*p++ - '0');
    }
    while (p < end && isSpace(*p))
        ++p;
    if (p != end || n > kMaxFileInteger)
        return false;
    out = n;
    return true;
}

} // namespace

// (an action's values sit at depth 6: with less, the full reading names the nesting)
PlainShape::PlainShape(const FileLimits &limits) : m_deepEnough(limits.maxDepth >= 5) {}

void PlainShape::useStorages(const std::vector<std::string> &utf8)
{
    m_storageQuoted.clear();
    for (const std::string &name : utf8)
        m_storageQuoted.push_back(name.find_first_of("\"\\") == name.npos ? '"' + name + '"'
                                                                          : std::string());
}

bool PlainShape::read(od::object &o, PlainAction &out) const
{
    if (!m_deepEnough)
        return false;
    constexpr auto first = std::size_t(Key::At);
    const auto bit = [](Key k) { return 1u << (std::size_t(k) - first); };
    std::uint32_t seen = 0;
    Tick at = 0;
    Tick ttl = 0; // or the pause's length
    Tick delay = 0;
    ActionKind kind = ActionKind::Acquire;
    std::string_view value;
    std::uint32_t storageIndex = 0;
    for (auto member : o) {
        if (const simdjson::error_code e = member.error())
            throw Malformed{e};
        od::field &field = member.value_unsafe();
        const Key k = rawKey(field.key().raw());
        if (k < Key::At || k > Key::Delay || (seen & bit(k)))
            return false;
        seen |= bit(k);
        od::value &v = field.value(); // (in place: a copy of what was just stored stalls)
        switch (k) {
        case Key::Do:
            if (!plainKind(v.raw_json_token(), kind))
                return false;
            get(v.get_raw_json_string()); // (consumed as a string, as readString() does)
            break;
        case Key::Value:
            if (*v.raw_json_token().data() != '"')
                return false;
            value = readString(v);
            break;
        case Key::Storage: {
            const std::string_view token = withoutTrailingSpace(v.raw_json_token());
            while (storageIndex < m_storageQuoted.size() && m_storageQuoted[storageIndex] != token)
                ++storageIndex;
            if (storageIndex == m_storageQuoted.size())
                return false;
            get(v.get_raw_json_string());
            break;
        }
        default: {
            Tick &tick = k == Key::At ? at : k == Key::Delay ? delay : ttl;
            if (!plainTick(v.raw_json_token(), tick))
                return false;
            break;
        }
        }
    }
    if (!(seen & bit(Key::At)) || !(seen & bit(Key::Do)))
        return false;
    const std::uint32_t rest = seen & ~(bit(Key::At) | bit(Key::Do));
    if (kind == ActionKind::Acquire || kind == ActionKind::Pause) {
        if (rest != bit(kind == ActionKind::Acquire ? Key::Ttl : Key::For) || ttl == 0)
            return false;
    } else if (kind == ActionKind::Release) {
        if (rest)
            return false;
    } else {
        const std::uint32_t needed = kind == ActionKind::Write ? bit(Key::Value) : 0;
        if ((rest & ~(bit(Key::Storage) | bit(Key::Delay))) != needed)
            return false;
        ttl = delay;
    }
    out.at = at;
    out.kind = kind;
    out.amount = ttl;
    out.storage = storageIndex;
    out.value = value;
    return true;
}

} // namespace Core::FastLoad
