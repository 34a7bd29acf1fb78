// fencescope-cli animate, run as a user would: the real binary (which hands it to its picture
// helper), real files. What the files hold frame by frame is tests/media/tst_animation.cpp's;
// here: the options reach the file, and every failure is one line, exit 2 and no file.

#include "cliprocess.h"

#include <QDir>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

namespace {

using Run = CliProcess::Result;

Run runProgram(const QString &program, const QStringList &args)
{
    CliProcess::Options o;
    o.noDisplay = true; // the CLI must manage without a display
    return CliProcess::run(program, args, o);
}

Run cli(const QStringList &args)
{
    return runProgram(QStringLiteral(FENCESCOPE_CLI), args);
}

QString scenario(const QString &name)
{
    return QStringLiteral(FENCESCOPE_SOURCE_DIR "/resources/scenarios/%1.json").arg(name);
}

QByteArray contents(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

int littleEndian16(const QByteArray &bytes, int at)
{
    return quint8(bytes[at]) | (quint8(bytes[at + 1]) << 8);
}

QStringList entries(const QString &dir)
{
    return QDir(dir).entryList(QDir::Files | QDir::Dirs | QDir::Hidden | QDir::NoDotAndDotDot);
}

} // namespace

class TestCliAnimate : public QObject
{
    Q_OBJECT
private slots:
    void gifWithItsOptions()
    {
        QTemporaryDir dir;
        const QString out = dir.filePath(QStringLiteral("run.gif"));
        const Run r =
            cli({QStringLiteral("animate"), scenario(QStringLiteral("default")),
                 QStringLiteral("-o"), out, QStringLiteral("--width=480"), QStringLiteral("--fps"),
                 QStringLiteral("5"), QStringLiteral("--step-seconds"), QStringLiteral("0.5"),
                 QStringLiteral("--loop"), QStringLiteral("3")});
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.err.isEmpty(), r.err.constData());
        const QByteArray gif = contents(out);
        QVERIFY(gif.startsWith("GIF89a"));
        QCOMPARE(littleEndian16(gif, 6), 480); // the logical screen: --width
        // played three times: the NETSCAPE2.0 block repeats it twice after the first
        const qsizetype netscape = gif.indexOf("NETSCAPE2.0");
        QVERIFY(netscape > 0);
        QCOMPARE(gif.mid(netscape + 11, 2), QByteArray("\x03\x01", 2));
        QCOMPARE(littleEndian16(gif, int(netscape) + 13), 2);
        QCOMPARE(entries(dir.path()), QStringList{QStringLiteral("run.gif")});
    }

    void mp4AndWebm()
    {
        QTemporaryDir dir;
        for (const QString &name : {QStringLiteral("run.mp4"), QStringLiteral("run.webm")}) {
            const QString out = dir.filePath(name);
            const Run r =
                cli({QStringLiteral("animate"), scenario(QStringLiteral("three-owners")),
                     QStringLiteral("-o"), out, QStringLiteral("--width"), QStringLiteral("640"),
                     QStringLiteral("--compare"), QStringLiteral("--step-seconds=1")});
            QCOMPARE(r.exitCode, 0);
            QVERIFY2(r.err.isEmpty(), r.err.constData());
            const QByteArray video = contents(out);
            if (name.endsWith(QLatin1String(".mp4"))) {
                QCOMPARE(video.mid(4, 4), QByteArray("ftyp"));
                // faststart: the index (moov) before the pictures (mdat)
                QVERIFY(video.indexOf("moov") < video.indexOf("mdat"));
            } else {
                QVERIFY(video.startsWith("\x1a\x45\xdf\xa3")); // EBML
                QVERIFY(video.contains("webm"));
            }
        }
        QCOMPARE(entries(dir.path()),
                 (QStringList{QStringLiteral("run.mp4"), QStringLiteral("run.webm")}));
    }

    // --lesson: the lesson's scenes (what the frames hold is tests/media/tst_animation.cpp's)
    void aLessonAsAGif()
    {
        QTemporaryDir dir;
        const QString out = dir.filePath(QStringLiteral("lesson.gif"));
        const Run r = cli(
            {QStringLiteral("animate"), QStringLiteral("--lesson"),
             QStringLiteral(FENCESCOPE_TESTDATA "/lessons/good/two-scenes.fencescope-lesson.json"),
             QStringLiteral("-o"), out, QStringLiteral("--width=480"),
             QStringLiteral("--step-seconds=0.5"), QStringLiteral("--fps=5")});
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.err.isEmpty(), r.err.constData());
        const QByteArray gif = contents(out);
        QVERIFY(gif.startsWith("GIF89a"));
        QCOMPARE(littleEndian16(gif, 6), 480);
        QCOMPARE(entries(dir.path()), QStringList{QStringLiteral("lesson.gif")});
    }

    void failuresAreOneLineExitTwoAndLeaveNothing_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("line");
        const QString def = scenario(QStringLiteral("default"));
        QTest::newRow("unknown extension")
            << QStringList{QStringLiteral("animate"), def, QStringLiteral("-o"),
                           QStringLiteral("OUT/a.avi")}
            << QStringLiteral("fencescope-cli: animate: cannot export to OUT/a.avi: unknown "
                              "format (use .gif, .mp4 or .webm)");
        QTest::newRow("a folder that is a file")
            << QStringList{QStringLiteral("animate"), def, QStringLiteral("-o"),
                           QStringLiteral("OUT/file/a.mp4")}
            << QStringLiteral("fencescope-cli: animate: cannot write OUT/file/a.mp4: Not a "
                              "directory");
        QTest::newRow("a missing folder")
            << QStringList{QStringLiteral("animate"), def, QStringLiteral("-o"),
                           QStringLiteral("OUT/missing/a.gif")}
            << QStringLiteral("fencescope-cli: animate: cannot write OUT/missing/a.gif: No such "
                              "file or directory");
        QTest::newRow("loop on a video")
            << QStringList{QStringLiteral("animate"), def,
                           QStringLiteral("-o"),      QStringLiteral("OUT/a.mp4"),
                           QStringLiteral("--loop"),  QStringLiteral("2")}
            << QStringLiteral("fencescope-cli: animate: --loop is for a GIF (a video's player "
                              "decides whether it loops)");
        QTest::newRow("standard output")
            << QStringList{QStringLiteral("animate"), def, QStringLiteral("-o"),
                           QStringLiteral("-")}
            << QStringLiteral("fencescope-cli: animate: cannot write an animation to standard "
                              "output (give a file ending in .gif, .mp4 or .webm)");
        const QString lesson =
            QStringLiteral(FENCESCOPE_TESTDATA "/lessons/good/two-scenes.fencescope-lesson.json");
        const QString badLesson = QStringLiteral(
            FENCESCOPE_TESTDATA "/lessons/bad/unknown-client.fencescope-lesson.json");
        QTest::newRow("bad lesson")
            << QStringList{QStringLiteral("animate"), QStringLiteral("--lesson"), badLesson,
                           QStringLiteral("-o"), QStringLiteral("OUT/a.gif")}
            << QStringLiteral("fencescope-cli: ") + badLesson +
                   QStringLiteral(": scenes[0].question.options[1].claim.write.client: unknown "
                                  "client \"C\" (known: A, B)");
        QTest::newRow("missing lesson")
            << QStringList{QStringLiteral("animate"), QStringLiteral("--lesson"),
                           QStringLiteral("OUT/none.fencescope-lesson.json"), QStringLiteral("-o"),
                           QStringLiteral("OUT/a.gif")}
            << QStringLiteral("fencescope-cli: OUT/none.fencescope-lesson.json: file: cannot "
                              "open OUT/none.fencescope-lesson.json (No such file or directory)");
        QTest::newRow("a lesson and a file")
            << QStringList{QStringLiteral("animate"),  def,
                           QStringLiteral("--lesson"), lesson,
                           QStringLiteral("-o"),       QStringLiteral("OUT/a.gif")}
            << QStringLiteral("fencescope-cli: animate: give FILE or --lesson LESSON, not both");
        QTest::newRow("a lesson with a range")
            << QStringList{QStringLiteral("animate"),
                           QStringLiteral("--lesson"),
                           lesson,
                           QStringLiteral("--from"),
                           QStringLiteral("5"),
                           QStringLiteral("-o"),
                           QStringLiteral("OUT/a.gif")}
            << QStringLiteral("fencescope-cli: animate: --from and --to are for a scenario (each "
                              "scene of a lesson shows the range its view gives)");
        QTest::newRow("invalid scenario")
            << QStringList{QStringLiteral("animate"), QStringLiteral("OUT/bad.json"),
                           QStringLiteral("-o"), QStringLiteral("OUT/a.gif")}
            << QStringLiteral("fencescope-cli: OUT/bad.json: clients: must list at least one "
                              "client");
    }

    void failuresAreOneLineExitTwoAndLeaveNothing()
    {
        QFETCH(QStringList, args);
        QFETCH(QString, line);
        QTemporaryDir dir;
        QFile bad(dir.filePath(QStringLiteral("bad.json")));
        QVERIFY(bad.open(QIODevice::WriteOnly));
        bad.write(R"({"fencescope": 1, "clients": []})");
        bad.close();
        QFile file(dir.filePath(QStringLiteral("file")));
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.close();
        for (QString &a : args)
            a.replace(QStringLiteral("OUT"), dir.path());
        const Run r = cli(args);
        QCOMPARE(r.exitCode, 2);
        QCOMPARE(QString::fromUtf8(r.err),
                 line.replace(QStringLiteral("OUT"), dir.path()) + QLatin1Char('\n'));
        QCOMPARE(entries(dir.path()),
                 (QStringList{QStringLiteral("bad.json"), QStringLiteral("file")}));
    }

    void aFullDiskIsOneLineExitTwoAndKeepsTheOldFile()
    {
        // a file size limit smaller than the video makes its writes fail, for root too; the
        // limit's signal is ignored (as a shell's trap '' does), so the write says EFBIG
        QTemporaryDir dir;
        const QString out = dir.filePath(QStringLiteral("talk.mp4"));
        {
            QFile old(out);
            QVERIFY(old.open(QIODevice::WriteOnly));
            old.write("old video");
        }
        const Run r = runProgram(QStringLiteral("/bin/sh"),
                                 {QStringLiteral("-c"),
                                  QStringLiteral("trap '' XFSZ; ulimit -f 16; exec \"$0\" \"$@\""),
                                  QStringLiteral(FENCESCOPE_CLI), QStringLiteral("animate"),
                                  scenario(QStringLiteral("default")), QStringLiteral("-o"), out});
        QCOMPARE(r.exitCode, 2);
        QCOMPARE(r.err.count('\n'), 1);
        QVERIFY2(r.err.startsWith("fencescope-cli: animate: cannot write " + out.toUtf8() + ": "),
                 r.err.constData());
        QCOMPARE(contents(out), QByteArray("old video"));
        QCOMPARE(entries(dir.path()), QStringList{QStringLiteral("talk.mp4")});
    }
};

QTEST_GUILESS_MAIN(TestCliAnimate)
#include "tst_clianimate.moc"
