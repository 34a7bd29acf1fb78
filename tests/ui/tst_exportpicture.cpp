// What File > Export… draws, driven through the real MainWindow and its dialog offscreen: the
// "16:9 slide" box gives a page of exactly that shape, a tall compare included, and the
// window's selection halo stays out of the picture (README, "Export, slides and presentation
// mode"). The dialog's own settings and failure paths are tst_exportdialog's.

#include "document/document.h"
#include "exporter.h"
#include "exportruns.h"
#include "views/exportdialog.h"
#include "views/timelineview.h"
#include "viewstate.h"
#include "window/filecontroller.h"
#include "window/mainwindow.h"
#include "windowfixture.h"
#include "windowparts.h"

#include <QAction>
#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QImage>
#include <QSettings>
#include <QSpinBox>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <functional>
#include <memory>

namespace {

// The smallest rectangle holding every pixel that is not the page's background (its corner).
QRect drawn(const QImage &image)
{
    const QRgb background = image.pixel(0, 0);
    int left = image.width(), right = -1, top = image.height(), bottom = -1;
    for (int y = 0; y < image.height(); ++y) {
        const auto *line = reinterpret_cast<const QRgb *>(image.constScanLine(y));
        for (int x = 0; x < image.width(); ++x)
            if (line[x] != background) {
                left = std::min(left, x);
                right = std::max(right, x);
                top = std::min(top, y);
                bottom = std::max(bottom, y);
            }
    }
    return right < 0 ? QRect() : QRect(QPoint(left, top), QPoint(right, bottom));
}

} // namespace

class TestExportPicture : public QObject
{
    Q_OBJECT

    WindowFixture m_window;
    std::unique_ptr<QTemporaryDir> m_dir;

    MainWindow &window() { return *m_window; }
    QString file(const QString &name) const { return m_dir->filePath(name); }

    // Ctrl+E, the dialog set up by `setUp`, Export pressed; the file written is read back.
    QImage exportWith(const QString &name, const std::function<void(ExportDialog &)> &setUp)
    {
        const QString path = file(name);
        bool accepted = false;
        scripted(window()).setExportHandler([&](ExportDialog &d) {
            d.setPath(path);
            setUp(d);
            d.accept();
            accepted = d.result() == QDialog::Accepted;
            return accepted;
        });
        QTest::keyClick(window().windowHandle(), Qt::Key_E, Qt::ControlModifier);
        scripted(window()).setExportHandler({});
        [&] {
            QVERIFY(accepted);
            QVERIFY2(scripted(window()).lastError().isEmpty(),
                     qPrintable(scripted(window()).lastError()));
        }();
        return QImage(path);
    }

private slots:
    void initTestCase() { WindowFixture::useOwnSettings("tst_exportpicture"); }

    void init()
    {
        QSettings().remove(ExportDialog::settingsGroup()); // the dialog's defaults each time
        m_dir = std::make_unique<QTemporaryDir>();
        QVERIFY(m_dir->isValid());
        qputenv("FENCESCOPE_AUTOSAVE_DIR",
                m_dir->filePath(QStringLiteral("autosave")).toLocal8Bit());
        QVERIFY(m_window.open());
    }

    void cleanup()
    {
        m_window.close();
        m_dir.reset();
    }

    // The "16:9 slide" box: width x width*9/16 exactly (1920 x 1080, 1280 x 720), for one run,
    // for the compare picture, and for three-owners' compare, whose lanes (four, twice) are too
    // tall for a 1920 slide even at the smallest text (1920 x 1125 before): it is drawn smaller as
    // a whole, centred, and nothing of it is cut at the page's edges.
    void slideBoxGivesSixteenByNine_data()
    {
        QTest::addColumn<QString>("preset");
        QTest::addColumn<bool>("compare");
        QTest::addColumn<int>("width");
        QTest::addColumn<QSize>("size");
        QTest::newRow("default") << QStringLiteral("default") << false << 1920 << QSize(1920, 1080);
        QTest::newRow("default compare")
            << QStringLiteral("default") << true << 1920 << QSize(1920, 1080);
        QTest::newRow("default compare 1280")
            << QStringLiteral("default") << true << 1280 << QSize(1280, 720);
        QTest::newRow("three-owners compare")
            << QStringLiteral("three-owners") << true << 1920 << QSize(1920, 1080);
    }
    void slideBoxGivesSixteenByNine()
    {
        QFETCH(QString, preset);
        QFETCH(bool, compare);
        QFETCH(int, width);
        QFETCH(QSize, size);
        QVERIFY(part<FileController>(window())->openPreset(preset));
        const QImage image = exportWith(QStringLiteral("slide.png"), [&](ExportDialog &d) {
            part<QCheckBox>(d, "slide")->setChecked(true);
            part<QComboBox>(d, "content")->setCurrentIndex(compare ? 1 : 0);
            part<QSpinBox>(d, "width")->setValue(width);
            QVERIFY(d.options().slide);
            QCOMPARE(d.options().compare, compare);
        });
        QCOMPARE(image.size(), size);
        const QRect ink = drawn(image);
        QVERIFY(!ink.isNull());
        // margins on every side: the picture is whole, not cut at the slide's edges
        QVERIFY2(ink.left() > 4 && ink.top() > 4 && ink.right() < size.width() - 5 &&
                     ink.bottom() < size.height() - 5,
                 qPrintable(QStringLiteral("%1,%2 %3x%4")
                                .arg(ink.x())
                                .arg(ink.y())
                                .arg(ink.width())
                                .arg(ink.height())));
        // centred across (within the antialiasing of its outermost strokes)
        QVERIFY2(std::abs(ink.left() - (size.width() - 1 - ink.right())) <= 3,
                 qPrintable(QStringLiteral("left %1, right %2")
                                .arg(ink.left())
                                .arg(size.width() - 1 - ink.right())));
        // the box unticked, the same picture is as tall as it needs: a compare is taller
        const QImage page = exportWith(QStringLiteral("page.png"), [&](ExportDialog &d) {
            QVERIFY(d.options().slide); // remembered from the export before
            part<QCheckBox>(d, "slide")->setChecked(false);
            part<QComboBox>(d, "content")->setCurrentIndex(compare ? 1 : 0);
            part<QSpinBox>(d, "width")->setValue(width);
            QVERIFY(!d.options().slide);
        });
        QCOMPARE(page.width(), width);
        if (compare)
            QVERIFY(page.height() > size.height());
    }

    // The window shows its selection with a halo; the exported picture does not: the
    // timeline part of an export with A's stale write selected is pixel for pixel the one
    // with nothing selected (Esc in the timeline clears the selection, as a person would).
    void selectionHaloIsNotExported()
    {
        QVERIFY(part<FileController>(window())->openPreset(QStringLiteral("default")));
        ViewState *state = window().viewState();
        // the window opens on the outcome that matters: A's write, rejected with fencing
        QCOMPARE(state->selection().client, 0);
        QCOMPARE(state->selection().action, 2);
        auto *timeline = part<TimelineView>(window());
        const QImage haloed = timeline->grab().toImage();

        const QImage selected = exportWith(QStringLiteral("selected.png"), [](ExportDialog &d) {
            QVERIFY(d.options().explain.isValid()); // told in words, under the picture
        });

        timeline->setFocus();
        QTest::keyClick(window().windowHandle(), Qt::Key_Escape);
        QVERIFY(!state->selection().isValid());
        // the window itself did draw the halo: without it the timeline looks different
        QVERIFY(timeline->grab().toImage() != haloed);

        ExportOptions o;
        const QImage none = exportWith(QStringLiteral("none.png"), [&o](ExportDialog &d) {
            o = d.options();
            QVERIFY(!o.explain.isValid());
        });
        QVERIFY(!selected.isNull());
        QCOMPARE(selected.size(), none.size() + QSize(0, selected.height() - none.height()));
        // everything down to the timeline's bottom (the explanation box below differs)
        const int bottom =
            int(std::ceil(Exporter::timelineRect(window().document()->scenario(),
                                                 TestRuns(window().document()->scenario(), o), o)
                              .bottom()));
        QVERIFY(bottom > 100 && bottom < none.height());
        const QRect part(0, 0, selected.width(), bottom);
        QVERIFY(selected.copy(part) == none.copy(part));
    }
};

QTEST_MAIN(TestExportPicture)
#include "tst_exportpicture.moc"
