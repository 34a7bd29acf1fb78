// fencescope: the desktop application.

#include "mainwindow.h"

#include <QApplication>
#include <QElapsedTimer>
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

} // namespace

int main(int argc, char **argv)
{
    QElapsedTimer clock;
    clock.start();
    QApplication app(argc, argv);
    QApplication::setApplicationName(QStringLiteral("FenceScope"));
    QApplication::setOrganizationName(QStringLiteral("FenceScope"));
    QApplication::setApplicationVersion(QStringLiteral(FENCESCOPE_VERSION));
    // Fusion looks the same everywhere and takes the dark theme's palette fully
    if (QStyle *fusion = QStyleFactory::create(QStringLiteral("Fusion")))
        QApplication::setStyle(fusion);

    MainWindow window;
    FirstPaintProbe probe(clock);
    if (qEnvironmentVariableIntValue("FENCESCOPE_STARTUP_PROBE") == 1)
        window.timeline()->installEventFilter(&probe);
    window.show();
    // after show(): the timeline fits the run to its real width, and an error box has a parent
    // work a crashed session left unsaved comes first; a restored scenario is not replaced by
    // the file named on the command line
    const bool restored = window.offerRecovery();
    const QStringList args = QApplication::arguments();
    if (args.size() > 1 && !restored)
        window.openAtStart(args.at(1));
    return app.exec();
}
