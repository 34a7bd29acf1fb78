// fencescope-cli's command line, driven as a real process: one option gives one error line
// (exit status 2) in every command that takes it, whichever form its value takes; every
// command's help lists every option it takes, three ways; the overview's help and --version;
// and the desktop application's own arguments, without a display.

#include "clirun.h"

#include <QProcess>
#include <QTest>

using namespace CliRun;

class TestCliUsage : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QVERIFY2(QFile::exists(QStringLiteral(FENCESCOPE_CLI)), FENCESCOPE_CLI);
    }

    // ---- one option, one behaviour in every command ------------------------------------------

    // The same bad value gives the same line whichever command has the option, and whether the
    // value follows as the next argument or after "=".
    void sameOptionSameErrorInEveryCommand_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("line");
        const QString def = scenarioPath(QStringLiteral("default"));
        const QString out = QStringLiteral("/nonexistent-folder/out.png");
        struct Bad
        {
            const char *option;
            const char *value;
            QString line;
        };
        const QList<Bad> picture = {
            {"--fencing", "maybe", QStringLiteral("--fencing takes on or off, not \"maybe\"")},
            {"--width", "wide",
             QStringLiteral("--width takes pixels from 320 to 16384, not \"wide\"")},
            {"--width", "100",
             QStringLiteral("--width takes pixels from 320 to 16384, not \"100\"")},
            {"--scale", "0", QStringLiteral("--scale takes a factor from 0.25 to 8, not \"0\"")},
            {"--from", "-3", QStringLiteral("--from takes a tick, not \"-3\"")},
            {"--to", "soon", QStringLiteral("--to takes a tick, not \"soon\"")},
            {"--theme", "neon",
             QStringLiteral("--theme takes light|dark|print|contrast, not \"neon\"")},
        };
        for (const char *command : {"export", "storyboard", "animate"}) {
            for (const Bad &b : picture) {
                const QString name = QStringLiteral("%1 %2 %3").arg(command, b.option, b.value);
                QTest::newRow(qPrintable(name + QStringLiteral(" (two words)")))
                    << QStringList({command, def, "-o", out, b.option, b.value})
                    << QStringLiteral("fencescope-cli: ") + b.line;
                QTest::newRow(qPrintable(name + QStringLiteral(" (=)")))
                    << QStringList({command, def, "-o", out,
                                    QStringLiteral("%1=%2").arg(b.option, b.value)})
                    << QStringLiteral("fencescope-cli: ") + b.line;
            }
            // given last, without a value: judged as the empty value
            QTest::newRow(qPrintable(QStringLiteral("%1 --fencing last").arg(command)))
                << QStringList({command, def, "-o", out, "--fencing"})
                << QStringLiteral("fencescope-cli: --fencing takes on or off, not \"\"");
            QTest::newRow(qPrintable(QStringLiteral("%1 --width last").arg(command)))
                << QStringList({command, def, "-o", out, "--width"})
                << QStringLiteral(
                       "fencescope-cli: --width takes pixels from 320 to 16384, not \"\"");
            QTest::newRow(qPrintable(QStringLiteral("%1 -o last").arg(command)))
                << QStringList({command, def, "-o"})
                << QStringLiteral("fencescope-cli: -o needs a value");
            QTest::newRow(qPrintable(QStringLiteral("%1 --output=").arg(command)))
                << QStringList({command, def, "--output="})
                << QStringLiteral("fencescope-cli: -o needs a value");
            QTest::newRow(qPrintable(QStringLiteral("%1 --compare=yes").arg(command)))
                << QStringList({command, def, "-o", out, "--compare=yes"})
                << QStringLiteral("fencescope-cli: --compare takes no value, not \"yes\"");
            QTest::newRow(qPrintable(QStringLiteral("%1 unknown option").arg(command)))
                << QStringList({command, def, "-o", out, "--colour"})
                << QStringLiteral("fencescope-cli: %1: unknown option --colour").arg(command);
            QTest::newRow(qPrintable(QStringLiteral("%1 two files").arg(command)))
                << QStringList({command, def, "-o", out, def})
                << QStringLiteral("fencescope-cli: %1: one FILE only, got also %2")
                       .arg(command, def);
        }
        QTest::newRow("run --fencing=maybe")
            << QStringList({"run", def, "--fencing=maybe"})
            << QStringLiteral("fencescope-cli: --fencing takes on or off, not \"maybe\"");
        QTest::newRow("run --summary=yes")
            << QStringList({"run", def, "--summary=yes"})
            << QStringLiteral("fencescope-cli: --summary takes no value, not \"yes\"");
        QTest::newRow("check unknown option")
            << QStringList({"check", def, "--fencing", "on"})
            << QStringLiteral("fencescope-cli: check: unknown option --fencing");
        QTest::newRow("export --at list")
            << QStringList({"export", def, "-o", out, "--at=1,2"})
            << QStringLiteral("fencescope-cli: --at takes a tick, not \"1,2\"");
        QTest::newRow("storyboard --at list")
            << QStringList({"storyboard", def, "-o", out, "--at", "1,x"})
            << QStringLiteral("fencescope-cli: --at takes ticks (T or T1,T2,...), not \"1,x\"");
        QTest::newRow("export without file")
            << QStringList({"export", "-o", out})
            << QStringLiteral("fencescope-cli: export: missing FILE (usage: fencescope-cli export "
                              "FILE -o OUT.(png|svg|pdf) [options])");
        QTest::newRow("storyboard without -o")
            << QStringList({"storyboard", def})
            << QStringLiteral("fencescope-cli: storyboard: missing -o DIR_OR_PDF (usage: "
                              "fencescope-cli storyboard FILE -o DIR_OR_PDF [options])");
        QTest::newRow("unknown top-level option")
            << QStringList({"--colour", "run", def})
            << QStringLiteral("fencescope-cli: unknown option --colour; try --help");
        QTest::newRow("help for an unknown command")
            << QStringList({"help", "simulate"})
            << QStringLiteral("fencescope-cli: unknown command \"simulate\" (run, check, export, "
                              "storyboard, animate, sweep, find, lesson check, lesson "
                              "handout, live); try --help");
        QTest::newRow("animate --fps")
            << QStringList({"animate", def, "-o", out, "--fps", "0"})
            << QStringLiteral(
                   "fencescope-cli: --fps takes a whole number from 1 to 60, not \"0\"");
        QTest::newRow("animate --step-seconds")
            << QStringList({"animate", def, "-o", out, "--step-seconds=0.1"})
            << QStringLiteral(
                   "fencescope-cli: --step-seconds takes seconds from 0.5 to 60, not \"0.1\"");
        QTest::newRow("animate --loop")
            << QStringList({"animate", def, "-o", out, "--loop", "-1"})
            << QStringLiteral(
                   "fencescope-cli: --loop takes a whole number from 0 to 65535, not \"-1\"");
        // each step's caption is the animation's own
        QTest::newRow("animate --caption")
            << QStringList({"animate", def, "-o", out, "--caption", "hello"})
            << QStringLiteral("fencescope-cli: animate: unknown option --caption");
        QTest::newRow("animate without -o")
            << QStringList({"animate", def})
            << QStringLiteral("fencescope-cli: animate: missing -o OUT.(gif|mp4|webm) (usage: "
                              "fencescope-cli animate FILE|--lesson LESSON -o "
                              "OUT.(gif|mp4|webm) [options])");
    }
    void sameOptionSameErrorInEveryCommand()
    {
        QFETCH(QStringList, args);
        QFETCH(QString, line);
        expectUsageError(cli(args), line);
    }

    // Every command's help, three ways, lists every option the command takes.
    void commandHelp_data()
    {
        QTest::addColumn<QString>("command");
        QTest::addColumn<QStringList>("options");
        const QStringList picture = {"--fencing on|off",
                                     "--compare",
                                     "--width PX",
                                     "--scale S",
                                     "--from TICK",
                                     "--to TICK",
                                     "--theme light|dark|print|contrast",
                                     "--caption TEXT",
                                     "--no-title",
                                     "--no-legend",
                                     "--no-caption"};
        QTest::newRow("run") << "run" << QStringList({"--fencing on|off", "--summary"});
        QTest::newRow("check") << "check" << QStringList();
        QTest::newRow("export") << "export"
                                << QStringList({"-o, --output OUT.(png|svg|pdf)", "--at TICK"}) +
                                       picture;
        QTest::newRow("storyboard")
            << "storyboard"
            << QStringList({"-o, --output DIR_OR_PDF", "--every-event", "--at T1,T2,..."}) +
                   picture;
        QStringList animated = picture;
        animated.removeAll(QStringLiteral("--caption TEXT"));
        animated.removeAll(QStringLiteral("--no-caption"));
        QTest::newRow("animate") << "animate"
                                 << QStringList({"-o, --output OUT.(gif|mp4|webm)", "--fps N",
                                                 "--step-seconds S", "--loop N"}) +
                                        animated;
        // (in the live helper, like the pictures in theirs)
        QTest::newRow("live") << "live"
                              << QStringList({"--etcd auto|URL", "--store etcd|postgres",
                                              "--tick-ms MS", "--fencing on|off", "--repeat N"});
    }
    void commandHelp()
    {
        QFETCH(QString, command);
        QFETCH(QStringList, options);
        const Result dashes = cli({command, QStringLiteral("--help")});
        QCOMPARE(dashes.exitCode, 0);
        QVERIFY(dashes.err.isEmpty());
        const QString text = QString::fromUtf8(dashes.out);
        QVERIFY2(text.startsWith(QStringLiteral("usage: fencescope-cli %1 FILE").arg(command)),
                 qPrintable(text));
        for (const QString &o : options + QStringList{"-h, --help"})
            QVERIFY2(text.contains(QStringLiteral("\n  ") + o + QStringLiteral("  ")),
                     qPrintable(o + QStringLiteral(" not in:\n") + text));
        // help before or after FILE, short or long, or as `help COMMAND`: the same text
        const Result shortForm =
            cli({command, scenarioPath(QStringLiteral("default")), QStringLiteral("-h")});
        QCOMPARE(shortForm.exitCode, 0);
        QCOMPARE(shortForm.out, dashes.out);
        const Result word = cli({QStringLiteral("help"), command});
        QCOMPARE(word.exitCode, 0);
        QCOMPARE(word.out, dashes.out);
        // and the overview has the command's synopsis and its line in the list
        const QString overview = QString::fromUtf8(cli({QStringLiteral("help")}).out);
        QVERIFY(overview.contains(QStringLiteral("fencescope-cli %1 FILE").arg(command)));
        QVERIFY(overview.contains(QStringLiteral("\n  %1 ").arg(command)));
    }

    void version()
    {
        const Result r = cli({QStringLiteral("--version")});
        QCOMPARE(r.exitCode, 0);
        QVERIFY(r.err.isEmpty());
        QCOMPARE(r.out, QByteArray("fencescope-cli " FENCESCOPE_VERSION "\n"));
    }

    // The desktop application prints its version and help without a display and opens no window.
    void appVersionAndHelpWithoutDisplay()
    {
        for (const QStringList &args :
             {QStringList{"--version"}, QStringList{"-v"}, QStringList{"--help"}}) {
            QProcess p;
            QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
            env.remove(QStringLiteral("QT_QPA_PLATFORM"));
            env.remove(QStringLiteral("DISPLAY"));
            env.remove(QStringLiteral("WAYLAND_DISPLAY"));
            p.setProcessEnvironment(env);
            p.start(QStringLiteral(FENCESCOPE_APP), args);
            QVERIFY(p.waitForFinished(30000));
            QCOMPARE(p.exitStatus(), QProcess::NormalExit);
            QCOMPARE(p.exitCode(), 0);
            const QByteArray out = p.readAllStandardOutput();
            if (args.first() == QLatin1String("--help")) {
                QVERIFY2(out.startsWith("Usage: ") && out.contains("[FILE]"), out.constData());
                QVERIFY(out.contains("--version"));
            } else {
                QCOMPARE(out, QByteArray("fencescope " FENCESCOPE_VERSION "\n"));
            }
        }
    }

    void appBadArguments()
    {
        for (const QStringList &args : {QStringList{"--colour"}, QStringList{"a.json", "b.json"}}) {
            QProcess p;
            p.start(QStringLiteral(FENCESCOPE_APP), args); // offscreen, from the test's environment
            QVERIFY(p.waitForFinished(30000));
            QCOMPARE(p.exitCode(), 2);
            const QByteArray err = p.readAllStandardError();
            QVERIFY2(err.contains(args.size() == 1 ? "fencescope: Unknown option 'colour'."
                                                   : "fencescope: one FILE only, got also b.json"),
                     err.constData());
        }
    }

    void help()
    {
        const Result r = cli({QStringLiteral("--help")});
        QCOMPARE(r.exitCode, 0);
        QVERIFY(r.out.startsWith("usage: fencescope-cli run FILE"));
    }
};

QTEST_GUILESS_MAIN(TestCliUsage)
#include "tst_cliusage.moc"
