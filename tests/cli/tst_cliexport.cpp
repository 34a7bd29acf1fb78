// fencescope-cli export and storyboard, run as a user would: real binary, real files.

#include <QDir>
#include <QFile>
#include <QImage>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

namespace {

struct Run
{
    int exitCode = -1;
    QByteArray out;
    QByteArray err;
};

Run cli(const QStringList &args)
{
    QProcess p;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.remove(QStringLiteral("QT_QPA_PLATFORM")); // the CLI must manage without a display
    env.remove(QStringLiteral("DISPLAY"));
    p.setProcessEnvironment(env);
    p.start(QStringLiteral(FENCESCOPE_CLI), args);
    p.waitForFinished(60000);
    return {p.exitCode(), p.readAllStandardOutput(), p.readAllStandardError()};
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
