// `cmake --install` of this build tree into a temporary prefix, then every installed file
// checked as a desktop, a package manager and a user would: the programs run, the scenarios
// load, the desktop entry, MIME type and metainfo pass their validators, the icons have their
// sizes and the man page describes every command and option that --help does.

#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QImage>
#include <QProcess>
#include <QRegularExpression>
#include <QSet>
#include <QStandardPaths>
#include <QSvgRenderer>
#include <QTemporaryDir>
#include <QTest>
#include <QXmlStreamReader>

namespace {

const QString kId = QStringLiteral("io.github.fencescope.FenceScope");
const QList<int> kIconSizes = {16, 22, 24, 32, 48, 64, 128, 256};
const QStringList kCommands = {"run",     "check", "export", "storyboard",
                               "animate", "sweep", "find"};
const QStringList kScenarios = {"default.json",
                                "delayed-packet.json",
                                "le-locks-out-holder.json",
                                "renewal-keeps-token.json",
                                "three-owners.json",
                                "kleppmann-gc-pause.json",
                                "etcd-revisions.json",
                                "zookeeper-failover.json",
                                "raft-term.json",
                                "kafka-zombie-producer.json",
                                "chubby-lock-delay.json",
                                "redlock-no-token.json",
                                "random-tokens.json",
                                "wallclock-step-back.json",
                                "etcd-restore.json",
                                "etcd-restore-bump.json",
                                "keepalive-gc-pause.json",
                                "check-then-write-gap.json",
                                "slow-client-clock.json",
                                "bypass-background-job.json",
                                "journalnode-volatile-max-token.json",
                                "journalnode-durable-max-token.json",
                                "compare-and-set-version.json",
                                "random-tokens-check-and-set.json",
                                "two-resources-partial.json",
                                "reentrant-holder-lt.json",
                                "reentrant-holder-le.json",
                                "service-term.json",
                                "etcd-owner-txn.json",
                                "chubby-sequencer.json",
                                "different-is-not-lower.json"};
const QStringList kLessons = {"1-why-a-lock-needs-fencing.fencescope-lesson.json",
                              "2-where-tokens-come-from.fencescope-lesson.json",
                              "3-how-fencing-goes-wrong.fencescope-lesson.json"};

struct Result
{
    int exitCode = -1;
    QByteArray out;
    QByteArray err;
};

Result runProgram(const QString &program, const QStringList &args,
                  const QProcessEnvironment &env = QProcessEnvironment::systemEnvironment())
{
    QProcess p;
    p.setProcessEnvironment(env);
    p.start(program, args);
    Result r;
    if (!p.waitForFinished(120000))
        return r;
    r.exitCode = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -2;
    r.out = p.readAllStandardOutput();
    r.err = p.readAllStandardError();
    return r;
}

QByteArray readAll(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

// The man page's text as a reader sees it: escapes and font changes taken out.
QString unroff(QString text)
{
    text.replace(QLatin1String("\\-"), QLatin1String("-"));
    text.replace(QLatin1String("\\fB"), QString());
    text.replace(QLatin1String("\\fI"), QString());
    text.replace(QLatin1String("\\fR"), QString());
    text.replace(QLatin1String("\\&"), QString());
    text.replace(QLatin1String("\\e"), QLatin1String("\\"));
    return text;
}

} // namespace

class TestInstall : public QObject
{
    Q_OBJECT

    QTemporaryDir m_prefix;

    QString installed(const QString &relative) const { return m_prefix.filePath(relative); }
    QString cli() const { return installed(QStringLiteral("bin/fencescope-cli")); }

private slots:
    void initTestCase()
    {
        QVERIFY(m_prefix.isValid());
        const Result r =
            runProgram(QStringLiteral(FENCESCOPE_CMAKE),
                       {QStringLiteral("--install"), QStringLiteral(FENCESCOPE_BUILD_DIR),
                        QStringLiteral("--prefix"), m_prefix.path()});
        QVERIFY2(r.exitCode == 0, r.err.constData());
    }

    // Exactly these files, nothing missing and nothing stray.
    void everyFileIsInstalled()
    {
        QSet<QString> expected = {
            QStringLiteral("bin/fencescope"),
            QStringLiteral("bin/fencescope-cli"),
            QStringLiteral("libexec/fencescope/fencescope-cli-pictures"),
            QStringLiteral("libexec/fencescope/fencescope-live"),
            QStringLiteral("share/applications/%1.desktop").arg(kId),
            QStringLiteral("share/mime/packages/%1.xml").arg(kId),
            QStringLiteral("share/metainfo/%1.metainfo.xml").arg(kId),
            QStringLiteral("share/icons/hicolor/scalable/apps/%1.svg").arg(kId),
            QStringLiteral("share/man/man1/fencescope-cli.1"),
            QStringLiteral("share/doc/fencescope/LICENSE"),
        };
        for (int size : kIconSizes)
            expected << QStringLiteral("share/icons/hicolor/%1x%1/apps/%2.png").arg(size).arg(kId);
        for (const QString &s : kScenarios)
            expected << QStringLiteral("share/fencescope/scenarios/") + s;
        for (const QString &l : kLessons)
            expected << QStringLiteral("share/fencescope/lessons/") + l;
        QSet<QString> found;
        QDirIterator it(m_prefix.path(), QDir::Files, QDirIterator::Subdirectories);
        while (it.hasNext())
            found << QDir(m_prefix.path()).relativeFilePath(it.next());
        QCOMPARE(found, expected);
        QVERIFY(QFileInfo(cli()).isExecutable());
        QVERIFY(QFileInfo(installed(QStringLiteral("bin/fencescope"))).isExecutable());
    }

    void programsRun()
    {
        const Result c = runProgram(cli(), {QStringLiteral("--version")});
        QCOMPARE(c.exitCode, 0);
        QCOMPARE(c.out, QByteArray("fencescope-cli " FENCESCOPE_VERSION "\n"));
        // export goes to the installed picture helper, found beside the installed CLI
        const QString png = installed(QStringLiteral("picture.png"));
        const Result e = runProgram(cli(), {QStringLiteral("export"),
                                            installed(QStringLiteral("share/fencescope/scenarios/default.json")),
                                            QStringLiteral("-o"), png});
        QVERIFY2(e.exitCode == 0, e.err.constData());
        QCOMPARE(QImage(png).width(), 1920);
        QVERIFY(QFile::remove(png));
        // and animate, with the codec libraries the helper links
        const QString gif = installed(QStringLiteral("run.gif"));
        const Result g = runProgram(
            cli(), {QStringLiteral("animate"),
                    installed(QStringLiteral("share/fencescope/scenarios/default.json")),
                    QStringLiteral("-o"), gif, QStringLiteral("--width"), QStringLiteral("320"),
                    QStringLiteral("--step-seconds"), QStringLiteral("0.5")});
        QVERIFY2(g.exitCode == 0, g.err.constData());
        QCOMPARE(QImage(gif).width(), 320);
        QVERIFY(QFile::remove(gif));
        // live goes to the installed live helper, found beside the installed CLI the same way
        const Result l = runProgram(cli(), {QStringLiteral("live"), QStringLiteral("--help")});
        QVERIFY2(l.exitCode == 0, l.err.constData());
        QVERIFY(l.out.startsWith("usage: fencescope-cli live FILE"));
        // the desktop application, with no display at all: it prints and opens nothing
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.remove(QStringLiteral("QT_QPA_PLATFORM"));
        env.remove(QStringLiteral("DISPLAY"));
        env.remove(QStringLiteral("WAYLAND_DISPLAY"));
        const Result a = runProgram(installed(QStringLiteral("bin/fencescope")),
                                    {QStringLiteral("--version")}, env);
        QCOMPARE(a.exitCode, 0);
        QCOMPARE(a.out, QByteArray("fencescope " FENCESCOPE_VERSION "\n"));
    }

    void scenariosAreTheBuiltInOnesAndValid()
    {
        for (const QString &name : kScenarios) {
            const QString path = installed(QStringLiteral("share/fencescope/scenarios/") + name);
            QCOMPARE(readAll(path),
                     readAll(QStringLiteral(FENCESCOPE_SOURCE_DIR "/resources/scenarios/") + name));
            const Result r = runProgram(cli(), {QStringLiteral("check"), path});
            QVERIFY2(r.exitCode == 0, r.err.constData());
            QVERIFY2(r.out.startsWith(path.toUtf8() + ": ok ("), r.out.constData());
        }
    }

    // the installed lessons name their scenarios as built-in presets: the installed CLI runs
    // them all, and its picture helper writes their handouts
    void lessonsAreTheBuiltInOnesAndSound()
    {
        for (const QString &name : kLessons) {
            const QString path = installed(QStringLiteral("share/fencescope/lessons/") + name);
            QCOMPARE(readAll(path),
                     readAll(QStringLiteral(FENCESCOPE_SOURCE_DIR "/resources/lessons/") + name));
            const Result r =
                runProgram(cli(), {QStringLiteral("lesson"), QStringLiteral("check"), path});
            QVERIFY2(r.exitCode == 0, r.err.constData());
            QVERIFY2(r.out.startsWith(path.toUtf8() + ": ok ("), r.out.constData());
        }
        const QString pdf = installed(QStringLiteral("sheet.pdf"));
        const Result h = runProgram(
            cli(), {QStringLiteral("lesson"), QStringLiteral("handout"),
                    installed(QStringLiteral("share/fencescope/lessons/") + kLessons.first()),
                    QStringLiteral("-o"), pdf});
        QVERIFY2(h.exitCode == 0, h.err.constData());
        QVERIFY(readAll(pdf).startsWith("%PDF"));
        QVERIFY(QFile::remove(pdf));
    }

    void desktopEntry()
    {
        const QString path = installed(QStringLiteral("share/applications/%1.desktop").arg(kId));
        const QString validator =
            QStandardPaths::findExecutable(QStringLiteral("desktop-file-validate"));
        QVERIFY2(
            !validator.isEmpty(),
            "desktop-file-validate not found: bash scripts/deps.sh installs desktop-file-utils");
        const Result r = runProgram(validator, {path});
        QVERIFY2(r.exitCode == 0, r.out.constData());
        // only hints (several main categories, as asked for), no errors or warnings
        QVERIFY2(!r.out.contains("error:") && !r.out.contains("warning:"), r.out.constData());
        const QStringList lines = QString::fromUtf8(readAll(path)).split(QLatin1Char('\n'));
        for (const char *line : {"Type=Application", "Name=FenceScope", "Exec=fencescope %f",
                                 "Terminal=false", "MimeType=application/x-fencescope+json;"})
            QVERIFY2(lines.contains(QLatin1String(line)), line);
        QVERIFY(lines.contains(QStringLiteral("Icon=") + kId));
        QVERIFY(lines.filter(QRegularExpression(QStringLiteral("^Categories=Education;Science;")))
                    .size() == 1);
    }

    void mimeType()
    {
        const QString path = installed(QStringLiteral("share/mime/packages/%1.xml").arg(kId));
        QFile f(path);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QXmlStreamReader xml(&f);
        QStringList types, globs, parents;
        while (!xml.atEnd()) {
            if (xml.readNext() != QXmlStreamReader::StartElement)
                continue;
            if (xml.name() == QLatin1String("mime-type"))
                types << xml.attributes().value(QLatin1String("type")).toString();
            else if (xml.name() == QLatin1String("glob"))
                globs << xml.attributes().value(QLatin1String("pattern")).toString();
            else if (xml.name() == QLatin1String("sub-class-of"))
                parents << xml.attributes().value(QLatin1String("type")).toString();
        }
        QVERIFY2(!xml.hasError(), qPrintable(xml.errorString()));
        QCOMPARE(types, QStringList{"application/x-fencescope+json"});
        QCOMPARE(globs, QStringList{"*.fencescope.json"});
        QCOMPARE(parents, QStringList{"application/json"});

        // and shared-mime-info reads it: a database built from the installed package knows the
        // type by its glob and as a kind of JSON
        const QString update =
            QStandardPaths::findExecutable(QStringLiteral("update-mime-database"));
        QVERIFY2(!update.isEmpty(),
                 "update-mime-database not found: bash scripts/deps.sh installs shared-mime-info");
        QTemporaryDir db;
        QVERIFY(QDir().mkpath(db.filePath(QStringLiteral("mime/packages"))));
        QVERIFY(QFile::copy(path, db.filePath(QStringLiteral("mime/packages/%1.xml").arg(kId))));
        // a database on the data path: update-mime-database adds no note about it
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("XDG_DATA_DIRS"), db.path());
        env.insert(QStringLiteral("XDG_DATA_HOME"), db.path());
        const Result r = runProgram(update, {db.filePath(QStringLiteral("mime"))}, env);
        QVERIFY2(r.exitCode == 0 && r.err.isEmpty(), r.err.constData());
        QVERIFY(readAll(db.filePath(QStringLiteral("mime/globs2")))
                    .contains(":application/x-fencescope+json:*.fencescope.json\n"));
        QVERIFY(readAll(db.filePath(QStringLiteral("mime/subclasses")))
                    .contains("application/x-fencescope+json application/json\n"));
    }

    void metainfoContents()
    {
        QFile f(installed(QStringLiteral("share/metainfo/%1.metainfo.xml").arg(kId)));
        QVERIFY(f.open(QIODevice::ReadOnly));
        QXmlStreamReader xml(&f);
        QMap<QString, QString> text;
        QStringList images;
        QString release;
        while (!xml.atEnd()) {
            if (xml.readNext() != QXmlStreamReader::StartElement)
                continue;
            const QString name = xml.name().toString();
            if (name == QLatin1String("release")) {
                release = xml.attributes().value(QLatin1String("version")).toString();
            } else if (name == QLatin1String("image")) {
                images << xml.readElementText();
            } else if (QStringList({"id", "metadata_license", "project_license", "launchable"})
                           .contains(name)) {
                text[name] = xml.readElementText();
            }
        }
        QVERIFY2(!xml.hasError(), qPrintable(xml.errorString()));
        QCOMPARE(text.value(QStringLiteral("id")), kId);
        QCOMPARE(text.value(QStringLiteral("launchable")), kId + QStringLiteral(".desktop"));
        QCOMPARE(text.value(QStringLiteral("metadata_license")), QStringLiteral("CC0-1.0"));
        QCOMPARE(text.value(QStringLiteral("project_license")), QStringLiteral("MIT"));
        QCOMPARE(release, QStringLiteral(FENCESCOPE_VERSION));
        QVERIFY(!images.isEmpty());
        // every screenshot is one of the project's own
        for (const QString &url : images) {
            const qsizetype at = url.indexOf(QLatin1String("/docs/screenshots/"));
            QVERIFY2(url.startsWith(QLatin1String("https://")) && at > 0, qPrintable(url));
            QVERIFY2(QFile::exists(QStringLiteral(FENCESCOPE_SOURCE_DIR) + url.mid(at)),
                     qPrintable(url));
        }
    }

    void metainfoValidates()
    {
        const QString validator = QStandardPaths::findExecutable(QStringLiteral("appstreamcli"));
        if (validator.isEmpty())
            // (the empty second argument: C++17 wants one for QSKIP's "...", clang -pedantic says)
            QSKIP("appstreamcli not installed (package appstream): metainfo not validated",
                  );
        const Result r = runProgram(
            validator, {QStringLiteral("validate"), QStringLiteral("--no-net"),
                        installed(QStringLiteral("share/metainfo/%1.metainfo.xml").arg(kId))});
        QVERIFY2(r.exitCode == 0, r.out.constData());
    }

    void icons()
    {
        for (int size : kIconSizes) {
            const QString path = installed(
                QStringLiteral("share/icons/hicolor/%1x%1/apps/%2.png").arg(size).arg(kId));
            const QImage image(path);
            QVERIFY2(!image.isNull(), qPrintable(path));
            QCOMPARE(image.size(), QSize(size, size));
            QVERIFY(image.hasAlphaChannel());
            // the shield fills the middle; the corners stay see-through
            QCOMPARE(qAlpha(image.pixel(size / 2, size / 2)), 255);
            QCOMPARE(qAlpha(image.pixel(0, 0)), 0);
        }
        QSvgRenderer svg(
            installed(QStringLiteral("share/icons/hicolor/scalable/apps/%1.svg").arg(kId)));
        QVERIFY(svg.isValid());
        QCOMPARE(svg.viewBoxF(), QRectF(0, 0, 256, 256));
    }

    // The man page says what --help says: every command, its synopsis and every option line.
    void manPage()
    {
        const QString page = unroff(QString::fromUtf8(
            readAll(installed(QStringLiteral("share/man/man1/fencescope-cli.1")))));
        QVERIFY2(page.startsWith(QLatin1String(
                     ".TH FENCESCOPE-CLI 1 \"\" \"fencescope-cli " FENCESCOPE_VERSION "\"")),
                 qPrintable(page.left(200)));
        QVERIFY(page.contains(QLatin1String("\n.SH NAME\nfencescope-cli - ")));
        for (const QString &command : kCommands) {
            QVERIFY2(page.contains(QStringLiteral("\n.SS \"%1\"\n").arg(command)),
                     qPrintable(command));
            QVERIFY(page.contains(QStringLiteral("\nfencescope-cli %1 FILE").arg(command)));
            const Result help = runProgram(cli(), {command, QStringLiteral("--help")});
            QCOMPARE(help.exitCode, 0);
            int options = 0;
            for (const QString &line : QString::fromUtf8(help.out).split(QLatin1Char('\n'))) {
                static const QRegularExpression option(QStringLiteral("^  (-\\S.*?)  +(\\S.*)$"));
                const QRegularExpressionMatch m = option.match(line);
                if (!m.hasMatch())
                    continue;
                ++options;
                QVERIFY2(page.contains(
                             QStringLiteral(".TP\n%1\n%2\n").arg(m.captured(1), m.captured(2))),
                         qPrintable(command + QLatin1Char(' ') + m.captured(1)));
            }
            QVERIFY(options >= 1); // at least --help
        }
    }
};

QTEST_GUILESS_MAIN(TestInstall)
#include "tst_install.moc"
