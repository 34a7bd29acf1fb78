#pragma once

// Every event of the document's trace as a table row, in the order they happened. Lazy: the row
// count is the trace's event count and each cell is computed when a view asks for it, so a
// trace with millions of events costs nothing up front (no per-row objects, no strings).
// Reset whenever the document re-simulates.

#include "theme.h"

#include "trace.h"

#include <QAbstractTableModel>
#include <QIcon>

#include <array>

class Document;
class QTableView;

class EventLogModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column
    {
        TickColumn,
        ClientColumn,
        EventColumn,
        TokenColumn,
        StorageColumn,
        ResultColumn,
        ExplanationColumn,
        ColumnCount
    };
    enum Role
    {
        EventIndexRole = Qt::UserRole + 1, // index into Trace::events
        ClientRole,                        // the event's client lane
        ActionRole,                        // index into that client's actions
        ResultRole,                        // int(Core::WriteResult) for arrivals, else -1
        FullExplanationRole,               // Core::explainEvent (also the tooltip)
    };

    explicit EventLogModel(Document *doc, QObject *parent = nullptr);

    void setTheme(const Theme &theme);

    int rowCount(const QModelIndex &parent = {}) const override;
    int liveRows() const;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

    // Rows are event indices: the same number both ways, named for readability at call sites.
    static int rowOfEvent(std::uint32_t event) { return int(event); }
    static std::uint32_t eventOfRow(int row) { return std::uint32_t(row); }
    // A short name for an event kind ("grant", "write arrives", ...).
    // A view of the log at the theme's text size (Theme::fontScale, 1: the application's): its
    // font, its fixed row height and its columns' widths scaled with it.
    static void applyFontScale(QTableView *view, double scale);

    static QString kindName(Core::EventKind kind);
    static QString resultName(Core::WriteResult result);

private:
    const Core::Trace &trace() const;
    void rebuildIcons();

    Document *m_doc;
    // Rows as of the last reset: the count changes only inside a reset, as a model must, even
    // though the trace may be re-simulated (during a drag) before the paced reset comes.
    int m_rows = 0;
    Theme m_theme = Theme::light();
    std::array<QIcon, 4> m_icons; // per WriteResult, for the current theme
};
