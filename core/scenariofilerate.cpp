// A client's clock rate as a scenario file writes it: parseRateText judges the text exactly on
// its decimal digits (the reader's rule, and the clock dialog's), rateText spells a rate the
// way the writer writes it.

#include "scenariofile.h"
#include "scenariofilevalues.h"

#include <algorithm>
#include <string>

namespace Core {
namespace {

// The number spelled by `text` (JSON's grammar, already checked) times 1000, when that is a
// whole number below a million; exact, on the decimal digits: 1.500 and 15e-1 are 1500,
// 0.0005 is none.
std::optional<std::uint32_t> thousandths(std::string_view text)
{
    if (text.empty() || text.front() == '-')
        return std::nullopt;
    std::string digits;  // value = digits * 10^scale
    long long scale = 3; // times 1000
    std::size_t p = 0;
    for (; p < text.size() && text[p] >= '0' && text[p] <= '9'; ++p)
        digits += text[p];
    if (p < text.size() && text[p] == '.')
        for (++p; p < text.size() && text[p] >= '0' && text[p] <= '9'; ++p, --scale)
            digits += text[p];
    if (p < text.size() && (text[p] == 'e' || text[p] == 'E')) {
        ++p;
        const bool down = p < text.size() && text[p] == '-';
        p += p < text.size() && (text[p] == '-' || text[p] == '+');
        long long exponent = 0;
        for (; p < text.size() && text[p] >= '0' && text[p] <= '9'; ++p)
            exponent = std::min(exponent * 10 + (text[p] - '0'), 1'000'000'000LL);
        scale += down ? -exponent : exponent;
    }
    const std::size_t lead = digits.find_first_not_of('0');
    if (lead == std::string::npos)
        return 0u;
    digits.erase(0, lead);
    while (digits.back() == '0') {
        digits.pop_back();
        ++scale;
    }
    if (scale < 0 || std::size_t(scale) + digits.size() > 6)
        return std::nullopt; // a fraction of a thousandth, or a million or more
    std::uint32_t milli = 0;
    for (const char d : digits)
        milli = milli * 10 + std::uint32_t(d - '0');
    for (long long i = 0; i < scale; ++i)
        milli *= 10;
    return milli;
}

// Whether `text` is a whole JSON number token: -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
bool isJsonNumber(std::string_view text)
{
    std::size_t p = 0;
    const auto digits = [&] {
        const std::size_t from = p;
        while (p < text.size() && text[p] >= '0' && text[p] <= '9')
            ++p;
        return p > from;
    };
    if (p < text.size() && text[p] == '-')
        ++p;
    if (p < text.size() && text[p] == '0')
        ++p;
    else if (p >= text.size() || text[p] < '1' || text[p] > '9' || !digits())
        return false;
    if (p < text.size() && text[p] == '.' && (++p, !digits()))
        return false;
    if (p < text.size() && (text[p] == 'e' || text[p] == 'E')) {
        ++p;
        if (p < text.size() && (text[p] == '+' || text[p] == '-'))
            ++p;
        if (!digits())
            return false;
    }
    return p == text.size();
}

} // namespace

std::optional<std::uint32_t> parseRateText(QStringView text, QString *error)
{
    std::string ascii;
    ascii.reserve(std::size_t(text.size()));
    for (const QChar c : text)
        ascii += c.unicode() < 0x80 ? char(c.unicode()) : '?'; // no number has a '?'
    std::optional<std::uint32_t> milli;
    if (isJsonNumber(ascii))
        milli = thousandths(ascii);
    if (milli && *milli != 0 && *milli <= 100'000)
        return milli;
    if (error)
        *error = QStringLiteral("%1, not %2").arg(QLatin1String(ScenarioFormat::kRateRule), text);
    return std::nullopt;
}

QString rateText(std::uint32_t milli)
{
    QString text = QString::number(milli / 1000);
    if (const std::uint32_t frac = milli % 1000) {
        QString digits = QString::number(1000 + frac).mid(1); // the three decimals
        while (digits.endsWith(QLatin1Char('0')))
            digits.chop(1);
        text += QLatin1Char('.') + digits;
    }
    return text;
}

} // namespace Core
