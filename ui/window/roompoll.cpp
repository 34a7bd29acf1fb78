#include "window/roompoll.h"

#include "document/lessonsession.h"
#include "views/lessonstage.h"
#include "window/lessoncontroller.h"

#include "lesson.h"
#include "qrmatrix.h"

#include <QSettings>
#include <QTextDocument>

namespace {

// A lesson's Markdown as the phones show it: plain text (the page sets it as text, never HTML).
QString plain(const QString &markdown)
{
    if (markdown.isEmpty())
        return {};
    QTextDocument doc;
    doc.setMarkdown(markdown, QTextDocument::MarkdownNoHTML);
    return doc.toPlainText().trimmed();
}

} // namespace

RoomPoll::RoomPoll(LessonController *lessons, LessonStage *stage, QObject *parent)
    : QObject(parent), m_lessons(lessons), m_stage(stage)
{
    connect(m_lessons, &LessonController::stageChanged, this, &RoomPoll::follow);
    m_showSoon.setSingleShot(true);
    m_showSoon.setInterval(kShowMs);
    connect(&m_showSoon, &QTimer::timeout, this, &RoomPoll::show);
    connect(m_lessons, &LessonController::sessionChanged, this, &RoomPoll::sessionChanged);
    PollBox *box = m_stage->pollBox();
    connect(box, &PollBox::startRequested, this, &RoomPoll::start);
    connect(box, &PollBox::stopRequested, this, &RoomPoll::stop);
    connect(box, &PollBox::histogramRequested, this, &RoomPoll::toggleHistogram);
    connect(box, &PollBox::secondRoundRequested, this, &RoomPoll::secondRound);
    connect(box, &PollBox::interfaceChosen, this, &RoomPoll::choose);
    listChoices();
    sessionChanged(m_lessons->session());
}

RoomPoll::~RoomPoll()
{
    m_server.reset(); // before the room it serves
}

void RoomPoll::sessionChanged(LessonSession *session)
{
    // another lesson, or none: the poll of the one before ends
    if (session != m_session.data())
        stop();
    m_session = session;
    show();
}

bool RoomPoll::start()
{
    if (isOn())
        return true;
    if (!m_session)
        return false;
    m_room = std::make_unique<Poll::Room>();
    m_room->restore(m_session->pollCounts());
    m_server = std::make_unique<Poll::PollServer>(m_room.get());
    // 300 phones vote within a second or two: the stage is filled again once per tenth of a
    // second at most, not once per vote
    const auto soon = [this] {
        if (!m_showSoon.isActive())
            m_showSoon.start();
    };
    // but the session has each vote at once: a lesson closed right after a vote writes its
    // progress before the poll stops, and a tenth of a second later would be too late
    connect(m_server.get(), &Poll::PollServer::voted, this, &RoomPoll::keep);
    connect(m_server.get(), &Poll::PollServer::voted, this, soon);
    connect(m_server.get(), &Poll::PollServer::pageServed, this, soon);
    // a cable plugged in or a hotspot turned on since: offered now
    listChoices();
    const QHostAddress address =
        m_chosen < 0 ? QHostAddress() : m_choices[qsizetype(m_chosen)].address;
    if (!m_server->start(address)) {
        m_error = m_server->error();
        m_server.reset();
        m_room.reset();
        show();
        return false;
    }
    m_error.clear();
    m_histogram = false;
    follow();
    return true;
}

void RoomPoll::setAddress(const QHostAddress &address)
{
    m_address = address;
    m_chosen = -1; // the variable's address, unless the teacher picked another before
    listChoices();
    show();
}

void RoomPoll::setInterfaceSource(InterfaceSource source)
{
    m_interfaces = std::move(source);
    listChoices();
    show();
}

void RoomPoll::listChoices()
{
    const Choice had = m_chosen < 0 ? Choice() : m_choices[qsizetype(m_chosen)];
    m_choices.clear();
    int given = -1;
    for (const Poll::PollServer::Interface &i : m_interfaces()) {
        if (i.address.isEqual(m_address))
            given = int(m_choices.size());
        m_choices.append({i.name, tr("%1: %2").arg(i.name, i.address.toString()), i.address});
    }
    if (!m_address.isNull() && given < 0) {
        // FENCESCOPE_POLL_ADDRESS names an address the list has not: the loopback (the tests),
        // or one no interface has yet (listening there fails and says so)
        const QString name = Poll::PollServer::interfaceOf(m_address);
        const QString label =
            m_address.isLoopback()
                ? tr("this computer only (for a test): %1").arg(m_address.toString())
                : tr("%1 (FENCESCOPE_POLL_ADDRESS)").arg(m_address.toString());
        m_choices.prepend({name.isEmpty() ? m_address.toString() : name, label, m_address});
        given = 0;
    }
    // the pick of a moment ago, else the one remembered, else the variable's, else the first
    const QString remembered = QSettings().value(QLatin1String(kInterfaceKey)).toString();
    const auto named = [this](const QString &name) {
        for (qsizetype i = 0; i < m_choices.size(); ++i)
            if (!name.isEmpty() && m_choices[i].name == name)
                return int(i);
        return -1;
    };
    m_chosen = -1;
    // an interface may have two addresses: the one picked, by its address first
    for (qsizetype i = 0; i < m_choices.size() && m_chosen < 0; ++i)
        if (!had.address.isNull() && m_choices[i].name == had.name &&
            m_choices[i].address.isEqual(had.address))
            m_chosen = int(i);
    if (m_chosen < 0)
        m_chosen = named(had.name);
    if (m_chosen < 0)
        m_chosen = named(remembered);
    if (m_chosen < 0)
        m_chosen = given >= 0 ? given : (m_choices.isEmpty() ? -1 : 0);
}

void RoomPoll::choose(int index)
{
    if (index < 0 || index >= int(m_choices.size()) || index == m_chosen)
        return;
    const Choice &choice = m_choices[qsizetype(index)];
    if (isOn()) {
        // the same server and room: the code and the counts stay; the phones scan again
        if (!m_server->start(choice.address)) {
            // the interface went down since it was listed, say: the poll stays where it was,
            // on the address and port the phones have
            m_error = m_server->error();
            show();
            return;
        }
        m_error.clear();
    }
    m_chosen = index;
    QSettings().setValue(QLatin1String(kInterfaceKey), choice.name);
    show();
}

void RoomPoll::stop()
{
    if (m_server) {
        keep();
        m_server.reset();
    }
    m_room.reset();
    m_histogram = false;
    show();
}

void RoomPoll::toggleHistogram()
{
    if (!isOn())
        return;
    m_histogram = !m_histogram;
    show();
}

bool RoomPoll::secondRound()
{
    if (!isOn() || !m_room->openSecondRound())
        return false;
    m_histogram = false; // the second vote is each student's own again
    show();
    return true;
}

bool RoomPoll::isPollKey(int key)
{
    return key == Qt::Key_P || key == Qt::Key_H || key == Qt::Key_V;
}

void RoomPoll::key(int key)
{
    if (key == Qt::Key_P)
        isOn() ? stop() : void(start());
    else if (key == Qt::Key_H)
        toggleHistogram();
    else if (key == Qt::Key_V)
        secondRound();
}

QString RoomPoll::csv() const
{
    if (m_room)
        return m_room->csv();
    Poll::Room saved;
    if (m_session)
        saved.restore(m_session->pollCounts());
    return saved.csv();
}

QString RoomPoll::questionId() const
{
    return m_session ? QStringLiteral("scene-%1").arg(m_session->scene() + 1) : QString();
}

void RoomPoll::follow()
{
    if (!isOn())
        return;
    const Core::LessonQuestion *q = m_session ? m_session->question() : nullptr;
    switch (m_lessons->stage()) {
    case LessonController::Stage::Question: {
        if (!q)
            break;
        Poll::Question asked;
        asked.id = questionId();
        asked.prompt = plain(q->prompt);
        for (const Core::LessonOption &o : q->options)
            asked.options << Core::claimText(o.claim);
        // a new question opens its first round; one asked before (back from the reveal, or
        // from the next scene) its last round again, with its votes. Another question than the
        // one just asked starts with its counts hidden, as the poll does: each first vote is
        // the student's own (H shows them)
        if (m_room->question().id != asked.id)
            m_histogram = false;
        m_room->ask(asked);
        show();
        return;
    }
    case LessonController::Stage::Revealing:
        m_room->close();
        show();
        return;
    case LessonController::Stage::Answer: {
        if (!q)
            break;
        QStringList feedback;
        for (const Core::LessonOption &o : q->options)
            feedback << plain(o.feedback);
        m_room->close();
        m_room->reveal(m_session->play().right(), feedback);
        show();
        return;
    }
    default:
        break;
    }
    m_room->clear();
    show();
}

void RoomPoll::keep()
{
    if (m_room && m_session)
        m_session->setPollCounts(m_room->save());
}

void RoomPoll::show()
{
    m_showSoon.stop();
    PollView v;
    v.error = m_error;
    for (const Choice &c : m_choices)
        v.interfaces << c.label;
    v.interface = m_chosen;
    if (isOn()) {
        v.on = true;
        v.address = m_server->baseUrl();
        v.code = m_room->code();
        v.qr = Poll::qrEncode(m_server->joinUrl());
        v.pages = m_server->pagesServed();
        v.round = m_room->round();
        v.rounds = m_room->rounds();
        v.open = m_room->state() == Poll::Room::State::Open;
        v.histogram = m_histogram;
        if (m_room->state() == Poll::Room::State::Revealed)
            v.right = m_room->question().right;
        for (int r = 0; r < v.rounds && r < 2; ++r) {
            const Poll::Counts c = m_room->counts(r);
            for (std::size_t o = 0; o < c.votes.size(); ++o)
                v.counts[std::size_t(r)].push_back(c.option(int(o)));
        }
    }
    m_stage->setPoll(v);
    emit changed();
}
