// A question option's claim (lessonfileread.h, docs/LESSONS.md "Claims"): its kind is the key
// it has; it, and the write or grant it names, take only their own keys.

#include "lessonfileread.h"

namespace Core::LessonFormat {
namespace {

using namespace ScenarioFormat;

class ClaimReader : NodeValues
{
public:
    explicit ClaimReader(const LessonLimits &limits) : NodeValues(limits) {}

    Claim readClaim(const Node &v, const QString &place)
    {
        expect(v, od::json_type::object, place, QStringLiteral("an object"));
        static const char *const kinds[] = {kWrite, kStorage, kGrant, kSome, kNo, kLock, kBelief};
        const char *kind = nullptr;
        for (const auto &member : v.members)
            for (const char *k : kinds)
                if (is(member.first, k)) {
                    if (kind)
                        fail(place + QLatin1Char('.') + member.first,
                             QStringLiteral("a claim is of one kind: it already has \"%1\"")
                                 .arg(QLatin1String(kind)));
                    kind = k;
                }
        if (!kind)
            fail(place, QStringLiteral("must have one of \"write\", \"storage\", \"grant\", "
                                       "\"some\", \"no\", \"lock\" or \"belief\""));
        Claim c;
        if (kind == kWrite)
            readWriteClaim(v, place, c);
        else if (kind == kStorage)
            readFinalClaim(v, place, c);
        else if (kind == kGrant)
            readGrantClaim(v, place, c);
        else if (kind == kSome || kind == kNo)
            readCountClaim(v, place, c, kind);
        else
            readOverlapClaim(v, place, c, kind);
        return c;
    }

    [[noreturn]] void unknownKey(const QString &place, const QString &key, const char *keys)
    {
        fail(place + QLatin1Char('.') + key,
             QStringLiteral("unknown key here (it takes %1)").arg(QLatin1String(keys)));
    }

    QString name(const Node &v, const QString &place)
    {
        return required(v, place, m_limits.maxShortText);
    }

    ClaimOutcome outcome(const Node &v, const QString &place, bool partial)
    {
        const QString words = partial ? QStringLiteral("\"accepted\", \"rejected\", \"corrupted\", "
                                                       "\"lockedOut\", \"skipped\" or \"partial\"")
                                      : QStringLiteral("\"accepted\", \"rejected\", \"corrupted\", "
                                                       "\"lockedOut\" or \"skipped\"");
        if (v.type != od::json_type::string)
            fail(place, QStringLiteral("must be %1, not %2").arg(words, describe(v)));
        ClaimOutcome o = ClaimOutcome::Accepted;
        const QString s = toQString(v.scalar.text);
        if (!claimOutcomeFromString(s, &o) || (o == ClaimOutcome::Partial && !partial))
            fail(place, QStringLiteral("must be %1, not \"%2\"").arg(words, s));
        return o;
    }

    void readWriteClaim(const Node &v, const QString &place, Claim &c)
    {
        c.kind = ClaimKind::Write;
        bool outcomeSeen = false;
        for (const auto &[key, value] : v.members) {
            const QString here = place + QLatin1Char('.') + key;
            if (is(key, kWrite)) {
                expect(value, od::json_type::object, here,
                       QStringLiteral("an object naming the write by \"client\" and \"value\" or "
                                      "\"nth\""));
                c.write = readWriteRef(value, here);
            } else if (is(key, kIs)) {
                c.outcome = outcome(value, here, false);
                outcomeSeen = true;
            } else {
                unknownKey(place, key, "\"write\" and \"is\"");
            }
        }
        if (!outcomeSeen)
            fail(at(place, kIs), QStringLiteral("missing: the outcome the claim states"));
    }

    WriteRef readWriteRef(const Node &v, const QString &place)
    {
        WriteRef w;
        bool client = false;
        for (const auto &[key, value] : v.members) {
            const QString here = place + QLatin1Char('.') + key;
            if (is(key, kClient)) {
                w.client = name(value, here);
                client = true;
            } else if (is(key, kValue)) {
                w.value = text(value, here, m_limits.maxLongText);
            } else if (is(key, kStorage)) {
                w.storage = name(value, here);
            } else if (is(key, kNth)) {
                w.nth = ordinal(value, here);
            } else {
                unknownKey(place, key, "\"client\", \"value\", \"storage\" and \"nth\"");
            }
        }
        if (!client)
            fail(at(place, kClient), QStringLiteral("missing: the client whose write it is"));
        if (!w.value && !w.nth)
            fail(place, QStringLiteral("name the write by its \"value\" or its \"nth\" (its "
                                       "place among the client's writes), never by its tick"));
        return w;
    }

    std::uint32_t ordinal(const Node &v, const QString &place)
    {
        const Tick n = tick(v, place, true);
        if (n > 1'000'000)
            fail(place, QStringLiteral("must be at most 1000000, not %1").arg(n));
        return std::uint32_t(n);
    }

    GrantRef readGrantRef(const Node &v, const QString &place)
    {
        expect(v, od::json_type::object, place,
               QStringLiteral("an object naming the grant by \"client\" (and \"nth\")"));
        GrantRef g;
        bool client = false;
        for (const auto &[key, value] : v.members) {
            const QString here = place + QLatin1Char('.') + key;
            if (is(key, kClient)) {
                g.client = name(value, here);
                client = true;
            } else if (is(key, kNth)) {
                g.nth = ordinal(value, here);
            } else {
                unknownKey(place, key, "\"client\" and \"nth\"");
            }
        }
        if (!client)
            fail(at(place, kClient), QStringLiteral("missing: the client granted the lock"));
        return g;
    }

    void readFinalClaim(const Node &v, const QString &place, Claim &c)
    {
        c.kind = ClaimKind::Final;
        for (const auto &[key, value] : v.members) {
            const QString here = place + QLatin1Char('.') + key;
            if (is(key, kStorage)) {
                c.storage = name(value, here);
            } else if (is(key, kValue) || is(key, kMaxToken)) {
                if (c.finalValue || c.finalMaxToken)
                    fail(here, QStringLiteral("a claim about a storage states its final "
                                              "\"value\" or its final \"maxToken\", not both"));
                if (is(key, kValue))
                    c.finalValue = text(value, here, m_limits.maxLongText);
                else
                    c.finalMaxToken = tick(value, here);
            } else {
                unknownKey(place, key, "\"storage\" and \"value\" or \"maxToken\"");
            }
        }
        if (!c.finalValue && !c.finalMaxToken)
            fail(place, QStringLiteral("missing what the storage ends with: \"value\" or "
                                       "\"maxToken\""));
    }

    void readGrantClaim(const Node &v, const QString &place, Claim &c)
    {
        c.kind = ClaimKind::Grant;
        bool stated = false;
        for (const auto &[key, value] : v.members) {
            const QString here = place + QLatin1Char('.') + key;
            const bool test =
                is(key, kToken) || is(key, kAbove) || is(key, kBelow) || is(key, kSame);
            if (test && stated)
                fail(here, QStringLiteral("a claim about a grant states one thing: its \"token\", "
                                          "or \"above\", \"below\" or \"same\" as another's"));
            if (is(key, kGrant)) {
                c.grant = readGrantRef(value, here);
            } else if (is(key, kToken)) {
                if (value.type == od::json_type::null) {
                    c.test = TokenTest::NoToken;
                } else if (value.type == od::json_type::string) {
                    c.test = TokenTest::Written;
                    c.tokenText = name(value, here);
                } else if (value.type == od::json_type::number) {
                    c.test = TokenTest::Equals;
                    c.token = tick(value, here);
                } else {
                    fail(here, QStringLiteral("must be a number, the token as its source writes "
                                              "it (\"rev 5\", \"term 3\") or null (no token), "
                                              "not %1")
                                   .arg(describe(value)));
                }
            } else if (test) {
                c.test = is(key, kAbove)   ? TokenTest::Above
                         : is(key, kBelow) ? TokenTest::Below
                                           : TokenTest::Same;
                c.other = readGrantRef(value, here);
            } else {
                unknownKey(place, key,
                           "\"grant\" and one of \"token\", \"above\", \"below\" "
                           "and \"same\"");
            }
            stated = stated || test;
        }
        if (!stated)
            fail(place, QStringLiteral("missing what the grant carries: \"token\", or \"above\", "
                                       "\"below\" or \"same\" as another grant"));
    }

    void readCountClaim(const Node &v, const QString &place, Claim &c, const char *kind)
    {
        c.kind = kind == kSome ? ClaimKind::Some : ClaimKind::No;
        for (const auto &[key, value] : v.members) {
            if (!is(key, kind))
                unknownKey(place, key, kind == kSome ? "only \"some\"" : "only \"no\"");
            c.outcome = outcome(value, place + QLatin1Char('.') + key, true);
        }
    }

    void readOverlapClaim(const Node &v, const QString &place, Claim &c, const char *kind)
    {
        c.kind = kind == kLock ? ClaimKind::Lock : ClaimKind::Belief;
        for (const auto &[key, value] : v.members) {
            const QString here = place + QLatin1Char('.') + key;
            if (!is(key, kind))
                unknownKey(place, key, kind == kLock ? "only \"lock\"" : "only \"belief\"");
            const QString word =
                value.type == od::json_type::string ? toQString(value.scalar.text) : QString();
            if (word != QLatin1String(kExclusive) && word != QLatin1String(kOverlapping))
                fail(here, QStringLiteral("must be \"exclusive\" (never two at once) or "
                                          "\"overlapping\" (two at some moment), not %1")
                               .arg(describe(value)));
            c.exclusive = word == QLatin1String(kExclusive);
        }
    }
};

} // namespace

Claim readClaim(const Node &v, const QString &place, const LessonLimits &limits)
{
    return ClaimReader(limits).readClaim(v, place);
}

} // namespace Core::LessonFormat
