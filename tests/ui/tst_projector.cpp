// Over 600 lines: one checker of a whole window state, shared by the scenarios and the lessons.
// The classroom's screens, by invariants, not pixels. The real MainWindow runs offscreen on a
// screen of the size FENCESCOPE_SCREEN names (1024x768, 1280x800, 1366x768, 1920x1080; the
// offscreen platform is given that screen), and for every built-in scenario it is driven through
// its input path as a lecturer drives it: the normal window, compare (C), the lecture-hall and
// dark themes, presentation (F11) step by step (Right) to the end, and presentation with compare.
// In each state the test reads what was painted and asks:
// - each lane is painted once (its name once per panel) and the lock-service and storage lanes
//   are wholly visible;
// - no text is cut by its clip or the screen's edge, and no two texts overlap;
// - the window fits the screen;
// - in presentation: the step's sentence is wholly visible and at least 24 px, the timeline's
//   labels at least 14 px, and nothing after the playhead shows: no text or glyph right of the
//   playhead's tick but the labels of that tick, no outcome that has not happened yet (in the
//   timeline, the panel or the story), no summary strip, no chart point from the first hidden
//   tick on.
// In each scenario the action with the most fields is selected: the inspector is checked filled.
// docs/ARCHITECTURE.md ("Each assertion fails on the defect it guards against") records each
// invariant failing on its defect, put back on purpose.
//
// Then every built-in lesson is presented (F11, Right to the end) with the same invariants, the
// lesson's stage in place of the step's sentence.
//
// FENCESCOPE_MATRIX=sample:SEED:N checks N scenarios and one lesson picked by SEED (the short
// form under the sanitizers), only:NAME,NAME those scenarios; unset, every scenario.
// FENCESCOPE_SCREENSHOTS=DIR keeps a picture of each failing state, FENCESCOPE_SHOTS=DIR of
// every state. scripts/projector-matrix.sh
// runs every size in full and makes a contact sheet of them.

#include "document/document.h"
#include "document/lessonsession.h"
#include "offscreenscreens.h"
#include "scripteddialogs.h"
#include "settle.h"
#include "timelinerenderer.h"
#include "tracelookup.h"
#include "views/inspector.h"
#include "views/lessonstage.h"
#include "views/narrationpanel.h"
#include "views/presentationpanel.h"
#include "views/summarystrip.h"
#include "views/tickfield.h"
#include "views/timelineview.h"
#include "views/tokenchart.h"
#include "viewstate.h"
#include "window/filecontroller.h"
#include "window/lessoncontroller.h"
#include "window/mainwindow.h"
#include "window/presentationcontroller.h"
#include "window/roompoll.h"
#include "windowparts.h"

#include "lessonfile.h"
#include "scenariofile.h"
#include "simulator.h"
#include "storysteps.h"

#include <QAbstractButton>
#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QFontInfo>
#include <QLabel>
#include <QLayout>
#include <QPaintEngine>
#include <QPainterPath>
#include <QRandomGenerator>
#include <QRegularExpression>
#include <QScatterSeries>
#include <QScreen>
#include <QScrollArea>
#include <QSettings>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QTextItem>

#include <algorithm>
#include <cmath>
#include <memory>
#include <vector>

namespace {

// What one paint of the timeline drew: each text with the box it takes, the part of it its clip
// lets through, and its size; each filled shape's box (the glyphs).
struct Painting
{
    struct Text
    {
        QString text;
        QRectF box;
        QRegion shown; // box within the clip, in the widget's coordinates
        double pixels = 0;
    };
    std::vector<Text> texts;
    std::vector<std::pair<QRectF, QRegion>> shapes; // box, and what of it the clip lets through
};

class Recorder : public QPaintDevice
{
public:
    explicit Recorder(QSize size) : m_size(size), m_engine(this) {}
    Painting painting;
    QPaintEngine *paintEngine() const override { return &m_engine; }

protected:
    int metric(PaintDeviceMetric m) const override
    {
        switch (m) {
        case PdmWidth:
            return m_size.width();
        case PdmHeight:
            return m_size.height();
        case PdmWidthMM:
            return m_size.width() * 254 / 960;
        case PdmHeightMM:
            return m_size.height() * 254 / 960;
        case PdmDpiX:
        case PdmDpiY:
        case PdmPhysicalDpiX:
        case PdmPhysicalDpiY:
            return 96;
        case PdmDepth:
            return 32;
        case PdmNumColors:
            return 1 << 24;
        case PdmDevicePixelRatio:
            return 1;
        case PdmDevicePixelRatioScaled:
            return int(QPaintDevice::devicePixelRatioFScale());
        }
        return 0;
    }

private:
    class Engine : public QPaintEngine
    {
    public:
        explicit Engine(Recorder *d) : QPaintEngine(AllFeatures), m_device(d) {}
        bool begin(QPaintDevice *) override { return true; }
        bool end() override { return true; }
        void updateState(const QPaintEngineState &) override {}
        QRegion clip(const QRectF &box) const
        {
            QRegion shown(box.toAlignedRect());
            if (painter()->hasClipping())
                shown &= painter()->deviceTransform().map(painter()->clipRegion());
            return shown;
        }
        void drawTextItem(const QPointF &at, const QTextItem &item) override
        {
            const QString text = item.text().trimmed();
            if (text.isEmpty())
                return;
            const QFont font = item.font();
            const QFontMetricsF fm(font, m_device);
            const QPointF p = painter()->deviceTransform().map(at);
            const QRectF box(p.x(), p.y() - fm.ascent(), fm.horizontalAdvance(item.text()),
                             fm.ascent() + fm.descent());
            const double pixels =
                font.pixelSize() > 0 ? font.pixelSize() : font.pointSizeF() * 96.0 / 72.0;
            m_device->painting.texts.push_back({text, box, clip(box), pixels});
        }
        void drawPolygon(const QPointF *points, int count, PolygonDrawMode) override
        {
            QPolygonF poly;
            for (int i = 0; i < count; ++i)
                poly << points[i];
            const QRectF box = painter()->deviceTransform().map(poly).boundingRect();
            if (box.width() >= 3 && box.height() >= 3)
                m_device->painting.shapes.push_back({box, clip(box)});
        }
        void drawPath(const QPainterPath &path) override
        {
            const QRectF box = painter()->deviceTransform().map(path).boundingRect();
            if (box.width() >= 3 && box.height() >= 3 && painter()->brush().style() != Qt::NoBrush)
                m_device->painting.shapes.push_back({box, clip(box)});
        }
        void drawEllipse(const QRectF &r) override
        {
            const QRectF box = painter()->deviceTransform().mapRect(r);
            m_device->painting.shapes.push_back({box, clip(box)});
        }
        void drawPixmap(const QRectF &, const QPixmap &, const QRectF &) override {}
        void drawImage(const QRectF &, const QImage &, const QRectF &,
                       Qt::ImageConversionFlags) override
        {
        }
        Type type() const override { return User; }

    private:
        Recorder *m_device;
    };
    QSize m_size;
    mutable Engine m_engine;
};

QString screenName()
{
    const QString s = qEnvironmentVariable("FENCESCOPE_SCREEN");
    return s.isEmpty() ? QStringLiteral("1280x800") : s;
}

} // namespace

class TestProjector : public QObject
{
    Q_OBJECT

    std::unique_ptr<MainWindow> m_window;
    QTemporaryDir m_autosave;
    QTemporaryDir m_settings;
    QStringList m_failures;
    QString m_state; // what the window shows now, for the failures' words
    QString m_preset;
    int m_checked = 0;

    MainWindow &window() { return *m_window; }
    TimelineView *view() { return part<TimelineView>(window()); }
    void press(Qt::Key key, Qt::KeyboardModifiers mods = Qt::NoModifier)
    {
        QTest::keyClick(window().windowHandle(), key, mods);
        settle();
    }
    // the full-screen fit and the layouts that follow a step run from the event loop
    void settle() { TestSupport::settle(m_window.get()); }
    // A count of hands typed as the presenter types it at a question: the option's letter
    // (Shift: the second vote, after discussion), the digits, Return.
    // (-1: the count cleared, Backspace over it)
    void typeHands(int vote, int option, int hands)
    {
        press(Qt::Key(Qt::Key_A + option), vote == 1 ? Qt::ShiftModifier : Qt::NoModifier);
        if (hands < 0)
            QTest::keyClick(window().windowHandle(), Qt::Key_Backspace);
        for (const QChar digit : hands < 0 ? QString() : QString::number(hands))
            QTest::keyClick(window().windowHandle(), digit.toLatin1());
        press(Qt::Key_Return);
    }
    void fail(const QString &what)
    {
        if (m_failures.size() < 400)
            m_failures << m_state + QStringLiteral(": ") + what;
        const QString dir = qEnvironmentVariable("FENCESCOPE_SCREENSHOTS");
        if (!dir.isEmpty()) {
            QDir().mkpath(dir);
            QString name = m_state;
            name.replace(QRegularExpression(QStringLiteral("[^A-Za-z0-9_-]+")),
                         QStringLiteral("-"));
            window().grab().save(QDir(dir).filePath(name + QStringLiteral(".png")));
        }
    }

    // What the timeline paints now, in its own coordinates, with the part the scroll area shows.
    Painting paintTimeline(QRect *visible)
    {
        Recorder r(view()->size());
        view()->render(&r, QPoint(), QRegion(view()->rect()), QWidget::DrawChildren);
        *visible = view()->visibleRegion().boundingRect();
        // a text painted twice in one place (hiding the future, a label reaching past the
        // playhead is drawn in two parts) is one text, shown where either part shows
        Painting merged;
        merged.shapes = r.painting.shapes;
        for (const Painting::Text &t : r.painting.texts) {
            auto same = std::find_if(
                merged.texts.begin(), merged.texts.end(),
                [&](const Painting::Text &m) { return m.text == t.text && m.box == t.box; });
            if (same == merged.texts.end())
                merged.texts.push_back(t);
            else
                same->shown += t.shown;
        }
        return merged;
    }

    // The invariants of every state.
    // What a person reads is the window once it is still: a state checked while something
    // queued behind a timer was still to change it (on a loaded machine, or under the
    // sanitizers) is checked once more half a second later, and only that check counts. The
    // log names each state that needed it.
    void checkWindow(bool presenting)
    {
        const qsizetype before = m_failures.size();
        checkWindowOnce(presenting);
        if (m_failures.size() == before)
            return;
        const QStringList first = m_failures.mid(before);
        m_failures.resize(before);
        QTest::qWait(500);
        settle();
        --m_checked;
        checkWindowOnce(presenting);
        if (m_failures.size() == before)
            qInfo("settled late: %s (first: %s)", qPrintable(m_state), qPrintable(first.first()));
    }
    void checkWindowOnce(bool presenting)
    {
        ++m_checked;
        const QString shots = qEnvironmentVariable("FENCESCOPE_SHOTS");
        if (!shots.isEmpty()) { // every state's picture, for scripts/projector-matrix.sh's sheets
            const QString dir = QDir(shots).filePath(m_preset);
            QDir().mkpath(dir);
            QString name = QStringLiteral("%1-").arg(m_checked, 4, 10, QLatin1Char('0')) + m_state;
            name.replace(QRegularExpression(QStringLiteral("[^A-Za-z0-9_=()-]+")),
                         QStringLiteral("-"));
            window().grab().save(QDir(dir).filePath(name + QStringLiteral(".png")));
        }
        const QRect screen = window().screen()->geometry();
        if (!screen.contains(window().frameGeometry()))
            fail(QStringLiteral("the window %1,%2 %3x%4 leaves the screen %5x%6")
                     .arg(window().frameGeometry().x())
                     .arg(window().frameGeometry().y())
                     .arg(window().frameGeometry().width())
                     .arg(window().frameGeometry().height())
                     .arg(screen.width())
                     .arg(screen.height()));
        QRect visible;
        const Painting p = paintTimeline(&visible);
        const TimelineLayout l = view()->currentLayout();
        const Core::Scenario &s = window().document()->scenario();

        // each lane once per panel, its name whole; lock and storage lanes wholly in view
        const auto countShown = [&](const QString &name) {
            int n = 0;
            for (const Painting::Text &t : p.texts)
                if (t.text == name && t.box.left() < l.headerWidth && !t.shown.isEmpty() &&
                    visible.intersects(t.box.toAlignedRect()))
                    ++n;
            return n;
        };
        const int panels = int(l.panels.size());
        // compare mode, scrolled: the bottom panel's lock lane is the top one's again, and
        // scrolls with the clients (only the storages of both runs stay pinned)
        const bool stacked = panels > 1 && !std::isinf(l.panels.front().pinTop);
        for (const Core::StorageSpec &st : s.storages)
            if (countShown(st.name) != panels)
                fail(QStringLiteral("'%1' shows %2 times for %3 panels")
                         .arg(st.name)
                         .arg(countShown(st.name))
                         .arg(panels));
        // (where two runs' storages leave too little room, the top run's lock lane scrolls too)
        const int locks = countShown(QStringLiteral("lock service"));
        if (stacked ? locks > panels : locks != panels)
            fail(QStringLiteral("'lock service' shows %1 times for %2 panels")
                     .arg(locks)
                     .arg(panels));
        for (const Core::Client &c : s.clients)
            if (countShown(c.name) > panels)
                fail(QStringLiteral("client '%1' shows %2 times")
                         .arg(c.name)
                         .arg(countShown(c.name)));
        const QRectF shown(visible);
        for (const TimelinePanel &panel : l.panels) {
            // (a lock lane the pinned storages lie over is not pinned, but hidden under them)
            const bool lockToo =
                !stacked || (panel.isPinned() && panel.pinned.contains(panel.lock.center()) &&
                             (panel.storages.empty() ||
                              panel.lock.bottom() <= panel.storages.front().lane.top() + 0.5));
            const QRectF lanes =
                panel.storages.empty() ? panel.lock
                : lockToo              ? panel.lock.united(panel.storages.back().lane)
                          : panel.storages.front().lane.united(panel.storages.back().lane);
            if (!shown.adjusted(-1, -1, 1, 1).contains(lanes))
                fail(QStringLiteral("the lock and storage lanes (%1..%2) are not all in view "
                                    "(%3..%4)")
                         .arg(lanes.top())
                         .arg(lanes.bottom())
                         .arg(shown.top())
                         .arg(shown.bottom()));
        }

        // texts: whole, apart, and in presentation large enough
        std::vector<const Painting::Text *> seen;
        for (const Painting::Text &t : p.texts) {
            const QRect box = t.box.toAlignedRect();
            const QRegion inView = t.shown & QRegion(visible);
            if (inView.isEmpty())
                continue; // clipped away whole, or scrolled out of view
            seen.push_back(&t);
            // (1 px of antialiasing at the box's edge is not a cut; lanes scrolled under the
            // view's edge or under the pinned lanes are not cut but out of view)
            const bool scrolled = !visible.contains(box) ||
                                  (!l.panels.empty() && box.top() < l.panels.front().pinTop &&
                                   box.bottom() > l.panels.front().pinTop);
            if (!scrolled && (QRegion(box.adjusted(1, 1, -1, -1)) - inView).rectCount() > 0)
                fail(QStringLiteral("'%1' is cut").arg(t.text));
            if (presenting && t.pixels < 13.5)
                fail(QStringLiteral("'%1' is %2 px in presentation").arg(t.text).arg(t.pixels));
        }
        for (std::size_t i = 0; i < seen.size(); ++i) {
            if (seen[i]->box.bottom() <= l.ruler.bottom())
                continue; // the playhead's badge lies over the ruler's numbers on purpose
            for (std::size_t j = i + 1; j < seen.size(); ++j) {
                const QRectF o = seen[i]->box.intersected(seen[j]->box);
                if (o.width() > 2 && o.height() > 2 && seen[i]->box != seen[j]->box &&
                    !(seen[i]->shown & seen[j]->shown).isEmpty())
                    fail(QStringLiteral("'%1' and '%2' overlap").arg(seen[i]->text, seen[j]->text));
            }
        }
        if (!presenting)
            checkOwnLeaseEnds(p, visible);
        // the strip's counts, final values and verdict badge: each whole, or said shorter; and
        // where there is room (the 1600 px window a 1920 px screen opens) the verdict whole, with
        // the counts in words. (In compare mode the strip's width left beside the docks decides
        // whether the longest of the two runs' verdicts fits: checkVerdictForm asks that there.)
        SummaryStrip *strip = part<SummaryStrip>(window());
        checkLabels(strip, QStringLiteral("in the summary strip"), true);
        if (!presenting && strip->isVisible() && window().width() >= 1600 &&
            !window().viewState()->compare() &&
            (strip->isCompact() || strip->verdict() != strip->verdictForms().first()))
            fail(QStringLiteral("the strip says '%1'%2 in a window %3 px wide")
                     .arg(strip->verdict(),
                          strip->isCompact() ? QStringLiteral(" and numbers alone") : QString())
                     .arg(window().width()));
        checkVerdictForm(strip);
        // the inspector's one-line labels, check box and storage list as wide as their words
        // (its form scrolls: a label scrolled out of view is not cut); the action selected in
        // each scenario fills it (selectFullest)
        if (auto *inspector = part<Inspector>(window()); inspector && inspector->isVisible()) {
            std::vector<std::pair<QWidget *, QString>> words;
            for (QLabel *label : inspector->findChildren<QLabel *>())
                if (!label->wordWrap())
                    words.emplace_back(label, label->text());
            for (QAbstractButton *button : inspector->findChildren<QAbstractButton *>())
                words.emplace_back(button, button->text());
            for (QComboBox *box : inspector->findChildren<QComboBox *>())
                words.emplace_back(box, box->currentText());
            for (QLabel *label : inspector->findChildren<QLabel *>())
                if (label->isVisible() && label->wordWrap() && !label->text().isEmpty() &&
                    label->heightForWidth(label->width()) > label->height())
                    fail(QStringLiteral("'%1' is cut in the inspector (%2 of %3 px high)")
                             .arg(label->text().left(60))
                             .arg(label->height())
                             .arg(label->heightForWidth(label->width())));
            for (const auto &[widget, text] : words)
                if (widget->isVisible() && !text.isEmpty() &&
                    widget->minimumSizeHint().width() > widget->width() + 1)
                    fail(QStringLiteral("'%1' is cut in the inspector (%2 of %3 px)")
                             .arg(text.left(60))
                             .arg(widget->width())
                             .arg(widget->minimumSizeHint().width()));
            if (!presenting && window().viewState()->selection().isValid() &&
                !inspector->checkEdit()->isVisible() && !inspector->keepaliveEdit()->isVisible())
                fail(QStringLiteral("the inspector shows no write or acquire"));
        }
        if (presenting)
            checkPresentation(p, l, visible);
    }

    // The strip's verdict in the longest form that fits the width the strip was given, in every
    // mode (compare mode's forms name both runs): a roomier form, measured in the badge's own
    // font and put in place of the one shown, leaves the strip's labels wider than the strip.
    // (The counts stay as they are: words or numbers is the strip's other choice.)
    void checkVerdictForm(SummaryStrip *strip)
    {
        if (!strip->isVisible())
            return;
        auto *badge = strip->findChild<QLabel *>(QStringLiteral("verdict"));
        QVERIFY(badge);
        const QStringList forms = strip->verdictForms();
        const qsizetype shown = forms.indexOf(strip->verdict());
        if (shown < 0)
            return fail(QStringLiteral("the strip's verdict '%1' is none of its forms")
                            .arg(strip->verdict()));
        const QFontMetricsF fm(badge->font(), badge);
        const double needs = strip->layout()->minimumSize().width();
        for (qsizetype i = 0; i < shown; ++i) {
            const double roomier =
                needs + fm.horizontalAdvance(forms[i]) - fm.horizontalAdvance(forms[shown]);
            if (std::ceil(roomier) + 1 < strip->width())
                fail(QStringLiteral("the strip says '%1' where '%2' fits (%3 of %4 px)")
                         .arg(forms[shown], forms[i])
                         .arg(std::ceil(roomier))
                         .arg(strip->width()));
        }
    }

    // A client with a clock of its own: where it thinks its lease ends (a dashed mark) is said
    // in words too ("expires 20 by its clock", "20 by its clock" or "own: 20"), wherever the
    // client's next lease leaves room for the shortest of them.
    void checkOwnLeaseEnds(const Painting &p, const QRect &visible)
    {
        const Core::Scenario &s = window().document()->scenario();
        const Core::Trace &t = window().document()->trace();
        const TimeAxis axis = view()->axis();
        for (std::size_t i = 0; i < t.leases.size(); ++i) {
            const Core::Lease &l = t.leases[i];
            if (l.released || l.client >= s.clients.size() || s.clients[l.client].clock.isDefault())
                continue;
            const Core::Grant *g = Render::lastGrantOfEpoch(t, l.epoch);
            const Core::Tick own = g ? Core::ownLeaseEnd(s, *g) : Core::kForever;
            if (own == l.end || own == Core::kForever)
                continue;
            const double x = axis.tickToX(double(own));
            double next = 1e300;
            for (std::size_t j = i + 1; j < t.leases.size(); ++j)
                if (t.leases[j].client == l.client)
                    next = std::min(next, axis.tickToX(double(t.leases[j].start)));
            if (x < visible.left() || x + 60 > std::min(next, double(visible.right())))
                continue; // out of view, or no room before the next lease
            const QStringList words{QStringLiteral("expires %1 by its clock").arg(own),
                                    QStringLiteral("%1 by its clock").arg(own),
                                    QStringLiteral("own: %1").arg(own)};
            const bool told = std::any_of(p.texts.begin(), p.texts.end(), [&](const auto &text) {
                return words.contains(text.text) && !(text.shown & QRegion(visible)).isEmpty();
            });
            if (!told)
                fail(QStringLiteral("%1's own clock ends its lease at %2 without words")
                         .arg(s.clients[l.client].name)
                         .arg(own));
        }
    }

    void checkPresentation(const Painting &p, const TimelineLayout &l, const QRect &visible)
    {
        // a lesson's opening, question and answer: the stage instead of the step's sentence
        QWidget *stage = part<LessonStage>(window());
        if (stage && stage->isVisible())
            checkLabels(stage, QStringLiteral("on the lesson's stage"));
        auto *panel = part<PresentationPanel>(window());
        auto *sentence = panel->findChild<QLabel *>(QStringLiteral("presentationText"));
        QVERIFY(sentence);
        if (!panel->isVisible())
            return checkFuture(p, l, visible);
        if (QFontInfo(sentence->font()).pixelSize() < 24)
            fail(QStringLiteral("the sentence is %1 px")
                     .arg(QFontInfo(sentence->font()).pixelSize()));
        const QRect inWindow(sentence->mapTo(&window(), QPoint()), sentence->size());
        if (!sentence->isVisible() || !window().rect().contains(inWindow) ||
            sentence->heightForWidth(sentence->width()) > sentence->height())
            fail(QStringLiteral("the sentence is not wholly visible (%1 of %2 px)")
                     .arg(sentence->height())
                     .arg(sentence->heightForWidth(sentence->width())));
        checkLabels(panel, QStringLiteral("in the panel"));
        checkFuture(p, l, visible);
    }

    // Every shown text of `parent` whole, inside the window; with `widths`, each one-line
    // label as wide as its text (with the padding of its badge): one a layout squeezed is cut
    // mid-word at its edge.
    void checkLabels(QWidget *parent, const QString &where, bool widths = false)
    {
        for (QLabel *label : parent->findChildren<QLabel *>()) {
            if (!label->isVisible() || label->text().isEmpty())
                continue;
            const QRect r(label->mapTo(&window(), QPoint()), label->size());
            // (visibleRegion: what a scroll area's viewport or a widget above leaves of it)
            if (!window().rect().contains(r) || label->visibleRegion() != QRegion(label->rect()) ||
                (label->wordWrap() && label->heightForWidth(label->width()) > label->height()))
                fail(QStringLiteral("'%1' is cut %2").arg(label->text().left(40), where));
            else if (widths && !label->wordWrap() &&
                     label->minimumSizeHint().width() > label->width() + 1)
                fail(QStringLiteral("'%1' is cut %2 (%3 of %4 px)")
                         .arg(label->text().left(60), where)
                         .arg(label->width())
                         .arg(label->minimumSizeHint().width()));
        }
    }

    void checkFuture(const Painting &p, const TimelineLayout &l, const QRect &visible)
    {
        // nothing after the playhead: no text or glyph starts right of its tick, but the
        // labels of that tick, and no outcome that has not happened is named anywhere
        const ViewState *state = window().viewState();
        if (!state->hasPlayhead())
            return;
        const TimeAxis axis = view()->axis();
        const double f = view()->theme().fontScale;
        const double cut = state->playheadBefore()
                               ? l.plot.left()
                               : axis.tickToX(double(state->playhead())) +
                                     std::max(1.0, std::min(9 * f, 0.5 * axis.pixelsPerTick)) + 1;
        // (a text may start at the playhead's tick and reach past it: that is what happened
        // there; a shape may not reach past it at all. The lanes' backgrounds, the grid and
        // the ruler are the axis, not the run: they start at the plot's left edge or above it.)
        const QRegion below(QRect(QPoint(int(l.plot.left()) + 2, int(l.ruler.bottom()) + 1),
                                  QPoint(visible.right(), visible.bottom())));
        // (a label of the playhead's tick starts right of its glyph: a glyph's width past it;
        // its further words are inside its chip; compare mode's panel titles name the runs)
        const double reach = cut + 16 * f;
        std::vector<QRectF> chips;
        for (const auto &[box, shown] : p.shapes)
            if (box.left() <= reach && box.height() < 60 * f)
                for (const Painting::Text &t : p.texts)
                    if (t.box.left() <= reach && box.adjusted(-1, -1, 1, 1).contains(t.box))
                        chips.push_back(box);
        const auto allowed = [&](const QRectF &box) {
            if (box.left() <= reach)
                return true;
            for (const TimelinePanel &panel : l.panels)
                if (panel.title.contains(box))
                    return true;
            return std::any_of(chips.begin(), chips.end(), [&](const QRectF &c) {
                return c.adjusted(-1, -1, 1, 1).contains(box);
            });
        };
        for (const Painting::Text &t : p.texts)
            if (t.box.top() >= l.ruler.bottom() && !allowed(t.box) && !(t.shown & below).isEmpty())
                fail(QStringLiteral("'%1' shows right of the playhead").arg(t.text));
        // (the words of what has happened may reach past it, with their chips)
        QRegion labelled;
        for (const Painting::Text &t : p.texts)
            if (t.box.left() <= reach)
                labelled += t.box.adjusted(-8, -6, 8, 6).toAlignedRect();
        for (const QRectF &c : chips)
            labelled += c.adjusted(-2, -2, 2, 2).toAlignedRect();
        for (const TimelinePanel &panel : l.panels)
            labelled += panel.title.toAlignedRect();
        for (const auto &[box, shown] : p.shapes) {
            if (box.left() < l.plot.left() + 2)
                continue;
            const QRegion part = (shown & below) - labelled;
            if (!part.isEmpty() && part.boundingRect().right() > cut + 2)
                fail(QStringLiteral("a shape at x=%1..%2 y=%4 shows right of the playhead (%3), "
                                    "shown to %5")
                         .arg(box.left())
                         .arg(box.right())
                         .arg(cut)
                         .arg(box.top())
                         .arg(part.boundingRect().right()));
        }
        // the outcomes so far, in both runs when comparing
        const Core::Trace &t = window().document()->trace();
        const Core::Tick before = *state->shownBefore();
        bool happened[4] = {false, false, false, false};
        for (const Core::Trace *run : {&t, &window().document()->traceFor(!t.fencing)})
            for (const Core::Write &w : run->writes)
                if (w.arrivedAt < before)
                    happened[int(w.result)] = true;
        // (a locked-out write was rejected by the storage: its words say so)
        if (happened[int(Core::WriteResult::LockedOut)])
            happened[int(Core::WriteResult::Rejected)] = true;
        const struct
        {
            Core::WriteResult result;
            QString word;
        } words[] = {{Core::WriteResult::Rejected, QStringLiteral("rejected")},
                     {Core::WriteResult::Corrupted, QStringLiteral("corrupted")},
                     {Core::WriteResult::LockedOut, QStringLiteral("locked out")}};
        // the summary strip is the run's end (its final values and verdict), and the token
        // chart may plot nothing from the first hidden tick on
        if (auto *strip = part<SummaryStrip>(window()); strip->isVisible())
            fail(QStringLiteral("the summary strip shows the run's end ('%1')")
                     .arg(strip->verdict()));
        if (auto *chart = part<TokenChart>(window()); chart->isVisible()) {
            std::vector<QScatterSeries *> series{chart->grantSeries()};
            for (const Core::WriteResult r :
                 {Core::WriteResult::Accepted, Core::WriteResult::Rejected,
                  Core::WriteResult::Corrupted, Core::WriteResult::LockedOut})
                series.push_back(chart->outcomeSeries(r));
            for (QScatterSeries *points : series)
                for (const QPointF &at : points ? points->points() : QList<QPointF>())
                    if (points->isVisible() && at.x() >= double(before)) {
                        fail(QStringLiteral("the token chart shows '%1' at t=%2 (shown before %3)")
                                 .arg(points->name())
                                 .arg(at.x())
                                 .arg(before));
                        break;
                    }
        }
        QStringList told;
        // (the story's words, where it shows)
        if (auto *story = part<NarrationPanel>(window()); story->isVisible())
            for (QLabel *label : story->findChildren<QLabel *>())
                if (label->isVisible())
                    told << label->text();
        for (const Painting::Text &x : p.texts)
            if (!(x.shown & QRegion(visible)).isEmpty())
                told << x.text;
        for (QLabel *label : part<PresentationPanel>(window())->findChildren<QLabel *>())
            if (label->isVisible())
                told << label->text();
        for (const auto &w : words) {
            if (happened[int(w.result)])
                continue;
            // ("0 corrupted" in a count so far tells nothing)
            const QRegularExpression word(QStringLiteral("(?<!\\b0 )\\b%1\\b").arg(w.word),
                                          QRegularExpression::CaseInsensitiveOption);
            for (const QString &text : told)
                if (word.match(text).hasMatch())
                    fail(QStringLiteral("'%1' names %2 before any write was")
                             .arg(text.left(60), w.word));
        }
    }

    // The action with the most fields in the inspector, selected: a write that checks its lease
    // first (with its gap) where the scenario has one, else a write, else an acquire (with
    // its keepalive).
    void selectFullest()
    {
        const Core::Scenario &s = window().document()->scenario();
        Selection best;
        int bestRank = -1;
        for (std::size_t c = 0; c < s.clients.size(); ++c)
            for (std::size_t a = 0; a < s.clients[c].actions.size(); ++a) {
                const Core::Action &x = s.clients[c].actions[a];
                const int rank = x.kind == Core::ActionKind::Write     ? (x.check ? 3 : 2)
                                 : x.kind == Core::ActionKind::Acquire ? 1
                                                                       : 0;
                if (rank > bestRank) {
                    bestRank = rank;
                    best = {int(c), int(a)};
                }
            }
        window().viewState()->setSelection(best);
        settle();
        if (best.isValid() && window().viewState()->selection() != best)
            fail(QStringLiteral("the action %1 of client %2 could not be selected")
                     .arg(best.action)
                     .arg(best.client));
    }

    void present(const QString &preset, bool compare)
    {
        press(Qt::Key_F11);
        if (!window().isPresenting()) {
            fail(QStringLiteral("F11 did not present"));
            return;
        }
        if (compare)
            press(Qt::Key_C);
        const std::size_t steps =
            Core::storyStepTicks(window().document()->scenario(), window().document()->trace())
                .size();
        m_state = QStringLiteral("%1 %2 presentation start")
                      .arg(preset, compare ? QStringLiteral("compare") : QString());
        checkWindow(true);
        for (std::size_t i = 1; i <= steps + 1; ++i) {
            press(Qt::Key_Right);
            m_state = QStringLiteral("%1 %2 presentation step %3 (t=%4)")
                          .arg(preset, compare ? QStringLiteral("compare") : QString())
                          .arg(i)
                          .arg(window().viewState()->playhead());
            checkWindow(true);
        }
        press(Qt::Key_End);
        m_state = QStringLiteral("%1 %2 presentation end")
                      .arg(preset, compare ? QStringLiteral("compare") : QString());
        checkWindow(true);
        if (compare)
            press(Qt::Key_C);
        press(Qt::Key_Escape);
        if (window().isPresenting())
            fail(QStringLiteral("Esc did not leave presentation"));
    }

private slots:
    void initTestCase()
    {
        // (the offscreen platform says so on every size hint a layout passes up: thousands of
        // lines that would use up the test's warnings before a failure could be told)
        static QtMessageHandler testlib = nullptr;
        testlib = qInstallMessageHandler(
            [](QtMsgType type, const QMessageLogContext &context, const QString &message) {
                if (!message.contains(QLatin1String("does not support propagateSizeHints")))
                    testlib(type, context, message);
            });
        QStandardPaths::setTestModeEnabled(true);
        QApplication::setOrganizationName(QStringLiteral("FenceScopeTest"));
        QApplication::setApplicationName(QStringLiteral("tst_projector"));
        // Settings of this run's own, empty: test mode puts them in ~/.qttest/config whatever
        // XDG_CONFIG_HOME says, one file for every run of this test on the computer, so a lesson
        // one run left at its last scene (another size at the same time, or the run before)
        // would be walked from there, its other scenes never checked.
        QVERIFY(m_settings.isValid());
        QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope, m_settings.path());
        QSettings::setPath(QSettings::IniFormat, QSettings::UserScope, m_settings.path());
        QVERIFY2(QSettings().fileName().startsWith(m_settings.path()),
                 qPrintable(QSettings().fileName()));
        QVERIFY(QSettings().allKeys().isEmpty());
        qputenv("FENCESCOPE_AUTOSAVE_DIR", m_autosave.path().toLocal8Bit());
        // the polled lessons' server: on this computer only
        qputenv("FENCESCOPE_POLL_ADDRESS", "127.0.0.1");
        const QSize size = QGuiApplication::primaryScreen()->size();
        QCOMPARE(QStringLiteral("%1x%2").arg(size.width()).arg(size.height()), screenName());
    }

    void everyPresetInEveryMode()
    {
        QStringList presets = Core::ScenarioFile::builtinNames();
        const QStringList sample =
            qEnvironmentVariable("FENCESCOPE_MATRIX").split(QLatin1Char(':'));
        if (sample.size() == 3 && sample[0] == QLatin1String("sample")) {
            QRandomGenerator random(sample[1].toUInt());
            QStringList picked;
            while (picked.size() < sample[2].toInt() && !presets.isEmpty())
                picked << presets.takeAt(int(random.bounded(quint32(presets.size()))));
            presets = picked;
        } else if (sample.size() == 2 && sample[0] == QLatin1String("only")) {
            presets = sample[1].split(QLatin1Char(','));
        }
        m_window = std::make_unique<MainWindow>();
        scriptDialogs(window());
        window().show();
        window().activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(m_window.get()));
        settle();
        for (const QString &preset : presets) {
            m_preset = preset;
            QVERIFY(part<FileController>(window())->openPreset(preset));
            settle();
            selectFullest();
            m_state = preset + QStringLiteral(" normal");
            checkWindow(false);
            press(Qt::Key_C);
            m_state = preset + QStringLiteral(" compare");
            checkWindow(false);
            press(Qt::Key_C);
            for (const QString &theme : {QStringLiteral("contrast"), QStringLiteral("dark")}) {
                window().setThemeByName(theme);
                settle();
                m_state = preset + QStringLiteral(" theme ") + theme;
                checkWindow(false);
            }
            window().setThemeByName(QStringLiteral("light"));
            settle();
            present(preset, false);
            present(preset, true);
            m_state = preset + QStringLiteral(" after presentation");
            checkWindow(false);
        }
        qInfo("%d states of %lld scenarios checked at %s", m_checked, qlonglong(presets.size()),
              qPrintable(screenName()));
        window().document()->markSaved();
        for (const QString &f : m_failures) // (each on a line of its own: the list is long)
            qInfo("FAILED %s", qPrintable(f));
        QVERIFY2(
            m_failures.isEmpty(),
            qPrintable(
                QStringLiteral("%1 failures, each on a FAILED line above").arg(m_failures.size())));
    }

    // Every built-in lesson presented as a lecturer walks it: F11, then Right through each
    // scene's opening, steps, question, reveal and answer to the last scene's end. Answered by
    // hands, each question gets a count typed in both votes before the reveal: at the answer
    // their columns stay beside the options and narrow each wrong option's feedback. Polled,
    // the counts (kept with the lesson's progress) are cleared: the room answers by phone (both
    // at once do not fit 1024x768 yet, docs/ARCHITECTURE.md "Pinned lanes").
    void everyLessonPresented()
    {
        if (!m_window) {
            m_window = std::make_unique<MainWindow>();
            scriptDialogs(window());
            window().show();
            window().activateWindow();
            QVERIFY(QTest::qWaitForWindowActive(m_window.get()));
            settle();
        }
        const int before = m_checked;
        m_failures.clear(); // (the scenarios' are reported above)
        QStringList lessons = Core::LessonFile::builtinNames();
        QVERIFY(!lessons.isEmpty());
        // (a sample of scenarios: one lesson, picked by the same seed)
        const QStringList sample =
            qEnvironmentVariable("FENCESCOPE_MATRIX").split(QLatin1Char(':'));
        if (sample.size() == 3 && sample[0] == QLatin1String("sample"))
            lessons = QStringList{lessons.at(int(sample[1].toUInt() % uint(lessons.size())))};
        // each lesson twice: as the hands answer, and with the room polled from its phones
        // (P at the first question; at each question V opens its second round and H shows the
        // bars: the poll box at its largest, beside the options and, at the reveal, the feedback)
        for (const bool polled : {false, true})
            for (const QString &name : lessons) {
                m_preset = name + (polled ? QStringLiteral(" polled") : QString());
                QVERIFY(window().openBuiltinLesson(name));
                settle();
                press(Qt::Key_F11);
                QVERIFY(window().isPresenting());
                LessonController *lessons = window().lessons();
                const auto where = [&] {
                    const ViewState *st = window().viewState();
                    return std::make_tuple(lessons->session()->scene(), int(lessons->stage()),
                                           st->hasPlayhead() ? qint64(st->playhead()) : -1,
                                           st->playheadBefore());
                };
                int presses = 0;
                for (auto last = where();; last = where()) {
                    // (a reveal plays on to its deciding event first)
                    QTRY_VERIFY(lessons->stage() != LessonController::Stage::Revealing);
                    if (polled && lessons->stage() == LessonController::Stage::Question) {
                        RoomPoll *poll = window().findChild<RoomPoll *>(QStringLiteral("roomPoll"));
                        if (!poll->isOn())
                            press(Qt::Key_P);
                        QVERIFY2(poll->isOn(), qPrintable(name));
                        if (poll->room()->rounds() < 2)
                            press(Qt::Key_V);
                        if (!poll->histogramShown())
                            press(Qt::Key_H);
                    }
                    const Core::LessonQuestion *asked = lessons->session()->question();
                    if (lessons->stage() == LessonController::Stage::Question && asked) {
                        const int last = int(asked->options.size()) - 1;
                        const int first = polled ? -1 : 12, second = polled ? -1 : 7;
                        typeHands(0, 0, first);
                        typeHands(1, last, second);
                        const auto &hands = lessons->session()->currentAnswer().hands;
                        QVERIFY2(hands[0][0] == first && hands[1][std::size_t(last)] == second,
                                 qPrintable(name));
                    }
                    // (a box that grew or shrank fits the window again from the event loop)
                    settle();
                    m_state = QStringLiteral("%1 scene %2 stage %3 (t=%4)")
                                  .arg(m_preset)
                                  .arg(lessons->session()->scene() + 1)
                                  .arg(int(lessons->stage()))
                                  .arg(window().viewState()->playhead());
                    checkWindow(true);
                    press(Qt::Key_Right);
                    QTRY_VERIFY(lessons->stage() != LessonController::Stage::Revealing);
                    if (where() == last)
                        break; // the last scene's end
                    QVERIFY2(++presses < 400, qPrintable(name));
                }
                QVERIFY2(lessons->session()->scene() + 1 == lessons->session()->sceneCount(),
                         qPrintable(name));
                press(Qt::Key_Escape);
                if (window().isPresenting())
                    fail(QStringLiteral("%1: Esc did not leave presentation").arg(name));
                lessons->session()->markSaved();
                QVERIFY(lessons->close());
            }
        qInfo("%d states of %lld lessons, plain and polled, checked at %s", m_checked - before,
              qlonglong(lessons.size()), qPrintable(screenName()));
        window().document()->markSaved();
        for (const QString &f : m_failures)
            qInfo("FAILED %s", qPrintable(f));
        QVERIFY2(
            m_failures.isEmpty(),
            qPrintable(
                QStringLiteral("%1 failures, each on a FAILED line above").arg(m_failures.size())));
    }

    void cleanupTestCase() { m_window.reset(); }
};

int main(int argc, char **argv)
{
    // the screen under test
    QTemporaryDir dir;
    const QStringList wh = screenName().split(QLatin1Char('x'));
    if (!TestSupport::useOffscreenScreens(
            dir,
            {{QStringLiteral("projector"), QRect(0, 0, wh.value(0).toInt(), wh.value(1).toInt())}}))
        return 2;
    QApplication app(argc, argv);
    TestProjector test;
    QTEST_SET_MAIN_SOURCE_PATH
    return QTest::qExec(&test, argc, argv);
}

#include "tst_projector.moc"
