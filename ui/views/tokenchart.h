#pragma once

// Tokens over time under the timeline (Qt Charts), on the timeline's own time axis: the chart's
// plot area starts where the timeline's lanes start (after the header column) and its x range
// follows ViewState's firstTick and pixelsPerTick, so a tick sits at the same x in both.
//
// Shows every grant's token as a point, each storage's max_token as a step line (with fencing
// off a storage keeps no max_token, so the line shows the token of the data it holds: a
// corruption is where that line steps down), and write outcomes as markers with the timeline's
// shapes and colours. Hover names the event; a click selects its action (ViewState).

#include "theme.h"

#include "trace.h"

#include <QChartView>

#include <cstdint>
#include <vector>

class Document;
class ViewState;
class QLineSeries;
class QScatterSeries;
class QValueAxis;
class QAbstractSeries;

class TokenChart : public QChartView
{
    Q_OBJECT
public:
    TokenChart(Document *doc, ViewState *state, QWidget *parent = nullptr);
    ~TokenChart() override;

    void setTheme(const Theme &theme);
    // Width of the timeline's lane header column: the plot area starts there.
    void setHeaderWidth(double px);
    double headerWidth() const { return m_headerWidth; }

    // The series, for tests and for the legend.
    QScatterSeries *grantSeries() const { return m_grants; }
    QScatterSeries *outcomeSeries(Core::WriteResult result) const;
    // Step line of storage `storage`; in compare mode the unfenced line is `unfenced == true`.
    QLineSeries *storageSeries(int storage, bool unfenced = false) const;
    QValueAxis *timeAxis() const { return m_timeAxis; }
    QValueAxis *tokenAxis() const { return m_tokenAxis; }

    // The trace event behind point `index` of a scatter series (kNone if none).
    std::uint32_t eventAt(const QAbstractSeries *series, int index) const;
    // What hovering that point shows.
    QString describePoint(const QAbstractSeries *series, int index) const;
    // What clicking that point does: select its action.
    void activatePoint(const QAbstractSeries *series, int index);

    QSize sizeHint() const override { return {900, 220}; }
    QSize minimumSizeHint() const override { return {200, 120}; }

signals:
    void hoverTextChanged(const QString &text);

protected:
    void resizeEvent(QResizeEvent *event) override;
    void drawForeground(QPainter *painter, const QRectF &rect) override;
    void wheelEvent(QWheelEvent *event) override;

private:
    struct Scatter
    {
        QScatterSeries *series = nullptr;
        const Core::Trace *trace = nullptr; // the trace its events index into
        std::vector<std::uint32_t> events;   // parallel to the series' points
    };

    void rebuild();
    void syncAxis();
    void applyTheme();
    const Core::Trace &primaryTrace() const;
    const Scatter *scatterOf(const QAbstractSeries *series) const;
    int nearestPoint(const QAbstractSeries *series, QPointF value) const;
    static void setAxis(QValueAxis *axis, double min, double max, double interval);
    // The token axis's step for its range and the plot's height.
    void updateTokenTicks();
    QRectF plotRect() const;

    Document *m_doc;
    ViewState *m_state;
    Theme m_theme = Theme::light();
    double m_headerWidth = 120;
    double m_tokenSpan = 1; // the token axis runs from 0 to this

    QValueAxis *m_timeAxis;
    QValueAxis *m_tokenAxis;
    QScatterSeries *m_grants;
    Scatter m_grantPoints;
    Scatter m_outcomePoints[4]; // per WriteResult
    std::vector<QLineSeries *> m_storageLines;     // primary trace, one per storage
    std::vector<QLineSeries *> m_unfencedLines;    // compare mode: the unfenced trace
};
