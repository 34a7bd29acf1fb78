// A lesson's claims in words (lesson.h): the sentence an option shows is made from the claim
// itself, so what the room reads is what the simulator checks.

#include "lesson.h"

#include <array>

namespace Core {
namespace {

QString ordinal(std::uint32_t n)
{
    static const std::array<const char *, 10> words = {"first", "second", "third",   "fourth",
                                                       "fifth", "sixth",  "seventh", "eighth",
                                                       "ninth", "tenth"};
    if (n >= 1 && n <= words.size())
        return QString::fromLatin1(words[n - 1]);
    const std::uint32_t tens = n % 100;
    const char *suffix = (tens >= 11 && tens <= 13) ? "th"
                         : n % 10 == 1              ? "st"
                         : n % 10 == 2              ? "nd"
                         : n % 10 == 3              ? "rd"
                                                    : "th";
    return QString::number(n) + QLatin1String(suffix);
}

QString quoted(const QString &text)
{
    return QLatin1Char('"') + text + QLatin1Char('"');
}

// "A's", "A's second", "A's ... to index"
QString possessive(const QString &client)
{
    return client + QStringLiteral("'s");
}

} // namespace

QString writeRefText(const WriteRef &w)
{
    QString text = possessive(w.client);
    if (w.nth)
        text += QLatin1Char(' ') + ordinal(w.nth);
    text += QStringLiteral(" write");
    if (w.value)
        text += QLatin1Char(' ') + quoted(*w.value);
    if (!w.storage.isEmpty())
        text += QStringLiteral(" to ") + w.storage;
    return text;
}

QString grantRefText(const GrantRef &g)
{
    return possessive(g.client) + (g.nth ? QLatin1Char(' ') + ordinal(g.nth) : QString()) +
           QStringLiteral(" grant");
}

namespace {

// The outcome as a sentence says it: "is locked out", "is skipped".
QString outcomeWords(ClaimOutcome o)
{
    switch (o) {
    case ClaimOutcome::Accepted:
        return QStringLiteral("accepted");
    case ClaimOutcome::Rejected:
        return QStringLiteral("rejected");
    case ClaimOutcome::Corrupted:
        return QStringLiteral("corrupted");
    case ClaimOutcome::LockedOut:
        return QStringLiteral("locked out");
    case ClaimOutcome::Skipped:
        return QStringLiteral("skipped");
    case ClaimOutcome::Partial:
        return QStringLiteral("half applied");
    }
    return {};
}

} // namespace

bool operator==(const Claim &a, const Claim &b)
{
    if (a.kind != b.kind)
        return false;
    switch (a.kind) {
    case ClaimKind::Write:
        return a.write == b.write && a.outcome == b.outcome;
    case ClaimKind::Final:
        return a.storage == b.storage && a.finalValue == b.finalValue &&
               a.finalMaxToken == b.finalMaxToken;
    case ClaimKind::Grant:
        if (!(a.grant == b.grant) || a.test != b.test)
            return false;
        switch (a.test) {
        case TokenTest::Equals:
            return a.token == b.token;
        case TokenTest::Written:
            return a.tokenText == b.tokenText;
        case TokenTest::NoToken:
            return true;
        case TokenTest::Above:
        case TokenTest::Below:
        case TokenTest::Same:
            return a.other == b.other;
        }
        return true;
    case ClaimKind::Some:
    case ClaimKind::No:
        return a.outcome == b.outcome;
    case ClaimKind::Lock:
    case ClaimKind::Belief:
        return a.exclusive == b.exclusive;
    }
    return true;
}

QString optionLetter(std::size_t i)
{
    return QString(QChar(char16_t(u'A' + i)));
}

QString toString(ClaimOutcome outcome)
{
    switch (outcome) {
    case ClaimOutcome::Accepted:
        return QStringLiteral("accepted");
    case ClaimOutcome::Rejected:
        return QStringLiteral("rejected");
    case ClaimOutcome::Corrupted:
        return QStringLiteral("corrupted");
    case ClaimOutcome::LockedOut:
        return QStringLiteral("lockedOut");
    case ClaimOutcome::Skipped:
        return QStringLiteral("skipped");
    case ClaimOutcome::Partial:
        return QStringLiteral("partial");
    }
    return {};
}

bool claimOutcomeFromString(const QString &name, ClaimOutcome *outcome)
{
    for (int i = 0; i <= int(ClaimOutcome::Partial); ++i) {
        if (toString(ClaimOutcome(i)) == name) {
            *outcome = ClaimOutcome(i);
            return true;
        }
    }
    return false;
}

QString claimText(const Claim &c)
{
    switch (c.kind) {
    case ClaimKind::Write:
        return writeRefText(c.write) + QStringLiteral(" is ") + outcomeWords(c.outcome);
    case ClaimKind::Final:
        if (c.finalValue)
            return c.finalValue->isEmpty() ? c.storage + QStringLiteral(" ends empty")
                                           : c.storage + QStringLiteral(" ends with the value ") +
                                                 quoted(*c.finalValue);
        return c.storage +
               QStringLiteral(" ends with max_token %1").arg(c.finalMaxToken.value_or(0));
    case ClaimKind::Grant:
        switch (c.test) {
        case TokenTest::Equals:
            return grantRefText(c.grant) + QStringLiteral(" carries token %1").arg(c.token);
        case TokenTest::Written:
            return grantRefText(c.grant) + QStringLiteral(" carries ") + c.tokenText;
        case TokenTest::NoToken:
            return grantRefText(c.grant) + QStringLiteral(" carries no token");
        case TokenTest::Above:
            return grantRefText(c.grant) + QStringLiteral(" carries a higher token than ") +
                   grantRefText(c.other);
        case TokenTest::Below:
            return grantRefText(c.grant) + QStringLiteral(" carries a lower token than ") +
                   grantRefText(c.other);
        case TokenTest::Same:
            return grantRefText(c.grant) + QStringLiteral(" carries the same token as ") +
                   grantRefText(c.other);
        }
        return {};
    case ClaimKind::Some:
        return c.outcome == ClaimOutcome::Partial
                   ? QStringLiteral("some update is half applied")
                   : QStringLiteral("some write is ") + outcomeWords(c.outcome);
    case ClaimKind::No:
        return c.outcome == ClaimOutcome::Partial
                   ? QStringLiteral("no update is half applied")
                   : QStringLiteral("no write is ") + outcomeWords(c.outcome);
    case ClaimKind::Lock:
        return c.exclusive ? QStringLiteral("the lock is never held by two clients at once")
                           : QStringLiteral("at some moment two clients hold the lock at once");
    case ClaimKind::Belief:
        return c.exclusive
                   ? QStringLiteral("no two clients ever believe they hold the lock at once")
                   : QStringLiteral("at some moment two clients believe they hold the lock");
    }
    return {};
}

} // namespace Core
