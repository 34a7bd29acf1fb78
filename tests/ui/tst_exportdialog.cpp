// File > Export…, Export Storyboard… and Copy as Image, driven through the real MainWindow
// and the real dialog offscreen: the dialog is built, its widgets are set as a user would set
// them, and Export is pressed (the window's export hook hands the dialog to the test instead
// of showing it). The files are real, in a temporary folder. (A little over 600 lines: the
// picture dialog's failure paths, fallback folders and remembered settings belong together.)

#include "document/document.h"
#include "views/exportdialog.h"
#include "viewstate.h"
#include "window/exportcontroller.h"
#include "window/mainwindow.h"
#include "windowfixture.h"
#include "windowparts.h"

#include <QAction>
#include <QApplication>
#include <QCheckBox>
#include <QClipboard>
#include <QComboBox>
#include <QDir>
#include <QFile>
#include <QImage>
#include <QLineEdit>
#include <QRegularExpression>
#include <QSettings>
#include <QSpinBox>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QXmlStreamReader>

#include <functional>
#include <memory>
#include <unistd.h>

namespace {

QByteArray readAll(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

// Every text node of an SVG (fails the test on malformed XML).
QStringList svgTexts(const QByteArray &svg, bool *wellFormed)
{
    QStringList texts;
    QXmlStreamReader xml(svg);
    while (!xml.atEnd()) {
        xml.readNext();
        if (xml.isCharacters() && !xml.isWhitespace())
            texts << xml.text().toString().trimmed();
    }
    *wellFormed = !xml.hasError();
    return texts;
}

} // namespace

class TestExportDialog : public QObject
{
    Q_OBJECT

    WindowFixture m_window{WindowFixture::Options().shownOnly()};
    std::unique_ptr<QTemporaryDir> m_dir;

    MainWindow &window() { return *m_window; }
    QString file(const QString &name) const { return m_dir->filePath(name); }

    // Sets the dialog up with `setUp`, presses Export, and runs the export. Returns whether the
    // dialog accepted (a refused input keeps it open).
    bool exportWith(const std::function<void(ExportDialog &)> &setUp, const char *action = "export")
    {
        bool accepted = false;
        scripted(window()).setExportHandler([&](ExportDialog &d) {
            setUp(d);
            d.accept(); // the Export button
            accepted = d.result() == QDialog::Accepted;
            return accepted;
        });
        window().findChild<QAction *>(QString::fromLatin1(action))->trigger();
        scripted(window()).setExportHandler({});
        return accepted;
    }

    // Presses Export on `path`, expecting a refusal: the dialog stays open; returns what it
    // says.
    QString refusedExport(const QString &path)
    {
        QString error;
        bool open = false;
        scripted(window()).setExportHandler([&](ExportDialog &d) {
            d.setPath(path);
            d.accept();
            open = d.result() != QDialog::Accepted && !d.errorText().isEmpty();
            error = d.errorText();
            return false; // then cancelled
        });
        window().findChild<QAction *>(QStringLiteral("export"))->trigger();
        scripted(window()).setExportHandler({});
        [&] { QVERIFY2(open, qPrintable(path)); }();
        [&] { QVERIFY(scripted(window()).lastError().isEmpty()); }();
        return error;
    }

    // The path the dialog offers when it opens.
    QString pathOffered()
    {
        QString path;
        scripted(window()).setExportHandler([&](ExportDialog &d) {
            path = d.path();
            return false;
        });
        window().findChild<QAction *>(QStringLiteral("export"))->trigger();
        scripted(window()).setExportHandler({});
        return path;
    }

    // HOME (and with it the desktop's standard folders) somewhere else for a while.
    struct HomeAt
    {
        QByteArray saved = qgetenv("HOME");
        explicit HomeAt(const QString &home) { qputenv("HOME", QFile::encodeName(home)); }
        ~HomeAt() { qputenv("HOME", saved); }
    };

    // A window as a new run of the app opens it: it has exported nothing yet.
    void newWindow()
    {
        m_window.close();
        QVERIFY(m_window.open());
    }

private slots:
    void initTestCase() { WindowFixture::useOwnSettings("tst_exportdialog"); }

    void init()
    {
        // each test starts from the defaults; remembering is tested on its own
        QSettings().remove(ExportDialog::settingsGroup());
        m_dir = std::make_unique<QTemporaryDir>();
        QVERIFY(m_dir->isValid());
        qputenv("FENCESCOPE_AUTOSAVE_DIR",
                m_dir->filePath(QStringLiteral("autosave")).toLocal8Bit());
        newWindow();
    }

    void cleanup()
    {
        m_window.close();
        m_dir.reset();
    }

    void ctrlEOpensTheDialog()
    {
        bool shown = false;
        ExportOptions o;
        QString caption;
        QString path;
        QImage preview;
        scripted(window()).setExportHandler([&](ExportDialog &d) {
            shown = true;
            o = d.options();
            caption = part<QLineEdit>(d, "captionText")->text();
            path = d.path();
            preview = d.preview();
            return false; // Cancel
        });
        QTest::keyClick(&window(), Qt::Key_E, Qt::ControlModifier);
        QVERIFY(shown);
        // defaults: PNG 1x at 1920 px on the print theme, the selection explained, and a
        // caption field holding the default caption
        QCOMPARE(o.width, 1920.0);
        QCOMPARE(o.scale, 1.0);
        QCOMPARE(o.theme.name, QStringLiteral("print"));
        QVERIFY(o.explain.isValid());
        QVERIFY(caption.contains(QStringLiteral("Safety held")));
        QVERIFY(path.endsWith(QStringLiteral(".png")));
        // a live thumbnail, drawn by the exporter
        QVERIFY(!preview.isNull());
        QVERIFY(preview.width() >= 400);
    }

    void pngWidthIsWidthTimesScale_data()
    {
        QTest::addColumn<int>("formatIndex");
        QTest::addColumn<int>("scale");
        QTest::newRow("1x") << 0 << 1;
        QTest::newRow("2x") << 1 << 2;
        QTest::newRow("4x") << 2 << 4;
    }

    void pngWidthIsWidthTimesScale()
    {
        QFETCH(int, formatIndex);
        QFETCH(int, scale);
        const QString path = file(QStringLiteral("slide.png"));
        QVERIFY(exportWith([&](ExportDialog &d) {
            d.setPath(path);
            part<QComboBox>(d, "format")->setCurrentIndex(formatIndex);
            part<QSpinBox>(d, "width")->setValue(800);
        }));
        QVERIFY2(scripted(window()).lastError().isEmpty(),
                 qPrintable(scripted(window()).lastError()));
        const QImage image(path);
        QVERIFY(!image.isNull());
        QCOMPARE(image.width(), 800 * scale);
        // print theme: white around the picture
        QCOMPARE(image.pixelColor(2, 2), QColor(Qt::white));
    }

    void svgHasRealTextAndTheChosenCaption()
    {
        const QString path = file(QStringLiteral("slide.svg"));
        QVERIFY(exportWith([&](ExportDialog &d) {
            d.setPath(file(QStringLiteral("slide.png")));
            part<QComboBox>(d, "format")->setCurrentIndex(3); // SVG: the extension follows
            QCOMPARE(d.path(), path);
            part<QLineEdit>(d, "captionText")->setText(QStringLiteral("Fencing stops the zombie"));
        }));
        bool ok = false;
        const QStringList texts = svgTexts(readAll(path), &ok);
        QVERIFY(ok);
        QVERIFY(texts.contains(QStringLiteral("A")));
        QVERIFY(texts.contains(QStringLiteral("B")));
        QVERIFY(texts.contains(QStringLiteral("Fencing stops the zombie")));
        QVERIFY(texts.contains(QStringLiteral("token 2")));
        QVERIFY(!texts.contains(QStringLiteral("Fencing OFF: the same schedule, tokens ignored")));
    }

    void pdfOfTheCompareView()
    {
        const QString path = file(QStringLiteral("compare.pdf"));
        QVERIFY(exportWith([&](ExportDialog &d) {
            d.setPath(path); // a typed extension chooses the format
            QCOMPARE(part<QComboBox>(d, "format")->currentIndex(), 4);
            part<QComboBox>(d, "content")->setCurrentIndex(1);
            QVERIFY(d.options().compare);
            // the default caption follows the content
            QVERIFY(
                part<QLineEdit>(d, "captionText")->text().contains(QStringLiteral("Fencing on")));
        }));
        const QByteArray pdf = readAll(path);
        QVERIFY(pdf.startsWith("%PDF"));
        QCOMPARE(pdf.count("/Type /Page\n") + pdf.count("/Type /Page\r") +
                     pdf.count("/Type /Page "),
                 qsizetype(1));
    }

    void optionsReachThePicture()
    {
        // compare view is taller than the timeline alone; no title, legend, caption is shorter
        const auto height = [&](const std::function<void(ExportDialog &)> &setUp) {
            const QString path = file(QStringLiteral("h.png"));
            QFile::remove(path);
            exportWith([&](ExportDialog &d) {
                d.setPath(path);
                part<QSpinBox>(d, "width")->setValue(640);
                setUp(d);
            });
            return QImage(path).height();
        };
        const int plain = height([](ExportDialog &) {});
        const int compare =
            height([](ExportDialog &d) { part<QComboBox>(d, "content")->setCurrentIndex(1); });
        const int bare = height([](ExportDialog &d) {
            // the dialog remembers the last export's choices: compare is still on
            QCOMPARE(part<QComboBox>(d, "content")->currentIndex(), 1);
            part<QComboBox>(d, "content")->setCurrentIndex(0);
            part<QCheckBox>(d, "title")->setChecked(false);
            part<QCheckBox>(d, "legend")->setChecked(false);
            part<QCheckBox>(d, "caption")->setChecked(false);
            part<QCheckBox>(d, "explain")->setChecked(false);
        });
        QVERIFY2(plain > 0 && compare > plain + 200,
                 qPrintable(QStringLiteral("%1 %2").arg(plain).arg(compare)));
        QVERIFY2(bare > 0 && bare < plain - 100,
                 qPrintable(QStringLiteral("%1 %2").arg(bare).arg(plain)));

        // the window's dark theme instead of print
        window().setThemeByName(QStringLiteral("dark"));
        const QString dark = file(QStringLiteral("dark.png"));
        exportWith([&](ExportDialog &d) {
            d.setPath(dark);
            part<QComboBox>(d, "theme")->setCurrentIndex(1);
            part<QSpinBox>(d, "width")->setValue(640);
        });
        QCOMPARE(QImage(dark).pixelColor(2, 2), Theme::dark().background);
        window().setThemeByName(QStringLiteral("light"));
    }

    void visibleRangeIsWhatIsOnScreen()
    {
        // zoom in: the visible range is a part of the run
        window().viewState()->setAxis(10, 60);
        const auto range = part<ExportController>(window())->visibleTickRange();
        QVERIFY(range);
        QCOMPARE(range->first, 10.0);
        QVERIFY(range->second > 10 && range->second < 40);
        ExportOptions chosen;
        QVERIFY(exportWith([&](ExportDialog &d) {
            d.setPath(file(QStringLiteral("zoomed.png")));
            part<QComboBox>(d, "range")->setCurrentIndex(1);
            chosen = d.options();
        }));
        QVERIFY(chosen.fromTick && chosen.toTick);
        QCOMPARE(*chosen.fromTick, range->first);
        QCOMPARE(*chosen.toTick, range->second);
        QVERIFY(QFile::exists(file(QStringLiteral("zoomed.png"))));
    }

    // A target the exporter cannot write keeps the dialog open: the reason is under the form,
    // naming the file, and nothing was written (by the dialog or, afterwards, the window).
    void unwritablePathKeepsTheDialogOpenAndLeavesNoFile()
    {
        // a folder that is a file: fails for every user, root included
        QFile blocker(file(QStringLiteral("not-a-folder")));
        QVERIFY(blocker.open(QIODevice::WriteOnly));
        blocker.close();
        const QString path = file(QStringLiteral("not-a-folder/slide.png"));
        const QString error = refusedExport(path);
        QVERIFY2(error.contains(QStringLiteral("not-a-folder/slide.png")), qPrintable(error));
        QVERIFY(!QFile::exists(path));
    }

    void readOnlyFolderKeepsTheDialogOpenAndLeavesNoFile()
    {
        if (::geteuid() == 0) {
            // permissions do not stop root, but sysfs refuses to create files for anyone
            const QString path = QStringLiteral("/sys/fencescope-slide.pdf");
            const QString error = refusedExport(path);
            QVERIFY2(error.contains(QStringLiteral("cannot write")), qPrintable(error));
            QVERIFY(error.contains(path));
            QVERIFY(!QFile::exists(path));
            return;
        }
        const QString ro = file(QStringLiteral("readonly"));
        QVERIFY(QDir().mkpath(ro));
        QVERIFY(QFile::setPermissions(ro, QFile::ReadOwner | QFile::ExeOwner));
        const QString path = ro + QStringLiteral("/slide.pdf");
        const QString error = refusedExport(path);
        QFile::setPermissions(ro, QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
        QVERIFY(!QFile::exists(path));
        QVERIFY(QDir(ro).entryList(QDir::Files | QDir::Hidden).isEmpty()); // no temporary left
        QVERIFY2(error.contains(QStringLiteral("cannot write")), qPrintable(error));
    }

    // After a failed export every choice is still as it was, and fixing the path is enough.
    void failedExportKeepsEverySetting()
    {
        QFile blocker(file(QStringLiteral("blocker")));
        QVERIFY(blocker.open(QIODevice::WriteOnly));
        blocker.close();
        bool stillOpen = false;
        QString error;
        const QString good = file(QStringLiteral("fixed.svg"));
        scripted(window()).setExportHandler([&](ExportDialog &d) {
            part<QComboBox>(d, "format")->setCurrentIndex(3); // SVG
            part<QSpinBox>(d, "width")->setValue(1000);
            part<QComboBox>(d, "theme")->setCurrentIndex(1);
            part<QCheckBox>(d, "legend")->setChecked(false);
            part<QLineEdit>(d, "captionText")->setText(QStringLiteral("My caption"));
            d.setPath(file(QStringLiteral("blocker/slide.svg")));
            d.accept();
            stillOpen = d.result() != QDialog::Accepted;
            error = d.errorText();
            [&] {
                QCOMPARE(part<QComboBox>(d, "format")->currentIndex(), 3);
                QCOMPARE(part<QSpinBox>(d, "width")->value(), 1000);
                QCOMPARE(part<QComboBox>(d, "theme")->currentIndex(), 1);
                QVERIFY(!part<QCheckBox>(d, "legend")->isChecked());
                QVERIFY(part<QCheckBox>(d, "title")->isChecked());
                QCOMPARE(part<QLineEdit>(d, "captionText")->text(), QStringLiteral("My caption"));
                QCOMPARE(d.path(), file(QStringLiteral("blocker/slide.svg")));
            }();
            d.setPath(good);
            d.accept();
            return d.result() == QDialog::Accepted;
        });
        window().findChild<QAction *>(QStringLiteral("export"))->trigger();
        QVERIFY(stillOpen);
        QVERIFY2(error.contains(QStringLiteral("blocker/slide.svg")), qPrintable(error));
        bool ok = false;
        QVERIFY(svgTexts(readAll(good), &ok).contains(QStringLiteral("My caption")));
        QVERIFY(ok);
        QVERIFY(scripted(window()).lastError().isEmpty());
    }

    // An account without a Pictures folder: the dialog offers it anyway, made on the spot.
    void missingPicturesFolderIsCreated()
    {
        const QString home = file(QStringLiteral("home"));
        QVERIFY(QDir().mkpath(home));
        HomeAt at(home);
        const QString pictures = QStandardPaths::writableLocation(QStandardPaths::PicturesLocation);
        QVERIFY2(pictures.startsWith(home), qPrintable(pictures)); // the case under test
        QVERIFY(!QFileInfo::exists(pictures));
        const QString path = pathOffered();
        QCOMPARE(QFileInfo(path).absolutePath(), pictures);
        QVERIFY(QFileInfo(pictures).isDir());
        QVERIFY(exportWith([](ExportDialog &) {}));
        QVERIFY(QFile::exists(path));
    }

    // Pictures cannot be made (a file has its name): Documents; neither: the home folder.
    void noPicturesFallsBackToDocumentsThenHome()
    {
        const QString home = file(QStringLiteral("home"));
        QVERIFY(QDir().mkpath(home));
        HomeAt at(home);
        const QString pictures = QStandardPaths::writableLocation(QStandardPaths::PicturesLocation);
        const QString documents =
            QStandardPaths::writableLocation(QStandardPaths::DocumentsLocation);
        QVERIFY(pictures.startsWith(home) && documents.startsWith(home));
        QFile inTheWay(pictures);
        QVERIFY(inTheWay.open(QIODevice::WriteOnly));
        inTheWay.close();
        QCOMPARE(QFileInfo(pathOffered()).absolutePath(), documents);
        QVERIFY(QFileInfo(documents).isDir());
        QVERIFY(QDir(documents).removeRecursively());
        QFile alsoInTheWay(documents);
        QVERIFY(alsoInTheWay.open(QIODevice::WriteOnly));
        alsoInTheWay.close();
        QCOMPARE(QFileInfo(pathOffered()).absolutePath(), QDir(home).absolutePath());
        QVERIFY(exportWith([](ExportDialog &) {}));
        QVERIFY(QFile::exists(QDir(home).filePath(QStringLiteral("fencescope.png"))));
    }

    // The last export's format, scale, width, theme, checkboxes and folder come back when the
    // dialog opens again, and after a restart (a new window, the settings on disk).
    void settingsSurviveReopeningAndRestart()
    {
        const QString folder = file(QStringLiteral("slides"));
        QVERIFY(QDir().mkpath(folder));
        QVERIFY(exportWith([&](ExportDialog &d) {
            d.setPath(QDir(folder).filePath(QStringLiteral("one.png")));
            part<QComboBox>(d, "format")->setCurrentIndex(1); // PNG 2x
            part<QSpinBox>(d, "width")->setValue(1280);
            part<QComboBox>(d, "theme")->setCurrentIndex(1);
            part<QCheckBox>(d, "title")->setChecked(false);
            part<QCheckBox>(d, "caption")->setChecked(false);
        }));
        QVERIFY(QFile::exists(QDir(folder).filePath(QStringLiteral("one.png"))));
        // a cancelled dialog remembers nothing
        scripted(window()).setExportHandler([](ExportDialog &d) {
            part<QSpinBox>(d, "width")->setValue(640);
            part<QCheckBox>(d, "legend")->setChecked(false);
            return false;
        });
        window().findChild<QAction *>(QStringLiteral("export"))->trigger();
        const auto expectRemembered = [&](const char *when) {
            bool seen = false;
            scripted(window()).setExportHandler([&](ExportDialog &d) {
                seen = true;
                [&] {
                    QCOMPARE(part<QComboBox>(d, "format")->currentIndex(), 1);
                    QCOMPARE(d.options().scale, 2.0);
                    QCOMPARE(part<QSpinBox>(d, "width")->value(), 1280);
                    QCOMPARE(part<QComboBox>(d, "theme")->currentIndex(), 1);
                    QVERIFY(!part<QCheckBox>(d, "title")->isChecked());
                    QVERIFY(part<QCheckBox>(d, "legend")->isChecked());
                    QVERIFY(!part<QCheckBox>(d, "caption")->isChecked());
                    QCOMPARE(QFileInfo(d.path()).absolutePath(), folder);
                    QVERIFY(d.path().endsWith(QStringLiteral(".png")));
                }();
                return false;
            });
            window().findChild<QAction *>(QStringLiteral("export"))->trigger();
            scripted(window()).setExportHandler({});
            QVERIFY2(seen, when);
        };
        expectRemembered("reopened");
        if (QTest::currentTestFailed())
            return;
        newWindow(); // a new run
        expectRemembered("restarted");
        // the settings themselves, as written
        QSettings settings;
        settings.beginGroup(ExportDialog::settingsGroup());
        QCOMPARE(settings.value(QStringLiteral("format")).toString(), QStringLiteral("png"));
        QCOMPARE(settings.value(QStringLiteral("width")).toInt(), 1280);
        QCOMPARE(settings.value(QStringLiteral("theme")).toString(), QStringLiteral("window"));
    }

    void emptyPathKeepsTheDialogOpen()
    {
        QVERIFY(!exportWith([&](ExportDialog &d) { d.setPath(QString()); }));
        QVERIFY(scripted(window()).lastError().isEmpty());
    }

    void copyAsImagePutsThePictureOnTheClipboard()
    {
        QGuiApplication::clipboard()->clear();
        QTest::keyClick(&window(), Qt::Key_C, Qt::ControlModifier | Qt::ShiftModifier);
        QImage image = QGuiApplication::clipboard()->image();
        QVERIFY(!image.isNull());
        QCOMPARE(image.width(), 1920); // defaults: 1920 px at 1x

        // after an export, the clipboard gets the same picture as the export
        QVERIFY(exportWith([&](ExportDialog &d) {
            d.setPath(file(QStringLiteral("x.png")));
            part<QComboBox>(d, "format")->setCurrentIndex(1); // 2x
            part<QSpinBox>(d, "width")->setValue(700);
        }));
        window().findChild<QAction *>(QStringLiteral("copyImage"))->trigger();
        image = QGuiApplication::clipboard()->image();
        QCOMPARE(image.width(), 1400);
        QCOMPARE(image.size(), QImage(file(QStringLiteral("x.png"))).size());
    }

    void storyboardOfEveryEventAsNumberedPngs()
    {
        const QString folder = file(QStringLiteral("frames"));
        QVERIFY(exportWith(
            [&](ExportDialog &d) {
                d.setPath(folder);
                part<QSpinBox>(d, "width")->setValue(640);
                QCOMPARE(d.frameTicks(), (std::vector<Core::Tick>{0, 1, 5, 12, 13, 30}));
            },
            "exportStoryboard"));
        QVERIFY2(scripted(window()).lastError().isEmpty(),
                 qPrintable(scripted(window()).lastError()));
        const QStringList frames =
            QDir(folder).entryList({QStringLiteral("*.png")}, QDir::Files, QDir::Name);
        QCOMPARE(frames,
                 (QStringList{QStringLiteral("frame-01.png"), QStringLiteral("frame-02.png"),
                              QStringLiteral("frame-03.png"), QStringLiteral("frame-04.png"),
                              QStringLiteral("frame-05.png"), QStringLiteral("frame-06.png")}));
        QCOMPARE(QImage(QDir(folder).filePath(frames.front())).width(), 640);
    }

    void storyboardOfChosenTicksAsOnePdf()
    {
        const QString path = file(QStringLiteral("story.pdf"));
        QVERIFY(exportWith(
            [&](ExportDialog &d) {
                part<QComboBox>(d, "format")->setCurrentIndex(1);
                d.setPath(path);
                part<QComboBox>(d, "frames")->setCurrentIndex(1);
                part<QLineEdit>(d, "ticks")->setText(QStringLiteral("0, 13 30"));
            },
            "exportStoryboard"));
        const QByteArray pdf = readAll(path);
        QVERIFY(pdf.startsWith("%PDF"));
        const qsizetype pages =
            pdf.count(QByteArray("/Type /Page\n")) + pdf.count(QByteArray("/Type /Page "));
        QCOMPARE(pages, qsizetype(3));
    }

    void storyboardRefusesABadTickList()
    {
        const QString path = file(QStringLiteral("bad.pdf"));
        QVERIFY(!exportWith(
            [&](ExportDialog &d) {
                part<QComboBox>(d, "format")->setCurrentIndex(1);
                d.setPath(path);
                part<QComboBox>(d, "frames")->setCurrentIndex(1);
                part<QLineEdit>(d, "ticks")->setText(QStringLiteral("0, soon"));
            },
            "exportStoryboard"));
        QVERIFY(!QFile::exists(path));
    }

    // Both dialogs render offscreen with their preview (and can be looked at).
    void screenshot()
    {
        // renders every time (a real offscreen render must succeed); the files are kept in
        // FENCESCOPE_SCREENSHOT_DIR when it is set, e.g. to refresh docs/screenshots
        QTemporaryDir scratch;
        const QString dir = qEnvironmentVariableIsEmpty("FENCESCOPE_SCREENSHOT_DIR")
                                ? scratch.path()
                                : qEnvironmentVariable("FENCESCOPE_SCREENSHOT_DIR");
        scripted(window()).setExportHandler([&](ExportDialog &d) {
            d.show();
            d.refreshPreview();
            QTest::qWait(50);
            const QImage shot = d.grab().toImage();
            [&] { QVERIFY(shot.width() > 300 && shot.height() > 200); }();
            shot.save(dir + QStringLiteral("/export-dialog.png"));
            return false;
        });
        window().findChild<QAction *>(QStringLiteral("export"))->trigger();
        scripted(window()).setExportHandler([&](ExportDialog &d) {
            d.show();
            d.refreshPreview();
            QTest::qWait(50);
            const QImage shot = d.grab().toImage();
            [&] { QVERIFY(shot.width() > 300 && shot.height() > 100); }();
            shot.save(dir + QStringLiteral("/storyboard-dialog.png"));
            return false;
        });
        window().findChild<QAction *>(QStringLiteral("exportStoryboard"))->trigger();
    }
};

QTEST_MAIN(TestExportDialog)
#include "tst_exportdialog.moc"
