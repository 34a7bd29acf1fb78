#include "pollroom.h"

#include <QRandomGenerator>

#include <algorithm>

namespace Poll {

QString confidenceName(Confidence confidence)
{
    switch (confidence) {
    case Confidence::Guess:
        return QStringLiteral("guess");
    case Confidence::FairlySure:
        return QStringLiteral("fairly sure");
    case Confidence::Sure:
        return QStringLiteral("sure");
    }
    return {};
}

int Counts::option(int option) const
{
    if (option < 0 || std::size_t(option) >= votes.size())
        return 0;
    const auto &v = votes[std::size_t(option)];
    return v[0] + v[1] + v[2];
}

int Counts::total() const
{
    int sum = 0;
    for (std::size_t i = 0; i < votes.size(); ++i)
        sum += option(int(i));
    return sum;
}

QString Room::newCode()
{
    static const char letters[] = "ABCDEFGHJKLMNPQRSTUVWXYZ"; // no I, no O
    constexpr int kLetters = int(sizeof(letters)) - 1;
    QString code;
    for (int i = 0; i < kCodeLetters; ++i)
        code += QLatin1Char(letters[QRandomGenerator::system()->bounded(kLetters)]);
    return code;
}

QByteArray Room::newCookie()
{
    std::array<quint32, 4> bits{};
    QRandomGenerator::system()->fillRange(bits.data(), bits.size());
    return QByteArray(reinterpret_cast<const char *>(bits.data()), int(sizeof(bits))).toHex();
}

bool Room::isCookie(const QByteArray &cookie)
{
    return cookie.size() == 32 && std::all_of(cookie.begin(), cookie.end(), [](char c) {
               return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f');
           });
}

QByteArray Room::issueCookie()
{
    QByteArray cookie = newCookie();
    // 128 random bits: a collision is not expected, but a repeat must not make two browsers one
    while (m_issued.contains(cookie))
        cookie = newCookie();
    m_issued.insert(cookie);
    return cookie;
}

Room::Room(const QString &code) : m_code(code) {}

bool Room::codeMatches(const QString &typed) const
{
    return typed.trimmed().compare(m_code, Qt::CaseInsensitive) == 0;
}

Room::Asked *Room::asked()
{
    if (m_state == State::Idle)
        return nullptr;
    for (Asked &a : m_asked)
        if (a.question.id == m_question.id)
            return &a;
    return nullptr;
}

const Room::Asked *Room::asked() const
{
    return const_cast<Room *>(this)->asked();
}

void Room::ask(const Question &question)
{
    if (Asked *before = asked())
        before->state = m_state;
    m_question = question;
    m_question.right = -1;
    m_question.feedback.clear();
    for (Asked &a : m_asked) {
        if (a.question.id != question.id)
            continue;
        // asked before: where it stood, with its texts as they are now
        a.question.prompt = question.prompt;
        a.question.options = question.options;
        m_round = int(a.rounds.size()) - 1;
        m_state = State::Open;
        a.state = State::Open;
        changed();
        return;
    }
    Asked a;
    a.question = m_question;
    a.rounds.resize(1);
    m_asked.push_back(a);
    m_round = 0;
    m_state = State::Open;
    changed();
}

void Room::clear()
{
    if (Asked *a = asked())
        a->state = m_state == State::Revealed ? State::Closed : m_state;
    m_state = State::Idle;
    m_question = Question();
    m_round = 0;
    changed();
}

bool Room::openSecondRound()
{
    Asked *a = asked();
    if (!a || a->rounds.size() >= std::size_t(kRounds))
        return false;
    a->rounds.emplace_back();
    m_round = int(a->rounds.size()) - 1;
    m_state = State::Open;
    m_question.right = -1;
    m_question.feedback.clear();
    changed();
    return true;
}

void Room::close()
{
    if (m_state != State::Open)
        return;
    m_state = State::Closed;
    changed();
}

void Room::reveal(int right, const QStringList &feedback)
{
    if (m_state == State::Idle)
        return;
    m_state = State::Revealed;
    m_question.right = right;
    m_question.feedback = feedback;
    changed();
}

void Room::unreveal()
{
    if (m_state != State::Revealed)
        return;
    m_state = State::Open;
    m_question.right = -1;
    m_question.feedback.clear();
    changed();
}

int Room::rounds() const
{
    const Asked *a = asked();
    return a ? int(a->rounds.size()) : 0;
}

Room::VoteResult Room::vote(const QByteArray &cookie, const QString &questionId, int round,
                            int option, Confidence confidence)
{
    if (!isCookie(cookie))
        return VoteResult::BadCookie;
    if (!issued(cookie))
        return VoteResult::UnknownCookie;
    if (m_state != State::Open)
        return VoteResult::Closed;
    if (questionId != m_question.id || round != m_round)
        return VoteResult::WrongRound;
    if (option < 0 || option >= int(m_question.options.size()))
        return VoteResult::BadOption;
    Asked *a = asked();
    auto &votes = a->rounds[std::size_t(m_round)].votes;
    const auto [it, fresh] = votes.insert_or_assign(cookie, std::make_pair(option, confidence));
    Q_UNUSED(it);
    return fresh ? VoteResult::Counted : VoteResult::Replaced;
}

int Room::choice(const QByteArray &cookie, int round) const
{
    const Asked *a = asked();
    if (!a || round < 0 || std::size_t(round) >= a->rounds.size())
        return -1;
    const auto &votes = a->rounds[std::size_t(round)].votes;
    const auto it = votes.find(cookie);
    return it == votes.end() ? -1 : it->second.first;
}

Counts Room::countsOf(const Asked &a, int round) const
{
    Counts c;
    c.votes.assign(std::size_t(a.question.options.size()), {0, 0, 0});
    if (round < 0 || std::size_t(round) >= a.rounds.size())
        return c;
    const Round &r = a.rounds[std::size_t(round)];
    for (std::size_t o = 0; o < c.votes.size() && o < r.restored.votes.size(); ++o)
        for (int k = 0; k < kConfidences; ++k)
            c.votes[o][std::size_t(k)] += r.restored.votes[o][std::size_t(k)];
    for (const auto &[cookie, vote] : r.votes)
        if (std::size_t(vote.first) < c.votes.size())
            ++c.votes[std::size_t(vote.first)][std::size_t(vote.second)];
    return c;
}

Counts Room::counts(int round) const
{
    const Asked *a = asked();
    return a ? countsOf(*a, round) : Counts();
}

Counts Room::counts(const QString &questionId, int round) const
{
    for (const Asked &a : m_asked)
        if (a.question.id == questionId)
            return countsOf(a, round);
    return {};
}

QStringList Room::askedIds() const
{
    QStringList ids;
    for (const Asked &a : m_asked)
        ids << a.question.id;
    return ids;
}

QVariantMap Room::save() const
{
    QVariantList questions;
    for (const Asked &a : m_asked) {
        QVariantMap q;
        q[QStringLiteral("id")] = a.question.id;
        q[QStringLiteral("prompt")] = a.question.prompt;
        q[QStringLiteral("options")] = a.question.options;
        QVariantList rounds;
        for (std::size_t r = 0; r < a.rounds.size(); ++r) {
            QVariantList perOption;
            for (const auto &v : countsOf(a, int(r)).votes)
                perOption << QVariant(QVariantList{v[0], v[1], v[2]});
            rounds << QVariant(perOption);
        }
        q[QStringLiteral("rounds")] = rounds;
        questions << q;
    }
    return {{QStringLiteral("questions"), questions}};
}

void Room::restore(const QVariantMap &saved)
{
    m_asked.clear();
    m_state = State::Idle;
    m_question = Question();
    m_round = 0;
    for (const QVariant &qv : saved.value(QStringLiteral("questions")).toList()) {
        const QVariantMap q = qv.toMap();
        Asked a;
        a.question.id = q.value(QStringLiteral("id")).toString();
        a.question.prompt = q.value(QStringLiteral("prompt")).toString();
        a.question.options = q.value(QStringLiteral("options")).toStringList();
        if (a.question.id.isEmpty() || a.question.options.size() > kMaxOptions)
            continue; // not one of ours
        for (const QVariant &rv : q.value(QStringLiteral("rounds")).toList()) {
            if (a.rounds.size() >= std::size_t(kRounds))
                break;
            Round r;
            for (const QVariant &ov : rv.toList()) {
                const QVariantList k = ov.toList();
                std::array<int, kConfidences> v{};
                for (int i = 0; i < kConfidences && i < k.size(); ++i)
                    v[std::size_t(i)] = std::max(0, k[i].toInt());
                r.restored.votes.push_back(v);
            }
            a.rounds.push_back(r);
        }
        if (a.rounds.empty())
            a.rounds.resize(1);
        a.state = State::Closed;
        m_asked.push_back(a);
    }
    changed();
}

namespace {

QString csvField(const QString &text)
{
    if (!text.contains(QLatin1Char(',')) && !text.contains(QLatin1Char('"')) &&
        !text.contains(QLatin1Char('\n')) && !text.contains(QLatin1Char('\r')))
        return text;
    QString quoted = text;
    quoted.replace(QLatin1Char('"'), QStringLiteral("\"\""));
    return QLatin1Char('"') + quoted + QLatin1Char('"');
}

} // namespace

QString Room::csv() const
{
    QString out =
        QStringLiteral("question,prompt,round,option,text,guess,fairly sure,sure,total\r\n");
    for (const Asked &a : m_asked) {
        for (std::size_t r = 0; r < a.rounds.size(); ++r) {
            const Counts c = countsOf(a, int(r));
            for (std::size_t o = 0; o < c.votes.size(); ++o) {
                const auto &v = c.votes[o];
                out += QStringList{csvField(a.question.id),
                                   csvField(a.question.prompt),
                                   QString::number(r + 1),
                                   QString(QChar(u'A' + int(o))),
                                   csvField(a.question.options[int(o)]),
                                   QString::number(v[0]),
                                   QString::number(v[1]),
                                   QString::number(v[2]),
                                   QString::number(c.option(int(o)))}
                           .join(QLatin1Char(','));
                out += QStringLiteral("\r\n");
            }
        }
    }
    return out;
}

} // namespace Poll
