#include "views/eventlogmodel.h"

#include "document/changethrottle.h"
#include "document/document.h"
#include "outcomemarker.h"

#include "explain.h"
#include "simulator.h"
#include "tokensource.h"

#include <QApplication>
#include <QBrush>
#include <QFont>
#include <QFontMetrics>
#include <QHeaderView>
#include <QTableView>

#include <climits>
#include <optional>

EventLogModel::EventLogModel(Document *doc, QObject *parent)
    : QAbstractTableModel(parent), m_doc(doc)
{
    rebuildIcons();
    // a new trace can have any number of events: a reset is the honest signal
    m_rows = liveRows();
    new ChangeThrottle(doc, this, [this] {
        beginResetModel();
        m_rows = liveRows();
        endResetModel();
    });
}

void EventLogModel::applyFontScale(QTableView *view, double scale)
{
    // (the scale the widths were made for: columns keep what the user dragged them to)
    const QVariant was = view->property("fontScale");
    const double before = was.isValid() ? was.toDouble() : 1.0;
    view->setProperty("fontScale", scale);
    QFont f = QApplication::font();
    f.setPointSizeF(f.pointSizeF() * scale);
    view->setFont(f);
    // fixed row heights: the view never measures millions of rows
    view->verticalHeader()->setDefaultSectionSize(QFontMetrics(f).height() + 8);
    if (before == scale)
        return;
    for (int c = 0; c + 1 < view->model()->columnCount(); ++c) // the last one stretches
        view->setColumnWidth(c, int(std::lround(view->columnWidth(c) * scale / before)));
}

void EventLogModel::setTheme(const Theme &theme)
{
    m_theme = theme;
    rebuildIcons();
    if (rowCount() > 0)
        emit dataChanged(index(0, 0), index(rowCount() - 1, ColumnCount - 1),
                         {Qt::DecorationRole, Qt::ForegroundRole});
}

void EventLogModel::rebuildIcons()
{
    for (int r = 0; r < 4; ++r)
        m_icons[size_t(r)] = OutcomeMarker::icon(m_theme, Core::WriteResult(r));
}

const Core::Trace &EventLogModel::trace() const
{
    return m_doc->trace();
}

int EventLogModel::liveRows() const
{
    // a QTableView cannot address more rows than an int holds
    return int(std::min<std::size_t>(trace().events.size(), std::size_t(INT_MAX)));
}

int EventLogModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : m_rows;
}

int EventLogModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QString EventLogModel::kindName(Core::EventKind kind)
{
    switch (kind) {
    case Core::EventKind::Grant:
        return tr("grant");
    case Core::EventKind::Renewal:
        return tr("renewal");
    case Core::EventKind::Refusal:
        return tr("refused");
    case Core::EventKind::Release:
        return tr("release");
    case Core::EventKind::PauseStart:
        return tr("pause starts");
    case Core::EventKind::PauseEnd:
        return tr("pause ends");
    case Core::EventKind::WriteSent:
        return tr("write sent");
    case Core::EventKind::WriteArrived:
        return tr("write arrives");
    case Core::EventKind::ReadSent:
        return tr("read sent");
    case Core::EventKind::ReadArrived:
        return tr("read arrives");
    case Core::EventKind::Checked:
        return tr("lease checked");
    case Core::EventKind::Skipped:
        return tr("write skipped");
    case Core::EventKind::Lost:
        return tr("told: lease gone");
    }
    return {};
}

QString EventLogModel::resultName(Core::WriteResult result)
{
    switch (result) {
    case Core::WriteResult::Accepted:
        return tr("accepted");
    case Core::WriteResult::Rejected:
        return tr("rejected");
    case Core::WriteResult::Corrupted:
        return tr("CORRUPTED");
    case Core::WriteResult::LockedOut:
        return tr("locked out");
    }
    return {};
}

// The token an event carries: a grant's, or a tagged write's; none for the other events.
static std::optional<Core::Token> eventToken(const Core::Trace &t, const Core::Event &e)
{
    switch (e.kind) {
    case Core::EventKind::Grant:
    case Core::EventKind::Renewal:
        return t.grants[e.ref].token;
    case Core::EventKind::WriteSent:
    case Core::EventKind::WriteArrived:
        if (t.writes[e.ref].tagged)
            return t.tokenOf(t.writes[e.ref]);
        return std::nullopt;
    default:
        return std::nullopt;
    }
}

QVariant EventLogModel::data(const QModelIndex &index, int role) const
{
    // rows past the live trace's end: it was cut back by a drag and the reset is pending
    if (!index.isValid() || index.row() >= rowCount() || index.row() >= liveRows() ||
        index.column() >= ColumnCount)
        return {};
    const Core::Trace &t = trace();
    const Core::Scenario &s = m_doc->scenario();
    const std::uint32_t ei = eventOfRow(index.row());
    const Core::Event &e = t.events[ei];
    const bool arrival = e.kind == Core::EventKind::WriteArrived;
    const bool isWrite = arrival || e.kind == Core::EventKind::WriteSent;
    const Core::Write *w = isWrite ? &t.writes[e.ref] : nullptr;

    switch (role) {
    case EventIndexRole:
        return QVariant::fromValue(ei);
    case ClientRole:
        return int(e.client);
    case ActionRole:
        return int(Core::actionOfEvent(t, ei));
    case ResultRole:
        return arrival ? int(w->result) : -1;
    case Qt::ToolTipRole:
        // the token cell says what the number means in its system ("Raft term 3", ...)
        if (index.column() == TokenColumn && eventToken(t, e))
            return Core::describeToken(t.tokens, *eventToken(t, e));
        return Core::explainEvent(s, t, ei);
    case FullExplanationRole:
        return Core::explainEvent(s, t, ei);
    case Qt::DecorationRole:
        if (index.column() == ResultColumn && arrival)
            return m_icons[size_t(w->result)];
        return {};
    case Qt::ForegroundRole:
        if (index.column() == ResultColumn && arrival && w->result != Core::WriteResult::Accepted)
            return QBrush(m_theme.outcome(w->result).darker(
                m_theme.name == QLatin1String("dark") ? 100 : 130));
        return {};
    case Qt::FontRole:
        if (index.column() == ResultColumn && arrival &&
            w->result == Core::WriteResult::Corrupted) {
            QFont f;
            f.setBold(true);
            return f;
        }
        return {};
    case Qt::TextAlignmentRole:
        if (index.column() == TickColumn || index.column() == TokenColumn)
            return int(Qt::AlignRight | Qt::AlignVCenter);
        return {};
    case Qt::DisplayRole:
        break;
    default:
        return {};
    }

    switch (index.column()) {
    case TickColumn:
        return QString::number(qulonglong(e.tick));
    case ClientColumn:
        return e.client < s.clients.size() ? s.clients[e.client].name : QString();
    case EventColumn:
        return kindName(e.kind);
    case TokenColumn:
        // in the source's own form, as the timeline writes it ("rev 7", "lock:exclusive:3")
        if (const std::optional<Core::Token> token = eventToken(t, e))
            return Core::formatToken(t.tokens, *token);
        if (isWrite)
            return tr("none");
        return {};
    case StorageColumn: {
        const bool read =
            e.kind == Core::EventKind::ReadSent || e.kind == Core::EventKind::ReadArrived;
        const std::uint32_t storage = w      ? w->storage
                                      : read ? t.reads[e.ref].storage
                                             : std::uint32_t(s.storages.size());
        return storage < s.storages.size() ? s.storages[storage].name : QString();
    }
    case ResultColumn:
        if (arrival)
            return resultName(w->result);
        switch (e.kind) {
        case Core::EventKind::Refusal:
            return tr("refused");
        case Core::EventKind::ReadArrived:
            return tr("version %1").arg(t.reads[e.ref].version);
        case Core::EventKind::Skipped:
            return tr("skipped");
        case Core::EventKind::Lost:
            return tr("lease gone");
        default:
            return {};
        }
    case ExplanationColumn:
        return Core::briefEvent(s, t, ei);
    }
    return {};
}

QVariant EventLogModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (section) {
    case TickColumn:
        return tr("Tick");
    case ClientColumn:
        return tr("Client");
    case EventColumn:
        return tr("Event");
    case TokenColumn:
        return tr("Token");
    case StorageColumn:
        return tr("Storage");
    case ResultColumn:
        return tr("Result");
    case ExplanationColumn:
        return tr("What happened");
    }
    return {};
}
