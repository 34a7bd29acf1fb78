// fencescope: the desktop application.

#include "mainwindow.h"

#include <QApplication>
#include <QStyleFactory>

int main(int argc, char **argv)
{
    QApplication app(argc, argv);
    QApplication::setApplicationName(QStringLiteral("FenceScope"));
    QApplication::setOrganizationName(QStringLiteral("FenceScope"));
    QApplication::setApplicationVersion(QStringLiteral(FENCESCOPE_VERSION));
    // Fusion looks the same everywhere and takes the dark theme's palette fully
    if (QStyle *fusion = QStyleFactory::create(QStringLiteral("Fusion")))
        QApplication::setStyle(fusion);

    MainWindow window;
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
