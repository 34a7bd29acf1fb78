// Pixel-identical reference images of the timeline: every preset in resources/scenarios/ in
// every theme, compare mode for a few presets, and states with a selection, the playhead mid-run,
// hover, the focus ring and pinned lanes. Drawn by TimelineRenderer onto a QImage, as the window
// draws it (a fresh renderer with its caches on, the window's options), and compared pixel by
// pixel with the PNGs in tests/data/reference/.
//
// The references were made by the renderer as it was before it was split into passes; a change
// that moves one pixel fails here. On a mismatch the actual picture and a diff (differing
// pixels in red over a faded actual) are written to a temporary folder, whose paths are printed
// with the count of differing pixels.
//
// To make the references again (only for a change of the picture on purpose, looked at first):
//   FENCESCOPE_REGENERATE_REFERENCES=$PWD/tests/data/reference build/dev/tests/tst_referenceimages
// writes every picture there instead of comparing (the folder is created if needed).
//
// Fonts: Theme::fontFamilies() names "DejaVu Sans" first, and QFont takes the first installed
// family; scripts/deps.sh installs fonts-dejavu-core (DejaVu Sans Book and Bold, the only faces
// the renderer uses) on every machine, so the text resolves to it everywhere without pinning
// anything. fontsResolveToDejaVu() fails first, with a clear message, where it would not.

#include "scenariofile.h"
#include "simulator.h"
#include "theme.h"
#include "timelinerenderer.h"

#include <QDir>
#include <QFileInfo>
#include <QFontInfo>
#include <QImage>
#include <QPainter>
#include <QTemporaryDir>
#include <QTest>

#include <memory>

namespace {

constexpr int kWidth = 760;
constexpr int kMaxHeight = 420;

QString referenceDir()
{
    return QStringLiteral(FENCESCOPE_TESTDATA "/reference");
}

QString presetDir()
{
    return QStringLiteral(FENCESCOPE_SOURCE_DIR "/resources/scenarios");
}

QStringList presets()
{
    QStringList names;
    for (const QFileInfo &fi :
         QDir(presetDir()).entryInfoList({QStringLiteral("*.json")}, QDir::Files, QDir::Name))
        names << fi.completeBaseName();
    return names;
}

// One picture: what the window shows for `scenario` in a 760 px wide timeline fitted to the
// run (TimelineView::fitToWindow's margins), as tall as its lanes but at most kMaxHeight;
// taller, the visible part ends there (and at 60% of the lanes' height for `pinned`).
struct Shot
{
    QString preset;
    QString theme = QStringLiteral("light");
    bool compare = false;
    bool midRun = false; // a selection and the playhead half way through the run
    bool hover = false;  // hover over one action and the focus ring on another
    bool pinned = false; // a short window: lock and storage lanes pinned to its bottom
};

QImage render(const Shot &shot)
{
    const Core::LoadResult loaded = Core::ScenarioFile::load(presetDir() + QLatin1Char('/') +
                                                             shot.preset + QStringLiteral(".json"));
    if (!loaded.ok())
        return {};
    const Core::Scenario &s = *loaded.scenario;
    const Core::Trace fenced = Core::simulate(s, true);
    const Core::Trace unfenced = Core::simulate(s, false);
    const Core::Trace own = Core::simulate(s);

    TimelineRenderer::Options o;
    o.theme = Theme::byName(shot.theme);
    o.compare = shot.compare;
    if (o.compare) {
        // as the view: clients that never pause have no pause row in compare mode
        o.collapsedPauses.assign(s.clients.size(), true);
        for (std::size_t c = 0; c < s.clients.size(); ++c)
            for (const Core::Action &a : s.clients[c].actions)
                if (a.kind == Core::ActionKind::Pause)
                    o.collapsedPauses[c] = false;
    }
    const Core::Trace &top = o.compare ? fenced : own;
    const double fitFrom = TimelineRenderer::fitFrom(top);
    const double fitTo = TimelineRenderer::fitTo(top);
    if (shot.midRun) {
        o.playhead = Core::Tick((fitFrom + fitTo) / 2);
        o.selection = {0, s.clients.front().actions.empty() ? -1 : 0};
    }
    if (shot.hover) {
        const int last = int(s.clients.size()) - 1;
        o.hoverClient = last;
        o.hoverAction = s.clients.back().actions.empty() ? -1 : 0;
        o.focusClient = 0;
        o.focusAction = int(s.clients.front().actions.size()) - 1;
    }

    // taller than the window: as in the view's scroll area, the lock and storage lanes are
    // pinned to the bottom of what is visible
    const int natural = int(std::ceil(TimelineRenderer::preferredSize(s, o, kWidth).height()));
    const int height = shot.pinned ? natural * 6 / 10 : std::min(kMaxHeight, natural);
    if (height < natural)
        o.pinBottom = height;

    // TimelineView::fitToWindow
    const double leftMargin = 36 * o.theme.fontScale;
    const double rightMargin = 24 * o.theme.fontScale;
    const double plotWidth = kWidth - TimelineRenderer::headerWidth(o) - leftMargin - rightMargin;
    TimeAxis axis;
    axis.pixelsPerTick = plotWidth / std::max(1.0, fitTo - fitFrom);
    axis.firstTick = fitFrom - leftMargin / axis.pixelsPerTick;
    axis.left = TimelineRenderer::headerWidth(o);

    QImage image(kWidth, natural, QImage::Format_ARGB32_Premultiplied);
    image.fill(Qt::transparent);
    {
        QPainter p(&image);
        const TimelineRenderer renderer;
        renderer.paint(&p, QRectF(image.rect()), s, top, o.compare ? &unfenced : nullptr, axis, o);
    }
    // the picture is opaque: no alpha channel on disk; of pinned lanes, only what is visible
    return image.copy(0, 0, kWidth, height).convertToFormat(QImage::Format_RGB32);
}

QString fileName(const Shot &shot)
{
    QString name = shot.preset + QLatin1Char('-') + shot.theme;
    if (shot.compare)
        name += QStringLiteral("-compare");
    if (shot.midRun)
        name += QStringLiteral("-midrun");
    if (shot.hover)
        name += QStringLiteral("-hover");
    if (shot.pinned)
        name += QStringLiteral("-pinned");
    return name + QStringLiteral(".png");
}

} // namespace

Q_DECLARE_METATYPE(Shot)

class TestReferenceImages : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase() { QVERIFY2(!presets().isEmpty(), qPrintable(presetDir())); }

    void fontsResolveToDejaVu()
    {
        for (const bool bold : {false, true}) {
            QFont f;
            f.setFamilies(Theme::fontFamilies());
            f.setStyleHint(QFont::SansSerif);
            f.setPixelSize(12);
            f.setBold(bold);
            QVERIFY2(QFontInfo(f).family() == QLatin1String("DejaVu Sans"),
                     qPrintable(QStringLiteral("the timeline's font resolves to \"%1\", not "
                                               "DejaVu Sans: install fonts-dejavu-core "
                                               "(scripts/deps.sh)")
                                    .arg(QFontInfo(f).family())));
        }
    }

    void matchesReference_data()
    {
        QTest::addColumn<Shot>("shot");
        const QStringList names = presets();
        for (const QString &preset : names)
            for (const QString &theme : Theme::names()) {
                Shot shot;
                shot.preset = preset;
                shot.theme = theme;
                QTest::newRow(qPrintable(fileName(shot))) << shot;
            }
        const auto add = [](Shot shot) { QTest::newRow(qPrintable(fileName(shot))) << shot; };
        for (const char *preset : {"default", "kleppmann-gc-pause", "redlock-no-token",
                                   "two-resources-partial", "zookeeper-failover"}) {
            Shot shot;
            shot.preset = QLatin1String(preset);
            shot.compare = true;
            add(shot);
        }
        Shot darkCompare;
        darkCompare.preset = QStringLiteral("keepalive-gc-pause");
        darkCompare.theme = QStringLiteral("dark");
        darkCompare.compare = true;
        add(darkCompare);
        for (const char *preset : {"default", "check-then-write-gap", "etcd-revisions"}) {
            Shot shot;
            shot.preset = QLatin1String(preset);
            shot.midRun = true;
            add(shot);
        }
        Shot contrastMid;
        contrastMid.preset = QStringLiteral("kleppmann-gc-pause");
        contrastMid.theme = QStringLiteral("contrast");
        contrastMid.midRun = true;
        add(contrastMid);
        Shot compareMid;
        compareMid.preset = QStringLiteral("kleppmann-gc-pause");
        compareMid.compare = true;
        compareMid.midRun = true;
        add(compareMid);
        for (const char *preset : {"three-owners", "bypass-background-job"}) {
            Shot shot;
            shot.preset = QLatin1String(preset);
            shot.hover = true;
            add(shot);
        }
        for (const char *preset : {"three-owners", "two-resources-partial"}) {
            Shot shot;
            shot.preset = QLatin1String(preset);
            shot.pinned = true;
            add(shot);
        }
    }
    void matchesReference()
    {
        QFETCH(Shot, shot);
        const QImage actual = render(shot);
        QVERIFY2(!actual.isNull(), qPrintable(shot.preset));
        const QString name = fileName(shot);

        const QString regenerate = qEnvironmentVariable("FENCESCOPE_REGENERATE_REFERENCES");
        if (!regenerate.isEmpty()) {
            QVERIFY(QDir().mkpath(regenerate));
            QVERIFY(actual.save(regenerate + QLatin1Char('/') + name, "PNG", 9));
            return;
        }

        const QString path = referenceDir() + QLatin1Char('/') + name;
        QImage expected(path);
        QVERIFY2(!expected.isNull(), qPrintable(QStringLiteral("no reference %1").arg(path)));
        expected = expected.convertToFormat(QImage::Format_RGB32);

        int differing = 0;
        QImage diff;
        if (expected.size() == actual.size()) {
            diff = QImage(actual.size(), QImage::Format_RGB32);
            for (int y = 0; y < actual.height(); ++y) {
                const QRgb *a = reinterpret_cast<const QRgb *>(actual.constScanLine(y));
                const QRgb *e = reinterpret_cast<const QRgb *>(expected.constScanLine(y));
                QRgb *d = reinterpret_cast<QRgb *>(diff.scanLine(y));
                for (int x = 0; x < actual.width(); ++x) {
                    if (a[x] != e[x]) {
                        ++differing;
                        d[x] = qRgb(255, 0, 0);
                    } else {
                        const int g = 160 + qGray(a[x]) * 95 / 255;
                        d[x] = qRgb(g, g, g);
                    }
                }
            }
        }
        if (expected.size() == actual.size() && differing == 0)
            return;

        static QTemporaryDir out(QDir::tempPath() + QStringLiteral("/fencescope-reference-XXXXXX"));
        out.setAutoRemove(false); // for the person who reads the failure
        const QString actualPath = out.filePath(QStringLiteral("actual-") + name);
        const QString diffPath = out.filePath(QStringLiteral("diff-") + name);
        actual.save(actualPath);
        if (!diff.isNull())
            diff.save(diffPath);
        if (expected.size() != actual.size())
            QFAIL(qPrintable(QStringLiteral("%1: %2x%3, the reference is %4x%5; actual: %6")
                                 .arg(name)
                                 .arg(actual.width())
                                 .arg(actual.height())
                                 .arg(expected.width())
                                 .arg(expected.height())
                                 .arg(actualPath)));
        QFAIL(qPrintable(QStringLiteral("%1: %2 pixels differ; actual: %3, diff: %4")
                             .arg(name)
                             .arg(differing)
                             .arg(actualPath, diffPath)));
    }
};

QTEST_MAIN(TestReferenceImages)
#include "tst_referenceimages.moc"
