// fencescope-cli's lesson commands, driven as real processes: `lesson check` prints every
// question with the option the simulator decides (exit 0), reports a lesson whose question has
// no or several right options (exit 2, one line on stderr), refuses every file of the hostile
// corpus with one line naming the file and the place; `lesson handout` writes a PDF through the
// picture helper, or nothing. The expected lines are worked out from the lessons by hand.

#include "cliprocess.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

namespace {

using Result = CliProcess::Result;

Result cli(const QStringList &args, const QByteArray &input = {},
           const QString &workingDirectory = {})
{
    CliProcess::Options o;
    o.input = input;
    o.workingDirectory = workingDirectory;
    o.timeoutMs = 60000;
    return CliProcess::run(QStringLiteral(FENCESCOPE_CLI), args, o);
}

QString lessonPath(const QString &name)
{
    return QStringLiteral(FENCESCOPE_SOURCE_DIR "/resources/lessons/%1.fencescope-lesson.json")
        .arg(name);
}

QByteArray readAll(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

int pdfPages(const QByteArray &pdf)
{
    return int(pdf.count("/Type /Page\n") + pdf.count("/Type /Page ") + pdf.count("/Type /Page/") +
               pdf.count("/Type /Page>"));
}

// The default preset with a question whose options A and B both hold: A's write is rejected,
// and db ends with B's value.
const char kTwoRight[] = R"({"fencescope-lesson": 1, "title": "Two right answers",
  "scenes": [ {"preset": "default", "question": {"prompt": "Which?", "freeze": 29, "options": [
    {"claim": {"write": {"client": "A", "value": "A"}, "is": "rejected"}},
    {"claim": {"storage": "db", "value": "B"}},
    {"claim": {"some": "corrupted"}} ] } } ] })";

} // namespace

class TestCliLesson : public QObject
{
    Q_OBJECT
private slots:
    void checkPrintsEveryAnswer()
    {
        const QString file = lessonPath(QStringLiteral("1-why-a-lock-needs-fencing"));
        const Result r = cli({QStringLiteral("lesson"), QStringLiteral("check"), file});
        QCOMPARE(r.exitCode, 0);
        QVERIFY(r.err.isEmpty());
        const QList<QByteArray> lines = r.out.split('\n');
        QCOMPARE(lines.first(), file.toUtf8() + ": ok (\"Why a lock needs fencing\", 9 scenes, "
                                                "7 questions)");
        // scene 2: the default preset without fencing; A's write at 30 lands over B's
        const QByteArray scene2 = "Scene 2: The pause outlives the lease (preset default, fencing "
                                  "off)\n"
                                  "  Frozen at t=29: A wakes at t=30 and sends the write it was "
                                  "about to send when it froze. The storage checks nothing. What "
                                  "happens to A's write?\n"
                                  "    A. A's write \"A\" is rejected\n"
                                  "    B. A's write \"A\" is corrupted   <- holds (settled at "
                                  "t=30)\n"
                                  "    C. A's write \"A\" is accepted\n"
                                  "    D. A's write \"A\" is skipped\n"
                                  "  Answer: B, revealed at t=30. t=30: A wrote 'A' with token 1";
        QVERIFY2(r.out.contains(scene2), r.out.constData());
        // scene 8: a renewal keeps token 1; B's grant at 20 is the second owner's
        QVERIFY(r.out.contains("    B. B's grant carries token 2   <- holds (settled at t=20)\n"
                               "    C. B's grant carries the same token as A's grant\n"
                               "  Answer: B, revealed at t=20. t=20: the lock service granted "
                               "the lock to B with token 2"));
        QVERIFY(r.out.contains("Scene 1: One lock, two clients, leases (preset default, fencing "
                               "off)\n\nScene 2:")); // a scene without a question
    }

    void checkFromStandardInput()
    {
        const Result r =
            cli({QStringLiteral("lesson"), QStringLiteral("check"), QStringLiteral("-")},
                readAll(lessonPath(QStringLiteral("3-how-fencing-goes-wrong"))));
        QCOMPARE(r.exitCode, 0);
        QVERIFY(r.out.startsWith("-: ok (\"How fencing goes wrong\", 8 scenes, 8 questions)\n"));
        // scene 8: a half-applied update, explained as one
        QVERIFY(r.out.contains("    B. some update is half applied   <- holds (settled at t=19)\n"
                               "    C. A's write \"A\" to index is accepted\n"
                               "  Answer: B, revealed at t=19. A's update 'order' across 2 "
                               "storages: db accepted, index rejected."));
    }

    // Several options hold: every answer still printed, the problem at its question, one line
    // on stderr, exit 2.
    void checkReportsAQuestionWithoutOneAnswer()
    {
        QTemporaryDir dir;
        const QString file = dir.filePath(QStringLiteral("two.fencescope-lesson.json"));
        QFile f(file);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(kTwoRight);
        f.close();
        const Result r = cli({QStringLiteral("lesson"), QStringLiteral("check"), file});
        QCOMPARE(r.exitCode, 2);
        QVERIFY(r.out.startsWith(file.toUtf8() + ": 1 problem (\"Two right answers\", 1 scene, 1 "
                                                 "question)\n"));
        QVERIFY(r.out.contains("    A. A's write \"A\" is rejected   <- holds (settled at t=30)\n"
                               "    B. db ends with the value \"B\"   <- holds (settled at t=30)\n"
                               "    C. some write is corrupted\n"
                               "  Problem: options A and B both hold in this run; a question "
                               "needs exactly one\n"));
        QCOMPARE(r.err, "fencescope-cli: " + file.toUtf8() +
                            ": scenes[0].question: options A and B both hold in this run; a "
                            "question needs exactly one\n");
        // and the handout refuses it: it has no answer key
        const Result h = cli({QStringLiteral("lesson"), QStringLiteral("handout"), file,
                              QStringLiteral("-o"), dir.filePath(QStringLiteral("s.pdf"))});
        QCOMPARE(h.exitCode, 2);
        QCOMPARE(h.err.count('\n'), 1);
        QVERIFY(h.err.contains("scenes[0].question: options A and B both hold"));
        QVERIFY(!QFileInfo::exists(dir.filePath(QStringLiteral("s.pdf"))));
    }

    void checkListsUnknownKeys()
    {
        const Result r =
            cli({QStringLiteral("lesson"), QStringLiteral("check"),
                 QStringLiteral(FENCESCOPE_TESTDATA
                                "/lessons/good/every-feature.fencescope-lesson.json")});
        QCOMPARE(r.exitCode, 0);
        QVERIFY(r.out.contains("\nnote: scenes[0].view.zoom: not a key of lesson file version 1 "
                               "(kept as it is)\n"));
    }

    // Every file of the hostile corpus: refused with exactly one line naming the file and then a
    // place, by both commands; nothing on stdout, no PDF.
    void hostileCorpus_data()
    {
        QTest::addColumn<QString>("file");
        const QDir dir(QStringLiteral(FENCESCOPE_TESTDATA "/lessons/bad"));
        for (const QString &name : dir.entryList(QDir::Files, QDir::Name))
            QTest::newRow(qPrintable(name)) << dir.filePath(name);
    }
    void hostileCorpus()
    {
        QFETCH(QString, file);
        const Result check = cli({QStringLiteral("lesson"), QStringLiteral("check"), file});
        QCOMPARE(check.exitCode, 2);
        QVERIFY(check.out.isEmpty());
        QCOMPARE(check.err.count('\n'), 1);
        QVERIFY2(check.err.startsWith("fencescope-cli: " + file.toUtf8() + ": "),
                 check.err.constData());
        QTemporaryDir dir;
        const QString pdf = dir.filePath(QStringLiteral("sheet.pdf"));
        const Result handout = cli(
            {QStringLiteral("lesson"), QStringLiteral("handout"), file, QStringLiteral("-o"), pdf});
        QCOMPARE(handout.exitCode, 2);
        QCOMPARE(handout.err, check.err);
        QVERIFY(!QFileInfo::exists(pdf));
    }

    void handoutWritesAPdf()
    {
        QTemporaryDir dir;
        const QString pdf = dir.filePath(QStringLiteral("sheet.pdf"));
        const QString file = lessonPath(QStringLiteral("2-where-tokens-come-from"));
        Result r = cli(
            {QStringLiteral("lesson"), QStringLiteral("handout"), file, QStringLiteral("-o"), pdf});
        QCOMPARE(r.exitCode, 0);
        QVERIFY(r.err.isEmpty());
        QByteArray bytes = readAll(pdf);
        QVERIFY(bytes.startsWith("%PDF"));
        // the cover, 10 questions, 10 answers, the sources
        QCOMPARE(pdfPages(bytes), 22);
        r = cli({QStringLiteral("lesson"), QStringLiteral("handout"), QStringLiteral("--no-key"),
                 file, QStringLiteral("-o=") + pdf});
        QCOMPARE(r.exitCode, 0);
        QCOMPARE(pdfPages(readAll(pdf)), 12);
        QCOMPARE(QDir(dir.path()).entryList(QDir::Files),
                 QStringList({QStringLiteral("sheet.pdf")})); // nothing half written beside it
    }

    void handoutUsage()
    {
        QTemporaryDir dir;
        const QString file = lessonPath(QStringLiteral("1-why-a-lock-needs-fencing"));
        Result r = cli({QStringLiteral("lesson"), QStringLiteral("handout"), file,
                        QStringLiteral("-o"), dir.filePath(QStringLiteral("sheet.png"))});
        QCOMPARE(r.exitCode, 2);
        QCOMPARE(r.err, "fencescope-cli: lesson handout: cannot write " +
                            dir.filePath(QStringLiteral("sheet.png")).toUtf8() +
                            ": a handout is a PDF (give a file ending in .pdf)\n");
        r = cli({QStringLiteral("lesson"), QStringLiteral("handout"), file, QStringLiteral("-o"),
                 QStringLiteral("-")});
        QCOMPARE(r.exitCode, 2);
        QCOMPARE(r.err.count('\n'), 1);
        r = cli({QStringLiteral("lesson"), QStringLiteral("handout"), file});
        QCOMPARE(r.exitCode, 2);
        QCOMPARE(r.err,
                 QByteArray("fencescope-cli: lesson handout: missing -o SHEET.pdf (usage: "
                            "fencescope-cli lesson handout LESSON -o SHEET.pdf [--no-key])\n"));
        // a folder that does not exist: nothing written, one line
        const QString nowhere = dir.filePath(QStringLiteral("no/such/folder/sheet.pdf"));
        r = cli({QStringLiteral("lesson"), QStringLiteral("handout"), file, QStringLiteral("-o"),
                 nowhere});
        QCOMPARE(r.exitCode, 2);
        QCOMPARE(r.err.count('\n'), 1);
        QVERIFY2(r.err.startsWith("fencescope-cli: lesson handout: cannot write " +
                                  nowhere.toUtf8() + ": "),
                 r.err.constData());
        QVERIFY(!QFileInfo::exists(nowhere));
    }

    void commandUsage()
    {
        Result r = cli({QStringLiteral("lesson")});
        QCOMPARE(r.exitCode, 2);
        QCOMPARE(r.err, QByteArray("fencescope-cli: lesson: missing what to do (lesson check "
                                   "LESSON, or lesson handout LESSON -o SHEET.pdf); try --help\n"));
        r = cli({QStringLiteral("lesson"), QStringLiteral("teach"), QStringLiteral("x")});
        QCOMPARE(r.exitCode, 2);
        QVERIFY(r.err.startsWith("fencescope-cli: unknown command \"lesson teach\" ("));
        r = cli({QStringLiteral("lesson"), QStringLiteral("check")});
        QCOMPARE(r.exitCode, 2);
        QCOMPARE(r.err, QByteArray("fencescope-cli: lesson check: missing LESSON (usage: "
                                   "fencescope-cli lesson check LESSON)\n"));
        r = cli({QStringLiteral("lesson"), QStringLiteral("check"), QStringLiteral("--help")});
        QCOMPARE(r.exitCode, 0);
        QVERIFY(r.out.startsWith("usage: fencescope-cli lesson check LESSON\n"));
        QVERIFY(r.out.endsWith("LESSON may be - for standard input. Exit status: 0 done, 2 "
                               "invalid input or usage, 1 other.\n"));
        QCOMPARE(
            cli({QStringLiteral("help"), QStringLiteral("lesson"), QStringLiteral("handout")}).out,
            cli({QStringLiteral("lesson"), QStringLiteral("handout"), QStringLiteral("-h")}).out);
        r = cli({QStringLiteral("--help")});
        QVERIFY(r.out.contains("\n       fencescope-cli lesson check LESSON\n"));
        QVERIFY(r.out.contains("  lesson handout  write a lesson's prediction sheet and answer "
                               "key as a PDF\n"));
    }
};

QTEST_GUILESS_MAIN(TestCliLesson)
#include "tst_clilesson.moc"
