// fencescope-cli export and storyboard, run as a user would: real binary, real files. The CLI
// hands them to its picture helper (app/cli.cpp); the other commands never load QtGui.

#include "cliprocess.h"

#include <QDir>
#include <QFile>
#include <QImage>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

namespace {

using Run = CliProcess::Result;

Run runProgram(const QString &program, const QStringList &args,
               const QProcessEnvironment &extra = {})
{
    CliProcess::Options o;
    o.noDisplay = true; // the CLI must manage without a display
    o.extra = extra;
    o.timeoutMs = 60000;
    return CliProcess::run(program, args, o);
}

Run cli(const QStringList &args)
{
    return runProgram(QStringLiteral(FENCESCOPE_CLI), args);
}

// The shared libraries a program loads, as the dynamic loader lists them (what ldd prints),
// without running it.
QByteArray loadedLibraries(const QString &program)
{
    QProcessEnvironment env;
    env.insert(QStringLiteral("LD_TRACE_LOADED_OBJECTS"), QStringLiteral("1"));
    return runProgram(program, {}, env).out;
}

QString scenario(const QString &name)
{
    return QStringLiteral(FENCESCOPE_SOURCE_DIR "/resources/scenarios/%1.json").arg(name);
}

} // namespace

class TestCliExport : public QObject
{
    Q_OBJECT
private slots:
    void pngWithWidthAndScale()
    {
        QTemporaryDir dir;
        const QString out = dir.filePath(QStringLiteral("slide.png"));
        const Run r = cli({QStringLiteral("export"), scenario(QStringLiteral("default")),
                           QStringLiteral("-o"), out, QStringLiteral("--width"),
                           QStringLiteral("1000"), QStringLiteral("--scale"), QStringLiteral("2")});
        QCOMPARE(r.exitCode, 0);
        QVERIFY(r.err.isEmpty());
        const QImage image(out);
        QCOMPARE(image.width(), 2000);
        QVERIFY(image.height() > 400);
    }

    // --slide: a page of exactly width x width*9/16 (README, "Export, slides and presentation
    // mode"). At the default width of 1920: 1080. A tall compare (three-owners, four lanes twice:
    // 1920 x 1125 at the smallest text) and a narrow one (1024 wide, 576 high, at scale 2) are
    // drawn smaller as a whole, not cut, not made taller.
    void slideIsSixteenByNine_data()
    {
        QTest::addColumn<QString>("preset");
        QTest::addColumn<QStringList>("options");
        QTest::addColumn<QSize>("size");
        QTest::newRow("default") << QStringLiteral("default") << QStringList() << QSize(1920, 1080);
        QTest::newRow("compare") << QStringLiteral("default")
                                 << QStringList{QStringLiteral("--compare")} << QSize(1920, 1080);
        QTest::newRow("tall compare")
            << QStringLiteral("three-owners") << QStringList{QStringLiteral("--compare")}
            << QSize(1920, 1080);
        QTest::newRow("narrow compare, 2x")
            << QStringLiteral("default")
            << QStringList{QStringLiteral("--compare"), QStringLiteral("--width"),
                           QStringLiteral("1024"), QStringLiteral("--scale"), QStringLiteral("2")}
            << QSize(2048, 1152);
    }
    void slideIsSixteenByNine()
    {
        QFETCH(QString, preset);
        QFETCH(QStringList, options);
        QFETCH(QSize, size);
        QTemporaryDir dir;
        const QString out = dir.filePath(QStringLiteral("slide.png"));
        const Run r = cli(QStringList{QStringLiteral("export"), scenario(preset),
                                      QStringLiteral("-o"), out, QStringLiteral("--slide")} +
                          options);
        QCOMPARE(r.exitCode, 0);
        const QImage image(out);
        QCOMPARE(image.size(), size);
        // whole, not cut: the page's outermost rows and columns are the print theme's white
        const QColor white(Qt::white);
        for (int x = 0; x < image.width(); x += 7) {
            QCOMPARE(image.pixelColor(x, 0), white);
            QCOMPARE(image.pixelColor(x, image.height() - 1), white);
        }
        for (int y = 0; y < image.height(); y += 7) {
            QCOMPARE(image.pixelColor(0, y), white);
            QCOMPARE(image.pixelColor(image.width() - 1, y), white);
        }
    }

    void svgAndPdfAndCompare()
    {
        QTemporaryDir dir;
        const QString svg = dir.filePath(QStringLiteral("c.svg"));
        Run r = cli({QStringLiteral("export"), scenario(QStringLiteral("three-owners")),
                     QStringLiteral("-o"), svg, QStringLiteral("--compare"),
                     QStringLiteral("--theme"), QStringLiteral("dark")});
        QCOMPARE(r.exitCode, 0);
        QFile f(svg);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QByteArray text = f.readAll();
        QVERIFY(text.startsWith("<?xml"));
        QVERIFY(text.contains(">C<") || text.contains("C</text>"));

        const QString pdf = dir.filePath(QStringLiteral("p.pdf"));
        r = cli({QStringLiteral("export"), scenario(QStringLiteral("default")), QStringLiteral("-o"),
                 pdf, QStringLiteral("--fencing"), QStringLiteral("off"), QStringLiteral("--at"),
                 QStringLiteral("13")});
        QCOMPARE(r.exitCode, 0);
        QFile p(pdf);
        QVERIFY(p.open(QIODevice::ReadOnly));
        QVERIFY(p.readAll().startsWith("%PDF"));
    }

    void storyboardEveryEventAndAtList()
    {
        QTemporaryDir dir;
        const QString folder = dir.filePath(QStringLiteral("frames"));
        Run r = cli({QStringLiteral("storyboard"), scenario(QStringLiteral("default")),
                     QStringLiteral("-o"), folder, QStringLiteral("--every-event")});
        QCOMPARE(r.exitCode, 0);
        // six distinct event ticks in the default scenario: 0, 1, 5, 12, 13, 30
        QCOMPARE(QDir(folder).entryList(QDir::Files).size(), 6);
        QCOMPARE(r.out.count('\n'), 6);

        const QString pdf = dir.filePath(QStringLiteral("story.pdf"));
        r = cli({QStringLiteral("storyboard"), scenario(QStringLiteral("default")),
                 QStringLiteral("-o"), pdf, QStringLiteral("--at"), QStringLiteral("0,12,30")});
        QCOMPARE(r.exitCode, 0);
        QFile f(pdf);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QByteArray bytes = f.readAll();
        QCOMPARE(int(bytes.count("/Type /Page\n") + bytes.count("/Type /Page ") +
                     bytes.count("/Type /Page>") + bytes.count("/Type /Page/")),
                 3);
    }

    // Each picture option, as two words or joined by "=", draws the same picture in export and
    // in storyboard, and a different one from the picture without it: both forms are read, and
    // read alike, by every command that has the option.
    void pictureOptionForms_data()
    {
        QTest::addColumn<QString>("command");
        QTest::addColumn<QString>("option");
        QTest::addColumn<QString>("value"); // empty: a switch
        const QList<QPair<const char *, const char *>> options = {
            {"--fencing", "off"}, {"--width", "1000"}, {"--scale", "2"},    {"--from", "5"},
            {"--to", "20"},       {"--theme", "dark"}, {"--caption", "Hi"}, {"--at", "13"},
            {"--compare", ""},    {"--no-title", ""},  {"--no-legend", ""}, {"--no-caption", ""}};
        for (const char *command : {"export", "storyboard"}) {
            for (const auto &o : options)
                QTest::newRow(qPrintable(QStringLiteral("%1 %2").arg(command, o.first)))
                    << command << o.first << o.second;
        }
    }
    void pictureOptionForms()
    {
        QFETCH(QString, command);
        QFETCH(QString, option);
        QFETCH(QString, value);
        QTemporaryDir dir;
        int runs = 0;
        // the picture's bytes; storyboard's frames one after the other
        const auto picture = [&](const QStringList &extra) {
            const bool story = command == QLatin1String("storyboard");
            const QString out = dir.filePath(QStringLiteral("out%1%2").arg(++runs).arg(
                story ? QString() : QStringLiteral(".png")));
            QStringList args{command, scenario(QStringLiteral("default")), QStringLiteral("-o"),
                             out};
            // storyboard draws one frame unless --at itself is tried
            if (story && option != QLatin1String("--at"))
                args << QStringLiteral("--at") << QStringLiteral("12");
            const Run r = cli(args + extra);
            if (r.exitCode != 0)
                qWarning("%s", r.err.constData());
            QByteArray bytes;
            const QStringList files =
                story ? QDir(out).entryList(QDir::Files, QDir::Name) : QStringList{QString()};
            for (const QString &f : files) {
                QFile file(story ? QDir(out).filePath(f) : out);
                if (file.open(QIODevice::ReadOnly))
                    bytes += file.readAll();
            }
            return bytes;
        };
        const QByteArray plain = picture({});
        QVERIFY(!plain.isEmpty());
        const QByteArray twoWords = value.isEmpty() ? picture({option}) : picture({option, value});
        QVERIFY(!twoWords.isEmpty());
        QVERIFY2(twoWords != plain, "the option changed nothing");
        if (!value.isEmpty()) {
            const QByteArray joined = picture({option + QLatin1Char('=') + value});
            QVERIFY(joined == twoWords);
        }
    }

    void outputOptionForms()
    {
        QTemporaryDir dir;
        const QString def = scenario(QStringLiteral("default"));
        const QString a = dir.filePath(QStringLiteral("a.svg"));
        const QString b = dir.filePath(QStringLiteral("b.svg"));
        const QString c = dir.filePath(QStringLiteral("c.svg"));
        const QString d = dir.filePath(QStringLiteral("d.svg"));
        const QList<QStringList> forms = {{QStringLiteral("-o"), a},
                                          {QStringLiteral("-o") + b},
                                          {QStringLiteral("--output"), c},
                                          {QStringLiteral("--output=") + d}};
        for (const QStringList &form : forms) {
            const Run r = cli(QStringList{QStringLiteral("export"), def} + form);
            QCOMPARE(r.exitCode, 0);
        }
        for (const QString &path : {a, b, c, d}) {
            QFile f(path);
            QVERIFY2(f.open(QIODevice::ReadOnly), qPrintable(path));
            QVERIFY(f.readAll().startsWith("<?xml"));
        }
    }

    void errorsAreOneLineExitTwoAndLeaveNothing_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("expected");
        const QString def = scenario(QStringLiteral("default"));
        QTest::newRow("unknown extension")
            << QStringList{QStringLiteral("export"), def, QStringLiteral("-o"), QStringLiteral("OUT/a.bmp")}
            << QStringLiteral("unknown format");
        QTest::newRow("unwritable path")
            << QStringList{QStringLiteral("export"), def, QStringLiteral("-o"), QStringLiteral("OUT/missing/a.png")}
            << QStringLiteral("cannot write");
        QTest::newRow("missing -o") << QStringList{QStringLiteral("export"), def}
                                    << QStringLiteral("missing -o");
        QTest::newRow("bad width")
            << QStringList{QStringLiteral("export"), def, QStringLiteral("-o"), QStringLiteral("OUT/a.png"),
                           QStringLiteral("--width"), QStringLiteral("wide")}
            << QStringLiteral("--width");
        QTest::newRow("bad theme")
            << QStringList{QStringLiteral("export"), def, QStringLiteral("-o"), QStringLiteral("OUT/a.png"),
                           QStringLiteral("--theme"), QStringLiteral("neon")}
            << QStringLiteral("--theme");
        QTest::newRow("invalid scenario")
            << QStringList{QStringLiteral("export"), QStringLiteral("OUT/bad.json"), QStringLiteral("-o"),
                           QStringLiteral("OUT/a.png")}
            << QStringLiteral("clients: must list at least one client");
        QTest::newRow("storyboard both modes")
            << QStringList{QStringLiteral("storyboard"), def, QStringLiteral("-o"), QStringLiteral("OUT/f"),
                           QStringLiteral("--every-event"), QStringLiteral("--at"), QStringLiteral("1")}
            << QStringLiteral("not both");
    }
    // run, check, sweep and find start without QtGui and its libraries (half of the start-up);
    // export and storyboard go to the helper, which has them.
    void onlyThePictureHelperLoadsQtGui()
    {
        const QByteArray cliLibraries = loadedLibraries(QStringLiteral(FENCESCOPE_CLI));
        QVERIFY2(cliLibraries.contains("libQt6Core.so"), cliLibraries.constData());
        QVERIFY2(!cliLibraries.contains("libQt6Gui.so"), cliLibraries.constData());
        QVERIFY2(!cliLibraries.contains("libQt6Svg.so"), cliLibraries.constData());
        const QByteArray helperLibraries = loadedLibraries(QStringLiteral(FENCESCOPE_CLI_HELPER));
        QVERIFY2(helperLibraries.contains("libQt6Gui.so"), helperLibraries.constData());
        // the helper is the same program: every command, the same report
        const QStringList run{QStringLiteral("run"), scenario(QStringLiteral("three-owners"))};
        const Run viaCli = cli(run);
        QCOMPARE(viaCli.exitCode, 0);
        QCOMPARE(runProgram(QStringLiteral(FENCESCOPE_CLI_HELPER), run).out, viaCli.out);
    }

    // A CLI whose helper is missing (a broken install) says so in one line and exits 1, and
    // every other command still works.
    void aMissingHelperIsOneLineExitOne()
    {
        QTemporaryDir dir;
        const QString lonely = dir.filePath(QStringLiteral("bin/fencescope-cli"));
        QVERIFY(QDir(dir.path()).mkpath(QStringLiteral("bin")));
        QVERIFY(QFile::copy(QStringLiteral(FENCESCOPE_CLI), lonely));
        const Run r = runProgram(lonely, {QStringLiteral("export"), scenario(QStringLiteral("default")),
                                          QStringLiteral("-o"), dir.filePath(QStringLiteral("a.png"))});
        QCOMPARE(r.exitCode, 1);
        QCOMPARE(r.err.count('\n'), 1);
        QVERIFY2(r.err.startsWith("fencescope-cli: export: cannot start the picture helper "),
                 r.err.constData());
        QVERIFY2(r.err.contains("/bin/../libexec/fencescope/fencescope-cli-pictures: "),
                 r.err.constData());
        QVERIFY(!QFile::exists(dir.filePath(QStringLiteral("a.png"))));
        const Run check = runProgram(lonely, {QStringLiteral("check"), scenario(QStringLiteral("default"))});
        QCOMPARE(check.exitCode, 0);
    }

    void errorsAreOneLineExitTwoAndLeaveNothing()
    {
        QFETCH(QStringList, args);
        QFETCH(QString, expected);
        QTemporaryDir dir;
        QFile bad(dir.filePath(QStringLiteral("bad.json")));
        QVERIFY(bad.open(QIODevice::WriteOnly));
        bad.write(R"({"fencescope": 1, "clients": []})");
        bad.close();
        for (QString &a : args)
            a.replace(QStringLiteral("OUT"), dir.path());
        const Run r = cli(args);
        QCOMPARE(r.exitCode, 2);
        QCOMPARE(r.err.count('\n'), 1);
        QVERIFY2(QString::fromUtf8(r.err).contains(expected), r.err.constData());
        QCOMPARE(QDir(dir.path()).entryList(QDir::Files | QDir::Dirs | QDir::NoDotAndDotDot),
                 QStringList{QStringLiteral("bad.json")});
    }
};

QTEST_GUILESS_MAIN(TestCliExport)
#include "tst_cliexport.moc"
