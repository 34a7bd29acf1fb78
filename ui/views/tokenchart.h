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
    // The token axis's labels as drawn: the token, its y in the widget and its text (the
    // source's own form). The highest and the lowest token plotted always have one.
    struct TokenLabel
    {
        double value = 0;
        double y = 0;
        QString text;
    };
    std::vector<TokenLabel> tokenLabels() const;
    // False when the token axis starts at the lowest token rather than at 0 (tokens that
    // differ little against their size).
    bool tokenAxisFromZero() const { return !m_tokenZoomed; }
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
    // The token axis's range for the tokens plotted (levels: every one, in any order).
    void fitTokens(std::vector<double> levels, bool markerAtZero);
    // The token axis's range for the plot's height: markers at both ends drawn whole.
    void updateTokenTicks();
    QRectF plotRect() const;

    // Room above the plot for the legend, below it for the tick labels, and right of it.
    static constexpr double kTop = 34;
    static constexpr double kBottom = 26;
    static constexpr double kRight = 12;
    static constexpr int kMarker = 14; // an outcome's marker, in pixels

    Document *m_doc;
    ViewState *m_state;
    Theme m_theme = Theme::light();
    double m_headerWidth = 120;
    // the tokens plotted run from m_tokenLo (0 unless zoomed) to m_tokenHi; the distinct ones
    double m_tokenLo = 0;
    double m_tokenHi = 1;
    bool m_tokenZoomed = false;
    std::vector<double> m_tokenLevels;

    QValueAxis *m_timeAxis;
    QValueAxis *m_tokenAxis;
    QScatterSeries *m_grants;
    Scatter m_grantPoints;
    Scatter m_outcomePoints[4]; // per WriteResult
    std::vector<QLineSeries *> m_storageLines;     // primary trace, one per storage
    std::vector<QLineSeries *> m_unfencedLines;    // compare mode: the unfenced trace
};
