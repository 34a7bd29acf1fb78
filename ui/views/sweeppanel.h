#pragma once

// The sweep panel: choose a quantity to vary over a range (and a second one for a family of
// curves), run the open scenario itself at every point (the default), or seeded schedules near
// it or shaped like it on every core, and see the share of schedules with a failure, fenced and
// unfenced, with 95% Wilson bands where a point has more than one schedule. A sentence under the
// choices says what a point's schedules are (Core::schedulesSentence). Cancel and resume; click
// a point to open its worst (or first) failing schedule; export the chart as PNG or SVG in the
// look of the slide exports (ui/theme.h's print theme, its fonts, 1920 x 1080) and the numbers
// as CSV.

#include "scenario.h"
#include "sweep.h"

#include <QColor>
#include <QFutureWatcher>
#include <QSize>
#include <QWidget>

#include <array>
#include <atomic>
#include <functional>

class QAreaSeries;
class QChart;
class QChartView;
class QComboBox;
class QGraphicsScene;
class QLabel;
class QLineEdit;
class QLineSeries;
class QProgressBar;
class QPushButton;
class QSpinBox;
struct Theme;

class SweepPanel : public QWidget
{
    Q_OBJECT

public:
    explicit SweepPanel(QWidget *parent = nullptr);
    ~SweepPanel() override;

    // The scenario whose shape the next sweep draws schedules from.
    void setScenario(const Core::Scenario &scenario);

    const Core::SweepSpec &spec() const { return m_spec; }
    const Core::SweepResult &result() const { return m_result; }
    bool running() const { return m_watcher.isRunning(); }
    QChart *chart() const;
    // The chart's share line of one curve (index into vary2's values, 0 without) and side.
    QLineSeries *shareSeries(std::size_t curve, bool fencing) const;

    // Opens (emits openScenario for) the worst or, as the "opens" choice says, the first
    // failing schedule of a point, for the chosen outcome on that side, or its first schedule
    // when none failed.
    void openPoint(std::size_t point, bool fencing);

    // The colour of a curve's share line (and, fainter, its band) on one side.
    static QColor curveColour(std::size_t curve, bool fencing);
    // The size of the exported chart, in pixels of the PNG and the SVG's view box.
    static QSize exportSize() { return {1920, 1080}; }

    bool exportPng(const QString &path, QString *error = nullptr) const;
    bool exportSvg(const QString &path, QString *error = nullptr) const;
    bool exportCsv(const QString &path, QString *error = nullptr) const;

signals:
    void openScenario(const Core::Scenario &scenario, const QString &description);
    void sweepFinished(bool complete);

private:
    void start(bool resume);
    void cancel();
    void finished();
    void showProgress(std::uint64_t done, std::uint64_t total);
    void updateChart();
    // The chart of the finished points into `chart`: axes, bands and share lines (per curve:
    // unfenced, fenced). With a theme, in its colours and fonts, sized for a slide.
    // `bands` gets the 95% band of each line, in the same order.
    std::vector<std::array<QLineSeries *, 2>>
    fillChart(QChart *chart, const Theme *slide,
              std::vector<std::array<QAreaSeries *, 2>> *bands = nullptr) const;
    // The chart as exported (slide theme, exportSize()), set in a scene, for `use` to paint.
    void withExportChart(const std::function<void(QChart *, QGraphicsScene *)> &use) const;
    QByteArray renderSvg() const;
    void updateButtons();
    void updateAbout();
    void chooseExport(const QString &kind);
    bool specFromControls(Core::SweepSpec *spec, QString *error) const;
    void seriesClicked(std::size_t curve, bool fencing, const QPointF &at);

    Core::Scenario m_scenario;
    Core::SweepSpec m_spec;
    Core::SweepResult m_result;
    std::atomic<bool> m_cancel{false};
    QFutureWatcher<Core::SweepResult> m_watcher;

    QComboBox *m_quantity;
    QSpinBox *m_from;
    QSpinBox *m_to;
    QSpinBox *m_step;
    QComboBox *m_quantity2;
    QLineEdit *m_values2;
    QSpinBox *m_runs;
    QSpinBox *m_seed;
    QComboBox *m_schedules; // fixed (the scenario itself), near, shaped
    QSpinBox *m_jitter;
    QLabel *m_about; // what a point's schedules are, in a sentence
    QComboBox *m_outcome;
    QComboBox *m_opens; // what a click on a point opens: "worst" or "first"
    QPushButton *m_run;
    QPushButton *m_cancelButton;
    QPushButton *m_resume;
    QPushButton *m_exportPng;
    QPushButton *m_exportSvg;
    QPushButton *m_exportCsv;
    QProgressBar *m_progress;
    QLabel *m_status;
    QChartView *m_view;
    std::vector<std::array<QLineSeries *, 2>> m_lines; // per curve: unfenced, fenced
};
