// The source tree's dependency rules, read from the files themselves: data flows one way
// (core -> live -> ui/render -> ui/media -> ui/document -> ui/views -> ui/window), so a file
// may include headers of its own folder and of folders to its left, never to its right. A slip
// (a document including a view, the core including QtGui) fails here with the file and the
// include named. For ui/document, ui/views and ui/window the build is the first net: each is a
// library that sees only the folders of what it links (ui/CMakeLists.txt, tests/layers/); this
// is the second, and the one for the folders whose headers are included by name alone.

#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QRegularExpression>
#include <QSet>
#include <QTest>

namespace {

const QString kRoot = QStringLiteral(FENCESCOPE_SOURCE_DIR);

// Folders in the order data flows; each may use only those before it (and itself).
// (poll/, the room's vote, uses nothing of the others; the window uses it.)
const QStringList kLayers = {QStringLiteral("core"),     QStringLiteral("live"),
                             QStringLiteral("poll"),     QStringLiteral("ui/render"),
                             QStringLiteral("ui/media"), QStringLiteral("ui/document"),
                             QStringLiteral("ui/views"), QStringLiteral("ui/window")};

QStringList sourcesIn(const QString &folder)
{
    QStringList files;
    QDirIterator it(kRoot + QLatin1Char('/') + folder,
                    {QStringLiteral("*.cpp"), QStringLiteral("*.h")}, QDir::Files,
                    QDirIterator::Subdirectories);
    while (it.hasNext())
        files << it.next();
    files.sort();
    return files;
}

// The quoted and the angle-bracket includes of a file.
QStringList includesOf(const QString &path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    static const QRegularExpression include(
        QStringLiteral("^\\s*#\\s*include\\s*[<\"]([^>\"]+)[>\"]"),
        QRegularExpression::MultilineOption);
    QStringList names;
    auto it = include.globalMatch(QString::fromUtf8(f.readAll()));
    while (it.hasNext())
        names << it.next().captured(1);
    return names;
}

// Header file name -> the layer that holds it.
QHash<QString, int> headerLayers()
{
    QHash<QString, int> layer;
    for (int i = 0; i < kLayers.size(); ++i)
        for (const QString &file : sourcesIn(kLayers[i]))
            if (file.endsWith(QLatin1String(".h")))
                layer.insert(QFileInfo(file).fileName(), i);
    return layer;
}

// Calls that run a simulation in a file, comments left out: Core::simulate, a Simulator made,
// or one driven by runBefore or summarize.
QStringList simulationsIn(const QString &path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    static const QRegularExpression comment(QStringLiteral("//[^\n]*"));
    static const QRegularExpression call(
        QStringLiteral("(\\bsimulate\\s*\\(|\\bSimulator\\s*[({]|\\bSimulator::kNoCheckpoints|"
                       "\\.runBefore\\s*\\(|\\.summarize\\s*\\()"));
    const QString text = QString::fromUtf8(f.readAll()).remove(comment);
    QStringList found;
    auto it = call.globalMatch(text);
    while (it.hasNext())
        found << it.next().captured(1);
    return found;
}

// A QSaveFile of a file's own, comments left out.
bool usesSaveFile(const QString &path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return false;
    static const QRegularExpression comment(QStringLiteral("//[^\n]*"));
    static const QRegularExpression saveFile(QStringLiteral("\\bQSaveFile\\b"));
    return QString::fromUtf8(f.readAll()).remove(comment).contains(saveFile);
}

} // namespace

class TestStructure : public QObject
{
    Q_OBJECT
private slots:
    void everyLayerHasFiles()
    {
        for (const QString &folder : kLayers)
            QVERIFY2(sourcesIn(folder).size() >= 3, qPrintable(folder));
    }

    void headerNamesAreUnique()
    {
        // flat includes ("document.h") are only unambiguous while no two folders share a name
        QHash<QString, QString> seen;
        for (const QString &folder : kLayers) {
            for (const QString &file : sourcesIn(folder)) {
                const QString name = QFileInfo(file).fileName();
                if (!name.endsWith(QLatin1String(".h")))
                    continue;
                QVERIFY2(!seen.contains(name),
                         qPrintable(name + QStringLiteral(" is in ") + seen.value(name) +
                                    QStringLiteral(" and in ") + folder));
                seen.insert(name, folder);
            }
        }
    }

    void uiIncludesNameTheirFolder()
    {
        // a header of ui/document, ui/views or ui/window is included as "<folder>/<name>.h",
        // from everywhere: the build finds it only so, through the include roots of the
        // libraries a target links (ui/CMakeLists.txt); and no include climbs out ("../")
        const QStringList ui = {QStringLiteral("document"), QStringLiteral("views"),
                                QStringLiteral("window")};
        QHash<QString, QString> folderOf;
        for (const QString &folder : ui)
            for (const QString &file : sourcesIn(QStringLiteral("ui/") + folder))
                if (file.endsWith(QLatin1String(".h")))
                    folderOf.insert(QFileInfo(file).fileName(), folder);
        QStringList wrong;
        for (const QString &top : {QStringLiteral("ui"), QStringLiteral("app"),
                                   QStringLiteral("tests"), QStringLiteral("bench")}) {
            for (const QString &file : sourcesIn(top)) {
                for (const QString &inc : includesOf(file)) {
                    const QString name = QFileInfo(inc).fileName();
                    const bool named = !folderOf.contains(name) ||
                                       inc == folderOf.value(name) + QLatin1Char('/') + name;
                    if (!named || inc.contains(QLatin1String("../")))
                        wrong << QDir(kRoot).relativeFilePath(file) + QStringLiteral(" includes ") +
                                     inc;
                }
            }
        }
        QVERIFY2(wrong.isEmpty(), qPrintable(wrong.join(QLatin1Char('\n'))));
    }

    void fastloadIncludesNameTheFolder()
    {
        // core/fastload/ is the loader's speed machinery behind one header (fastload.h): its
        // headers are included as "fastload/<name>.h", from its own files too (where a bare
        // name would be found beside them), so every include that reaches into it says so
        QSet<QString> names;
        for (const QString &file : sourcesIn(QStringLiteral("core/fastload")))
            if (file.endsWith(QLatin1String(".h")))
                names.insert(QFileInfo(file).fileName());
        QVERIFY(names.contains(QStringLiteral("fastload.h")));
        QStringList wrong;
        for (const QString &top :
             {QStringLiteral("core"), QStringLiteral("live"), QStringLiteral("ui"),
              QStringLiteral("app"), QStringLiteral("tests"), QStringLiteral("bench"),
              QStringLiteral("fuzz")}) {
            for (const QString &file : sourcesIn(top)) {
                for (const QString &inc : includesOf(file)) {
                    const QString name = QFileInfo(inc).fileName();
                    if (names.contains(name) && inc != QStringLiteral("fastload/") + name)
                        wrong << QDir(kRoot).relativeFilePath(file) + QStringLiteral(" includes ") +
                                     inc;
                }
            }
        }
        QVERIFY2(wrong.isEmpty(), qPrintable(wrong.join(QLatin1Char('\n'))));
    }

    void theRestOfCoreReachesFastloadAtItsSeam()
    {
        // the loader's simple path reads as if the speed machinery did not exist: the entry
        // points reach it through its one header, the reader through the interface the parts
        // share with it, the simulator for the memory hints its big lists share; nothing else
        // in core reaches into core/fastload/
        const QHash<QString, QString> allowed = {
            {QStringLiteral("core/scenariofile.cpp"), QStringLiteral("fastload/fastload.h")},
            {QStringLiteral("core/scenariofileread.cpp"), QStringLiteral("fastload/parts.h")},
            {QStringLiteral("core/simulatorimpl.h"), QStringLiteral("fastload/memoryhints.h")},
        };
        QStringList wrong;
        int reached = 0;
        for (const QString &file : sourcesIn(QStringLiteral("core"))) {
            const QString rel = QDir(kRoot).relativeFilePath(file);
            if (rel.startsWith(QLatin1String("core/fastload/")))
                continue;
            for (const QString &inc : includesOf(file)) {
                if (!inc.startsWith(QLatin1String("fastload/")))
                    continue;
                if (allowed.value(rel) == inc)
                    ++reached;
                else
                    wrong << rel + QStringLiteral(" includes ") + inc;
            }
        }
        QVERIFY2(wrong.isEmpty(), qPrintable(wrong.join(QLatin1Char('\n'))));
        QCOMPARE(reached, 3);
    }

    void includesPointLeftOnly()
    {
        const QHash<QString, int> layer = headerLayers();
        QStringList wrong;
        for (int i = 0; i < kLayers.size(); ++i) {
            for (const QString &file : sourcesIn(kLayers[i])) {
                for (const QString &inc : includesOf(file)) {
                    const QString name = QFileInfo(inc).fileName();
                    if (layer.contains(name) && layer.value(name) > i)
                        wrong << QDir(kRoot).relativeFilePath(file) + QStringLiteral(" includes ") +
                                     inc + QStringLiteral(" of ") + kLayers[layer.value(name)];
                }
            }
        }
        QVERIFY2(wrong.isEmpty(), qPrintable(wrong.join(QLatin1Char('\n'))));
    }

    void qtModulesPerLayer()
    {
        // the core is QtCore only; the render library has no widgets (the CLI draws with it)
        const auto check = [](const QString &folder, const QStringList &forbidden) {
            QStringList wrong;
            for (const QString &file : sourcesIn(folder))
                for (const QString &inc : includesOf(file))
                    for (const QString &prefix : forbidden)
                        if (inc.startsWith(prefix))
                            wrong << QDir(kRoot).relativeFilePath(file) + QStringLiteral(": ") +
                                         inc;
            return wrong;
        };
        const QStringList widgets = {
            QStringLiteral("QtWidgets"),    QStringLiteral("QWidget"),
            QStringLiteral("QApplication"), QStringLiteral("QDialog"),
            QStringLiteral("QMainWindow"),  QStringLiteral("QAbstractButton")};
        QStringList gui = widgets;
        gui << QStringLiteral("QtGui") << QStringLiteral("QPainter") << QStringLiteral("QImage")
            << QStringLiteral("QColor") << QStringLiteral("QFont")
            << QStringLiteral("QGuiApplication");
        const QStringList coreWrong = check(QStringLiteral("core"), gui);
        QVERIFY2(coreWrong.isEmpty(), qPrintable(coreWrong.join(QLatin1Char('\n'))));
        // a live run (real etcd, real processes) has no GUI either: the CLI's helper runs it
        const QStringList liveWrong = check(QStringLiteral("live"), gui);
        QVERIFY2(liveWrong.isEmpty(), qPrintable(liveWrong.join(QLatin1Char('\n'))));
        // nor the room poll's server: the projector draws its QR code
        const QStringList pollWrong = check(QStringLiteral("poll"), gui);
        QVERIFY2(pollWrong.isEmpty(), qPrintable(pollWrong.join(QLatin1Char('\n'))));
        const QStringList renderWrong = check(QStringLiteral("ui/render"), widgets);
        QVERIFY2(renderWrong.isEmpty(), qPrintable(renderWrong.join(QLatin1Char('\n'))));
        // the media library too: the CLI's picture helper writes animations with it
        const QStringList mediaWrong = check(QStringLiteral("ui/media"), widgets);
        QVERIFY2(mediaWrong.isEmpty(), qPrintable(mediaWrong.join(QLatin1Char('\n'))));
        // the document has no widgets of its own (fencescope_document links QtGui, not
        // QtWidgets; a "QtWidgets/..." include would still find the header, so look here too)
        const QStringList documentWrong = check(QStringLiteral("ui/document"), widgets);
        QVERIFY2(documentWrong.isEmpty(), qPrintable(documentWrong.join(QLatin1Char('\n'))));
    }

    void renderSimulatesNothing()
    {
        // The exporter, the handout and the passes draw the runs they are handed (ExportRuns,
        // the Document's traces): a picture or a preview refresh runs no simulation. A run cut
        // at a playhead is core's to make (Core::runBefore); no simulator is driven here.
        QStringList wrong;
        for (const QString &file : sourcesIn(QStringLiteral("ui/render")))
            for (const QString &call : simulationsIn(file))
                wrong << QDir(kRoot).relativeFilePath(file) + QStringLiteral(": ") + call;
        QVERIFY2(wrong.isEmpty(), qPrintable(wrong.join(QLatin1Char('\n'))));
        // the scan itself: the core's own simulator is found, the exporter's words are not
        QVERIFY(!simulationsIn(kRoot + QStringLiteral("/core/simulator.cpp")).isEmpty());
        QVERIFY(!simulationsIn(kRoot + QStringLiteral("/ui/media/animation.cpp")).isEmpty());
    }

    void everySaveGoesThroughSaveWhole()
    {
        // A file is written whole and its folder flushed after the rename by Core::saveWhole
        // (core/savefile.h), which tests/media/tst_folderflush sees flush: a QSaveFile of its
        // own anywhere else, the build's tools in app/ too, would leave the folder unflushed.
        const QString owner = kRoot + QStringLiteral("/core/savefile.cpp");
        QStringList wrong;
        for (const QString &top :
             {QStringLiteral("core"), QStringLiteral("live"), QStringLiteral("poll"),
              QStringLiteral("ui"), QStringLiteral("app")})
            for (const QString &file : sourcesIn(top))
                if (file != owner && usesSaveFile(file))
                    wrong << QDir(kRoot).relativeFilePath(file);
        QVERIFY2(wrong.isEmpty(), qPrintable(wrong.join(QLatin1Char('\n'))));
        // the scan itself: saveWhole's own QSaveFile is found
        QVERIFY(usesSaveFile(owner));
    }

    void viewsAndWindowSimulateNothing()
    {
        // The view never simulates (STYLE.md "One direction of data"): the views and the window
        // draw and judge the runs the Document and the lesson session hold (Document::trace,
        // LessonSession::play and sceneRun), which ask core for them.
        QStringList wrong;
        for (const QString &folder : {QStringLiteral("ui/views"), QStringLiteral("ui/window")})
            for (const QString &file : sourcesIn(folder))
                for (const QString &call : simulationsIn(file))
                    wrong << QDir(kRoot).relativeFilePath(file) + QStringLiteral(": ") + call;
        QVERIFY2(wrong.isEmpty(), qPrintable(wrong.join(QLatin1Char('\n'))));
    }

    void theRuleCatchesAWrongInclude()
    {
        // the scan itself: a header of ui/views, named from a file of ui/document, is found
        const QHash<QString, int> layer = headerLayers();
        QCOMPARE(layer.value(QStringLiteral("timelineview.h"), -1), 6);
        QCOMPARE(layer.value(QStringLiteral("document.h"), -1), 5);
        QCOMPARE(layer.value(QStringLiteral("mainwindow.h"), -1), 7);
        QCOMPARE(layer.value(QStringLiteral("liverun.h"), -1), 1);
        QCOMPARE(layer.value(QStringLiteral("pollroom.h"), -1), 2);
        QCOMPARE(layer.value(QStringLiteral("animation.h"), -1), 4);
        QVERIFY(includesOf(kRoot + QStringLiteral("/ui/views/timelineview.cpp"))
                    .contains(QStringLiteral("document/document.h")));
    }
};

QTEST_GUILESS_MAIN(TestStructure)
#include "tst_structure.moc"
