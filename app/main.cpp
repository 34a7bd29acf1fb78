// fencescope: the desktop application.

#include "views/timelineview.h"
#include "window/mainwindow.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QElapsedTimer>
#include <QIcon>
#include <QStyleFactory>
#include <QTimer>

#include <cstdio>

namespace {

// FENCESCOPE_STARTUP_PROBE=1: print how long after main() the timeline was first painted,
// then quit (used by bench/startup.sh to measure start-up).
class FirstPaintProbe : public QObject
{
public:
    explicit FirstPaintProbe(const QElapsedTimer &clock) : m_clock(clock) {}

protected:
    bool eventFilter(QObject *watched, QEvent *event) override
    {
        if (event->type() == QEvent::Paint && !m_done) {
            m_done = true;
            // report once this paint has finished
            QTimer::singleShot(0, [this] {
                std::printf("first frame: %lld ms after main()\n",
                            static_cast<long long>(m_clock.elapsed()));
                std::fflush(stdout);
                QCoreApplication::quit();
            });
        }
        return QObject::eventFilter(watched, event);
    }

private:
    const QElapsedTimer &m_clock;
    bool m_done = false;
};

// --help and --version show no window: they need no display either.
bool onlyPrints(int argc, char **argv)
{
    for (int i = 1; i < argc; ++i) {
        if (qstrcmp(argv[i], "--") == 0)
            return false; // what follows is a FILE
        for (const char *option : {"--help", "-h", "--help-all", "--version", "-v"}) {
            if (qstrcmp(argv[i], option) == 0)
                return true;
        }
    }
    return false;
}

} // namespace

int main(int argc, char **argv)
{
    QElapsedTimer clock;
    clock.start();
    if (onlyPrints(argc, argv) && qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    QApplication::setApplicationName(QStringLiteral("FenceScope"));
    QApplication::setOrganizationName(QStringLiteral("FenceScope"));
    QApplication::setApplicationVersion(QStringLiteral(FENCESCOPE_VERSION));
    // the installed desktop entry and icon (share/applications, share/icons/hicolor)
    QGuiApplication::setDesktopFileName(QStringLiteral("io.github.fencescope.FenceScope"));
    QApplication::setWindowIcon(
        QIcon::fromTheme(QStringLiteral("io.github.fencescope.FenceScope")));

    QCommandLineParser parser;
    parser.setApplicationDescription(
        QStringLiteral("FenceScope makes fencing tokens visible: it simulates a lock service with "
                       "leases, paused clients and storages that check tokens, and draws what "
                       "happened."));
    const QCommandLineOption helpOption = parser.addHelpOption();
    const QCommandLineOption versionOption = parser.addVersionOption();
    parser.addPositionalArgument(QStringLiteral("FILE"),
                                 QStringLiteral("scenario to open (.fencescope.json or .json)"),
                                 QStringLiteral("[FILE]"));
    if (!parser.parse(QApplication::arguments())) {
        std::fprintf(stderr, "fencescope: %s\n", qPrintable(parser.errorText()));
        return 2;
    }
    if (parser.isSet(versionOption)) {
        std::printf("fencescope %s\n", FENCESCOPE_VERSION);
        return 0;
    }
    if (parser.isSet(helpOption) || parser.isSet(QStringLiteral("help-all"))) {
        std::fputs(qPrintable(parser.helpText()), stdout);
        return 0;
    }
    const QStringList files = parser.positionalArguments();
    if (files.size() > 1) {
        std::fprintf(stderr, "fencescope: one FILE only, got also %s\n", qPrintable(files.at(1)));
        return 2;
    }
    // Fusion looks the same everywhere and takes the dark theme's palette fully
    if (QStyle *fusion = QStyleFactory::create(QStringLiteral("Fusion")))
        QApplication::setStyle(fusion);

    MainWindow window;
    FirstPaintProbe probe(clock);
    if (qEnvironmentVariableIntValue("FENCESCOPE_STARTUP_PROBE") == 1)
        window.findChild<TimelineView *>()->installEventFilter(&probe);
    window.show();
    // after show(): the timeline fits the run to its real width, and an error box has a parent
    // work a crashed session left unsaved comes first; a restored scenario is not replaced by
    // the file named on the command line
    const bool restored = window.offerRecovery();
    if (!files.isEmpty() && !restored)
        window.openAtStart(files.first());
    return app.exec();
}
