// The sweep panel's chart: the curves and bands drawn from the report, a click on a curve that
// opens the run behind the point, and the chart and the numbers exported (PNG, SVG, CSV).
#include "views/sweeppanel.h"

#include "savefile.h"
#include "svgdocument.h"
#include "sweepreport.h"
#include "theme.h"
#include "views/lowpriority.h"

#include <QAreaSeries>
#include <QBuffer>
#include <QChart>
#include <QChartView>
#include <QComboBox>
#include <QFileDialog>
#include <QFormLayout>
#include <QGraphicsScene>
#include <QHBoxLayout>
#include <QLabel>
#include <QLegend>
#include <QLegendMarker>
#include <QLineEdit>
#include <QLineSeries>
#include <QPainter>
#include <QProgressBar>
#include <QPushButton>
#include <QScrollArea>
#include <QSpinBox>
#include <QVBoxLayout>
#include <QValueAxis>
#include <QtConcurrent>

#include <cmath>
#include <iterator>

namespace {

// One colour per curve; its fenced line is darker and dashed, its band fainter.
const QColor kCurveColours[] = {QColor(0xc0, 0x39, 0x2b), QColor(0x29, 0x80, 0xb9),
                                QColor(0x27, 0xae, 0x60), QColor(0x8e, 0x44, 0xad),
                                QColor(0xd3, 0x54, 0x00), QColor(0x2c, 0x3e, 0x50)};

bool fail(QString *error, const QString &message)
{
    if (error)
        *error = message;
    return false;
}

// the file whole or not at all
bool saveBytes(const QString &path, const QByteArray &bytes, QString *error)
{
    if (const std::optional<Core::SaveFailure> failed = Core::saveWhole(path, bytes))
        return fail(error, SweepPanel::tr("Cannot write %1: %2").arg(path, failed->reason));
    return true;
}

} // namespace

QColor SweepPanel::curveColour(std::size_t curve, bool fencing)
{
    const QColor base = kCurveColours[curve % std::size(kCurveColours)];
    return fencing ? base.darker(170) : base;
}

void SweepPanel::updateChart()
{
    std::vector<std::array<QAreaSeries *, 2>> bands;
    m_lines = fillChart(m_view->chart(), nullptr, &bands);
    for (std::size_t c = 0; c < m_lines.size(); ++c) {
        for (bool fencing : {false, true}) {
            const auto open = [this, c, fencing](const QPointF &at) {
                seriesClicked(c, fencing, at);
            };
            connect(m_lines[c][fencing ? 1 : 0], &QLineSeries::clicked, this, open);
            if (QAreaSeries *band = bands[c][fencing ? 1 : 0]) // (none for one run a point)
                connect(band, &QAreaSeries::clicked, this, open);
        }
    }
}

std::vector<std::array<QLineSeries *, 2>>
SweepPanel::fillChart(QChart *chart, const Theme *slide,
                      std::vector<std::array<QAreaSeries *, 2>> *bands) const
{
    std::vector<std::array<QAreaSeries *, 2>> areas;
    chart->removeAllSeries();
    for (QAbstractAxis *axis : chart->axes())
        chart->removeAxis(axis);
    std::vector<std::array<QLineSeries *, 2>> lines;
    if (!m_spec.vary.quantity)
        return lines;
    const std::size_t outcome = std::size_t(std::max(0, m_outcome->currentIndex()));
    const std::size_t n = m_spec.vary.values.size();
    const std::size_t curves = m_spec.vary2.quantity ? m_spec.vary2.values.size() : 1;
    chart->setTitle(tr("Schedules with a %1").arg(Core::outcomes()[outcome].label));

    auto *x = new QValueAxis;
    x->setTitleText(m_spec.vary.quantity->label);
    x->setRange(double(m_spec.vary.values.front()), double(m_spec.vary.values.back()));
    x->setLabelFormat(QStringLiteral("%d"));
    auto *y = new QValueAxis;
    y->setTitleText(tr("share of schedules"));
    y->setRange(0, 1);
    chart->addAxis(x, Qt::AlignBottom);
    chart->addAxis(y, Qt::AlignLeft);
    // seen from the back of a lecture hall: thicker lines, larger text (exporter.cpp's sizes)
    const double lineWidth = slide ? 4 * slide->lineScale : 2;
    // a band says how far a share of many schedules may be from the chance of failing; one
    // schedule a point (the scenario itself) fails or does not, and 0 of 1 would draw a band
    // from 0 to 0.79
    const bool withBands = m_spec.runsPerPoint() > 1;

    for (std::size_t c = 0; c < curves; ++c) {
        std::array<QLineSeries *, 2> pair{};
        std::array<QAreaSeries *, 2> areaPair{};
        for (bool fencing : {false, true}) {
            QList<QPointF> share, low, high;
            for (std::size_t i = 0; i < n; ++i) {
                const Core::PointResult *p =
                    c * n + i < m_result.points.size() ? &m_result.points[c * n + i] : nullptr;
                if (!p || !p->done)
                    continue;
                const Core::OutcomeStat &s = p->side(fencing)[outcome];
                const double xv = double(m_spec.vary.values[i]);
                const Core::Interval band = Core::wilsonInterval(s.schedules, p->runs);
                share << QPointF(xv, double(s.schedules) / p->runs);
                low << QPointF(xv, band.low);
                high << QPointF(xv, band.high);
            }
            QString name = fencing ? tr("fenced") : tr("unfenced");
            if (m_spec.vary2.quantity)
                name += QStringLiteral(", %1 = %2")
                            .arg(m_spec.vary2.quantity->name)
                            .arg(m_spec.vary2.values[c]);
            const QColor colour = curveColour(c, fencing);

            QAreaSeries *band = nullptr;
            if (withBands) {
                auto *upper = new QLineSeries;
                auto *lower = new QLineSeries;
                upper->replace(high);
                lower->replace(low);
                band = new QAreaSeries(upper, lower);
                QColor fill = colour;
                fill.setAlphaF(fencing ? 0.12 : 0.22);
                band->setBrush(fill);
                band->setPen(Qt::NoPen);
                band->setName(name + tr(" (95%)"));
                chart->addSeries(band);
            }

            auto *line = new QLineSeries;
            line->setName(name);
            line->replace(share);
            QPen pen(colour, lineWidth);
            if (fencing)
                pen.setStyle(Qt::DashLine);
            line->setPen(pen);
            line->setPointsVisible(true);
            chart->addSeries(line);
            for (QAbstractSeries *s :
                 {static_cast<QAbstractSeries *>(band), static_cast<QAbstractSeries *>(line)}) {
                if (!s)
                    continue;
                s->attachAxis(x);
                s->attachAxis(y);
            }
            pair[fencing ? 1 : 0] = line;
            areaPair[fencing ? 1 : 0] = band;
        }
        lines.push_back(pair);
        areas.push_back(areaPair);
    }
    if (slide) {
        const auto font = [slide](double px, bool bold = false) {
            QFont f;
            f.setFamilies(Theme::fontFamilies());
            f.setStyleHint(QFont::SansSerif);
            f.setPixelSize(std::max(1, int(std::lround(px * slide->fontScale))));
            f.setBold(bold);
            return f;
        };
        chart->setTheme(QChart::ChartThemeLight);
        chart->setBackgroundBrush(slide->background);
        chart->setBackgroundRoundness(0);
        chart->setDropShadowEnabled(false);
        chart->setTitleFont(font(40, true));
        chart->setTitleBrush(slide->foreground);
        chart->legend()->setAlignment(Qt::AlignBottom);
        chart->legend()->setFont(font(24));
        chart->legend()->setLabelColor(slide->foreground);
        for (QAbstractAxis *axis : chart->axes()) {
            axis->setLabelsFont(font(24));
            axis->setLabelsColor(slide->foreground);
            axis->setTitleFont(font(28));
            axis->setTitleBrush(slide->foreground);
            axis->setLinePen(QPen(slide->foreground, 2 * slide->lineScale));
            axis->setGridLinePen(QPen(slide->muted, 1 * slide->lineScale, Qt::DotLine));
        }
        // setTheme restyles the series: give them their colours back
        for (std::size_t c = 0; c < lines.size(); ++c)
            for (bool fencing : {false, true}) {
                const QColor colour = curveColour(c, fencing);
                QPen pen(colour, lineWidth);
                if (fencing)
                    pen.setStyle(Qt::DashLine);
                lines[c][fencing ? 1 : 0]->setPen(pen);
                QAreaSeries *band = areas[c][fencing ? 1 : 0];
                if (!band)
                    continue;
                QColor fill = colour;
                fill.setAlphaF(fencing ? 0.12 : 0.22);
                band->setBrush(fill);
                band->setPen(Qt::NoPen);
            }
    }
    if (bands)
        *bands = std::move(areas);
    return lines;
}

void SweepPanel::seriesClicked(std::size_t curve, bool fencing, const QPointF &at)
{
    // the finished point nearest to the click along x
    const std::size_t n = m_spec.vary.values.size();
    std::size_t best = SIZE_MAX;
    double distance = 0;
    for (std::size_t i = 0; i < n; ++i) {
        const std::size_t p = curve * n + i;
        if (p >= m_result.points.size() || !m_result.points[p].done)
            continue;
        const double d = std::abs(double(m_spec.vary.values[i]) - at.x());
        if (best == SIZE_MAX || d < distance) {
            best = p;
            distance = d;
        }
    }
    if (best != SIZE_MAX)
        openPoint(best, fencing);
}

void SweepPanel::openPoint(std::size_t point, bool fencing)
{
    if (point >= m_result.points.size() || !m_result.points[point].done)
        return;
    const std::size_t outcome = std::size_t(std::max(0, m_outcome->currentIndex()));
    const Core::OutcomeStat &s = m_result.points[point].side(fencing)[outcome];
    const bool first = m_opens->currentData().toString() == QLatin1String("first");
    const std::uint32_t chosen = first ? s.firstRun : s.worstRun;
    const std::uint32_t run = chosen == Core::kNone ? 0 : chosen;
    Core::Scenario scenario = Core::sweepSchedule(m_spec, point, run);
    scenario.fencing = fencing;
    const QString side = fencing ? tr("fenced") : tr("unfenced");
    const QString label = Core::outcomes()[outcome].label;
    const QString at = Core::pointLabel(m_spec, point);
    // one schedule is "the only" one, not "the worst of 1 schedules"
    const QString writes =
        s.worstWrites == 1 ? tr("1 such write") : tr("%1 such writes").arg(s.worstWrites);
    QString description;
    if (chosen == Core::kNone)
        description = tr("No schedule at %1 had a %2 %3; this is schedule 0.").arg(at, label, side);
    else if (s.schedules == 1)
        description = tr("The only schedule at %1 with a %2 %3: %4.")
                          .arg(at, label, side, first ? tr("schedule %1").arg(run) : writes);
    else if (first)
        description = tr("The first of %1 schedules at %2 with a %3 %4: schedule %5.")
                          .arg(s.schedules)
                          .arg(at, label, side)
                          .arg(run);
    else
        description = tr("The worst of %1 schedules at %2 with a %3 %4: %5.")
                          .arg(s.schedules)
                          .arg(at, label, side, writes);
    scenario.description = description + QLatin1Char(' ') + scenario.description;
    emit openScenario(scenario, description);
}

void SweepPanel::withExportChart(const std::function<void(QChart *, QGraphicsScene *)> &use) const
{
    QChart chart;
    const Theme slide = Theme::print();
    fillChart(&chart, &slide);
    QGraphicsScene scene;
    scene.addItem(&chart);
    const QSize size = exportSize();
    chart.setGeometry(QRectF(QPointF(0, 0), size));
    scene.setSceneRect(QRectF(QPointF(0, 0), size));
    use(&chart, &scene);
    scene.removeItem(&chart); // the chart lives on the stack, not in the scene
}

QByteArray SweepPanel::renderSvg() const
{
    QByteArray bytes;
    withExportChart([&bytes](QChart *chart, QGraphicsScene *scene) {
        bytes = Render::renderSvgDocument(
            {exportSize(), chart->title(), {}}, [scene](QPainter *painter) {
                scene->render(painter, scene->sceneRect(), scene->sceneRect());
            });
    });
    return bytes;
}

bool SweepPanel::exportPng(const QString &path, QString *error) const
{
    if (!m_spec.vary.quantity)
        return fail(error, tr("Nothing to export: run a sweep first"));
    QImage image(exportSize(), QImage::Format_ARGB32_Premultiplied);
    image.fill(Theme::print().background);
    withExportChart([&image](QChart *, QGraphicsScene *scene) {
        QPainter painter(&image);
        painter.setRenderHint(QPainter::Antialiasing);
        scene->render(&painter, scene->sceneRect(), scene->sceneRect());
    });
    QByteArray png;
    QBuffer buffer(&png);
    buffer.open(QIODevice::WriteOnly);
    if (!image.save(&buffer, "PNG"))
        return fail(error, tr("Cannot write %1: the picture could not be encoded").arg(path));
    return saveBytes(path, png, error);
}

bool SweepPanel::exportSvg(const QString &path, QString *error) const
{
    if (!m_spec.vary.quantity)
        return fail(error, tr("Nothing to export: run a sweep first"));
    const QByteArray bytes = renderSvg();
    return saveBytes(path, bytes, error);
}

bool SweepPanel::exportCsv(const QString &path, QString *error) const
{
    if (!m_spec.vary.quantity)
        return fail(error, tr("Nothing to export: run a sweep first"));
    const QByteArray bytes = Core::sweepCsv(m_spec, m_result);
    return saveBytes(path, bytes, error);
}

void SweepPanel::chooseExport(const QString &kind)
{
    const QString path = QFileDialog::getSaveFileName(
        this, tr("Export the sweep"), QStringLiteral("sweep.") + kind,
        kind == QLatin1String("csv")
            ? tr("CSV (*.csv)")
            : kind.toUpper() + QStringLiteral(" (*.") + kind + QLatin1Char(')'));
    if (path.isEmpty())
        return;
    QString error;
    const bool ok = kind == QLatin1String("png")   ? exportPng(path, &error)
                    : kind == QLatin1String("svg") ? exportSvg(path, &error)
                                                   : exportCsv(path, &error);
    m_status->setText(ok ? tr("Exported %1").arg(path) : error);
}
