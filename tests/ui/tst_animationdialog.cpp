// File > Export Animation…, driven through the real MainWindow and the real dialog offscreen:
// the menu is opened with its keys, the dialog's widgets are set as a user sets them, and
// Export is pressed (the window hands the dialog to the test instead of showing it). The files
// are real, in a temporary folder; what they hold frame by frame is tst_animation's.

#include "animationsupport.h"
#include "document/document.h"
#include "document/lessonsession.h"
#include "mediadecode.h"
#include "views/animationdialog.h"
#include "window/lessoncontroller.h"
#include "window/mainwindow.h"
#include "windowfixture.h"
#include "windowparts.h"

#include <QAction>
#include <QApplication>
#include <QComboBox>
#include <QDir>
#include <QDoubleSpinBox>
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QProgressBar>
#include <QSettings>
#include <QSignalSpy>
#include <QSpinBox>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>

#include <functional>
#include <memory>

namespace {

// Short and small: a second a step, 480 px.
void quick(AnimationDialog &d)
{
    part<QSpinBox>(d, "width")->setValue(480);
    part<QComboBox>(d, "holdMode")->setCurrentIndex(1);
    part<QDoubleSpinBox>(d, "holdSeconds")->setValue(1);
    d.refreshPlan();
}

} // namespace

class TestAnimationDialog : public QObject
{
    Q_OBJECT

    WindowFixture m_window{WindowFixture::Options().shownOnly()};
    std::unique_ptr<QTemporaryDir> m_dir;

    MainWindow &window() { return *m_window; }
    QString file(const QString &name) const { return m_dir->filePath(name); }

    // Opens File > Export Animation… with the keys (Alt+F, then M) and hands the dialog to
    // `use`; returns whether the dialog said the file was written.
    bool withDialog(const std::function<bool(AnimationDialog &)> &use)
    {
        bool shown = false;
        bool written = false;
        scripted(window()).setAnimationHandler([&](AnimationDialog &d) {
            shown = true;
            written = use(d);
            return written;
        });
        QTest::keyClick(window().windowHandle(), Qt::Key_F, Qt::AltModifier);
        [&] { QTRY_VERIFY(qobject_cast<QMenu *>(QApplication::activePopupWidget())); }();
        QMenu *menu = qobject_cast<QMenu *>(QApplication::activePopupWidget());
        if (menu)
            QTest::keyClick(menu, Qt::Key_M);
        [&] { QTRY_VERIFY(shown); }();
        scripted(window()).setAnimationHandler({});
        return written;
    }

    // Presses Export and waits for the writing to end; true when the dialog accepted.
    static bool pressExport(AnimationDialog &d)
    {
        QSignalSpy done(&d, &AnimationDialog::exportFinished);
        d.accept(); // the Export button
        if (!done.wait(60000))
            return false;
        return done.first().first().toBool() && d.result() == QDialog::Accepted;
    }

private slots:
    void initTestCase() { WindowFixture::useOwnSettings("tst_animationdialog"); }

    void init()
    {
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

    void theFileMenuOpensItWithItsDefaults()
    {
        AnimationOptions o;
        QString path;
        QString summary;
        QImage preview;
        QStringList formats;
        QString formatTip;
        withDialog([&](AnimationDialog &d) {
            o = d.options();
            path = d.path();
            summary = part<QLabel>(d, "summary")->text();
            preview = d.previewImage();
            const auto *format = part<QComboBox>(d, "format");
            for (int i = 0; i < format->count(); ++i)
                formats << format->itemText(i);
            formatTip = format->toolTip();
            return false; // Cancel
        });
        // each format names the slide programs README found to take it, and the tip what two
        // of them need first (README, "Export Animation": where each of these is said)
        QCOMPARE(formats,
                 (QStringList{QStringLiteral("Animated GIF (PowerPoint, Google Slides, Impress; "
                                             "loops)"),
                              QStringLiteral("MP4 video, H.264 (PowerPoint, Keynote, Impress)"),
                              QStringLiteral("WebM video, VP9 (browsers, Impress)")}));
        QVERIFY2(formatTip.contains(QStringLiteral("Google Drive")) &&
                     formatTip.contains(QStringLiteral("gstreamer1.0-libav")),
                 qPrintable(formatTip));
        // a GIF of the print theme at 1280 px, 15 frames a second, each step held by its
        // caption, looping for ever
        QVERIFY2(path.endsWith(QStringLiteral(".gif")), qPrintable(path));
        QCOMPARE(o.picture.width, 1280.0);
        QCOMPARE(o.picture.theme.name, QStringLiteral("print"));
        QCOMPARE(o.fps, 15);
        QVERIFY(!o.stepSeconds);
        QCOMPARE(o.loop, 0);
        // the default scenario: six steps and the verdict (tst_animation works them out)
        QVERIFY2(summary.contains(QStringLiteral("6 steps, 62 frames")), qPrintable(summary));
        QVERIFY(summary.startsWith(QStringLiteral("→ 1280 × ")));
        QVERIFY(!preview.isNull());
        QVERIFY(preview.width() >= 400 && preview.width() <= 1000);
        QVERIFY(scripted(window()).lastError().isEmpty());
    }

    void thePreviewPlaysTheFramesThatAreWritten()
    {
        withDialog([&](AnimationDialog &d) {
            quick(d);
            const Animation::Plan &plan = d.previewPlan();
            [&] { QCOMPARE(plan.frames.size(), std::size_t(6 + 5 * 11 + 1)); }();
            // a travel frame, drawn as the file will have it, at the preview's scale
            d.showPreviewFrame(3);
            const double scale = double(d.previewImage().width()) / plan.size.width();
            const QImage expected = Animation::renderFrame(window().document()->scenario(),
                                                           d.options(), plan, 3, scale);
            [&] { QCOMPARE(d.previewImage(), expected); }();
            [&] {
                QCOMPARE(part<QLabel>(d, "step")->text(),
                         QStringLiteral("Step 1 of 6 · t=0")); // 0.16 of a tick on its way to 1
            }();
            // and it plays on by itself: the travel frames last a fifteenth of a second
            [&] { QTRY_VERIFY_WITH_TIMEOUT(d.previewFrame() > 3, 3000); }();
            // a format changes the extension, an extension the format
            part<QComboBox>(d, "format")->setCurrentIndex(1);
            [&] { QVERIFY(d.path().endsWith(QStringLiteral(".mp4"))); }();
            d.setPath(file(QStringLiteral("talk.webm")));
            [&] { QCOMPARE(part<QComboBox>(d, "format")->currentIndex(), 2); }();
            [&] { QVERIFY(!part<QSpinBox>(d, "loop")->isEnabled()); }(); // a GIF's only
            return false;
        });
    }

    void exportWritesTheFileWhileTheWindowRuns()
    {
        int ticks = 0;
        int ticksBeforeTheEnd = -1;
        const QString path = file(QStringLiteral("run.mp4"));
        const bool written = withDialog([&](AnimationDialog &d) {
            quick(d);
            d.setPath(path);
            // the event loop runs while the frames are drawn and encoded
            QTimer beat;
            connect(&beat, &QTimer::timeout, [&] { ++ticks; });
            beat.start(5);
            connect(&d, &AnimationDialog::exportFinished, [&] { ticksBeforeTheEnd = ticks; });
            return pressExport(d);
        });
        QVERIFY(written);
        QVERIFY2(ticksBeforeTheEnd > 0, qPrintable(QString::number(ticksBeforeTheEnd)));
        QCOMPARE(filesIn(m_dir->path()), QStringList{QStringLiteral("run.mp4")});
        QFile f(path);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QCOMPARE(f.read(8).mid(4), QByteArray("ftyp"));
        QVERIFY(window().statusBar()->currentMessage().contains(QStringLiteral("run.mp4")));
        // the next time, the dialog starts from this one
        withDialog([&](AnimationDialog &d) {
            [&] { QCOMPARE(d.path(), path); }();
            [&] { QCOMPARE(d.options().picture.width, 480.0); }();
            return false;
        });
    }

    // With a lesson open, "Show" offers the whole lesson: the preview plays the lesson's plan
    // (Animation::lessonPlan, each scene's view giving its range: the range is not asked), and
    // Export writes it. Without one, only the run and compare are offered.
    void aLessonOpenOffersTheWholeLesson()
    {
        withDialog([&](AnimationDialog &d) {
            [&] { QCOMPARE(part<QComboBox>(d, "content")->count(), 2); }();
            return false;
        });
        QVERIFY(window().openBuiltinLesson(QStringLiteral("1-why-a-lock-needs-fencing")));
        const Core::Lesson lesson = window().lessons()->session()->lesson();
        const QString path = file(QStringLiteral("lesson.gif"));
        const bool written = withDialog([&](AnimationDialog &d) {
            QComboBox *content = part<QComboBox>(d, "content");
            [&] { QCOMPARE(content->count(), 3); }();
            [&] {
                QCOMPARE(content->itemText(2),
                         QStringLiteral("The whole lesson: Why a lock needs fencing (9 scenes)"));
            }();
            content->setCurrentIndex(2);
            part<QSpinBox>(d, "width")->setValue(320);
            part<QSpinBox>(d, "fps")->setValue(1);
            part<QComboBox>(d, "holdMode")->setCurrentIndex(1);
            part<QDoubleSpinBox>(d, "holdSeconds")->setValue(0.5);
            d.refreshPlan();
            [&] { QVERIFY(d.showsLesson()); }();
            [&] { QVERIFY(!part<QComboBox>(d, "range")->isEnabled()); }();
            const Animation::Plan expected = Animation::lessonPlan(lesson, d.options());
            [&] { QCOMPARE(d.previewPlan().problem, QString()); }();
            [&] { QCOMPARE(d.previewPlan().shots.size(), std::size_t(9)); }();
            [&] { QCOMPARE(d.previewPlan().frames.size(), expected.frames.size()); }();
            [&] { QCOMPARE(d.previewPlan().steps.size(), expected.steps.size()); }();
            // the first frame: the first scene's opening, its narration as the caption
            [&] {
                QCOMPARE(d.previewImage(), Animation::renderFrame(expected, 0,
                                                                  double(d.previewImage().width()) /
                                                                      expected.size.width()));
            }();
            d.setPath(path);
            return pressExport(d);
        });
        QVERIFY(written);
        QCOMPARE(filesIn(m_dir->path()), QStringList{QStringLiteral("lesson.gif")});
        AnimationOptions o;
        o.picture.width = 320;
        o.fps = 1;
        o.stepSeconds = 0.5;
        const Animation::Plan plan = Animation::lessonPlan(lesson, o);
        QCOMPARE(MediaDecode::readGif(path).frames.size(), plan.frames.size());
    }

    void cancelStopsTheExportAndLeavesNoFile()
    {
        QString error;
        bool stillOpen = false;
        const bool written = withDialog([&](AnimationDialog &d) {
            // the default, a few seconds of work: cancelled after its third frame
            d.setPath(file(QStringLiteral("run.webm")));
            QSignalSpy done(&d, &AnimationDialog::exportFinished);
            d.accept();
            QProgressBar *progress = part<QProgressBar>(d, "progress");
            [&] { QTRY_VERIFY_WITH_TIMEOUT(progress->value() >= 3, 30000); }();
            [&] { QVERIFY(d.isExporting()); }();
            [&] { QVERIFY(!part<QComboBox>(d, "format")->isEnabled()); }();
            d.reject(); // Cancel
            [&] { QVERIFY(done.wait(30000)); }();
            stillOpen = d.result() != QDialog::Accepted && !d.isExporting();
            error = d.errorText();
            return false;
        });
        QVERIFY(!written);
        QVERIFY(stillOpen);
        QCOMPARE(error, QStringLiteral("Cancelled: nothing was written."));
        QCOMPARE(filesIn(m_dir->path()), QStringList());
    }

    void aFailureKeepsTheDialogOpenAndSaysWhy()
    {
        QFile blocker(file(QStringLiteral("file")));
        QVERIFY(blocker.open(QIODevice::WriteOnly));
        blocker.close();
        QString error;
        QString pathAfter;
        const bool written = withDialog([&](AnimationDialog &d) {
            quick(d);
            d.setPath(file(QStringLiteral("file/run.gif")));
            const bool ok = pressExport(d);
            error = d.errorText();
            pathAfter = d.path();
            return ok;
        });
        QVERIFY(!written);
        QCOMPARE(error, QStringLiteral("Nothing was exported: cannot write %1: Not a directory. "
                                       "Choose another folder or file name.")
                            .arg(file(QStringLiteral("file/run.gif"))));
        QCOMPARE(pathAfter, file(QStringLiteral("file/run.gif"))); // every choice kept
        QCOMPARE(filesIn(m_dir->path()), QStringList{QStringLiteral("file")});
        QVERIFY(scripted(window()).lastError().isEmpty());
    }
};

QTEST_MAIN(TestAnimationDialog)
#include "tst_animationdialog.moc"
